//! `Grid::parse_grid` (a puzzle written one row per line, as `to_pretty` prints it) and
//! `Grid::from_str`, which picks the form by the number of non-blank lines: both must agree
//! with a second reading written from the documentation, including which error comes first,
//! and every grid accepted must pass `check_grid`.
#![no_main]

use bezzel_fuzz::{actual, check_reading, expected_grid, expected_line, without_bom};
use bezzel_sudoku::grid::Grid;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check_reading(text, &Grid::parse_grid(text), expected_grid(text));

    // FromStr: one leading byte-order mark skipped, then grid form for text with more than one
    // non-blank line, line form otherwise. FromStr reads the text as given: handing it the
    // text already without its mark would let it skip a second one.
    let rest = without_bom(text);
    let multi_line = rest.split('\n').filter(|l| !l.trim().is_empty()).count() > 1;
    let expected = if multi_line {
        expected_grid(rest)
    } else {
        expected_line(rest)
    };
    assert_eq!(actual(&text.parse::<Grid>()), expected, "{text:?}");
});
