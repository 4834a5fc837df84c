//! Optimisation: branch and bound over depth-first search.
//!
//! [`Solver::minimize`] and [`Solver::maximize`] run the ordinary depth-first search with one
//! more rule: once a solution of objective value `b` is found, every node explored afterwards
//! must do better than `b`. The bound is not a constraint in the model (backtracking would undo
//! any narrowing of the store): it lives in the solver, and every node narrows the objective's
//! domain to it as it is entered, right after the trail mark of its branch (so a restore to
//! that mark undoes the narrowing and the next node applies the bound again). A node never
//! inherits a weaker bound than the current one, and each solution is strictly better than the
//! one before. When the tree is exhausted the last solution is optimal: no better one exists,
//! since every node that could hold one was searched under a bound that allowed it.
//!
//! The bound is also what a parallel search shares: each worker's objective may watch an
//! [`AtomicI64`] that holds the best value any worker has found, read as each node is
//! entered, so a worker prunes with the others' solutions too.

use super::decision::Decision;
use super::dfs::Solver;
use crate::error::ModelError;
use crate::solution::Solution;
use crate::stats::Statistics;
use crate::var::IntView;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// Whether an objective is minimised or maximised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Sense {
    /// Smaller is better.
    Minimize,
    /// Larger is better.
    Maximize,
}

/// Branch and bound's state in an optimisation run: the view being minimised and the best
/// value found so far. Maximising `v` minimises `-v`, so everything here minimises.
#[derive(Debug, Clone)]
pub(super) struct Objective {
    /// The view to minimise.
    view: IntView,
    /// The best value of `view` found by this run, if any.
    best: Option<i64>,
    /// The best value found by any worker of a parallel search, in terms of `view`
    /// (`i64::MAX` until one is found), read as each node is entered; this run's solutions
    /// are written to it.
    shared: Option<Arc<AtomicI64>>,
}

impl Objective {
    /// Minimising `view`, which must beat `best` when there is one.
    pub(super) fn new(view: IntView, best: Option<i64>) -> Objective {
        Objective {
            view,
            best,
            shared: None,
        }
    }

