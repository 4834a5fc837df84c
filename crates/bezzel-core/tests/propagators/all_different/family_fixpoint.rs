//! The all-different family's domains equal the greatest common fixpoint of the rules it
//! claims, whatever the order of its passes (pairs before the matchings, the loop's exit,
//! `all_fixed` over the covering units only, Régin skipped at seven open cells without a Hall
//! shape, the units bits in a slot's link).
//!
//! The ground truth is the greatest common fixpoint, computed here without the solver, of
//! the rules the family claims: every unit domain consistent (a value stays in a cell iff
//! the unit's cells can take pairwise distinct values with the cell at that value, checked by
//! a matching of augmenting paths written here) and locked candidates on every pair of units
//! that must both take the same set of values (as many values as cells, from the declared
//! ranges), share two cells or more and neither lies inside the other. Every rule only
//! removes values no common fixpoint keeps, so a propagator that applies them and stops at a
//! common fixpoint ends exactly at the greatest one: the family's domains must *equal* it
//! (weaker propagation and over-pruning are both caught), and it must fail exactly where some
//! unit has no matching at the greatest fixpoint.
//!
//! Checked at the root (a run over every unit: the fresh path with the `all_fixed` stop), and
//! at every node of searches with random decisions (incremental runs from advice): each node
//! must equal the greatest fixpoint of its parent's domains narrowed by the branch, and a
//! left branch that produced no node must have no fixpoint. Solution sets are compared with
//! an enumeration written here where the instances are small enough.
//!
//! Instances are chosen for the changed code: families whose first units do not hold every
//! cell, a cell that only the last unit holds, units inside others, cells in more than four
//! units (the slots' list path), exact units of seven to nine cells sharing cells with other
//! exact units (matchings and pairs interleaved), and units whose matching narrows cells that
//! lie in that unit only.

use bezzel_core::prelude::*;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use crate::brute;

use brute::Rng;

/// Domains (values 0..=30) and units (positions, three cells or more, distinct).
#[derive(Debug, Clone)]
struct Case {
    domains: Vec<Vec<i32>>,
    units: Vec<Vec<usize>>,
}

fn mask_of(d: &[i32]) -> u64 {
    d.iter().fold(0, |m, &v| m | 1 << v)
}

fn values_of(m: u64) -> Vec<i32> {
    (0..64).filter(|&b| m >> b & 1 == 1).collect()
}

/// Whether the cells `masks` can take pairwise distinct values (Kuhn's augmenting paths).
fn matching(masks: &[u64]) -> bool {
    fn augment(i: usize, masks: &[u64], owner: &mut [usize; 64], seen: &mut u64) -> bool {
        let mut free = masks[i] & !*seen;
        while free != 0 {
            let v = free.trailing_zeros() as usize;
            free &= free - 1;
            *seen |= 1 << v;
            if owner[v] == usize::MAX || augment(owner[v], masks, owner, seen) {
                owner[v] = i;
                return true;
            }
        }
        false
    }
    let mut owner = [usize::MAX; 64];
    (0..masks.len()).all(|i| augment(i, masks, &mut owner, &mut 0))
}

/// One unit made domain consistent in `masks`; `None` when it has no matching.
fn unit_gac(masks: &mut [u64], unit: &[usize]) -> Option<bool> {
    let cells: Vec<u64> = unit.iter().map(|&i| masks[i]).collect();
    if !matching(&cells) {
        return None;
    }
    let mut changed = false;
    let mut tmp = cells.clone();
    for (j, &i) in unit.iter().enumerate() {
        let mut keep = 0;
        for v in values_of(cells[j]) {
            tmp[j] = 1 << v;
            if matching(&tmp) {
                keep |= 1 << v;
            }
        }
        tmp[j] = cells[j];
        changed |= keep != masks[i];
        masks[i] = keep;
    }
    Some(changed)
}

impl Case {
    /// The values a unit must take ([`brute::exact_values`]).
    fn exact(&self, unit: &[usize]) -> Option<BTreeSet<i32>> {
        brute::exact_values(&self.domains, unit)
    }

    /// The pairs locked candidates apply to ([`brute::locked_pairs`]).
    fn pairs(&self) -> Vec<(usize, usize)> {
        brute::locked_pairs(&self.domains, &self.units)
    }

