//! # Bezzel
//!
//! A finite-domain constraint-search framework, named after Max Bezzel, who posed the
//! eight-queens puzzle in 1848. This crate only re-exports:
//!
//! - [`core`]: the engine (models, propagators, search, solutions);
//! - [`queens`]: N-Queens on the engine, plus the classic fast paths;
//! - [`sudoku`]: Sudoku of any box size on the engine;
//! - [`prelude`]: what a puzzle definition needs;
//! - [`guide`]: the user guide, from a first puzzle to custom propagators, parallel counts,
//!   snapshot tests, optimisation and the catalogue of constraints.

#![deny(missing_docs)]

pub use bezzel_core as core;
pub use bezzel_queens as queens;
pub use bezzel_sudoku as sudoku;

/// `use bezzel::prelude::*;` brings the modelling and search API into scope.
pub mod prelude {
    pub use bezzel_core::prelude::*;
}

#[doc = include_str!("../docs/guide.md")]
pub mod guide {}

/// The README's code, compiled and run as a doctest so that the tour cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
