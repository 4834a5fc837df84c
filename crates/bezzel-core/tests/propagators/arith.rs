//! Arithmetic, indexing and counting constraints against brute force, like Gecode's test
//! harness: on random tiny instances every assignment of the variables is enumerated and
//! judged by the definition written here, independently of the engine. The solver's solution
//! set must equal the brute-force set (no solution lost, every non-solution refused), one
//! propagation must never remove a value that some solution uses, and where a constraint
//! claims domain consistency the values left after propagation must be exactly the supported
//! ones, after the first propagation and at every node of searches with random decisions
//! (`brute::walk`). Views (`-x`, `x + c`) and variables shared between arguments are drawn too, and the
//! arithmetic runs over negative ranges.

use bezzel_core::prelude::*;
use proptest::prelude::*;
use std::collections::BTreeSet;

use crate::brute;

use brute::spec::domains;
use brute::{Level, ViewSpec, brute as brute_force, values, views};

/// A view of the variable `var`: plain half of the time, else negated and/or shifted.
fn view_of(var: usize) -> impl Strategy<Value = ViewSpec> {
    (any::<bool>(), any::<bool>(), -2..=2i32).prop_map(move |(plain, negated, offset)| {
        if plain {
            ViewSpec {
                var,
                negated: false,
                offset: 0,
                scale: 1,
            }
        } else {
            ViewSpec {
                var,
                negated,
                offset,
                scale: 1,
            }
        }
    })
}

/// Views on the distinct variables `0..n`, in order.
fn distinct_views(n: usize) -> impl Strategy<Value = Vec<ViewSpec>> {
    (0..n).map(view_of).collect::<Vec<_>>()
}

/// `k` views on variables drawn from `0..n`, which may repeat, a quarter of them scaled by
/// 2 or 3 (these tests check solutions, not a level of consistency, which a scale's holes
/// may lower).
fn shared_views(k: usize, n: usize) -> impl Strategy<Value = Vec<ViewSpec>> {
    let scale = prop_oneof![3 => Just(1), 1 => 2..=3i32];
    let scaled = (0..n).prop_flat_map(view_of);
    prop::collection::vec(
        (scaled, scale).prop_map(|(v, scale)| ViewSpec { scale, ..v }),
        k,
    )
}

type Poster<'a> = &'a dyn Fn(&mut Model, &[VarId]) -> Result<(), ModelError>;

fn build(domains: &[Vec<i32>], post: Poster<'_>) -> (Model, Vec<VarId>) {
    let (mut m, vars) = brute::model(domains);
    post(&mut m, &vars).unwrap();
    (m, vars)
}

