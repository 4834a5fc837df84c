//! # bezzel-runner: many subproblems, one exact total, resumable
//!
//! Every parallel count in Bezzel splits its work into subproblems (prefixes of decisions,
//! the first rows of a queens board, puzzles of a batch) and adds up what each one counts.
//! This crate does that part, for subproblems of any serde type, and knows nothing of
//! constraints:
//!
//! - [`runner`]: a [`Runner`] holds the settings (threads, a cancel flag, a checkpoint file,
//!   a cluster); [`Runner::open`] gives the [`Batch`] to solve, and [`Batch::run`] solves it
//!   on a thread pool, each worker with state of its own, into a [`RunReport`] of exact
//!   totals, or a [`RunError`];
//! - [`checkpoint`]: the journal that records each finished subproblem, so that a rerun
//!   after Ctrl-C, a crash or a kill solves only what is missing, and counts nothing twice;
//! - [`stats`]: the [`Statistics`] of a search and how the parts of a split add up;
//! - [`cluster`]: the [`Cluster`] trait, the processes of a distributed run (MPI ranks, in
//!   the `bezzel-mpi` crate, or threads);
//! - [`distributed`]: the protocol that hands subproblems out to the ranks of a cluster
//!   ([`Batch::run_distributed`]) and answers streams of items ([`distributed::map_round`]).
//!
//! The arrows go one way: `stats` and `cluster` stand alone, `checkpoint` stands alone,
//! `runner` uses all three, and `distributed` builds on `runner`. bezzel-core's parallel
//! search is one user of the runner; the queens counters and the sudoku batches are others.
//!
//! ```
//! use bezzel_runner::{Runner, Solved};
//!
//! // The squares of 1..=100 on two threads, each subproblem one number, counted twice over:
//! // the squares, and how many of them are even.
//! let report = Runner::new()
//!     .threads(Some(2))
//!     .batch_of::<u64, 2>((1..=100).collect())
//!     .run(
//!         || (),
//!         |_, &x, _cancel| Ok::<_, String>(Some(Solved::new([x * x, u64::from(x % 2 == 0)]))),
//!         |_done, _total| {},
//!     )?;
//! assert!(report.is_complete());
//! assert_eq!(report.counts, [338_350, 50]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

pub mod checkpoint;
pub mod cluster;
pub mod distributed;
pub mod runner;
pub mod stats;

pub use checkpoint::{Checkpoint, CheckpointError};
pub use cluster::{Cluster, ClusterError};
pub use runner::{Batch, RunError, RunReport, Runner, Solved};
pub use stats::{Statistics, StopReason};
