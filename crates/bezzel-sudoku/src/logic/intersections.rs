//! Locked candidates: a box's candidates for a value all in one line (pointing) rule the value
//! out of the rest of that line; a line's all in one box (claiming), out of the rest of the box.

use super::{Candidates, Step, Technique};

/// The box of `cell`.
fn box_of(grid: &Candidates, cell: usize) -> usize {
    let (r, c) = (cell / grid.n, cell % grid.n);
    2 * grid.n + (r / grid.box_size) * grid.box_size + c / grid.box_size
}

/// The line (row unit, or column unit) holding all of `cells`, if any.
fn lines_of(grid: &Candidates, cells: &[usize]) -> Vec<usize> {
    let n = grid.n;
    let mut lines = Vec::new();
    if cells.iter().all(|&c| c / n == cells[0] / n) {
        lines.push(cells[0] / n);
    }
    if cells.iter().all(|&c| c % n == cells[0] % n) {
        lines.push(n + cells[0] % n);
    }
    lines
}

/// The step removing `value` from the cells of `target` outside `pattern`, if there are any.
fn step(
    grid: &Candidates,
    technique: Technique,
    pattern: Vec<usize>,
    value: u8,
    target: usize,
) -> Option<Step> {
    let remove: Vec<(usize, u8)> = grid
        .places(target, value)
        .into_iter()
        .filter(|c| !pattern.contains(c))
        .map(|c| (c, value))
        .collect();
    (!remove.is_empty()).then(|| Step {
        technique,
        cells: pattern,
        values: vec![value],
        place: None,
        remove,
    })
}

/// Pointing.
pub(super) fn pointing(grid: &Candidates) -> Option<Step> {
    let n = grid.n;
    for unit in 2 * n..3 * n {
        for value in 1..=n as u8 {
            let places = grid.places(unit, value);
            if places.len() < 2 {
                continue;
            }
            for line in lines_of(grid, &places) {
                if let Some(s) = step(grid, Technique::Pointing, places.clone(), value, line) {
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
            let places = grid.places(unit, value);
            if places.len() < 2 {
                continue;
            }
            let b = box_of(grid, places[0]);
            if places.iter().all(|&c| box_of(grid, c) == b)
                && let Some(s) = step(grid, Technique::Claiming, places, value, b)
            {
                return Some(s);
            }
        }
    }
    None
}