/// The whole check of one instance; `domain_consistent` says whether one propagation must
/// leave exactly the supported values of every variable.
fn check(
    domains: &[Vec<i32>],
    post: Poster<'_>,
    holds: &dyn Fn(&[i32]) -> bool,
    domain_consistent: bool,
) {
    let expected = brute_force(domains, holds);

    let (m, _) = build(domains, post);
    let config = SearchConfig {
        check_solutions: true,
        ..SearchConfig::default()
    };
    let found: BTreeSet<Vec<i32>> = Solver::with_config(m, config)
        .solution_set()
        .iter()
        .map(<[i32]>::to_vec)
        .collect();
    assert_eq!(
        found, expected,
        "solution sets differ for domains {domains:?}"
    );

    let (mut m, vars) = build(domains, post);
    match m.propagate() {
        Err(_) => assert!(
            expected.is_empty(),
            "propagation failed with solutions left: {expected:?}"
        ),
        Ok(()) => {
            assert!(
                !(domain_consistent && expected.is_empty()),
                "domain consistency must fail when there is no solution ({domains:?})"
            );
            for (i, &x) in vars.iter().enumerate() {
                let left: BTreeSet<i32> = m.domain(x).unwrap().into_iter().collect();
                let used: BTreeSet<i32> = expected.iter().map(|a| a[i]).collect();
                assert!(
                    used.is_subset(&left),
                    "variable {i} lost supported values: {used:?} not in {left:?} ({domains:?})"
                );
                if domain_consistent {
                    assert_eq!(
                        left, used,
                        "variable {i} keeps unsupported values ({domains:?})"
                    );
                }
            }
        }
    }
    if domain_consistent {
        let claims = brute::domain_everywhere(domains.len());
        brute::walk(
            domains,
            &|| build(domains, post),
            holds,
            &claims,
            2,
            &domains,
        );
    }
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        // The element tests skip indices that name no position (those are refused).
        max_global_rejects: cases * 4,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn abs_is_domain_consistent(d in domains(2, -4, 4), v in distinct_views(2)) {
        check(
            &d,
            &|m, x| m.abs(v[0].view(x), v[1].view(x)),
            &|a| v[1].eval(a) == v[0].eval(a).abs(),
            true,
        );
    }

    #[test]
    fn abs_on_shared_variables(d in domains(2, -4, 4), v in shared_views(2, 2)) {
        check(
            &d,
            &|m, x| m.abs(v[0].view(x), v[1].view(x)),
            &|a| v[1].eval(a) == v[0].eval(a).abs(),
            false,
        );
    }

    #[test]
    fn times_matches_brute_force(d in domains(3, -5, 5), v in shared_views(3, 3)) {
        check(
            &d,
            &|m, x| m.times(v[0].view(x), v[1].view(x), v[2].view(x)),
            &|a| v[0].eval(a) * v[1].eval(a) == v[2].eval(a),
            false,
        );
    }

    #[test]
    fn div_truncates_like_rust(d in domains(3, -6, 6), v in shared_views(3, 3)) {
        check(
            &d,
            &|m, x| m.div(v[0].view(x), v[1].view(x), v[2].view(x)),
            &|a| {
                let y = v[1].eval(a);
                y != 0 && v[0].eval(a) / y == v[2].eval(a)
            },
            false,
        );
    }

    #[test]
    fn modulo_truncates_like_rust(d in domains(3, -6, 6), v in shared_views(3, 3)) {
        check(
            &d,
            &|m, x| m.modulo(v[0].view(x), v[1].view(x), v[2].view(x)),
            &|a| {
                let y = v[1].eval(a);
                y != 0 && v[0].eval(a) % y == v[2].eval(a)
            },
            false,
        );
    }

    #[test]
    fn min_and_max_match_brute_force(
        d in domains(4, -3, 3),
        (k, v) in (1..=3usize).prop_flat_map(|k| (Just(k), shared_views(k + 1, 4))),
        maximum in any::<bool>(),
    ) {
        let (xs, m_) = (&v[..k], v[k]);
        check(
            &d,
            &|m, x| {
                if maximum {
                    m.max(&views(xs, x), m_.view(x))
                } else {
                    m.min(&views(xs, x), m_.view(x))
                }
            },
            &|a| {
                let vals = values(xs, a);
                let want = if maximum { vals.iter().max() } else { vals.iter().min() };
                want == Some(&m_.eval(a))
            },
            false,
        );
    }

    #[test]
    fn element_const_is_domain_consistent(
        d in domains(2, -2, 5),
        v in distinct_views(2),
        array in prop::collection::vec(-3..=3i32, 1..=4),
    ) {
        let (index, value) = (v[0], v[1]);
        // Keep only instances whose index can name a position (the others are refused).
        let ok = d[0].iter().any(|&i| {
            let a = [i, 0];
            (0..array.len() as i64).contains(&index.eval(&a))
        });
        prop_assume!(ok);
        check(
            &d,
            &|m, x| m.element_const(&array, index.view(x), value.view(x)),
            &|a| {
                let i = index.eval(a);
                (0..array.len() as i64).contains(&i) && i64::from(array[i as usize]) == value.eval(a)
            },
            true,
        );
    }

    #[test]
    fn element_is_domain_consistent_on_index_and_value(
        (k, d, v) in (1..=3usize).prop_flat_map(|k| (Just(k), domains(k + 2, -1, 3), distinct_views(k + 2))),
    ) {
        let (xs, index, value) = (&v[..k], v[k], v[k + 1]);
        prop_assume!(d[index.var].iter().any(|&i| {
            let mut a = vec![0; k + 2];
            a[index.var] = i;
            (0..k as i64).contains(&index.eval(&a))
        }));
        let holds = |a: &[i32]| {
            let i = index.eval(a);
            (0..k as i64).contains(&i) && xs[i as usize].eval(a) == value.eval(a)
        };
        let post = |m: &mut Model, x: &[VarId]| m.element(&views(xs, x), index.view(x), value.view(x));
        check(&d, &post, &holds, false);
        let claims = [(index.var, Level::Domain), (value.var, Level::Domain)];
        brute::walk(&d, &|| build(&d, &post), &holds, &claims, 2, &(&d, &v));
        // Domain consistency on the index and the value: exactly their supported values.
        let expected = brute_force(&d, &holds);
        let mut m = Model::new();
        let x: Vec<VarId> = d.iter().map(|dom| m.int_var(dom.as_slice()).unwrap()).collect();
        m.element(&views(xs, &x), index.view(&x), value.view(&x)).unwrap();
        match m.propagate() {
            Err(_) => prop_assert!(expected.is_empty()),
            Ok(()) => {
                prop_assert!(!expected.is_empty());
                for var in [index.var, value.var] {
                    let left: BTreeSet<i32> = m.domain(x[var]).unwrap().into_iter().collect();
                    let used: BTreeSet<i32> = expected.iter().map(|a| a[var]).collect();
                    prop_assert_eq!(left, used);
                }
            }
        }
    }

    #[test]
    fn element_on_shared_variables(
        (k, d, v) in (1..=3usize).prop_flat_map(|k| (Just(k), domains(3, -1, 3), shared_views(k + 2, 3))),
    ) {
        let (xs, index, value) = (&v[..k], v[k], v[k + 1]);
        prop_assume!(d[index.var].iter().any(|&i| {
            let mut a = vec![0; 3];
            a[index.var] = i;
            (0..k as i64).contains(&index.eval(&a))
        }));
        check(
            &d,
            &|m, x| m.element(&views(xs, x), index.view(x), value.view(x)),
            &|a| {
                let i = index.eval(a);
                (0..k as i64).contains(&i) && xs[i as usize].eval(a) == value.eval(a)
            },
            false,
        );
    }

    #[test]
    fn among_is_domain_consistent(
        (k, d, v) in (0..=3usize).prop_flat_map(|k| (Just(k), domains(k + 1, -2, 3), distinct_views(k + 1))),
        set in prop::collection::vec(-2..=2i32, 0..=3),
    ) {
        let (xs, n) = (&v[..k], v[k]);
        check(
            &d,
            &|m, x| m.among(&views(xs, x), &set, n.view(x)),
            &|a| values(xs, a).iter().filter(|&&v| set.iter().any(|&s| i64::from(s) == v)).count() as i64 == n.eval(a),
            true,
        );
    }

    #[test]
    fn among_stays_domain_consistent_in_search(
        (k, d, v) in (1..=4usize).prop_flat_map(|k| (Just(k), domains(k + 1, -2, 3), distinct_views(k + 1))),
        set in prop::collection::vec(-2..=2i32, 1..=3),
    ) {
        // Among keeps its counts across nodes (trailed, updated from its advice): at every
        // node of a search with random decisions it must still be domain consistent.
        let (xs, n) = (&v[..k], v[k]);
        let holds = |a: &[i32]| values(xs, a).iter().filter(|&&v| set.iter().any(|&s| i64::from(s) == v)).count() as i64 == n.eval(a);
        brute::walk(
            &d,
            &|| {
                let (mut m, x) = brute::model(&d);
                m.among(&views(xs, &x), &set, n.view(&x)).unwrap();
                (m, x)
            },
            &holds,
            &brute::domain_everywhere(d.len()),
            2,
            &(&d, &v, &set),
        );
    }

    #[test]
    fn count_on_shared_variables(
        (k, d, v) in (1..=3usize).prop_flat_map(|k| (Just(k), domains(3, -1, 3), shared_views(k + 1, 3))),
        value in -1..=2i32,
    ) {
        let (xs, n) = (&v[..k], v[k]);
        check(
            &d,
            &|m, x| m.count(&views(xs, x), value, n.view(x)),
            &|a| values(xs, a).iter().filter(|&&v| v == i64::from(value)).count() as i64 == n.eval(a),
            false,
        );
    }

    #[test]
    fn global_cardinality_matches_brute_force(
        (k, j, d) in (1..=3usize, 0..=3usize).prop_flat_map(|(k, j)| (Just(k), Just(j), domains(k + j, 0, 3))),
        set in prop::collection::btree_set(0..=3i32, 3),
    ) {
        let vals: Vec<i32> = set.into_iter().take(j).collect();
        let j = vals.len();
        let d = d[..k + j].to_vec();
        check(
            &d,
            &|m, x| m.global_cardinality(&x[..k], &vals, &x[k..]),
            &|a| {
                vals.iter().enumerate().all(|(c, &value)| {
                    a[..k].iter().filter(|&&v| v == value).count() as i32 == a[k + c]
                })
            },
            false,
        );
    }

    #[test]
    fn inverse_matches_brute_force(
        (n, d, v) in (1..=3usize).prop_flat_map(|n| (Just(n), domains(2 * n, -1, 3), distinct_views(2 * n))),
    ) {
        let (xs, ys) = (&v[..n], &v[n..]);
        check(
            &d,
            &|m, x| m.inverse(&views(xs, x), &views(ys, x)),
            &|a| {
                let (xv, yv) = (values(xs, a), values(ys, a));
                let ok = |p: i64| (0..n as i64).contains(&p);
                (0..n).all(|i| ok(xv[i]) && ok(yv[i]))
                    && (0..n).all(|i| yv[xv[i] as usize] == i as i64)
                    && (0..n).all(|j| xv[yv[j] as usize] == j as i64)
            },
            false,
        );
    }
}

