//! Extensional constraints: the views take one of the listed tuples (positive table), or none
//! of them (negative table), in the style of compact-table (Demeulenaere et al., CP 2016).
//!
//! The tuples are numbered and kept in a reversible sparse bitset, `valid`: the tuples whose
//! every value is still in its view's domain. Each (position, value) pair has a support mask:
//! the tuples that put that value at that position. A run
//! 1. finds the positions whose domain changed since the last run (the queue's advice names
//!    candidates; a trailed size per position confirms them),
//! 2. for each, *resets*: ORs the masks of the values left and intersects `valid` with it,
//! 3. filters: a value whose mask no longer meets `valid` has no support (positive table),
//!    or a value all of whose combinations with the other domains are forbidden tuples still
//!    valid is removed (negative table: a count of valid forbidden tuples against the product
//!    of the other domain sizes).
//!
//! The words of `valid` are [`TrailedInt`]s (trailed once per search level when they change),
//! and the number of non-zero words is trailed too, with the order of those words kept in a
//! plain permutation: backtracking restores the count and, with it, the set of live words.
//!
//! Tuples that can never hold are dropped at setup: those with a value outside its view's
//! declared range, and those giving one variable two values (a variable seen at two
//! positions). That keeps both tables domain consistent even on shared variables.

use super::bits;
use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup, WordView};
use crate::queue::Priority;
use crate::store::{Conflict, TrailedInt};
use crate::var::{IntView, VarId};

/// `views` take one of `tuples` (positive) or none of them (negative), domain consistent.
///
/// Cost: compact-table filtering over a reversible bitset of the tuples still possible,
/// `O(d · t / 64)` per changed view (`d` values, `t` tuples) and then a support check per value
/// left; see [`Model::table`](crate::Model::table) and
/// [`Model::table_negative`](crate::Model::table_negative).
#[derive(Debug, Clone)]
pub struct Table {
    views: Vec<IntView>,
    /// The tuples as given: the definition that `is_satisfied` reads.
    tuples: Vec<Vec<i64>>,
    positive: bool,
    /// Built at setup.
    state: Option<State>,
}

#[derive(Debug, Clone)]
struct State {
    /// Per position: the distinct values the kept tuples put there, increasing.
    values: Vec<Vec<i64>>,
    /// Per position, per value (as indexed in `values`): the kept tuples with that value
    /// there, one bit each.
    masks: Vec<Vec<Vec<u64>>>,
    /// Per position, per value: the word where a valid tuple was found last time (a residue:
    /// often still good, so the search for a support starts there).
    residues: Vec<Vec<usize>>,
    /// The words of `valid`.
    words: Vec<TrailedInt>,
    /// A permutation of the word numbers whose first `live` entries are the non-zero words.
    index: Vec<usize>,
    live: TrailedInt,
    /// Per position: its domain size when the last run ended.
    last_size: Vec<TrailedInt>,
    /// Per position: the numbers of the other positions, one per distinct variable other
    /// than its own (for the products of the negative table).
    others: Vec<Vec<usize>>,
    /// Scratch: a mask being built.
    scratch: Vec<u64>,
    /// Per position whose view's declared values span at most 64: the view as a word, and
    /// per bit the number of its value in `values` ([`NOT_LISTED`] when no tuple has it), so
    /// that a run reads and narrows the domain a word at a time.
    word_views: Vec<Option<(WordView, Vec<u32>)>>,
}

/// In a word position's numbering of bits: a value that no kept tuple puts there.
const NOT_LISTED: u32 = u32::MAX;

impl Table {
    /// The positive table: `views` take the values of one of `tuples`, each as long as
    /// `views`.
    pub fn new(views: Vec<IntView>, tuples: Vec<Vec<i64>>) -> Table {
        Table {
            views,
            tuples,
            positive: true,
            state: None,
        }
    }

