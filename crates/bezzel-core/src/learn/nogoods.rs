//! The learnt nogoods, propagated with two watched predicates each, and the reduction that
//! keeps the database small.
//!
//! A nogood is a set of predicates that cannot all be true. Each watches two of them that
//! are not true (positions 0 and 1). A watch is registered under its *predicate*, not only
//! its variable: per variable there is one list of `≥` watches, one of `≤` watches and one
//! of `=`/`≠` watches, each entry carrying the watched value. A log entry visits only the
//! watches it can have made true: `[x ≥ m]`, after a minimum of `p`, the `≥` watches with
//! a value in `(p, m]` and the `≠`/`=` watches in `[p, m]`; `[x ≤ m]` likewise; `[x ≠ v]`
//! the `≠` watches of `v`. The value is compared before the nogood is touched, so an entry
//! costs little for the nogoods it cannot concern, which on scheduling models (a start
//! variable watched by many nogoods at different bounds) is most of them.
//!
//! When a watched predicate becomes true, its nogood looks for another one to watch; when
//! there is none, the other watch must be false: its negation is propagated, with the rest
//! of the nogood as its reason (or, if it is true as well, the nogood fails). Watches
//! survive backtracking unchanged, as in SAT solvers.
//!
//! Each nogood keeps its *literal block distance* (LBD: how many decision levels its
//! predicates spanned when it was learnt; Audemard and Simon's measure, used by Glucose,
//! Chuffed and Pumpkin). [`Nogoods::reduce`] deletes the worse half of the nogoods above
//! LBD 2 (glue nogoods are kept). Deleting a nogood that is the reason of a current
//! propagation is harmless here: the log stores a *copy* of every reason (explanations are
//! eager), so nothing refers to a nogood by its index once it has propagated.

use super::predicate::{Kind, Predicate};
use crate::store::Store;

/// What visiting a nogood after a change of one of its watched predicates calls for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Visit {
    /// Nothing to do: the nogood cannot fire yet.
    Quiet,
    /// The watch moved to another predicate: its registration here goes.
    Moved,
    /// Make this predicate true (the negation of the last predicate not true).
    Propagate(Predicate),
    /// Every predicate is true.
    Fail,
}

/// One registration: nogood `id` watches `[x kind value]` for the list's variable `x`.
#[derive(Debug, Clone, Copy)]
struct Watch {
    value: i64,
    id: u32,
    kind: Kind,
}

/// The watch lists that a log entry of `kind` visits (see [`slot`]).
pub(crate) fn slots(kind: Kind) -> &'static [u8] {
    match kind {
        Kind::Ge => &[0, 2],
        Kind::Le => &[1, 2],
        Kind::Ne | Kind::Eq => &[2],
    }
}

/// The watch list of `kind` (`=` and `≠` share one).
fn slot(kind: Kind) -> usize {
    match kind {
        Kind::Ge => 0,
        Kind::Le => 1,
        Kind::Ne | Kind::Eq => 2,
    }
}

/// The nogood database; see the [module docs](self).
#[derive(Debug, Default)]
pub(crate) struct Nogoods {
    pub(crate) list: Vec<Vec<Predicate>>,
    /// Per nogood, its literal block distance.
    lbd: Vec<u32>,
    /// Per variable and [`slot`], the watches on its predicates.
    watchers: Vec<[Vec<Watch>; 3]>,
}

impl Nogoods {
    pub(crate) fn new(num_vars: usize) -> Nogoods {
        Nogoods {
            list: Vec::new(),
            lbd: Vec::new(),
            watchers: vec![Default::default(); num_vars],
        }
    }

    fn watch(&mut self, id: u32, p: Predicate) {
        self.watchers[p.var as usize][slot(p.kind)].push(Watch {
            value: p.value,
            id,
            kind: p.kind,
        });
    }

    /// Adds a nogood watching its first two predicates, with its LBD; returns its index.
    pub(crate) fn add(&mut self, preds: Vec<Predicate>, lbd: u32) -> u32 {
        let id = self.list.len() as u32;
        for &p in preds.iter().take(2) {
            self.watch(id, p);
        }
        self.list.push(preds);
        self.lbd.push(lbd);
        id
    }

    /// How many watches variable `x`'s list `slot` holds.
    pub(crate) fn watches(&self, x: u32, slot: u8) -> u32 {
        self.watchers[x as usize][slot as usize].len() as u32
    }

