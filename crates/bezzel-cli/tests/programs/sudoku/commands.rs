//! The sudoku command end to end: one answer line per puzzle line, per-line errors, formats,
//! exit codes. Every solution printed is checked by the independent checker.

use crate::common::{run, stderr, stdout};
use bezzel_sudoku::check;
use bezzel_sudoku::grid::Grid;
use std::path::PathBuf;

const WIKIPEDIA: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const WIKIPEDIA_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// Wikipedia's puzzle with r1c3 = 1: no clash among the givens, but its only solution has
/// a 4 there, so it has none.
const NO_SOLUTION: &str =
    "531.7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// Six solutions (see the snapshot tests).
const SEVERAL_4X4: &str = "1...3.........2.";
const UNIQUE_4X4: &str = "....3..2..4....3";
const TOP1465_FIRST: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

fn sudoku(args: &[&str], stdin: &str) -> std::process::Output {
    run("sudoku", args, Some(stdin))
}

/// Checks that `line` is a valid solution of `puzzle` by the independent checker.
fn assert_solves(puzzle: &str, line: &str) {
    let p = Grid::parse_line(puzzle).unwrap();
    let s = Grid::parse_line(line).unwrap_or_else(|e| panic!("`{line}` is not a grid: {e}"));
    assert_eq!(check::is_valid_solution(&p, &s), Ok(()), "{line}");
}

/// A file in a fresh temporary folder; the folder and everything in it are removed when the
/// returned guard is dropped, so a test leaves nothing behind, even when it fails.
fn temp_file(name: &str, contents: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("bezzel-sudoku-cli-")
        .tempdir()
        .unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, contents).unwrap();
    (dir, path)
}

#[test]
fn every_puzzle_line_gets_one_answer_line_in_order() {
    let input = format!(
        "# a batch with comments, blank lines and bad lines in the middle\n\
         {WIKIPEDIA}\n\
         \n\
         {}\n\
         {TOP1465_FIRST}\r\n\
         53..x....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n\
         55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n\
         \t# an indented comment\n\
         {NO_SOLUTION}\n\
         {SEVERAL_4X4}\n\
         {UNIQUE_4X4}\n",
        &WIKIPEDIA[..80]
    );
    let o = sudoku(&[], &input);
    assert_eq!(o.status.code(), Some(2), "bad lines make the exit status 2");
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8, "{out}");
    assert_eq!(lines[0], WIKIPEDIA_SOLUTION);
    assert_eq!(
        lines[1],
        "error: line 4: line has 80 cells; expected 81 (9x9), 16, 256 or 625"
    );
    assert_solves(TOP1465_FIRST, lines[2]);
    assert_eq!(
        lines[3],
        "error: line 6: illegal character 'x' at position 5 (row 1, column 5)"
    );
    assert_eq!(
        lines[4],
        "error: line 7: givens clash: r1c1 and r1c2 both hold 5 in row 1"
    );
    assert_eq!(lines[5], "no solution");
    assert_eq!(lines[6], "multiple solutions");
    assert_solves(UNIQUE_4X4, lines[7]);

    let err = stderr(&o);
    let err_lines: Vec<&str> = err.lines().collect();
    assert_eq!(err_lines.len(), 4, "three errors and the summary: {err}");
    assert!(err_lines[0].contains("line 4: line has 80 cells"), "{err}");
    assert!(err_lines[2].contains("r1c1 and r1c2"), "{err}");
    let summary = err_lines[3];
    for part in [
        "puzzles: 8",
        "solved: 4",
        "unique: 3",
        "multiple: 1",
        "no solution: 1",
        "errors: 3",
        "puzzles/s:",
        "nodes:",
        "time:",
    ] {
        assert!(summary.contains(part), "{part} missing from: {summary}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn good_input_exits_0_with_only_the_summary_on_stderr() {
    let o = sudoku(&[], &format!("{WIKIPEDIA}\n{TOP1465_FIRST}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines, [WIKIPEDIA_SOLUTION, lines[1]]);
    assert_solves(TOP1465_FIRST, lines[1]);
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("puzzles: 2, solved: 2, unique: 2,"),
        "{err}"
    );

    // No solution and several solutions are answers, not input errors.
    let o = sudoku(&["--quiet"], &format!("{NO_SOLUTION}\n{SEVERAL_4X4}\n"));
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "no solution\nmultiple solutions\n");
    assert_eq!(stderr(&o), "", "--quiet drops the summary");

    // Empty input: nothing to answer.
    let o = sudoku(&[], "# only a comment\n\n");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).starts_with("puzzles: 0,"));
}

