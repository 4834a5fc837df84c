//! The model: variables, their names, and the propagators posted on them.
//!
//! A [`Model`] is where a puzzle is stated. Variables are created with a domain and an optional
//! name; constraints are posted either through the built-in modelling functions (see
//! [`constraints`](crate::constraints)) or as any user type implementing [`Propagator`]. The
//! model keeps what the user named (variables, their names, which model they belong to) and
//! checks what is posted; the domains, the propagators and propagation itself belong to the
//! engine inside it, which a [`Solver`](crate::Solver) takes over to search. Posting never
//! propagates: the first propagation happens when search starts, and a contradiction there is
//! simply "no solution".
//!
//! Constructors follow one pattern: `int_var(domain)` / `int_vars(n, domain)` and
//! `bool_var()` / `bool_vars(n)` make variables named after their index (`x3`), and the
//! `named_` forms ([`named_var`](Model::named_var), [`named_vars`](Model::named_vars),
//! [`named_bool`](Model::named_bool), [`named_bools`](Model::named_bools),
//! [`int_matrix`](Model::int_matrix)) take the name, or the prefix of the names, first, as
//! anything that converts into a `String`.

use crate::domain::IntoDomain;
use crate::engine::Engine;
use crate::error::ModelError;
use crate::families::Families;
use crate::matrix::Matrix;
use crate::propagator::Propagator;
use crate::store::Conflict;
use crate::var::{IntView, VarId};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

static NEXT_MODEL_ID: AtomicU32 = AtomicU32::new(0);

/// The variables' names, and which variables are auxiliary (introduced by expressions rather
/// than declared by the user), in creation order.
#[derive(Debug, Clone, Default)]
pub(crate) struct Names {
    pub(crate) list: Vec<String>,
    pub(crate) auxiliary: Vec<bool>,
}

impl Names {
    /// Whether some variable is auxiliary: solutions then print only the others.
    pub(crate) fn has_auxiliaries(&self) -> bool {
        self.auxiliary.iter().any(|&a| a)
    }
}

/// A constraint model: variables with domains, and propagators on them.
///
/// ```
/// use bezzel_core::prelude::*;
///
/// let mut m = Model::new();
/// let x = m.named_var("x", 0..=3)?;
/// let y = m.named_var("y", 0..=3)?;
/// m.less_than(x, y)?;
/// m.not_equal(x.offset(1), y)?; // x + 1 != y
/// assert_eq!(Solver::new(m).count(), 3); // (0,2) (0,3) (1,3)
/// # Ok::<(), ModelError>(())
/// ```
pub struct Model {
    id: u32,
    engine: Engine,
    /// Shared with the solutions a solver reports, so that each can print itself by name for
    /// the cost of a reference count; copied only if a name changes while one is alive.
    names: Arc<Names>,
    /// The all-differents posted since families were last formed, which may join one.
    families: Families,
}

impl Default for Model {
    fn default() -> Model {
        Model::new()
    }
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Model")
            .field("variables", &self.names.list.len())
            .field("propagators", &self.engine.num_propagators())
            .finish()
    }
}

impl Model {
    /// An empty model.
    pub fn new() -> Model {
        Model {
            id: Model::next_id(),
            engine: Engine::new(),
            names: Arc::default(),
            families: Families::default(),
        }
    }

    /// A number no other model of this process has (until 2³² - 1 models were made), and never
    /// [`UNBOUND`](crate::var::UNBOUND), the number of variables read back from a file.
    fn next_id() -> u32 {
        loop {
            let id = NEXT_MODEL_ID.fetch_add(1, Ordering::Relaxed);
            if id != crate::var::UNBOUND {
                return id;
            }
        }
    }

    /// A new variable named `x<index>`, with domain `domain` (a range or a set of values).
    pub fn int_var(&mut self, domain: impl IntoDomain) -> Result<VarId, ModelError> {
        let name = format!("x{}", self.names.list.len());
        self.named_var(name, domain)
    }

