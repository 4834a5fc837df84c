//! Families of all-differents over offset views (`x + c`) of shared variables, at the value
//! and at the domain level, which the model propagates as one propagator, against the same
//! units posted one by one (each its own `AllDifferentValue` or `AllDifferentDomain`, which
//! no family takes in).
//!
//! Both reach the unique common fixpoint of the units at their level, so they must show the
//! same domains at every node: searches with random decisions record the domains at each node
//! and must agree node for node, their solutions must be brute force's, and the built-in
//! heuristics must count the same nodes and failures. Instances are random units with random
//! offsets over shared variables (value-level families where every variable lies in every
//! unit take a path of their own, so some are made that way), and N-Queens' `q`, `q + i`,
//! `q - i`, whose solution counts are published (OEIS A000170).

use bezzel_core::prelude::*;
use bezzel_core::propagators::{AllDifferentDomain, AllDifferentValue};
use std::collections::BTreeSet;

use crate::brute;

use brute::{Rng, checked};

/// Variables with domains, and units over them: (position in `domains`, offset) pairs.
#[derive(Debug, Clone)]
struct Case {
    domains: Vec<Vec<i32>>,
    units: Vec<Vec<(usize, i32)>>,
}

impl Case {
    /// The model, with the units posted at `level` (value or domain) through
    /// `all_different_with` (a family forms) or as one `AllDifferentValue` or
    /// `AllDifferentDomain` each.
    fn build(&self, level: Consistency, family: bool) -> (Model, Vec<VarId>) {
        let (mut m, vars) = brute::model(&self.domains);
        for unit in &self.units {
            let views: Vec<IntView> = unit.iter().map(|&(i, c)| vars[i].offset(c)).collect();
            if family {
                m.all_different_with(&views, level).unwrap();
            } else if level == Consistency::Value {
                m.post(AllDifferentValue::new(views)).unwrap();
            } else {
                m.post(AllDifferentDomain::new(views)).unwrap();
            }
        }
        (m, vars)
    }

    fn holds(&self, a: &[i32]) -> bool {
        self.units.iter().all(|unit| {
            let values: BTreeSet<i32> = unit.iter().map(|&(i, c)| a[i] + c).collect();
            values.len() == unit.len()
        })
    }
}

/// Random units of at least three variables with random offsets, each with variable 0 so that
/// all share one family (with `every`, each unit holds every variable), over random domains
/// in one small window.
fn random_case(rng: &mut Rng, every: bool) -> Case {
    let n = rng.range(3, 7) as usize;
    let lo = rng.range(-3, 3) as i32;
    let hi = lo + rng.range(2, 7) as i32;
    let domains = (0..n).map(|_| brute::domain(rng, lo, hi)).collect();
    let units = (0..rng.range(2, 5))
        .map(|_| {
            loop {
                let members: Vec<usize> = std::iter::once(0)
                    .chain((1..n).filter(|_| every || rng.chance(50)))
                    .collect();
                let unit: Vec<(usize, i32)> = members
                    .into_iter()
                    .map(|i| (i, rng.range(-3, 3) as i32))
                    .collect();
                if unit.len() >= 3 {
                    break unit;
                }
            }
        })
        .collect();
    Case { domains, units }
}

/// N-Queens on an `n × n` board as in Gecode's example: `q`, `q + i` and `q - i` distinct.
fn queens(n: usize) -> Case {
    Case {
        domains: vec![(0..n as i32).collect(); n],
        units: [0, 1, -1]
            .iter()
            .map(|&sign| (0..n).map(|i| (i, sign * i as i32)).collect())
            .collect(),
    }
}

/// The nodes and solutions of a search with the random decisions of `seed`, stopped after
/// 2,000 nodes, and whether it went through the whole tree.
fn walk(case: &Case, level: Consistency, family: bool, seed: u64) -> brute::Recorded {
    let (m, vars) = case.build(level, family);
    let mut config = checked();
    config.limits.nodes = Some(2_000);
    brute::record_search(m, &vars, config, Rng::seeded(seed), brute::three_kinds)
}

