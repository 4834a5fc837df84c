//! The queens command end to end: outputs, formats, exit codes and error messages.

use crate::common::{run, stderr, stdout};
use std::time::Duration;

fn queens(args: &[impl AsRef<std::ffi::OsStr>]) -> std::process::Output {
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
    let lines = crate::common::json_lines(&o);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["index"], 2);
    assert_eq!(
        lines[0]["placement"],
        serde_json::json!([0, 4, 7, 5, 2, 6, 1, 3])
    );
    let o = queens(&["all", "6", "--limit", "1"]);
    assert_eq!(
        stdout(&o),
        "NO.1: 1 3 5 0 2 4\n1 solution shown (limit 1)\n"
    );
}

/// One class is "1 unique solution", not "1 unique solutions", wherever it is said, and
/// check still reads the sentence back as the summary it is (A002562: 1 class for n = 1 and
/// n = 4; A000170: 1 and 2 solutions).
#[test]
fn one_unique_solution_is_singular() {
    for (n, line) in [
        ("1", "1 unique solution (1 in total)"),
        ("4", "1 unique solution (2 in total)"),
        ("6", "1 unique solution (4 in total)"),
        ("5", "2 unique solutions (10 in total)"),
    ] {
        let o = queens(&["unique", n]);
        assert_eq!(stdout(&o), format!("{line}\n"), "n = {n}");
        let o = queens(&["unique", n, "--list", "--format", "svg"]);
        assert_eq!(stderr(&o), format!("{line}\n"), "n = {n}");
        let listed = stdout(&queens(&["unique", n, "--list"]));
        assert!(listed.ends_with(&format!("{line}\n")), "{listed}");
        let o = run("queens", &["check"], Some(&listed));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
}

/// `--stats` counts propagator runs: with `--consistency domain` the three all-differents
/// of the model are one propagator that reaches its own fixpoint, so it runs once a node and
/// the propagations equal the nodes (this looked like a wrong counter); at value consistency
/// the three run apart, and only when a queen is placed. The help says what is counted.
#[test]
fn stats_count_propagator_runs() {
    let counters = |consistency: &str| -> (u64, u64) {
        let args = [
            "count",
            "9",
            "--engine",
            "model",
            "--threads",
            "1",
            "--stats",
        ];
        let o = queens(&[&args[..], &["--consistency", consistency]].concat());
        assert_eq!(stdout(&o), "352\n", "A000170(9)");
        let err = stderr(&o);
        let field = |name: &str| -> u64 {
            let start = err.find(&format!("{name}: ")).unwrap() + name.len() + 2;
            let digits: String = err[start..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().unwrap()
        };
        (field("nodes"), field("propagations"))
    };
    let (nodes, propagations) = counters("domain");
    assert_eq!(propagations, nodes);
    let (nodes, propagations) = counters("value");
    assert_ne!(propagations, nodes);
    let help = stdout(&queens(&["count", "--help"]));
    assert!(help.contains("propagator runs"), "{help}");
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
    // On stderr, as `first 3` says it: stdout is for placements in the format asked for.
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o).trim(), "no solution exists for n = 3");

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

/// Finished subproblems in a checkpoint journal: its complete lines after the header.
fn done_in(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.matches('\n').count().saturating_sub(1))
        .unwrap_or(0)
}

/// Ctrl-C part-way through a checkpointed count, then the same command again: the exact total.
#[test]
fn interrupted_counts_resume_to_the_exact_total() {
    let scratch = Scratch::new("resume");
    let path = scratch.path();
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
    let child = std::process::Command::new(crate::common::program("queens"))
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
}

