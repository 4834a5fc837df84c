//! Explanations: why a propagation happened, as predicates that were true before it.
//!
//! A propagator says what its constraint is through [`Shape`]
//! ([`Propagator::shape`](crate::Propagator::shape)); the explanations are then worked out
//! here from that definition, not from the propagator's code, and each is checked before it
//! is believed: the named predicates, with the constraint, must give a *derived* predicate on
//! the changed variable (a linear term's bound, a clause's last literal), and the domain the
//! variable had just before the change must close the gap between the derived predicate and
//! the change (the values in between were gone already: `[x ≠ v]` facts, which were true
//! earlier). A change that cannot be explained so gets the fallback: the decisions on the
//! path (always sound, weak).
//!
//! The changes of one propagator run are explained against the state before the run,
//! updated as each change is committed to the log in turn, so that an explanation names only
//! facts that the log already holds: a propagator that reached its fixpoint in several
//! rounds within the run (a linear equality whose lowered maxima raise other minima) is
//! explained round by round.

use super::log::Item;
use super::predicate::{Kind, Predicate};
use super::resource::{Amount, Domains, Lengths, Resource};
use super::values::{explain_values, lacks, only_on, taken, view_value};
use crate::propagators::{Reif, Relation};
use crate::store::{Store, VarState};
use crate::trail::Mark;
use crate::var::IntView;

/// What a propagator's constraint is, for a search that learns: explanations of its
/// propagations are derived from this definition (see
/// [`Propagator::shape`](crate::Propagator::shape)). A propagator without a shape still
/// works with learning on, with weaker explanations (the decisions that led to the change).
#[derive(Debug, Clone, Copy)]
pub enum Shape<'a> {
    /// `Σ aᵢ·xᵢ ≤ c` when `at_most`, `Σ aᵢ·xᵢ ≥ c` when `at_least` (both: `= c`).
    Linear {
        /// The terms `(aᵢ, xᵢ)`.
        terms: &'a [(i128, IntView)],
        /// `c`.
        constant: i128,
        /// Whether the sum is at most `c`.
        at_most: bool,
        /// Whether the sum is at least `c`.
        at_least: bool,
    },
    /// `Σ xᵢ = c`.
    UnitSum {
        /// The views summed.
        views: &'a [IntView],
        /// `c`.
        constant: i64,
    },
    /// `l₁ ∨ l₂ ∨ …`: at least one of the 0/1 views is 1.
    Clause {
        /// The literals.
        lits: &'a [IntView],
    },
    /// `b (mode) Σ aᵢ·xᵢ (relation) c`, for `relation` one of `≤`, `≥`, `=`.
    ReifiedLinear {
        /// The 0/1 view `b`.
        b: IntView,
        /// How `b` and the relation are tied.
        mode: Reif,
        /// The terms `(aᵢ, xᵢ)`.
        terms: &'a [(i128, IntView)],
        /// The relation.
        relation: Relation,
        /// `c`.
        constant: i128,
    },
    /// `b (mode) x ≤ y`.
    ReifiedLessEq {
        /// The 0/1 view `b`.
        b: IntView,
        /// How `b` and the relation are tied.
        mode: Reif,
        /// `x`.
        x: IntView,
        /// `y`.
        y: IntView,
    },
    /// Tasks `starts[i]` running `durations[i]` with `heights[i]` whose heights at any
    /// time sum to at most `capacity` (durations and heights at least 0).
    Cumulative {
        /// The start views.
        starts: &'a [IntView],
        /// The durations.
        durations: &'a [Amount],
        /// The heights.
        heights: &'a [Amount],
        /// The capacity.
        capacity: IntView,
    },
    /// `x ≤ y`.
    LessEq {
        /// `x`.
        x: IntView,
        /// `y`.
        y: IntView,
    },
    /// `x = y`.
    Equal {
        /// `x`.
        x: IntView,
        /// `y`.
        y: IntView,
    },
    /// `x ≠ y`.
    NotEqual {
        /// `x`.
        x: IntView,
        /// `y`.
        y: IntView,
    },
    /// `value = array[index]`, the index counted from 0.
    ElementConst {
        /// The constants.
        array: &'a [i64],
        /// The index.
        index: IntView,
        /// The value.
        value: IntView,
    },
    /// The views take the values of one of the tuples.
    Table {
        /// The views.
        views: &'a [IntView],
        /// The tuples allowed (tuples of another length than `views` allow nothing).
        tuples: &'a [Vec<i64>],
    },
    /// The views take pairwise distinct values.
    AllDifferent {
        /// The views.
        views: &'a [IntView],
    },
    /// Tasks `starts[i]` running `durations[i]` of which no two overlap.
    Disjunctive {
        /// The start views.
        starts: &'a [IntView],
        /// The durations.
        durations: &'a [i64],
    },
}

