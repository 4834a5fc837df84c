//! The search of one shape, on the bit kernel: the stack loop down to the
//! last five rows, then one of the tails ([`Tail`]), each compiled for the
//! restrictions that can reach it.

use super::orbit::Leaves;
use super::shape::{Rules, Shape};
use crate::counter::Poll;
use crate::kernel::{
    LastTwo, Lines, Rows, STACK_LEN, STACK_MASK, TAIL_ROWS, count_last_five, search_rows,
    sum_over_bits,
};

/// How the last [`TAIL_ROWS`] rows of a shape are searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tail {
    /// With the per-row [`Rules`], as any shape allows.
    Rules,
    /// With no rules at all: a corner shape whose rows `2..BOUND1` are all
    /// above the tail.
    Plain,
    /// An edge shape whose rows `1..BOUND1` are all above the tail, so that
    /// only `LASTMASK` in the bottom row and, where row `BOUND2` is in the
    /// tail, its side columns restrict the tail.
    Edge {
        /// How many rows from the bottom row `BOUND2` is, when that is 3, 4
        /// or 5; otherwise 0 (row `BOUND2` is above the tail, or next to
        /// the bottom row, where `LASTMASK` takes care of the sides).
        sides: usize,
    },
}

impl Tail {
    /// The fastest tail that is right for `shape`.
    pub(super) fn fastest(n: usize, shape: Shape) -> Tail {
        match shape {
            Shape::Corner { bound1 } if bound1 + TAIL_ROWS <= n => Tail::Plain,
            Shape::Edge { bound1 } if bound1 + TAIL_ROWS <= n => {
                let from_bottom = bound1 + 1;
                Tail::Edge {
                    sides: if (3..=TAIL_ROWS).contains(&from_bottom) {
                        from_bottom
                    } else {
                        0
                    },
                }
            }
            _ => Tail::Rules,
        }
    }
}

/// The search of one shape: its rules, the board (kept only when the leaves
/// read it) and what to do with complete placements.
#[derive(Debug)]
struct Search<'r, 'p, L, P> {
    rules: &'r Rules,
    board: [u32; STACK_LEN],
    leaves: L,
    poll: &'p P,
}

impl<L: Leaves, P: Poll> Rows for Search<'_, '_, L, P> {
    type Tail = Tail;

    /// The columns `row` may take below `lines`, by the rules.
    #[inline(always)]
    fn candidates(&self, row: usize, lines: Lines) -> u32 {
        self.rules.candidates(row, lines)
    }

    #[inline(always)]
    fn set(&mut self, row: usize, bit: u32) {
        if L::BOARD {
            self.board[row & STACK_MASK] = bit;
        }
    }

    #[inline(always)]
    fn tail(&mut self, tail: Tail, row: usize, lines: Lines) -> u64 {
        match tail {
            Tail::Rules => self.last_five(row, lines),
            Tail::Plain => count_last_five(self.rules.all, lines),
            Tail::Edge { sides: 3 } => self.edge_five::<3>(row, lines),
            Tail::Edge { sides: 4 } => self.edge_five::<4>(row, lines),
            Tail::Edge { sides: 5 } => self.edge_five::<5>(row, lines),
            Tail::Edge { .. } => self.edge_five::<0>(row, lines),
        }
    }
}

impl<L: Leaves, P: Poll> Search<'_, '_, L, P> {
    /// Places `prefix` from the top row; `None` if the rules or the queens
    /// themselves rule it out.
    fn place_prefix(&mut self, prefix: &[usize]) -> Option<Lines> {
        let (lines, board) = self.rules.place(prefix)?;
        self.board = board;
        Some(lines)
    }

    // With the rules: any shape, any depth.

    /// The last row, `row`, below `lines`: at most one column is left.
    #[inline(always)]
    fn last_one(&mut self, row: usize, lines: Lines) -> u64 {
        let bit = self.rules.candidates(row, lines);
        if bit == 0 {
            return 0;
        }
        self.set(row, bit);
        self.leaves.leaf(&self.board)
    }

