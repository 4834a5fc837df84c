//! Booleans, clauses, connectives and reification.
//!
//! A Boolean is an integer variable over `0..=1` (0 is false, 1 is true), so every integer
//! constraint takes it: `m.sum(&bs, Relation::Eq, 3)` says that exactly three are true.
//! [`Model::named_bool`] (or [`Model::bool_var`], unnamed) makes one as a [`BoolVar`], a typed handle that converts into a
//! [`VarId`] and an [`IntView`]; its negation `!b` (or `b.not()`) is the view `1 - b`.
//!
//! The Boolean constraints take *literals*: any view whose values are 0 and 1 — a `BoolVar`,
//! its negation, or a plain variable declared over `0..=1`. Anything else is a
//! [`ModelError::InvalidArgument`].

use crate::error::ModelError;
use crate::model::Model;
use crate::propagators::{Clause, Equal, FixTo, MAX_LINEAR_TERMS, Parity, Reif, Reified, Relation};
use crate::solution::Solution;
use crate::var::{IntView, VarId};
use std::fmt;

/// A Boolean variable: a [`VarId`] whose domain is `0..=1`.
///
/// It converts into a [`VarId`] and an [`IntView`], so it goes wherever integer variables go;
/// [`not`](BoolVar::not) (or `!b`) is the view `1 - b`.
///
/// ```
/// use bezzel_core::prelude::*;
/// let mut m = Model::new();
/// let b = m.named_bool("b")?;
/// let c = m.named_bool("c")?;
/// m.clause(&[b], &[c])?; // b or not c
/// m.equal(b, !c)?; // b = 1 - c
/// let s = Solver::new(m).first().unwrap();
/// assert_eq!((s[b], s[c]), (1, 0));
/// # Ok::<(), ModelError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoolVar(VarId);

impl BoolVar {
    /// The underlying integer variable.
    pub fn var(self) -> VarId {
        self.0
    }

    /// The view `1 - self`: true exactly when `self` is false.
    #[allow(clippy::should_implement_trait)] // `Not` is implemented too; this needs no import.
    pub fn not(self) -> IntView {
        self.0.minus().offset(1)
    }
}

impl std::ops::Not for BoolVar {
    type Output = IntView;

    /// The view `1 - b`.
    fn not(self) -> IntView {
        BoolVar::not(self)
    }
}

impl From<BoolVar> for VarId {
    fn from(b: BoolVar) -> VarId {
        b.0
    }
}

impl From<BoolVar> for IntView {
    fn from(b: BoolVar) -> IntView {
        b.0.into()
    }
}

impl From<&BoolVar> for IntView {
    fn from(b: &BoolVar) -> IntView {
        b.0.into()
    }
}

impl fmt::Debug for BoolVar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::ops::Index<BoolVar> for Solution {
    type Output = i32;

    /// The value of a Boolean (0 or 1); panics as [`Solution::value`] does.
    fn index(&self, b: BoolVar) -> &i32 {
        &self[b.0]
    }
}

/// The negation `1 - l` of a literal.
fn negate(l: IntView) -> IntView {
    l.minus().offset(1)
}

impl Model {
    /// A new Boolean variable (domain `0..=1`) named `x<index>`, as [`int_var`](Model::int_var)
    /// names it.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let b = m.bool_var()?;
    /// m.fix(b, 0)?;
    /// assert_eq!(Solver::new(m).first().unwrap().to_string(), "x0=0");
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn bool_var(&mut self) -> Result<BoolVar, ModelError> {
        self.int_var(0..=1).map(BoolVar)
    }

    /// A new Boolean variable (domain `0..=1`) with a name.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let rain = m.named_bool("rain")?;
    /// let wet = m.named_bool("wet")?;
    /// m.implies(rain, wet)?;
    /// m.fix(wet, 0)?;
    /// assert_eq!(Solver::new(m).first().unwrap().to_string(), "rain=0 wet=0");
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn named_bool(&mut self, name: impl Into<String>) -> Result<BoolVar, ModelError> {
        self.named_var(name, 0..=1).map(BoolVar)
    }

    /// `n` new Boolean variables named `x<index>`, as [`int_vars`](Model::int_vars) names
    /// them.
    pub fn bool_vars(&mut self, n: usize) -> Result<Vec<BoolVar>, ModelError> {
        Ok(self.int_vars(n, 0..=1)?.into_iter().map(BoolVar).collect())
    }

