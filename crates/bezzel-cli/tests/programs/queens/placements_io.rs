//! The queens command's input and output at the edges: every printed form reads back into
//! `check`, malformed and oversized input, memory bounded on huge boards, and output that
//! cannot be written.

use crate::common::{run, stderr, stdout};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn queens(args: &[&str]) -> std::process::Output {
    run("queens", args, None)
}

/// Whatever the program prints, in any format, `check` reads back as the same placement.
#[test]
fn every_printed_form_reads_back_into_check() {
    for command in [
        &["8", "--limit", "1"][..],
        &["all", "6", "--limit", "2"][..],
        &["first", "8"][..],
        &["construct", "50"][..],
        &["unique", "8", "--list", "--limit", "1"][..],
        &["unique", "4", "--list"][..],
    ] {
        for format in ["text", "board", "json"] {
            let mut args = command.to_vec();
            args.extend(["--format", format]);
            let printed = queens(&args);
            assert!(printed.status.success(), "{args:?}: {}", stderr(&printed));
            let text = stdout(&printed);
            // `all 6 --limit 2` prints two placements: check them one at a time.
            let placements: Vec<String> = if command[0] == "all" {
                split_placements(&text, format)
            } else {
                vec![text]
            };
            assert!(!placements.is_empty(), "{args:?}");
            for placement in placements {
                let checked = run("queens", &["check"], Some(&placement));
                assert_eq!(
                    checked.status.code(),
                    Some(0),
                    "{args:?}: {placement:?}: {}",
                    stderr(&checked)
                );
                assert!(stdout(&checked).starts_with("solution"), "{args:?}");
            }
        }
    }
}

/// The placements of a multi-placement output, each in the same form.
fn split_placements(text: &str, format: &str) -> Vec<String> {
    match format {
        "json" => text.lines().map(str::to_string).collect(),
        _ => {
            let mut parts: Vec<String> = Vec::new();
            for line in text.lines() {
                if line.starts_with("NO.") {
                    parts.push(String::new());
                }
                if let Some(last) = parts.last_mut() {
                    last.push_str(line);
                    last.push('\n');
                }
            }
            parts
        }
    }
}

/// What the program prints, whole, in every form (the SVG picture too), reads back into
/// `check` as the placements printed: all solutions, as many as were printed, and none for
/// a board without solutions (A000170: 0 for n = 3, 4 for n = 6; A002562: 1 for n = 4).
/// `queens all 3 --format json | queens check` said "no columns given", and pictures were
/// refused.
#[test]
fn every_printed_form_reads_back_whole_into_check() {
    for (command, placements) in [
        (&["8", "--limit", "1"][..], 1),
        (&["all", "6"][..], 4),
        (&["first", "8"][..], 1),
        (&["construct", "50"][..], 1),
        (&["unique", "8", "--list", "--limit", "3"][..], 3),
        (&["unique", "4", "--list"][..], 1),
        (&["all", "3"][..], 0),
        (&["first", "3"][..], 0),
        (&["construct", "2"][..], 0),
        (&["unique", "3", "--list"][..], 0),
    ] {
        for format in ["text", "board", "json", "svg"] {
            let mut args = command.to_vec();
            args.extend(["--format", format]);
            let printed = queens(&args);
            let expected_status = if placements == 0 && ["first", "construct"].contains(&command[0])
            {
                1
            } else {
                0
            };
            assert_eq!(
                printed.status.code(),
                Some(expected_status),
                "{args:?}: {}",
                stderr(&printed)
            );
            let checked = run("queens", &["check"], Some(&stdout(&printed)));
            let said = stdout(&checked);
            assert_eq!(
                checked.status.code(),
                Some(0),
                "{args:?}: {said} {}",
                stderr(&checked)
            );
            match placements {
                0 => assert_eq!(said, "0 placements checked\n", "{args:?}"),
                1 => assert!(said.starts_with("solution: "), "{args:?}: {said}"),
                k => assert_eq!(
                    said,
                    format!("{k} placements checked: all are solutions\n"),
                    "{args:?}"
                ),
            }
            let checked = run(
                "queens",
                &["check", "--format", "json"],
                Some(&stdout(&printed)),
            );
            if placements != 1 {
                // One object per placement, then the summary.
                let said = stdout(&checked);
                let v: serde_json::Value =
                    serde_json::from_str(said.lines().last().unwrap()).unwrap();
                assert_eq!(v["checked"], placements, "{args:?}");
                assert_eq!(v["not_solutions"], 0, "{args:?}");
            }
        }
    }
    // A picture is read as drawn: a queen moved by a square is another placement.
    let picture = stdout(&queens(&["first", "4", "--format", "svg"]));
    let moved = picture.replacen(
        "<use href=\"#queen\" x=\"40\"",
        "<use href=\"#queen\" x=\"0\"",
        1,
    );
    assert_ne!(moved, picture);
    let o = run("queens", &["check"], Some(&moved));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("not a solution"), "{}", stdout(&o));
}