    /// The greatest common fixpoint below `masks` of the units' domain consistency and the
    /// pairs' locked candidates; `None` where a unit has no matching there.
    fn fixpoint(&self, masks: &[u64], pairs: &[(usize, usize)]) -> Option<Vec<u64>> {
        let mut masks = masks.to_vec();
        if masks.contains(&0) {
            return None;
        }
        loop {
            let mut changed = false;
            for unit in &self.units {
                changed |= unit_gac(&mut masks, unit)?;
            }
            changed |= self.pairs_pass(&mut masks, pairs)?;
            if !changed {
                return Some(masks);
            }
        }
    }

    /// The cheap rules alone to their fixpoint (naked singles; hidden singles in exact units):
    /// `None` on an empty cell.
    fn cheap(&self, masks: &[u64]) -> Option<Vec<u64>> {
        let mut masks = masks.to_vec();
        loop {
            let mut changed = false;
            for unit in &self.units {
                for &i in unit {
                    if masks[i].count_ones() == 1 {
                        for &j in unit {
                            if j != i && masks[j] & masks[i] != 0 {
                                masks[j] &= !masks[i];
                                changed = true;
                            }
                        }
                    }
                }
                if let Some(values) = self.exact(unit) {
                    for v in values {
                        let holders: Vec<usize> = unit
                            .iter()
                            .copied()
                            .filter(|&i| masks[i] >> v & 1 == 1)
                            .collect();
                        if let [one] = holders[..] {
                            changed |= masks[one] != 1 << v;
                            masks[one] = 1 << v;
                        }
                    }
                }
                if unit.iter().any(|&i| masks[i] == 0) {
                    return None;
                }
            }
            if !changed {
                return Some(masks);
            }
        }
    }

    /// Whether the pairs matter only after a matching: at the cheap rules' fixpoint they
    /// prune nothing, yet the greatest fixpoint with them is below the one without.
    fn pairs_only_after_matching(&self) -> bool {
        let pairs = self.pairs();
        let masks: Vec<u64> = self.domains.iter().map(|d| mask_of(d)).collect();
        let Some(cheap) = self.cheap(&masks) else {
            return false;
        };
        let idle = self.fixpoint_pairs_once(&cheap, &pairs) == Some(cheap.clone());
        idle && {
            let with = self.fixpoint(&masks, &pairs);
            with.is_some() && with != self.fixpoint(&masks, &[])
        }
    }

    /// One pass of the pairs' rule.
    fn fixpoint_pairs_once(&self, masks: &[u64], pairs: &[(usize, usize)]) -> Option<Vec<u64>> {
        let mut masks = masks.to_vec();
        self.pairs_pass(&mut masks, pairs)?;
        Some(masks)
    }

    /// One pass of the pairs' rule on `masks`: whether it changed any, `None` on an empty
    /// cell.
    fn pairs_pass(&self, masks: &mut [u64], pairs: &[(usize, usize)]) -> Option<bool> {
        let mut changed = false;
        for &(a, b) in pairs {
            let (ua, ub) = (&self.units[a], &self.units[b]);
            let out_a: Vec<usize> = ua.iter().copied().filter(|i| !ub.contains(i)).collect();
            let out_b: Vec<usize> = ub.iter().copied().filter(|i| !ua.contains(i)).collect();
            let va = out_a.iter().fold(0, |m, &i| m | masks[i]);
            let vb = out_b.iter().fold(0, |m, &i| m | masks[i]);
            for (rest, keep) in [(&out_b, va), (&out_a, vb)] {
                for &i in rest {
                    let new = masks[i] & keep;
                    if new == 0 {
                        return None;
                    }
                    changed |= new != masks[i];
                    masks[i] = new;
                }
            }
        }
        Some(changed)
    }

    fn build(&self) -> (Model, Vec<VarId>) {
        let (mut m, vars) = brute::model(&self.domains);
        for unit in &self.units {
            let xs: Vec<VarId> = unit.iter().map(|&i| vars[i]).collect();
            m.all_different_with(&xs, Consistency::Domain).unwrap();
        }
        (m, vars)
    }

