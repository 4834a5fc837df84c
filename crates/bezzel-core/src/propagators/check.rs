//! A rule given as a closure, checked once every variable it mentions is fixed.
//!
//! This is the escape hatch for odd rules that have no propagator: it prunes nothing early, so
//! it is slow on large searches, but it states any predicate in one line and is always correct.

use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::queue::Priority;
use crate::store::Conflict;
use crate::var::IntView;
use std::fmt;

/// The predicate type of a [`Check`]: it receives the views' values in the order given.
/// Every view a model accepts takes `i32` values (its offset is within
/// ±[`MAX_VIEW_OFFSET`](crate::var::MAX_VIEW_OFFSET)), as every value a user reads does.
pub type Predicate = Box<dyn Fn(&[i32]) -> bool + Send>;

/// Fails when all `views` are fixed and the predicate rejects their values.
pub struct Check {
    views: Vec<IntView>,
    predicate: Predicate,
    values: Vec<i32>,
}

impl Check {
    /// The check of `predicate` over `views`.
    pub fn new(views: Vec<IntView>, predicate: Predicate) -> Check {
        Check {
            values: Vec::with_capacity(views.len()),
            views,
            predicate,
        }
    }
}

impl fmt::Debug for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Check").field("views", &self.views).finish()
    }
}

impl Propagator for Check {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &v in &self.views {
            s.subscribe(v, Event::Fixed);
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        if !self.views.iter().all(|&v| ctx.is_fixed(v)) {
            return Ok(PropStatus::Fixpoint);
        }
        self.values.clear();
        // Exact: the views' values fit `i32` (see `Predicate`).
        self.values
            .extend(self.views.iter().map(|&v| ctx.min(v) as i32));
        if (self.predicate)(&self.values) {
            Ok(PropStatus::Subsumed)
        } else {
            Err(Conflict)
        }
    }

    fn priority(&self) -> Priority {
        Priority::Linear
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        let values: Vec<i32> = a.values_of(&self.views).iter().map(|&v| v as i32).collect();
        (self.predicate)(&values)
    }

    fn name(&self) -> &'static str {
        "check"
    }
}