/// A linear relation as the `Σ aᵢ·xᵢ ≤ c` it is made of (`=` is two), with the condition
/// of a reified shape; `None` for the other shapes.
struct Reification {
    b: IntView,
    mode: Reif,
    parts: Vec<(Vec<(i128, IntView)>, i128)>,
}

fn negated(terms: &[(i128, IntView)]) -> Vec<(i128, IntView)> {
    terms.iter().map(|&(a, v)| (-a, v)).collect()
}

impl<'a> Shape<'a> {
    /// Whether a view of the shape is scaled (`3·x`). The explanations are written for views
    /// `±x + c`, whose values are every integer between their bounds; a propagator over a
    /// scaled view is explained from the decisions instead, as one without a shape is.
    pub(crate) fn has_scaled_view(&self) -> bool {
        let scaled = |vs: &[IntView]| vs.iter().any(|v| !v.is_unit());
        let scaled_terms = |ts: &[(i128, IntView)]| ts.iter().any(|(_, v)| !v.is_unit());
        match *self {
            Shape::Linear { terms, .. } => scaled_terms(terms),
            Shape::UnitSum { views, .. } => scaled(views),
            Shape::Clause { lits } => scaled(lits),
            Shape::ReifiedLinear { b, terms, .. } => scaled(&[b]) || scaled_terms(terms),
            Shape::ReifiedLessEq { b, x, y, .. } => scaled(&[b, x, y]),
            Shape::Cumulative {
                starts, capacity, ..
            } => scaled(starts) || scaled(&[capacity]),
            Shape::LessEq { x, y } | Shape::Equal { x, y } | Shape::NotEqual { x, y } => {
                scaled(&[x, y])
            }
            Shape::ElementConst { index, value, .. } => scaled(&[index, value]),
            Shape::Table { views, .. } | Shape::AllDifferent { views } => scaled(views),
            Shape::Disjunctive { starts, .. } => scaled(starts),
        }
    }

    /// The shape as tasks on a resource, if it is one.
    fn resource(&self) -> Option<Resource<'a>> {
        match *self {
            Shape::Cumulative {
                starts,
                durations,
                heights,
                capacity,
            } => Some(Resource {
                starts,
                durations: Lengths::Amounts(durations),
                heights: Some(heights),
                capacity: Some(capacity),
            }),
            Shape::Disjunctive { starts, durations } => Some(Resource {
                starts,
                durations: Lengths::Constants(durations),
                heights: None,
                capacity: None,
            }),
            _ => None,
        }
    }

    fn reification(&self) -> Option<Reification> {
        let (b, mode, parts) = match *self {
            Shape::ReifiedLinear {
                b,
                mode,
                terms,
                relation,
                constant,
            } => {
                let parts = match relation {
                    Relation::Le => vec![(terms.to_vec(), constant)],
                    Relation::Ge => vec![(negated(terms), -constant)],
                    Relation::Eq => vec![(terms.to_vec(), constant), (negated(terms), -constant)],
                    _ => return None,
                };
                (b, mode, parts)
            }
            Shape::ReifiedLessEq { b, mode, x, y } => (b, mode, vec![(vec![(1, x), (-1, y)], 0)]),
            _ => return None,
        };
        Some(Reification { b, mode, parts })
    }
}

impl Reification {
    /// The bounds that make every part hold, if they do.
    fn entailed(&self, bounds: impl Fn(IntView) -> (i64, i64) + Copy) -> Option<Vec<Item>> {
        let mut items = Vec::new();
        for (terms, c) in &self.parts {
            // Σ a·x ≤ c for sure: the least of Σ -a·x is at least -c.
            let (least, named) = least_sum(negated(terms).into_iter(), bounds);
            if least < -c {
                return None;
            }
            items.extend(named);
        }
        Some(items)
    }

    /// The bounds that make a part fail, if some do.
    fn disentailed(&self, bounds: impl Fn(IntView) -> (i64, i64) + Copy) -> Option<Vec<Item>> {
        self.parts.iter().find_map(|(terms, c)| {
            let (least, named) = least_sum(terms.iter().copied(), bounds);
            (least > *c).then_some(named)
        })
    }

