//! Wings: a pivot cell and two pincers it sees. XY-wing: pivot {x,y}, pincers {x,z} and
//! {y,z}; whichever value the pivot takes, one pincer is z, so no cell seeing both pincers
//! is z. XYZ-wing: pivot {x,y,z}, the same pincers; z is in one of the three, so no cell
//! seeing all three is z.

use super::{Candidates, Step, Technique, values_of};

/// The open cells with exactly two candidates.
fn pairs(grid: &Candidates) -> Vec<usize> {
    (0..grid.n * grid.n)
        .filter(|&c| grid.masks[c].count_ones() == 2)
        .collect()
}

/// The step removing `z` from the cells that see every cell of `pattern`.
fn remove_seen(
    grid: &Candidates,
    technique: Technique,
    pattern: Vec<usize>,
    z: u8,
) -> Option<Step> {
    let remove: Vec<(usize, u8)> = (0..grid.n * grid.n)
        .filter(|&c| grid.has(c, z) && pattern.iter().all(|&p| grid.sees(c, p)))
        .map(|c| (c, z))
        .collect();
    (!remove.is_empty()).then(|| Step {
        technique,
        values: values_of(pattern.iter().fold(0, |m, &c| m | grid.masks[c])),
        cells: pattern,
        place: None,
        remove,
    })
}

/// The pincer pairs of a pivot: two bi-value cells it sees, each sharing one candidate with
/// `pivot_mask` and the same third value `z` (outside the pivot for an XY-wing, inside for
/// an XYZ-wing).
fn wings(grid: &Candidates, technique: Technique) -> Option<Step> {
    let bivalue = pairs(grid);
    let pivot_size = if technique == Technique::XyWing { 2 } else { 3 };
    // One buffer for every pivot's pincers: the search runs at every step of a rating.
    let mut seen = Vec::with_capacity(bivalue.len());
    for pivot in (0..grid.n * grid.n).filter(|&c| grid.masks[c].count_ones() == pivot_size) {
        let pm = grid.masks[pivot];
        // A pincer of an XY-wing shares one candidate with the pivot, one of an XYZ-wing
        // lies within it: the others can be in no wing of this pivot, and leaving them out
        // keeps the pairs that can in the order they come.
        let fits_pivot = |c: usize| match pivot_size {
            2 => (grid.masks[c] & pm).count_ones() == 1,
            _ => grid.masks[c] & !pm == 0,
        };
        seen.clear();
        seen.extend(
            bivalue
                .iter()
                .copied()
                .filter(|&c| fits_pivot(c) && grid.sees(pivot, c)),
        );
        for (i, &a) in seen.iter().enumerate() {
            for &b in &seen[i + 1..] {
                let (ma, mb) = (grid.masks[a], grid.masks[b]);
                if ma == mb {
                    continue;
                }
                let z = ma & mb;
                if z.count_ones() != 1 {
                    continue;
                }
                let fits = if pivot_size == 2 {
                    // {x,z} and {y,z} with {x,y} the pivot: z outside, the rest the pivot.
                    z & pm == 0 && (ma | mb) & !z == pm
                } else {
                    (ma | mb) == pm
                };
                if !fits {
                    continue;
                }
                let zv = z.trailing_zeros() as u8 + 1;
                let pattern = if pivot_size == 2 {
                    vec![a, b]
                } else {
                    vec![pivot, a, b]
                };
                if let Some(mut s) = remove_seen(grid, technique, pattern, zv) {
                    if pivot_size == 2 {
                        s.cells.insert(0, pivot);
                    }
                    return Some(s);
                }
            }
        }
    }
    None
}

/// An XY-wing.
pub(super) fn xy(grid: &Candidates) -> Option<Step> {
    wings(grid, Technique::XyWing)
}

/// An XYZ-wing.
pub(super) fn xyz(grid: &Candidates) -> Option<Step> {
    wings(grid, Technique::XyzWing)
}