#[test]
fn bitmask_counts_resume_from_a_checkpoint_too() {
    let scratch = Scratch::new("bitmask");
    let path = scratch.path();
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

/// A directory for one test's checkpoints, removed when the test ends, passing or not.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("bezzel-ckpt-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self) -> std::path::PathBuf {
        self.0.join("run.ckpt")
    }

    fn arg(&self) -> String {
        self.path().to_str().unwrap().to_string()
    }

    fn listing(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn lines(&self) -> Vec<String> {
        std::fs::read_to_string(self.path())
            .unwrap()
            .split_inclusive('\n')
            .map(str::to_string)
            .collect()
    }

    fn write(&self, lines: &[String]) {
        std::fs::write(self.path(), lines.concat()).unwrap();
    }

    /// `queens count N --engine ENGINE`, then `options`, checkpointed here.
    fn count(&self, n: &str, engine: &str, options: &[&str]) -> Vec<String> {
        let mut args: Vec<String> = ["count", n, "--engine", engine]
            .iter()
            .chain(options)
            .map(|a| a.to_string())
            .collect();
        args.extend(["--checkpoint".to_string(), self.arg()]);
        args
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the queens command, killing it and failing the test if it takes longer than `limit`.
fn queens_within(args: &[impl AsRef<std::ffi::OsStr>], limit: Duration) -> std::process::Output {
    let mut child = crate::common::spawn("queens", args);
    drop(child.stdin.take());
    let status = crate::common::wait_at_most(&mut child, limit);
    assert!(status.is_some(), "queens still ran after {limit:?}");
    child.wait_with_output().unwrap()
}

fn assert_refused(o: &std::process::Output, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(
        stdout(o),
        "",
        "nothing on stdout: no total from a bad checkpoint"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(needle), "{err}");
}

/// The entry line of the first subproblem with solutions (its line number in `lines`).
fn entry_with_solutions(lines: &[String]) -> usize {
    (1..lines.len())
        .find(|&i| lines[i].split(' ').nth(1).is_some_and(|c| c != "0"))
        .unwrap()
}

/// The checkpoint of `count 10` edited by hand: a changed count, a count of `u64::MAX`, or a
/// count taken out of an entry is refused as corrupt, naming the line, and never summed.
#[test]
fn edited_checkpoint_entries_are_refused_never_summed() {
    let dir = Scratch::new("edited");
    let args = ["count", "10", "--checkpoint", &dir.arg()];
    let o = queens(&args);
    assert_eq!(stdout(&o).trim(), "724", "{}", stderr(&o));
    let original = dir.lines();
    let line = entry_with_solutions(&original);
    let tokens: Vec<&str> = original[line].split(' ').collect();
    let count: u64 = tokens[1].parse().unwrap();
    let edits = [
        [tokens[0], &(count + 1).to_string(), tokens[2], tokens[3]].join(" "),
        [tokens[0], &u64::MAX.to_string(), tokens[2], tokens[3]].join(" "),
        [tokens[0], tokens[2], tokens[3]].join(" "),
        [tokens[0], tokens[1], tokens[3]].join(" "),
    ];
    for edit in edits {
        let mut l = original.clone();
        l[line] = edit.clone();
        dir.write(&l);
        for command in [&args[..], &["unique", "10", "--checkpoint", &dir.arg()][..]] {
            let o = queens(command);
            assert_refused(&o, "corrupt");
            assert!(
                stderr(&o).contains(&format!("line {}", line + 1)),
                "{edit}: {}",
                stderr(&o)
            );
        }
    }
}

/// Lines lost to a kill, a line torn by one, and a line that appears twice: the exact total.
#[test]
fn dropped_torn_and_repeated_checkpoint_lines_give_the_exact_total() {
    let dir = Scratch::new("dropped");
    let args = ["count", "10", "--checkpoint", &dir.arg()];
    assert_eq!(stdout(&queens(&args)).trim(), "724");
    let original = dir.lines();
    let line = entry_with_solutions(&original);

    let mut l = original.clone();
    l.remove(line);
    dir.write(&l);
    let o = queens(&args);
    assert_eq!(stdout(&o).trim(), "724", "{}", stderr(&o));
    assert_eq!(dir.lines().len(), original.len());

    let mut l = original.clone();
    let last = l.pop().unwrap();
    l.push(last[..last.len() / 2].to_string());
    dir.write(&l);
    let o = queens(&args);
    assert_eq!(stdout(&o).trim(), "724", "{}", stderr(&o));
    let after = std::fs::read_to_string(dir.path()).unwrap();
    assert!(
        after.ends_with('\n') && after.lines().count() == original.len(),
        "{after}"
    );

    let mut l = original.clone();
    l.push(l[line].clone());
    dir.write(&l);
    let o = queens(&args);
    assert_eq!(stdout(&o).trim(), "724", "{}", stderr(&o));
    let o = queens(&["unique", "10", "--checkpoint", &dir.arg()]);
    assert_eq!(
        stdout(&o).trim(),
        "92 unique solutions (724 in total)",
        "{}",
        stderr(&o)
    );
}

/// The model engine splits by thread count; a resume with another `--threads` keeps the
/// recorded split and still adds up to A000170.
#[test]
fn a_checkpoint_resumes_with_another_thread_count() {
    for (n, expected) in [("10", "724"), ("11", "2680")] {
        let dir = Scratch::new(&format!("threads{n}"));
        let with = |threads: &str| queens(&dir.count(n, "model", &["--threads", threads]));
        let o = with("1");
        assert_eq!(stdout(&o).trim(), expected, "{}", stderr(&o));
        let original = dir.lines();
        for (threads, keep_every) in [("8", 2), ("3", 3), ("2", 1)] {
            let kept: Vec<String> = original
                .iter()
                .enumerate()
                .filter(|(i, _)| *i == 0 || i % keep_every == 0)
                .map(|(_, l)| l.clone())
                .collect();
            dir.write(&kept);
            let o = with(threads);
            assert!(
                o.status.success(),
                "n = {n}, {threads} threads: {}",
                stderr(&o)
            );
            assert_eq!(stdout(&o).trim(), expected, "n = {n}, {threads} threads");
            let after = dir.lines();
            assert_eq!(after[0], original[0], "the split is the recorded one");
            assert_eq!(after.len(), original.len());
        }
    }
}

/// A checkpoint in a directory that does not exist fails at once, not after the first
/// subproblem of a count that would take hours.
#[test]
fn an_unwritable_checkpoint_fails_before_any_work() {
    let dir = Scratch::new("unwritable");
    let missing = dir.0.join("no-such-dir").join("run.ckpt");
    std::fs::write(dir.0.join("plain"), "").unwrap();
    let under_file = dir.0.join("plain").join("run.ckpt");
    for path in [&missing, &under_file, &dir.0] {
        for engine in ["symmetry", "model"] {
            let args = [
                "count",
                "20",
                "--engine",
                engine,
                "--checkpoint",
                path.to_str().unwrap(),
            ];
            let o = queens_within(&args, std::time::Duration::from_secs(30));
            assert_refused(&o, "checkpoint");
        }
    }
    assert_eq!(dir.listing(), ["plain"]);
}

/// Two runs on one checkpoint would each count what the other records: the second is refused
/// while the first runs, and a `kill -9` of the first leaves no stale lock behind.
#[test]
fn a_checkpoint_in_use_is_refused_and_a_kill_leaves_no_stale_lock() {
    let dir = Scratch::new("lock");
    let args = dir.count("16", "model", &["--threads", "1"]);
    let mut first = crate::common::spawn("queens", &args);
    let start = std::time::Instant::now();
    // The header is written after the lock is taken.
    while !std::fs::read_to_string(dir.path()).is_ok_and(|t| t.contains('\n')) {
        assert!(
            start.elapsed().as_secs() < 60,
            "the first run wrote no header"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let o = queens_within(&args, std::time::Duration::from_secs(30));
    let still_running = first.try_wait().unwrap().is_none();
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(
        still_running,
        "the first run ended before the second started"
    );
    assert_refused(&o, "in use by another run");
    // The lock went with the killed process: another run gets as far as reading the file.
    let o = queens_within(
        &dir.count("12", "model", &[]),
        std::time::Duration::from_secs(30),
    );
    assert_refused(&o, "different run");
    assert_eq!(dir.listing(), ["run.ckpt"]);
}

/// Runs killed at various points leave only the checkpoint, and it still resumes exactly.
#[test]
fn killed_runs_leave_no_temporary_files() {
    let dir = Scratch::new("kill");
    let args = ["count", "16", "--threads", "2", "--checkpoint", &dir.arg()];
    for wait_ms in [150, 300, 450, 600] {
        let mut child = crate::common::spawn("queens", &args);
        std::thread::sleep(std::time::Duration::from_millis(wait_ms));
        let _ = child.kill();
        child.wait().unwrap();
        let listing = dir.listing();
        assert!(listing.is_empty() || listing == ["run.ckpt"], "{listing:?}");
    }
    let o = queens_within(&args, std::time::Duration::from_secs(120));
    assert_eq!(stdout(&o).trim(), "14772512", "{}", stderr(&o));
    assert_eq!(dir.listing(), ["run.ckpt"]);
}

/// The model engine's parallel statistics report the search depth (they said `max depth: 0`),
/// the same as sequential search reaches.
#[test]
fn parallel_model_stats_report_the_search_depth() {
    let depth = |o: &std::process::Output| -> u64 {
        let err = stderr(o);
        let at = err.find("max depth: ").unwrap_or_else(|| panic!("{err}")) + "max depth: ".len();
        err[at..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    for n in ["10", "11"] {
        let sequential = depth(&queens(&[
            "count",
            n,
            "--engine",
            "model",
            "--threads",
            "1",
            "--stats",
        ]));
        assert!(sequential > 0);
        for threads in ["2", "4"] {
            let o = queens(&[
                "count",
                n,
                "--engine",
                "model",
                "--threads",
                threads,
                "--stats",
            ]);
            // A subproblem's prefix is shortened (see `Solver::split`), so its depth plus its
            // search's is at most the depth sequential search reaches there, and never 0.
            let parallel = depth(&o);
            assert!(
                parallel > 0 && parallel <= sequential,
                "n = {n}, {threads} threads: {parallel} vs sequential {sequential}"
            );
        }
    }
}

/// 64-bit FNV-1a from `hash`, the checkpoint's checksum, computed here to forge lines the way
/// someone who recomputes checksums would.
fn fnv_from(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// The first line of a checkpoint without its checksum.
fn header_body(scratch: &Scratch) -> String {
    let lines = scratch.lines();
    let (body, _) = lines[0].trim_end().rsplit_once(' ').unwrap();
    body.to_string()
}

/// Writes a checkpoint of header `body` and `entries`, all with valid checksums.
fn write_forged(scratch: &Scratch, body: &str, entries: &[&str]) {
    let sum = fnv_from(FNV_OFFSET, body.as_bytes());
    let mut lines = vec![format!("{body} {sum:016x}\n")];
    for entry in entries {
        let entry_sum = fnv_from(fnv_from(FNV_OFFSET, &sum.to_le_bytes()), entry.as_bytes());
        lines.push(format!("{entry} {entry_sum:016x}\n"));
    }
    scratch.write(&lines);
}

/// The header `body` with the first subproblem of its split (the text up to `end`) repeated
/// at the end of the split, edited by `edit`.
fn with_first_repeated(body: &str, end: &str, edit: impl Fn(&str) -> String) -> String {
    let start = body.find("\"split\":[").unwrap() + "\"split\":[".len();
    let len = body[start..].find(end).unwrap() + end.len();
    let first = edit(&body[start..start + len]);
    let close = body.len() - "]}".len();
    assert_eq!(&body[close..], "]}");
    format!("{},{first}]}}", &body[..close])
}

/// `/dev/zero`, `/dev/null`, a pipe or a directory as the checkpoint: refused at once, with
/// nothing read (a device or pipe would be read without end, or block).
#[test]
fn checkpoint_paths_that_are_not_files_are_refused_at_once() {
    let scratch = Scratch::new("not-a-file");
    let fifo = scratch.0.join("fifo");
    let mut paths = vec![
        "/dev/zero".to_string(),
        "/dev/null".to_string(),
        "/dev/full".to_string(),
        scratch.0.to_str().unwrap().to_string(),
    ];
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        paths.push(fifo.to_str().unwrap().to_string());
    }
    for path in &paths {
        if !std::path::Path::new(path).exists() {
            continue;
        }
        for engine in ["model", "bitmask", "symmetry"] {
            let o = queens_within(
                &["count", "10", "--engine", engine, "--checkpoint", path],
                std::time::Duration::from_secs(10),
            );
            assert_refused(&o, "is not a regular file");
        }
    }
}

/// A large file that is not a checkpoint is refused after its first bytes, not read whole.
#[test]
fn a_large_file_that_is_not_a_checkpoint_is_refused_by_its_first_bytes() {
    let scratch = Scratch::new("large");
    let file = std::fs::File::create(scratch.path()).unwrap();
    let len = 2u64 << 30; // sparse: no disk is used
    file.set_len(len).unwrap();
    drop(file);
    let o = queens_within(
        &["count", "10", "--checkpoint", &scratch.arg()],
        std::time::Duration::from_secs(3),
    );
    assert_refused(&o, "not a bezzel checkpoint");
    assert_eq!(std::fs::metadata(scratch.path()).unwrap().len(), len);
    // So is a header followed by zeros (no header has them).
    let file = std::fs::File::create(scratch.path()).unwrap();
    std::io::Write::write_all(&mut &file, b"bezzel-checkpoint 3 {").unwrap();
    file.set_len(len).unwrap();
    drop(file);
    for engine in ["bitmask", "symmetry", "model"] {
        let o = queens_within(
            &scratch.count("10", engine, &[]),
            std::time::Duration::from_secs(3),
        );
        assert_refused(&o, "line 1");
        assert_eq!(std::fs::metadata(scratch.path()).unwrap().len(), len);
    }
    // And a header that runs on, longer than the bitmask or symmetry split's could be.
    let long = format!("bezzel-checkpoint 3 {{{}", "a".repeat(8 << 20));
    std::fs::write(scratch.path(), &long).unwrap();
    for engine in ["bitmask", "symmetry"] {
        let o = queens(&scratch.count("10", engine, &[]));
        assert_refused(&o, "longer than");
        assert_eq!(std::fs::read_to_string(scratch.path()).unwrap(), long);
    }
}

/// A subproblem the engine refuses (a forged split, checksums recomputed) is an error naming
/// the subproblem and the checkpoint, with status 2: never "interrupted … resume".
#[test]
fn an_engine_error_in_a_recorded_split_is_an_error_not_an_interruption() {
    let scratch = Scratch::new("engine-error");
    let args = scratch.count("8", "model", &["--threads", "2"]);
    assert_eq!(stdout(&queens(&args)), "92\n");
    let body = header_body(&scratch).replacen(
        "\"decisions\":[",
        "\"decisions\":[{\"Assign\":[1000,1000]},",
        1,
    );
    write_forged(&scratch, &body, &[]);
    let o = queens(&args);
    assert_refused(&o, "cannot solve subproblem 0 of checkpoint");
    let err = stderr(&o);
    assert!(err.contains(&scratch.arg()), "{err}");
    assert!(
        !err.contains("interrupted") && !err.contains("resume"),
        "{err}"
    );
}

/// Splits forged with checksums recomputed: a subproblem repeated (its solutions would be
/// counted twice), a split other than the one the bitmask and symmetry engines always make,
/// an entry's number spelled with a leading zero. Each is refused, never summed.
#[test]
fn forged_splits_are_refused_never_summed() {
    let scratch = Scratch::new("forged-split");
    let model = scratch.count("10", "model", &["--threads", "2"]);
    assert_eq!(stdout(&queens(&model)), "724\n");
    let body = header_body(&scratch);
    let subproblems = body.matches("\"index\":").count();
    for forged in [
        with_first_repeated(&body, "}]}", str::to_string),
        with_first_repeated(&body, "}]}", |s| {
            s.replacen("\"index\":0,", &format!("\"index\":{subproblems},"), 1)
        }),
    ] {
        write_forged(&scratch, &forged, &[]);
        assert_refused(&queens(&model), "repeats an earlier one");
    }
    for engine in ["bitmask", "symmetry"] {
        let args = scratch.count("10", engine, &[]);
        std::fs::remove_file(scratch.path()).unwrap();
        assert_eq!(stdout(&queens(&args)), "724\n");
        let body = header_body(&scratch);
        let lines = scratch.lines();
        let entry = lines.iter().find(|l| l.starts_with("1 ")).unwrap();
        let (entry, _) = entry.trim_end().rsplit_once(' ').unwrap();
        write_forged(
            &scratch,
            &with_first_repeated(&body, "}", str::to_string),
            &[],
        );
        assert_refused(&queens(&args), "repeats an earlier one");
        // A subproblem changed: not the split this engine always makes.
        let changed = if engine == "bitmask" {
            body.replacen("{\"first\":0,", "{\"first\":99,", 1)
        } else {
            body.replacen("{\"prefix\":[0,", "{\"prefix\":[99,", 1)
        };
        assert_ne!(changed, body);
        write_forged(&scratch, &changed, &[]);
        assert_refused(
            &queens(&args),
            "not the one this model is always split into",
        );
        // The split as written, with an entry numbered `01`.
        write_forged(&scratch, &body, &[&format!("0{entry}")]);
        assert_refused(&queens(&args), "line 2");
        write_forged(&scratch, &body, &[entry]);
        assert_eq!(stdout(&queens(&args)), "724\n");
    }
}

/// A checkpoint of format 2 (whose split may mean something else now) is refused as written
/// by an older Bezzel, by its first bytes.
#[test]
fn a_checkpoint_of_format_2_is_refused_as_older() {
    let scratch = Scratch::new("format-2");
    let args = scratch.count("10", "bitmask", &[]);
    assert_eq!(stdout(&queens(&args)), "724\n");
    let body = header_body(&scratch);
    let (_, rest) = body.split_once(" {").unwrap();
    write_forged(&scratch, &format!("bezzel-checkpoint 2 {{{rest}"), &[]);
    assert_refused(&queens(&args), "written by an older Bezzel");
    assert_refused(&queens(&args), "remove it to start over");
}

/// `--time-limit` stops every long command with a summary of the work done, and status 124
/// (that of `timeout(1)`); a limit not reached changes nothing.
#[test]
fn a_time_limit_stops_long_commands_with_a_summary() {
    for (args, summary) in [
        (&["count", "21", "--threads", "2"][..], "subproblems done"),
        (
            &["count", "21", "--engine", "model", "--threads", "2"][..],
            "subproblems done",
        ),
        (
            &["count", "21", "--engine", "model", "--threads", "1"][..],
            "solutions so far",
        ),
        (&["unique", "21", "--threads", "2"][..], "subproblems done"),
        // Splitting the model of 10,000 queens takes seconds by itself.
        (
            &["count", "10000", "--engine", "model", "--threads", "2"][..],
            "stopped while splitting the work",
        ),
        (&["first", "30"][..], "no solution found yet"),
        (&["all", "30"][..], "0 solutions printed"),
    ] {
        let mut args = args.to_vec();
        args.extend(["--time-limit", "300ms"]);
        let started = std::time::Instant::now();
        let o = queens_within(&args, std::time::Duration::from_secs(60));
        assert_eq!(o.status.code(), Some(124), "{args:?}: {}", stderr(&o));
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
        let err = stderr(&o);
        assert!(
            err.starts_with("queens: time limit reached: ") && err.contains(summary),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let o = queens(&["count", "10", "--time-limit", "1h"]);
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (Some(0), "724\n".to_string())
    );
    let o = queens(&["count", "10", "--time-limit", "soon"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a duration"), "{}", stderr(&o));
}

#[test]
fn version_is_printed() {
    let o = queens(&["--version"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        format!("queens {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// Each command's help lists the options it takes, and only those.
#[test]
fn each_command_lists_only_its_options() {
    for (command, listed, absent) in [
        (
            "count",
            &[
                "--engine",
                "--threads",
                "--checkpoint",
                "--time-limit",
                "--order",
                "--consistency",
                "--stats",
                "--quiet",
                "--format",
            ][..],
            &["--limit", "--list"][..],
        ),
        (
            "all",
            &[
                "--limit",
                "--format",
                "--consistency",
                "--time-limit",
                "--stats",
            ][..],
            &["--threads", "--checkpoint", "--engine", "--order"][..],
        ),
        (
            "first",
            &["--format", "--consistency", "--time-limit"][..],
            &["--threads", "--checkpoint", "--limit", "--order"][..],
        ),
        (
            "unique",
            &[
                "--list",
                "--limit",
                "--threads",
                "--checkpoint",
                "--time-limit",
            ][..],
            &["--engine", "--order", "--consistency"][..],
        ),
        (
            "construct",
            &["--format", "--stats"][..],
            &["--threads", "--limit", "--time-limit", "--checkpoint"][..],
        ),
        (
            "check",
            &["--limit", "--format"][..],
            &["--threads", "--stats", "--checkpoint", "--time-limit"][..],
        ),
    ] {
        let o = queens(&[command, "--help"]);
        assert!(o.status.success(), "{command}");
        let help = stdout(&o);
        for option in listed {
            assert!(
                help.contains(option),
                "{command} --help lacks {option}:\n{help}"
            );
        }
        for option in absent {
            assert!(
                !help.contains(option),
                "{command} --help lists {option}:\n{help}"
            );
        }
    }
}

/// Without the `mpi` feature, `--mpi` is a clear error, not a count on one process.
#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_without_the_feature_says_how_to_get_it() {
    for args in [
        &["count", "8", "--mpi"][..],
        &["count", "8", "--engine", "model", "--mpi"][..],
        &["unique", "8", "--mpi"][..],
    ] {
        let o = queens(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&o), "", "{args:?}");
        assert!(stderr(&o).contains("--features mpi"), "{}", stderr(&o));
    }
}

/// A repeated `-q` is one `--quiet` (as in many programs): accepted, and as quiet.
#[test]
fn a_repeated_quiet_is_one_quiet() {
    // 92 solutions of 8 queens, 12 unique ones (OEIS A000170, A002562).
    for (args, out) in [
        (&["count", "8", "-q", "-q"][..], "92\n"),
        (
            &["count", "8", "--quiet", "-q", "--engine", "bitmask"],
            "92\n",
        ),
        (
            &["unique", "8", "-qq"],
            "12 unique solutions (92 in total)\n",
        ),
        (
            &["all", "4", "-q", "-q"],
            "NO.1: 1 3 0 2\nNO.2: 2 0 3 1\n2 solutions\n",
        ),
    ] {
        let o = queens(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), out, "{args:?}");
        assert_eq!(stderr(&o), "", "{args:?}");
    }
}
