//! Checkpoints: a long split count that survives Ctrl-C, a crash or a kill.
//!
//! A [`Checkpoint`] is an append-only journal of a split run: a header that names the model and
//! records the split itself, then one line per finished subproblem with its counts. Every line
//! carries a checksum, so a line that was edited or damaged is never summed into a total: the
//! file is refused as corrupt, naming the line. A rerun of the same command reads the journal,
//! reuses the recorded split (even if the caller would now split differently, e.g. with another
//! thread count) and solves only the subproblems that are missing.
//!
//! # File format (version 3)
//!
//! UTF-8 text, one record per line, each line ending in `\n`:
//!
//! ```text
//! bezzel-checkpoint 3 {"bezzel_version":"0.1.0","model":"queens n=5 engine=bitmask","counts":2,"split":[…]} 8c0a6d1f3b2e4957
//! 3 2 0 52c1e0a7d99b8f16
//! 0 4 0 0e5f1d2c3b4a6978
//! ```
//!
//! * **Header** (first line): the word `bezzel-checkpoint`, the format version `3`, a JSON object
//!   with the bezzel version that wrote it (`bezzel_version`), the caller's name of the model
//!   (`model`), how many counts every entry has (`counts`, 1 to [`MAX_COUNTS`]; the number of
//!   solutions comes first) and the subproblems of the split in order (`split`, each as the
//!   caller's serde type serializes it), then the header checksum. The object is exactly as
//!   `serde_json` writes it for the split (fields in this order, no spaces), and no two
//!   subproblems of the split serialize alike.
//! * **Entries** (every further line): a subproblem's position in the split, exactly `counts`
//!   counts, then the entry checksum. All numbers are decimal, without a sign or a leading zero.
//! * **Checksums** are 64-bit FNV-1a, written as 16 lowercase hex digits. The header's covers
//!   the line up to its last space; an entry's covers the header checksum (8 bytes,
//!   little-endian) followed by the entry line up to its last space, which ties entries to their
//!   header: an entry pasted in from another checkpoint does not verify.
//!
//! Format 3 differs from format 2 only in what the model engine's subproblems mean (their
//! prefixes are compacted), but a split must mean what it meant when it was recorded, so a file
//! of format 2 (or 1) is refused as written by an older bezzel, by its first bytes.
//!
//! # What the checksums do and do not protect against
//!
//! They catch accidental damage (a flipped bit, a torn or truncated line, a line pasted in from
//! another checkpoint) and hand edits of a count or of the split. They are not a signature:
//! anyone can recompute them, and a file forged that way verifies. What is checked beyond them
//! limits what a forged file can do:
//!
//! * a split with a subproblem twice (which would be counted twice), a header spelled other
//!   than bezzel writes it, and numbers with a leading zero or a sign are refused;
//! * with [`Checkpoint::open_fixed`], for a split that the model alone determines (the queens
//!   bitmask and symmetry engines'), the recorded split must be exactly the one this run makes;
//! * the caller checks its subproblems when it solves them (the queens model engine refuses
//!   subproblems of another model or with repeated decisions, and a subproblem that names
//!   variables the model lacks is an error, not a count).
//!
//! A forged split of subproblems that overlap or miss part of the tree in other ways (possible
//! only where the split is recorded because it cannot be made again, e.g. because it depends on
//! the thread count), or forged counts with recomputed checksums, give a wrong total: a
//! checkpoint is as trustworthy as whoever can write the file.
//!
//! # Reading
//!
//! [`Checkpoint::open`] refuses a path that is not a regular file (a directory, a device such
//! as `/dev/zero`, a pipe) before reading anything. It reads the first bytes of a file first:
//! one that does not start with `bezzel-checkpoint ` is refused after that many bytes, one of
//! another format version after a few more, and one whose first line runs on longer than a
//! header may be ([`MAX_HEADER_LEN`], or for [`Checkpoint::open_fixed`] a few times the header
//! this run would write) after that many; only then is the rest read. The recorded split is
//! read straight into the caller's type, so memory stays in proportion to the file.
//!
//! [`Journal::parse`] reads the bytes of a file (it touches no file system, so it can be fuzzed
//! on arbitrary input):
//!
//! * A last piece without `\n` is a line torn by a kill or a crash: it is ignored (that
//!   subproblem is solved again) and cut off before the next entry is appended.
//! * A file with no complete first line that is empty or starts like a header holds nothing
//!   yet (a run was killed while writing its header): the run starts afresh.
//! * Every complete line must verify: a bad checksum, a missing or extra count, an index outside
//!   the split, counts whose totals would not fit in a `u64`, a subproblem recorded twice with
//!   different counts, a split that repeats a subproblem, or a file that is not a checkpoint at
//!   all — each makes the whole file corrupt. The same entry twice (same subproblem, same
//!   counts) is counted once.
//!
//! # Writing
//!
//! [`Checkpoint::open`] opens the file for reading and writing before any work starts (so a
//! path that cannot be written fails at once), takes an exclusive lock on it (a second run on
//! the same file is refused while the first holds it; the operating system releases the lock
//! when a process ends, even by `kill -9`, so no stale lock is left), and writes the header of
//! a new file. [`Checkpoint::record`] appends one line with one write, so a killed process
//! loses nothing it recorded; the file is synced to disk in batches, at most about once a
//! second and at [`Checkpoint::sync`] or drop, so a power cut loses at most the last batch. No
//! temporary files are made.

