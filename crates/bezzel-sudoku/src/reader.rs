//! Reading puzzles from text as it arrives: a batch of line-form puzzles, or one grid.
//!
//! [`PuzzleReader`] reads any [`BufRead`] (a file, stdin, a byte slice) and yields one
//! [`Puzzle`] per puzzle, in input order, each with the line it starts on and either its grid
//! or why it could not be read. A bad puzzle does not stop the reading; a failing input does,
//! after every puzzle read before it, with a [`ReadError`] that names the line it stopped in.
//! A batch is read a line at a time, so an input of any size runs in little memory and a
//! puzzle is yielded as soon as its line is complete.
//!
//! # Accepted text
//!
//! - Lines end in `\n` or `\r\n`. A UTF-8 byte-order mark at the very start is skipped. Bytes
//!   that are not UTF-8 become U+FFFD and are then reported as illegal characters of their
//!   puzzle. A line longer than [`MAX_LINE_BYTES`] is refused as soon as it passes the limit:
//!   it is an error of its own ([`ParseError::LineTooLong`], when it is a puzzle line), and
//!   the input ends there with a [`ReadError`], since the line's end may never come (`sudoku
//!   < /dev/zero`): no puzzle file holds such a line.
//! - A `#` starts a comment, to the end of the line: `1234...  # an easy one` is the puzzle
//!   `1234...`. Blank lines, and lines holding only a comment, are skipped.
//! - **Line form** (a *batch*): every other line is one puzzle, `N * N` cells row by row, for
//!   `N` = 4, 9, 16 or 25 (lines of 16, 81, 256 or 625 characters after trimming). Each line is
//!   a puzzle of its own and gets its own error.
//! - **Grid form**: the whole input is *one* puzzle, one row per line. Spaces, tabs and the
//!   separators `|`, `-` and `+` are ignored and lines left without cells are skipped, so the
//!   output of [`Grid::to_pretty`] reads back.
//! - Cells are written in one of two [alphabets](Alphabet): `1`-`9` then `A`-`P` with `.` or
//!   `0` for an empty cell (the default), or one symbol lower, `0`-`9` then `A`-`O`, with `.`
//!   for an empty cell (16x16 puzzles written `0`-`F`).
//!
//! # Which form
//!
//! With [`Form::Auto`] (the default) an input is one grid only when its puzzle lines really
//! form one. Call the lines that hold cells its *rows* and let `R` be their number. The input
//! is one grid when no puzzle line has the length of a line-form puzzle (16, 81, 256 or 625
//! characters), and for some `N` of 4, 9, 16 and 25 either `R = N` and all rows but at most one
//! hold `N` cells, or `R` is `N - 1` or `N + 1` and every row holds `N` cells. So a grid with
//! one mistake, a missing, extra, short or long row, gets the grid's own error ("row 3 has 8
//! cells"), while five lines of 20 cells are five puzzles with five errors. Anything else is a
//! batch. A 16x16 grid written without spaces has rows of 16 characters, the length of a 4x4
//! line, so it is a batch of 4x4 lines unless [`Form::Grid`] is asked for.
//!
//! Deciding looks at most [`MAX_GRID_LINES`] puzzle lines ahead: any line that rules a grid
//! out (a line-form length, more than 25 cells in a line, more than 26 rows) settles it at
//! once, and the rest is read line by line. [`Form::Grid`] reads the whole input as one grid
//! and [`Form::Lines`] as a batch, without looking.
//!
//! # Which alphabet
//!
//! With an alphabet named in [`ReadOptions::alphabet`], every puzzle is read in it. Without
//! one, a puzzle is read in [`Alphabet::FromOne`], except that a 16x16 puzzle, the one size
//! for which the `0`-`F` convention is common, is read by these rules, looking at its cells:
//!
//! 1. it holds a `G`: `1`-`G` (the `0`s and `.`s are empty cells);
//! 2. no `G`, and it holds both `0` and `.`: `0`-`F` (`.` is the empty cell and `0` the value
//!    1; in `1`-`G` two different symbols would stand for empty cells in one puzzle);
//! 3. otherwise (no `G`, and not both `0` and `.`) the puzzle reads as a valid puzzle in both
//!    alphabets, with different values, so it is refused with
//!    [`ParseError::AmbiguousAlphabet`] rather than guessed: name the alphabet.
//!
//! A puzzle with a unique solution holds at least 15 of the 16 values (with two missing,
//! swapping them would give a second solution), so a real `1`-`G` puzzle almost always holds a
//! `G` and a real `0`-`F` puzzle a `0`; the refusals are for puzzles missing those.
//!
//! ```
//! use bezzel_sudoku::grid::Alphabet;
//! use bezzel_sudoku::reader::PuzzleReader;
//!
//! let text = "# two puzzles\n....3..2..4....3\n1234\n";
//! let puzzles: Vec<_> = PuzzleReader::new(text.as_bytes()).collect::<Result<_, _>>().unwrap();
//! assert_eq!(puzzles.len(), 2);
//! assert_eq!(puzzles[0].line, 2);
//! assert_eq!(puzzles[0].grid.as_ref().unwrap().givens(), 4);
//! assert_eq!(puzzles[0].alphabet, Alphabet::FromOne);
//! assert!(puzzles[1].grid.is_err());
//! ```

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead};

