//! Boolean propagators over 0/1 views: clauses (two watched literals), parity (two watched
//! unfixed literals), reified and half-reified relations, and fixing a view to a constant.
//!
//! A literal is any view whose values are 0 and 1: a [`BoolVar`](crate::BoolVar), a variable
//! declared over `0..=1`, or the negation `1 - b` (`b.minus().offset(1)`). The modelling
//! functions in [`constraints`](crate::constraints) check that; these types assume it.

use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::propagators::binary::{narrow_less_eq, propagate_equal};
use crate::propagators::linear::not_equal_linear;
use crate::propagators::{Linear, Relation};
use crate::queue::Priority;
use crate::store::{Conflict, TrailedInt};
use crate::var::IntView;
use serde::{Deserialize, Serialize};

/// The literal's value if it is fixed: `Some(true)` for 1, `Some(false)` for 0.
#[inline]
fn lit_value(ctx: &Context<'_>, l: IntView) -> Option<bool> {
    if ctx.is_fixed(l) {
        Some(ctx.min(l) == 1)
    } else {
        None
    }
}

/// Looks for a literal other than those at `skip` whose value is not `avoid` (that is, free or
/// the other value when `avoid` is a value), scanning cyclically after `from`.
fn find_watch(
    ctx: &Context<'_>,
    lits: &[IntView],
    from: usize,
    skip: [usize; 2],
    accept: impl Fn(Option<bool>) -> bool,
) -> Option<usize> {
    let n = lits.len();
    (1..n)
        .map(|k| (from + k) % n)
        .find(|&k| !skip.contains(&k) && accept(lit_value(ctx, lits[k])))
}

/// Subscribes to every literal's fixing and, with two literals or more, makes the two
/// trailed watches ([`Clause`], [`Parity`]), on the first two literals to begin with.
fn watch_literals(s: &mut Setup<'_>, lits: &[IntView]) -> Option<(TrailedInt, TrailedInt)> {
    for &l in lits {
        s.subscribe(l, Event::Fixed);
    }
    (lits.len() >= 2).then(|| (s.trailed_int(0), s.trailed_int(1)))
}

/// A clause: at least one of its literals is 1. Unit propagation with two watched literals
/// (kept in [`TrailedInt`]s): a wake-up whose watches are both still possibly true costs O(1);
/// moving a watch scans the literals, O(n). Domain consistent. With no literals it fails.
#[derive(Debug, Clone)]
pub struct Clause {
    lits: Vec<IntView>,
    watches: Option<(TrailedInt, TrailedInt)>,
}

impl Clause {
    /// The clause `l₁ ∨ l₂ ∨ …` over 0/1 views.
    pub fn new(lits: Vec<IntView>) -> Clause {
        Clause {
            lits,
            watches: None,
        }
    }
}

impl Propagator for Clause {
    fn setup(&mut self, s: &mut Setup<'_>) {
        self.watches = watch_literals(s, &self.lits);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let lits = &self.lits;
        let Some((wa, wb)) = self.watches else {
            // No literal: false. One literal: it must be 1.
            return match lits.first() {
                None => Err(Conflict),
                Some(&l) => {
                    ctx.assign(l, 1)?;
                    Ok(PropStatus::Subsumed)
                }
            };
        };
        let mut w = [ctx.int(wa) as usize, ctx.int(wb) as usize];
        for k in 0..2 {
            match lit_value(ctx, lits[w[k]]) {
                Some(true) => return Ok(PropStatus::Subsumed),
                None => continue,
                Some(false) => {}
            }
            // The watch is false: move it to a literal that is not.
            match find_watch(ctx, lits, w[k], w, |v| v != Some(false)) {
                Some(r) if lit_value(ctx, lits[r]) == Some(true) => {
                    return Ok(PropStatus::Subsumed);
                }
                Some(r) => w[k] = r,
                None => {
                    // Every other literal is false: the other watch must be 1 (this fails if
                    // it is false too).
                    ctx.assign(lits[w[1 - k]], 1)?;
                    return Ok(PropStatus::Subsumed);
                }
            }
        }
        ctx.set_int(wa, w[0] as i64);
        ctx.set_int(wb, w[1] as i64);
        Ok(PropStatus::Fixpoint)
    }

