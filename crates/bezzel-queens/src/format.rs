//! Text forms of placements, written by the command line and read back by its `check`.
//!
//! A placement is the 0-based column of each row's queen, top row first. It is printed in
//! one of three forms, and [`parse_placement`] reads each of them back:
//!
//! - text, the form of the classic programs: `NO.1: 0 4 7 5 2 6 1 3` ([`text`]);
//! - the board, a `NO.1:` line and then one line per row, `Q` for the queen and `.`
//!   elsewhere ([`board`], [`write_board`]);
//! - JSON, one object per line: `{"n":8,"index":1,"placement":[0,4,7,5,2,6,1,3]}`
//!   ([`json`]).
//!
//! The program also draws placements as SVG pictures ([`svg`](mod@crate::svg)); the readers
//! take those back too, so that `check` reads whatever the program printed.
//!
//! [`write_placement`] writes any of them, [`write_check`] what `queens check` says of a
//! placement; [`read_placement`] reads one placement from a stream, [`Placements`] many, and
//! [`check_placements`] checks them all.

use std::fmt::{self, Write as _};
use std::io;

use crate::check::{self, PlacementError};

/// `NO.<index>: c0 c1 ...`, the form of the classic programs.
pub fn text(index: u64, placement: &[usize]) -> String {
    let mut s = format!("NO.{index}:");
    for c in placement {
        let _ = write!(s, " {c}");
    }
    s
}

/// The board, one line per row, `Q` for the queen and `.` elsewhere, separated by spaces.
///
/// The string has `2 n²` bytes, too many for a large board: [`write_board`] streams it.
pub fn board(placement: &[usize]) -> String {
    let mut s = Vec::with_capacity(placement.len() * 2 * placement.len());
    write_board(&mut s, placement).expect("writing to a Vec cannot fail");
    String::from_utf8(s).expect("the board is ASCII")
}

/// Writes [`board`] to `w` row by row, in memory for one row (`2 n` bytes) whatever the
/// board size. A column outside `0..n` leaves its row without a queen.
pub fn write_board(w: &mut impl io::Write, placement: &[usize]) -> io::Result<()> {
    let n = placement.len();
    // Every row is ". . . . \n" with one dot turned into a Q.
    let mut row: Vec<u8> = (0..n)
        .flat_map(|col| [b'.', if col + 1 == n { b'\n' } else { b' ' }])
        .collect();
    for &c in placement {
        let square = c.checked_mul(2).filter(|&i| i < row.len());
        if let Some(i) = square {
            row[i] = b'Q';
        }
        w.write_all(&row)?;
        if let Some(i) = square {
            row[i] = b'.';
        }
    }
    Ok(())
}

/// `{"n":<n>,"index":<index>,"placement":[c0,c1,...]}`, one line of the JSON form.
pub fn json(index: u64, placement: &[usize]) -> String {
    let mut s = format!(
        "{{\"n\":{},\"index\":{index},\"placement\":[",
        placement.len()
    );
    for (i, c) in placement.iter().enumerate() {
        let _ = write!(s, "{}{c}", if i == 0 { "" } else { "," });
    }
    s.push_str("]}");
    s
}

/// The printed forms of a placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Form {
    /// `NO.1: 0 4 7 5 2 6 1 3` ([`text`]).
    Text,
    /// A `NO.1:` line, the board ([`write_board`]) and a blank line.
    Board,
    /// One JSON object per line ([`json`]).
    Json,
}

/// Writes placement number `index` in `form`, column by column (the board row by row): a
/// copy of the text in memory would take more than the placement itself (about 80 MB more
/// for 10,000,000 queens, and `2 n²` bytes for the board). `w` should be buffered.
pub fn write_placement(
    w: &mut impl io::Write,
    form: Form,
    index: u64,
    placement: &[usize],
) -> io::Result<()> {
    match form {
        Form::Text => {
            write!(w, "NO.{index}:")?;
            for c in placement {
                write!(w, " {c}")?;
            }
            writeln!(w)
        }
        Form::Board => {
            writeln!(w, "NO.{index}:")?;
            write_board(w, placement)?;
            writeln!(w)
        }
        Form::Json => {
            write!(
                w,
                "{{\"n\":{},\"index\":{index},\"placement\":[",
                placement.len()
            )?;
            for (i, c) in placement.iter().enumerate() {
                write!(w, "{}{c}", if i == 0 { "" } else { "," })?;
            }
            writeln!(w, "]}}")
        }
    }
}

/// The JSON line of a count: `{"n":8,"count":92,"engine":"symmetry"}`, with `"unique":12`
/// after it when the unique count is given.
pub fn count_json(n: usize, count: u64, engine: &str, unique: Option<u64>) -> String {
    let engine = serde_json::to_string(engine).expect("a string");
    match unique {
        Some(unique) => {
            format!("{{\"n\":{n},\"count\":{count},\"engine\":{engine},\"unique\":{unique}}}")
        }
        None => format!("{{\"n\":{n},\"count\":{count},\"engine\":{engine}}}"),
    }
}

/// Writes what `queens check` says of a placement, and returns whether it is a solution:
/// as text, `solution: ...` or `not a solution: K attacking pair(s)` and at most `shown` of
/// the pairs, one per line (for placement `index` of several, prefixed with `placement
/// <index>: `, and nothing for a solution); or as one JSON object,
/// `{"index":..,"n":..,"solution":..,"attacking_pairs":..,"attacks":[..]}` (`index` only for
/// one of several). The pairs are written as they are found, in memory for the placement,
/// however many there are.
pub fn write_check(
    w: &mut impl io::Write,
    index: Option<u64>,
    placement: &[usize],
    shown: u64,
    form_json: bool,
) -> io::Result<bool> {
    let attacks = check::attacks(placement);
    let total = attacks.total();
    let listed = attacks.take(usize::try_from(shown).unwrap_or(usize::MAX));
    let n = placement.len();
    let solution = total == 0;
    if form_json {
        write!(w, "{{")?;
        if let Some(i) = index {
            write!(w, "\"index\":{i},")?;
        }
        write!(
            w,
            "\"n\":{n},\"solution\":{solution},\"attacking_pairs\":{total},\"attacks\":["
        )?;
        for (i, a) in listed.enumerate() {
            let a = serde_json::to_string(&a).expect("plain data");
            write!(w, "{}{a}", if i == 0 { "" } else { "," })?;
        }
        writeln!(w, "]}}")?;
        return Ok(solution);
    }
    if solution {
        if index.is_none() {
            writeln!(w, "solution: no two of the {n} queens attack each other")?;
        }
        return Ok(true);
    }
    if let Some(i) = index {
        write!(w, "placement {i}: ")?;
    }
    writeln!(w, "not a solution: {total} attacking pair(s)")?;
    let mut count = 0u64;
    for a in listed {
        let line = match a.kind {
            check::AttackKind::Column => "a column",
            check::AttackKind::Diagonal => "a diagonal",
            check::AttackKind::AntiDiagonal => "an anti-diagonal",
        };
        writeln!(
            w,
            "  rows {} and {} (columns {} and {}) share {line}",
            a.a, a.b, placement[a.a], placement[a.b]
        )?;
        count += 1;
    }
    if total > count {
        writeln!(w, "  ... and {} more (--limit shows more)", total - count)?;
    }
    Ok(false)
}

