//! Predicates: atomic facts about one variable, `[x ≥ v]`, `[x ≤ v]`, `[x = v]`, `[x ≠ v]`.
//!
//! Everything learning handles is made of them: the log records each domain change as the
//! predicates it made true, explanations name predicates, and a nogood is a set of predicates
//! that cannot all hold. Values are `i64`, so that negating a bound at the edge of the `i32`
//! range (`[x ≥ v]` is `¬[x ≤ v - 1]`) never overflows; they become `i32` only where a
//! predicate is written to a domain, clamped, which changes nothing as every domain lies well
//! inside `i32`.

use crate::search::Decision;
use crate::store::Store;
use crate::var::{IntView, UNBOUND, VarId};
use std::fmt;

/// Which relation a [`Predicate`] states between its variable and its value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Kind {
    /// `x ≥ v`
    Ge,
    /// `x ≤ v`
    Le,
    /// `x = v`
    Eq,
    /// `x ≠ v`
    Ne,
}

/// An atomic fact about variable `var` (by index).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Predicate {
    pub(crate) var: u32,
    pub(crate) kind: Kind,
    pub(crate) value: i64,
}

impl fmt::Debug for Predicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = match self.kind {
            Kind::Ge => ">=",
            Kind::Le => "<=",
            Kind::Eq => "=",
            Kind::Ne => "!=",
        };
        write!(f, "[x{} {op} {}]", self.var, self.value)
    }
}

impl Predicate {
    pub(crate) fn new(var: u32, kind: Kind, value: i64) -> Predicate {
        Predicate { var, kind, value }
    }

    pub(crate) fn ge(var: u32, value: i64) -> Predicate {
        Predicate::new(var, Kind::Ge, value)
    }

    pub(crate) fn le(var: u32, value: i64) -> Predicate {
        Predicate::new(var, Kind::Le, value)
    }

    pub(crate) fn eq(var: u32, value: i64) -> Predicate {
        Predicate::new(var, Kind::Eq, value)
    }

    pub(crate) fn ne(var: u32, value: i64) -> Predicate {
        Predicate::new(var, Kind::Ne, value)
    }

    /// The predicate that holds exactly where this one does not.
    pub(crate) fn negate(self) -> Predicate {
        let (kind, value) = match self.kind {
            Kind::Ge => (Kind::Le, self.value.saturating_sub(1)),
            Kind::Le => (Kind::Ge, self.value.saturating_add(1)),
            Kind::Eq => (Kind::Ne, self.value),
            Kind::Ne => (Kind::Eq, self.value),
        };
        Predicate {
            kind,
            value,
            ..self
        }
    }

    /// Whether the predicate holds when its variable takes `value`.
    pub(crate) fn holds_for(self, value: i64) -> bool {
        match self.kind {
            Kind::Ge => value >= self.value,
            Kind::Le => value <= self.value,
            Kind::Eq => value == self.value,
            Kind::Ne => value != self.value,
        }
    }

    /// Whether it holds for every value left in the store.
    pub(crate) fn is_true(self, store: &Store) -> bool {
        let (x, v) = (self.var, self.value);
        match self.kind {
            Kind::Ge => i64::from(store.min(x)) >= v,
            Kind::Le => i64::from(store.max(x)) <= v,
            Kind::Eq => store.size(x) == 1 && i64::from(store.min(x)) == v,
            Kind::Ne => !store.contains(x, v),
        }
    }

    /// Whether it holds for no value left in the store.
    pub(crate) fn is_false(self, store: &Store) -> bool {
        self.negate().is_true(store)
    }

    /// The predicate as a decision that makes it true, to write it to the store.
    pub(crate) fn as_decision(self) -> Decision {
        let x = VarId {
            model: UNBOUND,
            index: self.var,
        };
        let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        match self.kind {
            Kind::Ge => Decision::Above(x, clamp(self.value.saturating_sub(1))),
            Kind::Le => Decision::AtMost(x, clamp(self.value)),
            Kind::Eq => Decision::Assign(x, clamp(self.value)),
            Kind::Ne => Decision::Exclude(x, clamp(self.value)),
        }
    }

    /// The predicate a decision makes true.
    pub(crate) fn of_decision(decision: Decision) -> Predicate {
        let x = decision.var().index;
        match decision {
            Decision::Assign(_, v) => Predicate::eq(x, v.into()),
            Decision::Exclude(_, v) => Predicate::ne(x, v.into()),
            Decision::AtMost(_, v) => Predicate::le(x, v.into()),
            Decision::Above(_, v) => Predicate::ge(x, i64::from(v) + 1),
        }
    }

    /// `view ≥ bound` as a predicate on the view's variable.
    pub(crate) fn view_ge(view: IntView, bound: i64) -> Predicate {
        let x = view.var.index;
        match view.var_bound(bound, true) {
            (b, true) => Predicate::ge(x, b),
            (b, false) => Predicate::le(x, b),
        }
    }

    /// `view ≤ bound` as a predicate on the view's variable.
    pub(crate) fn view_le(view: IntView, bound: i64) -> Predicate {
        Predicate::view_ge(view, bound.saturating_add(1)).negate()
    }

    /// `view = value` as a predicate on the view's variable.
    pub(crate) fn view_eq(view: IntView, value: i64) -> Predicate {
        Predicate::eq(view.var.index, view.to_var(value))
    }

    /// `view ≠ value` as a predicate on the view's variable.
    pub(crate) fn view_ne(view: IntView, value: i64) -> Predicate {
        Predicate::view_eq(view, value).negate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_holds_exactly_where_the_predicate_does_not() {
        for kind in [Kind::Ge, Kind::Le, Kind::Eq, Kind::Ne] {
            let p = Predicate {
                var: 0,
                kind,
                value: 2,
            };
            for v in -2..6 {
                assert_ne!(p.holds_for(v), p.negate().holds_for(v), "{p:?} at {v}");
            }
            assert_eq!(p.negate().negate(), p);
        }
    }

    #[test]
    fn view_predicates_mean_what_the_view_says() {
        let x = VarId { model: 0, index: 0 };
        let views = [
            IntView::from(x),
            x.offset(3),
            x.minus(),
            x.minus().offset(-2),
        ];
        for view in views {
            for bound in -6..6 {
                for value in -4..5i32 {
                    let w = view.to_view(value);
                    assert_eq!(
                        Predicate::view_ge(view, bound).holds_for(value.into()),
                        w >= bound
                    );
                    assert_eq!(
                        Predicate::view_le(view, bound).holds_for(value.into()),
                        w <= bound
                    );
                    assert_eq!(
                        Predicate::view_eq(view, bound).holds_for(value.into()),
                        w == bound
                    );
                    assert_eq!(
                        Predicate::view_ne(view, bound).holds_for(value.into()),
                        w != bound
                    );
                }
            }
        }
    }
}
