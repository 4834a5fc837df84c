//! The family's skip of Régin at seven open cells loses nothing: it skips the matching in exact
//! units when none of four shapes exists (two cells with the same two values, two values held
//! by the same two cells, three cells within three values, three values within three cells),
//! and then the matching would prune nothing.
//!
//! First the claim by itself, on bipartite graphs of 7 cells over 7 values at the cheap
//! rules' fixpoint (every cell with two values or more, every value in two cells or more):
//! "some edge lies in no perfect matching, or there is none" computed by a subset dynamic
//! program over perfect matchings written here, against the four shapes from their
//! definitions, on random graphs of several densities, around planted Hall sets of 2 to 5
//! cells, and exhaustively over every graph (up to renamings) whose cells hold three values, or one
//! cell two and the others three (a class where tight sets of 3 to 5 cells are common).
//!
//! Then the family itself on units with seven open cells and zero to two givens (a unit of
//! seven to nine cells): its root domains against every assignment of the unit, enumerated.

use bezzel_core::prelude::*;
use std::collections::BTreeSet;

use crate::brute;

use brute::{Rng, supports};

const K: usize = 7;
const ALL: usize = (1 << K) - 1;

/// Per edge (cell, value), whether some perfect matching uses it, as one mask per cell;
/// `None` when there is no perfect matching. By dynamic programming over the sets of values
/// the first cells take (`forward`) and the last cells take (`backward`).
fn supported(cells: &[u8; K]) -> Option<[u8; K]> {
    // Layer i: the masks of i values, the only ones the first (last) i cells can take.
    static LAYERS: std::sync::OnceLock<Vec<Vec<usize>>> = std::sync::OnceLock::new();
    let layers = LAYERS.get_or_init(|| {
        (0..=K)
            .map(|i| (0..=ALL).filter(|s| s.count_ones() as usize == i).collect())
            .collect()
    });
    let mut forward = [[false; 1 << K]; K + 1];
    let mut backward = [[false; 1 << K]; K + 1];
    forward[0][0] = true;
    for i in 0..K {
        for &s in &layers[i] {
            if forward[i][s] {
                for v in 0..K {
                    if cells[i] >> v & 1 == 1 && s >> v & 1 == 0 {
                        forward[i + 1][s | 1 << v] = true;
                    }
                }
            }
        }
    }
    if !forward[K][ALL] {
        return None;
    }
    backward[K][0] = true;
    for i in (0..K).rev() {
        for &s in &layers[K - 1 - i] {
            if backward[i + 1][s] {
                for v in 0..K {
                    if cells[i] >> v & 1 == 1 && s >> v & 1 == 0 {
                        backward[i][s | 1 << v] = true;
                    }
                }
            }
        }
    }
    let mut out = [0u8; K];
    for i in 0..K {
        for &s in &layers[i] {
            if !forward[i][s] {
                continue;
            }
            for v in 0..K {
                if cells[i] >> v & 1 == 1 && s >> v & 1 == 0 && backward[i + 1][ALL ^ s ^ (1 << v)]
                {
                    out[i] |= 1 << v;
                }
            }
        }
    }
    Some(out)
}

/// Whether the graph is at the cheap rules' fixpoint: every cell two values or more, every
/// value two cells or more (hence all seven values used).
fn at_fixpoint(cells: &[u8; K]) -> bool {
    cells.iter().all(|m| m.count_ones() >= 2)
        && (0..K).all(|v| cells.iter().filter(|&&m| m >> v & 1 == 1).count() >= 2)
}