#[test]
fn files_stdin_and_their_order() {
    let path = crate::common::repository("tests/data/top1465_sample.txt");
    let data = path.to_str().unwrap();
    let o = run("sudoku", &["--quiet", data], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(data).unwrap();
    let puzzles: Vec<&str> = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let out = stdout(&o);
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), 50);
    for (p, a) in puzzles.iter().zip(&answers) {
        assert_solves(p, a);
    }
    // The same through stdin, and through `-`.
    assert_eq!(stdout(&sudoku(&["-q"], &text)), out);
    assert_eq!(stdout(&sudoku(&["-q", "-"], &text)), out);

    // Several files: answers in file order, errors name their file.
    let (_a, a) = temp_file("a.txt", format!("{WIKIPEDIA}\n").as_bytes());
    let (_b, b) = temp_file("b.txt", format!("\n{UNIQUE_4X4}\n12\n").as_bytes());
    let o = run("sudoku", &[b.to_str().unwrap(), a.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_solves(UNIQUE_4X4, lines[0]);
    assert_eq!(
        lines[1],
        format!(
            "error: {}: line 3: line has 2 cells; expected 16 (4x4), 81, 256 or 625",
            b.display()
        )
    );
    assert_eq!(lines[2], WIKIPEDIA_SOLUTION);
}

#[test]
fn json_gives_one_object_per_puzzle() {
    let input = format!(
        "{WIKIPEDIA}\n{}\n{SEVERAL_4X4}\n{NO_SOLUTION}\n",
        &WIKIPEDIA[..80]
    );
    let o = sudoku(&["--format", "json"], &input);
    assert_eq!(o.status.code(), Some(2));
    let objects: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(objects.len(), 4);
    let v = &objects[0];
    assert_eq!(v["line"], 1);
    assert_eq!(v["puzzle"], WIKIPEDIA);
    assert_eq!(v["status"], "unique");
    assert_eq!(v["solution"], WIKIPEDIA_SOLUTION);
    assert_eq!(v["count"], 1);
    assert_eq!(v["exact"], true);
    assert!(v["nodes"].as_u64().unwrap() >= 1);
    assert!(v["propagations"].as_u64().is_some() && v["time_ms"].as_f64().is_some());
    let v = &objects[1];
    assert_eq!(
        (v["line"].clone(), v["status"].clone()),
        (2.into(), "error".into())
    );
    assert!(v["error"].as_str().unwrap().contains("80 cells"));
    assert_eq!(v["puzzle"], &WIKIPEDIA[..80]);
    let v = &objects[2];
    assert_eq!(v["status"], "multiple");
    assert_eq!(
        (v["count"].as_u64(), v["exact"].as_bool()),
        (Some(2), Some(false))
    );
    assert_eq!(objects[3]["status"], "no_solution");
    assert_eq!(objects[3]["count"], 0);
    assert!(objects[3].get("solution").is_none());
}

#[test]
fn pretty_grids_read_back_in_grid_form() {
    let o = sudoku(
        &["--format", "board"],
        &format!("{WIKIPEDIA}\n{NO_SOLUTION}\n"),
    );
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let solution = Grid::parse_line(WIKIPEDIA_SOLUTION).unwrap();
    assert_eq!(
        out,
        format!(
            "# line 1: unique\n{}\n# line 2: no solution\n\n",
            solution.to_pretty()
        )
    );
    assert!(out.contains("5 3 4 | 6 7 8 | 9 1 2\n"));
    assert!(out.contains("------+-------+------\n"));

    // A single grid is recognised as grid form without a flag: here the first block of
    // the output above, header comment included.
    let block = out.split("\n\n").next().unwrap();
    let o = sudoku(&[], block);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{WIKIPEDIA_SOLUTION}\n"));

    // The puzzle in grid form, from a file, with --format board.
    let puzzle = Grid::parse_line(WIKIPEDIA).unwrap().to_pretty();
    let (_dir, file) = temp_file("grid.txt", puzzle.as_bytes());
    let o = run(
        "sudoku",
        &["--format", "board", file.to_str().unwrap()],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!("# line 1: unique\n{}\n", solution.to_pretty())
    );
}

#[test]
fn grid_form_errors_and_the_grid_flag() {
    // A 9x9 grid with a short row is still read as a grid, and the error says which row.
    let mut rows: Vec<String> = WIKIPEDIA
        .as_bytes()
        .chunks(9)
        .map(|r| String::from_utf8(r.to_vec()).unwrap())
        .collect();
    rows[2].pop();
    let o = sudoku(&[], &(rows.join("\n") + "\n"));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "error: line 1: row 3 has 8 cells; expected 9\n");

    // A 16x16 grid without spaces has rows as long as 4x4 lines: it needs --grid.
    let sixteen = "A..CD.4.....F39...E.27.136..A5..F3..5A..D.4B72G172.G3F.658C..D4ED7....6..9..5.E..BC..D.4..62.A89.F.6A389....D...3A98B.EC741.2F6G4.726.3F...9..D.G..38..A.......798...C..17..G6.FCE.D14..6F3..85A8C.B.E..G..1..A31G2F...3C5B..47.E.D.G1F.9..6..B5.9.AC8..4D..1.F.";
    let grid: String = sixteen
        .as_bytes()
        .chunks(16)
        .map(|r| String::from_utf8(r.to_vec()).unwrap() + "\n")
        .collect();
    let o = sudoku(&["--grid"], &grid);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_solves(sixteen, stdout(&o).trim());
    let o = sudoku(&["--quiet"], &grid);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stdout(&o).lines().count(),
        16,
        "read as 16 lines of 4x4 puzzles"
    );
    assert!(stdout(&o).starts_with("error: line 1: character 'A' at position 1"));
}

