//! Modelling functions: the constraints a puzzle is stated with.
//!
//! Each function validates its arguments (variables of this model, matching lengths), may
//! simplify (an all-different of two views is a `!=`, of fewer it is nothing), and posts the
//! propagator from [`propagators`](crate::propagators) that implements it. Arguments are views,
//! so offsets are written where they belong: `m.less_eq(x.offset(2), y)` states `x + 2 <= y`.

use crate::error::ModelError;
use crate::model::Model;
use crate::propagators::{
    AllDifferentBounds, AllDifferentValue, Check, Equal, LessEq, Linear, MAX_LINEAR_TERMS,
    NotEqual, Relation, UnitSum,
};
use crate::var::IntView;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How much pruning [`Model::all_different_with`] does, chosen per constraint at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Consistency {
    /// A fixed view's value leaves the others: cheap, the default.
    #[default]
    Value,
    /// Every bound has a support in the intervals of the others (Hall intervals).
    Bounds,
    /// Every value has a support (Régin's matching-based filtering): the strongest.
    Domain,
}

impl fmt::Display for Consistency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Consistency::Value => "value",
            Consistency::Bounds => "bounds",
            Consistency::Domain => "domain",
        })
    }
}

impl FromStr for Consistency {
    type Err = ModelError;

    fn from_str(s: &str) -> Result<Consistency, ModelError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "value" | "val" => Ok(Consistency::Value),
            "bounds" | "bnd" => Ok(Consistency::Bounds),
            "domain" | "dom" => Ok(Consistency::Domain),
            other => Err(ModelError::InvalidArgument {
                reason: format!("unknown consistency `{other}`: expected value, bounds or domain"),
            }),
        }
    }
}

fn views<V: Into<IntView> + Copy>(m: &Model, vars: &[V]) -> Result<Vec<IntView>, ModelError> {
    vars.iter()
        .map(|&v| {
            let view = v.into();
            m.check_view(view).map(|_| view)
        })
        .collect()
}

/// The error of a sum longer than the linear propagator takes.
pub(crate) fn too_many_linear_terms(n: usize) -> ModelError {
    ModelError::InvalidArgument {
        reason: format!("linear: {n} terms; at most {MAX_LINEAR_TERMS} are supported"),
    }
}

/// [`views`] for a constraint that needs one or more: none is a
/// [`ModelError::TooFewVariables`] of `constraint`.
fn some_views<V: Into<IntView> + Copy>(
    m: &Model,
    constraint: &'static str,
    vars: &[V],
) -> Result<Vec<IntView>, ModelError> {
    let views = views(m, vars)?;
    if views.is_empty() {
        return Err(ModelError::TooFewVariables {
            constraint,
            min: 1,
            found: 0,
        });
    }
    Ok(views)
}

impl Model {
    /// All views take pairwise different values (value consistency).
    pub fn all_different<V: Into<IntView> + Copy>(&mut self, vars: &[V]) -> Result<(), ModelError> {
        self.all_different_with(vars, Consistency::Value)
    }

    /// All views take pairwise different values, pruned at the given [`Consistency`].
    ///
    /// At the bounds level this posts two propagators: a value-consistent one, which runs
    /// first, and the bounds one, which then sees a batch of changes.
    ///
    /// At the domain level, all-differents over plain variables (no offset, no negation)
    /// declared over at most 64 values, which share variables with each other (Sudoku's
    /// rows, columns and boxes, a Latin square's rows and columns), are propagated as one
    /// *family* once search or [`propagate`](Model::propagate) starts: one run applies
    /// naked and hidden singles across all of them and the matching only where those
    /// leave a unit changed, reaching the domains of the constraints one by one in fewer,
    /// cheaper runs. Two units that must both take every value of one set (as many values as
    /// cells) and share two cells or more, as a Sudoku row and a box it crosses, also prune
    /// each other ("locked candidates": a value that one cannot take outside the shared cells
    /// leaves the other's cells outside them), which the constraints one by one do not: the
    /// same solutions, with domains as narrow or narrower after the same decisions. Nothing
    /// is asked of the user.
    ///
    /// Likewise, at the value and the domain level, all-differents over views `x + c` of
    /// shared variables (at the domain level, with an offset somewhere), each with its values
    /// in one window of 64 and at most 64 variables in all, form a family over offset views
    /// (N-Queens' `q`, `q + i`, `q - i`): one run removes the values fixed in every unit at
    /// once, and at the domain level runs the matching of each unit whose variables changed,
    /// again to the same domains as the constraints one by one.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var([1, 3])?;
    /// let y = m.int_var([1, 3])?;
    /// let z = m.int_var(1..=3)?;
    /// m.all_different_with(&[x, y, z], Consistency::Domain)?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(z)?, vec![2]); // x and y use up 1 and 3
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn all_different_with<V: Into<IntView> + Copy>(
        &mut self,
        vars: &[V],
        consistency: Consistency,
    ) -> Result<(), ModelError> {
        let views = views(self, vars)?;
        match consistency {
            _ if views.len() <= 1 => Ok(()),
            // For two views, `!=` already prunes every unsupported value.
            _ if views.len() == 2 => self.post(NotEqual::new(views[0], views[1])),
            // Units that share variables may end up in one family propagator (see
            // `Model::form_families`), which reaches the same fixpoint in fewer runs.
            Consistency::Value => self.post_all_different_value(views),
            // Cheapest first: at the bounds level a value-consistent propagator over the same
            // views runs before the Hall-interval one (it has a cheaper priority), so that
            // fixings cascade at their low cost and each bounds run sees a batch of changes
            // (queens 10: 188 M instructions and 2.7 M mispredicted branches without it, 118 M
            // and 1.7 M with it). The domain level needs no partner: its propagator is
            // staged, with a value pass of its own first.
            Consistency::Bounds => {
                self.post(AllDifferentValue::new(views.clone()))?;
                self.post(AllDifferentBounds::after_value_pass(views))
            }
            // Units that share variables may end up in one family propagator (see
            // `Model::form_families`), which reaches the same fixpoint in fewer runs.
            Consistency::Domain => self.post_all_different_domain(views),
        }
    }

