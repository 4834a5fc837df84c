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
use std::sync::{RwLock, RwLockReadGuard};

/// Tests here open, close and reopen checkpoint files while other tests spawn processes. A
/// process forked while a checkpoint is open holds a copy of its descriptor, and with it the
/// file's lock, until it execs: a reopen in that window is refused as "in use" (one CI run in
/// a few). So a test that spawns waits until no other test has a directory here ([`spawn`]).
static DIRECTORIES: RwLock<()> = RwLock::new(());

/// Runs `f` (which spawns a process) while no test holds a [`TempDir`].
fn spawn<T>(f: impl FnOnce() -> T) -> T {
    let _alone = DIRECTORIES.write().unwrap_or_else(|e| e.into_inner());
    f()
}

/// A directory of its own, removed when the test ends (passing or not).
struct TempDir(PathBuf, Option<RwLockReadGuard<'static, ()>>);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let mut dir = TempDir::for_spawning(name);
        dir.1 = Some(DIRECTORIES.read().unwrap_or_else(|e| e.into_inner()));
        dir
    }

    /// A directory for a test that spawns processes (with [`spawn`]): it does not keep them
    /// waiting.
    fn for_spawning(name: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "bezzel-ckpt-test-{}-{name}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir, None)
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
        crate::queens(n, Consistency::Value).map(|(m, _)| m)
    })
    .threads(Some(threads))
    .per_worker(10)
}

