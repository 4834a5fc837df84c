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

fn temp_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bezzel-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("checkpoint.json")
}

/// Finished subproblems in a checkpoint journal: its complete lines after the header.
fn done_in(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.matches('\n').count().saturating_sub(1))
        .unwrap_or(0)
}

/// Ctrl-C part-way through a checkpointed count, then the same command again: the exact total.
#[test]
fn interrupted_counts_resume_to_the_exact_total() {
    let path = temp_path("resume");
    let _ = std::fs::remove_file(&path);
    let args = [
        "count",
        "13",
        "--engine",
        "model",
        "--threads",
        "1",
        "--checkpoint",
        path.to_str().unwrap(),
    ];
    let child = std::process::Command::new(common::example("queens"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while done_in(&path) < 3 && start.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let interrupted = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    let o = child.wait_with_output().unwrap();
    let first_done = done_in(&path);
    if interrupted && o.status.code() == Some(130) {
        let err = stderr(&o);
        assert!(
            err.contains("interrupted") && err.contains("run the same command"),
            "{err}"
        );
        assert!(first_done >= 3);
    }
    let o = run("queens", &args, None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "73712");
    assert!(done_in(&path) >= first_done);

    // A checkpoint of another size is refused, and so is a corrupted one.
    let other = [
        "count",
        "12",
        "--engine",
        "model",
        "--checkpoint",
        path.to_str().unwrap(),
    ];
    let o = run("queens", &other, None);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("different run"), "{}", stderr(&o));
    std::fs::write(&path, "{\"format\": \"bezzel-checkpoint\", \"done\": ").unwrap();
    let o = run("queens", &args, None);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("corrupt"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn bitmask_counts_resume_from_a_checkpoint_too() {
    let path = temp_path("bitmask");
    let _ = std::fs::remove_file(&path);
    let args = ["count", "12", "--checkpoint", path.to_str().unwrap()];
    let o = run("queens", &args, None);
    assert_eq!(stdout(&o).trim(), "14200");
    let full = done_in(&path);
    assert!(full > 1);
    // Forget half of the finished subproblems, as if the run had been killed then.
    let text = std::fs::read_to_string(&path).unwrap();
    let kept: String = text
        .split_inclusive('\n')
        .take(1 + full - full / 2)
        .collect();
    std::fs::write(&path, kept).unwrap();
    let o = run("queens", &args, None);
    assert_eq!(stdout(&o).trim(), "14200");
    assert_eq!(done_in(&path), full);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn parallel_model_counts_match_sequential_ones() {
    for n in ["8", "11"] {
        let seq = run(
            "queens",
            &["count", n, "--engine", "model", "--threads", "1"],
            None,
        );
        for threads in ["2", "4"] {
            let par = run(
                "queens",
                &["count", n, "--engine", "model", "--threads", threads],
                None,
            );
            assert_eq!(stdout(&par), stdout(&seq), "n = {n}, {threads} threads");
        }
    }
}
