//! The predicate log: every domain change of a search that learns, as the predicates it made
//! true, each with its decision level and its reason.
//!
//! The log follows the current path of the search: backjumping truncates it. Each level
//! starts with a *decision node* (the decision's predicate, with no reason); the domain
//! changes after it are entries `[x ≥ v]` (a new minimum), `[x ≤ v]` (a new maximum) or
//! `[x ≠ v]` (a value removed strictly inside the bounds). Per variable, the log keeps the
//! positions of its entries, so that analysis can ask where a predicate became true: the
//! earliest entry that implies it (Pumpkin keeps the same per domain).

use super::predicate::{Kind, Predicate};
use crate::store::Store;

/// One element of a reason: a predicate that was true before the fact it explains, or the
/// decision node at a log position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Item {
    Pred(Predicate),
    Node(u32),
}

/// Why an entry of the log is true.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Cause {
    /// A decision node: no reason.
    Decision,
    /// A change at level 0, which follows from the constraints (and, in optimisation, from
    /// the bound on the objective, which only tightens): it never enters a nogood.
    Root,
    /// The items `reasons[start..end]` of the log.
    Reason { start: u32, end: u32 },
    /// The decisions of every level up to the entry's: the sound answer for a propagator
    /// that cannot explain.
    Fallback,
}

/// A fact of the log.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) pred: Predicate,
    pub(crate) level: u32,
    pub(crate) cause: Cause,
}

/// A decision level: where its node is, and whether its decision is a pseudo-decision (the
/// other branch of a decision below which solutions were found, which must not be undone by a
/// backjump, or those solutions would be found again).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Level {
    pub(crate) start: u32,
    pub(crate) pseudo: bool,
}

/// The list of `by_var` that holds entries of `kind` (never `=`: the log records none).
fn slot(kind: Kind) -> usize {
    match kind {
        Kind::Ge => 0,
        Kind::Le => 1,
        Kind::Ne | Kind::Eq => 2,
    }
}

/// Where a predicate became true.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Found {
    /// In the declared domain: it holds in the whole search.
    Declared,
    /// At this entry of the log.
    At(u32),
    /// Nowhere: it is not true. A bug of whoever named it.
    Missing,
}

/// The log; see the [module docs](self).
#[derive(Debug, Default)]
pub(crate) struct Log {
    pub(crate) entries: Vec<Entry>,
    pub(crate) reasons: Vec<Item>,
    /// Per variable and kind (`≥`, `≤`, `≠`: see [`slot`]), the positions of its domain
    /// entries, oldest first. Along one path a variable's minimum only rises and its maximum
    /// only falls, so the `≥` and `≤` lists are sorted by value too.
    by_var: Vec<[Vec<u32>; 3]>,
    /// `levels[0]` is the root, which has no node.
    pub(crate) levels: Vec<Level>,
}

impl Log {
    pub(crate) fn new(num_vars: usize) -> Log {
        Log {
            entries: Vec::new(),
            reasons: Vec::new(),
            by_var: vec![Default::default(); num_vars],
            levels: vec![Level {
                start: 0,
                pseudo: false,
            }],
        }
    }

