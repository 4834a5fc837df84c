//! The runner on many processes: a [`Batch`] whose subproblems are handed out, one at a time
//! and on request, to the ranks of a [`Cluster`] (MPI ranks, through the `bezzel-mpi` crate).
//!
//! Every process runs the same program and makes the same [`Runner`](crate::Runner) with the
//! same cluster. Rank 0, the coordinator, splits the work, keeps the checkpoint, and answers
//! each request of a worker with the next unfinished subproblem (serialised as JSON, so it is
//! the thread pool's own subproblem), while threads of its own solve subproblems too. Each
//! other rank asks for a subproblem per thread and a spare (more when they are short), solves
//! them, and sends back each one's counts and statistics, which is also its request for the
//! next. So fast and slow ranks finish together, and the coordinator records every finished
//! subproblem in the checkpoint as it arrives: a job killed at any point is rerun with the same
//! command and resumes, counting nothing twice (a subproblem is recorded once, by the one
//! process that writes the file).
//!
//! The transport is a small trait ([`Cluster`]), so that the protocol is the same, and tested,
//! without MPI: [`on_thread_ranks`](crate::cluster::on_thread_ranks) runs ranks as threads over
//! channels. A message that is not sent, or not the one the protocol expects, stops the run
//! with a [`ClusterError`].

use crate::cluster::{Cluster, ClusterError};
use crate::runner::{Batch, RunError, RunReport, Shared, Solved};
use crate::stats::Statistics;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

/// How long a process waits before looking for messages again when there were none: short
/// next to any subproblem worth sending to another machine, long enough to cost no CPU.
const POLL: Duration = Duration::from_micros(500);

/// The most requests a worker keeps open per thread (see [`Requests`]).
const MAX_PER_THREAD: usize = 64;

/// A worker's requests to the coordinator. It starts with one per thread and one spare, so
/// that a thread that finishes a long subproblem starts the next at once; the run's tail is
/// at most one subproblem longer for it. When subproblems are short next to a round trip to
/// rank 0 (queens 17's take a millisecond), threads still run dry: each time one does, the
/// result that leaves carries one request more, so the worker holds as many subproblems as
/// a round trip needs. (With one request per thread, the second of two ranks on queens 17
/// was idle 40 % of the time.)
#[derive(Debug)]
struct Requests {
    threads: usize,
    /// Requests made so far (each answered by exactly one `Task` or `Stop`).
    slots: usize,
    /// Requests answered `Stop`: the worker is done when all are.
    stopped: usize,
    /// Subproblems received whose result has not left yet (solving or waiting).
    held: usize,
}

impl Requests {
    fn new(threads: usize) -> Requests {
        Requests {
            threads,
            slots: threads + 1,
            stopped: 0,
            held: 0,
        }
    }

    fn open(&self) -> bool {
        self.stopped < self.slots
    }

    /// A result leaves: the requests to add to it (0 or 1).
    fn more_with_result(&mut self) -> usize {
        self.held = self.held.saturating_sub(1);
        let dry = self.held < self.threads;
        if dry && self.stopped == 0 && self.slots < self.threads * MAX_PER_THREAD {
            self.slots += 1;
            1
        } else {
            0
        }
    }
}

/// What a worker sends to the coordinator.
#[derive(Debug, Serialize, Deserialize)]
enum ToCoordinator {
    /// The worker's first message: it asks for `slots` subproblems (see [`Requests`]).
    Ready { slots: usize },
    /// A subproblem is finished: that is a request for the next, and `more` requests besides.
    Done {
        index: usize,
        outcome: Outcome,
        more: usize,
    },
}

/// How a subproblem ended on a worker.
#[derive(Debug, Serialize, Deserialize)]
enum Outcome {
    /// Solved: its counts and statistics.
    Solved { counts: Vec<u64>, stats: Statistics },
    /// Stopped by the cancel flag: not counted.
    Cancelled,
    /// Could not be solved: the worker's error.
    Failed(String),
}

/// What the coordinator sends to a worker: one `Task` or `Stop` per request, and `Cancel`
/// whenever the run must stop early.
#[derive(Debug, Serialize, Deserialize)]
enum ToWorker<S> {
    /// Solve this subproblem.
    Task { index: usize, subproblem: S },
    /// Nothing more for this request: one of the worker's threads is done.
    Stop,
    /// Stop solving now (the coordinator was cancelled, or a worker failed).
    Cancel,
}

