//! Counting and enumerating N-Queens solutions with bit-parallel backtracking.
//!
//! This is the search of the classic C programs: the columns and the two
//! diagonal directions that are already attacked are kept as bit sets, one
//! bit per column, so the free squares of the next row are a single
//! `!(cols | ld | rd)` and the diagonals move one column per row by a shift.
//! The search here is iterative, with a fixed-size array of stack frames
//! instead of recursion. The last five rows, where most of the search tree
//! lies, are searched by nested loops instead, and the last two of those
//! without a loop: exactly two columns are left, and both orders are tested
//! with bit arithmetic.
//!
//! Counting uses the left-right mirror: every solution whose first-row queen
//! is in the right half is the mirror image of one in the left half, so only
//! the left half is searched and doubled. For odd `n` a queen in the middle
//! column of the first row is its own mirror image, so there the second row
//! is restricted to the left half instead (it can never be in the middle
//! too). The placements of the first two rows that remain are the
//! subproblems ([`TwoRows`]), which are independent and are what the parallel
//! counter hands to bezzel-core's runner (see [`counting`](crate::counting)).

use bezzel_runner::RunError;
use std::convert::Infallible;
use std::fmt;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

/// The largest board the bitmask functions accept.
///
/// A row fits in a `u32`, which would allow 32, but the number of solutions
/// is returned as a `u64`, and the count for `n = 29` is expected to exceed
/// `u64::MAX` (the largest known count, for `n = 27`, is about 2.3e17 and the
/// counts grow more than tenfold per step). 28 is the largest size whose
/// count safely fits, and far beyond what can be counted in practice.
pub const MAX_N: usize = 28;

/// Every depth index is masked with this, which lets the compiler see that
/// it stays inside the per-row stack arrays and drop the bounds checks.
const STACK_MASK: usize = 31;
const STACK_LEN: usize = STACK_MASK + 1;
const _: () = assert!(MAX_N <= STACK_LEN && MAX_N <= u32::BITS as usize);

/// Why a bitmask function refused its input.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// A prefix or [`TwoRows`] names a column that is not on the board.
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

/// Which bit-parallel counter refused a board size: both share [`MAX_N`] and
/// [`BitmaskError`], and the message names the one that was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Counter {
    /// This module's mirror-symmetry counter and enumerator.
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

/// One independent piece (subproblem) of the mirror-reduced search: the queens
/// of the first two rows, and whether the count also stands for the mirror
/// images. Its serialized form (`first`, `second`, `mirrored`) is what
/// checkpoints record.
///
/// Summing [`count_subproblem`] over [`subproblems`] gives [`count`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TwoRows {
    /// The column of the first-row queen.
    pub first: usize,
    /// The column of the second-row queen; `None` only on the 1x1 board,
    /// which has no second row.
    pub second: Option<usize>,
    /// Whether the solutions found also stand for their mirror images, which
    /// are not searched.
    pub mirrored: bool,
}

impl TwoRows {
    /// How many solutions each solution found in this subproblem stands for:
    /// 2 when [`mirrored`](Self::mirrored), else 1.
    pub fn weight(&self) -> u64 {
        if self.mirrored { 2 } else { 1 }
    }

    fn prefix(&self) -> ([usize; 2], usize) {
        match self.second {
            Some(second) => ([self.first, second], 2),
            None => ([self.first, 0], 1),
        }
    }
}

/// Checks that `n` is a board size the bitmask functions accept: from 1 to
/// [`MAX_N`].
pub fn check_size(n: usize) -> Result<(), BitmaskError> {
    check_size_for(n, Counter::Bitmask)
}

/// [`check_size`] on behalf of `counter`, which a too large `n` names.
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

/// The bit set of all `n` columns.
fn full_row(n: usize) -> u32 {
    u32::MAX >> (u32::BITS as usize - n)
}

/// The attacked lines after some rows are filled, as seen from the next row (shared with the
/// full-symmetry counter).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Lines {
    pub(crate) cols: u32,
    pub(crate) ld: u32,
    pub(crate) rd: u32,
}

impl Lines {
    pub(crate) const EMPTY: Self = Self {
        cols: 0,
        ld: 0,
        rd: 0,
    };

    #[inline(always)]
    pub(crate) fn attacked(self) -> u32 {
        self.cols | self.ld | self.rd
    }

    /// The lines as seen from the row below, after a queen at `bit`.
    #[inline(always)]
    pub(crate) fn place(self, bit: u32) -> Self {
        Self {
            cols: self.cols | bit,
            ld: (self.ld | bit) << 1,
            rd: (self.rd | bit) >> 1,
        }
    }
}

