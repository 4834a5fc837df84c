//! Conflict analysis: from a failure back to a nogood, by first-UIP resolution over the log.
//!
//! The failure's predicates are located in the log (where each became true). Those of the
//! latest level involved are resolved newest first, each replaced by its reason, until one
//! is left: the first unique implication point. It and the predicates of lower levels form
//! the nogood, which after a backjump to the highest of those lower levels (the assertion
//! level) propagates the UIP's negation.

use super::log::{Cause, Found, Item, Log};
use super::predicate::{Kind, Predicate};
use crate::store::Store;
use std::collections::HashMap;

/// Why propagation failed: predicates true together that the constraints forbid, or, from a
/// propagator that cannot explain, the decisions on the path (the fallback).
#[derive(Debug, Clone)]
pub(crate) enum Failure {
    Items(Vec<Item>),
    Fallback,
}

/// A nogood learnt from a failure.
#[derive(Debug, Clone)]
pub(crate) struct Learned {
    /// Its predicates, the UIP first and then one of the highest level among the others.
    pub(crate) preds: Vec<Predicate>,
    /// The highest level of the predicates other than the UIP (0 when there are none).
    pub(crate) assertion_level: u32,
    /// The level of the UIP.
    pub(crate) conflict_level: u32,
    /// Its literal block distance: how many decision levels its predicates span.
    pub(crate) lbd: u32,
}

/// What analysis found.
#[derive(Debug, Clone)]
pub(crate) enum Analysis {
    /// The failure follows from the root: the search is over.
    Root,
    /// A nogood.
    Learned(Learned),
    /// No nogood could be built (a reason named a predicate that the log does not hold: an
    /// explanation bug, caught here rather than believed): search goes on as depth-first
    /// search would from `conflict_level`.
    Chronological { conflict_level: u32 },
}

/// The log positions (above the root) where the parts of an item became true, each with the
/// predicate that it stands for; `None` if one is missing.
fn locate(log: &Log, store: &Store, item: Item, out: &mut Vec<(u32, Predicate)>) -> Option<()> {
    let pred = match item {
        Item::Node(i) => {
            out.push((i, log.entries[i as usize].pred));
            return Some(());
        }
        Item::Pred(p) => p,
    };
    let parts = match pred.kind {
        Kind::Eq => [
            Predicate::ge(pred.var, pred.value),
            Predicate::le(pred.var, pred.value),
        ],
        _ => [pred, pred],
    };
    let count = if pred.kind == Kind::Eq { 2 } else { 1 };
    for &part in &parts[..count] {
        match log.find(part, store) {
            Found::Declared => {}
            Found::At(i) => out.push((i, part)),
            Found::Missing => return None,
        }
    }
    Some(())
}

/// Whether `p` being true makes `q` true (`p` stronger or the same); `false` where that
/// is not obvious, which only keeps a predicate a nogood could have dropped.
fn implies(p: Predicate, q: Predicate) -> bool {
    p == q
        || p.var == q.var
            && match (p.kind, q.kind) {
                (Kind::Ge, Kind::Ge) => p.value >= q.value,
                (Kind::Le, Kind::Le) => p.value <= q.value,
                (Kind::Ge, Kind::Ne) => q.value < p.value,
                (Kind::Le, Kind::Ne) => q.value > p.value,
                _ => false,
            }
}

/// Whether the entry at log position `i` follows from the other predicates of a nogood
/// (`nogood`: log positions, each with the predicate it stands for) and the root: it has a
/// reason, and every item of it became true at the root or at a position whose predicate in
/// the nogood implies it.
fn implied_by_the_others(
    log: &Log,
    store: &Store,
    nogood: &HashMap<u32, Predicate>,
    i: u32,
) -> bool {
    let Cause::Reason { start, end } = log.entries[i as usize].cause else {
        return false;
    };
    let mut parts = Vec::new();
    log.items(start, end).iter().all(|&item| {
        parts.clear();
        locate(log, store, item, &mut parts).is_some()
            && parts.iter().all(|&(j, q)| {
                j < i
                    && (log.entries[j as usize].level == 0
                        || nogood.get(&j).is_some_and(|&p| implies(p, q)))
            })
    })
}

