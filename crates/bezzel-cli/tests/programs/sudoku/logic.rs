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

/// The grid of `puzzle` part way through its logical solution: its steps applied up to the
/// first that is not a single (so that the marks hold eliminations no puzzle shows).
fn part_way(puzzle: &str) -> bezzel_sudoku::logic::Candidates {
    use bezzel_sudoku::logic::{self, Candidates, Technique};
    let mut grid = Candidates::new(&Grid::parse_line(puzzle).unwrap());
    while let Some(step) = logic::next_step(&grid) {
        grid.apply(&step);
        if step.technique > Technique::NakedSingle {
            break;
        }
    }
    grid
}

#[test]
fn hint_on_pencil_marks_reads_what_board_prints_and_keeps_the_solution() {
    let solution = solution(HARD);
    let marks = part_way(HARD).to_marks();
    let o = run(
        "sudoku",
        &["hint", "--candidates", "--format", "board"],
        Some(&marks),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    // The board: a header, the same grid of candidates, the step as a comment.
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "# candidates", "{out}");
    assert_eq!(lines[1..lines.len() - 1].join("\n") + "\n", marks, "{out}");
    let step = lines[lines.len() - 1].strip_prefix("# ").expect("the step");
    // A placement is the solution's value; a removal `V from rRcC` never is.
    if let Some((r, c, v)) = placement(step) {
        assert_eq!(solution.get(r, c), v, "{step}");
    }
    let removed = step.split_once(": removes ").map_or("", |(_, r)| r);
    for item in removed.split(", ").filter(|s| !s.is_empty()) {
        let (v, cell) = item
            .split_once(" from r")
            .unwrap_or_else(|| panic!("{item}"));
        let (r, c) = cell.split_once('c').unwrap();
        let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
        assert_ne!(
            solution.get(r - 1, c - 1),
            v.parse::<u8>().unwrap(),
            "{step}"
        );
    }
    // The whole board output reads back as the same grid.
    let again = run("sudoku", &["hint", "--candidates"], Some(&out));
    assert_eq!(stdout(&again).trim(), step);
}

#[test]
fn hint_svg_highlights_the_cells_and_candidates_of_the_step() {
    use bezzel_sudoku::logic;
    let grid = part_way(HARD);
    let step = logic::next_step(&grid).unwrap();
    let o = run(
        "sudoku",
        &["hint", "--candidates", "--format", "svg"],
        Some(&grid.to_marks()),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let svg = stdout(&o);
    assert!(
        svg.starts_with("<?xml") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    assert_eq!(svg.matches("class=\"removed\"").count(), step.remove.len());
    assert_eq!(
        svg.matches("class=\"placed\"").count(),
        usize::from(step.place.is_some())
    );
    let open = (0..81).filter(|&c| grid.value(c) == 0);
    let marks: usize = open.map(|c| grid.candidates(c).len()).sum();
    assert_eq!(
        svg.matches("class=\"candidate\"").count()
            + svg.matches("class=\"removed\"").count()
            + svg.matches("class=\"placed\"").count(),
        marks
    );
    assert_eq!(
        svg.matches("class=\"value\"").count(),
        81 - (0..81).filter(|&c| grid.value(c) == 0).count()
    );
}

#[test]
fn malformed_pencil_marks_get_a_clear_error_and_status_2() {
    for (marks, reason) in [
        ("1 2 3\n", "16 or 81 cells"),
        (
            "12 34 x 1234 1234 1234 1234 1234 1234 1234 1234 1234 1234 1234 1234 1234\n",
            "cell 3",
        ),
        (
            "1 1 1234 1234 1234 1234 1234 1234 1234 1234 1234 1234 1234 1234 1234 1234\n",
            "twice",
        ),
        ("", "not 0"),
    ] {
        let o = run("sudoku", &["hint", "--candidates"], Some(marks));
        assert_eq!(o.status.code(), Some(2), "{marks:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(reason), "{marks:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
}

#[test]
fn endless_pencil_marks_are_refused_at_a_size_limit() {
    let marks = "1234 ".repeat(500_000);
    let o = run("sudoku", &["hint", "--candidates"], Some(&marks));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("larger than"), "{}", stderr(&o));
}

#[test]
fn pencil_marks_read_as_puzzles_are_with_a_byte_order_mark_and_comments() {
    let marks = "\u{FEFF}1 2 34 34 # row 1\n34 34 12 12\n2 1 34 34\n34 34 1 2 # done\n";
    let o = run("sudoku", &["hint", "--candidates"], Some(marks));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let plain = run(
        "sudoku",
        &["hint", "--candidates"],
        Some("1 2 34 34\n34 34 12 12\n2 1 34 34\n34 34 1 2\n"),
    );
    assert_eq!(stdout(&o), stdout(&plain));
    assert!(!stdout(&o).is_empty());
}

#[test]
fn contradictory_pencil_marks_are_an_error_not_a_hint() {
    for (marks, reason) in [
        (
            "1 2 .3 .3\n34 34 12 12\n2 1 34 34\n34 34 1 2\n",
            "both left with 3 alone",
        ),
        (
            "1 23 23 23\n1234 1234 1234 1234\n1234 1234 1234 1234\n1234 1234 1234 1234\n",
            "row 1 has no place left for 4",
        ),
    ] {
        let o = run("sudoku", &["hint", "--candidates"], Some(marks));
        assert_eq!(o.status.code(), Some(2), "{marks:?}: {}", stdout(&o));
        assert!(stderr(&o).contains(reason), "{marks:?}: {}", stderr(&o));
    }
}