#[test]
fn products_at_the_domain_limits_are_exact() {
    use bezzel_core::{MAX_VALUE, MIN_VALUE};
    // A domain spans at most 2^24 values, so each variable sits near one end of the range.
    // (2^30 - 1)^2 is about 2^60: far outside every domain, so no solution, and no wrapping.
    let mut m = Model::new();
    let x = m.int_var(MAX_VALUE - 1..=MAX_VALUE).unwrap();
    let y = m.int_var(MIN_VALUE..=MIN_VALUE + 1).unwrap();
    let z = m.int_var(MIN_VALUE..=MIN_VALUE + 100).unwrap();
    m.times(x, y, z).unwrap();
    assert_eq!(Solver::new(m).count(), 0);

    // x · 2^15 = z near -2^30 has the one solution x = -2^15, z = -2^30.
    let mut m = Model::new();
    let x = m.int_var(-(1 << 15) - 3..=-(1 << 15) + 3).unwrap();
    let y = m.int_var([1 << 15]).unwrap();
    let z = m.int_var(MIN_VALUE..=MIN_VALUE + 1000).unwrap();
    m.times(x, y, z).unwrap();
    let answers: Vec<Vec<i32>> = Solver::new(m)
        .solution_set()
        .iter()
        .map(<[i32]>::to_vec)
        .collect();
    assert_eq!(answers, vec![vec![-(1 << 15), 1 << 15, MIN_VALUE]]);

    // -2^30 / -1 = 2^30 exactly, with remainder 0; -2^30 / -2^30 = 1.
    let mut m = Model::new();
    let x = m.int_var([MIN_VALUE]).unwrap();
    let y = m.int_var([-1]).unwrap();
    let z = m.int_var(MAX_VALUE - 5..=MAX_VALUE).unwrap();
    let r = m.int_var(-1..=1).unwrap();
    let one = m.int_var(-3..=3).unwrap();
    m.div(x, y, z).unwrap();
    m.modulo(x, y, r).unwrap();
    m.div(x, x, one).unwrap();
    m.propagate().unwrap();
    assert_eq!(m.domain(z).unwrap(), vec![MAX_VALUE]);
    assert_eq!(m.domain(r).unwrap(), vec![0]);
    assert_eq!(m.domain(one).unwrap(), vec![1]);
}