    fn priority(&self) -> Priority {
        if self.lits.len() <= 2 {
            Priority::Binary
        } else {
            Priority::Linear
        }
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        self.lits.iter().any(|&l| a.value(l) == 1)
    }

    fn shape(&self) -> Option<crate::learn::Shape<'_>> {
        Some(crate::learn::Shape::Clause { lits: &self.lits })
    }

    fn name(&self) -> &'static str {
        "clause"
    }
}

/// Parity: the sum of the literals is odd (`odd`) or even. Two watched literals that are
/// still free (kept in [`TrailedInt`]s): nothing can be deduced while two are free, so a
/// wake-up that fixes neither watch costs O(1), and moving a watch or fixing the last free
/// literal costs O(n). Domain consistent when the literals are views of distinct variables.
#[derive(Debug, Clone)]
pub struct Parity {
    lits: Vec<IntView>,
    odd: bool,
    watches: Option<(TrailedInt, TrailedInt)>,
}

impl Parity {
    /// `Σ lits ≡ odd (mod 2)` over 0/1 views.
    pub fn new(lits: Vec<IntView>, odd: bool) -> Parity {
        Parity {
            lits,
            odd,
            watches: None,
        }
    }

    /// Fixes the one free literal `last` (every other one is fixed), or checks the parity
    /// when `last` is `None`.
    fn finish(&self, ctx: &mut Context<'_>, last: Option<usize>) -> PropResult {
        let mut odd = self.odd;
        for (k, &l) in self.lits.iter().enumerate() {
            if Some(k) != last {
                odd ^= ctx.min(l) == 1;
            }
        }
        match last {
            Some(k) => {
                ctx.assign(self.lits[k], i64::from(odd))?;
            }
            None if odd => return Err(Conflict),
            None => {}
        }
        Ok(PropStatus::Subsumed)
    }
}

impl Propagator for Parity {
    fn setup(&mut self, s: &mut Setup<'_>) {
        self.watches = watch_literals(s, &self.lits);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let Some((wa, wb)) = self.watches else {
            return match self.lits.first() {
                None if self.odd => Err(Conflict),
                None => Ok(PropStatus::Subsumed),
                Some(&l) => {
                    ctx.assign(l, i64::from(self.odd))?;
                    Ok(PropStatus::Subsumed)
                }
            };
        };
        let mut w = [ctx.int(wa) as usize, ctx.int(wb) as usize];
        for k in 0..2 {
            if !ctx.is_fixed(self.lits[w[k]]) {
                continue;
            }
            match find_watch(ctx, &self.lits, w[k], w, |v| v.is_none()) {
                Some(r) => w[k] = r,
                None => {
                    // No free literal but perhaps the other watch.
                    let other = w[1 - k];
                    let last = (!ctx.is_fixed(self.lits[other])).then_some(other);
                    return self.finish(ctx, last);
                }
            }
        }
        ctx.set_int(wa, w[0] as i64);
        ctx.set_int(wb, w[1] as i64);
        Ok(PropStatus::Fixpoint)
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        let ones = self.lits.iter().filter(|&&l| a.value(l) == 1).count();
        (ones % 2 == 1) == self.odd
    }

    fn name(&self) -> &'static str {
        "parity"
    }
}

/// `x = value`, posted by [`Model::fix`](crate::Model::fix): assigns once, then is subsumed.
#[derive(Debug, Clone, Copy)]
pub struct FixTo {
    x: IntView,
    value: i64,
}

impl FixTo {
    /// The propagator for `x = value`.
    pub fn new(x: IntView, value: i64) -> FixTo {
        FixTo { x, value }
    }
}