    /// A new variable with a name, used when solutions are printed.
    pub fn named_var(
        &mut self,
        name: impl Into<String>,
        domain: impl IntoDomain,
    ) -> Result<VarId, ModelError> {
        let name = name.into();
        let spec = domain.into_domain().map_err(|e| match e {
            ModelError::EmptyDomain { .. } => ModelError::EmptyDomain {
                name: Some(name.clone()),
            },
            other => other,
        })?;
        let index = self.engine.add_var(&spec);
        let names = Arc::make_mut(&mut self.names);
        names.list.push(name);
        names.auxiliary.push(false);
        Ok(VarId {
            model: self.id,
            index,
        })
    }

    /// `n` new variables named `x<index>`, all with the same domain.
    pub fn int_vars(
        &mut self,
        n: usize,
        domain: impl IntoDomain,
    ) -> Result<Vec<VarId>, ModelError> {
        let spec = domain.into_domain()?;
        (0..n).map(|_| self.int_var(&spec)).collect()
    }

    /// `n` new variables named `prefix[0]`, `prefix[1]`, ... with the same domain.
    pub fn named_vars(
        &mut self,
        prefix: impl Into<String>,
        n: usize,
        domain: impl IntoDomain,
    ) -> Result<Vec<VarId>, ModelError> {
        let prefix = prefix.into();
        let spec = domain.into_domain()?;
        (0..n)
            .map(|i| self.named_var(format!("{prefix}[{i}]"), &spec))
            .collect()
    }

    /// A `rows × cols` matrix of new variables named `prefix[r][c]`, with row, column and
    /// block slices for stating puzzles on grids.
    pub fn int_matrix(
        &mut self,
        prefix: impl Into<String>,
        rows: usize,
        cols: usize,
        domain: impl IntoDomain,
    ) -> Result<Matrix, ModelError> {
        // Variables are numbered by `u32`: a matrix beyond that is refused before any is made.
        let room = u32::MAX as usize - self.num_vars();
        let len = match rows.checked_mul(cols) {
            Some(len) if len <= room => len,
            _ => {
                return Err(ModelError::InvalidArgument {
                    reason: format!("a matrix of {rows} × {cols} variables is too large"),
                });
            }
        };
        let prefix = prefix.into();
        let spec = domain.into_domain()?;
        // Grown as variables are made rather than sized up front: an allocation that large
        // would abort rather than fail.
        let mut vars = Vec::with_capacity(len.min(1 << 16));
        for r in 0..rows {
            for c in 0..cols {
                vars.push(self.named_var(format!("{prefix}[{r}][{c}]"), &spec)?);
            }
        }
        Ok(Matrix::new(rows, cols, vars))
    }

    /// The number that tells this model's variables from those of other models.
    pub(crate) fn id(&self) -> u32 {
        self.id
    }

    /// Number of variables, auxiliary ones included.
    pub fn num_vars(&self) -> usize {
        self.names.list.len()
    }

    /// Number of posted propagators.
    pub fn num_propagators(&self) -> usize {
        self.engine.num_propagators()
    }

    /// All variables in creation order, auxiliary ones included.
    pub fn vars(&self) -> Vec<VarId> {
        (0..self.names.list.len() as u32)
            .map(|index| VarId {
                model: self.id,
                index,
            })
            .collect()
    }

    /// The variables the user declared, in creation order: all but the auxiliary ones (see
    /// [`is_auxiliary`](Model::is_auxiliary)).
    pub fn declared_vars(&self) -> Vec<VarId> {
        self.vars()
            .into_iter()
            .filter(|x| !self.names.auxiliary[x.index()])
            .collect()
    }

