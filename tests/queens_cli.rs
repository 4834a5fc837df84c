//! The queens command end to end: outputs, formats, exit codes and error messages.

mod common;
use common::{run, stderr, stdout};

fn queens(args: &[&str]) -> std::process::Output {
    run("queens", args, None)
}

#[test]
fn plain_n_prints_every_solution_and_the_total() {
    let o = queens(&["8"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 93);
    assert_eq!(lines[0], "NO.1: 0 4 7 5 2 6 1 3");
    assert_eq!(lines[91], "NO.92: 7 3 0 2 5 1 6 4");
    assert_eq!(lines[92], "92 solutions");
    assert_eq!(out, stdout(&queens(&["all", "8"])));
}

#[test]
fn count_by_every_engine() {
    for (args, expected) in [
        (&["count", "10"][..], "724"),
        (&["count", "10", "--engine", "model"][..], "724"),
        (
            &["count", "11", "--engine", "bitmask", "--threads", "2"][..],
            "2680",
        ),
        (&["count", "3"][..], "0"),
    ] {
        let o = queens(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o).trim(), expected, "{args:?}");
    }
    let o = queens(&["count", "9", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["count"], 352);
    assert_eq!(v["n"], 9);
}

#[test]
fn stats_go_to_stderr_and_nothing_extra_when_piped() {
    let o = queens(&["count", "8", "--engine", "model", "--stats"]);
    assert_eq!(stdout(&o).trim(), "92");
    let err = stderr(&o);
    assert!(err.contains("nodes:") && err.contains("failures:"), "{err}");
    let o = queens(&["count", "15"]);
    assert_eq!(stdout(&o).trim(), "2279184");
    assert_eq!(
        stderr(&o),
        "",
        "no progress bar when stderr is not a terminal"
    );
}

#[test]
fn formats_and_limit() {
    let o = queens(&["first", "4", "--format", "board"]);
    assert_eq!(stdout(&o), "NO.1:\n. Q . .\n. . . Q\nQ . . .\n. . Q .\n\n");
    let o = queens(&["all", "8", "--limit", "2", "--format", "json"]);
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["index"], 2);
    assert_eq!(
        lines[0]["placement"],
        serde_json::json!([0, 4, 7, 5, 2, 6, 1, 3])
    );
    let o = queens(&["all", "6", "--limit", "1"]);
    assert_eq!(
        stdout(&o),
        "NO.1: 1 3 5 0 2 4\n1 solutions shown (limit 1)\n"
    );
}

#[test]
fn unique_construct_and_check() {
    let o = queens(&["unique", "8"]);
    assert_eq!(stdout(&o).trim(), "12 unique solutions (92 in total)");
    let o = queens(&["unique", "8", "--list"]);
    assert_eq!(stdout(&o).lines().count(), 13);

    let o = queens(&["construct", "1000"]);
    assert!(o.status.success());
    let placement = stdout(&o);
    let o = run("queens", &["check"], Some(&placement));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("solution"));

    let o = queens(&["construct", "3"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).trim(), "no solution exists for n = 3");

    let o = queens(&["check", "0", "2", "1", "3"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.starts_with("not a solution"), "{out}");
    assert!(out.contains("rows 1 and 2"), "{out}");
    let o = queens(&["check", "1,3,0,2"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn bad_input_gets_one_line_and_a_nonzero_exit() {
    for (args, needle) in [
        (&["0"][..], "at least 1"),
        (&["-3"][..], "at least 1"),
        (&["eight"][..], "positive whole number"),
        (&["count", "40"][..], "too large"),
        (&["count", "8", "--frobnicate"][..], "--frobnicate"),
        (&["count", "8", "--engine", "magic"][..], "magic"),
        (&["check", "0", "x", "2"][..], "malformed placement"),
        (&["check", "0", "9", "2"][..], "malformed placement"),
        (&["count", "8", "--threads", "0"][..], "thread"),
        (&[][..], "missing board size"),
    ] {
        let o = queens(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
