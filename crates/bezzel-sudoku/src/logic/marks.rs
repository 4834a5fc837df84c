//! Candidate grids as text (pencil marks): what a person has written in each cell, to ask
//! for the next step of a grid part way through, and how a grid of candidates is shown.
//!
//! The format is [`Candidates::from_marks`]'s; [`Candidates::to_marks`] writes it.

use super::{Candidates, values_of};
use std::fmt;

/// Why a candidate grid could not be read. Cells are `(row, column)`, from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MarksError {
    /// Neither 16 nor 81 cells.
    CellCount(usize),
    /// A cell (counted in row order, from 1) with something other than digits of the grid's
    /// values, or a digit twice.
    BadCell {
        /// The cell's number.
        number: usize,
        /// What was written there.
        text: String,
    },
    /// Two cells of a row, column or box hold the same value.
    Clash {
        /// The two cells.
        cells: [(usize, usize); 2],
        /// The value.
        value: u8,
    },
    /// An open cell whose candidates the placed values all rule out.
    NoCandidate((usize, usize)),
    /// Two open cells of a row, column or box left with the same one candidate: both
    /// cannot take it.
    SameLastCandidate {
        /// The two cells.
        cells: [(usize, usize); 2],
        /// The value.
        value: u8,
    },
    /// A value neither placed in a row, column or box nor a candidate of any of its cells.
    NoPlace {
        /// The unit: `row 3`, `column 5`, `box 9` (counted from 1).
        unit: String,
        /// The value.
        value: u8,
    },
}

impl fmt::Display for MarksError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MarksError::CellCount(k) => write!(
                f,
                "a candidate grid has 16 or 81 cells (each the digits of its candidates, \
                 separated by spaces), not {k}"
            ),
            MarksError::BadCell { number, text } => write!(
                f,
                "cell {number} of the candidate grid is {text:?}: it must be the digits of \
                 its candidates, each once"
            ),
            MarksError::Clash {
                cells: [a, b],
                value,
            } => write!(
                f,
                "{value} is placed twice in one unit, at r{}c{} and r{}c{}",
                a.0, a.1, b.0, b.1
            ),
            MarksError::NoCandidate((r, c)) => write!(
                f,
                "r{r}c{c} is open with no candidate that its placed peers leave"
            ),
            MarksError::SameLastCandidate {
                cells: [a, b],
                value,
            } => write!(
                f,
                "r{}c{} and r{}c{} share a unit and are both left with {value} alone: \
                 the candidates contradict each other",
                a.0, a.1, b.0, b.1
            ),
            MarksError::NoPlace { unit, value } => write!(
                f,
                "{unit} has no place left for {value}: the candidates contradict each other"
            ),
        }
    }
}

impl std::error::Error for MarksError {}

