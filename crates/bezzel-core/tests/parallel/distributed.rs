//! Parallel searches on the distributed runner, with ranks as threads talking over channels
//! (the MPI transport, in `bezzel-mpi`, only carries the same bytes): counts equal A000170's,
//! and a run stopped midway resumes from the coordinator's checkpoint without counting
//! anything twice. The protocol's own tests are bezzel-runner's.

use bezzel_core::parallel::{ParallelError, ParallelSearch, RunError, RunReport, Runner, Solved};
use bezzel_core::prelude::*;
use bezzel_runner::cluster::{ThreadRank, on_thread_ranks};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The model of queens `n`, made anew at each call.
fn queens(n: usize) -> impl Fn() -> Result<Model, ModelError> + Sync {
    move || crate::queens(n, Consistency::Value).map(|(m, _)| m)
}

/// A distributed count of `n` queens on `cluster`, the split made (on rank 0) for every
/// thread of every rank; `stop_after` raises rank 0's cancel flag once that many
/// subproblems are done.
fn count(
    n: usize,
    cluster: &ThreadRank,
    checkpoint: Option<&Path>,
    stop_after: Option<usize>,
) -> Result<RunReport<1>, RunError<ParallelError>> {
    let cancel = AtomicBool::new(false);
    let mut runner = Runner::new()
        .threads(Some(1))
        .cancel(&cancel)
        .cluster(cluster);
    if let Some(path) = checkpoint {
        runner = runner.checkpoint(path, format!("queens {n}"));
    }
    let search = ParallelSearch::new(format!("queens {n}"), queens(n))
        .threads(Some(runner.total_threads()))
        .per_worker(20);
    let solved = AtomicUsize::new(0);
    runner.open(|| search.subproblems())?.run_distributed(
        || Solver::new(queens(n)().unwrap()),
        |solver, sub, _| {
            let count = solver.count_in(&sub.decisions)?;
            Ok(Some(Solved::new([count])))
        },
        |done, _| {
            // The first call says what was done before the run.
            if done > 0
                && stop_after.is_some_and(|k| solved.fetch_add(1, Ordering::Relaxed) + 1 >= k)
            {
                cancel.store(true, Ordering::Relaxed);
            }
        },
    )
}

#[test]
fn three_ranks_count_a000170() {
    for (n, expected) in [(6, 4), (8, 92), (9, 352)] {
        let reports = on_thread_ranks(3, |rank| count(n, rank, None, None).unwrap());
        assert!(reports[0].is_complete());
        assert_eq!(reports[0].counts, [expected], "n = {n}");
        // Workers report nothing: only the coordinator has the totals.
        assert!(reports[1..].iter().all(|r| r.counts == [0] && r.total == 0));
    }
}

#[test]
fn one_rank_is_the_thread_runner() {
    let reports = on_thread_ranks(1, |rank| count(8, rank, None, None).unwrap());
    assert_eq!(reports[0].counts, [92]);
}

#[test]
fn a_stopped_run_resumes_from_the_coordinators_checkpoint() {
    let path = std::env::temp_dir().join(format!("bezzel-distributed-{}.ckpt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let first = on_thread_ranks(3, |rank| count(10, rank, Some(&path), Some(5)).unwrap());
    assert!(!first[0].is_complete(), "stopped after a few subproblems");
    assert!(first[0].done >= 5);
    let second = on_thread_ranks(3, |rank| count(10, rank, Some(&path), None).unwrap());
    std::fs::remove_file(&path).unwrap();
    assert!(second[0].is_complete());
    assert_eq!(second[0].resumed, first[0].done);
    assert_eq!(
        second[0].total, first[0].total,
        "the recorded split is kept"
    );
    assert_eq!(second[0].counts, [724]);
}
