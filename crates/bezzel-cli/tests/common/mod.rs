//! Helpers for running the programs `queens` and `sudoku` end to end, shared by this
//! package's tests and the root package's.

// Each test binary compiles this module and uses only some of it.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// Path of one of the programs `queens` and `sudoku`, which cargo builds before this
/// package's tests. The root package's tests share this module; cargo names no binaries for
/// them, so they find the programs next to the test binary's folder (a workspace `cargo
/// test` builds them there).
pub(crate) fn program(name: &str) -> PathBuf {
    let built = match name {
        "queens" => option_env!("CARGO_BIN_EXE_queens"),
        "sudoku" => option_env!("CARGO_BIN_EXE_sudoku"),
        _ => panic!("no program named {name}"),
    };
    if let Some(path) = built {
        return PathBuf::from(path);
    }
    let mut dir = std::env::current_exe().expect("test binary path");
    dir.pop(); // the test binary
    if dir.ends_with("deps") {
        dir.pop();
    }
    let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: run the tests with `cargo test` at the root (which builds the \
         programs) or `cargo build --bins` first",
        path.display()
    );
    path
}

/// A path in the repository (puzzle samples in `tests/data`, `examples/data`), from its root.
pub(crate) fn repository(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").exists())
        .expect("the repository's root")
        .join(path)
}

/// Starts a program with arguments, its stdin, stdout and stderr piped to the test.
pub(crate) fn spawn(name: &str, args: &[impl AsRef<OsStr>]) -> Child {
    spawn_piped(Command::new(program(name)).args(args))
}

/// Starts `command` with its stdin, stdout and stderr piped to the test.
pub(crate) fn spawn_piped(command: &mut Command) -> Child {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("program starts")
}

/// Runs a program with arguments and optional stdin.
pub(crate) fn run(name: &str, args: &[impl AsRef<OsStr>], stdin: Option<&str>) -> Output {
    let mut child = spawn(name, args);
    {
        let mut pipe = child.stdin.take().expect("stdin");
        if let Some(text) = stdin {
            // A command that stops reading early (it failed, say) closes the pipe; its exit
            // status and output then tell the test what happened.
            if let Err(e) = pipe.write_all(text.as_bytes()) {
                assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
            }
        }
    }
    child.wait_with_output().expect("program finishes")
}

/// stdout as text.
pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

/// stdout as JSON values, one a line.
pub(crate) fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Everything left in a child's pipe (taken from it), as text.
pub(crate) fn read_all(pipe: Option<impl std::io::Read>) -> String {
    let mut text = String::new();
    pipe.expect("a piped stream")
        .read_to_string(&mut text)
        .expect("utf-8 output");
    text
}

/// stderr as text.
pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

/// Waits until the child catches SIGINT, so that a test's signal reaches the program's
/// handler rather than the default action. Reads the caught-signal mask from /proc where
/// there is one; elsewhere waits a little.
#[cfg(unix)]
pub(crate) fn wait_for_handler(child: &Child) {
    use std::time::{Duration, Instant};
    let status = format!("/proc/{}/status", child.id());
    if std::fs::metadata(&status).is_err() {
        std::thread::sleep(Duration::from_secs(1));
        return;
    }
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(30) {
        let caught = std::fs::read_to_string(&status)
            .ok()
            .and_then(|text| {
                let line = text.lines().find(|l| l.starts_with("SigCgt:"))?;
                u64::from_str_radix(line["SigCgt:".len()..].trim(), 16).ok()
            })
            .unwrap_or(0);
        // SIGINT is signal 2, bit 1 of the mask.
        if caught & 0b10 != 0 {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the program never installed its Ctrl-C handler");
}

/// Sends SIGINT, as Ctrl-C at a terminal does. An exited child stays a zombie until the test
/// waits for it, so this reaches it (and is harmless) even if an earlier signal ended it.
#[cfg(unix)]
pub(crate) fn interrupt(child: &Child) {
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
}

/// The exit status if the child ends within `limit`; otherwise kills it (so that no test
/// leaves a search running) and returns `None`.
pub(crate) fn wait_at_most(
    child: &mut Child,
    limit: std::time::Duration,
) -> Option<std::process::ExitStatus> {
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return Some(status);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
