//! `--mpi`: a count run on the ranks of an MPI job (`mpirun -np K queens count 18 --mpi`).
//!
//! Every rank runs the same command; rank 0 splits the work, hands it out, keeps the
//! checkpoint and prints, the others solve quietly (see `bezzel_mpi`). A program built without
//! the `mpi` feature refuses the flag with a message that says how to build one with it.

use crate::{Failure, escape, status, warn};
pub use bezzel_mpi::Mpi;
use std::time::Duration;

/// `--mpi`.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct MpiFlag {
    /// Run on the ranks of an MPI job (`mpirun -np K ...`), each with --threads threads:
    /// rank 0 hands out subproblems, keeps the checkpoint and prints (needs a build with
    /// `--features mpi`).
    #[arg(long)]
    pub mpi: bool,
}

impl MpiFlag {
    /// MPI, initialised, when the flag is given: keep it until the answer is printed (dropping
    /// it ends MPI).
    pub fn start(&self) -> Result<Option<Mpi>, Failure> {
        if !self.mpi {
            return Ok(None);
        }
        let mpi = Mpi::initialize().map_err(|e| Failure::input(format!("--mpi: {e}")))?;
        crate::stop::leave_quitting_to_the_launcher();
        Ok(Some(mpi))
    }
}

impl MpiFlag {
    /// Runs `command` with MPI started when the flag is given, and ends it as [`end`] says.
    pub fn run(
        &self,
        program: &str,
        command: impl FnOnce(Option<&Mpi>) -> Result<u8, Failure>,
    ) -> Result<u8, Failure> {
        let mpi = self.start()?;
        let result = command(mpi.as_ref());
        end(program, mpi, result)
    }
}

/// Whether this process is an MPI worker (rank above 0), which prints nothing.
pub fn is_worker(mpi: Option<&Mpi>) -> bool {
    mpi.is_some_and(|m| m.rank() > 0)
}

/// The result of a command run with `mpi`: a worker's is quiet, and a failure (other than a
/// time limit or Ctrl-C, which stop every rank in order) ends the whole job, as the other
/// ranks could otherwise wait on this one forever. Rank 0 says why; a worker says nothing
/// (bad input fails on every rank alike, and rank 0's message is the one to read) and gives
/// rank 0 a moment to say it before ending the job.
///
/// A rank that a signal reached ends differently: see `end_signalled`.
pub fn end(program: &str, mpi: Option<Mpi>, result: Result<u8, Failure>) -> Result<u8, Failure> {
    let Some(mpi) = mpi else {
        return result;
    };
    if crate::stop::signalled() {
        return end_signalled(mpi, result);
    }
    match result {
        Err(f)
            if mpi.size() > 1
                && f.status != status::TIME_LIMIT
                && f.status != status::INTERRUPTED =>
        {
            if mpi.rank() == 0 {
                if !f.message.is_empty() {
                    warn(&format!("{program}: {}", escape(&f.message)));
                }
            } else {
                std::thread::sleep(Duration::from_secs(2));
            }
            mpi.abort(i32::from(f.status))
        }
        Err(f) if mpi.rank() > 0 => Err(Failure {
            message: String::new(),
            status: f.status,
        }),
        result => result,
    }
}

/// How long a worker that a signal reached waits before it exits: longer than Open MPI's
/// `mpirun` leaves between its SIGTERM and its SIGKILL (one second).
const WORKER_LINGER: Duration = Duration::from_secs(2);

/// The end of a rank that a signal reached: Ctrl-C at `mpirun`, which Open MPI relays to the
/// ranks as SIGCONT, SIGTERM a second later, and SIGKILL to all either a second after that
/// or as soon as one rank exits, whichever comes first. The job is being torn down, so no
/// rank finalises MPI (`MPI_Finalize` would wait on the launcher until the SIGKILL). Rank 0
/// returns its result at once (the summary, status 130); a worker, whose part was handed back
/// to rank 0 already, waits for the launcher to end it ([`WORKER_LINGER`] at most) and then
/// exits quietly with 130, so that it cannot take rank 0 down before its summary is out.
fn end_signalled(mpi: Mpi, result: Result<u8, Failure>) -> Result<u8, Failure> {
    let worker = mpi.rank() > 0;
    mpi.leave_unfinalized();
    if !worker {
        return result;
    }
    std::thread::sleep(WORKER_LINGER);
    Err(Failure {
        message: String::new(),
        status: result.err().map_or(status::INTERRUPTED, |f| f.status),
    })
}
