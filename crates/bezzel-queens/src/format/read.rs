//! The readers: every printed form (text, board, JSON, SVG), read line by line in memory
//! bounded by one placement, with summaries and labels told apart from placements, and
//! input that cannot be a placement refused as soon as that shows.

use std::io;

use super::error::ParseError;
use super::{MAX_LINE, MAX_QUEENS};
use crate::check;

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