    /// `[b = 1]` and `[b = 0]`.
    fn literals(&self) -> (Predicate, Predicate) {
        (Predicate::view_eq(self.b, 1), Predicate::view_eq(self.b, 0))
    }
}

/// How many values a closure may name before the explanation is given up (the fallback
/// takes over): a bound that jumps over many holes of a wide domain.
const MAX_CLOSURE: usize = 256;

/// How many values a closure may look at.
const MAX_GAP: i64 = 4096;

/// A variable's domain as the log stands while a batch is committed: its state before the
/// batch, narrowed by the changes committed so far.
#[derive(Debug)]
struct Shadow {
    var: u32,
    old: VarState,
    min: i64,
    max: i64,
    removed: Vec<i64>,
}

/// The domains as the log stands while the changes of one batch are committed in turn.
#[derive(Debug)]
pub(crate) struct Overlay<'a> {
    store: &'a Store,
    batch: Mark,
    shadows: Vec<Shadow>,
}

impl<'a> Overlay<'a> {
    /// The state before the batch, and the changes it made (in no particular order).
    pub(crate) fn new(store: &'a Store, batch: Mark) -> (Overlay<'a>, Vec<Predicate>) {
        let mut facts = Vec::new();
        let mut shadows = Vec::new();
        for (x, old) in store.changed_since(batch) {
            let (min, max) = (i64::from(store.min(x)), i64::from(store.max(x)));
            if min > i64::from(old.min) {
                facts.push(Predicate::ge(x, min));
            }
            if max < i64::from(old.max) {
                facts.push(Predicate::le(x, max));
            }
            facts.extend(
                store
                    .removed_inside(batch, x, &old)
                    .into_iter()
                    .map(|v| Predicate::ne(x, v)),
            );
            shadows.push(Shadow {
                var: x,
                old,
                min: old.min.into(),
                max: old.max.into(),
                removed: Vec::new(),
            });
        }
        let overlay = Overlay {
            store,
            batch,
            shadows,
        };
        (overlay, facts)
    }

    fn shadow(&self, x: u32) -> Option<&Shadow> {
        self.shadows.iter().find(|s| s.var == x)
    }

    pub(crate) fn bounds(&self, x: u32) -> (i64, i64) {
        match self.shadow(x) {
            Some(s) => (s.min, s.max),
            None => (self.store.min(x).into(), self.store.max(x).into()),
        }
    }

    pub(crate) fn member(&self, x: u32, v: i64) -> bool {
        match self.shadow(x) {
            Some(s) => {
                s.min <= v
                    && v <= s.max
                    && !s.removed.contains(&v)
                    && self.store.was_in(self.batch, &s.old, v)
            }
            None => self.store.contains(x, v),
        }
    }

    pub(crate) fn is_true(&self, p: Predicate) -> bool {
        let (lo, hi) = self.bounds(p.var);
        match p.kind {
            Kind::Ge => lo >= p.value,
            Kind::Le => hi <= p.value,
            Kind::Eq => lo == p.value && hi == p.value,
            Kind::Ne => !self.member(p.var, p.value),
        }
    }

    /// Makes a change of the batch part of the state.
    pub(crate) fn commit(&mut self, fact: Predicate) {
        let Some(s) = self.shadows.iter_mut().find(|s| s.var == fact.var) else {
            return;
        };
        match fact.kind {
            Kind::Ge => s.min = fact.value,
            Kind::Le => s.max = fact.value,
            Kind::Ne => s.removed.push(fact.value),
            Kind::Eq => unreachable!("the log records no = facts"),
        }
    }

    /// The predicates on `fact.var`'s domain before `fact` that, with `derived` (a
    /// predicate on the same variable), imply `fact`; `None` when they do not.
    pub(crate) fn closure(&self, fact: Predicate, derived: Predicate) -> Option<Vec<Item>> {
        let x = fact.var;
        if derived.var != x {
            return None;
        }
        let (lo, hi) = self.bounds(x);
        let mut items = Vec::new();
        // Every value of `from..to` that `derived` allows must be gone already.
        let mut gap = |from: i64, to: i64| -> Option<()> {
            if to.saturating_sub(from) > MAX_GAP {
                return None;
            }
            for v in from..to {
                if derived.holds_for(v) {
                    if self.member(x, v) || items.len() >= MAX_CLOSURE {
                        return None;
                    }
                    items.push(Item::Pred(Predicate::ne(x, v)));
                }
            }
            Some(())
        };
        match fact.kind {
            Kind::Ne => return (!derived.holds_for(fact.value)).then_some(items),
            Kind::Ge => {
                let from = match derived.kind {
                    Kind::Ge => derived.value.max(lo),
                    _ => lo,
                };
                gap(from, fact.value)?;
                let bounded = matches!(derived.kind, Kind::Ge | Kind::Eq) && derived.value >= lo;
                if !bounded {
                    items.push(Item::Pred(Predicate::ge(x, lo)));
                }
            }
            Kind::Le => {
                let to = match derived.kind {
                    Kind::Le => derived.value.min(hi),
                    _ => hi,
                };
                gap(fact.value + 1, to + 1)?;
                let bounded = matches!(derived.kind, Kind::Le | Kind::Eq) && derived.value <= hi;
                if !bounded {
                    items.push(Item::Pred(Predicate::le(x, hi)));
                }
            }
            Kind::Eq => return None,
        }
        Some(items)
    }

