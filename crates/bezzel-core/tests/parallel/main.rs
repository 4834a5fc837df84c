//! Parallel search on the runner: counts and solution sets equal sequential search's
//! ([`search`]), checkpoint journals of constraint-search splits survive damage, edits, tears
//! and sharing ([`checkpoint`]), and distributed runs on ranks as threads count A000170 and
//! resume ([`distributed`]). The runner's tests of its own are bezzel-runner's.

use bezzel_core::prelude::*;

mod checkpoint;
mod distributed;
mod search;

/// N-Queens as the queens crate states it: `q[i]` is row `i`'s column, and the columns and both
/// diagonals (`q[i] + i`, `q[i] - i`) are all different at `consistency`.
fn queens(n: usize, consistency: Consistency) -> Result<(Model, Vec<VarId>), ModelError> {
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
