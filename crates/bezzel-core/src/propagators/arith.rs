//! Arithmetic: `y = |x|`, `x·y = z`, truncating `x / y = z` and `x % y = z`, and the minimum
//! of an array (the maximum is the minimum of the negated views).
//!
//! All arithmetic is done in `i128`: a view's value lies within ±2⁴¹ (a variable's value within
//! ±2³⁰ plus an offset within ±2⁴⁰), so every product and quotient here is exact and nothing
//! can wrap. Bounds computed in `i128` are clamped to `i64` before they narrow a view, which
//! keeps their meaning (a view's values are far inside `i64`).

use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::queue::Priority;
use crate::store::Conflict;
use crate::var::IntView;

fn lo(ctx: &Context<'_>, v: IntView) -> i128 {
    i128::from(ctx.min(v))
}

fn hi(ctx: &Context<'_>, v: IntView) -> i128 {
    i128::from(ctx.max(v))
}

fn clamp(v: i128) -> i64 {
    v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// Narrows `v` to `[l, h]`; returns whether it changed.
fn narrow(ctx: &mut Context<'_>, v: IntView, l: i128, h: i128) -> Result<bool, Conflict> {
    Ok(ctx.set_min(v, clamp(l))? | ctx.set_max(v, clamp(h))?)
}

fn div_floor(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn div_ceil(a: i128, b: i128) -> i128 {
    -div_floor(-a, b)
}

/// The parts of `[l, h]` below zero and above zero, each `None` when empty: the pieces on
/// which a quotient is monotone.
fn nonzero_parts(l: i128, h: i128) -> [Option<(i128, i128)>; 2] {
    [
        (l <= -1).then(|| (l, h.min(-1))),
        (h >= 1).then(|| (l.max(1), h)),
    ]
}

/// The hull of several intervals, `None` when there are none.
fn hull(parts: impl IntoIterator<Item = (i128, i128)>) -> Option<(i128, i128)> {
    parts
        .into_iter()
        .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))
}

fn done(ctx: &Context<'_>, views: &[IntView]) -> PropStatus {
    if views.iter().all(|&v| ctx.is_fixed(v)) {
        PropStatus::Subsumed
    } else {
        PropStatus::Fixpoint
    }
}

/// `y = |x|`, domain consistent: `y` keeps the values `|v|` of the values `v` of `x`, and `x`
/// keeps the values whose absolute value `y` has. Each run costs `O(|D(x)| + |D(y)|)`.
#[derive(Debug, Clone, Copy)]
pub struct Abs {
    x: IntView,
    y: IntView,
}

impl Abs {
    /// The propagator for `y = |x|`.
    pub fn new(x: IntView, y: IntView) -> Abs {
        Abs { x, y }
    }
}

impl Propagator for Abs {
    fn setup(&mut self, s: &mut Setup<'_>) {
        s.subscribe(self.x, Event::Domain);
        s.subscribe(self.y, Event::Domain);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let (x, y) = (self.x, self.y);
        // Repeats because `x` and `y` may be views of one variable.
        loop {
            let mut changed = ctx.set_min(y, 0)?;
            // Bounds first, so that a wide domain is cut before its values are listed.
            let m = ctx.max(x).max(-ctx.min(x));
            changed |= ctx.set_max(y, m)?;
            let m = ctx.max(y);
            changed |= ctx.set_min(x, -m)? | ctx.set_max(x, m)?;
            for v in ctx.values(y) {
                if !ctx.contains(x, v) && !ctx.contains(x, -v) {
                    changed |= ctx.remove(y, v)?;
                }
            }
            for v in ctx.values(x) {
                if !ctx.contains(y, v.abs()) {
                    changed |= ctx.remove(x, v)?;
                }
            }
            if !changed {
                break;
            }
        }
        Ok(done(ctx, &[x, y]))
    }

    fn priority(&self) -> Priority {
        Priority::Binary
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        a.value(self.y) == a.value(self.x).abs()
    }

