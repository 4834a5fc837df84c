//! Sudoku grids of any supported box size, with their text forms.
//!
//! A grid with box size `b` has `N = b * b` rows, columns and boxes, and each cell holds `0`
//! (empty) or a value `1..=N`. Box sizes 2 to 5 are supported (4x4, 9x9, 16x16 and 25x25):
//! the text forms write one character per cell, and the scheme below runs out of letters at 35,
//! so a 36x36 grid could not be written down.
//!
//! Two text forms are read and written. The *line form* puts all `N * N` cells on one line, row
//! by row, and is what puzzle collections use; the box size follows from the line's length.
//! The *grid form* puts each row on its own line and ignores spaces and the box separators `|`,
//! `-` and `+`, so a pretty-printed grid ([`Grid::to_pretty`]) reads back unchanged.
//!
//! In both forms `.` and `0` mean an empty cell, `1`-`9` the values 1 to 9, and a value `v > 9`
//! is written as the letter `'A' + (v - 10)`: a 16x16 grid uses `1`-`9` and `A`-`G`, a 25x25 grid
//! `1`-`9` and `A`-`P`. Letters are read case-insensitively; letters after `P` are never values,
//! so they are reported as illegal characters rather than as values too large for the grid.
//! That is the default [`Alphabet::FromOne`]. Some collections write 16x16 puzzles in hexadecimal,
//! `0`-`F` for the values 1 to 16 and `.` for an empty cell: that is [`Alphabet::FromZero`],
//! read by [`Grid::parse_line_in`] and [`Grid::parse_grid_in`] and written by
//! [`Grid::to_line_in`] and [`Grid::to_pretty_in`]. Text alone cannot always tell the two apart;
//! [`crate::reader`] says when it can.
//!
//! Coordinates in the API ([`Grid::get`], [`Clash`], [`Unit`]) are 0-based; messages meant
//! for people count from 1, and so do the fields of [`ParseError`], which point into text.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize};

/// The smallest supported box size (a 4x4 grid).
pub const MIN_BOX_SIZE: usize = 2;

/// The largest supported box size (a 25x25 grid).
pub const MAX_BOX_SIZE: usize = 5;

/// The largest value any supported grid can hold, and so the largest value that has a symbol.
pub const MAX_VALUE: u8 = (MAX_BOX_SIZE * MAX_BOX_SIZE) as u8;

/// Reads one cell symbol: `Some(0)` for an empty cell (`.` or `0`), `Some(v)` for a value
/// symbol (`1`-`9`, then `A`/`a` = 10 up to `P`/`p` = 25), and `None` for anything else.
///
/// Whether the value fits a particular grid is for the caller to check.
pub const fn char_value(ch: char) -> Option<u8> {
    match ch {
        '.' | '0' => Some(0),
        '1'..='9' => Some(ch as u8 - b'0'),
        'A'..='P' => Some(ch as u8 - b'A' + 10),
        'a'..='p' => Some(ch as u8 - b'a' + 10),
        _ => None,
    }
}

/// Writes one cell symbol: `.` for 0 (empty), `1`-`9`, then `A` = 10 up to `P` = 25;
/// `None` above [`MAX_VALUE`].
pub const fn value_char(value: u8) -> Option<char> {
    match value {
        0 => Some('.'),
        1..=9 => Some((b'0' + value) as char),
        10..=MAX_VALUE => Some((b'A' + value - 10) as char),
        _ => None,
    }
}

/// How cell values are written as characters.
///
/// Both alphabets read letters case-insensitively and write capitals, and both write an empty
/// cell as `.`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Alphabet {
    /// `1`-`9`, then `A` = 10 up to `P` = 25 (a 16x16 grid uses `1`-`G`); `.` or `0` is an
    /// empty cell. What puzzle collections mostly use, and the default.
    #[default]
    FromOne,
    /// One symbol lower: `0` = 1 up to `9` = 10, then `A` = 11 up to `O` = 25 (a 16x16 grid
    /// uses `0`-`F`, "hexadecimal" Sudoku); only `.` is an empty cell.
    FromZero,
}

impl Alphabet {
    /// Reads one cell symbol: `Some(0)` for an empty cell, `Some(v)` for a value symbol and
    /// `None` for anything else. Whether the value fits a particular grid is for the caller to
    /// check.
    pub const fn value(self, ch: char) -> Option<u8> {
        match self {
            Alphabet::FromOne => char_value(ch),
            Alphabet::FromZero => match ch {
                '.' => Some(0),
                '0'..='9' => Some(ch as u8 - b'0' + 1),
                'A'..='O' => Some(ch as u8 - b'A' + 11),
                'a'..='o' => Some(ch as u8 - b'a' + 11),
                _ => None,
            },
        }
    }

    /// Writes one cell symbol: `.` for 0 (empty), else the value's symbol; `None` above
    /// [`MAX_VALUE`].
    pub const fn symbol(self, value: u8) -> Option<char> {
        match self {
            Alphabet::FromOne => value_char(value),
            Alphabet::FromZero => match value {
                0 => Some('.'),
                1..=10 => Some((b'0' + value - 1) as char),
                11..=MAX_VALUE => Some((b'A' + value - 11) as char),
                _ => None,
            },
        }
    }

