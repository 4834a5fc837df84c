//! Bounds-consistent all-different, by Hall intervals.
//!
//! A Hall interval is a range of values `[a, b]` that exactly as many views as it has values
//! must fit into; every other view then has to leave it. This is the O(n log n) algorithm of
//! López-Ortiz, Quimper, Tromp and van Beek, "A fast and simple algorithm for bounds consistency
//! of the alldifferent constraint" (IJCAI 2003), as Gecode's `int/distinct/bnd.hpp` implements
//! it: sort the views by minimum and by maximum, rank the distinct bounds, then sweep the views
//! in order of increasing maximum while a union-find-like structure with path compression (the
//! `t`, `d` and `h` arrays) tracks, for each bound, the capacity left to its left and the Hall
//! interval it falls into; that sweep raises lower bounds, and the mirrored sweep lowers upper
//! bounds. Before it, the [value pass](super::value_pass) removes the values of fixed views
//! from the others, as Gecode does (it is what most search decisions need, and it runs in
//! linear time).
//!
//! The Hall sweep reasons on the intervals `[min, max]` of a snapshot of the bounds. That is
//! exact when the views are on distinct variables and a new bound lands on a value of the
//! domain; when it lands in a hole, or a view becomes fixed, or two views share a variable (so a
//! change to one moves the other behind the snapshot's back), the propagator reports
//! [`NoFixpoint`](PropStatus::NoFixpoint) and runs again.

use super::value_pass::value_pass;
use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::queue::Priority;
use crate::store::{Conflict, TrailedInt};
use crate::var::IntView;

/// One distinct bound in the sweep: its value and the union-find links of the paper.
#[derive(Debug, Clone, Copy, Default)]
struct Hall {
    /// The bound's value (a minimum, or a maximum plus one).
    bounds: i64,
    /// Path to the next bound with spare capacity ("t" in the paper).
    t: usize,
    /// Capacity: values between this bound and its predecessor not yet used ("d").
    d: i64,
    /// Path to the end of the Hall interval this bound belongs to ("h").
    h: usize,
}

/// `views` take pairwise distinct values (bounds consistency, plus value consistency for
/// fixed views).
#[derive(Debug, Clone)]
pub struct AllDifferentBounds {
    views: Vec<IntView>,
    /// Whether two views share a variable, so that a single sweep may miss its fixpoint.
    aliased: bool,
    /// Whether a value-consistent all-different over the same views runs before this one
    /// (see [`AllDifferentBounds::after_value_pass`]), so that the value pass here would only
    /// repeat its removals.
    partnered: bool,
    /// The views again, for the value pass, which permutes them: its trailed prefix (`live`)
    /// holds the views whose value has not been removed from the others yet. (The sweeps
    /// read `views`, whose order `min_sorted` and `max_sorted` refer to.)
    live_views: Vec<IntView>,
    live: Option<TrailedInt>,
    /// View indices by increasing minimum / maximum; kept between calls because the order
    /// barely changes from one call to the next, which makes re-sorting nearly linear.
    min_sorted: Vec<u32>,
    max_sorted: Vec<u32>,
    /// The snapshot of each view's minimum and maximum plus one.
    lo: Vec<i64>,
    hi: Vec<i64>,
    /// Each view's minimum and maximum as a rank into `hall`.
    rank_min: Vec<usize>,
    rank_max: Vec<usize>,
    hall: Vec<Hall>,
}

impl AllDifferentBounds {
    /// The propagator over `views`. Views may share variables (`x` and `x + 1`).
    pub fn new(views: Vec<IntView>) -> AllDifferentBounds {
        let n = views.len();
        let mut vars: Vec<_> = views.iter().map(|v| v.var()).collect();
        vars.sort_unstable();
        let aliased = vars.windows(2).any(|w| w[0] == w[1]);
        AllDifferentBounds {
            aliased,
            partnered: false,
            live_views: views.clone(),
            live: None,
            min_sorted: (0..n as u32).collect(),
            max_sorted: (0..n as u32).collect(),
            lo: vec![0; n],
            hi: vec![0; n],
            rank_min: vec![0; n],
            rank_max: vec![0; n],
            hall: vec![Hall::default(); 2 * n + 2],
            views,
        }
    }

