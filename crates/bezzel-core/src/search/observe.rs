//! Watching search: an [`Observer`] sees every node of a run as it happens.
//!
//! Each node is reported once, after its propagation: the root (no decision, depth 0), then
//! every decision applied, left branch or right, at the depth of the decision stack, with
//! whether propagation failed and read access to the domains it left ([`Domains`]); a node
//! that turns out to fix every variable is then reported as a solution. So an observer sees
//! exactly [`Statistics::nodes`](crate::Statistics::nodes) nodes, in depth-first order, and
//! can rebuild the tree from the depths alone ([`tree`](super::tree) does).
//!
//! Watching costs nothing when nobody watches: the search loop exists in two copies, and the
//! one without an observer has no observer code in it, so a run tests for an observer once
//! per solution (when it starts the loop), never at a node. Runs that split the tree for
//! parallel work ([`Solver::split`]) are not reported.

use super::brancher::Domains;
use super::decision::Decision;
use super::dfs::Solver;
use std::any::Any;
use std::fmt;

/// One node of search, as an [`Observer`] sees it.
#[derive(Debug)]
pub struct Node<'a> {
    /// Decisions on the stack above this node: 0 for the root, which is the model as posted
    /// (with a run's prefix, such as [`Solver::count_in`]'s, applied to it).
    pub depth: usize,
    /// The decision that made this node from its parent; `None` at the root.
    pub decision: Option<Decision>,
    /// Whether the decision or the propagation after it failed.
    pub failed: bool,
    /// The domains after propagation. After a failure they are what propagation left when it
    /// stopped, which may be inconsistent.
    pub domains: &'a Domains<'a>,
}

/// Sees every node of a search run ([`Solver::observe`]).
///
/// Each node is reported once, after its propagation, in depth-first order: the root (no
/// decision, depth 0), then every decision applied, left branch or right, with whether it
/// failed and its domains; a node that fixes every variable is then reported as a solution.
/// So an observer sees exactly [`Statistics::nodes`](crate::Statistics::nodes) nodes, and the
/// depths alone give the tree ([`tree::Recorder`](super::tree::Recorder) rebuilds it). Runs
/// nobody watches pay nothing: see [`Solver::observe`].
///
/// ```
/// use bezzel_core::prelude::*;
/// use bezzel_core::search::{Node, Observer};
///
/// /// Counts nodes by depth.
/// #[derive(Debug, Default)]
/// struct Depths(Vec<u64>);
///
/// impl Observer for Depths {
///     fn node(&mut self, node: &Node<'_>) {
///         if self.0.len() <= node.depth {
///             self.0.resize(node.depth + 1, 0);
///         }
///         self.0[node.depth] += 1;
///     }
/// }
///
/// let mut m = Model::new();
/// let x = m.int_vars(3, 0..=2)?;
/// m.all_different(&x)?;
/// let mut solver = Solver::new(m);
/// solver.observe(Depths::default());
/// assert_eq!(solver.count(), 6);
/// let depths: Depths = solver.take_observer().expect("a Depths");
/// assert_eq!(depths.0.iter().sum::<u64>(), solver.stats().nodes);
/// # Ok::<(), ModelError>(())
/// ```
pub trait Observer: Any + Send + fmt::Debug {
    /// A node, just propagated.
    fn node(&mut self, node: &Node<'_>);

    /// The node last reported, at `depth`, is a solution (every variable is fixed).
    fn solution(&mut self, depth: usize) {
        let _ = depth;
    }
}

impl Solver {
    /// Reports every node of the next runs to `observer`, until
    /// [`take_observer`](Solver::take_observer) takes it back. Replaces any observer there
    /// was.
    ///
    /// Cost: nothing to runs without an observer (the search loop exists in two copies, and
    /// the unwatched one has no observer code in it; a run tests for an observer when it
    /// starts or resumes, not at a node). Runs that split the tree for parallel work
    /// ([`Solver::split`]) are not reported.
    pub fn observe(&mut self, observer: impl Observer) {
        self.observer = Some(Box::new(observer));
    }

    /// Takes the observer back, if it is a `T`; stops reporting nodes either way.
    pub fn take_observer<T: Observer>(&mut self) -> Option<T> {
        let observer: Box<dyn Any> = self.observer.take()?;
        observer.downcast::<T>().ok().map(|b| *b)
    }

    /// Whether an observer is watching.
    pub fn is_observed(&self) -> bool {
        self.observer.is_some()
    }
}