    fn name(&self) -> &'static str {
        "abs"
    }
}

/// `x·y = z`, bounds reasoning: `z` within the products of the bounds of `x` and `y`; `x`
/// within the quotients of the bounds of `z` by those of `y` without zero, rounded inwards
/// (and `y` likewise); zero leaves `x` and `y` when `z` cannot be zero. Constant time a run.
#[derive(Debug, Clone, Copy)]
pub struct Times {
    x: IntView,
    y: IntView,
    z: IntView,
}

impl Times {
    /// The propagator for `x·y = z`.
    pub fn new(x: IntView, y: IntView, z: IntView) -> Times {
        Times { x, y, z }
    }
}

/// The integers `x` with `x·y = z` for some `y` in `[yl, yh]` and `z` in `[zl, zh]`, as an
/// interval hull; `None` when every `x` may do (`y` and `z` can both be zero). An empty
/// result is an interval with its ends crossed.
fn quotient_hull(zl: i128, zh: i128, yl: i128, yh: i128) -> Option<(i128, i128)> {
    if yl <= 0 && 0 <= yh && zl <= 0 && 0 <= zh {
        return None;
    }
    // On a part of `y` without zero, `z / y` is monotone in each argument, so its extremes
    // are at the corners; rounding each corner inwards and then taking the extremes equals
    // rounding the extremes, since rounding is monotone.
    let parts = nonzero_parts(yl, yh).into_iter().flatten().map(|(a, b)| {
        let corners = [(zl, a), (zl, b), (zh, a), (zh, b)];
        let l = corners.iter().map(|&(z, y)| div_ceil(z, y)).min();
        let h = corners.iter().map(|&(z, y)| div_floor(z, y)).max();
        (l.expect("four corners"), h.expect("four corners"))
    });
    // No part: `y` is zero, and `z` cannot be, so nothing works.
    Some(hull(parts).unwrap_or((1, 0)))
}

impl Propagator for Times {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for v in [self.x, self.y, self.z] {
            s.subscribe(v, Event::Bounds);
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let (x, y, z) = (self.x, self.y, self.z);
        loop {
            let (xl, xh, yl, yh) = (lo(ctx, x), hi(ctx, x), lo(ctx, y), hi(ctx, y));
            let products = [xl * yl, xl * yh, xh * yl, xh * yh];
            let zl = *products.iter().min().expect("four");
            let zh = *products.iter().max().expect("four");
            let mut changed = narrow(ctx, z, zl, zh)?;
            if !ctx.contains(z, 0) {
                changed |= ctx.remove(x, 0)? | ctx.remove(y, 0)?;
            }
            for (a, b) in [(x, y), (y, x)] {
                let (zl, zh) = (lo(ctx, z), hi(ctx, z));
                if let Some((l, h)) = quotient_hull(zl, zh, lo(ctx, b), hi(ctx, b)) {
                    if l > h {
                        return Err(Conflict);
                    }
                    changed |= narrow(ctx, a, l, h)?;
                }
            }
            if !changed {
                break;
            }
        }
        Ok(done(ctx, &[x, y, z]))
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        i128::from(a.value(self.x)) * i128::from(a.value(self.y)) == i128::from(a.value(self.z))
    }

    fn name(&self) -> &'static str {
        "times"
    }
}

/// `z = x / y` rounded towards zero (Rust's `/`), `y ≠ 0`, bounds reasoning: `z` within the
/// quotients of the corners of `x` and `y` split at zero (exact for fixed `x` and `y`), `x`
/// within the widest range whose quotient by some `y` lies in `z`, and `|y|` between
/// `min|x| / (max|z| + 1)` and `max|x| / min|z|`, with the sign of `y` when those of `x` and
/// `z` decide it. Constant time a run.
#[derive(Debug, Clone, Copy)]
pub struct Div {
    x: IntView,
    y: IntView,
    z: IntView,
}

impl Div {
    /// The propagator for `z = x / y` (truncating).
    pub fn new(x: IntView, y: IntView, z: IntView) -> Div {
        Div { x, y, z }
    }
}

