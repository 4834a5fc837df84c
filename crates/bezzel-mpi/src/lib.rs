//! Bezzel's parallel runner on the ranks of an MPI job: [`Mpi`] is the [`Cluster`] that
//! [`Batch::run_distributed`](bezzel_runner::Batch::run_distributed) sends its subproblems and
//! results through, over the `mpi` crate (rsmpi).
//!
//! MPI is a Cargo feature (`mpi`), off by default, so that the workspace builds on machines
//! without it; without the feature, [`Mpi::initialize`] fails with [`MpiError::NotBuilt`]
//! and the programs' `--mpi` says so. Every rank runs the same program: rank 0 splits the
//! work, hands it out on request, keeps the checkpoint and prints; see
//! [`distributed`](bezzel_runner::distributed) for the protocol.
//!
//! ```no_run
//! use bezzel_core::parallel::ParallelSearch;
//! use bezzel_core::prelude::*;
//!
//! let queens = || -> Result<Model, ModelError> {
//!     let mut m = Model::new();
//!     let q = m.int_vars(12, 0..12)?;
//!     let up: Vec<IntView> = q.iter().enumerate().map(|(i, x)| x.offset(i as i32)).collect();
//!     let down: Vec<IntView> = q.iter().enumerate().map(|(i, x)| x.offset(-(i as i32))).collect();
//!     m.all_different(&q)?;
//!     m.all_different(&up)?;
//!     m.all_different(&down)?;
//!     Ok(m)
//! };
//! // mpirun -np 4 this-program
//! let mpi = bezzel_mpi::Mpi::initialize()?;
//! let search = ParallelSearch::new("queens 12", queens).threads(Some(2));
//! let report = search.count_distributed(&mpi, Some("queens12.ckpt".as_ref()), None, |_, _| {})?;
//! if mpi.rank() == 0 {
//!     println!("{}", report.counts[0]); // 14200
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use bezzel_runner::Cluster;
use std::fmt;

/// Whether this build has MPI (the `mpi` feature).
pub const ENABLED: bool = cfg!(feature = "mpi");

/// Why MPI cannot be used.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MpiError {
    /// The program was built without the `mpi` feature.
    NotBuilt,
    /// MPI was initialised already in this process (it can be only once).
    AlreadyInitialized,
}

impl fmt::Display for MpiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MpiError::NotBuilt => f.write_str(
                "this program was built without MPI support: rebuild it with `--features mpi` \
                 (needs Open MPI and libclang: apt-get install libopenmpi-dev openmpi-bin libclang-dev)",
            ),
            MpiError::AlreadyInitialized => f.write_str("MPI was initialised already"),
        }
    }
}

impl std::error::Error for MpiError {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for MpiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MpiError: {self}")
    }
}

/// This process's place in the MPI job, from [`Mpi::initialize`] until it is dropped (which
/// finalises MPI: keep it alive while the run lasts).
pub struct Mpi {
    #[cfg(feature = "mpi")]
    world: mpi::topology::SimpleCommunicator,
    // Dropped last: finalises MPI.
    #[cfg(feature = "mpi")]
    _universe: mpi::environment::Universe,
    #[cfg(not(feature = "mpi"))]
    never: std::convert::Infallible,
}

impl fmt::Debug for Mpi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mpi")
            .field("rank", &self.rank())
            .field("size", &self.size())
            .finish()
    }
}

#[cfg(feature = "mpi")]
mod on {
    use super::{Mpi, MpiError};
    use mpi::Threading;
    use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
    use mpi::topology::Communicator;

    impl Mpi {
        /// Initialises MPI for this process (only the thread that calls this talks to MPI;
        /// the solver threads do not).
        pub fn initialize() -> Result<Mpi, MpiError> {
            let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)
                .ok_or(MpiError::AlreadyInitialized)?;
            Ok(Mpi {
                world: universe.world(),
                _universe: universe,
            })
        }

        /// This process's rank (0 prints and keeps the checkpoint).
        pub fn rank(&self) -> usize {
            self.world.rank() as usize
        }

        /// The number of ranks.
        pub fn size(&self) -> usize {
            self.world.size() as usize
        }

        /// Ends the whole job with exit status `code`: for an error on one rank, which the
        /// others would otherwise wait on forever.
        pub fn abort(&self, code: i32) -> ! {
            self.world.abort(code)
        }

        /// Ends this process's use of MPI without finalising it, for a job its launcher is
        /// tearing down (after Ctrl-C at `mpirun`): `MPI_Finalize` would wait on the launcher
        /// until it kills the process.
        pub fn leave_unfinalized(self) {
            // Finalising is the universe's destructor, the one thing to skip.
            std::mem::forget(self);
        }

        pub(super) fn send_bytes(&self, to: usize, message: &[u8]) {
            // rsmpi's error handler aborts the job on a failed send.
            self.world.process_at_rank(to as i32).send(message);
        }

        pub(super) fn try_receive_bytes(&self) -> Option<(usize, Vec<u8>)> {
            let probed = self.world.any_process().immediate_matched_probe()?;
            let (bytes, status) = probed.matched_receive_vec::<u8>();
            Some((status.source_rank() as usize, bytes))
        }
    }
}

#[cfg(not(feature = "mpi"))]
impl Mpi {
    /// Initialises MPI for this process: in this build, [`MpiError::NotBuilt`].
    pub fn initialize() -> Result<Mpi, MpiError> {
        Err(MpiError::NotBuilt)
    }

    /// This process's rank (0 prints and keeps the checkpoint).
    pub fn rank(&self) -> usize {
        match self.never {}
    }

    /// The number of ranks.
    pub fn size(&self) -> usize {
        match self.never {}
    }

    /// Ends the whole job with exit status `code`.
    pub fn abort(&self, _code: i32) -> ! {
        match self.never {}
    }

    /// Ends this process's use of MPI without finalising it.
    pub fn leave_unfinalized(self) {
        match self.never {}
    }

    fn send_bytes(&self, _to: usize, _message: &[u8]) {
        match self.never {}
    }

    fn try_receive_bytes(&self) -> Option<(usize, Vec<u8>)> {
        match self.never {}
    }
}

impl Cluster for Mpi {
    fn rank(&self) -> usize {
        Mpi::rank(self)
    }

    fn size(&self) -> usize {
        Mpi::size(self)
    }

    fn send(&self, to: usize, message: &[u8]) -> Result<(), String> {
        if to >= self.size() {
            return Err(format!("no rank {to} among {}", self.size()));
        }
        self.send_bytes(to, message);
        Ok(())
    }

    fn try_receive(&self) -> Result<Option<(usize, Vec<u8>)>, String> {
        Ok(self.try_receive_bytes())
    }
}