mod journal;

pub use journal::{FORMAT_VERSION, Journal, JournalError, MAX_COUNTS};

use journal::{
    HeaderOut, MAGIC, entry_checksum, header_checksum, header_start, named_model, other_version,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest first line (header) [`Checkpoint::open`] reads from a file whose split it does
/// not know in advance: a file whose first line runs on is refused after this many bytes
/// instead of being read whole. Recorded splits can be large (the queens model engine splits
/// `count 40` for 1,024 threads into 1.6 million subproblems, a header of 272 MB), and resuming
/// one takes memory of a few times its header.
pub const MAX_HEADER_LEN: usize = 1 << 30;
/// How many times the header [`Checkpoint::open_fixed`] would write its first line may be.
/// Generous, so that a checkpoint of another model is refused by name, not by length.
const FIXED_HEADER_FACTOR: usize = 4;
/// The least bound on the first line, whatever the split.
const MIN_HEADER_BOUND: usize = 64 << 10;
/// How much is read at a time while looking for the end of the header.
const HEADER_CHUNK: usize = 64 << 10;
/// How long recorded entries may wait for a sync to disk.
const SYNC_INTERVAL: Duration = Duration::from_secs(1);

/// What the system said about a file: an [`io::Error`] that can be cloned and compared (by its
/// kind and message), so that the errors that hold one can be too.
#[derive(Clone)]
pub struct IoError(Arc<io::Error>);

impl IoError {
    /// The error's kind.
    pub fn kind(&self) -> io::ErrorKind {
        self.0.kind()
    }

    /// The error itself.
    pub fn get_ref(&self) -> &io::Error {
        &self.0
    }
}

impl From<io::Error> for IoError {
    fn from(e: io::Error) -> IoError {
        IoError(Arc::new(e))
    }
}

impl PartialEq for IoError {
    fn eq(&self, other: &IoError) -> bool {
        self.kind() == other.kind() && self.0.to_string() == other.0.to_string()
    }
}

impl Eq for IoError {}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for IoError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for IoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "IoError: {self}")
    }
}

