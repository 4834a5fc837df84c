//! # bezzel-sudoku: Sudoku of any box size on Bezzel
//!
//! - [`grid`]: the grid, its line and grid text forms, and clashing givens;
//! - [`check`]: an independent validity checker for solutions (no solver involved).
#![deny(missing_docs)]

pub mod check;
pub mod grid;
