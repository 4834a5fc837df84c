//! Modelling in expressions: constraints written as people write them.
//!
//! Integer expressions ([`IntExpr`]) are built with `+ - * / %` from variables, views,
//! Booleans (as 0/1) and `i32` constants, and with [`sum`], [`abs`], [`min`], [`max`] and
//! [`element`]. Comparing two with `.eq .ne .le .lt .ge .gt` gives a Boolean expression
//! ([`BoolExpr`]), which combines with `& | ^ !`, [`implies`](BoolExpr::implies) and
//! [`iff`](BoolExpr::iff). Rust's `==` and `<=` return `bool`, so comparisons are methods;
//! `==` between two handles still asks whether they are the same variable.
//!
//! A Boolean expression is stated with [`Model::post`], made a variable with
//! [`Model::reify`], or enforced only under a condition with [`BoolExpr::only_if`] /
//! [`Model::post_if`]. Posting lowers the expression to the model's own constraints, adding
//! variables only where one is needed:
//!
//! - `x + c`, `-x` and `a·x + c` are views ([`IntView`](crate::IntView), scaled for `|a| > 1`),
//!   with no variable and no propagator, wherever a view goes: an operand of `*`, `/`, `%`,
//!   `abs`, `min`, `max`, an element's index or entries, [`Model::view_of`] for the
//!   constraints that take views (an all-different of `3·x + 1`, ...);
//! - a comparison of two linear expressions is one linear constraint, everything moved to one
//!   side and equal variables merged: two unit terms become a view relation (`x ≤ y + c`,
//!   `x = y + c`, `x ≠ y + c`), three unit terms a unit sum, others [`Model::linear`]; a
//!   coefficient costs nothing, and a sum's coefficients and constant may pass `i32` (they
//!   are checked `i64`: `(x + y).eq(2 * 2^30)` is what it says; beyond 64 bits is refused);
//! - each non-linear part (`x * y`, `abs`, `min`, `max`, `/`, `%`, `element`, a Boolean used
//!   as a number) gets an *auxiliary* variable, with bounds from its operands, defined by the
//!   arithmetic or element constraint of [`Model`];
//! - a common factor of a product's or an absolute value's operand is taken out as a
//!   coefficient (`(3 * x) * y` is `3·(x·y)`, `abs(2 * x - 4)` is `2·|x - 2|`), so that the
//!   product and the absolute value stay on the unscaled operand (`x·y`, not `3x·y`), which
//!   keeps their propagators on intervals without holes;
//! - a part stated equal to a variable, a view of one or a constant (`max(&xs).eq(top)`,
//!   `(x * y).eq(12)`, `abs(x).eq(2 * y)`) is defined onto it, as the call by hand would be,
//!   with no variable in between;
//! - Boolean structure becomes clauses and reified comparisons.
//!
//! Auxiliary variables are functions of the declared ones, so counts are unchanged, and they
//! stay out of [`Solver::solution_set`](crate::Solver::solution_set) and printed solutions
//! (see [`Model::is_auxiliary`]). The calls that take coefficient arrays and views
//! ([`Model::linear`], [`Model::times`], ...) remain: expressions are a layer over them.
//!
//! ```
//! use bezzel_core::prelude::*;
//!
//! // SEND + MORE = MONEY.
//! let mut m = Model::new();
//! let [s, e, n, d, o, r, y] = ["S", "E", "N", "D", "O", "R", "Y"].map(|v| m.named_var(v, 0..=9));
//! let [s, e, n, d, o, r, y] = [s?, e?, n?, d?, o?, r?, y?];
//! let mo = m.named_var("M", 1..=9)?;
//! m.all_different(&[s, e, n, d, mo, o, r, y])?;
//! let word = |ds: &[VarId]| ds.iter().fold(IntExpr::constant(0), |acc, &x| 10 * acc + x);
//! m.post((word(&[s, e, n, d]) + word(&[mo, o, r, e])).eq(word(&[mo, o, n, e, y])))?;
//! m.post(s.ne(0))?;
//! let answer = Solver::new(m).first().unwrap();
//! assert_eq!(answer.to_string(), "S=9 E=5 N=6 D=7 O=0 R=8 Y=2 M=1");
//! # Ok::<(), ModelError>(())
//! ```

mod boolean;
mod int;
mod lower;

pub use boolean::{BoolExpr, all, any};
pub(crate) use int::Atom;
pub use int::{IntExpr, abs, element, max, min, sum};

use crate::constraints::BoolVar;
use crate::error::ModelError;
use crate::model::Model;
use crate::propagator::Propagator;

impl Model {
    /// Posts a constraint: a Boolean expression (see [`expr`](crate::expr)), which must then
    /// hold, or a propagator, built in or the user's own.
    ///
    /// A propagator's [`setup`](Propagator::setup) runs now; every view it subscribes to must
    /// belong to this model; it is scheduled for the first propagation. An expression is
    /// lowered to propagators (see [`expr`](crate::expr)).
    ///
    /// An expression refused for a variable of another model, a literal that is not 0/1, an
    /// arithmetic overflow or a minimum of nothing leaves the model as it was. One refused
    /// while it is lowered (a part whose range no variable holds, a number too large for a
    /// constraint) may leave some of it posted: build the model again rather than go on.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.named_var("x", 0..=9)?;
    /// let y = m.named_var("y", 0..=9)?;
    /// m.post((x + y).eq(10) & x.lt(y) & (2 * x).gt(y))?;
    /// assert_eq!(Solver::new(m).solution_set().to_string(), "x=4 y=6\n");
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn post(&mut self, constraint: impl Postable) -> Result<(), ModelError> {
        constraint.post_into(self)
    }
}

/// What [`Model::post`] takes: a [`Propagator`] (built in or the user's own), a
/// [`BoolExpr`], or a [`BoolVar`] (which must then be true).
pub trait Postable {
    /// Adds `self` to the model.
    fn post_into(self, model: &mut Model) -> Result<(), ModelError>;
}

impl<P: Propagator + 'static> Postable for P {
    fn post_into(self, model: &mut Model) -> Result<(), ModelError> {
        model.post_boxed(Box::new(self))
    }
}

impl Postable for BoolExpr {
    fn post_into(self, model: &mut Model) -> Result<(), ModelError> {
        model.validate(&self)?;
        model.post_expr(self)
    }
}

impl Postable for BoolVar {
    fn post_into(self, model: &mut Model) -> Result<(), ModelError> {
        model.post_expr(self.into())
    }
}
