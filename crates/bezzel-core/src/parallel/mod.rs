//! Parallel search for any model: Embarrassingly Parallel Search (Régin, Rezgui and Malapert,
//! 2013).
//!
//! The tree is split into many subproblems — decision prefixes that propagation does not refute,
//! by default about 50 per worker — and the subproblems are solved independently on a `rayon`
//! pool, each worker with its own copy of the model (built by a closure, so propagators need not
//! be `Clone`). Having many more subproblems than workers balances the load without any work
//! stealing inside a search. A [`Subproblem`] is plain data (serde), naming the model it belongs
//! to, so a run can write them out, solve them elsewhere, and merge the counts; this is also what
//! a [`Checkpoint`](crate::checkpoint::Checkpoint) records.
//!
//! [`ParallelSearch::minimize`] and [`ParallelSearch::maximize`] run branch and bound over the
//! subproblems, the workers sharing the best objective value found so far, and
//! [`ParallelSearch::for_each_solution`] hands every solution to the caller as the workers
//! find them.
//! Search control carries over: [`ParallelSearch::branch_groups`] and
//! [`ParallelSearch::brancher`] apply to the split and to every worker's solver.
//!
//! The subproblems are solved by the runner of the `bezzel-runner` crate ([`Runner`]), which
//! solves any kind of subproblem (the queens counters' too) with an optional checkpoint, a
//! cancel flag, progress, and on the ranks of a [`Cluster`]; its types are re-exported here.
//! A run's errors stay typed: a checkpoint's or a cluster's reach the caller as the runner's
//! [`RunError`], and a subproblem that a limit of the configuration stopped is
//! [`ParallelError::Limit`].

use crate::error::ModelError;
use crate::model::Model;
use crate::search::{BranchGroup, Brancher, Decision, SearchConfig, Solver};
use crate::solution::Solution;
use crate::stats::{Statistics, StopReason};
use crate::var::VarId;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

mod optimize;

// The runner, at the paths it had when it lived here.
pub use bezzel_runner::{Batch, Cluster, RunError, RunReport, Runner, Solved};
pub use bezzel_runner::{distributed, runner};

/// One piece of a split search tree.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Subproblem {
    /// The model it belongs to, as named by the caller (e.g. `queens n=14 value`).
    pub model: String,
    /// Its position in the split (0-based).
    pub index: usize,
    /// The decisions from the root that define it.
    pub decisions: Vec<Decision>,
}

/// What a parallel count found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParallelCount {
    /// Solutions in the subproblems solved by this run.
    pub solutions: u64,
    /// Subproblems solved by this run.
    pub solved: usize,
    /// Summed statistics of the solved subproblems (`elapsed` is the run's wall time).
    pub stats: Statistics,
    /// Whether every subproblem handed to the run was solved (false after cancellation).
    pub complete: bool,
}

impl From<RunReport<1>> for ParallelCount {
    /// What a run that counted one number found.
    fn from(report: RunReport<1>) -> ParallelCount {
        ParallelCount {
            solutions: report.counts[0],
            solved: report.solved(),
            complete: report.is_complete(),
            stats: report.stats,
        }
    }
}

/// Why a parallel run could not start, or stopped before its end.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParallelError {
    /// Building the model failed.
    Model(ModelError),
    /// A thread count of zero.
    ZeroThreads,
    /// The thread pool could not be started.
    ThreadPool(String),
    /// A subproblem of another model was handed in.
    ForeignSubproblem {
        /// The model the run is for.
        expected: String,
        /// The model the subproblem names.
        found: String,
    },
    /// Two subproblems with the same index or the same decisions were handed in: their
    /// solutions would be counted twice.
    DuplicateSubproblem {
        /// The index of the second one.
        index: usize,
    },
    /// The solutions add up to more than `u64::MAX`.
    Overflow,
    /// The cancel flag stopped the split ([`ParallelSearch::cancel_flag`]): there is no
    /// split, and nothing was counted.
    Cancelled,
    /// A limit of the configuration (nodes, time, solutions) stopped the search of a
    /// subproblem: its count is not exact, so the run stopped. In a parallel run the limits of
    /// [`SearchConfig`] apply to each subproblem separately; stop a whole run with its cancel
    /// flag.
    Limit {
        /// The subproblem's position in the split.
        index: usize,
        /// The limit that stopped it.
        reason: StopReason,
    },
    /// The runner failed for a reason of its own (a checkpoint, the processes of a cluster).
    Run(RunError<Infallible>),
}

