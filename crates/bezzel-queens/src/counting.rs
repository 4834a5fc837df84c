//! Resumable parallel counts by every engine: the symmetry and bitmask counters and the
//! constraint model, each split into subproblems that the
//! [runner](bezzel_runner::runner) solves on a thread pool, optionally recording them
//! in a checkpoint file so that an interrupted count resumes where it stopped ([`count`]);
//! and the plain parallel count of any [`SplitCounter`] ([`count_parallel`],
//! [`count_pieces`]). Every call of the runner is here.
//!
//! ```
//! use bezzel_queens::counting::{self, Engine, Options};
//!
//! let path = std::env::temp_dir().join(format!("queens-doc-{}.ckpt", std::process::id()));
//! let options = Options { threads: Some(2), checkpoint: Some(&path), ..Options::default() };
//! let report = counting::count(10, Engine::Symmetry, &options, |_done, _total| {})?;
//! assert!(report.is_complete());
//! assert_eq!(report.counts, [724, 92]); // solutions, and unique ones
//! std::fs::remove_file(&path)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::bitmask::BitmaskCounter;
use crate::counter::{BitmaskError, CountPair, SplitCounter};
use crate::model::{self, QueensError};
use crate::symmetry_count::SymmetryCounter;
use bezzel_core::parallel::{ParallelError, ParallelSearch, check_subproblems, solve_subproblem};
use bezzel_core::{Consistency, ModelError, SearchConfig, Solver, VarOrder};
use bezzel_runner::{Cluster, RunError, RunReport, Runner, Solved};
use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Which counter counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// Placements canonical under the board's 8 symmetries, weighted by orbit size
    /// ([`symmetry_count`](crate::symmetry_count)): the fastest, and it counts unique solutions
    /// too.
    Symmetry,
    /// The classic bit-parallel counter with mirror symmetry ([`bitmask`](crate::bitmask)).
    Bitmask,
    /// The generic constraint model ([`model`]), split into prefixes of decisions.
    Model {
        /// The propagation strength of its all-different constraints.
        consistency: Consistency,
        /// Its variable order.
        order: VarOrder,
    },
}

impl Engine {
    /// The engine's name, as the program spells it.
    pub fn name(&self) -> &'static str {
        match self {
            Engine::Symmetry => "symmetry",
            Engine::Bitmask => "bitmask",
            Engine::Model { .. } => "model",
        }
    }

    /// The name of the count of `n` queens by this engine in a checkpoint (its identity): a
    /// checkpoint of another count is refused. Built from the stable names written out in
    /// [`identity_order`] and [`identity_consistency`], never from `Debug` text, so that
    /// renaming a variant does not orphan the journals of earlier runs.
    pub fn checkpoint_name(&self, n: usize) -> String {
        match self {
            Engine::Symmetry | Engine::Bitmask => format!("queens n={n} engine={}", self.name()),
            Engine::Model { consistency, order } => format!(
                "queens n={n} engine=model consistency={} order={}",
                identity_consistency(*consistency),
                identity_order(*order)
            ),
        }
    }
}

/// A variable order's name in checkpoint identities: [`VarOrder::name`], the one vocabulary
/// of variable orders, which is stable.
pub fn identity_order(order: VarOrder) -> &'static str {
    order.name()
}

/// A consistency's name in checkpoint identities; stable, as [`identity_order`]'s.
pub fn identity_consistency(consistency: Consistency) -> &'static str {
    match consistency {
        Consistency::Value => "value",
        Consistency::Bounds => "bounds",
        Consistency::Domain => "domain",
    }
}

/// The settings of a count.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options<'a> {
    /// Worker threads; `None` uses every core.
    pub threads: Option<usize>,
    /// Records finished subproblems in this file; a count on an existing one resumes it.
    pub checkpoint: Option<&'a Path>,
    /// Raising this flag stops the count within milliseconds (the report then says how far it
    /// got).
    pub cancel: Option<&'a Arc<AtomicBool>>,
    /// Runs on the processes of this cluster (MPI ranks, with the `bezzel-mpi` crate), each
    /// with `threads` threads: every process calls [`count`] with the same options; rank 0
    /// keeps the checkpoint and gets the totals, the others an empty report.
    pub cluster: Option<&'a dyn Cluster>,
}

