//! `Grid::parse_line`, the reader for one puzzle on one line (the CLI's argument and batch
//! lines): it must agree with a second reading written from the documentation, cell for cell
//! and error for error, and every grid it accepts must pass `check_grid` (round trips through
//! both text forms, clash finders against a plain count, the independent checker, and for 4x4
//! the solver against brute force).
#![no_main]

use bezzel_fuzz::{check_reading, expected_line};
use bezzel_sudoku::grid::Grid;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The reader takes text; the CLI turns bytes that are not UTF-8 into an error before it.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check_reading(text, &Grid::parse_line(text), expected_line(text));
});
