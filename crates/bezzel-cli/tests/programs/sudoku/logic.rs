//! `sudoku rate`, `hint` and `explain` end to end, judged against the solution the engine
//! proves unique and the independent checker accepts.

use crate::common::{run, stderr, stdout};
use bezzel_sudoku::check;
use bezzel_sudoku::grid::Grid;
use bezzel_sudoku::model;

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// The first puzzle of top1465: it needs a forcing chain.
const HARD: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
/// The first puzzle of the forum's hardest list: beyond the techniques of the logical solver.
const HARDEST: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

fn solution(puzzle: &str) -> Grid {
    let puzzle = Grid::parse_line(puzzle).unwrap();
    let solution = model::count(&puzzle, 2).unwrap().solution.unwrap();
    assert_eq!(check::is_valid_solution(&puzzle, &solution), Ok(()));
    solution
}

/// The placement `rRcC = V` at the end of a step line, as (row, col, value), 0-based.
fn placement(line: &str) -> Option<(usize, usize, u8)> {
    let (cell, value) = line.rsplit_once(" = ")?;
    let cell = cell.rsplit(' ').next()?.strip_prefix('r')?;
    let (r, c) = cell.split_once('c')?;
    Some((
        r.parse::<usize>().ok()? - 1,
        c.parse::<usize>().ok()? - 1,
        value.parse().ok()?,
    ))
}

#[test]
fn rate_grades_easy_hard_and_hardest_puzzles_easy_extreme_and_beyond() {
    let o = run(
        "sudoku",
        &["rate"],
        Some(&format!("{EASY}\n{HARD}\n{HARDEST}\n1234\n")),
    );
    assert_eq!(o.status.code(), Some(2), "the bad line: {}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].contains(" easy "), "{out}");
    assert!(lines[1].starts_with("8.5 extreme forcing chain"), "{out}");
    assert!(lines[2].starts_with("11.0 beyond"), "{out}");
    assert!(lines[3].starts_with("error: line 4"), "{out}");
    assert!(
        stderr(&o).contains("puzzles: 3, median score"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn hint_and_explain_place_only_the_solution_values() {
    let o = run("sudoku", &["hint"], Some(&format!("{EASY}\n")));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let solution = solution(EASY);
    let hint = stdout(&o);
    let (r, c, v) = placement(hint.trim()).unwrap_or_else(|| panic!("a placement: {hint}"));
    assert_eq!(solution.get(r, c), v, "{hint}");
    let o = run("sudoku", &["explain"], Some(&format!("{EASY}\n")));
    let out = stdout(&o);
    let mut grid = Grid::parse_line(EASY).unwrap();
    for line in out.lines().filter(|l| l.contains(" = ")) {
        let (r, c, v) = placement(line).unwrap_or_else(|| panic!("{line}"));
        assert_eq!(grid.get(r, c), 0, "{line}");
        assert_eq!(solution.get(r, c), v, "{line}");
        grid.set(r, c, v);
    }
    assert_eq!(out.lines().last(), Some("solved"), "{out}");
    assert_eq!(grid, solution);
}

#[test]
fn generate_with_a_difficulty_makes_puzzles_rate_grades_so() {
    for level in ["easy", "medium", "hard", "extreme"] {
        let o = run(
            "sudoku",
            &["generate", "2", "--difficulty", level, "--seed", "9", "-q"],
            None,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let rated = run("sudoku", &["rate", "-q"], Some(&stdout(&o)));
        for line in stdout(&rated).lines() {
            assert_eq!(line.split(' ').nth(1), Some(level), "{line}");
        }
        assert_eq!(stdout(&rated).lines().count(), 2);
    }
}