    /// The propagator over `views`, for use beside an
    /// [`AllDifferentValue`](super::AllDifferentValue) over the same views, as
    /// [`Model::all_different_with`](crate::Model::all_different_with) posts them at the
    /// bounds level: that one has the cheaper priority, so it has removed every fixed view's
    /// value from the others whenever this one runs, and this one skips its own value pass
    /// (on Golomb 10 the pass was 6 % of all instructions, every removal a repeat).
    pub fn after_value_pass(views: Vec<IntView>) -> AllDifferentBounds {
        AllDifferentBounds {
            partnered: true,
            ..AllDifferentBounds::new(views)
        }
    }

    /// The Hall-interval sweeps. Returns whether the result is a fixpoint (as far as the
    /// snapshot can tell) and whether anything changed.
    fn hall_pass(&mut self, ctx: &mut Context<'_>) -> Result<(bool, bool), Conflict> {
        let n = self.views.len();
        let (mut lowest, mut highest) = (i64::MAX, i64::MIN);
        for (i, &v) in self.views.iter().enumerate() {
            self.lo[i] = ctx.min(v);
            self.hi[i] = ctx.max(v) + 1;
            lowest = lowest.min(self.lo[i]);
            highest = highest.max(self.hi[i]);
        }
        // Pigeonhole: fewer values in the whole range than views.
        if highest - lowest < n as i64 {
            return Err(Conflict);
        }
        let (lo, hi) = (&self.lo, &self.hi);
        sort_nearly_sorted(&mut self.min_sorted, lo);
        sort_nearly_sorted(&mut self.max_sorted, hi);

        // Merge the sorted minima and maxima into the distinct bounds, ranking every view.
        // `hall[0]` and `hall[nb + 1]` are sentinels two apart from their neighbours, so that
        // their capacities never run out.
        let hall = &mut self.hall;
        let mut nb = 0;
        {
            let mut min = lo[self.min_sorted[0] as usize];
            let mut max = hi[self.max_sorted[0] as usize];
            let mut last = min - 2;
            hall[0].bounds = last;
            let (mut i, mut j) = (0, 0);
            loop {
                if i < n && min < max {
                    if min != last {
                        nb += 1;
                        last = min;
                        hall[nb].bounds = min;
                    }
                    self.rank_min[self.min_sorted[i] as usize] = nb;
                    i += 1;
                    if i < n {
                        min = lo[self.min_sorted[i] as usize];
                    }
                } else {
                    if max != last {
                        nb += 1;
                        last = max;
                        hall[nb].bounds = max;
                    }
                    self.rank_max[self.max_sorted[j] as usize] = nb;
                    j += 1;
                    if j == n {
                        break;
                    }
                    max = hi[self.max_sorted[j] as usize];
                }
            }
            hall[nb + 1].bounds = hall[nb].bounds + 2;
        }

        let mut fixpoint = true;
        let mut changed = false;

        // Lower bounds: views by increasing maximum.
        for i in 1..=nb + 1 {
            hall[i].t = i - 1;
            hall[i].h = i - 1;
            hall[i].d = hall[i].bounds - hall[i - 1].bounds;
        }
        for &k in &self.max_sorted {
            let k = k as usize;
            let x = self.rank_min[k];
            let y = self.rank_max[k];
            let mut z = path_max_t(hall, x + 1);
            let j = hall[z].t;
            hall[z].d -= 1;
            if hall[z].d == 0 {
                hall[z].t = z + 1;
                z = path_max_t(hall, z + 1);
                hall[z].t = j;
            }
            path_set_t(hall, x + 1, z, z);
            if hall[z].d < hall[z].bounds - hall[y].bounds {
                return Err(Conflict);
            }
            if hall[x].h > x {
                let w = path_max_h(hall, hall[x].h);
                let m = hall[w].bounds;
                let v = self.views[k];
                if ctx.set_min(v, m)? {
                    changed = true;
                    // Landing in a hole or fixing the view leaves work for another run.
                    fixpoint &= ctx.min(v) == m && !ctx.is_fixed(v);
                }
                path_set_h(hall, x, w, w);
            }
            if hall[z].d == hall[z].bounds - hall[y].bounds {
                let hy = hall[y].h;
                path_set_h(hall, hy, j - 1, y);
                hall[y].h = j - 1;
            }
        }

        // Upper bounds: the mirror image, views by decreasing minimum.
        for i in 0..=nb {
            hall[i].t = i + 1;
            hall[i].h = i + 1;
            hall[i].d = hall[i + 1].bounds - hall[i].bounds;
        }
        for &k in self.min_sorted.iter().rev() {
            let k = k as usize;
            let x = self.rank_max[k];
            let y = self.rank_min[k];
            let mut z = path_min_t(hall, x - 1);
            let j = hall[z].t;
            hall[z].d -= 1;
            if hall[z].d == 0 {
                hall[z].t = z - 1;
                z = path_min_t(hall, z - 1);
                hall[z].t = j;
            }
            path_set_t(hall, x - 1, z, z);
            if hall[z].d < hall[y].bounds - hall[z].bounds {
                return Err(Conflict);
            }
            if hall[x].h < x {
                let w = path_min_h(hall, hall[x].h);
                let m = hall[w].bounds - 1;
                let v = self.views[k];
                if ctx.set_max(v, m)? {
                    changed = true;
                    fixpoint &= ctx.max(v) == m && !ctx.is_fixed(v);
                }
                path_set_h(hall, x, w, w);
            }
            if hall[z].d == hall[y].bounds - hall[z].bounds {
                let hy = hall[y].h;
                path_set_h(hall, hy, j + 1, y);
                hall[y].h = j + 1;
            }
        }
        Ok((fixpoint, changed))
    }
}

