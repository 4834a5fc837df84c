//! Boolean connectives: `and`, `or`, `xor` of two literals or of an array, their half
//! reifications (`_imp`, as clauses), and clauses (`bool_clause`, reified and half-reified).
//! The comparisons of Booleans share the integer ones (`int.rs`).

use super::int::not;
use crate::FznError;
use crate::builder::{Builder, Value};
use bezzel_core::prelude::*;

/// The three arguments `x, y, r` as views.
fn triple(b: &mut Builder, a: &[Value]) -> Result<[IntView; 3], FznError> {
    Ok([b.view(&a[0])?, b.view(&a[1])?, b.view(&a[2])?])
}

/// `x = b` for a Boolean `b`: nothing to post when the declarations made `x` the Boolean's
/// own variable (see `declarations`), else an equality.
pub(crate) fn bool2int(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    match (&a[0], &a[1]) {
        (Value::Var(p), Value::Var(x)) if p == x => Ok(()),
        _ => super::int::eq(b, a),
    }
}

/// `r <-> x /\ y`.
pub(crate) fn and(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let [x, y, r] = triple(b, a)?;
    Ok(b.model.and(&[x, y], r)?)
}

/// `r <-> x \/ y`.
pub(crate) fn or(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let [x, y, r] = triple(b, a)?;
    Ok(b.model.or(&[x, y], r)?)
}

/// `r <-> x xor y`.
pub(crate) fn xor(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let [x, y, r] = triple(b, a)?;
    Ok(b.model.xor(&[x, y], r)?)
}

/// `r -> x /\ y`: two clauses.
pub(crate) fn and_imp(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let [x, y, r] = triple(b, a)?;
    b.model.clause(&[x], &[r])?;
    Ok(b.model.clause(&[y], &[r])?)
}

/// `r -> x \/ y`: one clause.
pub(crate) fn or_imp(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let [x, y, r] = triple(b, a)?;
    Ok(b.model.clause(&[x, y], &[r])?)
}

/// `r <-> /\ xs`.
pub(crate) fn array_and(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let xs = b.views(&a[0])?;
    let r = b.view(&a[1])?;
    Ok(b.model.and(&xs, r)?)
}

/// `r <-> \/ xs`.
pub(crate) fn array_or(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let xs = b.views(&a[0])?;
    let r = b.view(&a[1])?;
    Ok(b.model.or(&xs, r)?)
}

/// `r -> /\ xs`: a clause per literal.
pub(crate) fn array_and_imp(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let xs = b.views(&a[0])?;
    let r = b.view(&a[1])?;
    for x in xs {
        b.model.clause(&[x], &[r])?;
    }
    Ok(())
}

/// `r -> \/ xs`: one clause.
pub(crate) fn array_or_imp(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let xs = b.views(&a[0])?;
    let r = b.view(&a[1])?;
    Ok(b.model.clause(&xs, &[r])?)
}

/// An odd number of the literals hold.
pub(crate) fn array_xor(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let xs = b.views(&a[0])?;
    let one = b.constant(1)?;
    Ok(b.model.xor(&xs, one)?)
}

/// `\/ positives \/ not negatives`.
pub(crate) fn clause(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (p, n) = (b.views(&a[0])?, b.views(&a[1])?);
    Ok(b.model.clause(&p, &n)?)
}

/// `r <-> (\/ positives \/ not negatives)`.
pub(crate) fn clause_reif(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (mut lits, n) = (b.views(&a[0])?, b.views(&a[1])?);
    let r = b.view(&a[2])?;
    lits.extend(n.into_iter().map(not));
    Ok(b.model.or(&lits, r)?)
}

/// `r -> (\/ positives \/ not negatives)`: the clause with `not r` added.
pub(crate) fn clause_imp(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (p, mut n) = (b.views(&a[0])?, b.views(&a[1])?);
    n.push(b.view(&a[2])?);
    Ok(b.model.clause(&p, &n)?)
}
