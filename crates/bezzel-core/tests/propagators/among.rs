//! The incremental `among` (and through it `count` and `global_cardinality`) stays exact: its
//! standings and counts are trailed and updated only for the views its advice names, so these
//! tests go after what could leave them stale. Views share variables (`x`, `-x`, `x + 1`, and
//! `n` itself among them), more than 64 views share advice bits, other propagators narrow the
//! views while it waits in the queue, several `among`s watch the same variables, and the same
//! solver is driven through every kind of run: random decisions, restarts, prefixes from a
//! split, a second run, parallel workers, branch and bound. Ground truth comes from outside the
//! solver: every assignment enumerated and judged by the definition written here, or the
//! published count of magic sequences.

use bezzel_core::parallel::ParallelSearch;
use bezzel_core::prelude::*;
use std::collections::BTreeSet;

use crate::brute;

use brute::{RandomDecisions, Rng, ViewSpec, checked, set_of, values, views};

type Build<'a> = &'a dyn Fn() -> (Model, Vec<VarId>);

/// Every kind of run over the model that `build` makes must find exactly `expected`.
fn check_runs(build: Build<'_>, expected: &BTreeSet<Vec<i32>>, seed: u64, case: &str) {
    let total = expected.len() as u64;
    // Heuristics of every kind.
    for (var_order, value_order) in [
        (VarOrder::default(), ValueOrder::Min),
        (VarOrder::InputOrder, ValueOrder::Max),
        (VarOrder::DomWDeg, ValueOrder::Split),
    ] {
        let (m, vars) = build();
        let config = SearchConfig {
            var_order,
            value_order,
            ..checked()
        };
        let mut s = Solver::with_config(m, config);
        assert_eq!(
            set_of(&mut s, &vars),
            *expected,
            "{case}: {var_order:?}/{value_order:?}"
        );
        // The same solver again, after a run left half way: each run starts from the root.
        let _ = s.solutions().next();
        assert_eq!(s.count(), total, "{case}: second run");
        assert_eq!(set_of(&mut s, &vars), *expected, "{case}: third run");
    }
    // A run stopped by a node limit (between two nodes, the among's state trailed mid-tree),
    // then the same solver without the limit.
    let (m, vars) = build();
    let config = SearchConfig {
        limits: Limits {
            nodes: Some(1 + seed % 5),
            ..Limits::default()
        },
        ..checked()
    };
    let mut s = Solver::with_config(m, config);
    let partial = s.count();
    assert!(partial <= total, "{case}: node-limited run");
    s.config_mut().limits = Limits::default();
    assert_eq!(
        set_of(&mut s, &vars),
        *expected,
        "{case}: after a node-limited run"
    );
    // Random decisions of all four kinds.
    for walk in 0..4 {
        let (m, vars) = build();
        let mut s = Solver::with_config(m, checked())
            .brancher(RandomDecisions(Rng::seeded(seed * 31 + walk)));
        assert_eq!(set_of(&mut s, &vars), *expected, "{case}: walk {walk}");
    }
    // Prefixes from a split, each counted on the same solver, then on fresh ones.
    let (m, _) = build();
    let mut s = Solver::with_config(m, checked());
    let prefixes = s.split(6).expect("no cancel flag");
    let sum: u64 = prefixes.iter().map(|p| s.count_in(p).unwrap()).sum();
    assert_eq!(sum, total, "{case}: split into {}", prefixes.len());
    let (m, vars) = build();
    let mut fresh = Solver::with_config(m, checked());
    let mut union = BTreeSet::new();
    for p in prefixes.iter().rev() {
        for sol in fresh.solutions_in(p).unwrap() {
            assert!(
                union.insert(sol.values_of(&vars)),
                "{case}: a solution in two subproblems"
            );
        }
    }
    assert_eq!(union, *expected, "{case}: solutions_in over the split");
    // First solution with restarts after every failure (and dom/wdeg learning across them).
    for scale in [1, 3] {
        let (m, vars) = build();
        let config = SearchConfig {
            var_order: VarOrder::DomWDeg,
            restarts: Some(Restarts { scale }),
            ..checked()
        };
        let mut s = Solver::with_config(m, config);
        match s.first() {
            Some(sol) => assert!(
                expected.contains(&sol.values_of(&vars)),
                "{case}: restarts (scale {scale}) found a non-solution {:?}",
                sol.values_of(&vars)
            ),
            None => assert!(
                expected.is_empty(),
                "{case}: restarts (scale {scale}) found nothing"
            ),
        }
        // Restarts below a prefix (the first subproblem), then a plain count on the same solver.
        if let Some(p) = prefixes.first() {
            let found = s.first_in(p).unwrap();
            let (m2, _) = build();
            let mut plain = Solver::with_config(m2, checked());
            let below = plain.count_in(p).unwrap();
            assert_eq!(found.is_some(), below > 0, "{case}: first_in with restarts");
            if let Some(sol) = found {
                assert!(expected.contains(&sol.values_of(&vars)), "{case}: first_in");
            }
        }
        assert_eq!(s.count(), total, "{case}: count after restarts");
    }
}