/// The split of queens `n` for `threads` workers, and every subproblem's exact count by
/// sequential search.
fn split_and_counts(n: usize, threads: usize) -> (Vec<Subproblem>, Vec<u64>) {
    let subproblems = search(n, threads).subproblems().unwrap();
    let mut solver = Solver::new(crate::queens(n, Consistency::Value).unwrap().0);
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

/// A full checkpoint of queens 8 in `dir` (see [`full_checkpoint`]), its lines, and the
/// first subproblem with solutions: its index and the position of its line.
#[allow(clippy::type_complexity)]
fn journal(dir: &TempDir) -> (Vec<Subproblem>, Vec<u64>, Vec<String>, usize, usize) {
    let (split, counts) = full_checkpoint(&dir.file());
    let lines = lines(&dir.file());
    let index = counts.iter().position(|&c| c > 0).unwrap();
    let line = lines
        .iter()
        .position(|x| x.starts_with(&format!("{index} ")))
        .unwrap();
    (split, counts, lines, index, line)
}

/// Writes `lines` as the checkpoint at `path` and opens it with `split`.
fn rewritten(
    path: &Path,
    lines: &[String],
    split: &[Subproblem],
) -> Result<(Checkpoint, Vec<Subproblem>), CheckpointError> {
    std::fs::write(path, lines.concat()).unwrap();
    open(path, split)
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
    let (split, counts, mut l, index, line) = journal(&dir);
    l[line] = forged_entry(&l[0], &format!("{index} {} {index}", counts[index]));
    let (c, _) = rewritten(&dir.file(), &l, &split).unwrap();
    assert_eq!(c.solutions(), 92);
}

#[test]
fn an_edited_count_is_refused_as_corrupt_not_summed() {
    let dir = TempDir::new("edited");
    let (split, counts, mut l, index, line) = journal(&dir);
    let edited = l[line].replacen(
        &format!("{index} {} ", counts[index]),
        &format!("{index} {} ", counts[index] + 1),
        1,
    );
    assert_ne!(edited, l[line]);
    l[line] = edited;
    let reason = corrupt_reason(rewritten(&dir.file(), &l, &split));
    assert!(
        reason.contains(&format!("line {}", line + 1)) && reason.contains("checksum"),
        "{reason}"
    );
}

#[test]
fn an_entry_missing_a_count_is_refused() {
    let dir = TempDir::new("short");
    let (split, counts, original, index, line) = journal(&dir);
    // Each count dropped in turn, as a hand edit leaves it (the checksum no longer matches) ...
    for drop_at in [1, 2] {
        let mut tokens: Vec<&str> = original[line].split(' ').collect();
        tokens.remove(drop_at);
        let mut l = original.clone();
        l[line] = tokens.join(" ");
        corrupt_reason(rewritten(&dir.file(), &l, &split));
    }
    // ... and with a checksum to match: the entry must have as many counts as the header says.
    for body in [
        format!("{index} {index}"),
        format!("{index} {}", counts[index]),
    ] {
        let mut l = original.clone();
        l[line] = forged_entry(&l[0], &body);
        let reason = corrupt_reason(rewritten(&dir.file(), &l, &split));
        assert!(reason.contains("every entry has 2"), "{reason}");
    }
}

#[test]
fn a_dropped_entry_is_recomputed_to_the_exact_total() {
    let dir = TempDir::new("dropped");
    let (split, counts, mut l, index, line) = journal(&dir);
    l.remove(line);
    let (c, _) = rewritten(&dir.file(), &l, &split).unwrap();
    assert!(!c.is_done(index));
    assert_eq!(c.solutions(), 92 - counts[index]);
    drop(c);
    assert_eq!(finish(&dir.file(), &split, &counts)[0], A000170[7]);
}

#[test]
fn u64_max_counts_are_refused() {
    let dir = TempDir::new("max");
    let (split, counts, original, index, line) = journal(&dir);

    // Written over a count, the checksum no longer matches.
    let mut l = original.clone();
    l[line] = l[line].replacen(
        &format!("{index} {} ", counts[index]),
        &format!("{index} {} ", u64::MAX),
        1,
    );
    corrupt_reason(rewritten(&dir.file(), &l, &split));

    // With a checksum to match, the total would wrap: refused by the sum, not summed.
    let mut l = original.clone();
    l[line] = forged_entry(&l[0], &format!("{index} {} 0", u64::MAX));
    let reason = corrupt_reason(rewritten(&dir.file(), &l, &split));
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
    let (split, counts, original, index, line) = journal(&dir);

    // The same line twice is the same fact twice.
    let mut l = original.clone();
    l.push(l[line].clone());
    l.insert(1, l[line].clone());
    let (c, _) = rewritten(&dir.file(), &l, &split).unwrap();
    assert_eq!(c.solutions(), A000170[7]);
    assert_eq!(c.finished(), split.len());
    drop(c);

    // Two different counts for one subproblem: which is right is unknowable.
    let mut l = original.clone();
    l.push(forged_entry(
        &l[0],
        &format!("{index} {} {index}", counts[index] + 1),
    ));
    let reason = corrupt_reason(rewritten(&dir.file(), &l, &split));
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
    corrupt_reason(rewritten(&dir.file(), &l, &split));
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
            matches!(
                result,
                Err(CheckpointError::Io { .. } | CheckpointError::NotAFile { .. })
            ),
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
    assert!(matches!(err, CheckpointError::OtherRun { .. }), "{err}");
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
        let mut with_header = b"bezzel-checkpoint 3 ".to_vec();
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

/// A header line with a valid checksum for the header body `body`.
fn forged_header(body: &str) -> String {
    format!("{body} {:016x}\n", fnv(body.as_bytes()))
}

/// The header of a fresh queens 8 checkpoint: its first words (`bezzel-checkpoint` and the
/// format version this bezzel writes) and its JSON object, as written.
fn fresh_header(dir: &TempDir) -> (String, String) {
    let path = dir.0.join("fresh.ckpt");
    full_checkpoint(&path);
    let header = lines(&path)[0].clone();
    let (body, _) = header.trim_end().rsplit_once(' ').unwrap();
    let mut words = body.splitn(3, ' ');
    let start = format!("{} {}", words.next().unwrap(), words.next().unwrap());
    let json = words.next().unwrap().to_string();
    std::fs::remove_file(&path).unwrap();
    (start, json)
}

/// Runs `open` on another thread, failing the test if it takes longer than a few seconds (a
/// pipe or a device read to its end would never return).
fn open_within(path: PathBuf) -> Result<(Checkpoint, Vec<Subproblem>), CheckpointError> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut split_called = false;
        let result = Checkpoint::open(&path, MODEL, 2, || {
            split_called = true;
            Ok::<Vec<Subproblem>, CheckpointError>(Vec::new())
        });
        let _ = send.send((result, split_called));
    });
    let (result, split_called) = receive
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("opening the checkpoint still ran after 10 s");
    assert!(
        !split_called,
        "the split was made for a path that is refused"
    );
    result
}

#[test]
fn a_path_that_is_not_a_regular_file_is_refused_without_reading_it() {
    let dir = TempDir::for_spawning("not-a-file");
    let fifo = dir.0.join("fifo");
    let mut paths = vec![PathBuf::from("/dev/null"), dir.0.clone()];
    if spawn(|| std::process::Command::new("mkfifo").arg(&fifo).status()).is_ok_and(|s| s.success())
    {
        paths.push(fifo);
    }
    for path in paths {
        let err = open_within(path.clone()).unwrap_err();
        assert!(
            err.to_string().contains("is not a regular file"),
            "{}: {err}",
            path.display()
        );
    }
}