    fn enumerate(&self) -> BTreeSet<Vec<i32>> {
        brute::enumerate_units(&self.domains, &self.units)
    }
}

/// The root: the family's domains after one propagation against the greatest fixpoint.
fn root(case: &Case) -> Option<Vec<u64>> {
    let pairs = case.pairs();
    let masks: Vec<u64> = case.domains.iter().map(|d| mask_of(d)).collect();
    let expected = case.fixpoint(&masks, &pairs);
    let (mut m, vars) = case.build();
    match (m.propagate(), &expected) {
        (Err(_), None) => {}
        (Err(_), Some(e)) => panic!("root failed, fixpoint {e:?} exists: {case:?}"),
        (Ok(()), None) => panic!("root did not fail, no fixpoint: {case:?}"),
        (Ok(()), Some(e)) => {
            for (i, &x) in vars.iter().enumerate() {
                assert_eq!(
                    m.domain(x).unwrap(),
                    values_of(e[i]),
                    "root, x{i} (pairs {pairs:?}) of {case:?}"
                );
            }
        }
    }
    expected
}

/// A decision and its two branches, as a mask filter on one variable's values.
fn branch(d: Decision, left: bool, vars: &[VarId]) -> (usize, Box<dyn Fn(i32) -> bool>) {
    let (x, f): (VarId, Box<dyn Fn(i32) -> bool>) = match d {
        Decision::Assign(x, v) => (x, Box::new(move |w| (w == v) == left)),
        Decision::Exclude(x, v) => (x, Box::new(move |w| (w != v) == left)),
        Decision::AtMost(x, v) => (x, Box::new(move |w| (w <= v) == left)),
        Decision::Above(x, v) => (x, Box::new(move |w| (w > v) == left)),
    };
    (vars.iter().position(|&y| y == x).unwrap(), f)
}

fn narrowed(masks: &[u64], d: Decision, left: bool, vars: &[VarId]) -> Vec<u64> {
    let (i, f) = branch(d, left, vars);
    let mut out = masks.to_vec();
    out[i] = values_of(masks[i])
        .into_iter()
        .filter(|&w| f(w))
        .fold(0, |m, w| m | 1 << w);
    out
}

type Record = (Vec<u64>, Option<Decision>);

/// Random decisions of every kind; records each node's domains and the decision taken.
#[derive(Debug)]
struct Recorder {
    rng: Rng,
    vars: Vec<VarId>,
    log: Arc<Mutex<Vec<Record>>>,
    cap: usize,
}

impl Brancher for Recorder {
    fn decide(&mut self, d: &Domains<'_>) -> Option<Decision> {
        let masks: Vec<u64> = self
            .vars
            .iter()
            .map(|&x| d.values(x).fold(0, |m, v| m | 1 << v))
            .collect();
        let open: Vec<VarId> = self
            .vars
            .iter()
            .copied()
            .filter(|&x| !d.is_fixed(x))
            .collect();
        let decision = brute::random_decision(&mut self.rng, d, &open);
        let mut log = self.log.lock().unwrap();
        if log.len() < self.cap {
            log.push((masks, decision));
        }
        decision
    }
}