/// Branch and bound over each variable, both ways: the optimum of brute force.
fn check_optimum(build: Build<'_>, expected: &BTreeSet<Vec<i32>>, case: &str) {
    let nvars = build().1.len();
    for i in 0..nvars {
        for sense in [Sense::Minimize, Sense::Maximize] {
            let (m, vars) = build();
            let target = vars[i];
            let mut s = Solver::with_config(m, checked());
            let best = match sense {
                Sense::Minimize => s.minimize(target).unwrap().finish(),
                Sense::Maximize => s.maximize(target).unwrap().finish(),
            };
            let want = match sense {
                Sense::Minimize => expected.iter().map(|a| a[i]).min(),
                Sense::Maximize => expected.iter().map(|a| a[i]).max(),
            };
            assert_eq!(best.value, want, "{case}: {sense:?} x{i}");
            assert_eq!(
                best.infeasible,
                expected.is_empty(),
                "{case}: {sense:?} x{i}"
            );
            if let Some(sol) = &best.solution {
                assert!(
                    expected.contains(&sol.values_of(&vars)),
                    "{case}: {sense:?}"
                );
            }
        }
    }
}

/// The solution set of `holds` over `domains` (brute force) through every kind of run
/// ([`check_runs`]), and through optimisation ([`check_optimum`]) on every `optimum_every`-th
/// seed.
fn check_case(
    domains: &[Vec<i32>],
    build: Build<'_>,
    holds: &dyn Fn(&[i32]) -> bool,
    seed: u64,
    case: &str,
    optimum_every: u64,
) {
    let expected = brute::brute(domains, holds);
    check_runs(build, &expected, seed, case);
    if seed.is_multiple_of(optimum_every) {
        check_optimum(build, &expected, case);
    }
}

/// A random view over `vars` variables, negated and shifted often.
fn random_view(rng: &mut Rng, vars: usize) -> ViewSpec {
    ViewSpec::of(
        rng.below(vars as u64) as usize,
        rng.chance(40),
        rng.range(-1, 1) as i32,
    )
}

fn random_values(rng: &mut Rng, lo: i32, hi: i32) -> Vec<i32> {
    (lo..=hi).filter(|_| rng.chance(45)).collect()
}

/// Whether `set` holds the view value `v`.
fn holds_value(set: &[i32], v: i64) -> bool {
    set.iter().any(|&s| i64::from(s) == v)
}

fn among_holds(xs: &[ViewSpec], set: &[i32], n: ViewSpec, a: &[i32]) -> bool {
    values(xs, a)
        .iter()
        .filter(|&&v| holds_value(set, v))
        .count() as i64
        == n.eval(a)
}

#[test]
fn among_over_shared_and_negated_views_with_n_among_them() {
    // A few variables, many views of them (x, -x, x + 1, ...), and n a view of one of them
    // too: the run's own narrowing changes views that its advice will never name.
    for seed in 0..150u64 {
        let mut rng = Rng::seeded(seed);
        let nvars = 2 + rng.below(3) as usize;
        let domains: Vec<Vec<i32>> = (0..nvars).map(|_| brute::domain(&mut rng, -2, 3)).collect();
        let k = 1 + rng.below(7) as usize;
        let xs: Vec<ViewSpec> = (0..k).map(|_| random_view(&mut rng, nvars)).collect();
        let n = random_view(&mut rng, nvars);
        let set = random_values(&mut rng, -3, 3);
        let build = || {
            let (mut m, x) = brute::model(&domains);
            m.among(&views(&xs, &x), &set, n.view(&x)).unwrap();
            (m, x)
        };
        let holds = |a: &[i32]| among_holds(&xs, &set, n, a);
        check_case(
            &domains,
            &build,
            &holds,
            seed,
            &format!("seed {seed}: {domains:?} {xs:?} {set:?} n = {n:?}"),
            5,
        );
    }
}

