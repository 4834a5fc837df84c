//! `parse_batch` and `PuzzleLines`, the reader for files of puzzles (one per line, `#`
//! starting a comment to the end of its line, blank lines): every line that holds more than
//! blanks and a comment must come back exactly
//! once, in order, with its right 1-based line number and the line form's reading of it; the
//! two entry points must agree; and every grid accepted must pass `check_grid`. Both are the
//! streaming `PuzzleReader` over the text, so lines longer than its `MAX_LINE_BYTES` (an
//! error of their own there) are left to the `sudoku_reader` target.
#![no_main]

use bezzel_fuzz::{actual, check_grid, expected_batch};
use bezzel_sudoku::reader::{MAX_LINE_BYTES, PuzzleLines, parse_batch};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if text.split('\n').any(|l| l.len() > MAX_LINE_BYTES) {
        return;
    }
    let batch = parse_batch(text);

    // The puzzles as the documentation describes them.
    let expected = expected_batch(text);
    let found: Vec<_> = batch
        .iter()
        .map(|(number, result)| (*number, actual(result)))
        .collect();
    assert_eq!(found, expected, "{text:?}");

    // The iterator is the streaming form of the same reading.
    let streamed: Vec<_> = PuzzleLines::new(text).collect();
    assert_eq!(streamed, batch);

    for (_, result) in &batch {
        if let Ok(g) = result {
            check_grid(g);
        }
    }
});