#[test]
fn division_by_zero_is_never_a_solution() {
    let mut m = Model::new();
    let x = m.int_var(-3..=3).unwrap();
    let y = m.int_var([0]).unwrap();
    let z = m.int_var(-3..=3).unwrap();
    m.div(x, y, z).unwrap();
    assert_eq!(Solver::new(m).count(), 0);
    let mut m = Model::new();
    let x = m.int_var(-3..=3).unwrap();
    let y = m.int_var([0]).unwrap();
    let z = m.int_var(-3..=3).unwrap();
    m.modulo(x, y, z).unwrap();
    assert!(m.propagate().is_err());
}

#[test]
fn bad_arguments_are_model_errors() {
    let mut m = Model::new();
    let x = m.int_vars(3, 0..=2).unwrap();
    let i = m.int_var(5..=9).unwrap();
    let none: [VarId; 0] = [];

    let e = m.min(&none, x[0]).unwrap_err();
    assert!(matches!(e, ModelError::TooFewVariables { .. }), "{e}");
    assert!(m.max(&none, x[0]).is_err());

    let e = m.element_const(&[], x[0], x[1]).unwrap_err();
    assert!(e.to_string().contains("empty"), "{e}");
    let e = m.element(&none, x[0], x[1]).unwrap_err();
    assert!(e.to_string().contains("empty"), "{e}");
    let e = m.element_const(&[1, 2, 3], i, x[1]).unwrap_err();
    assert!(e.to_string().contains("5..=9"), "{e}");
    let e = m.element(&x, i.minus(), x[1]).unwrap_err();
    assert!(e.to_string().contains("-9..=-5"), "{e}");

    let e = m.global_cardinality(&x, &[1, 2], &x[..1]).unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }), "{e}");
    let e = m.global_cardinality(&x, &[1, 1], &x[..2]).unwrap_err();
    assert!(e.to_string().contains("given twice"), "{e}");
    let e = m.inverse(&x, &x[..2]).unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }), "{e}");

    let mut other = Model::new();
    let foreign = other.int_var(0..=1).unwrap();
    for e in [
        m.abs(foreign, x[0]),
        m.times(x[0], foreign, x[1]),
        m.div(x[0], x[1], foreign),
        m.modulo(foreign, x[1], x[2]),
        m.min(&[foreign], x[0]),
        m.element_const(&[1], foreign, x[0]),
        m.element(&[x[0]], x[1], foreign),
        m.among(&[foreign], &[1], x[0]),
        m.inverse(&[foreign], &[x[0]]),
    ] {
        assert!(
            matches!(e, Err(ModelError::ForeignVariable { .. })),
            "{e:?}"
        );
    }
    // Nothing was posted by the refused calls.
    assert_eq!(m.num_propagators(), 0);
}

