//! The search of one subproblem in the lanes of a vector register: eight independent searches
//! that take the same steps at once, each on its own piece of the subproblem.
//!
//! The subproblem's queens are extended row by row to [`start_row`], and each placement found
//! there (an *item*) is searched by one lane, which takes the next item when it is done; each
//! step of the lane loop moves every lane one node on (back up a row where its row is
//! exhausted, then on to the next square of the row or down into it), with selects instead of
//! branches, so that the loop has no branch that depends on the board but its exit. A lane
//! keeps its lines as the scalar search does, but instead of a stack of frames only the
//! column of each row's queen, five bits a row, in two `u32`: stepping back up recomputes the
//! lines from them (the diagonals are shifted back, which is exact on the board's columns as
//! long as the words have room for the bits shifted out, see [`start_row`]), and the row's
//! remaining squares are its candidates above the queen just taken. The last two rows are
//! counted without a loop, as in the scalar tails; a placement there that may tie with a
//! rotation (rare) is handed, with its board rebuilt from the item and the lane's columns, to
//! the same leaves as the scalar search.
//!
//! The lanes run where the CPU has AVX2, in a copy of the loop compiled for it, in which each
//! lane operation is one instruction on all eight lanes; elsewhere, or where the environment
//! variable `BEZZEL_NO_AVX2` is set (as for bezzel-core's all-different kernels), the scalar
//! search runs instead ([`Kernel::detect`]). A plain copy of the loop, slower than the scalar
//! search, lets the tests check the lanes' logic on any CPU: both copies give the counts of
//! the scalar search.
//!
//! Why `unsafe` here (the crate's only module with it): calling the loop compiled for AVX2,
//! which [`Avx2`] proves the CPU has. Measured against the plain copy and the scalar search,
//! see the module docs of [`symmetry_count`](super).

#![allow(unsafe_code)]
// Elsewhere than on x86-64 the AVX2 kernel is an empty type, whose methods are never used.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use super::orbit::{EdgeLeaves, EdgeTest, Leaves, Tally};
use super::shape::{Rules, Shape};
use crate::counter::Poll;
use crate::kernel::{Lines, STACK_LEN, STACK_MASK};
use std::sync::OnceLock;

/// The lanes of the loop: eight `u32`, one AVX2 register.
pub(super) const LANES: usize = 8;

/// How many rows below the subproblem's queens each item fixes: enough items to keep the lanes
/// busy to the end of a subproblem (hundreds on 16 columns), few enough that extending them is
/// a small part of the work.
const ITEM_ROWS: usize = 3;

/// The bits of a row's column on a lane's stack, how many rows each of its two `u32` holds,
/// and how many it holds in all.
const COLUMN_BITS: u32 = 5;
const WORD_ROWS: u32 = u32::BITS / COLUMN_BITS;
const STACK_ROWS: usize = 2 * WORD_ROWS as usize;
/// The bits of one row's column, and of a word's rows.
const COLUMN_MASK: u32 = (1 << COLUMN_BITS) - 1;
const WORD_MASK: u32 = (1 << (COLUMN_BITS * WORD_ROWS)) - 1;

/// The lane loop returns to its driver at least this often, to look at the poll and keep the
/// per-lane counts (`u32`) far from overflowing.
const STEPS_PER_ROUND: u32 = 1 << 14;

/// The row at which the lanes of an `n`-column search take their items, below `prefix_rows`
/// fixed rows; `None` where the lanes do not fit. The lanes search rows `start..n - 2`, down to
/// the last two, which they count without a loop, so:
/// - a lane's stack holds the columns of rows `start..n - 3`: at most [`STACK_ROWS`];
/// - the stepping back up leaves wrong bits where the shifts dropped some, at most one for
///   each row a lane is above its deepest row, `n - 3 - start`; the left diagonals have the
///   `32 - n` bits above the board for them, and the right ones are kept `32 - n` bits up in
///   their word, so that they have as many below;
/// - at least three rows are searched by the lanes, or the items would be the whole work.
pub(super) fn start_row(n: usize, prefix_rows: usize) -> Option<usize> {
    let start = (prefix_rows + ITEM_ROWS)
        .max((2 * n).saturating_sub(35))
        .max(n.saturating_sub(3 + STACK_ROWS));
    fits(n, start).then_some(start)
}

