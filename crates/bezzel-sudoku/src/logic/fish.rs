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
    let mut lines = [0usize; 32];
    let mut along = [0u32; 32];
    for value in 1..=n as u8 {
        // Rows as the base (cover the columns), then columns as the base.
        for rows in [true, false] {
            let (base, cover) = if rows { (0, n) } else { (n, 0) };
            // The base lines where the value has 2..=k places, with those places' positions
            // along the line (a row's positions are the columns, and the other way round).
            let mut len = 0;
            for i in 0..n {
                let mask = grid.place_mask(base + i, value);
                if (2..=k).contains(&(mask.count_ones() as usize)) {
                    lines[len] = i;
                    along[len] = mask;
                    len += 1;
                }
            }
            let line_of = |c: usize| if rows { c / n } else { c % n };
            let mut found = None;
            subsets(len, k, |chosen| {
                let union = chosen.iter().fold(0, |m, &i| m | along[i]);
                if union.count_ones() as usize != k {
                    return false;
                }
                let in_base = |c: usize| chosen.iter().any(|&i| lines[i] == line_of(c));
                let covered = || {
                    (0..n)
                        .filter(move |j| union & 1 << j != 0)
                        .flat_map(move |j| grid.places(cover + j, value))
                };
                if covered().all(in_base) {
                    return false;
                }
                let mut cells: Vec<usize> = covered().filter(|&c| in_base(c)).collect();
                cells.sort_unstable();
                found = Some(Step {
                    technique,
                    cells,
                    values: vec![value],
                    place: None,
                    remove: covered()
                        .filter(|&c| !in_base(c))
                        .map(|c| (c, value))
                        .collect(),
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