#[test]
fn index_values_outside_the_array_are_pruned() {
    let mut m = Model::new();
    let i = m.int_var(-3..=10).unwrap();
    let v = m.int_var(0..=9).unwrap();
    m.element_const(&[4, 5, 6], i, v).unwrap();
    m.propagate().unwrap();
    assert_eq!(m.domain(i).unwrap(), vec![0, 1, 2]);
    assert_eq!(m.domain(v).unwrap(), vec![4, 5, 6]);
}

/// `n` interval domains within `lo..=hi`.
fn intervals(n: usize, lo: i32, hi: i32) -> impl Strategy<Value = Vec<Vec<i32>>> {
    prop::collection::vec(
        (lo..=hi, lo..=hi).prop_map(|(a, b)| (a.min(b)..=a.max(b)).collect()),
        n,
    )
}

proptest! {
    #![proptest_config(config(400))]

    /// On interval domains and distinct variables, `min` and `max` are bounds consistent:
    /// after one propagation both ends of every domain are used by some solution.
    #[test]
    fn min_and_max_are_bounds_consistent_on_intervals(
        (k, d, v) in (1..=3usize).prop_flat_map(|k| (Just(k), intervals(k + 1, -3, 3), distinct_views(k + 1))),
        maximum in any::<bool>(),
    ) {
        let (xs, m_) = (&v[..k], v[k]);
        let holds = |a: &[i32]| {
            let vals = values(xs, a);
            let want = if maximum { vals.iter().max() } else { vals.iter().min() };
            want == Some(&m_.eval(a))
        };
        let expected = brute_force(&d, &holds);
        let mut m = Model::new();
        let x: Vec<VarId> = d.iter().map(|dom| m.int_var(dom.as_slice()).unwrap()).collect();
        if maximum {
            m.max(&views(xs, &x), m_.view(&x)).unwrap();
        } else {
            m.min(&views(xs, &x), m_.view(&x)).unwrap();
        }
        let post = |m: &mut Model, x: &[VarId]| if maximum {
            m.max(&views(xs, x), m_.view(x))
        } else {
            m.min(&views(xs, x), m_.view(x))
        };
        let claims: Vec<(usize, Level)> = (0..d.len()).map(|i| (i, Level::BoundsZ)).collect();
        brute::walk(&d, &|| build(&d, &post), &holds, &claims, 2, &(&d, &v, maximum));
        match m.propagate() {
            Err(_) => prop_assert!(expected.is_empty()),
            Ok(()) => {
                prop_assert!(!expected.is_empty());
                for (i, &var) in x.iter().enumerate() {
                    let left = m.domain(var).unwrap();
                    let used: BTreeSet<i32> = expected.iter().map(|a| a[i]).collect();
                    prop_assert_eq!(left.first(), used.first(), "lower bound of {}", i);
                    prop_assert_eq!(left.last(), used.last(), "upper bound of {}", i);
                }
            }
        }
    }
}

