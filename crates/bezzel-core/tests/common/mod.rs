//! Models shared by the integration tests (the queens crate builds on this one, so its model
//! cannot be used here).

// Each test binary compiles this module and uses only some of it.
#![allow(dead_code)]

use bezzel_core::prelude::*;

/// Fisher and Thompson's 6 × 6 job shop (ft06): each job's steps as (machine, duration), in
/// order. Its optimal makespan, 55, is published (Fisher and Thompson 1963; OR-Library).
pub(crate) const FT06: [[(usize, i32); 6]; 6] = [
    [(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
    [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
    [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
    [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
    [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
    [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
];

/// N-Queens as the queens crate states it: `q[i]` is row `i`'s column, and the columns and both
/// diagonals (`q[i] + i`, `q[i] - i`) are all different at `consistency`.
pub(crate) fn queens(
    n: usize,
    consistency: Consistency,
) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut m = Model::new();
    let q = m.named_vars("q", n, 0..n as i32)?;
    for sign in [0, 1, -1] {
        let views: Vec<IntView> = q
            .iter()
            .enumerate()
            .map(|(i, x)| x.offset(sign * i as i32))
            .collect();
        m.all_different_with(&views, consistency)?;
    }
    Ok((m, q))
}
