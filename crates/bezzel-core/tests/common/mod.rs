//! Models shared by the integration tests (the queens crate builds on this one, so its model
//! cannot be used here).

use bezzel_core::prelude::*;

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