/// Places `prefix` in the first rows; `Ok(None)` if two of its queens attack
/// each other (so nothing extends it).
fn place_prefix(n: usize, prefix: &[usize]) -> Result<Option<Lines>, BitmaskError> {
    if let Some((row, &column)) = prefix.iter().enumerate().find(|&(_, &c)| c >= n) {
        return Err(BitmaskError::ColumnOutOfRange { row, column, n });
    }
    let mut lines = Lines::EMPTY;
    for &column in prefix {
        let bit = 1u32 << column;
        if lines.attacked() & bit != 0 {
            return Ok(None);
        }
        lines = lines.place(bit);
    }
    Ok(Some(lines))
}

/// Counts the ways to fill the last two rows below `lines`, without a loop.
/// Like all the counting functions below, it relies on the rows above
/// holding non-attacking queens, which is what leaves exactly as many free
/// columns as rows.
///
/// Exactly two columns are still free, so the two rows take them in one
/// order or the other; both orders are tested at once with plain arithmetic,
/// because at this depth a branch would be mispredicted too often.
#[inline(always)]
fn count_last_two(all: u32, lines: Lines) -> u64 {
    let free = all & !lines.cols;
    let low = free & free.wrapping_neg();
    let high = free ^ low;
    let attacked_here = lines.ld | lines.rd;
    let attacked_below = (lines.ld << 1) | (lines.rd >> 1);
    // Queens in adjacent columns of consecutive rows share a diagonal,
    // whichever goes first.
    let apart = high != low << 1;
    let low_first = (low & attacked_here == 0) & (high & attacked_below == 0);
    let high_first = (high & attacked_here == 0) & (low & attacked_below == 0);
    u64::from(apart) * (u64::from(low_first) + u64::from(high_first))
}

/// Sums `below` over the squares of the next row that `lines` leaves free,
/// each time with that square taken.
#[inline(always)]
fn sum_over_next_row(all: u32, lines: Lines, below: impl Fn(u32, Lines) -> u64) -> u64 {
    let mut avail = all & !lines.attacked();
    let mut count = 0;
    while avail != 0 {
        let bit = avail & avail.wrapping_neg();
        avail ^= bit;
        count += below(all, lines.place(bit));
    }
    count
}

// The last rows are searched by nested loops rather than by the stack loop
// of `count_completions`: each depth then has branches of its own, whose
// patterns the branch predictor learns far better than those of one loop
// shared by all depths. Most of the search tree lies in these rows.

#[inline(always)]
fn count_last_three(all: u32, lines: Lines) -> u64 {
    sum_over_next_row(all, lines, count_last_two)
}

#[inline(always)]
fn count_last_four(all: u32, lines: Lines) -> u64 {
    sum_over_next_row(all, lines, count_last_three)
}

#[inline(always)]
fn count_last_five(all: u32, lines: Lines) -> u64 {
    sum_over_next_row(all, lines, count_last_four)
}

/// The rows left to [`count_last_five`]; more nested levels measured no
/// faster.
const TAIL_ROWS: usize = 5;

/// The stack loops look at a cancel flag when they step back up to a row at
/// least this many rows above the deepest row they push. The subtree just
/// finished then spans that many stack rows plus the tail rows: thousands of
/// nodes, tens of microseconds, so a raised flag is seen at once, while the
/// steps back up the stack that are that high are too rare for the look to
/// cost anything measurable.
pub(crate) const POLL_HEIGHT: usize = 2;

/// Whether a search should stop, asked by the stack loops on their rarer
/// steps back up the stack (see [`POLL_HEIGHT`]).
pub(crate) trait Poll {
    /// False for [`Never`].
    const POLLS: bool = true;

    /// True once the search should give up.
    fn cancelled(&self) -> bool;
}

/// The stack rows below which a step back up the stack looks at `poll`: none
/// for [`Never`], so that the plain counters do not even compare.
#[inline(always)]
pub(crate) fn poll_below<P: Poll>(deepest: usize, _: &P) -> usize {
    if P::POLLS {
        (deepest + 1).saturating_sub(POLL_HEIGHT)
    } else {
        0
    }
}

/// Never stops: the plain counters, compiled with no trace of polling.
#[derive(Debug)]
pub(crate) struct Never;

impl Poll for Never {
    const POLLS: bool = false;

    #[inline(always)]
    fn cancelled(&self) -> bool {
        false
    }
}

