//! The checkpoint journal: `Journal::parse`, the reader of checkpoint files, and
//! `Checkpoint::open` / `record`, which write them.
//!
//! Every line of a journal carries a checksum, so mutated bytes almost never get past the
//! first line; fed raw, the reader only shows that it never panics. So the input mostly
//! *describes* a run instead: a model name, a split, counts per entry and a series of records,
//! which the real writer turns into a file. Then:
//!
//! - each `record` is accepted or refused exactly as its documentation says (outside the
//!   split, wrong number of counts, recorded already, a total past `u64::MAX`), and the
//!   checkpoint's totals are the sums of what it accepted, added here in u128;
//! - `Journal::parse` reads the file back to the same model, split, entries and totals, and
//!   `Checkpoint::open` reopens it with the recorded split without asking for a new one, while
//!   the file is refused to a second opener and to another model;
//! - the file cut at any byte reads as the entries whose lines are complete before the cut
//!   (a torn header as nothing yet), never as a wrong total;
//! - any one byte changed inside the file makes it refused, except the last `\n`, whose loss
//!   only tears the last line.
#![no_main]

use bezzel_core::checkpoint::{Checkpoint, CheckpointError, Journal, MAX_COUNTS};
use libfuzzer_sys::arbitrary::{Result as ArbitraryResult, Unstructured};
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One file per process: libFuzzer's `-jobs`/`-fork` modes run several at once. In memory
/// where Linux offers it, because the checkpoint syncs its file to disk, and on a disk that
/// costs milliseconds a run. `BEZZEL_FUZZ_SCRATCH` names another folder (`.ci/fuzz` sets it
/// to one it removes afterwards).
fn scratch() -> PathBuf {
    let shm = Path::new("/dev/shm");
    let dir = if let Some(dir) = std::env::var_os("BEZZEL_FUZZ_SCRATCH") {
        PathBuf::from(dir)
    } else if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    dir.join(format!("bezzel-fuzz-checkpoint-{}", std::process::id()))
}

/// What the checkpoint should hold: the accepted records in the order they were written.
#[derive(Debug, Default)]
struct Expected {
    order: Vec<(usize, Vec<u64>)>,
}

impl Expected {
    fn entries(&self, first: usize) -> BTreeMap<usize, Vec<u64>> {
        self.order[..first].iter().cloned().collect()
    }

    /// Position-wise sums of the first `first` records, which the writer keeps below 2^64.
    fn totals(&self, first: usize, counts: usize) -> Vec<u64> {
        let mut sums = vec![0u128; counts];
        for (_, c) in &self.order[..first] {
            for (s, &x) in sums.iter_mut().zip(c) {
                *s += u128::from(x);
            }
        }
        sums.into_iter()
            .map(|s| u64::try_from(s).expect("accepted records never overflow"))
            .collect()
    }
}

/// A count: mostly small, often close to `u64::MAX` so that totals overflow.
fn count(u: &mut Unstructured<'_>) -> ArbitraryResult<u64> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 => u64::MAX - u64::from(u.arbitrary::<u8>()?),
        1 => u.arbitrary()?,
        _ => u64::from(u.arbitrary::<u16>()?),
    })
}

/// Checks that `bytes`, a file the writer made, parses to the state after its first records.
fn check_prefix(
    bytes: &[u8],
    cut: usize,
    model: &str,
    split: &[String],
    counts: usize,
    e: &Expected,
) {
    let prefix = &bytes[..cut];
    let text = String::from_utf8_lossy(prefix);
    let parsed = Journal::parse(prefix)
        .unwrap_or_else(|err| panic!("a cut journal must read, not fail with {err}: {text:?}"));
    // Complete lines in the prefix: the header, then one per accepted record.
    let lines = prefix.iter().filter(|&&b| b == b'\n').count();
    let Some(journal) = parsed else {
        assert_eq!(lines, 0, "a complete header must be read: {text:?}");
        return;
    };
    assert!(lines >= 1);
    let records = lines - 1;
    let end = prefix
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    assert_eq!(journal.complete_len(), end);
    assert_eq!(journal.model(), model);
    assert_eq!(journal.counts(), counts);
    assert_eq!(journal.subproblems(), split.len());
    assert_eq!(journal.split_as::<String>().ok().as_deref(), Some(split));
    assert_eq!(journal.entries(), &e.entries(records), "{text:?}");
    assert_eq!(journal.totals(), e.totals(records, counts).as_slice());
}