/// What [`check_placements`] found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Checked {
    /// Placements read (the malformed ones included).
    pub checked: u64,
    /// Placements read well that are not solutions.
    pub not_solutions: u64,
    /// Placements that could not be read.
    pub malformed: u64,
}

/// Checks every placement in `input` (any printed form, read by [`Placements`] in memory for
/// one) and writes what `queens check` says to `w` ([`write_check`], at most `shown` attacking
/// pairs each). One placement is answered as such; of several, each that is not a solution is
/// named by its number, and a summary line follows: `92 placements checked: all are
/// solutions`, or in JSON `{"checked":92,"not_solutions":0,"malformed":0}`. A placement that
/// cannot be read is handed to `malformed` with its number (`None` when it is the only one),
/// after `w` is flushed, so that a message on another stream comes in order.
///
/// Input without any placement is [`ParseError::Empty`], handed to `malformed`, unless it is
/// what the program prints for a board without solutions (`queens 3` prints `0 solutions`,
/// `queens first 3` nothing; see [`Placements::said_none`]): that is a list of none, all of
/// them solutions, answered `0 placements checked` (JSON:
/// `{"checked":0,"not_solutions":0,"malformed":0}`).
pub fn check_placements(
    input: impl io::BufRead,
    w: &mut impl io::Write,
    shown: u64,
    json: bool,
    mut malformed: impl FnMut(Option<u64>, ParseError),
) -> io::Result<Checked> {
    let mut placements = Placements::new(input);
    let first = placements.next();
    if first.is_none() && placements.said_none() {
        if json {
            writeln!(w, "{{\"checked\":0,\"not_solutions\":0,\"malformed\":0}}")?;
        } else {
            writeln!(w, "0 placements checked")?;
        }
        return Ok(Checked::default());
    }
    let first = first.unwrap_or(Err(ParseError::Empty));
    let second = placements.next();
    let several = second.is_some();
    let mut found = Checked::default();
    for read in std::iter::once(first).chain(second).chain(placements) {
        found.checked += 1;
        let number = several.then_some(found.checked);
        match read {
            Ok(p) => found.not_solutions += u64::from(!write_check(w, number, &p, shown, json)?),
            Err(e) => {
                w.flush()?;
                malformed(number, e);
                found.malformed += 1;
            }
        }
    }
    if !several {
        return Ok(found);
    }
    let Checked {
        checked,
        not_solutions: bad,
        malformed,
    } = found;
    if json {
        writeln!(
            w,
            "{{\"checked\":{checked},\"not_solutions\":{bad},\"malformed\":{malformed}}}"
        )?;
    } else if bad + malformed == 0 {
        writeln!(w, "{checked} placements checked: all are solutions")?;
    } else {
        let verb = if bad == 1 {
            "is not a solution"
        } else {
            "are not solutions"
        };
        write!(w, "{checked} placements checked: {bad} {verb}")?;
        if malformed > 0 {
            write!(w, ", {malformed} malformed")?;
        }
        writeln!(w)?;
    }
    Ok(found)
}

/// Why [`parse_placement`] refused its input. Lines are numbered from 1.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseError {
    /// No placement in the input at all.
    Empty,
    /// More than one placement, where [`read_placement`] takes one.
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

/// What a placement is being built from.
#[derive(Debug)]
enum Partial {
    /// A label with nothing after it yet.
    Label,
    /// Column numbers.
    Columns(Vec<usize>),
    /// Board rows: the queen's column in each, and the row length.
    Board(Vec<usize>, usize),
    /// A whole placement from one JSON line.
    Done(Vec<usize>),
    /// A board of an SVG picture, from its `<g>` line: the side of the board and of a square
    /// once read, and the queens' columns, row by row.
    Picture {
        line: usize,
        side: Option<f64>,
        square: Option<f64>,
        columns: Vec<usize>,
    },
}

/// One JSON line: a placement, or the summary after the placements (`count`, `engine`,
/// `unique`). Read straight into this, not through a `serde_json::Value`, which would cost
/// several times the placement's memory; unknown fields are refused.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonLine {
    n: Option<usize>,
    #[allow(dead_code)]
    index: Option<u64>,
    placement: Option<Vec<usize>>,
    count: Option<serde_json::Value>,
    engine: Option<serde::de::IgnoredAny>,
    unique: Option<serde_json::Value>,
}

/// What a JSON line holds.
enum JsonItem {
    /// A placement.
    Placement(Vec<usize>),
    /// The summary after the placements; whether it says the board has no solutions.
    Summary { says_none: bool },
}

/// The most queens [`read_placement`] accepts: a placement of this many costs `check` a few
/// hundred megabytes, and refusing more keeps the memory for any input bounded.
pub const MAX_QUEENS: usize = 10_000_000;

/// The longest line [`read_placement`] accepts, in bytes: the text form of [`MAX_QUEENS`]
/// queens (columns of at most 7 digits and a separator each), with room for a label or the
/// JSON around it. Longer lines are refused before they are read whole.
pub const MAX_LINE: usize = 8 * MAX_QUEENS + 1024;

/// Reads one placement in any form the queens command prints, and checks that it fits its
/// board (every column in `0..n`, where `n` is the number of columns).
///
/// The contract, for callers and fuzzers alike: any `&str` is accepted as input, and the
/// answer is either a placement of `n >= 1` columns, each below `n`, or a [`ParseError`]
/// whose message is one line; there is no panic, and memory and time are linear in the
/// input's length. It is [`read_placement`] on the bytes of `text`, which see for the forms
/// read.
pub fn parse_placement(text: &str) -> Result<Vec<usize>, ParseError> {
    read_placement(text.as_bytes())
}