/// `element` over constants and over variables, checked at every node of searches with random
/// decisions on instances wide enough to need branching (the proptest instances above are
/// mostly solved by the first propagation).
#[test]
fn element_is_domain_consistent_at_every_node() {
    let mut rng = brute::Rng(0x5eed_0e1e_3e47_0001);
    let mut walked = 0;
    while walked < 300 {
        let n = rng.range(2, 5) as usize;
        let array: Vec<i32> = (0..n).map(|_| rng.range(0, 3) as i32).collect();
        let index = brute::domain(&mut rng, -1, n as i32);
        if !index.iter().any(|&i| (0..n as i32).contains(&i)) {
            continue; // refused: no position
        }
        walked += 1;
        let mut d = vec![index, brute::domain(&mut rng, -1, 4)];
        let at = |a: &[i32]| (0..n as i32).contains(&a[0]).then(|| a[0] as usize);
        let post = |m: &mut Model, x: &[VarId]| m.element_const(&array, x[0], x[1]);
        let holds = |a: &[i32]| at(a).is_some_and(|i| array[i] == a[1]);
        let claims = brute::domain_everywhere(2);
        brute::walk(&d, &|| build(&d, &post), &holds, &claims, 3, &(&d, &array));

        // The same index over variables 2..n+2.
        d.extend((0..n).map(|_| brute::domain(&mut rng, 0, 3)));
        let post = |m: &mut Model, x: &[VarId]| m.element(&x[2..], x[0], x[1]);
        let holds = |a: &[i32]| at(a).is_some_and(|i| a[2 + i] == a[1]);
        let claims = [(0, Level::Domain), (1, Level::Domain)];
        brute::walk(&d, &|| build(&d, &post), &holds, &claims, 3, &d);
    }
}