    /// Whether `x` is auxiliary: a variable that posting an expression introduced (for
    /// `x * y`, say) rather than one the user declared. Auxiliary variables are functions
    /// of the others; [`Solver::solution_set`](crate::Solver::solution_set) and printed
    /// solutions leave them out
    /// ([`Solver::solution_set_with_auxiliaries`](crate::Solver::solution_set_with_auxiliaries)
    /// keeps them), while [`Solution::value`](crate::Solution::value) reads them as any other.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.named_var("x", 0..=3)?;
    /// let y = m.named_var("y", 0..=3)?;
    /// m.post((x * y).eq(2))?;
    /// assert_eq!(m.num_vars(), 3); // the product has a variable
    /// assert!(!m.is_auxiliary(x)? && m.is_auxiliary(m.vars()[2])?);
    /// let mut solver = Solver::new(m);
    /// assert_eq!(solver.solution_set().to_string(), "x=1 y=2\nx=2 y=1\n");
    /// assert_eq!(solver.first().unwrap().to_string(), "x=1 y=2");
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn is_auxiliary(&self, x: VarId) -> Result<bool, ModelError> {
        self.check_var(x)?;
        Ok(self.names.auxiliary[x.index()])
    }

    /// Marks a variable as auxiliary (see [`is_auxiliary`](Model::is_auxiliary)).
    pub(crate) fn mark_auxiliary(&mut self, x: VarId) {
        Arc::make_mut(&mut self.names).auxiliary[x.index()] = true;
    }

    /// The name of a variable.
    pub fn name(&self, x: VarId) -> Result<&str, ModelError> {
        self.check_var(x)?;
        Ok(&self.names.list[x.index()])
    }

    /// Every variable's name, in creation order, auxiliary ones included.
    pub fn names(&self) -> &[String] {
        &self.names.list
    }

    /// The names, shared, for the solutions of a search to print themselves with.
    pub(crate) fn shared_names(&self) -> &Arc<Names> {
        &self.names
    }

    /// Renames a variable.
    pub fn set_name(&mut self, x: VarId, name: impl Into<String>) -> Result<(), ModelError> {
        self.check_var(x)?;
        Arc::make_mut(&mut self.names).list[x.index()] = name.into();
        Ok(())
    }

    /// The current domain of `x`, in increasing order.
    pub fn domain(&self, x: VarId) -> Result<Vec<i32>, ModelError> {
        self.check_var(x)?;
        Ok(self.engine.values(x.index).collect())
    }

    /// Number of propagators that listen to `x` (its degree). One constraint may post more than
    /// one propagator: a bounds-level `all_different` counts twice (see
    /// [`all_different_with`](Model::all_different_with)), which the degree-based variable
    /// orders see too. All-differents that form a family (see
    /// [`all_different_with`](Model::all_different_with)) count once per unit, as when each
    /// runs on its own.
    pub fn degree(&self, x: VarId) -> Result<usize, ModelError> {
        self.check_var(x)?;
        Ok(self.engine.degree(x.index))
    }

    /// Fails unless `x` was created by this model.
    pub fn check_var(&self, x: VarId) -> Result<(), ModelError> {
        if x.model == self.id && x.index() < self.names.list.len() {
            Ok(())
        } else {
            Err(ModelError::ForeignVariable { index: x.index })
        }
    }

    /// Fails unless `x` is a variable of this model, or an unbound one (read back from its
    /// serialized form, see [`VarId`]) whose index is in range: what a decision prefix may name.
    pub(crate) fn check_decision_var(&self, x: VarId) -> Result<(), ModelError> {
        if x.model == crate::var::UNBOUND && x.index() < self.names.list.len() {
            Ok(())
        } else {
            self.check_var(x)
        }
    }

