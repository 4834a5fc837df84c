//! `sudoku generate` end to end: the puzzles asked for, one per line, each unique by the
//! library's engine and solved validly by the independent checker; the same seed gives the
//! same output on any number of threads; bad options are refused with status 2.

use crate::common::{run, stderr, stdout};
use bezzel_sudoku::check;
use bezzel_sudoku::grid::Grid;
use bezzel_sudoku::model::{self, Status};

#[test]
fn generate_prints_unique_puzzles_reproducibly() {
    let args = [
        "generate",
        "12",
        "--seed",
        "4",
        "--symmetry",
        "mirror",
        "--solution",
    ];
    let one = run("sudoku", &[&args[..], &["--threads", "1"]].concat(), None);
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    let out = stdout(&one);
    assert_eq!(out.lines().count(), 12);
    for line in out.lines() {
        let (puzzle, solution) = line.split_once(' ').expect("puzzle and solution");
        let puzzle = Grid::parse_line(puzzle).unwrap();
        let solution = Grid::parse_line(solution).unwrap();
        assert_eq!(check::is_valid_solution(&puzzle, &solution), Ok(()));
        assert_eq!(model::count(&puzzle, 2).unwrap().status(), Status::Unique);
    }
    assert!(stderr(&one).contains("seed: 4"), "{}", stderr(&one));
    let two = run("sudoku", &[&args[..], &["--threads", "2"]].concat(), None);
    assert_eq!(
        stdout(&two),
        out,
        "the same seed, other threads: the same puzzles"
    );
}

#[test]
fn generate_makes_other_sizes_and_json() {
    let o = run(
        "sudoku",
        &["generate", "3", "--size", "4", "--format", "json", "-q"],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for line in stdout(&o).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let puzzle = Grid::parse_line(v["puzzle"].as_str().unwrap()).unwrap();
        assert_eq!(puzzle.size(), 4);
        assert_eq!(v["givens"], puzzle.givens());
        assert_eq!(model::count(&puzzle, 2).unwrap().status(), Status::Unique);
    }
    assert_eq!(stderr(&o), "");
}

#[test]
fn generate_refuses_bad_options() {
    for args in [
        &["generate", "2", "--size", "10"][..],
        &["generate", "0"],
        &["generate", "--symmetry", "spiral"],
        &["generate", "--seed", "-1"],
    ] {
        let o = run("sudoku", args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&o), "", "{args:?}");
        assert_eq!(stderr(&o).lines().count(), 1, "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_time_limit_stops_generate_promptly_after_whole_puzzles() {
    let started = std::time::Instant::now();
    let o = run(
        "sudoku",
        &[
            "generate",
            "100000",
            "--difficulty",
            "expert",
            "--time-limit",
            "0.3",
        ],
        None,
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    assert_eq!(o.status.code(), Some(124), "{}", stderr(&o));
    assert!(stderr(&o).starts_with("sudoku: time limit reached: puzzles: "));
    let out = stdout(&o);
    assert!(out.lines().count() < 100_000);
    for line in out.lines() {
        let puzzle = Grid::parse_line(line).unwrap();
        assert_eq!(model::count(&puzzle, 2).unwrap().status(), Status::Unique);
    }
}