/// Moves the fixed views of `views[..live]` behind the prefix, as the value pass does, without
/// its removals; returns the new length of the prefix.
fn retire_fixed(ctx: &Context<'_>, views: &mut [IntView], mut live: usize) -> usize {
    let mut i = 0;
    while i < live {
        if ctx.is_fixed(views[i]) {
            live -= 1;
            views.swap(i, live);
        } else {
            i += 1;
        }
    }
    live
}

/// Sorts view indices by `key`. The order is kept from the last run and few bounds move
/// between runs, so insertion sort does close to one comparison per index; a general sort
/// would start from scratch each time.
fn sort_nearly_sorted(order: &mut [u32], key: &[i64]) {
    for i in 1..order.len() {
        let item = order[i];
        let k = key[item as usize];
        let mut j = i;
        while j > 0 && key[order[j - 1] as usize] > k {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = item;
    }
}

#[inline]
fn path_max_t(hall: &[Hall], mut i: usize) -> usize {
    while hall[i].t > i {
        i = hall[i].t;
    }
    i
}

#[inline]
fn path_min_t(hall: &[Hall], mut i: usize) -> usize {
    while hall[i].t < i {
        i = hall[i].t;
    }
    i
}

#[inline]
fn path_max_h(hall: &[Hall], mut i: usize) -> usize {
    while hall[i].h > i {
        i = hall[i].h;
    }
    i
}

#[inline]
fn path_min_h(hall: &[Hall], mut i: usize) -> usize {
    while hall[i].h < i {
        i = hall[i].h;
    }
    i
}

/// Path compression: points every `t` link from `start` up to `end` at `to`.
#[inline]
fn path_set_t(hall: &mut [Hall], start: usize, end: usize, to: usize) {
    let mut l = start;
    while l != end {
        let k = l;
        l = hall[k].t;
        hall[k].t = to;
    }
}

/// Path compression of the `h` links.
#[inline]
fn path_set_h(hall: &mut [Hall], start: usize, end: usize, to: usize) {
    let mut l = start;
    while l != end {
        let k = l;
        l = hall[k].h;
        hall[k].h = to;
    }
}

impl Propagator for AllDifferentBounds {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &v in &self.views {
            s.subscribe(v, Event::Bounds);
        }
        self.live = Some(s.trailed_int(self.views.len() as i64));
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let Some(live_slot) = self.live else {
            return Ok(PropStatus::Fixpoint);
        };
        let live = ctx.int(live_slot) as usize;
        let live = if self.partnered {
            retire_fixed(ctx, &mut self.live_views, live)
        } else {
            value_pass(ctx, &mut self.live_views, live, |_, _| {})?.0
        };
        ctx.set_int(live_slot, live as i64);
        // Every fixed view's value has left the others: nothing can clash any more.
        if live <= 1 {
            return Ok(PropStatus::Subsumed);
        }
        let (fixpoint, changed) = self.hall_pass(ctx)?;
        Ok(if !fixpoint || (changed && self.aliased) {
            PropStatus::NoFixpoint
        } else {
            PropStatus::Fixpoint
        })
    }

    fn priority(&self) -> Priority {
        // n log n for the sorts, near-linear for the sweeps.
        Priority::Quadratic
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        super::pairwise_different(&self.views, a)
    }

    fn name(&self) -> &'static str {
        "all_different(bounds)"
    }

    fn shape(&self) -> Option<crate::learn::Shape<'_>> {
        Some(crate::learn::Shape::AllDifferent { views: &self.views })
    }
}
