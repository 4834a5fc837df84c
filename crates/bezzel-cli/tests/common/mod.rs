//! Helpers for running the programs end to end.

// Each test binary compiles this module and uses only some of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// Path of one of this package's programs (`queens` or `sudoku`), which cargo builds before
/// the tests that run them.
pub(crate) fn program(name: &str) -> PathBuf {
    PathBuf::from(match name {
        "queens" => env!("CARGO_BIN_EXE_queens"),
        "sudoku" => env!("CARGO_BIN_EXE_sudoku"),
        _ => panic!("no program named {name}"),
    })
}

/// A path in the repository (puzzle samples in `tests/data`, `examples/data`), from its root.
pub(crate) fn repository(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// Starts a program with arguments, its stdin, stdout and stderr piped to the test.
pub(crate) fn spawn(name: &str, args: &[&str]) -> Child {
    Command::new(program(name))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("program starts")
}

/// Runs a program with arguments and optional stdin.
pub(crate) fn run(name: &str, args: &[&str], stdin: Option<&str>) -> Output {
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
