//! All-different at bounds and at domain consistency, checked against brute force.
//!
//! Random small instances compare what one propagation keeps with what exhaustive enumeration
//! says it must keep: exactly the supported values at domain level, exactly the tightest
//! bounds-consistent bounds at bounds level (for views on distinct variables, the main case),
//! and never a solution less in every case (views may share a variable, as `x` and `x + 1`).
//! On distinct variables the levels are checked again at every node of a search with random
//! decisions (`brute::walk`), where incremental propagation meets backtracking.
//! Full searches must find exactly the brute-force solution sets under every heuristic, and
//! N-Queens must count OEIS A000170.

use bezzel_core::prelude::*;
use bezzel_core::propagators::{AllDifferentBounds, AllDifferentDomain};
use proptest::prelude::*;
use std::collections::BTreeSet;

use crate::brute;

use brute::spec::relation_holds;
use brute::{ViewSpec, has_matching};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    Bounds,
    Domain,
}

fn post(m: &mut Model, level: Level, views: Vec<IntView>) {
    match level {
        Level::Bounds => m.post(AllDifferentBounds::new(views)),
        Level::Domain => m.post(AllDifferentDomain::new(views)),
    }
    .unwrap();
}

/// A constraint beside the all-different in search tests.
#[derive(Debug, Clone)]
enum Extra {
    None,
    NotEqual(ViewSpec, ViewSpec),
    Linear(Vec<(i32, ViewSpec)>, Relation, i32),
}

impl Extra {
    fn holds(&self, a: &[i32]) -> bool {
        match self {
            Extra::None => true,
            Extra::NotEqual(x, y) => x.eval(a) != y.eval(a),
            Extra::Linear(terms, rel, c) => {
                let s: i64 = terms.iter().map(|&(k, v)| i64::from(k) * v.eval(a)).sum();
                relation_holds(i128::from(s), *rel, i128::from(*c))
            }
        }
    }

    fn post(&self, m: &mut Model, vars: &[VarId]) {
        match self {
            Extra::None => {}
            Extra::NotEqual(x, y) => m.not_equal(x.view(vars), y.view(vars)).unwrap(),
            Extra::Linear(terms, rel, c) => {
                let coefs: Vec<i32> = terms.iter().map(|t| t.0).collect();
                let views: Vec<IntView> = terms.iter().map(|t| t.1.view(vars)).collect();
                m.linear(&coefs, &views, *rel, *c).unwrap();
            }
        }
    }
}

/// Variables with domains, one all-different over views of them, maybe one more constraint.
#[derive(Debug, Clone)]
struct Case {
    domains: Vec<Vec<i32>>,
    views: Vec<ViewSpec>,
    extra: Extra,
}

impl Case {
    fn distinct_vars(&self) -> bool {
        let vars: BTreeSet<usize> = self.views.iter().map(|v| v.var).collect();
        vars.len() == self.views.len()
    }

    fn all_different(&self, a: &[i32]) -> bool {
        let vals: BTreeSet<i64> = self.views.iter().map(|v| v.eval(a)).collect();
        vals.len() == self.views.len()
    }

    /// Every assignment from the original domains satisfying all constraints.
    fn brute_force(&self) -> BTreeSet<Vec<i32>> {
        brute::brute(&self.domains, &|a| self.holds(a))
    }

    fn holds(&self, a: &[i32]) -> bool {
        self.all_different(a) && self.extra.holds(a)
    }

    fn model(&self, level: Level) -> (Model, Vec<VarId>) {
        let (mut m, vars) = brute::model(&self.domains);
        post(
            &mut m,
            level,
            self.views.iter().map(|v| v.view(&vars)).collect(),
        );
        self.extra.post(&mut m, &vars);
        (m, vars)
    }

    /// Propagates once: the domains, or `None` on failure.
    fn propagated(&self, level: Level) -> Option<Vec<Vec<i32>>> {
        let (mut m, vars) = self.model(level);
        m.propagate().ok()?;
        Some(vars.iter().map(|&x| m.domain(x).unwrap()).collect())
    }

