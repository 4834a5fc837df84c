//! Checkpoints: a long parallel count that survives Ctrl-C, a crash or a kill.
//!
//! A [`Checkpoint`] file records which subproblems of a split are finished and their counts.
//! Every record rewrites the file atomically (write a temporary file, flush it to disk, rename it
//! over the old one), so the file on disk is always a complete earlier state: a subproblem is
//! either recorded with its exact count or not at all, and rerunning the same command solves
//! only the missing ones. The file names the model, the split (a digest of every subproblem's
//! decisions) and the format version, and a file that does not match is refused rather than
//! merged into a wrong total.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

const FORMAT: &str = "bezzel-checkpoint";
const FORMAT_VERSION: u32 = 1;

/// Why a checkpoint file cannot be used.
#[derive(Debug)]
#[non_exhaustive]
pub enum CheckpointError {
    /// The file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file is not a readable checkpoint (truncated, edited, not JSON).
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The file is a checkpoint of another model, size, split or version.
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What differs.
        reason: String,
    },
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io { path, source } => {
                write!(f, "checkpoint {}: {source}", path.display())
            }
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
        }
    }
}

impl std::error::Error for CheckpointError {}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct State {
    format: String,
    format_version: u32,
    bezzel_version: String,
    model: String,
    subproblems: usize,
    split_digest: String,
    /// Finished subproblems: index → its counts (the number of solutions first; a caller may
    /// record more, e.g. unique solutions).
    done: BTreeMap<usize, Vec<u64>>,
}

/// The progress of a split run, kept in a file.
#[derive(Debug)]
pub struct Checkpoint {
    path: PathBuf,
    state: State,
}

