//! Snapshots of solution sets whose variables are a matrix: they print as grids, one line per
//! row, so that a changed cell is one changed line of a diff.

use bezzel::prelude::*;
use proptest::prelude::*;

/// The Latin squares of order `n` on the values 1..=n: every row and every column holds each
/// value once.
fn latin_square(n: usize) -> Result<Solver, ModelError> {
    let mut m = Model::new();
    let g = m.int_matrix("square", n, n, 1..=n as i32)?;
    for row in g.rows() {
        m.all_different(&row)?;
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

/// The text of a solution set over one `rows × cols` matrix named `m`, with these solutions.
fn grid_text(rows: usize, cols: usize, solutions: Vec<Vec<i32>>) -> String {
    let names = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| format!("m[{r}][{c}]")))
        .collect();
    SolutionSet::new(names, solutions).to_string()
}

proptest! {
    /// What the grid form is for: in a snapshot diff, a changed cell is one changed line.
    #[test]
    fn a_changed_cell_changes_one_line(
        (rows, cols, cells, at, new) in (1usize..5, 1usize..5).prop_flat_map(|(rows, cols)| {
            let n = rows * cols;
            (
                Just(rows),
                Just(cols),
                proptest::collection::vec(0i32..10, n),
                0..n,
                0i32..10,
            )
        })
    ) {
        prop_assume!(cells[at] != new);
        let mut changed = cells.clone();
        changed[at] = new;
        let before = grid_text(rows, cols, vec![cells]);
        let after = grid_text(rows, cols, vec![changed]);
        let before: Vec<&str> = before.lines().collect();
        let after: Vec<&str> = after.lines().collect();
        prop_assert_eq!(before.len(), rows + 1);
        prop_assert_eq!(after.len(), rows + 1);
        let differ: Vec<usize> = (0..before.len()).filter(|&i| before[i] != after[i]).collect();
        prop_assert_eq!(differ, vec![1 + at / cols]);
    }
}

#[test]
fn a_solution_prints_as_its_one_element_set_does() {
    let mut solver = latin_square(3).unwrap();
    let first = solver.first().unwrap();
    let set = SolutionSet::new(
        solver.model().names().to_vec(),
        vec![first.values().to_vec()],
    );
    assert_eq!(format!("{first}\n"), set.to_string());
}
