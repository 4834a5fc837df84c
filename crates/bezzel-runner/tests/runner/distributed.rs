//! The distributed protocol with ranks as threads talking over channels (the MPI transport,
//! in `bezzel-mpi`, only carries the same bytes): a worker's error stops the run and names the
//! subproblem, rounds of items come back in order, and thousands of subproblems far shorter
//! than a round trip are each counted once.

use bezzel_runner::cluster::on_thread_ranks;
use bezzel_runner::distributed::map_round;
use bezzel_runner::{Cluster, RunError, Runner, Solved};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

#[test]
fn a_workers_error_stops_the_run_and_names_it() {
    // Rank 0's thread waits until a worker has had a subproblem, so the workers get some.
    let worker_started = AtomicBool::new(false);
    let reports = on_thread_ranks(3, |rank| {
        let me = rank.rank();
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
    // Many short rounds: a worker that finishes one starts the next at once, while rank 0 may
    // still wait on another worker (a request of the next round must not reach this one).
    let mut chunks: Vec<Vec<u64>> = vec![(0..50).collect(), (50..57).collect(), vec![]];
    chunks.extend((0..40).map(|i| (57 + 3 * i..60 + 3 * i).collect()));
    let results = on_thread_ranks(3, |rank| {
        let cancel = AtomicBool::new(false);
        let me = rank.rank() as u64;
        let answer = |_: &mut (), &x: &u64| (x * x, me);
        let mut answers = Vec::new();
        if rank.rank() == 0 {
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
    let reports = on_thread_ranks(3, |rank| {
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
