//! Ctrl-C and the time limit, as one flag that every search watches.

use crate::failure::{Failure, status};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Why a run was stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopCause {
    /// The user pressed Ctrl-C (or the program got SIGTERM).
    Interrupted,
    /// `--time-limit` ran out.
    TimeLimit,
}

const RUNNING: u8 = 0;
const INTERRUPTED: u8 = 1;
const TIME_LIMIT: u8 = 2;

/// A cancel flag raised by Ctrl-C or by the end of the time limit, whichever comes first,
/// remembering which. Hand [`flag`](Stop::flag) to the library's searches (they look at it
/// between nodes or subproblems and stop within milliseconds), then ask
/// [`cause`](Stop::cause) whether the run was cut short.
///
/// A second Ctrl-C ends the program at once, with status 130, and so does a first one after
/// the time limit ran out (the program is stopping already; the user wants it gone). A rank of
/// an MPI job never quits at once: its launcher relays one press as several signals, and ends
/// the job itself when the user insists.
#[derive(Debug, Clone)]
pub struct Stop {
    flag: Arc<AtomicBool>,
    cause: Arc<AtomicU8>,
}

/// Signals closer together than this are one Ctrl-C: `timeout -s INT` and a terminal both
/// may deliver one press twice (to the process and to its group).
const SAME_PRESS: Duration = Duration::from_millis(300);

/// Set in a rank of an MPI job: every signal then asks for the orderly stop.
static LAUNCHED: AtomicBool = AtomicBool::new(false);

/// Set by the first signal that reaches this process.
static SIGNALLED: AtomicBool = AtomicBool::new(false);

/// Whether a signal (Ctrl-C, SIGTERM, SIGHUP) has reached this process since its [`Stop`]
/// was installed; a flag raised by the time limit, by [`Stop::raise`] or by rank 0's cancel
/// does not count.
pub(crate) fn signalled() -> bool {
    SIGNALLED.load(Ordering::Relaxed)
}

/// Makes this process one rank of a job whose launcher (`mpirun`) owns Ctrl-C: from now on
/// every signal asks for the orderly stop, and none ends the program at once.
///
/// A launcher relays one press as several signals, seconds apart: Open MPI's `mpirun` sends
/// the ranks SIGCONT, SIGTERM a second later and SIGKILL a second after that; other launchers
/// forward the SIGINT and then send SIGTERM. And a rank's flag is often up already, raised by
/// rank 0's cancel, when its own signal comes. None of these is a second press; counting one
/// as such killed every rank before rank 0 could print its summary. A user who wants the job
/// gone at once presses again at `mpirun`, which then kills the ranks itself.
pub(crate) fn leave_quitting_to_the_launcher() {
    LAUNCHED.store(true, Ordering::Relaxed);
}

/// The one Ctrl-C handler of the process (the `ctrlc` crate takes one), shared by every
/// [`Stop`].
fn interrupts() -> &'static (Arc<AtomicBool>, Arc<AtomicU8>) {
    static SHARED: OnceLock<(Arc<AtomicBool>, Arc<AtomicU8>)> = OnceLock::new();
    SHARED.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let cause = Arc::new(AtomicU8::new(RUNNING));
        let (handler_flag, handler_cause) = (flag.clone(), cause.clone());
        let program = std::env::args()
            .next()
            .and_then(|p| {
                std::path::Path::new(&p)
                    .file_name()
                    .map(|f| f.to_string_lossy().into_owned())
            })
            .unwrap_or_default();
        let mut first_press: Option<Instant> = None;
        // Without a handler (none can be installed in some sandboxes), Ctrl-C simply kills.
        let _ = ctrlc::set_handler(move || {
            SIGNALLED.store(true, Ordering::Relaxed);
            let now = Instant::now();
            let launched = LAUNCHED.load(Ordering::Relaxed);
            match press(
                first_press,
                handler_flag.load(Ordering::Relaxed),
                launched,
                now,
            ) {
                Press::First => first_press = Some(now),
                Press::Same => return,
                Press::Again => quit(&program),
            }
            raise(&handler_flag, &handler_cause, INTERRUPTED);
        });
        (flag, cause)
    })
}

/// What a signal means to the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Press {
    /// The request to stop in order.
    First,
    /// Part of a request already heard.
    Same,
    /// A second request: quit at once.
    Again,
}

