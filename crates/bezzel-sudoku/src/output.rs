//! Answers written as the `sudoku` program prints them, one puzzle after another in input
//! order: a line each, a header and the grid each, a JSON object each, or, in
//! [`Style::Svg`], every answer kept and drawn as one picture ([`svg::sheet`]) when
//! [`Output::finish`] is called.
//!
//! Each answer is written in the puzzle's own alphabet, through [`Answer::text`],
//! [`Answer::board`] or [`Answer::json`]; the picture gives each puzzle the header line of the
//! board form as its caption, and shows a solution only where the answer settles it (unique,
//! or a first solution).
//!
//! ```
//! use bezzel_sudoku::batch::{Batch, Mode, Settings};
//! use bezzel_sudoku::output::{Output, Style};
//! use bezzel_sudoku::reader::PuzzleReader;
//!
//! let text = "1234\n....3..2..4....3\n";
//! let puzzles: Vec<_> = PuzzleReader::new(text.as_bytes()).collect::<Result<_, _>>()?;
//! let answers = Batch::new(Settings::default(), 1)?.answer(&puzzles);
//! let mut out = Output::new(Vec::new(), Style::Text, Mode::Unique);
//! for (p, a) in puzzles.iter().zip(&answers) {
//!     out.write(p, a, None, &format!("line {}", p.line))?;
//! }
//! out.finish()?;
//! let text = String::from_utf8(out.into_inner())?;
//! assert!(text.starts_with("error: line 1: "));
//! assert_eq!(text.lines().nth(1), Some("1234341223414123"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::batch::{Answer, Mode};
use crate::grid::{Alphabet, Grid};
use crate::model::Status;
use crate::reader::Puzzle;
use crate::svg::{self, Entry};
use std::io::{self, Write};

/// How an [`Output`] writes answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// One line per puzzle ([`Answer::text`]).
    Text,
    /// A `# line L: status` header and the grid with box separators ([`Answer::board`]).
    Board,
    /// One JSON object per line ([`Answer::json`]).
    Json,
    /// One SVG picture of every answer, drawn by [`Output::finish`].
    Svg,
}

/// Where answers go: written as they come, or, in [`Style::Svg`], kept and drawn as one
/// picture by [`finish`](Output::finish).
#[derive(Debug)]
pub struct Output<W: Write> {
    w: W,
    style: Style,
    mode: Mode,
    pictures: Vec<Picture>,
}

/// One answer as [`Style::Svg`] draws it: the board form's header line, the puzzle, and the
/// solution when there is one to show.
#[derive(Debug)]
struct Picture {
    caption: String,
    puzzle: Option<Grid>,
    solution: Option<Grid>,
    alphabet: Alphabet,
}

impl<W: Write> Output<W> {
    /// An output writing to `w` in `style` the answers to what `mode` asks.
    pub fn new(w: W, style: Style, mode: Mode) -> Output<W> {
        Output {
            w,
            style,
            mode,
            pictures: Vec::new(),
        }
    }

    /// Writes the answer to `puzzle` (kept for the picture in [`Style::Svg`]); `file` names
    /// the input in JSON (when there are several), `location` says where the puzzle is in
    /// the other styles (see [`location`](crate::batch::location)).
    pub fn write(
        &mut self,
        puzzle: &Puzzle,
        answer: &Answer,
        file: Option<&str>,
        location: &str,
    ) -> io::Result<()> {
        let (mode, alphabet) = (self.mode, puzzle.alphabet);
        match self.style {
            Style::Text => writeln!(self.w, "{}", answer.text(mode, alphabet, location)),
            Style::Board => write!(self.w, "{}", answer.board(mode, alphabet, location)),
            Style::Json => {
                let json =
                    serde_json::to_string(&answer.json(file, puzzle)).map_err(io::Error::other)?;
                writeln!(self.w, "{json}")
            }
            Style::Svg => {
                self.pictures.push(picture(answer, mode, puzzle, location));
                Ok(())
            }
        }
    }