#[test]
fn count_first_and_stats() {
    let input = format!("{SEVERAL_4X4}\n{UNIQUE_4X4}\n{NO_SOLUTION}\n................\n");
    let o = sudoku(&["--count", "--limit", "100"], &input);
    assert_eq!(o.status.code(), Some(0));
    // 288 is the published number of 4x4 grids; the limit stops that count.
    assert_eq!(stdout(&o), "6\n1\n0\n100+\n");
    let o = sudoku(&["--count"], &input);
    assert_eq!(stdout(&o), "2+\n1\n0\n2+\n");
    let o = sudoku(&["--count", "--limit", "1000"], "................\n");
    assert_eq!(stdout(&o), "288\n");

    let o = sudoku(
        &["--first", "--stats", "--threads", "1"],
        &format!("{TOP1465_FIRST}\n{SEVERAL_4X4}\n"),
    );
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_solves(TOP1465_FIRST, lines[0]);
    assert_solves(SEVERAL_4X4, lines[1]);
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "only the summary: {err}");
    for part in [
        "puzzles: 2, solved: 2, unique: 0,",
        "failures:",
        "propagations:",
        "max depth:",
        "search time:",
    ] {
        assert!(err.contains(part), "{part} missing from: {err}");
    }
}

/// Every cell order gives the same answers, and `dom-wdeg` with restarts fills an empty
/// 25x25 grid at the value level, where smallest-domain-first searches for minutes.
#[test]
fn orders_and_restarts() {
    let input = format!("{WIKIPEDIA}\n{TOP1465_FIRST}\n{NO_SOLUTION}\n{SEVERAL_4X4}\n");
    let expected = stdout(&sudoku(&["--threads", "1"], &input));
    assert_eq!(expected.lines().count(), 4);
    for order in ["first-fail", "dom-wdeg", "input-order", "rows"] {
        let o = sudoku(&["--order", order, "--threads", "1"], &input);
        assert_eq!(o.status.code(), Some(0), "{order}");
        assert_eq!(stdout(&o), expected, "{order}");
    }
    let empty = ".".repeat(625);
    for extra in [&[][..], &["--restarts"][..]] {
        let mut args = vec!["--first", "--consistency", "value", "--order", "dom-wdeg"];
        args.extend_from_slice(extra);
        let o = sudoku(&args, &format!("{empty}\n"));
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert_solves(&empty, stdout(&o).trim());
    }
}

/// `sudoku --threads 2 -q` (nothing goes to stderr, which is not read), its stdin, and the
/// lines of its stdout as they come.
fn streaming() -> (
    std::process::Child,
    std::process::ChildStdin,
    std::sync::mpsc::Receiver<String>,
) {
    use std::io::{BufRead, BufReader};
    let mut child = crate::common::spawn("sudoku", &["--threads", "2", "-q"]);
    let stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (lines_tx, lines_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if lines_tx.send(line.expect("utf-8 output")).is_err() {
                break;
            }
        }
    });
    (child, stdin, lines_rx)
}

