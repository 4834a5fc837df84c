//! Variables and views.
//!
//! A [`VarId`] is a typed index into the model's dense variable storage; it also remembers which
//! model created it, so that using it in another model is reported instead of silently reading
//! the wrong variable. Serialized, a `VarId` is just its index: what comes back is *unbound*, a
//! position that any copy of the model built the same way may take (see [`VarId`]). An [`IntView`] is a variable seen through `±x + c`: propagators are
//! written once against views, and `x + i` or `-x` cost nothing extra. This is how one
//! `all_different` serves the columns and both diagonals of N-Queens.

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

/// A variable seen through the map `v ↦ ±v + offset`.
///
/// Views compose: `x.offset(3).minus()` is `-(x + 3)`. A propagator that reads `min` of a
/// negated view reads `-max` of the variable, and a removal of value `v` from `x + c` removes
/// `v - c` from `x`; the variable itself never knows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct IntView {
    pub(crate) var: VarId,
    pub(crate) negated: bool,
    pub(crate) offset: i64,
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
            var: self.var,
            negated: !self.negated,
            offset: self.offset.saturating_neg(),
        }
    }

    /// The constant added after the sign: the view is `±x + offset()`.
    pub fn constant(self) -> i64 {
        self.offset
    }

    /// Whether the view negates its variable.
    pub fn is_negated(self) -> bool {
        self.negated
    }

    /// The view's value when its variable takes `var_value`. Exact for every view that a
    /// model accepts (its offset is within ±[`MAX_VIEW_OFFSET`]).
    #[inline]
    pub fn to_view(self, var_value: i32) -> i64 {
        let v = i64::from(var_value);
        if self.negated {
            self.offset - v
        } else {
            v + self.offset
        }
    }

    /// The variable's value that gives the view value `view_value`. The result saturates at
    /// the ends of `i64` instead of wrapping: a variable's values lie within ±2³⁰, so a
    /// saturated result is outside every domain exactly when the true one is, and bounds
    /// such as `set_min(view, i64::MIN)` keep their meaning.
    #[inline]
    pub fn to_var(self, view_value: i64) -> i64 {
        if self.negated {
            self.offset.saturating_sub(view_value)
        } else {
            view_value.saturating_sub(self.offset)
        }
    }
}

impl From<VarId> for IntView {
    fn from(var: VarId) -> IntView {
        IntView {
            var,
            negated: false,
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
    fn a_var_id_serializes_as_its_index_and_comes_back_unbound() {
        let json = serde_json::to_string(&x()).unwrap();
        assert_eq!(json, "7");
        let back: VarId = serde_json::from_str(&json).unwrap();
        assert_eq!(back.index(), 7);
        assert_eq!(back.model, UNBOUND);
        assert_ne!(back, x());
    }
}
