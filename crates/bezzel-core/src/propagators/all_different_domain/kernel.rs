//! The family's unit kernels, as one interface over plain Rust and AVX2.
//!
//! A unit's scan (which values its cells hold once, twice, fixed) and update (fixed values
//! out of the other cells, hidden singles in) are the family's inner loops. [`Kernel`] is
//! their interface for 9-cell units (Sudoku's), and [`Work`] a propagator's run generic over
//! it, so that the run is compiled once per kernel with the kernel inlined into it. The plain
//! loops here serve every unit length and are the [`Scalar`] kernel; the AVX2 one, in
//! [`wide`](super::wide), gives the same masks bit for bit.

use crate::propagator::Context;
use crate::store::Conflict;

/// A unit's scan and update, for 9-cell units (Sudoku's); other lengths use the plain loops.
pub(super) trait Kernel: Copy {
    /// `scan` of a 9-cell unit: its `once`, `twice`, `fixed` and `clash` masks.
    fn scan9(self, masks: &[u64; 9]) -> (u64, u64, u64, u64);
    /// `update` of a 9-cell unit: the changed cells as bits, and whether one was emptied or
    /// given two hidden values.
    fn update9(self, masks: &mut [u64; 9], fixed: u64, hidden: u64) -> (u64, bool);
    /// The cells of a 9-cell unit with two values or more, as bits.
    fn open9(self, masks: &[u64; 9]) -> u64;
}

/// A propagator's run, generic over the kernel (implemented `#[inline(always)]`, so that the
/// AVX2 instance is compiled inside the function that turns the CPU features on).
pub(super) trait Work {
    /// One run with `kernel`.
    fn run_with<K: Kernel>(&mut self, kernel: K, ctx: &mut Context<'_>) -> Result<(), Conflict>;
}

/// The plain Rust kernel.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scalar;

impl Kernel for Scalar {
    #[inline(always)]
    fn scan9(self, masks: &[u64; 9]) -> (u64, u64, u64, u64) {
        scan(masks)
    }

    #[inline(always)]
    fn update9(self, masks: &mut [u64; 9], fixed: u64, hidden: u64) -> (u64, bool) {
        update(masks, fixed, hidden)
    }

    #[inline(always)]
    fn open9(self, masks: &[u64; 9]) -> u64 {
        open_cells(masks)
    }
}

/// A unit's `once`, `twice`, `fixed` and `clash` masks (see `cheap`); always inlined, so that
/// a unit of a length known at compile time is scanned without a loop.
#[inline(always)]
pub(super) fn scan(masks: &[u64]) -> (u64, u64, u64, u64) {
    let (mut once, mut twice, mut fixed, mut clash) = (0u64, 0u64, 0u64, 0u64);
    for &m in masks {
        let fixed_value = if m & m.wrapping_sub(1) == 0 { m } else { 0 };
        clash |= fixed & fixed_value;
        fixed |= fixed_value;
        twice |= once & m;
        once |= m;
    }
    (once, twice, fixed, clash)
}

/// The cheap rules' new masks for a unit: `fixed` values leave the unfixed cells, a cell
/// holding a `hidden` value is fixed to it; returns the changed cells as bits, and whether
/// one was emptied or given two hidden values.
#[inline(always)]
pub(super) fn update(masks: &mut [u64], fixed: u64, hidden: u64) -> (u64, bool) {
    let mut changed = 0u64;
    let mut bad = false;
    for (i, m) in masks.iter_mut().enumerate() {
        let old = *m;
        let single = old & old.wrapping_sub(1) == 0;
        let new = if single { old } else { old & !fixed };
        let h = new & hidden;
        // The one cell left for two values that must both be used.
        bad |= h & h.wrapping_sub(1) != 0;
        let new = if h != 0 { h } else { new };
        bad |= new == 0;
        changed |= u64::from(new != old) << i;
        *m = new;
    }
    (changed, bad)
}

/// The cells of `masks` with two values or more, as bits.
#[inline(always)]
pub(super) fn open_cells(masks: &[u64]) -> u64 {
    masks.iter().enumerate().fold(0, |open, (i, &m)| {
        open | (u64::from(m & m.wrapping_sub(1) != 0) << i)
    })
}

#[cfg(test)]
mod tests {
    use super::{Kernel, Scalar};

    #[test]
    fn the_plain_kernel_reads_its_definition() {
        // Cells {1}, {1,2}, {2,3}, {3}, {1}: value 1 fixed twice (a clash), 2 held twice.
        let mut m = [
            0b10,
            0b110,
            0b1100,
            0b1000,
            0b10,
            0b1_0000,
            0b10_0000,
            0b100_0000,
            0b1000_0000,
        ];
        let (once, twice, fixed, clash) = Scalar.scan9(&m);
        assert_eq!(once, 0b1111_1110);
        assert_eq!(twice, 0b1110);
        assert_eq!(fixed, 0b1111_1010);
        assert_eq!(clash, 0b10);
        assert_eq!(Scalar.open9(&m), 0b110);
        // Value 3 (bit 3) fixed leaves cell 2; bit 2 hidden fixes cell 1 (it was {1,2}).
        let (changed, bad) = Scalar.update9(&mut m, 0b1000, 0b100);
        assert_eq!((changed, bad), (0b110, false));
        assert_eq!(m[1], 0b100);
        assert_eq!(m[2], 0b100);
    }
}
