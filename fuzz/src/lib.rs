//! Checks shared by the fuzz targets in `fuzz_targets/`.
//!
//! Each target feeds text to one of the library's readers and then checks what came back
//! against something that does not share its code: a second reading written from the
//! documentation alone, a round trip through the writer, or a brute-force checker. A failed
//! check panics, which libFuzzer reports as a crash and saves the input under
//! `fuzz/artifacts/<target>/`.

use bezzel_sudoku::check;
use bezzel_sudoku::grid::{Alphabet, Clash, Grid, ParseError, Unit};
use bezzel_sudoku::model;

/// The cell symbols by value, `1` first; `.` and `0` (empty) are handled apart. Written out
/// here rather than taken from `grid::char_value` so that a mistake there shows up as a
/// disagreement instead of being copied.
const SYMBOLS: &str = "123456789ABCDEFGHIJKLMNOP";

/// The value of a cell symbol as the module documentation defines it.
fn symbol_value(ch: char) -> Option<u8> {
    if ch == '.' || ch == '0' {
        return Some(0);
    }
    let upper = ch.to_ascii_uppercase();
    // SYMBOLS is ASCII, so a byte index is a value index.
    SYMBOLS
        .char_indices()
        .find(|&(_, s)| s == upper)
        .map(|(i, _)| i as u8 + 1)
}

/// What a reading of a text should give, in a form both readings can be compared in.
///
/// The error variants keep the fields the documentation promises, so a wrong position or
/// row in an error message is caught as surely as a wrong cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// A grid with this side and these cells, row by row.
    Grid {
        /// The side `N`.
        side: usize,
        /// `N * N` values, 0 for empty.
        cells: Vec<u8>,
    },
    /// A line form of an unsupported length.
    WrongLength {
        /// Characters found after trimming.
        found: usize,
        /// The nearest supported length.
        expected: usize,
    },
    /// A character that is not a symbol (nor, in grid form, a separator).
    IllegalChar {
        /// The character.
        ch: char,
        /// 1-based place in its line.
        position: usize,
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
    },
    /// A symbol for a value above `N`.
    ValueTooLarge {
        /// The character.
        ch: char,
        /// 1-based place in its line.
        position: usize,
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
    },
    /// A grid form with an unsupported number of rows.
    WrongRowCount {
        /// Rows found.
        found: usize,
        /// The nearest supported count.
        expected: usize,
    },
    /// A grid-form row with the wrong number of cells.
    WrongRowLength {
        /// 1-based row.
        row: usize,
        /// Cells found in it.
        found: usize,
    },
    /// A 16x16 puzzle whose alphabet cannot be told (only the streaming reader says this).
    AmbiguousAlphabet,
    /// A line past the streaming reader's limit.
    LineTooLong,
}

/// The supported sides, from the module documentation (box sizes 2 to 5).
const SIDES: [usize; 4] = [4, 9, 16, 25];

/// The candidate closest to `x` (the documentation promises no ties for these candidates).
fn closest(x: usize, candidates: impl Iterator<Item = usize>) -> usize {
    candidates
        .min_by_key(|&c| c.abs_diff(x))
        .expect("candidates are never empty")
}

/// Reads one cell of an `side`x`side` grid the way the documentation says.
fn read_cell(
    ch: char,
    side: usize,
    position: usize,
    row: usize,
    col: usize,
) -> Result<u8, Reading> {
    match symbol_value(ch) {
        None => Err(Reading::IllegalChar {
            ch,
            position,
            row,
            col,
        }),
        Some(v) if usize::from(v) > side => Err(Reading::ValueTooLarge {
            ch,
            position,
            row,
            col,
        }),
        Some(v) => Ok(v),
    }
}

/// `text` without the byte-order mark that `Grid::from_str`, `PuzzleLines` and the streaming
/// reader skip at the very start (the line and grid readers themselves do not).
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The puzzles of a batch as the line form's documentation describes them, with their line
/// numbers: a plain split on '\n' (a '\r' left at a line's end is trimmed with the other
/// whitespace) after a leading BOM, comments and blank lines left out.
pub fn expected_batch(text: &str) -> Vec<(usize, Reading)> {
    without_bom(text)
        .split('\n')
        .enumerate()
        .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or("").trim()))
        .filter(|(_, line)| !line.is_empty())
        .map(|(number, line)| (number, expected_line(line)))
        .collect()
}

