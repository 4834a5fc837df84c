//! What the search does with complete placements ([`Leaves`]): a corner
//! representative is always an orbit of 8; an edge one is compared with its
//! rotations where one may tie ([`EdgeTest`]), and tallied by orbit size
//! ([`Tally`]).

use crate::kernel::{STACK_LEN, STACK_MASK};
use crate::symmetry::UniqueCount;

/// Representatives found, by orbit size.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Tally {
    pub(super) two: u64,
    pub(super) four: u64,
    pub(super) eight: u64,
}

impl Tally {
    pub(super) fn record(&mut self, orbit: u64) {
        match orbit {
            2 => self.two += 1,
            4 => self.four += 1,
            _ => self.eight += 1,
        }
    }

    pub(super) fn unique_count(self) -> UniqueCount {
        UniqueCount {
            unique: self.two + self.four + self.eight,
            total: 2 * self.two + 4 * self.four + 8 * self.eight,
        }
    }
}

/// What the search does with complete placements.
pub(super) trait Leaves {
    /// Whether [`leaf`](Leaves::leaf) reads the board, which the search
    /// then keeps up to date.
    const BOARD: bool;

    /// Takes a complete placement; returns 1 to have the caller count it as
    /// a representative of an orbit of 8, else 0.
    fn leaf(&mut self, board: &[u32; STACK_LEN]) -> u64;

    /// Whether a complete placement whose last two rows take the columns
    /// `last_two` (and the rows above as on `board`) needs
    /// [`leaf`](Leaves::leaf); false only if it is surely a representative
    /// of an orbit of 8.
    fn needs_leaf(&self, board: &[u32; STACK_LEN], last_two: u32) -> bool;
}

/// Corner representatives: every complete placement is one, of an orbit of
/// 8.
#[derive(Debug)]
pub(super) struct CornerLeaves;

impl Leaves for CornerLeaves {
    const BOARD: bool = false;

    #[inline(always)]
    fn leaf(&mut self, _: &[u32; STACK_LEN]) -> u64 {
        1
    }

    #[inline(always)]
    fn needs_leaf(&self, _: &[u32; STACK_LEN], _: u32) -> bool {
        false
    }
}

/// The constants of the rotation test of an edge shape.
#[derive(Debug, Clone, Copy)]
pub(super) struct EdgeTest {
    pub(super) bound1: usize,
    pub(super) bound2: usize,
    pub(super) last: usize,
    pub(super) top_bit: u32,
    pub(super) end_bit: u32,
}

impl EdgeTest {
    pub(super) fn new(n: usize, bound1: usize) -> Self {
        let top_bit = 1 << (n - 1);
        Self {
            bound1,
            bound2: n - 1 - bound1,
            last: n - 1,
            top_bit,
            end_bit: top_bit >> bound1,
        }
    }

    /// Whether a rotation has its top queen in column `BOUND1` too, so that
    /// it has to be compared.
    #[inline(always)]
    pub(super) fn may_tie(&self, board: &[u32; STACK_LEN]) -> bool {
        board[self.bound2 & STACK_MASK] == 1
            || board[self.last & STACK_MASK] == self.end_bit
            || board[self.bound1 & STACK_MASK] == self.top_bit
    }

    /// Compares a complete placement with its quarter, half and
    /// three-quarter turns, row by row as bit values: `None` if one is
    /// smaller, else the orbit size. Each row of a rotation is found by
    /// scanning for the queen of the matching column, and the scan stops as
    /// soon as the comparison is decided.
    #[inline(never)]
    pub(super) fn orbit(&self, board: &[u32; STACK_LEN]) -> Option<u64> {
        let at = |row: usize| board[row & STACK_MASK];
        let last = self.last;
        // Quarter turn: its row `own` holds the queen of column `own`.
        if at(self.bound2) == 1 {
            let mut own = 1;
            let mut column = 2u32;
            while own <= last {
                let mine = at(own);
                let mut bit = 1u32;
                let mut you = last;
                while at(you) != column && mine >= bit {
                    bit <<= 1;
                    you = you.wrapping_sub(1);
                }
                if mine > bit {
                    return None;
                }
                if mine < bit {
                    break;
                }
                own += 1;
                column <<= 1;
            }
            if own > last {
                return Some(2);
            }
        }
        // Half turn: its row `own` is row `last - own`, mirrored.
        if at(last) == self.end_bit {
            let mut own = 1;
            let mut you = last - 1;
            while own <= last {
                let mine = at(own);
                let mut bit = 1u32;
                let mut mirrored = self.top_bit;
                while at(you) != mirrored && mine >= bit {
                    bit <<= 1;
                    mirrored >>= 1;
                }
                if mine > bit {
                    return None;
                }
                if mine < bit {
                    break;
                }
                own += 1;
                you = you.wrapping_sub(1);
            }
            if own > last {
                return Some(4);
            }
        }
        // Three-quarter turn: its row `own` holds the queen of column
        // `last - own`.
        if at(self.bound1) == self.top_bit {
            let mut own = 1;
            let mut column = self.top_bit >> 1;
            while own <= last {
                let mine = at(own);
                let mut bit = 1u32;
                let mut you = 0;
                while at(you) != column && mine >= bit {
                    bit <<= 1;
                    you += 1;
                }
                if mine > bit {
                    return None;
                }
                if mine < bit {
                    break;
                }
                own += 1;
                column >>= 1;
            }
        }
        Some(8)
    }
}

/// Edge representatives: the rotation test where a rotation may tie, and
/// the tally of what it finds.
#[derive(Debug)]
pub(super) struct EdgeLeaves {
    pub(super) test: EdgeTest,
    pub(super) tally: Tally,
}

impl EdgeLeaves {
    #[inline(never)]
    pub(super) fn compare(&mut self, board: &[u32; STACK_LEN]) {
        if let Some(orbit) = self.test.orbit(board) {
            self.tally.record(orbit);
        }
    }
}

impl Leaves for EdgeLeaves {
    const BOARD: bool = true;

    #[inline(always)]
    fn leaf(&mut self, board: &[u32; STACK_LEN]) -> u64 {
        if self.test.may_tie(board) {
            self.compare(board);
            0
        } else {
            1
        }
    }

    #[inline(always)]
    fn needs_leaf(&self, board: &[u32; STACK_LEN], last_two: u32) -> bool {
        let test = &self.test;
        // `BOUND1 < BOUND2 <= n - 2`, so the board is up to date in row
        // `BOUND1`, and in row `BOUND2` unless that is one of the last two;
        // a stale row only makes the answer true more often, and a side
        // queen in one of the last two rows is caught by `last_two`.
        last_two & (1 | test.end_bit) != 0
            || board[test.bound1 & STACK_MASK] == test.top_bit
            || board[test.bound2 & STACK_MASK] == 1
    }
}