/// Whether the lanes can search an `n`-column board from row `start` (see [`start_row`]).
pub(super) fn fits(n: usize, start: usize) -> bool {
    (4..=32).contains(&n)
        && start >= 2
        && start + 3 <= n - 2
        && n - 3 - start <= STACK_ROWS
        && n - 3 - start <= 32 - n
}

/// Proof that this CPU runs AVX2: made only where it was detected. Elsewhere than on x86-64
/// it holds a value of an empty type, so none exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Avx2(Private);

#[cfg(target_arch = "x86_64")]
type Private = ();
#[cfg(not(target_arch = "x86_64"))]
type Private = std::convert::Infallible;

/// Which compiled copy of the lane loop runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kernel {
    /// Compiled for the baseline CPU: slower than the scalar search (on x86-64, SSE2 does four
    /// lanes at a time, and the lanes take more steps than the scalar search takes nodes), so
    /// only the tests run it, to check the lanes' logic on any CPU.
    #[cfg_attr(not(test), allow(dead_code))]
    Plain,
    /// Compiled with AVX2.
    Avx2(Avx2),
}

impl Kernel {
    /// The AVX2 kernel where the CPU has it and `BEZZEL_NO_AVX2` is not set (to any value),
    /// else `None`: the scalar search; decided once per process.
    pub(super) fn detect() -> Option<Kernel> {
        static KERNEL: OnceLock<Option<Kernel>> = OnceLock::new();
        *KERNEL.get_or_init(|| Kernel::choose(std::env::var_os("BEZZEL_NO_AVX2").is_some()))
    }

