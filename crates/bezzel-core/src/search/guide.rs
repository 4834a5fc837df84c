//! Guidance for optimisation: last-conflict branching and solution-guided values.
//!
//! Two cheap rules that make depth-first search find good solutions much sooner, both off by
//! default and switched on by [`SearchConfig::for_optimization`](super::SearchConfig::for_optimization):
//!
//! * last conflict (Lecoutre, Saïs, Tabary and Vidal 2009): after a decision fails, search
//!   branches first on that decision's variable for as long as it is unfixed, so that the
//!   culprit of a failure is decided again right after backtracking, before the variables
//!   chosen after it, instead of rediscovering the same failure deep in every subtree;
//! * solution-guided values, or phase saving (Demirović, Chu and Stuckey 2018): once branch
//!   and bound finds a solution, each variable first tries its value in that solution, when its
//!   domain still holds it, so search stays near the incumbent and improves on it step by
//!   step (the value order decides otherwise, and before the first solution).
//!
//! Neither rule removes a branch: the right branch is still the negation of the left one, so
//! search stays complete. A run without them pays nothing at a node for the possibility:
//! guidance goes through the test for a user's [`Brancher`](super::Brancher) that every node
//! makes anyway, and learns of failures from the run's failure count at its next choice, not
//! at each failure.

use super::brancher::Custom;
use super::branching::{Branching, ValueOrder, VarOrder};
use super::decision::Decision;
use crate::engine::Engine;
use crate::stats::Statistics;
use crate::var::VarId;

/// What stands in front of the built-in branching at each node: a user's brancher, and
/// whether guidance is on. A solver without either holds none, so that each node tests one
/// pointer for both.
#[derive(Debug)]
pub(super) struct Steer {
    /// The user's brancher ([`Solver::brancher`](super::Solver::brancher)).
    pub(super) user: Option<Custom>,
    /// Whether [`Guide`] chooses the built-in decisions.
    pub(super) guided: bool,
}

/// What guidance knows: the variable of the latest failed decision and the values of the
/// latest solution.
#[derive(Debug, Clone, Default)]
pub(super) struct Guide {
    /// Whether last-conflict branching is on.
    last_conflict: bool,
    /// Whether solution-guided values are on.
    solution_phase: bool,
    /// The variable (index) of the latest left branch whose propagation failed, if any.
    conflict_var: Option<u32>,
    /// The variable of the decision chosen last, and the run's failures and solutions then:
    /// if failures grew before the next choice with no solution between, that decision's
    /// left branch failed (had it held, search would have gone down and chosen again, or
    /// found a solution), so its variable is the latest conflict.
    chosen: Option<(u32, u64, u64)>,
    /// The values of the latest solution, by variable index; empty before the first one.
    phase: Vec<i32>,
}

impl Guide {
    /// Whether any rule is on: only then does search take the guided loop.
    pub(super) fn is_on(&self) -> bool {
        self.last_conflict || self.solution_phase
    }

    /// Starts a run with these rules, keeping the latest solution's values (as dom/wdeg
    /// keeps its weights).
    pub(super) fn start_run(&mut self, last_conflict: bool, solution_phase: bool) {
        self.last_conflict = last_conflict;
        self.solution_phase = solution_phase;
        self.conflict_var = None;
        self.chosen = None;
    }

    /// Records the values of a solution, every variable fixed.
    pub(super) fn solution(&mut self, engine: &Engine, n: usize) {
        if self.solution_phase {
            self.phase.clear();
            self.phase.extend((0..n as u32).map(|x| engine.min(x)));
        }
    }

    /// Forgets the latest conflict and solution.
    pub(super) fn clear(&mut self) {
        self.conflict_var = None;
        self.chosen = None;
        self.phase.clear();
    }

    /// Notes that search branches on `x` now, in a run that has seen `stats` so far, after
    /// learning whether the previous choice's left branch failed.
    pub(super) fn note_choice(&mut self, x: u32, stats: &Statistics) {
        self.learn(stats);
        self.chosen = Some((x, stats.failures, stats.solutions));
    }

    /// Makes the previous choice's variable the latest conflict if its left branch failed.
    fn learn(&mut self, stats: &Statistics) {
        if let Some((previous, failures, solutions)) = self.chosen
            && self.last_conflict
            && stats.failures > failures
            && stats.solutions == solutions
        {
            self.conflict_var = Some(previous);
        }
    }

    /// The guided decision at the current node (`None` when every variable is fixed): the
    /// latest conflict's variable while it is unfixed, else the built-in branching's; the
    /// incumbent's value when the domain still holds it.
    pub(super) fn choose(
        &mut self,
        engine: &Engine,
        model: u32,
        branching: &Branching,
        var_order: VarOrder,
        value_order: ValueOrder,
        stats: &Statistics,
    ) -> Option<Decision> {
        self.learn(stats);
        let conflict = self.conflict_var.filter(|&x| !engine.is_fixed(x));
        let decision = match conflict {
            Some(x) => decision_on(engine, model, x, value_order),
            None => branching.choose(engine, var_order, value_order)?,
        };
        let decision = self.steer(engine, decision);
        self.chosen = Some((decision.var().index, stats.failures, stats.solutions));
        Some(decision)
    }

    /// `decision` with its value replaced by the incumbent's, when solution-guided values are
    /// on and the domain still holds that value.
    #[inline]
    fn steer(&self, engine: &Engine, decision: Decision) -> Decision {
        if !self.solution_phase {
            return decision;
        }
        let x = decision.var();
        match self.phase.get(x.index()) {
            Some(&v) if engine.contains(x.index, v) => Decision::Assign(x, v),
            _ => decision,
        }
    }
}

/// The decision a value order makes on the unfixed variable `x` (index) of model `model`.
#[inline]
pub(super) fn decision_on(
    engine: &Engine,
    model: u32,
    x: u32,
    value_order: ValueOrder,
) -> Decision {
    let (min, max) = (engine.min(x), engine.max(x));
    let x = VarId { model, index: x };
    match value_order {
        ValueOrder::Min => Decision::Assign(x, min),
        ValueOrder::Max => Decision::Assign(x, max),
        ValueOrder::Split => {
            Decision::AtMost(x, ((i64::from(min) + i64::from(max)).div_euclid(2)) as i32)
        }
    }
}
