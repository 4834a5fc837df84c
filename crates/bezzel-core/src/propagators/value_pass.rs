//! The value pass of all-different, shared by its three consistency levels.
//!
//! When a view is fixed, its value leaves every other view; a removal may fix another view,
//! whose value leaves the rest in turn. Every level of all-different starts with this pass,
//! as Gecode's `prop_val` (`int/distinct/val.hpp`) serves its val, bnd and dom propagators:
//! it is all that value consistency does, and it is most of what search decisions need at
//! the stronger levels, at linear cost, before their expensive reasoning.
//!
//! It is written twice, for two representations, and nowhere else:
//! - [`value_pass`] over views (any values), keeping the views not yet fixed in a live prefix
//!   of an array: the general path of the three levels;
//! - [`value_pass_masks`] over bitmasks (values as bits of one window of 64), in rounds that
//!   remove every value fixed in the previous round at once: the one-word path of the value
//!   level (masks read from and written to the store) and of the domain level (masks in a
//!   buffer that matching narrows further before they are written back). The storage of the
//!   masks is what the two differ in, behind [`MaskViews`].
//!
//! Both fail when two views are fixed to one value.

use crate::event::Event;
use crate::propagator::Context;
use crate::store::Conflict;
use crate::var::IntView;

/// The value pass over views: removes the value of every fixed view of `views[..live]` from
/// the others, until no view is newly fixed, and moves the fixed views behind the prefix.
/// Every swap of positions `i` and `j` is reported to `moved`, for arrays that travel with the
/// views. Returns the new length of the prefix and whether any domain changed.
///
/// The caller keeps the views not yet fixed in the prefix and trails `live`. Moving a fixed
/// view out of the prefix is a swap inside the array, so restoring `live` alone restores the
/// set of live views (their order inside the prefix does not matter). A run costs a scan of
/// the live views per view fixed by the pass, plus one removal per (fixed value, live view)
/// pair.
///
/// A fixed view's value leaves every other live view, fixed ones included, so two views fixed
/// to one value empty a domain and fail. A removal that fixes a view may fix views already
/// scanned (those of the same variable, as `x` and `x + 1`), so the scan starts again then.
#[inline]
pub(super) fn value_pass(
    ctx: &mut Context<'_>,
    views: &mut [IntView],
    mut live: usize,
    mut moved: impl FnMut(usize, usize),
) -> Result<(usize, bool), Conflict> {
    let mut changed = false;
    let mut i = 0;
    while i < live {
        let v = views[i];
        if !ctx.is_fixed(v) {
            i += 1;
            continue;
        }
        let value = ctx.min(v);
        live -= 1;
        views.swap(i, live);
        moved(i, live);
        let mut fixed_some = false;
        for &w in &views[..live] {
            if let Some(event) = ctx.remove_event(w, value)? {
                changed = true;
                fixed_some |= event == Event::Fixed;
            }
        }
        if fixed_some {
            i = 0;
        }
    }
    Ok((live, changed))
}

/// What a scan of masks found: the fixed views (as bits of their positions), their values,
/// and the values fixed twice.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Fixed {
    pub(super) views: u64,
    pub(super) values: u64,
    pub(super) clash: u64,
}

impl Fixed {
    /// Takes in the mask of the view at position `i`, fixed or not, without a branch: which
    /// views are fixed is data, and a branch on it would mispredict.
    #[inline(always)]
    pub(super) fn scan(&mut self, i: usize, mask: u64) {
        let single = u64::from(mask & mask.wrapping_sub(1) == 0);
        let select = single.wrapping_neg();
        self.clash |= self.values & mask & select;
        self.values |= mask & select;
        self.views |= single << i;
    }

    /// Takes in the mask of the view at position `i`, known to be fixed.
    #[inline(always)]
    pub(super) fn note(&mut self, i: usize, mask: u64) {
        self.clash |= self.values & mask;
        self.values |= mask;
        self.views |= 1 << i;
    }
}

/// Views whose domains are masks over one window of 64 values, named by positions below 64,
/// as [`value_pass_masks`] sees them.
pub(super) trait MaskViews {
    /// Takes the views of `fixed` out of the live ones.
    fn retire(&mut self, fixed: u64);

    /// Removes `values` from every live view; returns the views this fixed, with their values
    /// (fails if it empties one).
    fn remove(&mut self, values: u64) -> Result<Fixed, Conflict>;
}

/// The value pass over masks, from the fixed views that `found` names: in rounds, retires the
/// views fixed in the last round and removes all their values from the live views at once,
/// until a round fixes nothing. A view fixed in a round cannot hold a value of an earlier
/// round (that value left it then), so only the values of one round can clash.
#[inline(always)]
pub(super) fn value_pass_masks(
    views: &mut impl MaskViews,
    mut found: Fixed,
) -> Result<(), Conflict> {
    while found.views != 0 {
        if found.clash != 0 {
            return Err(Conflict);
        }
        views.retire(found.views);
        found = views.remove(found.values)?;
    }
    Ok(())
}