/// `queens check FILE` read the file's name as a column: a file argument is read as stdin
/// is, and `-` is stdin.
#[test]
fn check_reads_a_file_of_placements() {
    let dir = tempfile::tempdir().unwrap();
    let all = dir.path().join("all6.txt");
    std::fs::write(&all, stdout(&queens(&["6"]))).unwrap();
    let wrong = dir.path().join("wrong.json");
    std::fs::write(&wrong, "{\"n\":4,\"index\":1,\"placement\":[0,1,2,3]}\n").unwrap();
    // A000170(6) = 4.
    let o = queens(&["check", all.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "4 placements checked: all are solutions\n");
    let o = queens(&["check", wrong.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("not a solution: 6 attacking pair(s)"),
        "{}",
        stdout(&o)
    );
    let o = run("queens", &["check", "-"], Some("1 3 0 2\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("solution: "));
    // One placement as one argument is still a placement.
    let o = queens(&["check", "NO.1: 2 0 3 1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for missing in [dir.path().join("missing.txt"), dir.path().to_path_buf()] {
        let o = queens(&["check", missing.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{missing:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(missing.to_str().unwrap()), "{err}");
        assert_eq!(stdout(&o), "");
    }
}

/// `queens check` on `input`: its exit status must be `status`; returns its stdout.
fn check(input: &str, status: i32) -> String {
    let o = run("queens", &["check"], Some(input));
    assert_eq!(o.status.code(), Some(status), "{input:?}: {}", stderr(&o));
    stdout(&o)
}

#[test]
fn a_placement_read_back_keeps_its_columns() {
    // A non-solution, so that check reports on the exact columns it read.
    for input in [
        "NO.3: 0 2 1 3\n",
        "NO.3:\n Q . . .\n. . Q .\n. Q . .\n. . . Q\n\n",
        "{\"n\":4,\"index\":3,\"placement\":[0,2,1,3]}\n",
    ] {
        let out = check(input, 1);
        assert!(
            out.contains("rows 1 and 2 (columns 2 and 1) share an anti-diagonal"),
            "{input:?}: {out}"
        );
    }
}

#[test]
fn malformed_placements_are_refused_in_one_line() {
    for (args, stdin) in [
        // The label without its colon was read as a queen in column 1.
        (&["check"][..], "NO.1 0 4 7 5 2 6 1 3\n"),
        (
            &["check", "NO.1", "0", "4", "7", "5", "2", "6", "1", "3"][..],
            "",
        ),
        (&["check"][..], ". Q . .\n. . . Q\nQ . . .\n"),
        (&["check"][..], "{\"placement\": [1, 3, 0,"),
        // A picture's board whose queens are not one a row.
        (
            &["check"][..],
            "<svg>\n<g>\n<rect width=\"80\"/>\n<use x=\"0\" y=\"40\" width=\"40\"/>\n</g>\n</svg>\n",
        ),
    ] {
        let o = run("queens", args, Some(stdin));
        assert_eq!(o.status.code(), Some(2), "{args:?} {stdin:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?} {stdin:?}: {err}");
        assert!(err.contains("malformed placement"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // Two placements are two to check, not a malformed one.
    let o = run("queens", &["check"], Some("NO.1: 1 3 0 2\nNO.2: 2 0 3 1\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "2 placements checked: all are solutions\n");
}

#[test]
fn a_byte_order_mark_is_not_part_of_the_input() {
    let o = run("queens", &["check"], Some("\u{feff}1 3 0 2\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run("queens", &["check"], Some("\u{feff}NO.1: 1 3 0 2\r\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn messages_name_the_right_engine_and_read_well() {
    for (args, needle) in [
        (&["count", "40"][..], "too large for the symmetry counter"),
        (
            &["count", "40", "--engine", "symmetry"][..],
            "too large for the symmetry counter",
        ),
        (&["unique", "40"][..], "too large for the symmetry counter"),
        (
            &["count", "40", "--engine", "bitmask"][..],
            "too large for the bitmask counter",
        ),
    ] {
        let o = queens(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
    let o = queens(&["check", "3", "2", "0", "1"]);
    let out = stdout(&o);
    assert!(out.contains("share an anti-diagonal"), "{out}");
    assert!(out.contains("share a diagonal"), "{out}");
    assert!(!out.contains("a anti"), "{out}");
}

#[test]
fn absurd_thread_counts_are_refused() {
    for args in [
        &["count", "8", "--threads", "100000"][..],
        &["count", "8", "--engine", "model", "--threads", "1025"][..],
        &[
            "count",
            "8",
            "--engine",
            "bitmask",
            "--threads",
            "99999999999",
        ][..],
    ] {
        let o = queens(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains("'--threads <N>': must be at most 1024"),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let o = queens(&["count", "8", "--threads", "1024"]);
    assert_eq!(stdout(&o).trim(), "92", "{}", stderr(&o));
}

/// Runs the queens command under a 1 GB address-space limit, so that building something
/// quadratic in n fails instead of succeeding on a large machine. The limit is set by the
/// shell, which then becomes the command.
#[cfg(unix)]
fn limited(args: &[&str]) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -v 1000000 && exec \"$0\" \"$@\"")
        .arg(crate::common::program("queens"))
        .args(args);
    command
}

/// 20,000 queens in one column attack in 199,990,000 pairs: counted, and the first listed,
/// in memory for the queens (listing every pair took 4.7 GB).
#[cfg(unix)]
#[test]
fn checking_a_huge_conflict_needs_little_memory() {
    let n = 20_000u64;
    let input = "5 ".repeat(n as usize);
    let mut child = crate::common::spawn_piped(&mut limited(&["check"]));
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(input.as_bytes());
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let pairs = n * (n - 1) / 2;
    assert!(
        out.starts_with(&format!("not a solution: {pairs} attacking pair(s)\n")),
        "{}",
        &out[..out.len().min(200)]
    );
    assert!(
        out.contains("  rows 0 and 1 (columns 5 and 5) share a column\n"),
        "{out}"
    );
    // The first 100 pairs, and how many more.
    assert_eq!(out.lines().count(), 102, "{out}");
    assert!(out.ends_with(&format!(
        "... and {} more (--limit shows more)\n",
        pairs - 100
    )));

    let o = run(
        "queens",
        &["check", "--format", "json", "--limit", "2"],
        Some(&input),
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["attacking_pairs"], pairs);
    assert_eq!(v["attacks"].as_array().unwrap().len(), 2);
    assert_eq!(v["solution"], false);
}

/// 10,000,000 queens under a 200 MB address-space limit: the placement (80 MB) fits, and is
/// written as it is, in every form, without a second copy in memory (its text was built in
/// memory first, and the process aborted with status 134 when that failed); under a limit
/// the placement itself does not fit in, a one-line message and status 2.
#[cfg(unix)]
#[test]
fn a_placement_near_the_memory_limit_is_written_or_refused_clearly() {
    let n = 10_000_000usize;
    // The picture is 789 MB: it goes to /dev/null rather than through the test.
    let under = |limit: &str, format: &str| {
        let to = if format == "svg" { " > /dev/null" } else { "" };
        Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {limit} && exec \"$0\" \"$@\"{to}"))
            .arg(crate::common::program("queens"))
            .args(["construct", &n.to_string(), "--format", format])
            .output()
            .unwrap()
    };
    let o = under("200000", "text");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let mut tokens = out.split_ascii_whitespace();
    assert_eq!(tokens.next(), Some("NO.1:"));
    let columns: Vec<usize> = tokens.map(|t| t.parse().unwrap()).collect();
    assert_eq!(columns.len(), n);
    // A solution, by counting the queens on every column and diagonal.
    let (mut cols, mut downs, mut ups) = (vec![false; n], vec![false; 2 * n], vec![false; 2 * n]);
    for (row, &col) in columns.iter().enumerate() {
        assert!(col < n);
        for line in [
            &mut cols[col],
            &mut downs[row + n - col],
            &mut ups[row + col],
        ] {
            assert!(!*line, "row {row}: attacked");
            *line = true;
        }
    }
    drop((cols, downs, ups));
    let o = under("200000", "json");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let json: Vec<usize> = v["placement"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap() as usize)
        .collect();
    assert!(json == columns, "the JSON placement is the text one");
    drop(columns);
    let o = under("200000", "svg");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    for format in ["text", "json", "svg"] {
        let o = under("60000", format);
        assert_eq!(o.status.code(), Some(2), "{format}: {}", stderr(&o));
        assert_eq!(
            stderr(&o),
            format!("queens: a placement for n = {n} does not fit in memory\n"),
            "{format}"
        );
        if format != "svg" {
            assert_eq!(stdout(&o), "", "{format}");
        }
    }
}

/// `--attacks` on 10,000,000 queens under a 200 MB address-space limit: the placement (80 MB)
/// fits, the counts of its lines (200 MB) do not. A one-line message, status 2 and no picture
/// begun, where the process aborted with status 134.
#[cfg(unix)]
#[test]
fn attacks_beyond_the_memory_limit_are_refused_clearly() {
    let o = limited_to(
        200_000,
        &["construct", "10000000", "--format", "svg", "--attacks"],
    )
    .output()
    .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "queens: cannot write output: the attacks among 10000000 queens do not fit in memory\n"
    );
    assert_eq!(stdout(&o), "");
}

/// The board of 100,000 queens is 20 GB of text: written row by row as it goes, not built in
/// memory first (which aborted on the allocation).
#[cfg(unix)]
#[test]
fn a_huge_board_is_streamed() {
    let n = 100_000;
    let placement: Vec<usize> = stdout(&queens(&["construct", &n.to_string()]))
        .split_whitespace()
        .skip(1)
        .map(|c| c.parse().unwrap())
        .collect();
    assert_eq!(placement.len(), n);
    let mut child = limited(&["construct", &n.to_string(), "--format", "board"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut first = Vec::new();
    for _ in 0..3 {
        match lines.next() {
            Some(Ok(line)) => first.push(line),
            _ => break,
        }
    }
    // Stop reading: the program must notice and stop too.
    drop(lines);
    let status = child.wait().unwrap();
    let mut err = String::new();
    err.push_str(&crate::common::read_all(child.stderr.take()));
    assert_eq!(first.len(), 3, "status {status:?}: {err}");
    assert_eq!(first[0], "NO.1:");
    for (row, line) in first[1..].iter().enumerate() {
        assert_eq!(line.len(), 2 * n - 1);
        assert_eq!(line.find('Q'), Some(2 * placement[row]), "row {row}");
        assert_eq!(line.matches('Q').count(), 1);
    }
    // The reader went away: a quiet, unsuccessful exit.
    assert_eq!(status.code(), Some(141), "{err}");
    assert_eq!(err, "");
}

/// A reader that goes away is not success: the answer was not delivered. The outputs are
/// larger than a pipe's buffer, so the program is still writing when the pipe closes.
#[test]
fn a_closed_pipe_is_not_success() {
    for args in [
        &["construct", "300000"][..],
        &["10", "--format", "board"][..],
        &["all", "11", "--format", "json"][..],
    ] {
        let mut child = Command::new(crate::common::program("queens"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(141), "{args:?}: {}", stderr(&o));
        assert_eq!(
            stderr(&o),
            "",
            "{args:?}: a closed pipe is not worth a message"
        );
    }
}

/// A command with one short line to print (`construct 3` did, before its message moved to
/// stderr) still notices that the reader has gone; it used to panic.
#[cfg(unix)]
#[test]
fn a_closed_pipe_does_not_panic() {
    let o = Command::new("sh")
        .arg("-c")
        // `true` exits at once; by the time queens writes, nothing reads the pipe.
        .arg("{ sleep 1; \"$0\" construct 4; echo \"status $?\" >&2; } | true")
        .arg(crate::common::program("queens"))
        .output()
        .unwrap();
    let err = stderr(&o);
    assert!(err.contains("status 141"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A full disk is an error with a message.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_error() {
    for args in [&["8"][..], &["count", "8"][..], &["construct", "4"][..]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = Command::new(crate::common::program("queens"))
            .args(args)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("cannot write output"), "{}", stderr(&o));
    }
}

/// `unique --list` prints its representatives as they are found (it used to collect them
/// all first, gigabytes for n = 17 even with `--limit 1`): the same list, checked here
/// against the independent checker and the board's symmetries.
#[test]
fn unique_representatives_are_listed_in_full_and_in_order() {
    use bezzel_queens::{check, format, symmetry};
    let o = queens(&["unique", "10", "--list", "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 93);
    let reps: Vec<Vec<usize>> = lines[..92]
        .iter()
        .map(|l| format::parse_placement(l).unwrap())
        .collect();
    assert!(reps.iter().all(|p| check::is_solution(p)));
    let mut classes: Vec<Vec<usize>> = reps
        .iter()
        .map(|p| symmetry::canonical(p).unwrap())
        .collect();
    assert!(reps.windows(2).all(|w| w[0] < w[1]), "lexicographic order");
    classes.dedup();
    assert_eq!(classes.len(), 92, "one per class");
    let last: serde_json::Value = serde_json::from_str(lines[92]).unwrap();
    assert_eq!(
        (last["unique"].as_u64(), last["count"].as_u64()),
        (Some(92), Some(724))
    );
    let o = queens(&["unique", "10", "--list", "--limit", "3"]);
    let first: Vec<Vec<usize>> = stdout(&o)
        .lines()
        .take(3)
        .map(|l| format::parse_placement(l).unwrap())
        .collect();
    assert_eq!(first, reps[..3].to_vec());
}

/// Runs the queens command under an address-space limit of `kb` kilobytes, set by the shell,
/// which then becomes the command.
#[cfg(unix)]
fn limited_to(kb: u64, args: &[&str]) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -v {kb} && exec \"$0\" \"$@\""))
        .arg(crate::common::program("queens"))
        .args(args);
    command
}

/// The board of 20,000 queens is 800 MB of text: `check` reads it row by row, in memory for
/// one row, where it used to read it all into one string (and abort at 1 GB; 1.76 GB for
/// 30,000 queens).
#[cfg(unix)]
#[test]
fn checking_a_huge_board_needs_memory_for_one_row() {
    let n = "20000";
    let mut construct = Command::new(crate::common::program("queens"))
        .args(["construct", n, "--format", "board"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let o = limited(&["check"])
        .stdin(Stdio::from(construct.stdout.take().unwrap()))
        .output()
        .unwrap();
    construct.wait().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!("solution: no two of the {n} queens attack each other\n")
    );
}

/// Input without end is refused as soon as it cannot be a placement, in little memory:
/// `check < /dev/zero` grew until it ran out of memory.
#[cfg(unix)]
#[test]
fn endless_input_is_refused_at_once() {
    let o = limited(&["check"])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "queens: malformed placement: line 1: the control character `\\u{0}` is in no placement form\n"
    );
    // Endless column numbers, endless board rows.
    for (lines, needle) in [
        ("1", "more than 10000000 queens"),
        ("Q .", "the board has more rows than its 2 columns"),
    ] {
        let o = Command::new("sh")
            .arg("-c")
            .arg("yes \"$1\" | { ulimit -v 1000000 && exec \"$0\" check; }")
            .arg(crate::common::program("queens"))
            .arg(lines)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{lines:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{lines:?}: {}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    }
    // Many placements are checked one at a time, in the memory of one.
    let o = Command::new("sh")
        .arg("-c")
        .arg("yes '1 3 0 2\n' | head -n 400000 | { ulimit -v 1000000 && exec \"$0\" check; }")
        .arg(crate::common::program("queens"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "200000 placements checked: all are solutions\n");
}

/// `--limit 100000000` lists every pair of 3,000 queens in one column (4,498,500 of them) as
/// they are found, in memory for the queens: they used to be collected first (108 MB here,
/// 2.4 GB for 3,000,000 queens).
#[cfg(unix)]
#[test]
fn listing_many_attacking_pairs_needs_little_memory() {
    let n = 3000u64;
    let pairs = n * (n - 1) / 2;
    let mut child =
        crate::common::spawn_piped(&mut limited_to(100_000, &["check", "--limit", "100000000"]));
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all("5 ".repeat(n as usize).as_bytes()).unwrap();
    }
    let mut lines = 0u64;
    let mut first = String::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if lines < 2 {
            first.push_str(&line);
            first.push('\n');
        }
        lines += 1;
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        first,
        format!(
            "not a solution: {pairs} attacking pair(s)\n  rows 0 and 1 (columns 5 and 5) share a column\n"
        )
    );
    assert_eq!(lines, 1 + pairs);
}

/// Messages that quote input escape its control characters: a terminal escape sequence or a
/// NUL in the input reached the terminal as it was.
#[test]
fn messages_escape_control_characters() {
    let dir = std::env::temp_dir().join(format!("queens-escape-{}", std::process::id()));
    let checkpoint = dir.join("no\u{1b}[31mdir").join("f");
    let checkpoint = checkpoint.to_str().unwrap();
    for (args, input, needle) in [
        (
            &["check"][..],
            Some("0 \u{1b}[31mRED\u{1b}[0m 1"),
            "`\\u{1b}`",
        ),
        (&["check"][..], Some("0 1\0 2"), "`\\u{0}`"),
        (&["check", "0", "\u{1b}[31m1"][..], None, "`\\u{1b}`"),
        (
            &["check"][..],
            Some("{\"placement\": [0], \"\u{1b}\": 1}"),
            "\\u{1b}",
        ),
        (&["count", "\u{1b}[31m8"][..], None, "`\\u{1b}[31m8`"),
        (&["count", "8", "--\u{1b}[31m"][..], None, "'--\\u{1b}[31m'"),
        (&["all", "8", "--limit", "\u{1b}"][..], None, "'\\u{1b}'"),
        (&["\u{9b}31m"][..], None, "\\u{9b}31m"),
        (
            &["count", "8", "--checkpoint", checkpoint][..],
            None,
            "\\u{1b}[31m",
        ),
    ] {
        let o = run("queens", args, input);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            !err.trim_end_matches('\n').chars().any(char::is_control),
            "{args:?}: {err:?}"
        );
        assert!(err.contains(needle), "{args:?}: {err:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
    }
    assert!(!dir.exists());
}

/// Several placements are each checked however they are separated (a blank line between
/// two placements of 4 once made one placement of 8 queens), and every form the program
/// prints reads back: `queens N --format F | queens check` checks them all.
#[test]
fn several_placements_are_each_checked_however_separated() {
    for input in [
        "1 3 0 2\n\n2 0 3 1\n",
        "1 3 0 2\n4 solutions\n2 0 3 1\n",
        "1 3 0 2\n\r\n2 0 3 1",
    ] {
        let out = check(input, 0);
        assert_eq!(
            out, "2 placements checked: all are solutions\n",
            "{input:?}"
        );
    }
    for n in ["4", "6", "8"] {
        let expected = stdout(&queens(&["count", n])).trim().to_string();
        for format in ["text", "board", "json"] {
            let all = stdout(&queens(&[n, "--format", format]));
            assert_eq!(
                check(&all, 0),
                format!("{expected} placements checked: all are solutions\n"),
                "{n} {format}"
            );
        }
        // The representatives of `unique --list`, and their summary.
        let unique = stdout(&queens(&["unique", n, "--list"]));
        check(&unique, 0);
    }
    // A label and the JSON line after it are one labelled placement.
    let out = check("NO.1:\n{\"placement\":[1,3,0,2]}\n", 0);
    assert!(out.starts_with("solution"), "{out}");
}

/// A placement in a stream that is not a solution, or not on its board, is reported with its
/// number, the others are still checked, and the exit status says so.
#[test]
fn a_corrupted_placement_in_a_stream_is_reported_by_its_number() {
    let all = stdout(&queens(&["8"]));
    let corrupted = all.replacen("NO.5: 1 3 5 7 2 0 6 4", "NO.5: 1 3 5 7 2 0 4 6", 1);
    assert_ne!(corrupted, all);
    let o = run("queens", &["check"], Some(&corrupted));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("placement 5: not a solution: 2 attacking pair(s)\n  rows 3 and 6"),
        "{out}"
    );
    assert!(
        out.ends_with("92 placements checked: 1 is not a solution\n"),
        "{out}"
    );
    // JSON: one line per placement, and the summary.
    let json = stdout(&queens(&["6", "--format", "json"]));
    let o = run("queens", &["check", "--format", "json"], Some(&json));
    let lines = crate::common::json_lines(&o);
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[3]["index"], 4);
    assert_eq!(lines[3]["solution"], true);
    assert_eq!(lines[4]["checked"], 4);
    // A placement off its board is reported and reading goes on; text that is no placement
    // stops it (where the next one starts is not known), with status 2.
    for (input, error, checked) in [
        (
            "1 3 0 2\n\n1 3 0 9\n\n2 0 3 1\n",
            "queens: placement 2: malformed placement",
            "3 placements checked",
        ),
        (
            "1 3 0 2\n\n1 x 0 2\n\n2 0 3 1\n",
            "queens: placement 2: malformed placement: line 3",
            "2 placements checked",
        ),
    ] {
        let o = run("queens", &["check"], Some(input));
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).starts_with(error), "{}", stderr(&o));
        assert!(stdout(&o).starts_with(checked), "{}", stdout(&o));
    }
}

/// Messages name what is wrong: the missing argument, a board size too large, a negative
/// `--limit` or `--threads` (taken for an unknown option); `construct 3 --format json`
/// printed plain text on stdout.
#[test]
fn messages_say_what_is_wrong() {
    for (args, needles) in [
        (&["count"][..], &["not provided", "<N>"][..]),
        (&["unique"][..], &["<N>"][..]),
        (
            &["count", "9223372036854775808"][..],
            &["n = 9223372036854775808 is too large for the symmetry counter (at most"][..],
        ),
        (
            &["all", "99999999999999999999999"][..],
            &["n = 99999999999999999999999 is too large (at most 18446744073709551615)"][..],
        ),
        (
            &["all", "8", "--limit", "-1"][..],
            &["--limit", "whole number, 0 or more"][..],
        ),
        (
            &["check", "--limit", "-5", "1"][..],
            &["--limit", "whole number"][..],
        ),
        (
            &["count", "8", "--threads", "-1"][..],
            &["--threads", "whole number from 1 to 1024"][..],
        ),
        (
            &["count", "8", "--threads", "x"][..],
            &["--threads", "whole number from 1 to 1024"][..],
        ),
    ] {
        let o = queens(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        for needle in needles {
            assert!(err.contains(needle), "{args:?}: {err}");
        }
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
    for args in [
        &["construct", "3", "--format", "json"][..],
        &["first", "3"][..],
    ] {
        let o = queens(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert_eq!(stdout(&o), "", "{args:?}");
        assert_eq!(stderr(&o), "no solution exists for n = 3\n", "{args:?}");
    }
}

/// An option the command would not use is refused, not ignored: `all 8 --checkpoint f`
/// made no checkpoint, `--order` did nothing to the symmetry engine, and so on. Each command
/// takes only its own options, so clap refuses the others ("unexpected argument").
#[test]
fn options_that_do_not_apply_are_refused() {
    let dir = TempDir::new("queens-options");
    let file = dir.0.join("f");
    let file = file.to_str().unwrap();
    let unexpected = |flag: &str| format!("unexpected argument '{flag}' found");
    for (args, message) in [
        (
            &["all", "8", "--checkpoint", file][..],
            unexpected("--checkpoint"),
        ),
        (&["8", "--checkpoint", file][..], unexpected("--checkpoint")),
        (
            &["check", "--checkpoint", file, "1", "3", "0", "2"][..],
            unexpected("--checkpoint"),
        ),
        (
            &["construct", "8", "--stats", "--order", "rows"][..],
            unexpected("--order"),
        ),
        (&["count", "8", "--limit", "3"][..], unexpected("--limit")),
        (
            &["count", "8", "--format", "board"][..],
            "invalid value 'board' for '--format <FORMAT>' [possible values: text, json]".into(),
        ),
        (
            &["count", "8", "--engine", "bitmask", "--order", "rows"][..],
            "--order applies to the model's search, so to count --engine model only".into(),
        ),
        (
            &["count", "8", "--consistency", "domain"][..],
            "--consistency applies to the model's search, so to count --engine model only".into(),
        ),
        (
            &["unique", "8", "--order", "rows"][..],
            unexpected("--order"),
        ),
        (
            &["unique", "8", "--limit", "1"][..],
            "the following required arguments were not provided: --list".into(),
        ),
        (
            &["unique", "8", "--format", "board"][..],
            "add --list".into(),
        ),
        (
            &["first", "8", "--threads", "2"][..],
            unexpected("--threads"),
        ),
        (
            &["check", "--stats", "1", "3", "0", "2"][..],
            unexpected("--stats"),
        ),
        (
            &["check", "--format", "board", "1", "3", "0", "2"][..],
            "invalid value 'board' for '--format <FORMAT>'".into(),
        ),
        (
            &["construct", "8", "--time-limit", "1s"][..],
            unexpected("--time-limit"),
        ),
    ] {
        let o = queens(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        assert!(err.starts_with("queens: "), "{args:?}: {err}");
        assert!(err.contains(&message), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert_eq!(stdout(&o), "", "{args:?}");
    }
    assert!(!std::path::Path::new(file).exists());
    // Where they apply they still work.
    for (args, expected) in [
        (
            &[
                "count",
                "8",
                "--engine",
                "model",
                "--order",
                "rows",
                "--consistency",
                "domain",
            ][..],
            "92\n",
        ),
        (
            &[
                "count",
                "8",
                "--quiet",
                "--threads",
                "2",
                "--format",
                "json",
            ][..],
            "{\"n\":8,\"count\":92,\"engine\":\"symmetry\"}\n",
        ),
        (
            &["all", "4", "--limit", "1", "--consistency", "bounds"][..],
            "NO.1: 1 3 0 2\n1 solution shown (limit 1)\n",
        ),
        (
            &["unique", "4", "--list", "--limit", "1", "--format", "board"][..],
            "NO.1:\n. Q . .\n. . . Q\nQ . . .\n. . Q .\n\n1 unique solution (2 in total)\n",
        ),
        (
            &["first", "4", "--consistency", "domain", "-q"][..],
            "NO.1: 1 3 0 2\n",
        ),
        (
            &["check", "--limit", "0", "0", "1"][..],
            "not a solution: 1 attacking pair(s)\n  ... and 1 more (--limit shows more)\n",
        ),
    ] {
        let o = queens(args);
        assert_eq!(
            o.status.code(),
            Some(if args[0] == "check" { 1 } else { 0 }),
            "{args:?}: {}",
            stderr(&o)
        );
        assert_eq!(stdout(&o), expected, "{args:?}");
    }
}

/// A directory for one test, removed when the test ends, passing or not.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A stdout opened on /dev/null for reading and writing, as Python's `subprocess.DEVNULL`
/// opens it, is a normal run. (Issue 11 made it an error, to catch `queens 8 >&-`, for which
/// Rust's runtime opens /dev/null the same way; the two cannot be told apart, and refusing
/// every Python caller's run was the worse mistake.)
#[cfg(unix)]
#[test]
fn a_stdout_on_dev_null_read_write_is_a_normal_run() {
    let queens = crate::common::program("queens");
    for args in ["8", "count 8", "construct 10"] {
        for redirect in ["1<>/dev/null", ">&-", "> /dev/null"] {
            let o = Command::new("sh")
                .arg("-c")
                .arg(format!(r#""$0" {args} {redirect}"#))
                .arg(&queens)
                .output()
                .unwrap();
            assert_eq!(
                o.status.code(),
                Some(0),
                "{args} {redirect}: {}",
                stderr(&o)
            );
            assert_eq!(stderr(&o), "", "{args} {redirect}");
        }
    }
}

/// `queens 3 | queens check`: a board without solutions (3 queens have none, OEIS A000170)
/// prints a list of none, which checks as such: nothing is malformed, and the status is 0.
/// Empty input stays a missing placement (`malformed_placements_are_refused_in_one_line`).
#[test]
fn a_board_without_solutions_checks_as_a_list_of_none() {
    for args in [&["3"][..], &["all", "2"], &["unique", "3", "--list"]] {
        let printed = stdout(&queens(args));
        let o = run("queens", &["check"], Some(&printed));
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "0 placements checked\n", "{args:?}");
        assert_eq!(stderr(&o), "", "{args:?}");
        let o = run("queens", &["check", "--format", "json"], Some(&printed));
        assert_eq!(o.status.code(), Some(0), "{args:?} json: {}", stderr(&o));
        assert_eq!(
            stdout(&o),
            "{\"checked\":0,\"not_solutions\":0,\"malformed\":0}\n",
            "{args:?}"
        );
    }
}