impl Propagator for FixTo {
    fn setup(&mut self, s: &mut Setup<'_>) {
        // Only the first run prunes; the subscription records the view for the model's checks.
        s.subscribe(self.x, Event::Fixed);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        ctx.assign(self.x, self.value)?;
        Ok(PropStatus::Subsumed)
    }

    fn priority(&self) -> Priority {
        Priority::Unary
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        a.value(self.x) == self.value
    }

    fn name(&self) -> &'static str {
        "fix"
    }
}

/// How a reified constraint ties its Boolean `b` to its condition `C`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Reif {
    /// `b <-> C`: full reification.
    #[default]
    Equiv,
    /// `b -> C`: half reification; `C` may hold with `b = 0`. Cheaper: it prunes only once
    /// `b = 1`, or fixes `b = 0` when `C` cannot hold.
    Imp,
    /// `b <- C` (that is `C -> b`): `b = 1` once `C` holds for sure, and `not C` is enforced
    /// once `b = 0`.
    Pmi,
}

impl Reif {
    /// Whether the reified constraint holds for these truth values of `b` and `C`.
    pub fn holds(self, b: bool, c: bool) -> bool {
        match self {
            Reif::Equiv => b == c,
            Reif::Imp => !b || c,
            Reif::Pmi => b || !c,
        }
    }
}

/// The condition of a [`Reified`] constraint.
#[derive(Debug, Clone)]
enum Cond {
    /// `x = v`.
    EqValue(IntView, i64),
    /// `x <= v`.
    LeValue(IntView, i64),
    /// `x = y`.
    Eq(IntView, IntView),
    /// `x <= y`.
    Le(IntView, IntView),
    /// A linear relation: its terms and constant (for entailment), the propagator that
    /// enforces it, and how its negation is enforced.
    Linear {
        terms: Vec<(i128, IntView)>,
        relation: Relation,
        constant: i128,
        enforce: Box<Linear>,
        negation: Negation,
    },
}

/// How `not (Σ aᵢ·xᵢ rel c)` is enforced.
#[derive(Debug, Clone)]
enum Negation {
    /// Another linear relation (`<=` becomes `>= c + 1`, `>=` becomes `<= c - 1`).
    Linear(Box<Linear>),
    /// `Σ aᵢ·xᵢ != c`: pruned once at most one term is free.
    NotEqual,
    /// `Σ aᵢ·xᵢ <= bound` with `i128` coefficients and bound: the negation of `<= i64::MAX`
    /// (as `Σ -aᵢ·xᵢ <= -2⁶³`) or of `>= i64::MIN` (`<= -2⁶³ - 1`), whose constant leaves
    /// `i64`, where [`Linear`] cannot state it. See [`wide_le`].
    Wide {
        terms: Vec<(i128, IntView)>,
        bound: i128,
    },
}

/// `Σ aᵢ·xᵢ` bounds, in `i128`.
fn linear_bounds(ctx: &Context<'_>, terms: &[(i128, IntView)]) -> (i128, i128) {
    terms.iter().fold((0, 0), |(lo, hi), &(a, x)| {
        let (mn, mx) = (i128::from(ctx.min(x)), i128::from(ctx.max(x)));
        if a > 0 {
            (lo + a * mn, hi + a * mx)
        } else {
            (lo + a * mx, hi + a * mn)
        }
    })
}