    /// Fails unless the view's variable was created by this model and its offset is within
    /// ±[`MAX_VIEW_OFFSET`](crate::var::MAX_VIEW_OFFSET), so that its values fit an `i32`;
    /// a scaled view ([`IntView::scale`]) also needs a nonzero scale and every value over
    /// its variable's declared domain within `i32`.
    pub fn check_view(&self, v: IntView) -> Result<(), ModelError> {
        self.check_var(v.var)?;
        if !v.is_unit() {
            if v.scale == 0 {
                return Err(ModelError::InvalidArgument {
                    reason: format!(
                        "view {v:?} is scaled by 0: a constant, not a view of its variable"
                    ),
                });
            }
            let (lo, hi) = self.engine().declared_bounds(v.var.index);
            let (a, b) = (v.to_view(lo), v.to_view(hi));
            let fits = |w: i64| i32::try_from(w).is_ok();
            if !fits(a) || !fits(b) {
                return Err(ModelError::InvalidArgument {
                    reason: format!(
                        "view {v:?} takes values up to {} over its variable's domain \
                         {lo}..={hi}, beyond i32",
                        a.abs().max(b.abs())
                    ),
                });
            }
        }
        if v.offset.unsigned_abs() > u64::from(crate::var::MAX_VIEW_OFFSET.unsigned_abs()) {
            return Err(ModelError::InvalidArgument {
                reason: format!(
                    "view {v:?} has an offset beyond ±{}, so its values would not fit an i32",
                    crate::var::MAX_VIEW_OFFSET
                ),
            });
        }
        Ok(())
    }

    /// `v` moved onto this model's variable at the position `v`'s variable has in its own
    /// model: a view made on another build of the same model (every build of a model made
    /// the same way has the same variables in the same order, so the position names the same
    /// variable in each). What a search on copies of the model ([`Solver::parallel`],
    /// [`ParallelSearch`](crate::parallel::ParallelSearch)) accepts as an objective. Fails,
    /// saying so, when this model has no variable at that position, and as
    /// [`check_view`](Model::check_view) on an offset out of range.
    ///
    /// [`Solver::parallel`]: crate::Solver::parallel
    pub(crate) fn same_position(&self, v: IntView) -> Result<IntView, ModelError> {
        if v.var.model != self.id && v.var.index() >= self.num_vars() {
            return Err(ModelError::InvalidArgument {
                reason: format!(
                    "variable #{} is of another model, and this one has only {} variables: \
                     a search on copies of a model takes a variable of any copy, at a \
                     position every copy has",
                    v.var.index,
                    self.num_vars()
                ),
            });
        }
        let here = IntView {
            var: VarId {
                model: self.id,
                index: v.var.index,
            },
            ..v
        };
        self.check_view(here)?;
        Ok(here)
    }

    /// Checks a full assignment (`values[i]` for the variable of index `i`): every value lies
    /// in the domain its variable was declared with, and the definition of every posted
    /// constraint holds ([`Propagator::is_satisfied`]), without any propagation: an
    /// independent check of a solution.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=3)?;
    /// let y = m.int_var(0..=3)?;
    /// m.less_than(x, y)?;
    /// assert!(m.check_assignment(&[1, 2]).is_ok());
    /// assert!(m.check_assignment(&[2, 2]).is_err());
    /// assert!(m.check_assignment(&[-7, 1000]).is_err()); // outside the domains
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn check_assignment(&self, values: &[i32]) -> Result<(), ModelError> {
        if values.len() != self.num_vars() {
            return Err(ModelError::LengthMismatch {
                what: "assignment: values and variables",
                expected: self.num_vars(),
                found: values.len(),
            });
        }
        if let Some(x) = (0..values.len()).find(|&x| {
            !self
                .engine
                .declared_contains(x as u32, i64::from(values[x]))
        }) {
            return Err(ModelError::NotInDomain {
                name: self.names.list[x].clone(),
                value: values[x],
            });
        }
        self.check_constraints(values)
    }

    /// The constraint half of [`check_assignment`](Model::check_assignment), for a search's
    /// own solutions (whose values come from the domains).
    pub(crate) fn check_constraints(&self, values: &[i32]) -> Result<(), ModelError> {
        match self.engine.violated(values) {
            Some((propagator, name)) => Err(ModelError::ConstraintViolated { propagator, name }),
            None => Ok(()),
        }
    }

