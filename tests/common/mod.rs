//! Helpers for running the example programs end to end.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

/// Path of a built example: `cargo test` builds examples next to the test binaries.
pub(crate) fn example(name: &str) -> PathBuf {
    let mut dir = std::env::current_exe().expect("test binary path");
    dir.pop(); // the test binary
    if dir.ends_with("deps") {
        dir.pop();
    }
    let path = dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: run the tests with `cargo test` (which builds examples)",
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
