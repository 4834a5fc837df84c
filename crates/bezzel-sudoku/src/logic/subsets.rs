//! Subsets: `k` cells of a unit holding `k` candidates between them (naked) keep those values
//! out of the unit's other cells; `k` values with `k` places between them (hidden) keep other
//! values out of those cells.

use super::{Candidates, Step, Technique, bit, subsets, values_of};

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
    for unit in 0..3 * grid.n {
        let open: Vec<usize> = grid.units[unit]
            .iter()
            .copied()
            .filter(|&c| grid.values[c] == 0 && grid.masks[c].count_ones() as usize <= k)
            .collect();
        let mut found = None;
        subsets(&open, k, &mut |cells| {
            let union = cells.iter().fold(0, |m, &c| m | grid.masks[c]);
            if union.count_ones() as usize != k {
                return false;
            }
            let remove: Vec<(usize, u8)> = grid.units[unit]
                .iter()
                .filter(|c| !cells.contains(c))
                .flat_map(|&c| {
                    values_of(grid.masks[c] & union)
                        .into_iter()
                        .map(move |v| (c, v))
                })
                .collect();
            if remove.is_empty() {
                return false;
            }
            found = Some(Step {
                technique: technique(true, k),
                cells: cells.to_vec(),
                values: values_of(union),
                place: None,
                remove,
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
    for unit in 0..3 * grid.n {
        let values: Vec<u8> = (1..=grid.n as u8)
            .filter(|&v| {
                let places = grid.places(unit, v).len();
                (1..=k).contains(&places)
            })
            .collect();
        let mut found = None;
        subsets(&values, k, &mut |chosen| {
            let cells: Vec<usize> = grid.units[unit]
                .iter()
                .copied()
                .filter(|&c| chosen.iter().any(|&v| grid.has(c, v)))
                .collect();
            if cells.len() != k {
                return false;
            }
            let keep = chosen.iter().fold(0, |m, &v| m | bit(v));
            let remove: Vec<(usize, u8)> = cells
                .iter()
                .flat_map(|&c| {
                    values_of(grid.masks[c] & !keep)
                        .into_iter()
                        .map(move |v| (c, v))
                })
                .collect();
            if remove.is_empty() {
                return false;
            }
            found = Some(Step {
                technique: technique(false, k),
                cells,
                values: chosen.to_vec(),
                place: None,
                remove,
            });
            true
        });
        if found.is_some() {
            return found;
        }
    }
    None
}