#[test]
fn several_amongs_on_the_same_views() {
    // Two or three amongs over overlapping shared views, each one's count a view of the
    // others' variables: each narrows what the others watch, while they wait in the queue.
    for seed in 0..120u64 {
        let mut rng = Rng::seeded(1000 + seed);
        let nvars = 3 + rng.below(2) as usize;
        let domains: Vec<Vec<i32>> = (0..nvars).map(|_| brute::domain(&mut rng, -1, 3)).collect();
        let amongs: Vec<(Vec<ViewSpec>, Vec<i32>, ViewSpec)> = (0..2 + rng.below(2))
            .map(|_| {
                let k = 2 + rng.below(5) as usize;
                let xs = (0..k).map(|_| random_view(&mut rng, nvars)).collect();
                (
                    xs,
                    random_values(&mut rng, -2, 3),
                    random_view(&mut rng, nvars),
                )
            })
            .collect();
        let build = || {
            let (mut m, x) = brute::model(&domains);
            for (xs, set, n) in &amongs {
                m.among(&views(xs, &x), set, n.view(&x)).unwrap();
            }
            (m, x)
        };
        let holds = |a: &[i32]| {
            amongs
                .iter()
                .all(|(xs, set, n)| among_holds(xs, set, *n, a))
        };
        check_case(
            &domains,
            &build,
            &holds,
            seed,
            &format!("seed {seed}: {domains:?} {amongs:?}"),
            4,
        );
    }
}

#[test]
fn many_views_sharing_advice_bits_with_other_constraints() {
    // 65 to 200 views over five variables: views i and i + 64 share an advice bit, and the
    // same variable sits behind many bits. An all-different and a linear sum narrow the
    // variables too, so the among is woken by changes it did not make, in between runs.
    for seed in 0..40u64 {
        let mut rng = Rng::seeded(5000 + seed);
        let nvars = 5;
        let domains: Vec<Vec<i32>> = (0..nvars).map(|_| brute::domain(&mut rng, 0, 3)).collect();
        let k = 65 + rng.below(136) as usize;
        let xs: Vec<ViewSpec> = (0..k).map(|_| random_view(&mut rng, nvars)).collect();
        let set = random_values(&mut rng, -2, 3);
        // The count is `x4 + c` (x4 in 0..=3), with c drawn near the count at the middle of
        // the domains, so that some instances have solutions.
        let typical = {
            let mid: Vec<i32> = domains.iter().map(|d| d[d.len() / 2]).collect();
            values(&xs, &mid)
                .iter()
                .filter(|&&v| holds_value(&set, v))
                .count() as i32
        };
        let n = ViewSpec::of(4, false, typical - 1 - rng.below(2) as i32);
        let all_diff = [0usize, 1, 2];
        let build = || {
            let (mut m, x) = brute::model(&domains);
            m.among(&views(&xs, &x), &set, n.view(&x)).unwrap();
            m.all_different(&[x[0], x[1], x[2]]).unwrap();
            m.linear(&[1, 1, 1, 1], &x[..4], Relation::Le, 7).unwrap();
            (m, x)
        };
        let holds = |a: &[i32]| {
            among_holds(&xs, &set, n, a)
                && {
                    let d: BTreeSet<i32> = all_diff.iter().map(|&i| a[i]).collect();
                    d.len() == 3
                }
                && a[..4].iter().sum::<i32>() <= 7
        };
        check_case(
            &domains,
            &build,
            &holds,
            seed,
            &format!("seed {seed}: {domains:?}, {k} views, {set:?}, n = {n:?}"),
            8,
        );
    }
}

#[test]
fn count_over_many_copies_of_few_variables_is_exact() {
    // Closed form: 100 copies of each of x0, x1, x2 (0..=1), in an order that spreads each
    // variable over every advice bit, and n = 100 * (x0 + x1 + x2). Exactly the values
    // n in {0, 100, 200, 300} are reachable, with 1, 3, 3, 1 assignments.
    for (n_dom, want) in [
        (vec![0, 100, 200, 300], 8u64),
        (vec![100], 3),
        (vec![150], 0),
    ] {
        let mut m = Model::new();
        let x = m.int_vars(3, 0..=1).unwrap();
        let n = m.int_var(n_dom.as_slice()).unwrap();
        let xs: Vec<VarId> = (0..300).map(|i| x[(i * 7) % 3]).collect();
        m.count(&xs, 1, n).unwrap();
        assert_eq!(Solver::with_config(m, checked()).count(), want, "{n_dom:?}");
    }
}

/// Magic sequences of length `n`: `x[i]` is the number of `i`s in `x`. Published counts:
/// none for n = 1, 2, 3, 6, two for n = 4, one for n = 5 and every n >= 7.
const MAGIC: [u64; 8] = [0, 0, 0, 0, 2, 1, 0, 1];

fn magic_holds(a: &[i32]) -> bool {
    (0..a.len()).all(|i| a.iter().filter(|&&v| v as usize == i).count() as i32 == a[i])
}

