//! `sudoku rate`, `sudoku hint` and `sudoku explain`: the library's logical solver
//! ([`bezzel_sudoku::logic`]) over the puzzles of the inputs, one answer per puzzle, in order.

use crate::input::{check_inputs, io_reason};
use crate::{Failure, escape, warn};
use bezzel_sudoku::batch::location;
use bezzel_sudoku::grid::Grid;
use bezzel_sudoku::logic::{self, Candidates, Difficulty, Grade, Rating};
use bezzel_sudoku::reader::{PuzzleReader, ReadOptions};
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

/// Answers every puzzle of `files` (stdin when none): status 0, or 2 when a puzzle could not
/// be read.
pub fn run(ask: Ask, files: &[PathBuf], read: ReadOptions, quiet: bool) -> Result<u8, Failure> {
    let inputs = check_inputs(files).map_err(Failure::input)?;
    let named = inputs.len() > 1;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut errors = 0u64;
    let mut scores: Vec<f32> = Vec::new();
    let mut levels = [0u64; Difficulty::ALL.len()];
    for input in &inputs {
        let name = input.name();
        let (reader, _) = input.open().map_err(Failure::input)?;
        for item in PuzzleReader::with_options(reader, read) {
            let puzzle = item.map_err(|e| {
                Failure::input(format!(
                    "cannot read {name} at line {}: {}",
                    e.line,
                    io_reason(&e.error)
                ))
            })?;
            let file = named.then(|| escape(&name));
            let where_ = location(file.as_deref(), puzzle.line);
            let grid = match puzzle
                .grid
                .as_ref()
                .map_err(ToString::to_string)
                .and_then(|g| g.first_clash().map_or(Ok(g), |c| Err(format!("{c}"))))
            {
                Ok(grid) => grid,
                Err(e) => {
                    warn(&format!("sudoku: {where_}: {e}"));
                    writeln!(out, "error: {where_}: {e}")?;
                    errors += 1;
                    continue;
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
        }
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