/// The line form, read from its documentation: trim, the length picks the side, then the
/// first bad character from the left.
pub fn expected_line(text: &str) -> Reading {
    let chars: Vec<char> = text.trim().chars().collect();
    let Some(side) = SIDES.into_iter().find(|s| s * s == chars.len()) else {
        return Reading::WrongLength {
            found: chars.len(),
            expected: closest(chars.len(), SIDES.into_iter().map(|s| s * s)),
        };
    };
    let mut cells = Vec::with_capacity(chars.len());
    for (i, &ch) in chars.iter().enumerate() {
        match read_cell(ch, side, i + 1, i / side + 1, i % side + 1) {
            Ok(v) => cells.push(v),
            Err(e) => return e,
        }
    }
    Reading::Grid { side, cells }
}

/// The grid form, read from its documentation. Lines are split on `\n` alone (a `\r` before
/// it is whitespace and so ignored), where the library uses `str::lines`: the two must agree.
pub fn expected_grid(text: &str) -> Reading {
    let mut rows: Vec<Vec<(char, usize)>> = Vec::new();
    for line in text.split('\n') {
        let mut row = Vec::new();
        for (i, ch) in line.chars().enumerate() {
            if ch.is_whitespace() || matches!(ch, '|' | '-' | '+') {
                continue;
            }
            if symbol_value(ch).is_none() {
                return Reading::IllegalChar {
                    ch,
                    position: i + 1,
                    row: rows.len() + 1,
                    col: row.len() + 1,
                };
            }
            row.push((ch, i + 1));
        }
        if !row.is_empty() {
            rows.push(row);
        }
    }
    let side = rows.len();
    if !SIDES.contains(&side) {
        return Reading::WrongRowCount {
            found: side,
            expected: closest(side, SIDES.into_iter()),
        };
    }
    if let Some((r, row)) = rows.iter().enumerate().find(|(_, row)| row.len() != side) {
        return Reading::WrongRowLength {
            row: r + 1,
            found: row.len(),
        };
    }
    let mut cells = Vec::with_capacity(side * side);
    for (r, row) in rows.iter().enumerate() {
        for (c, &(ch, position)) in row.iter().enumerate() {
            match read_cell(ch, side, position, r + 1, c + 1) {
                Ok(v) => cells.push(v),
                Err(e) => return e,
            }
        }
    }
    Reading::Grid { side, cells }
}

/// The library's answer in the same form, checking on the way that each error's own fields
/// agree with each other and that its message can be written.
pub fn actual(result: &Result<Grid, ParseError>) -> Reading {
    match result {
        Ok(g) => Reading::Grid {
            side: g.size(),
            cells: g.cells().to_vec(),
        },
        Err(e) => {
            // The message is what a user sees: writing it must not panic and must say something.
            assert!(!e.to_string().is_empty());
            match *e {
                ParseError::WrongLength { found, expected } => {
                    Reading::WrongLength { found, expected }
                }
                ParseError::IllegalChar {
                    ch,
                    position,
                    row,
                    col,
                } => Reading::IllegalChar {
                    ch,
                    position,
                    row,
                    col,
                },
                ParseError::ValueTooLarge {
                    ch,
                    value,
                    max,
                    position,
                    row,
                    col,
                } => {
                    assert_eq!(symbol_value(ch), Some(value), "{e:?}");
                    assert!(value > max && SIDES.contains(&usize::from(max)), "{e:?}");
                    Reading::ValueTooLarge {
                        ch,
                        position,
                        row,
                        col,
                    }
                }
                ParseError::WrongRowCount { found, expected } => {
                    Reading::WrongRowCount { found, expected }
                }
                ParseError::WrongRowLength {
                    row,
                    found,
                    expected,
                } => {
                    // The expected length is the row count, which must itself be supported.
                    assert!(SIDES.contains(&expected) && found != expected, "{e:?}");
                    Reading::WrongRowLength { row, found }
                }
                ParseError::AmbiguousAlphabet => Reading::AmbiguousAlphabet,
                ParseError::LineTooLong { .. } => Reading::LineTooLong,
                // ParseError is non_exhaustive: a new variant needs a line in the readings
                // above before this target can say whether it was right.
                _ => panic!("ParseError variant unknown to the fuzz checks: {e:?}"),
            }
        }
    }
}

