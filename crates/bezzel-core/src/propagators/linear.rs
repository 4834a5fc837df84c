//! Linear relations `Σ aᵢ·xᵢ (=, ≠, ≤, <, ≥, >) c` with bounds reasoning.
//!
//! Over integers `<` is `≤ c - 1` and `>` is `≥ c + 1`, so the propagator sees only `=`, `≠`,
//! `≤` and `≥`. For `≤`, every term may be at most `c` minus the smallest possible sum of the others; the
//! bound of `aᵢ·xᵢ` becomes a bound on `xᵢ` by rounding the division towards the feasible side.
//! `≥` is `≤` with every sign flipped, and `=` is both. A round reads every term's range once;
//! a term whose range fits in the slack is skipped without a division. Narrowing one bound can
//! allow another term to narrow, so rounds repeat until no bound moves. Coefficients, products and sums are
//! `i128`: a coefficient is at most 2⁶³ in absolute value and a view value (offset within
//! ±2⁴⁰, see [`MAX_VIEW_OFFSET`](crate::var::MAX_VIEW_OFFSET)) below 2⁴¹, so each product is
//! below 2¹⁰⁴ and a sum of up to [`MAX_LINEAR_TERMS`] of them cannot overflow, whatever the
//! signs (negating `i64::MIN` included). `≠` waits until every term but one is fixed and then
//! removes the one value of the last term that would make the sum `c`.
//!
//! A long sum (at least [`LONG_SUM_TERMS`] terms, such as the weighted sums of Booleans that
//! `bin_packing_load` and `bool2int` make) does not read every term on each run: the sums of
//! the terms' least and greatest values are trailed, together with the bounds of each term
//! they account for, and a run looks again only at the terms its advice names (Gecode's
//! advisors, Pumpkin's incremental linear `≤`). The terms are sorted by their declared range,
//! widest first, so that the pass that narrows them stops at the first term whose declared
//! range fits in the room left: no narrower term can move.

use super::bits;
use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::store::{Conflict, TrailedInt};
use crate::var::IntView;
use serde::{Deserialize, Serialize};

/// The relation between the linear sum and the constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Relation {
    /// `Σ aᵢ·xᵢ = c`
    Eq,
    /// `Σ aᵢ·xᵢ ≤ c`
    Le,
    /// `Σ aᵢ·xᵢ ≥ c`
    Ge,
    /// `Σ aᵢ·xᵢ ≠ c`
    Ne,
    /// `Σ aᵢ·xᵢ < c`
    Lt,
    /// `Σ aᵢ·xᵢ > c`
    Gt,
}

impl Relation {
    /// The relation that holds exactly when `self` does not: `=` and `≠`, `≤` and `>`, `≥`
    /// and `<` swap.
    ///
    /// ```
    /// use bezzel_core::Relation;
    /// assert_eq!(Relation::Le.negation(), Relation::Gt);
    /// assert_eq!(Relation::Ne.negation(), Relation::Eq);
    /// ```
    pub fn negation(self) -> Relation {
        match self {
            Relation::Eq => Relation::Ne,
            Relation::Ne => Relation::Eq,
            Relation::Le => Relation::Gt,
            Relation::Gt => Relation::Le,
            Relation::Ge => Relation::Lt,
            Relation::Lt => Relation::Ge,
        }
    }

    /// The relation with its sides swapped: `a (self) b` exactly when `b (mirrored) a`, so `≤`
    /// and `≥`, `<` and `>` swap, `=` and `≠` stay.
    ///
    /// ```
    /// use bezzel_core::Relation;
    /// assert_eq!(Relation::Lt.mirrored(), Relation::Gt);
    /// assert_eq!(Relation::Eq.mirrored(), Relation::Eq);
    /// ```
    pub fn mirrored(self) -> Relation {
        match self {
            Relation::Le => Relation::Ge,
            Relation::Ge => Relation::Le,
            Relation::Lt => Relation::Gt,
            Relation::Gt => Relation::Lt,
            same => same,
        }
    }

