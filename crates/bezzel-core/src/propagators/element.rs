//! `element`: `value = array[index]`, for an array of constants and for an array of views,
//! with the index counted from 0.

use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::queue::Priority;
use crate::var::IntView;

/// Whether `i` is a position in an array of length `n`, and which.
fn position(i: i64, n: usize) -> Option<usize> {
    usize::try_from(i).ok().filter(|&i| i < n)
}

/// `value = array[index]` over constants, domain consistent on both views: `index` keeps the
/// positions whose entry `value` still has, and `value` keeps the entries at the positions
/// `index` still has. Each run costs `O((|D(index)| + |D(value)|) · log n)`.
#[derive(Debug, Clone)]
pub struct ElementConst {
    array: Vec<i64>,
    index: IntView,
    value: IntView,
}

impl ElementConst {
    /// The propagator for `value = array[index]`; see
    /// [`Model::element_const`](crate::Model::element_const), which checks the arguments.
    pub fn new(array: Vec<i64>, index: IntView, value: IntView) -> ElementConst {
        ElementConst {
            array,
            index,
            value,
        }
    }
}

impl Propagator for ElementConst {
    fn setup(&mut self, s: &mut Setup<'_>) {
        s.subscribe(self.index, Event::Domain);
        s.subscribe(self.value, Event::Domain);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let (index, value) = (self.index, self.value);
        let n = self.array.len() as i64;
        // Repeats because `index` and `value` may be views of one variable.
        loop {
            let mut changed = ctx.set_min(index, 0)? | ctx.set_max(index, n - 1)?;
            let mut supported = Vec::with_capacity(ctx.size(index) as usize);
            for i in ctx.values(index) {
                let entry = self.array[i as usize];
                if ctx.contains(value, entry) {
                    supported.push(entry);
                } else {
                    changed |= ctx.remove(index, i)?;
                }
            }
            supported.sort_unstable();
            let (Some(&low), Some(&high)) = (supported.first(), supported.last()) else {
                return Err(crate::store::Conflict);
            };
            // Bounds first, so that a wide domain is cut before its values are listed.
            changed |= ctx.set_min(value, low)? | ctx.set_max(value, high)?;
            for v in ctx.values(value) {
                if supported.binary_search(&v).is_err() {
                    changed |= ctx.remove(value, v)?;
                }
            }
            if !changed {
                break;
            }
        }
        Ok(PropStatus::subsumed_if(ctx.is_fixed(index)))
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        position(a.value(self.index), self.array.len())
            .is_some_and(|i| self.array[i] == a.value(self.value))
    }

    fn name(&self) -> &'static str {
        "element_const"
    }

    fn shape(&self) -> Option<crate::learn::Shape<'_>> {
        Some(crate::learn::Shape::ElementConst {
            array: &self.array,
            index: self.index,
            value: self.value,
        })
    }
}

/// `value = xs[index]` over views, domain consistent on `index` and `value`: `index` keeps the
/// positions whose view shares a value with `value`, `value` keeps the values some view at a
/// remaining position has, and once `index` is fixed the view it names and `value` keep
/// exactly their common values. Each run costs `O(Σ |D(xs[i])| + |D(value)| · |D(index)|)`.
#[derive(Debug, Clone)]
pub struct ElementVar {
    xs: Vec<IntView>,
    index: IntView,
    value: IntView,
}

impl ElementVar {
    /// The propagator for `value = xs[index]`; see [`Model::element`](crate::Model::element),
    /// which checks the arguments.
    pub fn new(xs: Vec<IntView>, index: IntView, value: IntView) -> ElementVar {
        ElementVar { xs, index, value }
    }
}

/// Whether two views share a value.
fn meet(ctx: &Context<'_>, a: IntView, b: IntView) -> bool {
    if ctx.max(a) < ctx.min(b) || ctx.max(b) < ctx.min(a) {
        return false;
    }
    let (small, large) = if ctx.size(a) <= ctx.size(b) {
        (a, b)
    } else {
        (b, a)
    };
    ctx.values(small)
        .into_iter()
        .any(|v| ctx.contains(large, v))
}

impl Propagator for ElementVar {
    fn setup(&mut self, s: &mut Setup<'_>) {
        s.subscribe(self.index, Event::Domain);
        s.subscribe(self.value, Event::Domain);
        for &x in &self.xs {
            s.subscribe(x, Event::Domain);
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let (index, value) = (self.index, self.value);
        let n = self.xs.len() as i64;
        // Repeats because the views may share variables.
        loop {
            let mut changed = ctx.set_min(index, 0)? | ctx.set_max(index, n - 1)?;
            for i in ctx.values(index) {
                if !meet(ctx, self.xs[i as usize], value) {
                    changed |= ctx.remove(index, i)?;
                }
            }
            let positions = ctx.values(index);
            let low = positions
                .iter()
                .map(|&i| ctx.min(self.xs[i as usize]))
                .min();
            let high = positions
                .iter()
                .map(|&i| ctx.max(self.xs[i as usize]))
                .max();
            let (Some(low), Some(high)) = (low, high) else {
                return Err(crate::store::Conflict);
            };
            changed |= ctx.set_min(value, low)? | ctx.set_max(value, high)?;
            // `positions` may be stale once a removal from `value` also narrows `index` (one
            // variable under both): then it only keeps too much, and the loop runs again.
            for v in ctx.values(value) {
                if !positions
                    .iter()
                    .any(|&i| ctx.contains(self.xs[i as usize], v))
                {
                    changed |= ctx.remove(value, v)?;
                }
            }
            if ctx.is_fixed(index) {
                let x = self.xs[ctx.min(index) as usize];
                for v in ctx.values(x) {
                    if !ctx.contains(value, v) {
                        changed |= ctx.remove(x, v)?;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        Ok(PropStatus::subsumed_if(
            ctx.is_fixed(index) && ctx.is_fixed(value),
        ))
    }

    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        position(a.value(self.index), self.xs.len())
            .is_some_and(|i| a.value(self.xs[i]) == a.value(self.value))
    }

    fn name(&self) -> &'static str {
        "element"
    }
}
