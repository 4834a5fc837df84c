//! The scheduling globals that `mznlib` declares: `disjunctive` and `disjunctive_strict` with
//! constant durations (`bezzel_disjunctive*`), and `cumulative` with constant or variable
//! durations and heights (`bezzel_cumulative*`). `mznlib` refuses negative constants before
//! they reach here (the model is then unsatisfiable, as MiniZinc's decomposition makes it),
//! so the posters meet only the amounts the propagators accept.

use crate::FznError;
use crate::builder::{Builder, Value, ints32};

/// `bezzel_disjunctive(s, d)`, strict or not.
pub(crate) fn disjunctive(b: &mut Builder, a: &[Value], strict: bool) -> Result<(), FznError> {
    let starts = b.views(&a[0])?;
    let durations = ints32(&b.pars(&a[1])?, "a duration")?;
    if strict {
        b.model.disjunctive_strict(&starts, &durations)?;
    } else {
        b.model.disjunctive(&starts, &durations)?;
    }
    Ok(())
}

/// `bezzel_cumulative(s, d, r, b)` with constant durations and heights.
pub(crate) fn cumulative(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let starts = b.views(&a[0])?;
    let durations = ints32(&b.pars(&a[1])?, "a duration")?;
    let heights = ints32(&b.pars(&a[2])?, "a height")?;
    let capacity = b.view(&a[3])?;
    Ok(b.model
        .cumulative(&starts, &durations, &heights, capacity)?)
}

/// `bezzel_cumulative_vars(s, d, r, b)` with variable durations or heights.
pub(crate) fn cumulative_vars(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let starts = b.views(&a[0])?;
    let durations = b.views(&a[1])?;
    let heights = b.views(&a[2])?;
    let capacity = b.view(&a[3])?;
    Ok(b.model
        .cumulative_vars(&starts, &durations, &heights, capacity)?)
}
