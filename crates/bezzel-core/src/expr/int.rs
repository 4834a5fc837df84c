//! Integer expressions: linear forms over variables and non-linear parts.

use super::BoolExpr;
use crate::constraints::BoolVar;
use crate::var::{IntView, VarId};
use std::ops::{Add, Div, Mul, Neg, Rem, Sub};

/// An integer expression such as `x + 2 * y - 3`, `x * y`, `abs(x - y)` or `element(&xs, i)`.
///
/// Built with the operators `+ - * / %` and unary `-` between variables ([`VarId`],
/// [`IntView`], [`BoolVar`] as 0/1), expressions, Boolean expressions (as 0/1) and `i32`
/// constants, on either side; and with the functions of [`expr`](crate::expr): [`sum`],
/// [`abs`], [`min`], [`max`], [`element`]. `/` and `%` round as Rust's do (towards zero; the
/// remainder has the sign of the dividend), and a divisor of 0 is never a solution.
///
/// An expression states nothing by itself: compare two with [`eq`](IntExpr::eq),
/// [`le`](IntExpr::le), ... to get a [`BoolExpr`], then [`Model::post`](crate::Model::post) it,
/// or turn it into a view with [`Model::view_of`](crate::Model::view_of).
///
/// Internally it is kept as `Σ aᵢ·tᵢ + c`, where each `tᵢ` is a variable or a non-linear part
/// (a product, an `abs`, ...): adding and scaling never nest, so `2 * (x + y) - x` is the sum
/// `x + 2·y` once posted, and a term `a·x` inside a sum is a coefficient, not a variable.
///
/// ```
/// use bezzel_core::prelude::*;
/// let mut m = Model::new();
/// let x = m.named_var("x", 0..=9)?;
/// let y = m.named_var("y", 0..=9)?;
/// m.post((x + 2 * y - 3).eq(10))?; // x + 2y = 13
/// m.post((x * y).ge(20))?;
/// assert_eq!(Solver::new(m).solution_set().to_string(), "x=5 y=4\nx=7 y=3\n");
/// # Ok::<(), ModelError>(())
/// ```
#[derive(Clone, Debug)]
pub struct IntExpr {
    /// `(aᵢ, tᵢ)`, unmerged: equal variables are merged when the expression is lowered.
    /// Coefficients are `i128` and saturate, so that no sequence of operators can wrap; a
    /// coefficient beyond what the constraints take is refused when it is posted.
    pub(crate) terms: Vec<(i128, Atom)>,
    pub(crate) constant: i128,
}

/// A term of an [`IntExpr`]: a variable, or a part that becomes one when posted.
#[derive(Clone, Debug)]
pub(crate) enum Atom {
    Var(VarId),
    Times(Box<IntExpr>, Box<IntExpr>),
    Div(Box<IntExpr>, Box<IntExpr>),
    Mod(Box<IntExpr>, Box<IntExpr>),
    Abs(Box<IntExpr>),
    Min(Vec<IntExpr>),
    Max(Vec<IntExpr>),
    /// `array[index]`, counted from 0.
    Element(Vec<IntExpr>, Box<IntExpr>),
    /// A Boolean expression as 0 or 1.
    Truth(Box<BoolExpr>),
}

impl IntExpr {
    /// The constant `c`.
    pub fn constant(c: i32) -> IntExpr {
        IntExpr {
            terms: Vec::new(),
            constant: c.into(),
        }
    }

    fn atom(atom: Atom) -> IntExpr {
        IntExpr {
            terms: vec![(1, atom)],
            constant: 0,
        }
    }

    /// The value of the expression when it has no variables.
    pub(crate) fn as_constant(&self) -> Option<i128> {
        self.terms.is_empty().then_some(self.constant)
    }

    fn scaled(mut self, k: i128) -> IntExpr {
        for (a, _) in &mut self.terms {
            *a = a.saturating_mul(k);
        }
        self.constant = self.constant.saturating_mul(k);
        self
    }

    fn plus(mut self, other: IntExpr) -> IntExpr {
        self.terms.extend(other.terms);
        self.constant = self.constant.saturating_add(other.constant);
        self
    }

    fn times(self, other: IntExpr) -> IntExpr {
        match (self.as_constant(), other.as_constant()) {
            (Some(k), _) => other.scaled(k),
            (_, Some(k)) => self.scaled(k),
            _ => {
                // (g·a)·(h·b) = g·h·(a·b): the factors become a coefficient of the product,
                // so that `3 * x` needs no variable of its own as an operand.
                let ((g, a), (h, b)) = (self.common_factor(), other.common_factor());
                IntExpr::atom(Atom::Times(Box::new(a), Box::new(b))).scaled(g.saturating_mul(h))
            }
        }
    }