/// Reads one placement from `input` line by line, in memory for the placement and one line
/// (a board row of `n` squares is `2 n` bytes), whatever the input: lines longer than
/// [`MAX_LINE`] and placements of more than [`MAX_QUEENS`] queens are refused as soon as
/// they are seen, as are control characters, a board with more rows than columns, and a
/// second placement, so that `check < /dev/zero` ends at once with a message.
///
/// The forms read:
///
/// - a leading UTF-8 byte-order mark, surrounding whitespace, `\r` line ends and blank
///   lines are ignored, except that a blank line ends a placement: `1 3 0 2`, a blank line
///   and `2 0 3 1` are two placements, not one of eight queens;
/// - `NO.<k>:` starts a placement, with its columns after the colon (the text form) or on
///   the following lines as board rows, numbers or one JSON line (`NO.1` without the
///   colon is an error);
/// - column numbers are separated by whitespace or commas, and may run over several lines;
/// - a board row is `Q` and `.` squares separated by spaces (or not), exactly one `Q`;
/// - a line starting with `{` is the JSON form, a whole placement; a JSON line with a
///   `count` and no `placement` is the summary that follows the placements and is ignored,
///   like the text summaries `92 solutions`, `1 solution shown (limit 1)` and
///   `12 unique solutions (92 in total)` (a summary also ends a placement);
/// - a line starting with `<` is a line of an SVG picture as [`svg`](mod@crate::svg) draws
///   it, one line an element: each board a `<g>` holding its `<rect>` and a queen's `<use>`
///   for each row, in row order, whose `x` and `y` are the column and the row times the
///   square's side; the other elements are passed over.
///
/// Exactly one placement must be given: a second is refused as soon as it is read.
/// [`Placements`] reads any number.
pub fn read_placement(input: impl io::BufRead) -> Result<Vec<usize>, ParseError> {
    let mut placements = Placements::new(input);
    placements.reader.stream = false;
    let placement = placements
        .next_unchecked()
        .unwrap_or(Err(ParseError::Empty))?;
    // The reader refuses a second placement as soon as it is read; what is left is the end.
    // Only then is the first checked against its board: "more than one" is the first thing
    // wrong with two placements.
    if let Some(Err(e)) = placements.next_unchecked() {
        return Err(e);
    }
    if placement.is_empty() {
        return Err(ParseError::Empty);
    }
    check::validate(&placement).map_err(ParseError::OutOfRange)?;
    Ok(placement)
}

/// Reads placements one after another from `input`, in any form the queens command prints
/// (the forms of [`read_placement`]; `queens 8 | queens check` checks all 92), with memory for
/// one placement and one line at a time, whatever the input: the limits of [`read_placement`]
/// hold for each placement. The summaries the program prints (`92 solutions`, the JSON count
/// line) are skipped.
///
/// Each item is a placement that fits its board, or why not. After an error in the text
/// itself (a line that is no placement form, a torn board), the reader cannot tell where the
/// next placement starts, so that error is the last item; a placement that reads well but does
/// not fit its board (a column off it) or a label with no placement is reported, and reading
/// goes on.
///
/// ```
/// use bezzel_queens::format::Placements;
///
/// let printed = "NO.1: 1 3 0 2\nNO.2: 2 0 3 1\n2 solutions\n";
/// let read: Vec<Vec<usize>> = Placements::new(printed.as_bytes()).collect::<Result<_, _>>()?;
/// assert_eq!(read, [vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
/// # Ok::<(), bezzel_queens::format::ParseError>(())
/// ```
#[derive(Debug)]
pub struct Placements<R> {
    input: R,
    reader: Reader,
    buf: Vec<u8>,
    line: usize,
    ended: bool,
    /// An error met while a finished placement was still to be handed out: it comes next.
    failed: Option<ParseError>,
}

impl<R: io::BufRead> Placements<R> {
    /// A reader of the placements in `input`.
    pub fn new(input: R) -> Placements<R> {
        Placements {
            input,
            reader: Reader {
                done: None,
                current: None,
                stream: true,
                seen_one: false,
                said_none: false,
                said_something: false,
                boards_in_picture: None,
            },
            buf: Vec::new(),
            line: 0,
            ended: false,
            failed: None,
        }
    }

    /// The number of the last line read (from 1).
    pub fn line(&self) -> usize {
        self.line
    }

    /// Whether the input so far is what the program prints for a board without solutions:
    /// the summary `0 solutions` or `0 unique solutions (0 in total)`, the JSON summary of a
    /// count of 0, an SVG picture of no board, or nothing at all (`queens first 3` prints
    /// nothing on stdout). With no placement read, the input is then a list of none.
    pub fn said_none(&self) -> bool {
        self.reader.said_none || !self.reader.said_something
    }

    /// The next placement as read, not yet checked against its board.
    fn next_unchecked(&mut self) -> Option<Result<Vec<usize>, ParseError>> {
        loop {
            if let Some(placement) = self.reader.done.take() {
                return Some(Ok(placement));
            }
            if let Some(e) = self.failed.take() {
                return Some(Err(e));
            }
            if self.ended {
                return None;
            }
            self.line += 1;
            self.buf.clear();
            let read = read_line(&mut self.input, &mut self.buf, self.line).and_then(|more| {
                if !more {
                    self.ended = true;
                    return self.reader.finish();
                }
                let text = std::str::from_utf8(&self.buf)
                    .map_err(|_| ParseError::NotUtf8 { line: self.line })?;
                let text = if self.line == 1 {
                    text.strip_prefix('\u{feff}').unwrap_or(text)
                } else {
                    text
                };
                self.reader.line(text, self.line)
            });
            if let Err(e) = read {
                // Where the next placement starts is not known: nothing more is read. A
                // placement that the bad line ended (`NO.2: ...` closes `NO.1`) is whole, and
                // comes first.
                self.ended = true;
                self.failed = Some(e);
                // A JSON line is whole by itself, even before the next line says so.
                if self.reader.done.is_none()
                    && let Some(Partial::Done(placement)) = self.reader.current.take()
                {
                    self.reader.done = Some(placement);
                }
            }
        }
    }
}

impl<R: io::BufRead> Iterator for Placements<R> {
    type Item = Result<Vec<usize>, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.next_unchecked()?.and_then(|placement| {
            if placement.is_empty() {
                return Err(ParseError::Empty);
            }
            check::validate(&placement).map_err(ParseError::OutOfRange)?;
            Ok(placement)
        }))
    }
}

/// Reads one line (without its `\n`) into `buf`, refusing control characters and lines
/// longer than [`MAX_LINE`] before reading further; false at the end of the input.
fn read_line(
    input: &mut impl io::BufRead,
    buf: &mut Vec<u8>,
    line: usize,
) -> Result<bool, ParseError> {
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(ParseError::Read {
                    reason: e.to_string(),
                });
            }
        };
        if chunk.is_empty() {
            return Ok(any);
        }
        any = true;
        let (part, newline) = match chunk.iter().position(|&b| b == b'\n') {
            Some(end) => (&chunk[..end], true),
            None => (chunk, false),
        };
        // Tabs, `\r` and the vertical whitespace that `str::trim` knows are separators;
        // every other control character is in no form, and would garble a message.
        if let Some(&b) = part
            .iter()
            .find(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\r' | 0x0b | 0x0c)) || b == 0x7f)
        {
            return Err(ParseError::Control {
                line,
                character: char::from(b),
            });
        }
        if buf.len() + part.len() > MAX_LINE {
            return Err(ParseError::LineTooLong { line });
        }
        buf.extend_from_slice(part);
        let used = part.len() + usize::from(newline);
        input.consume(used);
        if newline {
            return Ok(true);
        }
    }
}