    /// The value every node from now on must beat, if any: the better of this run's best and
    /// the shared one.
    #[inline]
    fn bound(&self) -> Option<i64> {
        let shared = self
            .shared
            .as_ref()
            .map(|s| s.load(Ordering::Relaxed))
            .filter(|&b| b != i64::MAX);
        match (self.best, shared) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The decision that keeps the view below `bound`: `view <= bound - 1`, on the variable
    /// underneath. Values beyond `i32` are clamped: every domain lies well inside it, so a
    /// clamped bound empties a domain exactly when the true one does.
    fn decision(&self, bound: i64) -> Decision {
        let x = self.view.var;
        let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        // view <= bound - 1 on the variable: x <= b, or x >= b (that is x > b - 1) for a
        // negated view, rounded over a scaled view's holes.
        match self.view.var_bound(bound.saturating_sub(1), false) {
            (b, true) => Decision::Above(x, clamp(b.saturating_sub(1))),
            (b, false) => Decision::AtMost(x, clamp(b)),
        }
    }

    /// The decision that states the bound at a node, if there is one yet.
    #[inline]
    pub(super) fn bound_decision(&self) -> Option<Decision> {
        self.bound().map(|b| self.decision(b))
    }

    /// The view's value when its variable takes `var_value`.
    pub(super) fn value_of(&self, var_value: i32) -> i64 {
        self.view.to_view(var_value)
    }

    /// The variable underneath the view (its index).
    pub(super) fn var(&self) -> u32 {
        self.view.var.index
    }

    /// Records a solution of value `value` (which beats every bound so far), and shares it.
    pub(super) fn found(&mut self, value: i64) {
        self.best = Some(value);
        if let Some(shared) = &self.shared {
            shared.fetch_min(value, Ordering::Relaxed);
        }
    }
}

impl Solver {
    /// Branch and bound that minimises `objective`: a lazy iterator over solutions, each with
    /// a smaller objective value than the one before. When the iterator ends with the run
    /// complete ([`Statistics::is_complete`], see [`Optimize::is_optimal`]) the last solution
    /// is optimal, or there is none at all; a limit or the cancel flag
    /// ([`SearchConfig::limits`](super::SearchConfig::limits),
    /// [`set_cancel_flag`](Solver::set_cancel_flag)) may stop it earlier, and
    /// [`Optimize::best`] is then the best solution found. The solution limit counts improving
    /// solutions. With restarts ([`SearchConfig::restarts`](super::SearchConfig::restarts))
    /// each attempt starts again from the root under the best bound so far; the run is proven
    /// when an attempt exhausts the tree, which one eventually does, as attempts grow without
    /// bound. [`SearchConfig::for_optimization`](super::SearchConfig::for_optimization) is a
    /// strong configuration for these runs.
    ///
    /// The bound lives in the solver, not in the model: each node narrows the objective's
    /// domain to beat the best solution so far right after the trail mark of its branch, so
    /// backtracking cannot undo it. The cost over plain search is one bounds narrowing per
    /// node; how fast the optimum is proven depends on how well the model's propagators
    /// reason about the objective's bounds.
    ///
    /// `objective` is a view of this solver's model; a solver made by
    /// [`parallel`](Solver::parallel) searches copies of its model and also takes a variable
    /// of any other build of it (the one at the same position), as
    /// [`ParallelSearch`](crate::parallel::ParallelSearch) does. Any other variable is a
    /// [`ModelError`].
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    ///
    /// // The cheapest x + 2y with x + y >= 5, x, y in 0..=4.
    /// let mut m = Model::new();
    /// let x = m.named_var("x", 0..=4)?;
    /// let y = m.named_var("y", 0..=4)?;
    /// let cost = m.named_var("cost", 0..=12)?;
    /// m.linear(&[1, 1], &[x, y], Relation::Ge, 5)?;
    /// m.linear(&[1, 2, -1], &[x, y, cost], Relation::Eq, 0)?;
    /// let mut solver = Solver::new(m);
    /// let mut run = solver.minimize(cost)?;
    /// let mut values = Vec::new();
    /// for solution in run.by_ref() {
    ///     values.push(solution[cost]); // each one cheaper than the last
    /// }
    /// assert!(values.windows(2).all(|w| w[0] > w[1]));
    /// assert!(run.is_optimal());
    /// assert_eq!(run.best_value(), Some(6)); // x = 4, y = 1
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn minimize(&mut self, objective: impl Into<IntView>) -> Result<Optimize<'_>, ModelError> {
        self.optimize_here_or_on_workers(objective.into(), Sense::Minimize)
    }