    /// The symbols of an `n`x`n` grid's values, for messages: "1-G", "0-F", "1-9", "0-8".
    pub fn range(self, n: usize) -> String {
        let n = u8::try_from(n).unwrap_or(MAX_VALUE).min(MAX_VALUE);
        match (self.symbol(1), self.symbol(n)) {
            (Some(a), Some(b)) => format!("{a}-{b}"),
            _ => String::new(),
        }
    }
}

/// Whether grids with this box size are supported (`MIN_BOX_SIZE..=MAX_BOX_SIZE`).
pub const fn is_supported_box_size(box_size: usize) -> bool {
    box_size >= MIN_BOX_SIZE && box_size <= MAX_BOX_SIZE
}

/// The side lengths `N` of the supported grids, smallest first.
fn supported_sizes() -> impl Iterator<Item = usize> {
    (MIN_BOX_SIZE..=MAX_BOX_SIZE).map(|b| b * b)
}

/// A group of `N` cells that must hold each value once: a row, a column or a box.
///
/// Indices are 0-based. Boxes are numbered row by row from the top-left box, so in a 9x9 grid
/// box 0 is the top-left, box 2 the top-right and box 8 the bottom-right one.
/// [`Display`](fmt::Display) counts from 1 ("row 1", "column 9", "box 5").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Unit {
    /// The row with this 0-based index.
    Row(usize),
    /// The column with this 0-based index.
    Column(usize),
    /// The box with this 0-based index, counted row by row.
    Box(usize),
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unit::Row(i) => write!(f, "row {}", i + 1),
            Unit::Column(i) => write!(f, "column {}", i + 1),
            Unit::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}

/// Two givens in one unit with the same value, which no solution can satisfy.
///
/// Coordinates are 0-based `(row, column)` pairs and `a` comes before `b` in reading order.
/// The message counts from 1: "givens clash: r1c1 and r1c5 both hold 7 in row 1".
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Clash {
    /// The earlier of the two cells, as 0-based `(row, column)`.
    pub a: (usize, usize),
    /// The later of the two cells, as 0-based `(row, column)`.
    pub b: (usize, usize),
    /// The value both cells hold.
    pub value: u8,
    /// The unit the two cells share.
    pub unit: Unit,
}

impl fmt::Display for Clash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "givens clash: r{}c{} and r{}c{} both hold {} in {}",
            self.a.0 + 1,
            self.a.1 + 1,
            self.b.0 + 1,
            self.b.1 + 1,
            self.value,
            self.unit
        )
    }
}

impl std::error::Error for Clash {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for Clash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Clash: {self}")
    }
}

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

/// Why raw parts do not make a grid (see [`Grid::from_cells`]).
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GridError {
    /// A box size outside `MIN_BOX_SIZE..=MAX_BOX_SIZE`.
    UnsupportedBoxSize {
        /// The box size asked for.
        box_size: usize,
    },
    /// A cell vector whose length is not `N * N`.
    WrongCellCount {
        /// The number of cells given.
        found: usize,
        /// `N * N` for the box size.
        expected: usize,
    },
    /// A cell holding more than `N`.
    ValueOutOfRange {
        /// The 0-based index of the cell in row-major order.
        index: usize,
        /// The value it holds.
        value: u8,
        /// The largest value allowed (`N`).
        max: u8,
    },
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GridError::UnsupportedBoxSize { box_size } => write!(
                f,
                "box size {box_size} is not supported; it must be {MIN_BOX_SIZE} to {MAX_BOX_SIZE}"
            ),
            GridError::WrongCellCount { found, expected } => {
                write!(f, "{found} cells given; expected {expected}")
            }
            GridError::ValueOutOfRange { index, value, max } => {
                write!(f, "cell {index} holds {value}, but values go up to {max}")
            }
        }
    }
}

impl std::error::Error for GridError {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for GridError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GridError: {self}")
    }
}

/// A Sudoku grid: `N * N` cells in row-major order, each 0 (empty) or `1..=N`.
///
/// The fields are private so that every grid keeps that shape: a supported box size, exactly
/// `N * N` cells and no value above `N`. Deserialization checks the same, so a grid read back
/// from untrusted data cannot make [`get`](Grid::get) panic later.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Grid {
    box_size: usize,
    cells: Vec<u8>,
}

/// The serialized shape of a [`Grid`], read before its invariants are checked.
#[derive(Deserialize)]
struct GridRepr {
    box_size: usize,
    cells: Vec<u8>,
}

impl<'de> Deserialize<'de> for Grid {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let repr = GridRepr::deserialize(deserializer)?;
        Grid::from_cells(repr.box_size, repr.cells).map_err(serde::de::Error::custom)
    }
}

impl Grid {
    /// An empty grid with this box size.
    ///
    /// # Panics
    ///
    /// If the box size is not supported (see [`is_supported_box_size`]).
    pub fn empty(box_size: usize) -> Grid {
        assert!(
            is_supported_box_size(box_size),
            "box size {box_size} is not supported; it must be {MIN_BOX_SIZE} to {MAX_BOX_SIZE}"
        );
        let n = box_size * box_size;
        Grid {
            box_size,
            cells: vec![0; n * n],
        }
    }

