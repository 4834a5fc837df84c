//! Value-consistent all-different.
//!
//! When a view becomes fixed, its value is removed from every other view; the removals may fix
//! more views, so it repeats until nothing new is fixed. Views already handled are swapped
//! behind a trailed boundary, so each value is propagated once per branch. Swaps only happen
//! inside the live prefix, which is why restoring the boundary alone restores the set of live
//! views (the order inside the prefix does not matter).

use crate::event::Event;
use crate::propagator::{Context, PropResult, PropStatus, Propagator, Setup};
use crate::store::TrailedInt;
use crate::var::IntView;

/// `views` take pairwise distinct values (value consistency).
#[derive(Debug, Clone)]
pub struct AllDifferentValue {
    views: Vec<IntView>,
    live: Option<TrailedInt>,
}

impl AllDifferentValue {
    /// The propagator over `views`.
    pub fn new(views: Vec<IntView>) -> AllDifferentValue {
        AllDifferentValue { views, live: None }
    }
}

impl Propagator for AllDifferentValue {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &v in &self.views {
            s.subscribe(v, Event::Fixed);
        }
        self.live = Some(s.trailed_int(self.views.len() as i64));
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let Some(live_slot) = self.live else {
            return Ok(PropStatus::Fixpoint);
        };
        let mut live = ctx.int(live_slot) as usize;
        let mut i = 0;
        while i < live {
            let v = self.views[i];
            if !ctx.is_fixed(v) {
                i += 1;
                continue;
            }
            let value = ctx.min(v);
            live -= 1;
            self.views.swap(i, live);
            let mut fixed_some = false;
            for j in 0..live {
                let w = self.views[j];
                if ctx.remove(w, value)? && ctx.is_fixed(w) {
                    fixed_some = true;
                }
            }
            // A newly fixed view may sit before `i`, and so may other views of the same
            // variable (views can alias), so scan again from the start.
            if fixed_some {
                i = 0;
            }
        }
        ctx.set_int(live_slot, live as i64);
        Ok(if live <= 1 {
            PropStatus::Subsumed
        } else {
            PropStatus::Fixpoint
        })
    }

    fn name(&self) -> &'static str {
        "all_different(value)"
    }
}
