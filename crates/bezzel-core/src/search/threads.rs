//! Search on several threads from the same [`Solver`]: the number of threads is a setting of
//! the solver, and [`count`](Solver::count), [`solutions`](Solver::solutions),
//! [`minimize`](Solver::minimize) and [`maximize`](Solver::maximize) answer as on one
//! thread.
//!
//! A solver owns its model, and a model cannot be copied (its propagators need not be
//! `Clone`), so a solver that searches on threads is made from the closure that builds the
//! model ([`Solver::parallel`]): it builds one copy for itself and one per worker. Under the
//! hood it is [`ParallelSearch`] (the lower layer, which stays available for what this does
//! not cover: a brancher or branch groups in every worker, subproblems written out): the tree
//! is split into subproblems by the solver's configuration, and the workers solve them. Counts
//! are exact (a split is a partition of the tree) and optima are the same as on one thread.
//! The solutions iterator is fed through a bounded channel by the workers: each solution
//! comes once, and the set is the one thread's, in the order the workers find them; the
//! workers stay a few hundred solutions ahead at most, and dropping the iterator stops them
//! at their next node (the drop waits for them).
//!
//! What a worker cannot copy makes the run search here, on one thread, with the same answer:
//! limits (on several threads they would apply to each subproblem separately), an
//! [`Observer`](super::Observer), and a [`Brancher`] set with
//! [`Solver::brancher`] (a brancher is one object, with its own state). A brancher made for
//! each copy ([`Solver::brancher_per_copy`]) goes to every worker. Branch groups and
//! [`branch_on`](Solver::branch_on) guide only the solver's own searches; the workers branch
//! by the configuration's orders, which changes how fast, not what, they find.
//! [`first`](Solver::first) and [`solutions_in`](Solver::solutions_in) search here, lazily,
//! as on a solver made from a model. [`count_resumable`](Solver::count_resumable)
//! and [`count_distributed`](Solver::count_distributed) reach the checkpoint journal and MPI
//! ranks from the same solver.

use super::dfs::Solver;
use super::optimize::Sense;
use crate::error::ModelError;
use crate::model::Model;
use crate::parallel::{
    Cluster, MakeBrancherFn, ParallelCount, ParallelError, ParallelSearch, RunError, RunReport,
};
use crate::search::Brancher;
use crate::solution::Solution;
use crate::var::IntView;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::{JoinHandle, ScopedJoinHandle};
use std::time::Duration;

/// Builds a copy of the model, for the solver itself and for each worker.
type Build = dyn Fn() -> Result<Model, ModelError> + Send + Sync;

/// How a solver made by [`Solver::parallel`] searches on threads.
#[derive(Clone)]
pub(super) struct Threads {
    /// Builds each worker's copy of the model.
    build: Arc<Build>,
    /// Worker threads; 0 for one per core.
    threads: usize,
    /// The model's name in its subproblems and checkpoints.
    identity: String,
    /// Makes each worker's brancher ([`Solver::brancher_per_copy`]).
    brancher: Option<Arc<MakeBrancherFn>>,
}

impl fmt::Debug for Threads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Threads")
            .field("threads", &self.threads)
            .field("identity", &self.identity)
            .field("brancher", &self.brancher.is_some())
            .finish()
    }
}

/// A name for a model that two builds of the same model share and that other models are
/// unlikely to: its sizes and an FNV-1a hash of its variables' names. It tells a checkpoint
/// of another model from one of this model.
fn identity(model: &Model) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for name in model.names() {
        for &byte in name.as_bytes().iter().chain(&[0]) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!(
        "model of {} variables and {} propagators, names {hash:016x}",
        model.num_vars(),
        model.num_propagators()
    )
}