/// The smallest and largest absolute values in `[l, h]`.
fn abs_range(l: i128, h: i128) -> (i128, i128) {
    if l >= 0 {
        (l, h)
    } else if h <= 0 {
        (-h, -l)
    } else {
        (0, h.max(-l))
    }
}

/// For `y > 0`: the `x` whose truncated quotient by `y` lies in `[ql, qh]` form the interval
/// `[low(ql, y), high(qh, y)]`, since the `x` of consecutive quotients are adjacent.
fn x_low(q: i128, y: i128) -> i128 {
    if q > 0 { q * y } else { (q - 1) * y + 1 }
}

fn x_high(q: i128, y: i128) -> i128 {
    if q < 0 { q * y } else { (q + 1) * y - 1 }
}

impl Propagator for Div {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for v in [self.x, self.y, self.z] {
            s.subscribe(v, Event::Bounds);
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let (x, y, z) = (self.x, self.y, self.z);
        loop {
            let mut changed = ctx.remove(y, 0)?;
            let (xl, xh, yl, yh) = (lo(ctx, x), hi(ctx, x), lo(ctx, y), hi(ctx, y));
            // z: on each sub-box with `x` of one sign and `y` of one sign, `x / y` is
            // monotone in each argument, so its extremes are at the corners.
            let x_parts = [
                (xl <= -1).then(|| (xl, xh.min(-1))),
                (xh >= 0).then(|| (xl.max(0), xh)),
            ];
            // Folded without a vector, so that a run allocates nothing.
            let mut quotients: Option<(i128, i128)> = None;
            for (a, b) in x_parts.into_iter().flatten() {
                for (c, d) in nonzero_parts(yl, yh).into_iter().flatten() {
                    for (p, q) in [(a, c), (a, d), (b, c), (b, d)] {
                        quotients = hull(quotients.into_iter().chain([(p / q, p / q)]));
                    }
                }
            }
            let Some((zl, zh)) = quotients else {
                return Err(Conflict);
            };
            changed |= narrow(ctx, z, zl, zh)?;
            // x: for `y > 0` the range is `[x_low(zl, y), x_high(zh, y)]`, linear in `y`,
            // so its extremes are at the ends of the part; `y < 0` is `-x / -y`.
            let (zl, zh) = (lo(ctx, z), hi(ctx, z));
            let ranges = nonzero_parts(yl, yh)
                .into_iter()
                .flatten()
                .flat_map(|(c, d)| [c, d])
                .map(|w| {
                    if w > 0 {
                        (x_low(zl, w), x_high(zh, w))
                    } else {
                        (-x_high(zh, -w), -x_low(zl, -w))
                    }
                });
            if let Some((l, h)) = hull(ranges) {
                changed |= narrow(ctx, x, l, h)?;
            }
            // y: |x| = |y|·|z| + r with 0 <= r < |y|.
            let (xl, xh) = (lo(ctx, x), hi(ctx, x));
            let (ax_lo, ax_hi) = abs_range(xl, xh);
            let (az_lo, az_hi) = abs_range(zl, zh);
            let mut ay_hi = hi(ctx, y).max(-lo(ctx, y));
            if az_lo > 0 {
                ay_hi = ay_hi.min(ax_hi / az_lo);
            }
            let ay_lo = ax_lo / (az_hi + 1) + 1;
            changed |= narrow(ctx, y, -ay_hi, ay_hi)?;
            if ctx.min(y) > -clamp(ay_lo) {
                changed |= ctx.set_min(y, clamp(ay_lo))?;
            }
            if ctx.max(y) < clamp(ay_lo) {
                changed |= ctx.set_max(y, -clamp(ay_lo))?;
            }
            // The sign of y, when z is not zero: that of x times that of z.
            let x_sign = if xl >= 0 {
                1
            } else if xh <= 0 {
                -1
            } else {
                0
            };
            let z_sign = if zl > 0 {
                1
            } else if zh < 0 {
                -1
            } else {
                0
            };
            match x_sign * z_sign {
                1 => changed |= ctx.set_min(y, 1)?,
                -1 => changed |= ctx.set_max(y, -1)?,
                _ => {}
            }
            if !changed {
                break;
            }
        }
        Ok(done(ctx, &[x, y, z]))
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        let y = a.value(self.y);
        y != 0 && a.value(self.x) / y == a.value(self.z)
    }

