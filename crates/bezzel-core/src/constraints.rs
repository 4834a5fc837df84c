//! Modelling functions: the constraints a puzzle is stated with.
//!
//! Each function validates its arguments (variables of this model, matching lengths), may
//! simplify (an all-different of two views is a `!=`, of fewer it is nothing), and posts the
//! propagator from [`propagators`](crate::propagators) that implements it. Arguments are views,
//! so offsets are written where they belong: `m.less_eq(x.offset(2), y)` states `x + 2 <= y`.

use crate::error::ModelError;
use crate::model::Model;
use crate::propagators::{AllDifferentValue, Check, Equal, LessEq, Linear, NotEqual, Relation};
use crate::var::IntView;

fn views<V: Into<IntView> + Copy>(m: &Model, vars: &[V]) -> Result<Vec<IntView>, ModelError> {
    vars.iter()
        .map(|&v| {
            let view = v.into();
            m.check_view(view).map(|_| view)
        })
        .collect()
}

impl Model {
    /// All views take pairwise different values (value consistency).
    pub fn all_different<V: Into<IntView> + Copy>(&mut self, vars: &[V]) -> Result<(), ModelError> {
        let views = views(self, vars)?;
        match views.len() {
            0 | 1 => Ok(()),
            2 => self.post(NotEqual::new(views[0], views[1])),
            _ => self.post(AllDifferentValue::new(views)),
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

    /// `Σ coefficients[i] · vars[i]  (relation)  constant`, with bounds reasoning.
    pub fn linear<V: Into<IntView> + Copy>(
        &mut self,
        coefficients: &[i64],
        vars: &[V],
        relation: Relation,
        constant: i64,
    ) -> Result<(), ModelError> {
        if coefficients.len() != vars.len() {
            return Err(ModelError::LengthMismatch {
                what: "linear: coefficients and variables",
                expected: coefficients.len(),
                found: vars.len(),
            });
        }
        let views = views(self, vars)?;
        let terms = coefficients.iter().copied().zip(views).collect();
        self.post(Linear::new(terms, relation, constant))
    }

    /// `Σ vars (relation) constant`.
    pub fn sum<V: Into<IntView> + Copy>(
        &mut self,
        vars: &[V],
        relation: Relation,
        constant: i64,
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
        F: Fn(&[i64]) -> bool + Send + 'static,
    {
        let views = views(self, vars)?;
        self.post(Check::new(views, Box::new(predicate)))
    }
}
