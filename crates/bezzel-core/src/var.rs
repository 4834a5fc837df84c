//! Variables and views.
//!
//! A [`VarId`] is a typed index into the model's dense variable storage; it also remembers which
//! model created it, so that using it in another model is reported instead of silently reading
//! the wrong variable. Serialized, a `VarId` is just its index: what comes back is *unbound*, a
//! position that any copy of the model built the same way may take (see [`VarId`]).
//!
//! An [`IntView`] is a variable seen through `a·x + c`: propagators are written once against
//! views, and `x + i`, `-x` or `3·x + 1` cost no variable and no propagator. This is how one
//! `all_different` serves the columns and both diagonals of N-Queens. A scale `|a| > 1`
//! leaves holes (`3·x` takes every third value), which the view's reads and writes round
//! over, as Gecode's `ScaleView` does: its least value rounds up to a multiple, its greatest
//! down, and a value that is not `a·x + c` for any `x` is simply not in it. Unscaled views
//! (`a = ±1`), which the puzzles' hot paths run on, pay one multiplication per read and a
//! branch per write for the scale.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The model number of a [`VarId`] that belongs to no model (read back from its serialized
/// form); no model is given this number.
pub(crate) const UNBOUND: u32 = u32::MAX;

/// The largest offset, in absolute value, of a view that constraints accept: every value of
/// such a view, `±x + c` with `x` within ±[`MAX_VALUE`](crate::MAX_VALUE), fits an `i32`, the
/// one integer type of the public API (so a solution's view values, an objective's value and
/// the values a [`check`](crate::Model::check) reads are `i32` as well). A view beyond it is
/// refused with a [`ModelError`](crate::ModelError) when it is posted.
pub const MAX_VIEW_OFFSET: i32 = i32::MAX - crate::domain::MAX_VALUE;

/// What [`IntView::to_var`] gives for a value that the view cannot take at any value of its
/// variable (a value between two multiples of a scaled view): outside every domain, as the
/// saturated results are, so that reading it finds nothing and fixing the view to it fails.
const NOT_A_VALUE: i64 = i64::MAX;

/// Identifies an integer variable of one [`Model`](crate::Model).
///
/// It serializes as its index alone (`3`), which is how [`Decision`](crate::Decision)s are
/// written in subproblems and checkpoints. A `VarId` read back is *unbound*: it names the
/// variable of that index in whichever model it is used with, where the solver accepts it for
/// a decision prefix (such as [`Solver::count_in`](crate::Solver::count_in)) if the index is in
/// range; a model's own operations ([`Model::domain`](crate::Model::domain), posting, ...)
/// accept only its own variables. Equality compares the model too, so an unbound `VarId`
/// differs from the bound one of the same index.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId {
    pub(crate) model: u32,
    pub(crate) index: u32,
}

impl VarId {
    /// Position of the variable in its model, in creation order (0-based).
    pub fn index(self) -> usize {
        self.index as usize
    }

    /// The view `self + c`.
    pub fn offset(self, c: i32) -> IntView {
        IntView::from(self).offset(c)
    }

    /// The view `-self`.
    pub fn minus(self) -> IntView {
        IntView::from(self).minus()
    }

    /// The view `k·self` (see [`IntView::scale`]).
    pub fn scale(self, k: i32) -> IntView {
        IntView::from(self).scale(k)
    }
}

impl Serialize for VarId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u32(self.index)
    }
}

impl<'de> Deserialize<'de> for VarId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<VarId, D::Error> {
        let index = u32::deserialize(deserializer)?;
        Ok(VarId {
            model: UNBOUND,
            index,
        })
    }
}

impl fmt::Debug for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.index)
    }
}

/// A variable seen through the map `v ↦ ±s·v + offset`, for a scale `s ≥ 1`.
///
/// Views compose: `x.offset(3).minus()` is `-(x + 3)`, `x.scale(3).offset(1)` is `3·x + 1`.
/// A propagator that reads `min` of a negated view reads `-max` of the variable, and a
/// removal of value `v` from `x + c` removes `v - c` from `x`; the variable itself never
/// knows. A scaled view `3·x` takes only multiples of 3: its bounds round to them (raising
/// its least value to 4 raises `x` to 2), and removing a value it cannot take changes
/// nothing.
///
/// ```
/// use bezzel_core::prelude::*;
/// let mut m = Model::new();
/// let x = m.named_var("x", 0..=9)?;
/// let y = m.named_var("y", 0..=9)?;
/// // 3x + 1 and 2y are different, with no variable for either.
/// m.all_different(&[x.scale(3).offset(1), y.scale(2)])?;
/// m.post(x.eq(y))?;
/// m.post(x.le(2))?;
/// assert_eq!(m.num_vars(), 2);
/// // 3x + 1 = 2y at x = y = -1 only, outside the domains: every x = y in 0..=2 is a solution.
/// assert_eq!(Solver::new(m).count(), 3);
/// # Ok::<(), ModelError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct IntView {
    pub(crate) var: VarId,
    pub(crate) negated: bool,
    /// `s ≥ 1`; 0 only in a view that [`scale`](IntView::scale) made with factor 0, which
    /// no model accepts. Absent in views serialized before scales were there: 1.
    #[serde(default = "unit_scale")]
    pub(crate) scale: u32,
    pub(crate) offset: i64,
}

