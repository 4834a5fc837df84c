//! Search control: variable groups with orders of their own, and user-supplied branchers.
//!
//! [`Solver::branch_groups`] branches on a sequence of [`BranchGroup`]s, each with its own
//! [`VarOrder`](super::VarOrder) and [`ValueOrder`](super::ValueOrder), before the variables
//! that no group names (which get the configuration's orders). [`Solver::brancher`] puts a
//! [`Brancher`] in front of them: at each node it sees the domains ([`Domains`]) and returns the
//! decision to branch on, or `None` to leave the node to the built-in branching. The right
//! branch is always the decision's negation, so any brancher keeps search complete: the two
//! branches partition the node's solutions.

use super::branching::BranchGroup;
use super::decision::Decision;
use super::dfs::Solver;
use super::guide::Steer;
use crate::engine::Engine;
use crate::error::ModelError;
use crate::var::{UNBOUND, VarId};
use std::fmt;

/// Chooses the decision to branch on at each node of search: see [`Solver::brancher`].
///
/// ```
/// use bezzel_core::prelude::*;
/// use bezzel_core::search::{Brancher, Domains};
///
/// /// Largest domain first, its largest value first: an order no built-in expresses.
/// #[derive(Debug)]
/// struct LargestFirst(Vec<VarId>);
///
/// impl Brancher for LargestFirst {
///     fn decide(&mut self, domains: &Domains<'_>) -> Option<Decision> {
///         let x = self
///             .0
///             .iter()
///             .copied()
///             .filter(|&x| !domains.is_fixed(x))
///             // Ties go to the earliest.
///             .max_by_key(|&x| (domains.size(x), std::cmp::Reverse(x.index())))?;
///         Some(Decision::Assign(x, domains.max(x)))
///     }
/// }
///
/// let mut m = Model::new();
/// let x = m.int_vars(3, 0..=2)?;
/// m.all_different(&x)?;
/// let mut solver = Solver::new(m).brancher(LargestFirst(x.clone()));
/// assert_eq!(solver.first().unwrap().values_of(&x), [2, 1, 0]);
/// assert_eq!(solver.count(), 6);
/// # Ok::<(), ModelError>(())
/// ```
pub trait Brancher: Send + fmt::Debug {
    /// The decision to branch on at the current node (its left branch; the right branch is its
    /// negation), or `None` to leave the node to the solver's built-in branching (its groups,
    /// then every other variable), which also takes over once this returns `None` at a node
    /// where variables remain unfixed.
    ///
    /// The decision must name a variable of the model and split its domain: `Assign` and
    /// `Exclude` a value in the domain of an unfixed variable, `AtMost(x, v)` and `Above(x, v)`
    /// a `v` with `min(x) <= v < max(x)`. Anything else is a bug in the brancher, and search
    /// panics naming it (a decision that splits nothing would repeat the node forever).
    ///
    /// It is called at every node, after propagation, and again at a node revisited after
    /// backtracking: it should not rely on being called in any particular sequence.
    fn decide(&mut self, domains: &Domains<'_>) -> Option<Decision>;
}

/// Read access to the domains at a node of search, for a [`Brancher`] or an
/// [`Observer`](super::Observer).
///
/// Every method takes a variable of the model being searched and panics on another's.
pub struct Domains<'a> {
    engine: &'a Engine,
    model: u32,
    num_vars: usize,
}

impl<'a> Domains<'a> {
    /// The domains of `engine`'s variables, model number `model`.
    pub(super) fn new(engine: &'a Engine, model: u32, num_vars: usize) -> Domains<'a> {
        Domains {
            engine,
            model,
            num_vars,
        }
    }
}

impl Domains<'_> {
    /// The index of `x`, which must belong to the model searched (or be an unbound variable
    /// of an index in range, as read back from a file).
    #[inline]
    fn index(&self, x: VarId) -> u32 {
        assert!(
            (x.model == self.model || x.model == UNBOUND) && x.index() < self.num_vars,
            "variable {x:?} is not a variable of the model being searched"
        );
        x.index
    }

    /// Number of variables of the model.
    pub fn num_vars(&self) -> usize {
        self.num_vars
    }

    /// Every variable of the model, in creation order.
    pub fn vars(&self) -> impl Iterator<Item = VarId> + '_ {
        (0..self.num_vars as u32).map(|index| VarId {
            model: self.model,
            index,
        })
    }

    /// The smallest value of `x`.
    pub fn min(&self, x: VarId) -> i32 {
        self.engine.min(self.index(x))
    }

    /// The largest value of `x`.
    pub fn max(&self, x: VarId) -> i32 {
        self.engine.max(self.index(x))
    }

    /// The number of values of `x`.
    pub fn size(&self, x: VarId) -> u32 {
        self.engine.size(self.index(x))
    }

    /// Whether `x` has one value left.
    pub fn is_fixed(&self, x: VarId) -> bool {
        self.engine.is_fixed(self.index(x))
    }

    /// Whether `v` is in the domain of `x`.
    pub fn contains(&self, x: VarId, v: i32) -> bool {
        self.engine.contains(self.index(x), v)
    }

    /// The values of `x`, in increasing order.
    pub fn values(&self, x: VarId) -> impl Iterator<Item = i32> + '_ {
        self.engine.values(self.index(x))
    }
}

