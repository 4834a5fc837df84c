//! KenKen: fill a 6 × 6 grid with 1 to 6 so that no row or column repeats a digit, and the
//! digits of each cage (a group of cells) make its target with its operation: the sum (`+`),
//! the product (`*`), or, for two cells, the difference (`-`) or the quotient (`/`).
//!
//! The puzzle is the example of Wikipedia's KenKen article. It shows `int_matrix`,
//! `all_different` on rows and columns, and each cage's rule written as it reads, in
//! expressions: `sum(&cells).eq(target)`, a product of the cells, `abs(a - b)` for a
//! difference, and `max * 1 == min * target` for a quotient (written with `*`: `/` would round
//! 5 / 2 down to 2). Posting lowers each to the propagators `linear`, `times`, `abs`, `min` and
//! `max`, with a variable for each non-linear part; `benches/expressions.rs` states the same
//! model with those calls by hand and checks that both search the same tree.
//!
//! Run with `cargo run --release --example kenken`.

use bezzel::core::expr::{IntExpr, abs, max, min, sum};
use bezzel::prelude::*;

/// Which cage each cell is in, row by row.
pub(crate) const GRID: [&str; 6] = [
    "ABBCDD", //
    "AEECFD", //
    "GGHHFD", //
    "GGIJKK", //
    "LLIJJM", //
    "NNNOOM",
];

/// Each cage's letter, target and operation.
pub(crate) const CAGES: [(char, i32, char); 15] = [
    ('A', 11, '+'),
    ('B', 2, '/'),
    ('C', 20, '*'),
    ('D', 6, '*'),
    ('E', 3, '-'),
    ('F', 3, '/'),
    ('G', 240, '*'),
    ('H', 6, '*'),
    ('I', 6, '*'),
    ('J', 7, '+'),
    ('K', 30, '*'),
    ('L', 6, '*'),
    ('M', 9, '+'),
    ('N', 8, '+'),
    ('O', 2, '/'),
];

/// The puzzle as a model over a matrix named `grid`.
pub(crate) fn model() -> Result<(Model, Matrix), ModelError> {
    let n = GRID.len();
    let mut m = Model::new();
    let g = m.int_matrix("grid", n, n, 1..=n as i32)?;
    for row in g.rows() {
        m.all_different(&row)?;
    }
    for column in g.columns() {
        m.all_different(&column)?;
    }
    for (letter, target, op) in CAGES {
        let cells: Vec<VarId> = (0..n * n)
            .filter(|&i| GRID[i / n].as_bytes().get(i % n) == Some(&(letter as u8)))
            .map(|i| g.as_slice()[i])
            .collect();
        let bad = |reason: &str| ModelError::InvalidArgument {
            reason: format!("cage {letter} ({target}{op}): {reason}"),
        };
        let rule = match (op, cells.as_slice()) {
            (_, []) => return Err(bad("no cell of the grid is in it")),
            ('+', _) => sum(&cells).eq(target),
            ('*', [first, rest @ ..]) => rest
                .iter()
                .fold(IntExpr::from(first), |product, &cell| product * cell)
                .eq(target),
            ('-', &[a, b]) => abs(a - b).eq(target),
            ('/', &[a, b]) => max([a, b]).eq(target * min([a, b])),
            _ => return Err(bad("unknown operation, or - or / on other than two cells")),
        };
        m.post(rule)?;
    }
    Ok((m, g))
}

fn main() -> Result<(), ModelError> {
    let (m, grid) = model()?;
    let mut solver = Solver::new(m);
    for solution in solver.solutions() {
        for row in grid.rows() {
            let digits: Vec<String> = row.iter().map(|&x| solution[x].to_string()).collect();
            println!("{}", digits.join(" "));
        }
        println!();
    }
    println!("{}", solver.stats());
    Ok(())
}
