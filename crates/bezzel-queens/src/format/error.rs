//! Why input is not a placement ([`ParseError`], by line), and the escaping that makes quoting
//! input in a message harmless.

use std::fmt;

use super::{MAX_LINE, MAX_QUEENS};
use crate::check::PlacementError;

/// Why [`parse_placement`](super::parse_placement) refused its input. Lines are numbered from 1.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseError {
    /// No placement in the input at all.
    Empty,
    /// More than one placement, where [`read_placement`](super::read_placement) takes one.
    Several {
        /// At least this many placements were given: reading stops at the second, so
        /// that a long list is refused at once (the message says "more than one").
        found: usize,
    },
    /// The input could not be read.
    Read {
        /// Why, as the system says.
        reason: String,
    },
    /// A line that is not UTF-8 text.
    NotUtf8 {
        /// The line.
        line: usize,
    },
    /// A control character (other than tab and `\r`), which no form has.
    Control {
        /// The line.
        line: usize,
        /// The character.
        character: char,
    },
    /// A line longer than [`MAX_LINE`] bytes, more than any placement `check` takes.
    LineTooLong {
        /// The line.
        line: usize,
    },
    /// More than [`MAX_QUEENS`] queens.
    TooLarge {
        /// The line where the placement went over.
        line: usize,
    },
    /// A board with more rows than columns, refused at the first row too many.
    TooManyRows {
        /// The first row too many.
        line: usize,
        /// Squares per row.
        columns: usize,
    },
    /// A line starts with `NO.` but is not a label `NO.<k>:`.
    Label {
        /// The line.
        line: usize,
    },
    /// An item that is not a column number.
    Column {
        /// The line.
        line: usize,
        /// Which item of the placement it is, from 1.
        item: usize,
        /// The item as given (shortened if long).
        token: String,
    },
    /// A board row that is not made of `Q` and `.` with exactly one `Q`, or whose length
    /// differs from the rows above.
    BoardRow {
        /// The line.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A board whose number of rows differs from its number of columns.
    BoardShape {
        /// Rows given.
        rows: usize,
        /// Squares per row.
        columns: usize,
    },
    /// Board rows and column numbers in one placement.
    Mixed {
        /// The line where the second form starts.
        line: usize,
    },
    /// A JSON line that is not a placement object.
    Json {
        /// The line.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A line of an SVG picture that is not as the program draws one.
    Picture {
        /// The line.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A column outside the board, whose size is the number of columns.
    OutOfRange(PlacementError),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Tokens, board rows and JSON errors quote the input: escaped, so that a message
        // cannot carry a terminal escape sequence or a NUL to whoever reads it.
        let message = match self {
            Self::Empty => "no columns given (e.g. `queens check 1 3 0 2`)".to_string(),
            Self::Several { .. } => {
                "more than one placement given, but one is read here".to_string()
            }
            Self::Read { reason } => format!("cannot read the input: {reason}"),
            Self::NotUtf8 { line } => format!("line {line}: not UTF-8 text"),
            Self::Control { line, character } => format!(
                "line {line}: the control character `{}` is in no placement form",
                character.escape_default()
            ),
            Self::LineTooLong { line } => format!(
                "line {line} is longer than {MAX_LINE} bytes, more than any placement of at most {MAX_QUEENS} queens needs"
            ),
            Self::TooLarge { line } => {
                format!("line {line}: more than {MAX_QUEENS} queens, the most check takes")
            }
            Self::TooManyRows { line, columns } => format!(
                "line {line}: the board has more rows than its {columns} columns; it must be square"
            ),
            Self::Label { line } => format!(
                "line {line}: a label must be `NO.<number>:` with the colon, followed by the columns"
            ),
            Self::Column { line, item, token } => {
                format!("line {line}: item {item} is `{token}`, expected a column number (0-based)")
            }
            Self::BoardRow { line, reason } => format!("line {line}: {reason}"),
            Self::BoardShape { rows, columns } => {
                format!("the board has {rows} rows of {columns} squares; it must be square")
            }
            Self::Mixed { line } => {
                format!("line {line}: board rows and column numbers mixed in one placement")
            }
            Self::Json { line, reason } => format!("line {line}: {reason}"),
            Self::Picture { line, reason } => format!("line {line}: {reason}"),
            Self::OutOfRange(e) => e.to_string(),
        };
        f.write_str(&escape(&message))
    }
}

/// `text` with control characters, and the invisible ones that reorder or hide text,
/// written as Rust escapes (`\u{1b}`), so that quoting input in a message is harmless.
pub fn escape(text: &str) -> String {
    let hidden = |c: char| {
        c.is_control()
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
    };
    if !text.contains(hidden) {
        return text.to_string();
    }
    let mut s = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hidden(c) {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    s
}

impl std::error::Error for ParseError {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ParseError: {self}")
    }
}