    /// An explanation of `fact` by a constraint of shape `shape`, checked: the predicates
    /// it names are true, and with the constraint they imply `fact`.
    pub(crate) fn explain(&self, shape: &Shape<'_>, fact: Predicate) -> Option<Vec<Item>> {
        match *shape {
            Shape::Clause { lits } => self.explain_clause(lits, fact),
            Shape::Linear {
                terms,
                constant,
                at_most,
                at_least,
            } => {
                let directions = [(at_most, 1i128), (at_least, -1)];
                directions.into_iter().find_map(|(on, sign)| {
                    if !on {
                        return None;
                    }
                    let terms = terms.iter().map(|&(a, v)| (sign * a, v));
                    self.explain_at_most(terms, sign * constant, fact)
                })
            }
            Shape::UnitSum { views, constant } => [1i128, -1].into_iter().find_map(|sign| {
                let terms = views.iter().map(|&v| (sign, v));
                self.explain_at_most(terms, sign * i128::from(constant), fact)
            }),
            Shape::ReifiedLinear { .. } | Shape::ReifiedLessEq { .. } => {
                self.explain_reified(&shape.reification()?, fact)
            }
            Shape::Cumulative { .. } | Shape::Disjunctive { .. } => {
                shape.resource()?.explain(self, fact)
            }
            Shape::LessEq { x, y } => self.explain_at_most([(1, x), (-1, y)].into_iter(), 0, fact),
            Shape::Equal { x, y } | Shape::NotEqual { x, y } => {
                let (this, other) = match only_on([x, y].into_iter(), fact.var)? {
                    0 => (x, y),
                    _ => (y, x),
                };
                let equal = matches!(shape, Shape::Equal { .. });
                explain_values(self, fact, |v| {
                    let w = view_value(this, v);
                    if equal {
                        return Some(vec![lacks(self, other, w)?]);
                    }
                    let fixed = Predicate::view_eq(other, w);
                    self.is_true(fixed).then(|| vec![Item::Pred(fixed)])
                })
            }
            _ => explain_values(self, fact, |v| supportless(self, shape, fact.var, v)),
        }
    }

    /// `fact` from `b (mode) C`: `C` (or its negation) enforced on the terms once `b` is
    /// fixed, or `b` fixed once `C` is entailed (or disentailed).
    fn explain_reified(&self, r: &Reification, fact: Predicate) -> Option<Vec<Item>> {
        let (on, off) = r.literals();
        let bounds = |w| self.view_bounds(w);
        if fact.var == r.b.var.index {
            let (reason, derived) = if r.mode != Reif::Imp
                && let Some(items) = r.entailed(bounds)
            {
                (items, on)
            } else if r.mode != Reif::Pmi
                && let Some(items) = r.disentailed(bounds)
            {
                (items, off)
            } else {
                return None;
            };
            let mut items = reason;
            items.extend(self.closure(fact, derived)?);
            return Some(items);
        }
        if self.is_true(on) && r.mode != Reif::Pmi {
            let mut items = (r.parts.iter())
                .find_map(|(terms, c)| self.explain_at_most(terms.iter().copied(), *c, fact))?;
            items.push(Item::Pred(on));
            return Some(items);
        }
        if self.is_true(off) && r.mode != Reif::Imp && r.parts.len() == 1 {
            // not (Σ a·x ≤ c) is Σ -a·x ≤ -c - 1.
            let (terms, c) = &r.parts[0];
            let mut items = self.explain_at_most(negated(terms).into_iter(), -c - 1, fact)?;
            items.push(Item::Pred(off));
            return Some(items);
        }
        None
    }

