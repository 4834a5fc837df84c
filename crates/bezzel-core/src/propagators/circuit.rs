//! Sub-tour elimination for `circuit` and `subcircuit`: the successor views describe one
//! cycle (through every node, or through the nodes not mapped to themselves).
//!
//! The fixed successors form chains. For a chain that starts at `head` and ends at an unfixed
//! `end`, the arc `end -> head` would close a cycle over the chain alone (the path-end rule):
//! it is removed, unless that cycle may be the whole circuit (every node, for `circuit`; for
//! `subcircuit`, when every node off the chain can still be left out). A closed cycle of
//! fixed arcs fails when it is too short (`circuit`), or leaves every other node out
//! (`subcircuit`). Distinctness of the successors is a separate all-different, posted beside
//! this propagator by the modelling functions. A run costs `O(n)` per pass, passes repeating
//! while arcs go.

use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::store::Conflict;
use crate::var::IntView;

/// The successor views form one circuit: over every node (`circuit`) or over the nodes not
/// their own successor (`subcircuit`).
///
/// Strength: the path-end rule (the arc that would close a chain of fixed arcs into a sub-tour
/// is removed) and the check of closed cycles, not domain consistency: distinctness is left to
/// the all-different that [`Model::circuit`](crate::Model::circuit) and
/// [`Model::subcircuit`](crate::Model::subcircuit) post beside it. Cost: `O(n)` per pass,
/// passes repeating while arcs go.
#[derive(Debug, Clone)]
pub struct NoSubtour {
    succ: Vec<IntView>,
    sub: bool,
    /// Scratch: whether a node has a fixed predecessor (by a non-loop arc), then whether a
    /// walk visited it.
    has_pred: Vec<bool>,
    visited: Vec<bool>,
}

impl NoSubtour {
    /// Every node on one cycle: `succ[i] = j` is the arc `i -> j`.
    pub fn circuit(succ: Vec<IntView>) -> NoSubtour {
        NoSubtour::new(succ, false)
    }

    /// The nodes with `succ[i] != i` on one cycle (possibly none), the others left out.
    pub fn subcircuit(succ: Vec<IntView>) -> NoSubtour {
        NoSubtour::new(succ, true)
    }

    fn new(succ: Vec<IntView>, sub: bool) -> NoSubtour {
        let n = succ.len();
        NoSubtour {
            succ,
            sub,
            has_pred: vec![false; n],
            visited: vec![false; n],
        }
    }

    /// The fixed successor of `i`, if it is fixed and not `i` itself.
    fn arc(&self, ctx: &Context<'_>, i: usize) -> Option<usize> {
        let v = self.succ[i];
        if ctx.is_fixed(v) {
            let j = ctx.min(v) as usize;
            (j != i).then_some(j)
        } else {
            None
        }
    }

    /// Whether node `i` can still be left out of a subcircuit.
    fn may_leave(&self, ctx: &Context<'_>, i: usize) -> bool {
        self.sub && ctx.contains(self.succ[i], i as i64)
    }

    /// One pass of the rules, up to the first change; returns whether there was one.
    fn pass(&mut self, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        let n = self.succ.len();
        self.has_pred.fill(false);
        self.visited.fill(false);
        for i in 0..n {
            if let Some(j) = self.arc(ctx, i) {
                self.has_pred[j] = true;
            }
        }
        // Nodes that must be in the circuit, off any chain walked so far: all of them first.
        let must_stay = (0..n).filter(|&i| !self.may_leave(ctx, i)).count();
        for head in 0..n {
            if self.has_pred[head] || self.arc(ctx, head).is_none() {
                continue;
            }
            // Walk the chain from its head to its unfixed end.
            let (mut end, mut len, mut staying) = (head, 1, 0);
            self.visited[head] = true;
            staying += usize::from(!self.may_leave(ctx, head));
            while let Some(next) = self.arc(ctx, end) {
                if self.visited[next] {
                    // Two fixed arcs into one node.
                    return Err(Conflict);
                }
                self.visited[next] = true;
                staying += usize::from(!self.may_leave(ctx, next));
                end = next;
                len += 1;
            }
            let closing_ok = if self.sub {
                staying == must_stay
            } else {
                len == n
            };
            // A change ends the pass: the arcs read above may be stale now (one variable
            // can stand for several successors, through views), and the next pass starts
            // from the domains as they are.
            if !closing_ok && ctx.remove(self.succ[end], head as i64)? {
                return Ok(true);
            }
        }
        // What is left with a fixed arc lies on closed cycles.
        for start in 0..n {
            if self.visited[start] || self.arc(ctx, start).is_none() {
                continue;
            }
            let mut len = 0;
            let mut i = start;
            let mut closed = true;
            while !self.visited[i] {
                self.visited[i] = true;
                len += 1;
                match self.arc(ctx, i) {
                    Some(next) => i = next,
                    // Not a cycle after all: a chain whose head has another fixed arc into
                    // it, which the all-different beside this propagator refutes.
                    None => {
                        closed = false;
                        break;
                    }
                }
            }
            if !closed {
                continue;
            }
            if !self.sub {
                if len < n {
                    return Err(Conflict);
                }
                continue;
            }
            // The cycle through `start` is the subcircuit: every other node is left out.
            let mut on = vec![false; n];
            let mut i = start;
            while !on[i] {
                on[i] = true;
                match self.arc(ctx, i) {
                    Some(next) => i = next,
                    None => break,
                }
            }
            for (k, &on_cycle) in on.iter().enumerate() {
                if !on_cycle && ctx.assign(self.succ[k], k as i64)? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

impl Propagator for NoSubtour {
    fn setup(&mut self, s: &mut Setup<'_>) {
        // A subcircuit also watches whether nodes may still be left out.
        let event = if self.sub {
            Event::Domain
        } else {
            Event::Fixed
        };
        for &v in &self.succ {
            s.subscribe(v, event);
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let n = self.succ.len();
        for (i, &v) in self.succ.iter().enumerate() {
            ctx.set_min(v, 0)?;
            ctx.set_max(v, n as i64 - 1)?;
            if !self.sub && n > 1 {
                ctx.remove(v, i as i64)?;
            }
        }
        while self.pass(ctx)? {}
        Ok(PropStatus::Fixpoint)
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        let n = self.succ.len();
        let succ: Vec<i64> = self.succ.iter().map(|&v| a.value(v)).collect();
        if succ.iter().any(|&j| j < 0 || j >= n as i64) {
            return false;
        }
        // The nodes that should be on the cycle; follow the arcs from the first of them.
        let members: Vec<usize> = (0..n)
            .filter(|&i| !self.sub || succ[i] != i as i64)
            .collect();
        let Some(&first) = members.first() else {
            return true; // an empty subcircuit
        };
        let mut seen = vec![false; n];
        let mut i = first;
        for _ in 0..members.len() {
            if seen[i] {
                return false;
            }
            seen[i] = true;
            i = succ[i] as usize;
        }
        i == first && members.iter().all(|&k| seen[k])
    }

    fn name(&self) -> &'static str {
        if self.sub { "subcircuit" } else { "circuit" }
    }
}
