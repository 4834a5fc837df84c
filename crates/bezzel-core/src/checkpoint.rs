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

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const MAGIC: &str = "bezzel-checkpoint";
/// The version of the file format this bezzel reads and writes.
///
/// Format 3 is format 2 with the model engine's compacted prefixes (a decision on a fixed
/// variable written once, as `x = value`): a split of format 2 may mean something else now, so
/// such files are refused as written by an older bezzel.
pub const FORMAT_VERSION: u32 = 3;
/// The most counts an entry may have (a bound that keeps a damaged header from asking for
/// absurd amounts of memory).
pub const MAX_COUNTS: usize = 64;
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

/// Why a checkpoint file cannot be used, or a record was refused.
#[derive(Debug)]
#[non_exhaustive]
pub enum CheckpointError {
    /// The file could not be opened, read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file does not verify (damaged, edited, or not a checkpoint); see the
    /// [module docs](self) for what is checked.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The file is a checkpoint of another model, version or kind of split.
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
            CheckpointError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Why [`Journal::parse`] refused some bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum JournalError {
    /// The bytes are not a bezzel checkpoint.
    NotACheckpoint,
    /// A checkpoint in another format version.
    Version {
        /// The version found (as written, shortened).
        found: String,
    },
    /// A complete line that does not verify.
    BadLine {
        /// The line (1-based; the header is line 1).
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for JournalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JournalError::NotACheckpoint => f.write_str("not a bezzel checkpoint"),
            JournalError::Version { found } => write!(
                f,
                "written in checkpoint format {found}, this bezzel reads format {FORMAT_VERSION}"
            ),
            JournalError::BadLine { line, reason } => write!(f, "line {line}: {reason}"),
        }
    }
}

impl std::error::Error for JournalError {}

/// The header's JSON object, as [`Journal::parse`] checks it: the split is only counted and
/// checked for repeats here (its subproblems are read into the caller's type by
/// [`Journal::split_as`]), so no tree of JSON values is kept for it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    bezzel_version: String,
    model: String,
    counts: usize,
    split: SplitShape,
}

/// What [`Journal::parse`] keeps of a split: how many subproblems it has.
#[derive(Debug, Clone, PartialEq)]
struct SplitShape {
    len: usize,
}

impl<'de> Deserialize<'de> for SplitShape {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SplitShape, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = SplitShape;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of subproblems")
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<SplitShape, A::Error> {
                use serde::de::Error;
                // One subproblem's value at a time; only a 128-bit hash of its serialized text
                // is kept, to find repeats (which would be counted twice). Two different
                // subproblems with the same hash would be refused, never summed.
                let mut seen = HashSet::new();
                while let Some(value) = seq.next_element::<serde_json::Value>()? {
                    let text = serde_json::to_string(&value).map_err(A::Error::custom)?;
                    if !seen.insert(hash128(&text)) {
                        return Err(A::Error::custom(format_args!(
                            "subproblem {} of the split repeats an earlier one",
                            seen.len()
                        )));
                    }
                }
                Ok(SplitShape { len: seen.len() })
            }
        }
        d.deserialize_seq(Visitor)
    }
}

/// The split of a header, read into the caller's type (the other fields are skipped).
#[derive(Deserialize)]
struct SplitIn<S> {
    split: Vec<S>,
}

/// The header as written: the split in the caller's type.
#[derive(Serialize)]
struct HeaderOut<'a, S> {
    bezzel_version: &'a str,
    model: &'a str,
    counts: usize,
    split: &'a [S],
}

/// A verified checkpoint file, as [`Journal::parse`] reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Journal {
    header: Header,
    /// The header's JSON object, as written.
    header_json: String,
    header_sum: u64,
    entries: BTreeMap<usize, Vec<u64>>,
    totals: Vec<u64>,
    complete_len: usize,
}

