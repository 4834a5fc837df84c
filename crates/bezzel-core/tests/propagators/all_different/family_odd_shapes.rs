//! Odd family shapes give the answers of the units one by one, through the family's `slots`
//! module (the per-slot masks and the cell/slot tables read without bounds checks), the locked
//! pairs that or their masks through a `SlotList`, the sweep schedule, and the queue's
//! one-subscriber gate. The shapes:
//! schedule, and the queue's one-subscriber gate, through odd family shapes:
//! - cells in more than four units (the other-slot lists empty: the fallback paths), with
//!   locked pairs among exact units there;
//! - units of different sizes sharing cells, subsets of other units, units posted twice;
//! - 64 units in one family, most cells in five units or more;
//! - Latin squares of 3 to 8 with their values anywhere in a window of 64, gapped, negative,
//!   and a window that reaches its 64th bit.
//!
//! The ground truth never goes through the family: a backtracking enumeration written here
//! for the small cases, else the same units posted one by one as `AllDifferentDomain`
//! propagators. Compared: solution sets, the first solutions in input order (the same whatever
//! the pruning), and, where no locked pair exists, the node counts of first-fail searches
//! (the family's domains are then those of the units one by one at every node).

use crate::brute;

use bezzel_core::prelude::*;
use brute::{Rng, enumerate_units, exact_values, set_of, units_model};
use std::collections::BTreeSet;

#[derive(Debug, Clone)]
struct Case {
    domains: Vec<Vec<i32>>,
    units: Vec<Vec<usize>>,
}

fn checked(var_order: VarOrder) -> SearchConfig {
    SearchConfig {
        var_order,
        check_solutions: true,
        ..SearchConfig::default()
    }
}

impl Case {
    /// Every solution, by backtracking in input order, each unit checked as cells are set.
    fn enumerate(&self) -> BTreeSet<Vec<i32>> {
        enumerate_units(&self.domains, &self.units)
    }

    /// Whether two units form a locked pair (both exact over the same values by their
    /// cells' declared ranges, sharing two cells or more, neither inside the other), which
    /// prunes more than the units one by one.
    fn has_pairs(&self) -> bool {
        let exact = |unit: &[usize]| exact_values(&self.domains, unit);
        // Units of fewer than three cells form no family unit (nothing or a `!=`).
        let units: Vec<&Vec<usize>> = self.units.iter().filter(|u| u.len() >= 3).collect();
        for (a, ua) in units.iter().enumerate() {
            for ub in &units[a + 1..] {
                let shared = ua.iter().filter(|i| ub.contains(i)).count();
                let va = exact(ua);
                if va.is_some()
                    && va == exact(ub)
                    && shared >= 2
                    && shared < ua.len()
                    && shared < ub.len()
                {
                    return true;
                }
            }
        }
        false
    }

    /// Solutions (up to `limit`) in input order with the smallest value first, whether the
    /// search completed, and the statistics.
    fn run(
        &self,
        family: bool,
        order: VarOrder,
        limit: Option<u64>,
    ) -> (Vec<Vec<i32>>, Statistics) {
        let (m, vars) = units_model(&self.domains, &self.units, family);
        let mut config = checked(order);
        config.limits.solutions = limit;
        config.limits.nodes = Some(400_000);
        let mut s = Solver::with_config(m, config);
        let sols: Vec<Vec<i32>> = s.solutions().map(|sol| sol.values_of(&vars)).collect();
        (sols, s.stats().clone())
    }