/// A batch is answered as it is read: the answers to the first chunk (256 puzzles) come out
/// while stdin is still open, so a pipeline of any length runs in little memory.
#[test]
fn answers_stream_while_stdin_is_open() {
    use std::io::Write;
    use std::time::Duration;

    let (mut child, mut stdin, lines_rx) = streaming();
    let first: Vec<String> = (0..256).map(|_| format!("{UNIQUE_4X4}\n")).collect();
    stdin.write_all(first.concat().as_bytes()).unwrap();
    stdin.flush().unwrap();
    for i in 0..256 {
        let line = lines_rx.recv_timeout(Duration::from_secs(60));
        let Ok(line) = line else {
            let _ = child.kill();
            panic!("answer {i} did not come while stdin was open");
        };
        assert_solves(UNIQUE_4X4, &line);
    }
    writeln!(stdin, "{WIKIPEDIA}").unwrap();
    drop(stdin);
    let last = lines_rx
        .recv_timeout(Duration::from_secs(60))
        .expect("last answer");
    assert_eq!(last, WIKIPEDIA_SOLUTION);
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

/// Only stdin from a terminal is answered a puzzle at a time: files named on the command
/// line keep full chunks (and so all threads busy) when run from a terminal. Stdout is
/// flushed once per chunk and errors go to stderr at once, so with both into one file the
/// error of line 2 comes before the answer of line 1 only when both were in one chunk.
/// Needs util-linux `script` for a terminal on stdin; skipped where it cannot give one.
#[test]
fn files_keep_full_chunks_when_stdin_is_a_terminal() {
    use std::process::Command;
    // `script` may be missing, or unable to open a terminal (a container without ptys).
    let has_terminal = Command::new("script")
        .args(["-qec", "true", "/dev/null"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_terminal {
        eprintln!("skipped: no `script` that can give the command a terminal");
        return;
    }
    let (_dir, input) = temp_file("terminal.txt", format!("{WIKIPEDIA}\nx\n").as_bytes());
    let merged = input.with_file_name("merged.txt");
    let quote =
        |p: &std::path::Path| format!("'{}'", p.display().to_string().replace('\'', "'\\''"));
    let command = format!(
        "{} --threads 2 -q {} > {} 2>&1",
        quote(&crate::common::program("sudoku")),
        quote(&input),
        quote(&merged)
    );
    let status = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .status()
        .expect("script runs");
    assert_eq!(status.code(), Some(2));
    let text = std::fs::read_to_string(&merged).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("sudoku: line 2: "), "{text}");
    assert_eq!(lines[1], WIKIPEDIA_SOLUTION, "{text}");
    assert!(lines[2].starts_with("error: line 2: "), "{text}");
}

/// A file that opens but fails part way (`/proc/self/mem` reads as an I/O error at offset 0)
/// stops the run there: the answers so far stay, the summary comes, and the status is 2.
#[cfg(target_os = "linux")]
#[test]
fn a_read_error_part_way_keeps_the_answers_so_far() {
    let (_dir, good) = temp_file("before-error.txt", format!("{WIKIPEDIA}\n").as_bytes());
    let o = run(
        "sudoku",
        &[good.to_str().unwrap(), "/proc/self/mem", "--threads", "1"],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), format!("{WIKIPEDIA_SOLUTION}\n"));
    let err = stderr(&o);
    assert!(
        err.contains("sudoku: cannot read /proc/self/mem at line 1: "),
        "{err}"
    );
    assert!(err.contains("puzzles: 1, solved: 1"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// `sudoku < /dev/zero` waited forever for a line end that never comes, while the same bytes
/// cut short by `head` were refused: a line is refused as soon as it passes the length limit,
/// and the input ends there, the same whether the line would end or not.
#[cfg(unix)]
#[test]
fn an_endless_line_is_refused_at_once() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(crate::common::program("sudoku"))
        .args(["--threads", "1"])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = crate::common::wait_at_most(&mut child, std::time::Duration::from_secs(30));
    assert!(status.is_some(), "still reading /dev/zero after 30 s");
    let (mut out, mut err) = (String::new(), String::new());
    out.push_str(&crate::common::read_all(child.stdout.take()));
    err.push_str(&crate::common::read_all(child.stderr.take()));
    assert_eq!(status.unwrap().code(), Some(2), "{err}");
    assert_eq!(out, "error: line 1: line is longer than 65536 bytes\n");
    assert!(
        err.contains("sudoku: cannot read <stdin> at line 1: the line is longer than 65536 bytes"),
        "{err}"
    );
    // The same bytes with an end, and a puzzle after them: the same answer and status.
    let zeros = "\0".repeat(100_000);
    let o = sudoku(&["--threads", "1"], &format!("{zeros}\n{WIKIPEDIA}\n"));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stdout(&o), out);
}

/// A puzzle line with a trailing comment was read as a puzzle of 91 cells: a `#` starts a
/// comment wherever it is, in line form and in grid form.
#[test]
fn a_comment_after_a_puzzle_is_ignored() {
    let o = sudoku(
        &["--threads", "1"],
        &format!("{WIKIPEDIA} # from Wikipedia\n{UNIQUE_4X4}\t#4x4\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], WIKIPEDIA_SOLUTION);
    assert_solves(UNIQUE_4X4, lines[1]);
    let grid: String = Grid::parse_line(WIKIPEDIA)
        .unwrap()
        .to_pretty()
        .lines()
        .map(|row| format!("{row} # a row\n"))
        .collect();
    let o = sudoku(&["--threads", "1"], &grid);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{WIKIPEDIA_SOLUTION}\n"));
}

#[test]
fn threads_keep_the_input_order() {
    let text = include_str!("../../../../../tests/data/sudoku17_sample.txt");
    let first: String = text.lines().take(24).collect::<Vec<_>>().join("\n");
    let one = sudoku(&["-q", "--threads", "1"], &first);
    let four = sudoku(&["-q", "--threads", "4"], &first);
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(stdout(&one), stdout(&four));
    let puzzles = first.lines().filter(|l| !l.starts_with('#'));
    let out = stdout(&four);
    assert_eq!(out.lines().count(), 13);
    for (p, a) in puzzles.zip(out.lines()) {
        assert_solves(p, a);
    }
}

#[test]
fn non_utf8_bytes_are_an_illegal_character_of_their_line() {
    let mut bytes = format!("{WIKIPEDIA}\n").into_bytes();
    bytes.extend_from_slice(WIKIPEDIA.as_bytes());
    bytes[82 + 3] = 0xFF; // the 4th character of line 2, a `.`: one byte for one
    bytes.push(b'\n');
    let (_dir, file) = temp_file("latin1.txt", &bytes);
    let o = run("sudoku", &[file.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    assert_eq!(out.lines().next(), Some(WIKIPEDIA_SOLUTION));
    assert_eq!(
        out.lines().nth(1),
        Some("error: line 2: illegal character '\u{fffd}' at position 4 (row 1, column 4)")
    );
}

#[test]
fn bad_options_and_unreadable_files_get_one_line_and_exit_2() {
    let (_guard, dummy) = temp_file("dummy.txt", b"");
    let dir = dummy.parent().unwrap().to_path_buf();
    let missing = dir.join("missing.txt");
    for (args, needle) in [
        (vec!["--frobnicate"], "--frobnicate"),
        (vec!["--limit", "3"], "--count"),
        (vec!["--count", "--limit", "0"], "at least 1"),
        (vec!["--count", "--limit", "many"], "many"),
        (vec!["--threads", "0"], "at least 1"),
        (vec!["--format", "xml"], "text, board, json"),
        (vec!["--format", "json", "--format", "board"], "--format"),
        (vec!["--pretty"], "--pretty"),
        (vec!["--time-limit", "soon"], "soon"),
        (vec!["--time-limit", "-1"], "--time-limit"),
        (vec!["--time-limit", "5 days"], "duration"),
        (vec!["--time-limit", "1e300"], "--time-limit"),
        (vec!["--first", "--count"], "--count"),
        (vec!["--order", "random"], "random"),
        (vec!["--restarts"], "--first"),
        (vec![missing.to_str().unwrap()], "cannot read"),
        (vec![dir.to_str().unwrap()], "cannot read"),
    ] {
        // No stdin: these fail before reading it (and writing to it could race the exit).
        let o = run("sudoku", &args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(stdout(&o), "", "{args:?}: nothing is solved");
    }
    let o = run("sudoku", &[missing.to_str().unwrap()], None);
    assert_eq!(
        stderr(&o).trim(),
        format!(
            "sudoku: cannot read {}: No such file or directory",
            missing.display()
        )
    );
}

#[test]
fn help_exits_0() {
    let o = sudoku(&["--help"], "");
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("--count"));
    // The options shared with `queens`, and not the flags they replaced.
    for option in [
        "--format",
        "--time-limit",
        "--threads",
        "--order",
        "--consistency",
    ] {
        assert!(stdout(&o).contains(option), "{option}");
    }
    assert!(!stdout(&o).contains("--pretty") && !stdout(&o).contains("--json"));
}

#[test]
fn version_exits_0() {
    let o = sudoku(&["--version"], "");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o).trim(),
        format!("sudoku {}", env!("CARGO_PKG_VERSION"))
    );
}

/// Every consistency level gives the same answers; only the work differs (domain level needs
/// the fewest nodes).
#[test]
fn every_consistency_level_gives_the_same_answers() {
    let data = std::fs::read_to_string(crate::common::repository("tests/data/top1465_sample.txt"))
        .unwrap();
    let sample: String = data
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(10)
        .map(|l| format!("{l}\n"))
        .collect();
    let nodes = |err: &str| -> u64 {
        let tail = err
            .split("nodes: ")
            .nth(1)
            .expect("a node count in the summary");
        tail.split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let mut answers = Vec::new();
    let mut work = Vec::new();
    for level in ["value", "bounds", "domain"] {
        let o = sudoku(&["--consistency", level, "--threads", "1"], &sample);
        assert!(o.status.success(), "{level}: {}", stderr(&o));
        answers.push(stdout(&o));
        work.push(nodes(&stderr(&o)));
    }
    assert!(answers.iter().all(|a| a == &answers[0]));
    assert_eq!(answers[0].lines().count(), 10);
    assert!(work[2] <= work[1] && work[2] < work[0], "{work:?}");
    let o = sudoku(&["--consistency", "strong"], &sample);
    assert_eq!(o.status.code(), Some(2));
}

/// A valid 16x16 puzzle with a unique solution, written `1`-`G` with `.` for empty cells.
const SIXTEEN: &str = "A..CD.4.....F39...E.27.136..A5..F3..5A..D.4B72G172.G3F.658C..D4ED7....6..9..5.E..BC..D.4..62.A89.F.6A389....D...3A98B.EC741.2F6G4.726.3F...9..D.G..38..A.......798...C..17..G6.FCE.D14..6F3..85A8C.B.E..G..1..A31G2F...3C5B..47.E.D.G1F.9..6..B5.9.AC8..4D..1.F.";

/// Rewrites a 16x16 text from `1`-`G` to `0`-`F` or back, by hand, so that the tests do not
/// lean on the alphabet code they check.
fn shift_hex(text: &str, down: bool) -> String {
    const ONE: &str = "123456789ABCDEFG";
    const ZERO: &str = "0123456789ABCDEF";
    let (from, to) = if down { (ONE, ZERO) } else { (ZERO, ONE) };
    text.chars()
        .map(|c| match from.find(c) {
            Some(i) => to.as_bytes()[i] as char,
            None => c,
        })
        .collect()
}

/// Issue 11, item 5: a 16x16 puzzle written `0`-`F` was read with `0` as an empty cell and
/// answered "multiple solutions", status 0.
#[test]
fn a_16x16_puzzle_written_0_to_f_gets_its_unique_solution_in_0_to_f() {
    let hex = shift_hex(SIXTEEN, true);
    assert!(hex.contains('0') && hex.contains('.') && !hex.contains('G'));
    for args in [&[][..], &["--alphabet", "0"][..]] {
        let o = sudoku(args, &format!("{hex}\n"));
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let out = stdout(&o);
        let answer = out.trim();
        assert!(!answer.contains('G'), "answered in 0-F: {answer}");
        assert_solves(SIXTEEN, &shift_hex(answer, false));
        // The same puzzle written 1-G gets the same solution, written 1-G.
        let o = sudoku(&[], &format!("{SIXTEEN}\n"));
        assert_eq!(shift_hex(stdout(&o).trim(), true), answer);
    }
    // In grid form too, and in JSON the puzzle and the solution keep the input's alphabet.
    let rows: String = hex
        .as_bytes()
        .chunks(16)
        .map(|r| format!("{}\n", String::from_utf8(r.to_vec()).unwrap()))
        .collect();
    let o = sudoku(&["--grid", "--format", "json"], &rows);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["status"], "unique");
    assert_eq!(v["puzzle"], hex.as_str());
    assert_solves(SIXTEEN, &shift_hex(v["solution"].as_str().unwrap(), false));
}

/// A 16x16 line that reads as a valid puzzle in both alphabets is refused, not guessed;
/// naming the alphabet settles it.
#[test]
fn a_16x16_line_of_unclear_alphabet_is_refused_until_named() {
    // No G and no 0: 1-G with no 16 given, or 0-F with no 1 given.
    let puzzle = SIXTEEN.replace('G', ".");
    let o = sudoku(&[], &format!("{puzzle}\n"));
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    assert!(out.starts_with("error: line 1: 16x16 puzzle"), "{out}");
    assert!(
        out.contains("--alphabet 1") && out.contains("--alphabet 0"),
        "{out}"
    );
    assert!(stderr(&o).contains("--alphabet"));
    // The two readings are the same puzzle up to renaming values: the same count.
    let counts: Vec<String> = ["1", "0"]
        .iter()
        .map(|alphabet| {
            let o = sudoku(&["--alphabet", alphabet, "--count"], &format!("{puzzle}\n"));
            assert_eq!(o.status.code(), Some(0), "{alphabet}: {}", stderr(&o));
            stdout(&o)
        })
        .collect();
    assert_eq!(counts[0], counts[1]);
    let o = sudoku(&["--alphabet", "x"], "");
    assert_eq!(o.status.code(), Some(2));
}

/// Issue 11, item 9: five 20-cell lines were taken for one grid, and their five errors became
/// one ("grid has 5 rows").
#[test]
fn lines_that_form_no_grid_get_an_error_each() {
    let input = "12341234123412341234\n".repeat(5);
    let o = sudoku(&["-q"], &input);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(
            *line,
            format!(
                "error: line {}: line has 20 cells; expected 16 (4x4), 81, 256 or 625",
                i + 1
            )
        );
    }
}

/// Issue 11, item 7: a byte-order mark at the start of a file was an illegal character.
#[test]
fn a_byte_order_mark_at_the_start_is_skipped() {
    let (_dir, file) = temp_file("bom.txt", format!("\u{FEFF}{WIKIPEDIA}\n").as_bytes());
    let o = run("sudoku", &["-q", file.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o), format!("{WIKIPEDIA_SOLUTION}\n"));
    // The same in grid form, on stdin.
    let grid = format!(
        "\u{FEFF}{}",
        Grid::parse_line(WIKIPEDIA).unwrap().to_pretty()
    );
    let o = sudoku(&["-q"], &grid);
    assert_eq!(stdout(&o), format!("{WIKIPEDIA_SOLUTION}\n"));
}

/// Issue 11, item 7: an input whose first line was not a line-form puzzle was read whole
/// before anything was answered. Now it streams: the first chunk is answered while stdin is
/// still open.
#[test]
fn an_odd_first_line_does_not_stop_the_answers_streaming() {
    use std::io::Write;
    use std::time::Duration;

    let (mut child, mut stdin, lines_rx) = streaming();
    let mut input = String::from("odd\n");
    for _ in 0..256 {
        input += &format!("{UNIQUE_4X4}\n");
    }
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    for i in 0..256 {
        let Ok(line) = lines_rx.recv_timeout(Duration::from_secs(30)) else {
            let _ = child.kill();
            panic!("answer {i} did not come while stdin was open");
        };
        if i == 0 {
            assert!(
                line.starts_with("error: line 1: line has 3 cells"),
                "{line}"
            );
        } else {
            assert_solves(UNIQUE_4X4, &line);
        }
    }
    drop(stdin);
    let last = lines_rx
        .recv_timeout(Duration::from_secs(30))
        .expect("last");
    assert_solves(UNIQUE_4X4, &last);
    assert_eq!(child.wait().unwrap().code(), Some(2));
}

/// Issue 11, item 8: every file was opened before any was read, so more files than the
/// descriptor limit failed. Now each is opened in its turn and closed after. The limit is
/// set low (64) for the run so that a few hundred small files show it.
#[cfg(unix)]
#[test]
fn more_files_than_the_descriptor_limit_are_read_one_after_another() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<String> = (0..200)
        .map(|i| {
            let path = dir.path().join(format!("p{i}.txt"));
            std::fs::write(&path, format!("{UNIQUE_4X4}\n")).unwrap();
            path.to_str().unwrap().to_string()
        })
        .collect();
    let sudoku = crate::common::program("sudoku");
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -n 64 && exec "$0" -q --threads 1 "$@""#)
        .arg(&sudoku)
        .args(&files)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 200);
    for line in out.lines() {
        assert_solves(UNIQUE_4X4, line);
    }
}

/// Output that cannot be written is an error, not success: a reader that went away, a full
/// disk. A stdout on /dev/null opened for reading and writing (Python's `subprocess.DEVNULL`,
/// and what Rust's runtime puts in place of a closed one) is a normal run: the two cannot be
/// told apart, and refusing every Python caller's run was the worse mistake.
#[cfg(unix)]
#[test]
fn output_that_cannot_be_written_is_an_error() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let sudoku = crate::common::program("sudoku");
    for redirect in ["1<>/dev/null", ">&-"] {
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!(r#"exec "$0" -q "$1" {redirect}"#))
            .arg(&sudoku)
            .arg(crate::common::repository("tests/data/top1465_sample.txt"))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{redirect}: {}", stderr(&o));
    }

    // A pipe whose reader has gone: a batch that needs several writes.
    let mut child =
        crate::common::spawn_piped(Command::new(&sudoku).args(["-q", "--threads", "1"]));
    drop(child.stdout.take());
    let input = format!("{UNIQUE_4X4}\n").repeat(2000);
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let o = child.wait_with_output().unwrap();
    // Quiet, and not a success: the status of a program killed by SIGPIPE, as `queens` ends.
    assert_eq!(o.status.code(), Some(141), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");

    // A full disk is an error with a message.
    let o = Command::new(&sudoku)
        .args(["-q", "--threads", "1"])
        .stdin(
            std::fs::File::open(crate::common::repository("tests/data/top1465_sample.txt"))
                .unwrap(),
        )
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("sudoku: cannot write output"), "{err}");
}

/// Issue 11, item 9: a read error part way lost the puzzles read in the same chunk and did
/// not say where it stopped. Stdin here is a socket whose other end is closed with data left
/// unread, so reading it gives its queued lines and then "connection reset".
#[cfg(target_os = "linux")]
#[test]
fn a_read_error_part_way_answers_every_line_read_and_names_the_line() {
    use std::io::Write;
    use std::os::unix::net::UnixStream;
    use std::process::{Command, Stdio};
    let (ours, theirs) = UnixStream::pair().unwrap();
    let mut back = theirs.try_clone().unwrap();
    let child = Command::new(crate::common::program("sudoku"))
        .args(["--threads", "1"])
        .stdin(Stdio::from(std::os::fd::OwnedFd::from(theirs)))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut ours = ours;
    ours.write_all(format!("# two puzzles\n{WIKIPEDIA}\n{UNIQUE_4X4}\n5").as_bytes())
        .unwrap();
    // Bytes our end never reads: closing it then resets the connection.
    back.write_all(b"x").unwrap();
    drop(back);
    drop(ours);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], WIKIPEDIA_SOLUTION);
    assert_solves(UNIQUE_4X4, lines[1]);
    let err = stderr(&o);
    assert!(
        err.starts_with("sudoku: cannot read <stdin> at line 4: Connection reset by peer\n"),
        "{err}"
    );
    assert!(err.contains("puzzles: 2, solved: 2"), "{err}");
}

