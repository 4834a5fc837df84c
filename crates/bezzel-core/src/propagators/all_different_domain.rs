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
//! augments along alternating paths found breadth-first), and a cheap value-consistent pass
//! comes first: fixed views remove their value from the others and leave a trailed live prefix,
//! so that later calls ignore them. Also as in Gecode, the propagator is staged: a view that
//! became fixed wakes it at linear priority for the value pass alone, and it then requeues
//! itself at its own, expensive priority for matching, so that the value passes of all
//! constraints settle before any matching runs.
//!
//! The one-word path avoids branches that depend on the data wherever it can (the value pass,
//! the write-back, the rounds that find the predecessors in the view graph): measured, their
//! mispredictions cost more than the extra instructions of computing every case.
//!
//! Two implementations share that plan. When the live views' values span at most 64, domains,
//! value sets and view sets are single `u64` words (a view is named by the bit of its matched
//! value, so that its domain is its row of the view graph), and the components come from
//! bit-parallel forward and backward closures; this is the hot path of Sudoku (up to 25 × 25) and of the
//! N-Queens diagonals up to n = 32. Wider spans use an adjacency array over value indices
//! (dense offsets, or sorted distinct values when the span is huge and sparse) and an iterative
//! Tarjan that also propagates "reaches a free value" from component to component.
//!
//! Two views of one variable (`x` and `x + 1`) are reasoned about as if they were independent,
//! which stays sound; after pruning such a constraint the propagator reports
//! [`NoFixpoint`](PropStatus::NoFixpoint) so that it runs again on what it changed.

use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::queue::Priority;
use crate::store::{Conflict, TrailedInt};
use crate::var::IntView;

/// No value matched to a view (in `mate_val`).
const NO_VALUE: i64 = i64::MIN;
/// No index (wide path).
const NONE: u32 = u32::MAX;
/// Spans up to this many values are indexed densely (`value - lo`) on the wide path; beyond,
/// unless the domains are dense enough, values are compressed by sorting.
const DENSE_SPAN: i64 = 1 << 16;

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
    /// with its view) the variable and how far its word shifts into the window. Masks are
    /// then read with one shift, and no call needs to work out the window.
    window: Option<i64>,
    slots: Vec<(u32, u32)>,
    /// Built on first use: most instances (Sudoku, small queens) never need it, and models with
    /// thousands of these propagators should not pay for it.
    wide: Option<Box<Wide>>,
}

/// Buffers of the one-word path: views and values are bit positions (at most 64 of each).
/// Fixed-size arrays spare this hot path the pointer and length loads of vectors (measured:
/// vectors cost about 10% more instructions per run).
#[derive(Debug, Clone)]
struct Small {
    /// Each live view's values, as read and as narrowed.
    orig: [u64; 64],
    cur: [u64; 64],
    /// Value bit matched to each view.
    mate: [u8; 64],
    /// Breadth-first search of augmenting paths, and the views left unmatched.
    queue: [u8; 64],
    unmatched: [u8; 64],
    /// The view matched to each value bit, and the view it was reached from in a search.
    val_var: [u8; 64],
    parent: [u8; 64],
}

/// What a scan of masks found: the fixed views (as position bits), their values, and the values
/// fixed twice.
#[derive(Debug, Default)]
struct Fixed {
    views: u64,
    values: u64,
    clash: u64,
}

impl Fixed {
    /// Takes in the mask `c` of the view at position `i`, without a branch.
    #[inline(always)]
    fn scan(&mut self, i: usize, c: u64) {
        let single = u64::from(c & c.wrapping_sub(1) == 0);
        let select = single.wrapping_neg();
        self.clash |= self.values & c & select;
        self.values |= c & select;
        self.views |= single << i;
    }
}