fn unit_scale() -> u32 {
    1
}

impl IntView {
    /// The variable underneath the view.
    pub fn var(self) -> VarId {
        self.var
    }

    /// The view `self + c`.
    ///
    /// Offsets add up in an `i64` and saturate rather than wrap; a view whose offset leaves
    /// ±[`MAX_VIEW_OFFSET`] is refused when it is posted.
    pub fn offset(self, c: i32) -> IntView {
        IntView {
            offset: self.offset.saturating_add(i64::from(c)),
            ..self
        }
    }

    /// The view `-self`.
    pub fn minus(self) -> IntView {
        IntView {
            negated: !self.negated,
            offset: self.offset.saturating_neg(),
            ..self
        }
    }

    /// The view `k·self`: `x.scale(3)` is `3·x`, `x.scale(-2).offset(1)` is `-2·x + 1`.
    ///
    /// A scaled view stands where a variable would otherwise be introduced for `k·x + c`
    /// (in an all-different, as an element's index, as an operand of a product, ...); the
    /// expressions use one wherever they need `k·x + c` as a view (see
    /// [`expr`](crate::expr)). Scale and offset multiply in saturating arithmetic; a view
    /// whose values leave `i32` over its variable's declared domain, or scaled by 0 (a
    /// constant, not a view), is refused when it is posted.
    pub fn scale(self, k: i32) -> IntView {
        let s = u64::from(self.scale).saturating_mul(u64::from(k.unsigned_abs()));
        IntView {
            var: self.var,
            negated: self.negated != (k < 0),
            scale: u32::try_from(s).unwrap_or(u32::MAX),
            offset: self.offset.saturating_mul(i64::from(k)),
        }
    }

    /// The constant added after the factor: the view is `factor()·x + constant()`.
    pub fn constant(self) -> i64 {
        self.offset
    }

    /// Whether the view negates its variable (its [`factor`](IntView::factor) is negative).
    pub fn is_negated(self) -> bool {
        self.negated
    }

    /// The factor `a` of the view `a·x + c`: ±1 for a variable, an offset or a negation.
    pub fn factor(self) -> i64 {
        let s = i64::from(self.scale);
        if self.negated { -s } else { s }
    }

    /// Whether the view is `±x + c`, with no scale: every value between its bounds may be
    /// one of its values, as for a variable.
    #[inline]
    pub fn is_unit(self) -> bool {
        self.scale == 1
    }

    /// The view's value when its variable takes `var_value`. Exact for every view that a
    /// model accepts (its values over the declared domain fit an `i32`), and without
    /// overflow for any: `|s·v|` stays below 2⁶³.
    #[inline]
    pub fn to_view(self, var_value: i32) -> i64 {
        // One multiplication rather than a branch on the scale: the cheaper of the two on
        // the puzzles' hot paths, whose views are all unscaled.
        let v = i64::from(var_value) * i64::from(self.scale);
        if self.negated {
            self.offset - v
        } else {
            v + self.offset
        }
    }

    /// `±(view_value - offset)`: the variable's value times the scale.
    #[inline]
    fn unscaled(self, view_value: i64) -> i64 {
        if self.negated {
            self.offset.saturating_sub(view_value)
        } else {
            view_value.saturating_sub(self.offset)
        }
    }

    /// The variable's value that gives the view value `view_value`. The result saturates at
    /// the ends of `i64` instead of wrapping: a variable's values lie within ±2³⁰, so a
    /// saturated result is outside every domain exactly when the true one is, and bounds
    /// such as `set_min(view, i64::MIN)` keep their meaning. A value that a scaled view
    /// takes at no value of its variable (`5` for `3·x`) gives `i64::MAX`, outside every
    /// domain too.
    #[inline]
    pub fn to_var(self, view_value: i64) -> i64 {
        let u = self.unscaled(view_value);
        if self.scale == 1 {
            return u;
        }
        let s = i64::from(self.scale.max(1));
        if u % s == 0 { u / s } else { NOT_A_VALUE }
    }

    /// `unscaled / s`, rounded up or down where it is not exact.
    #[inline]
    fn unscaled_over_scale(self, view_value: i64, up: bool) -> i64 {
        let u = self.unscaled(view_value);
        if self.scale == 1 {
            return u;
        }
        let s = i64::from(self.scale.max(1));
        let (q, r) = (u / s, u % s);
        match (up, r) {
            (true, r) if r > 0 => q + 1,
            (false, r) if r < 0 => q - 1,
            _ => q,
        }
    }

