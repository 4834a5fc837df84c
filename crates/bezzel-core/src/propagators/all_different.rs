//! Value-consistent all-different: the [value pass](super::value_pass) alone.
//!
//! When a view becomes fixed, its value is removed from every other view; the removals may fix
//! more views, whose values are removed in turn. In general that is [`value_pass`] over the
//! views, with the length of its live prefix trailed.
//!
//! The common case (N-Queens' `q`, `q + i`, `q - i`; sudoku's cells) has at most 64 views and
//! 64 values in all, no variable twice, no negated view and only one-word domains. There the
//! views are [`WordView`]s over one window that never move, the live ones are a trailed
//! bitmask, the values fixed in a round are bitmasks too ([`value_pass_masks`]), and the
//! queue's advice says which views were fixed since the last run (each subscription carries
//! its view's bit), so nothing is scanned to find them; removals are one-word writes.
//!
//! It uses only the public [`Context`] and [`Setup`] API:
//! `tests/propagators/public_propagator.rs` rebuilds it outside the crate and checks that it
//! matches this one node for node.

use super::bits;
use super::value_pass::{Fixed, MaskViews, value_pass, value_pass_masks};
use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup, WordView};
use crate::store::{Conflict, TrailedInt};
use crate::var::IntView;

/// `views` take pairwise distinct values (value consistency).
#[derive(Debug, Clone)]
pub struct AllDifferentValue {
    views: Vec<IntView>,
    /// The views as word views over one window when the one-word path applies (see the
    /// module docs), else empty.
    words: Vec<WordView>,
    /// The length of the live prefix of `views`; on the one-word path, the bitmask of live
    /// views.
    live: Option<TrailedInt>,
    aliased: bool,
}

impl AllDifferentValue {
    /// The propagator over `views`.
    pub fn new(views: Vec<IntView>) -> AllDifferentValue {
        let mut vars: Vec<_> = views.iter().map(|v| v.var()).collect();
        vars.sort_unstable();
        vars.dedup();
        let aliased = vars.len() < views.len();
        AllDifferentValue {
            views,
            words: Vec::new(),
            live: None,
            aliased,
        }
    }

    /// The one-word path: the value pass on the live views of the bitmask `live`, starting
    /// from those the advice names. Returns the live views left.
    #[inline]
    fn run_words(&self, ctx: &mut Context<'_>, live: u64) -> Result<u64, Conflict> {
        let words = &self.words[..];
        let mut found = Fixed::default();
        if ctx.advice() == u64::MAX {
            // Run without an event: any view may be fixed.
            for i in bits(live) {
                found.scan(i, ctx.word(words[i]));
            }
        } else {
            for i in bits(ctx.advice() & live) {
                found.note(i, ctx.word(words[i]));
            }
        }
        let mut store = StoreWords { ctx, words, live };
        value_pass_masks(&mut store, found)?;
        Ok(store.live)
    }
}

/// The live views of the one-word path, read from and written to the store.
struct StoreWords<'c, 'a> {
    ctx: &'c mut Context<'a>,
    words: &'c [WordView],
    live: u64,
}

impl MaskViews for StoreWords<'_, '_> {
    #[inline(always)]
    fn retire(&mut self, fixed: u64) {
        self.live &= !fixed;
    }

    #[inline(always)]
    fn remove(&mut self, values: u64) -> Result<Fixed, Conflict> {
        // Whether a view holds a value is an unpredictable branch per view; the scan
        // computes it as a bitmask instead, and only the hits branch.
        let mut hits = 0u64;
        for j in bits(self.live) {
            hits |= u64::from(self.ctx.word(self.words[j]) & values != 0) << j;
        }
        let mut fixed = 0u64;
        for j in bits(hits) {
            let event = self.ctx.keep_word(self.words[j], !values)?;
            fixed |= u64::from(event == Some(Event::Fixed)) << j;
        }
        let mut found = Fixed::default();
        for j in bits(fixed) {
            found.note(j, self.ctx.word(self.words[j]));
        }
        Ok(found)
    }
}

impl Propagator for AllDifferentValue {
    fn setup(&mut self, s: &mut Setup<'_>) {
        if !self.aliased && self.views.len() <= 64 {
            self.words = super::word_views(s, &self.views).map_or_else(Vec::new, |(_, w)| w);
        }
        if self.words.is_empty() {
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
        let live = if self.words.is_empty() {
            let live = ctx.int(live_slot) as usize;
            let (live, _) = value_pass(ctx, &mut self.views, live, |_, _| {})?;
            ctx.set_int(live_slot, live as i64);
            live
        } else {
            let live = self.run_words(ctx, ctx.int(live_slot) as u64)?;
            ctx.set_int(live_slot, live as i64);
            live.count_ones() as usize
        };
        Ok(PropStatus::subsumed_if(live <= 1))
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        super::pairwise_different(&self.views, a)
    }

    fn name(&self) -> &'static str {
        "all_different(value)"
    }

    fn shape(&self) -> Option<crate::learn::Shape<'_>> {
        Some(crate::learn::Shape::AllDifferent { views: &self.views })
    }
}
