//! What a checkpoint says about a file it cannot use: a valid journal of another run is named
//! as such, with both identities, never called corrupt.

use bezzel_runner::checkpoint::{Checkpoint, CheckpointError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A file path of its own, removed when the test ends (passing or not).
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> TempFile {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        TempFile(std::env::temp_dir().join(format!(
            "bezzel-runner-test-{}-{name}-{}.ckpt",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        )))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Writes a finished journal of the run named `model` over `split`, each subproblem counted
/// as itself.
fn journal(path: &Path, model: &str, split: Vec<u64>) {
    let (mut c, split) = Checkpoint::open_fixed(path, model, 1, split).unwrap();
    for (i, &x) in split.iter().enumerate() {
        c.record(i, &[x]).unwrap();
    }
    assert_eq!(c.totals(), &[split.iter().sum::<u64>()]);
}

/// What opening `path` for the run named `model` over `split` says.
fn refusal(path: &Path, model: &str, split: Vec<u64>) -> CheckpointError {
    match Checkpoint::open_fixed(path, model, 1, split) {
        Err(e) => e,
        Ok((c, _)) => panic!("another run's journal was resumed, totals {:?}", c.totals()),
    }
}

/// Checks that `e` names the journal as another run's, with both identities, and does not
/// call it corrupt.
fn assert_named_another_run(e: &CheckpointError, path: &Path, theirs: &str, ours: &str) {
    let message = e.to_string();
    assert!(
        matches!(e, CheckpointError::OtherRun { found, expected, .. }
            if found == theirs && expected == ours),
        "{e:?}"
    );
    assert!(!message.contains("corrupt"), "{message}");
    assert!(message.contains(&path.display().to_string()), "{message}");
    assert!(message.contains("different run"), "{message}");
    assert!(
        message.contains(theirs) && message.contains(ours),
        "{message}"
    );
}

#[test]
fn a_journal_of_another_run_is_named_with_both_identities_whatever_its_length() {
    // The long one as `queens count 17 --engine bitmask` on the file of `--engine symmetry`:
    // the other run's split is far longer than any header of this one (more than 64 KiB, and
    // more than four times this run's header), so its first line cannot be read whole; it is
    // still named, not called corrupt.
    for (name, theirs, ours, len) in [
        (
            "short-other-run",
            "count n=12 engine=one",
            "count n=12 engine=two",
            10,
        ),
        (
            "long-other-run",
            "count n=17 engine=long",
            "count n=17 engine=short",
            40_000,
        ),
    ] {
        let file = TempFile::new(name);
        journal(&file.0, theirs, (0..len).collect());
        let e = refusal(&file.0, ours, (0..10).collect());
        assert_named_another_run(&e, &file.0, theirs, ours);
        // The journal is left as it was, and still resumes for its own run.
        let (c, _) = Checkpoint::open_fixed(&file.0, theirs, 1, (0..len).collect()).unwrap();
        assert_eq!(c.totals(), &[(0..len).sum::<u64>()], "{name}");
    }
}

#[test]
fn a_long_first_line_that_names_this_run_is_still_corrupt() {
    // Not another run's journal: a header of this run's name whose split is not this run's.
    let file = TempFile::new("long-same-name");
    let name = "count n=17 engine=short";
    journal(&file.0, name, (0..40_000).collect());
    let e = refusal(&file.0, name, (0..10).collect());
    assert!(matches!(e, CheckpointError::Corrupt { .. }), "{e:?}");
}
