//! What the bit-parallel counters share: one API ([`SplitCounter`]), the largest board they
//! take ([`MAX_N`]) and their errors ([`BitmaskError`]).
//!
//! Each counter splits the `n`-queens search into independent subproblems (its
//! [`Piece`](SplitCounter::Piece)s), counts one piece at a time, and adds the pieces' counts:
//! [`bitmask`](crate::bitmask) splits on the first two rows and uses the left-right mirror,
//! [`symmetry_count`](crate::symmetry_count) splits on the first rows of one representative
//! per orbit of the board's eight symmetries, and [`symmetry`](crate::symmetry) enumerates
//! solutions and keeps the canonical ones (slow, but independent of the other two). A counter
//! says how to split and how to count a piece; the rest of the API is written once, here, and
//! [`counting`](crate::counting) spreads the pieces of any counter over threads, processes
//! and checkpoints.
//!
//! ```
//! use bezzel_queens::bitmask::BitmaskCounter;
//! use bezzel_queens::counter::SplitCounter;
//! use bezzel_queens::symmetry_count::SymmetryCounter;
//!
//! assert_eq!(BitmaskCounter::count(8)?, 92);
//! let pieces = SymmetryCounter::subproblems(8)?;
//! let unique: u64 = pieces
//!     .iter()
//!     .map(|piece| SymmetryCounter::count_subproblem(8, piece).map(|c| c.unique))
//!     .sum::<Result<_, _>>()?;
//! assert_eq!(unique, 12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use bezzel_runner::RunError;
use std::convert::Infallible;
use std::fmt;
use std::ops::Add;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The largest board the bit-parallel counters accept.
///
/// A row fits in a `u32`, which would allow 32, but the number of solutions is returned as a
/// `u64`, and the count for `n = 29` is expected to exceed `u64::MAX` (the largest known
/// count, for `n = 27`, is about 2.3e17 and the counts grow more than tenfold per step). 28 is
/// the largest size whose count safely fits, and far beyond what can be counted in practice.
pub const MAX_N: usize = 28;

/// Why a bit-parallel counter refused its input.
#[derive(Clone, PartialEq, Eq)]
pub enum BitmaskError {
    /// `n = 0` was asked for; the bitmask search needs at least one row.
    ZeroBoard,
    /// `n` exceeds [`MAX_N`].
    TooLarge {
        /// The board size that was asked for.
        n: usize,
        /// The largest accepted size, [`MAX_N`].
        max: usize,
        /// The counter that refused it, for the message.
        counter: Counter,
    },
    /// A thread count of zero was asked for.
    ZeroThreads,
    /// rayon could not build the requested thread pool.
    ThreadPool {
        /// rayon's explanation.
        message: String,
    },
    /// The cancel flag was raised before the count finished; there is no count.
    Cancelled,
    /// A prefix or subproblem names a column that is not on the board.
    ColumnOutOfRange {
        /// The row of the offending queen.
        row: usize,
        /// The offending column.
        column: usize,
        /// The board size.
        n: usize,
    },
    /// The runner that counts the pieces of a parallel count failed for a reason of its own
    /// (the total does not fit in a `u64`, say).
    Run(RunError<Infallible>),
}

impl fmt::Display for BitmaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ZeroBoard => write!(
                f,
                "n = 0 is an empty board; the bit-parallel counters need n >= 1"
            ),
            Self::TooLarge { n, max, counter } => write!(
                f,
                "n = {n} is too large for the {counter} counter (at most {max})"
            ),
            Self::ZeroThreads => write!(f, "the thread count must be at least 1"),
            Self::ThreadPool { message } => write!(f, "could not start the thread pool: {message}"),
            Self::Cancelled => write!(f, "the count was cancelled"),
            Self::ColumnOutOfRange { row, column, n } => write!(
                f,
                "row {row} has its queen in column {column}, but a board of size {n} only has columns 0 to {}",
                n.saturating_sub(1)
            ),
            Self::Run(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BitmaskError {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for BitmaskError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BitmaskError: {self}")
    }
}

/// Which bit-parallel counter refused a board size: all share [`MAX_N`] and
/// [`BitmaskError`], and the message names the one that was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Counter {
    /// The mirror-symmetry counter and enumerator of [`bitmask`](crate::bitmask).
    Bitmask,
    /// The full-symmetry counters of [`symmetry`](crate::symmetry) and
    /// [`symmetry_count`](crate::symmetry_count).
    Symmetry,
}

impl fmt::Display for Counter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Bitmask => "bitmask",
            Self::Symmetry => "symmetry",
        })
    }
}

