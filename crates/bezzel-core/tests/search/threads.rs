//! A solver that searches on threads (`Solver::parallel`): counts equal the published queens
//! counts and brute force on random models, optima and solution sets equal brute force, on
//! any number of threads; the solutions iterator stops its workers when dropped; an
//! objective may come from any build of the model; and what needs a builder says so.

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

/// Three different digits of `0..=5` with `x + y + z >= 7`, and `cost = 3x + 2y + z`.
fn cheapest_digits() -> Result<Model, ModelError> {
    let mut m = Model::new();
    let v = m.named_vars("v", 3, 0..=5)?;
    let cost = m.named_var("cost", 0..=30)?;
    m.all_different(&v)?;
    m.post(sum(&v).ge(7))?;
    m.post(cost.eq(3 * v[0] + 2 * v[1] + v[2]))?;
    Ok(m)
}

/// The least and largest `3x + 2y + z` of [`cheapest_digits`], by enumeration.
fn cheapest_digits_by_brute_force() -> (i32, i32) {
    let mut costs = Vec::new();
    for x in 0..=5 {
        for y in 0..=5 {
            for z in 0..=5 {
                if x != y && y != z && x != z && x + y + z >= 7 {
                    costs.push(3 * x + 2 * y + z);
                }
            }
        }
    }
    (*costs.iter().min().unwrap(), *costs.iter().max().unwrap())
}

#[test]
fn an_objective_from_another_build_names_the_same_variable_on_threads_and_in_the_lower_layer() {
    use bezzel_core::parallel::ParallelSearch;
    let (least, largest) = cheapest_digits_by_brute_force();
    // The caller's own build, not the solver's nor any worker's.
    let cost = cheapest_digits().unwrap().vars()[3];
    for threads in [1, 3] {
        let mut solver = Solver::parallel(threads, cheapest_digits).unwrap();
        let best = solver.minimize(cost).unwrap().finish();
        assert_eq!(
            (best.value, best.optimal),
            (Some(least), true),
            "{threads} threads"
        );
        let s = best.solution.unwrap();
        assert_eq!(s[cost], least, "read with the caller's variable");
        let best = solver.maximize(cost.offset(1)).unwrap().finish();
        assert_eq!(best.value, Some(largest + 1), "{threads} threads, a view");
    }
    let search = ParallelSearch::new("digits", cheapest_digits).threads(Some(2));
    let subproblems = search.subproblems().unwrap();
    let best = search
        .minimize(&subproblems, cost, None, |_, _| {})
        .unwrap();
    assert_eq!(best.value, Some(least));
}

#[test]
fn a_solution_set_on_threads_is_read_with_the_variables_of_any_build() {
    // The caller's own build, not the solver's nor any worker's.
    let v: Vec<VarId> = cheapest_digits().unwrap().vars()[..3].to_vec();
    let mut expected = String::new();
    for x in 0..=5 {
        for y in 0..=5 {
            for z in 0..=5 {
                if x != y && y != z && x != z && x + y + z >= 7 {
                    expected.push_str(&format!("v[0]={x} v[1]={y} v[2]={z}\n"));
                }
            }
        }
    }
    for threads in [1, 3] {
        let mut solver = Solver::parallel(threads, cheapest_digits).unwrap();
        let set = solver.solution_set_of(&v).unwrap();
        assert_eq!(set.to_string(), expected, "{threads} threads");
    }
    // A position the model lacks is refused as for an objective.
    let mut larger = Model::new();
    let beyond = larger.int_vars(10, 0..=1).unwrap()[9];
    let mut solver = Solver::parallel(2, cheapest_digits).unwrap();
    let refused = solver.solution_set_of(&[v[0], beyond]).unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("variable #9 is of another model")
    );
    // A solver made from one model reads that model's variables only.
    let mut alone = Solver::new(cheapest_digits().unwrap());
    assert!(matches!(
        alone.solution_set_of(&v),
        Err(ModelError::ForeignVariable { index: 0 })
    ));
}

#[test]
fn an_objective_at_a_position_the_model_lacks_is_refused_by_both_layers_alike() {
    use bezzel_core::parallel::ParallelSearch;
    // Variable #9 of a larger model: the digits model has 4 declared variables and the
    // expression's auxiliaries, fewer than 10.
    let mut larger = Model::new();
    let beyond = larger.int_vars(10, 0..=1).unwrap()[9];
    let mut solver = Solver::parallel(2, cheapest_digits).unwrap();
    let on_threads = solver.minimize(beyond).unwrap_err().to_string();
    assert!(
        on_threads.contains("variable #9 is of another model"),
        "{on_threads}"
    );
    let search = ParallelSearch::new("digits", cheapest_digits).threads(Some(2));
    let subproblems = search.subproblems().unwrap();
    let lower = search
        .minimize(&subproblems, beyond, None, |_, _| {})
        .unwrap_err()
        .to_string();
    assert_eq!(lower, on_threads);
    // A solver made from one model searches that model only: another build's variable is
    // not its own.
    let mut alone = Solver::new(cheapest_digits().unwrap());
    let foreign = cheapest_digits().unwrap().vars()[3];
    assert!(matches!(
        alone.minimize(foreign),
        Err(ModelError::ForeignVariable { index: 3 })
    ));
}

