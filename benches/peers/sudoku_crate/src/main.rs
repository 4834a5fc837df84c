//! Solves every 9x9 puzzle of a file (one per line, 81 characters, `.` or `0` for empty cells,
//! `#` comments) and proves each solution unique with the `sudoku` crate, then prints
//! `puzzles: P, unique: U, multiple: M, no solution: N, time: T s` to stderr, where the time
//! covers the solving only (reading and parsing are outside it), as Bezzel's `--stats` does.

use std::process::ExitCode;
use std::time::Instant;
use sudoku::Sudoku;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: sudoku-crate-peer FILE");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("sudoku-crate-peer: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut puzzles = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match Sudoku::from_str_line(line) {
            Ok(s) => puzzles.push(s),
            Err(e) => {
                eprintln!("sudoku-crate-peer: {path}:{}: {e:?}", number + 1);
                return ExitCode::from(2);
            }
        }
    }
    let (mut unique, mut multiple, mut none) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    for &s in &puzzles {
        match s.solutions_count_up_to(2) {
            0 => none += 1,
            1 => unique += 1,
            _ => multiple += 1,
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "puzzles: {}, unique: {unique}, multiple: {multiple}, no solution: {none}, time: {secs:.6} s",
        puzzles.len()
    );
    ExitCode::SUCCESS
}