#[test]
fn a_first_line_longer_than_any_header_is_refused_not_overwritten() {
    let dir = TempDir::new("long-header");
    let (start, _) = fresh_header(&dir);
    // A header that runs on for 65 MiB without ending its line (sparse: no disk is used).
    let file = std::fs::File::create(dir.file()).unwrap();
    std::io::Write::write_all(&mut &file, format!("{start} ").as_bytes()).unwrap();
    let len = (65 << 20) as u64;
    file.set_len(len).unwrap();
    drop(file);
    let reason = corrupt_reason(open_within(dir.file()));
    assert!(reason.contains("line 1"), "{reason}");
    assert_eq!(std::fs::metadata(dir.file()).unwrap().len(), len);
}

#[test]
fn open_fixed_bounds_the_header_and_refuses_another_split() {
    let dir = TempDir::new("fixed");
    let (split, counts) = split_and_counts(8, 2);
    let open_fixed =
        |split: &[Subproblem]| Checkpoint::open_fixed(dir.file(), MODEL, 2, split.to_vec());
    let (mut c, recorded) = open_fixed(&split).unwrap();
    assert_eq!(recorded, split);
    c.record(0, &[counts[0], 0]).unwrap();
    drop(c);
    let (c, _) = open_fixed(&split).unwrap();
    assert_eq!(c.finished(), 1);
    drop(c);
    // Another split (here: one subproblem fewer) is not the one this model always makes.
    let reason = corrupt_reason(open_fixed(&split[1..]));
    assert!(reason.contains("always split into"), "{reason}");
    // A first line that runs on is refused after a few times the header's length.
    let (start, _) = fresh_header(&dir);
    let header_len = lines(&dir.file())[0].len();
    let long = format!("{start} {{{}", "a".repeat(8 * header_len + (1 << 20)));
    std::fs::write(dir.file(), &long).unwrap();
    let reason = corrupt_reason(open_fixed(&split));
    assert!(reason.contains("longer than"), "{reason}");
    assert_eq!(std::fs::read_to_string(dir.file()).unwrap(), long);
}

#[test]
fn a_checkpoint_of_an_older_format_is_refused_as_older() {
    let dir = TempDir::new("older");
    let (_, json) = fresh_header(&dir);
    std::fs::write(
        dir.file(),
        forged_header(&format!("bezzel-checkpoint 2 {json}")),
    )
    .unwrap();
    let err = open_within(dir.file()).unwrap_err().to_string();
    assert!(
        err.contains("written by an older Bezzel") && err.contains("remove it to start over"),
        "{err}"
    );
    // Refused by its first bytes, whatever follows.
    let file = std::fs::File::create(dir.file()).unwrap();
    std::io::Write::write_all(&mut &file, b"bezzel-checkpoint 2 {").unwrap();
    file.set_len(65 << 20).unwrap();
    drop(file);
    let err = open_within(dir.file()).unwrap_err().to_string();
    assert!(err.contains("written by an older Bezzel"), "{err}");
}

#[test]
fn a_recorded_split_that_repeats_a_subproblem_is_refused() {
    let dir = TempDir::new("repeated");
    let (start, json) = fresh_header(&dir);
    let mut json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let split = json["split"].as_array_mut().unwrap();
    let first = split[0].clone();
    split.push(first);
    std::fs::write(dir.file(), forged_header(&format!("{start} {json}"))).unwrap();
    let reason = corrupt_reason(open_within(dir.file()));
    assert!(reason.contains("repeats an earlier one"), "{reason}");
}

#[test]
fn numbers_and_headers_have_one_spelling() {
    let dir = TempDir::new("spelling");
    let (start, json) = fresh_header(&dir);
    let header = forged_header(&format!("{start} {json}"));
    // The header as written verifies, and so do entries forged for it.
    std::fs::write(
        dir.file(),
        format!("{header}{}", forged_entry(&header, "1 0 0")),
    )
    .unwrap();
    drop(open_within(dir.file()).unwrap());
    for entry in ["01 0 0", "1 00 0", "1 0 +0", "+1 0 0"] {
        std::fs::write(
            dir.file(),
            format!("{header}{}", forged_entry(&header, entry)),
        )
        .unwrap();
        let reason = corrupt_reason(open_within(dir.file()));
        assert!(reason.contains("line 2"), "{entry}: {reason}");
    }
    // The same header spelled otherwise: spaces, fields in another order.
    let spaced = json.replace(",\"", ", \"");
    let mut reordered = json.clone();
    reordered.insert_str(1, "\"counts\":2,");
    let reordered = reordered.replacen(",\"counts\":2", "", 1);
    assert_ne!(reordered, json);
    for other in [spaced, reordered] {
        std::fs::write(dir.file(), forged_header(&format!("{start} {other}"))).unwrap();
        let reason = corrupt_reason(open_within(dir.file()));
        assert!(reason.contains("line 1"), "{other}: {reason}");
    }
}

