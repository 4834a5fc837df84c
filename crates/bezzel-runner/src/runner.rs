//! The one parallel runner: solves a list of subproblems on a thread pool, optionally
//! recording each finished one in a [`Checkpoint`] so that a rerun resumes, and adds up their
//! counts exactly.
//!
//! The subproblems can be of any serde type: prefixes of decisions (bezzel-core's
//! `parallel::Subproblem`), the first rows of a queens board, anything a caller splits its
//! work into. A [`Runner`] holds the settings (threads, a cancel flag, a checkpoint file, a
//! cluster); [`Runner::open`] or [`Runner::open_fixed`] gives the [`Batch`] to solve (with a
//! checkpoint, the split it recorded and the subproblems already finished), and
//! [`Batch::run`] solves the rest, each worker thread with state of its own (a solver, say),
//! calling back as subproblems finish.
//!
//! A resumable count in a few lines: the primes below 100,000 (there are 9,592), a range of
//! a thousand numbers per subproblem.
//!
//! ```
//! use bezzel_runner::{CheckpointError, RunError, RunReport, Runner, Solved};
//!
//! let is_prime = |n: u64| n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| n % d != 0);
//! let path = std::env::temp_dir().join(format!("bezzel-runner-doc-{}.ckpt", std::process::id()));
//! let count = || -> Result<RunReport<1>, RunError<CheckpointError>> {
//!     Runner::new()
//!         .threads(Some(2))
//!         .checkpoint(&path, "primes below 100000")
//!         // A rerun reads the split from the file instead of calling this.
//!         .open(|| Ok::<_, CheckpointError>((0..100).map(|k| (k * 1000, k * 1000 + 1000)).collect()))?
//!         .run(
//!             || (), // no state per worker here
//!             |_, &(from, to): &(u64, u64), _cancel| {
//!                 Ok(Some(Solved::new([(from..to).filter(|&n| is_prime(n)).count() as u64])))
//!             },
//!             |done, total| eprintln!("{done}/{total} subproblems"),
//!         )
//! };
//! let report = count()?;
//! assert!(report.is_complete());
//! assert_eq!(report.counts, [9592]);
//! // Run it again (after Ctrl-C, say): what the checkpoint holds is not solved twice.
//! let again = count()?;
//! assert_eq!((again.counts, again.solved()), ([9592], 0));
//! std::fs::remove_file(&path)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::checkpoint::{Checkpoint, CheckpointError};
use crate::cluster::{Cluster, ClusterError};
use crate::stats::{Statistics, StopReason};
use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::convert::Infallible;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What a worker reports for one finished subproblem: its `K` counts (solutions first) and the
/// statistics of its search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved<const K: usize> {
    /// The counts, solutions first (e.g. `[solutions, unique solutions]`).
    pub counts: [u64; K],
    /// The statistics of the subproblem's search, as they should add up with the others' (a
    /// search that starts below a prefix of decisions adds the prefix's length to its
    /// `max_depth`, as sequential search would have those decisions on its stack too).
    pub stats: Statistics,
}

impl<const K: usize> Solved<K> {
    /// Counts without statistics (for counters that keep none).
    pub fn new(counts: [u64; K]) -> Solved<K> {
        Solved {
            counts,
            stats: Statistics::default(),
        }
    }

    /// The same counts, with the search's statistics.
    pub fn with_stats(self, stats: Statistics) -> Solved<K> {
        Solved { stats, ..self }
    }
}

/// What a run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunReport<const K: usize> {
    /// The counts of every finished subproblem, those of a resumed checkpoint included,
    /// added up exactly.
    pub counts: [u64; K],
    /// Subproblems finished, those of a resumed checkpoint included.
    pub done: usize,
    /// Subproblems in the split.
    pub total: usize,
    /// Subproblems that a resumed checkpoint had finished before this run.
    pub resumed: usize,
    /// The statistics of the subproblems this run solved, added up: `elapsed` is the run's wall
    /// time, `solutions` the first counts of this run's subproblems, and `stopped` is
    /// [`StopReason::Cancelled`] when the run ended before the split was done.
    pub stats: Statistics,
}

impl<const K: usize> RunReport<K> {
    /// Whether every subproblem of the split is finished, so that the counts are the totals.
    pub fn is_complete(&self) -> bool {
        self.done == self.total
    }

