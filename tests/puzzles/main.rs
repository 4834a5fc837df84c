//! Puzzles solved through the `bezzel` facade and checked against ground truth from outside
//! the engine (published counts and answers, independent checkers and counters, brute force)
//! before anything is compared with a snapshot: the gallery of `examples/`, N-Queens, Sudoku,
//! Latin squares, and the pictures of boards and grids.
//!
//! One test binary for all of them (linking one binary instead of one per file is most of the
//! build time saved). Each module is one suite; to add one, put the file next to this one and
//! declare it below. Shared helpers are crate modules: a suite reaches them with
//! `use crate::common;` (bezzel-cli's `tests/common/mod.rs`, which runs the programs).
//! Snapshots live in `snapshots/` here, named `puzzles__<module>__<name>.snap`.

#[path = "../../crates/bezzel-cli/tests/common/mod.rs"]
mod common;

mod gallery;
mod golomb_rulers;
mod grid_snapshots;
mod nonograms;
mod queens_counts;
mod queens_snapshots;
mod sudoku_batch;
mod sudoku_snapshots;
mod svg_pictures;
