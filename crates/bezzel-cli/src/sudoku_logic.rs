//! `sudoku rate`, `sudoku hint` and `sudoku explain`: the library's logical solver
//! ([`bezzel_sudoku::logic`]) over the puzzles of the inputs, one answer per puzzle, in order.

use crate::input::{Input, check_inputs, io_reason};
use crate::{Failure, escape, warn};
use bezzel_sudoku::batch::location;
use bezzel_sudoku::grid::Grid;
use bezzel_sudoku::logic::{self, Candidates, Difficulty, Grade, Rating};
use bezzel_sudoku::reader::{PuzzleReader, ReadOptions};
use std::io::Read;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

/// Which of the three commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// The grade of each puzzle: `score difficulty technique`.
    Rate,
    /// The next logical step of each puzzle.
    Hint,
    /// Every step of each puzzle's logical solution.
    Explain,
}

/// How `sudoku hint` shows its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum HintFormat {
    /// The step in words.
    #[default]
    Text,
    /// The grid of candidates (pencil marks, in the format `--candidates` reads), then the
    /// step in words.
    Board,
    /// One SVG picture of every grid's candidates, the step's cells and candidates
    /// highlighted.
    Svg,
}

/// What `sudoku hint` reads and prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HintOptions {
    /// Each input is one grid of candidates ([`Candidates::from_marks`]), not puzzles.
    pub candidates: bool,
    /// How the answer is shown.
    pub format: HintFormat,
}

/// The most bytes of pencil marks read: far above the largest grid's marks, and a bound on
/// the memory an endless input (a pipe from /dev/zero, say) can take.
const MARKS_LIMIT: u64 = 1 << 20;

/// Answers every puzzle of `files` (stdin when none): status 0, or 2 when a puzzle could not
/// be read.
pub fn run(
    ask: Ask,
    files: &[PathBuf],
    read: ReadOptions,
    hint: HintOptions,
    quiet: bool,
) -> Result<u8, Failure> {
    let inputs = check_inputs(files).map_err(Failure::input)?;
    if hint.candidates || hint.format != HintFormat::Text {
        return hints(&inputs, read, hint);
    }
    let named = inputs.len() > 1;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut errors = 0u64;
    let mut scores: Vec<f32> = Vec::new();
    let mut levels = [0u64; Difficulty::ALL.len()];
    for input in &inputs {
        let name = input.name();
        let (reader, _) = input.open().map_err(Failure::input)?;
        let file = named.then(|| escape(&name));
        each_puzzle(reader, read, &name, file.as_deref(), |where_, grid| {
            let grid = match grid {
                Ok(grid) => grid,
                Err(e) => {
                    errors += 1;
                    return report(&mut out, &where_, &e);
                }
            };
            match ask {
                Ask::Rate => {
                    let rating = logic::rate(grid);
                    scores.push(rating.score());
                    levels[rating.difficulty() as usize] += 1;
                    writeln!(out, "{}", rating_line(&rating))?;
                }
                Ask::Hint => {
                    let candidates = Candidates::new(grid);
                    match logic::next_step(&candidates) {
                        Some(step) => writeln!(out, "{}", step.describe(grid.size()))?,
                        None => writeln!(out, "{}", stuck(&candidates))?,
                    }
                }
                Ask::Explain => explain(&mut out, grid, &where_)?,
            }
            Ok(())
        })?;
        out.flush()?;
    }
    out.flush()?;
    if ask == Ask::Rate && !quiet && !scores.is_empty() {
        scores.sort_by(f32::total_cmp);
        let counts: Vec<String> = Difficulty::ALL
            .iter()
            .zip(levels)
            .map(|(d, k)| format!("{d}: {k}"))
            .collect();
        warn(&format!(
            "puzzles: {}, median score: {:.1}, {}, errors: {errors}",
            scores.len(),
            scores[scores.len() / 2],
            counts.join(", ")
        ));
    }
    Ok(if errors > 0 { 2 } else { 0 })
}

/// `score difficulty technique`: `4.2 hard xy-wing`, `10.0 beyond (stuck after x-wing, 47
/// cells open)`.
fn rating_line(rating: &Rating) -> String {
    let score = rating.score();
    let level = rating.difficulty();
    match rating.grade {
        Grade::Solved { hardest, .. } => format!(
            "{score:.1} {level} {}",
            hardest.map_or("none (already full)", |t| t.name())
        ),
        Grade::BeyondLogic { hardest, open } => format!(
            "{score:.1} {level} (stuck after {}, {open} cells open)",
            hardest.map_or("nothing", |t| t.name())
        ),
    }
}