fn encode<T: Serialize>(message: &T) -> Result<Vec<u8>, ClusterError> {
    serde_json::to_vec(message).map_err(|e| ClusterError::Encode {
        reason: e.to_string(),
    })
}

fn decode<T: DeserializeOwned>(from: usize, bytes: &[u8]) -> Result<T, ClusterError> {
    serde_json::from_slice(bytes).map_err(|e| ClusterError::BadMessage {
        from,
        reason: e.to_string(),
    })
}

/// Sends `message` to rank `to`.
fn send(cluster: &dyn Cluster, to: usize, message: &[u8]) -> Result<(), ClusterError> {
    cluster.send(to, message).map_err(ClusterError::transport)
}

/// A message that has arrived, if any.
fn receive(cluster: &dyn Cluster) -> Result<Option<(usize, Vec<u8>)>, ClusterError> {
    cluster.try_receive().map_err(ClusterError::transport)
}

/// A worker's bookkeeping on the coordinator.
#[derive(Debug, Default, Clone, Copy)]
struct Peer {
    /// The requests it said it will make (its threads), once it said so.
    slots: Option<usize>,
    /// The requests answered with `Stop`.
    stopped: usize,
}

impl Peer {
    fn finished(&self) -> bool {
        self.slots == Some(self.stopped)
    }

    /// Takes `more` requests from this worker (rank `from`) for `what`: refused before it
    /// said how many threads it has, and past [`MAX_PER_THREAD`] at once.
    fn grow(&mut self, from: usize, more: usize, what: &str) -> Result<(), ClusterError> {
        match &mut self.slots {
            Some(slots) if more <= MAX_PER_THREAD => {
                *slots += more;
                Ok(())
            }
            _ => Err(ClusterError::out_of_turn(
                from,
                format!("asked for {more} more {what} out of turn"),
            )),
        }
    }
}

/// The sender of a message to the coordinator, which must be one of its workers.
fn from_worker(from: usize, size: usize) -> Result<usize, ClusterError> {
    if from == 0 || from >= size {
        return Err(ClusterError::out_of_turn(
            from,
            "sent the coordinator a message, but is not one of its workers",
        ));
    }
    Ok(from)
}

/// The coordinator's side of the workers: their bookkeeping, and the loop that serves them.
struct Workers<'a> {
    cluster: &'a dyn Cluster,
    cancel: &'a AtomicBool,
    /// One per rank; the coordinator's own threads take no messages.
    peers: Vec<Peer>,
}

impl<'a> Workers<'a> {
    fn new(cluster: &'a dyn Cluster, cancel: &'a AtomicBool) -> Workers<'a> {
        let mut peers = vec![Peer::default(); cluster.size()];
        peers[0].slots = Some(0);
        Workers {
            cluster,
            cancel,
            peers,
        }
    }

    /// Hands each message of a worker to `handle` (with the workers' bookkeeping) until every
    /// worker and every one of the `local` threads is done. Once the cancel flag is raised,
    /// every worker not finished is sent the message `cancelled` makes, once.
    fn serve<T, E: From<ClusterError>>(
        &mut self,
        local: &[std::thread::ScopedJoinHandle<'_, T>],
        cancelled: impl Fn() -> Result<Vec<u8>, ClusterError>,
        mut handle: impl FnMut(usize, &[u8], &mut [Peer]) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut cancel_sent = false;
        loop {
            let mut idle = true;
            while let Some((from, bytes)) = receive(self.cluster)? {
                idle = false;
                handle(
                    from_worker(from, self.peers.len())?,
                    &bytes,
                    &mut self.peers,
                )?;
            }
            if self.cancel.load(Ordering::Relaxed) && !cancel_sent {
                cancel_sent = true;
                let message = cancelled()?;
                for (rank, _) in self.peers.iter().enumerate().filter(|(_, p)| !p.finished()) {
                    send(self.cluster, rank, &message)?;
                }
            }
            if self.peers.iter().all(Peer::finished) && local.iter().all(|h| h.is_finished()) {
                return Ok(());
            }
            if idle {
                std::thread::sleep(POLL);
            }
        }
    }
}

