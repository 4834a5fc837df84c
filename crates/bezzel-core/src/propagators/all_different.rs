//! Value-consistent all-different.
//!
//! When a view becomes fixed, its value is removed from every other view; the removals may fix
//! more views, whose values are removed in turn. Views are kept partitioned: the live prefix
//! `views[..live]` holds the views not yet fixed, and `live` is trailed. Moving a fixed view out
//! of the prefix is a swap inside it, so restoring `live` alone restores the set of live views
//! (their order inside the prefix does not matter). A call therefore costs one scan of the live
//! views plus one removal per (new value, live view) pair.
//!
//! Values fixed in the same call are checked against each other; values fixed in earlier calls
//! were removed from every live view then, so they cannot come back. When two views share a
//! variable (`x` and `x + 1`), fixing one fixes the other behind the scan's back, so such
//! propagators scan again until a scan finds nothing.

use crate::event::Event;
use crate::propagator::{Context, PropResult, PropStatus, Propagator, Setup};
use crate::store::{Conflict, TrailedInt};
use crate::var::IntView;

/// `views` take pairwise distinct values (value consistency).
#[derive(Debug, Clone)]
pub struct AllDifferentValue {
    views: Vec<IntView>,
    live: Option<TrailedInt>,
    aliased: bool,
    /// Values fixed during the current call, still to be removed from the live views.
    pending: Vec<i64>,
    /// Every value fixed during the current call, to catch two views fixed to one value.
    seen: Vec<i64>,
}

impl AllDifferentValue {
    /// The propagator over `views`.
    pub fn new(views: Vec<IntView>) -> AllDifferentValue {
        let mut vars: Vec<_> = views.iter().map(|v| v.var()).collect();
        vars.sort_unstable();
        vars.dedup();
        let aliased = vars.len() < views.len();
        let n = views.len();
        AllDifferentValue {
            views,
            live: None,
            aliased,
            pending: Vec::with_capacity(n),
            seen: Vec::with_capacity(n),
        }
    }

    /// Moves every fixed view out of the live prefix and queues its value. Returns the new
    /// length of the prefix.
    #[inline]
    fn collect_fixed(&mut self, ctx: &Context<'_>, mut live: usize) -> Result<usize, Conflict> {
        let mut i = 0;
        while i < live {
            let v = self.views[i];
            if ctx.is_fixed(v) {
                self.note_fixed(ctx.min(v))?;
                live -= 1;
                self.views.swap(i, live);
            } else {
                i += 1;
            }
        }
        Ok(live)
    }

    #[inline]
    fn note_fixed(&mut self, value: i64) -> Result<(), Conflict> {
        if self.seen.contains(&value) {
            return Err(Conflict);
        }
        self.seen.push(value);
        self.pending.push(value);
        Ok(())
    }

    fn run(&mut self, ctx: &mut Context<'_>, mut live: usize) -> Result<usize, Conflict> {
        loop {
            live = self.collect_fixed(ctx, live)?;
            if self.pending.is_empty() {
                return Ok(live);
            }
            while let Some(value) = self.pending.pop() {
                let mut j = 0;
                while j < live {
                    let w = self.views[j];
                    if ctx.remove_event(w, value)? == Some(Event::Fixed) {
                        self.note_fixed(ctx.min(w))?;
                        live -= 1;
                        self.views.swap(j, live);
                    } else {
                        j += 1;
                    }
                }
            }
            if !self.aliased {
                return Ok(live);
            }
        }
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
        let live = ctx.int(live_slot) as usize;
        self.pending.clear();
        self.seen.clear();
        let live = self.run(ctx, live)?;
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
