//! Families of all-differents: domain-level `all_different`s that share variables, which the
//! model propagates as one propagator, against the same units posted one by one (each its own
//! `AllDifferentDomain`, which no family takes in).
//!
//! Without *pairs* (two units that must both take every value of one set and share two cells
//! or more, neither inside the other) both reach the unique common fixpoint of the units at
//! domain consistency, so they must show the same domains at every node of a search: searches
//! with random decisions record the domains at each node and must agree node for node, their
//! solutions must be brute force's, and the built-in heuristics must count the same nodes and
//! failures. With pairs (Sudoku's rows and columns against its boxes) the family also applies
//! locked candidates, which the units one by one do not: its root domains must lie within
//! theirs and satisfy the pair rule (checked here from the domains, not by the family's code),
//! the solutions must be the same, and a search in input order must visit no more nodes.
//! Instances are random units over shared variables, Latin squares and 4 × 4 Sudokus with
//! random givens, and 9 × 9 Sudokus from the shared collections.

use bezzel_core::prelude::*;
use std::collections::BTreeSet;

use crate::brute;

use brute::{Rng, checked};

/// Variables with domains, and units over them (positions in `domains`).
#[derive(Debug, Clone)]
struct Case {
    domains: Vec<Vec<i32>>,
    units: Vec<Vec<usize>>,
}

impl Case {
    /// The model, with the units posted through `all_different_with` (a family forms) or as
    /// one `AllDifferentDomain` each.
    fn build(&self, family: bool) -> (Model, Vec<VarId>) {
        brute::units_model(&self.domains, &self.units, family)
    }

    /// The pairs of units the family applies locked candidates to, found here from the
    /// declared domains: both units' cells can only take (between their least and greatest
    /// declared values) as many values as there are cells, the same values, and they share
    /// two cells or more, neither inside the other.
    fn pairs(&self) -> Vec<(usize, usize)> {
        let values = |unit: &[usize]| brute::exact_values(&self.domains, unit);
        let mut pairs = Vec::new();
        for (a, ua) in self.units.iter().enumerate() {
            for (b, ub) in self.units.iter().enumerate().skip(a + 1) {
                let shared = ua.iter().filter(|i| ub.contains(i)).count();
                let same = values(ua).is_some() && values(ua) == values(ub);
                if same && shared >= 2 && shared < ua.len() && shared < ub.len() {
                    pairs.push((a, b));
                }
            }
        }
        pairs
    }

    fn holds(&self, a: &[i32]) -> bool {
        self.units.iter().all(|unit| {
            let values: BTreeSet<i32> = unit.iter().map(|&i| a[i]).collect();
            values.len() == unit.len()
        })
    }
}

/// Random units of at least three variables, each with variable 0 so that all share one
/// family, over random domains in one small window.
fn random_case(rng: &mut Rng) -> Case {
    let n = rng.range(4, 7) as usize;
    let lo = rng.range(-3, 3) as i32;
    let hi = lo + rng.range(2, 6) as i32;
    let domains = (0..n).map(|_| brute::domain(rng, lo, hi)).collect();
    let units = (0..rng.range(2, 5))
        .map(|_| {
            loop {
                let unit: Vec<usize> = std::iter::once(0)
                    .chain((1..n).filter(|_| rng.chance(50)))
                    .collect();
                if unit.len() >= 3 {
                    break unit;
                }
            }
        })
        .collect();
    Case { domains, units }
}

