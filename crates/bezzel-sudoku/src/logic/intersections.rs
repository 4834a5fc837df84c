//! Locked candidates: a box's candidates for a value all in one line (pointing) rule the value
//! out of the rest of that line; a line's all in one box (claiming), out of the rest of the box.

use super::{Candidates, Step, Technique};

/// The box of `cell`.
fn box_of(grid: &Candidates, cell: usize) -> usize {
    let (r, c) = (cell / grid.n, cell % grid.n);
    2 * grid.n + (r / grid.box_size) * grid.box_size + c / grid.box_size
}

/// The step removing `value` from the cells of `target` outside `pattern` (the places of
/// `value` in unit `source`), if there are any.
fn step(
    grid: &Candidates,
    technique: Technique,
    (source, pattern): (usize, u32),
    value: u8,
    target: usize,
) -> Option<Step> {
    let inside = |c: usize| grid.units[source].contains(&c);
    if grid.places(target, value).all(inside) {
        return None;
    }
    Some(Step {
        technique,
        cells: grid.cells_at(source, pattern).collect(),
        values: vec![value],
        place: None,
        remove: grid
            .places(target, value)
            .filter(|&c| !inside(c))
            .map(|c| (c, value))
            .collect(),
    })
}

/// Pointing.
pub(super) fn pointing(grid: &Candidates) -> Option<Step> {
    let n = grid.n;
    for unit in 2 * n..3 * n {
        for value in 1..=n as u8 {
            let pattern = grid.place_mask(unit, value);
            if pattern.count_ones() < 2 {
                continue;
            }
            let mut cells = grid.cells_at(unit, pattern);
            let first = cells.next()?;
            let (mut row, mut col) = (true, true);
            for c in cells {
                row &= c / n == first / n;
                col &= c % n == first % n;
            }
            for (same, line) in [(row, first / n), (col, n + first % n)] {
                if same
                    && let Some(s) = step(grid, Technique::Pointing, (unit, pattern), value, line)
                {
                    return Some(s);
                }
            }
        }
    }
    None
}

/// Claiming.
pub(super) fn claiming(grid: &Candidates) -> Option<Step> {
    let n = grid.n;
    for unit in 0..2 * n {
        for value in 1..=n as u8 {
            let pattern = grid.place_mask(unit, value);
            if pattern.count_ones() < 2 {
                continue;
            }
            let mut cells = grid.cells_at(unit, pattern);
            let b = box_of(grid, cells.next()?);
            if cells.all(|c| box_of(grid, c) == b)
                && let Some(s) = step(grid, Technique::Claiming, (unit, pattern), value, b)
            {
                return Some(s);
            }
        }
    }
    None
}
