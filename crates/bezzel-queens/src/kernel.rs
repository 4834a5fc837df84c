//! The bit kernel that the queens counters share: the attacked lines as bit sets, and the
//! loops over them.
//!
//! The columns and the two diagonal directions already attacked are kept as bit sets, one bit
//! per column ([`Lines`]), so the free squares of the next row are a single
//! `!(cols | ld | rd)` and the diagonals move one column per row by a shift. A search is
//! iterative, with a fixed-size array of frames instead of recursion ([`search_rows`]); the
//! last [`TAIL_ROWS`] rows, where most of the search tree lies, are searched by nested loops
//! instead ([`count_last_five`] on a board without restrictions), and the last two of those
//! without a loop ([`LastTwo`]). Each depth then has branches of its own, whose patterns the
//! branch predictor learns far better than those of one loop shared by all depths.
//!
//! A search asks whether to give up ([`Poll`]) only on its rarer steps back up the stack, and
//! the counts that never give up compile with no trace of the question.

use crate::counter::{MAX_N, Poll};

/// Every row or depth index is masked with this, which lets the compiler see that it stays
/// inside the per-row arrays and drop the bounds checks.
pub(crate) const STACK_MASK: usize = 31;
/// The length of the per-row arrays.
pub(crate) const STACK_LEN: usize = STACK_MASK + 1;
const _: () = assert!(MAX_N <= STACK_LEN && MAX_N <= u32::BITS as usize);

/// The rows searched by nested loops rather than by the stack loop; more nested levels
/// measured no faster.
pub(crate) const TAIL_ROWS: usize = 5;

/// The bit set of all `n` columns.
pub(crate) fn full_row(n: usize) -> u32 {
    u32::MAX >> (u32::BITS as usize - n)
}

/// The attacked lines after some rows are filled, as seen from the next row.
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

/// Sums `below(bit)` over the bits of `avail`, lowest first: a row's loop over its free
/// squares.
#[inline(always)]
pub(crate) fn sum_over_bits(mut avail: u32, mut below: impl FnMut(u32) -> u64) -> u64 {
    let mut count = 0;
    while avail != 0 {
        let bit = avail & avail.wrapping_neg();
        avail ^= bit;
        count += below(bit);
    }
    count
}

/// The last two rows below some lines: exactly two columns are still free (the rows above
/// hold non-attacking queens), so the two rows take them in one order or the other, and both
/// orders are tested at once with plain arithmetic, because at this depth a branch would be
/// mispredicted too often.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LastTwo {
    /// The two free columns.
    pub(crate) free: u32,
    /// The lower of them.
    pub(crate) low: u32,
    /// The higher of them.
    pub(crate) high: u32,
    /// The diagonals attacked in the first of the two rows.
    pub(crate) here: u32,
    /// The diagonals attacked in the second, before the first has its queen.
    pub(crate) below: u32,
    /// Whether the two columns are not adjacent: queens in adjacent columns of consecutive
    /// rows share a diagonal, whichever goes first.
    pub(crate) apart: bool,
}

impl LastTwo {
    #[inline(always)]
    pub(crate) fn new(all: u32, lines: Lines) -> Self {
        let free = all & !lines.cols;
        let low = free & free.wrapping_neg();
        let high = free ^ low;
        Self {
            free,
            low,
            high,
            here: lines.ld | lines.rd,
            below: (lines.ld << 1) | (lines.rd >> 1),
            apart: high != low << 1,
        }
    }
}

/// Counts the ways to fill the last two rows below `lines` on a board without restrictions.
/// Like all the counting functions here, it relies on the rows above holding non-attacking
/// queens, which is what leaves exactly as many free columns as rows.
#[inline(always)]
pub(crate) fn count_last_two(all: u32, lines: Lines) -> u64 {
    let t = LastTwo::new(all, lines);
    let low_first = (t.low & t.here == 0) & (t.high & t.below == 0);
    let high_first = (t.high & t.here == 0) & (t.low & t.below == 0);
    u64::from(t.apart) * (u64::from(low_first) + u64::from(high_first))
}