    /// Whether the log entry `entry` (a bound or a hole of variable `x`) may have made the
    /// predicate of the `k`-th watch of `x`'s list `slot` true, `before` being the
    /// variable's bound of the entry's kind just before it (its minimum for `≥`, its
    /// maximum for `≤`; unused for `≠`). Only the watched value is read.
    pub(crate) fn fires(&self, slot: u8, k: u32, entry: Predicate, before: i64) -> bool {
        let w = self.watchers[entry.var as usize][slot as usize][k as usize];
        let (m, v) = (entry.value, w.value);
        match (entry.kind, w.kind) {
            // A minimum rising from `before` to `m` makes `[x ≥ v]` true for `v` in
            // `(before, m]`, `[x ≠ v]` for `v` in `[before, m)`, and perhaps `[x = m]`.
            (Kind::Ge, Kind::Ge) => before < v && v <= m,
            (Kind::Ge, Kind::Ne) => before <= v && v < m,
            (Kind::Le, Kind::Le) => m <= v && v < before,
            (Kind::Le, Kind::Ne) => m < v && v <= before,
            (Kind::Ge | Kind::Le, Kind::Eq) => v == m,
            (Kind::Ne, Kind::Ne) => v == m,
            _ => false,
        }
    }

    /// The nogood of the `k`-th watch of variable `x`'s list `slot`.
    pub(crate) fn watcher(&self, x: u32, slot: u8, k: u32) -> u32 {
        self.watchers[x as usize][slot as usize][k as usize].id
    }

    /// Visits the nogood of the `k`-th watch in variable `x`'s list `slot`, after a log
    /// entry on `x` that may have made the watched predicate true. On [`Visit::Moved`] the
    /// registration has been dropped (the last one of the list took its place).
    pub(crate) fn visit(&mut self, x: u32, slot: u8, k: u32, store: &Store) -> Visit {
        let watch = self.watchers[x as usize][slot as usize][k as usize];
        let watched = Predicate::new(x, watch.kind, watch.value);
        if !watched.is_true(store) {
            return Visit::Quiet;
        }
        let ng = &mut self.list[watch.id as usize];
        let Some(w) = (0..ng.len().min(2)).find(|&w| ng[w] == watched) else {
            // A stale watch (a deleted nogood's, say): a bug, which tests must see.
            if cfg!(test) {
                panic!("a watch on {watched:?}, which its nogood does not watch");
            }
            return Visit::Quiet;
        };
        if let Some(j) = (2..ng.len()).find(|&j| !ng[j].is_true(store)) {
            ng.swap(w, j);
            let moved = ng[w];
            self.watchers[x as usize][slot as usize].swap_remove(k as usize);
            self.watch(watch.id, moved);
            return Visit::Moved;
        }
        match ng.get(1 - w).copied() {
            None => Visit::Fail,
            Some(other) if other.is_true(store) => Visit::Fail,
            Some(other) if other.is_false(store) => Visit::Quiet,
            Some(other) => Visit::Propagate(other.negate()),
        }
    }

    /// Deletes the worse half (by LBD, the older first among equals) of the nogoods whose
    /// LBD is above 2, and rebuilds the watch lists; the kept nogoods keep their watches.
    /// Returns how many went.
    pub(crate) fn reduce(&mut self) -> usize {
        let mut candidates: Vec<u32> = (0..self.list.len() as u32)
            .filter(|&i| self.lbd[i as usize] > 2)
            .collect();
        // Worst first: the highest LBD, then the oldest.
        candidates.sort_by_key(|&i| (std::cmp::Reverse(self.lbd[i as usize]), i));
        candidates.truncate(candidates.len() / 2);
        self.delete(&candidates)
    }

    /// Deletes the nogoods `ids` (any order) and rebuilds the watch lists; returns how
    /// many went.
    pub(crate) fn delete(&mut self, ids: &[u32]) -> usize {
        if ids.is_empty() {
            return 0;
        }
        let mut gone = vec![false; self.list.len()];
        for &i in ids {
            gone[i as usize] = true;
        }
        let mut i = 0;
        self.list.retain(|_| {
            i += 1;
            !gone[i - 1]
        });
        let mut i = 0;
        self.lbd.retain(|_| {
            i += 1;
            !gone[i - 1]
        });
        for lists in &mut self.watchers {
            for list in lists.iter_mut() {
                list.clear();
            }
        }
        for id in 0..self.list.len() {
            for k in 0..self.list[id].len().min(2) {
                let p = self.list[id][k];
                self.watch(id as u32, p);
            }
        }
        ids.len()
    }
}