/// A reader's `result` on `text` against the `expected` reading, and every property of a grid
/// it accepted ([`check_grid`]).
pub fn check_reading(text: &str, result: &Result<Grid, ParseError>, expected: Reading) {
    assert_eq!(actual(result), expected, "{text:?}");
    if let Ok(g) = result {
        check_grid(g);
    }
}

/// The unit cells of `unit`, worked out here with plain arithmetic rather than through
/// `Grid::unit_cells`, so that the conflict checks below do not trust the code they check.
fn cells_of(unit: Unit, side: usize, box_size: usize) -> Vec<(usize, usize)> {
    (0..side)
        .map(|i| match unit {
            Unit::Row(r) => (r, i),
            Unit::Column(c) => (i, c),
            Unit::Box(k) => (
                (k / box_size) * box_size + i / box_size,
                (k % box_size) * box_size + i % box_size,
            ),
        })
        .collect()
}

/// Every property a grid that a reader accepted must have: its invariants, both text forms
/// reading back to the same grid, and the clash finders agreeing with a plain count and with
/// the independent checker. `Grid` comes from a reader, so none of this may panic inside the
/// library either.
pub fn check_grid(g: &Grid) {
    let (b, n) = (g.box_size(), g.size());
    assert!((2..=5).contains(&b) && n == b * b, "box size {b}, side {n}");
    assert_eq!(g.cells().len(), n * n);
    assert!(g.cells().iter().all(|&v| usize::from(v) <= n));
    assert_eq!(Grid::from_cells(b, g.cells().to_vec()).as_ref(), Ok(g));

    // Line form: one canonical symbol per cell, and it reads back.
    let line = g.to_line();
    assert_eq!(line.chars().count(), n * n);
    for (ch, &v) in line.chars().zip(g.cells()) {
        assert_eq!(symbol_value(ch), Some(v), "{line}");
        assert!(ch == '.' || ch.is_ascii_digit() && ch != '0' || ch.is_ascii_uppercase());
    }
    assert_eq!(Grid::parse_line(&line).as_ref(), Ok(g), "{line}");
    assert_eq!(line.parse::<Grid>().as_ref(), Ok(g), "{line}");
    assert_eq!(g.to_string(), line);

    // Grid form: reads back, both directly and through FromStr's choice of form.
    let pretty = g.to_pretty();
    assert_eq!(Grid::parse_grid(&pretty).as_ref(), Ok(g), "{pretty}");
    assert_eq!(pretty.parse::<Grid>().as_ref(), Ok(g), "{pretty}");
    assert_eq!(format!("{g:#}"), pretty);

    // Both alphabets: each writes every cell with one symbol and reads its own text back.
    for alphabet in [Alphabet::FromOne, Alphabet::FromZero] {
        let line = g.to_line_in(alphabet);
        assert_eq!(line.chars().count(), n * n);
        for (ch, &v) in line.chars().zip(g.cells()) {
            assert_eq!(alphabet.value(ch), Some(v), "{alphabet:?} {line}");
        }
        assert_eq!(
            Grid::parse_line_in(&line, alphabet).as_ref(),
            Ok(g),
            "{line}"
        );
        let lower = line.to_lowercase();
        assert_eq!(
            Grid::parse_line_in(&lower, alphabet).as_ref(),
            Ok(g),
            "{lower}"
        );
        let pretty = g.to_pretty_in(alphabet);
        assert_eq!(
            Grid::parse_grid_in(&pretty, alphabet).as_ref(),
            Ok(g),
            "{pretty}"
        );
    }

    // Clashing givens: count the repeats of each value in each unit directly.
    let units: Vec<Unit> = (0..n)
        .map(Unit::Row)
        .chain((0..n).map(Unit::Column))
        .chain((0..n).map(Unit::Box))
        .collect();
    let mut repeats = 0;
    for &unit in &units {
        let mut seen = [0usize; 26];
        for (r, c) in cells_of(unit, n, b) {
            seen[usize::from(g.cells()[r * n + c])] += 1;
        }
        repeats += seen[1..]
            .iter()
            .map(|&k| k.saturating_sub(1))
            .sum::<usize>();
    }
    let conflicts = g.clashes();
    // `conflicts` pairs each repeat with the first cell holding its value: one per repeat.
    assert_eq!(conflicts.len(), repeats, "{line}");
    assert_eq!(g.first_clash(), conflicts.first().copied(), "{line}");
    for &Clash {
        a,
        b: second,
        value,
        unit,
    } in &conflicts
    {
        let members = cells_of(unit, n, b);
        assert!(members.contains(&a) && members.contains(&second), "{line}");
        assert!(a < second, "{line}");
        assert_eq!(g.get(a.0, a.1), value);
        assert_eq!(g.get(second.0, second.1), value);
        assert_ne!(value, 0);
        assert!(
            !Clash {
                a,
                b: second,
                value,
                unit
            }
            .to_string()
            .is_empty()
        );
    }

    // The independent checker agrees on filled grids, and on the grid as its own solution.
    let sound = conflicts.is_empty();
    assert_eq!(check::is_complete_and_valid(g), g.is_filled() && sound);
    assert_eq!(check::check_complete(g).is_ok(), g.is_filled() && sound);
    assert_eq!(
        check::is_valid_solution(g, g).is_ok(),
        g.is_filled() && sound
    );

    // 4x4 puzzles are small enough to count by brute force, which checks that the solver,
    // fed whatever the reader accepted, neither loses nor invents solutions.
    if n == 4 {
        check_4x4_solver(g, sound);
    }
}

