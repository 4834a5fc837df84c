//! A solver that searches on threads (`Solver::parallel`): counts equal the published queens
//! counts and brute force on random models, optima equal brute force, on any number of
//! threads, and what needs a builder says so.

use bezzel_core::prelude::*;
use proptest::prelude::*;

use crate::brute;
use crate::search_control::LargestValue;

use brute::spec::{Kinds, ModelSpec, Shape};

/// N-Queens: `q[i]` is row `i`'s column; columns and both diagonals all different.
fn queens(n: usize) -> Result<Model, ModelError> {
    crate::common::queens(n, Consistency::Value).map(|(m, _)| m)
}

#[test]
fn queens_counts_on_threads_are_the_published_ones() {
    // OEIS A000170: 92, 352 and 724 placements of 8, 9 and 10 queens.
    for (n, published) in [(8, 92), (9, 352), (10, 724)] {
        for threads in [1, 2, 3, 0] {
            let mut solver = Solver::parallel(threads, move || queens(n)).unwrap();
            assert_eq!(solver.count(), published, "n = {n}, {threads} threads");
            assert_eq!(solver.stats().solutions, published, "n = {n}: statistics");
            assert!(solver.stats().is_complete());
            // The same solver counts again, and on one thread too.
            solver.set_threads(1).unwrap();
            assert_eq!(solver.count(), published, "n = {n}, set to one thread");
        }
    }
}

#[test]
fn the_workers_build_their_own_copies_and_one_thread_builds_none() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let builds = Arc::new(AtomicUsize::new(0));
    let counter = builds.clone();
    let mut solver = Solver::parallel(1, move || {
        counter.fetch_add(1, Ordering::Relaxed);
        queens(7)
    })
    .unwrap();
    assert_eq!(solver.count(), 40);
    assert_eq!(
        builds.load(Ordering::Relaxed),
        1,
        "one thread searches its own copy"
    );
    solver.set_threads(3).unwrap();
    assert_eq!(solver.count(), 40);
    // The split's copy and one per worker at least: the count ran on the workers.
    assert!(builds.load(Ordering::Relaxed) >= 4, "{builds:?}");
    let settled = builds.load(Ordering::Relaxed);
    // A limit would apply to each subproblem on its own: the run stays here.
    solver.config_mut().limits.solutions = Some(5);
    assert_eq!(solver.count(), 5);
    assert_eq!(builds.load(Ordering::Relaxed), settled);
}

#[test]
fn a_brancher_made_per_copy_reaches_every_worker_and_a_single_one_stays_here() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let (builds, makes) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (b, k) = (builds.clone(), makes.clone());
    let mut solver = Solver::parallel(3, move || {
        b.fetch_add(1, Ordering::Relaxed);
        queens(8)
    })
    .unwrap()
    .brancher_per_copy(move |m: &Model| {
        k.fetch_add(1, Ordering::Relaxed);
        LargestValue(m.vars())
    });
    assert_eq!(solver.count(), 92); // OEIS A000170
    // This solver's brancher, the split's and one per worker that ran.
    assert!(makes.load(Ordering::Relaxed) >= 3, "{makes:?}");
    // The brancher leads here too: the last column first for the first queen.
    assert_eq!(solver.first().unwrap()[solver.model().vars()[0]], 7);

    // One brancher object cannot be copied: the run searches here, building nothing more.
    builds.store(0, Ordering::Relaxed);
    let b = builds.clone();
    let solver = Solver::parallel(3, move || {
        b.fetch_add(1, Ordering::Relaxed);
        queens(8)
    })
    .unwrap();
    let vars = solver.model().vars();
    let mut solver = solver.brancher(LargestValue(vars));
    assert_eq!(solver.count(), 92);
    assert_eq!(
        builds.load(Ordering::Relaxed),
        1,
        "only this solver's own copy"
    );
}

#[test]
fn a_solver_made_from_a_model_refuses_threads_it_cannot_use() {
    let mut solver = Solver::new(queens(6).unwrap());
    assert_eq!(solver.threads(), 1);
    assert!(solver.set_threads(1).is_ok());
    let e = solver.set_threads(4).unwrap_err();
    assert!(e.to_string().contains("Solver::parallel"), "{e}");
    assert!(solver.count_resumable(None, |_, _| {}).is_err());
    assert_eq!(solver.count(), 4);
}

#[test]
fn a_model_the_builder_cannot_make_is_its_error() {
    let e = Solver::parallel(2, || {
        Err(ModelError::InvalidArgument {
            reason: "no model today".to_string(),
        })
    });
    assert_eq!(e.unwrap_err().to_string(), "no model today");
}

#[test]
fn counts_resume_from_the_checkpoint_of_the_same_solver() {
    let path = std::env::temp_dir().join(format!(
        "bezzel-threads-{}-{}.ckpt",
        std::process::id(),
        line!()
    ));
    let _ = std::fs::remove_file(&path);
    let solver = Solver::parallel(2, || queens(8)).unwrap();
    let first = solver.count_resumable(Some(&path), |_, _| {}).unwrap();
    assert_eq!(first.counts, [92]);
    assert!(first.solved() > 0);
    let again = solver.count_resumable(Some(&path), |_, _| {}).unwrap();
    assert_eq!((again.counts, again.solved()), ([92], 0));
    // A checkpoint of another model is refused, not added to.
    let other = Solver::parallel(2, || queens(9)).unwrap();
    assert!(other.count_resumable(Some(&path), |_, _| {}).is_err());
    std::fs::remove_file(&path).unwrap();
}

fn model_spec() -> impl Strategy<Value = ModelSpec> {
    brute::spec::model_spec(Shape {
        vars: 2..=5,
        values: (-3..=4i32).boxed(),
        max_values: 5,
        constraints: 0..=3,
        kinds: Kinds::All,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// Counts and optima on threads equal the brute-force ones, and those of one thread.
    #[test]
    fn counts_and_optima_on_threads_match_brute_force(spec in model_spec()) {
        let expected = spec.brute_force();
        let minimum = expected.iter().map(|a| a[0]).min();
        let maximum = expected.iter().map(|a| a[1]).max();
        for threads in [1, 3] {
            let built = spec.clone();
            let mut solver = match Solver::parallel(threads, move || built.try_build().map(|(m, _)| m)) {
                Ok(solver) => solver,
                Err(_) => return Ok(()), // a constraint the engine refuses: nothing to count
            };
            prop_assert_eq!(solver.count(), expected.len() as u64, "{} threads", threads);
            let vars = solver.model().vars();
            let best = solver.minimize(vars[0]).unwrap().finish();
            prop_assert_eq!(best.value, minimum, "{} threads: minimum", threads);
            prop_assert_eq!(best.optimal, minimum.is_some());
            prop_assert_eq!(best.infeasible, minimum.is_none());
            if let Some(s) = &best.solution {
                prop_assert!(expected.contains(&s.values_of(&vars)));
            }
            let mut run = solver.maximize(vars[1]).unwrap();
            let mut previous = None;
            for s in run.by_ref() {
                let value = s[vars[1]];
                prop_assert!(previous.is_none_or(|p| value > p), "{} after {:?}", value, previous);
                prop_assert!(expected.contains(&s.values_of(&vars)));
                previous = Some(value);
            }
            prop_assert_eq!(run.best_value(), maximum);
            prop_assert_eq!(run.is_optimal(), maximum.is_some());
        }
    }
}
