//! Integer comparisons (plain, reified `_reif`, half-reified `_imp`; the Boolean ones share
//! them) and arithmetic. `ne` reified is `eq` of the negated literal; a comparison with a
//! constant uses the engine's value reifications; `int_pow` is a table of its pairs.

use crate::FznError;
use crate::builder::{Builder, Value, ints32};
use bezzel_core::prelude::*;
use bezzel_core::{MAX_VALUE, MIN_VALUE};

/// A comparison of two terms (or of a sum and a constant).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cmp {
    Eq,
    Ne,
    Le,
    Lt,
    Ge,
    Gt,
}

/// The negation of a 0/1 view.
pub(crate) fn not(v: IntView) -> IntView {
    v.minus().offset(1)
}

/// The first two arguments as views.
fn pair(b: &mut Builder, a: &[Value]) -> Result<(IntView, IntView), FznError> {
    Ok((b.view(&a[0])?, b.view(&a[1])?))
}

/// The first three arguments as views.
fn triple(b: &mut Builder, a: &[Value]) -> Result<(IntView, IntView, IntView), FznError> {
    Ok((b.view(&a[0])?, b.view(&a[1])?, b.view(&a[2])?))
}

pub(crate) fn eq(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (x, y) = pair(b, a)?;
    Ok(b.model.equal(x, y)?)
}

pub(crate) fn ne(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (x, y) = pair(b, a)?;
    Ok(b.model.not_equal(x, y)?)
}

pub(crate) fn le(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (x, y) = pair(b, a)?;
    Ok(b.model.less_eq(x, y)?)
}

pub(crate) fn lt(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (x, y) = pair(b, a)?;
    Ok(b.model.less_than(x, y)?)
}

/// `r (mode) a[0] op a[1]`, `r` the third argument.
pub(crate) fn reif(b: &mut Builder, a: &[Value], op: Cmp, mode: Reif) -> Result<(), FznError> {
    let r = b.view(&a[2])?;
    compare_reif(b, op, &a[0], &a[1], r, mode)
}

/// `r (mode) x op y`.
fn compare_reif(
    b: &mut Builder,
    op: Cmp,
    x: &Value,
    y: &Value,
    r: IntView,
    mode: Reif,
) -> Result<(), FznError> {
    // ne is eq of the negated literal; Imp on the negation is Pmi (r -> C  ==  not C -> not r).
    let (op, r, mode) = match op {
        Cmp::Ne => (
            Cmp::Eq,
            not(r),
            if mode == Reif::Imp { Reif::Pmi } else { mode },
        ),
        _ => (op, r, mode),
    };
    // ge, gt: swap the sides.
    let (op, x, y) = match op {
        Cmp::Ge => (Cmp::Le, y, x),
        Cmp::Gt => (Cmp::Lt, y, x),
        _ => (op, x, y),
    };
    match (op, x, y) {
        (Cmp::Eq, v, Value::Int(c)) | (Cmp::Eq, Value::Int(c), v) => {
            let v = b.view(v)?;
            match i32::try_from(*c) {
                Ok(c) => b.model.eq_value_reif(v, c, r, mode)?,
                // No view takes a value beyond `i32`: the comparison is false, so `r` is too
                // unless it is only implied by the comparison.
                Err(_) if mode == Reif::Pmi => {}
                Err(_) => b.model.linear(&[1], &[r], Relation::Eq, 0)?,
            }
        }
        (Cmp::Le, v, Value::Int(c)) => {
            let v = b.view(v)?;
            b.model
                .le_value_reif(v, beyond_domains(i128::from(*c)), r, mode)?;
        }
        (Cmp::Lt, v, Value::Int(c)) => {
            let v = b.view(v)?;
            b.model
                .le_value_reif(v, beyond_domains(i128::from(*c) - 1), r, mode)?;
        }
        (Cmp::Le, Value::Int(c), v) => {
            let v = b.view(v)?;
            b.model
                .le_value_reif(v.minus(), beyond_domains(-i128::from(*c)), r, mode)?;
        }
        (Cmp::Lt, Value::Int(c), v) => {
            let v = b.view(v)?;
            b.model
                .le_value_reif(v.minus(), beyond_domains(-i128::from(*c) - 1), r, mode)?;
        }
        (op, x, y) => {
            let (x, y) = (b.view(x)?, b.view(y)?);
            match op {
                Cmp::Eq => b.model.equal_reif(x, y, r, mode)?,
                Cmp::Le => b.model.less_eq_reif(x, y, r, mode)?,
                _ => b.model.less_eq_reif(x.offset(1), y, r, mode)?,
            }
        }
    }
    Ok(())
}

/// A constant compared with `<=`, possibly moved by arithmetic (`c - 1`, `-c`), computed wide
/// so that it cannot wrap at `i64::MIN` / `i64::MAX`, then brought into the `i32` that models
/// take: every view a model accepts has its values within `i32::MIN + 1..=i32::MAX`, so
/// `view <= c` for a `c` past either end of `i32` means the same as `view <= c` with `c` at
/// that end.
fn beyond_domains(c: i128) -> i32 {
    c.clamp(i128::from(i32::MIN), i128::from(i32::MAX)) as i32
}

