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

/// `box_size` bits from bit 0: one box's stretch of a line, or one row of a box.
fn stretch(box_size: usize) -> u32 {
    (1 << box_size) - 1
}

/// The positions of one column of a box (bit `i` for its `i`th cell), the first one's.
fn box_column(box_size: usize) -> u32 {
    (0..box_size).fold(0, |m, r| m | 1 << (r * box_size))
}

/// Pointing.
pub(super) fn pointing(grid: &Candidates) -> Option<Step> {
    let (n, bs) = (grid.n, grid.box_size);
    for unit in 2 * n..3 * n {
        let b = unit - 2 * n;
        let (top, left) = (b / bs * bs, b % bs * bs);
        for value in 1..=n as u8 {
            let pattern = grid.place_mask(unit, value);
            if pattern.count_ones() < 2 {
                continue;
            }
            // Positions in a box: row `i / bs`, column `i % bs` within it. A line's places
            // are positions along it, so its places outside the box leave a step.
            let i = pattern.trailing_zeros() as usize;
            let row = pattern & !(stretch(bs) << (i / bs * bs)) == 0;
            let col = pattern & !(box_column(bs) << (i % bs)) == 0;
            let (r, c) = (top + i / bs, left + i % bs);
            for (same, line, inside) in [(row, r, left), (col, n + c, top)] {
                if same
                    && grid.place_mask(line, value) & !(stretch(bs) << inside) != 0
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
    let (n, bs) = (grid.n, grid.box_size);
    for unit in 0..2 * n {
        // The line's position within each box: its row there (a row), or its column.
        let (line, is_row) = (unit % n, unit < n);
        let inside = if is_row {
            stretch(bs) << (line % bs * bs)
        } else {
            box_column(bs) << (line % bs)
        };
        for value in 1..=n as u8 {
            let pattern = grid.place_mask(unit, value);
            if pattern.count_ones() < 2 {
                continue;
            }
            // Positions along a line: its boxes take `bs` each.
            let i = pattern.trailing_zeros() as usize;
            if pattern & !(stretch(bs) << (i / bs * bs)) != 0 {
                continue;
            }
            let b = match is_row {
                true => box_of(grid, line * n + i),
                false => box_of(grid, i * n + line),
            };
            if grid.place_mask(b, value) & !inside != 0
                && let Some(s) = step(grid, Technique::Claiming, (unit, pattern), value, b)
            {
                return Some(s);
            }
        }
    }
    None
}