    /// [`detect`](Self::detect) without its memory: `None` if `scalar_asked`.
    pub(super) fn choose(scalar_asked: bool) -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        if !scalar_asked && std::is_x86_feature_detected!("avx2") {
            return Some(Kernel::Avx2(Avx2(())));
        }
        let _ = scalar_asked;
        None
    }

    fn steps<const EDGE: bool>(self, lanes: &mut Lanes<'_>) -> u32 {
        match self {
            Kernel::Plain => lanes.steps::<EDGE>(),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an `Avx2` exists only where the CPU was seen to have AVX2.
            Kernel::Avx2(_) => unsafe { steps_avx2::<EDGE>(lanes) },
            #[cfg(not(target_arch = "x86_64"))]
            Kernel::Avx2(proof) => match proof.0 {},
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn steps_avx2<const EDGE: bool>(lanes: &mut Lanes<'_>) -> u32 {
    lanes.steps::<EDGE>()
}

/// One `u32` per lane; each operation is a loop over the lanes, which the compiler turns into
/// one vector instruction.
#[derive(Debug, Clone, Copy)]
#[repr(align(32))]
struct V([u32; LANES]);

/// The lanes' stacks of columns: in each lane the latest [`WORD_ROWS`] rows' columns in `near`,
/// latest lowest, and the rows above them in `far` (two `u32` rather than one `u64`, so that
/// they take the same vector instructions as the rest).
#[derive(Debug, Clone, Copy)]
struct Stack {
    near: V,
    far: V,
}

impl Stack {
    const EMPTY: Stack = Stack {
        near: V([0; LANES]),
        far: V([0; LANES]),
    };

    /// The column of the latest row.
    #[inline(always)]
    fn top(self) -> V {
        self.near.map(|w| w & COLUMN_MASK)
    }

    /// The column of the row `up` rows above the latest.
    #[inline(always)]
    fn entry(self, up: u32) -> V {
        let (word, up) = if up < WORD_ROWS {
            (self.near, up)
        } else {
            (self.far, up - WORD_ROWS)
        };
        word.map(|w| (w >> (COLUMN_BITS * up)) & COLUMN_MASK)
    }

    /// In one lane, every column, latest lowest, as one number.
    fn lane(self, lane: usize) -> u64 {
        u64::from(self.far.0[lane]) << (COLUMN_BITS * WORD_ROWS) | u64::from(self.near.0[lane])
    }

    /// The stacks without their latest rows where `mask` is set.
    #[inline(always)]
    fn pop_where(self, mask: V) -> Stack {
        let near = self.near.zip(self.far, |near, far| {
            (near >> COLUMN_BITS) | ((far & COLUMN_MASK) << (COLUMN_BITS * (WORD_ROWS - 1)))
        });
        let far = self.far.map(|far| far >> COLUMN_BITS);
        Stack {
            near: mask.select(near, self.near),
            far: mask.select(far, self.far),
        }
    }

    /// The stacks with `column` pushed where `stay` is clear.
    #[inline(always)]
    fn push_unless(self, stay: V, column: V) -> Stack {
        let near = self.near.zip(column, |near, column| {
            ((near << COLUMN_BITS) & WORD_MASK) | column
        });
        let far = self.far.zip(self.near, |far, near| {
            (far << COLUMN_BITS) | (near >> (COLUMN_BITS * (WORD_ROWS - 1)))
        });
        Stack {
            near: stay.select(self.near, near),
            far: stay.select(self.far, far),
        }
    }
}

impl V {
    #[inline(always)]
    fn splat(x: u32) -> V {
        V([x; LANES])
    }

    #[inline(always)]
    fn map(self, f: impl Fn(u32) -> u32) -> V {
        V(self.0.map(f))
    }

    #[inline(always)]
    fn zip(self, other: V, f: impl Fn(u32, u32) -> u32) -> V {
        V(std::array::from_fn(|l| f(self.0[l], other.0[l])))
    }

    #[inline(always)]
    fn and(self, other: V) -> V {
        self.zip(other, |a, b| a & b)
    }

    #[inline(always)]
    fn or(self, other: V) -> V {
        self.zip(other, |a, b| a | b)
    }

    #[inline(always)]
    fn xor(self, other: V) -> V {
        self.zip(other, |a, b| a ^ b)
    }

    /// `other` without the bits of `self`.
    #[inline(always)]
    fn and_not(self, other: V) -> V {
        self.zip(other, |a, b| !a & b)
    }

    /// All ones where the lanes are equal, else zero.
    #[inline(always)]
    fn eq(self, other: V) -> V {
        self.zip(other, |a, b| if a == b { !0 } else { 0 })
    }

    /// All ones where the lane is below `other`'s, as signed numbers (one instruction in
    /// AVX2, which has no unsigned comparison; rows and columns are small).
    #[inline(always)]
    fn less(self, other: V) -> V {
        self.zip(other, |a, b| if (a as i32) < (b as i32) { !0 } else { 0 })
    }

    #[inline(always)]
    fn add(self, other: V) -> V {
        self.zip(other, u32::wrapping_add)
    }

    #[inline(always)]
    fn sub(self, other: V) -> V {
        self.zip(other, u32::wrapping_sub)
    }

    #[inline(always)]
    fn shr(self, by: u32) -> V {
        self.map(|a| a >> by)
    }

    #[inline(always)]
    fn shl(self, by: u32) -> V {
        self.map(|a| a << by)
    }

    #[inline(always)]
    fn is_zero(self) -> V {
        self.eq(V::splat(0))
    }

    #[inline(always)]
    fn is_set(self) -> V {
        self.map(|a| if a != 0 { !0 } else { 0 })
    }

    #[inline(always)]
    fn lowest_bit(self) -> V {
        self.map(|a| a & a.wrapping_neg())
    }

    /// `a` where the mask `self` is set, else `b`.
    #[inline(always)]
    fn select(self, a: V, b: V) -> V {
        a.and(self).or(self.and_not(b))
    }

    #[inline(always)]
    fn any(self) -> bool {
        self.0.iter().fold(0, |acc, &a| acc | a) != 0
    }
}

/// What the lane loop needs of the search's rules, as constants.
#[derive(Debug, Clone, Copy)]
struct Consts {
    all: u32,
    /// How far up the right diagonals are kept (see [`start_row`]).
    rd_up: u32,
    start: u32,
    /// The row three from the bottom, below which the lanes count without a loop.
    bottom: u32,
    /// Rows above `ban_above` keep off the columns `ban` (`SIDEMASK`, or the second column of
    /// a corner shape).
    ban: u32,
    ban_above: u32,
    /// Row `need_row` must take the side columns left free (`u32::MAX` where none must).
    need_row: u32,
    sides: u32,
    /// The rules of the last two rows: the columns each may take, and for the last row only
    /// those that the second-last row need not take (a needed column left to the last row
    /// was missing from the second-last).
    allowed_second_last: u32,
    allowed_last: u32,
    /// An edge shape's placements that may tie with a rotation: a queen in these columns in the
    /// last two rows, in `tie_columns_third_last` in the row three from the bottom, or in the
    /// column `tie_stack[i].1` in the row `tie_stack[i].0` rows up the lane's stack (from the
    /// row four from the bottom); the item's rows are looked at when it is taken.
    tie_columns_last_two: u32,
    tie_columns_third_last: u32,
    tie_stack: [(u32, u32); 2],
}

impl Consts {
    fn new(n: usize, shape: Shape, rules: &Rules, start: usize) -> Self {
        let (ban, ban_above, need_row) = match shape {
            Shape::Corner { bound1 } => (2, bound1, usize::MAX),
            Shape::Edge { bound1 } => (rules.sides, bound1, n - 1 - bound1),
        };
        let mut consts = Consts {
            all: rules.all,
            rd_up: 32 - n as u32,
            start: start as u32,
            bottom: (n - 3) as u32,
            ban,
            ban_above: ban_above as u32,
            need_row: u32::try_from(need_row).unwrap_or(u32::MAX),
            sides: rules.sides,
            allowed_second_last: rules.allowed[n - 2],
            allowed_last: rules.allowed[n - 1] & !rules.need[n - 2],
            tie_columns_last_two: 0,
            tie_columns_third_last: 0,
            // No column is 32: these match nothing.
            tie_stack: [(0, 32); 2],
        };
        if let Shape::Edge { bound1 } = shape {
            let test = EdgeTest::new(n, bound1);
            // The last row's queen in `ENDBIT`, or the queen of `BOUND1` or `BOUND2` in
            // `TOPBIT` or column 0.
            consts.tie_columns_last_two = test.end_bit;
            let rows = [(test.bound1, n - 1), (test.bound2, 0)];
            for (slot, (row, column)) in rows.into_iter().enumerate() {
                if row >= n - 2 {
                    consts.tie_columns_last_two |= 1 << column;
                } else if row == n - 3 {
                    consts.tie_columns_third_last |= 1 << column;
                } else if row >= start {
                    consts.tie_stack[slot] = ((n - 4 - row) as u32, column as u32);
                }
            }
        }
        consts
    }
}

/// The state of the lanes and the items they take.
struct Lanes<'a> {
    c: Consts,
    cols: V,
    ld: V,
    rd_up: V,
    avail: V,
    row: V,
    stack: Stack,
    /// Lanes that have an item; the others stay at the start row with no square left.
    active: V,
    /// Items whose own rows may tie with a rotation (edge shapes).
    item_may_tie: V,
    /// Representatives of orbits of 8 counted by each lane since the last round.
    eights: V,
    /// The item each lane searches.
    item_of: [usize; LANES],
    items: &'a Items,
    leaves: Option<EdgeLeaves>,
}

/// The placements of the start row, with the boards above them.
struct Items {
    lines: Vec<Lines>,
    /// The queens of rows `0..start` of each item, one after the other.
    boards: Vec<u32>,
    start: usize,
}

impl Items {
    /// The items of the representatives that start with `prefix` (none if the rules or the
    /// queens themselves rule it out), from row `start`.
    fn new(rules: &Rules, prefix: &[usize], start: usize) -> Items {
        let mut items = Items {
            lines: Vec::new(),
            boards: Vec::new(),
            start,
        };
        if let Some((lines, mut board)) = rules.place(prefix) {
            items.extend(rules, prefix.len(), lines, &mut board);
        }
        items
    }

    /// Adds every extension of the board down to the start row that the rules allow, and that
    /// leaves the start row a square.
    fn extend(&mut self, rules: &Rules, row: usize, lines: Lines, board: &mut [u32; STACK_LEN]) {
        let avail = rules.candidates(row, lines);
        if row == self.start {
            if avail != 0 {
                self.lines.push(lines);
                self.boards.extend_from_slice(&board[..row]);
            }
            return;
        }
        let mut rest = avail;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            board[row & STACK_MASK] = bit;
            self.extend(rules, row + 1, lines.place(bit), board);
        }
    }
}

