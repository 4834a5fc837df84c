//! # bezzel-core: finite-domain constraint search
//!
//! Bezzel states a puzzle as integer variables with finite domains and constraints between
//! them, then finds solutions by propagation and depth-first search. Data flows one way:
//!
//! 1. **Model** — a [`Model`] creates variables ([`VarId`], with a domain and a name) and posts
//!    constraints: expressions such as `m.post((x + 2 * y).le(z))` (see [`expr`]), built-ins
//!    such as [`Model::all_different`], [`Model::linear`] or [`Model::check`], or any user
//!    type implementing [`Propagator`]. Constraints take [`IntView`]s, so `x + c` and `-x`
//!    need no special propagators.
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
//! let [s, e, n, d, mo, o, r, y] =
//!     ["S", "E", "N", "D", "M", "O", "R", "Y"].map(|name| m.named_var(name, 0..=9));
//! let [s, e, n, d, mo, o, r, y] = [s?, e?, n?, d?, mo?, o?, r?, y?];
//! m.all_different(&[s, e, n, d, mo, o, r, y])?;
//! let send = 1000 * s + 100 * e + 10 * n + d;
//! let more = 1000 * mo + 100 * o + 10 * r + e;
//! let money = 10000 * mo + 1000 * o + 100 * n + 10 * e + y;
//! m.post((send + more).eq(money))?; // one linear constraint, E's terms merged
//! m.post(s.ne(0) & mo.ne(0))?; // leading digits are not zero
//! let mut solver = Solver::new(m);
//! let answer = solver.first().expect("SEND + MORE = MONEY has a solution");
//! assert_eq!(answer.to_string(), "S=9 E=5 N=6 D=7 M=1 O=0 R=8 Y=2");
//! assert_eq!(solver.count(), 1);
//! println!("{}", solver.stats());
//! # Ok::<(), ModelError>(())
//! ```
//!
//! The same sum by coefficients, the call the expression lowers to:
//! `m.linear(&[1000, 91, -90, 1, -9000, -900, 10, -1], &[s, e, n, d, mo, o, r, y],
//! Relation::Eq, 0)`.
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
//! Beyond one thread: [`Solver::parallel`] makes a solver that counts, enumerates and
//! optimises on worker threads (and resumes counts from a checkpoint, or spreads them over MPI ranks) with
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
pub mod expr;
mod families;
pub mod learn;
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
pub use expr::{BoolExpr, IntExpr, Postable};
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
    pub use crate::expr::{abs, element, max, min, sum};
    pub use crate::{
        Assignment, Conflict, Consistency, Context, Decision, Event, IntView, IntoDomain, Limits,
        Matrix, Model, ModelError, Priority, PropResult, PropStatus, Propagator, Relation,
        Restarts, SearchConfig, Setup, Solution, SolutionSet, Solver, Statistics, StopReason,
        TrailedInt, ValueOrder, VarId, VarOrder, WordView,
    };
    pub use crate::{BoolExpr, IntExpr, Postable};
    pub use crate::{BoolVar, BranchGroup, Brancher, Dfa, Domains, Optimize, Optimum, Reif, Sense};
}