/// Why a count failed.
#[non_exhaustive]
pub enum CountError {
    /// A bit-parallel counter refused the board or a subproblem.
    Bitmask(BitmaskError),
    /// The constraint model could not be built.
    Model(QueensError),
    /// The model's search failed (e.g. a subproblem names a variable the model lacks).
    Parallel(ParallelError),
    /// A checkpoint's recorded split is not one this count can use (another model's
    /// subproblems, or one subproblem twice).
    UnusableSplit(ParallelError),
}

impl fmt::Display for CountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CountError::Bitmask(e) => write!(f, "{e}"),
            CountError::Model(e) => write!(f, "{e}"),
            CountError::Parallel(e) => write!(f, "{e}"),
            CountError::UnusableSplit(e) => write!(f, "its split cannot be used: {e}"),
        }
    }
}

impl std::error::Error for CountError {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for CountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CountError: {self}")
    }
}

/// Counts the solutions of `n` queens with `engine`, in parallel: the report's counts are
/// `[solutions, unique solutions]` (the unique count only from [`Engine::Symmetry`], 0 from
/// the others: every queens checkpoint keeps two counts). `progress(done, total)` is called as
/// subproblems finish. When the cancel flag stopped the count, the report is not
/// [complete](RunReport::is_complete) and says how far it got; when it stopped the model
/// engine's split, before any counting, the error is
/// `RunError::Split(CountError::Parallel(ParallelError::Cancelled))`.
pub fn count(
    n: usize,
    engine: Engine,
    options: &Options<'_>,
    progress: impl Fn(usize, usize) + Sync,
) -> Result<RunReport<2>, RunError<CountError>> {
    let own_flag = Arc::new(AtomicBool::new(false));
    let cancel = options.cancel.unwrap_or(&own_flag);
    let mut runner = Runner::new().threads(options.threads).cancel(cancel);
    if let Some(path) = options.checkpoint {
        runner = runner.checkpoint(path, engine.checkpoint_name(n));
    }
    if let Some(cluster) = options.cluster {
        runner = runner.cluster(cluster);
    }
    match engine {
        Engine::Symmetry => count_split::<SymmetryCounter>(runner, n, progress),
        Engine::Bitmask => count_split::<BitmaskCounter>(runner, n, progress),
        Engine::Model { consistency, order } => {
            let build = move || model::build_with(n, consistency).map(|(m, _)| m);
            build()
                .map_err(CountError::Model)
                .map_err(RunError::Split)?;
            let config = SearchConfig {
                var_order: order,
                ..SearchConfig::default()
            };
            if runner.thread_count() == 1
                && options.checkpoint.is_none()
                && options.cluster.is_none()
            {
                // One thread and nothing to resume: plain depth-first search, one piece of
                // work, whose tree and node count are those of Gecode's example with the same
                // heuristic (a split would add the prefixes' propagation to them).
                let mut solver =
                    Solver::with_config(build().expect("the same model was built above"), config);
                solver.set_cancel_flag(cancel.clone());
                progress(0, 1);
                let solutions = solver.count();
                let stats = solver.stats().clone();
                let done = usize::from(stats.is_complete());
                progress(done, 1);
                return Ok(RunReport {
                    counts: [solutions, 0],
                    done,
                    total: 1,
                    resumed: 0,
                    stats,
                });
            }
            let search = ParallelSearch::new(engine.checkpoint_name(n), || {
                build().map_err(|e| ModelError::InvalidArgument {
                    reason: e.to_string(),
                })
            })
            .config(config)
            .threads(Some(runner.total_threads()))
            .cancel_flag(cancel.clone());
            let batch = runner.open(|| search.subproblems().map_err(CountError::Parallel))?;
            // A recorded split is the one check left to the split itself: another model's
            // subproblems, or one twice, would give a wrong total.
            check_subproblems(search.identity(), batch.subproblems())
                .map_err(|e| RunError::Split(CountError::UnusableSplit(e)))?;
            batch.run_distributed(
                || {
                    let mut solver = Solver::with_config(
                        build().expect("the same model was built above"),
                        config,
                    );
                    solver.set_cancel_flag(cancel.clone());
                    solver
                },
                |solver, sub, _| {
                    let solved = solve_subproblem(solver, sub).map_err(CountError::Parallel)?;
                    Ok(solved.map(|s| Solved {
                        counts: [s.counts[0], 0],
                        stats: s.stats,
                    }))
                },
                progress,
            )
        }
    }
}