impl Lanes<'_> {
    /// The columns `row` may take below the lines (`rd` in place, not kept up), by the rules,
    /// in each lane. Only edge shapes need a row to take the side columns.
    #[inline(always)]
    fn candidates<const EDGE: bool>(c: &Consts, row: V, cols: V, ld: V, rd: V) -> V {
        let banned = row.less(V::splat(c.ban_above)).and(V::splat(c.ban));
        let avail = cols.or(ld).or(rd).or(banned).and_not(V::splat(c.all));
        if !EDGE {
            return avail;
        }
        // The side columns still free in the row that must take them: one must be taken
        // now, and two leave no square.
        let sides = V::splat(c.sides);
        let missing = row.eq(V::splat(c.need_row)).and(cols.and_not(sides));
        let keep = missing.is_zero().or(missing.eq(sides).and_not(missing));
        avail.and(keep)
    }

    /// Steps the lanes until one is done with its item, or for [`STEPS_PER_ROUND`] steps;
    /// returns how many. Always inlined, so that each kernel compiles it with its features.
    #[inline(always)]
    fn steps<const EDGE: bool>(&mut self) -> u32 {
        let c = self.c;
        let start = V::splat(c.start);
        let bottom = V::splat(c.bottom);
        let one = V::splat(1);
        // The lanes' state in locals, stored back once at the end.
        let (mut cols, mut ld, mut rd_up, mut avail, mut row) =
            (self.cols, self.ld, self.rd_up, self.avail, self.row);
        let mut stack = self.stack;
        let mut eights = self.eights;
        let mut taken = 0;
        loop {
            let exhausted = avail.is_zero();
            let at_start = row.eq(start);
            if taken == STEPS_PER_ROUND || self.active.and(exhausted).and(at_start).any() {
                break;
            }
            taken += 1;
            // Back up a row where the row is exhausted, above the item's start.
            let back = at_start.and_not(exhausted);
            let bit = stack.top().map(|column| 1 << column);
            let up_cols = cols.xor(bit);
            let up_ld = ld.shr(1).xor(bit);
            let up_rd_up = rd_up.shl(1).xor(bit.shl(c.rd_up));
            let up_row = row.sub(one);
            // The row's squares above the queen that it had.
            let above = bit.shl(1).map(u32::wrapping_neg);
            let up_avail =
                Self::candidates::<EDGE>(&c, up_row, up_cols, up_ld, up_rd_up.shr(c.rd_up))
                    .and(above);
            let stack_up = stack.pop_where(back);
            let cols_up = back.select(up_cols, cols);
            let ld_up = back.select(up_ld, ld);
            let rd_up_up = back.select(up_rd_up, rd_up);
            let avail_up = back.select(up_avail, avail);
            let row_up = back.select(up_row, row);

            // Then on to the next square: down into it, or, three rows from the bottom,
            // count the last two rows below it.
            let bit = avail_up.lowest_bit();
            let none = avail_up.is_zero();
            let next_cols = cols_up.or(bit);
            let next_ld = ld_up.or(bit).shl(1);
            let next_rd_up = rd_up_up.or(bit.shl(c.rd_up)).shr(1);
            let next_rd = next_rd_up.shr(c.rd_up);
            let at_bottom = row_up.eq(bottom);
            let next_row = row_up.add(one);
            let next_avail = Self::candidates::<EDGE>(&c, next_row, next_cols, next_ld, next_rd);
            let stay = none.or(at_bottom).or(next_avail.is_zero());
            let counted = none.and_not(at_bottom);
            let last_two = last_two(&c, next_cols, next_ld, next_rd);
            let mut found = counted.and(last_two.count);
            if EDGE {
                let may_tie = self
                    .may_tie(stack_up, bit, last_two.free)
                    .and(found.is_set());
                if may_tie.any() {
                    found = self.tie_leaves(may_tie, found, stack_up, bit, &last_two);
                }
            }
            eights = eights.add(found);
            // The column of the queen, from the exponent of the bit as a float (exact for a
            // power of two below 2^31).
            let column = bit.map(|b| ((b as i32 as f32).to_bits() >> 23).wrapping_sub(127));
            stack = stack_up.push_unless(stay, column);
            cols = stay.select(cols_up, next_cols);
            ld = stay.select(ld_up, next_ld);
            rd_up = stay.select(rd_up_up, next_rd_up);
            avail = stay.select(avail_up.xor(bit), next_avail);
            row = stay.select(row_up, next_row);
        }
        (self.cols, self.ld, self.rd_up, self.avail, self.row) = (cols, ld, rd_up, avail, row);
        self.stack = stack;
        self.eights = eights;
        taken
    }

    /// The lanes whose placement, with `bit` in the row three from the bottom and the last two
    /// rows in the columns `free`, may tie with a rotation.
    #[inline(always)]
    fn may_tie(&self, stack: Stack, bit: V, free: V) -> V {
        let c = &self.c;
        let mut may = self
            .item_may_tie
            .or(free.and(V::splat(c.tie_columns_last_two)).is_set())
            .or(bit.and(V::splat(c.tie_columns_third_last)).is_set());
        for (up, column) in c.tie_stack {
            may = may.or(stack.entry(up).eq(V::splat(column)));
        }
        may
    }

    /// The lanes of `may_tie` with their placements handed to the leaves (the others as in
    /// `found`): rare, so out of the loop.
    #[cold]
    #[inline(never)]
    fn tie_leaves(&mut self, may_tie: V, found: V, stack: Stack, bit: V, t: &LastTwoLanes) -> V {
        let mut found = found;
        let n = self.c.bottom as usize + 3;
        let start = self.items.start;
        for lane in (0..LANES).filter(|&lane| may_tie.0[lane] != 0) {
            let mut board = [0u32; STACK_LEN];
            let item = self.item_of[lane];
            board[..start].copy_from_slice(&self.items.boards[item * start..][..start]);
            let mut entries = stack.lane(lane);
            for row in (start..n - 3).rev() {
                board[row & STACK_MASK] = 1 << (entries as u32 & COLUMN_MASK);
                entries >>= COLUMN_BITS;
            }
            board[(n - 3) & STACK_MASK] = bit.0[lane];
            let leaves = self.leaves.as_mut().expect("edge shapes have leaves");
            let (low, high) = (t.low.0[lane], t.high.0[lane]);
            let mut count = 0;
            for (here, below, valid) in [
                (low, high, t.low_first.0[lane]),
                (high, low, t.high_first.0[lane]),
            ] {
                if valid != 0 {
                    board[(n - 2) & STACK_MASK] = here;
                    board[(n - 1) & STACK_MASK] = below;
                    count += leaves.leaf(&board) as u32;
                }
            }
            found.0[lane] = count;
        }
        found
    }

    /// Gives the lanes that are done (or never had one) their next item, if any is left;
    /// returns whether any lane has one.
    fn refill(&mut self, next: &mut usize, rules: &Rules) -> bool {
        let c = self.c;
        for lane in 0..LANES {
            let done = self.avail.0[lane] == 0 && self.row.0[lane] == c.start;
            if !done {
                continue;
            }
            self.active.0[lane] = 0;
            let Some(&lines) = self.items.lines.get(*next) else {
                continue;
            };
            let start = self.items.start;
            self.item_of[lane] = *next;
            self.cols.0[lane] = lines.cols;
            self.ld.0[lane] = lines.ld;
            self.rd_up.0[lane] = lines.rd << c.rd_up;
            self.avail.0[lane] = rules.candidates(start, lines);
            self.stack.near.0[lane] = 0;
            self.stack.far.0[lane] = 0;
            self.active.0[lane] = !0;
            let board = &self.items.boards[*next * start..][..start];
            self.item_may_tie.0[lane] = match &self.leaves {
                Some(leaves) => {
                    let test = &leaves.test;
                    let at = |row: usize| board.get(row).copied();
                    if at(test.bound1) == Some(test.top_bit) || at(test.bound2) == Some(1) {
                        !0
                    } else {
                        0
                    }
                }
                None => 0,
            };
            *next += 1;
        }
        self.active.any()
    }
}