impl std::fmt::Display for ParallelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParallelError::Model(e) => write!(f, "{e}"),
            ParallelError::ZeroThreads => f.write_str("the thread count must be at least 1"),
            ParallelError::ThreadPool(e) => write!(f, "could not start the thread pool: {e}"),
            ParallelError::ForeignSubproblem { expected, found } => write!(
                f,
                "subproblem belongs to model `{found}`, not to `{expected}`"
            ),
            ParallelError::DuplicateSubproblem { index } => write!(
                f,
                "subproblem {index} repeats an earlier one (same index or same decisions)"
            ),
            ParallelError::Cancelled => f.write_str("stopped while splitting the search"),
            ParallelError::Overflow => {
                write!(f, "the solutions add up to more than {}", u64::MAX)
            }
            ParallelError::Limit { index, reason } => write!(
                f,
                "subproblem {index} stopped ({reason}): the limits of a parallel search apply \
                 to each subproblem, so its count is not exact"
            ),
            ParallelError::Run(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ParallelError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ParallelError::Model(e) => Some(e),
            ParallelError::Run(e) => Some(e),
            _ => None,
        }
    }
}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for ParallelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ParallelError: {self}")
    }
}

impl From<ModelError> for ParallelError {
    fn from(e: ModelError) -> ParallelError {
        ParallelError::Model(e)
    }
}

impl From<RunError<ParallelError>> for ParallelError {
    /// A run's error as one of its own: the split's or a subproblem's error as it was, the
    /// runner's errors that have a variant here as that variant, and the others (a
    /// checkpoint's, a cluster's) wrapped in [`ParallelError::Run`], typed as they were.
    fn from(e: RunError<ParallelError>) -> ParallelError {
        match e.without_caller_error() {
            Err(e) => e,
            Ok(RunError::Overflow { .. }) => ParallelError::Overflow,
            Ok(RunError::ZeroThreads) => ParallelError::ZeroThreads,
            Ok(RunError::ThreadPool(e)) => ParallelError::ThreadPool(e),
            Ok(e) => ParallelError::Run(e),
        }
    }
}

/// A parallel search over the model that `build` creates; see the [module docs](self).
///
/// ```
/// use bezzel_core::prelude::*;
/// use bezzel_core::parallel::ParallelSearch;
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
/// let search = ParallelSearch::new("queens 8", queens).threads(Some(2));
/// let subproblems = search.subproblems()?;
/// let result = search.count(&subproblems, None, |_, _| {})?;
/// assert_eq!(result.solutions, 92);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ParallelSearch<F> {
    identity: String,
    build: F,
    config: SearchConfig,
    threads: Option<usize>,
    per_worker: usize,
    cancel: Option<Arc<AtomicBool>>,
    groups: Vec<BranchGroup>,
    brancher: Option<MakeBrancher>,
}

/// Makes a [`Brancher`] for each copy of the model: see [`ParallelSearch::brancher`].
pub(crate) type MakeBrancherFn = dyn Fn(&Model) -> Box<dyn Brancher> + Send + Sync;

/// A [`MakeBrancherFn`], which prints as its name only.
#[derive(Clone)]
struct MakeBrancher(Arc<MakeBrancherFn>);

impl std::fmt::Debug for MakeBrancher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MakeBrancher")
    }
}

