//! Puzzles read on a thread of their own and handed over in chunks as they arrive, so that a
//! program answers each puzzle of a slow pipe as soon as its line is in, and whole chunks of
//! a file (every thread busy) without waiting on either.
//!
//! The reading thread puts each puzzle in a queue as soon as it is read, staying at most one
//! chunk ahead of the program. [`Incoming::next_chunk`] takes what is queued: everything, up
//! to a chunk, once no more puzzles come for a moment ([`GATHER`]). A file is read far faster
//! than it is solved, so its queue is full whenever the program comes back for more, and its
//! chunks are whole; a pipe that delivers a line every few seconds gets each one answered
//! before the next arrives. Waiting never blocks for long, so a program can watch for Ctrl-C
//! and a time limit while the input keeps it waiting (a slow pipe, a terminal, a FIFO with no
//! writer yet).

use crate::reader::{Puzzle, PuzzleReader, ReadError, ReadOptions};
use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long [`Incoming::next_chunk`] waits for one more puzzle before it hands over a chunk
/// that is not full: far longer than reading a line of a file takes, far shorter than anyone
/// notices.
pub const GATHER: Duration = Duration::from_millis(2);

/// The longest a partial chunk is held back while puzzles keep trickling in, one now and then.
const GATHER_AT_MOST: Duration = Duration::from_millis(20);

/// What [`Incoming::next_chunk`] hands over: a chunk of puzzles, or why the input could not be
/// opened.
#[derive(Debug)]
pub enum Chunk {
    /// The input could not be opened: why.
    CannotOpen(String),
    /// Puzzles read, the error that stopped the reading if one did, and whether this is the
    /// input's last chunk.
    Puzzles {
        /// The puzzles, in input order.
        puzzles: Vec<Puzzle>,
        /// The read error that ended the input early, if one did.
        failed: Option<ReadError>,
        /// Whether nothing more follows.
        last: bool,
    },
}

/// How the input ended.
#[derive(Debug)]
enum End {
    CannotOpen(String),
    Failed(ReadError),
    Finished,
}

/// What the two threads share.
#[derive(Debug, Default)]
struct Queue {
    puzzles: VecDeque<Puzzle>,
    /// Set once the reading thread is done, after its last puzzle.
    end: Option<End>,
    /// The most puzzles queued: the chunk size.
    capacity: usize,
    /// Whether the program waits for puzzles (so only then is it woken: a wake-up per puzzle
    /// read would cost a system call each).
    program_waits: bool,
    /// Whether the reading thread waits for room.
    reader_waits: bool,
    /// The program dropped its [`Incoming`]: the reading thread stops.
    gone: bool,
}