/// Buffers of the general path, reused between calls.
#[derive(Debug, Clone, Default)]
struct Wide {
    /// Adjacency of live views: `adj[adj_start[x]..adj_start[x + 1]]` are value indices,
    /// `adj_val` the same values in view terms.
    adj_start: Vec<u32>,
    adj: Vec<u32>,
    adj_val: Vec<i64>,
    /// Sorted distinct values, when they are compressed rather than dense.
    uni: Vec<i64>,
    /// Value index matched to each view position.
    mate: Vec<u32>,
    /// Per value index: its view (valid when `val_epoch == epoch`), its BFS mark, its BFS parent.
    val_var: Vec<u32>,
    val_epoch: Vec<u32>,
    visit_epoch: Vec<u32>,
    parent: Vec<u32>,
    epoch: u32,
    bfs_epoch: u32,
    queue: Vec<u32>,
    /// Tarjan state per view position, and per component whether it reaches a free value.
    index: Vec<u32>,
    low: Vec<u32>,
    comp: Vec<u32>,
    pos: Vec<u32>,
    on_stack: Vec<bool>,
    reach: Vec<bool>,
    comp_reach: Vec<bool>,
    stack: Vec<u32>,
    calls: Vec<u32>,
}

impl Wide {
    fn with_views(n: usize) -> Wide {
        Wide {
            adj_start: Vec::with_capacity(n + 1),
            mate: vec![NONE; n],
            queue: Vec::with_capacity(n + 1),
            index: vec![0; n],
            low: vec![0; n],
            comp: vec![0; n],
            pos: vec![0; n],
            on_stack: vec![false; n],
            reach: vec![false; n],
            comp_reach: vec![false; n],
            stack: Vec::with_capacity(n),
            calls: Vec::with_capacity(n),
            ..Wide::default()
        }
    }
}

impl AllDifferentDomain {
    /// The propagator over `views`. Views may share variables (`x` and `x + 1`).
    pub fn new(views: Vec<IntView>) -> AllDifferentDomain {
        let n = views.len();
        let mut vars: Vec<_> = views.iter().map(|v| v.var()).collect();
        vars.sort_unstable();
        let aliased = vars.windows(2).any(|w| w[0] == w[1]);
        let small = Small {
            orig: [0; 64],
            cur: [0; 64],
            mate: [0; 64],
            queue: [0; 64],
            unmatched: [0; 64],
            val_var: [0; 64],
            parent: [0; 64],
        };
        AllDifferentDomain {
            aliased,
            live: None,
            mate_val: vec![NO_VALUE; n],
            small,
            window: None,
            slots: Vec::new(),
            wide: None,
            views,
        }
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.views.swap(i, j);
        self.mate_val.swap(i, j);
        if !self.slots.is_empty() {
            self.slots.swap(i, j);
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
        // The value pass below scans the masks for fixed views as it reads them.
        let mut found = Fixed::default();
        if self.slots.is_empty() {
            for i in 0..live {
                let mask = read_mask(ctx, self.views[i], base);
                s.orig[i] = mask;
                s.cur[i] = mask;
                found.scan(i, mask);
            }
        } else {
            for (i, &(x, shift)) in self.slots[..live].iter().enumerate() {
                let mask = ctx.store.small_bits(x) << shift;
                s.orig[i] = mask;
                s.cur[i] = mask;
                found.scan(i, mask);
            }
        }

        // Value pass on the masks: fixed views leave the live prefix and their value leaves
        // the others; the store is written once, at the end. Rounds of branch-free scans: a
        // branch per view on whether it is fixed would mispredict.
        let mut m = live;
        while found.views != 0 {
            if found.clash != 0 {
                return Err(Conflict);
            }
            // Highest first, so that the view swapped in from the end is never a fixed one.
            let mut fixed = found.views;
            while fixed != 0 {
                let i = 63 - fixed.leading_zeros() as usize;
                fixed &= !(1u64 << i);
                m -= 1;
                // Positions are the slots' when there is a window (see `views`).
                if self.slots.is_empty() {
                    self.views.swap(i, m);
                } else {
                    self.slots.swap(i, m);
                }
                self.mate_val.swap(i, m);
                s.orig.swap(i, m);
                s.cur.swap(i, m);
            }
            // The removal scans for the next round's fixed views.
            let values = found.values;
            found = Fixed::default();
            let mut empty = false;
            for (i, d) in s.cur[..m].iter_mut().enumerate() {
                *d &= !values;
                empty |= *d == 0;
                found.scan(i, *d);
            }
            if empty {
                return Err(Conflict);
            }
        }

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
            if let Some(&(x, shift)) = self.slots.get(i) {
                // The window's fixed shift back, without the view arithmetic.
                if let Some(event) = ctx.store.keep_small(x, s.cur[i] >> shift)? {
                    ctx.queue.notify(x, event);
                }
            } else {
                write_mask(ctx, self.views[i], base, s.orig[i], s.cur[i])?;
            }
        }
        let slot = self.live.expect("set up");
        ctx.set_int(slot, m as i64);
        Ok(status(m, changed, self.aliased))
    }