/// Why a checkpoint file cannot be used, or a record was refused.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CheckpointError {
    /// The file could not be opened, read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: IoError,
    },
    /// The file does not verify (damaged, edited, or not a checkpoint); see the
    /// [module docs](self) for what is checked.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The file is a valid journal of another run: its identity (the caller's name of the
    /// model, with every setting that changes the split or the counts) is not this run's.
    OtherRun {
        /// The file.
        path: PathBuf,
        /// The identity of the run the journal belongs to.
        found: String,
        /// This run's identity.
        expected: String,
    },
    /// The file is a checkpoint of the same run written by another version of bezzel, or one
    /// with another number of counts or kind of split.
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What differs.
        reason: String,
    },
    /// The file was written in another checkpoint format (by an older or a newer bezzel).
    Format {
        /// The file.
        path: PathBuf,
        /// The format version found (as written, shortened).
        found: String,
    },
    /// The path names something other than a regular file (a directory, a device, a pipe).
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// Another run holds the file's lock.
    InUse {
        /// The file.
        path: PathBuf,
    },
    /// A record of a subproblem that is not in the split.
    UnknownSubproblem {
        /// The position asked for.
        index: usize,
        /// Subproblems in the split.
        subproblems: usize,
    },
    /// A record with another number of counts than the checkpoint keeps.
    WrongCounts {
        /// The subproblem.
        index: usize,
        /// Counts per entry in this checkpoint.
        expected: usize,
        /// Counts given.
        found: usize,
    },
    /// A second record of a subproblem (it would be counted twice).
    AlreadyRecorded {
        /// The subproblem.
        index: usize,
    },
    /// A record whose counts would make a total larger than `u64::MAX`.
    Overflow {
        /// The subproblem.
        index: usize,
    },
    /// A new checkpoint's split that its own reader would refuse (a subproblem that repeats
    /// another would be counted twice): nothing is written.
    InvalidSplit {
        /// The file.
        path: PathBuf,
        /// What is wrong with the split.
        reason: String,
    },
    /// A checkpoint opened with no counts per entry or more than [`MAX_COUNTS`].
    InvalidCounts {
        /// Counts per entry asked for.
        counts: usize,
    },
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io { path, source } => {
                write!(f, "checkpoint {}: {source}", path.display())
            }
            CheckpointError::InvalidSplit { path, reason } => write!(
                f,
                "checkpoint {}: cannot record this split ({reason})",
                path.display()
            ),
            CheckpointError::Corrupt { path, reason } => write!(
                f,
                "checkpoint {} is corrupt ({reason}); remove it to start over",
                path.display()
            ),
            CheckpointError::OtherRun {
                path,
                found,
                expected,
            } => write!(
                f,
                "checkpoint {} is the journal of a different run ({found}), not of this one \
                 ({expected}): use another file or remove it",
                path.display()
            ),
            CheckpointError::Mismatch { path, reason } => write!(
                f,
                "checkpoint {} belongs to a different run: {reason}; use another file or remove it",
                path.display()
            ),
            CheckpointError::Format { path, found } => {
                let older = found
                    .parse::<u64>()
                    .is_ok_and(|v| v < u64::from(FORMAT_VERSION));
                write!(
                    f,
                    "checkpoint {} was written by {} Bezzel (checkpoint format {found}, this one \
                     reads format {FORMAT_VERSION}); {}remove it to start over",
                    path.display(),
                    if older { "an older" } else { "a newer" },
                    if older {
                        ""
                    } else {
                        "resume it with that one, or "
                    }
                )
            }
            CheckpointError::NotAFile { path } => write!(
                f,
                "checkpoint {} is not a regular file (a directory, device or pipe cannot hold a \
                 checkpoint); give the path of a file",
                path.display()
            ),
            CheckpointError::InUse { path } => write!(
                f,
                "checkpoint {} is in use by another run; wait for it to finish or use another file",
                path.display()
            ),
            CheckpointError::UnknownSubproblem { index, subproblems } => write!(
                f,
                "subproblem {index} is not in the split (it has {subproblems} subproblems)"
            ),
            CheckpointError::WrongCounts {
                index,
                expected,
                found,
            } => write!(
                f,
                "subproblem {index} has {found} counts, the checkpoint keeps {expected}"
            ),
            CheckpointError::AlreadyRecorded { index } => {
                write!(f, "subproblem {index} is already recorded")
            }
            CheckpointError::Overflow { index } => write!(
                f,
                "the counts of subproblem {index} make a total larger than {}",
                u64::MAX
            ),
            CheckpointError::InvalidCounts { counts } => write!(
                f,
                "a checkpoint keeps 1 to {MAX_COUNTS} counts per subproblem, not {counts}"
            ),
        }
    }
}

impl std::error::Error for CheckpointError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CheckpointError::Io { source, .. } => Some(source.get_ref()),
            _ => None,
        }
    }
}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for CheckpointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CheckpointError: {self}")
    }
}

/// A writer that checks that what is written is exactly its bytes, in order; what is left of
/// them afterwards was not written.
struct SameAs<'a>(&'a [u8]);