    /// The family against the units one by one: the same first solutions in input order,
    /// and with first fail the same solutions and, without locked pairs, the same nodes.
    /// Returns the propagations of both first-fail runs, and the solutions they found.
    fn agree(&self, limit: u64) -> (u64, u64, usize) {
        let what = format!("{self:?}");
        let (fam, fs) = self.run(true, VarOrder::InputOrder, Some(limit));
        let (one, os) = self.run(false, VarOrder::InputOrder, Some(limit));
        // Both list solutions in lexicographic order, whatever they prune: the shorter list
        // (cut by the node limit, if at all) is a prefix of the other.
        let n = fam.len().min(one.len());
        assert_eq!(fam[..n], one[..n], "input order: {what}");
        if fs.is_complete() && os.is_complete() {
            assert_eq!(fam.len(), one.len(), "input order: {what}");
        }
        let (fam_ff, fs_ff) = self.run(true, VarOrder::SmallestDomain, Some(limit));
        let (one_ff, os_ff) = self.run(false, VarOrder::SmallestDomain, Some(limit));
        let found = fam_ff.len();
        if !self.has_pairs() {
            assert_eq!(fs_ff.nodes, os_ff.nodes, "first-fail nodes: {what}");
            assert_eq!(fam_ff, one_ff, "first-fail solutions: {what}");
        } else if fs_ff.is_complete() && os_ff.is_complete() {
            let (a, b): (BTreeSet<_>, BTreeSet<_>) =
                (fam_ff.into_iter().collect(), one_ff.into_iter().collect());
            assert_eq!(a, b, "first-fail solution sets: {what}");
        }
        (fs_ff.propagations, os_ff.propagations, found)
    }
}

/// `k` distinct positions of `0..n`.
fn pick(rng: &mut Rng, n: usize, k: usize) -> Vec<usize> {
    let mut all: Vec<usize> = (0..n).collect();
    for i in 0..k {
        let j = i + rng.below((n - i) as u64) as usize;
        all.swap(i, j);
    }
    all.truncate(k);
    all
}

/// A small family over `n` cells: random units of 1 to 6 cells (those of 1 and 2 cells are
/// left out of the family by `all_different_with`), a hub cell in five to eight of them, some
/// units posted twice or as a subset of another; values in a window from `base`, `width`
/// wide, so that units of `width` cells are exact and may pair.
fn small_case(rng: &mut Rng) -> Case {
    let n = rng.range(6, 9) as usize;
    let width = rng.range(3, 5) as i32;
    let base = rng.range(-300, 300) as i32;
    // Most cases around a planted solution (each unit over cells whose planted values
    // differ, each domain holding its planted value); the others anything.
    let planted: Option<Vec<i32>> = rng.chance(80).then(|| {
        (0..n)
            .map(|_| base + rng.below(width as u64) as i32)
            .collect()
    });
    let domains: Vec<Vec<i32>> = (0..n)
        .map(|i| {
            let mut d = brute::domain(rng, base, base + width - 1);
            if let Some(p) = &planted {
                d.push(p[i]);
                d.sort_unstable();
                d.dedup();
            }
            d
        })
        .collect();
    let mut units: Vec<Vec<usize>> = Vec::new();
    let hub = rng.below(n as u64) as usize;
    let count = rng.range(5, 12) as usize;
    for u in 0..count {
        let size = if rng.chance(50) {
            width as usize
        } else {
            rng.range(1, 6.min(n as i64)) as usize
        };
        // The hub in at least five units.
        let mut unit: Vec<usize> = if u < 6 { vec![hub] } else { Vec::new() };
        for x in pick(rng, n, n) {
            let fits = match &planted {
                Some(p) => unit.iter().all(|&y| p[y] != p[x]),
                None => true,
            };
            if unit.len() < size && !unit.contains(&x) && fits {
                unit.push(x);
            }
        }
        units.push(unit);
    }
    if rng.chance(30) {
        let again = units[rng.below(units.len() as u64) as usize].clone();
        units.push(again);
    }
    if rng.chance(30) {
        let of = units[rng.below(units.len() as u64) as usize].clone();
        if of.len() > 3 {
            units.push(of[1..].to_vec());
        }
    }
    Case { domains, units }
}

