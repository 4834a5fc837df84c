//! The distributed runner's protocol, with ranks as threads talking over channels (the MPI
//! transport, in `bezzel-mpi`, only carries the same bytes): counts equal A000170's, a run
//! stopped midway resumes from the coordinator's checkpoint without counting anything twice,
//! and a worker's error stops the run and names the subproblem.

use bezzel_core::parallel::{
    Cluster, ParallelError, ParallelSearch, RunError, RunReport, Runner, Solved,
};
use bezzel_core::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};

/// One rank of a cluster of threads.
#[derive(Debug)]
struct ThreadRank {
    rank: usize,
    to: Vec<Sender<(usize, Vec<u8>)>>,
    inbox: Receiver<(usize, Vec<u8>)>,
}

impl Cluster for ThreadRank {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.to.len()
    }

    fn send(&self, to: usize, message: &[u8]) -> Result<(), String> {
        self.to[to]
            .send((self.rank, message.to_vec()))
            .map_err(|e| e.to_string())
    }

    fn try_receive(&self) -> Result<Option<(usize, Vec<u8>)>, String> {
        Ok(self.inbox.try_recv().ok())
    }
}

/// `size` ranks, each running `job` on a thread of its own; the results in rank order.
fn on_ranks<T: Send>(size: usize, job: impl Fn(&ThreadRank) -> T + Sync) -> Vec<T> {
    let (to, inboxes): (Vec<_>, Vec<_>) = (0..size).map(|_| channel()).unzip();
    let ranks: Vec<ThreadRank> = inboxes
        .into_iter()
        .enumerate()
        .map(|(rank, inbox)| ThreadRank {
            rank,
            to: to.clone(),
            inbox,
        })
        .collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = ranks
            .into_iter()
            .map(|rank| {
                let job = &job;
                scope.spawn(move || job(&rank))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

fn queens(n: usize) -> impl Fn() -> Result<Model, ModelError> + Sync {
    move || {
        let mut m = Model::new();
        let q = m.int_vars(n, 0..n as i32)?;
        let up: Vec<IntView> = q
            .iter()
            .enumerate()
            .map(|(i, x)| x.offset(i as i32))
            .collect();
        let down: Vec<IntView> = q
            .iter()
            .enumerate()
            .map(|(i, x)| x.offset(-(i as i32)))
            .collect();
        m.all_different(&q)?;
        m.all_different(&up)?;
        m.all_different(&down)?;
        Ok(m)
    }
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
        let reports = on_ranks(3, |rank| count(n, rank, None, None).unwrap());
        assert!(reports[0].is_complete());
        assert_eq!(reports[0].counts, [expected], "n = {n}");
        // Workers report nothing: only the coordinator has the totals.
        assert!(reports[1..].iter().all(|r| r.counts == [0] && r.total == 0));
    }
}

#[test]
fn one_rank_is_the_thread_runner() {
    let reports = on_ranks(1, |rank| count(8, rank, None, None).unwrap());
    assert_eq!(reports[0].counts, [92]);
}

#[test]
fn a_stopped_run_resumes_from_the_coordinators_checkpoint() {
    let path = std::env::temp_dir().join(format!("bezzel-distributed-{}.ckpt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let first = on_ranks(3, |rank| count(10, rank, Some(&path), Some(5)).unwrap());
    assert!(!first[0].is_complete(), "stopped after a few subproblems");
    assert!(first[0].done >= 5);
    let second = on_ranks(3, |rank| count(10, rank, Some(&path), None).unwrap());
    std::fs::remove_file(&path).unwrap();
    assert!(second[0].is_complete());
    assert_eq!(second[0].resumed, first[0].done);
    assert_eq!(
        second[0].total, first[0].total,
        "the recorded split is kept"
    );
    assert_eq!(second[0].counts, [724]);
}

#[test]
fn a_workers_error_stops_the_run_and_names_it() {
    // Rank 0's thread waits until a worker has had a subproblem, so the workers get some.
    let worker_started = AtomicBool::new(false);
    let reports = on_ranks(3, |rank| {
        let me = rank.rank;
        let sizes: Vec<usize> = (0..60).collect();
        Runner::new()
            .threads(Some(1))
            .cluster(rank)
            .batch_of::<usize, 1>(sizes)
            .run_distributed(
                || (),
                |_, &i, _| {
                    if me == 0 {
                        while !worker_started.load(Ordering::Relaxed) {
                            std::thread::yield_now();
                        }
                        return Ok(Some(Solved::new([1])));
                    }
                    worker_started.store(true, Ordering::Relaxed);
                    Err(format!("rank {me} refuses {i}"))
                },
                |_, _| {},
            )
    });
    match &reports[0] {
        Err(RunError::Remote {
            index,
            rank,
            message,
        }) => assert_eq!(message, &format!("rank {rank} refuses {index}")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn rounds_of_items_come_back_in_order_from_every_rank() {
    use bezzel_core::parallel::distributed::map_round;
    // Many short rounds: a worker that finishes one starts the next at once, while rank 0 may
    // still wait on another worker (a request of the next round must not reach this one).
    let mut chunks: Vec<Vec<u64>> = vec![(0..50).collect(), (50..57).collect(), vec![]];
    chunks.extend((0..40).map(|i| (57 + 3 * i..60 + 3 * i).collect()));
    let results = on_ranks(3, |rank| {
        let cancel = AtomicBool::new(false);
        let me = rank.rank as u64;
        let answer = |_: &mut (), &x: &u64| (x * x, me);
        let mut answers = Vec::new();
        if rank.rank == 0 {
            for chunk in &chunks {
                let round = map_round(rank, 1, &cancel, Some(chunk), || (), answer).unwrap();
                answers.extend(round.unwrap());
            }
            assert!(
                map_round(rank, 1, &cancel, None::<&[u64]>, || (), answer)
                    .unwrap()
                    .is_none()
            );
        } else {
            let mut rounds = 0;
            while map_round(rank, 2, &cancel, None::<&[u64]>, || (), answer)
                .unwrap()
                .is_some()
            {
                rounds += 1;
            }
            assert_eq!(rounds, chunks.len(), "a worker takes part in every round");
        }
        answers
    });
    let squares: Vec<u64> = results[0].iter().map(|a| a.unwrap().0).collect();
    assert_eq!(squares, (0..177u64).map(|x| x * x).collect::<Vec<_>>());
}

#[test]
fn thousands_of_tiny_subproblems_are_each_counted_once() {
    // Subproblems far shorter than a round trip: the workers ask for more requests as their
    // threads run dry (see `Requests`), and the coordinator must answer every one of them.
    const TOTAL: usize = 4000;
    // A request left unanswered hangs the ranks: fail instead of waiting for ever.
    let finished = std::sync::Arc::new(AtomicBool::new(false));
    let watched = finished.clone();
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(120));
        if !watched.load(Ordering::Relaxed) {
            eprintln!("thousands_of_tiny_subproblems: no answer after 120 s (a request was lost)");
            std::process::exit(101);
        }
    });
    let seen: Vec<AtomicUsize> = (0..TOTAL).map(|_| AtomicUsize::new(0)).collect();
    let reports = on_ranks(3, |rank| {
        Runner::new()
            .threads(Some(2))
            .cluster(rank)
            .batch_of::<usize, 1>((0..TOTAL).collect())
            .run_distributed(
                || (),
                |_, &i, _| {
                    seen[i].fetch_add(1, Ordering::Relaxed);
                    Ok::<_, String>(Some(Solved::new([i as u64])))
                },
                |_, _| {},
            )
            .unwrap()
    });
    let expected: u64 = (0..TOTAL as u64).sum();
    assert_eq!(reports[0].counts, [expected]);
    assert_eq!(reports[0].done, TOTAL);
    assert!(seen.iter().all(|s| s.load(Ordering::Relaxed) == 1));
    finished.store(true, Ordering::Relaxed);
}
