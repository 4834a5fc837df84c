//! The scheduling globals that `mznlib` declares: `disjunctive` and `disjunctive_strict` with
//! constant durations (`bezzel_disjunctive*`), and `cumulative` with constant or variable
//! durations and heights (`bezzel_cumulative*`). `mznlib` refuses negative constants before
//! they reach here (the model is then unsatisfiable, as MiniZinc's decomposition makes it),
//! so the posters meet only the amounts the propagators accept. And `diffn` in its forms
//! (`bezzel_diffn*`), whose boxes come laid out box by box with their number, and whose
//! sizes may be anything (MiniZinc's definition reads negative ones literally, and so do
//! the propagators).

use crate::FznError;
use crate::builder::{Builder, Value, ints32};
use bezzel_core::IntView;

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

/// Splits `items`, laid out box by box, into the rows of `boxes` boxes of equal length.
fn rows<T: Clone>(items: Vec<T>, boxes: i64, what: &str) -> Result<Vec<Vec<T>>, FznError> {
    let boxes = usize::try_from(boxes)
        .map_err(|_| FznError::invalid(format!("diffn: {boxes} boxes for the {what}")))?;
    if boxes == 0 {
        return if items.is_empty() {
            Ok(Vec::new())
        } else {
            Err(FznError::invalid(format!("diffn: {what} without boxes")))
        };
    }
    if !items.len().is_multiple_of(boxes) {
        return Err(FznError::invalid(format!(
            "diffn: {} {what} do not split into {boxes} boxes",
            items.len()
        )));
    }
    let dims = items.len() / boxes;
    Ok((0..boxes)
        .map(|i| items[i * dims..(i + 1) * dims].to_vec())
        .collect())
}

/// The origins of a `bezzel_diffn*(origins, sizes, n, strict)` call in rows, `n`, and
/// whether it is strict (1: `diffn`, 0: `diffn_nonstrict`).
fn boxes(b: &mut Builder, a: &[Value]) -> Result<(Vec<Vec<IntView>>, i64, bool), FznError> {
    let n = b.par(&a[2])?;
    Ok((rows(b.views(&a[0])?, n, "origins")?, n, b.par(&a[3])? != 0))
}

/// `bezzel_diffn(origins, sizes, n, strict)`: `n` boxes of constant sizes.
pub(crate) fn diffn(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (origins, n, strict) = boxes(b, a)?;
    let sizes = rows(ints32(&b.pars(&a[1])?, "a size")?, n, "sizes")?;
    Ok(b.model.diffn_k(&origins, &sizes, strict)?)
}

/// `bezzel_diffn_vars(origins, sizes, n, strict)`: as [`diffn`], with variable sizes.
pub(crate) fn diffn_vars(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (origins, n, strict) = boxes(b, a)?;
    let sizes = rows(b.views(&a[1])?, n, "sizes")?;
    Ok(b.model.diffn_k_vars(&origins, &sizes, strict)?)
}
