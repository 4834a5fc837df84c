//! Subsets: `k` cells of a unit holding `k` candidates between them (naked) keep those values
//! out of the unit's other cells; `k` values with `k` places between them (hidden) keep other
//! values out of those cells.

use super::{Candidates, Step, Technique, subsets, values_of};

fn technique(naked: bool, k: usize) -> Technique {
    match (naked, k) {
        (true, 2) => Technique::NakedPair,
        (true, 3) => Technique::NakedTriple,
        (true, _) => Technique::NakedQuad,
        (false, 2) => Technique::HiddenPair,
        (false, 3) => Technique::HiddenTriple,
        (false, _) => Technique::HiddenQuad,
    }
}

/// A naked subset of `k` cells.
pub(super) fn naked(grid: &Candidates, k: usize) -> Option<Step> {
    let mut open = [0usize; 32];
    for unit in 0..3 * grid.n {
        let mut len = 0;
        for &c in &grid.units[unit] {
            if grid.values[c] == 0 && grid.masks[c].count_ones() as usize <= k {
                open[len] = c;
                len += 1;
            }
        }
        let mut found = None;
        subsets(len, k, |chosen| {
            let union = chosen.iter().fold(0, |m, &i| m | grid.masks[open[i]]);
            let inside = |c: &usize| chosen.iter().any(|&i| open[i] == *c);
            let others = || grid.units[unit].iter().filter(|c| !inside(c));
            if union.count_ones() as usize != k || others().all(|&c| grid.masks[c] & union == 0) {
                return false;
            }
            found = Some(Step {
                technique: technique(true, k),
                cells: chosen.iter().map(|&i| open[i]).collect(),
                values: values_of(union),
                place: None,
                remove: others()
                    .flat_map(|&c| {
                        values_of(grid.masks[c] & union)
                            .into_iter()
                            .map(move |v| (c, v))
                    })
                    .collect(),
            });
            true
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A hidden subset of `k` values.
pub(super) fn hidden(grid: &Candidates, k: usize) -> Option<Step> {
    let mut values = [0u8; 32];
    let mut places = [0u32; 32];
    for unit in 0..3 * grid.n {
        let mut len = 0;
        for value in 1..=grid.n as u8 {
            let mask = grid.place_mask(unit, value);
            if (1..=k).contains(&(mask.count_ones() as usize)) {
                values[len] = value;
                places[len] = mask;
                len += 1;
            }
        }
        let mut found = None;
        subsets(len, k, |chosen| {
            let union = chosen.iter().fold(0, |m, &i| m | places[i]);
            if union.count_ones() as usize != k {
                return false;
            }
            let keep = chosen.iter().fold(0, |m, &i| m | super::bit(values[i]));
            if grid
                .cells_at(unit, union)
                .all(|c| grid.masks[c] & !keep == 0)
            {
                return false;
            }
            found = Some(Step {
                technique: technique(false, k),
                cells: grid.cells_at(unit, union).collect(),
                values: chosen.iter().map(|&i| values[i]).collect(),
                place: None,
                remove: grid
                    .cells_at(unit, union)
                    .flat_map(|c| {
                        values_of(grid.masks[c] & !keep)
                            .into_iter()
                            .map(move |v| (c, v))
                    })
                    .collect(),
            });
            true
        });
        if found.is_some() {
            return found;
        }
    }
    None
}