    /// Removes the value of every fixed live view from the other live views, on the store,
    /// until no new view is fixed. Returns the new size of the live prefix and whether
    /// anything changed.
    fn value_pass(
        &mut self,
        ctx: &mut Context<'_>,
        mut live: usize,
    ) -> Result<(usize, bool), Conflict> {
        let mut changed = false;
        let mut i = 0;
        while i < live {
            let v = self.views[i];
            if !ctx.is_fixed(v) {
                i += 1;
                continue;
            }
            let value = ctx.min(v);
            live -= 1;
            self.swap(i, live);
            let mut fixed_some = false;
            for &w in &self.views[..live] {
                if ctx.remove(w, value)? {
                    changed = true;
                    fixed_some |= ctx.is_fixed(w);
                }
            }
            if fixed_some {
                i = 0;
            }
        }
        Ok((live, changed))
    }

    /// The general path, for spans of more than 64 values.
    fn propagate_wide(&mut self, ctx: &mut Context<'_>, live: usize, full: bool) -> PropResult {
        let (m, mut changed) = self.value_pass(ctx, live)?;
        let slot = self.live.expect("set up");
        if m <= 1 {
            ctx.set_int(slot, m as i64);
            return Ok(PropStatus::Subsumed);
        }
        if !full {
            ctx.set_int(slot, m as i64);
            return Ok(status(m, changed, self.aliased));
        }
        let n = self.views.len();
        let views = &self.views[..m];
        let w = self
            .wide
            .get_or_insert_with(|| Box::new(Wide::with_views(n)));

        let (mut lo, mut hi, mut edges) = (i64::MAX, i64::MIN, 0i64);
        for &v in views {
            lo = lo.min(ctx.min(v));
            hi = hi.max(ctx.max(v));
            edges += i64::from(ctx.size(v));
        }
        if hi - lo + 1 < m as i64 {
            return Err(Conflict);
        }
        w.adj_start.clear();
        w.adj_val.clear();
        w.adj_start.push(0);
        for &v in views {
            push_values(ctx, v, &mut w.adj_val);
            w.adj_start.push(w.adj_val.len() as u32);
        }
        let dense = hi - lo < DENSE_SPAN || hi - lo < 2 * edges;
        let k = if dense {
            (hi - lo + 1) as usize
        } else {
            w.uni.clear();
            w.uni.extend_from_slice(&w.adj_val);
            w.uni.sort_unstable();
            w.uni.dedup();
            w.uni.len()
        };
        if k < m {
            return Err(Conflict);
        }
        w.adj.clear();
        if dense {
            w.adj.extend(w.adj_val.iter().map(|&val| (val - lo) as u32));
        } else {
            let uni = &w.uni;
            w.adj.extend(
                w.adj_val
                    .iter()
                    .map(|val| uni.partition_point(|u| u < val) as u32),
            );
        }
        let value_of = |w: &Wide, idx: u32| {
            if dense {
                lo + i64::from(idx)
            } else {
                w.uni[idx as usize]
            }
        };
        if w.val_epoch.len() < k {
            w.val_epoch.resize(k, 0);
            w.visit_epoch.resize(k, 0);
            w.val_var.resize(k, 0);
            w.parent.resize(k, 0);
        }
        w.epoch = next_epoch(w.epoch, &mut w.val_epoch);
        let epoch = w.epoch;

        // Keep the pairs that survived, then augment for the views left unmatched.
        w.queue.clear();
        for (x, &v) in views.iter().enumerate() {
            w.mate[x] = NONE;
            let mv = self.mate_val[x];
            if mv == NO_VALUE || !ctx.contains(v, mv) {
                continue;
            }
            let idx = if dense {
                (mv - lo) as u32
            } else {
                w.uni.partition_point(|&u| u < mv) as u32
            };
            if w.val_epoch[idx as usize] != epoch {
                w.val_epoch[idx as usize] = epoch;
                w.val_var[idx as usize] = x as u32;
                w.mate[x] = idx;
            }
        }
        for x in 0..m {
            if w.mate[x] == NONE && !w.augment(x as u32) {
                return Err(Conflict);
            }
        }
        // Augmenting paths move other views' partners too.
        for x in 0..m {
            self.mate_val[x] = value_of(w, w.mate[x]);
        }

        w.components(m);

        for (x, &v) in views.iter().enumerate() {
            let (start, end) = (w.adj_start[x] as usize, w.adj_start[x + 1] as usize);
            for p in start..end {
                let idx = w.adj[p];
                if idx == w.mate[x] || w.val_epoch[idx as usize] != epoch {
                    continue;
                }
                let y = w.val_var[idx as usize] as usize;
                let cy = w.comp[y] as usize;
                if cy == w.comp[x] as usize || w.comp_reach[cy] {
                    continue;
                }
                ctx.remove(v, w.adj_val[p])?;
                changed = true;
            }
        }
        ctx.set_int(slot, m as i64);
        Ok(status(m, changed, self.aliased))
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

/// Advances a generation counter; on wrap-around, clears the marks so that none is stale.
fn next_epoch(epoch: u32, marks: &mut [u32]) -> u32 {
    if epoch == u32::MAX {
        marks.fill(0);
        1
    } else {
        epoch + 1
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

/// Appends the values of `v` in increasing order.
fn push_values(ctx: &Context<'_>, v: IntView, out: &mut Vec<i64>) {
    let (lo, hi) = (ctx.min(v), ctx.max(v));
    let size = i64::from(ctx.size(v));
    if hi - lo + 1 == size {
        out.extend(lo..=hi);
    } else if hi - lo < 4 * size + 64 {
        out.extend((lo..=hi).filter(|&value| ctx.contains(v, value)));
    } else {
        // Sparse and wide: testing every value of the span would cost more than this
        // allocation (only above 16 values).
        out.extend(ctx.values(v));
    }
}

/// Iterates the set bits of a word, lowest first.
#[inline]
fn bits(mut word: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if word == 0 {
            None
        } else {
            let b = word.trailing_zeros() as usize;
            word &= word - 1;
            Some(b)
        }
    })
}

impl Small {
    /// Régin's filtering on the masks `cur[..m]` (`m` = `mate_val.len()`, at least 2), which
    /// it narrows; `mate_val` is read as the previous matching and written as the new one.
    fn regin(&mut self, mate_val: &mut [i64], base: i64) -> Result<(), Conflict> {
        let m = mate_val.len();
        let mut matched = 0u64;
        let mut union = 0u64;
        let mut unmatched = 0;
        // Without a branch per view: whether a pair survived is data.
        for (i, &mv) in mate_val.iter().enumerate() {
            let c = self.cur[i];
            union |= c;
            let off = mv.wrapping_sub(base);
            let inside = u64::from((0..64).contains(&off));
            let bit = (off & 63) as usize;
            let kept = c & (inside << bit) & !matched;
            matched |= kept;
            let keep = kept != 0;
            self.mate[i] = bit as u8;
            let owner = &mut self.val_var[bit];
            *owner = if keep { i as u8 } else { *owner };
            self.unmatched[unmatched] = i as u8;
            unmatched += usize::from(!keep);
        }
        if (union.count_ones() as usize) < m {
            return Err(Conflict);
        }
        for u in 0..unmatched {
            let x = self.unmatched[u] as usize;
            let free = self.cur[x] & !matched;
            let v = if free != 0 {
                let v = free.trailing_zeros() as usize;
                self.mate[x] = v as u8;
                self.val_var[v] = x as u8;
                v
            } else {
                self.augment(x, matched).ok_or(Conflict)?
            };
            matched |= 1 << v;
        }
        for (i, mv) in mate_val.iter_mut().enumerate() {
            *mv = base + i64::from(self.mate[i]);
        }

        // From here on a view is named by the bit of its matched value, so that the view graph
        // needs no matrix: the view matched to `b` can move to the values of `cur[val_var[b]]`,
        // and its successors are the views matched to those. Predecessors are found the other
        // way, a round over all views per step (`meeting`): on graphs this small that costs
        // less than building the transpose (measured: a byte-tile transpose, 4.5 M more
        // instructions on Sudoku, and a bit matrix with its transpose, 33 M more).
        let free = union & !matched;
        // Views with a free value: every edge into them starts an alternating path from a
        // free value (each view on the path moves to the next one's value).
        let direct = self.meeting(m, free);
        if direct == matched {
            // Every edge ends on such a path: nothing to prune.
            return Ok(());
        }
        // All views that reach a free value: rounds of the views whose domain meets a free
        // value or the value of a view found so far.
        let mut reach_free = direct;
        loop {
            let next = self.meeting(m, free | reach_free);
            if next == reach_free {
                break;
            }
            reach_free = next;
        }
        let common = free | reach_free;
        for b in bits(reach_free) {
            self.cur[usize::from(self.val_var[b])] &= common;
        }

        // Strongly connected components of the other views: the views reachable from `b`
        // that also reach it back. Edges inside a component are on alternating cycles. The
        // masks of the views left in `rest` are still those the graph was built from (the
        // others, already narrowed, are masked out).
        let mut rest = matched & !reach_free;
        while rest != 0 {
            let b = rest.trailing_zeros() as usize;
            let forward = closure(|y| self.cur[usize::from(self.val_var[y])], b, rest);
            let mut component = 1u64 << b;
            loop {
                let next = component | self.meeting(m, component) & forward;
                if next == component {
                    break;
                }
                component = next;
            }
            if component == matched & !reach_free {
                // One component for all: every edge among them is on a cycle, and none
                // leaves them (they reach no free value).
                break;
            }
            let keep = common | component;
            for y in bits(component) {
                self.cur[usize::from(self.val_var[y])] &= keep;
            }
            rest &= !component;
        }
        Ok(())
    }

    /// The views among the first `m` whose values meet `set`, named by their matched values.
    #[inline]
    fn meeting(&self, m: usize, set: u64) -> u64 {
        let mut views = 0u64;
        for (&c, &a) in self.cur[..m].iter().zip(&self.mate[..m]) {
            views |= u64::from(c & set != 0) << a;
        }
        views
    }

    /// Finds an augmenting path from the unmatched view `start`, breadth first, and flips it.
    /// Returns the free value it ends on, or `None` if there is none (the constraint fails).
    fn augment(&mut self, start: usize, matched: u64) -> Option<usize> {
        let mut visited = 0u64;
        self.queue[0] = start as u8;
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let j = self.queue[head] as usize;
            head += 1;
            let candidates = self.cur[j] & !visited;
            let free = candidates & !matched;
            if free != 0 {
                let end = free.trailing_zeros() as usize;
                let (mut v, mut x) = (end, j);
                loop {
                    let old = self.mate[x] as usize;
                    self.mate[x] = v as u8;
                    self.val_var[v] = x as u8;
                    if x == start {
                        return Some(end);
                    }
                    v = old;
                    x = self.parent[old] as usize;
                }
            }
            visited |= candidates;
            for v in bits(candidates) {
                self.parent[v] = j as u8;
                self.queue[tail] = self.val_var[v];
                tail += 1;
            }
        }
        None
    }
}

/// The views reachable from `x` along `adj` (a view's successors, possibly with other bits
/// set) without leaving `within`.
#[inline]
fn closure(adj: impl Fn(usize) -> u64, x: usize, within: u64) -> u64 {
    let mut reached = 1u64 << x;
    let mut frontier = reached;
    while frontier != 0 {
        let y = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let new = adj(y) & within & !reached;
        reached |= new;
        frontier |= new;
    }
    reached
}

impl Wide {
    /// Finds an augmenting path from the unmatched view `start`, breadth first, and flips it.
    fn augment(&mut self, start: u32) -> bool {
        self.bfs_epoch = next_epoch(self.bfs_epoch, &mut self.visit_epoch);
        let (epoch, bfs) = (self.epoch, self.bfs_epoch);
        self.queue.clear();
        self.queue.push(start);
        let mut head = 0;
        while head < self.queue.len() {
            let j = self.queue[head];
            head += 1;
            let (lo, hi) = (
                self.adj_start[j as usize] as usize,
                self.adj_start[j as usize + 1] as usize,
            );
            for p in lo..hi {
                let idx = self.adj[p];
                let i = idx as usize;
                if self.visit_epoch[i] == bfs {
                    continue;
                }
                self.visit_epoch[i] = bfs;
                if self.val_epoch[i] != epoch {
                    let (mut v, mut x) = (idx, j);
                    loop {
                        let old = self.mate[x as usize];
                        self.mate[x as usize] = v;
                        self.val_var[v as usize] = x;
                        self.val_epoch[v as usize] = epoch;
                        if x == start {
                            return true;
                        }
                        v = old;
                        x = self.parent[old as usize];
                    }
                }
                self.parent[i] = j;
                self.queue.push(self.val_var[i]);
            }
        }
        false
    }