    /// Subproblems this run solved.
    pub fn solved(&self) -> usize {
        self.done - self.resumed
    }
}

/// Why a run failed (being cancelled is no failure: see [`RunReport::is_complete`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RunError<E> {
    /// The split could not be made.
    Split(E),
    /// Solving a subproblem failed; the other workers were stopped. A rerun would meet the
    /// same error, so this is not an interruption.
    Solve {
        /// The subproblem's position in the split.
        index: usize,
        /// What the worker said.
        error: E,
    },
    /// The checkpoint could not be opened, or an entry not recorded.
    Checkpoint(CheckpointError),
    /// The counts add up to more than `u64::MAX` (a wrong total is worse than none).
    Overflow {
        /// The subproblem whose counts went over.
        index: usize,
    },
    /// A thread count of zero.
    ZeroThreads,
    /// The thread pool could not be started.
    ThreadPool(String),
    /// A worker of a distributed run could not solve a subproblem (see
    /// [`Batch::run_distributed`]); the run was stopped. A rerun would meet the same error.
    Remote {
        /// The subproblem's position in the split.
        index: usize,
        /// The worker's rank.
        rank: usize,
        /// What the worker said.
        message: String,
    },
    /// The processes of a distributed run could not talk to each other (a message that was
    /// not sent, or not understood).
    Cluster(ClusterError),
}

impl<E: fmt::Display> fmt::Display for RunError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Split(e) => write!(f, "{e}"),
            RunError::Solve { index, error } => write!(f, "subproblem {index}: {error}"),
            RunError::Checkpoint(e) => write!(f, "{e}"),
            RunError::Overflow { .. } => write!(f, "the count is larger than {}", u64::MAX),
            RunError::ZeroThreads => f.write_str("the thread count must be at least 1"),
            RunError::ThreadPool(e) => write!(f, "cannot start threads: {e}"),
            RunError::Remote {
                index,
                rank,
                message,
            } => write!(f, "subproblem {index} (on rank {rank}): {message}"),
            RunError::Cluster(e) => write!(f, "distributed run: {e}"),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for RunError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Checkpoint(e) => Some(e),
            RunError::Cluster(e) => Some(e),
            _ => None,
        }
    }
}

impl<E> From<CheckpointError> for RunError<E> {
    fn from(e: CheckpointError) -> RunError<E> {
        RunError::Checkpoint(e)
    }
}

impl<E> From<ClusterError> for RunError<E> {
    fn from(e: ClusterError) -> RunError<E> {
        RunError::Cluster(e)
    }
}

impl<E> RunError<E> {
    /// Separates the caller's errors from the runner's own: `Err` with the error of the split
    /// or of a subproblem ([`RunError::Split`], [`RunError::Solve`]), `Ok` with any other,
    /// which holds none of the caller's type.
    pub fn without_caller_error(self) -> Result<RunError<Infallible>, E> {
        match self {
            RunError::Split(e) | RunError::Solve { error: e, .. } => Err(e),
            RunError::Checkpoint(e) => Ok(RunError::Checkpoint(e)),
            RunError::Overflow { index } => Ok(RunError::Overflow { index }),
            RunError::ZeroThreads => Ok(RunError::ZeroThreads),
            RunError::ThreadPool(e) => Ok(RunError::ThreadPool(e)),
            RunError::Remote {
                index,
                rank,
                message,
            } => Ok(RunError::Remote {
                index,
                rank,
                message,
            }),
            RunError::Cluster(e) => Ok(RunError::Cluster(e)),
        }
    }

    /// The same error with the worker's error mapped by `f`.
    pub fn map<F>(self, f: impl FnOnce(E) -> F) -> RunError<F> {
        match self {
            RunError::Split(e) => RunError::Split(f(e)),
            RunError::Solve { index, error } => RunError::Solve {
                index,
                error: f(error),
            },
            RunError::Checkpoint(e) => RunError::Checkpoint(e),
            RunError::Overflow { index } => RunError::Overflow { index },
            RunError::ZeroThreads => RunError::ZeroThreads,
            RunError::ThreadPool(e) => RunError::ThreadPool(e),
            RunError::Remote {
                index,
                rank,
                message,
            } => RunError::Remote {
                index,
                rank,
                message,
            },
            RunError::Cluster(e) => RunError::Cluster(e),
        }
    }
}