    /// The last two rows, from `row`, without a loop (see [`LastTwo`]), each
    /// order also tested against the rules.
    #[inline(always)]
    fn last_two(&mut self, row: usize, lines: Lines) -> u64 {
        let rules = self.rules;
        let t = LastTwo::new(rules.all, lines);
        let here = rules.allowed[row & STACK_MASK] & !t.here;
        let below = rules.allowed[(row + 1) & STACK_MASK] & !t.below;
        let missing = rules.need[row & STACK_MASK] & t.free;
        let (low, high) = (t.low, t.high);
        let low_first = t.apart & (low & here != 0) & (high & below != 0) & (missing & !low == 0);
        let high_first = t.apart & (high & here != 0) & (low & below != 0) & (missing & !high == 0);
        if !L::BOARD {
            return u64::from(low_first) + u64::from(high_first);
        }
        self.both_orders(row, [(low, high, low_first), (high, low, high_first)])
    }

    /// Hands the complete placements whose last two rows, from `row`, take
    /// the columns `(here, below)` to the leaves, where `valid`.
    fn both_orders(&mut self, row: usize, orders: [(u32, u32, bool); 2]) -> u64 {
        let mut count = 0;
        for (here, below, valid) in orders {
            if valid {
                self.set(row, here);
                self.set(row + 1, below);
                count += self.leaves.leaf(&self.board);
            }
        }
        count
    }

    /// The last three rows, from `row`: a loop over the columns `row` may
    /// take, each followed by [`last_two`](Self::last_two).
    #[inline(always)]
    fn last_three(&mut self, row: usize, lines: Lines) -> u64 {
        sum_over_bits(self.rules.candidates(row, lines), |bit| {
            self.set(row, bit);
            self.last_two(row + 1, lines.place(bit))
        })
    }

    /// The last four rows, from `row`, likewise.
    #[inline(always)]
    fn last_four(&mut self, row: usize, lines: Lines) -> u64 {
        sum_over_bits(self.rules.candidates(row, lines), |bit| {
            self.set(row, bit);
            self.last_three(row + 1, lines.place(bit))
        })
    }

    /// The last five rows, from `row`, likewise.
    #[inline(always)]
    fn last_five(&mut self, row: usize, lines: Lines) -> u64 {
        sum_over_bits(self.rules.candidates(row, lines), |bit| {
            self.set(row, bit);
            self.last_four(row + 1, lines.place(bit))
        })
    }

    // The fast tails, [`Tail::Plain`] and [`Tail::Edge`]: only the
    // restrictions that can reach the last five rows are tested. A plain tail
    // has none, and is the kernel's [`count_last_five`].

    /// The last two rows of a [`Tail::Edge`] search: the bottom row keeps
    /// off `LASTMASK`, and the few placements that may tie with a rotation
    /// go to the leaves.
    #[inline(always)]
    fn edge_two(&mut self, row: usize, lines: Lines) -> u64 {
        let rules = self.rules;
        let t = LastTwo::new(rules.all, lines);
        let here = !t.here;
        let below = rules.allowed[(row + 1) & STACK_MASK] & !t.below;
        let (low, high) = (t.low, t.high);
        let low_first = t.apart & (low & here != 0) & (high & below != 0);
        let high_first = t.apart & (high & here != 0) & (low & below != 0);
        let count = u64::from(low_first) + u64::from(high_first);
        if count != 0 && self.leaves.needs_leaf(&self.board, t.free) {
            return self.edge_leaves(row, [(low, high, low_first), (high, low, high_first)]);
        }
        count
    }

    #[cold]
    #[inline(never)]
    fn edge_leaves(&mut self, row: usize, orders: [(u32, u32, bool); 2]) -> u64 {
        self.both_orders(row, orders)
    }

