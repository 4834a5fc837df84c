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
//!
//! The code is in three parts: the grid itself with its units and clashes (here), the
//! symbols of the two alphabets (`alphabet`), and the text forms read and written (`text`).

use std::fmt;
use std::ops::ControlFlow;

use serde::{Deserialize, Deserializer, Serialize};

mod alphabet;
mod text;

pub use alphabet::{Alphabet, char_value, value_char};
pub use text::ParseError;

/// The smallest supported box size (a 4x4 grid).
pub const MIN_BOX_SIZE: usize = 2;

/// The largest supported box size (a 25x25 grid).
pub const MAX_BOX_SIZE: usize = 5;

/// The largest value any supported grid can hold, and so the largest value that has a symbol.
pub const MAX_VALUE: u8 = (MAX_BOX_SIZE * MAX_BOX_SIZE) as u8;

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
}

#[cfg(test)]
mod tests;
