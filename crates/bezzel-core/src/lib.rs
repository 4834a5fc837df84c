//! # bezzel-core: finite-domain constraint search
//!
//! Bezzel states a puzzle as integer variables with finite domains and constraints between
//! them, then finds solutions by propagation and depth-first search. Data flows one way:
//!
//! 1. **Model** — a [`Model`] creates variables ([`VarId`], with a domain and a name) and posts
//!    constraints: built-ins such as [`Model::all_different`], [`Model::linear`] or
//!    [`Model::check`], or any user type implementing [`Propagator`]. Constraints take
//!    [`IntView`]s, so `x + c` and `-x` need no special propagators.
//! 2. **Propagation** — the engine inside the model keeps domains as bitsets in a store; every
//!    change is recorded on a trail and raises an [`Event`] that wakes the propagators
//!    subscribed to it, cheapest [`Priority`] first, until a fixpoint or a [`Conflict`].
//! 3. **Search** — a [`Solver`] takes the model and branches on variables ([`VarOrder`],
//!    [`ValueOrder`]) with an explicit stack, through a small engine API (decide, propagate,
//!    mark, restore); backtracking restores the trail to the mark taken before the branch.
//! 4. **Solutions** — lazily through [`Solver::solutions`], or [`Solver::first`],
//!    [`Solver::count`], a canonical [`SolutionSet`] for snapshot tests, and [`Statistics`] of
//!    every run. Solutions and sets print themselves by name, matrices as grids.
//!
//! ## Example: SEND + MORE = MONEY
//!
//! ```
//! use bezzel_core::prelude::*;
//!
//! let mut m = Model::new();
//! let s = m.named_var("S", 1..=9)?; // leading digits are not zero
//! let mo = m.named_var("M", 1..=9)?;
//! let [e, n, d, o, r, y] = ["E", "N", "D", "O", "R", "Y"].map(|name| m.named_var(name, 0..=9));
//! let [e, n, d, o, r, y] = [e?, n?, d?, o?, r?, y?];
//! m.all_different(&[s, e, n, d, mo, o, r, y])?;
//! m.linear(
//!     &[1000, 100, 10, 1, 1000, 100, 10, 1, -10000, -1000, -100, -10, -1],
//!     &[s, e, n, d, mo, o, r, e, mo, o, n, e, y],
//!     Relation::Eq,
//!     0,
//! )?;
//! let mut solver = Solver::new(m);
//! let answer = solver.first().expect("SEND + MORE = MONEY has a solution");
//! let word = |xs: &[VarId]| xs.iter().fold(0, |acc, &x| acc * 10 + answer[x]);
//! assert_eq!(word(&[s, e, n, d]), 9567);
//! assert_eq!(word(&[mo, o, r, e]), 1085);
//! assert_eq!(word(&[mo, o, n, e, y]), 10652);
//! assert_eq!(solver.count(), 1);
//! println!("{}", solver.stats());
//! # Ok::<(), ModelError>(())
//! ```
//!
//! ## One integer type: `i32`
//!
//! Every value a user gives or reads is an `i32`: domains, [`fix`](Model::fix), view offsets,
//! table tuples, counts and cardinalities, reified values, `among` sets, `element_const`
//! arrays, `value_precede` values, durations and heights, linear coefficients and right-hand
//! sides, objective values ([`Optimum::value`], [`Optimize::best_value`]) and solutions.
//! Domains are bitsets over `i32` values and solutions were `i32` already, so that is the type
//! the engine holds. Sums and products are computed in `i64` (or `i128`) inside the
//! propagators, so no intermediate result overflows, and every view a model accepts (its
//! offset within ±[`MAX_VIEW_OFFSET`](var::MAX_VIEW_OFFSET)) takes only `i32` values. A value
//! that does not fit is a clear [`ModelError`], never a silent wrap. Sizes and positions
//! (numbers of variables, matrix rows, nonogram clue lengths) are `usize`, as any Rust length;
//! the propagator layer ([`Context`], the constructors in [`propagators`]) reads and narrows
//! views in `i64`, where its arithmetic happens.
//!
//! Beyond one thread: [`Solver::parallel`] makes a solver that counts and optimises on
//! worker threads (and resumes counts from a checkpoint, or spreads them over MPI ranks) with
//! the same calls as on one; underneath, [`parallel`] splits the tree into subproblems solved
//! on a `rayon` pool by the `bezzel-runner` crate, whose [`checkpoint`] lets a long split run
//! resume after an interruption.
//!
//! ## Adding a constraint
//!
//! Implement [`Propagator`]: the [`propagator`] module docs walk through it step by step.
//!
//! ## The guide
//!
//! `docs/guide.md` in the repository (the `bezzel::guide` module of the `bezzel` crate) walks
//! from a first puzzle to search settings, custom propagators, parallel counts, snapshot
//! tests, optimisation and the catalogue of constraints, every example compiled and run.

#![deny(missing_docs)]

pub mod constraints;
pub mod domain;
mod engine;
pub mod error;
mod event;
mod families;
pub mod markup;
pub mod matrix;
pub mod model;
pub mod parallel;
pub mod propagator;
pub mod propagators;
mod queue;
pub mod search;
pub mod solution;
mod store;
mod trail;
pub mod var;

// The runner's statistics and checkpoint journal, at the paths they had when they lived here.
pub use bezzel_runner::{checkpoint, stats};

pub use constraints::BoolVar;
pub use constraints::Consistency;
pub use constraints::Dfa;
pub use domain::{DomainSpec, IntoDomain, MAX_DOMAIN_WIDTH, MAX_VALUE, MIN_VALUE};
pub use error::ModelError;
pub use event::Event;
pub use matrix::Matrix;
pub use model::Model;
pub use propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup, WordView};
pub use propagators::Reif;
pub use propagators::Relation;
pub use queue::Priority;
pub use search::{BranchGroup, Brancher, Domains, Optimize, Optimum, Sense};
pub use search::{
    Decision, Limits, Restarts, SearchConfig, Solutions, Solver, ValueOrder, VarOrder,
};
pub use search::{Lns, LnsRun, Neighbourhood};
pub use solution::{Solution, SolutionSet};
pub use stats::{Statistics, StopReason};
pub use store::{Conflict, TrailedInt};
pub use var::{IntView, VarId};

/// Everything needed to state and solve a model: `use bezzel_core::prelude::*;`.
pub mod prelude {
    pub use crate::{
        Assignment, Conflict, Consistency, Context, Decision, Event, IntView, IntoDomain, Limits,
        Matrix, Model, ModelError, Priority, PropResult, PropStatus, Propagator, Relation,
        Restarts, SearchConfig, Setup, Solution, SolutionSet, Solver, Statistics, StopReason,
        TrailedInt, ValueOrder, VarId, VarOrder, WordView,
    };
    pub use crate::{BoolVar, BranchGroup, Brancher, Dfa, Domains, Optimize, Optimum, Reif, Sense};
}