/// A 128-bit hash of `text`: FNV-1a and the standard library's hash side by side.
fn hash128(text: &str) -> u128 {
    use std::hash::{Hash, Hasher};
    // The same keys for every hasher made by `new` in a process, which is all it needs.
    let mut sip = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut sip);
    (u128::from(fnv1a(FNV_OFFSET, text.as_bytes())) << 64) | u128::from(sip.finish())
}

/// 64-bit FNV-1a, continuing from `hash`.
fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

fn header_checksum(body: &str) -> u64 {
    fnv1a(FNV_OFFSET, body.as_bytes())
}

fn entry_checksum(header_sum: u64, body: &str) -> u64 {
    fnv1a(
        fnv1a(FNV_OFFSET, &header_sum.to_le_bytes()),
        body.as_bytes(),
    )
}

/// A decimal number of digits only, as the journal writes them: no sign, no spaces, and no
/// leading zero (so that every number has one spelling).
fn parse_number(token: &str) -> Option<u64> {
    if token.is_empty()
        || !token.bytes().all(|b| b.is_ascii_digit())
        || (token.len() > 1 && token.starts_with('0'))
    {
        return None;
    }
    token.parse().ok()
}

/// `bezzel-checkpoint `: how every header starts.
fn header_start() -> String {
    format!("{MAGIC} ")
}

/// The format version of bytes that start like a header, if it is complete and not
/// [`FORMAT_VERSION`]: a file of another format is refused by its first few bytes.
fn other_version(bytes: &[u8]) -> Option<JournalError> {
    let rest = bytes.strip_prefix(header_start().as_bytes())?;
    let end = rest.iter().position(|&b| b == b' ' || b == b'\n')?;
    let version = &rest[..end];
    let other = !version.is_empty()
        && version.iter().all(u8::is_ascii_digit)
        && version != FORMAT_VERSION.to_string().as_bytes();
    other.then(|| JournalError::Version {
        found: String::from_utf8_lossy(&version[..version.len().min(20)]).into_owned(),
    })
}

/// Splits a line into its body and checksum, and verifies the checksum.
fn verified(
    line_no: usize,
    bytes: &[u8],
    checksum: impl Fn(&str) -> u64,
) -> Result<&str, JournalError> {
    let bad = |reason: &str| JournalError::BadLine {
        line: line_no,
        reason: reason.to_string(),
    };
    let text = std::str::from_utf8(bytes).map_err(|_| bad("not UTF-8 text"))?;
    let (body, sum) = text
        .rsplit_once(' ')
        .ok_or_else(|| bad("no checksum at the end"))?;
    if sum != format!("{:016x}", checksum(body)) {
        return Err(bad(
            "checksum does not match (the line was edited or damaged)",
        ));
    }
    Ok(body)
}

/// Explains bytes that do not start with a header: an older checkpoint, or something else.
fn not_a_journal(bytes: &[u8]) -> JournalError {
    // Format 1 was one JSON object naming its format.
    let v1 = bytes.first() == Some(&b'{')
        && serde_json::from_slice::<serde_json::Value>(bytes)
            .is_ok_and(|v| v["format"] == MAGIC && v["format_version"] == 1);
    if v1 {
        JournalError::Version {
            found: "1".to_string(),
        }
    } else {
        JournalError::NotACheckpoint
    }
}

