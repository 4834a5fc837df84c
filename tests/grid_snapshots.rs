//! Snapshots of solution sets whose variables are a matrix: they print as grids, one line per
//! row, so that a changed cell is one changed line of a diff.

use bezzel::prelude::*;

/// The Latin squares of order `n` on the values 1..=n: every row and every column holds each
/// value once.
fn latin_square(n: usize) -> Result<Solver, ModelError> {
    let mut m = Model::new();
    let g = m.int_matrix("square", n, n, 1..=n as i32)?;
    for row in g.rows() {
        m.all_different(row)?;
    }
    for column in g.columns() {
        m.all_different(&column)?;
    }
    Ok(Solver::new(m))
}

/// Whether `cells` (row by row) is a Latin square of order `n`, checked from the definition.
fn is_latin(n: usize, cells: &[i32]) -> bool {
    let once = |line: Vec<i32>| {
        let mut line = line;
        line.sort_unstable();
        line == (1..=n as i32).collect::<Vec<_>>()
    };
    (0..n).all(|r| once((0..n).map(|c| cells[r * n + c]).collect()))
        && (0..n).all(|c| once((0..n).map(|r| cells[r * n + c]).collect()))
}

#[test]
fn latin_squares_of_order_3_print_as_grids() {
    let mut solver = latin_square(3).unwrap();
    let set = solver.solution_set();
    // OEIS A002860: 1, 2, 12, 576 Latin squares of orders 1 to 4.
    assert_eq!(set.len(), 12);
    assert!(set.iter().all(|cells| is_latin(3, cells)));
    assert_eq!(set.variables[0], "square[0][0]");
    insta::assert_snapshot!("latin_squares_3", set.to_string());
}

#[test]
fn a_solution_prints_as_its_grid() {
    let mut solver = latin_square(4).unwrap();
    assert_eq!(solver.count(), 576);
    // Whichever square comes first, it prints as a header line and one line per row.
    let first = solver.first().unwrap();
    assert!(is_latin(4, first.values()));
    let text = first.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "square:");
    assert_eq!(lines.len(), 5);
    for (r, line) in lines[1..].iter().enumerate() {
        let row: Vec<i32> = line
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(row, first.values()[r * 4..r * 4 + 4]);
    }
}
