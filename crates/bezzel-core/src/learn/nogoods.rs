//! The learnt nogoods, propagated with two watched predicates each.
//!
//! A nogood is a set of predicates that cannot all be true. Each watches two of them that
//! are not true (positions 0 and 1), registered under their variables; when a log entry on
//! a variable makes a watched predicate true, the nogood looks for another one to watch, and
//! when there is none, the other watch must be false: its negation is propagated, with the
//! rest of the nogood as its reason (or, if it is true as well, the nogood fails). Watches
//! survive backtracking unchanged, as in SAT solvers.

use super::predicate::Predicate;
use crate::store::Store;

/// What visiting a nogood after a change of one of its watched variables calls for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Visit {
    /// Nothing to do (a watch moved, or the nogood cannot fire yet).
    Quiet,
    /// Make this predicate true (the negation of the last predicate not true).
    Propagate(Predicate),
    /// Every predicate is true.
    Fail,
}

/// The nogood database; see the [module docs](self).
#[derive(Debug, Default)]
pub(crate) struct Nogoods {
    pub(crate) list: Vec<Vec<Predicate>>,
    /// Per variable, the nogoods that (may) watch a predicate on it; an entry whose nogood no
    /// longer watches the variable is dropped when next seen.
    watchers: Vec<Vec<u32>>,
}

impl Nogoods {
    pub(crate) fn new(num_vars: usize) -> Nogoods {
        Nogoods {
            list: Vec::new(),
            watchers: vec![Vec::new(); num_vars],
        }
    }

    /// Adds a nogood watching its first two predicates; returns its index.
    pub(crate) fn add(&mut self, preds: Vec<Predicate>) -> u32 {
        let id = self.list.len() as u32;
        for p in preds.iter().take(2) {
            let list = &mut self.watchers[p.var as usize];
            if list.last() != Some(&id) {
                list.push(id);
            }
        }
        self.list.push(preds);
        id
    }

    /// How many nogoods watch variable `x` (some entries may be stale).
    pub(crate) fn watchers_of(&self, x: u32) -> usize {
        self.watchers[x as usize].len()
    }

    /// The `k`-th nogood registered under `x`.
    pub(crate) fn watcher(&self, x: u32, k: usize) -> u32 {
        self.watchers[x as usize][k]
    }

    /// Visits nogood `id` after a change of `x`; returns what it calls for, and whether it
    /// still watches `x` (if not, the caller drops the registration).
    pub(crate) fn visit(&mut self, id: u32, x: u32, store: &Store) -> (Visit, bool) {
        let ng = &mut self.list[id as usize];
        let watched = ng.len().min(2);
        let mut outcome = Visit::Quiet;
        for w in 0..watched {
            if ng[w].var != x || !ng[w].is_true(store) {
                continue;
            }
            if let Some(j) = (2..ng.len()).find(|&j| !ng[j].is_true(store)) {
                ng.swap(w, j);
                let y = ng[w].var;
                if y != x {
                    self.watchers[y as usize].push(id);
                }
                continue;
            }
            outcome = match ng.get(1 - w).copied() {
                _ if watched == 1 => Visit::Fail,
                Some(other) if other.is_true(store) => Visit::Fail,
                Some(other) if other.is_false(store) => Visit::Quiet,
                Some(other) => Visit::Propagate(other.negate()),
                None => Visit::Fail,
            };
            break;
        }
        let ng = &self.list[id as usize];
        let still = ng.iter().take(2).any(|p| p.var == x);
        (outcome, still)
    }

    /// Drops the `k`-th registration under `x`.
    pub(crate) fn unwatch(&mut self, x: u32, k: usize) {
        self.watchers[x as usize].swap_remove(k);
    }
}