    /// The negative table: `views` take the values of none of `tuples`.
    pub fn negative(views: Vec<IntView>, tuples: Vec<Vec<i64>>) -> Table {
        Table {
            views,
            tuples,
            positive: false,
            state: None,
        }
    }

    fn build(&self, s: &mut Setup<'_>) -> State {
        let n = self.views.len();
        let vars: Vec<VarId> = self.views.iter().map(|v| v.var()).collect();
        // Tuples that can hold: in the declared ranges, one value per variable; no duplicates
        // (the negative table counts them).
        let mut kept: Vec<&Vec<i64>> = self
            .tuples
            .iter()
            .filter(|t| {
                (0..n).all(|i| {
                    let v = self.views[i];
                    (s.declared_min(v)..=s.declared_max(v)).contains(&t[i])
                        && (0..i).all(|j| {
                            vars[j] != vars[i] || { self.views[j].to_var(t[j]) == v.to_var(t[i]) }
                        })
                })
            })
            .collect();
        kept.sort_unstable();
        kept.dedup();
        let nwords = kept.len().div_ceil(64).max(1);
        let values: Vec<Vec<i64>> = (0..n)
            .map(|i| {
                let mut vs: Vec<i64> = kept.iter().map(|t| t[i]).collect();
                vs.sort_unstable();
                vs.dedup();
                vs
            })
            .collect();
        let mut masks: Vec<Vec<Vec<u64>>> = values
            .iter()
            .map(|vs| vec![vec![0u64; nwords]; vs.len()])
            .collect();
        for (k, t) in kept.iter().enumerate() {
            for i in 0..n {
                let at = values[i].binary_search(&t[i]).expect("listed");
                masks[i][at][k / 64] |= 1 << (k % 64);
            }
        }
        let mut words = Vec::with_capacity(nwords);
        for w in 0..nwords {
            let bits = if (w + 1) * 64 <= kept.len() {
                u64::MAX
            } else {
                (1u64 << (kept.len() - w * 64)) - 1
            };
            words.push(s.trailed_int(bits as i64));
        }
        let live_words = if kept.is_empty() { 0 } else { nwords };
        let others = (0..n)
            .map(|i| {
                let mut seen = vec![vars[i]];
                let mut out = Vec::new();
                for (j, &var) in vars.iter().enumerate() {
                    if !seen.contains(&var) {
                        seen.push(var);
                        out.push(j);
                    }
                }
                out
            })
            .collect();
        let word_views = (0..n)
            .map(|i| {
                let view = self.views[i];
                let base = s.declared_min(view);
                let word = s.word_view(view, base)?;
                let numbers = (0..64)
                    .map(|b| match values[i].binary_search(&(base + b)) {
                        Ok(at) => at as u32,
                        Err(_) => NOT_LISTED,
                    })
                    .collect();
                Some((word, numbers))
            })
            .collect();
        State {
            word_views,
            residues: values.iter().map(|vs| vec![0; vs.len()]).collect(),
            values,
            masks,
            words,
            index: (0..nwords).collect(),
            live: s.trailed_int(live_words as i64),
            last_size: (0..n).map(|_| s.trailed_int(-1)).collect(),
            others,
            scratch: vec![0; nwords],
        }
    }
}

impl State {
    #[inline]
    fn word(&self, ctx: &Context<'_>, w: usize) -> u64 {
        ctx.int(self.words[w]) as u64
    }

    /// `valid &= scratch`.
    fn intersect_scratch(&mut self, ctx: &mut Context<'_>) {
        let mut live = ctx.int(self.live) as usize;
        for k in (0..live).rev() {
            let w = self.index[k];
            let old = self.word(ctx, w);
            let new = old & self.scratch[w];
            if new != old {
                ctx.set_int(self.words[w], new as i64);
                if new == 0 {
                    live -= 1;
                    self.index.swap(k, live);
                }
            }
        }
        ctx.set_int(self.live, live as i64);
    }