/// FNV-1a over the split's serialized subproblems: the same split always gives the same digest.
fn digest<S: Serialize>(subproblems: &[S]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for s in subproblems {
        let text = serde_json::to_string(s).unwrap_or_default();
        for b in text.bytes().chain([b'\n']) {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

impl Checkpoint {
    /// Opens the checkpoint at `path` for this split, or starts an empty one if the file does
    /// not exist. Refuses a file of another model, split or format version. Subproblems are
    /// any serializable description (e.g. [`Subproblem`](crate::parallel::Subproblem)s); the
    /// file records them by their position in `subproblems`.
    pub fn open<S: Serialize>(
        path: impl AsRef<Path>,
        model: &str,
        subproblems: &[S],
    ) -> Result<Checkpoint, CheckpointError> {
        let path = path.as_ref().to_path_buf();
        let expected = State {
            format: FORMAT.to_string(),
            format_version: FORMAT_VERSION,
            bezzel_version: env!("CARGO_PKG_VERSION").to_string(),
            model: model.to_string(),
            subproblems: subproblems.len(),
            split_digest: digest(subproblems),
            done: BTreeMap::new(),
        };
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(Checkpoint {
                    path,
                    state: expected,
                });
            }
            Err(source) => return Err(CheckpointError::Io { path, source }),
        };
        let found: State = serde_json::from_str(&text).map_err(|e| CheckpointError::Corrupt {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        let mismatch = |reason: String| CheckpointError::Mismatch {
            path: path.clone(),
            reason,
        };
        if found.format != FORMAT || found.format_version != FORMAT_VERSION {
            return Err(mismatch(format!(
                "format {} v{}, expected {FORMAT} v{FORMAT_VERSION}",
                found.format, found.format_version
            )));
        }
        if found.bezzel_version != expected.bezzel_version {
            return Err(mismatch(format!(
                "written by bezzel {}, this is {}",
                found.bezzel_version, expected.bezzel_version
            )));
        }
        if found.model != expected.model {
            return Err(mismatch(format!(
                "model `{}`, this run is `{}`",
                found.model, expected.model
            )));
        }
        if found.subproblems != expected.subproblems || found.split_digest != expected.split_digest
        {
            return Err(mismatch(format!(
                "the search was split differently ({} subproblems, digest {}; now {}, {})",
                found.subproblems, found.split_digest, expected.subproblems, expected.split_digest
            )));
        }
        if let Some((&index, _)) = found.done.iter().find(|(i, _)| **i >= found.subproblems) {
            return Err(CheckpointError::Corrupt {
                path,
                reason: format!("subproblem {index} is out of range"),
            });
        }
        Ok(Checkpoint { path, state: found })
    }

    /// Whether subproblem `index` is finished.
    pub fn is_done(&self, index: usize) -> bool {
        self.state.done.contains_key(&index)
    }

    /// Finished subproblems.
    pub fn finished(&self) -> usize {
        self.state.done.len()
    }

    /// Solutions in the finished subproblems (the sum of their first counts).
    pub fn solutions(&self) -> u64 {
        self.totals().first().copied().unwrap_or(0)
    }

    /// Position-wise sums of the recorded counts of the finished subproblems.
    pub fn totals(&self) -> Vec<u64> {
        let mut sums: Vec<u64> = Vec::new();
        for counts in self.state.done.values() {
            if sums.len() < counts.len() {
                sums.resize(counts.len(), 0);
            }
            for (sum, c) in sums.iter_mut().zip(counts) {
                *sum += c;
            }
        }
        sums
    }

    /// The counts recorded for subproblem `index`, if finished.
    pub fn counts_of(&self, index: usize) -> Option<&[u64]> {
        self.state.done.get(&index).map(Vec::as_slice)
    }

    /// Records a finished subproblem's counts (solutions first) and writes the file atomically.
    pub fn record(&mut self, index: usize, counts: &[u64]) -> Result<(), CheckpointError> {
        self.state.done.insert(index, counts.to_vec());
        self.save()
    }

    /// Writes the file: to `<path>.tmp`, flushed to disk, then renamed over `<path>`.
    pub fn save(&self) -> Result<(), CheckpointError> {
        let io_error = |source| CheckpointError::Io {
            path: self.path.clone(),
            source,
        };
        let mut tmp = self.path.clone().into_os_string();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let text =
            serde_json::to_string_pretty(&self.state).map_err(|e| CheckpointError::Corrupt {
                path: self.path.clone(),
                reason: e.to_string(),
            })?;
        let mut file = fs::File::create(&tmp).map_err(io_error)?;
        file.write_all(text.as_bytes()).map_err(io_error)?;
        file.sync_all().map_err(io_error)?;
        fs::rename(&tmp, &self.path).map_err(io_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parallel::Subproblem;
    use crate::search::Decision;

    fn split(model: &str, n: usize) -> Vec<Subproblem> {
        (0..n)
            .map(|index| Subproblem {
                model: model.to_string(),
                index,
                decisions: vec![Decision::Assign(0, index as i32)],
            })
            .collect()
    }

    #[test]
    fn records_survive_reopening_and_foreign_files_are_refused() {
        let dir = std::env::temp_dir().join(format!("bezzel-ckpt-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.json");
        let _ = fs::remove_file(&path);
        let subs = split("m", 4);
        let mut c = Checkpoint::open(&path, "m", &subs).unwrap();
        assert_eq!(c.finished(), 0);
        c.record(2, &[10, 3]).unwrap();
        c.record(0, &[5, 1]).unwrap();
        let c = Checkpoint::open(&path, "m", &subs).unwrap();
        assert!(c.is_done(0) && c.is_done(2) && !c.is_done(1));
        assert_eq!(c.solutions(), 15);
        assert_eq!(c.totals(), vec![15, 4]);
        assert_eq!(c.counts_of(2), Some(&[10, 3][..]));
        assert!(!dir.join("run.json.tmp").exists());

        let err = Checkpoint::open(&path, "other", &split("other", 4)).unwrap_err();
        assert!(err.to_string().contains("model `m`"), "{err}");
        let err = Checkpoint::open(&path, "m", &split("m", 5)).unwrap_err();
        assert!(err.to_string().contains("split differently"), "{err}");
        fs::write(&path, "{ not json").unwrap();
        let err = Checkpoint::open(&path, "m", &subs).unwrap_err();
        assert!(err.to_string().contains("corrupt"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