/// The magic sequence model: one count per value (`how` 0), one global cardinality with
/// the sequence as its own counts (1), or counts of `i` and amongs of `{i, i + 1}` over
/// negated views (2).
fn magic(n: usize, how: u8) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let x = m.int_vars(n, 0..=(n as i32 - 1)).unwrap();
    match how {
        0 => {
            for i in 0..n {
                m.count(&x, i as i32, x[i]).unwrap();
            }
        }
        1 => {
            let vals: Vec<i32> = (0..n as i32).collect();
            m.global_cardinality(&x, &vals, &x).unwrap();
        }
        _ => {
            let neg: Vec<IntView> = x.iter().map(|v| v.minus()).collect();
            for i in 0..n {
                m.count(&neg, -(i as i32), x[i]).unwrap();
                if i + 1 < n {
                    let s = m.int_var(0..=(n as i32)).unwrap();
                    m.linear(&[1, 1, -1], &[x[i], x[i + 1], s], Relation::Eq, 0)
                        .unwrap();
                    m.among(&neg, &[-(i as i32), -(i as i32) - 1], s).unwrap();
                }
            }
        }
    }
    (m, x)
}

#[test]
fn magic_sequences_match_brute_force_and_the_published_counts() {
    for (n, &published) in MAGIC.iter().enumerate().skip(1) {
        let domains = vec![(0..n as i32).collect::<Vec<_>>(); n];
        let expected = brute::brute(&domains, &magic_holds);
        assert_eq!(expected.len() as u64, published, "brute force, n = {n}");
        for how in 0..=2u8 {
            let build = || {
                let (m, x) = magic(n, how);
                (m, x)
            };
            let case = format!("magic {n} (model {how})");
            // The third model has auxiliary sums: project on the sequence.
            let project = |s: &mut Solver, x: &[VarId]| set_of(s, x);
            let (m, x) = build();
            let mut s = Solver::with_config(m, checked());
            assert_eq!(project(&mut s, &x), expected, "{case}");
            for walk in 0..6 {
                let (m, x) = build();
                let mut s =
                    Solver::with_config(m, checked()).brancher(RandomDecisions(Rng::seeded(walk)));
                assert_eq!(project(&mut s, &x), expected, "{case}: walk {walk}");
            }
            if how < 2 {
                check_runs(&build, &expected, n as u64, &case);
            }
        }
    }
}

#[test]
fn magic_sequences_in_parallel_and_with_restarts() {
    for n in [4usize, 5, 6, 7, 9, 12] {
        let want = MAGIC.get(n).copied().unwrap_or(1);
        for how in 0..=2u8 {
            let search =
                ParallelSearch::new(format!("magic {n} {how}"), move || Ok(magic(n, how).0))
                    .config(checked())
                    .threads(Some(2))
                    .per_worker(8);
            let subproblems = search.subproblems().unwrap();
            let result = search.count(&subproblems, None, |_, _| {}).unwrap();
            assert!(result.complete);
            // The third model's auxiliary sums are functions of the sequence.
            assert_eq!(result.solutions, want, "magic {n} model {how}, parallel");
            let (m, x) = magic(n, how);
            let config = SearchConfig {
                var_order: VarOrder::DomWDeg,
                restarts: Some(Restarts { scale: 1 }),
                ..checked()
            };
            let mut s = Solver::with_config(m, config);
            let first = s.first();
            assert_eq!(first.is_some(), want > 0, "magic {n} model {how}, restarts");
            if let Some(sol) = first {
                assert!(magic_holds(&sol.values_of(&x)), "magic {n} model {how}");
            }
            assert_eq!(s.count(), want, "magic {n} model {how}, count after first");
        }
    }
}

#[test]
fn global_cardinality_with_counts_over_shared_variables() {
    // Counts that are views of the counted variables themselves (or of others), some closed
    // (every value counted: the sum of counts is posted too), some open.
    for seed in 0..120u64 {
        let mut rng = Rng::seeded(9000 + seed);
        let nvars = 3 + rng.below(2) as usize;
        let domains: Vec<Vec<i32>> = (0..nvars).map(|_| brute::domain(&mut rng, 0, 3)).collect();
        let k = 2 + rng.below(5) as usize;
        let xs: Vec<ViewSpec> = (0..k)
            .map(|_| {
                ViewSpec::of(
                    rng.below(nvars as u64) as usize,
                    false,
                    rng.range(-1, 0) as i32,
                )
            })
            .collect();
        let vals: Vec<i32> = {
            let all: Vec<i32> = (-1..=3).filter(|_| rng.chance(60)).collect();
            if all.is_empty() { vec![0] } else { all }
        };
        let counts: Vec<ViewSpec> = vals
            .iter()
            .map(|_| {
                ViewSpec::of(
                    rng.below(nvars as u64) as usize,
                    false,
                    rng.range(-1, 1) as i32,
                )
            })
            .collect();
        let build = || {
            let (mut m, x) = brute::model(&domains);
            m.global_cardinality(&views(&xs, &x), &vals, &views(&counts, &x))
                .unwrap();
            (m, x)
        };
        let holds = |a: &[i32]| {
            let got = values(&xs, a);
            vals.iter().zip(&counts).all(|(&v, c)| {
                got.iter().filter(|&&g| g == i64::from(v)).count() as i64 == c.eval(a)
            })
        };
        check_case(
            &domains,
            &build,
            &holds,
            seed,
            &format!("seed {seed}: {domains:?} {xs:?} {vals:?} {counts:?}"),
            6,
        );
    }
}

