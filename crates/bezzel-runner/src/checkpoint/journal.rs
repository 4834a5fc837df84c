//! The journal's format: parsing and verifying the bytes of a checkpoint file, and the
//! checksums and spellings that [`Checkpoint`](super::Checkpoint) writes. It touches no file
//! system, so it can be fuzzed on arbitrary input; the format is described in the
//! [module docs](super).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::fmt;

pub(super) const MAGIC: &str = "bezzel-checkpoint";
/// The version of the file format this bezzel reads and writes.
///
/// Format 3 is format 2 with the model engine's compacted prefixes (a decision on a fixed
/// variable written once, as `x = value`): a split of format 2 may mean something else now, so
/// such files are refused as written by an older bezzel.
pub const FORMAT_VERSION: u32 = 3;
/// The most counts an entry may have (a bound that keeps a damaged header from asking for
/// absurd amounts of memory).
pub const MAX_COUNTS: usize = 64;

/// Why [`Journal::parse`] refused some bytes.
#[derive(Clone, PartialEq, Eq)]
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

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for JournalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "JournalError: {self}")
    }
}

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
pub(super) struct HeaderOut<'a, S> {
    pub(super) bezzel_version: &'a str,
    pub(super) model: &'a str,
    pub(super) counts: usize,
    pub(super) split: &'a [S],
}

/// A verified checkpoint file, as [`Journal::parse`] reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Journal {
    header: Header,
    /// The header's JSON object, as written.
    header_json: String,
    pub(super) header_sum: u64,
    pub(super) entries: BTreeMap<usize, Vec<u64>>,
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

pub(super) fn header_checksum(body: &str) -> u64 {
    fnv1a(FNV_OFFSET, body.as_bytes())
}

pub(super) fn entry_checksum(header_sum: u64, body: &str) -> u64 {
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
pub(super) fn header_start() -> String {
    format!("{MAGIC} ")
}

/// The format version of bytes that start like a header, if it is complete and not
/// [`FORMAT_VERSION`]: a file of another format is refused by its first few bytes.
pub(super) fn other_version(bytes: &[u8]) -> Option<JournalError> {
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

/// The run a header names (its `model`), read from the first bytes of a first line that
/// starts as this format's headers do, `bezzel-checkpoint 3 {"bezzel_version":"…","model":"…",`,
/// whether or not the rest of the line was read: a file whose first line is too long to read
/// whole can still be named as another run's journal. Unverified (the checksum is at the end
/// of the line), so only good for saying whose the file seems to be.
pub(super) fn named_model(bytes: &[u8]) -> Option<String> {
    let start = format!("{MAGIC} {FORMAT_VERSION} {{\"bezzel_version\":");
    let rest = bytes.strip_prefix(start.as_bytes())?;
    // Each string value is read with its escapes, up to its closing quote.
    let string = |bytes: &[u8]| -> Option<(String, usize)> {
        let mut values = serde_json::Deserializer::from_slice(bytes).into_iter::<String>();
        let value = values.next()?.ok()?;
        Some((value, values.byte_offset()))
    };
    let (_version, end) = string(rest)?;
    let rest = rest[end..].strip_prefix(b",\"model\":")?;
    let (model, end) = string(rest)?;
    rest[end..].starts_with(b",").then_some(model)
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
    /// Reads and verifies the bytes of a checkpoint file; see the [module docs](super) for the
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
