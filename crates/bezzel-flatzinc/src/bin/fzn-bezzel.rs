//! `fzn-bezzel`: Bezzel as a FlatZinc solver. Reads FlatZinc (a file, or standard input),
//! prints solutions as the FlatZinc specification asks; see the `bezzel_flatzinc` crate.
//!
//! Exit statuses: 0 after an answer (also when the time limit cut the search short, as
//! FlatZinc solvers do), 1 for a model Bezzel cannot run (after `=====ERROR=====`), 2 for a
//! bad command line, 130 after Ctrl-C (what was found is printed first).
//!
//! The time limit counts from the start of the process, so that reading and translating a
//! large model count. The search checks it between nodes, every so many of them; a node of a
//! large model can take long (or the root propagation), so a watchdog ends the process a
//! second after the limit, with `=====UNKNOWN=====` when no solution was printed yet.

use bezzel_cli::{Failure, Stop, StopCause};
use bezzel_flatzinc::Cli;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The program's name in messages.
const PROGRAM: &str = "fzn-bezzel";

/// The status after an error in the FlatZinc (MiniZinc reads `=====ERROR=====` too).
const MODEL_ERROR: u8 = 1;

/// Standard output, noting whether a solution (a `----------` line) went through.
struct Watched {
    printed: Arc<AtomicBool>,
}

impl Write for Watched {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        // One call per solution: the lock keeps the watchdog's last line after it.
        let mut out = std::io::stdout().lock();
        out.write_all(buf)?;
        out.flush()?;
        if buf.windows(10).any(|w| w == b"----------") {
            self.printed.store(true, Ordering::SeqCst);
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stdout().flush()
    }
}

fn main() -> ExitCode {
    // The time limit is the whole run's: reading and translating a large model count.
    let started = Instant::now();
    let cli = match bezzel_cli::parse_args::<Cli>(PROGRAM) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    bezzel_cli::exit(PROGRAM, run(cli, started))
}

fn run(cli: Cli, started: Instant) -> Result<u8, Failure> {
    if let Some(dir) = &cli.write_msc {
        let executable = std::env::current_exe()
            .and_then(std::fs::canonicalize)
            .map_err(|e| {
                Failure::input(format!(
                    "cannot find this executable's path: {}",
                    bezzel_cli::io_reason(&e)
                ))
            })?;
        let msc = bezzel_flatzinc::write_msc(dir, &executable)
            .map_err(|e| Failure::input(e.to_string()))?;
        writeln!(std::io::stdout(), "{}", msc.display())?;
        return Ok(0);
    }
    let options = bezzel_flatzinc::Options {
        started: Some(started),
        ..cli.options
    };
    let printed = Arc::new(AtomicBool::new(false));
    if let Some(ms) = options.time_ms {
        let printed = Arc::clone(&printed);
        std::thread::spawn(move || {
            let deadline = started + Duration::from_millis(ms) + Duration::from_secs(1);
            std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
            let mut out = std::io::stdout().lock();
            if !printed.load(Ordering::SeqCst) {
                let _ = writeln!(out, "=====UNKNOWN=====");
            }
            let _ = out.flush();
            std::process::exit(0);
        });
    }
    // Ctrl-C stops the search as the time limit does; the time limit is the search's own.
    let stop = Stop::install(None);
    let mut out = Watched { printed };
    match bezzel_flatzinc::run(&options, Some(stop.flag()), &mut out) {
        Ok(()) if stop.cause() == Some(StopCause::Interrupted) => {
            Err(stop.failure("the answer printed is what was found"))
        }
        Ok(()) => Ok(0),
        Err(e) => {
            // MiniZinc recognises the error line; the message goes to both streams so that it
            // is seen whether the solver runs alone or under `minizinc`.
            let _ = writeln!(out, "% Error: {e}\n=====ERROR=====");
            Err(Failure {
                message: e.to_string(),
                status: MODEL_ERROR,
            })
        }
    }
}