/// The placement being read, and the one read before it.
#[derive(Debug)]
struct Reader {
    /// A finished placement, not yet taken.
    done: Option<Vec<usize>>,
    /// The placement being read.
    current: Option<Partial>,
    /// Whether several placements are read (a finished one is taken before the next line);
    /// if not, a second one is refused as soon as it starts.
    stream: bool,
    /// Whether a placement was finished.
    seen_one: bool,
    /// Whether a summary said that the board has no solutions ([`says_none`], the JSON
    /// summary of a count of 0, or an SVG picture of no board).
    said_none: bool,
    /// Whether any line held more than whitespace.
    said_something: bool,
    /// Boards read in the SVG picture being read, if one is.
    boards_in_picture: Option<usize>,
}

impl Reader {
    /// Moves the placement being read to `done`, refusing a second one.
    fn finish(&mut self) -> Result<(), ParseError> {
        let placement = match self.current.take() {
            None => return Ok(()),
            Some(Partial::Label) => Vec::new(),
            Some(Partial::Columns(columns) | Partial::Done(columns)) => columns,
            Some(Partial::Picture { line, .. }) => {
                let reason = "the board drawn from here has no `</g>` to end it".to_string();
                return Err(ParseError::Picture { line, reason });
            }
            Some(Partial::Board(rows, columns)) => {
                if rows.len() != columns {
                    return Err(ParseError::BoardShape {
                        rows: rows.len(),
                        columns,
                    });
                }
                rows
            }
        };
        if self.done.is_some() || (!self.stream && self.seen_one) {
            return Err(ParseError::Several { found: 2 });
        }
        self.seen_one = true;
        self.done = Some(placement);
        Ok(())
    }

    /// Ends the placement being read unless it is a label still waiting for its placement.
    fn end_placement(&mut self) -> Result<(), ParseError> {
        if matches!(self.current, Some(Partial::Label)) {
            return Ok(());
        }
        self.finish()
    }

    /// Takes in one line of an SVG picture as the program draws it ([`crate::svg`]): each
    /// board is a `<g>` element holding the board's `<rect>` and a `<use>` of the queen for
    /// each row, in row order, at `x` = column times the square's side and `y` = row times
    /// it; the other elements (the header, the shared definitions, captions, the shading of
    /// `--attacks`) say nothing of the placements. A picture of no board is a list of none.
    fn markup(&mut self, text: &str, line: usize) -> Result<(), ParseError> {
        let error = |reason: String| ParseError::Picture { line, reason };
        let tag = text[1..]
            .split(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .next()
            .unwrap_or("");
        let in_picture = matches!(self.current, Some(Partial::Picture { .. }));
        let closing = text.starts_with("</");
        match (tag, closing) {
            ("svg", false) => {
                self.end_placement()?;
                self.boards_in_picture = Some(0);
            }
            ("", true) if text.starts_with("</svg>") => {
                if in_picture {
                    return Err(error("the picture ends inside a board".into()));
                }
                self.said_none |= self.boards_in_picture == Some(0);
                self.boards_in_picture = None;
            }
            ("", true) if text.starts_with("</g>") => {
                let Some(Partial::Picture {
                    side,
                    square,
                    columns,
                    ..
                }) = self.current.take()
                else {
                    return Err(error("`</g>` ends no board".into()));
                };
                let side = side.ok_or_else(|| error("the board has no `<rect>`".into()))?;
                let rows = match square {
                    Some(square) => whole_squares(side, square),
                    None if side == 0.0 => Some(0),
                    None => None,
                };
                if rows != Some(columns.len()) {
                    return Err(error(format!(
                        "the board is {side} wide, but has {} queens, one a row",
                        columns.len()
                    )));
                }
                self.current = Some(Partial::Done(columns));
                self.finish()?;
            }
            ("g", false) => {
                if self.boards_in_picture.is_none() {
                    return Err(error("a board `<g>` outside an `<svg>` picture".into()));
                }
                self.finish()?;
                self.boards_in_picture = self.boards_in_picture.map(|b| b + 1);
                self.current = Some(Partial::Picture {
                    line,
                    side: None,
                    square: None,
                    columns: Vec::new(),
                });
            }
            ("rect", false) if in_picture => {
                let Some(Partial::Picture { side, .. }) = &mut self.current else {
                    unreachable!("in a picture");
                };
                if side.is_none() {
                    let width = number_attribute(text, "width")
                        .ok_or_else(|| error("a board's `<rect>` has no width".into()))?;
                    *side = Some(width);
                }
            }
            ("use", false) => {
                let Some(Partial::Picture {
                    square, columns, ..
                }) = &mut self.current
                else {
                    return Err(error("a queen `<use>` outside a board `<g>`".into()));
                };
                let [x, y, width] = ["x", "y", "width"].map(|name| number_attribute(text, name));
                let (Some(x), Some(y), Some(width)) = (x, y, width) else {
                    return Err(error("a queen `<use>` needs its x, y and width".into()));
                };
                let square = *square.get_or_insert(width);
                if width != square || square <= 0.0 {
                    return Err(error("the queens of one board differ in size".into()));
                }
                if whole_squares(y, square) != Some(columns.len()) {
                    let row = columns.len();
                    return Err(error(format!(
                        "expected the queen of row {row} (queens come row by row, one each)"
                    )));
                }
                let column = whole_squares(x, square)
                    .ok_or_else(|| error(format!("a queen at x = {x} is on no column")))?;
                if columns.len() == MAX_QUEENS {
                    return Err(ParseError::TooLarge { line });
                }
                columns.push(column);
            }
            // The header, the shared definitions, captions and the shading: nothing of the
            // placements.
            ("?xml" | "defs" | "pattern" | "symbol" | "text" | "path", false) => {}
            ("", true) if text.starts_with("</defs>") => {}
            _ => {
                let shown = shorten(text);
                return Err(error(format!(
                    "`{shown}` is in no placement form (an SVG picture has <svg>, <g>, <rect> and <use>)"
                )));
            }
        }
        Ok(())
    }

    /// Takes in one line of the input, the `line`th.
    fn line(&mut self, raw: &str, line: usize) -> Result<(), ParseError> {
        let trimmed = raw.trim();
        self.said_none |= says_none(trimmed);
        self.said_something |= !trimmed.is_empty();
        if trimmed.is_empty() || is_summary(trimmed) {
            // What separates placements in the printed forms: `1 3 0 2`, a blank line and
            // `2 0 3 1` are two placements, not one of 8 queens.
            return self.end_placement();
        }
        if trimmed.starts_with('<') {
            return self.markup(trimmed, line);
        }
        if let Some(Partial::Picture { .. }) = self.current {
            return Err(ParseError::Mixed { line });
        }
        if let Some(rest) = trimmed.strip_prefix("NO.") {
            let (number, after) = rest.split_once(':').ok_or(ParseError::Label { line })?;
            if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParseError::Label { line });
            }
            self.finish()?;
            let after = after.trim();
            self.current = Some(if after.is_empty() {
                Partial::Label
            } else {
                let mut columns = Vec::new();
                push_columns(after, line, &mut columns)?;
                Partial::Columns(columns)
            });
            return Ok(());
        }
        if trimmed.starts_with('{') {
            let placement = match parse_json(trimmed, line)? {
                JsonItem::Placement(placement) => placement,
                JsonItem::Summary { says_none } => {
                    self.said_none |= says_none;
                    return self.end_placement();
                }
            };
            // A label followed by a JSON line labels that placement: one placement.
            if !matches!(self.current, Some(Partial::Label)) {
                self.finish()?;
            }
            self.current = Some(Partial::Done(placement));
            return Ok(());
        }
        if trimmed.starts_with(['Q', '.']) {
            let (queen, width) = parse_board_row(trimmed, line)?;
            match &mut self.current {
                Some(Partial::Board(rows, columns)) => {
                    if width != *columns {
                        return Err(ParseError::BoardRow {
                            line,
                            reason: format!(
                                "this row has {width} squares, the rows above {columns}"
                            ),
                        });
                    }
                    if rows.len() == *columns {
                        // Refused at once: the rest could be endless.
                        return Err(ParseError::TooManyRows {
                            line,
                            columns: *columns,
                        });
                    }
                    rows.push(queen);
                }
                Some(Partial::Columns(_) | Partial::Picture { .. }) => {
                    return Err(ParseError::Mixed { line });
                }
                Some(Partial::Done(_)) | None | Some(Partial::Label) => {
                    if matches!(self.current, Some(Partial::Done(_))) {
                        self.finish()?;
                    }
                    self.current = Some(Partial::Board(vec![queen], width));
                }
            }
            return Ok(());
        }
        match &mut self.current {
            Some(Partial::Columns(columns)) => push_columns(trimmed, line, columns)?,
            Some(Partial::Board(..) | Partial::Picture { .. }) => {
                return Err(ParseError::Mixed { line });
            }
            Some(Partial::Done(_)) | None | Some(Partial::Label) => {
                if matches!(self.current, Some(Partial::Done(_))) {
                    self.finish()?;
                }
                let mut columns = Vec::new();
                push_columns(trimmed, line, &mut columns)?;
                self.current = Some(Partial::Columns(columns));
            }
        }
        Ok(())
    }
}

