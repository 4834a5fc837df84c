//! `reader::PuzzleReader`, the streaming reader the sudoku command runs on files and stdin.
//!
//! - However the bytes arrive (a buffer of 1 to 16 bytes, chosen by the input, or all at
//!   once), the reader yields the same puzzles: reading a line at a time must not depend on
//!   where the reads stop.
//! - As a batch in the default alphabet, text without over-long lines reads as the
//!   documentation of the line form says, line by line (`parse_batch` is this same reader
//!   now, so the reading is compared with one written from the documentation instead).
//! - Every grid it yields, in any form or alphabet, passes `check_grid`, and reads back from
//!   the puzzle's own text in the alphabet the reader reports.
#![no_main]

use bezzel_fuzz::{actual, check_grid, expected_batch};
use bezzel_sudoku::grid::Alphabet;
use bezzel_sudoku::reader::{Form, MAX_LINE_BYTES, Puzzle, PuzzleReader, ReadOptions};
use libfuzzer_sys::fuzz_target;
use std::io::BufReader;

fn read(bytes: &[u8], options: ReadOptions, buffer: Option<usize>) -> Vec<Puzzle> {
    let items: Vec<_> = match buffer {
        None => PuzzleReader::with_options(bytes, options).collect(),
        Some(capacity) => {
            PuzzleReader::with_options(BufReader::with_capacity(capacity, bytes), options).collect()
        }
    };
    // Reading from memory fails only after a line longer than the limit, which ends the input.
    let mut puzzles = Vec::new();
    for item in items {
        match item {
            Ok(puzzle) => puzzles.push(puzzle),
            Err(e) => {
                let over_long = bytes
                    .split(|&b| b == b'\n')
                    .any(|l| l.len() > MAX_LINE_BYTES);
                assert!(over_long, "{e}");
                break;
            }
        }
    }
    puzzles
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, bytes)) = data.split_first() else {
        return;
    };
    let form = match choice % 3 {
        0 => Form::Auto,
        1 => Form::Lines,
        _ => Form::Grid,
    };
    let alphabet = match (choice / 3) % 3 {
        0 => None,
        1 => Some(Alphabet::FromOne),
        _ => Some(Alphabet::FromZero),
    };
    let options = ReadOptions { form, alphabet };
    let buffer = usize::from(choice / 9) % 16 + 1;

    let whole = read(bytes, options, None);
    assert_eq!(
        read(bytes, options, Some(buffer)),
        whole,
        "buffer of {buffer} bytes"
    );

    for puzzle in &whole {
        assert!(puzzle.line >= 1);
        if let Ok(g) = &puzzle.grid {
            check_grid(g);
            if alphabet.is_some() {
                assert_eq!(Some(puzzle.alphabet), alphabet);
            }
            // The puzzle's text is what was read: it reads back in the reported alphabet.
            let again = match puzzle.text.lines().filter(|l| !l.trim().is_empty()).count() {
                0 | 1 => bezzel_sudoku::grid::Grid::parse_line_in(&puzzle.text, puzzle.alphabet),
                _ => bezzel_sudoku::grid::Grid::parse_grid_in(&puzzle.text, puzzle.alphabet),
            };
            assert_eq!(again.as_ref(), Ok(g), "{:?}", puzzle.text);
        }
    }

    // A batch in the default alphabet reads as the line form's documentation says.
    if let Ok(text) = std::str::from_utf8(bytes)
        && form == Form::Lines
        && alphabet == Some(Alphabet::FromOne)
        && text.split('\n').all(|l| l.len() <= MAX_LINE_BYTES)
    {
        let found: Vec<_> = whole.iter().map(|p| (p.line, actual(&p.grid))).collect();
        assert_eq!(found, expected_batch(text), "{text:?}");
    }
});