#[test]
fn small_families_with_a_cell_in_five_units_or_more_against_brute_force() {
    let mut rng = Rng::seeded(0x5107);
    let (mut paired, mut feasible) = (0, 0);
    for _ in 0..300 {
        let case = small_case(&mut rng);
        let what = format!("{case:?}");
        let expected = case.enumerate();
        feasible += usize::from(!expected.is_empty());
        paired += usize::from(case.has_pairs());
        for family in [true, false] {
            for order in [
                VarOrder::InputOrder,
                VarOrder::SmallestDomain,
                VarOrder::DomWDeg,
            ] {
                let (m, vars) = units_model(&case.domains, &case.units, family);
                let mut s = Solver::with_config(m, checked(order));
                assert_eq!(
                    set_of(&mut s, &vars),
                    expected,
                    "family {family}, {order:?}: {what}"
                );
            }
        }
        case.agree(50);
    }
    assert!(
        feasible >= 60 && paired >= 30,
        "{feasible} feasible, {paired} with pairs"
    );
}

/// An `r*c` Sudoku-like grid (`n = r*c` rows, columns, boxes of `r` rows by `c` columns), its
/// planted solution, values `values[k]`.
fn grid(r: usize, c: usize, values: &[i32]) -> (Vec<Vec<usize>>, Vec<i32>) {
    let n = r * c;
    let mut units = Vec::new();
    for i in 0..n {
        units.push((0..n).map(|j| i * n + j).collect());
        units.push((0..n).map(|j| j * n + i).collect());
        let (br, bc) = ((i / r) * r, (i % r) * c);
        units.push(
            (0..n)
                .map(|j| (br + j / c) * n + bc + j % c)
                .collect::<Vec<usize>>(),
        );
    }
    // The usual pattern: row `i`, column `j` takes `(c * (i % r) + i / r + j) % n`.
    let planted = (0..n * n)
        .map(|x| {
            let (i, j) = (x / n, x % n);
            values[(c * (i % r) + i / r + j) % n]
        })
        .collect();
    (units, planted)
}

/// Values for `n` symbols: from `base`, consecutive or spread over a window of 64 (gapped,
/// the last one sometimes at its 64th value).
fn symbols(rng: &mut Rng, n: usize) -> Vec<i32> {
    let base = rng.range(-1000, 1000) as i32;
    if rng.chance(50) {
        return (0..n as i32).map(|k| base + k).collect();
    }
    // Distinct offsets within 1..=61, then 0 and 62 or 63 (the window's last value).
    let mut offsets: Vec<i32> = pick(rng, 61, n - 2)
        .into_iter()
        .map(|o| o as i32 + 1)
        .collect();
    offsets.push(0);
    offsets.push(if rng.chance(50) { 63 } else { 62 });
    offsets.sort_unstable();
    assert_eq!(offsets.len(), n);
    offsets.into_iter().map(|o| base + o).collect()
}

#[test]
fn sixty_four_units_with_most_cells_in_five_or_more_agree_with_the_units_one_by_one() {
    let mut rng = Rng::seeded(0x64);
    let mut propagations = (0, 0);
    let (mut paired, mut feasible) = (0, 0);
    for round in 0..12 {
        // 8 × 8 with boxes of 2 × 4: 24 units; 40 more of random cells whose planted values
        // differ, of 3 to 8 cells (those of 8 cells are exact and pair with rows and boxes
        // where the symbols are consecutive).
        let values = symbols(&mut rng, 8);
        let (mut units, planted) = grid(2, 4, &values);
        while units.len() < 64 {
            let size = rng.range(3, 8) as usize;
            let mut unit: Vec<usize> = Vec::new();
            let mut taken = BTreeSet::new();
            for x in pick(&mut rng, 64, 64) {
                if unit.len() < size && taken.insert(planted[x]) {
                    unit.push(x);
                }
            }
            units.push(unit);
        }
        let mut per_cell = [0; 64];
        for unit in &units {
            for &x in unit {
                per_cell[x] += 1;
            }
        }
        assert!(per_cell.iter().filter(|&&k| k > 4).count() >= 32);
        let given = rng.range(8, 30) as u64;
        let domains: Vec<Vec<i32>> = planted
            .iter()
            .map(|&v| {
                if rng.chance(given) {
                    vec![v]
                } else {
                    values.clone()
                }
            })
            .collect();
        let case = Case { domains, units };
        paired += usize::from(case.has_pairs());
        let (f, o, found) = case.agree(if round % 2 == 0 { 20 } else { 200 });
        feasible += usize::from(found > 0);
        propagations.0 += f;
        propagations.1 += o;
    }
    assert!(
        paired >= 4 && feasible >= 10,
        "{paired} with pairs, {feasible} feasible"
    );
    // The family formed: far fewer propagator runs than the units one by one.
    assert!(propagations.0 * 2 < propagations.1, "{propagations:?}");
}

