//! An independent check that a grid solves a puzzle.
//!
//! A solver's answer should be judged by code that shares nothing with the solver, or a bug in
//! one place could hide itself. This module only reads cells and checks the definition
//! directly: same size, every cell filled, every given kept, and each row, column and box
//! holding every value once. It works out box membership with its own arithmetic rather than
//! [`Grid::unit_cells`], so that it does not even share that code with [`Grid::clashes`].
//!
//! Coordinates in [`Invalid`] are 0-based; its messages count from 1.

use std::fmt;

use crate::grid::{Grid, Unit};

/// The first reason a grid is not a valid solution.
///
/// Checks run in this order, and the first failure is reported: the sizes match, every cell
/// is filled, every given is kept, then the rows, the columns and the boxes each hold no value
/// twice. A filled unit of `N` cells with no repeat holds each of `1..=N` exactly once, so no
/// separate "missing value" case is needed.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Invalid {
    /// The solution's size differs from the puzzle's.
    SizeMismatch {
        /// The puzzle's side length `N`.
        puzzle: usize,
        /// The solution's side length.
        solution: usize,
    },
    /// A cell of the solution is empty.
    EmptyCell {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
    },
    /// A cell given in the puzzle holds another value in the solution.
    GivenChanged {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The puzzle's value.
        given: u8,
        /// The solution's value.
        found: u8,
    },
    /// A unit holds a value twice.
    Duplicate {
        /// The row, column or box.
        unit: Unit,
        /// The repeated value.
        value: u8,
        /// The first cell holding it, as 0-based `(row, column)`, in reading order.
        first: (usize, usize),
        /// The second cell holding it.
        second: (usize, usize),
    },
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Invalid::SizeMismatch { puzzle, solution } => write!(
                f,
                "solution is {solution}x{solution} but the puzzle is {puzzle}x{puzzle}"
            ),
            Invalid::EmptyCell { row, col } => write!(f, "cell r{}c{} is empty", row + 1, col + 1),
            Invalid::GivenChanged {
                row,
                col,
                given,
                found,
            } => write!(
                f,
                "cell r{}c{} holds {found} but the puzzle gives {given}",
                row + 1,
                col + 1
            ),
            Invalid::Duplicate {
                unit,
                value,
                first,
                second,
            } => write!(
                f,
                "{unit} holds {value} twice: r{}c{} and r{}c{}",
                first.0 + 1,
                first.1 + 1,
                second.0 + 1,
                second.1 + 1
            ),
        }
    }
}

impl std::error::Error for Invalid {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Invalid: {self}")
    }
}

/// Checks that `solution` solves `puzzle`: same size, all cells filled, all givens kept, and
/// every row, column and box a permutation of `1..=N`. Reports the first problem (see
/// [`Invalid`] for the order).
///
/// This does not check that the puzzle's solution is unique, only that this one is correct.
pub fn is_valid_solution(puzzle: &Grid, solution: &Grid) -> Result<(), Invalid> {
    let n = solution.size();
    if puzzle.size() != n {
        return Err(Invalid::SizeMismatch {
            puzzle: puzzle.size(),
            solution: n,
        });
    }
    check_filled(solution)?;
    for row in 0..n {
        for col in 0..n {
            let given = puzzle.get(row, col);
            let found = solution.get(row, col);
            if given != 0 && given != found {
                return Err(Invalid::GivenChanged {
                    row,
                    col,
                    given,
                    found,
                });
            }
        }
    }
    check_units(solution)
}

/// Checks that `grid` is a finished Sudoku: every cell filled and every row, column and box a
/// permutation of `1..=N`.
pub fn check_complete(grid: &Grid) -> Result<(), Invalid> {
    check_filled(grid)?;
    check_units(grid)
}

/// Whether `grid` is a finished, valid Sudoku; [`check_complete`] says what is wrong if not.
pub fn is_complete_and_valid(grid: &Grid) -> bool {
    check_complete(grid).is_ok()
}

fn check_filled(grid: &Grid) -> Result<(), Invalid> {
    let n = grid.size();
    for row in 0..n {
        for col in 0..n {
            if grid.get(row, col) == 0 {
                return Err(Invalid::EmptyCell { row, col });
            }
        }
    }
    Ok(())
}

