//! Boolean expressions: literals, connectives and comparisons of integer expressions.

use super::IntExpr;
use crate::constraints::BoolVar;
use crate::propagators::Relation;
use crate::var::{IntView, VarId};
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// A Boolean expression: a literal (a [`BoolVar`] `b`, or `!b`), a comparison of integer
/// expressions (`x.le(y + 2)`), or a combination of them with `&`, `|`, `^`, `!`,
/// [`implies`](BoolExpr::implies) and [`iff`](BoolExpr::iff).
///
/// [`Model::post`](crate::Model::post) makes it hold, [`Model::reify`](crate::Model::reify)
/// gives its truth as a variable, and [`only_if`](BoolExpr::only_if) (or
/// [`Model::post_if`](crate::Model::post_if)) makes it hold only when a literal is true. As an
/// integer (in a sum, say) it counts 1 when true and 0 when false.
///
/// `!` is pushed inwards at once (De Morgan, and a negated comparison is the opposite
/// comparison), so negation never costs a variable.
///
/// ```
/// use bezzel_core::prelude::*;
/// let mut m = Model::new();
/// let [a, b, c] = [m.named_bool("a")?, m.named_bool("b")?, m.named_bool("c")?];
/// m.post(a & !b | c)?;
/// assert_eq!(Solver::new(m).count(), 5); // c, or a and not b
/// # Ok::<(), ModelError>(())
/// ```
#[derive(Clone, Debug)]
pub struct BoolExpr(pub(crate) Node);

#[derive(Clone, Debug)]
pub(crate) enum Node {
    Const(bool),
    /// A view whose values are 0 and 1 (checked when posted).
    Lit(IntView),
    And(Vec<BoolExpr>),
    Or(Vec<BoolExpr>),
    Xor(Box<BoolExpr>, Box<BoolExpr>),
    Iff(Box<BoolExpr>, Box<BoolExpr>),
    Implies(Box<BoolExpr>, Box<BoolExpr>),
    /// `e (relation) 0`.
    Cmp(IntExpr, Relation),
}

/// The negation `1 - l` of a literal.
pub(crate) fn negate(l: IntView) -> IntView {
    l.minus().offset(1)
}

impl BoolExpr {
    /// The constant `true` or `false`.
    pub fn constant(value: bool) -> BoolExpr {
        BoolExpr(Node::Const(value))
    }

    /// The value of the expression when it is a constant.
    pub(crate) fn as_constant(&self) -> Option<bool> {
        match self.0 {
            Node::Const(t) => Some(t),
            _ => None,
        }
    }

    /// `lhs (relation) rhs`.
    pub fn compare(
        lhs: impl Into<IntExpr>,
        relation: Relation,
        rhs: impl Into<IntExpr>,
    ) -> BoolExpr {
        let difference = lhs.into() - rhs.into();
        match difference.as_constant() {
            Some(d) => BoolExpr::constant(relation.holds(d.into(), 0)),
            None => BoolExpr(Node::Cmp(difference, relation)),
        }
    }

    /// `self -> other`: false only when `self` is true and `other` false.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=3)?;
    /// let y = m.int_var(0..=3)?;
    /// m.post(x.gt(1).implies(y.eq(0)))?;
    /// assert_eq!(Solver::new(m).count(), 2 * 4 + 2); // x <= 1 with any y, x > 1 with y = 0
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn implies(self, other: impl Into<BoolExpr>) -> BoolExpr {
        BoolExpr(Node::Implies(Box::new(self), Box::new(other.into())))
    }

    /// `self <-> other`: both true or both false.
    pub fn iff(self, other: impl Into<BoolExpr>) -> BoolExpr {
        BoolExpr(Node::Iff(Box::new(self), Box::new(other.into())))
    }

    /// The constraint "`self` holds if `condition` is true" (`condition -> self`), with
    /// nothing said when it is false: an enforced (half-reified) constraint. Posted with a
    /// literal as the condition, it introduces no variable: the literal itself switches the
    /// propagation on.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let on = m.named_bool("on")?;
    /// let x = m.named_var("x", 0..=2)?;
    /// m.post(x.eq(2).only_if(on))?;
    /// assert_eq!(Solver::new(m).count(), 3 + 1); // off: any x; on: x = 2
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn only_if(self, condition: impl Into<BoolExpr>) -> BoolExpr {
        condition.into().implies(self)
    }