/// Whether `columns` (row `i`'s queen in column `columns[i]`) places queens that no two
/// attack one another: checked square by square, apart from the engine's model.
fn no_two_attack(columns: &[i32]) -> bool {
    columns.iter().enumerate().all(|(i, &a)| {
        columns[i + 1..]
            .iter()
            .enumerate()
            .all(|(d, &b)| a != b && (a - b).abs() != d as i32 + 1)
    })
}

#[test]
fn solutions_on_threads_come_once_each_and_are_the_one_thread_solutions() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    // OEIS A000170: 4, 40 and 92 placements of 6, 7 and 8 queens.
    for (n, published) in [(6, 4), (7, 40), (8, 92)] {
        for threads in [2, 3, 0] {
            let builds = Arc::new(AtomicUsize::new(0));
            let counter = builds.clone();
            let mut solver = Solver::parallel(threads, move || {
                counter.fetch_add(1, Ordering::Relaxed);
                queens(n)
            })
            .unwrap();
            let q = solver.model().vars();
            let mut found: Vec<Vec<i32>> = solver.solutions().map(|s| s.values_of(&q)).collect();
            // The split's copy and the workers' besides the solver's own: they ran.
            assert!(builds.load(Ordering::Relaxed) >= 3, "{builds:?}");
            assert_eq!(found.len(), published, "n = {n}, {threads} threads");
            assert_eq!(solver.stats().solutions, published as u64);
            assert!(solver.stats().is_complete());
            assert!(found.iter().all(|c| no_two_attack(c)), "n = {n}");
            found.sort();
            found.dedup();
            assert_eq!(found.len(), published, "n = {n}: a solution came twice");
            solver.set_threads(1).unwrap();
            let mut here: Vec<Vec<i32>> = solver.solutions().map(|s| s.values_of(&q)).collect();
            here.sort();
            assert_eq!(found, here, "n = {n}, {threads} threads against one");
        }
    }
}

/// Sixteen digits with nothing between them: 10^16 solutions, more than any run here sees.
fn endless() -> Result<Model, ModelError> {
    let mut m = Model::new();
    m.int_vars(16, 0..=9)?;
    Ok(m)
}

/// Runs `body` on a thread of its own and fails unless it ends within a minute: what a run
/// on workers that would not stop looks like.
fn ends_within_a_minute(what: &str, body: impl FnOnce() + Send + 'static) {
    let (done, ended) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        body();
        let _ = done.send(());
    });
    assert!(
        ended
            .recv_timeout(std::time::Duration::from_secs(60))
            .is_ok(),
        "{what}: the workers did not stop"
    );
}

/// Sixteen equal digits: 10 solutions among 10^16 leaves, each seen only at a leaf (a
/// `check` prunes nothing before its variables are fixed), so that most workers search on
/// without ever finding one.
fn rare() -> Result<Model, ModelError> {
    let mut m = Model::new();
    let digits = m.int_vars(16, 0..=9)?;
    m.check(&digits, |v| v.iter().all(|&d| d == v[0]))?;
    Ok(m)
}

#[test]
fn a_dropped_solutions_iterator_stops_the_workers() {
    // Workers that wait for room in the channel, and workers that search without finding.
    for (what, build) in [("endless", endless as fn() -> _), ("rare", rare)] {
        ends_within_a_minute(what, move || {
            let mut solver = Solver::parallel(3, build).unwrap();
            let vars = solver.model().vars();
            let first: Vec<Vec<i32>> = solver
                .solutions()
                .take(1)
                .map(|s| s.values_of(&vars))
                .collect();
            assert_eq!(first.len(), 1);
            // The solver is free again: the run before it is over.
            solver.config_mut().limits.solutions = Some(1);
            assert_eq!(solver.count(), 1);
        });
    }
}

#[test]
fn the_solvers_cancel_flag_ends_a_solutions_run_on_threads_and_stays_its_own() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    ends_within_a_minute("cancelled", || {
        let mut solver = Solver::parallel(3, endless).unwrap();
        let flag = Arc::new(AtomicBool::new(false));
        solver.set_cancel_flag(flag.clone());
        let mut run = solver.solutions();
        assert!(run.next().is_some());
        flag.store(true, Ordering::Relaxed);
        // What the workers found before they stopped, then the end.
        let _ = run.by_ref().count();
        drop(run);
        assert_eq!(solver.stats().stopped, Some(StopReason::Cancelled));
        // A dropped iterator lowers no flag of the caller's and raises none.
        flag.store(false, Ordering::Relaxed);
        let _ = solver.solutions().take(2).count();
        assert!(!flag.load(Ordering::Relaxed));
    });
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
            let mut found: Vec<Vec<i32>> = solver.solutions().map(|s| s.values_of(&vars)).collect();
            found.sort();
            let all: Vec<Vec<i32>> = expected.iter().cloned().collect(); // in order
            prop_assert_eq!(found, all, "{} threads: the solutions", threads);
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