/// Stops once the flag is raised.
#[derive(Debug)]
pub(crate) struct Flag<'a>(pub(crate) &'a AtomicBool);

impl Poll for Flag<'_> {
    #[inline(always)]
    fn cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Counts the ways to fill the last `rows_left` rows of an `n`-column board
/// whose first `n - rows_left` rows hold non-attacking queens with lines
/// `start`, asking `poll` on the steps back up the stack that [`POLL_HEIGHT`]
/// picks whether to give up; `None` if it did. This is the hot loop.
fn count_completions(n: usize, start: Lines, rows_left: usize, poll: &impl Poll) -> Option<u64> {
    let all = full_row(n);
    match rows_left {
        0 => return Some(1),
        1 => return Some(u64::from((all & !start.attacked()).count_ones())),
        2 => return Some(count_last_two(all, start)),
        3 => return Some(count_last_three(all, start)),
        4 => return Some(count_last_four(all, start)),
        5 => return Some(count_last_five(all, start)),
        _ => {}
    }
    // The current row's state lives in locals (registers); a frame is
    // pushed only when descending, like the call stack of the recursive C
    // program, and never below the tail rows.
    let deepest = rows_left - TAIL_ROWS - 1;
    let poll_below = poll_below(deepest, poll);
    let mut stack = [Lines::EMPTY; STACK_LEN];
    let mut avail_stack = [0u32; STACK_LEN];
    let mut lines = start;
    let mut avail = all & !start.attacked();
    let mut count = 0u64;
    let mut d = 0usize;
    loop {
        if avail != 0 {
            let bit = avail & avail.wrapping_neg();
            avail ^= bit;
            let next = lines.place(bit);
            if d == deepest {
                count += count_last_five(all, next);
            } else {
                let next_avail = all & !next.attacked();
                if next_avail != 0 {
                    stack[d & STACK_MASK] = lines;
                    avail_stack[d & STACK_MASK] = avail;
                    d += 1;
                    lines = next;
                    avail = next_avail;
                }
            }
        } else if d == 0 {
            return Some(count);
        } else {
            d -= 1;
            if d < poll_below && poll.cancelled() {
                return None;
            }
            lines = stack[d & STACK_MASK];
            avail = avail_stack[d & STACK_MASK];
        }
    }
}

/// The mirror-reduced split of the `n`-queens search into independent
/// pieces, in a fixed order, for callers that want to count them one by one
/// (say, to show progress) with [`count_subproblem`].
pub fn subproblems(n: usize) -> Result<Vec<TwoRows>, BitmaskError> {
    check_size(n)?;
    if n == 1 {
        return Ok(vec![TwoRows {
            first: 0,
            second: None,
            mirrored: false,
        }]);
    }
    let mut pieces = Vec::new();
    let non_adjacent = |first: usize, second: usize| first.abs_diff(second) >= 2;
    for first in 0..n / 2 {
        pieces.extend(
            (0..n)
                .filter(|&second| non_adjacent(first, second))
                .map(|second| TwoRows {
                    first,
                    second: Some(second),
                    mirrored: true,
                }),
        );
    }
    if n % 2 == 1 {
        let middle = n / 2;
        pieces.extend(
            (0..middle)
                .filter(|&second| non_adjacent(middle, second))
                .map(|second| TwoRows {
                    first: middle,
                    second: Some(second),
                    mirrored: true,
                }),
        );
    }
    Ok(pieces)
}

/// The number of `n`-queens solutions that `subproblem` stands for: those
/// starting with its first two rows, times its [`weight`](TwoRows::weight).
///
/// Any subproblem is accepted, not only those from [`subproblems`]; one whose
/// queens attack each other stands for no solutions.
pub fn count_subproblem(n: usize, subproblem: &TwoRows) -> Result<u64, BitmaskError> {
    count_subproblem_polled(n, subproblem, &Never)
}

/// [`count_subproblem`], giving up with [`BitmaskError::Cancelled`] soon
/// (well within a millisecond of search) after `cancel` is raised, say by
/// another thread on Ctrl-C.
pub fn count_subproblem_with_cancel(
    n: usize,
    subproblem: &TwoRows,
    cancel: &AtomicBool,
) -> Result<u64, BitmaskError> {
    if cancel.load(Ordering::Relaxed) {
        return Err(BitmaskError::Cancelled);
    }
    count_subproblem_polled(n, subproblem, &Flag(cancel))
}