/// A solved `n × n` grid (a Latin square, and a Sudoku when `b × b = n`), its rows and
/// columns (and boxes of `b × b`) as units, and about `percent` of its cells given.
fn grid_case(rng: &mut Rng, n: usize, boxes: Option<usize>, percent: u64) -> Case {
    let b = boxes.unwrap_or(1);
    // The usual pattern, which is a Sudoku for boxes of b × b and a Latin square for any n.
    let solved = |r: usize, c: usize| ((b * (r % b) + r / b + c) % n + 1) as i32;
    let domains = (0..n * n)
        .map(|i| {
            if rng.chance(percent) {
                vec![solved(i / n, i % n)]
            } else {
                (1..=n as i32).collect()
            }
        })
        .collect();
    let mut units: Vec<Vec<usize>> = (0..n)
        .flat_map(|r| {
            [
                (0..n).map(|c| r * n + c).collect(),
                (0..n).map(|c| c * n + r).collect(),
            ]
        })
        .collect();
    if let Some(b) = boxes {
        for (br, bc) in (0..n / b).flat_map(|br| (0..n / b).map(move |bc| (br, bc))) {
            units.push(
                (0..n)
                    .map(|i| (br * b + i / b) * n + bc * b + i % b)
                    .collect(),
            );
        }
    }
    Case { domains, units }
}

/// The nodes and solutions of a search with the random decisions of `seed`, stopped after
/// 2,000 nodes (random decisions can make a large tree of a 9 × 9 grid), and whether it
/// went through the whole tree.
fn walk(case: &Case, family: bool, seed: u64) -> brute::Recorded {
    let (m, vars) = case.build(family);
    let mut config = checked();
    config.limits.nodes = Some(2_000);
    brute::record_search(m, &vars, config, Rng::seeded(seed), brute::three_kinds)
}

/// The statistics of a search with the built-in heuristic `order`, stopped after `limit`
/// solutions if given, and the solutions found.
fn search(
    case: &Case,
    family: bool,
    order: VarOrder,
    limit: Option<u64>,
) -> (Statistics, Vec<Vec<i32>>) {
    let (m, vars) = case.build(family);
    let mut config = checked();
    config.var_order = order;
    config.limits.solutions = limit;
    let mut solver = Solver::with_config(m, config);
    let found = solver.solutions().map(|s| s.values_of(&vars)).collect();
    (solver.stats().clone(), found)
}