/// The statistics of a search with the built-in heuristic `order`, and the solutions found.
fn search(
    case: &Case,
    level: Consistency,
    family: bool,
    order: VarOrder,
) -> (Statistics, Vec<Vec<i32>>) {
    let (m, vars) = case.build(level, family);
    let mut config = checked();
    config.var_order = order;
    let mut solver = Solver::with_config(m, config);
    let found = solver.solutions().map(|s| s.values_of(&vars)).collect();
    (solver.stats().clone(), found)
}

/// The family and the units one by one agree on `case`: root domains, every node of random
/// searches, and node counts under the built-in heuristics (identical but for dom/wdeg,
/// whose failure weights go to the family as a whole; it must find the same solutions).
fn agree(case: &Case, walks: u64, expected: Option<&BTreeSet<Vec<i32>>>) {
    for level in [Consistency::Value, Consistency::Domain] {
        agree_at(case, level, walks, expected);
    }
}

fn agree_at(case: &Case, level: Consistency, walks: u64, expected: Option<&BTreeSet<Vec<i32>>>) {
    let (mut a, vars) = case.build(level, true);
    let (mut b, vars_b) = case.build(level, false);
    let (ra, rb) = (a.propagate(), b.propagate());
    assert_eq!(
        ra.is_ok(),
        rb.is_ok(),
        "root propagation at {level:?} on {case:?}"
    );
    if ra.is_ok() {
        for (&x, &y) in vars.iter().zip(&vars_b) {
            assert_eq!(
                a.domain(x),
                b.domain(y),
                "root domain of {x:?} at {level:?} on {case:?}"
            );
        }
    }
    // Degrees count each unit, as when they run one by one.
    for (&x, &y) in vars.iter().zip(&vars_b) {
        assert_eq!(
            a.degree(x),
            b.degree(y),
            "degree of {x:?} at {level:?} on {case:?}"
        );
    }
    // The units are connected: one family takes them all in.
    assert_eq!(
        a.num_propagators(),
        case.units.len() + 1,
        "no family formed at {level:?} on {case:?}"
    );
    for seed in 1..=walks {
        let (a, b) = (
            walk(case, level, true, seed),
            walk(case, level, false, seed),
        );
        let (nodes_a, found_a, complete) = (a.nodes, a.solutions, a.complete);
        let (nodes_b, found_b) = (b.nodes, b.solutions);
        assert_eq!(
            nodes_a, nodes_b,
            "walk {seed}: nodes differ at {level:?} on {case:?}"
        );
        assert_eq!(
            found_a, found_b,
            "walk {seed}: solutions differ at {level:?} on {case:?}"
        );
        if let Some(expected) = expected.filter(|_| complete) {
            assert_eq!(
                &found_a, expected,
                "walk {seed}: not brute force's at {level:?} on {case:?}"
            );
        }
    }
    for order in [
        VarOrder::SmallestDomain,
        VarOrder::InputOrder,
        VarOrder::SmallestDomainMaxDegree,
    ] {
        let (sa, fa) = search(case, level, true, order);
        let (sb, fb) = search(case, level, false, order);
        assert_eq!(
            fa, fb,
            "{order:?}: solutions differ at {level:?} on {case:?}"
        );
        assert_eq!(
            (sa.nodes, sa.failures, sa.solutions),
            (sb.nodes, sb.failures, sb.solutions),
            "{order:?}: search trees differ at {level:?} on {case:?}"
        );
    }
    let (_, fa) = search(case, level, true, VarOrder::DomWDeg);
    let (_, fb) = search(case, level, false, VarOrder::DomWDeg);
    let (fa, fb): (BTreeSet<_>, BTreeSet<_>) = (fa.into_iter().collect(), fb.into_iter().collect());
    assert_eq!(
        fa, fb,
        "dom/wdeg: solutions differ at {level:?} on {case:?}"
    );
}

#[test]
fn random_units_with_offsets_agree_with_one_by_one_and_brute_force() {
    let mut rng = Rng::seeded(17);
    for i in 0..300 {
        // Every third case has every variable in every unit (the path for complete
        // families, with two to four units; more take the general one).
        let case = random_case(&mut rng, i % 3 == 0);
        let expected = brute::brute(&case.domains, &|a| case.holds(a));
        agree(&case, 3, Some(&expected));
    }
}

