//! Checkpoint journals: what a damaged, edited, torn or shared file does to a resumed count.
//!
//! Ground truth comes from outside the checkpoint: the exact count of every subproblem is
//! computed by sequential search and the totals are A000170's. Forged lines are written with
//! this file's own FNV-1a, from the format the module docs describe.

use bezzel_core::checkpoint::{Checkpoint, CheckpointError, Journal};
use bezzel_core::parallel::{ParallelSearch, Subproblem};
use bezzel_core::prelude::*;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

mod common;

/// A directory of its own, removed when the test ends (passing or not).
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "bezzel-ckpt-test-{}-{name}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn file(&self) -> PathBuf {
        self.0.join("run.ckpt")
    }

    /// Everything in the directory.
    fn listing(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const A000170: [u64; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
const MODEL: &str = "queens 8";

fn search(n: usize, threads: usize) -> ParallelSearch<impl Fn() -> Result<Model, ModelError>> {
    ParallelSearch::new(format!("queens {n}"), move || {
        common::queens(n, Consistency::Value).map(|(m, _)| m)
    })
    .threads(Some(threads))
    .per_worker(10)
}

/// The split of queens `n` for `threads` workers, and every subproblem's exact count by
/// sequential search.
fn split_and_counts(n: usize, threads: usize) -> (Vec<Subproblem>, Vec<u64>) {
    let subproblems = search(n, threads).subproblems().unwrap();
    let mut solver = Solver::new(common::queens(n, Consistency::Value).unwrap().0);
    let counts = subproblems
        .iter()
        .map(|s| solver.count_in(&s.decisions).unwrap())
        .collect();
    (subproblems, counts)
}

fn open(
    path: &Path,
    split: &[Subproblem],
) -> Result<(Checkpoint, Vec<Subproblem>), CheckpointError> {
    Checkpoint::open(path, MODEL, 2, || Ok::<_, CheckpointError>(split.to_vec()))
}

/// A checkpoint of queens 8 with every subproblem recorded as `[count, index]`.
fn full_checkpoint(path: &Path) -> (Vec<Subproblem>, Vec<u64>) {
    let (split, counts) = split_and_counts(8, 2);
    let (mut c, _) = open(path, &split).unwrap();
    for (i, &count) in counts.iter().enumerate() {
        c.record(i, &[count, i as u64]).unwrap();
    }
    assert_eq!(c.solutions(), 92);
    (split, counts)
}

/// Resumes a checkpoint: records the missing subproblems and returns the totals.
fn finish(path: &Path, split: &[Subproblem], counts: &[u64]) -> Vec<u64> {
    let (mut c, recorded) = open(path, split).unwrap();
    assert_eq!(recorded, split);
    for (i, &count) in counts.iter().enumerate() {
        if !c.is_done(i) {
            c.record(i, &[count, i as u64]).unwrap();
        }
    }
    c.sync().unwrap();
    c.totals().to_vec()
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .split_inclusive('\n')
        .map(str::to_string)
        .collect()
}

/// The format's checksums, computed here rather than by the code under test.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// An entry line with a valid checksum for the journal whose header is `header`.
fn forged_entry(header: &str, body: &str) -> String {
    let (header_body, _) = header.trim_end().rsplit_once(' ').unwrap();
    let mut bytes = fnv(header_body.as_bytes()).to_le_bytes().to_vec();
    bytes.extend_from_slice(body.as_bytes());
    format!("{body} {:016x}\n", fnv(&bytes))
}

fn corrupt_reason(result: Result<(Checkpoint, Vec<Subproblem>), CheckpointError>) -> String {
    match result {
        Err(e @ CheckpointError::Corrupt { .. }) => e.to_string(),
        Err(e) => panic!("expected a corrupt checkpoint, got: {e}"),
        Ok((c, _)) => panic!("a damaged checkpoint was accepted, totals {:?}", c.totals()),
    }
}

#[test]
fn forged_lines_pass_so_the_tests_forge_them_right() {
    let dir = TempDir::new("forge");
    let (split, counts) = full_checkpoint(&dir.file());
    let mut l = lines(&dir.file());
    let index = counts.iter().position(|&c| c > 0).unwrap();
    let line = l
        .iter()
        .position(|x| x.starts_with(&format!("{index} ")))
        .unwrap();
    l[line] = forged_entry(&l[0], &format!("{index} {} {index}", counts[index]));
    std::fs::write(dir.file(), l.concat()).unwrap();
    let (c, _) = open(&dir.file(), &split).unwrap();
    assert_eq!(c.solutions(), 92);
}

#[test]
fn an_edited_count_is_refused_as_corrupt_not_summed() {
    let dir = TempDir::new("edited");
    let (split, counts) = full_checkpoint(&dir.file());
    let index = counts.iter().position(|&c| c > 0).unwrap();
    let mut l = lines(&dir.file());
    let line = l
        .iter()
        .position(|x| x.starts_with(&format!("{index} ")))
        .unwrap();
    let edited = l[line].replacen(
        &format!("{index} {} ", counts[index]),
        &format!("{index} {} ", counts[index] + 1),
        1,
    );
    assert_ne!(edited, l[line]);
    l[line] = edited;
    std::fs::write(dir.file(), l.concat()).unwrap();
    let reason = corrupt_reason(open(&dir.file(), &split));
    assert!(
        reason.contains(&format!("line {}", line + 1)) && reason.contains("checksum"),
        "{reason}"
    );
}

#[test]
fn an_entry_missing_a_count_is_refused() {
    let dir = TempDir::new("short");
    let (split, counts) = full_checkpoint(&dir.file());
    let original = lines(&dir.file());
    let index = counts.iter().position(|&c| c > 0).unwrap();
    let line = original
        .iter()
        .position(|x| x.starts_with(&format!("{index} ")))
        .unwrap();
    // Each count dropped in turn, as a hand edit leaves it (the checksum no longer matches) ...
    for drop_at in [1, 2] {
        let mut tokens: Vec<&str> = original[line].split(' ').collect();
        tokens.remove(drop_at);
        let mut l = original.clone();
        l[line] = tokens.join(" ");
        std::fs::write(dir.file(), l.concat()).unwrap();
        corrupt_reason(open(&dir.file(), &split));
    }
    // ... and with a checksum to match: the entry must have as many counts as the header says.
    for body in [
        format!("{index} {index}"),
        format!("{index} {}", counts[index]),
    ] {
        let mut l = original.clone();
        l[line] = forged_entry(&l[0], &body);
        std::fs::write(dir.file(), l.concat()).unwrap();
        let reason = corrupt_reason(open(&dir.file(), &split));
        assert!(reason.contains("every entry has 2"), "{reason}");
    }
}

#[test]
fn a_dropped_entry_is_recomputed_to_the_exact_total() {
    let dir = TempDir::new("dropped");
    let (split, counts) = full_checkpoint(&dir.file());
    let mut l = lines(&dir.file());
    let index = counts.iter().position(|&c| c > 0).unwrap();
    l.retain(|x| !x.starts_with(&format!("{index} ")));
    std::fs::write(dir.file(), l.concat()).unwrap();
    let (c, _) = open(&dir.file(), &split).unwrap();
    assert!(!c.is_done(index));
    assert_eq!(c.solutions(), 92 - counts[index]);
    drop(c);
    assert_eq!(finish(&dir.file(), &split, &counts)[0], A000170[7]);
}

#[test]
fn u64_max_counts_are_refused() {
    let dir = TempDir::new("max");
    let (split, counts) = full_checkpoint(&dir.file());
    let original = lines(&dir.file());
    let index = counts.iter().position(|&c| c > 0).unwrap();
    let line = original
        .iter()
        .position(|x| x.starts_with(&format!("{index} ")))
        .unwrap();

    // Written over a count, the checksum no longer matches.
    let mut l = original.clone();
    l[line] = l[line].replacen(
        &format!("{index} {} ", counts[index]),
        &format!("{index} {} ", u64::MAX),
        1,
    );
    std::fs::write(dir.file(), l.concat()).unwrap();
    corrupt_reason(open(&dir.file(), &split));

    // With a checksum to match, the total would wrap: refused by the sum, not summed.
    let mut l = original.clone();
    l[line] = forged_entry(&l[0], &format!("{index} {} 0", u64::MAX));
    std::fs::write(dir.file(), l.concat()).unwrap();
    let reason = corrupt_reason(open(&dir.file(), &split));
    assert!(reason.contains("add up to more than"), "{reason}");

    // Recording counts that make a total overflow is refused too, and records nothing.
    std::fs::write(dir.file(), &original[0]).unwrap();
    let (mut c, _) = open(&dir.file(), &split).unwrap();
    c.record(0, &[u64::MAX, 0]).unwrap();
    let err = c.record(1, &[1, 0]).unwrap_err();
    assert!(matches!(err, CheckpointError::Overflow { .. }), "{err}");
    assert_eq!(c.totals(), [u64::MAX, 0]);
    assert!(!c.is_done(1));
    drop(c);
    assert_eq!(lines(&dir.file()).len(), 2);
}

#[test]
fn a_torn_last_line_is_ignored_and_redone() {
    let dir = TempDir::new("torn");
    let (split, counts) = full_checkpoint(&dir.file());
    let l = lines(&dir.file());
    let last = l.last().unwrap();
    let index: usize = last.split(' ').next().unwrap().parse().unwrap();
    for cut in [1, last.len() / 2, last.len() - 1] {
        let text = l.concat();
        std::fs::write(dir.file(), &text[..text.len() - last.len() + cut]).unwrap();
        let (c, _) = open(&dir.file(), &split).unwrap();
        assert!(!c.is_done(index), "cut at {cut}");
        assert_eq!(c.finished(), split.len() - 1);
        drop(c);
        assert_eq!(finish(&dir.file(), &split, &counts)[0], A000170[7]);
        // The redone entry starts a line of its own: the file verifies as a whole.
        let (c, _) = open(&dir.file(), &split).unwrap();
        assert_eq!(c.finished(), split.len());
        assert!(std::fs::read_to_string(dir.file()).unwrap().ends_with('\n'));
    }
}

#[test]
fn records_of_unknown_or_finished_subproblems_are_errors_at_once() {
    let dir = TempDir::new("unknown");
    let (split, counts) = split_and_counts(8, 2);
    let (mut c, _) = open(&dir.file(), &split).unwrap();
    let size = std::fs::metadata(dir.file()).unwrap().len();
    let err = c.record(split.len(), &[1, 0]).unwrap_err();
    assert!(
        matches!(err, CheckpointError::UnknownSubproblem { .. }),
        "{err}"
    );
    let err = c.record(0, &[1]).unwrap_err();
    assert!(matches!(err, CheckpointError::WrongCounts { .. }), "{err}");
    assert_eq!(std::fs::metadata(dir.file()).unwrap().len(), size);
    c.record(0, &[counts[0], 0]).unwrap();
    let err = c.record(0, &[counts[0], 0]).unwrap_err();
    assert!(
        matches!(err, CheckpointError::AlreadyRecorded { .. }),
        "{err}"
    );
    assert_eq!(c.finished(), 1);
    assert_eq!(c.solutions(), counts[0]);
}

#[test]
fn duplicate_lines_are_counted_once_or_refused() {
    let dir = TempDir::new("duplicate");
    let (split, counts) = full_checkpoint(&dir.file());
    let original = lines(&dir.file());
    let index = counts.iter().position(|&c| c > 0).unwrap();
    let line = original
        .iter()
        .position(|x| x.starts_with(&format!("{index} ")))
        .unwrap();

    // The same line twice is the same fact twice.
    let mut l = original.clone();
    l.push(l[line].clone());
    l.insert(1, l[line].clone());
    std::fs::write(dir.file(), l.concat()).unwrap();
    let (c, _) = open(&dir.file(), &split).unwrap();
    assert_eq!(c.solutions(), A000170[7]);
    assert_eq!(c.finished(), split.len());
    drop(c);

    // Two different counts for one subproblem: which is right is unknowable.
    let mut l = original.clone();
    l.push(forged_entry(
        &l[0],
        &format!("{index} {} {index}", counts[index] + 1),
    ));
    std::fs::write(dir.file(), l.concat()).unwrap();
    let reason = corrupt_reason(open(&dir.file(), &split));
    assert!(reason.contains("different counts"), "{reason}");
}

#[test]
fn an_entry_from_another_checkpoint_does_not_verify() {
    let dir = TempDir::new("foreign");
    let (split, _) = full_checkpoint(&dir.file());
    let other = dir.0.join("other.ckpt");
    let (split9, _) = split_and_counts(9, 2);
    let (mut c, _) = Checkpoint::open(&other, MODEL, 2, || {
        Ok::<_, CheckpointError>(split9.clone())
    })
    .unwrap();
    c.record(0, &[1000, 0]).unwrap();
    drop(c);
    let mut l = lines(&dir.file());
    l.retain(|x| !x.starts_with("0 "));
    l.push(lines(&other)[1].clone());
    std::fs::write(dir.file(), l.concat()).unwrap();
    corrupt_reason(open(&dir.file(), &split));
}

#[test]
fn a_checkpoint_in_use_is_refused_and_released_on_drop() {
    let dir = TempDir::new("lock");
    let (split, _) = split_and_counts(8, 2);
    let (first, _) = open(&dir.file(), &split).unwrap();
    let err = open(&dir.file(), &split).unwrap_err();
    assert!(matches!(err, CheckpointError::InUse { .. }), "{err}");
    assert!(err.to_string().contains("in use by another run"), "{err}");
    drop(first);
    open(&dir.file(), &split).unwrap();
}

#[test]
fn an_unwritable_path_fails_before_any_work() {
    let dir = TempDir::new("unwritable");
    std::fs::write(dir.0.join("plain"), "").unwrap();
    for path in [
        dir.0.join("missing").join("run.ckpt"),
        dir.0.join("plain").join("run.ckpt"),
        dir.0.clone(),
    ] {
        let mut split_called = false;
        let result = Checkpoint::open(&path, MODEL, 2, || {
            split_called = true;
            Ok::<Vec<Subproblem>, CheckpointError>(Vec::new())
        });
        assert!(
            matches!(result, Err(CheckpointError::Io { .. })),
            "{}",
            path.display()
        );
        assert!(!split_called, "{}", path.display());
    }
    assert_eq!(dir.listing(), ["plain"]);
}

#[test]
fn no_temporary_files_and_a_failed_start_leaves_nothing() {
    let dir = TempDir::new("tmp");
    full_checkpoint(&dir.file());
    assert_eq!(dir.listing(), ["run.ckpt"]);
    // A split that fails leaves no file behind that the next run would have to refuse.
    let other = dir.0.join("failed.ckpt");
    let result = Checkpoint::open(&other, MODEL, 2, || {
        Err::<Vec<Subproblem>, _>(CheckpointError::InvalidCounts { counts: 0 })
    });
    assert!(result.is_err());
    assert_eq!(dir.listing(), ["run.ckpt"]);
}

#[test]
fn a_resume_reuses_the_recorded_split_whatever_the_thread_count() {
    let dir = TempDir::new("split");
    // Sizes whose splits for 1 and 4 threads differ (8 and 9 queens split alike).
    for n in [10, 11, 12] {
        let path = dir.0.join(format!("q{n}.ckpt"));
        let (one, one_counts) = split_and_counts(n, 1);
        let (four, _) = split_and_counts(n, 4);
        assert_ne!(one.len(), four.len(), "n = {n}: the splits should differ");
        let model = format!("queens {n}");
        let (mut c, recorded) =
            Checkpoint::open(&path, &model, 1, || Ok::<_, CheckpointError>(one.clone())).unwrap();
        assert_eq!(recorded, one);
        for i in (0..one.len()).step_by(2) {
            c.record(i, &[one_counts[i]]).unwrap();
        }
        drop(c);
        // A run with four threads would split differently; it gets the recorded split.
        let search = search(n, 4);
        let (c, recorded) = Checkpoint::open(&path, &model, 1, || {
            Ok::<_, CheckpointError>(search.subproblems().unwrap())
        })
        .unwrap();
        assert_eq!(recorded, one);
        let rest: Vec<Subproblem> = recorded
            .iter()
            .filter(|s| !c.is_done(s.index))
            .cloned()
            .collect();
        let result = search.count(&rest, None, |_, _| {}).unwrap();
        assert_eq!(c.solutions() + result.solutions, A000170[n - 1], "n = {n}");
    }
}

#[test]
fn a_file_of_another_model_or_kind_is_refused() {
    let dir = TempDir::new("mismatch");
    let (split, _) = full_checkpoint(&dir.file());
    let err = Checkpoint::open(dir.file(), "queens 9", 2, || {
        Ok::<_, CheckpointError>(split.clone())
    })
    .unwrap_err();
    assert!(matches!(err, CheckpointError::Mismatch { .. }), "{err}");
    let err = Checkpoint::open(dir.file(), MODEL, 3, || {
        Ok::<_, CheckpointError>(split.clone())
    })
    .unwrap_err();
    assert!(matches!(err, CheckpointError::Mismatch { .. }), "{err}");
    let err = Checkpoint::open(dir.file(), MODEL, 2, || {
        Ok::<Vec<u32>, CheckpointError>(vec![])
    })
    .unwrap_err();
    assert!(matches!(err, CheckpointError::Mismatch { .. }), "{err}");
    std::fs::write(dir.file(), "some notes\nthe user keeps here\n").unwrap();
    corrupt_reason(open(&dir.file(), &split));
    assert_eq!(
        std::fs::read_to_string(dir.file()).unwrap(),
        "some notes\nthe user keeps here\n",
        "a file that is not a checkpoint is left alone"
    );
}

type Entries = std::collections::BTreeMap<usize, Vec<u64>>;

/// A valid journal of queens 8 with every entry, and its entries.
fn valid_journal() -> (Vec<u8>, Entries) {
    static JOURNAL: std::sync::OnceLock<(Vec<u8>, Entries)> = std::sync::OnceLock::new();
    JOURNAL
        .get_or_init(|| {
            let dir = TempDir::new("journal");
            full_checkpoint(&dir.file());
            let bytes = std::fs::read(dir.file()).unwrap();
            let entries = Journal::parse(&bytes).unwrap().unwrap().entries().clone();
            assert_eq!(entries.values().map(|c| c[0]).sum::<u64>(), 92);
            (bytes, entries)
        })
        .clone()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Whatever the bytes, parsing answers (it is the fuzzing target).
    #[test]
    fn parse_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = Journal::parse(&bytes);
        let mut with_header = b"bezzel-checkpoint 2 ".to_vec();
        with_header.extend_from_slice(&bytes);
        let _ = Journal::parse(&with_header);
    }

    /// A file cut anywhere (a kill, a full disk) keeps a subset of its entries, unchanged.
    #[test]
    fn any_prefix_keeps_a_subset_of_the_entries(cut in 0.0..1.0f64) {
        let (bytes, entries) = valid_journal();
        let cut = (bytes.len() as f64 * cut) as usize;
        if let Some(j) = Journal::parse(&bytes[..cut]).unwrap() {
            for (i, c) in j.entries() {
                prop_assert_eq!(Some(c), entries.get(i));
            }
        }
    }

    /// One changed byte never changes a count: the file is refused or loses entries only.
    #[test]
    fn one_changed_byte_never_changes_a_count(at in 0.0..1.0f64, byte in any::<u8>()) {
        let (mut bytes, entries) = valid_journal();
        let at = (bytes.len() as f64 * at) as usize;
        bytes[at] = byte;
        if let Ok(Some(j)) = Journal::parse(&bytes) {
            for (i, c) in j.entries() {
                prop_assert_eq!(Some(c), entries.get(i));
            }
        }
    }
}
