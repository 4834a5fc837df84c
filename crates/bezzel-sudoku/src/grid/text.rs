//! The two text forms of a grid, read and written: the line form (all cells on one line, as
//! puzzle collections have them) and the grid form (a row a line, box separators ignored),
//! and [`ParseError`], which says where text that is not a grid goes wrong, counting from 1.

use std::fmt;
use std::str::FromStr;

use super::alphabet::Alphabet;
use super::{Grid, supported_sizes};

/// Why a text could not be read as a grid.
///
/// Unlike grid coordinates elsewhere, every position here counts from 1, as in the message,
/// because it points into text a person will look at: `position` is the character's place in
/// its text line (the whole puzzle in line form, the row's line in grid form), `row` and `col`
/// the cell's row and column in the grid.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseError {
    /// A line-form puzzle whose length is not that of any supported grid (16, 81, 256, 625).
    WrongLength {
        /// The number of characters found, after trimming surrounding whitespace.
        found: usize,
        /// The supported length closest to `found`, the one the line most likely meant; the
        /// message lists the others too.
        expected: usize,
    },
    /// A character that is neither a cell symbol nor, in grid form, a separator.
    IllegalChar {
        /// The character.
        ch: char,
        /// Its 1-based character position in its line.
        position: usize,
        /// The 1-based row of the cell it stands in.
        row: usize,
        /// The 1-based column of the cell it stands in.
        col: usize,
    },
    /// A value symbol above the grid's size, like `A` (10) in a 9x9 grid.
    ValueTooLarge {
        /// The character.
        ch: char,
        /// The value it stands for.
        value: u8,
        /// The largest value the grid allows (its size `N`).
        max: u8,
        /// Its 1-based character position in its line.
        position: usize,
        /// The 1-based row of the cell.
        row: usize,
        /// The 1-based column of the cell.
        col: usize,
    },
    /// A grid-form text whose number of rows is not that of any supported grid (4, 9, 16, 25).
    WrongRowCount {
        /// The number of rows found (lines holding at least one cell).
        found: usize,
        /// The supported row count closest to `found`.
        expected: usize,
    },
    /// A 16x16 puzzle that reads as a valid puzzle in both alphabets, `1`-`G` and `0`-`F`, with
    /// different values: it holds no `G`, and no `0` beside a `.` (see [`crate::reader`]). Only
    /// the reader that guesses alphabets reports it; naming the alphabet resolves it.
    AmbiguousAlphabet,
    /// A line longer than [`crate::reader::MAX_LINE_BYTES`] bytes, far more than any puzzle
    /// needs; the reader keeps only its start.
    LineTooLong {
        /// The limit it went past, in bytes.
        limit: usize,
    },
    /// A grid-form row with a different number of cells than the grid has rows.
    WrongRowLength {
        /// The 1-based row.
        row: usize,
        /// The number of cells found in it.
        found: usize,
        /// The number of cells each row needs.
        expected: usize,
    },
}

/// Writes "N (NxN), A, B or C": the likely intent first, then the other choices.
fn write_expected(
    f: &mut fmt::Formatter<'_>,
    expected: usize,
    side: usize,
    all: impl Iterator<Item = usize>,
) -> fmt::Result {
    write!(f, "expected {expected} ({side}x{side})")?;
    let others: Vec<usize> = all.filter(|&n| n != expected).collect();
    for (i, n) in others.iter().enumerate() {
        let sep = if i + 1 == others.len() { " or " } else { ", " };
        write!(f, "{sep}{n}")?;
    }
    Ok(())
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseError::WrongLength { found, expected } => {
                write!(f, "line has {found} cells; ")?;
                write_expected(
                    f,
                    expected,
                    expected.isqrt(),
                    supported_sizes().map(|n| n * n),
                )
            }
            ParseError::IllegalChar {
                ch,
                position,
                row,
                col,
            } => write!(
                f,
                "illegal character {ch:?} at position {position} (row {row}, column {col})"
            ),
            ParseError::ValueTooLarge {
                ch,
                value,
                max,
                position,
                row,
                col,
            } => write!(
                f,
                "character {ch:?} at position {position} (row {row}, column {col}) stands for \
                 {value}, but a {max}x{max} grid holds values up to {max}"
            ),
            ParseError::WrongRowCount { found, expected } => {
                write!(f, "grid has {found} rows; ")?;
                write_expected(f, expected, expected, supported_sizes())
            }
            ParseError::AmbiguousAlphabet => f.write_str(
                "16x16 puzzle with no G, and no 0 beside a '.', reads as 1-G and as 0-F; \
                 name its alphabet",
            ),
            ParseError::LineTooLong { limit } => {
                write!(f, "line is longer than {limit} bytes")
            }
            ParseError::WrongRowLength {
                row,
                found,
                expected,
            } => {
                write!(f, "row {row} has {found} cells; expected {expected}")
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ParseError: {self}")
    }
}