/// The family and the units one by one agree on `case`. Without pairs: root domains, every
/// node of random searches, and node counts under the built-in heuristics (identical but for
/// dom/wdeg, whose failure weights go to the unit in which the family found the failure,
/// not always the one whose propagator fails first one by one; it must find the same
/// solutions). With pairs: root domains within the units', locked candidates at the root,
/// the same solutions, and no more nodes in input order.
fn agree(case: &Case, walks: u64, limit: Option<u64>, expected: Option<&BTreeSet<Vec<i32>>>) {
    let pairs = case.pairs();
    let (mut a, vars) = case.build(true);
    let (mut b, vars_b) = case.build(false);
    let (ra, rb) = (a.propagate(), b.propagate());
    if pairs.is_empty() {
        assert_eq!(ra.is_ok(), rb.is_ok(), "root propagation on {case:?}");
    } else {
        // Stronger: where the units one by one fail, so does the family.
        assert!(ra.is_err() || rb.is_ok(), "root propagation on {case:?}");
    }
    if ra.is_ok() {
        for (&x, &y) in vars.iter().zip(&vars_b) {
            let (da, db) = (a.domain(x).unwrap(), b.domain(y).unwrap());
            if pairs.is_empty() {
                assert_eq!(da, db, "root domain of {x:?} on {case:?}");
            } else {
                assert!(
                    da.iter().all(|v| db.contains(v)),
                    "root domain of {x:?}: {da:?} not within {db:?} on {case:?}"
                );
            }
        }
        // Locked candidates: a pair's two units take the same values outside their shared
        // cells.
        let domains: Vec<Vec<i32>> = vars.iter().map(|&x| a.domain(x).unwrap()).collect();
        if let Some((p, q)) = brute::unlocked_pair(&case.units, &pairs, &domains) {
            panic!("units {p} and {q} not locked on {case:?}");
        }
    }
    // The units are connected: one family takes them all in.
    assert_eq!(
        a.num_propagators(),
        case.units.len() + 1,
        "no family formed on {case:?}"
    );
    for seed in 1..=walks {
        let brute::Recorded {
            nodes: nodes_a,
            solutions: found_a,
            complete: complete_a,
        } = walk(case, true, seed);
        let brute::Recorded {
            nodes: nodes_b,
            solutions: found_b,
            complete: complete_b,
        } = walk(case, false, seed);
        if pairs.is_empty() {
            assert_eq!(nodes_a, nodes_b, "walk {seed}: nodes differ on {case:?}");
        }
        if pairs.is_empty() || (complete_a && complete_b) {
            assert_eq!(
                found_a, found_b,
                "walk {seed}: solutions differ on {case:?}"
            );
        }
        if let Some(expected) = expected.filter(|_| complete_a) {
            assert_eq!(
                &found_a, expected,
                "walk {seed}: not brute force's on {case:?}"
            );
        }
    }
    for order in [
        VarOrder::SmallestDomain,
        VarOrder::InputOrder,
        VarOrder::SmallestDomainMaxDegree,
    ] {
        let (sa, fa) = search(case, true, order, limit);
        let (sb, fb) = search(case, false, order, limit);
        if pairs.is_empty() {
            assert_eq!(fa, fb, "{order:?}: solutions differ on {case:?}");
            assert_eq!(
                (sa.nodes, sa.failures, sa.solutions),
                (sb.nodes, sb.failures, sb.solutions),
                "{order:?}: search trees differ on {case:?}"
            );
        } else if order == VarOrder::InputOrder {
            // A static order on narrower domains: the same solutions in the same order, in
            // a tree within the other's.
            assert_eq!(fa, fb, "{order:?}: solutions differ on {case:?}");
            assert!(sa.nodes <= sb.nodes, "{order:?}: more nodes on {case:?}");
        } else {
            same_solutions(case, &format!("{order:?}"), (&sa, fa), (&sb, fb), limit);
        }
    }
    // Trees differ with dom/wdeg: the same solutions, or as many when both stop at the limit.
    let (sa, fa) = search(case, true, VarOrder::DomWDeg, limit);
    let (sb, fb) = search(case, false, VarOrder::DomWDeg, limit);
    same_solutions(case, "dom/wdeg", (&sa, fa), (&sb, fb), limit);
}

/// Two searches whose trees may differ found the same solutions, or as many when both
/// stopped at the limit.
fn same_solutions(
    case: &Case,
    what: &str,
    (sa, fa): (&Statistics, Vec<Vec<i32>>),
    (sb, fb): (&Statistics, Vec<Vec<i32>>),
    limit: Option<u64>,
) {
    if sa.stopped.is_none() && sb.stopped.is_none() {
        let (fa, fb): (BTreeSet<_>, BTreeSet<_>) =
            (fa.into_iter().collect(), fb.into_iter().collect());
        assert_eq!(fa, fb, "{what}: solutions differ on {case:?}");
    } else {
        assert_eq!(fa.len(), fb.len(), "{what} on {case:?}");
        assert_eq!(Some(fa.len() as u64), limit, "{what} on {case:?}");
    }
}

#[test]
fn random_units_over_shared_variables_agree_with_one_by_one_and_brute_force() {
    let mut rng = Rng::seeded(17);
    for _ in 0..150 {
        let case = random_case(&mut rng);
        let expected = brute::brute(&case.domains, &|a| case.holds(a));
        agree(&case, 3, None, Some(&expected));
    }
}

#[test]
fn latin_squares_and_small_sudokus_with_random_givens_agree() {
    let mut rng = Rng::seeded(42);
    for _ in 0..12 {
        for (n, boxes) in [(4, None), (5, None), (6, None), (4, Some(2))] {
            let percent = rng.range(10, 60) as u64;
            let case = grid_case(&mut rng, n, boxes, percent);
            agree(&case, 2, Some(500), None);
        }
    }
}