/// A search with random decisions: every node against the greatest fixpoint of its parent
/// narrowed by the branch (found by replaying the depth-first order), every left branch
/// without a node against no fixpoint, and the solutions against `expected` if given.
fn search(case: &Case, seed: u64, expected: Option<&BTreeSet<Vec<i32>>>, cap: usize) -> usize {
    let pairs = case.pairs();
    let (m, vars) = case.build();
    let log = Arc::new(Mutex::new(Vec::new()));
    let recorder = Recorder {
        rng: Rng::seeded(seed),
        vars: vars.clone(),
        log: Arc::clone(&log),
        cap,
    };
    let mut config = SearchConfig {
        check_solutions: true,
        ..SearchConfig::default()
    };
    if expected.is_none() {
        // Only the nodes are judged: no more of them than are recorded.
        config.limits.nodes = Some(cap as u64);
    }
    let mut s = Solver::with_config(m, config).brancher(recorder);
    let found: BTreeSet<Vec<i32>> = s.solutions().map(|sol| sol.values_of(&vars)).collect();
    if let Some(expected) = expected {
        assert_eq!(&found, expected, "seed {seed}: solutions of {case:?}");
    }
    let log = std::mem::take(&mut *log.lock().unwrap());
    let masks: Vec<u64> = case.domains.iter().map(|d| mask_of(d)).collect();
    let Some(first) = log.first() else {
        assert!(case.fixpoint(&masks, &pairs).is_none(), "{case:?}");
        return 0;
    };
    assert_eq!(
        Some(first.0.clone()),
        case.fixpoint(&masks, &pairs),
        "search root of {case:?}"
    );
    // The open path: per node, its masks, decision and whether its left child was seen.
    let mut stack: Vec<(Vec<u64>, Decision, bool)> = Vec::new();
    if let Some(d) = first.1 {
        stack.push((first.0.clone(), d, false));
    }
    let subset = |a: &[u64], b: &[u64]| a.iter().zip(b).all(|(x, y)| x & !y == 0);
    for (n, (node, decision)) in log.iter().enumerate().skip(1) {
        loop {
            let (parent, d, left_seen) = stack.last_mut().expect("a parent on the path");
            let left = narrowed(parent, *d, true, &vars);
            let right = narrowed(parent, *d, false, &vars);
            if subset(node, &left) {
                assert_eq!(
                    Some(node.clone()),
                    case.fixpoint(&left, &pairs),
                    "node {n} (left of {d:?} at {parent:?}), pairs {pairs:?}, of {case:?}"
                );
                *left_seen = true;
                break;
            }
            if subset(node, &right) {
                if !*left_seen {
                    // The left branch failed at its propagation.
                    assert_eq!(
                        case.fixpoint(&left, &pairs),
                        None,
                        "node {n}: left of {d:?} at {parent:?} failed, of {case:?}"
                    );
                }
                assert_eq!(
                    Some(node.clone()),
                    case.fixpoint(&right, &pairs),
                    "node {n} (right of {d:?} at {parent:?}), pairs {pairs:?}, of {case:?}"
                );
                // Both branches done once this one is: replace the entry by the node.
                stack.pop();
                break;
            }
            stack.pop();
        }
        if let Some(d) = decision {
            stack.push((node.clone(), *d, false));
        }
    }
    log.len()
}

/// `d` with 0 and `n - 1`, the ends of a grid's declared range, in order.
fn with_ends(mut d: Vec<i32>, n: usize) -> Vec<i32> {
    d.insert(0, 0);
    d.push(n as i32 - 1);
    d.sort_unstable();
    d.dedup();
    d
}

/// A random subset of `lo..=hi` with at least `least` values, `must` among them.
fn subset(rng: &mut Rng, lo: i32, hi: i32, must: Option<i32>, least: usize, pct: u64) -> Vec<i32> {
    loop {
        let d: Vec<i32> = (lo..=hi)
            .filter(|&v| Some(v) == must || rng.chance(pct))
            .collect();
        if d.len() >= least {
            return d;
        }
    }
}