impl Candidates {
    /// Reads a candidate grid. The format: the cells in row order, each written as the
    /// digits of its candidates, cells separated by white space (any number of spaces and
    /// line ends). A cell with one digit holds that value; one with several digits is open
    /// with those candidates, and so is one written with a `.` before its digits (`.5`: open,
    /// 5 its only candidate). The characters `|`, `-` and `+` are ignored, so that the boxes
    /// can be drawn (and [`Candidates::to_marks`] output reads back), and so is everything
    /// from a `#` to the end of its line, as in puzzle files (a byte order mark at the
    /// start is skipped too). 4×4 (16 cells) and 9×9 (81 cells) grids, digits `1`-`9`. A
    /// candidate that a placed value of the same row, column or box rules out is dropped,
    /// as a person would cross it out. Marks that contradict themselves are refused: an
    /// open cell left with no candidate, two cells of a unit left with the same one, a
    /// value with no place in a unit.
    ///
    /// ```
    /// use bezzel_sudoku::grid::Grid;
    /// use bezzel_sudoku::logic::Candidates;
    ///
    /// let puzzle: Grid = "1...............".parse()?;
    /// let grid = Candidates::new(&puzzle);
    /// assert_eq!(Candidates::from_marks(&grid.to_marks())?, grid);
    /// assert_eq!(Candidates::from_marks("1 2 34 34  34 34 12 12  2 1 34 34  34 34 1 2")?.candidates(2), [3, 4]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_marks(text: &str) -> Result<Candidates, MarksError> {
        // As the puzzle reader does: a byte order mark skipped, a comment from its `#`.
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        let tokens: Vec<&str> = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or(""))
            .flat_map(|l| l.split(|c: char| c.is_whitespace() || "|-+".contains(c)))
            .filter(|t| !t.is_empty())
            .collect();
        let box_size = match tokens.len() {
            16 => 2,
            81 => 3,
            k => return Err(MarksError::CellCount(k)),
        };
        let n = box_size * box_size;
        let mut masks = Vec::with_capacity(n * n);
        let mut open = vec![false; n * n];
        for (cell, t) in tokens.iter().enumerate() {
            let mut mask = 0u32;
            let digits = match t.strip_prefix('.') {
                Some(digits) if !digits.is_empty() => {
                    open[cell] = true;
                    digits
                }
                _ => t,
            };
            for ch in digits.chars() {
                match ch.to_digit(10) {
                    Some(d) if (1..=n as u32).contains(&d) && mask & 1 << (d - 1) == 0 => {
                        mask |= 1 << (d - 1);
                    }
                    _ => {
                        return Err(MarksError::BadCell {
                            number: cell + 1,
                            text: t.to_string(),
                        });
                    }
                }
            }
            masks.push(mask);
        }
        let mut grid = Candidates::with_masks(box_size, masks);
        let at = |c: usize| (c / n + 1, c % n + 1);
        for (cell, &open) in open.iter().enumerate() {
            if grid.masks[cell].count_ones() == 1 && !open {
                let value = grid.masks[cell].trailing_zeros() as u8 + 1;
                if let Some(other) =
                    (0..cell).find(|&o| grid.values[o] == value && grid.sees(o, cell))
                {
                    return Err(MarksError::Clash {
                        cells: [at(other), at(cell)],
                        value,
                    });
                }
                grid.values[cell] = value;
            }
        }
        for cell in 0..n * n {
            if grid.values[cell] != 0 {
                grid.place(cell, grid.values[cell]);
            }
        }
        for cell in 0..n * n {
            if grid.values[cell] == 0 && grid.masks[cell] == 0 {
                return Err(MarksError::NoCandidate(at(cell)));
            }
        }
        let last = |c: usize| grid.values[c] == 0 && grid.masks[c].count_ones() == 1;
        for b in (0..n * n).filter(|&b| last(b)) {
            if let Some(a) =
                (0..b).find(|&a| last(a) && grid.masks[a] == grid.masks[b] && grid.sees(a, b))
            {
                return Err(MarksError::SameLastCandidate {
                    cells: [at(a), at(b)],
                    value: grid.masks[b].trailing_zeros() as u8 + 1,
                });
            }
        }
        for unit in 0..3 * n {
            let (once, _, placed) = grid.tally(unit);
            let missing = grid.full() & !(once | placed);
            if missing != 0 {
                let kind = ["row", "column", "box"][unit / n];
                return Err(MarksError::NoPlace {
                    unit: format!("{kind} {}", unit % n + 1),
                    value: missing.trailing_zeros() as u8 + 1,
                });
            }
        }
        Ok(grid)
    }

    /// The grid in the format [`Candidates::from_marks`] reads: a row per line, each cell's
    /// candidates (or its value) padded to the same width, `|` between boxes and a line of
    /// `-` and `+` between bands.
    pub fn to_marks(&self) -> String {
        let n = self.n;
        let width = (0..n * n)
            .map(|c| self.cell_text(c).len())
            .max()
            .unwrap_or(1);
        let mut rows = Vec::with_capacity(n + self.box_size);
        for r in 0..n {
            if r > 0 && r % self.box_size == 0 {
                let band = vec!["-".repeat((width + 1) * self.box_size + 1); self.box_size];
                rows.push(band.join("+").trim_matches(' ').to_string());
            }
            let mut row = String::new();
            for c in 0..n {
                if c > 0 && c % self.box_size == 0 {
                    row.push_str(" |");
                }
                row.push_str(&format!(" {:<width$}", self.cell_text(r * n + c)));
            }
            rows.push(row.trim_end().to_string());
        }
        rows.join("\n") + "\n"
    }

    /// A cell as text: its value, or its candidates' digits (or symbols past 9), after a
    /// `.` when there is only one, which would otherwise read back as a value.
    fn cell_text(&self, cell: usize) -> String {
        let symbol = |v: u8| crate::grid::Alphabet::FromOne.symbol(v).unwrap_or('?');
        if self.values[cell] != 0 {
            return symbol(self.values[cell]).to_string();
        }
        let digits: String = values_of(self.masks[cell])
            .into_iter()
            .map(symbol)
            .collect();
        if digits.chars().count() == 1 {
            format!(".{digits}")
        } else {
            digits
        }
    }

    /// The box size: 3 for a 9×9 grid.
    pub fn box_size(&self) -> usize {
        self.box_size
    }
}