/// The four shapes, by their definitions over subsets (as sets, not bit tricks).
fn any_shape(cells: &[u8; K]) -> bool {
    let holders: Vec<BTreeSet<usize>> = (0..K)
        .map(|v| (0..K).filter(|&c| cells[c] >> v & 1 == 1).collect())
        .collect();
    let values: Vec<BTreeSet<usize>> = (0..K)
        .map(|c| (0..K).filter(|&v| cells[c] >> v & 1 == 1).collect())
        .collect();
    for sets in [&values, &holders] {
        for i in 0..K {
            for j in i + 1..K {
                if sets[i].len() == 2 && sets[i] == sets[j] {
                    return true;
                }
                for l in j + 1..K {
                    let u: BTreeSet<usize> = sets[i]
                        .iter()
                        .chain(&sets[j])
                        .chain(&sets[l])
                        .copied()
                        .collect();
                    if u.len() <= 3 {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Checks one graph; returns (at fixpoint, prunes or fails, shape).
fn check(cells: &[u8; K]) -> (bool, bool, bool) {
    if !at_fixpoint(cells) {
        return (false, false, false);
    }
    let prunes = match supported(cells) {
        None => true,
        Some(s) => s != *cells,
    };
    let shape = any_shape(cells);
    assert!(
        !prunes || shape,
        "no shape, yet Régin would prune or fail: {cells:?} (supported {:?})",
        supported(cells)
    );
    (true, prunes, shape)
}

/// Cells that hold each value with probability `density` percent.
fn random_cells(rng: &mut Rng, density: u64) -> [u8; K] {
    let mut cells = [0u8; K];
    for c in &mut cells {
        for v in 0..K {
            if rng.chance(density) {
                *c |= 1 << v;
            }
        }
    }
    cells
}

#[test]
fn without_a_shape_no_matching_prunes_on_random_and_planted_graphs() {
    let mut rng = Rng::seeded(7_000_007);
    let (mut fix, mut prunes, mut settled) = (0u64, 0u64, 0u64);
    for _ in 0..400_000 {
        let density = rng.range(25, 80) as u64;
        let mut cells = random_cells(&mut rng, density);
        if rng.chance(70) {
            // A Hall set: `s` cells within `s` values (or one more cell, to fail).
            let s = rng.range(2, 5) as usize;
            let mut vs: Vec<usize> = (0..K).collect();
            let mut cs: Vec<usize> = (0..K).collect();
            for i in (1..K).rev() {
                vs.swap(i, rng.below(i as u64 + 1) as usize);
                cs.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let within = vs[..s].iter().fold(0u8, |m, &v| m | 1 << v);
            let take = s + usize::from(rng.chance(10));
            for &c in &cs[..take] {
                cells[c] &= within;
                // Keep two values at least where the set allows it.
                while cells[c].count_ones() < 2 {
                    cells[c] |= 1 << vs[rng.below(s as u64) as usize];
                }
            }
        }
        let (f, p, sh) = check(&cells);
        fix += u64::from(f);
        prunes += u64::from(p);
        settled += u64::from(f && !sh);
    }
    assert!(
        fix > 100_000 && prunes > 20_000 && settled > 5_000,
        "{fix} {prunes} {settled}"
    );
}

#[test]
fn without_a_shape_no_matching_prunes_on_every_graph_of_three_values_per_cell() {
    // Every graph (up to renaming cells and values) whose cells hold three values each, or
    // one cell two values and the others three: rename values so that the cell with fewest
    // values holds {0, 1, 2} (or {0, 1}), the smallest mask of its size; rename cells so
    // that the masks are sorted: that cell comes first, the others are any non-decreasing
    // tuple of three-value masks. Tight sets of three to five cells abound there.
    let threes: Vec<u8> = (0u8..(1 << K)).filter(|m| m.count_ones() == 3).collect();
    let (mut fix, mut prunes, mut settled, mut checked) = (0u64, 0u64, 0u64, 0u64);
    for first in [0b111u8, 0b011u8] {
        let mut cells = [0u8; K];
        cells[0] = first;
        let mut idx = [0usize; K - 1];
        'outer: loop {
            for (c, &i) in idx.iter().enumerate() {
                cells[c + 1] = threes[i];
            }
            checked += 1;
            if at_fixpoint(&cells) {
                fix += 1;
                if !shape_bits(&cells) {
                    settled += 1;
                    let consistent = supported(&cells) == Some(cells);
                    assert!(
                        consistent,
                        "no shape, yet Régin would prune or fail: {cells:?}"
                    );
                } else {
                    prunes += u64::from(supported(&cells) != Some(cells));
                }
            }
            let mut j = K - 2;
            loop {
                if idx[j] + 1 < threes.len() {
                    idx[j] += 1;
                    for l in j + 1..K - 1 {
                        idx[l] = idx[j];
                    }
                    break;
                }
                if j == 0 {
                    break 'outer;
                }
                j -= 1;
            }
        }
    }
    assert_eq!(checked, 2 * 3_838_380, "C(40, 6) tuples per first cell");
    assert!(
        fix > 1_000_000 && prunes > 10_000 && settled > 10_000,
        "{fix} {prunes} {settled}"
    );
}

/// [`any_shape`] with masks: the same four shapes, faster, for the exhaustive test.
fn shape_bits(cells: &[u8; K]) -> bool {
    let mut holders = [0u8; K];
    for (c, &m) in cells.iter().enumerate() {
        for (v, h) in holders.iter_mut().enumerate() {
            *h |= ((m >> v) & 1) << c;
        }
    }
    [cells, &holders].into_iter().any(|sets| {
        (0..K).any(|i| {
            (i + 1..K).any(|j| {
                (sets[i].count_ones() == 2 && sets[i] == sets[j])
                    || (j + 1..K).any(|l| (sets[i] | sets[j] | sets[l]).count_ones() <= 3)
            })
        })
    })
}

#[test]
fn units_of_seven_open_cells_keep_exactly_their_supported_values() {
    // A unit of seven open cells at the cheap fixpoint (random, often with a planted Hall
    // set) plus `g` givens (values 7..7+g), values shifted by `lo`; a second unit of three
    // cells (two of the first, one fresh over a wider range: never exact, no pair) so that a
    // family forms. The root must equal the unit's supports, by enumeration.
    let mut rng = Rng::seeded(7_000_008);
    let (mut pruned, mut same, mut failed) = (0, 0, 0);
    for _ in 0..80_000 {
        let cells = loop {
            let density = rng.range(30, 70) as u64;
            let mut cells = random_cells(&mut rng, density);
            if rng.chance(60) {
                let s = rng.range(2, 5) as usize;
                let base = rng.below((K - s + 1) as u64) as usize;
                let within = (((1u16 << s) - 1) << base) as u8;
                let take = s + usize::from(rng.chance(10));
                for c in 0..take {
                    let j = (c * 3 + base) % K;
                    cells[j] &= within;
                }
            }
            if at_fixpoint(&cells) {
                break cells;
            }
        };
        let g = rng.below(3) as usize;
        let lo = rng.range(-3, 3) as i32;
        let mut domains: Vec<Vec<i32>> = cells
            .iter()
            .map(|&m| {
                (0..K as i32)
                    .filter(|&v| m >> v & 1 == 1)
                    .map(|v| v + lo)
                    .collect()
            })
            .collect();
        for j in 0..g {
            domains.push(vec![lo + (K + j) as i32]);
        }
        // The givens' values leave the open cells' declared ranges exact: the unit's values
        // are lo..lo+7+g, every one used.
        let n = domains.len();
        let unit: Vec<usize> = (0..n).collect();
        domains.push(vec![lo - 2, lo - 1, lo, lo + 1]);
        let second = vec![0, 1, n];
        let (mut m, vars) = brute::model(&domains);
        for u in [&unit, &second] {
            let xs: Vec<VarId> = u.iter().map(|&i| vars[i]).collect();
            m.all_different_with(&xs, Consistency::Domain).unwrap();
        }
        // Ground truth: the two units one by one at domain consistency, by enumeration of
        // each unit's assignments, to their common fixpoint.
        let base = lo - 2;
        let mut masks: Vec<u64> = domains
            .iter()
            .map(|d| d.iter().fold(0, |m, &v| m | 1 << (v - base)))
            .collect();
        let expected = 'fix: loop {
            let mut changed = false;
            for u in [&unit, &second] {
                let cur: Vec<u64> = u.iter().map(|&i| masks[i]).collect();
                let Some(s) = supports(&cur) else {
                    break 'fix None;
                };
                for (&i, &m) in u.iter().zip(&s) {
                    changed |= masks[i] != m;
                    masks[i] = m;
                }
            }
            if !changed {
                break Some(masks.clone());
            }
        };
        match (m.propagate(), expected) {
            (Err(_), None) => failed += 1,
            (Err(_), Some(e)) => panic!("failed, supports {e:?} exist: {domains:?}"),
            (Ok(()), None) => panic!("no failure, no assignment: {domains:?}"),
            (Ok(()), Some(e)) => {
                let mut narrowed = false;
                for (i, &x) in vars.iter().enumerate() {
                    let want: Vec<i32> = (0..64)
                        .filter(|&b| e[i] >> b & 1 == 1)
                        .map(|b| base + b)
                        .collect();
                    narrowed |= want != domains[i];
                    assert_eq!(m.domain(x).unwrap(), want, "x{i} of {domains:?}");
                }
                if narrowed {
                    pruned += 1;
                } else {
                    same += 1;
                }
            }
        }
    }
    assert!(
        pruned > 10_000 && same > 50_000 && failed > 500,
        "{pruned} {same} {failed}"
    );
}