/// The settings of a parallel run: threads, a cancel flag, a checkpoint file. See the
/// [module docs](self).
#[derive(Debug, Clone, Default)]
pub struct Runner<'a> {
    threads: Option<usize>,
    cancel: Option<&'a AtomicBool>,
    checkpoint: Option<(PathBuf, String)>,
    cluster: Option<&'a dyn Cluster>,
}

impl<'a> Runner<'a> {
    /// Every core, no cancel flag, no checkpoint.
    pub fn new() -> Runner<'a> {
        Runner::default()
    }

    /// Worker threads; `None` (the default) uses every core. Zero is refused by the run.
    pub fn threads(mut self, threads: Option<usize>) -> Runner<'a> {
        self.threads = threads;
        self
    }

    /// The flag that stops the run: workers look at it between subproblems, and are handed
    /// it to look at inside their search. The runner raises it too, when a worker fails, so
    /// that the others stop.
    pub fn cancel(mut self, cancel: &'a AtomicBool) -> Runner<'a> {
        self.cancel = Some(cancel);
        self
    }

    /// Records finished subproblems in the checkpoint at `path`, for the model named `model`
    /// (see [`Checkpoint::open`]); a run on an existing file resumes it.
    pub fn checkpoint(mut self, path: impl AsRef<Path>, model: impl Into<String>) -> Runner<'a> {
        self.checkpoint = Some((path.as_ref().to_path_buf(), model.into()));
        self
    }

    /// Runs on the processes of `cluster` (MPI ranks, say) with
    /// [`Batch::run_distributed`]: the coordinator (rank 0) splits the work, keeps the
    /// checkpoint and hands out subproblems; on the other ranks [`Runner::open`] makes neither
    /// split nor checkpoint, as their subproblems come from the coordinator.
    pub fn cluster(mut self, cluster: &'a dyn Cluster) -> Runner<'a> {
        self.cluster = Some(cluster);
        self
    }

    /// Whether this process is a worker of a cluster (rank above 0), which neither splits
    /// the work nor keeps the checkpoint, and whose run reports nothing.
    pub fn is_cluster_worker(&self) -> bool {
        self.cluster.is_some_and(|c| c.rank() > 0)
    }

    /// The worker threads of the whole run: [`Runner::thread_count`] on each process of the
    /// cluster (every rank is assumed to start as many), for a split that must give each of
    /// them enough subproblems.
    pub fn total_threads(&self) -> usize {
        self.thread_count() * self.cluster.map_or(1, |c| c.size().max(1))
    }

    /// The checkpoint file, if any.
    pub fn checkpoint_path(&self) -> Option<&Path> {
        self.checkpoint.as_ref().map(|(path, _)| path.as_path())
    }

    /// The number of worker threads a run starts: the one asked for, or every core.
    pub fn thread_count(&self) -> usize {
        self.threads.unwrap_or_else(every_core)
    }

    /// The batch to run, for a split that `split` makes. With a checkpoint, the file is opened
    /// (and locked) now, and a split it recorded wins over `split`, which is then not called:
    /// the split may depend on settings such as the thread count, and a rerun must solve the
    /// same subproblems to add up to the exact total.
    pub fn open<S, E, const K: usize>(
        self,
        split: impl FnOnce() -> Result<Vec<S>, E>,
    ) -> Result<Batch<'a, S, K>, RunError<E>>
    where
        S: Serialize + DeserializeOwned,
    {
        if self.is_cluster_worker() {
            return Ok(self.batch(None, Vec::new()));
        }
        let (checkpoint, subproblems) = match &self.checkpoint {
            Some((path, model)) => {
                let (checkpoint, subproblems) =
                    Checkpoint::open(path, model, K, || split().map_err(RunError::Split))?;
                (Some(checkpoint), subproblems)
            }
            None => (None, split().map_err(RunError::Split)?),
        };
        Ok(self.batch(checkpoint, subproblems))
    }

    /// The batch to run, for a split that depends on the model alone: a checkpoint that
    /// recorded another split is refused (see [`Checkpoint::open_fixed`]).
    pub fn open_fixed<S, const K: usize>(
        self,
        split: Vec<S>,
    ) -> Result<Batch<'a, S, K>, CheckpointError>
    where
        S: Serialize + DeserializeOwned,
    {
        if self.is_cluster_worker() {
            return Ok(self.batch(None, Vec::new()));
        }
        let (checkpoint, subproblems) = match &self.checkpoint {
            Some((path, model)) => {
                let (checkpoint, subproblems) = Checkpoint::open_fixed(path, model, K, split)?;
                (Some(checkpoint), subproblems)
            }
            None => (None, split),
        };
        Ok(self.batch(checkpoint, subproblems))
    }

    /// The batch to run, without a checkpoint (whatever [`Runner::checkpoint`] said), for
    /// subproblems of any type.
    pub fn batch_of<S, const K: usize>(self, subproblems: Vec<S>) -> Batch<'a, S, K> {
        self.batch(None, subproblems)
    }

    fn batch<S, const K: usize>(
        self,
        checkpoint: Option<Checkpoint>,
        subproblems: Vec<S>,
    ) -> Batch<'a, S, K> {
        Batch {
            subproblems,
            checkpoint,
            threads: self.threads,
            cancel: self.cancel,
            cluster: self.cluster,
        }
    }
}