/// The first puzzles of a collection in `tests/data`, as cases.
fn sudokus(file: &str, count: usize) -> Vec<Case> {
    let path = format!("{}/../../tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let open = grid_case(&mut Rng::seeded(1), 9, Some(3), 0);
    text.lines()
        .map(str::trim)
        .filter(|l| l.len() == 81 && l.chars().all(|ch| ch == '.' || ch.is_ascii_digit()))
        .take(count)
        .map(|line| {
            let domains = line
                .chars()
                .map(|ch| match ch.to_digit(10) {
                    Some(d @ 1..=9) => vec![d as i32],
                    _ => (1..=9).collect(),
                })
                .collect();
            Case {
                domains,
                units: open.units.clone(),
            }
        })
        .collect()
}

#[test]
fn sudokus_from_the_collections_agree() {
    for file in ["top1465_sample.txt", "sudoku17_sample.txt"] {
        for case in sudokus(file, 8) {
            agree(&case, 1, Some(2), None);
            // Unique: one solution, which satisfies the units.
            let (_, found) = search(&case, true, VarOrder::SmallestDomain, None);
            assert_eq!(found.len(), 1, "{file}: {case:?}");
            assert!(case.holds(&found[0]));
        }
    }
}

#[test]
fn a_family_checks_assignments_by_its_units() {
    let case = grid_case(&mut Rng::seeded(3), 4, Some(2), 0);
    let (mut m, _) = case.build(true);
    m.propagate().unwrap();
    let solved: Vec<i32> = (0..16)
        .map(|i: i32| (2 * ((i / 4) % 2) + (i / 4) / 2 + i % 4) % 4 + 1)
        .collect();
    assert!(case.holds(&solved));
    assert!(m.check_assignment(&solved).is_ok());
    let mut wrong = solved.clone();
    wrong.swap(0, 1); // the two first cells of a column now clash
    assert!(!case.holds(&wrong));
    assert!(m.check_assignment(&wrong).is_err());
}

#[test]
fn sudoku_units_pair_rows_and_columns_with_the_boxes_they_cross_and_latin_squares_do_not_pair() {
    // 9 rows and 9 columns, each crossing 3 boxes in 3 cells.
    assert_eq!(
        grid_case(&mut Rng::seeded(5), 9, Some(3), 0).pairs().len(),
        54
    );
    assert_eq!(
        grid_case(&mut Rng::seeded(5), 4, Some(2), 0).pairs().len(),
        16
    );
    // Rows and columns share one cell.
    assert!(
        grid_case(&mut Rng::seeded(5), 6, None, 0)
            .pairs()
            .is_empty()
    );
}

#[test]
fn locked_candidates_prune_what_the_units_one_by_one_keep() {
    // A 4 × 4 Sudoku, cell r * 4 + c; row 0 can take 1 only in its first two cells, which
    // are box 0's: so box 0's other cells, (1, 0) and (1, 1), cannot be 1. Each unit alone
    // is domain consistent.
    let mut case = grid_case(&mut Rng::seeded(7), 4, Some(2), 0);
    case.domains[2] = vec![2, 3];
    case.domains[3] = vec![2, 4];
    let (mut family, vars) = case.build(true);
    let (mut one_by_one, vars_b) = case.build(false);
    family.propagate().unwrap();
    one_by_one.propagate().unwrap();
    for cell in [4, 5] {
        assert_eq!(family.domain(vars[cell]).unwrap(), vec![2, 3, 4]);
        assert_eq!(one_by_one.domain(vars_b[cell]).unwrap(), vec![1, 2, 3, 4]);
    }
    // The rule is sound: no solution of the units one by one has 1 there, and both models
    // have the same solutions.
    let (_, found_b) = search(&case, false, VarOrder::InputOrder, None);
    let (_, found_a) = search(&case, true, VarOrder::InputOrder, None);
    assert!(!found_b.is_empty());
    assert!(found_b.iter().all(|s| s[4] != 1 && s[5] != 1));
    assert_eq!(found_a, found_b);
    agree(&case, 3, None, None);
}