#[derive(Debug, Default)]
struct Shared {
    queue: Mutex<Queue>,
    /// Signalled when a puzzle or the end is queued.
    arrived: Condvar,
    /// Signalled when the program takes puzzles, or goes.
    room: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The receiving end of [`read_in_background`].
#[derive(Debug)]
pub struct Incoming {
    shared: Arc<Shared>,
    /// Whether the last chunk was handed over.
    over: bool,
}

/// Opens an input with `open` (which also says how many puzzles make a chunk at most) and
/// reads it on a thread of its own, at most one chunk ahead; see the [module docs](self).
///
/// ```
/// use bezzel_sudoku::reader::ReadOptions;
/// use bezzel_sudoku::stream::{read_in_background, Chunk};
/// use std::time::Duration;
///
/// let text = "1234\n....3..2..4....3\n";
/// let mut incoming = read_in_background(move || Ok((text.as_bytes(), 10)), ReadOptions::default());
/// let mut chunk = None;
/// while chunk.is_none() {
///     chunk = incoming.next_chunk(Duration::from_millis(20));
/// }
/// match chunk.unwrap() {
///     Chunk::Puzzles { puzzles, failed, last } => {
///         assert_eq!((puzzles.len(), failed.is_none(), last), (2, true, true));
///     }
///     Chunk::CannotOpen(why) => panic!("{why}"),
/// }
/// ```
pub fn read_in_background<R, F>(open: F, options: ReadOptions) -> Incoming
where
    R: BufRead + Send + 'static,
    F: FnOnce() -> Result<(R, usize), String> + Send + 'static,
{
    let shared = Arc::new(Shared::default());
    let reading = shared.clone();
    std::thread::spawn(move || {
        let end = match open() {
            Ok((input, size)) => {
                reading.lock().capacity = size.max(1);
                read_all(&reading, PuzzleReader::with_options(input, options))
            }
            Err(message) => Some(End::CannotOpen(message)),
        };
        let mut queue = reading.lock();
        queue.end = end;
        if queue.end.is_none() {
            // The program went away.
            queue.end = Some(End::Finished);
        }
        reading.arrived.notify_all();
    });
    Incoming {
        shared,
        over: false,
    }
}

/// Queues the puzzles of `reader` one by one, waiting for room: how the input ended, or
/// `None` when the program went away first.
fn read_all<R: BufRead>(shared: &Shared, reader: PuzzleReader<R>) -> Option<End> {
    for item in reader {
        let puzzle = match item {
            Ok(puzzle) => puzzle,
            Err(e) => return Some(End::Failed(e)),
        };
        let mut queue = shared.lock();
        while queue.puzzles.len() >= queue.capacity && !queue.gone {
            queue.reader_waits = true;
            queue = shared.room.wait(queue).unwrap_or_else(|e| e.into_inner());
        }
        queue.reader_waits = false;
        if queue.gone {
            return None;
        }
        queue.puzzles.push_back(puzzle);
        if queue.program_waits {
            shared.arrived.notify_one();
        }
    }
    Some(End::Finished)
}

impl Incoming {
    /// The next chunk: the puzzles queued (at most the chunk size), once the chunk is full,
    /// the input ended, or no puzzle came for [`GATHER`]. `None` when nothing at all came
    /// within `wait` (the caller may look at a stop flag and call again), and once the last
    /// chunk was handed over.
    pub fn next_chunk(&mut self, wait: Duration) -> Option<Chunk> {
        if self.over {
            return None;
        }
        let shared = &self.shared;
        let mut queue = shared.lock();
        // Wait for a first puzzle, or the end.
        if queue.puzzles.is_empty() && queue.end.is_none() {
            queue.program_waits = true;
            queue = shared
                .arrived
                .wait_timeout_while(queue, wait, |q| q.puzzles.is_empty() && q.end.is_none())
                .unwrap_or_else(|e| e.into_inner())
                .0;
            queue.program_waits = false;
            if queue.puzzles.is_empty() && queue.end.is_none() {
                return None;
            }
        }
        // Gather more while they keep coming.
        let first = Instant::now();
        while queue.puzzles.len() < queue.capacity
            && queue.end.is_none()
            && first.elapsed() < GATHER_AT_MOST
        {
            let had = queue.puzzles.len();
            queue.program_waits = true;
            queue = shared
                .arrived
                .wait_timeout_while(queue, GATHER, |q| q.puzzles.len() == had && q.end.is_none())
                .unwrap_or_else(|e| e.into_inner())
                .0;
            queue.program_waits = false;
            if queue.puzzles.len() == had && queue.end.is_none() {
                break;
            }
        }
        let take = queue.puzzles.len().min(queue.capacity.max(1));
        let puzzles: Vec<Puzzle> = queue.puzzles.drain(..take).collect();
        if queue.reader_waits {
            shared.room.notify_one();
        }
        let last = queue.puzzles.is_empty() && queue.end.is_some();
        let chunk = if last {
            match queue.end.take() {
                Some(End::CannotOpen(message)) => Chunk::CannotOpen(message),
                Some(End::Failed(e)) => Chunk::Puzzles {
                    puzzles,
                    failed: Some(e),
                    last,
                },
                _ => Chunk::Puzzles {
                    puzzles,
                    failed: None,
                    last,
                },
            }
        } else {
            Chunk::Puzzles {
                puzzles,
                failed: None,
                last,
            }
        };
        drop(queue);
        self.over = last;
        Some(chunk)
    }
}

impl Drop for Incoming {
    /// Stops the reading thread at its next puzzle.
    fn drop(&mut self) {
        let mut queue = self.shared.lock();
        queue.gone = true;
        self.shared.room.notify_all();
    }
}