    /// The tightest bounds-consistent bounds of each variable (views on distinct variables),
    /// or `None` if there are none: shrink every bound without support to the next value of
    /// its domain until nothing changes. The support of a bound is an assignment of the other
    /// views from their current intervals, holes included, all different.
    fn bounds_fixpoint(&self) -> Option<Vec<(i32, i32)>> {
        let mut bounds: Vec<(i32, i32)> = self
            .domains
            .iter()
            .map(|d| (d[0], *d.last().unwrap()))
            .collect();
        loop {
            let mut changed = false;
            for (i, view) in self.views.iter().enumerate() {
                let x = view.var;
                let supported = |bounds: &[(i32, i32)], value: i32| {
                    let others: Vec<Vec<i64>> = self
                        .views
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| j != i)
                        .map(|(_, w)| {
                            let (lo, hi) = w.interval(bounds[w.var].0, bounds[w.var].1);
                            (lo..=hi).filter(|&u| u != view.at(value)).collect()
                        })
                        .collect();
                    has_matching(&others)
                };
                let inside =
                    |bounds: &[(i32, i32)], v: &i32| (bounds[x].0..=bounds[x].1).contains(v);
                let lo = self.domains[x]
                    .iter()
                    .copied()
                    .find(|v| inside(&bounds, v) && supported(&bounds, *v))?;
                let hi = self.domains[x]
                    .iter()
                    .rev()
                    .copied()
                    .find(|v| inside(&bounds, v) && supported(&bounds, *v))?;
                if (lo, hi) != bounds[x] {
                    bounds[x] = (lo, hi);
                    changed = true;
                }
            }
            if !changed {
                return Some(bounds);
            }
        }
    }
}

/// Values of each variable that some solution takes.
fn supports(case: &Case, solutions: &BTreeSet<Vec<i32>>) -> Vec<Vec<i32>> {
    (0..case.domains.len())
        .map(|x| {
            let vals: BTreeSet<i32> = solutions.iter().map(|s| s[x]).collect();
            vals.into_iter().collect()
        })
        .collect()
}

fn check_domain_level(case: &Case) {
    let solutions = case.brute_force();
    let result = case.propagated(Level::Domain);
    let Some(domains) = result else {
        assert!(solutions.is_empty(), "failed with solutions: {case:?}");
        return;
    };
    for (x, domain) in domains.iter().enumerate() {
        assert!(
            domain.iter().all(|v| case.domains[x].contains(v)),
            "{case:?}"
        );
    }
    let supported = supports(case, &solutions);
    if case.distinct_vars() {
        // Domain consistency is exact: every kept value has a support, and only those.
        assert!(!solutions.is_empty(), "missed a failure: {case:?}");
        assert_eq!(domains, supported, "{case:?}");
        // And at every node of a search with random decisions.
        let claims = brute::domain_everywhere(case.domains.len());
        brute::walk(
            &case.domains,
            &|| case.model(Level::Domain),
            &|a| case.holds(a),
            &claims,
            1,
            case,
        );
    } else {
        for (kept, needed) in domains.iter().zip(&supported) {
            assert!(needed.iter().all(|v| kept.contains(v)), "{case:?}");
        }
    }
}

fn check_bounds_level(case: &Case) {
    let solutions = case.brute_force();
    let result = case.propagated(Level::Bounds);
    if case.distinct_vars() {
        let expected = case.bounds_fixpoint();
        match (&result, &expected) {
            (None, None) => {}
            (Some(domains), Some(bounds)) => {
                let got: Vec<(i32, i32)> =
                    domains.iter().map(|d| (d[0], *d.last().unwrap())).collect();
                assert_eq!(&got, bounds, "{case:?}");
            }
            _ => panic!("failure disagrees: got {result:?}, expected {expected:?} on {case:?}"),
        }
    }
    let Some(domains) = result else {
        assert!(solutions.is_empty(), "failed with solutions: {case:?}");
        return;
    };
    for (x, domain) in domains.iter().enumerate() {
        assert!(
            domain.iter().all(|v| case.domains[x].contains(v)),
            "{case:?}"
        );
    }
    for s in &solutions {
        assert!(
            s.iter().zip(&domains).all(|(v, d)| d.contains(v)),
            "lost solution {s:?}: {case:?}"
        );
    }
    if case.distinct_vars() {
        // Every bound has a support within the other views' intervals.
        for (i, view) in case.views.iter().enumerate() {
            let d = &domains[view.var];
            for value in [d[0], *d.last().unwrap()] {
                let others: Vec<Vec<i64>> = case
                    .views
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, w)| {
                        let dw = &domains[w.var];
                        let (lo, hi) = w.interval(dw[0], *dw.last().unwrap());
                        (lo..=hi).filter(|&u| u != view.at(value)).collect()
                    })
                    .collect();
                assert!(has_matching(&others), "bound {value} of {view:?}: {case:?}");
            }
        }
        // Bounds(Z) consistency at every node of a search with random decisions.
        let claims: Vec<(usize, brute::Level)> = case
            .views
            .iter()
            .map(|v| (v.var, brute::Level::BoundsZ))
            .collect();
        brute::walk(
            &case.domains,
            &|| case.model(Level::Bounds),
            &|a| case.holds(a),
            &claims,
            1,
            case,
        );
    }
}