pub(crate) fn plus(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (x, y, z) = triple(b, a)?;
    Ok(b.model.linear(&[1, 1, -1], &[x, y, z], Relation::Eq, 0)?)
}

pub(crate) fn times(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (x, y, z) = triple(b, a)?;
    Ok(b.model.times(x, y, z)?)
}

pub(crate) fn div(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (x, y, z) = triple(b, a)?;
    Ok(b.model.div(x, y, z)?)
}

pub(crate) fn modulo(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (x, y, z) = triple(b, a)?;
    Ok(b.model.modulo(x, y, z)?)
}

pub(crate) fn min(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (x, y, z) = triple(b, a)?;
    Ok(b.model.min(&[x, y], z)?)
}

pub(crate) fn max(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (x, y, z) = triple(b, a)?;
    Ok(b.model.max(&[x, y], z)?)
}

pub(crate) fn abs(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (x, y) = pair(b, a)?;
    Ok(b.model.abs(x, y)?)
}

/// `z = x^y` as a table of the (base, exponent) pairs the operands' bounds allow, over the
/// operands that are not constants (a constant exponent may lie outside what a Bezzel
/// variable can hold).
pub(crate) fn pow(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let (Some(xb), Some(yb)) = (b.interval(&a[0]), b.interval(&a[1])) else {
        return Err(FznError::invalid("the bounds of the operands are unknown"));
    };
    let Some(rows) = pow_table(xb, yb) else {
        return Err(FznError::invalid(format!(
            "base {}..{} and exponent {}..{}: too many pairs for a table (at most {POW_PAIRS})",
            xb.0, xb.1, yb.0, yb.1
        )));
    };
    let mut columns = Vec::new();
    let mut views = Vec::new();
    for (i, v) in a.iter().enumerate() {
        if !matches!(v, Value::Int(_)) {
            columns.push(i);
            views.push(b.view(v)?);
        }
    }
    let constant = |i: usize| match a[i] {
        Value::Int(c) => Some(c),
        _ => None,
    };
    let mut tuples: Vec<Vec<i32>> = rows
        .into_iter()
        .map(|(x, y, z)| [x, y, z])
        .filter(|row| (0..3).all(|i| constant(i).is_none_or(|c| row[i] == c)))
        .map(|row| {
            ints32(
                &columns.iter().map(|&i| row[i]).collect::<Vec<_>>(),
                "int_pow",
            )
        })
        .collect::<Result<_, _>>()?;
    tuples.dedup();
    match (tuples.is_empty(), views.is_empty()) {
        (true, _) => b.fail(),
        (false, true) => Ok(()),
        (false, false) => Ok(b.model.table(&views, &tuples)?),
    }
}

/// The most (base, exponent) pairs `int_pow` is tabled over.
pub(crate) const POW_PAIRS: i64 = 1 << 16;

/// `x^y` for `y >= 0`, or `None` once its magnitude passes `limit`. Bases -1, 0 and 1 are
/// answered at once (their powers never grow, so multiplying would take `y` steps, 2⁶³ at
/// worst); any other base at least doubles each step, so it passes `limit` (at most `2⁶³`,
/// far from overflowing `i128`) within 64 multiplications.
fn power(x: i64, y: i64, limit: i128) -> Option<i128> {
    debug_assert!(y >= 0);
    let z = match x {
        0 if y == 0 => 1,
        0 => 0,
        1 => 1,
        -1 if y % 2 == 0 => 1,
        -1 => -1,
        _ => {
            let mut z: i128 = 1;
            for _ in 0..y {
                z *= i128::from(x);
                if z.abs() > limit {
                    return None;
                }
            }
            z
        }
    };
    Some(z).filter(|z| z.abs() <= limit)
}

/// `(x, y, x^y)` for the bases and exponents in the given bounds, as MiniZinc defines the
/// power: `1 div x^-y` for a negative exponent, undefined (no row) for `0` to a negative
/// power, and no row where the power leaves the values a Bezzel variable can take. `None`
/// when there are more than [`POW_PAIRS`] pairs.
pub(crate) fn pow_table(
    (xl, xh): (i64, i64),
    (yl, yh): (i64, i64),
) -> Option<Vec<(i64, i64, i64)>> {
    let pairs = (i128::from(xh) - i128::from(xl) + 1) * (i128::from(yh) - i128::from(yl) + 1);
    if pairs > i128::from(POW_PAIRS) {
        return None;
    }
    let limit = i128::from(MAX_VALUE).max(-i128::from(MIN_VALUE));
    let mut rows = Vec::new();
    for x in xl..=xh {
        for y in yl..=yh {
            let z = if y >= 0 {
                power(x, y, limit)
            } else {
                match x {
                    0 => None,
                    1 => Some(1),
                    -1 if y % 2 == 0 => Some(1),
                    -1 => Some(-1),
                    _ => Some(0),
                }
            };
            if let Some(z) = z {
                rows.push((x, y, z as i64));
            }
        }
    }
    Some(rows)
}