#[test]
fn queens_agree_with_one_by_one_and_published_counts() {
    // OEIS A000170, n = 1..=10.
    let published = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for n in 3..=10 {
        let case = queens(n);
        let expected = (n <= 6).then(|| brute::brute(&case.domains, &|a| case.holds(a)));
        agree(&case, 2, expected.as_ref());
        for level in [Consistency::Value, Consistency::Domain] {
            let (stats, _) = search(&case, level, true, VarOrder::SmallestDomain);
            assert_eq!(stats.solutions, published[n - 1], "queens {n} at {level:?}");
        }
    }
}

#[test]
fn a_family_checks_assignments_by_its_units() {
    for level in [Consistency::Value, Consistency::Domain] {
        let case = queens(4);
        let (mut m, _) = case.build(level, true);
        m.propagate().unwrap();
        assert_eq!(m.num_propagators(), 4);
        assert!(m.check_assignment(&[1, 3, 0, 2]).is_ok());
        // A column twice, then a diagonal.
        assert!(m.check_assignment(&[1, 3, 1, 2]).is_err());
        assert!(m.check_assignment(&[0, 1, 3, 2]).is_err());
    }
}

#[test]
fn units_that_do_not_fit_one_window_keep_their_own_propagators() {
    for level in [Consistency::Value, Consistency::Domain] {
        // Offsets spread two units' values over more than 64: the third has no partner.
        let mut case = queens(4);
        case.units[1][3].1 = 100;
        case.units[2][0].1 = -100;
        let (mut m, _) = case.build(level, true);
        m.propagate().ok();
        assert_eq!(m.num_propagators(), 3);
        // A unit that fits no window: the other three still form one.
        let mut case = queens(5);
        case.units.push(vec![(0, 0), (1, 70), (2, 0)]);
        let (mut m, _) = case.build(level, true);
        m.propagate().ok();
        assert_eq!(m.num_propagators(), 5);
    }
}

#[test]
fn queens_at_the_edge_of_one_window() {
    // Up to n = 32 the diagonals' 2n - 1 values fit one window of 64; from 33 on they keep
    // their own propagators. Either way the first solution takes the same search.
    for n in [31, 32, 33] {
        for level in [Consistency::Value, Consistency::Domain] {
            let case = queens(n);
            let first = |family: bool| {
                let (m, vars) = case.build(level, family);
                let mut config = checked();
                config.limits.solutions = Some(1);
                let mut solver = Solver::with_config(m, config);
                let found: Vec<Vec<i32>> = solver.solutions().map(|s| s.values_of(&vars)).collect();
                let stats = solver.stats().clone();
                (found, stats.nodes, stats.failures)
            };
            let (a, b) = (first(true), first(false));
            assert_eq!(a, b, "queens {n} at {level:?}");
            assert_eq!(a.0.len(), 1, "queens {n} at {level:?}");
            assert!(case.holds(&a.0[0]));
            let (mut m, _) = case.build(level, true);
            m.propagate().unwrap();
            let props = if n <= 32 { 4 } else { 3 };
            assert_eq!(m.num_propagators(), props, "queens {n} at {level:?}");
        }
    }
}

#[test]
fn latin_squares_with_random_givens_agree() {
    // Many units over many variables, each variable in two: the general path, where only
    // the cells sharing a unit with a fixed one are scanned.
    let mut rng = Rng::seeded(5);
    for _ in 0..6 {
        for n in [4, 5, 6] {
            let domains = (0..n * n)
                .map(|i| {
                    if rng.chance(25) {
                        vec![((i / n + i % n) % n) as i32]
                    } else {
                        (0..n as i32).collect()
                    }
                })
                .collect();
            let units = (0..n)
                .flat_map(|r| {
                    [
                        (0..n).map(|c| (r * n + c, 0)).collect(),
                        (0..n).map(|c| (c * n + r, 0)).collect(),
                    ]
                })
                .collect();
            let case = Case { domains, units };
            agree_at(&case, Consistency::Value, 2, None);
        }
    }
}