const VAR_ORDERS: [VarOrder; 3] = [
    VarOrder::InputOrder,
    VarOrder::SmallestDomain,
    VarOrder::SmallestDomainMaxDegree,
];
const VALUE_ORDERS: [ValueOrder; 3] = [ValueOrder::Min, ValueOrder::Max, ValueOrder::Split];

fn check_search(case: &Case) {
    let expected = case.brute_force();
    for level in [Level::Bounds, Level::Domain] {
        for var_order in VAR_ORDERS {
            for value_order in VALUE_ORDERS {
                let (m, vars) = case.model(level);
                let config = SearchConfig {
                    var_order,
                    value_order,
                    ..SearchConfig::default()
                };
                let mut solver = Solver::with_config(m, config);
                let mut found = BTreeSet::new();
                for s in solver.solutions() {
                    assert!(found.insert(s.values_of(&vars)), "duplicate solution");
                }
                assert_eq!(
                    found, expected,
                    "{level:?} {var_order:?}/{value_order:?} on {case:?}"
                );
                let set = solver.solution_set();
                assert_eq!(set.len(), expected.len());
            }
        }
    }
}

/// Offsets are multiplied by a spread: 1 keeps every value within one machine word, 25 makes
/// the domain propagator index values densely over a wider span, and a million makes it
/// compress sparse values.
fn spread() -> impl Strategy<Value = i32> {
    prop_oneof![4 => Just(1), 1 => Just(25), 1 => Just(1_000_000)]
}

/// A domain within -3..=4: any subset, or a short interval with a few holes, so that
/// views crowd together and Hall intervals are common.
fn domain() -> impl Strategy<Value = Vec<i32>> {
    prop_oneof![
        prop::collection::btree_set(-3..=4i32, 1..=6).prop_map(|d| d.into_iter().collect()),
        (-3..=2i32, 1..=4i32, any::<u8>(), any::<u8>()).prop_map(|(lo, len, a, b)| {
            let holes = a & b; // each value is a hole with probability 1/4
            let d: Vec<i32> = (lo..lo + len)
                .enumerate()
                .filter(|&(i, _)| holes >> i & 1 == 0)
                .map(|(_, v)| v)
                .collect();
            if d.is_empty() { vec![lo] } else { d }
        }),
    ]
}

fn domains(nvars: usize) -> impl Strategy<Value = Vec<Vec<i32>>> {
    prop::collection::vec(domain(), nvars)
}

/// View offsets: mostly none, so that views overlap.
fn offset() -> impl Strategy<Value = i32> {
    prop_oneof![2 => Just(0), 1 => -3..=3i32]
}

/// Views on distinct variables: a random selection of the variables, in random order.
fn distinct_case() -> impl Strategy<Value = Case> {
    (2..=6usize)
        .prop_flat_map(|nvars| {
            (
                domains(nvars),
                Just((0..nvars).collect::<Vec<_>>()).prop_shuffle(),
                2..=nvars,
                prop::collection::vec((prop::bool::weighted(0.2), offset()), nvars),
                spread(),
            )
        })
        .prop_map(|(domains, order, nviews, shapes, spread)| Case {
            domains,
            views: order[..nviews]
                .iter()
                .zip(shapes)
                .map(|(&var, (negated, offset))| ViewSpec::of(var, negated, offset * spread))
                .collect(),
            extra: Extra::None,
        })
}