/// The last two rows below some lines in each lane, with the rules of those rows (see
/// [`LastTwo`](crate::kernel::LastTwo)).
struct LastTwoLanes {
    free: V,
    low: V,
    high: V,
    /// All ones where the lower column may go first, the higher first.
    low_first: V,
    high_first: V,
    /// How many ways, 0 to 2.
    count: V,
}

/// The two free columns may go in the last two rows in an order where the first is free in
/// the second-last row and the second in the last: then the two rows' picks, a bit each, make
/// up `free`. Columns side by side never fit, so for them the picks are compared with all
/// ones, which two bits never make.
#[inline(always)]
fn last_two(c: &Consts, cols: V, ld: V, rd: V) -> LastTwoLanes {
    let free = cols.and_not(V::splat(c.all));
    let low = free.lowest_bit();
    let high = free.xor(low);
    let here = ld.or(rd).and_not(V::splat(c.allowed_second_last));
    let below = ld.shl(1).or(rd.shr(1)).and_not(V::splat(c.allowed_last));
    let whole = free.or(high.eq(low.add(low)));
    let low_first = low.and(here).or(high.and(below)).eq(whole);
    let high_first = high.and(here).or(low.and(below)).eq(whole);
    let count = V::splat(0).sub(low_first).sub(high_first);
    LastTwoLanes {
        free,
        low,
        high,
        low_first,
        high_first,
        count,
    }
}