use crate::grid::{Alphabet, Grid, MAX_VALUE, ParseError};

/// The lengths of line-form puzzles: `N * N` for N = 4, 9, 16, 25.
pub const LINE_LENGTHS: [usize; 4] = [16, 81, 256, 625];

/// The longest line kept, in bytes, line end excluded: far more than a 625-cell puzzle with
/// generous spacing needs, and small enough that no single line can exhaust memory.
pub const MAX_LINE_BYTES: usize = 1 << 16;

/// The most puzzle lines (rows and separator lines) [`Form::Auto`] looks at before it takes an
/// input for a batch, and the most lines of a grid kept with [`Form::Grid`]: a 25x25 grid with
/// a separator line between every two rows fits.
pub const MAX_GRID_LINES: usize = 2 * MAX_VALUE as usize + 1;

/// The side lengths of the supported grids.
const SIDES: [usize; 4] = [4, 9, 16, 25];

/// How an input is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Form {
    /// Decide from the input (see the [module docs](self)).
    #[default]
    Auto,
    /// One puzzle per line.
    Lines,
    /// The whole input is one puzzle in grid form.
    Grid,
}

/// How to read an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReadOptions {
    /// The layout of the input.
    pub form: Form,
    /// The alphabet of every puzzle, or `None` to tell it from each puzzle where that can be
    /// done safely (see the [module docs](self)).
    pub alphabet: Option<Alphabet>,
}

/// One puzzle of an input, read or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The 1-based line of the input where the puzzle starts.
    pub line: usize,
    /// The puzzle's text as given, trimmed; in grid form its puzzle lines, comments left out.
    pub text: String,
    /// The grid, or why the text is not one.
    pub grid: Result<Grid, ParseError>,
    /// The alphabet the puzzle is written in, for writing its answer the same way; the
    /// default when it could not be told.
    pub alphabet: Alphabet,
}

/// An input that failed part way: the puzzles before it were all yielded.
pub struct ReadError {
    /// The 1-based line that could not be read in full.
    pub line: usize,
    /// What the input said.
    pub error: io::Error,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ReadError: {self}")
    }
}

/// A line of the input, without its line end and its comment.
struct Line {
    number: usize,
    /// The text before the comment, if any.
    text: String,
    /// Longer than [`MAX_LINE_BYTES`]: `text` holds only its start.
    too_long: bool,
}

impl Line {
    /// Whether the line is a puzzle line rather than blank or only a comment.
    fn is_puzzle(&self) -> bool {
        !self.text.trim().is_empty()
    }

    /// The number of cells the line holds in grid form: every character but whitespace and
    /// the separators `|`, `-` and `+`.
    fn cells(&self) -> usize {
        self.text
            .chars()
            .filter(|&c| !c.is_whitespace() && !matches!(c, '|' | '-' | '+'))
            .count()
    }
}

/// The lines of an input, numbered from 1.
struct LineReader<R> {
    input: R,
    number: usize,
    bytes: Vec<u8>,
    /// The last line was longer than [`MAX_LINE_BYTES`]: the input ends with an error.
    overlong: bool,
}

impl<R: BufRead> LineReader<R> {
    fn next_line(&mut self) -> Result<Option<Line>, ReadError> {
        if self.overlong {
            return Err(ReadError {
                line: self.number,
                error: io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "the line is longer than {MAX_LINE_BYTES} bytes, more than any \
                         puzzle: the rest of the input is not read"
                    ),
                ),
            });
        }
        self.bytes.clear();
        // Room for the longest line kept and its `\r\n`. A longer line is refused as soon as
        // it passes the limit, without looking for its end.
        let cap = MAX_LINE_BYTES + 2;
        let mut too_long = false;
        let mut any = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => {
                    return Err(ReadError {
                        line: self.number + 1,
                        error,
                    });
                }
            };
            if available.is_empty() {
                break;
            }
            any = true;
            let (len, done) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            let keep = len.min(cap - self.bytes.len());
            self.bytes.extend_from_slice(&available[..keep]);
            self.input.consume(keep);
            if keep < len {
                too_long = true;
                break;
            }
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        if !too_long && self.bytes.last() == Some(&b'\n') {
            self.bytes.pop();
            if self.bytes.last() == Some(&b'\r') {
                self.bytes.pop();
            }
        }
        if self.bytes.len() > MAX_LINE_BYTES {
            too_long = true;
            self.bytes.truncate(MAX_LINE_BYTES);
        }
        self.overlong = too_long;
        let mut start = 0;
        if self.number == 0 && self.bytes.starts_with(b"\xEF\xBB\xBF") {
            start = 3;
        }
        // No cell is written `#`, so a comment starts at the first one.
        let end = self.bytes[start..]
            .iter()
            .position(|&b| b == b'#')
            .map_or(self.bytes.len(), |i| start + i);
        self.number += 1;
        Ok(Some(Line {
            number: self.number,
            text: String::from_utf8_lossy(&self.bytes[start..end]).into_owned(),
            too_long,
        }))
    }
}