/// What a signal at `now` means, given when the first press came, whether the flag was up
/// before it, and whether a launcher relays the presses ([`leave_quitting_to_the_launcher`]).
fn press(first: Option<Instant>, flag_up: bool, launched: bool, now: Instant) -> Press {
    match first {
        // The launcher ends the job when the user insists; every signal it relays is one
        // request, even when rank 0's cancel raised the flag before it.
        Some(_) if launched => Press::Same,
        None if launched => Press::First,
        // The work is stopping already (an earlier press, or the time limit ran out and the
        // program is winding down): another press means "now".
        Some(t) if now.duration_since(t) >= SAME_PRESS => Press::Again,
        Some(_) => Press::Same,
        None if flag_up => Press::Again,
        None => Press::First,
    }
}

/// Raises `flag` for the reason `why` (`INTERRUPTED` or `TIME_LIMIT`), unless a cause was
/// recorded first: the first reason is the one reported.
fn raise(flag: &AtomicBool, cause: &AtomicU8, why: u8) {
    let _ = cause.compare_exchange(RUNNING, why, Ordering::Relaxed, Ordering::Relaxed);
    flag.store(true, Ordering::Relaxed);
}

/// Ends the program at once, on a second Ctrl-C.
fn quit(program: &str) -> ! {
    crate::warn(&format!("{program}: interrupted again, quitting at once"));
    std::process::exit(i32::from(status::INTERRUPTED));
}

impl Stop {
    /// Watches Ctrl-C, and with a `time_limit` raises the flag when it runs out (counted from
    /// now).
    pub fn install(time_limit: Option<Duration>) -> Stop {
        let (flag, cause) = interrupts().clone();
        if let Some(limit) = time_limit {
            let (timer_flag, timer_cause) = (flag.clone(), cause.clone());
            std::thread::spawn(move || {
                std::thread::sleep(limit);
                raise(&timer_flag, &timer_cause, TIME_LIMIT);
            });
        }
        Stop { flag, cause }
    }

    /// A stop that only a caller raises (for tests and library use).
    pub fn manual() -> Stop {
        Stop {
            flag: Arc::new(AtomicBool::new(false)),
            cause: Arc::new(AtomicU8::new(RUNNING)),
        }
    }

    /// The flag to hand to searches.
    pub fn flag(&self) -> &Arc<AtomicBool> {
        &self.flag
    }

    /// Whether the flag is up.
    pub fn is_raised(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// Raises the flag, as if the user pressed Ctrl-C.
    pub fn raise(&self) {
        raise(&self.flag, &self.cause, INTERRUPTED);
    }

    /// Why the flag was raised, if it was.
    pub fn cause(&self) -> Option<StopCause> {
        if !self.is_raised() {
            return None;
        }
        match self.cause.load(Ordering::Relaxed) {
            TIME_LIMIT => Some(StopCause::TimeLimit),
            _ => Some(StopCause::Interrupted),
        }
    }

    /// The failure that ends a run cut short, `summary` saying how far it got: `interrupted:
    /// summary` with status 130, or `time limit reached: summary` with status 124.
    pub fn failure(&self, summary: &str) -> Failure {
        match self.cause() {
            Some(StopCause::TimeLimit) => Failure {
                message: format!("time limit reached: {summary}"),
                status: status::TIME_LIMIT,
            },
            _ => Failure {
                message: format!("interrupted: {summary}"),
                status: status::INTERRUPTED,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Press, press};
    use std::time::{Duration, Instant};

    /// Each signal as the program's own (`alone`) and relayed by a launcher such as
    /// `mpirun` (`relayed`): a second press quits at once only when no launcher relays them.
    #[test]
    fn a_later_press_quits_unless_a_launcher_relays_it() {
        let t = Instant::now();
        let after = |ms| t + Duration::from_millis(ms);
        // (first press, flag up before, signal at, alone, relayed)
        for (first, flag_up, now, alone, relayed) in [
            // A first press stops in order.
            (None, false, t, Press::First, Press::First),
            // A terminal delivers one press to the process and to its group.
            (Some(t), true, after(20), Press::Same, Press::Same),
            // A second later: the user insists, or mpirun's SIGTERM after the SIGINT it
            // forwarded.
            (Some(t), true, after(1000), Press::Again, Press::Same),
            // The flag up before any press: the program winds down after its time limit, or
            // rank 0's cancel raised a worker's flag before its signal.
            (None, true, t, Press::Again, Press::First),
        ] {
            let case = format!("first {first:?}, flag up {flag_up}, after {:?}", now - t);
            assert_eq!(press(first, flag_up, false, now), alone, "alone: {case}");
            assert_eq!(press(first, flag_up, true, now), relayed, "relayed: {case}");
        }
    }
}
