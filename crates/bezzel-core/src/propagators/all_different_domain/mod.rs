//! Domain-consistent all-different, by Régin's matching algorithm.
//!
//! Régin ("A filtering algorithm for constraints of difference in CSPs", AAAI 1994) sees the
//! constraint as a bipartite graph between views and values. A solution is a matching that
//! covers every view, so if a maximum matching leaves a view out the constraint fails. Otherwise
//! a value `v` of view `x` belongs to some solution exactly when the edge `(x, v)` is in the
//! matching, or on an even alternating cycle, or on an even alternating path that starts at a
//! free (unmatched) value. Contracting each matched pair into its view turns this into a graph
//! on views, with an arc `x → y` when `x` can take the value matched to `y`: the edge is kept
//! when `x` and `y` lie in the same strongly connected component, or when `y` can reach a view
//! that has a free value. Every other edge is removed.
//!
//! As in Gecode's `int/distinct/dom.hpp`, the matching is kept between calls (it is a cache, not
//! trailed: every call drops the pairs whose value has gone, which also covers backtracking, and
//! augments along alternating paths found breadth-first), and the [value
//! pass](super::value_pass) comes first: fixed views remove their value from the others and
//! leave a trailed live prefix, so that later calls ignore them. Also as in Gecode, the
//! propagator is staged: a view that became fixed wakes it at linear priority for the value
//! pass alone, and it then requeues itself at its own, expensive priority for matching, so
//! that the value passes of all constraints settle before any matching runs.
//!
//! This file is the propagator: staging, the value pass, and reading and writing domains. The
//! matching is done by one of two implementations of the same plan. When the live views'
//! values span at most 64, [`matching_small`] works on single `u64` words; wider spans go to
//! [`matching`], over an adjacency array. On the one-word path the value pass runs on the
//! masks read for the matching, and the store is written once at the end; that path avoids
//! branches that depend on the data wherever it can (the value pass, the write-back):
//! measured, their mispredictions cost more than the extra instructions of computing every
//! case.
//!
//! Two views of one variable (`x` and `x + 1`) are reasoned about as if they were independent,
//! which stays sound; after pruning such a constraint the propagator reports
//! [`NoFixpoint`](PropStatus::NoFixpoint) so that it runs again on what it changed.

mod family;
mod kernel;
mod locked;
mod matching;
mod matching_small;
mod offset_family;
mod slots;
mod wide;

pub(in crate::propagators) use family::AllDifferentFamily;
pub(in crate::propagators) use offset_family::OffsetFamily;

use super::value_pass::{Fixed, MaskViews, value_pass, value_pass_masks};
use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup, WordView};
use crate::queue::Priority;
use crate::store::{Conflict, TrailedInt};
use crate::var::IntView;
use matching::Wide;
use matching_small::Small;

/// No value matched to a view (in `mate_val`).
const NO_VALUE: i64 = i64::MIN;

/// `views` take pairwise distinct values (domain consistency).
#[derive(Debug, Clone)]
pub struct AllDifferentDomain {
    /// The views by position, except with a window: then `slots` stand for them by position
    /// and `views` keeps its first order (nothing reads it by position there, and swapping
    /// it too cost 1.5% of the instructions on Sudoku).
    views: Vec<IntView>,
    /// Whether two views share a variable, so that one run may miss its fixpoint.
    aliased: bool,
    /// Views `0..live` are those whose value has not been removed from the others yet;
    /// positions beyond hold fixed views, in any order.
    live: Option<TrailedInt>,
    /// The matching kept between calls: the value matched to the view at each position, or
    /// `NO_VALUE`. It moves with its view when positions are swapped.
    mate_val: Vec<i64>,
    small: Small,
    /// When every view is `x + c` over a one-word domain and all of them fit in one window
    /// of 64 values from the start: that window's first value, and per view position (moving
    /// with its view) the view as a [`WordView`] over it. Masks are then read with one shift,
    /// and no call needs to work out the window.
    window: Option<i64>,
    slots: Vec<WordView>,
    /// Built on first use: most instances (Sudoku, small queens) never need it, and models with
    /// thousands of these propagators should not pay for it.
    wide: Option<Box<Wide>>,
}

impl AllDifferentDomain {
    /// The propagator over `views`. Views may share variables (`x` and `x + 1`).
    pub fn new(views: Vec<IntView>) -> AllDifferentDomain {
        let n = views.len();
        let mut vars: Vec<_> = views.iter().map(|v| v.var()).collect();
        vars.sort_unstable();
        let aliased = vars.windows(2).any(|w| w[0] == w[1]);
        AllDifferentDomain {
            aliased,
            live: None,
            mate_val: vec![NO_VALUE; n],
            small: Small::new(),
            window: None,
            slots: Vec::new(),
            wide: None,
            views,
        }
    }