/// Counts the representatives of `shape` that start with `prefix` (which must fit the board)
/// in the lanes of `kernel`, taking items at row `start` (for which [`fits`] must hold, and
/// which must be at or below the prefix); `None` if `poll` said to give up.
pub(super) fn count(
    n: usize,
    shape: Shape,
    prefix: &[usize],
    start: usize,
    kernel: Kernel,
    poll: &impl Poll,
) -> Option<Tally> {
    assert!(fits(n, start) && prefix.len() <= start);
    let rules = Rules::new(n, shape);
    let items = Items::new(&rules, prefix, start);
    let leaves = match shape {
        Shape::Corner { .. } => None,
        Shape::Edge { bound1 } => Some(EdgeLeaves {
            test: EdgeTest::new(n, bound1),
            tally: Tally::default(),
        }),
    };
    let c = Consts::new(n, shape, &rules, start);
    let mut lanes = Lanes {
        c,
        cols: V::splat(0),
        ld: V::splat(0),
        rd_up: V::splat(0),
        avail: V::splat(0),
        row: V::splat(c.start),
        stack: Stack::EMPTY,
        active: V::splat(0),
        item_may_tie: V::splat(0),
        eights: V::splat(0),
        item_of: [0; LANES],
        items: &items,
        leaves,
    };
    let mut next = 0;
    let mut eights = 0u64;
    while lanes.refill(&mut next, &rules) {
        if poll.cancelled() {
            return None;
        }
        if lanes.leaves.is_some() {
            kernel.steps::<true>(&mut lanes);
        } else {
            kernel.steps::<false>(&mut lanes);
        }
        eights += lanes.eights.0.iter().map(|&e| u64::from(e)).sum::<u64>();
        lanes.eights = V::splat(0);
    }
    let tally = lanes
        .leaves
        .map_or_else(Tally::default, |leaves| leaves.tally);
    Some(Tally {
        eight: tally.eight + eights,
        ..tally
    })
}

/// How many items the lanes take for the representatives of `shape` that start with `prefix`,
/// from row `start`.
#[cfg(test)]
pub(super) fn items(n: usize, shape: Shape, prefix: &[usize], start: usize) -> usize {
    Items::new(&Rules::new(n, shape), prefix, start).lines.len()
}
