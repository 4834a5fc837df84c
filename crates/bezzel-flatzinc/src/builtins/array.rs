//! Element constraints (FlatZinc indices count from 1, Bezzel's from 0: the index view is
//! shifted) and the maximum and minimum of an array.

use crate::FznError;
use crate::builder::{Builder, Value, ints32};

/// `array_{int,bool}_element(i, values, v)`: `v = values[i]`.
pub(crate) fn element_const(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let i = b.view(&a[0])?;
    let values = b.pars(&a[1])?;
    let v = b.view(&a[2])?;
    if b.no_position(&a[0], values.len()) {
        return b.fail();
    }
    let values = ints32(&values, "the array")?;
    Ok(b.model.element_const(&values, i.offset(-1), v)?)
}

/// `array_var_{int,bool}_element(i, xs, v)`: `v = xs[i]`.
pub(crate) fn element(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let i = b.view(&a[0])?;
    let xs = b.views(&a[1])?;
    let v = b.view(&a[2])?;
    if b.no_position(&a[0], xs.len()) {
        return b.fail();
    }
    Ok(b.model.element(&xs, i.offset(-1), v)?)
}

/// `array_int_maximum(m, xs)`.
pub(crate) fn maximum(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let m = b.view(&a[0])?;
    let xs = b.views(&a[1])?;
    Ok(b.model.max(&xs, m)?)
}

/// `array_int_minimum(m, xs)`.
pub(crate) fn minimum(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let m = b.view(&a[0])?;
    let xs = b.views(&a[1])?;
    Ok(b.model.min(&xs, m)?)
}

impl Builder {
    /// Whether an element index (counted from 1) can take no position of an array of `len`
    /// entries: then the element constraint has no solution.
    fn no_position(&mut self, index: &Value, len: usize) -> bool {
        let position = |v: i64| (1..=len as i64).contains(&v);
        match index {
            Value::Int(c) => !position(*c),
            Value::Var(x) => match self.interval(index) {
                Some((lo, hi)) if position(lo) && position(hi) => false,
                _ => self
                    .model
                    .domain(*x)
                    .is_ok_and(|d| !d.iter().any(|&v| position(i64::from(v)))),
            },
            _ => false,
        }
    }
}