/// Where the reader stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Nothing read yet.
    Start,
    /// A batch: one puzzle per line from here on.
    Batch,
    /// Everything read (what is pending is still to be yielded).
    Done,
}

/// Reads the puzzles of one input as it arrives; see the [module docs](self) for the text it
/// accepts.
///
/// Yields `Ok(puzzle)` for every puzzle, good or bad, and at most one `Err`, after which it
/// ends: the input failed part way, and every puzzle before the failure was yielded first.
#[derive(Debug)]
pub struct PuzzleReader<R> {
    lines: LineReader<R>,
    options: ReadOptions,
    state: State,
    /// Puzzles read while deciding the form, not yet yielded.
    pending: VecDeque<Puzzle>,
    /// A read error met while deciding the form, yielded after `pending`.
    error: Option<ReadError>,
}

impl<R> fmt::Debug for LineReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LineReader")
            .field("number", &self.number)
            .finish_non_exhaustive()
    }
}

impl<R: BufRead> PuzzleReader<R> {
    /// Reads `input`, telling the form and the alphabet from it.
    pub fn new(input: R) -> PuzzleReader<R> {
        PuzzleReader::with_options(input, ReadOptions::default())
    }

    /// Reads `input` as `options` say.
    pub fn with_options(input: R, options: ReadOptions) -> PuzzleReader<R> {
        PuzzleReader {
            lines: LineReader {
                input,
                number: 0,
                bytes: Vec::new(),
                overlong: false,
            },
            options,
            state: State::Start,
            pending: VecDeque::new(),
            error: None,
        }
    }

    /// The number of lines read so far.
    pub fn lines_read(&self) -> usize {
        self.lines.number
    }

    /// The next puzzles, at most `max` of them, in order: fewer at the end of the input, and
    /// fewer, with the error, when the input failed part way (every puzzle before the failure
    /// is in the chunk). What a caller that answers puzzles a chunk at a time reads with.
    ///
    /// ```
    /// use bezzel_sudoku::reader::PuzzleReader;
    ///
    /// let mut reader = PuzzleReader::new("1234\n....3..2..4....3\n1...3.........2.\n".as_bytes());
    /// let (chunk, error) = reader.read_chunk(2);
    /// assert_eq!((chunk.len(), error.is_none()), (2, true));
    /// assert_eq!(reader.read_chunk(2).0.len(), 1);
    /// ```
    pub fn read_chunk(&mut self, max: usize) -> (Vec<Puzzle>, Option<ReadError>) {
        let mut chunk = Vec::with_capacity(max);
        while chunk.len() < max {
            match self.next() {
                Some(Ok(puzzle)) => chunk.push(puzzle),
                Some(Err(e)) => return (chunk, Some(e)),
                None => break,
            }
        }
        (chunk, None)
    }

    /// Settles the form: reads ahead as far as needed and leaves what it read in `pending`.
    fn start(&mut self) {
        match self.options.form {
            Form::Lines => self.state = State::Batch,
            Form::Grid => {
                let mut held = Vec::new();
                let mut more_rows = 0;
                loop {
                    match self.lines.next_line() {
                        Ok(Some(line)) if line.is_puzzle() => {
                            if held.len() < MAX_GRID_LINES {
                                held.push(line);
                            } else if line.cells() > 0 {
                                more_rows += 1;
                            }
                        }
                        Ok(Some(_)) => {}
                        Ok(None) => break,
                        Err(e) => {
                            self.error = Some(e);
                            break;
                        }
                    }
                }
                let puzzle = self.grid_puzzle(&held, more_rows);
                self.pending.push_back(puzzle);
                self.state = State::Done;
            }
            Form::Auto => {
                let mut held: Vec<Line> = Vec::new();
                let mut rows = 0;
                loop {
                    let line = match self.lines.next_line() {
                        Ok(Some(line)) if line.is_puzzle() => line,
                        Ok(Some(_)) => continue,
                        Ok(None) => break,
                        Err(e) => {
                            self.error = Some(e);
                            break;
                        }
                    };
                    let cells = line.cells();
                    rows += usize::from(cells > 0);
                    let rules_grid_out = line.too_long
                        || LINE_LENGTHS.contains(&line.text.trim().chars().count())
                        || cells > usize::from(MAX_VALUE)
                        || rows > usize::from(MAX_VALUE) + 1
                        || held.len() >= MAX_GRID_LINES;
                    held.push(line);
                    if rules_grid_out {
                        self.hold_as_lines(held);
                        self.state = State::Batch;
                        return;
                    }
                }
                if forms_grid(&held) {
                    let puzzle = self.grid_puzzle(&held, 0);
                    self.pending.push_back(puzzle);
                } else {
                    self.hold_as_lines(held);
                }
                self.state = State::Done;
            }
        }
    }

