//! A puzzle's search, recorded and drawn: the tree page of [`bezzel_core::search::tree`]
//! with the domains at a node shown as the grid (a fixed cell's value, another's
//! candidates), in the puzzle's alphabet.

use crate::batch::{Answer, Mode, Settings};
use crate::grid::{Alphabet, Grid};
use crate::model::{Sudoku, SudokuError};
use bezzel_core::search::tree::{self, Layout, PageOptions, SearchTree};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Answers `puzzle` as a batch with `settings` would (the same search, so the same nodes),
/// with a recorder keeping at most `limit` nodes watching; returns the answer and the tree.
pub fn record(
    settings: &Settings,
    puzzle: &Grid,
    limit: usize,
    cancel: Option<Arc<AtomicBool>>,
) -> Result<(Answer, SearchTree), SudokuError> {
    let mut sudoku = Sudoku::with_options(puzzle, settings.search, settings.consistency)?;
    if let Some(flag) = cancel {
        sudoku.solver_mut().set_cancel_flag(flag);
    }
    tree::start(sudoku.solver_mut(), limit);
    let outcome = match settings.mode {
        Mode::Unique => sudoku.count(2),
        Mode::First => sudoku.solve(),
        Mode::Count(limit) => sudoku.count(limit),
    };
    let tree = tree::take(sudoku.solver_mut()).expect("the recorder put there");
    Ok((Answer::from_outcome(settings.mode, outcome), tree))
}

/// How a page draws a search over `puzzle`'s cells: as the grid, values in `alphabet`.
pub fn page_options(puzzle: &Grid, alphabet: Alphabet, title: &str) -> PageOptions {
    let n = puzzle.size();
    PageOptions {
        title: title.to_string(),
        layout: Layout::Grid {
            rows: n,
            cols: n,
            boxes: puzzle.box_size(),
        },
        symbols: (0..=n as u8)
            .map(|v| alphabet.symbol(v).map(String::from).unwrap_or_default())
            .collect(),
    }
}
