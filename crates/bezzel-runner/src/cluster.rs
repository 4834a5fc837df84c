//! The processes of a distributed run, as the runner sees them: a [`Cluster`] is a rank, a
//! size and byte messages between rank 0 and the others. MPI is one transport (the
//! `bezzel-mpi` crate); [`on_thread_ranks`] is another, ranks as threads of one process
//! talking over channels, so that the protocol of [`distributed`](crate::distributed) is
//! tested, and can be tried, without MPI.
//!
//! [`ClusterError`] says what went wrong between the processes: the transport failed, or a
//! message was not one the protocol expects at that point.

use std::fmt;
use std::sync::mpsc::{Receiver, Sender, channel};

/// The processes of a distributed run, as the runner needs them: a rank, a size, and
/// messages between rank 0 and the others.
pub trait Cluster: fmt::Debug {
    /// This process's rank: 0 for the coordinator.
    fn rank(&self) -> usize;

    /// How many processes there are.
    fn size(&self) -> usize;

    /// Sends `message` to the process of rank `to`; an error says what the transport said.
    fn send(&self, to: usize, message: &[u8]) -> Result<(), String>;

    /// A message that has arrived for this process, with its sender's rank, or `None` when
    /// none is waiting (it must not block: the runner polls).
    fn try_receive(&self) -> Result<Option<(usize, Vec<u8>)>, String>;
}

/// Why the processes of a distributed run could not work together.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClusterError {
    /// The transport could not send or receive a message.
    Transport {
        /// What the transport said.
        reason: String,
    },
    /// A message could not be written (a subproblem or result that does not serialize).
    Encode {
        /// What the serializer said.
        reason: String,
    },
    /// A message that is not one of the protocol's (another program, or another version).
    BadMessage {
        /// The sender's rank.
        from: usize,
        /// What the deserializer said.
        reason: String,
    },
    /// A message of the protocol sent out of turn, or by a process that should not send it.
    OutOfTurn {
        /// The sender's rank.
        from: usize,
        /// What it did.
        what: String,
    },
}

impl ClusterError {
    /// A transport's error.
    pub(crate) fn transport(reason: String) -> ClusterError {
        ClusterError::Transport { reason }
    }

    /// `from` did `what` out of turn.
    pub(crate) fn out_of_turn(from: usize, what: impl Into<String>) -> ClusterError {
        ClusterError::OutOfTurn {
            from,
            what: what.into(),
        }
    }
}

impl fmt::Display for ClusterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClusterError::Transport { reason } => {
                write!(f, "cannot reach the other processes: {reason}")
            }
            ClusterError::Encode { reason } => write!(f, "cannot write a message: {reason}"),
            ClusterError::BadMessage { from, reason } => {
                write!(f, "a message from rank {from} is not understood: {reason}")
            }
            ClusterError::OutOfTurn { from, what } => {
                write!(f, "rank {from} broke the protocol: it {what}")
            }
        }
    }
}

impl std::error::Error for ClusterError {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for ClusterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ClusterError: {self}")
    }
}

/// One rank of a cluster of threads in this process (see [`on_thread_ranks`]).
#[derive(Debug)]
pub struct ThreadRank {
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
        let channel = self
            .to
            .get(to)
            .ok_or_else(|| format!("no rank {to} among {}", self.to.len()))?;
        channel
            .send((self.rank, message.to_vec()))
            .map_err(|e| e.to_string())
    }

    fn try_receive(&self) -> Result<Option<(usize, Vec<u8>)>, String> {
        Ok(self.inbox.try_recv().ok())
    }
}

/// Runs `job` on `size` ranks, each a thread of its own with its [`ThreadRank`], and returns
/// their results in rank order: a distributed run without MPI.
///
/// ```
/// use bezzel_runner::cluster::on_thread_ranks;
/// use bezzel_runner::{Cluster, Runner, Solved};
///
/// let reports = on_thread_ranks(3, |rank| {
///     Runner::new()
///         .threads(Some(1))
///         .cluster(rank)
///         .batch_of::<u64, 1>((1..=100).collect())
///         .run_distributed(|| (), |_, &x, _| Ok::<_, String>(Some(Solved::new([x]))), |_, _| {})
/// });
/// // Rank 0 has the totals; the others an empty report.
/// assert_eq!(reports[0].as_ref().unwrap().counts, [5050]);
/// assert_eq!(reports[1].as_ref().unwrap().total, 0);
/// ```
///
/// # Panics
///
/// When a rank's `job` panics.
pub fn on_thread_ranks<T: Send>(size: usize, job: impl Fn(&ThreadRank) -> T + Sync) -> Vec<T> {
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
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}