impl<S, const K: usize> Batch<'_, S, K> {
    /// [`Batch::run`] on the processes of the [`Cluster`] the runner was given (without one,
    /// or on a cluster of one process, it is [`Batch::run`]); see the
    /// [module docs](crate::distributed). Every process calls it: on the coordinator it
    /// returns the run's report, with the exact totals; on a worker, an empty report (no
    /// counts, no subproblems), as only the coordinator knows the totals. `progress` is
    /// called on the coordinator only. A worker's error stops the run with
    /// [`RunError::Remote`].
    pub fn run_distributed<T, E, I, F, P>(
        self,
        init: I,
        solve: F,
        progress: P,
    ) -> Result<RunReport<K>, RunError<E>>
    where
        S: Serialize + DeserializeOwned + Sync + Send,
        T: Send,
        E: Send + fmt::Display,
        I: Fn() -> T + Sync + Send,
        F: Fn(&mut T, &S, &AtomicBool) -> Result<Option<Solved<K>>, E> + Sync + Send,
        P: Fn(usize, usize) + Sync,
    {
        match self.cluster {
            Some(cluster) if cluster.size() > 1 => {
                let threads = self.thread_count()?;
                if cluster.rank() == 0 {
                    self.coordinate(cluster, threads, init, solve, progress)
                } else {
                    self.serve(cluster, threads, init, solve)
                }
            }
            _ => self.run(init, solve, progress),
        }
    }

    /// Rank 0: hands out subproblems to the workers' requests and to threads of its own,
    /// records what comes back, and stops every worker at the end.
    fn coordinate<T, E, I, F, P>(
        self,
        cluster: &dyn Cluster,
        threads: usize,
        init: I,
        solve: F,
        progress: P,
    ) -> Result<RunReport<K>, RunError<E>>
    where
        S: Serialize + Sync,
        E: Send + fmt::Display,
        I: Fn() -> T + Sync + Send,
        F: Fn(&mut T, &S, &AtomicBool) -> Result<Option<Solved<K>>, E> + Sync + Send,
        P: Fn(usize, usize) + Sync,
    {
        let started = Instant::now();
        let own_flag = AtomicBool::new(false);
        let cancel = self.cancel.unwrap_or(&own_flag);
        let total = self.subproblems.len();
        let todo: VecDeque<usize> = self.unfinished().collect();
        let resumed = total - todo.len();
        let todo = Mutex::new(todo);
        let next = || {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            todo.lock().unwrap_or_else(|e| e.into_inner()).pop_front()
        };
        let shared = Mutex::new(Shared::<E, K>::new(self.checkpoint, resumed));
        let lock = || shared.lock().unwrap_or_else(|e| e.into_inner());
        let fail = |error| lock().fail(error, cancel);
        let finish = |index: usize, solved: Solved<K>| {
            let mut s = lock();
            match s.add(index, solved) {
                Ok(()) => progress(s.done, total),
                Err(e) => s.fail(e, cancel),
            }
        };
        progress(resumed, total);
        let subproblems = &self.subproblems;
        let mut workers = Workers::new(cluster, cancel);
        std::thread::scope(|scope| {
            let local: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut state = init();
                        while let Some(index) = next() {
                            match solve(&mut state, &subproblems[index], cancel) {
                                Ok(Some(solved)) => finish(index, solved),
                                Ok(None) => {}
                                Err(error) => fail(RunError::Solve { index, error }),
                            }
                        }
                    })
                })
                .collect();
            // Answers one request of worker `to`: the next subproblem, or `Stop`.
            let answer = |to: usize, peers: &mut [Peer]| -> Result<(), RunError<E>> {
                let message = match next() {
                    Some(index) => encode(&ToWorker::Task {
                        index,
                        subproblem: &subproblems[index],
                    })?,
                    None => {
                        peers[to].stopped += 1;
                        encode(&ToWorker::<()>::Stop)?
                    }
                };
                Ok(send(cluster, to, &message)?)
            };
            let cancelled = || encode(&ToWorker::<()>::Cancel);
            let served = workers.serve(&local, cancelled, |from, bytes, peers| {
                match decode(from, bytes)? {
                    ToCoordinator::Ready { slots } => {
                        peers[from].slots = Some(slots);
                        (0..slots).try_for_each(|_| answer(from, peers))
                    }
                    ToCoordinator::Done {
                        index,
                        outcome,
                        more,
                    } => {
                        if index >= total {
                            return Err(ClusterError::out_of_turn(
                                from,
                                format!("finished subproblem {index} of {total}"),
                            )
                            .into());
                        }
                        match outcome {
                            Outcome::Solved { counts, stats } => {
                                let counts = <[u64; K]>::try_from(counts).map_err(|c| {
                                    ClusterError::out_of_turn(
                                        from,
                                        format!("sent {} counts, not {K}", c.len()),
                                    )
                                })?;
                                finish(index, Solved { counts, stats });
                            }
                            Outcome::Cancelled => {}
                            Outcome::Failed(message) => fail(RunError::Remote {
                                index,
                                rank: from,
                                message,
                            }),
                        }
                        peers[from].grow(from, more, "subproblems")?;
                        (0..=more).try_for_each(|_| answer(from, peers))
                    }
                }
            });
            if let Err(e) = served {
                // The workers cannot be reached in order: stop the local threads, and report.
                fail(e);
            }
        });
        shared
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .finish(started, total, resumed)
    }

    /// A rank above 0: asks for subproblems (see [`Requests`]), solves what comes, sends back each
    /// result (and so asks for more), until every thread was told `Stop`.
    fn serve<T, E, I, F>(
        self,
        cluster: &dyn Cluster,
        threads: usize,
        init: I,
        solve: F,
    ) -> Result<RunReport<K>, RunError<E>>
    where
        S: DeserializeOwned + Send,
        E: Send + fmt::Display,
        I: Fn() -> T + Sync + Send,
        F: Fn(&mut T, &S, &AtomicBool) -> Result<Option<Solved<K>>, E> + Sync + Send,
    {
        let started = Instant::now();
        let own_flag = AtomicBool::new(false);
        let cancel = self.cancel.unwrap_or(&own_flag);
        let (task_tx, task_rx) = mpsc::channel::<(usize, S)>();
        let task_rx = Mutex::new(task_rx);
        let (done_tx, done_rx) = mpsc::channel::<(usize, Outcome)>();
        let result = std::thread::scope(|scope| -> Result<(), RunError<E>> {
            // Dropped when this closure returns, before the scope waits for the threads: that
            // ends them, whatever made the loop below end.
            let task_tx = task_tx;
            for _ in 0..threads {
                let done_tx = done_tx.clone();
                let (task_rx, init, solve) = (&task_rx, &init, &solve);
                scope.spawn(move || {
                    let mut state = None;
                    loop {
                        let task = task_rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                        let Ok((index, subproblem)) = task else {
                            return;
                        };
                        let state = state.get_or_insert_with(init);
                        let outcome = match solve(state, &subproblem, cancel) {
                            Ok(Some(s)) => Outcome::Solved {
                                counts: s.counts.to_vec(),
                                stats: s.stats,
                            },
                            Ok(None) => Outcome::Cancelled,
                            Err(e) => Outcome::Failed(e.to_string()),
                        };
                        if done_tx.send((index, outcome)).is_err() {
                            return;
                        }
                    }
                });
            }
            let send = |message: &ToCoordinator| -> Result<(), RunError<E>> {
                Ok(send(cluster, 0, &encode(message)?)?)
            };
            let mut requests = Requests::new(threads);
            send(&ToCoordinator::Ready {
                slots: requests.slots,
            })?;
            while requests.open() {
                let mut idle = true;
                while let Ok((index, outcome)) = done_rx.try_recv() {
                    idle = false;
                    let more = requests.more_with_result();
                    send(&ToCoordinator::Done {
                        index,
                        outcome,
                        more,
                    })?;
                }
                while let Some((from, bytes)) = receive(cluster)? {
                    idle = false;
                    match decode::<ToWorker<S>>(from, &bytes)? {
                        ToWorker::Task { index, subproblem } => {
                            requests.held += 1;
                            // The threads outlive this loop, so the channel is open.
                            let _ = task_tx.send((index, subproblem));
                        }
                        ToWorker::Stop => requests.stopped += 1,
                        ToWorker::Cancel => cancel.store(true, Ordering::Relaxed),
                    }
                }
                if idle {
                    // Waits on the threads rather than sleeping, so that a result (and the
                    // request it carries) leaves as soon as it is there.
                    if let Ok((index, outcome)) = done_rx.recv_timeout(POLL) {
                        let more = requests.more_with_result();
                        send(&ToCoordinator::Done {
                            index,
                            outcome,
                            more,
                        })?;
                    }
                }
            }
            Ok(())
        });
        result?;
        Ok(RunReport {
            counts: [0; K],
            done: 0,
            total: 0,
            resumed: 0,
            stats: Statistics {
                elapsed: started.elapsed(),
                ..Statistics::default()
            },
        })
    }
}