/// Analyses a failure at the current state of `store`; see the [module docs](self).
pub(crate) fn analyse(log: &Log, store: &Store, failure: &Failure) -> Analysis {
    let current = log.level();
    let fallback = |level: u32| (1..=level).map(|l| Item::Node(log.levels[l as usize].start));
    let items: Vec<Item> = match failure {
        Failure::Items(items) => items.clone(),
        Failure::Fallback => fallback(current).collect(),
    };
    let broken = Analysis::Chronological {
        conflict_level: current,
    };
    let mut found = Vec::new();
    for &item in &items {
        if locate(log, store, item, &mut found).is_none() {
            return broken;
        }
    }
    let level_of = |i: u32| log.entries[i as usize].level;
    found.retain(|&(i, _)| level_of(i) > 0);
    let Some(m) = found.iter().map(|&(i, _)| level_of(i)).max() else {
        return Analysis::Root;
    };
    // Seen positions with the predicate each stands for in the nogood, and how many of
    // them lie at level `m` and are not resolved yet.
    let mut seen: HashMap<u32, Predicate> = HashMap::new();
    let mut pending = 0usize;
    let add = |found: &mut Vec<(u32, Predicate)>,
               seen: &mut HashMap<u32, Predicate>,
               pending: &mut usize| {
        for (i, p) in found.drain(..) {
            if level_of(i) == 0 {
                continue;
            }
            match seen.get_mut(&i) {
                // Two predicates made true by one entry: the entry's own implies both.
                Some(q) if *q != p => *q = log.entries[i as usize].pred,
                Some(_) => {}
                None => {
                    seen.insert(i, p);
                    *pending += usize::from(level_of(i) == m);
                }
            }
        }
    };
    add(&mut found, &mut seen, &mut pending);
    let start = log.levels[m as usize].start;
    let mut uip = None;
    for i in (start..log.len() as u32).rev() {
        let Some(&lit) = seen.get(&i) else {
            continue;
        };
        if pending == 1 {
            uip = Some(lit);
            seen.remove(&i);
            break;
        }
        pending -= 1;
        seen.remove(&i);
        let entry = log.entries[i as usize];
        match entry.cause {
            Cause::Reason { start, end } => {
                for &item in log.items(start, end) {
                    if locate(log, store, item, &mut found).is_none() {
                        return broken;
                    }
                }
            }
            Cause::Fallback => found.extend(fallback(entry.level).map(|item| match item {
                Item::Node(n) => (n, log.entries[n as usize].pred),
                Item::Pred(_) => unreachable!("the fallback names nodes"),
            })),
            Cause::Decision | Cause::Root => return broken,
        }
        // Reasons name earlier facts only; anything else is an explanation bug.
        if found.iter().any(|&(j, _)| j >= i) {
            return broken;
        }
        add(&mut found, &mut seen, &mut pending);
    }
    let Some(uip) = uip else {
        return broken;
    };
    // Local minimisation: a predicate whose reason the rest of the nogood already implies
    // adds nothing. Reasons name earlier facts only, so a chain of such removals always ends
    // at a predicate that stays (or at the root), and the nogood still follows.
    let mut lower: Vec<(u32, Predicate)> = seen
        .iter()
        .filter(|&(&i, _)| level_of(i) < m && !implied_by_the_others(log, store, &seen, i))
        .map(|(&i, &p)| (level_of(i), p))
        .collect();
    // The highest level first: it is the second watch.
    lower.sort_by_key(|&(level, p)| (std::cmp::Reverse(level), p.var, p.value));
    lower.dedup_by_key(|&mut (_, p)| p);
    let assertion_level = lower.first().map_or(0, |&(level, _)| level);
    // Sorted by level, so distinct levels are runs; the UIP's level is above them all.
    let lbd = 1 + lower
        .iter()
        .enumerate()
        .filter(|&(k, &(level, _))| k == 0 || lower[k - 1].0 != level)
        .count() as u32;
    let mut preds = vec![uip];
    preds.extend(lower.into_iter().map(|(_, p)| p));
    Analysis::Learned(Learned {
        preds,
        assertion_level,
        conflict_level: m,
        lbd,
    })
}
