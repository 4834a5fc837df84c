//! Membership in a constant set, as Bezzel's `among` of one variable.

use crate::FznError;
use crate::builder::{Builder, Value, set32};

/// `x in s`.
pub(crate) fn set_in(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let x = b.view(&a[0])?;
    let s = set32(&b.set(&a[1])?);
    let one = b.constant(1)?;
    Ok(b.model.among(&[x], &s, one)?)
}

/// `r <-> x in s`: the count of `x` in `s` is `r`.
pub(crate) fn set_in_reif(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let x = b.view(&a[0])?;
    let s = set32(&b.set(&a[1])?);
    let r = b.view(&a[2])?;
    Ok(b.model.among(&[x], &s, r)?)
}

/// `r -> x in s`, through the reified membership of a fresh Boolean.
pub(crate) fn set_in_imp(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let x = b.view(&a[0])?;
    let s = set32(&b.set(&a[1])?);
    let r = b.view(&a[2])?;
    let c = b.new_bool()?;
    b.model.among(&[x], &s, c)?;
    Ok(b.model.implies(r, c)?)
}