    /// Tarjan's strongly connected components of the view graph over `0..m` (an arc `x → y`
    /// when `x` can take `y`'s matched value), iteratively. Each component also learns whether
    /// it reaches a free value: components complete in reverse topological order, so every
    /// component an arc leaves to is complete by then.
    fn components(&mut self, m: usize) {
        let epoch = self.epoch;
        self.index[..m].fill(NONE);
        self.stack.clear();
        self.calls.clear();
        let (mut counter, mut ncomp) = (0u32, 0u32);
        for root in 0..m as u32 {
            if self.index[root as usize] != NONE {
                continue;
            }
            self.visit(root, &mut counter);
            while let Some(&x) = self.calls.last() {
                let xi = x as usize;
                if self.pos[xi] < self.adj_start[xi + 1] {
                    let idx = self.adj[self.pos[xi] as usize];
                    self.pos[xi] += 1;
                    if self.val_epoch[idx as usize] != epoch {
                        self.reach[xi] = true;
                        continue;
                    }
                    let y = self.val_var[idx as usize];
                    let yi = y as usize;
                    if y == x {
                        continue;
                    }
                    if self.index[yi] == NONE {
                        self.visit(y, &mut counter);
                    } else if self.on_stack[yi] {
                        self.low[xi] = self.low[xi].min(self.index[yi]);
                    } else {
                        self.reach[xi] |= self.comp_reach[self.comp[yi] as usize];
                    }
                    continue;
                }
                self.calls.pop();
                if self.low[xi] == self.index[xi] {
                    let c = ncomp;
                    ncomp += 1;
                    let mut reach = false;
                    loop {
                        let y = self.stack.pop().expect("x is on the stack") as usize;
                        self.on_stack[y] = false;
                        self.comp[y] = c;
                        reach |= self.reach[y];
                        if y == xi {
                            break;
                        }
                    }
                    self.comp_reach[c as usize] = reach;
                }
                if let Some(&p) = self.calls.last() {
                    let pi = p as usize;
                    self.low[pi] = self.low[pi].min(self.low[xi]);
                    if !self.on_stack[xi] {
                        self.reach[pi] |= self.comp_reach[self.comp[xi] as usize];
                    }
                }
            }
        }
    }