impl Grid {
    /// Reads a puzzle in line form: `N * N` cell symbols, row by row.
    ///
    /// Surrounding whitespace, including the `\r` of a CRLF line ending, is trimmed. The box
    /// size follows from the length (16, 81, 256 or 625), so the length is checked before the
    /// characters; then the first bad character, from the left, is reported.
    pub fn parse_line(line: &str) -> Result<Grid, ParseError> {
        Grid::parse_line_in(line, Alphabet::FromOne)
    }

    /// [`parse_line`](Grid::parse_line) in a given alphabet.
    pub fn parse_line_in(line: &str, alphabet: Alphabet) -> Result<Grid, ParseError> {
        let line = line.trim();
        let found = line.chars().count();
        let Some(n) = supported_sizes().find(|&n| n * n == found) else {
            let expected = nearest(found, supported_sizes().map(|n| n * n));
            return Err(ParseError::WrongLength { found, expected });
        };
        let mut cells = Vec::with_capacity(found);
        for (i, ch) in line.chars().enumerate() {
            let (row, col) = (i / n + 1, i % n + 1);
            cells.push(cell_value(alphabet, ch, n, i + 1, row, col)?);
        }
        Ok(Grid {
            box_size: n.isqrt(),
            cells,
        })
    }

    /// Reads a puzzle in grid form: one line per row, one character per cell.
    ///
    /// Spaces, tabs and the separators `|`, `-` and `+` are ignored, and lines left with no
    /// cells (blank lines, box-separator lines) are skipped, so [`to_pretty`](Grid::to_pretty)
    /// output reads back. The size is taken from the number of rows, which every row's length
    /// must then match. Errors are reported in this order: the first illegal character, a wrong
    /// number of rows, the first row of the wrong length, the first value too large.
    pub fn parse_grid(text: &str) -> Result<Grid, ParseError> {
        Grid::parse_grid_in(text, Alphabet::FromOne)
    }

    /// [`parse_grid`](Grid::parse_grid) in a given alphabet.
    pub fn parse_grid_in(text: &str, alphabet: Alphabet) -> Result<Grid, ParseError> {
        // (character, 1-based position in its line) for each cell of each row.
        let mut rows: Vec<Vec<(char, usize)>> = Vec::new();
        for line in text.lines() {
            let mut row = Vec::new();
            for (i, ch) in line.chars().enumerate() {
                if ch.is_whitespace() || matches!(ch, '|' | '-' | '+') {
                    continue;
                }
                if alphabet.value(ch).is_none() {
                    return Err(ParseError::IllegalChar {
                        ch,
                        position: i + 1,
                        row: rows.len() + 1,
                        col: row.len() + 1,
                    });
                }
                row.push((ch, i + 1));
            }
            if !row.is_empty() {
                rows.push(row);
            }
        }
        let n = rows.len();
        if !supported_sizes().any(|s| s == n) {
            return Err(ParseError::WrongRowCount {
                found: n,
                expected: nearest(n, supported_sizes()),
            });
        }
        if let Some((r, row)) = rows.iter().enumerate().find(|(_, row)| row.len() != n) {
            return Err(ParseError::WrongRowLength {
                row: r + 1,
                found: row.len(),
                expected: n,
            });
        }
        let mut cells = Vec::with_capacity(n * n);
        for (r, row) in rows.iter().enumerate() {
            for (c, &(ch, position)) in row.iter().enumerate() {
                cells.push(cell_value(alphabet, ch, n, position, r + 1, c + 1)?);
            }
        }
        Ok(Grid {
            box_size: n.isqrt(),
            cells,
        })
    }