fn run(u: &mut Unstructured<'_>, path: &Path) -> ArbitraryResult<()> {
    let model: String = u.arbitrary()?;
    let split: Vec<String> = (0..u.int_in_range(0..=6u8)?)
        .map(|_| u.arbitrary())
        .collect::<ArbitraryResult<_>>()?;
    let counts = usize::from(u.int_in_range(0..=MAX_COUNTS as u8 + 1)?);

    let _ = std::fs::remove_file(path);
    let opened = Checkpoint::open(path, &model, counts, || {
        Ok::<_, CheckpointError>(split.clone())
    });
    let repeats = (1..split.len()).any(|i| split[..i].contains(&split[i]));
    let (mut c, got_split) = match opened {
        Err(CheckpointError::InvalidCounts { counts: refused }) => {
            assert!(refused == counts && (counts == 0 || counts > MAX_COUNTS));
            return Ok(());
        }
        // A subproblem twice would be counted twice: refused, and nothing left behind.
        Err(CheckpointError::InvalidSplit { .. })
            if repeats && (1..=MAX_COUNTS).contains(&counts) =>
        {
            assert!(!path.exists(), "a refused split leaves no file");
            return Ok(());
        }
        Err(err) => panic!("a new checkpoint must open: {err}"),
        Ok(opened) => opened,
    };
    assert!((1..=MAX_COUNTS).contains(&counts));
    assert!(!repeats, "a split that repeats a subproblem was recorded");
    assert_eq!(got_split, split);
    assert_eq!(c.subproblems(), split.len());

    // Records, each predicted from the documentation before it is made.
    let mut e = Expected::default();
    let mut totals = vec![0u128; counts];
    for _ in 0..u.int_in_range(0..=12u8)? {
        let index = usize::from(u.int_in_range(0..=split.len() as u8)?);
        let len = match u.int_in_range(0..=7u8)? {
            0 => counts - 1,
            1 => counts + 1,
            _ => counts,
        };
        let given: Vec<u64> = (0..len).map(|_| count(u)).collect::<ArbitraryResult<_>>()?;
        let overflows = totals
            .iter()
            .zip(&given)
            .any(|(&t, &g)| t + u128::from(g) > u128::from(u64::MAX));
        let done = e.order.iter().any(|(i, _)| *i == index);
        match c.record(index, &given) {
            Ok(()) => {
                assert!(index < split.len() && len == counts && !done && !overflows);
                for (t, &g) in totals.iter_mut().zip(&given) {
                    *t += u128::from(g);
                }
                e.order.push((index, given));
            }
            Err(CheckpointError::UnknownSubproblem { .. }) => assert!(index >= split.len()),
            Err(CheckpointError::WrongCounts { .. }) => {
                assert!(index < split.len() && len != counts)
            }
            Err(CheckpointError::AlreadyRecorded { .. }) => {
                assert!(index < split.len() && len == counts && done)
            }
            Err(CheckpointError::Overflow { .. }) => {
                assert!(index < split.len() && len == counts && !done && overflows)
            }
            Err(err) => panic!("unexpected refusal: {err}"),
        }
    }
    let n = e.order.len();
    assert_eq!(c.finished(), n);
    assert_eq!(c.totals(), e.totals(n, counts).as_slice());
    assert_eq!(c.solutions(), e.totals(n, counts)[0]);
    for i in 0..split.len() + 2 {
        let recorded = e
            .order
            .iter()
            .find(|(j, _)| *j == i)
            .map(|(_, c)| c.as_slice());
        assert_eq!(c.counts_of(i), recorded);
        assert_eq!(c.is_done(i), recorded.is_some());
    }

    // While it is open, nobody else may open the file.
    let second = Checkpoint::open(path, &model, counts, || {
        Ok::<_, CheckpointError>(split.clone())
    });
    assert!(
        matches!(second, Err(CheckpointError::InUse { .. })),
        "{second:?}"
    );
    drop(c);

    let bytes = std::fs::read(path).expect("the checkpoint file can be read");
    check_prefix(&bytes, bytes.len(), &model, &split, counts, &e);

    // Reopening keeps the recorded split (the closure must not be called) and state.
    let (again, again_split) = Checkpoint::open(
        path,
        &model,
        counts,
        || -> Result<Vec<String>, CheckpointError> {
            panic!("a checkpoint with a header must not ask for a new split")
        },
    )
    .expect("a checkpoint just written must reopen");
    assert_eq!(again_split, split);
    assert_eq!(again.totals(), e.totals(n, counts).as_slice());
    assert_eq!(again.finished(), n);
    drop(again);
    let other = format!("{model}+");
    let foreign = Checkpoint::open(path, &other, counts, || {
        Ok::<_, CheckpointError>(split.clone())
    });
    assert!(
        matches!(foreign, Err(CheckpointError::OtherRun { .. })),
        "{foreign:?}"
    );
    assert_eq!(std::fs::read(path).ok().as_deref(), Some(bytes.as_slice()));

    // Cut anywhere: the records whose lines are complete, never a wrong total.
    let cut = usize::from(u.arbitrary::<u16>()?) % (bytes.len() + 1);
    check_prefix(&bytes, cut, &model, &split, counts, &e);

    // One byte changed: refused, unless it is the last '\n', which only tears the last line.
    let at = usize::from(u.arbitrary::<u16>()?) % bytes.len();
    let flip = u.int_in_range(1..=255u8)?;
    let mut damaged = bytes.clone();
    damaged[at] ^= flip;
    if at + 1 == bytes.len() {
        let last_line = bytes[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let torn = Journal::parse(&damaged).expect("a torn last line is ignored");
        assert_eq!(
            torn,
            Journal::parse(&bytes[..last_line]).expect("a prefix reads")
        );
    } else {
        assert!(
            Journal::parse(&damaged).is_err(),
            "byte {at} ^ {flip:#x} went unnoticed: {:?}",
            String::from_utf8_lossy(&damaged)
        );
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    // Raw bytes first: whatever they are, the reader answers, and what it accepts is sound.
    if let Ok(Some(j)) = Journal::parse(data) {
        assert!((1..=MAX_COUNTS).contains(&j.counts()));
        assert!(j.complete_len() <= data.len() && data[j.complete_len() - 1] == b'\n');
        assert!(j.entries().keys().all(|&i| i < j.subproblems()));
        assert!(j.entries().values().all(|c| c.len() == j.counts()));
        assert_eq!(Journal::parse(&data[..j.complete_len()]), Ok(Some(j)));
    }

    let path = scratch();
    let _ = run(&mut Unstructured::new(data), &path);
    let _ = std::fs::remove_file(&path);
});