/// Views on distinct variables crowded into two more values than there are views, where
/// Hall intervals are the rule rather than the exception.
fn crowded_case() -> impl Strategy<Value = Case> {
    (3..=6usize)
        .prop_flat_map(|n| {
            let width = n as i32 + 2;
            let domain =
                (0..width, 2..=4i32, any::<u8>(), any::<u8>()).prop_map(move |(lo, len, a, b)| {
                    let holes = a & b;
                    let d: Vec<i32> = (lo..(lo + len).min(width))
                        .enumerate()
                        .filter(|&(i, _)| holes >> i & 1 == 0)
                        .map(|(_, v)| v)
                        .collect();
                    if d.is_empty() { vec![lo] } else { d }
                });
            (
                prop::collection::vec(domain, n),
                prop::collection::vec(prop::bool::weighted(0.3), n),
            )
        })
        .prop_map(|(domains, negated)| {
            let top = domains.len() as i32 + 1;
            Case {
                views: negated
                    .iter()
                    .enumerate()
                    // -x + top maps 0..=top onto itself.
                    .map(|(var, &neg)| ViewSpec::of(var, neg, if neg { top } else { 0 }))
                    .collect(),
                domains,
                extra: Extra::None,
            }
        })
}

fn any_distinct_case() -> impl Strategy<Value = Case> {
    prop_oneof![distinct_case(), crowded_case()]
}

/// Views on any variables, so that some share one.
fn aliased_case() -> impl Strategy<Value = Case> {
    (2..=5usize)
        .prop_flat_map(|nvars| {
            (
                domains(nvars),
                prop::collection::vec((0..nvars, prop::bool::weighted(0.25), -3..=3i32), 2..=6),
                spread(),
            )
        })
        .prop_map(|(domains, views, spread)| Case {
            domains,
            views: views
                .into_iter()
                .map(|(var, negated, offset)| ViewSpec::of(var, negated, offset * spread))
                .collect(),
            extra: Extra::None,
        })
}

fn extra(nvars: usize) -> impl Strategy<Value = Extra> {
    let v = move || {
        (0..nvars, prop::bool::weighted(0.25), -2..=2i32)
            .prop_map(|(var, negated, offset)| ViewSpec::of(var, negated, offset))
    };
    prop_oneof![
        Just(Extra::None),
        (v(), v()).prop_map(|(x, y)| Extra::NotEqual(x, y)),
        (
            prop::collection::vec((-3..=3i32, v()), 1..=3),
            prop_oneof![Just(Relation::Eq), Just(Relation::Le), Just(Relation::Ge)],
            -5..=5i32,
        )
            .prop_map(|(t, r, c)| Extra::Linear(t, r, c)),
    ]
}

fn search_case() -> impl Strategy<Value = Case> {
    prop_oneof![2 => distinct_case(), 1 => crowded_case(), 1 => aliased_case()].prop_flat_map(
        |case| {
            let nvars = case.domains.len();
            (Just(case), extra(nvars)).prop_map(|(case, extra)| Case { extra, ..case })
        },
    )
}

/// More views than the brute force can enumerate, on distinct variables: supports come from
/// a matching of the other views instead.
fn wide_case() -> impl Strategy<Value = (Vec<Vec<i32>>, Vec<i32>)> {
    (5..=12usize).prop_flat_map(|n| {
        (
            prop::collection::vec(prop::collection::btree_set(0..=14i32, 1..=7), n)
                .prop_map(|ds| ds.into_iter().map(|d| d.into_iter().collect()).collect()),
            prop::collection::vec(
                prop_oneof![3 => Just(0), 1 => -40..=40i32, 1 => Just(100_000)],
                n,
            ),
        )
    })
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(1500))]

    #[test]
    fn domain_level_keeps_exactly_the_supported_values(case in any_distinct_case()) {
        check_domain_level(&case);
    }

    #[test]
    fn bounds_level_reaches_the_tightest_consistent_bounds(case in any_distinct_case()) {
        check_bounds_level(&case);
    }
}