fn shuffle<T>(rng: &mut Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

/// Irregular families over `s` values: units of `s` cells (exact) and smaller ones, over few
/// variables (cells in many units) or many, the first unit overlapping the second, units
/// inside others, a cell only in the last unit, sometimes a variable declared wider (its
/// units not exact), around a planted assignment so that most have solutions.
fn irregular(rng: &mut Rng) -> Case {
    let s = rng.range(4, 7) as usize;
    let n = rng.range(s as i64 + 1, s as i64 + 5) as usize;
    let planted: Vec<i32> = (0..n).map(|_| rng.below(s as u64) as i32).collect();
    let mut units: Vec<Vec<usize>> = Vec::new();
    let count = rng.range(2, 7) as usize;
    for u in 0..count {
        let size = if rng.chance(70) {
            s
        } else {
            rng.range(3, s as i64) as usize
        };
        let mut cells: Vec<usize> = (0..n).collect();
        shuffle(rng, &mut cells);
        let mut unit: Vec<usize> = match u {
            // Inside the previous unit.
            _ if u > 0 && rng.chance(15) && units[u - 1].len() > 3 => {
                let mut prev = units[u - 1].clone();
                shuffle(rng, &mut prev);
                prev.truncate(rng.range(3, prev.len() as i64 - 1) as usize);
                prev
            }
            _ => cells[..size].to_vec(),
        };
        unit.sort_unstable();
        unit.dedup();
        if unit.len() >= 3 {
            units.push(unit);
        }
    }
    if units.len() < 2 {
        units.push((0..s.min(n)).collect());
        units.push((n - s.min(n)..n).collect());
    }
    // A cell only in the last unit: a fresh variable in place of one of its cells.
    let mut n = n;
    let mut planted = planted;
    if rng.chance(30) {
        let last = units.last_mut().unwrap();
        let j = rng.below(last.len() as u64) as usize;
        planted.push(planted[last[j]]);
        last[j] = n;
        n += 1;
    }
    // The planted assignment made to satisfy the units where it can: each unit's cells get
    // distinct values by a greedy repair (not always possible; unsatisfiable cases are fine).
    for _ in 0..4 {
        for unit in &units {
            let mut used = BTreeSet::new();
            for &i in unit {
                if !used.insert(planted[i])
                    && let Some(v) = (0..s as i32).find(|v| !used.contains(v))
                {
                    planted[i] = v;
                    used.insert(v);
                }
            }
        }
    }
    let domains: Vec<Vec<i32>> = (0..n)
        .map(|i| {
            let pct = rng.range(25, 80) as u64;
            let mut d = if rng.chance(12) {
                vec![planted[i]]
            } else {
                subset(rng, 0, s as i32 - 1, Some(planted[i]), 2, pct)
            };
            if rng.chance(8) {
                d.push(s as i32);
            }
            d
        })
        .collect();
    Case { domains, units }
}

#[test]
fn irregular_families_reach_the_greatest_fixpoint() {
    let mut rng = Rng::seeded(2_000_001);
    let (mut with_pairs, mut failing, mut nodes, mut solved) = (0, 0, 0, 0);
    for round in 0..2_500 {
        let case = irregular(&mut rng);
        with_pairs += usize::from(!case.pairs().is_empty());
        let r = root(&case);
        failing += usize::from(r.is_none());
        if round % 3 == 0 {
            let expected = case.enumerate();
            solved += usize::from(!expected.is_empty());
            nodes += search(&case, round, Some(&expected), 400);
        }
    }
    assert!(
        with_pairs > 300 && failing > 50 && solved > 100 && nodes > 5_000,
        "pairs {with_pairs}, failing {failing}, solved {solved}, nodes {nodes}"
    );
}

/// Latin-square-like grids of side `n` (7 to 9) with extra regions: rows, columns
/// and regions over values `0..n`, all exact, regions sharing cells with rows and columns
/// (pairs), many givens from a planted square so that units of about seven open cells abound.
fn grid(rng: &mut Rng) -> Case {
    let n = rng.range(7, 9) as usize;
    // A planted Latin square: a cyclic one with rows, columns and symbols shuffled.
    let (mut rp, mut cp, mut sp): (Vec<usize>, Vec<usize>, Vec<usize>) =
        ((0..n).collect(), (0..n).collect(), (0..n).collect());
    shuffle(rng, &mut rp);
    shuffle(rng, &mut cp);
    shuffle(rng, &mut sp);
    let value = |r: usize, c: usize| sp[(rp[r] + cp[c]) % n] as i32;
    // Regions: sets of `n` cells holding every planted symbol once (the plant satisfies
    // them).
    let mut units: Vec<Vec<usize>> = Vec::new();
    for r in 0..n {
        units.push((0..n).map(|c| r * n + c).collect());
    }
    for c in 0..n {
        units.push((0..n).map(|r| r * n + c).collect());
    }
    let extra = rng.range(1, 4);
    for _ in 0..extra {
        // `n` cells with distinct planted values, mostly in two to four rows (so that they
        // share two cells or more with a row), else anywhere: symbol by symbol.
        let mut rows: Vec<usize> = (0..n).collect();
        shuffle(rng, &mut rows);
        let rows = &rows[..rng.range(2, 4) as usize];
        let anywhere = rng.chance(30);
        let mut region = Vec::new();
        for sym in 0..n as i32 {
            let places: Vec<usize> = (0..n * n)
                .filter(|&i| value(i / n, i % n) == sym && (anywhere || rows.contains(&(i / n))))
                .collect();
            region.push(places[rng.below(places.len() as u64) as usize]);
        }
        region.sort_unstable();
        units.push(region);
    }
    let givens = rng.range(15, 45) as u64;
    let domains = (0..n * n)
        .map(|i| {
            let v = value(i / n, i % n);
            if rng.chance(givens) {
                vec![v]
            } else {
                let pct = rng.range(40, 90) as u64;
                let d = subset(rng, 0, n as i32 - 1, Some(v), 2, pct);
                // Keep the declared range 0..n-1 for exactness (most of the time).
                if rng.chance(90) { with_ends(d, n) } else { d }
            }
        })
        .collect();
    Case { domains, units }
}

#[test]
fn grids_of_seven_to_nine_with_regions_reach_the_greatest_fixpoint() {
    let mut rng = Rng::seeded(2_000_002);
    let (mut with_pairs, mut failing, mut nodes) = (0, 0, 0);
    for round in 0..600 {
        let case = grid(&mut rng);
        with_pairs += usize::from(!case.pairs().is_empty());
        failing += usize::from(root(&case).is_none());
        nodes += search(&case, round, None, 300);
    }
    assert!(
        with_pairs > 300 && nodes > 12_000,
        "pairs {with_pairs}, failing {failing}, nodes {nodes}"
    );
}

/// Crafted: an exact unit A of `k` cells and an exact unit B over the same values sharing
/// two or three cells with A; A's cells outside B that lie in A only hold a Hall set (a naked
/// pair or triple, or a hidden one) that only A's matching finds. The matching narrows cells
/// of A alone (no cheap rule wakes), which changes what A can take outside B: the pairs must
/// run once more after the matchings (the loop's new exit) for the greatest fixpoint.
fn own_unit_narrowing(rng: &mut Rng) -> Case {
    if rng.chance(60) {
        return hall_through_shared_cells(rng);
    }
    let k = rng.range(5, 8) as usize;
    let shared = rng.range(2, 3) as usize;
    // Cells: A = 0..k, B = the first `shared` of A and k.. (k - shared new cells).
    let a: Vec<usize> = (0..k).collect();
    let b: Vec<usize> = (0..shared).chain(k..2 * k - shared).collect();
    let n = 2 * k - shared;
    let mut domains: Vec<Vec<i32>> = (0..n)
        .map(|_| {
            let pct = rng.range(45, 85) as u64;
            subset(rng, 0, k as i32 - 1, None, 2, pct)
        })
        .collect();
    // A naked pair or triple among A's own cells (outside B).
    let own: Vec<usize> = (shared..k).collect();
    let size = if own.len() >= 4 && rng.chance(50) {
        3
    } else {
        2
    };
    let mut values: Vec<i32> = (0..k as i32).collect();
    shuffle(rng, &mut values);
    let hall = &values[..size];
    for &i in own.iter().take(size) {
        domains[i] = hall.to_vec();
        if size == 3 && rng.chance(50) {
            domains[i].remove(rng.below(3) as usize);
        }
    }
    // Keep every declared range 0..k-1, so both units are exact over the same values.
    for d in &mut domains {
        if rng.chance(85) {
            d.push(0);
            d.push(k as i32 - 1);
        }
        d.sort_unstable();
        d.dedup();
    }
    let mut units = vec![a, b];
    if rng.chance(40) {
        // A third, non-exact unit over some of B's cells and a wide fresh one.
        let mut c: Vec<usize> = (k..n).take(2).collect();
        c.push(n);
        domains.push((0..=k as i32).collect());
        units.push(c);
    }
    Case { domains, units }
}

/// The shape where A's matching narrows only A's own cells and removes a value `v` from all
/// of them: A and B share cells 0 and 1, both in a Hall set H of A with some own cells of A
/// that lack `v` (which only the shared cells of H hold); the cells of A outside H are all
/// A's own, and lose H's values, `v` among them. Then B's own cells must lose `v` (locked
/// candidates), which only a run of the pairs after the matching finds.
fn hall_through_shared_cells(rng: &mut Rng) -> Case {
    let k = rng.range(5, 8) as usize;
    let j = rng.range(1, k as i64 - 4) as usize;
    let mut values: Vec<i32> = (0..k as i32).collect();
    shuffle(rng, &mut values);
    let hall = &values[..2 + j];
    let v = hall[0];
    let pick = |rng: &mut Rng, from: &[i32], must: Option<i32>| -> Vec<i32> {
        loop {
            let mut d: Vec<i32> = from
                .iter()
                .copied()
                .filter(|&w| Some(w) == must || rng.chance(60))
                .collect();
            d.sort_unstable();
            if d.len() >= 2 {
                return d;
            }
        }
    };
    let n = 2 * k - 2;
    let mut domains = Vec::with_capacity(n + 1);
    domains.push(pick(rng, hall, Some(v)));
    let must = rng.chance(50).then_some(v);
    domains.push(pick(rng, hall, must));
    for _ in 0..j {
        domains.push(pick(rng, &hall[1..], None));
    }
    for _ in 2 + j..k {
        domains.push(pick(rng, &values, Some(v)));
    }
    for _ in k..n {
        let must = rng.chance(70).then_some(v);
        domains.push(pick(rng, &values, must));
    }
    let a: Vec<usize> = (0..k).collect();
    let b: Vec<usize> = [0, 1].into_iter().chain(k..n).collect();
    Case {
        domains,
        units: vec![a, b],
    }
}

#[test]
fn matchings_that_narrow_their_own_cells_then_pairs_reach_the_greatest_fixpoint() {
    let mut rng = Rng::seeded(2_000_003);
    let (mut with_pairs, mut nodes, mut after) = (0, 0, 0);
    for round in 0..12_000 {
        let case = own_unit_narrowing(&mut rng);
        with_pairs += usize::from(!case.pairs().is_empty());
        after += usize::from(case.pairs_only_after_matching());
        root(&case);
        if round % 4 == 0 {
            nodes += if case.units[0].len() <= 6 {
                let expected = case.enumerate();
                search(&case, round, Some(&expected), 300)
            } else {
                search(&case, round, None, 300)
            };
        }
    }
    assert!(
        with_pairs > 6_000 && nodes > 20_000 && after > 300,
        "{with_pairs} {nodes} {after}"
    );
}

/// Sudoku-like boxes on a 6 x 6 or 8 x 8 grid (2 x 3 or 2 x 4 boxes), units listed in a
/// shuffled order (so that the first units need not hold every cell, the cover being most
/// of the slots, or all), random givens from a planted grid.
fn boxed(rng: &mut Rng) -> Case {
    let (n, bh, bw) = if rng.chance(50) { (6, 2, 3) } else { (8, 2, 4) };
    // A planted grid: the standard pattern ((r * bw + r / bh + c) % n), shuffled symbols.
    let mut sp: Vec<i32> = (0..n as i32).collect();
    shuffle(rng, &mut sp);
    let value = |r: usize, c: usize| sp[(r * bw + r / bh + c) % n];
    let mut units: Vec<Vec<usize>> = Vec::new();
    for r in 0..n {
        units.push((0..n).map(|c| r * n + c).collect());
    }
    for c in 0..n {
        units.push((0..n).map(|r| r * n + c).collect());
    }
    for br in 0..n / bh {
        for bc in 0..n / bw {
            units.push(
                (0..n)
                    .map(|i| (br * bh + i / bw) * n + bc * bw + i % bw)
                    .collect(),
            );
        }
    }
    shuffle(rng, &mut units);
    let givens = rng.range(20, 60) as u64;
    let domains = (0..n * n)
        .map(|i| {
            let v = value(i / n, i % n);
            if rng.chance(givens) {
                vec![v]
            } else if rng.chance(50) {
                (0..n as i32).collect()
            } else {
                with_ends(subset(rng, 0, n as i32 - 1, Some(v), 2, 70), n)
            }
        })
        .collect();
    Case { domains, units }
}

#[test]
fn boxed_grids_in_shuffled_unit_order_reach_the_greatest_fixpoint() {
    let mut rng = Rng::seeded(2_000_004);
    let mut nodes = 0;
    for round in 0..200 {
        let case = boxed(&mut rng);
        assert!(!case.pairs().is_empty());
        root(&case);
        nodes += search(&case, round, None, 150);
    }
    assert!(nodes > 5_000, "{nodes}");
}
