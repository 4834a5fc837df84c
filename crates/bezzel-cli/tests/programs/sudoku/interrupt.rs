//! The sudoku command stopped part way, by `--time-limit` or by Ctrl-C: it ends promptly with
//! the summary and status 124 or 130, and what it printed is right: every solution is checked
//! by the independent checker against its puzzle, and a puzzle cut short is `unknown`, never
//! `no solution`, `unique` or a count.

use crate::common::{interrupt, program, stderr, stdout, wait_at_most, wait_for_handler};
use bezzel_sudoku::check;
use bezzel_sudoku::grid::Grid;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const TOP1465: &str = include_str!("../../../../../tests/data/top1465_sample.txt");

/// Copies of the 50-puzzle top1465 sample: 20,000 hard puzzles, seconds of work on one thread
/// of any machine, so that a stop after a fraction of a second always cuts it short.
const COPIES: usize = 400;

/// The big batch in a temporary file, and its puzzles in order.
fn big_batch() -> (tempfile::TempDir, PathBuf, Vec<Grid>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    std::fs::write(&path, TOP1465.repeat(COPIES)).unwrap();
    let puzzles: Vec<Grid> = bezzel_sudoku::reader::PuzzleLines::new(TOP1465)
        .map(|(line, g)| g.unwrap_or_else(|e| panic!("line {line}: {e}")))
        .collect();
    let all = puzzles.iter().cycle().take(puzzles.len() * COPIES);
    (dir, path, all.cloned().collect())
}

/// Checks the answers printed for the first puzzles of `puzzles`: one line each, in order,
/// either `unknown` or a valid solution. Returns how many were printed.
fn assert_right_answers(out: &str, puzzles: &[Grid]) -> usize {
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() <= puzzles.len());
    for (i, (line, puzzle)) in lines.iter().zip(puzzles).enumerate() {
        if *line == "unknown" {
            continue;
        }
        let s = Grid::parse_line(line).unwrap_or_else(|e| panic!("answer {i}: `{line}`: {e}"));
        assert_eq!(check::is_valid_solution(puzzle, &s), Ok(()), "answer {i}");
    }
    lines.len()
}

/// Starts sudoku with its answers going to the file `out`: a pipe that nobody drains while
/// the test waits would fill up and stall it.
fn start(args: &[&str], out: &std::path::Path) -> Child {
    Command::new(program("sudoku"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(out).unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sudoku starts")
}

/// The child's stderr, and the answers it wrote to `out`.
fn finish(child: Child, out: &std::path::Path) -> (std::process::Output, String) {
    let o = child.wait_with_output().unwrap();
    (o, std::fs::read_to_string(out).unwrap())
}

/// Generous for a loaded machine: the searches stop within milliseconds.
const PROMPT: Duration = Duration::from_secs(10);

#[test]
fn a_time_limit_stops_a_batch_with_status_124_and_only_right_answers() {
    let (guard, path, puzzles) = big_batch();
    let (path, out) = (path.to_str().unwrap(), guard.path().join("out.txt"));
    for threads in ["1", "2"] {
        let mut child = start(&["--time-limit", "0.2", "--threads", threads, path], &out);
        let status = wait_at_most(&mut child, PROMPT);
        assert!(
            status.is_some(),
            "still running {PROMPT:?} after its time limit"
        );
        let (o, answers) = finish(child, &out);
        assert_eq!(o.status.code(), Some(124), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.starts_with("sudoku: time limit reached: puzzles: "),
            "{err}"
        );
        let printed = assert_right_answers(&answers, &puzzles);
        assert!(printed < puzzles.len(), "the batch cannot finish in 0.2 s");
        assert!(err.contains(&format!("puzzles: {printed},")), "{err}");
    }
}

#[test]
fn a_count_cut_short_prints_the_lower_bound_it_reached() {
    // Counting the solutions of an empty 16x16 grid takes forever: the one puzzle is cut
    // short, so it gets `K+`, the solutions found so far, never an exact count, and
    // `--quiet` keeps the summary of the stop.
    let empty = format!("{}\n", ".".repeat(256));
    for format in ["text", "json"] {
        let args = [
            "--alphabet",
            "1",
            "--count",
            "--limit",
            "1000000000000",
            "--time-limit",
            "200ms",
            "--format",
            format,
            "-q",
        ];
        let started = Instant::now();
        let o = crate::common::run("sudoku", &args, Some(&empty));
        assert!(started.elapsed() < PROMPT);
        assert_eq!(o.status.code(), Some(124), "{}", stderr(&o));
        let out = stdout(&o);
        match format {
            "text" => assert_lower_bound(&out),
            _ => {
                let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
                assert_eq!(v["status"], "unknown", "{out}");
                assert!(v["count"].is_u64(), "{out}");
                assert_eq!(v["exact"], false, "{out}");
            }
        }
        let err = stderr(&o);
        assert!(
            err.starts_with("sudoku: time limit reached: puzzles: 1,"),
            "{err}"
        );
        assert!(err.contains("unknown: 1"), "{err}");
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_batch_with_status_130_the_summary_and_only_right_answers() {
    let (guard, path, puzzles) = big_batch();
    let (path, out) = (path.to_str().unwrap(), guard.path().join("out.txt"));
    for threads in ["1", "2"] {
        let mut child = start(&["--threads", threads, path], &out);
        wait_for_handler(&child);
        // Well inside the batch, not still starting.
        std::thread::sleep(Duration::from_millis(300));
        interrupt(&child);
        let status = wait_at_most(&mut child, PROMPT);
        assert!(status.is_some(), "still running {PROMPT:?} after Ctrl-C");
        let (o, answers) = finish(child, &out);
        assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.starts_with("sudoku: interrupted: puzzles: "), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        let printed = assert_right_answers(&answers, &puzzles);
        assert!(printed < puzzles.len(), "the batch cannot finish in 0.3 s");
        assert!(err.contains(&format!("puzzles: {printed},")), "{err}");
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_long_search_promptly() {
    let mut child = crate::common::spawn_piped(Command::new(program("sudoku")).args([
        "--alphabet",
        "1",
        "--count",
        "--limit",
        "1000000000000",
    ]));
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(format!("{}\n", ".".repeat(256)).as_bytes())
            .unwrap();
    }
    wait_for_handler(&child);
    std::thread::sleep(Duration::from_millis(300));
    interrupt(&child);
    let status = wait_at_most(&mut child, PROMPT);
    assert!(status.is_some(), "still running {PROMPT:?} after Ctrl-C");
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130));
    assert_lower_bound(&stdout(&o));
    assert!(stderr(&o).starts_with("sudoku: interrupted: puzzles: 1,"));
}

/// A count cut short: one line, `K+`.
fn assert_lower_bound(out: &str) {
    let bound = out
        .strip_suffix("+\n")
        .unwrap_or_else(|| panic!("not `K+`: {out:?}"));
    assert!(bound.parse::<u64>().is_ok(), "not `K+`: {out:?}");
}