impl fmt::Debug for Domains<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_map();
        for x in self.vars() {
            list.entry(&x, &self.values(x).collect::<Vec<_>>());
        }
        list.finish()
    }
}

/// The user's brancher, as the solver keeps it.
#[derive(Debug)]
pub(super) struct Custom(Box<dyn Brancher>);

impl Custom {
    /// The brancher's decision at the current node, on this model's variable, checked to
    /// split its domain.
    ///
    /// # Panics
    /// If the decision names another model's variable or splits nothing.
    pub(super) fn decide(
        &mut self,
        engine: &Engine,
        model: u32,
        num_vars: usize,
    ) -> Option<Decision> {
        let domains = Domains {
            engine,
            model,
            num_vars,
        };
        let decision = self.0.decide(&domains)?;
        let x = domains.index(decision.var());
        let (min, max) = (engine.min(x), engine.max(x));
        let splits = match decision {
            Decision::Assign(_, v) | Decision::Exclude(_, v) => min < max && engine.contains(x, v),
            Decision::AtMost(_, v) | Decision::Above(_, v) => min <= v && v < max,
        };
        assert!(
            splits,
            "brancher {:?} returned {decision:?}, which does not split the domain of {:?} \
             ({:?})",
            self.0,
            decision.var(),
            domains.values(decision.var()).collect::<Vec<_>>()
        );
        Some(decision.bound_to(model))
    }
}

impl Solver {
    /// Branches on `groups` in order, each with its own variable and value order: search
    /// branches on the variables of a group once every variable of the groups before it is
    /// fixed, and on the variables that no group names last, with the configuration's orders,
    /// so every solution still fixes every variable. A variable may be in several groups (it
    /// is branched on in the first one while unfixed). This generalises
    /// [`branch_on`](Solver::branch_on), which is one group with the configuration's orders,
    /// and replaces it (as `branch_on` replaces the groups).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// use bezzel_core::search::BranchGroup;
    ///
    /// let mut m = Model::new();
    /// let x = m.int_vars(2, 0..=1)?;
    /// let y = m.int_vars(2, 0..=1)?;
    /// let mut solver = Solver::new(m).branch_groups(&[
    ///     // y first, largest value first, the last y first...
    ///     BranchGroup { vars: vec![y[1], y[0]], var_order: VarOrder::InputOrder, value_order: ValueOrder::Max },
    ///     // ...then x, smallest value first.
    ///     BranchGroup { vars: x.clone(), var_order: VarOrder::InputOrder, value_order: ValueOrder::Min },
    /// ])?;
    /// let first: Vec<Vec<i32>> =
    ///     solver.solutions().take(3).map(|s| [s.values_of(&y), s.values_of(&x)].concat()).collect();
    /// assert_eq!(first, [[1, 1, 0, 0], [1, 1, 0, 1], [1, 1, 1, 0]]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn branch_groups(mut self, groups: &[BranchGroup]) -> Result<Solver, ModelError> {
        for g in groups {
            for &x in &g.vars {
                self.model.check_var(x)?;
            }
        }
        self.branching
            .branch_groups(groups, self.model.num_vars() as u32);
        Ok(self)
    }

    /// Puts `brancher` in front of the built-in branching: at each node its decision is
    /// branched on, and when it returns `None` the node goes to the groups
    /// ([`branch_groups`](Solver::branch_groups)) and then the remaining variables, so a
    /// solution always fixes every variable. See [`Brancher`] for what a decision must be; one
    /// that breaks the rules makes search panic, naming it.
    ///
    /// Parallel searches ([`ParallelSearch`](crate::parallel::ParallelSearch)) build their own
    /// solvers, each with a brancher of its own: see
    /// [`ParallelSearch::brancher`](crate::parallel::ParallelSearch::brancher). The
    /// [`Brancher`] docs have an example.
    ///
    /// Cost: one call of [`Brancher::decide`] per node, and a check that its decision splits
    /// the domain.
    pub fn brancher(self, brancher: impl Brancher + 'static) -> Solver {
        self.boxed_brancher(Box::new(brancher))
    }

    /// [`brancher`](Solver::brancher) for a brancher boxed already (a parallel worker's).
    pub(crate) fn boxed_brancher(mut self, brancher: Box<dyn Brancher>) -> Solver {
        let guided = self.guide.is_on();
        self.custom = Some(Box::new(Steer {
            user: Some(Custom(brancher)),
            guided,
        }));
        self
    }
}