    /// Whether `lhs (self) rhs` holds.
    ///
    /// ```
    /// use bezzel_core::Relation;
    /// assert!(Relation::Lt.holds(2, 3) && !Relation::Gt.holds(2, 3));
    /// ```
    pub fn holds(self, lhs: i128, rhs: i128) -> bool {
        match self {
            Relation::Eq => lhs == rhs,
            Relation::Ne => lhs != rhs,
            Relation::Le => lhs <= rhs,
            Relation::Lt => lhs < rhs,
            Relation::Ge => lhs >= rhs,
            Relation::Gt => lhs > rhs,
        }
    }
}

/// The most terms a [`Linear`] may have: sums of that many products stay far inside `i128`.
pub const MAX_LINEAR_TERMS: usize = 1 << 20;

/// The fewest terms for which a [`Linear`] keeps its sums across runs (see the module docs):
/// below it, a run that reads every term costs less than the bookkeeping.
pub const LONG_SUM_TERMS: usize = 8;

/// The largest sum of the terms' declared magnitudes (and constant) a long sum keeps in trailed
/// `i64`s: every partial sum and room then fits.
const LONG_SUM_MAX_MAGNITUDE: i128 = 1 << 61;

/// `Σ aᵢ·xᵢ (relation) c`, bounds consistent.
#[derive(Debug, Clone)]
pub struct Linear {
    terms: Vec<(i128, IntView)>,
    relation: Relation,
    constant: i128,
    /// Scratch: each term's least and greatest value in the current round.
    ranges: Vec<(i128, i128)>,
    /// Run by another propagator ([`Reified`](crate::propagators::Reified)), which does not
    /// hand over the events of the terms: the sums cannot be kept across runs.
    nested: bool,
    /// The trailed sums of a long sum, once set up.
    sums: Option<Sums>,
}

/// What a long [`Linear`] keeps across runs: `low` and `high` are the sums of the terms'
/// least and greatest values `aᵢ·xᵢ` for the bounds of `xᵢ` in `seen`, which are the current
/// ones for every term that no event has named since.
#[derive(Debug, Clone)]
struct Sums {
    /// The least and greatest value of each term's view that `low` and `high` account for.
    seen: Vec<(TrailedInt, TrailedInt)>,
    low: TrailedInt,
    high: TrailedInt,
    /// 0 until a run has looked at every term: the first, and again after backtracking past
    /// it (the bounds in `seen` are then the declared ones, not the current).
    ready: TrailedInt,
    /// Each term's declared range `|aᵢ|·(max xᵢ − min xᵢ)`, widest first like the terms.
    spans: Vec<i128>,
    /// Bit `i % 64` of word `i / 64` is set while term `i` is not fixed (as accounted): the
    /// pass that narrows terms skips the fixed ones, which most Boolean terms soon are.
    open: Vec<TrailedInt>,
    /// Whether two terms are views of one variable: narrowing one moves the other, which
    /// then has no event to say so.
    shared: bool,
}

impl Sums {
    /// Brings term `i` into `low` and `high` at the current bounds of its view.
    #[inline]
    fn look(
        &self,
        ctx: &mut Context<'_>,
        (a, x): (i128, IntView),
        i: usize,
        low: &mut i128,
        high: &mut i128,
    ) {
        let (min_slot, max_slot) = self.seen[i];
        let (min, max) = (ctx.min(x), ctx.max(x));
        let (was_min, was_max) = (ctx.int(min_slot), ctx.int(max_slot));
        if min != was_min {
            let moved = a * i128::from(min - was_min);
            if a > 0 {
                *low += moved;
            } else {
                *high += moved;
            }
            ctx.set_int(min_slot, min);
        }
        if max != was_max {
            let moved = a * i128::from(max - was_max);
            if a > 0 {
                *high += moved;
            } else {
                *low += moved;
            }
            ctx.set_int(max_slot, max);
        }
        if min == max {
            let word = self.open[i / 64];
            let bits = ctx.int(word) & !(1 << (i % 64));
            ctx.set_int(word, bits);
        }
    }

