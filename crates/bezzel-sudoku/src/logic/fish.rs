//! Fish: a value whose places in `k` rows all lie in `k` columns (or the other way round) is
//! in those columns only in those rows: X-wing (2), swordfish (3), jellyfish (4).

use super::{Candidates, Step, Technique, subsets};

/// A fish of `k` lines.
pub(super) fn find(grid: &Candidates, k: usize) -> Option<Step> {
    let n = grid.n;
    let technique = match k {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    };
    for value in 1..=n as u8 {
        // Rows as the base (cover the columns), then columns as the base.
        for rows in [true, false] {
            let (base, cover) = if rows { (0, n) } else { (n, 0) };
            // The base lines where the value has 2..=k places, with those places' positions
            // along the line.
            let lines: Vec<(usize, u32)> = (0..n)
                .filter_map(|i| {
                    let places = grid.places(base + i, value);
                    let along = places
                        .iter()
                        .fold(0u32, |m, &c| m | 1 << if rows { c % n } else { c / n });
                    (2..=k).contains(&places.len()).then_some((i, along))
                })
                .collect();
            let mut found = None;
            subsets(&lines, k, &mut |chosen| {
                let union = chosen.iter().fold(0, |m, &(_, a)| m | a);
                if union.count_ones() as usize != k {
                    return false;
                }
                let base_lines: Vec<usize> = chosen.iter().map(|&(i, _)| i).collect();
                let mut remove = Vec::new();
                let mut cells = Vec::new();
                for j in (0..n).filter(|j| union & 1 << j != 0) {
                    for c in grid.places(cover + j, value) {
                        let line = if rows { c / n } else { c % n };
                        if base_lines.contains(&line) {
                            cells.push(c);
                        } else {
                            remove.push((c, value));
                        }
                    }
                }
                if remove.is_empty() {
                    return false;
                }
                cells.sort_unstable();
                found = Some(Step {
                    technique,
                    cells,
                    values: vec![value],
                    place: None,
                    remove,
                });
                true
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}