/// One worker thread per core (one if the number of cores cannot be told).
fn every_core() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Subproblems to solve, with the checkpoint that records them; made by [`Runner::open`].
#[derive(Debug)]
pub struct Batch<'a, S, const K: usize> {
    pub(crate) subproblems: Vec<S>,
    pub(crate) checkpoint: Option<Checkpoint>,
    pub(crate) threads: Option<usize>,
    pub(crate) cancel: Option<&'a AtomicBool>,
    pub(crate) cluster: Option<&'a dyn Cluster>,
}

/// What the workers share: one lock per finished subproblem, which is little next to solving
/// it, and keeps the checkpoint's journal, the totals and the progress in one order.
pub(crate) struct Shared<E, const K: usize> {
    pub(crate) checkpoint: Option<Checkpoint>,
    counts: [u64; K],
    pub(crate) done: usize,
    solutions: u64,
    stats: Statistics,
    pub(crate) error: Option<RunError<E>>,
}

impl<'a, S, const K: usize> Batch<'a, S, K> {
    /// The whole split, finished subproblems included (positions are indices into it).
    pub fn subproblems(&self) -> &[S] {
        &self.subproblems
    }

    /// The checkpoint, if the run has one.
    pub fn checkpoint(&self) -> Option<&Checkpoint> {
        self.checkpoint.as_ref()
    }

    /// Subproblems finished before this run (recorded in the checkpoint).
    pub fn resumed(&self) -> usize {
        self.checkpoint.as_ref().map_or(0, Checkpoint::finished)
    }

    /// The positions of the subproblems that this run must solve: those the checkpoint, if
    /// any, does not record as finished.
    pub(crate) fn unfinished(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.subproblems.len())
            .filter(|&i| self.checkpoint.as_ref().is_none_or(|c| !c.is_done(i)))
    }

    /// The worker threads a run on this process starts: the number asked for, or one per
    /// core; zero is an error.
    pub(crate) fn thread_count<E>(&self) -> Result<usize, RunError<E>> {
        match self.threads {
            Some(0) => Err(RunError::ZeroThreads),
            Some(t) => Ok(t),
            None => Ok(every_core()),
        }
    }

    /// Solves the subproblems not yet finished, in parallel. Each worker thread makes its
    /// state with `init` once, then calls `solve(state, subproblem, cancel)` for subproblem
    /// after subproblem: `Ok(Some(solved))` when it finished, `Ok(None)` when `cancel` stopped
    /// it (it is then not counted, and a resumed run solves it again), `Err` when it cannot be
    /// solved, which stops the run. Each finished subproblem is recorded in the checkpoint,
    /// then `progress(done, total)` is called (from worker threads, one at a time, `done`
    /// rising by one each call; it is called once first with the subproblems already done).
    ///
    /// Returns the exact totals; when `cancel` stopped the run, the report says how far it got
    /// ([`RunReport::is_complete`] is false).
    pub fn run<T, E, I, F, P>(
        self,
        init: I,
        solve: F,
        progress: P,
    ) -> Result<RunReport<K>, RunError<E>>
    where
        S: Sync,
        T: Send,
        E: Send,
        I: Fn() -> T + Sync + Send,
        F: Fn(&mut T, &S, &AtomicBool) -> Result<Option<Solved<K>>, E> + Sync + Send,
        P: Fn(usize, usize) + Sync,
    {
        let started = Instant::now();
        let threads = self.thread_count()?;
        let own_flag = AtomicBool::new(false);
        let cancel = self.cancel.unwrap_or(&own_flag);
        let total = self.subproblems.len();
        let todo: Vec<usize> = self.unfinished().collect();
        let resumed = total - todo.len();
        let shared = Mutex::new(Shared::<E, K>::new(self.checkpoint, resumed));
        // A worker that panicked while holding the lock left nothing half-written that
        // matters more than reporting the rest.
        let lock = || shared.lock().unwrap_or_else(|e| e.into_inner());
        let fail = |error| lock().fail(error, cancel);
        progress(resumed, total);
        if !todo.is_empty() {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| RunError::ThreadPool(e.to_string()))?;
            let subproblems = &self.subproblems;
            // One state per worker thread, made on its first subproblem. Each subproblem is a
            // task of its own (`with_max_len(1)`), so an idle thread can always steal one:
            // rayon's default leaves ranges of many subproblems that run to their end on one
            // thread while the other idles (queens count 16, 2 threads: one thread alone for
            // the last 0.25 s of 0.75 s). `for_each_init` would then make a state per task.
            let states: Vec<Mutex<Option<T>>> = (0..threads).map(|_| Mutex::new(None)).collect();
            pool.install(|| {
                todo.par_iter().with_max_len(1).for_each(|&index| {
                    if cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    let slot = rayon::current_thread_index().unwrap_or(0) % states.len();
                    // Only this thread takes this lock, so it never waits.
                    let mut state = states[slot].lock().unwrap_or_else(|e| e.into_inner());
                    let state = state.get_or_insert_with(&init);
                    let solved = match solve(state, &subproblems[index], cancel) {
                        Ok(Some(solved)) => solved,
                        Ok(None) => return,
                        Err(error) => return fail(RunError::Solve { index, error }),
                    };
                    let mut s = lock();
                    match s.add(index, solved) {
                        Ok(()) => progress(s.done, total),
                        Err(e) => s.fail(e, cancel),
                    }
                });
            });
        }
        shared
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .finish(started, total, resumed)
    }
}