    /// Flushes what was written so far.
    pub fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }

    /// Draws the picture in [`Style::Svg`] (with no answer kept, one that says so), and
    /// flushes the writer.
    pub fn finish(&mut self) -> io::Result<()> {
        if self.style == Style::Svg {
            let entries: Vec<Entry<'_>> = self
                .pictures
                .iter()
                .map(|p| Entry {
                    caption: &p.caption,
                    puzzle: p.puzzle.as_ref(),
                    solution: p.solution.as_ref(),
                    alphabet: p.alphabet,
                })
                .collect();
            self.w.write_all(svg::sheet(&entries).as_bytes())?;
        }
        self.w.flush()
    }

    /// The writer back, as it is (call [`finish`](Output::finish) first).
    pub fn into_inner(self) -> W {
        self.w
    }
}

/// What [`Style::Svg`] draws of an answer: the header of the board form as its caption, the
/// puzzle (when it could be read) and the solution it shows.
fn picture(answer: &Answer, mode: Mode, puzzle: &Puzzle, location: &str) -> Picture {
    let header = answer.board(mode, puzzle.alphabet, location);
    let caption = header.lines().next().unwrap_or("");
    let solution = match answer {
        Answer::Done(o) if matches!(o.status(), Status::Unique | Status::Solved) => {
            o.solution.clone()
        }
        _ => None,
    };
    Picture {
        caption: caption.trim_start_matches("# ").to_string(),
        puzzle: puzzle.grid.as_ref().ok().cloned(),
        solution,
        alphabet: puzzle.alphabet,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{Batch, Settings};
    use crate::check;
    use crate::reader::PuzzleReader;

    use crate::wikipedia::{PUZZLE, SOLUTION};

    fn answered(style: Style, mode: Mode) -> String {
        let text = format!("{PUZZLE}\n1.3.\n");
        let puzzles: Vec<Puzzle> = PuzzleReader::new(text.as_bytes())
            .collect::<Result<_, _>>()
            .expect("read");
        let settings = Settings {
            mode,
            ..Settings::default()
        };
        let answers = Batch::new(settings, 1).expect("batch").answer(&puzzles);
        let mut out = Output::new(Vec::new(), style, mode);
        for (p, a) in puzzles.iter().zip(&answers) {
            out.write(p, a, None, &format!("line {}", p.line))
                .expect("written");
        }
        out.finish().expect("finished");
        String::from_utf8(out.into_inner()).expect("UTF-8")
    }

    #[test]
    fn each_style_gives_the_published_solution() {
        let text = answered(Style::Text, Mode::Unique);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], SOLUTION);
        assert!(lines[1].starts_with("error: line 2: "), "{}", lines[1]);
        // The independent checker agrees that the printed line solves the puzzle.
        let puzzle = Grid::parse_line(PUZZLE).expect("a grid");
        let printed = Grid::parse_line(lines[0]).expect("a grid");
        assert_eq!(check::is_valid_solution(&puzzle, &printed), Ok(()));

        let json: Vec<serde_json::Value> = answered(Style::Json, Mode::Unique)
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect();
        assert_eq!(json[0]["solution"], SOLUTION);
        assert_eq!(json[0]["status"], "unique");
        assert_eq!(json[1]["status"], "error");

        let board = answered(Style::Board, Mode::First);
        assert!(board.starts_with("# line 1: solved\n"), "{board}");
        assert!(board.contains("# line 2: error: "));
    }

    #[test]
    fn svg_is_one_picture_of_every_answer() {
        let svg = answered(Style::Svg, Mode::Unique);
        assert_eq!(svg.matches("<svg").count(), 1);
        assert!(svg.contains("line 1: unique") && svg.contains("line 2: error"));
        let mut out = Output::new(Vec::new(), Style::Svg, Mode::Unique);
        out.finish().expect("finished");
        let none = String::from_utf8(out.into_inner()).expect("UTF-8");
        assert!(none.contains("no puzzles"));
    }
}
