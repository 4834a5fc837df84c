//! Value by value explanations: a fact removes some values of a variable, and each removed
//! value that was still there is explained on its own, as the constraint's support for it
//! being gone (the other side of an equality lacks it, no tuple of a table with it is left,
//! the all-different's other variables take it). The values that were gone already are named
//! as `[x ≠ v]` facts, and the bound the fact moves from as the old bound.
//!
//! Used by the shapes whose propagators reason on values: `x = y`, `x ≠ y`, element over
//! constants, positive tables, all-different (a fixed value, or a Hall interval of bounds).

use super::log::Item;
use super::predicate::{Kind, Predicate};
use super::resource::Domains;
use crate::var::IntView;

/// How many values one explanation may go through before it is given up.
const MAX_VALUES: i64 = 1024;

/// The value of `view` when its variable takes `value`.
pub(crate) fn view_value(view: IntView, value: i64) -> i64 {
    let scaled = value.saturating_mul(view.factor());
    scaled.saturating_add(view.offset)
}

/// Why `view` cannot take `w` as the domains stand: `[view ≠ w]`, or the bound that puts
/// `w` outside; `None` when it still can.
pub(crate) fn lacks(domains: &impl Domains, view: IntView, w: i64) -> Option<Item> {
    let (lo, hi) = domains.view_bounds(view);
    let p = if w < lo {
        Predicate::view_ge(view, lo)
    } else if w > hi {
        Predicate::view_le(view, hi)
    } else if !domains.view_member(view, w) {
        Predicate::view_ne(view, w)
    } else {
        return None;
    };
    Some(Item::Pred(p))
}

/// `fact` explained value by value: `gone(v)` explains why its variable cannot take `v`
/// (a value it still had in `domains`), or says it cannot.
pub(crate) fn explain_values(
    domains: &impl Domains,
    fact: Predicate,
    mut gone: impl FnMut(i64) -> Option<Vec<Item>>,
) -> Option<Vec<Item>> {
    let x = fact.var;
    let (lo, hi) = domains.bounds(x);
    let (from, to, mut items) = match fact.kind {
        Kind::Ne => (fact.value, fact.value, Vec::new()),
        Kind::Ge => (lo, fact.value - 1, vec![Item::Pred(Predicate::ge(x, lo))]),
        Kind::Le => (fact.value + 1, hi, vec![Item::Pred(Predicate::le(x, hi))]),
        Kind::Eq => return None,
    };
    if to - from >= MAX_VALUES {
        return None;
    }
    for v in from..=to {
        if domains.member(x, v) {
            for item in gone(v)? {
                if !items.contains(&item) {
                    items.push(item);
                }
            }
        } else if lo < v && v < hi {
            items.push(Item::Pred(Predicate::ne(x, v)));
        }
    }
    Some(items)
}

/// The one view of `views` on variable `x`, by position; `None` if none or several.
pub(crate) fn only_on(views: impl Iterator<Item = IntView>, x: u32) -> Option<usize> {
    let mut on = views.enumerate().filter(|(_, v)| v.var.index == x);
    match (on.next(), on.next()) {
        (Some((k, _)), None) => Some(k),
        _ => None,
    }
}

/// Why `w` is taken from `views[k]` by an all-different over `views`: another view fixed to
/// it, or a Hall interval `[a, b]` that holds `b - a + 1` other views' domains and `w`.
pub(crate) fn taken(
    domains: &impl Domains,
    views: &[IntView],
    k: usize,
    w: i64,
) -> Option<Vec<Item>> {
    let others = || (0..views.len()).filter(move |&j| j != k).map(|j| views[j]);
    if let Some(v) = others().find(|&v| domains.view_bounds(v) == (w, w)) {
        return Some(vec![Item::Pred(Predicate::view_eq(v, w))]);
    }
    let bounds: Vec<(i64, i64)> = others().map(|v| domains.view_bounds(v)).collect();
    let lows = bounds.iter().map(|b| b.0).filter(|&a| a <= w);
    let mut best: Option<(i64, i64)> = None;
    for a in lows {
        for b in bounds.iter().map(|b| b.1).filter(|&b| b >= w) {
            let inside = bounds.iter().filter(|&&(l, h)| a <= l && h <= b).count() as i64;
            // As many views inside as values: a Hall interval.
            let values = b - a + 1;
            if inside >= values && best.is_none_or(|(x, y)| b - a < y - x) {
                best = Some((a, b));
            }
        }
    }
    let (a, b) = best?;
    let hall = others().filter(|&v| {
        let (l, h) = domains.view_bounds(v);
        a <= l && h <= b
    });
    let mut items = Vec::new();
    for v in hall.take((b - a + 1) as usize) {
        items.push(Item::Pred(Predicate::view_ge(v, a)));
        items.push(Item::Pred(Predicate::view_le(v, b)));
    }
    Some(items)
}