/// Sums `below` over the squares of the next row that `lines` leaves free, each time with
/// that square taken.
#[inline(always)]
fn sum_over_next_row(all: u32, lines: Lines, below: impl Fn(u32, Lines) -> u64) -> u64 {
    sum_over_bits(all & !lines.attacked(), |bit| below(all, lines.place(bit)))
}

#[inline(always)]
pub(crate) fn count_last_three(all: u32, lines: Lines) -> u64 {
    sum_over_next_row(all, lines, count_last_two)
}

#[inline(always)]
pub(crate) fn count_last_four(all: u32, lines: Lines) -> u64 {
    sum_over_next_row(all, lines, count_last_three)
}

/// Counts the ways to fill the last [`TAIL_ROWS`] rows below `lines` on a board without
/// restrictions.
#[inline(always)]
pub(crate) fn count_last_five(all: u32, lines: Lines) -> u64 {
    sum_over_next_row(all, lines, count_last_four)
}

/// The stack loops look at a cancel flag when they step back up to a row at least this many
/// rows above the deepest row they push. The subtree just finished then spans that many stack
/// rows plus the tail rows: thousands of nodes, tens of microseconds, so a raised flag is seen
/// at once, while the steps back up the stack that are that high are too rare for the look to
/// cost anything measurable.
const POLL_HEIGHT: usize = 2;

/// The rows of a search as the stack loop sees them. Its methods are meant to be always
/// inlined, so that each search compiles the loop with its own rows and tail.
pub(crate) trait Rows {
    /// How the last [`TAIL_ROWS`] rows are searched, where a search has more than one way: a
    /// constant where [`search_rows`] is inlined, so that the way is chosen at compile time.
    type Tail: Copy;

    /// The columns `row` may take below `lines`.
    fn candidates(&self, row: usize, lines: Lines) -> u32;

    /// Notes that `row` has its queen at `bit` (for searches that keep the board).
    fn set(&mut self, row: usize, bit: u32);

    /// Counts the completions of the last [`TAIL_ROWS`] rows, from `row`, below `lines`,
    /// searched as `tail` says.
    fn tail(&mut self, tail: Self::Tail, row: usize, lines: Lines) -> u64;
}

/// Counts the completions of rows `first..n` below `start`, the last [`TAIL_ROWS`] of them as
/// `tail` says, asking `poll` on the steps back up the stack that [`POLL_HEIGHT`] picks whether
/// to give up: `None` if it did. The board must have more than [`TAIL_ROWS`] rows below
/// `first`. The row numbers are those that `rows` sees: a search whose rows are all alike can
/// number them from its first free row. This is the hot loop; always inlined, so that each
/// search compiles it with its own rows and tail.
#[inline(always)]
pub(crate) fn search_rows<R: Rows, P: Poll>(
    rows: &mut R,
    tail: R::Tail,
    n: usize,
    first: usize,
    start: Lines,
    poll: &P,
) -> Option<u64> {
    // The current row's state lives in locals (registers); a frame is pushed only when
    // descending, like the call stack of the recursive C program, and never below the tail
    // rows.
    let deepest = n - TAIL_ROWS - 1;
    let poll_below = if P::POLLS {
        (deepest + 1).saturating_sub(POLL_HEIGHT)
    } else {
        0
    };
    let mut stack = [Lines::EMPTY; STACK_LEN];
    let mut avail_stack = [0u32; STACK_LEN];
    let mut row = first;
    let mut lines = start;
    let mut avail = rows.candidates(row, lines);
    let mut count = 0u64;
    loop {
        if avail != 0 {
            let bit = avail & avail.wrapping_neg();
            avail ^= bit;
            rows.set(row, bit);
            let next = lines.place(bit);
            if row == deepest {
                count += rows.tail(tail, row + 1, next);
            } else {
                let next_avail = rows.candidates(row + 1, next);
                if next_avail != 0 {
                    stack[row & STACK_MASK] = lines;
                    avail_stack[row & STACK_MASK] = avail;
                    row += 1;
                    lines = next;
                    avail = next_avail;
                }
            }
        } else if row == first {
            return Some(count);
        } else {
            row -= 1;
            if row < poll_below && poll.cancelled() {
                return None;
            }
            lines = stack[row & STACK_MASK];
            avail = avail_stack[row & STACK_MASK];
        }
    }
}