impl Journal {
    /// Reads and verifies the bytes of a checkpoint file; see the [module docs](self) for the
    /// format and the rules. `Ok(None)`: the bytes hold no complete header yet (an empty file,
    /// or a header torn by a kill), so nothing is recorded. Never panics, whatever the bytes.
    pub fn parse(bytes: &[u8]) -> Result<Option<Journal>, JournalError> {
        let header_start = header_start();
        let Some(header_len) = bytes.iter().position(|&b| b == b'\n') else {
            let torn_header = header_start.as_bytes().starts_with(bytes)
                || bytes.starts_with(header_start.as_bytes());
            return if torn_header {
                Ok(None)
            } else {
                Err(not_a_journal(bytes))
            };
        };
        let first = &bytes[..header_len];
        if !first.starts_with(header_start.as_bytes()) {
            return Err(not_a_journal(bytes));
        }
        if let Some(e) = other_version(bytes) {
            return Err(e);
        }
        let body = verified(1, first, header_checksum)?;
        let header_sum = header_checksum(body);
        let bad_header = |reason: String| JournalError::BadLine { line: 1, reason };
        let json = body
            .strip_prefix(&format!("{MAGIC} {FORMAT_VERSION} "))
            .ok_or_else(|| bad_header("no header object".to_string()))?;
        let header: Header = serde_json::from_str(json).map_err(|e| bad_header(e.to_string()))?;
        if header.counts == 0 || header.counts > MAX_COUNTS {
            return Err(bad_header(format!(
                "{} counts per entry, expected 1 to {MAX_COUNTS}",
                header.counts
            )));
        }
        let mut journal = Journal {
            totals: vec![0; header.counts],
            header,
            header_json: json.to_string(),
            header_sum,
            entries: BTreeMap::new(),
            complete_len: header_len + 1,
        };
        let mut line_no = 1;
        while let Some(len) = bytes[journal.complete_len..]
            .iter()
            .position(|&b| b == b'\n')
        {
            line_no += 1;
            let start = journal.complete_len;
            journal.entry(line_no, &bytes[start..start + len])?;
            journal.complete_len = start + len + 1;
        }
        Ok(Some(journal))
    }

    /// Verifies one entry line and adds it.
    fn entry(&mut self, line_no: usize, bytes: &[u8]) -> Result<(), JournalError> {
        let bad = |reason: String| JournalError::BadLine {
            line: line_no,
            reason,
        };
        let body = verified(line_no, bytes, |body| entry_checksum(self.header_sum, body))?;
        let mut tokens = body.split(' ');
        let index = tokens
            .next()
            .and_then(parse_number)
            .and_then(|i| usize::try_from(i).ok())
            .ok_or_else(|| {
                bad(
                    "the subproblem is not a number as bezzel writes it (digits, no leading zero)"
                        .to_string(),
                )
            })?;
        if index >= self.header.split.len {
            return Err(bad(format!(
                "subproblem {index} is not in the split ({} subproblems)",
                self.header.split.len
            )));
        }
        let counts = tokens
            .map(|t| {
                parse_number(t).ok_or_else(|| {
                    bad(format!(
                        "count `{t}` is not a number as bezzel writes it (digits, no leading zero)"
                    ))
                })
            })
            .collect::<Result<Vec<u64>, _>>()?;
        if counts.len() != self.header.counts {
            return Err(bad(format!(
                "{} counts, every entry has {}",
                counts.len(),
                self.header.counts
            )));
        }
        if let Some(earlier) = self.entries.get(&index) {
            return if *earlier == counts {
                Ok(()) // the same fact twice: counted once
            } else {
                Err(bad(format!(
                    "subproblem {index} is recorded again with different counts"
                )))
            };
        }
        for (total, &c) in self.totals.iter_mut().zip(&counts) {
            *total = total.checked_add(c).ok_or_else(|| {
                bad(format!(
                    "the counts add up to more than {} (subproblem {index})",
                    u64::MAX
                ))
            })?;
        }
        self.entries.insert(index, counts);
        Ok(())
    }

    /// The caller's name of the model.
    pub fn model(&self) -> &str {
        &self.header.model
    }

    /// The version of bezzel that wrote the file.
    pub fn bezzel_version(&self) -> &str {
        &self.header.bezzel_version
    }

    /// Counts per entry.
    pub fn counts(&self) -> usize {
        self.header.counts
    }

    /// Subproblems in the recorded split.
    pub fn subproblems(&self) -> usize {
        self.header.split.len
    }