/// A named pipe among the inputs is opened only in its turn: checking it up front (opening
/// and closing it) let its writer go on, made the writer's write fail once it was closed, and
/// left the later open waiting forever. Stdin comes first and is held open while the writer
/// tries, so that an up-front check, if any, is over before the writer writes.
#[cfg(unix)]
#[test]
fn a_named_pipe_is_read_in_its_turn() {
    use std::io::Write;
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: no mkfifo");
        return;
    }
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut pipe = std::fs::OpenOptions::new().write(true).open(&fifo)?;
            std::thread::sleep(Duration::from_millis(200));
            pipe.write_all(format!("{WIKIPEDIA}\n").as_bytes())
        })
    };
    let mut child = crate::common::spawn("sudoku", &["-q", "-", fifo.to_str().unwrap()]);
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(format!("{UNIQUE_4X4}\n").as_bytes())
        .unwrap();
    // The writer gets through only if something opened the pipe already; give it the time.
    let started = Instant::now();
    while !writer.is_finished() && started.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(stdin);
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            // The writer thread may be left blocked; it ends with the test process.
            let _ = child.kill();
            panic!("sudoku still waits on the pipe");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap().expect("the writer wrote its puzzle");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_solves(UNIQUE_4X4, lines[0]);
    assert_eq!(lines[1], WIKIPEDIA_SOLUTION);
}