#[test]
fn check_subproblems_refuses_foreign_and_repeated_subproblems() {
    use bezzel_core::parallel::{ParallelError, check_subproblems};
    let (split, _) = split_and_counts(8, 2);
    assert_eq!(check_subproblems("queens 8", &split), Ok(()));
    assert!(matches!(
        check_subproblems("queens 9", &split),
        Err(ParallelError::ForeignSubproblem { .. })
    ));
    let mut repeated = split.clone();
    repeated.push(Subproblem {
        index: split.len(),
        ..split[0].clone()
    });
    assert!(matches!(
        check_subproblems("queens 8", &repeated),
        Err(ParallelError::DuplicateSubproblem { .. })
    ));
}

/// The peak and current resident memory of this process, in bytes (Linux only).
fn memory() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kb * 1024)
    };
    Some((field("VmHWM:")?, field("VmRSS:")?))
}

/// Resuming a checkpoint whose split is large takes memory in proportion to the file: the
/// split is read straight into the caller's type, not into a tree of JSON values first (which
/// took about 40 times the file). Measured in a process of its own, by the test below.
#[test]
fn a_resumed_split_takes_memory_in_proportion_to_the_file() {
    if memory().is_none() {
        return;
    }
    let dir = TempDir::for_spawning("memory");
    let (start, json) = fresh_header(&dir);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let subproblems = 300_000;
    let mut body = format!(
        "{start} {{\"bezzel_version\":{},\"model\":\"{MODEL}\",\"counts\":2,\"split\":[",
        json["bezzel_version"]
    );
    for i in 0..subproblems {
        if i > 0 {
            body.push(',');
        }
        body.push_str(&format!(
            "{{\"model\":\"{MODEL}\",\"index\":{i},\"decisions\":[{{\"Assign\":[0,{i}]}}]}}"
        ));
    }
    body.push_str("]}");
    std::fs::write(dir.file(), forged_header(&body)).unwrap();
    let output = spawn(|| {
        std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--ignored",
                "--exact",
                "checkpoint::resume_a_large_split_in_this_process",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("BEZZEL_CKPT_MEMORY_FILE", dir.file())
            .env("BEZZEL_CKPT_MEMORY_SUBPROBLEMS", subproblems.to_string())
            .output()
            .unwrap()
    });
    let text = String::from_utf8_lossy(&output.stdout);
    println!("{text}");
    assert!(
        output.status.success() && text.contains("1 passed"),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The measurement for the test above, run by it in a process of its own.
#[test]
#[ignore = "run by a_resumed_split_takes_memory_in_proportion_to_the_file"]
fn resume_a_large_split_in_this_process() {
    let Ok(path) = std::env::var("BEZZEL_CKPT_MEMORY_FILE") else {
        return;
    };
    let subproblems: usize = std::env::var("BEZZEL_CKPT_MEMORY_SUBPROBLEMS")
        .unwrap()
        .parse()
        .unwrap();
    let file_len = std::fs::metadata(&path).unwrap().len();
    let (_, before) = memory().unwrap();
    let (c, split) = Checkpoint::open(&path, MODEL, 2, || {
        Ok::<Vec<Subproblem>, CheckpointError>(Vec::new())
    })
    .unwrap();
    let (peak, _) = memory().unwrap();
    assert_eq!(split.len(), subproblems);
    assert_eq!(c.subproblems(), subproblems);
    let used = peak.saturating_sub(before);
    println!(
        "file {file_len} bytes, peak {used} bytes above the start ({:.1} times the file)",
        used as f64 / file_len as f64
    );
    assert!(
        used < 8 * file_len,
        "resuming took {used} bytes for a file of {file_len}"
    );
}

/// Found by the fuzzer: a new checkpoint took a split that repeats a subproblem and wrote a
/// file its own reader then refused. Now such a split is refused before anything is written.
#[test]
fn a_split_that_repeats_a_subproblem_is_not_recorded() {
    let dir = TempDir::new("repeat");
    let path = dir.0.join("run.ckpt");
    let split = vec!["a".to_string(), "b".to_string(), "a".to_string()];
    let result = Checkpoint::open(&path, MODEL, 1, || Ok::<_, CheckpointError>(split.clone()));
    assert!(
        matches!(result, Err(CheckpointError::InvalidSplit { .. })),
        "{result:?}"
    );
    assert_eq!(dir.listing(), Vec::<String>::new());
    // Distinct subproblems are recorded as before.
    let distinct = vec!["a".to_string(), "b".to_string()];
    let (_, recorded) = Checkpoint::open(&path, MODEL, 1, || {
        Ok::<_, CheckpointError>(distinct.clone())
    })
    .unwrap();
    assert_eq!(recorded, distinct);
}