fn count_subproblem_polled(
    n: usize,
    subproblem: &TwoRows,
    poll: &impl Poll,
) -> Result<u64, BitmaskError> {
    check_size(n)?;
    let (prefix, len) = subproblem.prefix();
    let prefix = &prefix[..len];
    let Some(lines) = place_prefix(n, prefix)? else {
        return Ok(0);
    };
    let Some(rows_left) = n.checked_sub(prefix.len()) else {
        return Ok(0);
    };
    let count = count_completions(n, lines, rows_left, poll).ok_or(BitmaskError::Cancelled)?;
    Ok(count * subproblem.weight())
}

/// The number of ways to place `n` non-attacking queens on an `n`x`n` board,
/// on the calling thread.
pub fn count(n: usize) -> Result<u64, BitmaskError> {
    subproblems(n)?
        .iter()
        .map(|subproblem| count_subproblem(n, subproblem))
        .sum()
}

/// [`count`] spread over `threads` threads (every core when `None`), by the
/// runner every parallel count uses (see [`counting`](crate::counting), which
/// also makes it resumable).
pub fn count_parallel(n: usize, threads: Option<usize>) -> Result<u64, BitmaskError> {
    count_parallel_with_progress(n, threads, |_, _| {})
}

/// [`count_parallel`], calling `on_task_done(done, total)` after each of the
/// `total` subproblems is counted.
///
/// The calls come from the worker threads, one at a time, `done` rising from 1
/// to `total`.
pub fn count_parallel_with_progress(
    n: usize,
    threads: Option<usize>,
    on_task_done: impl Fn(u64, u64) + Sync,
) -> Result<u64, BitmaskError> {
    let [total] = crate::counting::count_pieces(
        (n, Counter::Bitmask),
        subproblems(n)?,
        threads,
        None,
        |piece, cancel| Ok([count_subproblem_with_cancel(n, piece, cancel)?]),
        on_task_done,
    )?;
    Ok(total)
}