    /// Term `i`'s least and greatest value as accounted.
    #[inline]
    fn range(&self, ctx: &Context<'_>, a: i128, i: usize) -> (i128, i128) {
        let (min, max) = self.seen[i];
        let (min, max) = (i128::from(ctx.int(min)), i128::from(ctx.int(max)));
        if a > 0 {
            (a * min, a * max)
        } else {
            (a * max, a * min)
        }
    }
}

impl Linear {
    /// The propagator; terms with a zero coefficient are dropped. Post it through
    /// [`Model::linear`](crate::Model::linear), which checks the views and the number of terms.
    pub fn new(terms: Vec<(i64, IntView)>, relation: Relation, constant: i64) -> Linear {
        let terms = terms
            .into_iter()
            .filter(|&(a, _)| a != 0)
            .map(|(a, x)| (i128::from(a), x))
            .collect();
        // A strict relation's constant moves by one, which may leave `i64`: it is kept in
        // `i128`, where the sums are computed anyway.
        let (relation, constant) = without_strict(relation, constant.into());
        Linear {
            terms,
            relation,
            constant,
            ranges: Vec::new(),
            nested: false,
            sums: None,
        }
    }

    /// [`Linear::new`] for a propagator that runs it inside its own (as
    /// [`Reified`](crate::propagators::Reified) does): it reads every term on each run.
    pub(super) fn nested(terms: Vec<(i64, IntView)>, relation: Relation, constant: i64) -> Linear {
        Linear {
            nested: true,
            ..Linear::new(terms, relation, constant)
        }
    }

    /// Whether the propagator enforces `≤ c` and `≥ c`; `None` for `≠`.
    fn directions(&self) -> Option<(bool, bool)> {
        match self.relation {
            Relation::Le => Some((true, false)),
            Relation::Ge => Some((false, true)),
            Relation::Eq => Some((true, true)),
            Relation::Ne => None,
            // `new` turned the strict relations into `Le` and `Ge`.
            Relation::Lt | Relation::Gt => unreachable!("strict relation in a Linear"),
        }
    }