    /// `x != y`.
    pub fn not_equal(
        &mut self,
        x: impl Into<IntView>,
        y: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let (x, y) = (x.into(), y.into());
        self.check_view(x)?;
        self.check_view(y)?;
        self.post(NotEqual::new(x, y))
    }

    /// `x == y`.
    pub fn equal(
        &mut self,
        x: impl Into<IntView>,
        y: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let (x, y) = (x.into(), y.into());
        self.check_view(x)?;
        self.check_view(y)?;
        self.post(Equal::new(x, y))
    }

    /// `x <= y`; use views for offsets: `less_eq(x.offset(c), y)` is `x + c <= y`.
    pub fn less_eq(
        &mut self,
        x: impl Into<IntView>,
        y: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let (x, y) = (x.into(), y.into());
        self.check_view(x)?;
        self.check_view(y)?;
        self.post(LessEq::new(x, y))
    }

    /// `x < y`, that is `x + 1 <= y`.
    pub fn less_than(
        &mut self,
        x: impl Into<IntView>,
        y: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        self.less_eq(x.into().offset(1), y)
    }

    /// `Σ coefficients[i] · vars[i]  (relation)  constant`, with bounds reasoning; `≠`
    /// ([`Relation::Ne`]) prunes once every term but one is fixed.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_vars(2, 0..=3)?;
    /// m.linear(&[1, 2], &x, Relation::Lt, 4)?; // x0 + 2·x1 < 4
    /// m.linear(&[1, -1], &x, Relation::Ne, 0)?; // x0 != x1
    /// assert_eq!(Solver::new(m).count(), 4); // (0,1) (1,0) (2,0) (3,0)
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn linear<V: Into<IntView> + Copy>(
        &mut self,
        coefficients: &[i32],
        vars: &[V],
        relation: Relation,
        constant: i32,
    ) -> Result<(), ModelError> {
        if coefficients.len() != vars.len() {
            return Err(ModelError::LengthMismatch {
                what: "linear: coefficients and variables",
                expected: coefficients.len(),
                found: vars.len(),
            });
        }
        if vars.len() > MAX_LINEAR_TERMS {
            return Err(too_many_linear_terms(vars.len()));
        }
        let views = views(self, vars)?;
        let terms: Vec<(i64, IntView)> = coefficients
            .iter()
            .map(|&a| i64::from(a))
            .zip(views)
            .collect();
        self.post_linear_terms(terms, relation, i64::from(constant))
    }

    /// [`Model::linear`] once its arguments are checked: the terms' views belong to the
    /// model, there are at most [`MAX_LINEAR_TERMS`], and every coefficient and the constant
    /// fit an `i64`. Posts the cheapest propagator that prunes as the sum would.
    pub(crate) fn post_linear_terms(
        &mut self,
        terms: Vec<(i64, IntView)>,
        relation: Relation,
        constant: i64,
    ) -> Result<(), ModelError> {
        if relation == Relation::Ne
            && let [(a, x), (b, y)] = terms[..]
            && a.abs() == 1
            && b.abs() == 1
        {
            // a·x + b·y != c as a·x != c - b·y: views, and the same pruning, cheaper.
            let x = if a == 1 { x } else { x.minus() };
            let y = if b == 1 { y.minus() } else { y };
            let offset = y.offset.saturating_add(constant);
            if offset.unsigned_abs() <= u64::from(crate::var::MAX_VIEW_OFFSET.unsigned_abs()) {
                return self.post(NotEqual::new(x, IntView { offset, ..y }));
            }
        }
        if relation == Relation::Eq {
            // Two or three unit terms (sums and differences): the same pruning, cheaper.
            if let Some(p) = UnitSum::<2>::new(&terms, constant) {
                return self.post(p);
            }
            if let Some(p) = UnitSum::<3>::new(&terms, constant) {
                return self.post(p);
            }
        }
        self.post(Linear::new(terms, relation, constant))
    }

    /// `Σ vars (relation) constant`.
    pub fn sum<V: Into<IntView> + Copy>(
        &mut self,
        vars: &[V],
        relation: Relation,
        constant: i32,
    ) -> Result<(), ModelError> {
        self.linear(&vec![1; vars.len()], vars, relation, constant)
    }

    /// A rule stated as a closure over the values of `vars` (in the order given), checked
    /// once all of them are fixed. It prunes nothing before that, so prefer a real
    /// constraint where one exists.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let v = m.int_vars(2, 1..=6)?;
    /// m.check(&v, |d| d[0] * d[1] == 6)?; // (1,6) (2,3) (3,2) (6,1)
    /// assert_eq!(Solver::new(m).count(), 4);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn check<V, F>(&mut self, vars: &[V], predicate: F) -> Result<(), ModelError>
    where
        V: Into<IntView> + Copy,
        F: Fn(&[i32]) -> bool + Send + 'static,
    {
        let views = views(self, vars)?;
        self.post(Check::new(views, Box::new(predicate)))
    }
}
mod arith;
mod boolean;
mod extensional;
mod scheduling;
mod structural;
pub use crate::propagators::Dfa;
pub use boolean::BoolVar;