    /// The current decision level.
    pub(crate) fn level(&self) -> u32 {
        (self.levels.len() - 1) as u32
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Opens a new level with its decision node.
    pub(crate) fn open_level(&mut self, decision: Predicate, pseudo: bool) -> u32 {
        let start = self.entries.len() as u32;
        self.levels.push(Level { start, pseudo });
        self.entries.push(Entry {
            pred: decision,
            level: self.level(),
            cause: Cause::Decision,
        });
        start
    }

    /// Appends a domain entry at the current level, with `reason` as its cause unless
    /// `cause` says otherwise.
    pub(crate) fn push(&mut self, pred: Predicate, cause: Cause) -> u32 {
        let index = self.entries.len() as u32;
        self.by_var[pred.var as usize][slot(pred.kind)].push(index);
        let level = self.level();
        let cause = if level == 0 { Cause::Root } else { cause };
        self.entries.push(Entry { pred, level, cause });
        index
    }

    /// Stores a reason; returns the cause naming it.
    pub(crate) fn reason(&mut self, items: &[Item]) -> Cause {
        let start = self.reasons.len() as u32;
        self.reasons.extend_from_slice(items);
        Cause::Reason {
            start,
            end: self.reasons.len() as u32,
        }
    }

    /// The items of a stored reason.
    pub(crate) fn items(&self, start: u32, end: u32) -> &[Item] {
        &self.reasons[start as usize..end as usize]
    }

    /// Forgets every level above `level`.
    pub(crate) fn truncate(&mut self, level: u32) {
        let Some(first) = self.levels.get(level as usize + 1).copied() else {
            return;
        };
        self.levels.truncate(level as usize + 1);
        let keep = first.start as usize;
        for e in &self.entries[keep..] {
            if e.cause == Cause::Decision {
                continue;
            }
            let list = &mut self.by_var[e.pred.var as usize][slot(e.pred.kind)];
            if list.last().is_some_and(|&i| i as usize >= keep) {
                list.pop();
            }
        }
        // Reasons are stored in log order, so the first dropped entry's reason starts where
        // the kept ones end.
        let reasons = self.entries[keep..]
            .iter()
            .find_map(|e| match e.cause {
                Cause::Reason { start, .. } => Some(start as usize),
                _ => None,
            })
            .unwrap_or(self.reasons.len());
        self.reasons.truncate(reasons);
        self.entries.truncate(keep);
    }

    /// The bound of entry `i`'s kind that its variable had just before it (its minimum for
    /// a `≥` entry, its maximum for a `≤` entry): the previous such entry's, or the declared
    /// one. It never lies inside the bound the variable really had (the declared bound
    /// may be wider than the root's), which is what the nogoods' watches need.
    pub(crate) fn bound_before(&self, i: u32, store: &Store) -> i64 {
        let pred = self.entries[i as usize].pred;
        let list = &self.by_var[pred.var as usize][slot(pred.kind)];
        let k = list.partition_point(|&j| j < i);
        match (k.checked_sub(1).map(|k| list[k]), pred.kind) {
            (Some(j), _) => self.entries[j as usize].pred.value,
            (None, Kind::Ge) => store.declared_min(pred.var),
            (None, _) => store.declared_max(pred.var),
        }
    }

    /// The earliest entry at or after which `pred` (not an `=`: analysis splits those into
    /// two bounds) holds, given the declared domains of `store`.
    pub(crate) fn find(&self, pred: Predicate, store: &Store) -> Found {
        let x = pred.var;
        let (lo, hi) = (store.declared_min(x), store.declared_max(x));
        let v = pred.value;
        let declared = match pred.kind {
            Kind::Ge => lo >= v,
            Kind::Le => hi <= v,
            Kind::Ne => !store.declared_contains(x, v),
            Kind::Eq => lo == v && hi == v,
        };
        if declared {
            return Found::Declared;
        }
        let lists = &self.by_var[x as usize];
        let value = |i: &u32| self.entries[*i as usize].pred.value;
        // The first `≥` entry above `bound` (or at it, if `inclusive`), by binary search.
        let first_ge = |bound: i64, inclusive: bool| {
            let list = &lists[slot(Kind::Ge)];
            let k = list.partition_point(|i| value(i) < bound || !inclusive && value(i) == bound);
            list.get(k).copied()
        };
        let first_le = |bound: i64, inclusive: bool| {
            let list = &lists[slot(Kind::Le)];
            let k = list.partition_point(|i| value(i) > bound || !inclusive && value(i) == bound);
            list.get(k).copied()
        };
        let found = match pred.kind {
            Kind::Ge => first_ge(v, true),
            Kind::Le => first_le(v, true),
            Kind::Ne => {
                let hole = lists[slot(Kind::Ne)]
                    .iter()
                    .copied()
                    .find(|i| value(i) == v);
                [first_ge(v, false), first_le(v, false), hole]
                    .into_iter()
                    .flatten()
                    .min()
            }
            Kind::Eq => None,
        };
        found.map_or(Found::Missing, Found::At)
    }
}