impl Solver {
    /// A solver over the model that `build` makes, which searches on `threads` worker
    /// threads (0: one per core): [`count`](Solver::count), [`solutions`](Solver::solutions),
    /// [`minimize`](Solver::minimize) and [`maximize`](Solver::maximize) split the tree and
    /// solve its parts on the workers, each with its own copy of the model, and answer as on
    /// one thread (see the [module docs](super::threads) for what stays on one thread).
    /// Everything else ([`first`](Solver::first), ...) searches here, on the first copy.
    /// `build` must make the same model every time; its error, if any, is returned. Since
    /// every build is the same model, a variable of any build names the same one: the
    /// objective may be one, and every solution is read with them, whichever copy found it.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    ///
    /// let queens = || -> Result<Model, ModelError> {
    ///     let mut m = Model::new();
    ///     let q = m.int_vars(8, 0..8)?;
    ///     let up: Vec<IntView> = q.iter().enumerate().map(|(i, x)| x.offset(i as i32)).collect();
    ///     let down: Vec<IntView> = q.iter().enumerate().map(|(i, x)| x.offset(-(i as i32))).collect();
    ///     m.all_different(&q)?;
    ///     m.all_different(&up)?;
    ///     m.all_different(&down)?;
    ///     Ok(m)
    /// };
    /// let mut solver = Solver::parallel(2, queens)?;
    /// assert_eq!(solver.count(), 92);
    /// // The column of the first queen, as small as it can be: 0.
    /// let first = solver.model().vars()[0];
    /// assert_eq!(solver.minimize(first)?.finish().value, Some(0));
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn parallel(
        threads: usize,
        build: impl Fn() -> Result<Model, ModelError> + Send + Sync + 'static,
    ) -> Result<Solver, ModelError> {
        let model = build()?;
        let identity = identity(&model);
        let mut solver = Solver::new(model);
        solver.threads = Some(Box::new(Threads {
            build: Arc::new(build),
            threads,
            identity,
            brancher: None,
        }));
        Ok(solver)
    }