/// With every cell filled, "no repeat" in each unit means "a permutation".
fn check_units(grid: &Grid) -> Result<(), Invalid> {
    let (b, n) = (grid.box_size(), grid.size());
    let row = |k: usize, i: usize| (k, i);
    let col = |k: usize, i: usize| (i, k);
    // Box k's top-left cell is at (k / b * b, k % b * b); its i-th cell is i / b rows down
    // and i % b columns across from there.
    let boxed = |k: usize, i: usize| (k / b * b + i / b, k % b * b + i % b);
    for k in 0..n {
        check_unit(grid, Unit::Row(k), |i| row(k, i))?;
    }
    for k in 0..n {
        check_unit(grid, Unit::Column(k), |i| col(k, i))?;
    }
    for k in 0..n {
        check_unit(grid, Unit::Box(k), |i| boxed(k, i))?;
    }
    Ok(())
}

/// Checks one unit whose `i`-th cell is at `cell(i)`, for `i` in `0..N`.
fn check_unit(
    grid: &Grid,
    unit: Unit,
    cell: impl Fn(usize) -> (usize, usize),
) -> Result<(), Invalid> {
    let n = grid.size();
    let mut seen: Vec<Option<(usize, usize)>> = vec![None; n + 1];
    for i in 0..n {
        let (r, c) = cell(i);
        let value = grid.get(r, c);
        // Callers check for empty cells first; this guard keeps a 0 from passing as a value
        // should that order ever change.
        if value == 0 {
            return Err(Invalid::EmptyCell { row: r, col: c });
        }
        // Grid guarantees values fit 0..=N, so indexing `seen` cannot go out of bounds.
        match seen[usize::from(value)] {
            Some(first) => {
                return Err(Invalid::Duplicate {
                    unit,
                    value,
                    first,
                    second: (r, c),
                });
            }
            None => seen[usize::from(value)] = Some((r, c)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    use crate::pattern;
    use crate::wikipedia::{PUZZLE as WIKI_PUZZLE, SOLUTION as WIKI_SOLUTION};
    /// A mis-copy of that solution seen in the wild: rows 5 and 6 are garbled, row 5 holding
    /// two 6s and no 8, and it overwrites the given 8 at r5c4.
    const GARBLED_SOLUTION: &str =
        "534678912672195348198342567859761423426913756713824695961537284287419635345286179";

    fn wiki() -> (Grid, Grid) {
        (
            Grid::parse_line(WIKI_PUZZLE).unwrap(),
            Grid::parse_line(WIKI_SOLUTION).unwrap(),
        )
    }

    #[test]
    fn accepts_the_wikipedia_solution() {
        let (puzzle, solution) = wiki();
        assert_eq!(is_valid_solution(&puzzle, &solution), Ok(()));
        assert!(is_complete_and_valid(&solution));
        assert_eq!(is_valid_solution(&solution, &solution), Ok(()));
        assert_eq!(is_valid_solution(&Grid::empty(3), &solution), Ok(()));
    }

    #[test]
    fn rejects_a_garbled_copy_of_the_solution() {
        let (puzzle, _) = wiki();
        let garbled = Grid::parse_line(GARBLED_SOLUTION).unwrap();
        let e = is_valid_solution(&puzzle, &garbled).unwrap_err();
        assert_eq!(
            e,
            Invalid::GivenChanged {
                row: 4,
                col: 3,
                given: 8,
                found: 9
            }
        );
        assert_eq!(
            check_complete(&garbled),
            Err(Invalid::Duplicate {
                unit: Unit::Row(4),
                value: 6,
                first: (4, 2),
                second: (4, 8)
            })
        );
    }

    #[test]
    fn accepts_a_hand_checked_4x4_solution() {
        let puzzle = Grid::parse_line("1...3.........2.").unwrap();
        let solution = Grid::parse_line("1234341221434321").unwrap();
        assert_eq!(is_valid_solution(&puzzle, &solution), Ok(()));
    }

    #[test]
    fn accepts_pattern_grids_of_every_size() {
        for b in 2..=5 {
            assert_eq!(check_complete(&pattern(b)), Ok(()), "box size {b}");
        }
    }

    #[test]
    fn rejects_a_swap_of_two_cells() {
        let (puzzle, mut solution) = wiki();
        // r1c3 = 4 and r1c4 = 6 are both empty in the puzzle, so only the columns break.
        solution.set(0, 2, 6);
        solution.set(0, 3, 4);
        let e = is_valid_solution(&puzzle, &solution).unwrap_err();
        // Column 3 of the solution reads 4 2 8 9 6 3 1 7 5, so its own 6 is at r5c3.
        assert_eq!(
            e,
            Invalid::Duplicate {
                unit: Unit::Column(2),
                value: 6,
                first: (0, 2),
                second: (4, 2)
            }
        );
        assert_eq!(e.to_string(), "column 3 holds 6 twice: r1c3 and r5c3");
    }

    #[test]
    fn rejects_a_changed_given() {
        let (puzzle, mut solution) = wiki();
        // Swapping r1c1 = 5 with r1c3 = 4 breaks the given 5 first.
        solution.set(0, 0, 4);
        solution.set(0, 2, 5);
        let e = is_valid_solution(&puzzle, &solution).unwrap_err();
        assert_eq!(
            e,
            Invalid::GivenChanged {
                row: 0,
                col: 0,
                given: 5,
                found: 4
            }
        );
        assert_eq!(e.to_string(), "cell r1c1 holds 4 but the puzzle gives 5");
        // The grid by itself is still broken, whatever the puzzle.
        assert!(!is_complete_and_valid(&solution));
    }

    #[test]
    fn rejects_a_changed_given_even_in_a_valid_grid() {
        // Relabelling 1 <-> 2 everywhere keeps the grid a valid Sudoku but moves givens.
        let (puzzle, solution) = wiki();
        let relabelled: Vec<u8> = solution
            .cells()
            .iter()
            .map(|&v| match v {
                1 => 2,
                2 => 1,
                v => v,
            })
            .collect();
        let relabelled = Grid::from_cells(3, relabelled).unwrap();
        assert!(is_complete_and_valid(&relabelled));
        // The first given that is a 1 or a 2, in reading order, is the 1 at r2c4.
        assert_eq!(
            is_valid_solution(&puzzle, &relabelled),
            Err(Invalid::GivenChanged {
                row: 1,
                col: 3,
                given: 1,
                found: 2
            })
        );
    }

    #[test]
    fn rejects_a_latin_square_with_bad_boxes() {
        // Each row is the previous one shifted by one: every row and column is a permutation,
        // but the top-left box holds 1 2 3 / 2 3 4 / 3 4 5.
        let cells = (0..81).map(|i| ((i / 9 + i % 9) % 9 + 1) as u8).collect();
        let latin = Grid::from_cells(3, cells).unwrap();
        let e = check_complete(&latin).unwrap_err();
        assert_eq!(
            e,
            Invalid::Duplicate {
                unit: Unit::Box(0),
                value: 2,
                first: (0, 1),
                second: (1, 0)
            }
        );
        assert_eq!(e.to_string(), "box 1 holds 2 twice: r1c2 and r2c1");
        assert!(!is_complete_and_valid(&latin));
    }

    #[test]
    fn rejects_a_latin_square_whose_diagonal_boxes_are_fine() {
        // Found by a search: rows and columns are permutations and boxes 1, 5 and 9 are
        // complete, but box 2 (rows 1-3, columns 4-6: 591 347 716) repeats 1 and 7. A checker
        // that looked at the wrong cells for off-diagonal boxes would pass it.
        let g = Grid::parse_line(
            "267591384195347862834716925482173659958462173623958741746239518371825496519684237",
        )
        .unwrap();
        let e = check_complete(&g).unwrap_err();
        assert_eq!(
            e,
            Invalid::Duplicate {
                unit: Unit::Box(1),
                value: 7,
                first: (1, 5),
                second: (2, 3)
            }
        );
        assert_eq!(e.to_string(), "box 2 holds 7 twice: r2c6 and r3c4");
    }

    #[test]
    fn rejects_an_empty_first_cell() {
        let (puzzle, mut solution) = wiki();
        solution.set(0, 2, 0);
        solution.set(0, 0, 0);
        assert_eq!(
            is_valid_solution(&puzzle, &solution),
            Err(Invalid::EmptyCell { row: 0, col: 0 })
        );
        assert_eq!(
            check_complete(&solution),
            Err(Invalid::EmptyCell { row: 0, col: 0 })
        );
    }

    #[test]
    fn rejects_an_empty_cell_and_a_size_mismatch() {
        let (puzzle, mut solution) = wiki();
        solution.set(6, 7, 0);
        let e = is_valid_solution(&puzzle, &solution).unwrap_err();
        assert_eq!(e, Invalid::EmptyCell { row: 6, col: 7 });
        assert_eq!(e.to_string(), "cell r7c8 is empty");
        assert!(!is_complete_and_valid(&puzzle));

        let e = is_valid_solution(&puzzle, &pattern(2)).unwrap_err();
        assert_eq!(
            e,
            Invalid::SizeMismatch {
                puzzle: 9,
                solution: 4
            }
        );
        assert_eq!(e.to_string(), "solution is 4x4 but the puzzle is 9x9");
    }

    #[test]
    fn rejects_a_duplicate_in_a_row() {
        let (puzzle, mut solution) = wiki();
        // r9c1 = 3 is not a given; making it 4 repeats r9c2's 4 in row 9 and box 7, and rows
        // are checked first.
        solution.set(8, 0, 4);
        let e = is_valid_solution(&puzzle, &solution).unwrap_err();
        assert_eq!(
            e,
            Invalid::Duplicate {
                unit: Unit::Row(8),
                value: 4,
                first: (8, 0),
                second: (8, 1)
            }
        );
        assert_eq!(e.to_string(), "row 9 holds 4 twice: r9c1 and r9c2");
    }

    /// Valid grids reached from the pattern by moves that keep a Sudoku valid: relabelling
    /// values, permuting the rows inside a band, and transposing.
    fn any_valid_grid() -> impl Strategy<Value = Grid> {
        (2usize..=5).prop_flat_map(|b| {
            let n = b * b;
            let labels = Just((1..=n as u8).collect::<Vec<u8>>()).prop_shuffle();
            let in_band = Just((0..b).collect::<Vec<usize>>()).prop_shuffle();
            (Just(b), labels, in_band, any::<bool>()).prop_map(|(b, labels, in_band, transpose)| {
                let n = b * b;
                let base = pattern(b);
                let mut cells = vec![0; n * n];
                for r in 0..n {
                    let src_row = r / b * b + in_band[r % b];
                    for c in 0..n {
                        let v = labels[usize::from(base.get(src_row, c)) - 1];
                        let (rr, cc) = if transpose { (c, r) } else { (r, c) };
                        cells[rr * n + cc] = v;
                    }
                }
                Grid::from_cells(b, cells).unwrap()
            })
        })
    }

    proptest! {
        #[test]
        fn accepts_valid_grids(g in any_valid_grid()) {
            prop_assert_eq!(check_complete(&g), Ok(()));
            prop_assert!(g.clashes().is_empty());
        }

        /// Swapping two different values always breaks a unit: the value moved into a cell's
        /// row or column is already there elsewhere.
        #[test]
        fn rejects_every_swap_of_different_values(
            g in any_valid_grid(),
            i in any::<prop::sample::Index>(),
            j in any::<prop::sample::Index>(),
        ) {
            let n = g.size();
            let (a, b) = (g.position(i.index(n * n)), g.position(j.index(n * n)));
            let (va, vb) = (g.get(a.0, a.1), g.get(b.0, b.1));
            prop_assume!(va != vb);
            let mut swapped = g.clone();
            swapped.set(a.0, a.1, vb);
            swapped.set(b.0, b.1, va);
            prop_assert!(!is_complete_and_valid(&swapped));
            prop_assert!(is_valid_solution(&Grid::empty(g.box_size()), &swapped).is_err());
            prop_assert!(!swapped.clashes().is_empty());
        }

        /// The checker and `Grid::clashes` are separate code; on filled grids they must agree.
        #[test]
        fn agrees_with_conflicts_on_filled_grids(
            b in 2usize..=3,
            seed in proptest::collection::vec(1u8..=9, 81),
        ) {
            let n = b * b;
            let cells: Vec<u8> = seed[..n * n].iter().map(|&v| (v - 1) % n as u8 + 1).collect();
            let g = Grid::from_cells(b, cells).unwrap();
            prop_assert_eq!(is_complete_and_valid(&g), g.first_clash().is_none());
        }
    }
}
