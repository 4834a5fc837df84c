//! Simple coloring: for one value, the units where it has exactly two places link those two
//! places (one of them holds it); colouring each chain of links in two alternating colours,
//! one colour is all true and the other all false. A colour with two cells seeing each other
//! is the false one (colour wrap); a cell seeing cells of both colours cannot hold the value
//! (colour trap).

use super::{Candidates, Step, Technique};

/// A simple-coloring step.
pub(super) fn simple(grid: &Candidates) -> Option<Step> {
    let n = grid.n;
    // A cell's links, at most one per unit it is in, in the order the units come; kept for
    // every value, as the search runs at every step of a rating.
    let mut links = vec![[0usize; 3]; n * n];
    let mut degree = vec![0usize; n * n];
    let mut colour: Vec<Option<bool>> = vec![None; n * n];
    for value in 1..=n as u8 {
        // Conjugate links.
        degree.fill(0);
        colour.fill(None);
        for unit in 0..3 * n {
            let places = grid.place_mask(unit, value);
            if places.count_ones() == 2 {
                let mut ends = grid.cells_at(unit, places);
                let (Some(a), Some(b)) = (ends.next(), ends.next()) else {
                    continue;
                };
                links[a][degree[a]] = b;
                degree[a] += 1;
                links[b][degree[b]] = a;
                degree[b] += 1;
            }
        }
        for start in 0..n * n {
            if degree[start] == 0 || colour[start].is_some() {
                continue;
            }
            // One chain, coloured by a walk.
            let mut chain = vec![start];
            colour[start] = Some(true);
            let mut i = 0;
            while i < chain.len() {
                let c = chain[i];
                for &d in &links[c][..degree[c]] {
                    if colour[d].is_none() {
                        colour[d] = Some(!colour[c].unwrap_or(true));
                        chain.push(d);
                    }
                }
                i += 1;
            }
            if chain.len() < 3 {
                continue;
            }
            chain.sort_unstable();
            let of = |side: bool| -> Vec<usize> {
                chain
                    .iter()
                    .copied()
                    .filter(|&c| colour[c] == Some(side))
                    .collect()
            };
            // Colour wrap.
            for side in [true, false] {
                let cells = of(side);
                let wraps = cells
                    .iter()
                    .enumerate()
                    .any(|(i, &a)| cells[i + 1..].iter().any(|&b| grid.sees(a, b)));
                if wraps {
                    return Some(Step {
                        technique: Technique::SimpleColoring,
                        cells: chain.clone(),
                        values: vec![value],
                        place: None,
                        remove: cells.into_iter().map(|c| (c, value)).collect(),
                    });
                }
            }
            // Colour trap.
            let (on, off) = (of(true), of(false));
            let remove: Vec<(usize, u8)> = (0..n * n)
                .filter(|&c| grid.has(c, value) && colour[c].is_none())
                .filter(|&c| {
                    on.iter().any(|&a| grid.sees(c, a)) && off.iter().any(|&b| grid.sees(c, b))
                })
                .map(|c| (c, value))
                .collect();
            if !remove.is_empty() {
                return Some(Step {
                    technique: Technique::SimpleColoring,
                    cells: chain,
                    values: vec![value],
                    place: None,
                    remove,
                });
            }
        }
    }
    None
}