impl<F> ParallelSearch<F>
where
    F: Fn() -> Result<Model, ModelError> + Sync,
{
    /// A parallel search over the model `build` makes, named `identity` in its subproblems.
    /// `build` must make the same model every time.
    pub fn new(identity: impl Into<String>, build: F) -> ParallelSearch<F> {
        ParallelSearch {
            identity: identity.into(),
            build,
            config: SearchConfig::default(),
            threads: None,
            per_worker: 50,
            cancel: None,
            groups: Vec::new(),
            brancher: None,
        }
    }

    /// Search heuristics (limits other than the cancellation flag should stay unset: they
    /// would apply to each subproblem separately).
    pub fn config(mut self, config: SearchConfig) -> ParallelSearch<F> {
        self.config = config;
        self
    }

    /// Branches on `groups` first, each with its own orders, as
    /// [`Solver::branch_groups`] does: both when splitting the tree and in every worker. The
    /// variables are named by index, like the objective of
    /// [`optimize`](ParallelSearch::optimize): they may be those of any model that `build`
    /// makes. An index beyond the model's variables is a [`ModelError`] when the split or a
    /// worker's solver is made.
    ///
    /// ```
    /// use bezzel_core::parallel::ParallelSearch;
    /// use bezzel_core::prelude::*;
    ///
    /// let build = || -> Result<Model, ModelError> {
    ///     let mut m = Model::new();
    ///     let x = m.int_vars(4, 0..=3)?;
    ///     m.all_different(&x)?;
    ///     Ok(m)
    /// };
    /// let last = build()?.vars()[3];
    /// let group = BranchGroup { vars: vec![last], var_order: VarOrder::InputOrder, value_order: ValueOrder::Max };
    /// let search = ParallelSearch::new("perm 4", build).threads(Some(2)).branch_groups(&[group]);
    /// let subproblems = search.subproblems()?;
    /// // The split starts on the group: the last variable, largest value first.
    /// assert_eq!(subproblems[0].decisions[0].var().index(), 3);
    /// assert_eq!(search.count(&subproblems, None, |_, _| {})?.solutions, 24);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn branch_groups(mut self, groups: &[BranchGroup]) -> ParallelSearch<F> {
        self.groups = groups.to_vec();
        self
    }

    /// Puts a brancher in front of the built-in branching, as [`Solver::brancher`] does, both
    /// when splitting the tree and in every worker. `make` is called with each copy of the
    /// model (one per worker, and one for the split) and returns that copy's brancher, so
    /// that the brancher names the copy's own variables (from [`Model::vars`], say).
    ///
    /// ```
    /// use bezzel_core::parallel::ParallelSearch;
    /// use bezzel_core::prelude::*;
    ///
    /// /// The first unfixed variable of its list, largest value first.
    /// #[derive(Debug)]
    /// struct LargestValue(Vec<VarId>);
    ///
    /// impl Brancher for LargestValue {
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
    /// let search = ParallelSearch::new("perm 4", build)
    ///     .threads(Some(2))
    ///     .brancher(|m: &Model| LargestValue(m.vars()));
    /// let subproblems = search.subproblems()?;
    /// assert_eq!(search.count(&subproblems, None, |_, _| {})?.solutions, 24);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn brancher<B: Brancher + 'static>(
        mut self,
        make: impl Fn(&Model) -> B + Send + Sync + 'static,
    ) -> ParallelSearch<F> {
        self.brancher = Some(MakeBrancher(Arc::new(move |m: &Model| {
            Box::new(make(m)) as Box<dyn Brancher>
        })));
        self
    }

    /// [`brancher`](ParallelSearch::brancher) for a maker of boxed branchers (a
    /// [`Solver`]'s, see [`Solver::brancher_per_copy`]).
    pub(crate) fn boxed_brancher(mut self, make: Arc<MakeBrancherFn>) -> ParallelSearch<F> {
        self.brancher = Some(MakeBrancher(make));
        self
    }

    /// Worker threads; `None` (the default) uses every core.
    pub fn threads(mut self, threads: Option<usize>) -> ParallelSearch<F> {
        self.threads = threads;
        self
    }

    /// Subproblems to aim for per worker (default 50).
    pub fn per_worker(mut self, per_worker: usize) -> ParallelSearch<F> {
        self.per_worker = per_worker.max(1);
        self
    }

    /// A flag that stops [`subproblems`](ParallelSearch::subproblems) (with
    /// [`ParallelError::Cancelled`]) when raised: splitting a large model takes time of its
    /// own. Counting takes its flag where it is called.
    pub fn cancel_flag(mut self, flag: Arc<AtomicBool>) -> ParallelSearch<F> {
        self.cancel = Some(flag);
        self
    }

    /// The model's name in its subproblems.
    pub fn identity(&self) -> &str {
        &self.identity
    }

    fn workers(&self) -> Result<usize, ParallelError> {
        match self.threads {
            Some(0) => Err(ParallelError::ZeroThreads),
            Some(t) => Ok(t),
            None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
        }
    }

    /// Splits the tree into about `per_worker` subproblems per worker.
    pub fn subproblems(&self) -> Result<Vec<Subproblem>, ParallelError> {
        self.split_for(self.workers()?)
    }

    /// Splits the tree into about `per_worker` subproblems for each of `workers`.
    fn split_for(&self, workers: usize) -> Result<Vec<Subproblem>, ParallelError> {
        let target = workers * self.per_worker;
        let mut solver = self.solver()?;
        if let Some(flag) = &self.cancel {
            solver.set_cancel_flag(flag.clone());
        }
        Ok(solver
            .split(target)
            .ok_or(ParallelError::Cancelled)?
            .into_iter()
            .enumerate()
            .map(|(index, decisions)| Subproblem {
                model: self.identity.clone(),
                index,
                decisions,
            })
            .collect())
    }

    /// Counts the solutions of `subproblems` in parallel. `on_solved(subproblem, count)` is
    /// called (from worker threads) as each one is finished; a subproblem interrupted by
    /// `cancel` is not reported and not counted. Subproblems of another model, and one that
    /// repeats another's index or decisions, are refused before any is solved.
    pub fn count(
        &self,
        subproblems: &[Subproblem],
        cancel: Option<Arc<AtomicBool>>,
        on_solved: impl Fn(&Subproblem, u64) + Sync,
    ) -> Result<ParallelCount, ParallelError> {
        self.solve_each(subproblems, &cancel.unwrap_or_default(), |solver, sub| {
            let solved = solve_subproblem(solver, sub)?;
            if let Some(s) = &solved {
                on_solved(sub, s.counts[0]);
            }
            Ok(solved)
        })
    }

    /// Checks `subproblems` and runs `solve` on each on the workers, each worker with its own
    /// solver watching `cancel`: what the runs that report one number share.
    fn solve_each(
        &self,
        subproblems: &[Subproblem],
        cancel: &Arc<AtomicBool>,
        solve: impl Fn(&mut Solver, &Subproblem) -> Result<Option<Solved<1>>, ParallelError> + Sync,
    ) -> Result<ParallelCount, ParallelError> {
        check_subproblems(&self.identity, subproblems)?;
        (self.build)()?; // fail early, and with the error, if the model cannot be built
        let report = Runner::new()
            .threads(Some(self.workers()?))
            .cancel(cancel)
            .batch_of(subproblems.to_vec())
            .run(
                || self.worker(cancel),
                |solver, sub, _| solve(worker(solver)?, sub),
                |_, _| {},
            )?;
        Ok(report.into())
    }

    /// Enumerates every solution of a split in parallel: `on_solution` is called from the
    /// worker threads, several at once, with each solution of `subproblems` exactly once,
    /// read with the variables of any copy of the model. It returns whether to go on:
    /// `false` raises `cancel` (a flag of the run's own when none is given), which stops
    /// every worker at its next node. The count is of the subproblems solved to their end,
    /// and the run is complete when all were; subproblems are checked as in
    /// [`count`](ParallelSearch::count).
    ///
    /// ```
    /// use bezzel_core::{parallel::ParallelSearch, prelude::*};
    /// use std::sync::Mutex;
    ///
    /// /// Two digits of 0..=3 that add up to 3: (0, 3), (1, 2), (2, 1) and (3, 0).
    /// fn pairs() -> Result<Model, ModelError> {
    ///     let mut m = Model::new();
    ///     let [x, y] = [m.named_var("x", 0..=3)?, m.named_var("y", 0..=3)?];
    ///     m.post((x + y).eq(3))?;
    ///     Ok(m)
    /// }
    /// let search = ParallelSearch::new("pairs", pairs).threads(Some(2));
    /// let (x, found) = (pairs()?.vars()[0], Mutex::new(Vec::new()));
    /// let run = search.for_each_solution(&search.subproblems()?, None, |s| {
    ///     found.lock().unwrap().push(s[x]);
    ///     true
    /// })?;
    /// let mut found = found.into_inner()?;
    /// found.sort();
    /// assert_eq!((found, run.solutions, run.complete), (vec![0, 1, 2, 3], 4, true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_each_solution(
        &self,
        subproblems: &[Subproblem],
        cancel: Option<Arc<AtomicBool>>,
        on_solution: impl Fn(Solution) -> bool + Sync,
    ) -> Result<ParallelCount, ParallelError> {
        let cancel = cancel.unwrap_or_default();
        self.solve_each(subproblems, &cancel, |solver, sub| {
            let mut run = solver.solutions_in(&sub.decisions)?;
            let mut found = 0;
            for solution in run.by_ref() {
                found += 1;
                // The worker's copy of the model is not the caller's.
                if !on_solution(solution.unbound()) {
                    cancel.store(true, Ordering::Relaxed);
                    // Cut short by the caller: not solved to its end.
                    return Ok(None);
                }
            }
            finished(run.stats().clone(), sub, [found])
        })
    }

    /// Counts every solution, resumably with a `checkpoint` file: a run on a file that an
    /// earlier run of the same model left (after Ctrl-C, say) keeps its split and solves only
    /// the subproblems it lacks. `progress(done, total)` is called as subproblems finish. The
    /// report's counts are `[solutions]`, those recorded earlier included; when `cancel`
    /// stopped the run it is not [complete](RunReport::is_complete).
    ///
    /// ```
    /// use bezzel_core::parallel::ParallelSearch;
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
    /// let path = std::env::temp_dir().join(format!("bezzel-doc-{}.ckpt", std::process::id()));
    /// let search = ParallelSearch::new("queens 6", queens).threads(Some(2));
    /// let report = search.count_resumable(Some(&path), None, |_, _| {})?;
    /// assert_eq!(report.counts, [4]);
    /// // Again: everything is in the checkpoint already.
    /// let again = search.count_resumable(Some(&path), None, |_, _| {})?;
    /// assert_eq!((again.counts, again.solved()), ([4], 0));
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count_resumable(
        &self,
        checkpoint: Option<&std::path::Path>,
        cancel: Option<Arc<AtomicBool>>,
        progress: impl Fn(usize, usize) + Sync,
    ) -> Result<RunReport<1>, RunError<ParallelError>> {
        self.count_on(None, checkpoint, cancel, progress)
    }

    /// [`count_resumable`](ParallelSearch::count_resumable) on the processes of a
    /// [`Cluster`] (MPI ranks, with the `bezzel-mpi` crate): every process calls it with the
    /// same arguments; rank 0 splits the tree for every thread of every rank, keeps the
    /// checkpoint and returns the totals, the other ranks solve the subproblems it hands out
    /// and return an empty report (see [`Batch::run_distributed`]).
    pub fn count_distributed(
        &self,
        cluster: &dyn Cluster,
        checkpoint: Option<&std::path::Path>,
        cancel: Option<Arc<AtomicBool>>,
        progress: impl Fn(usize, usize) + Sync,
    ) -> Result<RunReport<1>, RunError<ParallelError>> {
        self.count_on(Some(cluster), checkpoint, cancel, progress)
    }

    fn count_on(
        &self,
        cluster: Option<&dyn Cluster>,
        checkpoint: Option<&std::path::Path>,
        cancel: Option<Arc<AtomicBool>>,
        progress: impl Fn(usize, usize) + Sync,
    ) -> Result<RunReport<1>, RunError<ParallelError>> {
        (self.build)().map_err(|e| RunError::Split(e.into()))?;
        let cancel = cancel.unwrap_or_default();
        let threads = self.workers().map_err(RunError::Split)?;
        let mut runner = Runner::new().threads(Some(threads)).cancel(&cancel);
        if let Some(cluster) = cluster {
            runner = runner.cluster(cluster);
        }
        if let Some(path) = checkpoint {
            runner = runner.checkpoint(path, self.identity.clone());
        }
        let ranks = runner.total_threads() / threads;
        let batch = runner.open(|| self.split_for(threads * ranks))?;
        // A recorded split is checked before any of it is solved.
        check_subproblems(&self.identity, batch.subproblems()).map_err(RunError::Split)?;
        batch.run_distributed(
            || self.worker(&cancel),
            |solver, sub, _| solve_subproblem(worker(solver)?, sub),
            progress,
        )
    }

    /// A worker's solver, watching `cancel`; the model was built once already, so an error
    /// here is reported when the worker first solves.
    fn worker(&self, cancel: &Arc<AtomicBool>) -> Result<Solver, ModelError> {
        let mut solver = self.solver()?;
        solver.set_cancel_flag(cancel.clone());
        Ok(solver)
    }

    /// A solver over a new copy of the model, with the configuration, the brancher and the
    /// branch groups (bound to this copy's variables of the same indices). Once per worker,
    /// not per node.
    fn solver(&self) -> Result<Solver, ModelError> {
        let mut solver = Solver::with_config((self.build)()?, self.config);
        if let Some(MakeBrancher(make)) = &self.brancher {
            let brancher = make(solver.model());
            solver = solver.boxed_brancher(brancher);
        }
        if self.groups.is_empty() {
            return Ok(solver);
        }
        let model = solver.model().id();
        let groups: Vec<BranchGroup> = self
            .groups
            .iter()
            .map(|g| BranchGroup {
                vars: g
                    .vars
                    .iter()
                    .map(|x| VarId {
                        model,
                        index: x.index,
                    })
                    .collect(),
                ..g.clone()
            })
            .collect();
        solver.branch_groups(&groups)
    }
}