    /// A grid from its cells in row-major order (0 for empty), checking their number and range.
    pub fn from_cells(box_size: usize, cells: Vec<u8>) -> Result<Grid, GridError> {
        if !is_supported_box_size(box_size) {
            return Err(GridError::UnsupportedBoxSize { box_size });
        }
        let n = box_size * box_size;
        if cells.len() != n * n {
            return Err(GridError::WrongCellCount {
                found: cells.len(),
                expected: n * n,
            });
        }
        let max = n as u8;
        if let Some((index, &value)) = cells.iter().enumerate().find(|&(_, &v)| v > max) {
            return Err(GridError::ValueOutOfRange { index, value, max });
        }
        Ok(Grid { box_size, cells })
    }

    /// The number of rows, columns, boxes and values (`N = box_size * box_size`).
    pub fn size(&self) -> usize {
        self.box_size * self.box_size
    }

    /// The side of a box in cells (`b`; 3 for a 9x9 grid).
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// The cells in row-major order, 0 for empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value at 0-based `(row, col)`, 0 if empty.
    ///
    /// # Panics
    ///
    /// If `row` or `col` is not below [`size`](Grid::size).
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[self.index(row, col)]
    }

    /// Puts `value` (0 to clear) at 0-based `(row, col)`.
    ///
    /// # Panics
    ///
    /// If `row` or `col` is not below [`size`](Grid::size), or `value` is above it.
    pub fn set(&mut self, row: usize, col: usize, value: u8) {
        let n = self.size();
        assert!(
            usize::from(value) <= n,
            "value {value} does not fit a {n}x{n} grid"
        );
        let i = self.index(row, col);
        self.cells[i] = value;
    }

    /// The number of filled cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell is filled.
    pub fn is_filled(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The row-major index of 0-based `(row, col)` in [`cells`](Grid::cells).
    ///
    /// # Panics
    ///
    /// If `row` or `col` is not below [`size`](Grid::size); without the check a column past
    /// the edge would silently wrap into the next row.
    pub fn index(&self, row: usize, col: usize) -> usize {
        let n = self.size();
        assert!(
            row < n && col < n,
            "cell ({row}, {col}) is outside a {n}x{n} grid"
        );
        row * n + col
    }

    /// The 0-based `(row, col)` of a row-major index; the inverse of [`index`](Grid::index).
    ///
    /// # Panics
    ///
    /// If `index` is not below `N * N`.
    pub fn position(&self, index: usize) -> (usize, usize) {
        let n = self.size();
        assert!(index < n * n, "index {index} is outside a {n}x{n} grid");
        (index / n, index % n)
    }

    /// The 0-based index of the box holding `(row, col)`, counting boxes row by row.
    ///
    /// # Panics
    ///
    /// If `row` or `col` is not below [`size`](Grid::size).
    pub fn box_index(&self, row: usize, col: usize) -> usize {
        let (b, n) = (self.box_size, self.size());
        assert!(
            row < n && col < n,
            "cell ({row}, {col}) is outside a {n}x{n} grid"
        );
        (row / b) * b + col / b
    }

    /// The 0-based `(row, col)` of the cells of `unit`, in reading order.
    ///
    /// # Panics
    ///
    /// If the unit's index is not below [`size`](Grid::size).
    pub fn unit_cells(&self, unit: Unit) -> impl Iterator<Item = (usize, usize)> + use<> {
        let (b, n) = (self.box_size, self.size());
        let k = match unit {
            Unit::Row(k) | Unit::Column(k) | Unit::Box(k) => k,
        };
        assert!(k < n, "{unit} does not exist in a {n}x{n} grid");
        (0..n).map(move |i| match unit {
            Unit::Row(r) => (r, i),
            Unit::Column(c) => (i, c),
            Unit::Box(x) => ((x / b) * b + i / b, (x % b) * b + i % b),
        })
    }

    /// All `3 * N` units: the rows, then the columns, then the boxes.
    pub fn units(&self) -> impl Iterator<Item = Unit> + use<> {
        let n = self.size();
        (0..n)
            .map(Unit::Row)
            .chain((0..n).map(Unit::Column))
            .chain((0..n).map(Unit::Box))
    }

    /// Visits clashing givens unit by unit (rows, columns, boxes), pairing each repeat with the
    /// first cell in the unit holding that value, until `visit` breaks.
    /// Whether any unit holds a value twice: one pass with a value mask per unit. Solvers
    /// check every puzzle's givens first, and in a batch of sound puzzles this pass is all
    /// that runs (the walk that names the cells costs ten times as much).
    fn has_clash(&self) -> bool {
        let (n, b) = (self.size(), self.box_size);
        let mut rows = [0u32; MAX_VALUE as usize];
        let mut cols = [0u32; MAX_VALUE as usize];
        let mut boxes = [0u32; MAX_VALUE as usize];
        let mut clash = 0u32;
        // Row by row, and within a row box by box: no division per cell.
        for (r, row) in self.cells.chunks_exact(n).enumerate() {
            for (band_col, run) in row.chunks_exact(b).enumerate() {
                let k = (r / b) * b + band_col;
                for (j, &value) in run.iter().enumerate() {
                    let c = band_col * b + j;
                    // Bit 0 stands for an empty cell, which never clashes.
                    let bit = (1u32 << value) & !1;
                    clash |= (rows[r] | cols[c] | boxes[k]) & bit;
                    rows[r] |= bit;
                    cols[c] |= bit;
                    boxes[k] |= bit;
                }
            }
        }
        clash != 0
    }

    fn visit_clashes(&self, mut visit: impl FnMut(Clash) -> ControlFlow<()>) {
        // One slot per value; MAX_VALUE bounds N, so no grid needs a heap allocation here.
        let mut first: [Option<(usize, usize)>; MAX_VALUE as usize + 1] =
            [None; MAX_VALUE as usize + 1];
        for unit in self.units() {
            first.fill(None);
            for (r, c) in self.unit_cells(unit) {
                let value = self.get(r, c);
                if value == 0 {
                    continue;
                }
                match first[usize::from(value)] {
                    None => first[usize::from(value)] = Some((r, c)),
                    Some(a) => {
                        let conflict = Clash {
                            a,
                            b: (r, c),
                            value,
                            unit,
                        };
                        if visit(conflict).is_break() {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Every pair of filled cells that share a unit and a value.
    ///
    /// Rows come first, then columns, then boxes, each in index order. A pair sharing both a
    /// row and a box is reported once for each. When a value appears `k` times in a unit, the
    /// first cell is paired with each of the other `k - 1`, not every pair with every other,
    /// so the list grows linearly with the damage rather than quadratically.
    pub fn clashes(&self) -> Vec<Clash> {
        let mut all = Vec::new();
        self.visit_clashes(|c| {
            all.push(c);
            ControlFlow::Continue(())
        });
        all
    }

    /// The first entry [`clashes`](Grid::clashes) would return, without finding the rest.
    pub fn first_clash(&self) -> Option<Clash> {
        if !self.has_clash() {
            return None;
        }
        let mut found = None;
        self.visit_clashes(|c| {
            found = Some(c);
            ControlFlow::Break(())
        });
        found
    }

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

#[cfg(test)]
mod tests {
    #[test]
    fn a_boxed_error_prints_its_message_where_main_shows_it() {
        let e = ParseError::IllegalChar {
            ch: '!',
            position: 3,
            row: 1,
            col: 3,
        };
        let message = e.to_string();
        let shown = format!("{:?}", Box::<dyn std::error::Error>::from(e));
        assert_eq!(shown, format!("ParseError: {message}"));
        assert!(shown.contains('!'), "{shown}");
    }

    use super::*;
    use crate::reader::{PuzzleLines, parse_batch};
    use proptest::prelude::*;

    /// The puzzle from Wikipedia's "Sudoku" article.
    const WIKI: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    /// A valid solved grid of any box size: row r is the first row shifted by
    /// `b * (r % b) + r / b`, the textbook pattern.
    fn pattern(b: usize) -> Grid {
        let n = b * b;
        let cells = (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                ((b * (r % b) + r / b + c) % n + 1) as u8
            })
            .collect();
        Grid::from_cells(b, cells).unwrap()
    }

    #[test]
    fn parses_wikipedia_puzzle() {
        let g = Grid::parse_line(WIKI).unwrap();
        assert_eq!((g.size(), g.box_size(), g.givens()), (9, 3, 30));
        assert_eq!(g.get(0, 0), 5);
        assert_eq!(g.get(0, 1), 3);
        assert_eq!(g.get(0, 2), 0);
        assert_eq!(g.get(8, 8), 9);
        assert_eq!(g.get(4, 0), 4);
        assert_eq!(g.to_line(), WIKI);
        assert!(g.clashes().is_empty());
    }

    #[test]
    fn pretty_form_is_exact() {
        let g = Grid::parse_line(WIKI).unwrap();
        let expected = "\
5 3 . | . 7 . | . . .
6 . . | 1 9 5 | . . .
. 9 8 | . . . | . 6 .
------+-------+------
8 . . | . 6 . | . . 3
4 . . | 8 . 3 | . . 1
7 . . | . 2 . | . . 6
------+-------+------
. 6 . | . . . | 2 8 .
. . . | 4 1 9 | . . 5
. . . | . 8 . | . 7 9
";
        assert_eq!(g.to_pretty(), expected);
        assert_eq!(format!("{g:#}"), expected);
        assert_eq!(Grid::parse_grid(expected).unwrap(), g);
    }

    #[test]
    fn pretty_4x4_and_16x16_shapes() {
        let g = Grid::parse_line("1.3.............").unwrap();
        assert_eq!(
            g.to_pretty(),
            "1 . | 3 .\n. . | . .\n----+----\n. . | . .\n. . | . .\n"
        );
        let big = pattern(4).to_pretty();
        let lines: Vec<&str> = big.lines().collect();
        assert_eq!(lines.len(), 16 + 3);
        assert_eq!(lines[0], "1 2 3 4 | 5 6 7 8 | 9 A B C | D E F G");
        assert_eq!(lines[4], "--------+---------+---------+--------");
        assert!(
            lines
                .iter()
                .all(|l| l.chars().count() == lines[0].chars().count())
        );
    }

    #[test]
    fn letters_stand_for_values_above_nine() {
        let g = pattern(4);
        assert_eq!(&g.to_line()[..16], "123456789ABCDEFG");
        let g = pattern(5);
        assert_eq!(&g.to_line()[..25], "123456789ABCDEFGHIJKLMNOP");
        assert_eq!(char_value('a'), Some(10));
        assert_eq!(char_value('P'), Some(25));
        assert_eq!(char_value('p'), Some(25));
        assert_eq!(char_value('Q'), None);
        assert_eq!(char_value('0'), Some(0));
        assert_eq!(value_char(16), Some('G'));
        assert_eq!(value_char(26), None);
        // Hexadecimal Sudoku: 0-F for 1-16, and only '.' empty.
        let zero = Alphabet::FromZero;
        assert_eq!(zero.value('0'), Some(1));
        assert_eq!(zero.value('9'), Some(10));
        assert_eq!(zero.value('A'), Some(11));
        assert_eq!(zero.value('f'), Some(16));
        assert_eq!(zero.value('O'), Some(25));
        assert_eq!(zero.value('P'), None);
        assert_eq!(zero.value('.'), Some(0));
        assert_eq!(zero.symbol(0), Some('.'));
        assert_eq!(zero.symbol(1), Some('0'));
        assert_eq!(zero.symbol(16), Some('F'));
        assert_eq!(zero.symbol(26), None);
        assert_eq!(zero.range(16), "0-F");
        assert_eq!(Alphabet::FromOne.range(16), "1-G");
        assert_eq!(Alphabet::FromOne.range(9), "1-9");
    }

    #[test]
    fn lower_case_and_zero_read_like_upper_case_and_dot() {
        let upper = "1.3.G".to_string() + &".".repeat(251);
        let lower = "103.g".to_string() + &"0".repeat(251);
        assert_eq!(
            Grid::parse_line(&upper).unwrap(),
            Grid::parse_line(&lower).unwrap()
        );
        assert_eq!(Grid::parse_line(&lower).unwrap().get(0, 4), 16);
    }

    #[test]
    fn crlf_and_surrounding_whitespace_are_trimmed() {
        let g = Grid::parse_line(WIKI).unwrap();
        assert_eq!(Grid::parse_line(&format!("{WIKI}\r")).unwrap(), g);
        assert_eq!(Grid::parse_line(&format!("  {WIKI}\t\r\n")).unwrap(), g);
        let crlf_pretty = g.to_pretty().replace('\n', "\r\n");
        assert_eq!(Grid::parse_grid(&crlf_pretty).unwrap(), g);
        let batch = format!("# comment\r\n{WIKI}\r\n\r\n{WIKI}\r\n");
        let parsed = parse_batch(&batch);
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed[0], (2, Ok(g.clone())));
        assert_eq!(parsed[1], (4, Ok(g)));
    }

    #[test]
    fn wrong_length_names_found_and_expected() {
        let e = Grid::parse_line(&WIKI[..80]).unwrap_err();
        assert_eq!(
            e,
            ParseError::WrongLength {
                found: 80,
                expected: 81
            }
        );
        assert_eq!(
            e.to_string(),
            "line has 80 cells; expected 81 (9x9), 16, 256 or 625"
        );
        let e = Grid::parse_line("1234").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line has 4 cells; expected 16 (4x4), 81, 256 or 625"
        );
        let e = Grid::parse_line(&".".repeat(600)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line has 600 cells; expected 625 (25x25), 16, 81 or 256"
        );
        let e = Grid::parse_line("").unwrap_err();
        assert_eq!(
            e,
            ParseError::WrongLength {
                found: 0,
                expected: 16
            }
        );
    }

    #[test]
    fn illegal_char_names_char_and_place() {
        let line = format!("5300x{}", &WIKI[5..]);
        let e = Grid::parse_line(&line).unwrap_err();
        assert_eq!(
            e,
            ParseError::IllegalChar {
                ch: 'x',
                position: 5,
                row: 1,
                col: 5
            }
        );
        assert_eq!(
            e.to_string(),
            "illegal character 'x' at position 5 (row 1, column 5)"
        );
        // Position 32 is the fifth cell of the fourth row.
        let mut line = WIKI.to_string();
        line.replace_range(31..32, "*");
        let e = Grid::parse_line(&line).unwrap_err();
        assert_eq!(
            e.to_string(),
            "illegal character '*' at position 32 (row 4, column 5)"
        );
        // Non-ASCII characters count as one position each, not by their bytes.
        let line = format!("é{}", &WIKI[1..]);
        let e = Grid::parse_line(&line).unwrap_err();
        assert_eq!(
            e,
            ParseError::IllegalChar {
                ch: 'é',
                position: 1,
                row: 1,
                col: 1
            }
        );
        // Letters past P can never be values, so they are illegal even in a 25x25 grid.
        let line = format!("{}Z", ".".repeat(624));
        let e = Grid::parse_line(&line).unwrap_err();
        assert_eq!(
            e,
            ParseError::IllegalChar {
                ch: 'Z',
                position: 625,
                row: 25,
                col: 25
            }
        );
    }

    #[test]
    fn value_too_large_names_value_and_limit() {
        let line = format!("{}A{}", &WIKI[..9], &WIKI[10..]);
        let e = Grid::parse_line(&line).unwrap_err();
        let expected = ParseError::ValueTooLarge {
            ch: 'A',
            value: 10,
            max: 9,
            position: 10,
            row: 2,
            col: 1,
        };
        assert_eq!(e, expected);
        assert_eq!(
            e.to_string(),
            "character 'A' at position 10 (row 2, column 1) stands for 10, \
             but a 9x9 grid holds values up to 9"
        );
        let e = Grid::parse_line("5...............").unwrap_err();
        assert_eq!(
            e,
            ParseError::ValueTooLarge {
                ch: '5',
                value: 5,
                max: 4,
                position: 1,
                row: 1,
                col: 1
            }
        );
        let line = format!("{}h", ".".repeat(255));
        let e = Grid::parse_line(&line).unwrap_err();
        assert_eq!(
            e.to_string(),
            "character 'h' at position 256 (row 16, column 16) stands for 17, but a 16x16 grid holds values up to 16"
        );
    }

    #[test]
    fn grid_form_errors() {
        let g = Grid::parse_line(WIKI).unwrap();
        let pretty = g.to_pretty();

        let missing_row: String = pretty.lines().skip(1).map(|l| format!("{l}\n")).collect();
        let e = Grid::parse_grid(&missing_row).unwrap_err();
        assert_eq!(
            e,
            ParseError::WrongRowCount {
                found: 8,
                expected: 9
            }
        );
        assert_eq!(
            e.to_string(),
            "grid has 8 rows; expected 9 (9x9), 4, 16 or 25"
        );
        let e = Grid::parse_grid("\n  \n------\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "grid has 0 rows; expected 4 (4x4), 9, 16 or 25"
        );

        let short_row = pretty.replacen("6 . . | 1 9 5", "6 . . | 1 9", 1);
        let e = Grid::parse_grid(&short_row).unwrap_err();
        assert_eq!(
            e,
            ParseError::WrongRowLength {
                row: 2,
                found: 8,
                expected: 9
            }
        );
        assert_eq!(e.to_string(), "row 2 has 8 cells; expected 9");

        // Third text line after the rule line is the sixth row; 'x' is its seventh character.
        let bad = pretty.replacen("7 . . | . 2 .", "7 . . x . 2 .", 1);
        let e = Grid::parse_grid(&bad).unwrap_err();
        assert_eq!(
            e,
            ParseError::IllegalChar {
                ch: 'x',
                position: 7,
                row: 6,
                col: 4
            }
        );
        assert_eq!(
            e.to_string(),
            "illegal character 'x' at position 7 (row 6, column 4)"
        );

        let big = pretty.replacen(". . . | . 8 . | . 7 9", ". . . | . 8 . | . 7 b", 1);
        let e = Grid::parse_grid(&big).unwrap_err();
        assert_eq!(
            e,
            ParseError::ValueTooLarge {
                ch: 'b',
                value: 11,
                max: 9,
                position: 21,
                row: 9,
                col: 9
            }
        );
    }

    #[test]
    fn grid_form_accepts_plain_and_loose_layouts() {
        let g = Grid::parse_line(WIKI).unwrap();
        let plain: String = WIKI
            .as_bytes()
            .chunks(9)
            .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
            .collect();
        assert_eq!(Grid::parse_grid(&plain).unwrap(), g);
        let loose = format!("\n\n{}\n\n", plain.replace('\n', "\n\n").replace('.', "0"));
        assert_eq!(Grid::parse_grid(&loose).unwrap(), g);
        let tabs = "1\t2 | 3 4\n3 4|1 2\n+--+--+\n2 1 | 4 3\n4 3 | 2 1";
        assert_eq!(
            Grid::parse_grid(tabs).unwrap().to_line(),
            "1234341221434321"
        );
    }

    #[test]
    fn from_str_picks_the_form_by_shape() {
        let g = Grid::parse_line(WIKI).unwrap();
        assert_eq!(WIKI.parse::<Grid>().unwrap(), g);
        assert_eq!(g.to_pretty().parse::<Grid>().unwrap(), g);
        assert_eq!(format!("\n{WIKI}\n").parse::<Grid>().unwrap(), g);
        assert_eq!(g.to_string(), WIKI);
        assert!(matches!(
            "12\n34".parse::<Grid>(),
            Err(ParseError::WrongRowCount { .. })
        ));
        assert!(matches!(
            "1234".parse::<Grid>(),
            Err(ParseError::WrongLength { .. })
        ));
    }

    #[test]
    fn batch_skips_comments_and_blanks_and_keeps_going_after_errors() {
        let text = format!("# header\n\n   # indented comment\n{WIKI}\nnot a puzzle\n  {WIKI}  \n");
        let got = parse_batch(&text);
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].0, 4);
        assert!(got[0].1.is_ok());
        assert_eq!(
            got[1],
            (
                5,
                Err(ParseError::WrongLength {
                    found: 12,
                    expected: 16
                })
            )
        );
        assert_eq!(got[2].0, 6);
        assert!(got[2].1.is_ok());
        assert_eq!(PuzzleLines::new("").count(), 0);
        assert_eq!(PuzzleLines::new("#\n\n").count(), 0);
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped() {
        let text = format!("\u{FEFF}{WIKI}\n");
        assert_eq!(text.parse::<Grid>().unwrap().to_line(), WIKI);
        let batch = parse_batch(&text);
        assert_eq!(batch.len(), 1);
        assert_eq!(batch[0].1.as_ref().unwrap().to_line(), WIKI);
    }

    #[test]
    fn conflicts_name_both_cells_and_the_unit() {
        let mut g = Grid::parse_line(WIKI).unwrap();
        // A second 7 in row 1 (the given 7 is at r1c5), outside that 7's column and box.
        g.set(0, 0, 7);
        let all = g.clashes();
        let first = Clash {
            a: (0, 0),
            b: (0, 4),
            value: 7,
            unit: Unit::Row(0),
        };
        assert_eq!(g.first_clash(), Some(first));
        assert_eq!(
            first.to_string(),
            "givens clash: r1c1 and r1c5 both hold 7 in row 1"
        );
        // r6c1 holds the given 7 too.
        let col = Clash {
            a: (0, 0),
            b: (5, 0),
            value: 7,
            unit: Unit::Column(0),
        };
        assert_eq!(all, vec![first, col]);
        assert_eq!(
            col.to_string(),
            "givens clash: r1c1 and r6c1 both hold 7 in column 1"
        );

        let mut g = Grid::empty(3);
        g.set(3, 3, 4);
        g.set(5, 5, 4);
        let only = Clash {
            a: (3, 3),
            b: (5, 5),
            value: 4,
            unit: Unit::Box(4),
        };
        assert_eq!(g.clashes(), vec![only]);
        assert_eq!(
            only.to_string(),
            "givens clash: r4c4 and r6c6 both hold 4 in box 5"
        );
    }

    #[test]
    fn a_value_repeated_three_times_pairs_with_the_first() {
        let mut g = Grid::empty(2);
        g.set(1, 0, 2);
        g.set(1, 2, 2);
        g.set(1, 3, 2);
        let row = |b| Clash {
            a: (1, 0),
            b,
            value: 2,
            unit: Unit::Row(1),
        };
        let bx = Clash {
            a: (1, 2),
            b: (1, 3),
            value: 2,
            unit: Unit::Box(1),
        };
        assert_eq!(g.clashes(), vec![row((1, 2)), row((1, 3)), bx]);
    }

    #[test]
    fn index_helpers() {
        let g = Grid::empty(3);
        assert_eq!(g.index(4, 7), 43);
        assert_eq!(g.position(43), (4, 7));
        assert_eq!(g.box_index(4, 7), 5);
        assert_eq!(g.box_index(8, 0), 6);
        let b5: Vec<_> = g.unit_cells(Unit::Box(5)).collect();
        assert_eq!(
            b5,
            vec![
                (3, 6),
                (3, 7),
                (3, 8),
                (4, 6),
                (4, 7),
                (4, 8),
                (5, 6),
                (5, 7),
                (5, 8)
            ]
        );
        let c2: Vec<_> = g.unit_cells(Unit::Column(2)).take(2).collect();
        assert_eq!(c2, vec![(0, 2), (1, 2)]);
        assert_eq!(g.units().count(), 27);
        assert_eq!(Grid::empty(5).cells().len(), 625);
    }

    #[test]
    #[should_panic(expected = "outside")]
    fn index_rejects_a_column_past_the_edge() {
        Grid::empty(3).get(0, 9);
    }

    #[test]
    #[should_panic(expected = "does not fit")]
    fn set_rejects_a_value_too_large() {
        Grid::empty(2).set(0, 0, 5);
    }

    #[test]
    fn from_cells_checks_its_input() {
        assert_eq!(
            Grid::from_cells(6, vec![0; 36 * 36]),
            Err(GridError::UnsupportedBoxSize { box_size: 6 })
        );
        assert_eq!(
            Grid::from_cells(1, vec![0]),
            Err(GridError::UnsupportedBoxSize { box_size: 1 })
        );
        assert_eq!(
            Grid::from_cells(2, vec![0; 15]),
            Err(GridError::WrongCellCount {
                found: 15,
                expected: 16
            })
        );
        let mut cells = vec![0; 16];
        cells[3] = 5;
        let e = Grid::from_cells(2, cells).unwrap_err();
        assert_eq!(
            e,
            GridError::ValueOutOfRange {
                index: 3,
                value: 5,
                max: 4
            }
        );
        assert_eq!(e.to_string(), "cell 3 holds 5, but values go up to 4");
    }

    #[test]
    fn serde_round_trip_and_validation() {
        let g = Grid::parse_line(WIKI).unwrap();
        let json = serde_json::to_string(&g).unwrap();
        assert!(
            json.starts_with(r#"{"box_size":3,"cells":[5,3,0,0,7"#),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Grid>(&json).unwrap(), g);
        let bad = r#"{"box_size":2,"cells":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,9]}"#;
        let e = serde_json::from_str::<Grid>(bad).unwrap_err();
        assert!(e.to_string().contains("cell 15 holds 9"), "{e}");
        let short = r#"{"box_size":3,"cells":[1,2,3]}"#;
        assert!(serde_json::from_str::<Grid>(short).is_err());
    }

    fn any_grid() -> impl Strategy<Value = Grid> {
        (MIN_BOX_SIZE..=MAX_BOX_SIZE).prop_flat_map(|b| {
            let n = b * b;
            proptest::collection::vec(0..=n as u8, n * n)
                .prop_map(move |cells| Grid::from_cells(b, cells).unwrap())
        })
    }

    /// Grids with a few givens, placed at random.
    fn sparse_grid() -> impl Strategy<Value = Grid> {
        (MIN_BOX_SIZE..=MAX_BOX_SIZE).prop_flat_map(|b| {
            let n = b * b;
            let weight = n as u32;
            let cell = prop_oneof![8 * weight => Just(0u8), weight => 1..=n as u8];
            proptest::collection::vec(cell, n * n)
                .prop_map(move |cells| Grid::from_cells(b, cells).unwrap())
        })
    }

    proptest! {
        #[test]
        fn line_form_round_trips(g in any_grid()) {
            let line = g.to_line();
            prop_assert_eq!(line.chars().count(), g.size() * g.size());
            prop_assert_eq!(Grid::parse_line(&line).unwrap(), g.clone());
            prop_assert_eq!(Grid::parse_line(&line.to_lowercase()).unwrap(), g.clone());
            prop_assert_eq!(line.parse::<Grid>().unwrap(), g);
        }

        #[test]
        fn every_alphabet_round_trips_in_both_forms(g in any_grid()) {
            for alphabet in [Alphabet::FromOne, Alphabet::FromZero] {
                let line = g.to_line_in(alphabet);
                prop_assert_eq!(line.chars().count(), g.size() * g.size());
                prop_assert_eq!(Grid::parse_line_in(&line, alphabet).unwrap(), g.clone());
                let lower = line.to_lowercase();
                prop_assert_eq!(Grid::parse_line_in(&lower, alphabet).unwrap(), g.clone());
                let pretty = g.to_pretty_in(alphabet);
                prop_assert_eq!(Grid::parse_grid_in(&pretty, alphabet).unwrap(), g.clone());
            }
        }

        #[test]
        fn pretty_form_round_trips(g in any_grid()) {
            let pretty = g.to_pretty();
            prop_assert_eq!(Grid::parse_grid(&pretty).unwrap(), g.clone());
            prop_assert_eq!(pretty.parse::<Grid>().unwrap(), g.clone());
            let back = Grid::parse_grid(&pretty).unwrap().to_line();
            prop_assert_eq!(Grid::parse_line(&back).unwrap(), g);
        }

        #[test]
        fn serde_round_trips(g in any_grid()) {
            let json = serde_json::to_string(&g).unwrap();
            prop_assert_eq!(serde_json::from_str::<Grid>(&json).unwrap(), g);
        }

        #[test]
        fn sparse_grids_clash_exactly_when_a_pair_does(g in sparse_grid()) {
            // Mostly empty grids: about half have no clash, so both answers get exercised.
            let n = g.size();
            let b = g.box_size();
            let clash = (0..n * n).any(|i| {
                (i + 1..n * n).any(|j| {
                    let (ri, ci, rj, cj) = (i / n, i % n, j / n, j % n);
                    let v = g.cells()[i];
                    v != 0 && v == g.cells()[j]
                        && (ri == rj || ci == cj || (ri / b == rj / b && ci / b == cj / b))
                })
            });
            prop_assert_eq!(g.first_clash().is_some(), clash);
            prop_assert_eq!(g.first_clash(), g.clashes().first().copied());
        }

        #[test]
        fn conflicts_match_a_brute_force_pair_scan(g in any_grid()) {
            // Every pair of equal filled cells sharing a row, column or box, however found.
            let n = g.size();
            let b = g.box_size();
            let mut clashing_pairs = 0usize;
            for i in 0..n * n {
                for j in i + 1..n * n {
                    let (ri, ci, rj, cj) = (i / n, i % n, j / n, j % n);
                    let v = g.cells()[i];
                    if v != 0 && v == g.cells()[j]
                        && (ri == rj || ci == cj || (ri / b == rj / b && ci / b == cj / b))
                    {
                        clashing_pairs += 1;
                    }
                }
            }
            let conflicts = g.clashes();
            prop_assert_eq!(clashing_pairs == 0, conflicts.is_empty());
            prop_assert_eq!(g.first_clash(), conflicts.first().copied());
            for c in &conflicts {
                prop_assert_eq!(g.get(c.a.0, c.a.1), c.value);
                prop_assert_eq!(g.get(c.b.0, c.b.1), c.value);
                prop_assert!(c.a < c.b);
                let cells: Vec<_> = g.unit_cells(c.unit).collect();
                prop_assert!(cells.contains(&c.a) && cells.contains(&c.b));
            }
        }

        #[test]
        fn any_wrong_length_is_reported(len in 0usize..700) {
            prop_assume!(![16, 81, 256, 625].contains(&len));
            let e = Grid::parse_line(&".".repeat(len)).unwrap_err();
            let is_wrong_length = matches!(e, ParseError::WrongLength { found, .. } if found == len);
            prop_assert!(is_wrong_length);
        }
    }

    #[test]
    fn pattern_grids_have_no_conflicts() {
        for b in MIN_BOX_SIZE..=MAX_BOX_SIZE {
            let g = pattern(b);
            assert!(g.is_filled());
            assert_eq!(g.first_clash(), None, "box size {b}");
        }
    }
}
