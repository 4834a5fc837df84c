//! Nonogram: fill the cells of a grid so that the runs of filled cells in each row and each
//! column have the lengths of its clue. Each line is a `regular` constraint over the
//! automaton of its clue ([`Dfa::nonogram_row`]).
//!
//! ```text
//! cargo run --release --example nonogram -- benches/data/nonogram25.txt
//! ```
//!
//! The file holds `rows cols`, then one line of clues per row (top to bottom), then one per
//! column (left to right); an empty line is an empty clue, and lines starting with `#` are
//! comments. Search fixes the cells row by row, filled first (as Gecode's
//! `examples/nonogram.cpp`), and stops at the second solution: it prints the pictures
//! (`#` filled, `.` blank) and says whether the puzzle has one solution, several or none. The
//! statistics (`nodes: ..., time: ... s`) go to stderr.

use bezzel::core::constraints::Dfa;
use bezzel::prelude::*;
use std::process::ExitCode;

/// A puzzle: the clues of each row, then of each column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Puzzle {
    pub(crate) rows: Vec<Vec<usize>>,
    pub(crate) cols: Vec<Vec<usize>>,
}

/// Reads a puzzle in the format above; the error says which line is wrong and why.
pub(crate) fn parse(text: &str) -> Result<Puzzle, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with('#'))
        .map(|(i, l)| (i + 1, l));
    let numbers = |(at, line): (usize, &str)| -> Result<Vec<usize>, String> {
        line.split_whitespace()
            .map(|w| {
                w.parse::<usize>()
                    .map_err(|_| format!("line {at}: `{w}` is not a number"))
            })
            .collect()
    };
    let size = lines.next().ok_or("empty file: expected `rows cols`")?;
    let (h, w) = match numbers(size)?[..] {
        [h, w] if (1..=1000).contains(&h) && (1..=1000).contains(&w) => (h, w),
        _ => {
            return Err(format!(
                "line {}: expected `rows cols`, each 1 to 1000",
                size.0
            ));
        }
    };
    let mut clue = |kind: &str, i: usize, length: usize| -> Result<Vec<usize>, String> {
        let line = lines
            .next()
            .ok_or(format!("the file ends before the clue of {kind} {}", i + 1))?;
        let blocks: Vec<usize> = numbers(line)?.into_iter().filter(|&b| b > 0).collect();
        let needed = blocks.iter().sum::<usize>() + blocks.len().saturating_sub(1);
        if needed > length {
            return Err(format!(
                "line {}: the clue of {kind} {} needs {needed} cells; it has {length}",
                line.0,
                i + 1
            ));
        }
        Ok(blocks)
    };
    let rows = (0..h)
        .map(|r| clue("row", r, w))
        .collect::<Result<_, _>>()?;
    let cols = (0..w)
        .map(|c| clue("column", c, h))
        .collect::<Result<_, _>>()?;
    if let Some((at, _)) = lines.find(|(_, l)| !l.trim().is_empty()) {
        return Err(format!(
            "line {at}: more lines than {h} rows and {w} columns"
        ));
    }
    Ok(Puzzle { rows, cols })
}

/// The model: the solver, set to branch row by row with filled cells first, and the cells.
pub(crate) fn model(p: &Puzzle) -> Result<(Solver, Matrix), ModelError> {
    let mut m = Model::new();
    let cells = m.int_matrix("cell", p.rows.len(), p.cols.len(), 0..=1)?;
    for (row, clue) in cells.rows().zip(&p.rows) {
        m.regular(&row, &Dfa::nonogram_row(clue))?;
    }
    for (column, clue) in cells.columns().zip(&p.cols) {
        m.regular(&column, &Dfa::nonogram_row(clue))?;
    }
    let config = SearchConfig {
        var_order: VarOrder::InputOrder,
        value_order: ValueOrder::Max,
        ..SearchConfig::default()
    };
    let solver = Solver::with_config(m, config).branch_on(cells.as_slice())?;
    Ok((solver, cells))
}

/// A solution as a picture: one line per row, `#` for a filled cell and `.` for a blank.
pub(crate) fn picture(solution: &Solution, cells: &Matrix) -> String {
    cells
        .rows()
        .map(|row| {
            row.iter()
                .map(|&x| if solution[x] == 1 { '#' } else { '.' })
                .collect()
        })
        .collect::<Vec<String>>()
        .join("\n")
}

fn main() -> ExitCode {
    let (Some(path), None) = (std::env::args().nth(1), std::env::args().nth(2)) else {
        eprintln!("usage: nonogram FILE");
        return ExitCode::from(2);
    };
    let puzzle = std::fs::read_to_string(&path)
        .map_err(|e| e.to_string())
        .and_then(|text| parse(&text));
    let (mut solver, cells) = match puzzle.map(|p| model(&p)) {
        Ok(Ok(model)) => model,
        Ok(Err(e)) => {
            eprintln!("nonogram: {path}: {e}");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("nonogram: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    // Two solutions are enough to tell a unique puzzle from one with several.
    let found: Vec<Solution> = solver.solutions().take(2).collect();
    for solution in &found {
        println!("{}\n", picture(solution, &cells));
    }
    match found.len() {
        0 => println!("no solution"),
        1 => println!("the solution is unique"),
        _ => println!("several solutions (search stopped at the second)"),
    }
    eprintln!("{}", solver.stats());
    ExitCode::SUCCESS
}