/// Whether `line` is the summary printed for a board without solutions: `0 solutions`
/// (`queens 3`) or `0 unique solutions (0 in total)` (`queens unique 3 --list`). Not
/// `0 solutions shown (limit 0)`, which says nothing of the board.
fn says_none(line: &str) -> bool {
    let zero = |s: &str| !s.is_empty() && s.bytes().all(|b| b == b'0');
    let words: Vec<&str> = line.split_whitespace().take(7).collect();
    match words.as_slice() {
        [count, "solutions"] => zero(count),
        [unique, "unique", "solutions", total, "in", "total)"] => {
            zero(unique) && total.strip_prefix('(').is_some_and(zero)
        }
        _ => false,
    }
}

/// Whether `line` is one of the summaries printed after the placements.
fn is_summary(line: &str) -> bool {
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    // Summaries have at most six words; a long line of columns is not collected here.
    let words: Vec<&str> = line.split_whitespace().take(7).collect();
    match words.as_slice() {
        [count, "solutions" | "solution"] => number(count),
        [count, "solutions" | "solution", "shown", "(limit", limit] => {
            number(count) && limit.strip_suffix(')').is_some_and(number)
        }
        // `1 unique solution (2 in total)`, singular since the count is 1.
        [
            unique,
            "unique",
            "solutions" | "solution",
            total,
            "in",
            "total)",
        ] => number(unique) && total.strip_prefix('(').is_some_and(number),
        _ => false,
    }
}

/// Appends the column numbers of `text` (one line) to `columns`.
fn push_columns(text: &str, line: usize, columns: &mut Vec<usize>) -> Result<(), ParseError> {
    for token in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
    {
        let column = if token.bytes().all(|b| b.is_ascii_digit()) {
            token.parse::<usize>().ok()
        } else {
            None
        };
        match column {
            Some(_) if columns.len() == MAX_QUEENS => {
                return Err(ParseError::TooLarge { line });
            }
            Some(column) => columns.push(column),
            None => {
                return Err(ParseError::Column {
                    line,
                    item: columns.len() + 1,
                    token: shorten(token),
                });
            }
        }
    }
    Ok(())
}

/// The queen's column and the number of squares of one board row.
fn parse_board_row(text: &str, line: usize) -> Result<(usize, usize), ParseError> {
    let mut queen = None;
    let mut width = 0;
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        match c {
            'Q' if queen.is_some() => {
                return Err(ParseError::BoardRow {
                    line,
                    reason: "a board row must have exactly one Q, this one has more".into(),
                });
            }
            'Q' => queen = Some(width),
            '.' => {}
            other => {
                return Err(ParseError::BoardRow {
                    line,
                    reason: format!("a board row is made of `Q` and `.`, this one has `{other}`"),
                });
            }
        }
        width += 1;
    }
    if width > MAX_QUEENS {
        return Err(ParseError::TooLarge { line });
    }
    let queen = queen.ok_or_else(|| ParseError::BoardRow {
        line,
        reason: "a board row must have exactly one Q, this one has none".into(),
    })?;
    Ok((queen, width))
}

/// The placement of a JSON line, or the summary line.
fn parse_json(text: &str, line: usize) -> Result<JsonItem, ParseError> {
    let error = |reason: String| ParseError::Json { line, reason };
    let parsed: JsonLine = serde_json::from_str(text).map_err(|e| {
        error(match e.classify() {
            serde_json::error::Category::Data => {
                format!("expected {{\"n\": N, \"index\": K, \"placement\": [columns]}}: {e}")
            }
            _ => format!("not valid JSON: {e}"),
        })
    })?;
    let summary = parsed.count.is_some() || parsed.engine.is_some() || parsed.unique.is_some();
    let placement = match parsed.placement {
        // The summary line after the placements.
        None if parsed.count.is_some() => {
            let zero = serde_json::Value::from(0);
            let says_none = parsed.count.as_ref() == Some(&zero)
                && parsed.unique.as_ref().is_none_or(|u| *u == zero);
            return Ok(JsonItem::Summary { says_none });
        }
        None => {
            return Err(error(
                "expected {\"n\": N, \"index\": K, \"placement\": [columns]}: no \"placement\""
                    .into(),
            ));
        }
        Some(_) if summary => {
            return Err(error(
                "a placement line has no \"count\", \"engine\" or \"unique\"".into(),
            ));
        }
        Some(placement) => placement,
    };
    if placement.len() > MAX_QUEENS {
        return Err(ParseError::TooLarge { line });
    }
    if let Some(n) = parsed.n
        && n != placement.len()
    {
        return Err(error(format!(
            "\"n\" is {n} but the placement has {} columns",
            placement.len()
        )));
    }
    Ok(JsonItem::Placement(placement))
}

