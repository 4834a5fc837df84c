//! The symbols of cell values: the default alphabet (`1`-`9`, then `A` = 10 up to `P` = 25,
//! `.` or `0` for an empty cell) and the one a symbol lower that hexadecimal collections
//! use (`0`-`F` for 1 to 16 on a 16x16 grid).

use super::MAX_VALUE;

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
