//! Batches of real puzzles from public collections, committed in `tests/data/` (the files'
//! headers name their sources): every puzzle is solved and proven unique by the engine, and
//! every solution is valid by the independent checker.
//!
//! The ground truth is published: each collection's puzzles are known to have exactly one
//! solution, and the 17-clue collection's have 17 givens. Puzzles are solved on all cores;
//! in a debug build only every tenth one, so that `cargo test` without `--release` stays
//! quick.

use bezzel::sudoku::check;
use bezzel::sudoku::grid::Grid;
use bezzel::sudoku::model::{self, Status};
use bezzel::sudoku::reader::PuzzleLines;
use rayon::prelude::*;

const SEVENTEEN: &str = include_str!("../data/sudoku17_sample.txt");
const TOP1465: &str = include_str!("../data/top1465_sample.txt");

fn read(text: &str) -> Vec<(usize, Grid)> {
    PuzzleLines::new(text)
        .map(|(line, g)| (line, g.unwrap_or_else(|e| panic!("line {line}: {e}"))))
        .collect()
}

/// Solves every puzzle (every tenth in a debug build), proving it unique, and checks each
/// solution; returns the number of puzzles solved and the total nodes.
fn solve_all(name: &str, puzzles: &[(usize, Grid)]) -> (usize, u64) {
    let step = if cfg!(debug_assertions) { 10 } else { 1 };
    let picked: Vec<&(usize, Grid)> = puzzles.iter().step_by(step).collect();
    let nodes: Vec<u64> = picked
        .par_iter()
        .map(|(line, puzzle)| {
            let o = model::count(puzzle, 2).unwrap_or_else(|e| panic!("{name} line {line}: {e}"));
            assert_eq!(o.status(), Status::Unique, "{name} line {line}");
            assert!(o.exact && o.solutions == 1, "{name} line {line}");
            let solution = o.solution.as_ref().expect("a unique puzzle has a solution");
            if let Err(e) = check::is_valid_solution(puzzle, solution) {
                panic!("{name} line {line}: invalid solution {solution}: {e}");
            }
            o.stats.nodes
        })
        .collect();
    (picked.len(), nodes.iter().sum())
}

#[test]
fn three_hundred_17_clue_puzzles_are_unique_and_solved() {
    let puzzles = read(SEVENTEEN);
    assert_eq!(puzzles.len(), 300, "the sample's header says 300 puzzles");
    for (line, p) in &puzzles {
        assert_eq!((p.size(), p.givens()), (9, 17), "line {line}");
    }
    let (solved, nodes) = solve_all("sudoku17_sample.txt", &puzzles);
    assert!(solved >= 30 && nodes >= solved as u64);
}

#[test]
fn fifty_top1465_puzzles_are_unique_and_solved() {
    let puzzles = read(TOP1465);
    assert_eq!(puzzles.len(), 50, "the sample's header says 50 puzzles");
    let (solved, nodes) = solve_all("top1465_sample.txt", &puzzles);
    assert!(solved >= 5 && nodes >= solved as u64);
}

#[test]
fn solving_without_the_uniqueness_proof_finds_the_same_solutions() {
    // The first solution found equals the one counting found: both are the unique one.
    for (line, p) in read(TOP1465).iter().take(10) {
        let first = model::solve(p).unwrap();
        assert_eq!(first.status(), Status::Solved, "line {line}");
        let counted = model::count(p, 2).unwrap();
        assert_eq!(first.solution, counted.solution, "line {line}");
        assert!(first.stats.nodes <= counted.stats.nodes, "line {line}");
    }
}

/// The reusable solver (givens applied as root decisions on one empty-grid model) gives the
/// same answers and explores the same trees as a model built per puzzle with the givens as
/// domains, with the default search (dom/wdeg: what one puzzle's failures taught must not
/// carry to the next).
#[test]
fn reusing_one_model_per_size_changes_nothing_but_the_cost() {
    use bezzel::core::Consistency;
    use bezzel::sudoku::model::{Sudoku, SudokuSolver};
    for consistency in [Consistency::Domain, Consistency::Value] {
        let mut reused = SudokuSolver::new(3, consistency).unwrap();
        for (line, puzzle) in read(TOP1465).into_iter().take(20) {
            let fresh = Sudoku::with_options(&puzzle, model::default_search(), consistency)
                .unwrap()
                .count(2);
            let again = reused.count(&puzzle, 2).unwrap();
            assert_eq!(again.solution, fresh.solution, "line {line}");
            assert_eq!(again.solutions, fresh.solutions, "line {line}");
            assert_eq!(again.stats.nodes, fresh.stats.nodes, "line {line}");
            assert_eq!(again.stats.failures, fresh.stats.failures, "line {line}");
        }
    }
    let mut four = SudokuSolver::new(2, Consistency::Domain).unwrap();
    let nine: Grid = read(TOP1465)[0].1.clone();
    assert!(
        four.count(&nine, 2).is_err(),
        "a 9x9 puzzle in the 4x4 solver"
    );
}