/// Enforces `Σ aᵢ·xᵢ <= bound` in `i128` with the bounds reasoning of [`Linear`]: each term
/// is bounded by `bound` minus the smallest sum of the others, rounded towards the feasible
/// side, until no bound moves. Only the negations of `<= i64::MAX` and `>= i64::MIN` take
/// it, so it stays simple rather than fast: `O(n)` a pass.
fn wide_le(ctx: &mut Context<'_>, terms: &[(i128, IntView)], bound: i128) -> PropResult {
    // Bounds beyond `i64` are beyond every domain: clamping keeps their effect.
    let clamp = |v: i128| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
    loop {
        let (lo, hi) = linear_bounds(ctx, terms);
        if lo > bound {
            return Err(Conflict);
        }
        if hi <= bound {
            return Ok(PropStatus::Subsumed);
        }
        let mut changed = false;
        for &(a, x) in terms {
            let (min, max) = (i128::from(ctx.min(x)), i128::from(ctx.max(x)));
            // `a·x <= slack`, the others at their smallest.
            let slack = bound - (lo - if a > 0 { a * min } else { a * max });
            if a > 0 {
                let most = slack.div_euclid(a);
                if most < max {
                    changed |= ctx.set_max(x, clamp(most))?;
                }
            } else {
                let least = -slack.div_euclid(-a);
                if least > min {
                    changed |= ctx.set_min(x, clamp(least))?;
                }
            }
        }
        if !changed {
            return Ok(PropStatus::Fixpoint);
        }
    }
}

impl Cond {
    fn subscribe(&mut self, s: &mut Setup<'_>) {
        match self {
            // Only losing `value`, or keeping nothing else, decides `x = value`: a watch
            // sleeps through the other changes (`nmseq`: n reified equalities a variable).
            Cond::EqValue(x, value) => s.subscribe_watching(*x, *value, 1),
            Cond::LeValue(x, _) => s.subscribe(*x, Event::Bounds),
            Cond::Eq(x, y) => {
                s.subscribe(*x, Event::Domain);
                s.subscribe(*y, Event::Domain);
            }
            Cond::Le(x, y) => {
                s.subscribe(*x, Event::Bounds);
                s.subscribe(*y, Event::Bounds);
            }
            Cond::Linear {
                terms,
                enforce,
                negation,
                ..
            } => {
                // The inner propagators subscribe the terms to bounds events (and allocate
                // nothing): their subscriptions become this propagator's.
                enforce.setup(s);
                if let Negation::Linear(n) = negation {
                    n.setup(s);
                }
                for &(_, x) in terms.iter() {
                    s.subscribe(x, Event::Bounds);
                }
            }
        }
    }

    /// `Some(true)` if the condition holds in every remaining assignment, `Some(false)` if in
    /// none, `None` if not known yet.
    fn entailed(&self, ctx: &Context<'_>) -> Option<bool> {
        match *self {
            Cond::EqValue(x, v) => {
                if !ctx.contains(x, v) {
                    Some(false)
                } else if ctx.is_fixed(x) {
                    Some(true)
                } else {
                    None
                }
            }
            Cond::LeValue(x, v) => {
                if ctx.max(x) <= v {
                    Some(true)
                } else if ctx.min(x) > v {
                    Some(false)
                } else {
                    None
                }
            }
            Cond::Eq(x, y) => {
                if ctx.is_fixed(x) && ctx.is_fixed(y) {
                    Some(ctx.min(x) == ctx.min(y))
                } else if ctx.max(x) < ctx.min(y)
                    || ctx.max(y) < ctx.min(x)
                    || !ctx.values(x).iter().any(|&v| ctx.contains(y, v))
                {
                    Some(false)
                } else {
                    None
                }
            }
            Cond::Le(x, y) => {
                if ctx.max(x) <= ctx.min(y) {
                    Some(true)
                } else if ctx.min(x) > ctx.max(y) {
                    Some(false)
                } else {
                    None
                }
            }
            Cond::Linear {
                ref terms,
                relation,
                constant: c,
                ..
            } => {
                let (lo, hi) = linear_bounds(ctx, terms);
                // `Reified::linear` leaves only `=`, `≤` and `≥` here.
                match relation {
                    Relation::Le if hi <= c => Some(true),
                    Relation::Le if lo > c => Some(false),
                    Relation::Ge if lo >= c => Some(true),
                    Relation::Ge if hi < c => Some(false),
                    Relation::Eq if lo == hi => Some(lo == c),
                    Relation::Eq if lo > c || hi < c => Some(false),
                    _ => None,
                }
            }
        }
    }