    /// Branch and bound that maximises `objective`: as [`minimize`](Solver::minimize), each
    /// solution with a larger objective value than the one before.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    ///
    /// let mut m = Model::new();
    /// let x = m.int_vars(3, 0..=5)?;
    /// let total = m.int_var(0..=15)?;
    /// m.all_different(&x)?;
    /// m.linear(&[1, 1, 1, -1], &[x[0], x[1], x[2], total], Relation::Eq, 0)?;
    /// m.linear(&[1, -1], &[x[0], x[1]], Relation::Ge, 3)?; // x0 >= x1 + 3
    /// let mut solver = Solver::new(m);
    /// let best = solver.maximize(total)?.finish();
    /// assert_eq!(best.value, Some(11)); // x0 = 5, x1 = 2, x2 = 4
    /// assert!(best.optimal);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn maximize(&mut self, objective: impl Into<IntView>) -> Result<Optimize<'_>, ModelError> {
        self.optimize_here_or_on_workers(objective.into(), Sense::Maximize)
    }

    /// Branch and bound from the root: on the worker threads of a solver made by
    /// [`parallel`](Solver::parallel) (the improving solutions they found, replayed in
    /// order), here otherwise.
    fn optimize_here_or_on_workers(
        &mut self,
        objective: IntView,
        sense: Sense,
    ) -> Result<Optimize<'_>, ModelError> {
        // A solver on threads searches copies of its model: any copy's variable names the
        // one at its position, as in the lower layer (`ParallelSearch`).
        let objective = if self.threads.is_some() {
            self.model.same_position(objective)?
        } else {
            self.model.check_view(objective)?;
            objective
        };
        self.restart();
        match self.optimize_on_workers(objective, sense) {
            Some(Ok(improving)) => Ok(Optimize {
                solver: self,
                objective,
                best: None,
                finished: false,
                found: Some(improving.into_iter()),
            }),
            Some(Err(e)) => Err(e),
            None => self.optimize_with(&[], objective, sense, None),
        }
    }

    /// Branch and bound below a decision prefix (a subproblem from
    /// [`split`](Solver::split)), checked as in [`count_in`](Solver::count_in). The best of
    /// the optima of a split's subproblems is the optimum of the whole model.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    ///
    /// // The cheapest x + 2y with x + y >= 5, x, y in 0..=4: 6, at x = 4, y = 1.
    /// let mut m = Model::new();
    /// let x = m.named_var("x", 0..=4)?;
    /// let y = m.named_var("y", 0..=4)?;
    /// let cost = m.named_var("cost", 0..=12)?;
    /// m.linear(&[1, 1], &[x, y], Relation::Ge, 5)?;
    /// m.linear(&[1, 2, -1], &[x, y, cost], Relation::Eq, 0)?;
    /// let mut solver = Solver::new(m);
    /// let mut optima = Vec::new();
    /// for prefix in solver.split(4).expect("no cancel flag") {
    ///     let part = solver.optimize_in(&prefix, cost, Sense::Minimize)?.finish();
    ///     assert!(part.optimal || part.infeasible);
    ///     optima.extend(part.value);
    /// }
    /// assert_eq!(optima.into_iter().min(), Some(6));
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn optimize_in(
        &mut self,
        prefix: &[Decision],
        objective: impl Into<IntView>,
        sense: Sense,
    ) -> Result<Optimize<'_>, ModelError> {
        self.optimize_with(prefix, objective.into(), sense, None)
    }

    /// Branch and bound below `prefix` that also prunes with, and writes its solutions to,
    /// `shared`: the best value that any of the runs sharing it found, of the minimised view
    /// (the objective for [`Sense::Minimize`], its negation for [`Sense::Maximize`]), or
    /// `i64::MAX` while there is none.
    pub(crate) fn optimize_with(
        &mut self,
        prefix: &[Decision],
        objective: IntView,
        sense: Sense,
        shared: Option<Arc<AtomicI64>>,
    ) -> Result<Optimize<'_>, ModelError> {
        self.model.check_view(objective)?;
        self.check_prefix(prefix)?;
        self.restart();
        self.prefix.extend_from_slice(prefix);
        self.start_restarts();
        let view = match sense {
            Sense::Minimize => objective,
            Sense::Maximize => objective.minus(),
        };
        self.objective = Some(Objective {
            view,
            best: None,
            shared,
        });
        Ok(Optimize {
            solver: self,
            objective,
            best: None,
            finished: false,
            found: None,
        })
    }
}

/// An optimisation run: a lazy iterator over improving solutions; see
/// [`Solver::minimize`].
#[derive(Debug)]
pub struct Optimize<'a> {
    solver: &'a mut Solver,
    /// The objective as the caller stated it (not negated for maximisation).
    objective: IntView,
    /// The last solution found, and its objective value.
    best: Option<(Solution, i32)>,
    /// Whether the run is over (the iterator returned `None`).
    finished: bool,
    /// The improving solutions that worker threads found, replayed by the iterator; `None`
    /// when the search runs here.
    found: Option<std::vec::IntoIter<Solution>>,
}