    fn name(&self) -> &'static str {
        "div"
    }
}

/// `z = x % y`, the remainder of the truncating division (Rust's `%`: it has the sign of `x`),
/// `y ≠ 0`, bounds reasoning: `z` between `0` (or `max(min x, 1 - max|y|)` for negative `x`)
/// and `min(max x, max|y| - 1)` (or `0`), `x` on the side of zero that `z` is on and at least
/// as far from zero, `|y| > min|z|`, and `z = x` once `max|x| < min|y|`. Exact once `x` and `y`
/// are fixed. Constant time a run.
#[derive(Debug, Clone, Copy)]
pub struct Mod {
    x: IntView,
    y: IntView,
    z: IntView,
}

impl Mod {
    /// The propagator for `z = x % y`.
    pub fn new(x: IntView, y: IntView, z: IntView) -> Mod {
        Mod { x, y, z }
    }
}

impl Propagator for Mod {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for v in [self.x, self.y, self.z] {
            s.subscribe(v, Event::Bounds);
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let (x, y, z) = (self.x, self.y, self.z);
        loop {
            let mut changed = ctx.remove(y, 0)?;
            let (xl, xh, yl, yh) = (lo(ctx, x), hi(ctx, x), lo(ctx, y), hi(ctx, y));
            if ctx.is_fixed(x) && ctx.is_fixed(y) {
                changed |= ctx.assign(z, clamp(xl % yl))?;
            }
            let (ay_lo, ay_hi) = abs_range(yl, yh);
            let ay_lo = ay_lo.max(1);
            // z from x and y.
            let parts = [
                (xl <= -1).then(|| (xl.max(1 - ay_hi), 0)),
                (xh >= 0).then(|| (0, xh.min(ay_hi - 1))),
            ];
            let (l, h) = hull(parts.into_iter().flatten()).expect("x has a value");
            changed |= narrow(ctx, z, l, h)?;
            let (zl, zh) = (lo(ctx, z), hi(ctx, z));
            // x from z: a positive remainder needs x >= z, a negative one x <= z.
            if zl > 0 {
                changed |= ctx.set_min(x, clamp(zl))?;
            }
            if zh < 0 {
                changed |= ctx.set_max(x, clamp(zh))?;
            }
            // y from z: |y| > |z|.
            let (az_lo, _) = abs_range(zl, zh);
            if ctx.min(y) > -clamp(az_lo + 1) {
                changed |= ctx.set_min(y, clamp(az_lo + 1))?;
            }
            if ctx.max(y) < clamp(az_lo + 1) {
                changed |= ctx.set_max(y, -clamp(az_lo + 1))?;
            }
            // Every |x| below every |y|: the remainder is x itself.
            let (_, ax_hi) = abs_range(lo(ctx, x), hi(ctx, x));
            if ax_hi < ay_lo {
                let (l, h) = (lo(ctx, x).max(lo(ctx, z)), hi(ctx, x).min(hi(ctx, z)));
                changed |= narrow(ctx, x, l, h)? | narrow(ctx, z, l, h)?;
            }
            if !changed {
                break;
            }
        }
        Ok(done(ctx, &[x, y, z]))
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        let y = a.value(self.y);
        y != 0 && a.value(self.x) % y == a.value(self.z)
    }

    fn name(&self) -> &'static str {
        "modulo"
    }
}

/// `m = min(xs)`, bounds consistent: `m` between the smallest minimum and the smallest
/// maximum of the `xs`, every `x` at least `min m`, and the only `x` that can be as small as
/// `max m`, if there is one, at most `max m`. Linear time a run.
#[derive(Debug, Clone)]
pub struct MinArray {
    xs: Vec<IntView>,
    m: IntView,
}