    /// Sets up the trailed sums of a long sum, if it is one and its magnitudes allow; sorts
    /// the terms widest first. Returns whether it did.
    fn set_up_sums(&mut self, s: &mut Setup<'_>) -> bool {
        if self.nested || self.terms.len() < LONG_SUM_TERMS || self.directions().is_none() {
            return false;
        }
        let declared = |s: &Setup<'_>, x: IntView| (s.declared_min(x), s.declared_max(x));
        let magnitude: i128 = self
            .terms
            .iter()
            .map(|&(a, x)| {
                let (min, max) = declared(s, x);
                a.abs() * i128::from(min.unsigned_abs().max(max.unsigned_abs()))
            })
            .sum();
        if magnitude + self.constant.abs() > LONG_SUM_MAX_MAGNITUDE {
            return false;
        }
        let span = |s: &Setup<'_>, (a, x): (i128, IntView)| {
            let (min, max) = declared(s, x);
            a.abs() * i128::from(max - min)
        };
        self.terms.sort_by_key(|&t| std::cmp::Reverse(span(s, t)));
        let spans = self.terms.iter().map(|&t| span(s, t)).collect();
        let (mut low, mut high) = (0i128, 0i128);
        let mut seen = Vec::with_capacity(self.terms.len());
        for (i, &(a, x)) in self.terms.iter().enumerate() {
            s.subscribe_advised(x, Event::Bounds, 1 << (i % 64));
            let (min, max) = declared(s, x);
            let (lo, hi) = (a * i128::from(min), a * i128::from(max));
            low += lo.min(hi);
            high += lo.max(hi);
            seen.push((s.trailed_int(min), s.trailed_int(max)));
        }
        let mut vars: Vec<_> = self.terms.iter().map(|&(_, x)| x.var()).collect();
        vars.sort_unstable();
        let n = self.terms.len();
        let open = (0..n.div_ceil(64))
            .map(|w| {
                let bits = (n - 64 * w).min(64);
                s.trailed_int(if bits == 64 { -1 } else { (1 << bits) - 1 })
            })
            .collect();
        self.sums = Some(Sums {
            open,
            seen,
            // The magnitude test keeps both sums inside `i64`.
            low: s.trailed_int(low as i64),
            high: s.trailed_int(high as i64),
            ready: s.trailed_int(0),
            spans,
            shared: vars.windows(2).any(|w| w[0] == w[1]),
        });
        true
    }

    /// A run of a long sum (see the module docs): the terms the advice names are brought into
    /// the trailed sums, then the widest terms are narrowed while they do not fit in the room.
    fn propagate_long(&self, ctx: &mut Context<'_>, sums: &Sums) -> PropResult {
        let Some((at_most_c, at_least_c)) = self.directions() else {
            unreachable!("a long sum is never `≠`");
        };
        let c = self.constant;
        let n = self.terms.len();
        let (mut low, mut high) = (
            i128::from(ctx.int(sums.low)),
            i128::from(ctx.int(sums.high)),
        );
        let mut everything = ctx.int(sums.ready) == 0 || ctx.advice() == u64::MAX;
        if everything {
            ctx.set_int(sums.ready, 1);
        } else {
            for b in bits(ctx.advice()) {
                for i in (b..n).step_by(64) {
                    sums.look(ctx, self.terms[i], i, &mut low, &mut high);
                }
            }
        }
        loop {
            if everything {
                for (i, &term) in self.terms.iter().enumerate() {
                    sums.look(ctx, term, i, &mut low, &mut high);
                }
            }
            if at_most_c && low > c || at_least_c && high < c {
                return Err(Conflict);
            }
            // The magnitude test in `set_up_sums` keeps both sums inside `i64`.
            ctx.set_int(sums.low, low as i64);
            ctx.set_int(sums.high, high as i64);
            if (!at_most_c || high <= c) && (!at_least_c || low >= c) {
                return Ok(PropStatus::Subsumed);
            }
            let mut changed = false;
            'terms: for (w, &word) in sums.open.iter().enumerate() {
                for b in bits(ctx.int(word) as u64) {
                    let i = 64 * w + b;
                    let (a, x) = self.terms[i];
                    // The rooms shrink as terms narrow: each term is judged by the latest.
                    let (room_up, room_down) = (c - low, high - c);
                    let room = match (at_most_c, at_least_c) {
                        (true, true) => room_up.min(room_down),
                        (true, false) => room_up,
                        _ => room_down,
                    };
                    if sums.spans[i] <= room {
                        break 'terms;
                    }
                    let (lo, hi) = sums.range(ctx, a, i);
                    let mut moved = false;
                    if at_most_c && hi - lo > room_up {
                        moved |= at_most(ctx, a, x, lo + room_up)?;
                    }
                    // a·x ≥ hi − room_down, as −a·x ≤ room_down − hi.
                    if at_least_c && hi - lo > room_down {
                        moved |= at_most(ctx, -a, x, room_down - hi)?;
                    }
                    if moved {
                        changed = true;
                        sums.look(ctx, (a, x), i, &mut low, &mut high);
                    }
                }
            }
            if !changed {
                ctx.set_int(sums.low, low as i64);
                ctx.set_int(sums.high, high as i64);
                return Ok(PropStatus::Fixpoint);
            }
            // A narrowed view moves the other views of its variable, which no event names.
            everything = sums.shared;
        }
    }

    /// Whether `Σ aᵢ·valueᵢ (relation) c` holds for the given view values.
    fn holds(&self, value: impl Fn(IntView) -> i64) -> bool {
        let sum: i128 = self
            .terms
            .iter()
            .map(|&(a, x)| a * i128::from(value(x)))
            .sum();
        self.relation.holds(sum, self.constant)
    }
}

