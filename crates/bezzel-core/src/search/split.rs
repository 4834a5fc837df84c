//! Splitting: the search tree cut into subproblems, each a prefix of decisions from the root.
//!
//! A split explores the tree down to a level and reports every node there as the decisions
//! that lead to it; the subtrees below these prefixes partition the solutions (Embarrassingly
//! Parallel Search, Régin et al. 2013). A prefix is plain data: it can be solved by
//! [`Solver::count_in`] on another copy of the model, in another thread or process, or stored
//! in a [`checkpoint`](crate::checkpoint) and solved after a restart.

use super::decision::Decision;
use super::dfs::{Frame, Solver};

/// The most values of one variable that [`Solver::split`] expands one by one at a node; the
/// rest stay together in one subproblem. Far above the domains that are split value by value
/// for balance (queens, sudoku: tens of values), far below the wide domains of models read
/// from FlatZinc.
const MAX_SPLIT_CHAIN: usize = 256;

impl Solver {
    /// Decisions that lead from the root to the current node, with the same solutions below,
    /// on unbound variables (see [`Decision`]): a prefix is meant for other copies of the model.
    ///
    /// The path itself can be long: a chain of right branches `x != 0`, `x != 1`, ... runs
    /// on through every variable it fixes, and a split's prefixes together would hold a number
    /// of decisions quadratic in their count (2 million for 2,000 subproblems of 80 queens).
    /// So the decisions on a variable that is fixed here are replaced by one `x = value`,
    /// placed where the first of them was: solutions below the node give `x` that value
    /// (propagation is sound), and that value satisfies every decision on `x`. A prefix then
    /// holds at most a few decisions per variable it touches. `seen` is all false, and is
    /// left so.
    fn current_prefix(&self, seen: &mut [bool]) -> Vec<Decision> {
        let path = self
            .prefix
            .iter()
            .copied()
            .chain(self.stack.iter().map(|f| {
                if f.right_branch_taken {
                    f.decision.negate()
                } else {
                    f.decision
                }
            }));
        let engine = self.model.engine();
        let mut prefix = Vec::new();
        for decision in path {
            let x = decision.var().index;
            if !engine.is_fixed(x) {
                prefix.push(decision.unbound());
            } else if !std::mem::replace(&mut seen[x as usize], true) {
                prefix.push(Decision::Assign(decision.var(), engine.min(x)).unbound());
            }
        }
        for d in &prefix {
            seen[d.var().index()] = false;
        }
        prefix
    }

    /// Splits the search tree into at least `target` subproblems where the tree allows:
    /// decision prefixes, none refuted by propagation, whose subtrees partition the
    /// solutions (Embarrassingly Parallel Search, Régin et al. 2013). The split deepens one
    /// level at a time until there are enough; a level is one left branch (one value of one
    /// variable), so the split behaves like d-way branching on the first variables. Solving
    /// each with [`count_in`](Solver::count_in) and adding up gives [`count`](Solver::count).
    ///
    /// The decisions name unbound variables (see [`VarId`](crate::VarId)), as they read back
    /// from a file: a prefix can be solved by any copy of the model built the same way, such as
    /// a parallel worker's, not only by this solver's.
    ///
    /// `None` when the solver's cancel flag ([`set_cancel_flag`](Solver::set_cancel_flag))
    /// stopped it: splitting a large model takes time of its own, and a part of a split is no
    /// split (its subproblems would miss solutions).
    ///
    /// A variable's values are expanded one by one only up to 256 of them at a node: a variable with a wide domain (a FlatZinc `var int` of two million values, say)
    /// would otherwise become that many subproblems, and each one's prefix as long. The node
    /// left after that many becomes one subproblem holding the values not expanded.
    pub fn split(&mut self, target: usize) -> Option<Vec<Vec<Decision>>> {
        let mut depth = 1;
        let mut previous = usize::MAX;
        loop {
            let prefixes = self.prefixes_at(depth)?;
            if prefixes.len() >= target || prefixes.len() == previous {
                self.restart();
                return Some(prefixes);
            }
            previous = prefixes.len();
            depth += 1;
        }
    }

    /// How deep the current node is for [`split`](Solver::split). Left branches count, and
    /// a chain of right branches (`x != 0`, `x != 1`, ...) stays on its level, so each level
    /// expands every value of a variable and the rightmost subproblem is not left holding most
    /// of the tree. But a chain that has fixed its variable (the last value left) counts as a
    /// level of its own, like the left branch `x = last` it amounts to: otherwise the chain
    /// would run on through every later variable on one level, and a split of 300 queens into
    /// 100 pieces would make 29,000. `seen` is all false, and is left so.
    fn split_level(&self, seen: &mut [bool]) -> usize {
        let mut level = 0;
        for f in self.stack.iter().rev() {
            let x = f.decision.var().index;
            let last_on_its_variable = !std::mem::replace(&mut seen[x as usize], true);
            if !f.right_branch_taken || (last_on_its_variable && self.model.engine().is_fixed(x)) {
                level += 1;
            }
        }
        for f in &self.stack {
            seen[f.decision.var().index()] = false;
        }
        level
    }

    /// How many right branches on one variable end the stack (`x != 0`, `x != 1`, ...).
    fn right_chain(&self) -> usize {
        let Some(top) = self.stack.last() else {
            return 0;
        };
        let var = top.decision.var().index;
        self.stack
            .iter()
            .rev()
            .take_while(|f| f.right_branch_taken && f.decision.var().index == var)
            .count()
    }

    /// Every node at `depth` (or a shallower solution), as a decision prefix; a node after
    /// [`MAX_SPLIT_CHAIN`] right branches on one variable is taken as it is (see
    /// [`split`](Solver::split)). `None` when the cancel flag stopped it.
    pub(super) fn prefixes_at(&mut self, depth: usize) -> Option<Vec<Vec<Decision>>> {
        self.restart();
        let mut out = Vec::new();
        self.model.engine_mut().schedule_all();
        if self.propagate().is_err() {
            return Some(out);
        }
        let mut seen = vec![false; self.model.num_vars()];
        loop {
            if self.is_cancelled() {
                self.restart();
                return None;
            }
            let open = self.right_chain() < MAX_SPLIT_CHAIN && self.split_level(&mut seen) < depth;
            let decision = if open { self.choose() } else { None };
            let alive = match decision {
                None => {
                    out.push(self.current_prefix(&mut seen));
                    self.backtrack()
                }
                Some(decision) => {
                    let mark = self.model.engine_mut().mark();
                    self.stack.push(Frame {
                        mark,
                        decision,
                        right_branch_taken: false,
                    });
                    self.apply(decision).is_ok() || self.backtrack()
                }
            };
            if !alive {
                return Some(out);
            }
        }
    }
}
