//! KenKen: fill a 6 × 6 grid with 1 to 6 so that no row or column repeats a digit, and the
//! digits of each cage (a group of cells) make its target with its operation: the sum (`+`),
//! the product (`*`), or, for two cells, the difference (`-`) or the quotient (`/`).
//!
//! The puzzle is the example of Wikipedia's KenKen article. It shows `int_matrix`,
//! `all_different` on rows and columns, `linear` for sums, a chain of `times` for products,
//! `abs` of a gap for differences, and `min`, `max` and `times` for quotients (the larger
//! digit is the smaller one times the target: `div` would round 5 / 2 down to 2).
//!
//! Run with `cargo run --release --example kenken`.

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
        let t = m.int_var(target..=target)?;
        match (op, cells.as_slice()) {
            (_, []) => return Err(bad("no cell of the grid is in it")),
            ('+', _) => m.linear(&vec![1; cells.len()], &cells, Relation::Eq, target)?,
            ('*', [first, rest @ ..]) => {
                // Partial products divide the target, so they lie in 1..=target.
                let mut product = *first;
                for &cell in rest {
                    let next = m.int_var(1..=target)?;
                    m.times(product, cell, next)?;
                    product = next;
                }
                m.equal(product, t)?;
            }
            ('-', &[a, b]) => {
                let gap = m.int_var(-(n as i32)..=n as i32)?;
                m.linear(&[1, -1, -1], &[a, b, gap], Relation::Eq, 0)?;
                m.abs(gap, t)?;
            }
            ('/', &[a, b]) => {
                let (low, high) = (m.int_var(1..=n as i32)?, m.int_var(1..=n as i32)?);
                m.min(&[a, b], low)?;
                m.max(&[a, b], high)?;
                m.times(low, t, high)?;
            }
            _ => return Err(bad("unknown operation, or - or / on other than two cells")),
        }
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