#[test]
fn minimising_a_count_finds_the_brute_force_optimum() {
    // Branch and bound narrows the count from outside at every node (the bound decision),
    // while decisions narrow the views.
    for seed in 0..60u64 {
        let mut rng = Rng::seeded(20_000 + seed);
        let nvars = 4;
        let domains: Vec<Vec<i32>> = (0..nvars).map(|_| brute::domain(&mut rng, -2, 2)).collect();
        let k = 3 + rng.below(6) as usize;
        let xs: Vec<ViewSpec> = (0..k).map(|_| random_view(&mut rng, nvars)).collect();
        let set = random_values(&mut rng, -2, 2);
        let (lo, hi) = (0, k as i32);
        let mut doms = domains.clone();
        doms.push((lo..=hi).collect());
        let n = ViewSpec::var(nvars);
        let build = || {
            let (mut m, x) = brute::model(&doms);
            m.among(&views(&xs, &x), &set, n.view(&x)).unwrap();
            m.linear(&[1, -1, 1], &[x[0], x[1], x[2]], Relation::Le, 1)
                .unwrap();
            (m, x)
        };
        let holds = |a: &[i32]| among_holds(&xs, &set, n, a) && a[0] - a[1] + a[2] <= 1;
        let expected = brute::brute(&doms, &holds);
        let case = format!("seed {seed}: {doms:?} {xs:?} {set:?}");
        check_optimum(&build, &expected, &case);
    }
}