    /// The columns the row `K` rows from the bottom of an edge tail may
    /// take: any free one, except that row `BOUND2`, `SIDES` rows from the
    /// bottom, must take the side columns that the rows above left free.
    #[inline(always)]
    fn edge_candidates<const K: usize, const SIDES: usize>(&self, lines: Lines) -> u32 {
        let avail = self.rules.all & !lines.attacked();
        if K != SIDES {
            return avail;
        }
        let sides = self.rules.sides;
        let missing = sides & !lines.cols;
        if missing == sides {
            0
        } else if missing != 0 {
            avail & missing
        } else {
            avail
        }
    }

    /// The row three from the bottom of a [`Tail::Edge`] search.
    #[inline(always)]
    fn edge_three<const SIDES: usize>(&mut self, row: usize, lines: Lines) -> u64 {
        sum_over_bits(self.edge_candidates::<3, SIDES>(lines), |bit| {
            self.set(row, bit);
            self.edge_two(row + 1, lines.place(bit))
        })
    }

    /// The row four from the bottom of an edge tail.
    #[inline(always)]
    fn edge_four<const SIDES: usize>(&mut self, row: usize, lines: Lines) -> u64 {
        sum_over_bits(self.edge_candidates::<4, SIDES>(lines), |bit| {
            self.set(row, bit);
            self.edge_three::<SIDES>(row + 1, lines.place(bit))
        })
    }

    /// The row five from the bottom of an edge tail.
    #[inline(always)]
    fn edge_five<const SIDES: usize>(&mut self, row: usize, lines: Lines) -> u64 {
        sum_over_bits(self.edge_candidates::<5, SIDES>(lines), |bit| {
            self.set(row, bit);
            self.edge_four::<SIDES>(row + 1, lines.place(bit))
        })
    }

    /// Searches rows `first..n` below `start`, the last five as `tail` says;
    /// returns the representatives of orbits of 8 that the leaves left to
    /// it, or `None` if the poll said to give up. This is the hot loop; it is
    /// inlined where `tail` is a constant, which compiles it once for each
    /// kind of tail.
    #[inline(always)]
    fn run(&mut self, tail: Tail, first: usize, start: Lines) -> Option<u64> {
        let n = self.rules.n;
        match n - first {
            0 => return Some(self.leaves.leaf(&self.board)),
            1 => return Some(self.last_one(first, start)),
            2 => return Some(self.last_two(first, start)),
            3 => return Some(self.last_three(first, start)),
            4 => return Some(self.last_four(first, start)),
            5 => return Some(self.last_five(first, start)),
            _ => {}
        }
        let poll = self.poll;
        search_rows(self, tail, n, first, start, poll)
    }
}

/// Searches the representatives of `shape` that start with `prefix` (which
/// must fit the board), the last rows as `tail` says (which must be right
/// for `shape`); returns the orbits of 8 that the leaves left to the caller
/// (`None` if `poll` said to give up), and the leaves.
pub(super) fn search_shape<L: Leaves, P: Poll>(
    n: usize,
    shape: Shape,
    prefix: &[usize],
    tail: Tail,
    leaves: L,
    poll: &P,
) -> (Option<u64>, L) {
    let rules = Rules::new(n, shape);
    let mut search = Search {
        rules: &rules,
        board: [0; STACK_LEN],
        leaves,
        poll,
    };
    let Some(lines) = search.place_prefix(prefix) else {
        return (Some(0), search.leaves);
    };
    let first = prefix.len();
    let eights = match tail {
        Tail::Rules => search.run(Tail::Rules, first, lines),
        Tail::Plain => search.run(Tail::Plain, first, lines),
        Tail::Edge { sides: 3 } => search.run(Tail::Edge { sides: 3 }, first, lines),
        Tail::Edge { sides: 4 } => search.run(Tail::Edge { sides: 4 }, first, lines),
        Tail::Edge { sides: 5 } => search.run(Tail::Edge { sides: 5 }, first, lines),
        Tail::Edge { .. } => search.run(Tail::Edge { sides: 0 }, first, lines),
    };
    (eights, search.leaves)
}