/// A worker's solver, or the error that kept it from being made.
fn worker(solver: &mut Result<Solver, ModelError>) -> Result<&mut Solver, ParallelError> {
    solver.as_mut().map_err(|e| ParallelError::Model(e.clone()))
}

/// Counts the solutions of one subproblem: `None` when the solver's cancel flag stopped it.
/// The statistics count the prefix's decisions in the depth (see [`Statistics`]'s `+=`).
pub fn solve_subproblem(
    solver: &mut Solver,
    sub: &Subproblem,
) -> Result<Option<Solved<1>>, ParallelError> {
    let count = solver.count_in(&sub.decisions)?;
    finished(solver.stats().clone(), sub, [count])
}

/// What a run over `sub` that found `counts` comes to, from its statistics: `None` when the
/// cancel flag stopped it, [`ParallelError::Limit`] when another limit did, and otherwise
/// the counts with the statistics, the prefix's decisions counted in the depth.
fn finished<const K: usize>(
    mut stats: Statistics,
    sub: &Subproblem,
    counts: [u64; K],
) -> Result<Option<Solved<K>>, ParallelError> {
    match stats.stopped {
        None => {}
        Some(StopReason::Cancelled) => return Ok(None),
        Some(reason) => {
            return Err(ParallelError::Limit {
                index: sub.index,
                reason,
            });
        }
    }
    stats.max_depth = stats.max_depth.saturating_add(sub.decisions.len() as u64);
    Ok(Some(Solved::new(counts).with_stats(stats)))
}