    /// The one-word path: every live view's values fit in `base..base + 64`.
    fn propagate_small(
        &mut self,
        ctx: &mut Context<'_>,
        live: usize,
        base: i64,
        full: bool,
    ) -> PropResult {
        let s = &mut self.small;
        // Read the masks, finding the fixed views as they come, then run the value pass on
        // the masks (the store is written once, at the end). Positions are the slots' when
        // there is a window (see `views`).
        let mut found = Fixed::default();
        let m = if self.slots.is_empty() {
            for i in 0..live {
                let mask = read_mask(ctx, self.views[i], base);
                s.orig[i] = mask;
                s.cur[i] = mask;
                found.scan(i, mask);
            }
            prefix_pass(&mut self.views, &mut self.mate_val, s, live, found)?
        } else {
            for (i, &w) in self.slots[..live].iter().enumerate() {
                let mask = ctx.word(w);
                s.orig[i] = mask;
                s.cur[i] = mask;
                found.scan(i, mask);
            }
            prefix_pass(&mut self.slots, &mut self.mate_val, s, live, found)?
        };

        if m > 1 && full {
            s.regin(&mut self.mate_val[..m], base)?;
        }

        // Which views changed, as a mask first: a branch per view would mispredict.
        let mut narrowed = 0u64;
        for i in 0..live {
            narrowed |= u64::from(s.orig[i] != s.cur[i]) << i;
        }
        let changed = narrowed != 0;
        while narrowed != 0 {
            let i = narrowed.trailing_zeros() as usize;
            narrowed &= narrowed - 1;
            if let Some(&w) = self.slots.get(i) {
                ctx.keep_word(w, s.cur[i])?;
            } else {
                write_mask(ctx, self.views[i], base, s.orig[i], s.cur[i])?;
            }
        }
        let slot = self.live.expect("set up");
        ctx.set_int(slot, m as i64);
        Ok(status(m, changed, self.aliased))
    }

    /// The general path, for spans of more than 64 values.
    fn propagate_wide(&mut self, ctx: &mut Context<'_>, live: usize, full: bool) -> PropResult {
        let mate_val = &mut self.mate_val;
        let (m, mut changed) = value_pass(ctx, &mut self.views, live, |i, j| mate_val.swap(i, j))?;
        let slot = self.live.expect("set up");
        if m > 1 && full {
            let n = self.views.len();
            let w = self
                .wide
                .get_or_insert_with(|| Box::new(Wide::with_views(n)));
            changed |= w.filter(ctx, &self.views[..m], &mut self.mate_val[..m])?;
        }
        ctx.set_int(slot, m as i64);
        Ok(status(m, changed, self.aliased))
    }
}

/// The live prefix of the one-word path, as the value pass over masks sees it: the masks are
/// those of `small.cur`, and retiring a view swaps it (with its mask, its matched value and
/// its position in `order`, the views or the slots) to the end of the prefix.
struct Prefix<'p, T> {
    order: &'p mut [T],
    mate_val: &'p mut [i64],
    small: &'p mut Small,
    live: usize,
}

/// Runs the value pass over masks on the prefix of `live` views whose positions are those of
/// `order`, from the fixed views of `found`; returns the new length of the prefix.
#[inline(always)]
fn prefix_pass<T>(
    order: &mut [T],
    mate_val: &mut [i64],
    small: &mut Small,
    live: usize,
    found: Fixed,
) -> Result<usize, Conflict> {
    let mut prefix = Prefix {
        order,
        mate_val,
        small,
        live,
    };
    value_pass_masks(&mut prefix, found)?;
    Ok(prefix.live)
}

impl<T> MaskViews for Prefix<'_, T> {
    #[inline(always)]
    fn retire(&mut self, mut fixed: u64) {
        // Highest first, so that the view swapped in from the end is never a fixed one.
        while fixed != 0 {
            let i = 63 - fixed.leading_zeros() as usize;
            fixed &= !(1u64 << i);
            self.live -= 1;
            let m = self.live;
            self.order.swap(i, m);
            self.mate_val.swap(i, m);
            self.small.orig.swap(i, m);
            self.small.cur.swap(i, m);
        }
    }

    #[inline(always)]
    fn remove(&mut self, values: u64) -> Result<Fixed, Conflict> {
        // One branch-free scan removes the values and finds the next round's fixed views.
        let mut found = Fixed::default();
        let mut empty = false;
        for (i, d) in self.small.cur[..self.live].iter_mut().enumerate() {
            *d &= !values;
            empty |= *d == 0;
            found.scan(i, *d);
        }
        if empty { Err(Conflict) } else { Ok(found) }
    }
}