    /// [`post`](Model::post) for a propagator that is boxed already.
    pub fn post_boxed(&mut self, mut propagator: Box<dyn Propagator>) -> Result<(), ModelError> {
        let subscriptions = self.engine.setup(propagator.as_mut());
        let watched = subscriptions.watches.iter().map(|(view, _, _)| view);
        for view in subscriptions
            .views
            .iter()
            .map(|(view, _, _)| view)
            .chain(watched)
        {
            self.check_view(*view)?;
        }
        self.engine.add_propagator(propagator, subscriptions);
        Ok(())
    }

    /// Propagates every constraint to a fixpoint now, narrowing the domains that
    /// [`domain`](Model::domain) reports, e.g. to see what a model deduces before any search.
    /// `Err(Conflict)` means the model has no solution. Search starts from the model as
    /// posted either way, so calling this is never needed before solving.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=9)?;
    /// let y = m.int_var(0..=3)?;
    /// m.less_than(x, y)?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(x)?, vec![0, 1, 2]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn propagate(&mut self) -> Result<(), Conflict> {
        self.form_families();
        self.engine.schedule_all();
        let mut runs = 0;
        self.engine.propagate(&mut runs)
    }

    /// Posts a domain-level all-different on `views` (at least three), noting it as a unit
    /// that may join a family (see [`families`](crate::families)).
    pub(crate) fn post_all_different_domain(
        &mut self,
        views: Vec<IntView>,
    ) -> Result<(), ModelError> {
        let p = self.engine.num_propagators();
        self.post(crate::propagators::AllDifferentDomain::new(views.clone()))?;
        self.families.note_domain_unit(&self.engine, p, views);
        Ok(())
    }

    /// Posts a value-level all-different on `views` (at least three), noting it as a unit that
    /// may join a family (see [`families`](crate::families)).
    pub(crate) fn post_all_different_value(
        &mut self,
        views: Vec<IntView>,
    ) -> Result<(), ModelError> {
        let p = self.engine.num_propagators();
        self.post(crate::propagators::AllDifferentValue::new(views.clone()))?;
        self.families.note_value_unit(&self.engine, p, views);
        Ok(())
    }

    /// Forms the families of the all-differents noted since the last call (see
    /// [`families`](crate::families)). Called when search or propagation starts, so that a
    /// model is stated without any special call.
    pub(crate) fn form_families(&mut self) {
        self.families.form(&mut self.engine);
    }

    /// The engine, to read domains.
    #[inline]
    pub(crate) fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, for the solver to propagate, decide and backtrack.
    #[inline]
    pub(crate) fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_carry_names_and_reject_other_models() {
        let mut a = Model::new();
        let mut b = Model::new();
        let x = a.named_var("x", 1..=3).unwrap();
        let q = a.named_vars("q", 2, 0..4).unwrap();
        let y = b.int_var(0..=1).unwrap();
        assert_eq!(a.name(x).unwrap(), "x");
        assert_eq!(a.name(q[1]).unwrap(), "q[1]");
        assert_eq!(b.name(y).unwrap(), "x0");
        assert_eq!(a.name(y), Err(ModelError::ForeignVariable { index: 0 }));
        assert_eq!(
            a.not_equal(x, y),
            Err(ModelError::ForeignVariable { index: 0 })
        );
        assert_eq!(a.domain(q[0]).unwrap(), vec![0, 1, 2, 3]);
        assert_eq!(
            a.named_var("z", std::ops::RangeInclusive::new(3, 1)),
            Err(ModelError::InvalidRange { lo: 3, hi: 1 })
        );
        assert_eq!(
            a.named_var("z", 3..3),
            Err(ModelError::EmptyDomain {
                name: Some("z".into())
            })
        );
    }

    #[test]
    fn degree_counts_listening_propagators() {
        let mut m = Model::new();
        let v = m.int_vars(3, 0..=2).unwrap();
        m.all_different(&v).unwrap();
        m.not_equal(v[0], v[1]).unwrap();
        assert_eq!(m.degree(v[0]).unwrap(), 2);
        assert_eq!(m.degree(v[2]).unwrap(), 1);
    }
}