    fn hold_as_lines(&mut self, held: Vec<Line>) {
        for line in held {
            let puzzle = self.line_puzzle(&line);
            self.pending.push_back(puzzle);
        }
    }

    /// One line-form puzzle.
    fn line_puzzle(&self, line: &Line) -> Puzzle {
        let text = line.text.trim();
        let (grid, alphabet) = if line.too_long {
            let limit = MAX_LINE_BYTES;
            (Err(ParseError::LineTooLong { limit }), Alphabet::default())
        } else {
            read_in(text, self.options.alphabet, Grid::parse_line_in)
        };
        Puzzle {
            line: line.number,
            text: text.to_string(),
            grid,
            alphabet,
        }
    }

    /// One grid-form puzzle from its puzzle lines, with `more_rows` rows past those.
    fn grid_puzzle(&self, held: &[Line], more_rows: usize) -> Puzzle {
        let text: Vec<&str> = held.iter().map(|l| l.text.as_str()).collect();
        let text = text.join("\n");
        let (mut grid, alphabet) = if held.iter().any(|l| l.too_long) {
            let limit = MAX_LINE_BYTES;
            (Err(ParseError::LineTooLong { limit }), Alphabet::default())
        } else {
            read_in(&text, self.options.alphabet, Grid::parse_grid_in)
        };
        if more_rows > 0 && !matches!(grid, Err(ParseError::IllegalChar { .. })) {
            let found = held.iter().filter(|l| l.cells() > 0).count() + more_rows;
            let expected = usize::from(MAX_VALUE);
            grid = Err(ParseError::WrongRowCount { found, expected });
        }
        Puzzle {
            // An empty input read as a grid has one puzzle, with no rows, on line 1.
            line: held.first().map_or(1, |l| l.number),
            text: text.trim().to_string(),
            grid,
            alphabet,
        }
    }
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Result<Puzzle, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(puzzle) = self.pending.pop_front() {
                return Some(Ok(puzzle));
            }
            if let Some(error) = self.error.take() {
                self.state = State::Done;
                return Some(Err(error));
            }
            match self.state {
                State::Done => return None,
                State::Start => self.start(),
                State::Batch => match self.lines.next_line() {
                    Ok(Some(line)) if line.is_puzzle() => {
                        return Some(Ok(self.line_puzzle(&line)));
                    }
                    Ok(Some(_)) => {}
                    Ok(None) => self.state = State::Done,
                    Err(error) => {
                        self.state = State::Done;
                        return Some(Err(error));
                    }
                },
            }
        }
    }
}

/// The puzzles of a batch text already in memory, with their 1-based line numbers: the same
/// reading as [`PuzzleReader`] with [`Form::Lines`] and [`Alphabet::FromOne`] (it *is* that
/// reader), for callers that hold the whole text and want grids rather than [`Puzzle`]s.
///
/// Every line that is not blank or a comment is one puzzle, and a bad line yields its error
/// without stopping the iteration.
///
/// ```
/// use bezzel_sudoku::reader::PuzzleLines;
///
/// let lines: Vec<usize> = PuzzleLines::new("# header\n....3..2..4....3\n\nbad\n")
///     .map(|(line, _)| line)
///     .collect();
/// assert_eq!(lines, [2, 4]);
/// ```
#[derive(Debug)]
pub struct PuzzleLines<'a>(PuzzleReader<&'a [u8]>);

impl<'a> PuzzleLines<'a> {
    /// Iterates over the puzzles in `text`.
    pub fn new(text: &'a str) -> PuzzleLines<'a> {
        let options = ReadOptions {
            form: Form::Lines,
            alphabet: Some(Alphabet::FromOne),
        };
        PuzzleLines(PuzzleReader::with_options(text.as_bytes(), options))
    }
}

impl Iterator for PuzzleLines<'_> {
    type Item = (usize, Result<Grid, ParseError>);

    fn next(&mut self) -> Option<Self::Item> {
        // Reading a byte slice never fails, so the reader yields no `Err` to pass on.
        self.0
            .by_ref()
            .find_map(Result::ok)
            .map(|puzzle| (puzzle.line, puzzle.grid))
    }
}

/// Every puzzle in a batch text with its 1-based line number; see [`PuzzleLines`].
pub fn parse_batch(text: &str) -> Vec<(usize, Result<Grid, ParseError>)> {
    PuzzleLines::new(text).collect()
}

