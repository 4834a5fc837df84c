//! Parallel search and subproblems: the same counts and solution sets as sequential search.

use bezzel_core::parallel::{ParallelCount, ParallelError, ParallelSearch, Subproblem};
use bezzel_core::prelude::*;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

fn queens(n: usize) -> Result<Model, ModelError> {
    crate::queens(n, Consistency::Value).map(|(m, _)| m)
}

/// Queens `n` split for `threads` workers (30 subproblems each) and counted in parallel.
fn count_split(n: usize, threads: usize) -> (Vec<Subproblem>, ParallelCount) {
    let search = ParallelSearch::new(format!("queens {n}"), || queens(n))
        .threads(Some(threads))
        .per_worker(30);
    let subproblems = search.subproblems().unwrap();
    let result = search.count(&subproblems, None, |_, _| {}).unwrap();
    (subproblems, result)
}

const A000170: [u64; 13] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];

#[test]
fn parallel_queens_counts_equal_sequential_counts() {
    for n in 1..=12 {
        let sequential = Solver::new(queens(n).unwrap()).count();
        assert_eq!(sequential, A000170[n - 1]);
        for threads in [1, 2, 4] {
            let (subproblems, result) = count_split(n, threads);
            assert!(result.complete);
            assert_eq!(result.solutions, sequential, "n = {n}, {threads} threads");
            assert_eq!(result.solved, subproblems.len());
        }
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug builds")]
fn parallel_queens_13() {
    let search = ParallelSearch::new("queens 13", || queens(13)).threads(Some(2));
    let subproblems = search.subproblems().unwrap();
    assert!(subproblems.len() >= 100, "{}", subproblems.len());
    let result = search.count(&subproblems, None, |_, _| {}).unwrap();
    assert_eq!(result.solutions, 73712);
}

/// The subproblems partition the solutions: each solution lies below exactly one prefix.
#[test]
fn subproblems_partition_the_solution_set() {
    let mut solver = Solver::new(queens(8).unwrap());
    let all: BTreeSet<Vec<i32>> = solver.solutions().map(|s| s.values().to_vec()).collect();
    let prefixes = solver.split(40).expect("no cancel flag");
    assert!(prefixes.len() >= 40);
    let mut seen = BTreeSet::new();
    for p in &prefixes {
        for s in solver.solutions_in(p).unwrap() {
            assert!(
                seen.insert(s.values().to_vec()),
                "solution below two prefixes"
            );
        }
    }
    assert_eq!(seen, all);
}

#[test]
fn subproblems_travel_as_data_and_are_checked() {
    let search = ParallelSearch::new("queens 6", || queens(6)).threads(Some(1));
    let subproblems = search.subproblems().unwrap();
    let json = serde_json::to_string(&subproblems).unwrap();
    let back: Vec<Subproblem> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, subproblems);
    // Solved elsewhere, merged here.
    let mut solver = Solver::new(queens(6).unwrap());
    let merged: u64 = back
        .iter()
        .map(|s| solver.count_in(&s.decisions).unwrap())
        .sum();
    assert_eq!(merged, 4);
    // A subproblem of another model is refused; so is one naming a missing variable.
    let other = ParallelSearch::new("queens 7", || queens(7));
    assert!(other.count(&subproblems, None, |_, _| {}).is_err());
    let bad: Vec<Decision> = serde_json::from_str(r#"[{"Assign":[99,0]}]"#).unwrap();
    assert!(solver.count_in(&bad).is_err());
    let foreign = queens(6).unwrap().vars()[0];
    assert!(solver.count_in(&[Decision::Assign(foreign, 0)]).is_err());
    assert!(matches!(
        ParallelSearch::new("q", || queens(4))
            .threads(Some(0))
            .subproblems(),
        Err(bezzel_core::parallel::ParallelError::ZeroThreads)
    ));
}

#[test]
fn cancelled_runs_count_only_finished_subproblems() {
    let search = ParallelSearch::new("queens 10", || queens(10)).threads(Some(2));
    let subproblems = search.subproblems().unwrap();
    let cancel = Arc::new(AtomicBool::new(false));
    let solved = AtomicUsize::new(0);
    let finished = std::sync::Mutex::new(Vec::new());
    let result = search
        .count(&subproblems, Some(cancel.clone()), |sub, count| {
            finished.lock().unwrap().push((sub.index, count));
            if solved.fetch_add(1, Ordering::Relaxed) + 1 == 10 {
                cancel.store(true, Ordering::Relaxed);
            }
        })
        .unwrap();
    assert!(!result.complete);
    let finished = finished.into_inner().unwrap();
    assert_eq!(result.solved, finished.len());
    assert_eq!(result.solutions, finished.iter().map(|f| f.1).sum::<u64>());
    // Finishing the rest gives the exact total.
    let done: BTreeSet<usize> = finished.iter().map(|f| f.0).collect();
    let rest: Vec<Subproblem> = subproblems
        .iter()
        .filter(|s| !done.contains(&s.index))
        .cloned()
        .collect();
    let second = search.count(&rest, None, |_, _| {}).unwrap();
    assert_eq!(result.solutions + second.solutions, 724);
}

/// A subproblem handed in twice (by index, or under another index) would be counted twice.
#[test]
fn repeated_subproblems_are_refused_not_counted_twice() {
    let search = ParallelSearch::new("queens 8", || queens(8)).threads(Some(2));
    let subproblems = search.subproblems().unwrap();
    let with_solutions = subproblems
        .iter()
        .position(|s| {
            Solver::new(queens(8).unwrap())
                .count_in(&s.decisions)
                .unwrap()
                > 0
        })
        .unwrap();
    let mut same_index = subproblems.clone();
    same_index.push(subproblems[with_solutions].clone());
    let mut same_decisions = subproblems.clone();
    let mut copy = subproblems[with_solutions].clone();
    copy.index = subproblems.len();
    same_decisions.push(copy);
    for twice in [same_index, same_decisions] {
        assert_refused_as_duplicate(&search, &twice);
    }
    assert_eq!(
        search
            .count(&subproblems, None, |_, _| {})
            .unwrap()
            .solutions,
        92
    );
}

/// The depth of a split run counts each subproblem's decisions, as sequential search has them
/// on its stack. A prefix names a fixed variable once (`x = v` for a chain `x != 0`, ...,
/// `x = v`), so the depth is at most sequential search's, and at least the longest prefix.
#[test]
fn parallel_max_depth_counts_the_subproblem_decisions() {
    for n in [8, 10, 11, 12] {
        let mut sequential = Solver::new(queens(n).unwrap());
        sequential.count();
        let deepest = sequential.stats().max_depth;
        for threads in [1, 2, 4] {
            let (subproblems, result) = count_split(n, threads);
            let depth = result.stats.max_depth;
            let longest_prefix = subproblems.iter().map(|s| s.decisions.len()).max().unwrap();
            assert!(
                depth > longest_prefix as u64 && depth <= deepest,
                "n = {n}, {threads} threads: depth {depth}, longest prefix {longest_prefix}, sequential {deepest}"
            );
        }
    }
}

/// Issue 11 (bounded memory): a split used to grow about as n⁴ (the rightmost chain of right
/// branches ran on through every variable, and each prefix repeated the whole path), so
/// `queens count 300 --engine model` aborted on an allocation before any work. Now a split of
/// n queens into 100 pieces has about n of them, each a few decisions long.
#[test]
fn splits_of_large_models_stay_small() {
    for n in [80, 300, 1000] {
        let (m, _) = crate::queens(n, Consistency::Value).unwrap();
        let prefixes = Solver::new(m).split(100).expect("no cancel flag");
        let decisions: usize = prefixes.iter().map(Vec::len).sum();
        assert!(prefixes.len() >= 100, "n = {n}: {} pieces", prefixes.len());
        assert!(
            prefixes.len() <= 80 * 80,
            "n = {n}: {} pieces",
            prefixes.len()
        );
        assert!(
            decisions <= 4 * prefixes.len(),
            "n = {n}: {decisions} decisions in {} pieces",
            prefixes.len()
        );
    }
}

/// Found by a tester: a subproblem with no decisions (the whole tree) or with another's
/// decisions in another order was counted on top of the others.
#[test]
fn overlapping_subproblems_are_refused_not_counted_twice() {
    let search = ParallelSearch::new("queens 6", || queens(6)).threads(Some(2));
    let subproblems = search.subproblems().unwrap();
    let deepest = subproblems
        .iter()
        .max_by_key(|s| s.decisions.len())
        .unwrap()
        .clone();
    assert!(deepest.decisions.len() >= 2, "{deepest:?}");
    let extra = |decisions: Vec<Decision>| {
        let mut all = subproblems.clone();
        all.push(Subproblem {
            index: subproblems.len(),
            decisions,
            ..deepest.clone()
        });
        all
    };
    let mut reversed = deepest.decisions.clone();
    reversed.reverse();
    for overlapping in [
        extra(Vec::new()),
        extra(reversed),
        extra(deepest.decisions[..1].to_vec()),
    ] {
        assert_refused_as_duplicate(&search, &overlapping);
    }
    let all = search.count(&subproblems, None, |_, _| {}).unwrap();
    assert_eq!(all.solutions, A000170[5]);
}

/// Splitting a large model takes time of its own: a raised cancel flag stops it with an
/// error, never with part of a split (whose subproblems would miss solutions), and a lowered
/// one changes nothing.
#[test]
fn a_cancelled_split_is_an_error_not_a_smaller_split() {
    let flag = Arc::new(AtomicBool::new(true));
    let search = ParallelSearch::new("queens 60", || queens(60))
        .threads(Some(2))
        .cancel_flag(flag.clone());
    assert_eq!(search.subproblems(), Err(ParallelError::Cancelled));
    let mut solver = Solver::new(queens(60).unwrap());
    solver.set_cancel_flag(flag.clone());
    assert_eq!(solver.split(100), None);
    flag.store(false, Ordering::Relaxed);
    let pieces = search.subproblems().unwrap();
    assert!(pieces.len() >= 100, "{}", pieces.len());
    assert_eq!(solver.split(100).map(|s| s.len()), Some(pieces.len()));
}

#[test]
fn a_limit_of_the_configuration_stops_the_run_as_a_limit_not_a_model_error() {
    // Limits apply to each subproblem of a parallel search: one node is less than any
    // subproblem of queens 10 takes (its prefix is applied below the root), so the first one
    // solved stops the run, and the error says which limit, typed.
    let config = SearchConfig {
        limits: Limits {
            nodes: Some(1),
            ..Limits::default()
        },
        ..SearchConfig::default()
    };
    let search = ParallelSearch::new("queens 10", || queens(10))
        .threads(Some(2))
        .config(config);
    let subproblems = search.subproblems().unwrap();
    match search.count(&subproblems, None, |_, _| {}) {
        Err(e @ ParallelError::Limit { index, reason }) => {
            assert_eq!(reason, StopReason::NodeLimit);
            assert!(index < subproblems.len());
            assert!(e.to_string().contains("node limit"), "{e}");
        }
        other => panic!("expected a node limit, got {other:?}"),
    }
    // The same through the resumable count: the subproblem's error, with its index.
    match search.count_resumable(None, None, |_, _| {}) {
        Err(bezzel_core::parallel::RunError::Solve {
            index,
            error: ParallelError::Limit { index: limited, .. },
        }) => assert_eq!(index, limited),
        other => panic!("expected a node limit, got {other:?}"),
    }
}

/// Counting `subproblems` is refused: some subproblem would be counted twice.
fn assert_refused_as_duplicate(
    search: &ParallelSearch<impl Fn() -> Result<Model, ModelError> + Sync>,
    subproblems: &[Subproblem],
) {
    let result = search.count(subproblems, None, |_, _| {});
    assert!(
        matches!(result, Err(ParallelError::DuplicateSubproblem { .. })),
        "{result:?}"
    );
}