    /// The header's JSON object, as written.
    pub fn header_json(&self) -> &str {
        &self.header_json
    }

    /// The recorded split, each subproblem read straight into the caller's type (memory in
    /// proportion to the split, with no JSON values in between).
    pub fn split_as<S: DeserializeOwned>(&self) -> Result<Vec<S>, serde_json::Error> {
        serde_json::from_str::<SplitIn<S>>(&self.header_json).map(|h| h.split)
    }

    /// Finished subproblems: position in the split → counts.
    pub fn entries(&self) -> &BTreeMap<usize, Vec<u64>> {
        &self.entries
    }

    /// Position-wise sums of the entries' counts.
    pub fn totals(&self) -> &[u64] {
        &self.totals
    }

    /// Bytes that are complete lines; anything after them is a torn last line, ignored.
    pub fn complete_len(&self) -> usize {
        self.complete_len
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
/// `max_header` bytes after at most that many (and a chunk). The entries after a header are
/// read whole (the file is a regular one, so they end).
fn read_journal(
    path: &Path,
    file: &mut File,
    max_header: usize,
) -> Result<Vec<u8>, CheckpointError> {
    let io_error = |source| CheckpointError::Io {
        path: path.to_path_buf(),
        source,
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
        let io_error = |source| CheckpointError::Io {
            path: path.clone(),
            source,
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
        let io_error = |source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
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
        let bytes = read_journal(path, file, max_header)?;
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
        if journal.bezzel_version() != this_version {
            return Err(mismatch(format!(
                "written by bezzel {}, this is {this_version}",
                journal.bezzel_version()
            ))
            .into());
        }
        if journal.model() != model {
            return Err(mismatch(format!(
                "model `{}`, this run is `{model}`",
                journal.model()
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
            source,
        }
    }
}

impl Drop for Checkpoint {
    fn drop(&mut self) {
        // The lock goes with the file handle.
        let _ = self.sync();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_refuses_what_does_not_verify_and_ignores_a_torn_tail() {
        assert_eq!(Journal::parse(b""), Ok(None));
        assert_eq!(Journal::parse(b"bezzel-check"), Ok(None));
        assert_eq!(Journal::parse(b"bezzel-checkpoint 3 {\"bez"), Ok(None));
        assert_eq!(Journal::parse(b"hello"), Err(JournalError::NotACheckpoint));
        assert!(matches!(
            Journal::parse(b"bezzel-checkpoint 7 {}\n"),
            Err(JournalError::Version { found }) if found == "7"
        ));
        let body = r#"bezzel-checkpoint 3 {"bezzel_version":"0.1.0","model":"m","counts":1,"split":[1,2]}"#;
        let header = format!("{body} {:016x}\n", header_checksum(body));
        let sum = header_checksum(body);
        let entry = |b: &str| format!("{b} {:016x}\n", entry_checksum(sum, b));
        let good = format!("{header}{}{}", entry("0 5"), entry("1 7"));
        let j = Journal::parse(good.as_bytes()).unwrap().unwrap();
        assert_eq!(j.totals(), &[12]);
        assert_eq!(j.complete_len(), good.len());
        let torn = &good[..good.len() - 3];
        let j = Journal::parse(torn.as_bytes()).unwrap().unwrap();
        assert_eq!(j.totals(), &[5]);
        assert_eq!(j.entries().len(), 1);
        for bad in [
            format!("{header}{}", entry("2 5")),
            format!("{header}{}", entry("0 5 1")),
            format!("{header}{}", entry("0 -5")),
            format!("{header}{}{}", entry("0 5"), entry("0 6")),
            format!("{header}{}", entry("0 5").replace('5', "6")),
            format!("{header}\n"),
        ] {
            assert!(
                matches!(
                    Journal::parse(bad.as_bytes()),
                    Err(JournalError::BadLine { line: 2.., .. })
                ),
                "{bad}"
            );
        }
    }
}
