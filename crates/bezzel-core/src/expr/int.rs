//! Integer expressions: linear forms over variables and non-linear parts.

use super::BoolExpr;
use crate::constraints::BoolVar;
use crate::var::{IntView, VarId};
use smallvec::{SmallVec, smallvec};
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
    /// `(aᵢ, xᵢ)` over variables, unmerged: equal variables are merged when the expression
    /// is lowered.
    pub(crate) vars: Vars,
    /// `(bⱼ, pⱼ)` over non-linear parts, kept apart from the variables so that a sum of
    /// variables, the common case, is copied rather than moved term by term.
    pub(crate) parts: Vec<(i64, Atom)>,
    pub(crate) constant: i64,
    /// Whether a coefficient or the constant overflowed an `i64` on the way: the expression
    /// is then refused when it is posted, rather than wrapped or saturated into another
    /// one. (A sum's coefficients and constant are `i64`, values `i32`: nothing that fits
    /// them is lost.)
    pub(crate) overflow: bool,
}

/// The variable terms of an [`IntExpr`]. One or two, what most operators start from and
/// compare, need no allocation.
pub(crate) type Vars = SmallVec<[(i64, VarId); 4]>;

/// A non-linear part of an [`IntExpr`]: it becomes a variable when posted.
#[derive(Clone, Debug)]
pub(crate) enum Atom {
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
    #[inline]
    pub fn constant(c: i32) -> IntExpr {
        IntExpr::from_constant(c.into())
    }

    #[inline]
    fn from_constant(c: i64) -> IntExpr {
        IntExpr {
            vars: Vars::new(),
            parts: Vec::new(),
            constant: c,
            overflow: false,
        }
    }

    /// A constant that is out of `i64`'s range (`None`) makes an expression that posting
    /// refuses.
    fn checked_constant(c: Option<i64>) -> IntExpr {
        let mut e = IntExpr::from_constant(c.unwrap_or(0));
        e.overflow = c.is_none();
        e
    }

    /// `a·x + c`.
    #[inline]
    fn term(a: i64, x: VarId, c: i64) -> IntExpr {
        IntExpr {
            vars: smallvec![(a, x)],
            parts: Vec::new(),
            constant: c,
            overflow: false,
        }
    }

    pub(crate) fn atom(atom: Atom) -> IntExpr {
        IntExpr {
            vars: Vars::new(),
            parts: vec![(1, atom)],
            constant: 0,
            overflow: false,
        }
    }

    /// The value of the expression when it has no variables (and did not overflow).
    pub(crate) fn as_constant(&self) -> Option<i64> {
        (self.vars.is_empty() && self.parts.is_empty() && !self.overflow).then_some(self.constant)
    }

    #[inline]
    fn scaled(mut self, k: i64) -> IntExpr {
        if k == 1 {
            return self;
        }
        let mut overflow = self.overflow;
        let mut times = |a: &mut i64| {
            let (product, wrapped) = a.overflowing_mul(k);
            *a = product;
            overflow |= wrapped;
        };
        self.vars.iter_mut().for_each(|(a, _)| times(a));
        self.parts.iter_mut().for_each(|(a, _)| times(a));
        times(&mut self.constant);
        self.overflow = overflow;
        self
    }

    /// `self + a·x + c`. The operands are a view's, within `i64`.
    #[inline]
    fn add_term(&mut self, a: i64, x: VarId, c: i64) {
        if self.vars.len() == self.vars.capacity() {
            self.vars.reserve(8);
        }
        self.vars.push((a, x));
        self.add_constant(c);
    }

    /// `self + c`.
    #[inline]
    fn add_constant(&mut self, c: i64) {
        let (sum, wrapped) = self.constant.overflowing_add(c);
        self.constant = sum;
        self.overflow |= wrapped;
    }

    /// `self + k·v`, for `k` = ±1.
    fn add_view_of(&mut self, v: IntView, k: i64) {
        match view_terms(v) {
            Some((a, c)) => self.add_term(k * a, v.var, k * c),
            None => self.overflow = true,
        }
    }