    /// The least variable value whose view value is at least `view_value` (for an unnegated
    /// view) or at most it (for a negated one): `⌈unscaled / s⌉`.
    #[inline]
    pub(crate) fn to_var_ceil(self, view_value: i64) -> i64 {
        self.unscaled_over_scale(view_value, true)
    }

    /// The greatest variable value whose view value is at most `view_value` (unnegated) or
    /// at least it (negated): `⌊unscaled / s⌋`.
    #[inline]
    pub(crate) fn to_var_floor(self, view_value: i64) -> i64 {
        self.unscaled_over_scale(view_value, false)
    }

    /// What `view >= w` (when `at_least`) or `view <= w` is on the variable: `(b, true)`
    /// for `x >= b`, `(b, false)` for `x <= b`, rounded over a scaled view's holes.
    #[inline]
    pub(crate) fn var_bound(self, w: i64, at_least: bool) -> (i64, bool) {
        // A negated view turns a lower bound on it into an upper one on its variable.
        let lower = at_least != self.negated;
        let b = if lower {
            self.to_var_ceil(w)
        } else {
            self.to_var_floor(w)
        };
        (b, lower)
    }
}

impl From<VarId> for IntView {
    fn from(var: VarId) -> IntView {
        IntView {
            var,
            negated: false,
            scale: 1,
            offset: 0,
        }
    }
}

impl From<&VarId> for IntView {
    fn from(var: &VarId) -> IntView {
        IntView::from(*var)
    }
}

impl fmt::Debug for IntView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.negated { "-" } else { "" };
        let sign = match self.scale {
            1 => sign.to_string(),
            s => format!("{sign}{s}*"),
        };
        match self.offset {
            0 => write!(f, "{sign}{:?}", self.var),
            c if c > 0 => write!(f, "{sign}{:?} + {c}", self.var),
            c => write!(f, "{sign}{:?} - {}", self.var, -c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x() -> VarId {
        VarId { model: 0, index: 7 }
    }

    #[test]
    fn views_compose_as_affine_maps() {
        let v = x().offset(3).minus().offset(-1); // -(x + 3) - 1 = -x - 4
        for val in -5..5 {
            assert_eq!(v.to_view(val), -i64::from(val) - 4);
            assert_eq!(v.to_var(v.to_view(val)), i64::from(val));
        }
        assert_eq!(format!("{v:?}"), "-x7 - 4");
        assert_eq!(format!("{:?}", x().offset(2)), "x7 + 2");
        assert_eq!(x().minus().minus(), IntView::from(x()));
    }

    #[test]
    fn scaled_views_round_their_bounds_over_the_holes() {
        let views = [
            x().scale(3).offset(1),           // 3x + 1
            x().scale(-3).offset(2),          // -3x + 2
            x().offset(-1).scale(2).minus(),  // -(2x - 2)
            x().scale(4).scale(-1).offset(0), // -4x
        ];
        for v in views {
            let a = v.factor();
            let at = |val: i64| a * val + v.constant();
            for val in -6..6 {
                assert_eq!(v.to_view(val as i32), at(val), "{v:?}");
                assert_eq!(v.to_var(at(val)), val, "{v:?}");
            }
            for w in -40..40 {
                // By enumeration: which variable values give view values >= w and <= w.
                let ge: Vec<i64> = (-30..30).filter(|&val| at(val) >= w).collect();
                let le: Vec<i64> = (-30..30).filter(|&val| at(val) <= w).collect();
                let (b, is_min) = v.var_bound(w, true);
                let expected = if is_min { ge[0] } else { *ge.last().unwrap() };
                assert_eq!(b, expected, "{v:?} >= {w}");
                let (b, is_min) = v.var_bound(w, false);
                let expected = if is_min { le[0] } else { *le.last().unwrap() };
                assert_eq!(b, expected, "{v:?} <= {w}");
                let exact = (-30..30).find(|&val| at(val) == w);
                assert_eq!(v.to_var(w), exact.unwrap_or(i64::MAX), "{v:?} = {w}");
            }
        }
        assert_eq!(format!("{:?}", x().scale(3).offset(1)), "3*x7 + 1");
        assert_eq!(format!("{:?}", x().scale(-2)), "-2*x7");
        assert_eq!(x().scale(2).scale(3), x().scale(6));
        assert_eq!(x().scale(1), IntView::from(x()));
    }

    #[test]
    fn a_var_id_serializes_as_its_index_and_comes_back_unbound() {
        let json = serde_json::to_string(&x()).unwrap();
        assert_eq!(json, "7");
        let back: VarId = serde_json::from_str(&json).unwrap();
        assert_eq!(back.index(), 7);
        assert_eq!(back.model, UNBOUND);
        assert_ne!(back, x());
    }
}