    /// The line form: `N * N` symbols, `.` for empty; [`parse_line`](Grid::parse_line) reads
    /// it back.
    pub fn to_line(&self) -> String {
        self.to_line_in(Alphabet::FromOne)
    }

    /// [`to_line`](Grid::to_line) in a given alphabet; [`parse_line_in`](Grid::parse_line_in)
    /// reads it back.
    pub fn to_line_in(&self, alphabet: Alphabet) -> String {
        self.cells.iter().map(|&v| symbol(alphabet, v)).collect()
    }

    /// The grid form with box separators, one line per row, each ending in `\n`;
    /// [`parse_grid`](Grid::parse_grid) reads it back. A 9x9 grid starts:
    ///
    /// ```text
    /// 5 3 . | . 7 . | . . .
    /// 6 . . | 1 9 5 | . . .
    /// . 9 8 | . . . | . 6 .
    /// ------+-------+------
    /// ```
    pub fn to_pretty(&self) -> String {
        self.to_pretty_in(Alphabet::FromOne)
    }

    /// [`to_pretty`](Grid::to_pretty) in a given alphabet;
    /// [`parse_grid_in`](Grid::parse_grid_in) reads it back.
    pub fn to_pretty_in(&self, alphabet: Alphabet) -> String {
        let (b, n) = (self.box_size, self.size());
        // Each box is 2b - 1 characters wide and " | " joins boxes, so a rule segment is as
        // wide as its box plus the spaces beside the bar: 2b at the edges, 2b + 1 inside.
        let rule: String = (0..b)
            .map(|i| {
                let width = if i == 0 || i == b - 1 {
                    2 * b
                } else {
                    2 * b + 1
                };
                "-".repeat(width)
            })
            .collect::<Vec<_>>()
            .join("+");
        let mut out = String::with_capacity((n + b) * (2 * n + 2 * b));
        for r in 0..n {
            if r > 0 && r % b == 0 {
                out.push_str(&rule);
                out.push('\n');
            }
            for c in 0..n {
                if c > 0 {
                    out.push_str(if c % b == 0 { " | " } else { " " });
                }
                out.push(symbol(alphabet, self.get(r, c)));
            }
            out.push('\n');
        }
        out
    }
}

/// The symbol for a value already known to fit a grid.
fn symbol(alphabet: Alphabet, value: u8) -> char {
    // Grid's invariant keeps values at or below N <= MAX_VALUE, all of which have symbols.
    alphabet
        .symbol(value)
        .expect("grid values never exceed MAX_VALUE")
}

/// Reads one cell character of an `n`x`n` grid, with 1-based coordinates for the error.
fn cell_value(
    alphabet: Alphabet,
    ch: char,
    n: usize,
    position: usize,
    row: usize,
    col: usize,
) -> Result<u8, ParseError> {
    match alphabet.value(ch) {
        None => Err(ParseError::IllegalChar {
            ch,
            position,
            row,
            col,
        }),
        Some(value) if usize::from(value) > n => Err(ParseError::ValueTooLarge {
            ch,
            value,
            max: n as u8,
            position,
            row,
            col,
        }),
        Some(value) => Ok(value),
    }
}

/// The candidate closest to `x`; candidates are sparse enough that ties cannot occur.
fn nearest(x: usize, candidates: impl Iterator<Item = usize>) -> usize {
    candidates.min_by_key(|&c| c.abs_diff(x)).unwrap_or(0)
}

/// Line form, or with `{:#}` the pretty grid form.
impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            f.write_str(&self.to_pretty())
        } else {
            f.write_str(&self.to_line())
        }
    }
}

/// Text with more than one non-blank line is read in grid form, anything else in line form,
/// both in the default alphabet; a leading byte-order mark is skipped.
///
/// Deciding by shape rather than trying one form and then the other keeps the error message
/// about the form the text was meant to be in.
impl FromStr for Grid {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Grid, ParseError> {
        let s = s.strip_prefix('\u{FEFF}').unwrap_or(s);
        if s.lines().filter(|l| !l.trim().is_empty()).count() > 1 {
            Grid::parse_grid(s)
        } else {
            Grid::parse_line(s)
        }
    }
}
