//! Queens counts against OEIS, by the constraint model and by the independent fast paths.

use bezzel::queens::bitmask::{self, BitmaskCounter};
use bezzel::queens::{check, counting, model::Queens, symmetry};
use std::collections::BTreeSet;

/// OEIS A000170: number of ways to place n non-attacking queens, n = 1, 2, ...
const A000170: [u64; 17] = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512, 95815104,
];
/// OEIS A002562: the same up to rotations and reflections.
const A002562: [u64; 15] = [
    1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053,
];

fn model_count(n: usize) -> u64 {
    let mut q = Queens::first_fail(n).unwrap();
    let count = q.count();
    assert!(q.stats().is_complete());
    count
}

#[test]
fn model_counts_match_oeis_up_to_13() {
    for n in 1..=13 {
        assert_eq!(model_count(n), A000170[n - 1], "n = {n}");
    }
}

/// Seconds in a release build; minutes in a debug one.
#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug builds; run with --release")]
fn model_counts_match_oeis_14_and_15() {
    for n in 14..=15 {
        assert_eq!(model_count(n), A000170[n - 1], "n = {n}");
    }
}

#[test]
fn lexicographic_order_counts_the_same() {
    for n in 1..=10 {
        let mut q = Queens::lexicographic(n).unwrap();
        assert_eq!(q.count(), A000170[n - 1], "n = {n}");
    }
}

#[test]
fn bitmask_counts_match_oeis_up_to_15() {
    for n in 1..=15 {
        assert_eq!(bitmask::count(n).unwrap(), A000170[n - 1], "n = {n}");
        assert_eq!(
            counting::count_parallel::<BitmaskCounter>(n, Some(2)).unwrap(),
            A000170[n - 1],
            "n = {n}, 2 threads"
        );
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug builds; run with --release")]
fn bitmask_counts_16_on_every_core() {
    assert_eq!(
        counting::count_parallel::<BitmaskCounter>(16, None).unwrap(),
        A000170[15]
    );
}

/// Six times the work of 16 (a minute or more of CI's two cores), for no code path that 16
/// does not take: run on demand.
#[test]
#[ignore = "a minute or more on two cores; run with --ignored"]
fn bitmask_counts_17_on_every_core() {
    assert_eq!(
        counting::count_parallel::<BitmaskCounter>(17, None).unwrap(),
        A000170[16]
    );
}

#[test]
fn unique_counts_match_oeis_up_to_12() {
    for n in 1..=12 {
        let c = symmetry::count_unique(n).unwrap();
        assert_eq!(c.unique, A002562[n - 1], "unique, n = {n}");
        assert_eq!(c.total, A000170[n - 1], "total, n = {n}");
    }
}

/// The model and the bitmask enumerator are independent programs: their solution sets agree,
/// every solution passes the checker, and the model yields them in lexicographic order.
#[test]
fn model_and_bitmask_find_the_same_solutions() {
    for n in 1..=9 {
        let mut q = Queens::lexicographic(n).unwrap();
        let from_model: Vec<Vec<usize>> = q.solutions().collect();
        assert!(from_model.windows(2).all(|w| w[0] < w[1]), "order, n = {n}");
        assert!(from_model.iter().all(|p| check::is_solution(p)));
        let mut from_bitmask = BTreeSet::new();
        bitmask::for_each_solution(n, |p| {
            from_bitmask.insert(p.to_vec());
        })
        .unwrap();
        let from_model: BTreeSet<Vec<usize>> = from_model.into_iter().collect();
        assert_eq!(from_model, from_bitmask, "n = {n}");
    }
}

#[test]
fn unique_representatives_are_canonical_solutions_covering_every_orbit() {
    for n in 1..=9 {
        let reps = symmetry::unique_solutions(n).unwrap();
        assert_eq!(reps.len() as u64, A002562[n - 1]);
        let mut covered = BTreeSet::new();
        for r in &reps {
            assert!(check::is_solution(r));
            assert_eq!(&symmetry::canonical(r).unwrap(), r);
            for s in symmetry::Symmetry::ALL {
                covered.insert(symmetry::transform(r, s).unwrap());
            }
        }
        assert_eq!(
            covered.len() as u64,
            A000170[n - 1],
            "orbits cover all, n = {n}"
        );
    }
}

#[test]
fn model_rejects_bad_sizes() {
    assert!(Queens::first_fail(0).is_err());
    assert!(Queens::first_fail(bezzel::queens::model::MAX_MODEL_N + 1).is_err());
    assert!(bitmask::count(0).is_err());
    assert!(bitmask::count(bitmask::MAX_N + 1).is_err());
}
