//! Ctrl-C stops every counting engine of the queens command within about a second, and a
//! second Ctrl-C ends it at once. Unix only: the signals are sent with `kill`.
#![cfg(unix)]

use crate::common::{interrupt, wait_at_most, wait_for_handler};

use std::process::Child;
use std::time::Duration;

/// Far beyond any test's patience: n = 21 has about 3.1e11 solutions, hours of work on any
/// engine, and subproblems that take minutes each.
const LONG: &str = "21";

fn start(args: &[&str]) -> Child {
    crate::common::spawn("queens", args)
}

fn stderr_of(child: Child) -> String {
    let output = child.wait_with_output().expect("output");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Generous for a loaded machine: the engines stop within milliseconds, and the bug this
/// guards against kept them going for minutes.
const PROMPT: Duration = Duration::from_secs(5);

/// Starts `queens` with `args`, sends `signals` Ctrl-Cs well inside the search (not while it
/// still sets up), and checks that it ends within [`PROMPT`] with status 130 and says it was
/// interrupted; returns its stderr.
fn interrupted(args: &[&str], signals: usize) -> String {
    let mut child = start(args);
    wait_for_handler(&child);
    std::thread::sleep(Duration::from_millis(300));
    for _ in 0..signals {
        interrupt(&child);
    }
    let status = wait_at_most(&mut child, PROMPT);
    assert!(
        status.is_some(),
        "{args:?} still running {PROMPT:?} after {signals} Ctrl-C"
    );
    assert_eq!(status.unwrap().code(), Some(130), "{args:?}");
    let err = stderr_of(child);
    assert!(err.contains("interrupted"), "{args:?}: {err}");
    err
}

#[test]
fn ctrl_c_stops_every_engine_promptly() {
    for args in [
        &["count", LONG, "--threads", "2"][..],
        &["count", LONG, "--engine", "symmetry", "--threads", "2"][..],
        &["count", LONG, "--engine", "bitmask", "--threads", "2"][..],
        &["count", LONG, "--engine", "model", "--threads", "2"][..],
        &["count", LONG, "--engine", "model", "--threads", "1"][..],
        &["unique", LONG, "--threads", "2"][..],
        // Row-by-row search for the first solution of 30 queens takes minutes.
        &["first", "30"][..],
    ] {
        let err = interrupted(args, 1);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_second_ctrl_c_ends_the_program_at_once() {
    for engine in ["symmetry", "bitmask", "model"] {
        let args = ["count", LONG, "--engine", engine, "--threads", "2"];
        interrupted(&args, 2);
    }
}