/// Random decisions that first judge the node they are shown: `n` counts the views (each
/// `x` or `1 - x` over a 0/1 variable) that equal 1, and domain consistency there has a
/// closed form. With `ones` views fixed to 1 and `open` views unfixed, `n` keeps only values
/// in `ones..=ones + open`, an open view keeps 1 only if `max n > ones` and 0 only if
/// `min n < ones + open` (so with open views both must hold).
#[derive(Debug)]
struct JudgeCount {
    rng: RandomDecisions,
    xs: Vec<(VarId, bool)>,
    n: VarId,
    nodes: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Brancher for JudgeCount {
    fn decide(&mut self, d: &Domains<'_>) -> Option<Decision> {
        self.nodes
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let view_is_one = |&(x, flipped): &(VarId, bool)| -> Option<bool> {
            d.is_fixed(x).then(|| (d.min(x) == 1) != flipped)
        };
        let ones = self
            .xs
            .iter()
            .filter(|v| view_is_one(v) == Some(true))
            .count() as i32;
        let open = self.xs.iter().filter(|v| view_is_one(v).is_none()).count() as i32;
        let (lo, hi) = (d.min(self.n), d.max(self.n));
        assert!(
            ones <= lo && hi <= ones + open,
            "n = {lo}..={hi} with {ones} views at 1 and {open} open"
        );
        if open > 0 {
            assert!(
                hi > ones && lo < ones + open,
                "{open} open views left with n = {lo}..={hi} and {ones} views at 1"
            );
        }
        self.rng.decide(d)
    }
}

#[test]
fn count_stays_domain_consistent_over_many_views_in_random_search() {
    // 65 to 200 views on distinct variables, so advice bits are shared by views of
    // different variables; checked at every node against the closed form, and the number
    // of solutions against sum over the values j of n of C(views, j).
    let nodes = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for seed in 0..30u64 {
        let mut rng = Rng::seeded(40_000 + seed);
        let k = 65 + rng.below(136) as usize;
        let flipped: Vec<bool> = (0..k).map(|_| rng.chance(40)).collect();
        let n_dom: Vec<i32> = if rng.chance(50) {
            vec![rng.range(0, 2) as i32]
        } else {
            let lo = rng.range(0, 1) as i32;
            (lo..=lo + 1).collect()
        };
        let want: u64 = n_dom.iter().map(|&j| binomial(k as u64, j as u64)).sum();
        let build = || {
            let mut m = Model::new();
            let x = m.int_vars(k, 0..=1).unwrap();
            let n = m.int_var(n_dom.as_slice()).unwrap();
            let xs: Vec<IntView> = x
                .iter()
                .zip(&flipped)
                .map(|(&v, &f)| if f { v.minus().offset(1) } else { v.into() })
                .collect();
            m.count(&xs, 1, n).unwrap();
            (m, x, n)
        };
        for walk in 0..3 {
            let (m, x, n) = build();
            let judge = JudgeCount {
                rng: RandomDecisions(Rng::seeded(seed * 7 + walk)),
                xs: x.iter().copied().zip(flipped.iter().copied()).collect(),
                n,
                nodes: nodes.clone(),
            };
            let mut s = Solver::with_config(m, checked()).brancher(judge);
            assert_eq!(s.count(), want, "seed {seed}: {k} views, n in {n_dom:?}");
            assert_eq!(s.count(), want, "seed {seed}: second run");
        }
    }
    // The judge did see the nodes (a brancher that is never asked judges nothing).
    assert!(nodes.load(std::sync::atomic::Ordering::Relaxed) > 10_000);
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

#[test]
fn reified_membership_as_among_of_one_view_with_a_boolean_count() {
    // FlatZinc's `set_in_reif` is an among of one view whose count is the boolean; here
    // several such on shared variables, and one more among counting the booleans, its count
    // a view of a counted variable.
    for seed in 0..100u64 {
        let mut rng = Rng::seeded(60_000 + seed);
        let nx = 3;
        let k = 3 + rng.below(3) as usize;
        let mut domains: Vec<Vec<i32>> = (0..nx).map(|_| brute::domain(&mut rng, -2, 2)).collect();
        domains.extend((0..k).map(|_| vec![0, 1]));
        let reifs: Vec<(ViewSpec, Vec<i32>)> = (0..k)
            .map(|_| (random_view(&mut rng, nx), random_values(&mut rng, -2, 2)))
            .collect();
        let bools: Vec<ViewSpec> = (nx..nx + k).map(ViewSpec::var).collect();
        let n = ViewSpec::of(
            rng.below(nx as u64) as usize,
            rng.chance(50),
            rng.range(0, 2) as i32,
        );
        let build = || {
            let (mut m, x) = brute::model(&domains);
            for (i, (view, set)) in reifs.iter().enumerate() {
                m.among(&[view.view(&x)], set, x[nx + i]).unwrap();
            }
            m.among(&views(&bools, &x), &[1], n.view(&x)).unwrap();
            (m, x)
        };
        let holds = |a: &[i32]| {
            reifs
                .iter()
                .enumerate()
                .all(|(i, (view, set))| i32::from(holds_value(set, view.eval(a))) == a[nx + i])
                && among_holds(&bools, &[1], n, a)
        };
        check_case(
            &domains,
            &build,
            &holds,
            seed,
            &format!("seed {seed}: {domains:?} {reifs:?} n = {n:?}"),
            10,
        );
    }
}

#[test]
fn propagating_the_model_then_posting_more_then_solving() {
    // Model::propagate runs the amongs once (their standings trailed above the posted
    // state); more constraints come after, and search must start from the model as posted.
    for seed in 0..80u64 {
        let mut rng = Rng::seeded(70_000 + seed);
        let nvars = 3 + rng.below(2) as usize;
        let domains: Vec<Vec<i32>> = (0..nvars).map(|_| brute::domain(&mut rng, -2, 2)).collect();
        let k = 2 + rng.below(5) as usize;
        let xs: Vec<ViewSpec> = (0..k).map(|_| random_view(&mut rng, nvars)).collect();
        let set = random_values(&mut rng, -2, 2);
        let n = random_view(&mut rng, nvars);
        let (a, b) = (
            rng.below(nvars as u64) as usize,
            rng.below(nvars as u64) as usize,
        );
        let ys: Vec<ViewSpec> = (0..k).map(|_| random_view(&mut rng, nvars)).collect();
        let set2 = random_values(&mut rng, -2, 2);
        let n2 = random_view(&mut rng, nvars);
        let build = || {
            let (mut m, x) = brute::model(&domains);
            m.among(&views(&xs, &x), &set, n.view(&x)).unwrap();
            let first = m.propagate();
            m.less_than(x[a], x[b].offset(1)).unwrap();
            m.among(&views(&ys, &x), &set2, n2.view(&x)).unwrap();
            if first.is_ok() {
                let _ = m.propagate();
            }
            (m, x)
        };
        let holds = |v: &[i32]| {
            among_holds(&xs, &set, n, v) && v[a] < v[b] + 1 && among_holds(&ys, &set2, n2, v)
        };
        let expected = brute::brute(&domains, &holds);
        let case = format!(
            "seed {seed}: {domains:?} {xs:?} {set:?} {n:?}; x{a} < x{b} + 1; {ys:?} {set2:?} {n2:?}"
        );
        check_runs(&build, &expected, seed, &case);
    }
}

#[test]
fn values_far_outside_every_domain_count_for_nothing() {
    // Values at the ends of i32 and just past the largest domains, next to ordinary ones,
    // with negated and shifted views, so that both ways of looking at a view (the set's
    // values in the domain, the domain's values in the set) meet them.
    let far = [
        i32::MIN,
        i32::MIN + 1,
        bezzel_core::MIN_VALUE - 1,
        bezzel_core::MAX_VALUE + 1,
        i32::MAX,
    ];
    for seed in 0..60u64 {
        let mut rng = Rng::seeded(80_000 + seed);
        let nvars = 3;
        let domains: Vec<Vec<i32>> = (0..nvars).map(|_| brute::domain(&mut rng, -2, 3)).collect();
        let k = 1 + rng.below(5) as usize;
        let xs: Vec<ViewSpec> = (0..k).map(|_| random_view(&mut rng, nvars)).collect();
        let mut set = random_values(&mut rng, -2, 2);
        set.extend(far.iter().filter(|_| rng.chance(60)));
        let n = random_view(&mut rng, nvars);
        let build = || {
            let (mut m, x) = brute::model(&domains);
            m.among(&views(&xs, &x), &set, n.view(&x)).unwrap();
            (m, x)
        };
        let holds = |a: &[i32]| among_holds(&xs, &set, n, a);
        let expected = brute::brute(&domains, &holds);
        let case = format!("seed {seed}: {domains:?} {xs:?} {set:?} n = {n:?}");
        assert_eq!(brute::solve(build().0), expected, "{case}");
        let (m, vars) = build();
        let mut s = Solver::with_config(m, checked()).brancher(RandomDecisions(Rng::seeded(seed)));
        assert_eq!(set_of(&mut s, &vars), expected, "{case}: random decisions");
    }
}

#[test]
fn parallel_branch_and_bound_over_a_count() {
    // Workers share the best bound: a node is narrowed by another worker's solution, from
    // outside the among's own variables' changes.
    for seed in 0..12u64 {
        let mut rng = Rng::seeded(90_000 + seed);
        let nvars = 5;
        let domains: Vec<Vec<i32>> = (0..nvars).map(|_| brute::domain(&mut rng, -2, 2)).collect();
        let k = 4 + rng.below(6) as usize;
        let xs: Vec<ViewSpec> = (0..k).map(|_| random_view(&mut rng, nvars)).collect();
        let ys: Vec<ViewSpec> = (0..k).map(|_| random_view(&mut rng, nvars)).collect();
        let set = random_values(&mut rng, -2, 2);
        let set2 = random_values(&mut rng, -2, 2);
        let mut doms = domains.clone();
        doms.push((0..=k as i32).collect());
        doms.push((0..=k as i32).collect());
        let (n, n2) = (ViewSpec::var(nvars), ViewSpec::var(nvars + 1));
        let build = {
            let (doms, xs, ys, set, set2) = (
                doms.clone(),
                xs.clone(),
                ys.clone(),
                set.clone(),
                set2.clone(),
            );
            move || -> Result<Model, ModelError> {
                let (mut m, x) = brute::model(&doms);
                m.among(&views(&xs, &x), &set, n.view(&x))?;
                m.among(&views(&ys, &x), &set2, n2.view(&x))?;
                m.linear(&[1, -1], &[x[nvars], x[nvars + 1]], Relation::Le, 1)?;
                Ok(m)
            }
        };
        let holds = |a: &[i32]| {
            among_holds(&xs, &set, n, a)
                && among_holds(&ys, &set2, n2, a)
                && a[nvars] - a[nvars + 1] <= 1
        };
        let expected = brute::brute(&doms, &holds);
        let target = build().unwrap().vars()[nvars];
        let search = ParallelSearch::new(format!("bnb {seed}"), build)
            .config(checked())
            .threads(Some(2))
            .per_worker(6);
        let subproblems = search.subproblems().unwrap();
        for sense in [Sense::Minimize, Sense::Maximize] {
            let best = search
                .optimize(&subproblems, target.into(), sense, None, |_, _| {})
                .unwrap();
            let want = match sense {
                Sense::Minimize => expected.iter().map(|a| a[nvars]).min(),
                Sense::Maximize => expected.iter().map(|a| a[nvars]).max(),
            };
            assert_eq!(best.value, want, "seed {seed}: {sense:?}");
            assert!(best.optimal, "seed {seed}");
        }
        let count = search.count(&subproblems, None, |_, _| {}).unwrap();
        assert_eq!(count.solutions, expected.len() as u64, "seed {seed}: count");
    }
}

/// A reference `among`, written here through the public propagator API and recomputed from
/// scratch at every run: the standings of all views, then the same two rules to a fixpoint.
/// Both reach the same fixpoint at every node, so searches over either must find the same
/// solutions through the same nodes.
#[derive(Debug, Clone)]
struct ReferenceAmong {
    xs: Vec<IntView>,
    set: BTreeSet<i64>,
    n: IntView,
}

impl Propagator for ReferenceAmong {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &x in &self.xs {
            s.subscribe(x, Event::Domain);
        }
        s.subscribe(self.n, Event::Bounds);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        loop {
            let (mut must, mut can, mut open) = (0i64, 0i64, Vec::new());
            for &x in &self.xs {
                let vals = ctx.values(x);
                let inside = vals.iter().filter(|v| self.set.contains(v)).count();
                if inside == vals.len() {
                    must += 1;
                }
                if inside > 0 {
                    can += 1;
                }
                if inside > 0 && inside < vals.len() {
                    open.push(x);
                }
            }
            let mut changed = ctx.set_min(self.n, must)? | ctx.set_max(self.n, can)?;
            let keep = if ctx.max(self.n) == must {
                Some(false)
            } else if ctx.min(self.n) == can {
                Some(true)
            } else {
                None
            };
            if let Some(keep) = keep {
                for &x in &open {
                    for v in ctx.values(x) {
                        if self.set.contains(&v) != keep {
                            changed |= ctx.remove(x, v)?;
                        }
                    }
                }
            }
            if !changed {
                return Ok(PropStatus::Fixpoint);
            }
        }
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        let c = self
            .xs
            .iter()
            .filter(|&&x| self.set.contains(&a.value(x)))
            .count();
        c as i64 == a.value(self.n)
    }

    fn name(&self) -> &'static str {
        "reference among"
    }
}

