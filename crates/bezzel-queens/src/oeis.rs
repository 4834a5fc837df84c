//! The published counts that the unit tests hold the counters to, from outside the code: OEIS
//! A000170 (all solutions) and A002562 (solutions up to rotation and reflection), n = 1 to 17.

use crate::symmetry::UniqueCount;

/// OEIS A000170, starting at n = 1.
const A000170: [u64; 17] = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512, 95815104,
];

/// OEIS A002562, starting at n = 1.
const A002562: [u64; 17] = [
    1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955, 11977939,
];

/// The number of `n`-queens solutions.
pub(crate) fn total(n: usize) -> u64 {
    A000170[n - 1]
}

/// The number of `n`-queens solutions up to symmetry, and of all of them.
pub(crate) fn unique_and_total(n: usize) -> UniqueCount {
    UniqueCount {
        unique: A002562[n - 1],
        total: A000170[n - 1],
    }
}