    /// Puts a brancher in front of the built-in branching, as [`brancher`](Solver::brancher)
    /// does, in this solver and, for one made by [`parallel`](Solver::parallel), in every
    /// worker: `make` is called with each copy of the model and returns that copy's brancher,
    /// which names the copy's own variables ([`Model::vars`], say). A brancher set with
    /// [`brancher`](Solver::brancher) instead cannot be copied, so runs then search on this
    /// thread only.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    ///
    /// /// The first unfixed variable, largest value first.
    /// #[derive(Debug)]
    /// struct LargestFirst(Vec<VarId>);
    ///
    /// impl Brancher for LargestFirst {
    ///     fn decide(&mut self, domains: &Domains<'_>) -> Option<Decision> {
    ///         let x = self.0.iter().copied().find(|&x| !domains.is_fixed(x))?;
    ///         Some(Decision::Assign(x, domains.max(x)))
    ///     }
    /// }
    ///
    /// let build = || -> Result<Model, ModelError> {
    ///     let mut m = Model::new();
    ///     let x = m.int_vars(4, 0..=3)?;
    ///     m.all_different(&x)?;
    ///     Ok(m)
    /// };
    /// let mut solver = Solver::parallel(2, build)?.brancher_per_copy(|m| LargestFirst(m.vars()));
    /// assert_eq!(solver.count(), 24);
    /// assert_eq!(solver.first().unwrap().values_of(&solver.model().vars()), [3, 2, 1, 0]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn brancher_per_copy<B: Brancher + 'static>(
        mut self,
        make: impl Fn(&Model) -> B + Send + Sync + 'static,
    ) -> Solver {
        let make: Arc<MakeBrancherFn> =
            Arc::new(move |m: &Model| Box::new(make(m)) as Box<dyn Brancher>);
        let own = make(&self.model);
        if let Some(t) = &mut self.threads {
            t.brancher = Some(make);
        }
        self.boxed_brancher(own)
    }

    /// Changes the number of worker threads of a solver made by
    /// [`parallel`](Solver::parallel) (0: one per core; 1: search here). A solver made from
    /// a [`Model`] cannot copy it for workers: asking it for more than one thread is a
    /// [`ModelError`].
    pub fn set_threads(&mut self, threads: usize) -> Result<(), ModelError> {
        match &mut self.threads {
            Some(t) => {
                t.threads = threads;
                Ok(())
            }
            None if threads == 1 => Ok(()),
            None => Err(no_builder()),
        }
    }

    /// The worker threads runs use: 1 for a solver made from a [`Model`], the setting for
    /// one made by [`parallel`](Solver::parallel) (0: one per core).
    pub fn threads(&self) -> usize {
        self.threads.as_ref().map_or(1, |t| t.threads)
    }

    /// The parallel search over this solver's model with its configuration and cancel flag,
    /// when a run should use the workers: more than one thread, no limits, no observer.
    fn on_workers(
        &self,
    ) -> Option<ParallelSearch<impl Fn() -> Result<Model, ModelError> + Sync + use<>>> {
        let t = self.threads.as_ref()?;
        let limits = self.config.limits;
        let uncopied_brancher = t.brancher.is_none()
            && self
                .custom
                .as_ref()
                .is_some_and(|steer| steer.user.is_some());
        if t.threads == 1
            || limits != super::Limits::default()
            || self.observer.is_some()
            || !self.prefix.is_empty()
            || uncopied_brancher
        {
            return None;
        }
        Some(self.parallel_search(t))
    }

    /// The lower layer's search for a resumable or distributed run, which only a solver made
    /// by [`parallel`](Solver::parallel) can give.
    fn resumable_search(
        &self,
    ) -> Result<
        ParallelSearch<impl Fn() -> Result<Model, ModelError> + Sync + use<>>,
        RunError<ParallelError>,
    > {
        let t = self
            .threads
            .as_ref()
            .ok_or_else(|| RunError::Split(no_builder().into()))?;
        Ok(self.parallel_search(t))
    }

    /// The lower layer's search over this solver's model, configuration and cancel flag.
    fn parallel_search(
        &self,
        t: &Threads,
    ) -> ParallelSearch<impl Fn() -> Result<Model, ModelError> + Sync + use<>> {
        let build = t.build.clone();
        let mut search = ParallelSearch::new(t.identity.clone(), move || build())
            .config(self.config)
            .threads((t.threads > 0).then_some(t.threads));
        if let Some(flag) = &self.cancel {
            search = search.cancel_flag(flag.clone());
        }
        if let Some(make) = &t.brancher {
            search = search.boxed_brancher(make.clone());
        }
        search
    }

    /// [`count`](Solver::count) on the workers, if this run uses them: the count, with the
    /// run's statistics recorded as this solver's. `None` when the run searches here
    /// (including when the workers could not start: the count here is the same).
    pub(super) fn count_on_workers(&mut self) -> Option<u64> {
        let search = self.on_workers()?;
        let subproblems = search.subproblems().ok()?;
        let counted = search
            .count(&subproblems, self.cancel.clone(), |_, _| {})
            .ok()?;
        let mut stats = counted.stats;
        stats.solutions = counted.solutions;
        self.end_run_with(stats);
        Some(counted.solutions)
    }

    /// Branch and bound on the workers, if this run uses them: the improving solutions in
    /// the order they were found (each better than the one before, the last the best), with
    /// the run's statistics recorded as this solver's. `None` when the run searches here.
    pub(super) fn optimize_on_workers(
        &mut self,
        objective: IntView,
        sense: Sense,
    ) -> Option<Result<Vec<Solution>, ModelError>> {
        let search = self.on_workers()?;
        let subproblems = match search.subproblems() {
            Ok(s) => s,
            Err(ParallelError::Model(e)) => return Some(Err(e)),
            Err(_) => return None,
        };
        let improving = Mutex::new(Vec::new());
        let found = search.optimize(
            &subproblems,
            objective,
            sense,
            self.cancel.clone(),
            |s, _| {
                improving
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(s.clone())
            },
        );
        match found {
            Ok(optimum) => {
                self.end_run_with(optimum.stats);
                Some(Ok(improving
                    .into_inner()
                    .unwrap_or_else(|e| e.into_inner())))
            }
            Err(ParallelError::Model(e)) => Some(Err(e)),
            Err(_) => None,
        }
    }

    /// The solutions of a run on the workers, if this run uses them, fed to the iterator as
    /// the workers find them. `None` when the run searches here (including when the split
    /// failed: the solutions here are the same).
    pub(super) fn solutions_on_workers(&mut self) -> Option<WorkerSolutions> {
        let search = self.on_workers()?;
        let subproblems = search.subproblems().ok()?;
        // The workers watch a flag of this run's own, so that a dropped iterator stops them
        // without raising the solver's cancel flag; that one is relayed to it.
        let stop = Arc::new(AtomicBool::new(false));
        let (sender, receiver) = sync_channel(SOLUTIONS_AHEAD);
        let user = self.cancel.clone();
        let flag = stop.clone();
        let driver = std::thread::Builder::new()
            .name("bezzel-solutions".to_string())
            .spawn(move || {
                std::thread::scope(|scope| {
                    let on_solution = move |s: Solution| sender.send(s).is_ok();
                    let run = scope.spawn(|| {
                        search.for_each_solution(&subproblems, Some(flag.clone()), on_solution)
                    });
                    if let Some(user) = user {
                        relay_cancel(&user, &flag, &run);
                    }
                    run.join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
            })
            .ok()?;
        Some(WorkerSolutions {
            receiver: Some(receiver),
            stop,
            driver: Some(driver),
            delivered: 0,
        })
    }

    /// Counts every solution on the worker threads, resumably with a `checkpoint` file, as
    /// [`ParallelSearch::count_resumable`] does: a run on a file that an earlier run of the
    /// same model left (after Ctrl-C, say) keeps its split and solves only the subproblems
    /// it lacks. `progress(done, total)` is called as subproblems finish; the solver's cancel
    /// flag stops the run. Needs a solver made by [`parallel`](Solver::parallel).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    ///
    /// let queens = || -> Result<Model, ModelError> {
    ///     let mut m = Model::new();
    ///     let q = m.int_vars(6, 0..6)?;
    ///     let up: Vec<IntView> = q.iter().enumerate().map(|(i, x)| x.offset(i as i32)).collect();
    ///     let down: Vec<IntView> = q.iter().enumerate().map(|(i, x)| x.offset(-(i as i32))).collect();
    ///     m.all_different(&q)?;
    ///     m.all_different(&up)?;
    ///     m.all_different(&down)?;
    ///     Ok(m)
    /// };
    /// let path = std::env::temp_dir().join(format!("bezzel-solver-{}.ckpt", std::process::id()));
    /// let solver = Solver::parallel(2, queens)?;
    /// assert_eq!(solver.count_resumable(Some(&path), |_, _| {})?.counts, [4]);
    /// // Again: everything is in the checkpoint already.
    /// let again = solver.count_resumable(Some(&path), |_, _| {})?;
    /// assert_eq!((again.counts, again.solved()), ([4], 0));
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count_resumable(
        &self,
        checkpoint: Option<&std::path::Path>,
        progress: impl Fn(usize, usize) + Sync,
    ) -> Result<RunReport<1>, RunError<ParallelError>> {
        self.resumable_search()?
            .count_resumable(checkpoint, self.cancel.clone(), progress)
    }

    /// [`count_resumable`](Solver::count_resumable) on the processes of a [`Cluster`] (MPI
    /// ranks, with the `bezzel-mpi` crate), as [`ParallelSearch::count_distributed`] does:
    /// every process calls it with the same arguments; rank 0 returns the totals.
    pub fn count_distributed(
        &self,
        cluster: &dyn Cluster,
        checkpoint: Option<&std::path::Path>,
        progress: impl Fn(usize, usize) + Sync,
    ) -> Result<RunReport<1>, RunError<ParallelError>> {
        self.resumable_search()?.count_distributed(
            cluster,
            checkpoint,
            self.cancel.clone(),
            progress,
        )
    }
}

/// How many solutions the workers may find ahead of the iterator: enough to keep them busy
/// between two calls of `next`, few enough that an iterator dropped early wasted little.
const SOLUTIONS_AHEAD: usize = 256;

/// The solutions of a run on the worker threads, as the iterator of
/// [`Solver::solutions`] takes them.
#[derive(Debug)]
pub(crate) struct WorkerSolutions {
    /// Where the workers send their solutions; `None` once they are all done.
    receiver: Option<Receiver<Solution>>,
    /// The workers' cancel flag.
    stop: Arc<AtomicBool>,
    /// The thread that runs the workers, and what their run found.
    driver: Option<JoinHandle<Result<ParallelCount, ParallelError>>>,
    /// Solutions handed to the iterator.
    delivered: u64,
}

impl WorkerSolutions {
    /// The next solution any worker found; at the end, the run's statistics become the
    /// solver's.
    pub(super) fn next(&mut self, solver: &mut Solver) -> Option<Solution> {
        if let Ok(solution) = self.receiver.as_ref()?.recv() {
            self.delivered += 1;
            return Some(solution);
        }
        // Every sender is gone: the run is over.
        self.receiver = None;
        let driver = self.driver.take()?;
        let found = driver
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        if let Ok(run) = found {
            let mut stats = run.stats;
            stats.solutions = self.delivered;
            solver.end_run_with(stats);
        }
        None
    }
}

impl Drop for WorkerSolutions {
    /// Stops the workers at their next node and waits for them, so that no search outlives
    /// the iterator.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // A worker waiting for room in the channel wakes with an error and stops too.
        self.receiver = None;
        if let Some(driver) = self.driver.take() {
            let _ = driver.join();
        }
    }
}

/// Raises `stop` once `user` (the solver's cancel flag) is raised, until `run` ends.
fn relay_cancel<T>(user: &AtomicBool, stop: &AtomicBool, run: &ScopedJoinHandle<'_, T>) {
    while !run.is_finished() {
        if user.load(Ordering::Relaxed) {
            stop.store(true, Ordering::Relaxed);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The error of a run on workers asked of a solver made from a [`Model`].
fn no_builder() -> ModelError {
    ModelError::InvalidArgument {
        reason: "a solver made from a Model searches on one thread (it cannot copy the model \
                 for workers): make it with Solver::parallel(threads, build)"
            .to_string(),
    }
}