    fn visit(&mut self, x: u32, counter: &mut u32) {
        let xi = x as usize;
        self.index[xi] = *counter;
        self.low[xi] = *counter;
        *counter += 1;
        self.pos[xi] = self.adj_start[xi];
        self.on_stack[xi] = true;
        self.reach[xi] = false;
        self.stack.push(x);
        self.calls.push(x);
    }
}

impl Propagator for AllDifferentDomain {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &v in &self.views {
            s.subscribe(v, Event::Domain);
        }
        s.fixed_wakes_at(Priority::Linear);
        self.live = Some(s.trailed_int(self.views.len() as i64));
        let one_word = self
            .views
            .iter()
            .all(|v| !v.negated && s.store.is_small(v.var.index));
        if one_word && self.views.len() <= 64 {
            // Initial view values run from base + offset to the declared max + offset: the current
            // bounds may have been narrowed by a `Model::propagate` that the search undoes.
            let first = |v: &IntView| i64::from(s.store.base(v.var.index)) + v.offset;
            let last = |v: &IntView| i64::from(s.store.initial_max(v.var.index)) + v.offset;
            let lo = self.views.iter().map(first).min().unwrap_or(0);
            let hi = self.views.iter().map(last).max().unwrap_or(0);
            if hi - lo < 64 {
                self.window = Some(lo);
                self.slots = self
                    .views
                    .iter()
                    .map(|v| (v.var.index, (first(v) - lo) as u32))
                    .collect();
            }
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
        let full = ctx.stage == Priority::Expensive;
        let result = self.propagate_full_or_value(ctx, live, full);
        if !full && result == Ok(PropStatus::Fixpoint) {
            ctx.requeue = Some(Priority::Expensive);
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