    /// Enforces the condition (`positive`) or its negation.
    fn enforce(&mut self, ctx: &mut Context<'_>, positive: bool) -> PropResult {
        match (self, positive) {
            (Cond::EqValue(x, v), true) => {
                ctx.assign(*x, *v)?;
                Ok(PropStatus::Subsumed)
            }
            (Cond::EqValue(x, v), false) => {
                ctx.remove(*x, *v)?;
                Ok(PropStatus::Subsumed)
            }
            (Cond::LeValue(x, v), true) => {
                ctx.set_max(*x, *v)?;
                Ok(PropStatus::Subsumed)
            }
            (Cond::LeValue(x, v), false) => {
                ctx.set_min(*x, v.saturating_add(1))?;
                Ok(PropStatus::Subsumed)
            }
            (Cond::Eq(x, y), true) => propagate_equal(ctx, *x, *y),
            (Cond::Eq(x, y), false) => {
                let (x, y) = (*x, *y);
                // Repeats because removing from one side may narrow the other when both are
                // views of one variable; a side fixed to the other's value empties and fails.
                loop {
                    let mut changed = false;
                    if ctx.is_fixed(x) {
                        changed |= ctx.remove(y, ctx.min(x))?;
                    }
                    if ctx.is_fixed(y) {
                        changed |= ctx.remove(x, ctx.min(y))?;
                    }
                    if !changed {
                        break;
                    }
                }
                let apart = (ctx.is_fixed(x) && !ctx.contains(y, ctx.min(x)))
                    || (ctx.is_fixed(y) && !ctx.contains(x, ctx.min(y)));
                Ok(if apart {
                    PropStatus::Subsumed
                } else {
                    PropStatus::Fixpoint
                })
            }
            (Cond::Le(x, y), positive) => {
                // `x <= y`, or `y + 1 <= x` for the negation.
                let (x, y) = if positive {
                    (*x, *y)
                } else {
                    (y.offset(1), *x)
                };
                narrow_less_eq(ctx, x, y)?;
                Ok(if ctx.max(x) <= ctx.min(y) {
                    PropStatus::Subsumed
                } else {
                    PropStatus::Fixpoint
                })
            }
            (Cond::Linear { enforce, .. }, true) => enforce.propagate(ctx),
            (
                Cond::Linear {
                    negation: Negation::Linear(n),
                    ..
                },
                false,
            ) => n.propagate(ctx),
            (
                Cond::Linear {
                    negation: Negation::Wide { terms, bound },
                    ..
                },
                false,
            ) => wide_le(ctx, terms, *bound),
            (
                Cond::Linear {
                    terms, constant, ..
                },
                false,
            ) => not_equal_linear(ctx, terms, *constant),
        }
    }

    fn holds(&self, a: &Assignment<'_>) -> bool {
        match *self {
            Cond::EqValue(x, v) => a.value(x) == v,
            Cond::LeValue(x, v) => a.value(x) <= v,
            Cond::Eq(x, y) => a.value(x) == a.value(y),
            Cond::Le(x, y) => a.value(x) <= a.value(y),
            Cond::Linear {
                ref terms,
                relation,
                constant,
                ..
            } => {
                let sum: i128 = terms.iter().map(|&(k, x)| k * i128::from(a.value(x))).sum();
                relation.holds(sum, constant)
            }
        }
    }
}

/// A reified relation: a 0/1 view `b` tied to a condition `C` by a [`Reif`] mode. Until `b`
/// is fixed it waits for `C` to be entailed or disentailed (and fixes `b` when the mode
/// allows); once `b` is fixed it enforces `C` or `not C` as the mode requires.
///
/// Strength, by condition: `x = v` and `x <= v` are domain consistent (O(1) a run); `x = y`
/// is domain consistent for distinct variables (O(|D|) a run); `x <= y` bounds consistent
/// (O(1)); linear relations use the bounds reasoning of [`Linear`] (O(n)), and `!=` (the
/// negation of `=`) prunes once every term but one is fixed.
#[derive(Debug, Clone)]
pub struct Reified {
    b: IntView,
    mode: Reif,
    cond: Cond,
}

