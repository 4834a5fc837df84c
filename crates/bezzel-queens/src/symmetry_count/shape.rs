//! The two kinds of representative ([`Shape`]) and the per-row restrictions
//! that keep the search to them ([`Rules`]): `BOUND1`, `SIDEMASK`, `LASTMASK`
//! and the side columns that row `BOUND2` must take.

use crate::kernel::{Lines, STACK_LEN, STACK_MASK, full_row};

/// The two kinds of representative; see the [`symmetry_count`](super) docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    /// A queen in the top-left corner and one in column `bound1` of row 1.
    Corner { bound1: usize },
    /// The top row's queen in column `bound1`, the nearest any border queen
    /// comes to a corner.
    Edge { bound1: usize },
}

impl Shape {
    /// The shape of the representatives on an `n`-column board that start
    /// with queens in columns `first` and `second`: `Err(())` if that takes
    /// the second row and it is not given, `Ok(None)` if no representative
    /// starts so.
    pub(super) fn of(n: usize, first: usize, second: Option<usize>) -> Result<Option<Shape>, ()> {
        match (first, second) {
            (0, None) => Err(()),
            (0, Some(bound1)) => Ok((2..=n - 2)
                .contains(&bound1)
                .then_some(Shape::Corner { bound1 })),
            (bound1, _) => Ok((2 * bound1 + 1 < n).then_some(Shape::Edge { bound1 })),
        }
    }

    /// Every shape on an `n`-column board, corners first.
    pub(super) fn all(n: usize) -> impl Iterator<Item = Shape> {
        let corners = (2..=n - 2).map(|bound1| Shape::Corner { bound1 });
        let edges = (1..).take_while(move |bound1| 2 * bound1 + 1 < n);
        corners.chain(edges.map(|bound1| Shape::Edge { bound1 }))
    }
}

/// The per-row restrictions of one [`Shape`] on an `n`-column board.
#[derive(Debug)]
pub(super) struct Rules {
    pub(super) n: usize,
    pub(super) all: u32,
    /// The two side columns (`SIDEMASK`).
    pub(super) sides: u32,
    /// The columns each row may take.
    pub(super) allowed: [u32; STACK_LEN],
    /// The columns that must be taken once each row has its queen.
    pub(super) need: [u32; STACK_LEN],
}

impl Rules {
    pub(super) fn new(n: usize, shape: Shape) -> Self {
        let all = full_row(n);
        let sides = 1 | 1 << (n - 1);
        let mut allowed = [all; STACK_LEN];
        let mut need = [0; STACK_LEN];
        match shape {
            Shape::Corner { bound1 } => {
                allowed[0] = 1;
                allowed[1] = 1 << bound1;
                for row in &mut allowed[2..bound1] {
                    *row &= !2;
                }
            }
            Shape::Edge { bound1 } => {
                let near_left = (1u32 << bound1) - 1;
                let last_mask = near_left | near_left << (n - bound1);
                allowed[0] = 1 << bound1;
                for row in &mut allowed[1..bound1] {
                    *row &= !sides;
                }
                allowed[n - 1] &= !last_mask;
                need[n - 1 - bound1] = sides;
            }
        }
        Self {
            n,
            all,
            sides,
            allowed,
            need,
        }
    }

    /// Places `prefix` from the top row: the lines below it and the board, or `None` if the
    /// rules or the queens themselves rule it out.
    pub(super) fn place(&self, prefix: &[usize]) -> Option<(Lines, [u32; STACK_LEN])> {
        let mut lines = Lines::EMPTY;
        let mut board = [0; STACK_LEN];
        for (row, &column) in prefix.iter().enumerate() {
            let bit = 1u32 << column;
            if self.candidates(row, lines) & bit == 0 {
                return None;
            }
            board[row & STACK_MASK] = bit;
            lines = lines.place(bit);
        }
        Some((lines, board))
    }

    /// The columns `row` may take below `lines`.
    #[inline(always)]
    pub(super) fn candidates(&self, row: usize, lines: Lines) -> u32 {
        let avail = self.allowed[row & STACK_MASK] & !lines.attacked();
        let missing = self.need[row & STACK_MASK] & !lines.cols;
        if missing == 0 {
            avail
        } else if missing & (missing - 1) == 0 {
            // The one column still missing must be taken now.
            avail & missing
        } else {
            0
        }
    }
}
