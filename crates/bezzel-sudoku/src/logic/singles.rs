//! Singles: a value with one place left in a unit (hidden), a cell with one candidate left
//! (naked).

use super::{Candidates, Step, Technique};

/// A hidden single in a box (`boxes`) or in a row or column.
pub(super) fn hidden(grid: &Candidates, boxes: bool) -> Option<Step> {
    let n = grid.n;
    let units = if boxes { 2 * n..3 * n } else { 0..2 * n };
    for unit in units {
        let (once, twice, _) = grid.tally(unit);
        let single = once & !twice;
        if single == 0 {
            continue;
        }
        let value = single.trailing_zeros() as u8 + 1;
        let cell = grid.places(unit, value).next()?;
        let technique = if boxes {
            Technique::HiddenSingleBox
        } else {
            Technique::HiddenSingleLine
        };
        return Some(Step {
            technique,
            cells: grid.units[unit].clone(),
            values: vec![value],
            place: Some((cell, value)),
            remove: Vec::new(),
        });
    }
    None
}

/// A naked single.
pub(super) fn naked(grid: &Candidates) -> Option<Step> {
    let cell = (0..grid.n * grid.n).find(|&c| grid.masks[c].count_ones() == 1)?;
    let value = grid.masks[cell].trailing_zeros() as u8 + 1;
    Some(Step {
        technique: Technique::NakedSingle,
        cells: vec![cell],
        values: vec![value],
        place: Some((cell, value)),
        remove: Vec::new(),
    })
}