/// The number of ways to choose `k` of `n`, by Pascal's rule.
fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

#[test]
fn count_over_more_views_than_advice_bits_is_exact() {
    // Views beyond 64 share advice bits (view `i` and `i + 64`): the counts must stay exact
    // through search. Ground truth: choosing which views take the value, C(views, n).
    for (views, n) in [(66, 3), (70, 2), (130, 2)] {
        let mut m = Model::new();
        let xs: Vec<IntView> = (0..views)
            .map(|_| m.int_var(0..=1).unwrap().into())
            .collect();
        let count = m.int_var(n..=n).unwrap();
        m.count(&xs, 1, count).unwrap();
        let config = SearchConfig {
            check_solutions: true,
            ..SearchConfig::default()
        };
        let found = Solver::with_config(m, config).count();
        assert_eq!(
            found,
            binomial(views as u64, n as u64),
            "{views} views, {n} ones"
        );
    }
}

/// One set of values per variable.
type Domains = Vec<BTreeSet<i64>>;

/// What inverse leaves of the variables' domains, from its definition alone, when position
/// `i` of `xs` is variable `xs[i]` and of `ys` variable `ys[i]` (`n` positions each, values
/// in `0..n`; a variable may stand at several positions): `j` stays in the variable at
/// `xs[i]` while the one at `ys[j]` holds `i` and the other way round, until nothing changes.
fn channeling_fixpoint(domains: &mut Domains, xs: &[usize], ys: &[usize]) {
    let n = xs.len() as i64;
    let narrow = |d: &mut Domains, a: &[usize], b: &[usize]| -> bool {
        let mut changed = false;
        for (i, &x) in a.iter().enumerate() {
            let keep: BTreeSet<i64> = d[x]
                .iter()
                .copied()
                .filter(|&j| (0..n).contains(&j) && d[b[j as usize]].contains(&(i as i64)))
                .collect();
            changed |= keep.len() != d[x].len();
            d[x] = keep;
        }
        changed
    };
    while narrow(domains, xs, ys) | narrow(domains, ys, xs) {}
}

