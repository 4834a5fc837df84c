//! Binary relations between two views: `x != y`, `x == y`, `x <= y`.
//!
//! Offsets come from the views, so `x + 3 <= y` or `x != y - 1` need no extra parameters.

use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::queue::Priority;
use crate::store::Conflict;
use crate::var::IntView;

/// `x != y`: once one side is fixed, its value leaves the other.
#[derive(Debug, Clone, Copy)]
pub struct NotEqual {
    x: IntView,
    y: IntView,
}

impl NotEqual {
    /// The propagator for `x != y`.
    pub fn new(x: IntView, y: IntView) -> NotEqual {
        NotEqual { x, y }
    }
}

impl Propagator for NotEqual {
    fn setup(&mut self, s: &mut Setup<'_>) {
        s.subscribe(self.x, Event::Fixed);
        s.subscribe(self.y, Event::Fixed);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        if ctx.is_fixed(self.x) {
            ctx.remove(self.y, ctx.min(self.x))?;
        } else if ctx.is_fixed(self.y) {
            ctx.remove(self.x, ctx.min(self.y))?;
        } else {
            return Ok(PropStatus::Fixpoint);
        }
        Ok(PropStatus::Subsumed)
    }

    fn priority(&self) -> Priority {
        Priority::Binary
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        a.value(self.x) != a.value(self.y)
    }

    fn name(&self) -> &'static str {
        "not_equal"
    }

    fn shape(&self) -> Option<crate::learn::Shape<'_>> {
        Some(crate::learn::Shape::NotEqual {
            x: self.x,
            y: self.y,
        })
    }
}

/// `x == y`, domain consistent: both keep exactly the values they share.
#[derive(Debug, Clone, Copy)]
pub struct Equal {
    x: IntView,
    y: IntView,
}

impl Equal {
    /// The propagator for `x == y`.
    pub fn new(x: IntView, y: IntView) -> Equal {
        Equal { x, y }
    }
}

impl Propagator for Equal {
    fn setup(&mut self, s: &mut Setup<'_>) {
        s.subscribe(self.x, Event::Domain);
        s.subscribe(self.y, Event::Domain);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        propagate_equal(ctx, self.x, self.y)
    }

    fn priority(&self) -> Priority {
        Priority::Binary
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        a.value(self.x) == a.value(self.y)
    }

    fn name(&self) -> &'static str {
        "equal"
    }

    fn shape(&self) -> Option<crate::learn::Shape<'_>> {
        Some(crate::learn::Shape::Equal {
            x: self.x,
            y: self.y,
        })
    }
}

/// `x == y` made domain consistent: both keep exactly the values they share; subsumed once
/// they are fixed.
pub(super) fn propagate_equal(ctx: &mut Context<'_>, x: IntView, y: IntView) -> PropResult {
    // Repeats because `x` and `y` may be views of the same variable, so pruning one side can
    // open new pruning on the same side.
    loop {
        let mut changed = false;
        for (a, b) in [(x, y), (y, x)] {
            for v in ctx.values(a) {
                if !ctx.contains(b, v) {
                    changed |= ctx.remove(a, v)?;
                }
            }
        }
        if !changed {
            break;
        }
    }
    Ok(PropStatus::subsumed_if(ctx.is_fixed(x)))
}

/// Makes `x <= y` bounds consistent: `x` at most the largest `y`, `y` at least the smallest
/// `x`. Over two variables one pass does it (each write moves the bound the other one does
/// not read); views of one variable repeat until nothing moves (`x <= x - 1` must fail).
#[inline(always)]
pub(super) fn narrow_less_eq(
    ctx: &mut Context<'_>,
    x: IntView,
    y: IntView,
) -> Result<(), Conflict> {
    loop {
        let moved = ctx.set_max(x, ctx.max(y))? | ctx.set_min(y, ctx.min(x))?;
        if !moved || x.var() != y.var() {
            return Ok(());
        }
    }
}

/// `x <= y`, bounds consistent.
#[derive(Debug, Clone, Copy)]
pub struct LessEq {
    x: IntView,
    y: IntView,
}

impl LessEq {
    /// The propagator for `x <= y`.
    pub fn new(x: IntView, y: IntView) -> LessEq {
        LessEq { x, y }
    }
}

impl Propagator for LessEq {
    fn setup(&mut self, s: &mut Setup<'_>) {
        s.subscribe(self.x, Event::Bounds);
        s.subscribe(self.y, Event::Bounds);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        narrow_less_eq(ctx, self.x, self.y)?;
        Ok(PropStatus::subsumed_if(ctx.max(self.x) <= ctx.min(self.y)))
    }

    fn priority(&self) -> Priority {
        Priority::Binary
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        a.value(self.x) <= a.value(self.y)
    }

    fn name(&self) -> &'static str {
        "less_eq"
    }

    fn shape(&self) -> Option<crate::learn::Shape<'_>> {
        Some(crate::learn::Shape::LessEq {
            x: self.x,
            y: self.y,
        })
    }
}
