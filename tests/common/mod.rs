//! Helpers for running the example programs end to end.

// Each test binary compiles this module and uses only some of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

/// Path of a built example, or of one of the programs `queens` and `sudoku` (bezzel-cli's
/// binaries, built next to the examples' folder): `cargo test` builds both.
pub(crate) fn example(name: &str) -> PathBuf {
    let mut dir = std::env::current_exe().expect("test binary path");
    dir.pop(); // the test binary
    if dir.ends_with("deps") {
        dir.pop();
    }
    let file = format!("{name}{}", std::env::consts::EXE_SUFFIX);
    let path = if matches!(name, "queens" | "sudoku") {
        dir.join(file)
    } else {
        dir.join("examples").join(file)
    };
    assert!(
        path.exists(),
        "{} is missing: run the tests with `cargo test` (which builds examples and, at the \
         root, the programs; or `cargo build --bins`)",
        path.display()
    );
    path
}

/// Starts an example with arguments, its stdin, stdout and stderr piped to the test.
pub(crate) fn spawn(name: &str, args: &[&str]) -> Child {
    Command::new(example(name))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("example starts")
}

/// Runs an example with arguments and optional stdin.
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
    child.wait_with_output().expect("example finishes")
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