/// Posts inverse over variables with the given domains, shifted by `shift` and read back
/// through views offset by `-shift`, position `i` of `xs` on variable `xs[i]` and so on;
/// returns the domains after one propagation, or `None` when it failed.
fn inverse_pruning(domains: &Domains, xs: &[usize], ys: &[usize], shift: i64) -> Option<Domains> {
    let mut m = Model::new();
    let vars: Vec<VarId> = domains
        .iter()
        .map(|d| {
            m.int_var(d.iter().map(|&v| v + shift).collect::<Vec<i64>>())
                .unwrap()
        })
        .collect();
    let at = |positions: &[usize]| -> Vec<IntView> {
        positions
            .iter()
            .map(|&p| IntView::from(vars[p]).offset(-shift as i32))
            .collect()
    };
    m.inverse(&at(xs), &at(ys)).unwrap();
    m.propagate().ok()?;
    Some(
        vars.iter()
            .map(|&v| {
                m.domain(v)
                    .unwrap()
                    .into_iter()
                    .map(|d| i64::from(d) - shift)
                    .collect()
            })
            .collect(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Both ways of propagating inverse (words over `0..64`, and value by value for views
    /// whose values reach outside it, here shifted or holding -1 or 64) prune to the
    /// channeling's fixpoint, and fail exactly when it empties a domain; on distinct
    /// variables and on variables that stand at several positions of either array.
    #[test]
    fn inverse_prunes_to_the_channeling_fixpoint(
        (mut domains, xs, ys, shift) in (1..=6usize, any::<bool>()).prop_flat_map(|(n, shared)| {
            let nvars = if shared { n + 1 } else { 2 * n };
            let position = move |p: usize| -> BoxedStrategy<usize> {
                if shared { (0..nvars).boxed() } else { Just(p).boxed() }
            };
            (
                prop::collection::vec(
                    prop::collection::btree_set(-1..=n as i64, 1..=n + 2), nvars),
                (0..n).map(position).collect::<Vec<_>>(),
                (n..2 * n).map(position).collect::<Vec<_>>(),
                prop_oneof![Just(0i64), Just(-5), Just(64)],
            )
        }),
    ) {
        let got = inverse_pruning(&domains, &xs, &ys, shift);
        channeling_fixpoint(&mut domains, &xs, &ys);
        let emptied = domains.iter().any(BTreeSet::is_empty);
        match got {
            None => prop_assert!(emptied, "failed, but the fixpoint is {domains:?}"),
            Some(left) => {
                prop_assert!(!emptied, "the fixpoint empties a domain: {domains:?}");
                prop_assert_eq!(left, domains);
            }
        }
    }
}

#[test]
fn inverse_prunes_permutations_of_64_and_65_alike() {
    // 64 positions fit one word; 65 take the value-by-value path: the same pruning.
    for n in [63usize, 64, 65] {
        let all: BTreeSet<i64> = (0..n as i64).collect();
        let mut domains = vec![all; 2 * n];
        // Position i may not take i + 1 (mod n), nor values above n - 3 from position 2 on,
        // and y[0] is 5.
        for (i, d) in domains[..n].iter_mut().enumerate() {
            d.remove(&(((i + 1) % n) as i64));
            if i >= 2 {
                d.retain(|&v| v < n as i64 - 3);
            }
        }
        domains[n] = BTreeSet::from([5]);
        let (xs, ys): (Vec<usize>, Vec<usize>) = ((0..n).collect(), (n..2 * n).collect());
        let got = inverse_pruning(&domains, &xs, &ys, 0).expect("a permutation is left");
        channeling_fixpoint(&mut domains, &xs, &ys);
        assert_eq!(got, domains, "n = {n}");
    }
}

#[test]
fn inverse_over_shared_variables_admits_no_wrong_solution() {
    // ys is xs turned by one (found by an outside review).
    let mut m = Model::new();
    let a = m.int_var([1, 2]).unwrap();
    let b = m.int_var([0, 2, 3]).unwrap();
    let c = m.int_var(0..=3).unwrap();
    let d = m.int_var(0..=3).unwrap();
    m.all_different_with(&[a, c, d, b], Consistency::Domain)
        .unwrap();
    m.all_different_with(&[c, d, b, a], Consistency::Domain)
        .unwrap();
    m.inverse(&[a, c, d, b], &[c, d, b, a]).unwrap();
    // The assignments (a, b, c, d) that satisfy it, by the definition.
    let holds = |x: [i64; 4], y: [i64; 4]| {
        (0..4).all(|i| {
            (0..4).contains(&x[i])
                && (0..4).contains(&y[i])
                && y[x[i] as usize] == i as i64
                && x[y[i] as usize] == i as i64
        })
    };
    let mut expected = 0;
    for a in [1, 2] {
        for b in [0, 2, 3] {
            for c in 0..=3 {
                for d in 0..=3 {
                    expected += u64::from(holds([a, c, d, b], [c, d, b, a]));
                }
            }
        }
    }
    let config = SearchConfig {
        check_solutions: true,
        ..SearchConfig::default()
    };
    assert_eq!(Solver::with_config(m, config).count(), expected);
}
