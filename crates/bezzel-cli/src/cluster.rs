//! `--mpi`: a count run on the ranks of an MPI job (`mpirun -np K queens count 18 --mpi`).
//!
//! Every rank runs the same command; rank 0 splits the work, hands it out, keeps the
//! checkpoint and prints, the others solve quietly (see `bezzel_mpi`). A program built without
//! the `mpi` feature refuses the flag with a message that says how to build one with it.

use crate::{Failure, escape, status, warn};
pub use bezzel_mpi::Mpi;

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
        Mpi::initialize()
            .map(Some)
            .map_err(|e| Failure::input(format!("--mpi: {e}")))
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
pub fn end(program: &str, mpi: Option<Mpi>, result: Result<u8, Failure>) -> Result<u8, Failure> {
    let Some(mpi) = mpi else {
        return result;
    };
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
                std::thread::sleep(std::time::Duration::from_secs(2));
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