/// Issue 11, item 7: `--threads 100000` started that many threads; now anything above 1024 is
/// refused in one line before any work, as in `queens`.
#[test]
fn absurd_thread_counts_are_refused() {
    for t in ["1025", "100000", "99999999999999999999"] {
        let o = sudoku(&["--threads", t], &format!("{UNIQUE_4X4}\n"));
        assert_eq!(o.status.code(), Some(2), "--threads {t}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("--threads"), "{err}");
        assert_eq!(stdout(&o), "", "nothing is solved");
    }
    let o = sudoku(&["--threads", "1024"], &format!("{UNIQUE_4X4}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_solves(UNIQUE_4X4, stdout(&o).trim());
}

/// Without the `mpi` feature, `--mpi` is a clear error.
#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_without_the_feature_says_how_to_get_it() {
    let o = crate::common::run("sudoku", &["--mpi"], Some("1234\n"));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(crate::common::stdout(&o), "");
    assert!(crate::common::stderr(&o).contains("--features mpi"));
}

/// A repeated `-q` is one `--quiet` (as in many programs): accepted, and no summary either.
#[test]
fn a_repeated_quiet_is_one_quiet() {
    for args in [&["-q", "-q"][..], &["-qq"], &["--quiet", "-q"]] {
        let o = sudoku(args, &format!("{WIKIPEDIA}\n"));
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), format!("{WIKIPEDIA_SOLUTION}\n"), "{args:?}");
        assert_eq!(stderr(&o), "", "{args:?}: the summary is left out");
    }
}