    // Constants are kept rather than folded: `false & (x / y).eq(1)` still says that `y` is
    // not 0 (a division by zero is no solution in any context).
    fn and(self, other: BoolExpr) -> BoolExpr {
        match (self.0, other.0) {
            (Node::And(mut a), Node::And(b)) => {
                a.extend(b);
                BoolExpr(Node::And(a))
            }
            (Node::And(mut a), e) => {
                a.push(BoolExpr(e));
                BoolExpr(Node::And(a))
            }
            (e, Node::And(mut b)) => {
                b.insert(0, BoolExpr(e));
                BoolExpr(Node::And(b))
            }
            (a, b) => BoolExpr(Node::And(vec![BoolExpr(a), BoolExpr(b)])),
        }
    }

    fn or(self, other: BoolExpr) -> BoolExpr {
        match (self.0, other.0) {
            (Node::Or(mut a), Node::Or(b)) => {
                a.extend(b);
                BoolExpr(Node::Or(a))
            }
            (Node::Or(mut a), e) => {
                a.push(BoolExpr(e));
                BoolExpr(Node::Or(a))
            }
            (e, Node::Or(mut b)) => {
                b.insert(0, BoolExpr(e));
                BoolExpr(Node::Or(b))
            }
            (a, b) => BoolExpr(Node::Or(vec![BoolExpr(a), BoolExpr(b)])),
        }
    }

    fn xor(self, other: BoolExpr) -> BoolExpr {
        BoolExpr(Node::Xor(Box::new(self), Box::new(other)))
    }

    /// The negation, pushed inwards.
    fn negated(self) -> BoolExpr {
        BoolExpr(match self.0 {
            Node::Const(t) => Node::Const(!t),
            Node::Lit(l) => Node::Lit(negate(l)),
            Node::And(es) => Node::Or(es.into_iter().map(BoolExpr::negated).collect()),
            Node::Or(es) => Node::And(es.into_iter().map(BoolExpr::negated).collect()),
            Node::Xor(a, b) => Node::Iff(a, b),
            Node::Iff(a, b) => Node::Xor(a, b),
            Node::Implies(a, b) => Node::And(vec![*a, b.negated()]),
            Node::Cmp(e, relation) => Node::Cmp(e, relation.negation()),
        })
    }
}

/// All of the expressions hold (true if there are none).
///
/// ```
/// use bezzel_core::prelude::*;
/// use bezzel_core::expr::{all, any};
/// let mut m = Model::new();
/// let xs = m.int_vars(3, 0..=2)?;
/// m.post(any(xs.iter().map(|&x| x.eq(2))))?;
/// m.post(all(xs.iter().map(|&x| x.ne(1))))?;
/// assert_eq!(Solver::new(m).count(), 8 - 1); // values 0 and 2, not all 0
/// # Ok::<(), ModelError>(())
/// ```
pub fn all<T: Into<BoolExpr>>(es: impl IntoIterator<Item = T>) -> BoolExpr {
    BoolExpr(Node::And(es.into_iter().map(Into::into).collect()))
}

/// At least one of the expressions holds (false if there are none).
pub fn any<T: Into<BoolExpr>>(es: impl IntoIterator<Item = T>) -> BoolExpr {
    BoolExpr(Node::Or(es.into_iter().map(Into::into).collect()))
}

impl From<bool> for BoolExpr {
    fn from(value: bool) -> BoolExpr {
        BoolExpr::constant(value)
    }
}

impl From<BoolVar> for BoolExpr {
    fn from(b: BoolVar) -> BoolExpr {
        BoolExpr(Node::Lit(b.into()))
    }
}

impl From<&BoolVar> for BoolExpr {
    fn from(b: &BoolVar) -> BoolExpr {
        BoolExpr::from(*b)
    }
}