#[test]
fn latin_squares_with_values_anywhere_in_a_window_agree_with_the_units_one_by_one() {
    let mut rng = Rng::seeded(0x1a7);
    let mut feasible = 0;
    for n in 3..=8usize {
        for _ in 0..6 {
            let values = symbols(&mut rng, n);
            let mut units: Vec<Vec<usize>> = Vec::new();
            for i in 0..n {
                units.push((0..n).map(|j| i * n + j).collect());
                units.push((0..n).map(|j| j * n + i).collect());
            }
            // Sometimes both diagonals, and sometimes broken diagonals too: cells in four
            // units or more (the diagonals pair with nothing: one shared cell).
            if rng.chance(50) {
                units.push((0..n).map(|i| i * n + i).collect());
                units.push((0..n).map(|i| i * n + n - 1 - i).collect());
            }
            if rng.chance(40) {
                for k in 1..n {
                    units.push((0..n).map(|i| i * n + (i + k) % n).collect());
                }
            }
            let open = rng.range(60, 100) as u64;
            // Givens from no planted solution: some cases have none.
            let domains: Vec<Vec<i32>> = (0..n * n)
                .map(|_| {
                    if rng.chance(open) {
                        values.clone()
                    } else {
                        vec![values[rng.below(n as u64) as usize]]
                    }
                })
                .collect();
            let case = Case { domains, units };
            feasible += usize::from(case.agree(if n <= 4 { 1_000 } else { 60 }).2 > 0);
            if n <= 4 {
                let (all, stats) = case.run(true, VarOrder::SmallestDomain, None);
                assert!(stats.is_complete());
                let all: BTreeSet<Vec<i32>> = all.into_iter().collect();
                assert_eq!(all, case.enumerate(), "{case:?}");
            }
        }
    }
    assert!(feasible >= 8, "{feasible} feasible");
}

#[test]
fn grids_of_other_shapes_with_paired_boxes_agree_with_the_units_one_by_one() {
    // 2 × 3 (6 × 6), 3 × 2, 2 × 4, 3 × 3 and 4 × 2 grids with diagonals or without: cells in
    // three to five units, rows and boxes paired through the slot lists or the fallback.
    let mut rng = Rng::seeded(0x9e1d);
    let (mut paired, mut feasible) = (0, 0);
    for &(r, c) in &[(2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (2, 2)] {
        for _ in 0..6 {
            let n = r * c;
            let base = rng.range(-40, 40) as i32;
            let values: Vec<i32> = (0..n as i32).map(|k| base + k).collect();
            let (mut units, planted) = grid(r, c, &values);
            let diagonals = rng.chance(50);
            if diagonals {
                units.push((0..n).map(|i| i * n + i).collect());
                units.push((0..n).map(|i| i * n + n - 1 - i).collect());
            }
            let given = rng.range(15, 40) as u64;
            let domains: Vec<Vec<i32>> = planted
                .iter()
                .map(|&v| {
                    if rng.chance(given) {
                        vec![v]
                    } else if rng.chance(30) {
                        // Around the planted value only: more fixing in the sweeps.
                        let mut d = vec![v];
                        d.extend(values.iter().filter(|_| rng.chance(40)));
                        d.sort_unstable();
                        d.dedup();
                        d
                    } else {
                        values.clone()
                    }
                })
                .collect();
            let case = Case { domains, units };
            // Diagonals do not hold in the planted solution: some cases have none.
            let (.., found) = case.agree(if n <= 6 { 500 } else { 40 });
            paired += usize::from(case.has_pairs());
            feasible += usize::from(found > 0);
        }
    }
    assert!(
        paired >= 20 && feasible >= 15,
        "{paired} with pairs, {feasible} feasible"
    );
}