/// Solutions of a 4x4 puzzle counted by plain backtracking, stopping at `limit`.
fn brute_count(cells: &mut [u8; 16], from: usize, limit: u64) -> u64 {
    let Some(i) = (from..16).find(|&i| cells[i] == 0) else {
        return 1;
    };
    let (r, c) = (i / 4, i % 4);
    let mut found = 0;
    for v in 1..=4 {
        let clash = (0..16).any(|j| {
            let (jr, jc) = (j / 4, j % 4);
            j != i && cells[j] == v && (jr == r || jc == c || (jr / 2 == r / 2 && jc / 2 == c / 2))
        });
        if !clash {
            cells[i] = v;
            found += brute_count(cells, i + 1, limit - found);
            cells[i] = 0;
            if found >= limit {
                break;
            }
        }
    }
    found
}

fn check_4x4_solver(g: &Grid, sound: bool) {
    const LIMIT: u64 = 3;
    match model::count(g, LIMIT) {
        Err(model::SudokuError::Clash(c)) => {
            assert!(!sound);
            assert_eq!(Some(c), g.first_clash());
        }
        Err(e) => panic!("a valid 4x4 grid must make a model: {e}"),
        Ok(outcome) => {
            assert!(sound, "clashing givens must be refused before search");
            let mut cells = [0u8; 16];
            cells.copy_from_slice(g.cells());
            // One past the limit, to tell "exactly LIMIT" from "more".
            let expected = brute_count(&mut cells, 0, LIMIT + 1);
            let line = g.to_line();
            assert_eq!(outcome.solutions, expected.min(LIMIT), "{line}");
            assert_eq!(outcome.solution.is_some(), expected > 0, "{line}");
            // Below the limit the search must have run to the end; and a count it calls
            // exact must be the true one (the search may or may not notice that the
            // LIMIT-th solution was also the last).
            if expected < LIMIT {
                assert!(outcome.exact, "{line}");
            }
            if outcome.exact {
                assert_eq!(outcome.solutions, expected, "{line}");
            }
            if let Some(s) = &outcome.solution {
                assert_eq!(check::is_valid_solution(g, s), Ok(()), "{}", g.to_line());
            }
        }
    }
}