impl From<IntView> for BoolExpr {
    /// The view as a literal: it must take only the values 0 and 1 (such as `!b`), which is
    /// checked when the expression is posted.
    fn from(l: IntView) -> BoolExpr {
        BoolExpr(Node::Lit(l))
    }
}

impl From<&BoolExpr> for BoolExpr {
    fn from(e: &BoolExpr) -> BoolExpr {
        e.clone()
    }
}

impl Not for BoolExpr {
    type Output = BoolExpr;
    fn not(self) -> BoolExpr {
        self.negated()
    }
}

/// `impl Op<R> for L` for the Boolean connectives.
macro_rules! connectives {
    ($($l:ty),* ; $rs:tt) => {
        $( connectives!(@lhs $l ; $rs); )*
    };
    (@lhs $l:ty ; [$($r:ty),*]) => {
        $(
            impl BitAnd<$r> for $l {
                type Output = BoolExpr;
                fn bitand(self, rhs: $r) -> BoolExpr {
                    BoolExpr::from(self).and(BoolExpr::from(rhs))
                }
            }
            impl BitOr<$r> for $l {
                type Output = BoolExpr;
                fn bitor(self, rhs: $r) -> BoolExpr {
                    BoolExpr::from(self).or(BoolExpr::from(rhs))
                }
            }
            impl BitXor<$r> for $l {
                type Output = BoolExpr;
                fn bitxor(self, rhs: $r) -> BoolExpr {
                    BoolExpr::from(self).xor(BoolExpr::from(rhs))
                }
            }
        )*
    };
}

connectives!(BoolVar, IntView, BoolExpr ; [BoolVar, IntView, BoolExpr, bool]);
connectives!(bool ; [BoolVar, IntView, BoolExpr]);

/// The comparisons, as inherent methods (which take precedence over `PartialEq::eq` and
/// `PartialOrd::lt` in method calls, while `==` keeps comparing the handles).
macro_rules! comparisons {
    ($($t:ty),*) => {
        $(
            impl $t {
                /// The constraint `self = other`, as a [`BoolExpr`]. (`==` still compares
                /// handles; this method builds a constraint.)
                pub fn eq(self, other: impl Into<IntExpr>) -> BoolExpr {
                    BoolExpr::compare(self, Relation::Eq, other)
                }
                /// The constraint `self ≠ other`, as a [`BoolExpr`].
                pub fn ne(self, other: impl Into<IntExpr>) -> BoolExpr {
                    BoolExpr::compare(self, Relation::Ne, other)
                }
                /// The constraint `self ≤ other`, as a [`BoolExpr`].
                pub fn le(self, other: impl Into<IntExpr>) -> BoolExpr {
                    BoolExpr::compare(self, Relation::Le, other)
                }
                /// The constraint `self < other`, as a [`BoolExpr`].
                pub fn lt(self, other: impl Into<IntExpr>) -> BoolExpr {
                    BoolExpr::compare(self, Relation::Lt, other)
                }
                /// The constraint `self ≥ other`, as a [`BoolExpr`].
                pub fn ge(self, other: impl Into<IntExpr>) -> BoolExpr {
                    BoolExpr::compare(self, Relation::Ge, other)
                }
                /// The constraint `self > other`, as a [`BoolExpr`].
                pub fn gt(self, other: impl Into<IntExpr>) -> BoolExpr {
                    BoolExpr::compare(self, Relation::Gt, other)
                }
            }
        )*
    };
}

comparisons!(VarId, IntView, BoolVar, IntExpr);

impl BoolVar {
    /// `self -> other`, as a [`BoolExpr`].
    pub fn implies(self, other: impl Into<BoolExpr>) -> BoolExpr {
        BoolExpr::from(self).implies(other)
    }

    /// `self <-> other`, as a [`BoolExpr`]: `b.iff(x.le(3))` ties `b` to the truth of
    /// `x <= 3` without another variable.
    pub fn iff(self, other: impl Into<BoolExpr>) -> BoolExpr {
        BoolExpr::from(self).iff(other)
    }
}