/// What the coordinator of [`map_round`] sends: `Begin` to start a round (a worker asks for
/// nothing before it, so that a request cannot reach the round before), a `Task` or `Stop` per
/// request, `Cancel` to stop early, and `End` instead of `Begin` after the last round.
#[derive(Debug, Serialize, Deserialize)]
enum MapToWorker<S> {
    Begin,
    Task { index: usize, item: S },
    Stop,
    Cancel,
    End,
}

/// What a worker of [`map_round`] sends: its first request, then one result (and request) at a
/// time.
#[derive(Debug, Serialize, Deserialize)]
enum MapToCoordinator<R> {
    Ready {
        slots: usize,
    },
    Done {
        index: usize,
        result: R,
        more: usize,
    },
}

/// One round of a job that answers a stream of items (the puzzles of a batch, a chunk at a
/// time) on the ranks of `cluster`, each rank with `threads` threads that make their state
/// with `init` and answer an item with `answer`.
///
/// Every rank calls it, round after round. Rank 0 calls it with `Some(items)` for each chunk
/// and gets `Some(answers)`, in the items' order (`None` for an item not answered because
/// `cancel` was raised first), then once with `None` when there are no more, which ends the
/// workers' rounds and returns `None`. A worker calls it (its `items` are not looked at) until
/// it returns `None`; it answers what rank 0 hands out and gets `Some(vec![])` from each round.
#[allow(clippy::type_complexity)]
pub fn map_round<S, R, T>(
    cluster: &dyn Cluster,
    threads: usize,
    cancel: &AtomicBool,
    items: Option<&[S]>,
    init: impl Fn() -> T + Sync,
    answer: impl Fn(&mut T, &S) -> R + Sync,
) -> Result<Option<Vec<Option<R>>>, ClusterError>
where
    S: Serialize + DeserializeOwned + Sync + Send,
    R: Serialize + DeserializeOwned + Send,
{
    let threads = threads.max(1);
    if cluster.rank() > 0 {
        return map_serve(cluster, threads, cancel, init, answer);
    }
    let size = cluster.size();
    let start = match items {
        Some(_) => encode(&MapToWorker::<()>::Begin)?,
        None => encode(&MapToWorker::<()>::End)?,
    };
    for rank in 1..size {
        send(cluster, rank, &start)?;
    }
    let Some(items) = items else {
        return Ok(None);
    };
    let next_index = Mutex::new(0..items.len());
    let next = || {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        next_index.lock().unwrap_or_else(|e| e.into_inner()).next()
    };
    let answers: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    let put = |index: usize, result: R| {
        answers.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(result);
    };
    let mut workers = Workers::new(cluster, cancel);
    let served = std::thread::scope(|scope| -> Result<(), ClusterError> {
        let local: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut state = None;
                    while let Some(index) = next() {
                        let state = state.get_or_insert_with(&init);
                        put(index, answer(state, &items[index]));
                    }
                })
            })
            .collect();
        let reply = |to: usize, peers: &mut [Peer]| -> Result<(), ClusterError> {
            let message = match next() {
                Some(index) => encode(&MapToWorker::Task {
                    index,
                    item: &items[index],
                })?,
                None => {
                    peers[to].stopped += 1;
                    encode(&MapToWorker::<()>::Stop)?
                }
            };
            send(cluster, to, &message)
        };
        let cancelled = || encode(&MapToWorker::<()>::Cancel);
        workers.serve(&local, cancelled, |from, bytes, peers| {
            match decode(from, bytes)? {
                MapToCoordinator::Done {
                    index,
                    result,
                    more,
                } => {
                    if index >= items.len() {
                        return Err(ClusterError::out_of_turn(
                            from,
                            format!("answered item {index} of {}", items.len()),
                        ));
                    }
                    put(index, result);
                    peers[from].grow(from, more, "items")?;
                    (0..=more).try_for_each(|_| reply(from, peers))
                }
                MapToCoordinator::Ready { slots } => {
                    peers[from].slots = Some(slots);
                    (0..slots).try_for_each(|_| reply(from, peers))
                }
            }
        })
    });
    if served.is_err() {
        cancel.store(true, Ordering::Relaxed);
    }
    served?;
    Ok(Some(
        answers.into_inner().unwrap_or_else(|e| e.into_inner()),
    ))
}