    /// Resets `valid` on position `i`: keeps the tuples whose value there is still possible.
    fn reset(&mut self, ctx: &mut Context<'_>, view: IntView, i: usize) {
        let live = ctx.int(self.live) as usize;
        for k in 0..live {
            self.scratch[self.index[k]] = 0;
        }
        let values = &self.values[i];
        let masks = &self.masks[i];
        if let Some((word, numbers)) = &self.word_views[i] {
            for b in bits(ctx.word(*word)) {
                let at = numbers[b];
                if at != NOT_LISTED {
                    for k in 0..live {
                        let w = self.index[k];
                        self.scratch[w] |= masks[at as usize][w];
                    }
                }
            }
        } else if (ctx.size(view) as usize) < values.len() {
            for v in ctx.values(view) {
                if let Ok(at) = values.binary_search(&v) {
                    for k in 0..live {
                        let w = self.index[k];
                        self.scratch[w] |= masks[at][w];
                    }
                }
            }
        } else {
            for (at, &v) in values.iter().enumerate() {
                if ctx.contains(view, v) {
                    for k in 0..live {
                        let w = self.index[k];
                        self.scratch[w] |= masks[at][w];
                    }
                }
            }
        }
        self.intersect_scratch(ctx);
    }

    /// Whether some valid tuple puts value number `at` at position `i`.
    fn supported(&mut self, ctx: &Context<'_>, i: usize, at: usize) -> bool {
        let mask = &self.masks[i][at];
        let r = self.residues[i][at];
        if self.word(ctx, r) & mask[r] != 0 {
            return true;
        }
        let live = ctx.int(self.live) as usize;
        for &w in &self.index[..live] {
            if self.word(ctx, w) & mask[w] != 0 {
                self.residues[i][at] = w;
                return true;
            }
        }
        false
    }

    /// How many valid tuples put value number `at` at position `i`.
    fn count(&self, ctx: &Context<'_>, i: usize, at: usize) -> u64 {
        let mask = &self.masks[i][at];
        let live = ctx.int(self.live) as usize;
        self.index[..live]
            .iter()
            .map(|&w| u64::from((self.word(ctx, w) & mask[w]).count_ones()))
            .sum()
    }

    /// Resets on every position whose domain changed since the last run (those the advice
    /// names, or all of them when it names everything). Returns whether any did.
    fn update(&mut self, ctx: &mut Context<'_>, views: &[IntView], all: bool) -> bool {
        let advice = ctx.advice();
        let mut changed = false;
        for (i, &view) in views.iter().enumerate() {
            if !all && advice & (1 << (i % 64)) == 0 {
                continue;
            }
            if ctx.int(self.last_size[i]) != i64::from(ctx.size(view)) {
                changed = true;
                self.reset(ctx, view, i);
            }
        }
        changed
    }

    fn record_sizes(&self, ctx: &mut Context<'_>, views: &[IntView]) {
        for (i, &view) in views.iter().enumerate() {
            ctx.set_int(self.last_size[i], i64::from(ctx.size(view)));
        }
    }

    /// Positive table: removes every value without a valid tuple.
    fn filter_positive(
        &mut self,
        ctx: &mut Context<'_>,
        views: &[IntView],
    ) -> Result<(), Conflict> {
        // Out of `self` while `supported` updates the residues.
        let word_views = std::mem::take(&mut self.word_views);
        let result = self.filter_positive_with(ctx, views, &word_views);
        self.word_views = word_views;
        result
    }