/// Checks subproblems handed in from outside (say, read from a checkpoint) before any is
/// solved: each must belong to the model named `identity`, none may repeat another's index, and
/// none may state the same decisions as another (in any order) or only some of another's first
/// decisions (the whole subtree that holds the other): their solutions would be counted twice.
/// Other overlaps of a forged split go undetected: a split made by
/// [`ParallelSearch::subproblems`] is a partition by construction.
pub fn check_subproblems(identity: &str, subproblems: &[Subproblem]) -> Result<(), ParallelError> {
    if let Some(s) = subproblems.iter().find(|s| s.model != identity) {
        return Err(ParallelError::ForeignSubproblem {
            expected: identity.to_string(),
            found: s.model.clone(),
        });
    }
    let mut indices = HashSet::with_capacity(subproblems.len());
    if let Some(s) = subproblems.iter().find(|s| !indices.insert(s.index)) {
        return Err(ParallelError::DuplicateSubproblem { index: s.index });
    }
    // Decisions as sets: the order they are applied in does not change the subtree.
    let as_set = |decisions: &[Decision]| {
        let mut set: Vec<(u32, u8, i32)> = decisions.iter().map(|d| decision_key(*d)).collect();
        set.sort_unstable();
        set.dedup();
        set
    };
    let mut sets = HashSet::with_capacity(subproblems.len());
    if let Some(s) = subproblems
        .iter()
        .find(|s| !sets.insert(as_set(&s.decisions)))
    {
        return Err(ParallelError::DuplicateSubproblem { index: s.index });
    }
    for s in subproblems {
        if (0..s.decisions.len()).any(|len| sets.contains(&as_set(&s.decisions[..len]))) {
            return Err(ParallelError::DuplicateSubproblem { index: s.index });
        }
    }
    Ok(())
}

/// A decision as a sortable key: its variable, its kind and its value.
fn decision_key(d: Decision) -> (u32, u8, i32) {
    match d {
        Decision::Assign(x, v) => (x.index, 0, v),
        Decision::Exclude(x, v) => (x.index, 1, v),
        Decision::AtMost(x, v) => (x.index, 2, v),
        Decision::Above(x, v) => (x.index, 3, v),
    }
}