impl Reified {
    /// `b (mode) x = value`.
    pub fn eq_value(b: IntView, mode: Reif, x: IntView, value: i64) -> Reified {
        Reified {
            b,
            mode,
            cond: Cond::EqValue(x, value),
        }
    }

    /// `b (mode) x <= value`.
    pub fn le_value(b: IntView, mode: Reif, x: IntView, value: i64) -> Reified {
        Reified {
            b,
            mode,
            cond: Cond::LeValue(x, value),
        }
    }

    /// `b (mode) x = y`.
    pub fn equal(b: IntView, mode: Reif, x: IntView, y: IntView) -> Reified {
        Reified {
            b,
            mode,
            cond: Cond::Eq(x, y),
        }
    }

    /// `b (mode) x <= y`.
    pub fn less_eq(b: IntView, mode: Reif, x: IntView, y: IntView) -> Reified {
        Reified {
            b,
            mode,
            cond: Cond::Le(x, y),
        }
    }

    /// `b (mode) Σ aᵢ·xᵢ (relation) constant`. Terms with a zero coefficient are dropped. The
    /// sum is exact (`i128`), so `<= i64::MAX` and `>= i64::MIN` are real conditions: with
    /// large coefficients the sum can pass them. Two unit terms against a constant that fits
    /// a view's offset (`x - y <= c`, a precedence) become [`less_eq`](Reified::less_eq) over
    /// views, which prunes the same for less work.
    pub fn linear(
        b: IntView,
        mode: Reif,
        terms: Vec<(i64, IntView)>,
        relation: Relation,
        constant: i64,
    ) -> Reified {
        // `≠`, `<` and `>` are the negations of `=`, `≥` and `≤`: `b (mode) not C` is
        // `not b (mode') C`, where an implication turns round (`b -> not C` is `C -> not b`).
        if matches!(relation, Relation::Ne | Relation::Lt | Relation::Gt) {
            let mode = match mode {
                Reif::Equiv => Reif::Equiv,
                Reif::Imp => Reif::Pmi,
                Reif::Pmi => Reif::Imp,
            };
            return Reified::linear(
                b.minus().offset(1),
                mode,
                terms,
                relation.negation(),
                constant,
            );
        }
        if let Some((x, y)) = unit_pair(&terms, relation, constant) {
            return Reified::less_eq(b, mode, x, y);
        }
        let wide: Vec<(i128, IntView)> = terms
            .iter()
            .filter(|&&(a, _)| a != 0)
            .map(|&(a, x)| (i128::from(a), x))
            .collect();
        let negation = match relation {
            Relation::Le => match constant.checked_add(1) {
                Some(c) => {
                    Negation::Linear(Box::new(Linear::nested(terms.clone(), Relation::Ge, c)))
                }
                // `Σ aᵢ·xᵢ >= 2⁶³` as `Σ -aᵢ·xᵢ <= -2⁶³`.
                None => Negation::Wide {
                    terms: wide.iter().map(|&(a, x)| (-a, x)).collect(),
                    bound: -(i128::from(constant) + 1),
                },
            },
            Relation::Ge => match constant.checked_sub(1) {
                Some(c) => {
                    Negation::Linear(Box::new(Linear::nested(terms.clone(), Relation::Le, c)))
                }
                None => Negation::Wide {
                    terms: wide.clone(),
                    bound: i128::from(constant) - 1,
                },
            },
            Relation::Eq => Negation::NotEqual,
            Relation::Ne | Relation::Lt | Relation::Gt => unreachable!("negated above"),
        };
        Reified {
            b,
            mode,
            cond: Cond::Linear {
                terms: wide,
                relation,
                constant: constant.into(),
                enforce: Box::new(Linear::nested(terms, relation, constant)),
                negation,
            },
        }
    }
}