    /// The expression marked as refused when posted.
    fn overflowed(mut self) -> IntExpr {
        self.overflow = true;
        self
    }

    #[inline]
    fn plus(&mut self, other: IntExpr) {
        let IntExpr {
            mut vars,
            parts,
            constant,
            overflow,
        } = other;
        if let [(a, x)] = vars[..] {
            // `... + 10 * n`, a term at a time: the common case.
            self.add_term(a, x, 0);
        } else {
            if vars.len() > self.vars.len() {
                // `x + acc`, a sum built from the right: the shorter is appended, so that
                // building stays linear. (The order of the terms changes nothing posted.)
                std::mem::swap(&mut self.vars, &mut vars);
            }
            if self.vars.len() + vars.len() > self.vars.capacity() {
                // A sum grows a term at a time: room for several saves a reallocation each.
                self.vars.reserve(vars.len().max(8));
            }
            self.vars.extend_from_slice(&vars);
        }
        if parts.capacity() == 0 {
            // Nothing to drop: skips the call to the parts' drop glue, most sums' only
            // cost besides the copy.
            std::mem::forget(parts);
        } else {
            self.parts.extend(parts);
        }
        let (sum, wrapped) = self.constant.overflowing_add(constant);
        self.constant = sum;
        self.overflow |= wrapped | overflow;
    }

    fn times(self, other: IntExpr) -> IntExpr {
        match (self.as_constant(), other.as_constant()) {
            (Some(k), _) => other.scaled(k),
            (_, Some(k)) => self.scaled(k),
            _ => {
                // (g·a)·(h·b) = g·h·(a·b): the factors become a coefficient of the product,
                // so that `3 * x` needs no variable of its own as an operand.
                let ((g, a), (h, b)) = (self.common_factor(), other.common_factor());
                let (gh, wrapped) = g.overflowing_mul(h);
                let mut product = IntExpr::atom(Atom::Times(Box::new(a), Box::new(b))).scaled(gh);
                product.overflow |= wrapped;
                product
            }
        }
    }

