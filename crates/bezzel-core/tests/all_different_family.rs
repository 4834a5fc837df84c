//! Families of all-differents: domain-level `all_different`s that share variables, which the
//! model propagates as one propagator, against the same units posted one by one (each its own
//! `AllDifferentDomain`, which no family takes in).
//!
//! Both reach the unique common fixpoint of the units at domain consistency, so they must
//! show the same domains at every node of a search: searches with random decisions record
//! the domains at each node and must agree node for node, their solutions must be brute
//! force's, and the built-in heuristics must count the same nodes and failures. Instances are
//! random units over shared variables, Latin squares and 4 × 4 Sudokus with random givens,
//! and 9 × 9 Sudokus from the shared collections.

use bezzel_core::prelude::*;
use bezzel_core::propagators::AllDifferentDomain;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

mod brute;

use brute::Rng;

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
        let (mut m, vars) = brute::model(&self.domains);
        for unit in &self.units {
            let views: Vec<IntView> = unit.iter().map(|&i| vars[i].into()).collect();
            if family {
                m.all_different_with(&views, Consistency::Domain).unwrap();
            } else {
                m.post(AllDifferentDomain::new(views)).unwrap();
            }
        }
        (m, vars)
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

type Node = Vec<Vec<i32>>;

/// Random decisions from a seed, recording the domains at every node it is shown.
#[derive(Debug)]
struct Recorder {
    rng: Rng,
    nodes: Arc<Mutex<Vec<Node>>>,
}

impl Brancher for Recorder {
    fn decide(&mut self, d: &Domains<'_>) -> Option<Decision> {
        let node: Node = d.vars().map(|x| d.values(x).collect()).collect();
        self.nodes.lock().unwrap().push(node);
        let open: Vec<VarId> = d.vars().filter(|&x| !d.is_fixed(x)).collect();
        if open.is_empty() {
            return None;
        }
        let x = open[self.rng.below(open.len() as u64) as usize];
        let values: Vec<i32> = d.values(x).collect();
        let v = values[self.rng.below(values.len() as u64) as usize];
        Some(match self.rng.below(3) {
            0 => Decision::Assign(x, v),
            1 => Decision::Exclude(x, v),
            _ => Decision::AtMost(
                x,
                self.rng.range(i64::from(d.min(x)), i64::from(d.max(x)) - 1) as i32,
            ),
        })
    }
}

fn checked() -> SearchConfig {
    SearchConfig {
        check_solutions: true,
        ..SearchConfig::default()
    }
}

/// The nodes and solutions of a search with the random decisions of `seed`, stopped after
/// 2,000 nodes (random decisions can make a large tree of a 9 × 9 grid), and whether it
/// went through the whole tree.
fn walk(case: &Case, family: bool, seed: u64) -> (Vec<Node>, BTreeSet<Vec<i32>>, bool) {
    let (m, vars) = case.build(family);
    let mut config = checked();
    config.limits.nodes = Some(2_000);
    let nodes = Arc::new(Mutex::new(Vec::new()));
    let recorder = Recorder {
        rng: Rng::seeded(seed),
        nodes: Arc::clone(&nodes),
    };
    let mut solver = Solver::with_config(m, config).brancher(recorder);
    let found = solver.solutions().map(|s| s.values_of(&vars)).collect();
    let nodes = std::mem::take(&mut *nodes.lock().unwrap());
    (nodes, found, solver.stats().stopped.is_none())
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

/// The family and the units one by one agree on `case`: root domains, every node of random
/// searches, and node counts under the built-in heuristics (identical but for dom/wdeg,
/// whose failure weights go to the family as a whole; it must find the same solutions).
fn agree(case: &Case, walks: u64, limit: Option<u64>, expected: Option<&BTreeSet<Vec<i32>>>) {
    let (mut a, vars) = case.build(true);
    let (mut b, vars_b) = case.build(false);
    let (ra, rb) = (a.propagate(), b.propagate());
    assert_eq!(ra.is_ok(), rb.is_ok(), "root propagation on {case:?}");
    if ra.is_ok() {
        for (&x, &y) in vars.iter().zip(&vars_b) {
            assert_eq!(a.domain(x), b.domain(y), "root domain of {x:?} on {case:?}");
        }
    }
    // The units are connected: one family takes them all in.
    assert_eq!(
        a.num_propagators(),
        case.units.len() + 1,
        "no family formed on {case:?}"
    );
    for seed in 1..=walks {
        let (nodes_a, found_a, complete) = walk(case, true, seed);
        let (nodes_b, found_b, _) = walk(case, false, seed);
        assert_eq!(nodes_a, nodes_b, "walk {seed}: nodes differ on {case:?}");
        assert_eq!(
            found_a, found_b,
            "walk {seed}: solutions differ on {case:?}"
        );
        if let Some(expected) = expected.filter(|_| complete) {
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
        assert_eq!(fa, fb, "{order:?}: solutions differ on {case:?}");
        assert_eq!(
            (sa.nodes, sa.failures, sa.solutions),
            (sb.nodes, sb.failures, sb.solutions),
            "{order:?}: search trees differ on {case:?}"
        );
    }
    // Trees differ with dom/wdeg: the same solutions, or as many when both stop at the limit.
    let (sa, fa) = search(case, true, VarOrder::DomWDeg, limit);
    let (sb, fb) = search(case, false, VarOrder::DomWDeg, limit);
    if sa.stopped.is_none() && sb.stopped.is_none() {
        let (fa, fb): (BTreeSet<_>, BTreeSet<_>) =
            (fa.into_iter().collect(), fb.into_iter().collect());
        assert_eq!(fa, fb, "dom/wdeg: solutions differ on {case:?}");
    } else {
        assert_eq!(fa.len(), fb.len(), "dom/wdeg on {case:?}");
        assert_eq!(Some(fa.len() as u64), limit, "dom/wdeg on {case:?}");
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