/// The value of the attribute `name="..."` of one SVG element's text, as a number.
fn number_attribute(element: &str, name: &str) -> Option<f64> {
    let start = element.find(&format!(" {name}=\""))? + name.len() + 3;
    let value = &element[start..];
    let value = &value[..value.find('"')?];
    value.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// How many squares of side `square` make `length`, when it is a whole number of them (as the
/// program draws; a little rounding allowed).
fn whole_squares(length: f64, square: f64) -> Option<usize> {
    let squares = (length / square).round();
    let whole = (length - squares * square).abs() <= 1e-6 * square;
    (whole && (0.0..=MAX_QUEENS as f64).contains(&squares)).then_some(squares as usize)
}

/// `token`, cut to a length that fits in a one-line message.
fn shorten(token: &str) -> String {
    const MAX: usize = 40;
    match token.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}...", &token[..cut]),
        None => token.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_read_back_as_the_placements_drawn() {
        use crate::svg;
        let placements = vec![vec![1, 3, 0, 2], vec![0, 1, 2, 3], vec![4, 0, 3, 1, 2]];
        for attacks in [false, true] {
            let options = svg::Options {
                attacks,
                ..svg::Options::fitted(5)
            };
            let sheet = svg::sheet(&placements, &[], &options);
            let read: Vec<_> = Placements::new(sheet.as_bytes()).collect();
            assert_eq!(read, placements.iter().cloned().map(Ok).collect::<Vec<_>>());
            for p in &placements {
                let one = svg::board(p, &options);
                assert_eq!(parse_placement(&one).as_ref(), Ok(p), "{one}");
            }
        }
        // Many squares to the board, and a square that is no whole number of pixels.
        let big: Vec<usize> = (0..1000).map(|r| (r * 7) % 1000).collect();
        let options = svg::Options {
            square: 0.75,
            ..svg::Options::default()
        };
        assert_eq!(parse_placement(&svg::board(&big, &options)), Ok(big));
        // A picture of none is a list of none; so is nothing at all.
        let none = svg::sheet(
            &[],
            &["no solutions shown".to_string()],
            &svg::Options::default(),
        );
        for text in [none.as_str(), "", "\n\n"] {
            let mut read = Placements::new(text.as_bytes());
            assert!(read.next().is_none(), "{text:?}");
            assert!(read.said_none(), "{text:?}");
        }
    }

    #[test]
    fn a_json_count_of_none_is_a_list_of_none() {
        for (text, none) in [
            (
                "{\"n\":3,\"count\":0,\"engine\":\"symmetry\",\"unique\":0}\n",
                true,
            ),
            ("{\"n\":3,\"count\":0,\"engine\":\"bitmask\"}\n", true),
            (
                "{\"n\":8,\"count\":92,\"engine\":\"symmetry\",\"unique\":12}\n",
                false,
            ),
            ("92 solutions\n", false),
        ] {
            let mut read = Placements::new(text.as_bytes());
            assert!(read.next().is_none(), "{text:?}");
            assert_eq!(read.said_none(), none, "{text:?}");
        }
    }

    #[test]
    fn streamed_forms_are_the_built_strings() {
        for placement in [&[][..], &[0], &[1, 3, 0, 2], &[0, 4, 7, 5, 2, 6, 1, 3]] {
            for (form, line) in [
                (Form::Text, text(12, placement)),
                (Form::Json, json(12, placement)),
            ] {
                let mut written = Vec::new();
                write_placement(&mut written, form, 12, placement).unwrap();
                assert_eq!(String::from_utf8(written).unwrap(), line + "\n");
            }
        }
    }

    #[test]
    fn a_bad_line_does_not_swallow_the_placement_it_ends() {
        let text = "NO.1: 0 4 7 5 2 6 1 3\nNO.2: 0 1 2 3 4 5 6 7\nNO.3: 0 x\n";
        let read: Vec<_> = Placements::new(text.as_bytes()).collect();
        assert_eq!(read.len(), 3, "{read:?}");
        assert_eq!(read[0].as_ref().unwrap(), &[0, 4, 7, 5, 2, 6, 1, 3]);
        assert_eq!(read[1].as_ref().unwrap(), &[0, 1, 2, 3, 4, 5, 6, 7]);
        assert!(read[2].is_err());
        let json = "{\"n\":8,\"index\":1,\"placement\":[0,1,2,3,4,5,6,7]}\n{\"n\":8,\"index\":2,\"placement\":[0,x]}\n";
        let read: Vec<_> = Placements::new(json.as_bytes()).collect();
        assert_eq!(read.len(), 2, "{read:?}");
        assert!(read[0].is_ok() && read[1].is_err());
    }
    use proptest::prelude::*;

    #[test]
    fn classic_forms() {
        assert_eq!(text(1, &[0, 4, 7, 5, 2, 6, 1, 3]), "NO.1: 0 4 7 5 2 6 1 3");
        assert_eq!(board(&[1, 3, 0, 2]), ". Q . .\n. . . Q\nQ . . .\n. . Q .\n");
        assert_eq!(
            json(3, &[1, 3, 0, 2]),
            r#"{"n":4,"index":3,"placement":[1,3,0,2]}"#
        );
    }

    #[test]
    fn every_printed_form_reads_back() {
        let p = vec![0, 4, 7, 5, 2, 6, 1, 3];
        for input in [
            "0 4 7 5 2 6 1 3".to_string(),
            "0,4,7,5,2,6,1,3\n".to_string(),
            "0\n4\n7\n5\n2\n6\n1\n3\n".to_string(),
            format!("{}\n1 solution shown (limit 1)\n", text(1, &p)),
            format!("{}\n92 solutions\n", text(17, &p)),
            format!("NO.1:\n{}\n1 solution shown (limit 1)\n", board(&p)),
            board(&p).replace(' ', ""),
            format!("{}\n", json(1, &p)),
            format!(
                "{}\n{{\"n\":8,\"count\":92,\"engine\":\"symmetry\",\"unique\":12}}\n",
                json(1, &p)
            ),
            format!("\u{feff}{}\r\n", text(1, &p)),
            format!("{}\n12 unique solutions (92 in total)\n", text(1, &p)),
        ] {
            assert_eq!(parse_placement(&input), Ok(p.clone()), "{input:?}");
        }
    }

    #[test]
    fn a_label_needs_its_colon() {
        assert_eq!(
            parse_placement("NO.1 0 4 7 5 2 6 1 3"),
            Err(ParseError::Label { line: 1 })
        );
        assert!(parse_placement("NO.x: 0").is_err());
        assert!(parse_placement("NO.: 0").is_err());
        assert_eq!(
            ParseError::Label { line: 1 }.to_string(),
            "line 1: a label must be `NO.<number>:` with the colon, followed by the columns"
        );
    }

    #[test]
    fn malformed_input_is_refused_with_the_place() {
        for (input, expected) in [
            ("", ParseError::Empty),
            ("\u{feff}", ParseError::Empty),
            ("\n\n92 solutions\n", ParseError::Empty),
            ("NO.1:", ParseError::Empty),
            ("NO.1: 0 2\nNO.2: 1 3", ParseError::Several { found: 2 }),
            (
                "0 x 2",
                ParseError::Column {
                    line: 1,
                    item: 2,
                    token: "x".into(),
                },
            ),
            (
                "0 -1",
                ParseError::Column {
                    line: 1,
                    item: 2,
                    token: "-1".into(),
                },
            ),
            (
                "1 2\n+3",
                ParseError::Column {
                    line: 2,
                    item: 3,
                    token: "+3".into(),
                },
            ),
            (
                ". Q\nQ . .",
                ParseError::BoardRow {
                    line: 2,
                    reason: String::new(),
                },
            ),
            (
                ". .",
                ParseError::BoardRow {
                    line: 1,
                    reason: String::new(),
                },
            ),
            (
                "Q Q",
                ParseError::BoardRow {
                    line: 1,
                    reason: String::new(),
                },
            ),
            (
                ". Q x",
                ParseError::BoardRow {
                    line: 1,
                    reason: String::new(),
                },
            ),
            (
                ". Q\nQ .\n. Q",
                ParseError::TooManyRows {
                    line: 3,
                    columns: 2,
                },
            ),
            (
                ". Q",
                ParseError::BoardShape {
                    rows: 1,
                    columns: 2,
                },
            ),
            ("1 0\n. Q", ParseError::Mixed { line: 2 }),
            (
                "{\"placement\": [0, 1",
                ParseError::Json {
                    line: 1,
                    reason: String::new(),
                },
            ),
            (
                "{\"n\": 3, \"placement\": [0]}",
                ParseError::Json {
                    line: 1,
                    reason: String::new(),
                },
            ),
            (
                "{\"queens\": [0]}",
                ParseError::Json {
                    line: 1,
                    reason: String::new(),
                },
            ),
            (
                "0 3 1",
                ParseError::OutOfRange(PlacementError {
                    row: 1,
                    column: 3,
                    n: 3,
                }),
            ),
        ] {
            let found = parse_placement(input);
            let same = match (&found, &expected) {
                (
                    Err(ParseError::BoardRow { line: a, .. }),
                    ParseError::BoardRow { line: b, .. },
                )
                | (Err(ParseError::Json { line: a, .. }), ParseError::Json { line: b, .. }) => {
                    a == b
                }
                (found, expected) => *found == Err(expected.clone()),
            };
            assert!(same, "{input:?}: {found:?}, expected {expected:?}");
            let message = found.unwrap_err().to_string();
            assert_eq!(message.lines().count(), 1, "{input:?}: {message}");
        }
    }

    #[test]
    fn a_blank_line_or_a_summary_ends_a_placement() {
        // Two placements of 4, not one of 8 queens.
        for input in [
            "1 3 0 2\n\n2 0 3 1\n",
            "1 3 0 2\n4 solutions\n2 0 3 1\n",
            "1 3 0 2\n \r\n2 0 3 1",
        ] {
            assert_eq!(
                parse_placement(input),
                Err(ParseError::Several { found: 2 }),
                "{input:?}"
            );
        }
        // Within a placement a blank line is nothing: after a label, or at the end.
        assert_eq!(
            parse_placement("NO.1:\n\n1 3 0 2\n\n"),
            Ok(vec![1, 3, 0, 2])
        );
        assert_eq!(parse_placement("1 3\n0 2\n\n\n"), Ok(vec![1, 3, 0, 2]));
    }

    #[test]
    fn a_label_and_the_json_line_after_it_are_one_placement() {
        let input = "NO.1:\n{\"placement\":[1,3,0,2]}\n";
        assert_eq!(parse_placement(input), Ok(vec![1, 3, 0, 2]));
        let two = "NO.1: 1 3 0 2\n{\"placement\":[1,3,0,2]}\n";
        assert_eq!(parse_placement(two), Err(ParseError::Several { found: 2 }));
        // A summary with a placement in it is neither.
        assert!(parse_placement("{\"count\":2,\"placement\":[0]}").is_err());
    }

    #[test]
    fn placements_reads_every_printed_form_in_a_stream() {
        let placements = [vec![1, 3, 0, 2], vec![2, 0, 3, 1], vec![0]];
        let mut forms = [String::new(), String::new(), String::new(), String::new()];
        for (i, p) in placements.iter().enumerate() {
            let index = i as u64 + 1;
            forms[0] += &format!("{}\n", text(index, p));
            forms[1] += &format!("NO.{index}:\n{}\n", board(p));
            forms[2] += &format!("{}\n", json(index, p));
            let plain: Vec<String> = p.iter().map(usize::to_string).collect();
            forms[3] += &format!("{}\n\n", plain.join(" "));
        }
        forms[0] += "3 solutions\n";
        forms[1] += "3 solutions shown (limit 3)\n";
        forms[2] += "{\"n\":4,\"count\":2,\"engine\":\"symmetry\"}\n";
        for form in &forms {
            let read: Result<Vec<_>, _> = Placements::new(form.as_bytes()).collect();
            assert_eq!(read.as_ref(), Ok(&placements.to_vec()), "{form}");
        }
    }

    #[test]
    fn placements_go_on_after_a_placement_off_its_board_and_stop_at_bad_text() {
        let read: Vec<_> = Placements::new("1 3 0 2\n\n1 3 0 4\n\n2 0 3 1\n".as_bytes()).collect();
        assert_eq!(read.len(), 3);
        assert!(matches!(read[1], Err(ParseError::OutOfRange(_))));
        assert_eq!(read[2], Ok(vec![2, 0, 3, 1]));
        let read: Vec<_> = Placements::new("1 3 0 2\n\n1 x\n\n2 0 3 1\n".as_bytes()).collect();
        assert_eq!(read.len(), 2);
        assert!(matches!(read[1], Err(ParseError::Column { line: 3, .. })));
        assert_eq!(Placements::new("".as_bytes()).count(), 0);
    }

    #[test]
    fn several_placements_are_more_than_one_not_two() {
        let message = ParseError::Several { found: 2 }.to_string();
        assert!(message.starts_with("more than one placement"), "{message}");
    }

    #[test]
    fn messages_escape_control_characters() {
        for input in [
            "0 \u{1b}[31mRED\u{1b}[0m 1",
            "0 \0 1",
            "\u{7f}",
            ". Q \u{1b}",
            "0 \u{202e}1",
            "{\"placement\":[\"\u{1b}\"]}",
            "{\"placement\":[0], \"\u{1b}\": 1}",
            "0 é\u{9b}1",
        ] {
            let message = parse_placement(input).unwrap_err().to_string();
            assert!(
                !message.chars().any(|c| c.is_control() || c == '\u{202e}'),
                "{input:?}: {message:?}"
            );
            assert_eq!(message.lines().count(), 1, "{message}");
        }
        assert_eq!(
            parse_placement("0 \u{1b}[31m 1").unwrap_err().to_string(),
            "line 1: the control character `\\u{1b}` is in no placement form"
        );
    }

    /// `text` over and over, without end.
    struct Endless(&'static [u8], usize);

    impl io::Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            for b in buf.iter_mut() {
                *b = self.0[self.1 % self.0.len()];
                self.1 += 1;
            }
            Ok(buf.len())
        }
    }

    #[test]
    fn endless_input_is_refused_early() {
        let read = |text| read_placement(io::BufReader::new(Endless(text, 0)));
        assert_eq!(
            read(b"\0"),
            Err(ParseError::Control {
                line: 1,
                character: '\0'
            })
        );
        assert_eq!(read(b"1"), Err(ParseError::LineTooLong { line: 1 }));
        assert_eq!(
            read(b"Q .\n. Q\n"),
            Err(ParseError::TooManyRows {
                line: 3,
                columns: 2
            })
        );
        assert_eq!(read(b"1 3 0 2\n\n"), Err(ParseError::Several { found: 2 }));
        assert_eq!(
            read(b"0\n"),
            Err(ParseError::TooLarge {
                line: MAX_QUEENS + 1
            })
        );
    }

    #[test]
    fn long_tokens_are_shortened_in_messages() {
        let long = "9".repeat(100) + "x";
        let message = parse_placement(&long).unwrap_err().to_string();
        assert!(message.len() < 120, "{message}");
    }

    #[test]
    fn write_board_streams_the_same_board() {
        let p = [2, 0, 3, 1];
        let mut streamed = Vec::new();
        write_board(&mut streamed, &p).unwrap();
        assert_eq!(String::from_utf8(streamed).unwrap(), board(&p));
        // Off-board columns leave their row empty rather than panic.
        assert_eq!(board(&[0, 9]), "Q .\n. .\n");
        assert_eq!(board(&[usize::MAX]), ".\n");
    }

    /// A placement with columns in range, not necessarily a solution.
    fn placement() -> impl Strategy<Value = Vec<usize>> {
        (1usize..40).prop_flat_map(|n| proptest::collection::vec(0..n, n))
    }

    proptest! {
        #[test]
        fn every_form_round_trips(p in placement(), index in 1u64..1000) {
            let forms = [
                text(index, &p),
                format!("{}\n{index} solutions\n", text(index, &p)),
                format!("NO.{index}:\n{}\n", board(&p)),
                board(&p),
                json(index, &p),
                p.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(","),
                p.iter().map(|c| format!("{c}\n")).collect(),
            ];
            for form in forms {
                prop_assert_eq!(parse_placement(&form), Ok(p.clone()), "{:?}", form);
            }
        }

        #[test]
        fn any_text_is_an_answer_not_a_panic(input in ".{0,200}") {
            if let Ok(p) = parse_placement(&input) {
                prop_assert!(!p.is_empty());
                prop_assert!(check::validate(&p).is_ok());
            }
        }

        #[test]
        fn near_misses_are_answers_not_panics(
            input in "(NO\\.[0-9]{0,2}:? ?|[0-9QO. ,{}\\[\\]\":a-z]{0,6}|\n){0,30}"
        ) {
            if let Ok(p) = parse_placement(&input) {
                prop_assert!(!p.is_empty());
                prop_assert!(check::validate(&p).is_ok());
            }
        }

        /// The stream reader and the one-placement reader agree: one placement read by
        /// one is the one placement of the other, and what one refuses the other does not
        /// read as a single good placement.
        #[test]
        fn placements_agree_with_read_placement(
            input in "(NO\\.[0-9]{0,2}:? ?|[0-9Q. ,]{0,6}|[0-9] solutions|\n){0,30}"
        ) {
            let streamed: Vec<_> = Placements::new(input.as_bytes()).collect();
            for p in streamed.iter().flatten() {
                prop_assert!(!p.is_empty() && check::validate(p).is_ok());
            }
            match read_placement(input.as_bytes()) {
                Ok(p) => prop_assert_eq!(streamed, vec![Ok(p)]),
                Err(ParseError::Several { .. }) => prop_assert!(streamed.len() >= 2),
                Err(_) => prop_assert!(streamed.is_empty() || streamed.iter().any(Result::is_err)),
            }
        }
    }

    /// What `check_placements` says of `input`, and what it handed to `malformed`.
    fn checked(input: &str, json: bool) -> (Checked, String, Vec<ParseError>) {
        let mut out = Vec::new();
        let mut refused = Vec::new();
        let found = check_placements(input.as_bytes(), &mut out, 100, json, |_, e| {
            refused.push(e)
        })
        .expect("written");
        (found, String::from_utf8(out).expect("UTF-8"), refused)
    }

    #[test]
    fn a_board_without_solutions_is_a_list_of_none() {
        // What `queens 3` and `queens unique 3 --list` print: no placement, and a summary
        // that says there is none (3 queens have no solution: OEIS A000170); and what
        // `queens first 3` and `queens all 3 --format json` print on stdout: nothing.
        for input in [
            "0 solutions\n",
            "\n0 unique solutions (0 in total)\n",
            "",
            "\n",
        ] {
            let (found, text, refused) = checked(input, false);
            assert_eq!(found, Checked::default(), "{input:?}");
            assert_eq!(text, "0 placements checked\n", "{input:?}");
            assert!(refused.is_empty(), "{input:?}");
        }
        let (_, text, _) = checked("0 solutions\n", true);
        assert_eq!(
            text,
            "{\"checked\":0,\"not_solutions\":0,\"malformed\":0}\n"
        );
        // A summary of solutions that are not there, or a limit of 0, say nothing of the
        // board: still no placement given.
        for input in ["92 solutions\n", "0 solutions shown (limit 0)\n"] {
            let (found, text, refused) = checked(input, false);
            assert_eq!(found.malformed, 1, "{input:?}");
            assert_eq!(text, "", "{input:?}");
            assert_eq!(refused, [ParseError::Empty], "{input:?}");
        }
        // A placement after the summary is checked as one.
        let (found, text, _) = checked("0 solutions\n1 3 0 2\n", false);
        assert_eq!(found.checked, 1);
        assert!(text.starts_with("solution"), "{text}");
    }
}