impl Optimize<'_> {
    /// Statistics of the run so far.
    pub fn stats(&self) -> &Statistics {
        &self.solver.stats
    }

    /// The best solution found so far (the last one yielded), if any.
    pub fn best(&self) -> Option<&Solution> {
        self.best.as_ref().map(|(s, _)| s)
    }

    /// The objective value of [`best`](Optimize::best).
    pub fn best_value(&self) -> Option<i32> {
        self.best.as_ref().map(|&(_, v)| v)
    }

    /// Whether the run is over and explored the whole tree: then [`best`](Optimize::best)
    /// is optimal, or (when `None`) the model has no solution.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_vars(2, 0..=3)?;
    /// m.sum(&x, Relation::Eq, 7)?; // at most 3 + 3
    /// let mut solver = Solver::new(m);
    /// let mut run = solver.minimize(x[0])?;
    /// assert!(!run.is_proven()); // not run yet
    /// assert!(run.next().is_none());
    /// assert!(run.is_proven() && !run.is_optimal()); // proven to have no solution
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn is_proven(&self) -> bool {
        self.finished && self.solver.stats.is_complete()
    }

    /// Whether [`best`](Optimize::best) is a proven optimum: the run is over, explored the
    /// whole tree, and found a solution.
    pub fn is_optimal(&self) -> bool {
        self.is_proven() && self.best.is_some()
    }

    /// Runs to the end (the optimum, or a limit) and says what was found. A run stopped by a
    /// limit or the cancel flag reports the best solution it found, neither
    /// [`optimal`](Optimum::optimal) nor [`infeasible`](Optimum::infeasible), and its
    /// [`stats`](Optimum::stats) say what stopped it.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    ///
    /// // The largest sum of three different digits: 9 + 8 + 7 = 24.
    /// let mut m = Model::new();
    /// let d = m.int_vars(3, 0..=9)?;
    /// let total = m.int_var(0..=27)?;
    /// m.all_different(&d)?;
    /// m.linear(&[1, 1, 1, -1], &[d[0], d[1], d[2], total], Relation::Eq, 0)?;
    /// let mut solver = Solver::new(m);
    ///
    /// solver.config_mut().limits.solutions = Some(1); // stop at the first improving solution
    /// let early = solver.maximize(total)?.finish();
    /// assert!(!early.optimal && !early.infeasible);
    /// assert_eq!(early.stats.stopped, Some(StopReason::SolutionLimit));
    /// assert!(early.value.is_some_and(|v| v <= 24)); // a bound on the optimum
    ///
    /// solver.config_mut().limits = Limits::default();
    /// let best = solver.maximize(total)?.finish();
    /// assert_eq!((best.value, best.optimal), (Some(24), true));
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn finish(mut self) -> Optimum {
        for _ in self.by_ref() {}
        let proven = self.is_proven();
        let (solution, value) = match self.best {
            Some((s, v)) => (Some(s), Some(v)),
            None => (None, None),
        };
        Optimum {
            optimal: proven && solution.is_some(),
            infeasible: proven && solution.is_none(),
            solution,
            value,
            stats: self.solver.stats.clone(),
        }
    }
}

impl Iterator for Optimize<'_> {
    type Item = Solution;

    fn next(&mut self) -> Option<Solution> {
        if self.finished {
            return None;
        }
        let next = match &mut self.found {
            Some(found) => found.next(),
            None => self.solver.next_solution(),
        };
        let Some(solution) = next else {
            self.finished = true;
            return None;
        };
        let value = solution.view_value(self.objective);
        self.best = Some((solution.clone(), value));
        Some(solution)
    }
}

/// What an optimisation run found: see [`Optimize::finish`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Optimum {
    /// The best solution found, if any.
    pub solution: Option<Solution>,
    /// Its objective value.
    pub value: Option<i32>,
    /// Whether `solution` is proven optimal (the whole tree was explored).
    pub optimal: bool,
    /// Whether the model is proven to have no solution.
    pub infeasible: bool,
    /// Statistics of the run.
    pub stats: Statistics,
}