    /// `(g, e)` with `self = g·e`, `g > 0` the greatest common divisor of the coefficients
    /// and the constant: `3x + 6` is `3·(x + 2)`.
    fn common_factor(self) -> (i128, IntExpr) {
        let gcd = |mut a: i128, mut b: i128| {
            (a, b) = (a.saturating_abs(), b.saturating_abs());
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let g = self
            .terms
            .iter()
            .fold(gcd(self.constant, 0), |g, &(a, _)| gcd(g, a));
        if g <= 1 {
            return (1, self);
        }
        let terms = self.terms.into_iter().map(|(a, t)| (a / g, t)).collect();
        let constant = self.constant / g;
        (g, IntExpr { terms, constant })
    }

    fn divided_by(self, other: IntExpr) -> IntExpr {
        match (self.as_constant(), other.as_constant()) {
            (Some(a), Some(b)) if b != 0 => IntExpr {
                terms: Vec::new(),
                constant: a / b,
            },
            _ => IntExpr::atom(Atom::Div(Box::new(self), Box::new(other))),
        }
    }

    fn remainder(self, other: IntExpr) -> IntExpr {
        match (self.as_constant(), other.as_constant()) {
            (Some(a), Some(b)) if b != 0 => IntExpr {
                terms: Vec::new(),
                constant: a % b,
            },
            _ => IntExpr::atom(Atom::Mod(Box::new(self), Box::new(other))),
        }
    }

    /// `|self|`; the same as [`abs(self)`](abs).
    pub fn abs(self) -> IntExpr {
        abs(self)
    }
}

/// `|e|`.
///
/// ```
/// use bezzel_core::prelude::*;
/// use bezzel_core::expr::abs;
/// let mut m = Model::new();
/// let x = m.named_var("x", -3..=3)?;
/// m.post(abs(x - 1).eq(2))?;
/// assert_eq!(Solver::new(m).solution_set().to_string(), "x=-1\nx=3\n");
/// # Ok::<(), ModelError>(())
/// ```
pub fn abs(e: impl Into<IntExpr>) -> IntExpr {
    let e = e.into();
    match e.as_constant() {
        Some(c) => IntExpr {
            terms: Vec::new(),
            constant: c.saturating_abs(),
        },
        None => {
            // |g·e| = g·|e| for g > 0: `abs(3 * x)` is 3·|x|, with no variable for `3 * x`.
            let (g, e) = e.common_factor();
            IntExpr::atom(Atom::Abs(Box::new(e))).scaled(g)
        }
    }
}

/// The sum of the expressions (0 if there are none): `sum(&xs)` for a slice of variables.
///
/// ```
/// use bezzel_core::prelude::*;
/// use bezzel_core::expr::sum;
/// let mut m = Model::new();
/// let b = m.named_bools("b", 4)?;
/// m.post(sum(&b).eq(2))?; // exactly two are true
/// assert_eq!(Solver::new(m).count(), 6);
/// # Ok::<(), ModelError>(())
/// ```
pub fn sum<T: Into<IntExpr>>(es: impl IntoIterator<Item = T>) -> IntExpr {
    es.into_iter()
        .fold(IntExpr::constant(0), |acc, e| acc.plus(e.into()))
}

/// The smallest of the expressions. None at all is refused when posted.
///
/// ```
/// use bezzel_core::prelude::*;
/// use bezzel_core::expr::{max, min};
/// let mut m = Model::new();
/// let xs = m.int_vars(3, 0..=4)?;
/// m.post(min(&xs).eq(2))?;
/// m.post(max(&xs).le(2))?; // so all three are 2
/// assert_eq!(Solver::new(m).count(), 1);
/// # Ok::<(), ModelError>(())
/// ```
pub fn min<T: Into<IntExpr>>(es: impl IntoIterator<Item = T>) -> IntExpr {
    IntExpr::atom(Atom::Min(es.into_iter().map(Into::into).collect()))
}

/// The largest of the expressions. None at all is refused when posted.
pub fn max<T: Into<IntExpr>>(es: impl IntoIterator<Item = T>) -> IntExpr {
    IntExpr::atom(Atom::Max(es.into_iter().map(Into::into).collect()))
}

/// `array[index]`, counted from 0: the array holds constants (`element([3, 1, 4], i)`),
/// variables (`element(&xs, i)`) or any expressions. Index values outside the array are not
/// solutions (an index none of whose values is a position leaves the model without any).
///
/// ```
/// use bezzel_core::prelude::*;
/// use bezzel_core::expr::element;
/// let mut m = Model::new();
/// let i = m.named_var("i", 0..=3)?;
/// m.post(element([5, 7, 5, 9], i).eq(5))?;
/// assert_eq!(Solver::new(m).solution_set().to_string(), "i=0\ni=2\n");
/// # Ok::<(), ModelError>(())
/// ```
pub fn element<T: Into<IntExpr>>(
    array: impl IntoIterator<Item = T>,
    index: impl Into<IntExpr>,
) -> IntExpr {
    let array = array.into_iter().map(Into::into).collect();
    IntExpr::atom(Atom::Element(array, Box::new(index.into())))
}

impl From<i32> for IntExpr {
    fn from(c: i32) -> IntExpr {
        IntExpr::constant(c)
    }
}

impl From<&i32> for IntExpr {
    fn from(c: &i32) -> IntExpr {
        IntExpr::constant(*c)
    }
}

impl From<VarId> for IntExpr {
    fn from(x: VarId) -> IntExpr {
        IntExpr::atom(Atom::Var(x))
    }
}

impl From<&VarId> for IntExpr {
    fn from(x: &VarId) -> IntExpr {
        IntExpr::from(*x)
    }
}

impl From<IntView> for IntExpr {
    fn from(v: IntView) -> IntExpr {
        IntExpr {
            terms: vec![(v.factor().into(), Atom::Var(v.var))],
            constant: v.offset.into(),
        }
    }
}

impl From<&IntView> for IntExpr {
    fn from(v: &IntView) -> IntExpr {
        IntExpr::from(*v)
    }
}

impl From<BoolVar> for IntExpr {
    fn from(b: BoolVar) -> IntExpr {
        IntExpr::from(b.var())
    }
}

impl From<&BoolVar> for IntExpr {
    fn from(b: &BoolVar) -> IntExpr {
        IntExpr::from(b.var())
    }
}

impl From<&IntExpr> for IntExpr {
    fn from(e: &IntExpr) -> IntExpr {
        e.clone()
    }
}

impl From<BoolExpr> for IntExpr {
    /// The expression's truth as 0 or 1.
    fn from(b: BoolExpr) -> IntExpr {
        match b.as_constant() {
            Some(t) => IntExpr::constant(t.into()),
            None => IntExpr::atom(Atom::Truth(Box::new(b))),
        }
    }
}

impl From<&BoolExpr> for IntExpr {
    fn from(b: &BoolExpr) -> IntExpr {
        IntExpr::from(b.clone())
    }
}

/// `impl Op<R> for L` for every pair of operand types but `i32 op i32`.
macro_rules! binary_ops {
    ($($l:ty),* ; $rs:tt) => {
        $( binary_ops!(@lhs $l ; $rs); )*
    };
    (@lhs $l:ty ; [$($r:ty),*]) => {
        $(
            impl Add<$r> for $l {
                type Output = IntExpr;
                fn add(self, rhs: $r) -> IntExpr {
                    IntExpr::from(self).plus(IntExpr::from(rhs))
                }
            }
            impl Sub<$r> for $l {
                type Output = IntExpr;
                fn sub(self, rhs: $r) -> IntExpr {
                    IntExpr::from(self).plus(IntExpr::from(rhs).scaled(-1))
                }
            }
            impl Mul<$r> for $l {
                type Output = IntExpr;
                fn mul(self, rhs: $r) -> IntExpr {
                    IntExpr::from(self).times(IntExpr::from(rhs))
                }
            }
            impl Div<$r> for $l {
                type Output = IntExpr;
                /// Division rounded towards zero, as Rust's `/`.
                fn div(self, rhs: $r) -> IntExpr {
                    IntExpr::from(self).divided_by(IntExpr::from(rhs))
                }
            }
            impl Rem<$r> for $l {
                type Output = IntExpr;
                /// The remainder of `/`, with the sign of the dividend, as Rust's `%`.
                fn rem(self, rhs: $r) -> IntExpr {
                    IntExpr::from(self).remainder(IntExpr::from(rhs))
                }
            }
        )*
    };
}

binary_ops!(VarId, IntView, BoolVar, IntExpr, BoolExpr ; [VarId, IntView, BoolVar, IntExpr, BoolExpr, i32]);
binary_ops!(i32 ; [VarId, IntView, BoolVar, IntExpr, BoolExpr]);

impl Neg for IntExpr {
    type Output = IntExpr;
    fn neg(self) -> IntExpr {
        self.scaled(-1)
    }
}

macro_rules! negated_view {
    ($($t:ty),*) => {
        $(
            impl Neg for $t {
                type Output = IntView;
                /// The view `-self` ([`IntView::minus`]): no expression needed, and it goes
                /// wherever a view does.
                fn neg(self) -> IntView {
                    IntView::from(self).minus()
                }
            }
        )*
    };
}

negated_view!(VarId, IntView, BoolVar);