/// The status after a run that left `m` live views.
fn status(m: usize, changed: bool, aliased: bool) -> PropStatus {
    if m <= 1 {
        // The fixed views' values have left every other view: nothing can clash any more.
        PropStatus::Subsumed
    } else if changed && aliased {
        PropStatus::NoFixpoint
    } else {
        PropStatus::Fixpoint
    }
}

/// The values of `v` as bits over `base..base + 64`; the caller guarantees they fit.
#[inline]
fn read_mask(ctx: &Context<'_>, v: IntView, base: i64) -> u64 {
    if let Some(mask) = ctx.bits64(v, base) {
        return mask;
    }
    let (lo, hi) = (ctx.min(v), ctx.max(v));
    let width = (hi - lo + 1) as u32;
    let shift = (lo - base) as u32;
    if ctx.size(v) == width {
        // An interval: no need to test each value.
        return (u64::MAX >> (64 - width)) << shift;
    }
    // Both ends are values; only the inside needs testing.
    let mut mask = 1u64 | 1 << (width - 1);
    for bit in 1..width - 1 {
        mask |= u64::from(ctx.contains(v, lo + i64::from(bit))) << bit;
    }
    mask << shift
}

/// Narrows `v` from the values `old` to `new` (bits over `base..base + 64`), with as few
/// store operations as possible: one word write when the variable's domain is one word,
/// else bounds first, then inner values one by one.
#[inline]
fn write_mask(
    ctx: &mut Context<'_>,
    v: IntView,
    base: i64,
    old: u64,
    new: u64,
) -> Result<(), Conflict> {
    if let Some(result) = ctx.keep_bits64(v, base, new) {
        return result.map(|_| ());
    }
    let value = |bit: u32| base + i64::from(bit);
    if new & new.wrapping_sub(1) == 0 {
        ctx.assign(v, value(new.trailing_zeros()))?;
        return Ok(());
    }
    let (new_lo, new_hi) = (new.trailing_zeros(), 63 - new.leading_zeros());
    if new_lo > old.trailing_zeros() {
        ctx.set_min(v, value(new_lo))?;
    }
    if new_hi < 63 - old.leading_zeros() {
        ctx.set_max(v, value(new_hi))?;
    }
    let inside = (u64::MAX >> (63 - new_hi)) & (u64::MAX << new_lo);
    let mut gone = old & !new & inside;
    while gone != 0 {
        ctx.remove(v, value(gone.trailing_zeros()))?;
        gone &= gone - 1;
    }
    Ok(())
}

impl Propagator for AllDifferentDomain {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &v in &self.views {
            s.subscribe(v, Event::Domain);
        }
        s.fixed_wakes_at(Priority::Linear);
        self.live = Some(s.trailed_int(self.views.len() as i64));
        // The one-word path names views by bits of one word: at most 64 of them.
        if self.views.len() <= 64
            && let Some((lo, slots)) = super::word_views(s, &self.views)
        {
            self.window = Some(lo);
            self.slots = slots;
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let Some(slot) = self.live else {
            return Ok(PropStatus::Fixpoint);
        };
        let live = ctx.int(slot) as usize;
        if live <= 1 {
            return Ok(PropStatus::Subsumed);
        }
        // Staged like Gecode's: woken by a fixed view, it first runs only the value pass, at
        // linear cost, and requeues itself for matching; every cheaper propagator (including
        // the value passes of the others) runs before that, so several wake-ups share one
        // matching. Other changes wake it straight into the matching stage.
        let full = ctx.stage() == Priority::Expensive;
        let result = self.propagate_full_or_value(ctx, live, full);
        if !full && result == Ok(PropStatus::Fixpoint) {
            ctx.requeue(Priority::Expensive);
        }
        result
    }

    fn priority(&self) -> Priority {
        Priority::Expensive
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        super::pairwise_different(&self.views, a)
    }

    fn name(&self) -> &'static str {
        "all_different(domain)"
    }

    fn shape(&self) -> Option<crate::learn::Shape<'_>> {
        Some(crate::learn::Shape::AllDifferent { views: &self.views })
    }
}

impl AllDifferentDomain {
    /// One run on the `live` views: the value pass and, if `full`, matching and pruning.
    fn propagate_full_or_value(
        &mut self,
        ctx: &mut Context<'_>,
        live: usize,
        full: bool,
    ) -> PropResult {
        if let Some(base) = self.window {
            return self.propagate_small(ctx, live, base, full);
        }
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for &v in &self.views[..live] {
            lo = lo.min(ctx.min(v));
            hi = hi.max(ctx.max(v));
        }
        if hi - lo + 1 < live as i64 {
            return Err(Conflict);
        }
        if hi - lo < 64 {
            self.propagate_small(ctx, live, lo, full)
        } else {
            self.propagate_wide(ctx, live, full)
        }
    }
}