#[test]
fn same_nodes_as_a_from_scratch_reference_on_larger_models() {
    // Too large for brute force: 7 to 9 variables over 0..=4, two or three amongs on shared
    // views (some counts views of the same variables), two all-differents at each level. The
    // solution counts, and the nodes and failures of the search, must equal those of the same
    // model with the reference among.
    let mut compared = 0;
    for seed in 0..40u64 {
        let mut rng = Rng::seeded(100_000 + seed);
        let nvars = 7 + rng.below(3) as usize;
        let mut domains: Vec<Vec<i32>> =
            (0..nvars).map(|_| brute::domain(&mut rng, 0, 4)).collect();
        let amongs: Vec<(Vec<ViewSpec>, Vec<i32>, ViewSpec)> = (0..2 + rng.below(2))
            .map(|_| {
                let k = if rng.chance(50) {
                    60 + rng.below(80) as usize
                } else {
                    3 + rng.below(8) as usize
                };
                let xs = (0..k).map(|_| random_view(&mut rng, nvars)).collect();
                // The count: a view of a counted variable, or a variable of its own.
                let n = if rng.chance(40) {
                    ViewSpec::of(
                        rng.below(nvars as u64) as usize,
                        false,
                        rng.range(0, 2) as i32,
                    )
                } else {
                    domains.push((0..=k as i32).collect());
                    ViewSpec::var(domains.len() - 1)
                };
                (xs, random_values(&mut rng, -1, 5), n)
            })
            .collect();
        let run = |reference: bool, order: VarOrder| {
            let (mut m, x) = brute::model(&domains);
            for (xs, set, n) in &amongs {
                if reference {
                    m.post(ReferenceAmong {
                        xs: views(xs, &x),
                        set: set.iter().map(|&v| i64::from(v)).collect(),
                        n: n.view(&x),
                    })
                    .unwrap();
                } else {
                    m.among(&views(xs, &x), set, n.view(&x)).unwrap();
                }
            }
            // Domain-level all-differents may join a family when the solver is made, which
            // subscribes anew after every other propagator.
            let level =
                [Consistency::Value, Consistency::Bounds, Consistency::Domain][(seed % 3) as usize];
            m.all_different_with(&x[..3], level).unwrap();
            m.all_different_with(&x[2..5], level).unwrap();
            let config = SearchConfig {
                var_order: order,
                ..checked()
            };
            let mut s = Solver::with_config(m, config);
            let count = s.count();
            let st = s.stats();
            (count, st.nodes, st.failures)
        };
        for order in [VarOrder::default(), VarOrder::InputOrder] {
            let (ours, theirs) = (run(false, order), run(true, order));
            // (solutions, nodes, failures); the instance replays from its seed.
            assert_eq!(ours, theirs, "seed {seed} {order:?}");
            compared += usize::from(ours.0 > 0);
        }
    }
    assert!(compared > 5, "too few satisfiable instances: {compared}");
}