    fn explain_clause(&self, lits: &[IntView], fact: Predicate) -> Option<Vec<Item>> {
        let mut on_var = lits.iter().filter(|l| l.var.index == fact.var);
        let (Some(&lit), None) = (on_var.next(), on_var.next()) else {
            return None;
        };
        let mut items = Vec::with_capacity(lits.len());
        for &l in lits.iter().filter(|l| l.var.index != fact.var) {
            let falsified = Predicate::view_ne(l, 1);
            if !self.is_true(falsified) {
                return None;
            }
            items.push(Item::Pred(falsified));
        }
        items.extend(self.closure(fact, Predicate::view_eq(lit, 1))?);
        Some(items)
    }

    /// `fact` from `Σ aᵢ·xᵢ ≤ c`: the least values of the other terms bound the term of
    /// `fact`'s variable.
    fn explain_at_most(
        &self,
        terms: impl Iterator<Item = (i128, IntView)> + Clone,
        constant: i128,
        fact: Predicate,
    ) -> Option<Vec<Item>> {
        let mut on_var = terms.clone().filter(|(_, v)| v.var.index == fact.var);
        let (Some((a, view)), None) = (on_var.next(), on_var.next()) else {
            return None;
        };
        let others = terms.filter(|(_, w)| w.var.index != fact.var);
        let (rest, mut items) = least_sum(others, |w| self.view_bounds(w));
        let limit = constant - rest;
        let clamp = |v: i128| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
        let derived = if a > 0 {
            Predicate::view_le(view, clamp(limit.div_euclid(a)))
        } else {
            // a·x ≤ limit with a < 0: x ≥ ⌈limit / a⌉ = -⌊limit / -a⌋.
            Predicate::view_ge(view, clamp(-(limit.div_euclid(-a))))
        };
        items.extend(self.closure(fact, derived)?);
        Some(items)
    }
}

/// The least value of `Σ aᵢ·xᵢ` given each view's bounds, and the bounds it rests on (the
/// least value of each view with a positive coefficient, the greatest of the others).
fn least_sum(
    terms: impl Iterator<Item = (i128, IntView)>,
    bounds: impl Fn(IntView) -> (i64, i64),
) -> (i128, Vec<Item>) {
    let mut least = 0i128;
    let mut items = Vec::new();
    for (a, v) in terms {
        let (lo, hi) = bounds(v);
        let (value, bound) = if a > 0 {
            (lo, Predicate::view_ge(v, lo))
        } else {
            (hi, Predicate::view_le(v, hi))
        };
        least += a * i128::from(value);
        items.push(Item::Pred(bound));
    }
    (least, items)
}

/// Why a constraint of shape `shape` fails in the current state of `store`: predicates true
/// there that the constraint cannot meet together; `None` when they do not show it.
pub(crate) fn explain_failure(store: &Store, shape: &Shape<'_>) -> Option<Vec<Item>> {
    if let Some(resource) = shape.resource() {
        return resource.failure(&Now(store));
    }
    let view_bounds = |v: IntView| {
        let (a, b) = (
            v.to_view(store.min(v.var.index)),
            v.to_view(store.max(v.var.index)),
        );
        (a.min(b), a.max(b))
    };
    let at_most = |terms: &mut dyn Iterator<Item = (i128, IntView)>, c: i128| {
        let (least, items) = least_sum(terms, view_bounds);
        (least > c).then_some(items)
    };
    match *shape {
        Shape::Clause { lits } => lits
            .iter()
            .map(|&l| {
                let p = Predicate::view_ne(l, 1);
                p.is_true(store).then_some(Item::Pred(p))
            })
            .collect(),
        Shape::Linear {
            terms,
            constant,
            at_most: le,
            at_least: ge,
        } => [(le, 1i128), (ge, -1)].into_iter().find_map(|(on, sign)| {
            if !on {
                return None;
            }
            at_most(
                &mut terms.iter().map(|&(a, v)| (sign * a, v)),
                sign * constant,
            )
        }),
        Shape::UnitSum { views, constant } => [1i128, -1].into_iter().find_map(|sign| {
            at_most(
                &mut views.iter().map(|&v| (sign, v)),
                sign * i128::from(constant),
            )
        }),
        Shape::LessEq { x, y } => at_most(&mut [(1, x), (-1, y)].into_iter(), 0),
        Shape::Equal { x, y } => [1i128, -1]
            .into_iter()
            .find_map(|sign| at_most(&mut [(sign, x), (-sign, y)].into_iter(), 0)),
        Shape::NotEqual { x, y } => {
            let (lo, hi) = view_bounds(x);
            let same = lo == hi && view_bounds(y) == (lo, hi);
            same.then(|| {
                let fixed = [Predicate::view_eq(x, lo), Predicate::view_eq(y, lo)];
                fixed.into_iter().map(Item::Pred).collect()
            })
        }
        Shape::ElementConst { index, value, .. } => {
            wiped_out(&Now(store), shape, &[index.var.index, value.var.index])
        }
        Shape::Table { views, .. } | Shape::AllDifferent { views } => {
            let vars: Vec<u32> = views.iter().map(|v| v.var.index).collect();
            wiped_out(&Now(store), shape, &vars)
        }
        Shape::Cumulative { .. } | Shape::Disjunctive { .. } => None,
        Shape::ReifiedLinear { .. } | Shape::ReifiedLessEq { .. } => {
            let r = shape.reification()?;
            let (on, off) = r.literals();
            let (fixed, reason) = if on.is_true(store) && r.mode != Reif::Pmi {
                (on, r.disentailed(view_bounds)?)
            } else if off.is_true(store) && r.mode != Reif::Imp {
                (off, r.entailed(view_bounds)?)
            } else {
                return None;
            };
            let mut items = reason;
            items.push(Item::Pred(fixed));
            Some(items)
        }
    }
}

