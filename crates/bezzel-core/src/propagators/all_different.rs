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
//!
//! The common case (N-Queens' `q`, `q + i`, `q - i`; sudoku's cells) has at most 64 views and
//! 64 values in all, no variable twice, no negated view and only one-word domains. There the
//! views are bare (variable, shift) slots that never move, the live ones are a trailed bitmask,
//! the values fixed in a call are bitmasks too, and the queue's advice says which views were
//! fixed since the last run (each subscription carries its view's bit), so nothing is scanned
//! to find them; removals go straight to the store's one-word path.

use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::store::{Conflict, TrailedInt};
use crate::var::IntView;

/// A view `var + offset` of a variable with a one-word domain, for the fast path. Values are
/// counted from the smallest initial value of any view, `lo`: value `lo + k` is bit `k - shift`
/// of the variable's word.
#[derive(Debug, Clone, Copy)]
struct Slot {
    var: u32,
    shift: i32,
}

impl Slot {
    /// The view's value (counted from `lo`), once its variable is fixed.
    #[inline]
    fn fixed_value(self, ctx: &Context<'_>) -> u32 {
        (ctx.store.min(self.var) - ctx.store.base(self.var) + self.shift) as u32
    }
}

/// Values fixed during one fast-path call, as bitmasks over values counted from `lo`.
#[derive(Debug, Clone, Copy, Default)]
struct Fixed {
    /// Every value fixed, to catch two views fixed to one value.
    seen: u64,
    /// Values still to be removed from the live views.
    pending: u64,
}

impl Fixed {
    #[inline]
    fn note(&mut self, k: u32) -> Result<(), Conflict> {
        debug_assert!(k < 64, "value {k} outside the constraint's 64-value window");
        let b = 1u64 << k;
        if self.seen & b != 0 {
            return Err(Conflict);
        }
        self.seen |= b;
        self.pending |= b;
        Ok(())
    }
}

/// `views` take pairwise distinct values (value consistency).
#[derive(Debug, Clone)]
pub struct AllDifferentValue {
    views: Vec<IntView>,
    /// The views as slots when the fast path applies (see the module docs), else empty.
    slots: Vec<Slot>,
    /// The length of the live prefix of `views`; on the fast path, the bitmask of live slots.
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
            slots: Vec::new(),
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

    /// [`run`](Self::run) for the fast path, where the live views are a bitmask over `slots`
    /// and one round suffices as no variable appears twice. The queue's advice names the views
    /// fixed since the last run, so no scan looks for them. Whether a view holds a value is an
    /// unpredictable branch per view; the scan computes it as a bitmask instead, and only the
    /// hits branch.
    fn run_slots(&self, ctx: &mut Context<'_>, mut live: u64) -> Result<u64, Conflict> {
        let slots = &self.slots[..];
        let mut values = Fixed::default();
        let mut fixed = ctx.advice & live;
        if ctx.advice == u64::MAX {
            fixed = 0;
            let mut m = live;
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                fixed |= u64::from(ctx.store.size(slots[i].var) == 1) << i;
            }
        }
        note_fixed(slots, ctx, fixed, &mut values)?;
        live &= !fixed;
        while values.pending != 0 {
            let k = values.pending.trailing_zeros() as i32;
            values.pending &= values.pending - 1;
            let mut hits = 0u64;
            let mut m = live;
            while m != 0 {
                let j = m.trailing_zeros() as usize;
                m &= m - 1;
                let s = slots[j];
                let bit = (k - s.shift) as u32;
                let held = ctx.store.small_bits(s.var) >> (bit & 63) & u64::from(bit < 64);
                hits |= (held & 1) << j;
            }
            let mut fixed = 0u64;
            while hits != 0 {
                let j = hits.trailing_zeros() as usize;
                hits &= hits - 1;
                let s = slots[j];
                let event = ctx.store.remove_bit(s.var, (k - s.shift) as u32)?;
                ctx.queue.notify(s.var, event);
                fixed |= u64::from(event == Event::Fixed) << j;
            }
            note_fixed(slots, ctx, fixed, &mut values)?;
            live &= !fixed;
        }
        Ok(live)
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

/// Notes the values of the (fixed) views marked in `fixed`.
#[inline(always)]
fn note_fixed(
    slots: &[Slot],
    ctx: &Context<'_>,
    mut fixed: u64,
    values: &mut Fixed,
) -> Result<(), Conflict> {
    while fixed != 0 {
        let i = fixed.trailing_zeros() as usize;
        fixed &= fixed - 1;
        values.note(slots[i].fixed_value(ctx))?;
    }
    Ok(())
}

impl Propagator for AllDifferentValue {
    fn setup(&mut self, s: &mut Setup<'_>) {
        let fast = !self.aliased
            && self.views.len() <= 64
            && self
                .views
                .iter()
                .all(|v| !v.negated && s.store.is_small(v.var.index));
        if fast {
            // Initial view values run from base + offset to the declared max + offset: the current
            // bounds may have been narrowed by a `Model::propagate` that the search undoes.
            let first = |v: &IntView| i64::from(s.store.base(v.var.index)) + v.offset;
            let last = |v: &IntView| i64::from(s.store.initial_max(v.var.index)) + v.offset;
            let lo = self.views.iter().map(first).min().unwrap_or(0);
            let hi = self.views.iter().map(last).max().unwrap_or(0);
            if hi - lo < 64 {
                self.slots = self
                    .views
                    .iter()
                    .map(|v| Slot {
                        var: v.var.index,
                        shift: (first(v) - lo) as i32,
                    })
                    .collect();
            }
        }
        if self.slots.is_empty() {
            for &v in &self.views {
                s.subscribe(v, Event::Fixed);
            }
            self.live = Some(s.trailed_int(self.views.len() as i64));
        } else {
            for (i, &v) in self.views.iter().enumerate() {
                s.subscribe_advised(v, Event::Fixed, 1 << i);
            }
            let all = u64::MAX >> (64 - self.views.len());
            self.live = Some(s.trailed_int(all as i64));
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let Some(live_slot) = self.live else {
            return Ok(PropStatus::Fixpoint);
        };
        let live = if self.slots.is_empty() {
            self.pending.clear();
            self.seen.clear();
            let live = self.run(ctx, ctx.int(live_slot) as usize)?;
            ctx.set_int(live_slot, live as i64);
            live
        } else {
            let live = self.run_slots(ctx, ctx.int(live_slot) as u64)?;
            ctx.set_int(live_slot, live as i64);
            live.count_ones() as usize
        };
        Ok(if live <= 1 {
            PropStatus::Subsumed
        } else {
            PropStatus::Fixpoint
        })
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        super::pairwise_different(&self.views, a)
    }

    fn name(&self) -> &'static str {
        "all_different(value)"
    }
}
