//! Depth-first search that learns ([`SearchConfig::learning`](super::SearchConfig::learning)):
//! the same nodes, solutions and limits as [`dfs`](super::dfs), with decision levels in place
//! of the stack.
//!
//! Each failure is analysed into a nogood ([`learn`](crate::learn)); search undoes the levels
//! above the nogood's assertion level and the nogood propagates there. Counting and
//! enumeration stay exact: after a solution, the other branch of the deepest decision is
//! taken as a *pseudo-decision*, a decision without a reason, and no backjump undoes a
//! pseudo-decision (the solutions below its sibling would be found again); a failure at a
//! pseudo-decision's own level moves on as depth-first search does. Branch and bound goes
//! back to the root after each solution, where the tighter bound on the objective holds from
//! then on; the nogoods stay valid, as the bound only tightens.
//!
//! Runs that may restart ([`SearchConfig::restarts`](super::SearchConfig::restarts): the
//! first solution, branch and bound) restart after their Luby budgets of failures, keeping
//! the nogoods.

use super::dfs::{Phase, Solver};
use super::optimize::Objective;
use crate::learn::Learner;
use crate::learn::analysis::{Analysis, Failure, Learned};

impl Solver {
    /// [`advance`](Solver::advance) for a run that learns.
    pub(super) fn advance_learning(&mut self) -> bool {
        let mut learner = self.learner.take().expect("a run that learns");
        let found = self.advance_learning_with(&mut learner);
        self.learner = Some(learner);
        found
    }

    fn advance_learning_with(&mut self, l: &mut Learner) -> bool {
        loop {
            match self.phase {
                Phase::Start => {
                    self.stats.nodes = 1;
                    let bound = self.objective.as_ref().and_then(Objective::bound_decision);
                    let root = self.prefix.iter().chain(&bound).copied();
                    let rooted = l.start(self.model.engine_mut(), root);
                    self.stats.failures += u64::from(!rooted);
                    self.phase = if rooted && self.settle(l) {
                        Phase::Descend
                    } else {
                        Phase::Done
                    };
                }
                Phase::Descend => {
                    if let Some(reason) = self.limit_reached() {
                        self.stats.stopped = Some(reason);
                        self.phase = Phase::Done;
                        continue;
                    }
                    if self.learning_restart_due(l) {
                        // Back to the root (or to the last pseudo-decision, which must stay):
                        // the nogoods keep what the attempt learnt, so search stays complete.
                        let keep = l.pseudo_below(l.level() + 1);
                        l.backjump(self.model.engine_mut(), keep);
                        self.stats.restarts += 1;
                        continue;
                    }
                    let Some(decision) = self.choose() else {
                        if let Some(objective) = &self.objective {
                            let value = self.model.engine().min(objective.var());
                            l.bound = Some(objective.value_of(value));
                        }
                        if self.config.check_solutions {
                            self.check_solution();
                        }
                        self.count_solution();
                        return true;
                    };
                    self.stats.nodes += 1;
                    let engine = self.model.engine_mut();
                    let ok = match l.decide(engine, decision, false) {
                        Ok(()) => self.settle(l),
                        Err(failure) => self.resolve(l, failure),
                    };
                    self.stats.max_depth = self.stats.max_depth.max(u64::from(l.level()));
                    if !ok {
                        self.phase = Phase::Done;
                    }
                }
                Phase::Backtrack => {
                    let ok = self.after_solution(l);
                    self.phase = if ok { Phase::Descend } else { Phase::Done };
                }
                Phase::Done => {
                    self.stats.elapsed = self.started.elapsed();
                    return false;
                }
            }
        }
    }

    /// Moves on from a solution: to the root under a tighter bound in branch and bound, to
    /// the next branch otherwise; `false` when the search is over.
    fn after_solution(&mut self, l: &mut Learner) -> bool {
        let engine = self.model.engine_mut();
        if let Some(objective) = &self.objective {
            l.backjump(engine, 0);
            let Some(bound) = objective.bound_decision() else {
                return false;
            };
            if !l.decide_at_root(engine, bound) {
                self.stats.failures += 1;
                return false;
            }
            return self.settle(l);
        }
        let level = l.level();
        match l.next_branch(engine, level) {
            None => false,
            Some(Ok(())) => self.settle(l),
            Some(Err(failure)) => self.resolve(l, failure),
        }
    }

    /// Whether the current attempt of a run that restarts (the first solution, branch and
    /// bound) has used up its failures; if so, the next attempt starts.
    fn learning_restart_due(&mut self, l: &Learner) -> bool {
        let (failures, at_root) = (self.stats.failures, l.level() == 0);
        self.restart
            .as_mut()
            .is_some_and(|r| r.due(failures, at_root))
    }

    /// Propagates; a failure is resolved. `false` when the search is over.
    fn settle(&mut self, l: &mut Learner) -> bool {
        let engine = self.model.engine_mut();
        match l.propagate(engine, &mut self.stats.propagations) {
            Ok(()) => true,
            Err(failure) => self.resolve(l, failure),
        }
    }

    /// Answers failures, learning from each, until propagation reaches a fixpoint (`true`)
    /// or the search is over (`false`).
    fn resolve(&mut self, l: &mut Learner, mut failure: Failure) -> bool {
        loop {
            self.stats.failures += 1;
            let engine = self.model.engine_mut();
            let next = match l.analyse(engine, &failure) {
                Analysis::Root => return false,
                Analysis::Learned(learned) if !l.is_pseudo(learned.conflict_level) => {
                    let below = l.pseudo_below(learned.conflict_level);
                    l.backjump(engine, learned.assertion_level.max(below));
                    l.learn(engine, learned)
                }
                Analysis::Learned(Learned { conflict_level, .. })
                | Analysis::Chronological { conflict_level } => {
                    match l.next_branch(engine, conflict_level) {
                        None => return false,
                        Some(result) => result,
                    }
                }
            };
            let result = next.and_then(|()| l.propagate(engine, &mut self.stats.propagations));
            match result {
                Ok(()) => return true,
                Err(f) => failure = f,
            }
        }
    }
}