/// A worker's side of [`map_round`].
#[allow(clippy::type_complexity)]
fn map_serve<S, R, T>(
    cluster: &dyn Cluster,
    threads: usize,
    cancel: &AtomicBool,
    init: impl Fn() -> T + Sync,
    answer: impl Fn(&mut T, &S) -> R + Sync,
) -> Result<Option<Vec<Option<R>>>, ClusterError>
where
    S: DeserializeOwned + Send,
    R: Serialize + Send,
{
    let (task_tx, task_rx) = mpsc::channel::<(usize, S)>();
    let task_rx = Mutex::new(task_rx);
    let (done_tx, done_rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        // Dropped when this closure returns, which ends the threads.
        let task_tx = task_tx;
        for _ in 0..threads {
            let done_tx = done_tx.clone();
            let (task_rx, init, answer) = (&task_rx, &init, &answer);
            scope.spawn(move || {
                let mut state = None;
                while let Ok((index, item)) =
                    task_rx.lock().unwrap_or_else(|e| e.into_inner()).recv()
                {
                    let state = state.get_or_insert_with(init);
                    if done_tx.send((index, answer(state, &item))).is_err() {
                        return;
                    }
                }
            });
        }
        // Nothing is asked before rank 0 starts the round (or says there are no more).
        loop {
            match receive(cluster)? {
                Some((from, bytes)) => {
                    let message: MapToWorker<S> = decode(from, &bytes)?;
                    match message {
                        MapToWorker::Begin => break,
                        MapToWorker::End => return Ok(None),
                        MapToWorker::Cancel => cancel.store(true, Ordering::Relaxed),
                        MapToWorker::Task { .. } | MapToWorker::Stop => {
                            return Err(ClusterError::out_of_turn(
                                from,
                                "sent work before a round began",
                            ));
                        }
                    }
                }
                None => std::thread::sleep(POLL),
            }
        }
        let mut requests = Requests::new(threads);
        let ready = MapToCoordinator::<()>::Ready {
            slots: requests.slots,
        };
        send(cluster, 0, &encode(&ready)?)?;
        let send_result = |requests: &mut Requests, index: usize, result: R| {
            let more = requests.more_with_result();
            let done = MapToCoordinator::Done {
                index,
                result,
                more,
            };
            send(cluster, 0, &encode(&done)?)
        };
        while requests.open() {
            let mut idle = true;
            while let Ok((index, result)) = done_rx.try_recv() {
                idle = false;
                send_result(&mut requests, index, result)?;
            }
            // Not past the last `Stop`: what follows it (the next `Begin`) is the next round's.
            while requests.open()
                && let Some((from, bytes)) = receive(cluster)?
            {
                idle = false;
                let message: MapToWorker<S> = decode(from, &bytes)?;
                match message {
                    MapToWorker::Task { index, item } => {
                        requests.held += 1;
                        let _ = task_tx.send((index, item));
                    }
                    MapToWorker::Stop => requests.stopped += 1,
                    MapToWorker::Cancel => cancel.store(true, Ordering::Relaxed),
                    MapToWorker::Begin | MapToWorker::End => {
                        return Err(ClusterError::out_of_turn(
                            from,
                            "began a round inside a round",
                        ));
                    }
                }
            }
            if idle && let Ok((index, result)) = done_rx.recv_timeout(POLL) {
                send_result(&mut requests, index, result)?;
            }
        }
        Ok(Some(Vec::new()))
    })
}

#[cfg(test)]
mod tests {
    use super::Requests;

    #[test]
    fn a_worker_asks_for_more_only_while_its_threads_run_dry() {
        let mut r = Requests::new(2);
        assert_eq!(r.slots, 3);
        r.held = 3;
        // Two left for two threads: none dry.
        assert_eq!(r.more_with_result(), 0);
        // One left for two threads: one more request rides on this result.
        assert_eq!(r.more_with_result(), 1);
        assert_eq!(r.slots, 4);
        // Once the coordinator has said Stop, it has no more to give.
        r.stopped = 1;
        assert_eq!(r.more_with_result(), 0);
        assert_eq!(r.slots, 4);
        // Never past the cap.
        let mut r = Requests::new(1);
        r.slots = super::MAX_PER_THREAD;
        assert_eq!(r.more_with_result(), 0);
    }
}