    /// [`filter_positive`](State::filter_positive) with the word positions held apart.
    fn filter_positive_with(
        &mut self,
        ctx: &mut Context<'_>,
        views: &[IntView],
        word_views: &[Option<(WordView, Vec<u32>)>],
    ) -> Result<(), Conflict> {
        for (i, &view) in views.iter().enumerate() {
            // Every position changed since the last run has been reset, so the valid tuples
            // all agree with every domain: a fixed position's value has support.
            if ctx.is_fixed(view) {
                continue;
            }
            if let Some((word, numbers)) = &word_views[i] {
                let domain = ctx.word(*word);
                let mut kept = 0;
                for b in bits(domain) {
                    let at = numbers[b];
                    if at != NOT_LISTED && self.supported(ctx, i, at as usize) {
                        kept |= 1 << b;
                    }
                }
                if kept != domain {
                    ctx.keep_word(*word, kept)?;
                }
                continue;
            }
            for v in ctx.values(view) {
                let keep = match self.values[i].binary_search(&v) {
                    Ok(at) => self.supported(ctx, i, at),
                    Err(_) => false,
                };
                if !keep {
                    ctx.remove(view, v)?;
                }
            }
        }
        Ok(())
    }

    /// Negative table: removes every value whose combinations with the other domains are all
    /// forbidden, at the first position where some go. Returns whether any went.
    fn filter_negative(
        &mut self,
        ctx: &mut Context<'_>,
        views: &[IntView],
    ) -> Result<bool, Conflict> {
        let live = ctx.int(self.live) as usize;
        let valid: u64 = self.index[..live]
            .iter()
            .map(|&w| u64::from(self.word(ctx, w).count_ones()))
            .sum();
        let mut removed = false;
        for (i, &view) in views.iter().enumerate() {
            // The assignments of the other variables, saturating: beyond the count of valid
            // tuples, none can all be forbidden.
            let mut product: u64 = 1;
            for &j in &self.others[i] {
                product = product.saturating_mul(u64::from(ctx.size(views[j])));
            }
            if product > valid {
                continue;
            }
            for v in ctx.values(view) {
                if let Ok(at) = self.values[i].binary_search(&v)
                    && self.count(ctx, i, at) >= product
                {
                    ctx.remove(view, v)?;
                    removed = true;
                }
            }
            // The removals leave forbidden tuples counted as valid, and shrink the products
            // of the other positions: `valid` must be updated before they are judged.
            if removed {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

impl Propagator for Table {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for (i, &v) in self.views.iter().enumerate() {
            s.subscribe_advised(v, Event::Domain, 1 << (i % 64));
        }
        self.state = Some(self.build(s));
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let Some(state) = self.state.as_mut() else {
            return Ok(PropStatus::Fixpoint);
        };
        let views = &self.views[..];
        let all = ctx.advice() == u64::MAX;
        if !state.update(ctx, views, all) && !all {
            return Ok(PropStatus::Fixpoint);
        }
        state.record_sizes(ctx, views);
        let empty = ctx.int(state.live) == 0;
        if self.positive {
            if empty {
                return Err(Conflict);
            }
            state.filter_positive(ctx, views)?;
        } else {
            if empty {
                return Ok(PropStatus::Subsumed);
            }
            // Each removal invalidates tuples and shrinks the products of the others: again
            // until nothing goes.
            while state.filter_negative(ctx, views)? {
                state.update(ctx, views, true);
                state.record_sizes(ctx, views);
                if ctx.int(state.live) == 0 {
                    return Ok(PropStatus::Subsumed);
                }
            }
            return Ok(PropStatus::Fixpoint);
        }
        // The values removed had no valid tuple: resetting on them would change nothing.
        state.record_sizes(ctx, views);
        Ok(PropStatus::Fixpoint)
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        let listed = self.tuples.iter().any(|t| {
            t.len() == self.views.len() && self.views.iter().zip(t).all(|(&v, &x)| a.value(v) == x)
        });
        listed == self.positive
    }

    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    fn shape(&self) -> Option<crate::learn::Shape<'_>> {
        self.positive.then_some(crate::learn::Shape::Table {
            views: &self.views,
            tuples: &self.tuples,
        })
    }

    fn name(&self) -> &'static str {
        if self.positive {
            "table"
        } else {
            "table(negative)"
        }
    }
}