impl Write for SameAs<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.0.strip_prefix(buf) {
            Some(rest) => {
                self.0 = rest;
                Ok(buf.len())
            }
            None => Err(io::Error::other("differs")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Where the split of a new checkpoint comes from, and what a recorded one is checked against.
enum SplitSource<S, F> {
    /// Made by the closure for a new file; a recorded split is kept as it is.
    Recorded(F),
    /// Always this split: a recorded one must be the same.
    Fixed(Vec<S>),
}

/// Reads up to `limit` more bytes of `file` onto `bytes`; how many it read.
fn read_more(file: &mut File, bytes: &mut Vec<u8>, limit: usize) -> io::Result<usize> {
    Read::by_ref(file).take(limit as u64).read_to_end(bytes)
}

/// Reads the bytes of a checkpoint file for [`Journal::parse`], refusing early what cannot be
/// one: a file that does not start with `bezzel-checkpoint ` after reading that many bytes, one
/// of another format version after its first few bytes, and one whose first line is longer than
/// `max_header` bytes after at most that many (and a chunk), as another run's journal when its
/// first bytes name a model other than `model`. The entries after a header are read whole (the
/// file is a regular one, so they end).
fn read_journal(
    path: &Path,
    file: &mut File,
    model: &str,
    max_header: usize,
) -> Result<Vec<u8>, CheckpointError> {
    let io_error = |source: io::Error| CheckpointError::Io {
        path: path.to_path_buf(),
        source: source.into(),
    };
    let start = header_start();
    let mut bytes = Vec::new();
    file.seek(SeekFrom::Start(0)).map_err(io_error)?;
    read_more(file, &mut bytes, start.len()).map_err(io_error)?;
    if !bytes.starts_with(start.as_bytes()) {
        if bytes.first() == Some(&b'{') {
            // Perhaps format 1, which was one JSON object: read as much as a header may be, so
            // that it is refused by its version.
            read_more(file, &mut bytes, max_header).map_err(io_error)?;
        }
        // Empty, a torn header, or not a checkpoint: the parser says which.
        return Ok(bytes);
    }
    let corrupt = |reason: &str| CheckpointError::Corrupt {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    };
    // Look for the end of the first line; a header has no other control character (its JSON
    // escapes them), so a file of zeros, say, is refused at its first one.
    let mut scanned = 0;
    let header_end = loop {
        // Another format version is refused by its first bytes, whatever follows them.
        if let Some(JournalError::Version { found }) = other_version(&bytes[..bytes.len().min(64)])
        {
            return Err(CheckpointError::Format {
                path: path.to_path_buf(),
                found,
            });
        }
        if let Some(at) = bytes[scanned..].iter().position(|&b| b < b' ') {
            if bytes[scanned + at] != b'\n' {
                return Err(corrupt(
                    "line 1 is not a header: it has a control character",
                ));
            }
            break scanned + at;
        }
        scanned = bytes.len();
        if scanned > max_header {
            break scanned;
        }
        if read_more(file, &mut bytes, HEADER_CHUNK).map_err(io_error)? == 0 {
            return Ok(bytes); // a torn header
        }
    };
    if header_end > max_header {
        // Too long for a header of this run, but perhaps a valid journal of another run (a
        // split of many more subproblems): that is no damage, and is named as what it is.
        if let Some(found) = named_model(&bytes)
            && found != model
        {
            return Err(CheckpointError::OtherRun {
                path: path.to_path_buf(),
                found,
                expected: model.to_string(),
            });
        }
        return Err(CheckpointError::Corrupt {
            path: path.to_path_buf(),
            reason: format!(
                "line 1 is longer than {max_header} bytes, more than a header of this run"
            ),
        });
    }
    file.read_to_end(&mut bytes).map_err(io_error)?;
    Ok(bytes)
}

/// The progress of a split run, kept in a locked, append-only file; see the
/// [module docs](self).
#[derive(Debug)]
pub struct Checkpoint {
    path: PathBuf,
    file: File,
    header_sum: u64,
    counts: usize,
    done: Vec<Option<Box<[u64]>>>,
    finished: usize,
    totals: Vec<u64>,
    /// Whether a write failed part way: the file may end in a partial line, so nothing more is
    /// appended after it.
    broken: bool,
    unsynced: bool,
    last_sync: Instant,
}

impl Checkpoint {
    /// Opens (or creates) the checkpoint at `path` for the model named `model`, whose entries
    /// have `counts` counts each, and returns it with the split to solve.
    ///
    /// A new file, or one holding no complete header, gets the split that `split` makes; a
    /// file with a header keeps its recorded split and `split` is not called, so a rerun
    /// solves the same subproblems even if the caller would now split differently. Refuses a
    /// file of another model, format, bezzel version or kind of subproblem, a file that does not
    /// verify, one whose header is longer than [`MAX_HEADER_LEN`], a path that is not a regular
    /// file, and one locked by another run. The lock is held until the checkpoint is dropped.
    ///
    /// For a split that depends only on the model, [`Checkpoint::open_fixed`] checks more.
    pub fn open<S, E>(
        path: impl AsRef<Path>,
        model: &str,
        counts: usize,
        split: impl FnOnce() -> Result<Vec<S>, E>,
    ) -> Result<(Checkpoint, Vec<S>), E>
    where
        S: Serialize + DeserializeOwned,
        E: From<CheckpointError>,
    {
        Checkpoint::open_with(path.as_ref(), model, counts, SplitSource::Recorded(split))
    }

    /// [`Checkpoint::open`] for a split that the model alone determines (the same `split` on
    /// every run): a file whose recorded split is not `split` is refused as corrupt, and its
    /// header may be at most a few times as long as the one this split makes.
    pub fn open_fixed<S>(
        path: impl AsRef<Path>,
        model: &str,
        counts: usize,
        split: Vec<S>,
    ) -> Result<(Checkpoint, Vec<S>), CheckpointError>
    where
        S: Serialize + DeserializeOwned,
    {
        Checkpoint::open_with(
            path.as_ref(),
            model,
            counts,
            SplitSource::<S, fn() -> Result<Vec<S>, CheckpointError>>::Fixed(split),
        )
    }

    fn open_with<S, E, F>(
        path: &Path,
        model: &str,
        counts: usize,
        split: SplitSource<S, F>,
    ) -> Result<(Checkpoint, Vec<S>), E>
    where
        S: Serialize + DeserializeOwned,
        E: From<CheckpointError>,
        F: FnOnce() -> Result<Vec<S>, E>,
    {
        let path = path.to_path_buf();
        if counts == 0 || counts > MAX_COUNTS {
            return Err(CheckpointError::InvalidCounts { counts }.into());
        }
        let io_error = |source: io::Error| CheckpointError::Io {
            path: path.clone(),
            source: source.into(),
        };
        // A device or a pipe would be read without end (or would block): refused before it is
        // opened. A path that does not exist yet is created below.
        if fs::metadata(&path).is_ok_and(|m| !m.is_file()) {
            return Err(CheckpointError::NotAFile { path }.into());
        }
        let options = || {
            let mut o = OpenOptions::new();
            o.read(true).write(true);
            o
        };
        let (mut file, created) = match options().create_new(true).open(&path) {
            Ok(file) => (file, true),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                (options().open(&path).map_err(io_error)?, false)
            }
            Err(e) => return Err(io_error(e).into()),
        };
        // What was opened, in case the path changed since it was looked at.
        if !file.metadata().map_err(io_error)?.is_file() {
            return Err(CheckpointError::NotAFile { path }.into());
        }
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                return Err(CheckpointError::InUse { path }.into());
            }
            Err(fs::TryLockError::Error(e)) => return Err(io_error(e).into()),
        }
        // From here the file is ours; one this call created is removed again if opening fails.
        let result = Checkpoint::read_or_start(&path, &mut file, model, counts, split);
        if result.is_err() && created {
            let _ = fs::remove_file(&path);
        }
        let (header_sum, entries, subproblems) = result?;
        let mut checkpoint = Checkpoint {
            path,
            file,
            header_sum,
            counts,
            done: vec![None; subproblems.len()],
            finished: 0,
            totals: vec![0; counts],
            broken: false,
            unsynced: false,
            last_sync: Instant::now(),
        };
        for (index, c) in entries {
            checkpoint.add(index, &c);
        }
        Ok((checkpoint, subproblems))
    }

    /// Reads the locked file: its header sum, entries and split, or those of a new header
    /// written for `split`. Leaves the file positioned at its end, with any torn line cut off.
    #[allow(clippy::type_complexity)]
    fn read_or_start<S, E, F>(
        path: &Path,
        file: &mut File,
        model: &str,
        counts: usize,
        split: SplitSource<S, F>,
    ) -> Result<(u64, BTreeMap<usize, Vec<u64>>, Vec<S>), E>
    where
        S: Serialize + DeserializeOwned,
        E: From<CheckpointError>,
        F: FnOnce() -> Result<Vec<S>, E>,
    {
        let io_error = |source: io::Error| CheckpointError::Io {
            path: path.to_path_buf(),
            source: source.into(),
        };
        let this_version = env!("CARGO_PKG_VERSION");
        let header_json = |subproblems: &[S]| {
            serde_json::to_string(&HeaderOut {
                bezzel_version: this_version,
                model,
                counts,
                split: subproblems,
            })
            .map_err(|e| io_error(io::Error::other(e)))
        };
        // The header this run would write, when the split is known in advance.
        let fixed_header = match &split {
            SplitSource::Fixed(subproblems) => Some(header_json(subproblems)?),
            SplitSource::Recorded(_) => None,
        };
        let max_header = fixed_header.as_ref().map_or(MAX_HEADER_LEN, |h| {
            (h.len() + 64)
                .saturating_mul(FIXED_HEADER_FACTOR)
                .max(MIN_HEADER_BOUND)
        });
        let bytes = read_journal(path, file, model, max_header)?;
        let file_len = bytes.len();
        let journal = Journal::parse(&bytes).map_err(|e| match e {
            JournalError::Version { found } => CheckpointError::Format {
                path: path.to_path_buf(),
                found,
            },
            _ => CheckpointError::Corrupt {
                path: path.to_path_buf(),
                reason: e.to_string(),
            },
        })?;
        drop(bytes); // the journal has what it needs
        let Some(journal) = journal else {
            let (subproblems, header) = match split {
                SplitSource::Recorded(make) => {
                    let subproblems = make()?;
                    let header = header_json(&subproblems)?;
                    (subproblems, header)
                }
                SplitSource::Fixed(subproblems) => (subproblems, fixed_header.expect("made above")),
            };
            let body = format!("{MAGIC} {FORMAT_VERSION} {header}");
            let header_sum = header_checksum(&body);
            let line = format!("{body} {header_sum:016x}\n");
            // Never write what the next run would refuse (a split that repeats a subproblem).
            if let Err(e) = Journal::parse(line.as_bytes()) {
                return Err(CheckpointError::InvalidSplit {
                    path: path.to_path_buf(),
                    reason: e.to_string(),
                }
                .into());
            }
            file.set_len(0).map_err(io_error)?;
            file.seek(SeekFrom::Start(0)).map_err(io_error)?;
            file.write_all(line.as_bytes()).map_err(io_error)?;
            file.sync_all().map_err(io_error)?;
            return Ok((header_sum, BTreeMap::new(), subproblems));
        };
        let mismatch = |reason: String| CheckpointError::Mismatch {
            path: path.to_path_buf(),
            reason,
        };
        let corrupt = |reason: &str| CheckpointError::Corrupt {
            path: path.to_path_buf(),
            reason: reason.to_string(),
        };
        if journal.model() != model {
            return Err(CheckpointError::OtherRun {
                path: path.to_path_buf(),
                found: journal.model().to_string(),
                expected: model.to_string(),
            }
            .into());
        }
        if journal.bezzel_version() != this_version {
            return Err(mismatch(format!(
                "written by bezzel {}, this is {this_version}",
                journal.bezzel_version()
            ))
            .into());
        }
        if journal.counts() != counts {
            return Err(mismatch(format!(
                "{} counts per subproblem, this run keeps {counts}",
                journal.counts()
            ))
            .into());
        }
        let subproblems: Vec<S> = journal
            .split_as()
            .map_err(|e| mismatch(format!("its split is not of this run's kind ({e})")))?;
        // Every subproblem has one spelling: the header must be exactly what this bezzel
        // writes for its split (no reordered fields, spaces, fields of another kind). Compared
        // as it is serialized, without a second copy.
        let mut same = SameAs(journal.header_json().as_bytes());
        let header = HeaderOut {
            bezzel_version: this_version,
            model,
            counts,
            split: &subproblems,
        };
        if serde_json::to_writer(&mut same, &header).is_err() || !same.0.is_empty() {
            return Err(corrupt("line 1: the header is not written as bezzel writes it").into());
        }
        if let Some(fixed) = &fixed_header
            && *fixed != journal.header_json()
        {
            return Err(corrupt(
                "line 1: its split is not the one this model is always split into",
            )
            .into());
        }
        if journal.complete_len() < file_len {
            // A torn last line: cut it off, so that the next entry starts a line of its own.
            file.set_len(journal.complete_len() as u64)
                .map_err(io_error)?;
            file.sync_all().map_err(io_error)?;
        }
        file.seek(SeekFrom::End(0)).map_err(io_error)?;
        Ok((journal.header_sum, journal.entries, subproblems))
    }

    /// Marks a verified entry finished, in memory.
    fn add(&mut self, index: usize, counts: &[u64]) {
        self.done[index] = Some(counts.into());
        self.finished += 1;
        for (total, c) in self.totals.iter_mut().zip(counts) {
            // Verified entries and checked records never overflow.
            *total = total.saturating_add(*c);
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Subproblems in the split.
    pub fn subproblems(&self) -> usize {
        self.done.len()
    }

    /// Counts per entry.
    pub fn counts(&self) -> usize {
        self.counts
    }

    /// Whether subproblem `index` is finished.
    pub fn is_done(&self, index: usize) -> bool {
        self.done.get(index).is_some_and(Option::is_some)
    }

    /// Finished subproblems.
    pub fn finished(&self) -> usize {
        self.finished
    }

    /// Solutions in the finished subproblems (the sum of their first counts).
    pub fn solutions(&self) -> u64 {
        self.totals[0]
    }

    /// Position-wise sums of the recorded counts of the finished subproblems.
    pub fn totals(&self) -> &[u64] {
        &self.totals
    }

    /// The counts recorded for subproblem `index`, if finished.
    pub fn counts_of(&self, index: usize) -> Option<&[u64]> {
        self.done.get(index).and_then(|c| c.as_deref())
    }

    /// Records a finished subproblem's counts (solutions first) by appending one line. Refuses,
    /// without writing anything, a subproblem outside the split, one already recorded, the
    /// wrong number of counts, and counts that would make a total overflow. Syncs to disk when
    /// the last sync is about a second old.
    pub fn record(&mut self, index: usize, counts: &[u64]) -> Result<(), CheckpointError> {
        if index >= self.done.len() {
            return Err(CheckpointError::UnknownSubproblem {
                index,
                subproblems: self.done.len(),
            });
        }
        if counts.len() != self.counts {
            return Err(CheckpointError::WrongCounts {
                index,
                expected: self.counts,
                found: counts.len(),
            });
        }
        if self.is_done(index) {
            return Err(CheckpointError::AlreadyRecorded { index });
        }
        if self
            .totals
            .iter()
            .zip(counts)
            .any(|(t, c)| t.checked_add(*c).is_none())
        {
            return Err(CheckpointError::Overflow { index });
        }
        if self.broken {
            return Err(self.io_error(io::Error::other(
                "an earlier write to it failed, so nothing more is recorded",
            )));
        }
        let mut body = index.to_string();
        for c in counts {
            body.push(' ');
            body.push_str(&c.to_string());
        }
        let line = format!("{body} {:016x}\n", entry_checksum(self.header_sum, &body));
        // One write per line: a kill between writes leaves whole lines only.
        if let Err(e) = self.file.write_all(line.as_bytes()) {
            self.broken = true;
            return Err(self.io_error(e));
        }
        self.add(index, counts);
        self.unsynced = true;
        if self.last_sync.elapsed() >= SYNC_INTERVAL {
            self.sync()?;
        }
        Ok(())
    }

    /// Syncs the recorded entries to disk (recording does so in batches; dropping the
    /// checkpoint does it too, without a way to report an error).
    pub fn sync(&mut self) -> Result<(), CheckpointError> {
        if self.unsynced {
            self.file.sync_data().map_err(|e| self.io_error(e))?;
            self.unsynced = false;
        }
        self.last_sync = Instant::now();
        Ok(())
    }

    fn io_error(&self, source: io::Error) -> CheckpointError {
        CheckpointError::Io {
            path: self.path.clone(),
            source: source.into(),
        }
    }
}

impl Drop for Checkpoint {
    fn drop(&mut self) {
        // The lock goes with the file handle.
        let _ = self.sync();
    }
}
