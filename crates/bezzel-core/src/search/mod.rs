//! Search: depth-first search over a [`Model`](crate::Model), with an explicit stack.
//!
//! A [`Solver`] owns the model. Each node picks an unfixed variable ([`VarOrder`]) and a
//! decision on it ([`ValueOrder`]): the left branch applies the decision, the right branch its
//! negation. Every frame of the stack holds the trail mark taken before the left branch, so
//! backtracking is a restore to that mark; the depth of search is bounded by memory, not by the
//! call stack. Search is resumable between solutions, which is what makes
//! [`Solver::solutions`] a lazy iterator. Limits (solutions, nodes, time, a cancellation flag)
//! end a run early; [`Statistics::stopped`](crate::Statistics::stopped) says which.
//!
//! The module is split by idea, and everything public is re-exported here:
//!
//! * `dfs` — the [`Solver`], its runs ([`Solutions`], counts, runs below a prefix) and the
//!   depth-first loop;
//! * `decision` — [`Decision`], what a node tries, and its negation;
//! * `branching` — [`VarOrder`], [`ValueOrder`] and the choice at each node;
//! * `brancher` — search control: [`Solver::branch_groups`] ([`BranchGroup`]s of variables,
//!   each with its own orders) and [`Solver::brancher`] (a user's [`Brancher`], reading
//!   [`Domains`]);
//! * [`guide`] — last-conflict branching and solution-guided values
//!   ([`SearchConfig::last_conflict`], [`SearchConfig::solution_phase`]), which
//!   [`SearchConfig::for_optimization`] turns on;
//! * [`lns`] — [`Solver::lns`]: large neighbourhood search ([`Lns`]), which finds good
//!   solutions of large problems fast and proves optimality only by the complete search it
//!   interleaves;
//! * `restarts` — [`Restarts`] after a Luby-sequence budget of failures ([`luby`]);
//! * `split` — [`Solver::split`]: the tree cut into decision prefixes for parallel or resumable
//!   runs;
//! * `config` — [`SearchConfig`] and [`Limits`];
//! * `optimize` — [`Solver::minimize`] and [`Solver::maximize`]: branch and bound, with the
//!   improving solutions as an iterator ([`Optimize`]) and what it found ([`Optimum`]);
//! * `observe` — [`Observer`]: what sees every [`Node`] of a run ([`Solver::observe`]), at no
//!   cost to runs nobody watches;
//! * [`tree`] — the search tree recorded by an observer (bounded), and drawn as an HTML page;
//! * [`threads`] — [`Solver::parallel`]: the same solver searching on worker threads, with
//!   resumable and distributed counts.

mod brancher;
mod branching;
mod config;
mod decision;
mod dfs;
pub mod guide;
mod learning;
pub mod lns;
mod observe;
mod optimize;
mod restarts;
mod split;
#[cfg(test)]
mod tests;
pub mod threads;
pub mod tree;

pub use brancher::{Brancher, Domains};
pub use branching::{BranchGroup, ValueOrder, VarOrder};
pub use config::{Limits, SearchConfig, checks_by_default};
pub use decision::Decision;
pub use dfs::{Solutions, Solver};
pub use lns::{Lns, LnsRun, Neighbourhood};
pub use observe::{Node, Observer};
pub use optimize::{Optimize, Optimum, Sense};
pub use restarts::{Restarts, luby};