/// Counts `n` queens with the bit-parallel counter `C` on `runner`, for [`count`].
fn count_split<C: SplitCounter>(
    runner: Runner<'_>,
    n: usize,
    progress: impl Fn(usize, usize) + Sync,
) -> Result<RunReport<2>, RunError<CountError>> {
    let split = C::subproblems(n).map_err(CountError::Bitmask);
    runner
        .open_fixed(split.map_err(RunError::Split)?)?
        .run_distributed(
            || (),
            |_, piece, cancel| solve_piece::<C>(n, piece, cancel).map_err(CountError::Bitmask),
            progress,
        )
}

/// One piece of counter `C` as the runner takes it: `Ok(None)` when `cancel` stopped it.
fn solve_piece<C: SplitCounter>(
    n: usize,
    piece: &C::Piece,
    cancel: &AtomicBool,
) -> Result<Option<Solved<2>>, BitmaskError> {
    match C::count_subproblem_with_cancel(n, piece, cancel) {
        Ok(count) => Ok(Some(Solved::new(count.to_pair()))),
        Err(BitmaskError::Cancelled) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Counts `n` queens with counter `C`, its subproblems spread over `threads` threads (every
/// core when `None`) by the runner every parallel count uses ([`count`] also makes it
/// resumable).
///
/// ```
/// use bezzel_queens::bitmask::BitmaskCounter;
/// use bezzel_queens::counting;
/// use bezzel_queens::symmetry_count::SymmetryCounter;
///
/// assert_eq!(counting::count_parallel::<BitmaskCounter>(10, Some(2))?, 724);
/// assert_eq!(counting::count_parallel::<SymmetryCounter>(10, Some(2))?.unique, 92);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn count_parallel<C: SplitCounter>(
    n: usize,
    threads: Option<usize>,
) -> Result<C::Count, BitmaskError> {
    count_pieces::<C>(n, threads, None, |_, _| {})
}

/// [`count_parallel`], calling `on_task_done(done, total)` after each of the `total`
/// subproblems is counted (from the worker threads, one at a time, `done` rising from 1 to
/// `total`), and giving up with [`BitmaskError::Cancelled`] soon after `cancel` is raised (say
/// by a Ctrl-C handler): every thread looks at the flag inside its search, not only between
/// subproblems.
pub fn count_pieces<C: SplitCounter>(
    n: usize,
    threads: Option<usize>,
    cancel: Option<&AtomicBool>,
    on_task_done: impl Fn(u64, u64) + Sync,
) -> Result<C::Count, BitmaskError> {
    let mut runner = Runner::new().threads(threads);
    if let Some(cancel) = cancel {
        runner = runner.cancel(cancel);
    }
    let report = runner
        .batch_of(C::subproblems(n)?)
        .run(
            || (),
            |_, piece, cancel| solve_piece::<C>(n, piece, cancel),
            // The first call says what was done before the run: nothing here.
            |done, total| {
                if done > 0 {
                    on_task_done(done as u64, total as u64);
                }
            },
        )
        .map_err(|e| match e.without_caller_error() {
            Err(e) => e,
            Ok(RunError::ZeroThreads) => BitmaskError::ZeroThreads,
            Ok(RunError::ThreadPool(message)) => BitmaskError::ThreadPool { message },
            // Say an overflow of the total (MAX_N is chosen so that none happens), as it is.
            Ok(e) => BitmaskError::Run(e),
        })?;
    if !report.is_complete() {
        return Err(BitmaskError::Cancelled);
    }
    Ok(C::Count::from_pair(report.counts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oeis::{total, unique_and_total};
    use crate::symmetry::CanonicalCounter;

    /// The parallel count of counter `C` is the published one on any number of threads, up
    /// to `largest` queens, and its progress reports each subproblem once.
    fn parallel_counts_match_oeis<C: SplitCounter>(
        largest: usize,
        expected: impl Fn(usize) -> C::Count,
    ) {
        for n in 1..=largest {
            assert_eq!(count_parallel::<C>(n, Some(1)), Ok(expected(n)), "n = {n}");
            assert_eq!(count_parallel::<C>(n, Some(2)), Ok(expected(n)), "n = {n}");
        }
        assert_eq!(count_parallel::<C>(12, None), Ok(expected(12)));
        let n = 10;
        let total = C::subproblems(n).unwrap().len() as u64;
        let reports = std::sync::Mutex::new(Vec::new());
        let counted = count_pieces::<C>(n, Some(2), None, |done, all| {
            assert_eq!(all, total);
            reports.lock().unwrap().push(done);
        });
        assert_eq!(counted, Ok(expected(n)));
        let mut reports = reports.into_inner().unwrap();
        reports.sort_unstable();
        assert_eq!(reports, (1..=total).collect::<Vec<_>>());
        assert_eq!(
            count_parallel::<C>(0, Some(2)),
            Err(BitmaskError::ZeroBoard)
        );
        assert_eq!(
            count_parallel::<C>(8, Some(0)),
            Err(BitmaskError::ZeroThreads)
        );
    }

    #[test]
    fn bitmask_parallel_counts_match_oeis() {
        parallel_counts_match_oeis::<BitmaskCounter>(14, total);
    }

    #[test]
    fn symmetry_parallel_counts_match_oeis() {
        parallel_counts_match_oeis::<SymmetryCounter>(15, unique_and_total);
    }

    #[test]
    fn canonical_parallel_counts_match_oeis() {
        parallel_counts_match_oeis::<CanonicalCounter>(12, unique_and_total);
    }

    #[test]
    #[ignore = "takes a few seconds; run with --ignored"]
    fn symmetry_counts_16_and_17_match_oeis() {
        for n in [16, 17] {
            assert_eq!(
                count_parallel::<SymmetryCounter>(n, None),
                Ok(unique_and_total(n)),
                "n = {n}"
            );
        }
    }

    /// A journal names its run by identity, so an identity must not change when a variant is
    /// renamed or its `Debug` text changes: every one is compared with its spelling here.
    #[test]
    fn checkpoint_identities_are_spelled_with_stable_names() {
        assert_eq!(
            Engine::Symmetry.checkpoint_name(17),
            "queens n=17 engine=symmetry"
        );
        assert_eq!(
            Engine::Bitmask.checkpoint_name(17),
            "queens n=17 engine=bitmask"
        );
        let orders = [
            (VarOrder::SmallestDomain, "first-fail"),
            (VarOrder::InputOrder, "input-order"),
            (VarOrder::DomWDeg, "dom-wdeg"),
            (VarOrder::SmallestDomainMaxDegree, "most-constrained"),
        ];
        let consistencies = [
            (Consistency::Value, "value"),
            (Consistency::Bounds, "bounds"),
            (Consistency::Domain, "domain"),
        ];
        for (order, order_name) in orders {
            for (consistency, consistency_name) in consistencies {
                assert_eq!(
                    Engine::Model { consistency, order }.checkpoint_name(12),
                    format!(
                        "queens n=12 engine=model consistency={consistency_name} order={order_name}"
                    )
                );
            }
        }
    }
}