fn div_floor(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn div_ceil(a: i128, b: i128) -> i128 {
    -div_floor(-a, b)
}

fn clamp_i64(v: i128) -> i64 {
    v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// Narrows `x` so that `a·x ≤ limit`; returns whether a bound moved.
fn at_most(ctx: &mut Context<'_>, a: i128, x: IntView, limit: i128) -> Result<bool, Conflict> {
    // Unit coefficients (most models' sums and differences) skip the 128-bit division,
    // which took a tenth of the time of the Golomb ruler's search.
    match a {
        1 => ctx.set_max(x, clamp_i64(limit)),
        -1 => ctx.set_min(x, clamp_i64(-limit)),
        a if a > 0 => ctx.set_max(x, clamp_i64(div_floor(limit, a))),
        a => ctx.set_min(x, clamp_i64(div_ceil(limit, a))),
    }
}

/// The same relation over the integers with `<` and `>` turned into `≤` and `≥` (the
/// constant moves by one), so that only `=`, `≠`, `≤` and `≥` are left.
fn without_strict(relation: Relation, constant: i128) -> (Relation, i128) {
    match relation {
        Relation::Lt => (Relation::Le, constant - 1),
        Relation::Gt => (Relation::Ge, constant + 1),
        other => (other, constant),
    }
}

/// Enforces `Σ aᵢ·xᵢ != c`: once every term but one is fixed, the value that would make the
/// sum `c` leaves the free one. [`Reified`] uses it too.
///
/// [`Reified`]: crate::propagators::Reified
pub(super) fn not_equal_linear(
    ctx: &mut Context<'_>,
    terms: &[(i128, IntView)],
    c: i128,
) -> PropResult {
    let mut free = None;
    let mut sum = 0i128;
    for &(a, x) in terms {
        if ctx.is_fixed(x) {
            sum += a * i128::from(ctx.min(x));
        } else if free.is_some() {
            return Ok(PropStatus::Fixpoint);
        } else {
            free = Some((a, x));
        }
    }
    match free {
        None if sum == c => Err(Conflict),
        None => Ok(PropStatus::Subsumed),
        Some((a, x)) => {
            let rest = c - sum;
            if rest % a == 0
                && let Ok(v) = i64::try_from(rest / a)
            {
                ctx.remove(x, v)?;
            }
            Ok(PropStatus::Subsumed)
        }
    }
}

impl Propagator for Linear {
    fn setup(&mut self, s: &mut Setup<'_>) {
        if self.set_up_sums(s) {
            return;
        }
        for &(_, x) in &self.terms {
            s.subscribe(x, Event::Bounds);
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        if let Some(sums) = &self.sums {
            return self.propagate_long(ctx, sums);
        }
        let Some((at_most_c, at_least_c)) = self.directions() else {
            return not_equal_linear(ctx, &self.terms, self.constant);
        };
        let c = self.constant;
        loop {
            // Each term's range, read once a round for both directions and the entailment
            // test (a view's bounds cost a store read and a sign test each).
            self.ranges.clear();
            let (mut low, mut high) = (0i128, 0i128);
            for &(a, x) in &self.terms {
                let (min, max) = (i128::from(ctx.min(x)), i128::from(ctx.max(x)));
                let range = if a > 0 {
                    (a * min, a * max)
                } else {
                    (a * max, a * min)
                };
                low += range.0;
                high += range.1;
                self.ranges.push(range);
            }
            if at_most_c && low > c || at_least_c && high < c {
                return Err(Conflict);
            }
            if (!at_most_c || high <= c) && (!at_least_c || low >= c) {
                return Ok(PropStatus::Subsumed);
            }
            // A term may rise `room_up` above its least value and fall `room_down` below its
            // greatest. A term whose range fits in the room has nothing to lose: no division,
            // no store call (most terms of market_split's 0/1 sums, every run).
            let room_up = c - low;
            let room_down = high - c;
            let mut changed = false;
            for (&(a, x), &(lo, hi)) in self.terms.iter().zip(&self.ranges) {
                if at_most_c && hi - lo > room_up {
                    changed |= at_most(ctx, a, x, lo + room_up)?;
                }
                // a·x ≥ hi − room_down, as −a·x ≤ room_down − hi.
                if at_least_c && hi - lo > room_down {
                    changed |= at_most(ctx, -a, x, room_down - hi)?;
                }
            }
            if !changed {
                return Ok(PropStatus::Fixpoint);
            }
        }
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        self.holds(|x| a.value(x))
    }

    fn shape(&self) -> Option<crate::learn::Shape<'_>> {
        let (at_most, at_least) = match self.relation {
            Relation::Le => (true, false),
            Relation::Ge => (false, true),
            Relation::Eq => (true, true),
            _ => return None,
        };
        Some(crate::learn::Shape::Linear {
            terms: &self.terms,
            constant: self.constant,
            at_most,
            at_least,
        })
    }

    fn name(&self) -> &'static str {
        "linear"
    }
}

/// The largest constant a [`UnitSum`] takes: with view values below 2⁴¹ in absolute value,
/// `c` minus the other terms stays far inside `i64`.
const UNIT_SUM_MAX_CONSTANT: i64 = 1 << 60;

/// `x₁ + … + x_N = c` over views, for two or three terms: [`Linear`] with unit coefficients
/// and `=` (sums and differences such as `y - x = d`), specialised. The coefficients are
/// folded into the views (`-x` is the view [`IntView::minus`]), so the bounds reasoning is
/// `i64` arithmetic on a fixed number of terms; it prunes exactly what [`Linear`] prunes.
#[derive(Debug, Clone)]
pub struct UnitSum<const N: usize> {
    views: [IntView; N],
    constant: i64,
}

impl<const N: usize> UnitSum<N> {
    /// `Σ coefficients[i]·views[i] = constant`, when every coefficient is 1 or -1 and the
    /// constant is small enough for `i64` bounds reasoning; `None` otherwise.
    pub fn new(terms: &[(i64, IntView)], constant: i64) -> Option<UnitSum<N>> {
        if terms.len() != N || constant.unsigned_abs() > UNIT_SUM_MAX_CONSTANT as u64 {
            return None;
        }
        let mut views = [terms[0].1; N];
        for (slot, &(a, x)) in views.iter_mut().zip(terms) {
            *slot = match a {
                1 => x,
                -1 => x.minus(),
                _ => return None,
            };
        }
        Some(UnitSum { views, constant })
    }
}

impl<const N: usize> Propagator for UnitSum<N> {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &x in &self.views {
            s.subscribe(x, Event::Bounds);
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let c = self.constant;
        loop {
            let mut low = 0i64;
            let mut high = 0i64;
            let mut mins = [0i64; N];
            let mut maxs = [0i64; N];
            for i in 0..N {
                mins[i] = ctx.min(self.views[i]);
                maxs[i] = ctx.max(self.views[i]);
                low += mins[i];
                high += maxs[i];
            }
            if low > c || high < c {
                return Err(Conflict);
            }
            if low == high {
                // Every view is fixed and the sum is c.
                return Ok(PropStatus::Subsumed);
            }
            let mut changed = false;
            for i in 0..N {
                // x_i ≤ c - Σ_{j≠i} min x_j and x_i ≥ c - Σ_{j≠i} max x_j. Most runs move few
                // bounds: the bounds in hand skip the store calls for those that stay.
                let (new_max, new_min) = (c - (low - mins[i]), c - (high - maxs[i]));
                if new_max < maxs[i] {
                    changed |= ctx.set_max(self.views[i], new_max)?;
                }
                if new_min > mins[i] {
                    changed |= ctx.set_min(self.views[i], new_min)?;
                }
            }
            if !changed {
                return Ok(PropStatus::Fixpoint);
            }
        }
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        self.views.iter().map(|&x| a.value(x)).sum::<i64>() == self.constant
    }

    fn shape(&self) -> Option<crate::learn::Shape<'_>> {
        Some(crate::learn::Shape::UnitSum {
            views: &self.views,
            constant: self.constant,
        })
    }

    fn name(&self) -> &'static str {
        "linear"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_goes_towards_the_feasible_side() {
        assert_eq!(div_floor(7, 2), 3);
        assert_eq!(div_floor(-7, 2), -4);
        assert_eq!(div_floor(7, -2), -4);
        assert_eq!(div_floor(-7, -2), 3);
        assert_eq!(div_ceil(7, 2), 4);
        assert_eq!(div_ceil(-7, 2), -3);
        assert_eq!(div_ceil(7, -2), -3);
        assert_eq!(div_ceil(6, 3), 2);
    }
}