impl MinArray {
    /// The propagator for `m = min(xs)`; `xs` must not be empty (see
    /// [`Model::min`](crate::Model::min), which checks it).
    pub fn new(xs: Vec<IntView>, m: IntView) -> MinArray {
        MinArray { xs, m }
    }
}

impl Propagator for MinArray {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &x in &self.xs {
            s.subscribe(x, Event::Bounds);
        }
        s.subscribe(self.m, Event::Bounds);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let m = self.m;
        loop {
            let low = self.xs.iter().map(|&x| ctx.min(x)).min().ok_or(Conflict)?;
            let high = self.xs.iter().map(|&x| ctx.max(x)).min().ok_or(Conflict)?;
            let mut changed = ctx.set_min(m, low)? | ctx.set_max(m, high)?;
            let (ml, mh) = (ctx.min(m), ctx.max(m));
            let mut candidates = 0;
            let mut last = None;
            for &x in &self.xs {
                changed |= ctx.set_min(x, ml)?;
                if ctx.min(x) <= mh {
                    candidates += 1;
                    last = Some(x);
                }
            }
            match (candidates, last) {
                (0, _) => return Err(Conflict),
                (1, Some(x)) => changed |= ctx.set_max(x, mh)?,
                _ => {}
            }
            if !changed {
                break;
            }
        }
        Ok(PropStatus::subsumed_if(
            ctx.is_fixed(m) && self.xs.iter().all(|&x| ctx.is_fixed(x)),
        ))
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        self.xs.iter().map(|&x| a.value(x)).min() == Some(a.value(self.m))
    }

    fn name(&self) -> &'static str {
        "min"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotients_round_inwards() {
        // x·[2, 3] in [5, 7]: x = 2 or 3 (2·3, 3·2), x in [ceil(5/3), floor(7/2)] = [2, 3].
        assert_eq!(quotient_hull(5, 7, 2, 3), Some((2, 3)));
        // x·[-3, 2] in [4, 4]: y in {-3..-1, 1, 2}, x in [-4, 4].
        assert_eq!(quotient_hull(4, 4, -3, 2), Some((-4, 4)));
        assert_eq!(quotient_hull(0, 4, -3, 2), None);
        let (l, h) = quotient_hull(1, 1, 0, 0).unwrap();
        assert!(l > h);
    }

    #[test]
    fn truncated_quotient_ranges() {
        // Quotient 2 by 3: x in 6..=8; quotient -2 by 3: x in -8..=-6; 0 by 3: -2..=2.
        assert_eq!((x_low(2, 3), x_high(2, 3)), (6, 8));
        assert_eq!((x_low(-2, 3), x_high(-2, 3)), (-8, -6));
        assert_eq!((x_low(0, 3), x_high(0, 3)), (-2, 2));
    }
}

#[cfg(test)]
mod public_api {
    /// Like the check in `propagators/mod.rs`, for the files of this family: they use only the
    /// public propagator API. The forbidden words are split so that this file does not contain
    /// them itself.
    #[test]
    fn arithmetic_indexing_and_counting_use_only_the_public_propagator_api() {
        let sources = [
            ("arith.rs", include_str!("arith.rs")),
            ("element.rs", include_str!("element.rs")),
            ("counting.rs", include_str!("counting.rs")),
        ];
        let forbidden = [
            ["ctx.", "store"],
            ["ctx.", "queue"],
            ["s.", "store"],
            ["store::", "Store"],
            ["queue::", "Queue"],
            [".", "negated"],
            [".var", ".index"],
            ["pub", "(crate)"],
            ["ctx.advice", " "],
            ["ctx.stage", " "],
            ["ctx.requeue", " ="],
        ];
        for (file, text) in sources {
            for f in forbidden {
                let f = f.concat();
                assert!(!text.contains(&f), "{file} uses `{f}`");
            }
        }
    }
}