proptest! {
    #![proptest_config(config(800))]

    #[test]
    fn domain_level_on_shared_variables_loses_no_solution(case in aliased_case()) {
        check_domain_level(&case);
    }

    #[test]
    fn bounds_level_on_shared_variables_loses_no_solution(case in aliased_case()) {
        check_bounds_level(&case);
    }
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn search_finds_exactly_the_brute_force_solutions(case in search_case()) {
        check_search(&case);
    }

    #[test]
    fn domain_level_on_larger_instances_matches_a_matching_oracle(
        (domains, offsets) in wide_case()
    ) {
        // View i is x_i + offsets[i] * i, so that spans range from one word to very sparse.
        let views: Vec<ViewSpec> =
            (0..domains.len()).map(|i| ViewSpec::of(i, i % 3 == 1, offsets[i] * i as i32)).collect();
        let case = Case { domains: domains.clone(), views: views.clone(), extra: Extra::None };
        let sets = |doms: &[Vec<i32>]| -> Vec<Vec<i64>> {
            views.iter().map(|v| doms[v.var].iter().map(|&x| v.at(x)).collect()).collect()
        };
        let original = sets(&domains);
        let supported: Vec<Vec<i32>> = views
            .iter()
            .enumerate()
            .map(|(i, v)| {
                domains[v.var]
                    .iter()
                    .copied()
                    .filter(|&x| {
                        let mut s = original.clone();
                        s[i] = vec![v.at(x)];
                        has_matching(&s)
                    })
                    .collect()
            })
            .collect();
        let result = case.propagated(Level::Domain);
        if supported.iter().any(|s| s.is_empty()) {
            prop_assert!(result.is_none(), "missed a failure: {:?}", case);
        } else {
            prop_assert_eq!(result, Some(supported), "{:?}", case);
        }
    }
}

fn v(var: usize) -> ViewSpec {
    ViewSpec::of(var, false, 0)
}

fn case(domains: &[&[i32]]) -> Case {
    Case {
        domains: domains.iter().map(|d| d.to_vec()).collect(),
        views: (0..domains.len()).map(v).collect(),
        extra: Extra::None,
    }
}

#[test]
fn hall_interval_pushes_the_third_view_out() {
    // x1, x2 in 1..2 use up both values: x3 must be 3.
    let c = case(&[&[1, 2], &[1, 2], &[1, 2, 3]]);
    for level in [Level::Bounds, Level::Domain] {
        assert_eq!(
            c.propagated(level),
            Some(vec![vec![1, 2], vec![1, 2], vec![3]]),
            "{level:?}"
        );
    }
    check_bounds_level(&c);
    check_domain_level(&c);
    // The mirror image lowers the maximum.
    let c = case(&[&[2, 3], &[1, 2, 3], &[2, 3]]);
    for level in [Level::Bounds, Level::Domain] {
        assert_eq!(
            c.propagated(level),
            Some(vec![vec![2, 3], vec![1], vec![2, 3]]),
            "{level:?}"
        );
    }
}

#[test]
fn pigeonhole_fails_at_both_levels() {
    let c = case(&[&[1, 2], &[1, 2], &[1, 2]]);
    for level in [Level::Bounds, Level::Domain] {
        assert_eq!(c.propagated(level), None, "{level:?}");
    }
    // Holes do not hide a pigeonhole from the matching.
    let c = case(&[&[1, 5], &[1, 5], &[1, 5], &[0, 9]]);
    assert_eq!(c.propagated(Level::Domain), None);
}

#[test]
fn domain_level_prunes_what_bounds_level_cannot() {
    // x, y in {1, 3} take both odd values, so z = 2; the intervals [1, 3] hide that.
    let c = case(&[&[1, 3], &[1, 3], &[1, 2, 3]]);
    assert_eq!(
        c.propagated(Level::Domain),
        Some(vec![vec![1, 3], vec![1, 3], vec![2]])
    );
    assert_eq!(
        c.propagated(Level::Bounds),
        Some(vec![vec![1, 3], vec![1, 3], vec![1, 2, 3]])
    );
    check_bounds_level(&c);
    check_domain_level(&c);
}

#[test]
fn bounds_landing_in_holes_run_again() {
    // The Hall interval [1, 2] pushes z to 3, which is a hole, so z starts at 5. With z in
    // {1, 5}, z = 5 then leaves w = 4.
    let c = case(&[&[1, 2], &[1, 2], &[1, 5, 6], &[4, 5]]);
    assert_eq!(
        c.propagated(Level::Bounds),
        Some(vec![vec![1, 2], vec![1, 2], vec![5, 6], vec![4, 5]])
    );
    check_bounds_level(&c);
    let c = case(&[&[1, 2], &[1, 2], &[1, 5], &[4, 5]]);
    assert_eq!(
        c.propagated(Level::Bounds),
        Some(vec![vec![1, 2], vec![1, 2], vec![5], vec![4]])
    );
}

