//! The 9×9 kernel judged by other searches: on public puzzles, on the same puzzles with givens
//! taken away (many solutions) or changed (often none), and on givens drawn at random from a
//! solved grid, its count up to a limit equals that of the plain backtracking counter (where
//! its tree is small) or of the engine's model, its first solution passes the independent
//! checker, and a count below the limit is marked exact.

use crate::oracle::solutions;
use bezzel_core::StopReason;
use bezzel_sudoku::check;
use bezzel_sudoku::grid::Grid;
use bezzel_sudoku::kernel::{self, Limits};
use bezzel_sudoku::model;
use bezzel_sudoku::reader::PuzzleLines;
use std::sync::atomic::AtomicBool;

const TOP1465: &str = include_str!("../../../../tests/data/top1465_sample.txt");
const SEVENTEEN: &str = include_str!("../../../../tests/data/sudoku17_sample.txt");
/// Counts are compared up to this many solutions.
const LIMIT: usize = 12;

fn puzzles(text: &str) -> Vec<Grid> {
    PuzzleLines::new(text)
        .map(|(line, g)| g.unwrap_or_else(|e| panic!("line {line}: {e}")))
        .collect()
}

/// Who judges a count.
#[derive(Clone, Copy)]
enum Judge {
    /// The plain counter here: slow where the tree is big (a hard puzzle, or no solution).
    Counter,
    /// The engine's model: a search of its own (domain consistency, dom/wdeg).
    Model,
}

/// The kernel's count of `puzzle` against the judge's, with the first solution checked.
fn assert_counts_agree(puzzle: &Grid, judge: Judge) {
    let line = puzzle.to_line();
    let found = kernel::count_grid(
        puzzle,
        Limits {
            solutions: LIMIT as u64,
            check: true,
            ..Limits::default()
        },
    );
    assert_eq!(found.givens_clash, puzzle.first_clash().is_some(), "{line}");
    if found.givens_clash {
        assert_eq!(found.stats.solutions, 0, "clashing givens in {line}");
        assert!(found.stats.is_complete(), "{line}");
        return;
    }
    let expected = match judge {
        Judge::Counter => solutions(puzzle, LIMIT),
        Judge::Model => model::count(puzzle, LIMIT as u64).unwrap().solutions as usize,
    };
    assert_eq!(found.stats.solutions, expected as u64, "{line}");
    let exact = expected < LIMIT;
    assert_eq!(found.stats.is_complete(), exact, "{line}");
    if !exact {
        assert_eq!(
            found.stats.stopped,
            Some(StopReason::SolutionLimit),
            "{line}"
        );
    }
    match found.first {
        Some(values) => {
            let solution = Grid::from_cells(3, values).unwrap();
            assert_eq!(
                check::is_valid_solution(puzzle, &solution),
                Ok(()),
                "{line}"
            );
        }
        None => assert_eq!(expected, 0, "{line}"),
    }
}

/// The puzzle with every `step`-th given (from the `offset`-th) emptied.
fn without_givens(puzzle: &Grid, step: usize, offset: usize) -> Grid {
    let mut cells = puzzle.cells().to_vec();
    let givens: Vec<usize> = (0..81).filter(|&c| cells[c] != 0).collect();
    for &c in givens.iter().skip(offset).step_by(step) {
        cells[c] = 0;
    }
    Grid::from_cells(3, cells).unwrap()
}

#[test]
fn counts_equal_the_models_on_public_puzzles_and_their_variants() {
    let all: Vec<Grid> = puzzles(TOP1465)
        .into_iter()
        .take(25)
        .chain(puzzles(SEVENTEEN).into_iter().take(25))
        .collect();
    for (i, puzzle) in all.iter().enumerate() {
        assert_counts_agree(puzzle, Judge::Model);
        // One given gone, and a quarter of them: several solutions, or very many.
        assert_counts_agree(&without_givens(puzzle, 100, i % 17), Judge::Model);
        assert_counts_agree(&without_givens(puzzle, 4, i % 4), Judge::Model);
        // One given changed: mostly no solution, sometimes clashing givens.
        let mut cells = puzzle.cells().to_vec();
        let c = (0..81).filter(|&c| cells[c] != 0).nth(i % 17).unwrap();
        cells[c] = cells[c] % 9 + 1;
        assert_counts_agree(&Grid::from_cells(3, cells).unwrap(), Judge::Model);
    }
}

#[test]
fn counts_equal_the_plain_counters_on_random_givens_of_a_solved_grid() {
    // A solved grid: row r is the first row shifted by 3 * (r % 3) + r / 3.
    let solved: Vec<u8> = (0..81)
        .map(|i| ((3 * (i / 9 % 3) + i / 27 + i % 9) % 9 + 1) as u8)
        .collect();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        state >> 33
    };
    for keep_in_100 in [20, 28, 36, 50] {
        for _ in 0..25 {
            // A value relabelling and the givens kept, both at random.
            let mut relabel: Vec<u8> = (1..=9).collect();
            for k in (1..9).rev() {
                relabel.swap(k, next() as usize % (k + 1));
            }
            let cells = solved
                .iter()
                .map(|&v| {
                    if next() % 100 < keep_in_100 {
                        relabel[v as usize - 1]
                    } else {
                        0
                    }
                })
                .collect();
            assert_counts_agree(&Grid::from_cells(3, cells).unwrap(), Judge::Counter);
        }
    }
}

#[test]
fn a_node_limit_or_a_raised_flag_ends_a_run_without_a_conclusion() {
    // The first of the forum's hardest puzzles needs many nodes.
    let hard: Grid =
        "........5..6..87..3......9....1.7.4...7...8...4...6....9..8...3..16..4..5...2...."
            .parse()
            .unwrap();
    let cut = kernel::count_grid(
        &hard,
        Limits {
            solutions: 2,
            nodes: Some(1),
            ..Limits::default()
        },
    );
    assert_eq!(cut.stats.stopped, Some(StopReason::NodeLimit));
    assert_eq!((cut.stats.nodes, cut.stats.solutions), (1, 0));
    let raised = AtomicBool::new(true);
    let cancelled = kernel::count_grid(
        &hard,
        Limits {
            solutions: 2,
            cancel: Some(&raised),
            ..Limits::default()
        },
    );
    assert_eq!(cancelled.stats.stopped, Some(StopReason::Cancelled));
    assert_eq!(cancelled.stats.solutions, 0);
    // The plain counter is too slow here: the model (another search) is the judge.
    let whole = kernel::count_grid(
        &hard,
        Limits {
            solutions: 2,
            ..Limits::default()
        },
    );
    assert!(whole.stats.is_complete());
    let engine = model::count(&hard, 2).unwrap();
    assert_eq!(whole.stats.solutions, engine.solutions);
    assert_eq!(whole.first, engine.solution.map(|s| s.cells().to_vec()));
    assert!(whole.stats.nodes > 1 && whole.stats.failures > 0);
}