/// `a₁·x₁ + a₂·x₂ <= c` (or `>=`) with unit coefficients as `x <= y` over views, when the
/// constant fits in a view's offset: `x₁ - x₂ <= c` is `x₁ - c <= x₂`. Reified precedences
/// and disjunctions of scheduling models (`s₁ + d₁ <= s₂`) are all of this form, and
/// [`Cond::Le`] prunes them as [`Linear`] does (both are bounds consistent on two unit
/// terms) for a fraction of the work: no 128-bit sums, no scratch, no second propagator for
/// the negation.
fn unit_pair(
    terms: &[(i64, IntView)],
    relation: Relation,
    constant: i64,
) -> Option<(IntView, IntView)> {
    let &[(a1, x1), (a2, x2)] = terms else {
        return None;
    };
    // `>=` is `<=` with every sign flipped.
    let (a1, a2, c) = match relation {
        Relation::Le => (a1, a2, constant),
        Relation::Ge => (
            a1.checked_neg()?,
            a2.checked_neg()?,
            constant.checked_neg()?,
        ),
        Relation::Eq | Relation::Ne | Relation::Lt | Relation::Gt => return None,
    };
    let signed = |a: i64, x: IntView| match a {
        1 => Some(x),
        -1 => Some(x.minus()),
        _ => None,
    };
    // a₁·x₁ + a₂·x₂ <= c  <=>  a₁·x₁ <= -a₂·x₂ + c.
    let lhs = signed(a1, x1)?;
    let rhs = signed(a2.checked_neg()?, x2)?;
    let offset = i32::try_from(c).ok()?;
    let rhs_offset = rhs.constant().checked_add(i64::from(offset))?;
    if rhs_offset.unsigned_abs() > u64::from(crate::var::MAX_VIEW_OFFSET.unsigned_abs()) {
        return None;
    }
    Some((lhs, rhs.offset(offset)))
}

impl Propagator for Reified {
    fn setup(&mut self, s: &mut Setup<'_>) {
        s.subscribe(self.b, Event::Fixed);
        self.cond.subscribe(s);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let b = self.b;
        if !ctx.is_fixed(b) {
            let Some(c) = self.cond.entailed(ctx) else {
                return Ok(PropStatus::Fixpoint);
            };
            // `C` holding for sure satisfies `b -> C`, and `C` failing for sure `C -> b`:
            // `b` stays free then.
            if (c && self.mode == Reif::Imp) || (!c && self.mode == Reif::Pmi) {
                return Ok(PropStatus::Subsumed);
            }
            ctx.assign(b, i64::from(c))?;
            // `b` may be a view of a variable of `C`: enforce what `b` now says.
        }
        let positive = ctx.min(b) == 1;
        let enforce = match self.mode {
            Reif::Equiv => true,
            Reif::Imp => positive,
            Reif::Pmi => !positive,
        };
        if enforce {
            self.cond.enforce(ctx, positive)
        } else {
            Ok(PropStatus::Subsumed)
        }
    }

    fn priority(&self) -> Priority {
        match self.cond {
            Cond::Linear { .. } => Priority::Linear,
            _ => Priority::Binary,
        }
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        self.mode.holds(a.value(self.b) == 1, self.cond.holds(a))
    }

    fn shape(&self) -> Option<crate::learn::Shape<'_>> {
        let (b, mode) = (self.b, self.mode);
        match &self.cond {
            &Cond::Le(x, y) => Some(crate::learn::Shape::ReifiedLessEq { b, mode, x, y }),
            Cond::Linear {
                terms,
                relation,
                constant,
                ..
            } => Some(crate::learn::Shape::ReifiedLinear {
                b,
                mode,
                terms,
                relation: *relation,
                constant: *constant,
            }),
            _ => None,
        }
    }

    fn name(&self) -> &'static str {
        "reified"
    }
}