/// The store as it stands, as explanations of a failure read it.
struct Now<'a>(&'a Store);

impl Domains for Now<'_> {
    fn bounds(&self, x: u32) -> (i64, i64) {
        (self.0.min(x).into(), self.0.max(x).into())
    }

    fn member(&self, x: u32, v: i64) -> bool {
        self.0.contains(x, v)
    }
}

impl Domains for Overlay<'_> {
    fn bounds(&self, x: u32) -> (i64, i64) {
        Overlay::bounds(self, x)
    }

    fn member(&self, x: u32, v: i64) -> bool {
        Overlay::member(self, x, v)
    }
}

/// Why variable `x` cannot take `v` under a constraint of `shape` that reasons on values
/// (element over constants, a positive table, all-different), as `domains` stand; `None`
/// when it still could, or the shape does not say.
fn supportless(domains: &impl Domains, shape: &Shape<'_>, x: u32, v: i64) -> Option<Vec<Item>> {
    match *shape {
        Shape::ElementConst {
            array,
            index,
            value,
        } => {
            if index.var.index == value.var.index {
                None
            } else if x == index.var.index {
                let i = view_value(index, v);
                let Some(entry) = usize::try_from(i).ok().and_then(|i| array.get(i)) else {
                    return Some(Vec::new());
                };
                Some(vec![lacks(domains, value, *entry)?])
            } else {
                let w = view_value(value, v);
                let at = (0..array.len()).filter(|&i| array[i] == w);
                at.map(|i| lacks(domains, index, i as i64)).collect()
            }
        }
        Shape::Table { views, tuples } => {
            let k = only_on(views.iter().copied(), x)?;
            let w = view_value(views[k], v);
            let mut items = Vec::new();
            for t in tuples
                .iter()
                .filter(|t| t.len() == views.len() && t[k] == w)
            {
                let others = (0..views.len()).filter(|&c| c != k);
                let kill = others
                    .into_iter()
                    .find_map(|c| lacks(domains, views[c], t[c]))?;
                if !items.contains(&kill) {
                    items.push(kill);
                }
            }
            Some(items)
        }
        Shape::AllDifferent { views } => {
            let k = only_on(views.iter().copied(), x)?;
            taken(domains, views, k, view_value(views[k], v))
        }
        _ => None,
    }
}

/// Why one of `vars` has no value left under a constraint of `shape` (see [`supportless`]):
/// its bounds, its holes, and why each value in between is gone.
fn wiped_out(domains: &impl Domains, shape: &Shape<'_>, vars: &[u32]) -> Option<Vec<Item>> {
    vars.iter().find_map(|&x| {
        let (lo, hi) = domains.bounds(x);
        if hi - lo >= 1024 {
            return None;
        }
        let mut items = vec![
            Item::Pred(Predicate::ge(x, lo)),
            Item::Pred(Predicate::le(x, hi)),
        ];
        for v in lo..=hi {
            if !domains.member(x, v) {
                items.push(Item::Pred(Predicate::ne(x, v)));
                continue;
            }
            for item in supportless(domains, shape, x, v)? {
                if !items.contains(&item) {
                    items.push(item);
                }
            }
        }
        Some(items)
    })
}