/// Checks that `n` is a board size the bit-parallel counters accept, from 1 to [`MAX_N`],
/// on behalf of `counter`, which a too large `n` names.
pub fn check_size_for(n: usize, counter: Counter) -> Result<(), BitmaskError> {
    match n {
        0 => Err(BitmaskError::ZeroBoard),
        n if n > MAX_N => Err(BitmaskError::TooLarge {
            n,
            max: MAX_N,
            counter,
        }),
        _ => Ok(()),
    }
}

/// Whether a count should give up, asked inside its search (the bit-parallel searches ask on
/// their rarer steps back up the stack: thousands of nodes apart, tens of microseconds).
pub trait Poll {
    /// False for [`Never`], whose searches then compile with no trace of polling.
    const POLLS: bool = true;

    /// True once the count should give up.
    fn cancelled(&self) -> bool;
}

/// Never gives up.
#[derive(Debug)]
pub struct Never;

impl Poll for Never {
    const POLLS: bool = false;

    #[inline(always)]
    fn cancelled(&self) -> bool {
        false
    }
}

/// Gives up once the flag is raised.
#[derive(Debug)]
pub struct Flag<'a>(pub &'a AtomicBool);

impl Poll for Flag<'_> {
    #[inline(always)]
    fn cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A count as the pair that the runner adds up and checkpoints keep: `[solutions, unique
/// solutions]`, the second 0 where a counter does not count them.
pub trait CountPair: Sized {
    /// The pair.
    fn to_pair(self) -> [u64; 2];

    /// The count that [`to_pair`](Self::to_pair) turned into `pair`.
    fn from_pair(pair: [u64; 2]) -> Self;
}

/// The number of solutions.
impl CountPair for u64 {
    fn to_pair(self) -> [u64; 2] {
        [self, 0]
    }

    fn from_pair([solutions, _]: [u64; 2]) -> u64 {
        solutions
    }
}

/// A count of the `n`-queens solutions split into independent subproblems: how to split
/// ([`subproblems`](Self::subproblems)) and how to count one piece
/// ([`count_polled`](Self::count_polled)) are the counter's own; the rest is written once.
/// [`counting`](crate::counting) counts the pieces of any counter in parallel.
pub trait SplitCounter {
    /// One independent piece of the search; its serialized form is what checkpoints record.
    type Piece: Clone + fmt::Debug + Serialize + DeserializeOwned + Send + Sync;

    /// What a count says: the number of solutions, or more.
    type Count: Copy
        + Default
        + PartialEq
        + fmt::Debug
        + Send
        + Add<Output = Self::Count>
        + CountPair;

    /// The counter's name in [`BitmaskError::TooLarge`].
    const NAME: Counter;

    /// The split of the `n`-queens search into independent pieces, in a fixed order (which a
    /// checkpoint relies on). Summing [`count_subproblem`](Self::count_subproblem) over them
    /// gives [`count`](Self::count).
    fn subproblems(n: usize) -> Result<Vec<Self::Piece>, BitmaskError>;

    /// The count of the solutions that `piece` stands for, asking `poll` inside the search
    /// whether to give up ([`BitmaskError::Cancelled`] if it did). Any piece is accepted, not
    /// only those from [`subproblems`](Self::subproblems); one that no solution starts with
    /// counts nothing, and a column outside `0..n` is an error.
    fn count_polled(
        n: usize,
        piece: &Self::Piece,
        poll: &impl Poll,
    ) -> Result<Self::Count, BitmaskError>;

    /// The count of the solutions that `piece` stands for, on the calling thread.
    fn count_subproblem(n: usize, piece: &Self::Piece) -> Result<Self::Count, BitmaskError> {
        Self::count_polled(n, piece, &Never)
    }

    /// [`count_subproblem`](Self::count_subproblem), giving up with
    /// [`BitmaskError::Cancelled`] soon (well within a millisecond of search) after `cancel`
    /// is raised, say by another thread on Ctrl-C.
    fn count_subproblem_with_cancel(
        n: usize,
        piece: &Self::Piece,
        cancel: &AtomicBool,
    ) -> Result<Self::Count, BitmaskError> {
        if cancel.load(Ordering::Relaxed) {
            return Err(BitmaskError::Cancelled);
        }
        Self::count_polled(n, piece, &Flag(cancel))
    }

    /// The count of all `n`-queens solutions, on the calling thread.
    fn count(n: usize) -> Result<Self::Count, BitmaskError> {
        Self::subproblems(n)?
            .iter()
            .try_fold(Self::Count::default(), |sum, piece| {
                Ok(sum + Self::count_subproblem(n, piece)?)
            })
    }
}