/// [`count_parallel`] that gives up with [`BitmaskError::Cancelled`] soon
/// after `cancel` is raised (say by a Ctrl-C handler): every thread looks at
/// the flag inside its search, not only between subproblems.
pub fn count_parallel_with_cancel(
    n: usize,
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Result<u64, BitmaskError> {
    let [total] = crate::counting::count_pieces(
        (n, Counter::Bitmask),
        subproblems(n)?,
        threads,
        Some(cancel),
        |piece, cancel| Ok([count_subproblem_with_cancel(n, piece, cancel)?]),
        |_, _| {},
    )?;
    Ok(total)
}

/// Calls `f` with every `n`-queens solution, as `placement[row] = column`, in
/// lexicographic order.
pub fn for_each_solution(n: usize, f: impl FnMut(&[usize])) -> Result<(), BitmaskError> {
    for_each_solution_with_prefix(n, &[], f)
}

/// Calls `f` with every `n`-queens solution whose first rows are `prefix`,
/// in lexicographic order. A prefix whose queens attack each other, or that
/// is longer than `n`, has no solutions; a column outside `0..n` is an
/// error.
pub fn for_each_solution_with_prefix(
    n: usize,
    prefix: &[usize],
    mut f: impl FnMut(&[usize]),
) -> Result<(), BitmaskError> {
    try_for_each_solution_with_prefix(n, prefix, |placement| {
        f(placement);
        ControlFlow::Continue(())
    })
}

/// [`for_each_solution_with_prefix`] that stops as soon as `f` returns
/// [`ControlFlow::Break`]: to take only the first solutions, or to give up.
pub fn try_for_each_solution_with_prefix(
    n: usize,
    prefix: &[usize],
    mut f: impl FnMut(&[usize]) -> ControlFlow<()>,
) -> Result<(), BitmaskError> {
    check_size(n)?;
    if prefix.len() > n {
        return Ok(());
    }
    let Some(start) = place_prefix(n, prefix)? else {
        return Ok(());
    };
    let mut placement = [0usize; STACK_LEN];
    placement[..prefix.len()].copy_from_slice(prefix);
    let first = prefix.len();
    if first == n {
        let _ = f(&placement[..n]);
        return Ok(());
    }
    let all = full_row(n);
    let mut lines = [Lines::EMPTY; STACK_LEN];
    let mut avail = [0u32; STACK_LEN];
    // Indexed by row here, unlike the counter, because the placement is too.
    lines[first] = start;
    avail[first] = all & !start.attacked();
    let mut row = first;
    loop {
        let a = avail[row & STACK_MASK];
        if a == 0 {
            if row == first {
                return Ok(());
            }
            row -= 1;
            continue;
        }
        let bit = a & a.wrapping_neg();
        avail[row & STACK_MASK] = a ^ bit;
        placement[row & STACK_MASK] = bit.trailing_zeros() as usize;
        if row + 1 == n {
            if f(&placement[..n]).is_break() {
                return Ok(());
            }
            continue;
        }
        let next = lines[row & STACK_MASK].place(bit);
        row += 1;
        lines[row & STACK_MASK] = next;
        avail[row & STACK_MASK] = all & !next.attacked();
    }
}

/// Every `n`-queens solution, in lexicographic order.
pub fn solutions(n: usize) -> Result<Vec<Vec<usize>>, BitmaskError> {
    let mut found = Vec::new();
    for_each_solution(n, |placement| found.push(placement.to_vec()))?;
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::is_solution;

    /// OEIS A000170, starting at n = 1.
    const TOTAL: [u64; 17] = [
        1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
        95815104,
    ];

    fn expected(n: usize) -> u64 {
        TOTAL[n - 1]
    }

    /// Tries every permutation, which is the definition with nothing clever.
    fn brute_force(n: usize) -> Vec<Vec<usize>> {
        fn extend(placement: &mut Vec<usize>, n: usize, found: &mut Vec<Vec<usize>>) {
            if placement.len() == n {
                if is_solution(placement) {
                    found.push(placement.clone());
                }
                return;
            }
            for column in 0..n {
                if !placement.contains(&column) {
                    placement.push(column);
                    extend(placement, n, found);
                    placement.pop();
                }
            }
        }
        let mut found = Vec::new();
        extend(&mut Vec::new(), n, &mut found);
        found
    }

    #[test]
    fn count_matches_oeis() {
        for n in 1..=14 {
            assert_eq!(count(n), Ok(expected(n)), "n = {n}");
        }
    }

    #[test]
    fn count_parallel_matches_oeis() {
        for n in 1..=14 {
            assert_eq!(count_parallel(n, Some(2)), Ok(expected(n)), "n = {n}");
            assert_eq!(count_parallel(n, Some(1)), Ok(expected(n)), "n = {n}");
        }
        assert_eq!(count_parallel(12, None), Ok(expected(12)));
    }

    #[test]
    fn count_agrees_with_brute_force() {
        for n in 1..=8 {
            assert_eq!(count(n), Ok(brute_force(n).len() as u64), "n = {n}");
        }
    }

    #[test]
    fn enumeration_is_the_brute_force_list_in_order() {
        // brute_force tries columns in increasing order, so its list is sorted.
        for n in 1..=8 {
            assert_eq!(solutions(n), Ok(brute_force(n)), "n = {n}");
        }
    }

    #[test]
    fn enumeration_matches_oeis_and_check() {
        for n in 1..=11 {
            let mut seen = 0u64;
            let mut previous: Option<Vec<usize>> = None;
            for_each_solution(n, |placement| {
                assert!(is_solution(placement), "{placement:?}");
                if let Some(previous) = &previous {
                    assert!(previous.as_slice() < placement);
                }
                previous = Some(placement.to_vec());
                seen += 1;
            })
            .unwrap();
            assert_eq!(seen, expected(n), "n = {n}");
        }
    }

    #[test]
    fn prefixes_partition_the_solutions() {
        let n = 10;
        let mut total = 0;
        for first in 0..n {
            for_each_solution_with_prefix(n, &[first], |placement| {
                assert_eq!(placement[0], first);
                total += 1;
            })
            .unwrap();
        }
        assert_eq!(total, expected(n));
        let mut calls = 0;
        for_each_solution_with_prefix(n, &[0, 1], |_| calls += 1).unwrap();
        for_each_solution_with_prefix(n, &[0; 11], |_| calls += 1).unwrap();
        assert_eq!(calls, 0);
        // Breaking off stops at once, after the first solutions in order.
        let mut first_three = Vec::new();
        try_for_each_solution_with_prefix(n, &[], |p| {
            first_three.push(p.to_vec());
            if first_three.len() == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        assert_eq!(first_three, solutions(n).unwrap()[..3].to_vec());
        let full = [0, 4, 7, 5, 2, 6, 1, 3];
        let mut found = Vec::new();
        for_each_solution_with_prefix(8, &full, |p| found.push(p.to_vec())).unwrap();
        assert_eq!(found, vec![full.to_vec()]);
    }

    #[test]
    fn subproblems_sum_to_the_count_and_use_the_mirror() {
        for n in 1..=12 {
            let pieces = subproblems(n).unwrap();
            let sum: u64 = pieces
                .iter()
                .map(|piece| count_subproblem(n, piece).unwrap())
                .sum();
            assert_eq!(sum, expected(n), "n = {n}");
            // Only the left half (and the middle for odd n) is searched.
            assert!(pieces.iter().all(|piece| 2 * piece.first < n));
        }
        // First row in columns 0..4, second row not adjacent: 6 + 5 + 5 + 5.
        assert_eq!(subproblems(8).unwrap().len(), 21);
    }

    #[test]
    fn odd_middle_column_is_counted_exactly() {
        // n = 5: two solutions start in the middle column, [2,0,3,1,4] and its mirror.
        let middle: u64 = subproblems(5)
            .unwrap()
            .iter()
            .filter(|piece| piece.first == 2)
            .map(|piece| count_subproblem(5, piece).unwrap())
            .sum();
        assert_eq!(middle, 2);
    }

    #[test]
    fn any_subproblem_is_counted_honestly() {
        let clash = TwoRows {
            first: 3,
            second: Some(4),
            mirrored: false,
        };
        assert_eq!(count_subproblem(8, &clash), Ok(0));
        let unmirrored = TwoRows {
            first: 0,
            second: Some(4),
            mirrored: false,
        };
        let by_hand = solutions(8)
            .unwrap()
            .iter()
            .filter(|p| p[0] == 0 && p[1] == 4)
            .count() as u64;
        assert_eq!(count_subproblem(8, &unmirrored), Ok(by_hand));
        assert_eq!(by_hand, 1);
        let off_board = TwoRows {
            first: 0,
            second: Some(8),
            mirrored: true,
        };
        assert_eq!(
            count_subproblem(8, &off_board),
            Err(BitmaskError::ColumnOutOfRange {
                row: 1,
                column: 8,
                n: 8
            })
        );
        let too_long = TwoRows {
            first: 0,
            second: Some(0),
            mirrored: false,
        };
        assert_eq!(count_subproblem(1, &too_long), Ok(0));
    }

    #[test]
    fn progress_reports_every_task_once() {
        let n = 10;
        let total = subproblems(n).unwrap().len() as u64;
        let reports = std::sync::Mutex::new(Vec::new());
        let solutions = count_parallel_with_progress(n, Some(2), |done, all| {
            assert_eq!(all, total);
            reports.lock().unwrap().push(done);
        });
        assert_eq!(solutions, Ok(expected(n)));
        let mut reports = reports.into_inner().unwrap();
        reports.sort_unstable();
        assert_eq!(reports, (1..=total).collect::<Vec<_>>());
    }

    #[test]
    fn refuses_bad_sizes() {
        assert_eq!(count(0), Err(BitmaskError::ZeroBoard));
        assert_eq!(count_parallel(0, Some(2)), Err(BitmaskError::ZeroBoard));
        let too_large = BitmaskError::TooLarge {
            n: 40,
            max: MAX_N,
            counter: Counter::Bitmask,
        };
        assert_eq!(count(40), Err(too_large.clone()));
        assert_eq!(
            too_large.to_string(),
            "n = 40 is too large for the bitmask counter (at most 28)"
        );
        assert_eq!(count_parallel(8, Some(0)), Err(BitmaskError::ZeroThreads));
        assert!(solutions(MAX_N + 1).is_err());
        assert!(subproblems(0).is_err());
        assert_eq!(
            for_each_solution_with_prefix(4, &[1, 4], |_| {}),
            Err(BitmaskError::ColumnOutOfRange {
                row: 1,
                column: 4,
                n: 4
            })
        );
    }

    #[test]
    fn largest_board_is_accepted() {
        // Counting n = MAX_N is out of reach, but the set-up must not overflow
        // a shift; find one solution and stop looking by fixing most rows.
        let n = MAX_N;
        assert!(subproblems(n).is_ok());
        let one = crate::construct::construct(n).unwrap();
        let mut found = Vec::new();
        for_each_solution_with_prefix(n, &one[..n - 4], |p| found.push(p.to_vec())).unwrap();
        assert!(found.contains(&one));
        assert!(found.iter().all(|p| is_solution(p)));
        // With all rows but the last four fixed the counter finishes at once.
        let lines = place_prefix(n, &one[..n - 4]).unwrap().unwrap();
        assert_eq!(
            count_completions(n, lines, 4, &Never),
            Some(found.len() as u64)
        );
    }
}