#[test]
fn fixed_views_leave_the_inside_of_other_domains_at_bounds_level() {
    // Bounds reasoning alone keeps 2 inside y's interval; the value pass takes it out.
    let c = case(&[&[2], &[1, 2, 3], &[0, 2, 4]]);
    assert_eq!(
        c.propagated(Level::Bounds),
        Some(vec![vec![2], vec![1, 3], vec![0, 4]])
    );
}

#[test]
fn views_of_one_variable_reach_a_fixpoint() {
    // x, x + 1 and -x over {-1, 0, 1, 2}: x = 0 makes x = -x.
    let c = Case {
        domains: vec![vec![-1, 0, 1, 2]],
        views: vec![
            ViewSpec::of(0, false, 0),
            ViewSpec::of(0, false, 1),
            ViewSpec::of(0, true, 0),
        ],
        extra: Extra::None,
    };
    for level in [Level::Bounds, Level::Domain] {
        let (m, x) = c.model(level);
        let found: Vec<i32> = Solver::new(m).solutions().map(|s| s.value(x[0])).collect();
        assert_eq!(found, vec![-1, 1, 2], "{level:?}");
    }
    // The same view twice can never be different.
    let c = Case {
        domains: vec![vec![1, 2, 3]],
        views: vec![v(0), v(0)],
        extra: Extra::None,
    };
    check_search(&c);
}

#[test]
fn wide_spans_match_the_one_word_path() {
    // The same instance with values 1000 apart (the general path) and 1 apart (one word).
    for gap in [1, 1000] {
        let d = |vals: &[i32]| vals.iter().map(|v| v * gap).collect::<Vec<_>>();
        let c = Case {
            domains: vec![d(&[1, 3]), d(&[1, 3]), d(&[1, 2, 3]), d(&[2, 3, 4])],
            views: (0..4).map(v).collect(),
            extra: Extra::None,
        };
        assert_eq!(
            c.propagated(Level::Domain),
            Some(vec![d(&[1, 3]), d(&[1, 3]), d(&[2]), d(&[4])]),
            "gap {gap}"
        );
        check_domain_level(&c);
        check_search(&c);
    }
}

fn queens(n: usize, level: Level) -> u64 {
    let mut m = Model::new();
    let q = m.int_vars(n, 0..n as i64).unwrap();
    let shifted = |sign: i32| -> Vec<IntView> {
        q.iter()
            .enumerate()
            .map(|(i, &x)| x.offset(sign * i as i32))
            .collect()
    };
    post(&mut m, level, shifted(0));
    post(&mut m, level, shifted(1));
    post(&mut m, level, shifted(-1));
    Solver::new(m).count()
}

#[test]
fn queens_count_a000170_at_both_levels() {
    const A000170: [u64; 10] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for level in [Level::Bounds, Level::Domain] {
        for (i, &expected) in A000170.iter().enumerate() {
            assert_eq!(queens(i + 1, level), expected, "n = {} at {level:?}", i + 1);
        }
    }
}

#[test]
fn queens_with_wide_diagonals() {
    // n = 40 spans 79 values on the diagonals: the general path all the way down until the
    // spans shrink to one word.
    let mut m = Model::new();
    let n = 40;
    let q = m.int_vars(n, 0..n as i64).unwrap();
    for sign in [0, 1, -1] {
        let views = q
            .iter()
            .enumerate()
            .map(|(i, &x)| x.offset(sign * i as i32))
            .collect();
        m.post(AllDifferentDomain::new(views)).unwrap();
    }
    let mut solver = Solver::new(m);
    let s = solver.first().expect("40 queens have solutions");
    let cols: Vec<i64> = q.iter().map(|&x| i64::from(s.value(x))).collect();
    for i in 0..n {
        for j in i + 1..n {
            let d = (j - i) as i64;
            assert!(cols[i] != cols[j] && (cols[i] - cols[j]).abs() != d);
        }
    }
}
