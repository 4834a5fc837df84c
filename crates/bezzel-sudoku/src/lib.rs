//! # bezzel-sudoku: Sudoku of any box size on Bezzel
//!
//! - [`grid`]: the grid, its line and grid text forms, and clashing givens;
//! - [`check`]: an independent validity checker for solutions (no solver involved);
//! - [`generate`]: new puzzles, each with exactly one solution (proven by the engine), with
//!   a symmetry of the givens, minimal or not, reproducible from a seed;
//! - [`logic`]: solving as a person does, with candidates and human techniques: the next
//!   step (a hint), a whole explanation, and a rating by the hardest technique needed;
//! - [`reader`]: reading puzzles as text arrives, a batch of lines or one grid, in either
//!   alphabet (the formats accepted are documented there);
//! - [`stream`]: puzzles read on a thread of their own, handed over in chunks as they
//!   arrive, so that a slow pipe's puzzles are answered one by one and a file's in full chunks;
//! - [`kernel`]: a hand-written bit-parallel search for 9×9 puzzles (singles, then a branch
//!   on a cell with two candidates), which answers them several times faster than the model;
//! - [`model`]: the constraint model on the generic engine (a variable per cell, an
//!   `all_different` per row, column and box), with solve, count and statistics;
//! - [`batch`]: answering a stream of puzzles as the `sudoku` program does: on many threads
//!   in input order, stopped cleanly by a cancel flag, each answer in text, board or JSON form;
//! - [`output`]: answers written one after another in the program's text, board or JSON
//!   form, or all drawn as one SVG picture;
//! - [`svg`]: grids drawn as SVG pictures, givens set apart from the cells a solution filled;
//! - [`tree`]: a puzzle's search recorded, and drawn as an HTML page of the search tree.
#![deny(missing_docs)]

pub mod batch;
pub mod check;
pub mod generate;
pub mod grid;
pub mod kernel;
pub mod logic;
pub mod model;
pub mod output;
pub mod reader;
pub mod stream;
pub mod svg;
pub mod tree;

/// A valid solved grid of any box size, for the unit tests of several modules: row r is the
/// first row shifted by `b * (r % b) + r / b`, the textbook pattern.
#[cfg(test)]
fn pattern(b: usize) -> grid::Grid {
    let n = b * b;
    let cells = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            ((b * (r % b) + r / b + c) % n + 1) as u8
        })
        .collect();
    grid::Grid::from_cells(b, cells).unwrap()
}

/// The puzzle of Wikipedia's "Sudoku" article and the solution printed there, for the unit
/// tests of several modules.
#[cfg(test)]
mod wikipedia {
    pub(crate) const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    pub(crate) const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
}
