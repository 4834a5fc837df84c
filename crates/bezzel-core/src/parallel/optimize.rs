//! Parallel branch and bound: the subproblems of a split are solved with
//! [`Solver::minimize`](crate::Solver::minimize)'s search on a thread pool, and the workers
//! share the best objective value found so far through an [`AtomicI64`] that every node reads
//! (see [`search`](crate::search)): a solution found in one subproblem prunes all the others at
//! once. The best solution is kept under a lock, taken only when a worker finds a solution.
//! When every subproblem is finished the best solution is optimal: each subproblem's tree was
//! searched under a bound that let through anything better than the solutions already found.

use super::{ParallelError, ParallelSearch, Subproblem, check_subproblems, worker};
use crate::error::ModelError;
use crate::model::Model;
use crate::search::{Optimum, Sense};
use crate::solution::Solution;
use crate::var::IntView;
use std::sync::atomic::{AtomicBool, AtomicI64};
use std::sync::{Arc, Mutex};

impl<F> ParallelSearch<F>
where
    F: Fn() -> Result<Model, ModelError> + Sync,
{
    /// Minimises `objective` over `subproblems` (from
    /// [`subproblems`](ParallelSearch::subproblems)) in parallel, the workers sharing the best
    /// value found so far; see [`optimize`](ParallelSearch::optimize).
    ///
    /// ```
    /// use bezzel_core::parallel::ParallelSearch;
    /// use bezzel_core::prelude::*;
    ///
    /// // The cheapest 3x + 2y + z with x + y + z >= 7, all different, in 0..=5.
    /// let build = || -> Result<Model, ModelError> {
    ///     let mut m = Model::new();
    ///     let v = m.int_vars(3, 0..=5)?;
    ///     let cost = m.int_var(0..=30)?;
    ///     m.all_different(&v)?;
    ///     m.linear(&[1, 1, 1], &v, Relation::Ge, 7)?;
    ///     m.linear(&[3, 2, 1, -1], &[v[0], v[1], v[2], cost], Relation::Eq, 0)?;
    ///     Ok(m)
    /// };
    /// let cost = build()?.vars()[3]; // the same index in every copy of the model
    /// let search = ParallelSearch::new("cost", build).threads(Some(2));
    /// let subproblems = search.subproblems()?;
    /// let best = search.minimize(&subproblems, cost, None, |_, _| {})?;
    /// assert!(best.optimal);
    /// assert_eq!(best.value, Some(9)); // x = 0, y = 2, z = 5
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn minimize(
        &self,
        subproblems: &[Subproblem],
        objective: impl Into<IntView>,
        cancel: Option<Arc<AtomicBool>>,
        on_improved: impl Fn(&Solution, i32) + Sync,
    ) -> Result<Optimum, ParallelError> {
        self.optimize(
            subproblems,
            objective.into(),
            Sense::Minimize,
            cancel,
            on_improved,
        )
    }

    /// Maximises `objective`; see [`optimize`](ParallelSearch::optimize).
    ///
    /// ```
    /// use bezzel_core::parallel::ParallelSearch;
    /// use bezzel_core::prelude::*;
    ///
    /// // The largest sum of three different digits: 9 + 8 + 7 = 24.
    /// let build = || -> Result<Model, ModelError> {
    ///     let mut m = Model::new();
    ///     let d = m.int_vars(3, 0..=9)?;
    ///     let total = m.int_var(0..=27)?;
    ///     m.all_different(&d)?;
    ///     m.linear(&[1, 1, 1, -1], &[d[0], d[1], d[2], total], Relation::Eq, 0)?;
    ///     Ok(m)
    /// };
    /// let total = build()?.vars()[3];
    /// let search = ParallelSearch::new("digits", build).threads(Some(2));
    /// let best = search.maximize(&search.subproblems()?, total, None, |_, _| {})?;
    /// assert_eq!((best.value, best.optimal), (Some(24), true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn maximize(
        &self,
        subproblems: &[Subproblem],
        objective: impl Into<IntView>,
        cancel: Option<Arc<AtomicBool>>,
        on_improved: impl Fn(&Solution, i32) + Sync,
    ) -> Result<Optimum, ParallelError> {
        self.optimize(
            subproblems,
            objective.into(),
            Sense::Maximize,
            cancel,
            on_improved,
        )
    }

    /// Branch and bound over `subproblems` in parallel. `objective` is a view of a variable
    /// of any model that `build` makes, which names the variable at the same position in
    /// every copy (each worker has its own, built the same way); a position that the model
    /// lacks is a [`ParallelError::Model`] saying so, before any worker starts. `on_improved(solution, value)` is called (from worker
    /// threads, one at a time) with each solution better than every one before it, so the
    /// values it sees strictly improve. The solutions come from the workers' copies of the
    /// model and are read with the variables of any copy (as if read back from a file).
    ///
    /// The result is [optimal](Optimum::optimal) when every subproblem was solved; when
    /// `cancel` stopped the run, it holds the best solution found and its statistics say
    /// [`StopReason::Cancelled`](crate::stats::StopReason::Cancelled). Subproblems are
    /// checked as in [`count`](ParallelSearch::count); limits of the configuration other
    /// than the cancel flag would apply to each subproblem separately, and a subproblem they
    /// stop is a [`ParallelError::Limit`].
    pub fn optimize(
        &self,
        subproblems: &[Subproblem],
        objective: IntView,
        sense: Sense,
        cancel: Option<Arc<AtomicBool>>,
        on_improved: impl Fn(&Solution, i32) + Sync,
    ) -> Result<Optimum, ParallelError> {
        check_subproblems(&self.identity, subproblems)?;
        // Refused here, before any worker starts, when no build has the variable.
        (self.build)()?.same_position(objective)?;
        let cancel = cancel.unwrap_or_default();
        // The best value any worker found, of the minimised view (see `optimize_with`).
        let shared = Arc::new(AtomicI64::new(i64::MAX));
        let best: Mutex<Option<(Solution, i32)>> = Mutex::new(None);
        let better = |a: i32, b: i32| match sense {
            Sense::Minimize => a < b,
            Sense::Maximize => a > b,
        };
        let report = super::Runner::new()
            .threads(Some(self.workers()?))
            .cancel(&cancel)
            .batch_of(subproblems.to_vec())
            .run(
                || self.worker(&cancel),
                |solver, sub: &Subproblem, _| {
                    let solver = worker(solver)?;
                    let view = solver.model().same_position(objective)?;
                    let mut run =
                        solver.optimize_with(&sub.decisions, view, sense, Some(shared.clone()))?;
                    let mut found = 0;
                    for solution in run.by_ref() {
                        found += 1;
                        // The worker's copy of the model is not the caller's.
                        let solution = solution.unbound();
                        let value = solution.view_value(view);
                        let mut best = best.lock().unwrap_or_else(|e| e.into_inner());
                        if best.as_ref().is_none_or(|&(_, b)| better(value, b)) {
                            on_improved(&solution, value);
                            *best = Some((solution, value));
                        }
                    }
                    super::finished(run.stats().clone(), sub, [found])
                },
                |_, _| {},
            )?;
        let complete = report.is_complete();
        let (solution, value) = match best.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some((s, v)) => (Some(s), Some(v)),
            None => (None, None),
        };
        Ok(Optimum {
            optimal: complete && solution.is_some(),
            infeasible: complete && solution.is_none(),
            solution,
            value,
            stats: report.stats,
        })
    }
}