    /// `n` new Boolean variables named `prefix[0]`, `prefix[1]`, ...
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let b = m.named_bools("b", 4)?;
    /// m.sum(&b, Relation::Eq, 2)?; // exactly two are true
    /// assert_eq!(Solver::new(m).count(), 6);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn named_bools(
        &mut self,
        prefix: impl Into<String>,
        n: usize,
    ) -> Result<Vec<BoolVar>, ModelError> {
        Ok(self
            .named_vars(prefix, n, 0..=1)?
            .into_iter()
            .map(BoolVar)
            .collect())
    }

    /// `x` as a [`BoolVar`], when the domain it was declared with lies within `0..=1`;
    /// otherwise a [`ModelError::InvalidArgument`].
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=1)?;
    /// let b = m.as_bool(x)?;
    /// m.implies(b, !b)?; // b, as a literal: true only if false, so false
    /// let wide = m.int_var(0..=2)?;
    /// assert!(m.as_bool(wide).is_err());
    /// assert_eq!(Solver::new(m).first().unwrap()[x], 0);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn as_bool(&self, x: VarId) -> Result<BoolVar, ModelError> {
        self.literal("as_bool", x)?;
        Ok(BoolVar(x))
    }

    /// Fixes `x` to `value`, in one call. Like every constraint it takes effect when the
    /// model propagates (at the start of search, or with [`Model::propagate`]). Cost: one
    /// run, at the start.
    ///
    /// Errors: `x` belongs to another model ([`ModelError::ForeignVariable`]), or `value` is
    /// not in the domain it was declared with ([`ModelError::NotInDomain`]). A value that
    /// only propagation ruled out is accepted: the model then has no solution.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var(1..=9)?;
    /// m.fix(x, 4)?;
    /// assert!(m.fix(x, 12).is_err());
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(x)?, vec![4]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn fix(&mut self, x: impl Into<VarId>, value: i32) -> Result<(), ModelError> {
        let x = x.into();
        self.check_var(x)?;
        if !self.engine().declared_contains(x.index, value.into()) {
            return Err(ModelError::NotInDomain {
                name: self.name(x)?.to_string(),
                value,
            });
        }
        self.post(FixTo::new(x.into(), value.into()))
    }

    /// Checks that `l` is a view of this model whose values all lie in `{0, 1}`, in the
    /// domain its variable was declared with (which search starts from, whatever a
    /// [`Model::propagate`] narrowed since).
    pub(crate) fn literal(&self, what: &str, l: impl Into<IntView>) -> Result<IntView, ModelError> {
        let l = l.into();
        self.check_view(l)?;
        let (lo, hi) = self.engine().declared_bounds(l.var().index);
        let bad = [lo, hi]
            .into_iter()
            .find(|&v| !(0..=1).contains(&l.to_view(v)));
        if let Some(bad) = bad {
            return Err(ModelError::InvalidArgument {
                reason: format!(
                    "{what}: {l:?} (variable `{}`) can take the value {}; a Boolean literal \
                     takes only 0 and 1",
                    self.name(l.var())?,
                    l.to_view(bad)
                ),
            });
        }
        Ok(l)
    }

    fn literals<V: Into<IntView> + Copy>(
        &self,
        what: &str,
        ls: &[V],
    ) -> Result<Vec<IntView>, ModelError> {
        ls.iter().map(|&l| self.literal(what, l)).collect()
    }

    /// The clause `p₁ ∨ p₂ ∨ … ∨ ¬n₁ ∨ ¬n₂ ∨ …`: at least one of `positive` is 1 or one of
    /// `negative` is 0. With no literals at all it is false (the model has no solution).
    ///
    /// Strength: unit propagation, which is domain consistent. Cost: two watched literals,
    /// so a wake-up costs O(1) until a watch becomes false, and moving one costs O(n).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let b = m.named_bools("b", 3)?;
    /// m.clause(&[b[0], b[1]], &[b[2]])?; // b0 or b1 or not b2
    /// assert_eq!(Solver::new(m).count(), 7); // all but (0, 0, 1)
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn clause<P, N>(&mut self, positive: &[P], negative: &[N]) -> Result<(), ModelError>
    where
        P: Into<IntView> + Copy,
        N: Into<IntView> + Copy,
    {
        let mut lits = self.literals("clause", positive)?;
        lits.extend(self.literals("clause", negative)?.into_iter().map(negate));
        self.post(Clause::new(lits))
    }

    /// `r <-> (b₁ ∧ b₂ ∧ …)`. With no `bs`, `r` is 1 (the empty conjunction is true).
    ///
    /// Strength: domain consistent (through clauses: `r -> bᵢ` for each `i`, and
    /// `b₁ ∧ … -> r`). Cost: n + 1 clause propagators; O(1) a wake-up outside watch moves.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let b = m.named_bools("b", 3)?;
    /// let r = m.named_bool("r")?;
    /// m.and(&b, r)?;
    /// m.fix(r, 1)?;
    /// m.propagate().unwrap();
    /// assert!(b.iter().all(|&x| m.domain(x.var()).unwrap() == vec![1]));
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn and<V: Into<IntView> + Copy>(
        &mut self,
        bs: &[V],
        r: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let bs = self.literals("and", bs)?;
        let r = self.literal("and", r)?;
        for &b in &bs {
            self.post(Clause::new(vec![negate(r), b]))?;
        }
        let mut all = vec![r];
        all.extend(bs.into_iter().map(negate));
        self.post(Clause::new(all))
    }

    /// `r <-> (b₁ ∨ b₂ ∨ …)`. With no `bs`, `r` is 0 (the empty disjunction is false).
    ///
    /// Strength: domain consistent (through clauses: `bᵢ -> r` for each `i`, and
    /// `r -> b₁ ∨ …`). Cost: n + 1 clause propagators.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let b = m.named_bools("b", 3)?;
    /// let r = m.named_bool("r")?;
    /// m.or(&b, r)?;
    /// m.fix(b[1], 1)?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(r.var())?, vec![1]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn or<V: Into<IntView> + Copy>(
        &mut self,
        bs: &[V],
        r: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let bs = self.literals("or", bs)?;
        let r = self.literal("or", r)?;
        for &b in &bs {
            self.post(Clause::new(vec![negate(b), r]))?;
        }
        let mut any = vec![negate(r)];
        any.extend(bs);
        self.post(Clause::new(any))
    }

    /// `r <-> (b₁ ⊕ b₂ ⊕ …)`: `r` is 1 exactly when an odd number of `bs` are. With no `bs`,
    /// `r` is 0.
    ///
    /// Strength: domain consistent when the literals are views of distinct variables (the
    /// last free literal is fixed). Cost: one propagator with two watched free literals, O(1)
    /// a wake-up until a watch is fixed, O(n) to move one.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let b = m.named_bools("b", 3)?;
    /// m.xor(&b[..2], b[2])?; // b2 = b0 xor b1
    /// assert_eq!(Solver::new(m).count(), 4);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn xor<V: Into<IntView> + Copy>(
        &mut self,
        bs: &[V],
        r: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let mut lits = self.literals("xor", bs)?;
        lits.push(self.literal("xor", r)?);
        // b₁ ⊕ … = r  <=>  b₁ + … + r is even.
        self.post(Parity::new(lits, false))
    }

    /// `a -> b` (a clause `¬a ∨ b`). Domain consistent; O(1).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let [a, b] = [m.named_bool("a")?, m.named_bool("b")?];
    /// m.implies(a, b)?;
    /// assert_eq!(Solver::new(m).count(), 3);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn implies(
        &mut self,
        a: impl Into<IntView>,
        b: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let a = self.literal("implies", a)?;
        let b = self.literal("implies", b)?;
        self.post(Clause::new(vec![negate(a), b]))
    }

    /// `a = not b`, that is `a = 1 - b`. Domain consistent; O(1).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let [a, b] = [m.named_bool("a")?, m.named_bool("b")?];
    /// m.not(a, b)?;
    /// m.fix(b, 0)?;
    /// assert_eq!(Solver::new(m).first().unwrap()[a], 1);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn not(&mut self, a: impl Into<IntView>, b: impl Into<IntView>) -> Result<(), ModelError> {
        let a = self.literal("not", a)?;
        let b = self.literal("not", b)?;
        self.post(Equal::new(a, negate(b)))
    }

    /// `b (mode) x = value`: with [`Reif::Equiv`], `b` is 1 exactly when `x = value`; with
    /// [`Reif::Imp`] only `b -> x = value`; with [`Reif::Pmi`] only `x = value -> b`.
    ///
    /// Strength: domain consistent. Cost: O(1) a run.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=5)?;
    /// let b = m.named_bool("b")?;
    /// m.eq_value_reif(x, 3, b, Reif::Equiv)?;
    /// m.fix(b, 0)?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(x)?, vec![0, 1, 2, 4, 5]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn eq_value_reif(
        &mut self,
        x: impl Into<IntView>,
        value: i32,
        b: impl Into<IntView>,
        mode: Reif,
    ) -> Result<(), ModelError> {
        let b = self.literal("eq_value_reif", b)?;
        let x = x.into();
        self.check_view(x)?;
        self.post(Reified::eq_value(b, mode, x, i64::from(value)))
    }

    /// `b (mode) x <= value` (see [`Reif`] for the modes).
    ///
    /// Strength: domain consistent (the condition depends on bounds alone). Cost: O(1).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=5)?;
    /// let b = m.named_bool("b")?;
    /// m.le_value_reif(x, 3, b, Reif::Equiv)?;
    /// m.fix(b, 0)?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(x)?, vec![4, 5]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn le_value_reif(
        &mut self,
        x: impl Into<IntView>,
        value: i32,
        b: impl Into<IntView>,
        mode: Reif,
    ) -> Result<(), ModelError> {
        let b = self.literal("le_value_reif", b)?;
        let x = x.into();
        self.check_view(x)?;
        self.post(Reified::le_value(b, mode, x, i64::from(value)))
    }

    /// `b (mode) x = y` (see [`Reif`] for the modes).
    ///
    /// Strength: domain consistent when `x` and `y` are views of distinct variables: `b`
    /// becomes 0 as soon as the domains share no value, 1 when both are fixed to one value;
    /// `b = 1` makes them keep their common values, `b = 0` removes a fixed side's value from
    /// the other. Cost: O(|D(x)| + |D(y)|) a run.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=3)?;
    /// let y = m.int_var(2..=5)?;
    /// let b = m.named_bool("b")?;
    /// m.equal_reif(x, y, b, Reif::Equiv)?;
    /// m.fix(b, 1)?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(x)?, vec![2, 3]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn equal_reif(
        &mut self,
        x: impl Into<IntView>,
        y: impl Into<IntView>,
        b: impl Into<IntView>,
        mode: Reif,
    ) -> Result<(), ModelError> {
        let b = self.literal("equal_reif", b)?;
        let (x, y) = (x.into(), y.into());
        self.check_view(x)?;
        self.check_view(y)?;
        self.post(Reified::equal(b, mode, x, y))
    }

    /// `b (mode) x <= y` (see [`Reif`] for the modes); `less_eq_reif(x.offset(1), y, ..)` is
    /// `x < y`.
    ///
    /// Strength: bounds consistent on `x` and `y` (for distinct variables), domain consistent
    /// on `b`. Cost: O(1) a run.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=5)?;
    /// let y = m.int_var(0..=5)?;
    /// let b = m.named_bool("b")?;
    /// m.less_eq_reif(x, y, b, Reif::Equiv)?;
    /// m.fix(b, 0)?; // so y < x
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(x)?, vec![1, 2, 3, 4, 5]);
    /// assert_eq!(m.domain(y)?, vec![0, 1, 2, 3, 4]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn less_eq_reif(
        &mut self,
        x: impl Into<IntView>,
        y: impl Into<IntView>,
        b: impl Into<IntView>,
        mode: Reif,
    ) -> Result<(), ModelError> {
        let b = self.literal("less_eq_reif", b)?;
        let (x, y) = (x.into(), y.into());
        self.check_view(x)?;
        self.check_view(y)?;
        self.post(Reified::less_eq(b, mode, x, y))
    }

    /// `b (mode) Σ coefficients[i]·vars[i] (relation) constant` (see [`Reif`] for the modes).
    ///
    /// Strength: `b` is fixed once the bounds of the sum entail or refute the relation; the
    /// relation (or its negation: `<=` becomes `>= c + 1`, `>=` becomes `<= c - 1`) is then
    /// pruned with the bounds reasoning of [`Model::linear`], and `!=` (the negation of `=`)
    /// prunes once every term but one is fixed. Cost: O(n) a run.
    ///
    /// The sum is exact (as in [`Model::linear`]), so `<= i64::MAX` and `>= i64::MIN` are real
    /// relations that large coefficients can break; their negations (constants outside
    /// `i64`) get the same bounds reasoning. Errors as [`Model::linear`].
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_vars(3, 0..=2)?;
    /// let b = m.named_bool("b")?;
    /// m.linear_reif(&[1, 1, 1], &x, Relation::Ge, 5, b, Reif::Equiv)?; // b <-> x0+x1+x2 >= 5
    /// m.fix(x[0], 2)?;
    /// m.fix(x[1], 2)?;
    /// m.fix(b, 0)?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(x[2])?, vec![0]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn linear_reif<V: Into<IntView> + Copy>(
        &mut self,
        coefficients: &[i32],
        vars: &[V],
        relation: Relation,
        constant: i32,
        b: impl Into<IntView>,
        mode: Reif,
    ) -> Result<(), ModelError> {
        if coefficients.len() != vars.len() {
            return Err(ModelError::LengthMismatch {
                what: "linear_reif: coefficients and variables",
                expected: coefficients.len(),
                found: vars.len(),
            });
        }
        if vars.len() > MAX_LINEAR_TERMS {
            return Err(ModelError::InvalidArgument {
                reason: format!(
                    "linear_reif: {} terms; at most {MAX_LINEAR_TERMS} are supported",
                    vars.len()
                ),
            });
        }
        let b = self.literal("linear_reif", b)?;
        let mut terms = Vec::with_capacity(vars.len());
        for (&a, &v) in coefficients.iter().zip(vars) {
            let v = v.into();
            self.check_view(v)?;
            terms.push((i64::from(a), v));
        }
        self.post(Reified::linear(
            b,
            mode,
            terms,
            relation,
            i64::from(constant),
        ))
    }
}