/// What a grid no technique moves says: solved, or stuck with so many cells open.
fn stuck(grid: &Candidates) -> String {
    if grid.is_solved() {
        return "solved".to_string();
    }
    let n = grid.size();
    let open = (0..n * n).filter(|&c| grid.value(c) == 0).count();
    format!("stuck: no technique here applies, {open} cells open")
}

/// Every step, one per line, after a `# {where_}` header, then `solved` or `stuck`.
fn explain(out: &mut impl Write, puzzle: &Grid, where_: &str) -> io::Result<()> {
    writeln!(out, "# {where_}")?;
    let (steps, grid) = logic::explain(puzzle);
    for (i, step) in steps.iter().enumerate() {
        writeln!(out, "{}. {}", i + 1, step.describe(puzzle.size()))?;
    }
    writeln!(out, "{}", stuck(&grid))
}

/// `sudoku hint` with candidates read or drawn: every grid's step, as `hint.format` says;
/// status 0, or 2 when an input could not be read (its error on stderr and in the output).
fn hints(inputs: &[Input], read: ReadOptions, hint: HintOptions) -> Result<u8, Failure> {
    let named = inputs.len() > 1;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut errors = 0u64;
    let mut pictures = Vec::new();
    let mut answer = |out: &mut BufWriter<_>, where_: String, grid: Candidates| -> io::Result<()> {
        let step = logic::next_step(&grid);
        let words = step
            .as_ref()
            .map_or_else(|| stuck(&grid), |s| s.describe(grid.size()));
        match hint.format {
            HintFormat::Text => writeln!(out, "{words}"),
            HintFormat::Board => write!(out, "# {where_}\n{}# {words}\n", grid.to_marks()),
            HintFormat::Svg => {
                pictures.push((format!("{where_}: {words}"), grid, step));
                Ok(())
            }
        }
    };
    for input in inputs {
        let name = input.name();
        let (mut reader, _) = input.open().map_err(Failure::input)?;
        let file = named.then(|| escape(&name));
        if hint.candidates {
            let mut text = String::new();
            (&mut reader)
                .take(MARKS_LIMIT + 1)
                .read_to_string(&mut text)
                .map_err(|e| Failure::input(format!("cannot read {name}: {}", io_reason(&e))))?;
            if text.len() as u64 > MARKS_LIMIT {
                return Err(Failure::input(format!(
                    "{name}: pencil marks larger than {MARKS_LIMIT} bytes (a 25x25 grid of marks needs about 20 KB)"
                )));
            }
            let where_ = file.clone().unwrap_or_else(|| "candidates".to_string());
            match Candidates::from_marks(&text) {
                Ok(grid) => answer(&mut out, where_, grid)?,
                Err(e) => {
                    errors += 1;
                    report(&mut out, &where_, &e.to_string())?;
                }
            }
            continue;
        }
        each_puzzle(
            reader,
            read,
            &name,
            file.as_deref(),
            |where_, grid| match grid {
                Ok(grid) => answer(&mut out, where_, Candidates::new(grid)),
                Err(e) => {
                    errors += 1;
                    report(&mut out, &where_, &e)
                }
            },
        )?;
    }
    if hint.format == HintFormat::Svg {
        out.write_all(bezzel_sudoku::svg::hints(&pictures).as_bytes())?;
    }
    out.flush()?;
    Ok(if errors > 0 { 2 } else { 0 })
}

/// Each puzzle of `reader` (the input `name`, called `file` in answers when there are
/// several) to `each`, with where it is and its grid, or why it is not one (unreadable, or a
/// value twice in a unit). An input that cannot be read at all ends the walk.
fn each_puzzle(
    reader: impl io::BufRead,
    read: ReadOptions,
    name: &str,
    file: Option<&str>,
    mut each: impl FnMut(String, Result<&Grid, String>) -> io::Result<()>,
) -> Result<(), Failure> {
    for item in PuzzleReader::with_options(reader, read) {
        let puzzle = item.map_err(|e| {
            Failure::input(format!(
                "cannot read {name} at line {}: {}",
                e.line,
                io_reason(&e.error)
            ))
        })?;
        let grid = puzzle
            .grid
            .as_ref()
            .map_err(ToString::to_string)
            .and_then(|g| g.first_clash().map_or(Ok(g), |c| Err(format!("{c}"))));
        each(location(file, puzzle.line), grid)?;
    }
    Ok(())
}

/// A puzzle that is not one: on stderr, and in the output in its place.
fn report(out: &mut impl Write, where_: &str, error: &str) -> io::Result<()> {
    warn(&format!("sudoku: {where_}: {error}"));
    writeln!(out, "error: {where_}: {error}")
}