impl<E, const K: usize> Shared<E, K> {
    /// The run's state before any subproblem of this run is finished.
    pub(crate) fn new(checkpoint: Option<Checkpoint>, resumed: usize) -> Shared<E, K> {
        let mut counts = [0; K];
        if let Some(c) = &checkpoint {
            counts.copy_from_slice(c.totals());
        }
        Shared {
            checkpoint,
            counts,
            done: resumed,
            solutions: 0,
            stats: Statistics::default(),
            error: None,
        }
    }

    /// Adds a finished subproblem to the totals, after recording it in the checkpoint; an
    /// error (which must stop the run) leaves the totals as they were.
    pub(crate) fn add(&mut self, index: usize, solved: Solved<K>) -> Result<(), RunError<E>> {
        let mut sums = self.counts;
        if sums
            .iter_mut()
            .zip(solved.counts)
            .any(|(sum, c)| sum.checked_add(c).map(|new| *sum = new).is_none())
        {
            return Err(RunError::Overflow { index });
        }
        if let Some(c) = self.checkpoint.as_mut() {
            c.record(index, &solved.counts)?;
        }
        self.counts = sums;
        self.done += 1;
        self.solutions = self
            .solutions
            .saturating_add(solved.counts.first().copied().unwrap_or(0));
        self.stats += solved.stats;
        Ok(())
    }

    /// Keeps the run's first error, and raises `cancel` so that every worker stops.
    pub(crate) fn fail(&mut self, error: RunError<E>, cancel: &AtomicBool) {
        self.error.get_or_insert(error);
        cancel.store(true, Ordering::Relaxed);
    }

    /// The run's report, once every worker has stopped (or its first error).
    pub(crate) fn finish(
        mut self,
        started: Instant,
        total: usize,
        resumed: usize,
    ) -> Result<RunReport<K>, RunError<E>> {
        if let Some(c) = self.checkpoint.as_mut()
            && let Err(e) = c.sync()
        {
            self.error.get_or_insert(RunError::Checkpoint(e));
        }
        if let Some(e) = self.error {
            return Err(e);
        }
        let mut stats = self.stats;
        stats.elapsed = started.elapsed();
        stats.solutions = self.solutions;
        stats.stopped = (self.done < total).then_some(StopReason::Cancelled);
        Ok(RunReport {
            counts: self.counts,
            done: self.done,
            total,
            resumed,
            stats,
        })
    }
}