/// Whether the puzzle lines of an input form one grid, give or take one mistake (see the
/// [module docs](self)); the caller has already ruled out lines of a line-form length.
fn forms_grid(held: &[Line]) -> bool {
    let rows: Vec<usize> = held.iter().map(Line::cells).filter(|&k| k > 0).collect();
    let r = rows.len();
    SIDES.iter().any(|&n| {
        let odd = rows.iter().filter(|&&k| k != n).count();
        (r == n && odd <= 1) || ((r + 1 == n || r == n + 1) && odd == 0)
    })
}

/// Reads `text` with `parse` in the alphabet given, or in the one its cells show (see the
/// [module docs](self)).
fn read_in(
    text: &str,
    alphabet: Option<Alphabet>,
    parse: fn(&str, Alphabet) -> Result<Grid, ParseError>,
) -> (Result<Grid, ParseError>, Alphabet) {
    if let Some(alphabet) = alphabet {
        return (parse(text, alphabet), alphabet);
    }
    let grid = parse(text, Alphabet::FromOne);
    match grid {
        // Read in 1-G, the text holds only 0-9, A-G (either case), '.' and separators.
        Ok(g) if g.size() == 16 && !text.contains(['G', 'g']) => {
            if text.contains('0') && text.contains('.') {
                (parse(text, Alphabet::FromZero), Alphabet::FromZero)
            } else {
                (Err(ParseError::AmbiguousAlphabet), Alphabet::FromOne)
            }
        }
        grid => (grid, Alphabet::FromOne),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The puzzle from Wikipedia's "Sudoku" article.
    const WIKI: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn read_all(text: &str, options: ReadOptions) -> Vec<Puzzle> {
        PuzzleReader::with_options(text.as_bytes(), options)
            .collect::<Result<_, _>>()
            .unwrap()
    }

    fn summary(puzzles: &[Puzzle]) -> Vec<(usize, Result<String, ParseError>)> {
        puzzles
            .iter()
            .map(|p| {
                (
                    p.line,
                    p.grid.as_ref().map(Grid::to_line).map_err(Clone::clone),
                )
            })
            .collect()
    }

    /// An input that yields `data` and then fails, in reads of at most `step` bytes.
    struct FailsAfter {
        data: Vec<u8>,
        at: usize,
        step: usize,
    }

    impl io::Read for FailsAfter {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.at == self.data.len() {
                return Err(io::Error::other("disk on fire"));
            }
            let n = buf.len().min(self.step).min(self.data.len() - self.at);
            buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    #[test]
    fn a_batch_yields_every_line_with_its_number() {
        let text = format!("# header\n\n{WIKI}\r\n  x  \n\t# indented\n{WIKI}");
        let got = summary(&read_all(&text, ReadOptions::default()));
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], (3, Ok(WIKI.to_string())));
        assert!(matches!(
            got[1],
            (4, Err(ParseError::WrongLength { found: 1, .. }))
        ));
        assert_eq!(got[2], (6, Ok(WIKI.to_string())));
    }

    #[test]
    fn a_failing_input_keeps_every_puzzle_before_it_and_names_the_line() {
        for step in [1, 7, 4096] {
            // The fourth line is cut off by the failure.
            let data = format!("{WIKI}\nxx\n\n{}", &WIKI[..40]).into_bytes();
            let input = io::BufReader::with_capacity(64, FailsAfter { data, at: 0, step });
            let items: Vec<_> = PuzzleReader::new(input).collect();
            assert_eq!(items.len(), 3, "step {step}");
            assert_eq!(items[0].as_ref().unwrap().line, 1);
            assert_eq!(items[1].as_ref().unwrap().line, 2);
            let e = items[2].as_ref().unwrap_err();
            assert_eq!(e.line, 4, "step {step}");
            assert_eq!(e.to_string(), "line 4: disk on fire");
        }
        // The same while still deciding the form: one short line, then the failure.
        let data = b"1234\n12".to_vec();
        let input = io::BufReader::new(FailsAfter {
            data,
            at: 0,
            step: 3,
        });
        let items: Vec<_> = PuzzleReader::new(input).collect();
        assert_eq!(items.len(), 2);
        assert!(items[0].as_ref().unwrap().grid.is_err());
        assert_eq!(items[1].as_ref().unwrap_err().line, 2);
    }

    #[test]
    fn a_byte_order_mark_is_skipped_at_the_start_only() {
        let text = format!("\u{FEFF}{WIKI}\n\u{FEFF}{WIKI}\n");
        let got = read_all(&text, ReadOptions::default());
        assert_eq!(got[0].grid.as_ref().unwrap().to_line(), WIKI);
        assert!(matches!(
            got[1].grid,
            Err(ParseError::WrongLength { found: 82, .. })
        ));
        let text = format!("\u{FEFF}# comment\n{WIKI}\n");
        assert_eq!(read_all(&text, ReadOptions::default()).len(), 1);
        let grid = Grid::parse_line(WIKI).unwrap().to_pretty();
        let got = read_all(&format!("\u{FEFF}{grid}"), ReadOptions::default());
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].grid.as_ref().unwrap().to_line(), WIKI);
    }

    #[test]
    fn a_line_too_long_is_its_own_error_and_ends_the_input() {
        let long = "1".repeat(MAX_LINE_BYTES + 1);
        let text = format!("{}\r\n{WIKI}\n{long}\n{WIKI}\n", ".".repeat(MAX_LINE_BYTES));
        let got: Vec<_> = PuzzleReader::new(text.as_bytes()).collect();
        assert_eq!(got.len(), 4, "three puzzles, then the error");
        // At the limit exactly: kept, and simply the wrong length.
        let first = got[0].as_ref().unwrap();
        assert!(matches!(first.grid, Err(ParseError::WrongLength { .. })));
        assert_eq!(got[1].as_ref().unwrap().line, 2);
        let long = got[2].as_ref().unwrap();
        let limit = MAX_LINE_BYTES;
        assert_eq!(long.grid, Err(ParseError::LineTooLong { limit }));
        assert_eq!((long.line, long.text.len()), (3, MAX_LINE_BYTES));
        let error = got[3].as_ref().unwrap_err();
        assert_eq!(error.line, 3);
        assert!(
            error
                .to_string()
                .contains("the rest of the input is not read")
        );
        // A comment too long ends the input too, with no puzzle of its own.
        let got: Vec<_> =
            PuzzleReader::new(format!("#{long}\n{WIKI}\n", long = long.text).as_bytes()).collect();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].as_ref().unwrap_err().line, 1);
    }

    /// Zero bytes without end, as `/dev/zero` gives, serving at most `limit` of them (so that a
    /// reader that looks for the line's end fails the test rather than hanging it).
    struct Endless {
        served: std::rc::Rc<std::cell::Cell<usize>>,
        limit: usize,
    }

    impl io::Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.limit - self.served.get());
            buf[..n].fill(0);
            self.served.set(self.served.get() + n);
            Ok(n)
        }
    }

    #[test]
    fn an_endless_line_is_refused_once_it_passes_the_limit() {
        let served = std::rc::Rc::new(std::cell::Cell::new(0));
        let endless = Endless {
            served: served.clone(),
            limit: 1 << 30,
        };
        let mut reader = PuzzleReader::new(io::BufReader::new(endless));
        let first = reader.next().unwrap().unwrap();
        let limit = MAX_LINE_BYTES;
        assert_eq!(first.grid, Err(ParseError::LineTooLong { limit }));
        assert!(
            served.get() < 4 * MAX_LINE_BYTES,
            "{} bytes read for a line refused at {MAX_LINE_BYTES}",
            served.get()
        );
        assert_eq!(reader.next().unwrap().unwrap_err().line, 1);
        assert!(reader.next().is_none());
    }

    #[test]
    fn a_comment_after_a_puzzle_is_ignored() {
        let text = format!(
            "{WIKI} # Wikipedia's\n{WIKI}# no space\n  # only a comment\n....3..2..4....3\t#4x4\n"
        );
        let got = summary(&read_all(&text, ReadOptions::default()));
        let wiki = Grid::parse_line(WIKI).unwrap().to_line();
        let small = Grid::parse_line("....3..2..4....3").unwrap().to_line();
        assert_eq!(got, [(1, Ok(wiki.clone())), (2, Ok(wiki)), (4, Ok(small))]);
        // In grid form too: the separators' comments and a row's.
        let grid = Grid::parse_line(WIKI).unwrap();
        let commented: String = grid
            .to_pretty()
            .lines()
            .enumerate()
            .map(|(i, row)| format!("{row}   # row {i}\n"))
            .collect();
        let got = read_all(&commented, ReadOptions::default());
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].grid.as_ref().unwrap().to_line(), WIKI);
        assert!(!got[0].text.contains('#'));
    }

    #[test]
    fn one_grid_only_when_the_lines_form_one() {
        let g = Grid::parse_line(WIKI).unwrap();
        let plain: Vec<String> = WIKI
            .as_bytes()
            .chunks(9)
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect();
        let auto = ReadOptions::default();
        // A plain grid, and the pretty one with a comment on top.
        let got = read_all(&plain.join("\n"), auto);
        assert_eq!(summary(&got), [(1, Ok(WIKI.to_string()))]);
        let got = read_all(&format!("# it\n\n{}", g.to_pretty()), auto);
        assert_eq!(summary(&got), [(3, Ok(WIKI.to_string()))]);
        // One mistake: still the grid, with the grid's error.
        let mut short = plain.clone();
        short[2].pop();
        let got = read_all(&short.join("\n"), auto);
        assert_eq!(got.len(), 1);
        assert!(matches!(
            got[0].grid,
            Err(ParseError::WrongRowLength { row: 3, .. })
        ));
        let got = read_all(&plain[1..].join("\n"), auto);
        assert!(matches!(
            got[..],
            [Puzzle {
                grid: Err(ParseError::WrongRowCount { found: 8, .. }),
                ..
            }]
        ));
        // Two mistakes, or lines that are no grid at all: a batch, one error per line.
        let mut two = plain[1..].to_vec();
        two[0].pop();
        assert_eq!(read_all(&two.join("\n"), auto).len(), 8);
        let twenty = ["12341234123412341234"; 5].join("\n");
        let got = read_all(&twenty, auto);
        assert_eq!(got.len(), 5);
        for (i, p) in got.iter().enumerate() {
            assert_eq!(p.line, i + 1);
            assert!(matches!(
                p.grid,
                Err(ParseError::WrongLength { found: 20, .. })
            ));
        }
        // A line of a line-form length rules a grid out.
        let mut mixed = plain.clone();
        mixed[4] = "................".to_string();
        assert_eq!(read_all(&mixed.join("\n"), auto).len(), 9);
        // Asked for, a grid is a grid whatever it looks like.
        let grid = ReadOptions {
            form: Form::Grid,
            ..auto
        };
        let got = read_all(&two.join("\n"), grid);
        assert_eq!(got.len(), 1);
        assert!(got[0].grid.is_err());
        let got = read_all("", grid);
        assert!(matches!(
            got[..],
            [Puzzle {
                line: 1,
                grid: Err(ParseError::WrongRowCount { found: 0, .. }),
                ..
            }]
        ));
        let lines = ReadOptions {
            form: Form::Lines,
            ..auto
        };
        assert_eq!(read_all(&plain.join("\n"), lines).len(), 9);
    }

    #[test]
    fn a_grid_asked_for_keeps_a_bounded_number_of_lines() {
        let rows = ["1234"; 1000].join("\n");
        let grid = ReadOptions {
            form: Form::Grid,
            alphabet: None,
        };
        let got = read_all(&rows, grid);
        assert_eq!(
            got[0].grid,
            Err(ParseError::WrongRowCount {
                found: 1000,
                expected: 25
            })
        );
        assert!(got[0].text.len() < 5 * MAX_GRID_LINES);
    }

    /// An input whose first line is odd is still read a line at a time, not whole: the
    /// reader has consumed little when the first puzzles come out.
    #[test]
    fn an_odd_first_line_does_not_make_the_reader_read_everything() {
        struct Counting<'a> {
            data: &'a [u8],
            read: &'a std::cell::Cell<usize>,
        }
        impl io::Read for Counting<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = io::Read::read(&mut self.data, buf)?;
                self.read.set(self.read.get() + n);
                Ok(n)
            }
        }
        let text = format!("x\n{}", format!("{WIKI}\n").repeat(10_000));
        let read = std::cell::Cell::new(0);
        let input = io::BufReader::with_capacity(
            4096,
            Counting {
                data: text.as_bytes(),
                read: &read,
            },
        );
        let mut reader = PuzzleReader::new(input);
        let first: Vec<_> = reader.by_ref().take(3).map(Result::unwrap).collect();
        assert_eq!(first[0].line, 1);
        assert!(first[0].grid.is_err());
        assert_eq!(first[2].line, 3);
        assert!(
            read.get() <= 8192,
            "{} bytes read for 3 puzzles",
            read.get()
        );
        assert_eq!(reader.count(), 10_000 - 2);
    }

    #[test]
    fn sixteen_by_sixteen_alphabets_are_told_apart_or_refused() {
        let auto = ReadOptions::default();
        let one = |text: &str, options| {
            let got = read_all(text, options);
            assert_eq!(got.len(), 1);
            got.into_iter().next().unwrap()
        };
        // 1-G with a G: the 0s and .s are empty.
        let text = format!("G0.{}", "1".repeat(253));
        let p = one(&text, auto);
        assert_eq!(p.alphabet, Alphabet::FromOne);
        let g = p.grid.unwrap();
        assert_eq!(g.cells()[..4], [16, 0, 0, 1]);
        // 0 and . without G: 0-F.
        let text = format!("0.F{}", "1".repeat(253));
        let p = one(&text, auto);
        assert_eq!(p.alphabet, Alphabet::FromZero);
        assert_eq!(p.grid.unwrap().cells()[..4], [1, 0, 16, 2]);
        // Lower case counts too.
        let p = one(&format!("0.f{}", "1".repeat(253)), auto);
        assert_eq!(p.grid.unwrap().cells()[2], 16);
        assert_eq!(
            one(&format!("g.{}", "0".repeat(254)), auto).alphabet,
            Alphabet::FromOne
        );
        // Neither: refused, unless the alphabet is named.
        for text in [
            ".".repeat(256),
            format!("0{}", "1".repeat(255)),
            format!("F.{}", "1".repeat(254)),
        ] {
            assert_eq!(
                one(&text, auto).grid,
                Err(ParseError::AmbiguousAlphabet),
                "{text}"
            );
            for alphabet in [Alphabet::FromOne, Alphabet::FromZero] {
                let named = ReadOptions {
                    alphabet: Some(alphabet),
                    ..auto
                };
                let p = one(&text, named);
                assert_eq!(p.alphabet, alphabet);
                assert_eq!(p.grid, Grid::parse_line_in(&text, alphabet));
                assert!(p.grid.is_ok());
            }
        }
        // Other sizes are read 1-based unless told otherwise; bad characters stay bad.
        assert_eq!(one(WIKI, auto).grid, Grid::parse_line(WIKI));
        assert!(matches!(
            one(&format!("H0.{}", "1".repeat(253)), auto).grid,
            Err(ParseError::ValueTooLarge { ch: 'H', .. })
        ));
        let zero = ReadOptions {
            alphabet: Some(Alphabet::FromZero),
            ..auto
        };
        assert_eq!(
            one("0123............", zero).grid.unwrap().cells()[..4],
            [1, 2, 3, 4]
        );
        assert!(matches!(
            one(&format!("G.{}", "1".repeat(254)), zero).grid,
            Err(ParseError::ValueTooLarge {
                ch: 'G',
                value: 17,
                ..
            })
        ));
    }

    /// Grids of every size, some missing their largest or smallest value (the cases where
    /// the alphabet of a 16x16 grid cannot be told), some with no empty cell.
    fn any_grid() -> impl proptest::strategy::Strategy<Value = Grid> {
        use proptest::prelude::*;
        (2usize..=5, 0u8..3, 0u32..3).prop_flat_map(|(b, drop, empties)| {
            let n = (b * b) as u8;
            let cell = prop_oneof![empties => Just(0u8), 3 => 1..=n];
            proptest::collection::vec(cell, usize::from(n) * usize::from(n)).prop_map(
                move |cells| {
                    let gone = [0, n, 1][usize::from(drop)];
                    let cells = cells.into_iter().map(|v| if v == gone { 0 } else { v });
                    Grid::from_cells(b, cells.collect()).unwrap()
                },
            )
        })
    }

    proptest::proptest! {
        /// Whatever the library writes, in either alphabet and either form, the reader reads
        /// back as the same grid when told the alphabet; left to tell it, it reads the same
        /// grid or refuses, and never reads another one.
        #[test]
        fn the_reader_reads_back_what_the_formatter_wrote(g in any_grid()) {
            for alphabet in [Alphabet::FromOne, Alphabet::FromZero] {
                let named = ReadOptions { form: Form::Auto, alphabet: Some(alphabet) };
                let auto = ReadOptions::default();
                let line = format!("{}\n", g.to_line_in(alphabet));
                let pretty = g.to_pretty_in(alphabet);
                for text in [&line, &pretty] {
                    let got = read_all(text, named);
                    proptest::prop_assert_eq!(got.len(), 1);
                    proptest::prop_assert_eq!(&got[0].grid, &Ok(g.clone()));
                    proptest::prop_assert_eq!(got[0].alphabet, alphabet);
                    // Left to itself the reader takes sizes other than 16x16 for 1-based.
                    if g.size() != 16 && alphabet == Alphabet::FromZero {
                        continue;
                    }
                    let got = read_all(text, auto);
                    proptest::prop_assert_eq!(got.len(), 1);
                    match &got[0].grid {
                        Ok(read) => {
                            proptest::prop_assert_eq!(read, &g);
                            proptest::prop_assert_eq!(got[0].alphabet, alphabet);
                        }
                        Err(e) => {
                            proptest::prop_assert_eq!(e, &ParseError::AmbiguousAlphabet);
                            proptest::prop_assert_eq!(g.size(), 16);
                        }
                    }
                    if g.size() != 16 {
                        proptest::prop_assert!(got[0].grid.is_ok());
                    }
                }
            }
        }
    }

    proptest::proptest! {
        /// Any bytes at all, mostly the ones puzzles are made of: the reader does not panic,
        /// yields puzzles in line order, and as a batch agrees with `Grid::parse_line` line by
        /// line.
        #[test]
        fn any_bytes_are_read_without_panic_and_in_order(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    8 => proptest::sample::select(b"0123456789.AFGgP|-+ \n#".to_vec()),
                    1 => proptest::prelude::any::<u8>(),
                ],
                0..1500,
            ),
            form in proptest::sample::select(vec![Form::Auto, Form::Lines, Form::Grid]),
        ) {
            let options = ReadOptions { form, alphabet: None };
            let mut last = 0;
            for item in PuzzleReader::with_options(&bytes[..], options) {
                let puzzle = item.unwrap();
                proptest::prop_assert!(puzzle.line > last || (form == Form::Grid && last == 0));
                last = puzzle.line;
                if form == Form::Lines {
                    let one = Grid::parse_line(&puzzle.text);
                    if let (Ok(g), Alphabet::FromOne) = (&puzzle.grid, puzzle.alphabet) {
                        proptest::prop_assert_eq!(Ok(g.clone()), one);
                    }
                }
            }
        }
    }
}