    /// `(g, e)` with `self = g·e`, `g > 0` the greatest common divisor of the coefficients
    /// and the constant: `3x + 6` is `3·(x + 2)`.
    fn common_factor(mut self) -> (i64, IntExpr) {
        let gcd = |mut a: u64, b: i64| {
            let mut b = b.unsigned_abs();
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let g = self.vars.iter().map(|&(a, _)| a);
        let g = g
            .chain(self.parts.iter().map(|&(a, _)| a))
            .fold(self.constant.unsigned_abs(), gcd);
        // A factor of 2^63 (every coefficient i64::MIN or 0) stays where it is.
        let g = i64::try_from(g).unwrap_or(1);
        if g <= 1 || self.overflow {
            return (1, self);
        }
        for (a, _) in &mut self.vars {
            *a /= g;
        }
        for (a, _) in &mut self.parts {
            *a /= g;
        }
        self.constant /= g;
        (g, self)
    }

    fn divided_by(self, other: IntExpr) -> IntExpr {
        match (self.as_constant(), other.as_constant()) {
            (Some(a), Some(b)) if b != 0 => IntExpr::checked_constant(a.checked_div(b)),
            _ => IntExpr::atom(Atom::Div(Box::new(self), Box::new(other))),
        }
    }

    fn remainder(self, other: IntExpr) -> IntExpr {
        match (self.as_constant(), other.as_constant()) {
            // i64::MIN % -1 is 0, which `wrapping_rem` gives; no other remainder wraps.
            (Some(a), Some(b)) if b != 0 => IntExpr::from_constant(a.wrapping_rem(b)),
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
        Some(c) => IntExpr::checked_constant(c.checked_abs()),
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
    es.into_iter().fold(IntExpr::constant(0), |mut acc, e| {
        acc.plus(e.into());
        acc
    })
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
    #[inline]
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
    #[inline]
    fn from(x: VarId) -> IntExpr {
        IntExpr::term(1, x, 0)
    }
}

impl From<&VarId> for IntExpr {
    fn from(x: &VarId) -> IntExpr {
        IntExpr::from(*x)
    }
}

/// The largest offset and scale a view may bring into an expression. A view's own
/// arithmetic saturates (see [`IntView::offset`], [`IntView::scale`]), and a saturated
/// view is not the view it was built as: any view beyond these is taken as one, and the
/// expression is refused when posted. No constraint takes such a view or coefficient anyway.
const VIEW_OFFSET_LIMIT: u64 = 1 << 62;
const VIEW_SCALE_LIMIT: i64 = i32::MAX as i64;

/// `(factor, offset)` of a view, or `None` for one that may have saturated.
fn view_terms(v: IntView) -> Option<(i64, i64)> {
    let exact =
        v.factor().abs() <= VIEW_SCALE_LIMIT && v.offset.unsigned_abs() <= VIEW_OFFSET_LIMIT;
    exact.then_some((v.factor(), v.offset))
}

impl From<IntView> for IntExpr {
    fn from(v: IntView) -> IntExpr {
        match view_terms(v) {
            Some((a, c)) => IntExpr::term(a, v.var, c),
            None => IntExpr::term(1, v.var, 0).overflowed(),
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

/// An operand of the arithmetic operators: a constant is a factor, and a variable or a view
/// is added as a term, without an expression of its own.
trait Operand: Into<IntExpr> {
    #[inline]
    fn as_factor(&self) -> Option<i64> {
        None
    }

    /// `e + k·self`, for `k` = ±1.
    #[inline]
    fn add_to(self, e: &mut IntExpr, k: i64) {
        e.plus(self.into().scaled(k))
    }
}

impl Operand for i32 {
    #[inline]
    fn as_factor(&self) -> Option<i64> {
        Some((*self).into())
    }

    #[inline]
    fn add_to(self, e: &mut IntExpr, k: i64) {
        e.add_constant(k * i64::from(self))
    }
}

impl Operand for VarId {
    #[inline]
    fn add_to(self, e: &mut IntExpr, k: i64) {
        e.add_term(k, self, 0)
    }
}

impl Operand for IntView {
    #[inline]
    fn add_to(self, e: &mut IntExpr, k: i64) {
        e.add_view_of(self, k)
    }
}

impl Operand for BoolVar {
    #[inline]
    fn add_to(self, e: &mut IntExpr, k: i64) {
        e.add_term(k, self.var(), 0)
    }
}

impl Operand for IntExpr {}
impl Operand for BoolExpr {}

/// `impl Op<R> for L` for every pair of operand types but `i32 op i32`.
macro_rules! binary_ops {
    ($($l:ty),* ; $rs:tt) => {
        $( binary_ops!(@lhs $l ; $rs); )*
    };
    (@lhs $l:ty ; [$($r:ty),*]) => {
        $(
            impl Add<$r> for $l {
                type Output = IntExpr;
                #[inline]
                fn add(self, rhs: $r) -> IntExpr {
                    let mut e = IntExpr::from(self);
                    rhs.add_to(&mut e, 1);
                    e
                }
            }
            impl Sub<$r> for $l {
                type Output = IntExpr;
                #[inline]
                fn sub(self, rhs: $r) -> IntExpr {
                    let mut e = IntExpr::from(self);
                    rhs.add_to(&mut e, -1);
                    e
                }
            }
            impl Mul<$r> for $l {
                type Output = IntExpr;
                #[inline]
                fn mul(self, rhs: $r) -> IntExpr {
                    // A constant factor, known from the types, scales the other operand.
                    match (self.as_factor(), rhs.as_factor()) {
                        (Some(k), _) => IntExpr::from(rhs).scaled(k),
                        (_, Some(k)) => IntExpr::from(self).scaled(k),
                        _ => IntExpr::from(self).times(IntExpr::from(rhs)),
                    }
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
