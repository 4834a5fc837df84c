//! Linear (in)equalities: `int_lin_*` (with `_reif` and `_imp`) and `bool_lin_*`, whose
//! right-hand side may be a variable (moved to the left with coefficient -1). `lt`, `gt` and
//! `ge` become `le` with the constant moved and the sides negated; `ne` is a reified `eq`.

use super::int::{Cmp, not};
use crate::FznError;
use crate::builder::{Builder, Value, int32, ints32};
use bezzel_core::prelude::*;

/// `int_lin_op(coeffs, xs, rhs)`, reified in `mode` by the fourth argument when given.
pub(crate) fn int(
    b: &mut Builder,
    a: &[Value],
    op: Cmp,
    mode: Option<Reif>,
) -> Result<(), FznError> {
    let (coeffs, xs) = terms(b, a)?;
    let rhs = b.par(&a[2])?;
    let r = match mode {
        Some(_) => Some(b.view(&a[3])?),
        None => None,
    };
    post(b, op, &coeffs, &xs, rhs, r, mode.unwrap_or(Reif::Equiv))
}

/// `bool_lin_op(coeffs, bs, c)`, `c` a constant or a variable.
pub(crate) fn bool(b: &mut Builder, a: &[Value], op: Cmp) -> Result<(), FznError> {
    let (mut coeffs, mut xs) = terms(b, a)?;
    let rhs = match &a[2] {
        Value::Int(c) => *c,
        v => {
            let c = b.view(v)?;
            coeffs.push(-1);
            xs.push(c);
            0
        }
    };
    post(b, op, &coeffs, &xs, rhs, None, Reif::Equiv)
}

/// The coefficients and the variables, which must be as many.
fn terms(b: &mut Builder, a: &[Value]) -> Result<(Vec<i64>, Vec<IntView>), FznError> {
    let coeffs = b.pars(&a[0])?;
    let xs = b.views(&a[1])?;
    if coeffs.len() != xs.len() {
        return Err(FznError::invalid(format!(
            "{} coefficients for {} variables",
            coeffs.len(),
            xs.len()
        )));
    }
    Ok((coeffs, xs))
}

/// `Σ coeffs · xs (op) rhs`, reified by `r` when given.
fn post(
    b: &mut Builder,
    op: Cmp,
    coeffs: &[i64],
    xs: &[IntView],
    rhs: i64,
    r: Option<IntView>,
    mode: Reif,
) -> Result<(), FznError> {
    let neg = coeffs
        .iter()
        .map(|c| c.checked_neg())
        .collect::<Option<Vec<i64>>>();
    let moved = |c: Option<i64>| {
        c.ok_or_else(|| FznError::invalid(format!("the constant {rhs} is too large")))
    };
    let negated = || {
        neg.as_deref()
            .ok_or_else(|| FznError::invalid("a coefficient is too large"))
    };
    // lt and gt on integers: le and ge with the constant moved by one.
    let (rel, coeffs, rhs, negate) = match op {
        Cmp::Eq => (Relation::Eq, coeffs, rhs, false),
        Cmp::Ne => (Relation::Eq, coeffs, rhs, true),
        Cmp::Le => (Relation::Le, coeffs, rhs, false),
        Cmp::Lt => (Relation::Le, coeffs, moved(rhs.checked_sub(1))?, false),
        Cmp::Ge => (Relation::Le, negated()?, moved(rhs.checked_neg())?, false),
        Cmp::Gt => (
            Relation::Le,
            negated()?,
            moved(rhs.checked_neg().and_then(|c| c.checked_sub(1)))?,
            false,
        ),
    };
    let coeffs = &ints32(coeffs, "a coefficient")?;
    let rhs = int32(rhs, "the constant")?;
    match (r, negate) {
        (None, false)
            if rel == Relation::Le
                && let Some((x, y)) = unit_pair(coeffs, xs, rhs) =>
        {
            b.model.less_eq(x, y)?;
        }
        (None, false) => b.model.linear(coeffs, xs, rel, rhs)?,
        (None, true) => {
            let zero = b.constant(0)?;
            b.model
                .linear_reif(coeffs, xs, rel, rhs, zero, Reif::Equiv)?;
        }
        (Some(r), false) => b.model.linear_reif(coeffs, xs, rel, rhs, r, mode)?,
        (Some(r), true) => {
            let mode = if mode == Reif::Imp { Reif::Pmi } else { mode };
            b.model.linear_reif(coeffs, xs, rel, rhs, not(r), mode)?;
        }
    }
    Ok(())
}

/// `±x ± y <= c` as `x' <= y'` over views (`x - y <= c` is `x - c <= y`), when the constant
/// fits in a view's offset: the precedences of scheduling models, which `less_eq` prunes as
/// the linear propagator would (both are bounds consistent on two unit terms), for a
/// fraction of the work per run.
fn unit_pair(coeffs: &[i32], xs: &[IntView], c: i32) -> Option<(IntView, IntView)> {
    let (&[a1, a2], &[x1, x2]) = (coeffs, xs) else {
        return None;
    };
    let signed = |a: i32, x: IntView| match a {
        1 => Some(x),
        -1 => Some(x.minus()),
        _ => None,
    };
    // a1·x1 + a2·x2 <= c  <=>  a1·x1 <= -a2·x2 + c.
    let lhs = signed(a1, x1)?;
    let rhs = signed(a2.checked_neg()?, x2)?;
    let offset = c;
    let moved = rhs.constant().checked_add(i64::from(offset))?;
    (moved.unsigned_abs() <= u64::from(bezzel_core::var::MAX_VIEW_OFFSET.unsigned_abs()))
        .then(|| (lhs, rhs.offset(offset)))
}
