//! Boxes that may not overlap (`diffn`): box `i` has an origin `o[i][d]` and a size
//! `s[i][d]` in each of `k` dimensions, and two boxes are apart when one of them ends at or
//! before the other begins in some dimension (`o[i][d] + s[i][d] <= o[j][d]` or the other way
//! round). That is MiniZinc's definition, read literally: a box of zero size in a dimension
//! is a slice there, which still may not lie strictly inside another box (`diffn`); with
//! `diffn_nonstrict` a box with a zero size anywhere is apart from every box.
//!
//! The reasoning is pairwise, as in Gecode's `NoOverlap`. A dimension *can separate* two
//! boxes when one of them can still end at or before the other's latest origin. A pair no
//! dimension can separate fails; a pair that only one dimension can separate must be
//! separated there: if only one order is left, the two boxes get the bounds of that
//! precedence, and otherwise each origin loses the values where the box would cover the
//! other's compulsory part (from its latest origin to its earliest end), which can cut holes
//! in its domain. A pair that one dimension separates whatever happens is dropped from a
//! trailed list. Sizes count with their least values, which is sound for variable sizes and
//! exact once they are fixed; a pair runs each pass in `O(k)`, a pass over the pairs in
//! `O(n² k)`, and a run repeats passes until nothing moves.
//!
//! Pairs cannot see that three boxes are too many for two rows. So along each dimension
//! `d` the boxes are also tasks on a cumulative resource, as Gecode's FlatZinc front end
//! posts beside its `nooverlap` ([`DiffnStacks`]): the boxes that cover one coordinate
//! along `d` are apart in the other dimensions, so their cross-sections (the products of
//! their other sizes) fit side by side into the cross-section of the bounding box of all
//! the boxes (the product of its other extents, from the least origin to the furthest
//! end). That is the capacity; each box is a task as long as its size along `d`, as high
//! as its cross-section, and the rules of [`Cumulative`](super::Cumulative) (time-tabling)
//! and [`CumulativeEnergy`](super::CumulativeEnergy) (energetic reasoning) apply. The
//! bounding box shrinks with the domains, so the capacity is read anew at every run. A box
//! counts only where all its least sizes are positive (a box that may be empty stacks on
//! nothing: it has no cross-section, or no length), and a run does nothing while the
//! heights together fit into the capacity.

use super::cumulative::{Bounds, Passes, Profile, Rule, Windows};
use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::queue::Priority;
use crate::store::{Conflict, TrailedInt};
use crate::var::IntView;

/// A box's size in one dimension: a constant, or a view read through its bounds.
#[derive(Debug, Clone, Copy)]
enum Size {
    Fixed(i64),
    View(IntView),
}

/// One box in one dimension, as the pair rules see it: its origin in `[lo, hi]`, its size in
/// `[least, most]`.
#[derive(Debug, Clone, Copy)]
struct Side {
    lo: i64,
    hi: i64,
    least: i64,
    most: i64,
}

impl Side {
    /// An origin and a size, through their bounds.
    fn read(ctx: &Context<'_>, origin: IntView, size: Size) -> Side {
        let (least, most) = match size {
            Size::Fixed(v) => (v, v),
            Size::View(s) => (ctx.min(s), ctx.max(s)),
        };
        Side {
            lo: ctx.min(origin),
            hi: ctx.max(origin),
            least,
            most,
        }
    }
    /// Whether this box can still end at or before `other` begins.
    fn can_precede(self, other: Side) -> bool {
        self.lo + self.least <= other.hi
    }
    /// Whether this box ends at or before `other` begins whatever happens.
    fn surely_precedes(self, other: Side) -> bool {
        self.hi + self.most <= other.lo
    }
}

/// What one pair's check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PairState {
    /// Apart whatever happens: the pair can be dropped.
    Apart,
    /// Still open; whether a domain changed.
    Open(bool),
}

/// Non-overlapping boxes in `k` dimensions, pair by pair as in Gecode's `NoOverlap`: a pair
/// that no dimension can set apart fails; a pair that only one dimension can is set apart
/// there, by the bounds of a precedence when one order is left, and otherwise by removing
/// from each origin the values where its box would cover the other's compulsory part; a pair
/// that is apart for good is dropped (until backtracking). Sizes count with their least
/// values. `O(n² k)` per pass; a run repeats passes until nothing moves. Post it through
/// [`Model::diffn`](crate::Model::diffn) and its kin, which check the arguments.
#[derive(Debug, Clone)]
pub struct Diffn {
    /// The origins, box by box: box `i`'s origin in dimension `d` is `origins[i * dims + d]`.
    origins: Vec<IntView>,
    /// The sizes, laid out as the origins.
    sizes: Vec<Size>,
    boxes: usize,
    dims: usize,
    /// Whether a box with a zero size still counts (`diffn`) or is apart from every box
    /// (`diffn_nonstrict`).
    strict: bool,
    /// The pairs of boxes, the first `live` of them still open (a sparse set: dropping a
    /// pair swaps it past the end, which backtracking moves back).
    pairs: Vec<(u32, u32)>,
    live: Option<TrailedInt>,
}

impl Diffn {
    fn with(origins: Vec<Vec<IntView>>, sizes: Vec<Size>, strict: bool) -> Diffn {
        let n = origins.len();
        let dims = origins.first().map_or(0, Vec::len);
        let pairs = (0..n as u32)
            .flat_map(|i| (i + 1..n as u32).map(move |j| (i, j)))
            .collect();
        Diffn {
            origins: origins.into_iter().flatten().collect(),
            sizes,
            boxes: n,
            dims,
            strict,
            pairs,
            live: None,
        }
    }

    /// Boxes with origins `origins[i]` (one view per dimension, the same number for every
    /// box) and constant sizes `sizes[i]` (shaped as the origins); `strict` for `diffn`,
    /// not for `diffn_nonstrict`. [`Model::diffn_k`](crate::Model::diffn_k) checks the shapes.
    pub fn new(origins: Vec<Vec<IntView>>, sizes: Vec<Vec<i64>>, strict: bool) -> Diffn {
        let sizes = sizes.into_iter().flatten().map(Size::Fixed).collect();
        Diffn::with(origins, sizes, strict)
    }

    /// As [`new`](Self::new), with sizes that are views.
    pub fn flexible(origins: Vec<Vec<IntView>>, sizes: Vec<Vec<IntView>>, strict: bool) -> Diffn {
        let sizes = sizes.into_iter().flatten().map(Size::View).collect();
        Diffn::with(origins, sizes, strict)
    }

    /// The number of boxes.
    pub fn boxes(&self) -> usize {
        self.boxes
    }

    /// The number of dimensions.
    pub fn dims(&self) -> usize {
        self.dims
    }

    fn side(&self, ctx: &Context<'_>, at: usize) -> Side {
        Side::read(ctx, self.origins[at], self.sizes[at])
    }

    /// For `diffn_nonstrict`: whether some size of box `i` is surely zero (`Some(true)`: the
    /// box is apart from every other) or may be (`Some(false)`: nothing is known yet).
    fn zero_size(&self, ctx: &Context<'_>, i: usize) -> Option<bool> {
        let mut maybe = false;
        for size in &self.sizes[i * self.dims..(i + 1) * self.dims] {
            match *size {
                Size::Fixed(0) => return Some(true),
                Size::Fixed(_) => {}
                Size::View(s) if ctx.is_fixed(s) && ctx.min(s) == 0 => return Some(true),
                Size::View(s) => maybe |= ctx.contains(s, 0),
            }
        }
        maybe.then_some(false)
    }

    /// The pair rules on boxes `i` and `j`.
    fn check_pair(&self, ctx: &mut Context<'_>, i: usize, j: usize) -> Result<PairState, Conflict> {
        if !self.strict {
            match (self.zero_size(ctx, i), self.zero_size(ctx, j)) {
                (Some(true), _) | (_, Some(true)) => return Ok(PairState::Apart),
                (Some(false), _) | (_, Some(false)) => return Ok(PairState::Open(false)),
                _ => {}
            }
        }
        let mut separating = 0;
        let mut lone = 0;
        for d in 0..self.dims {
            let (a, b) = (
                self.side(ctx, i * self.dims + d),
                self.side(ctx, j * self.dims + d),
            );
            if a.surely_precedes(b) || b.surely_precedes(a) {
                return Ok(PairState::Apart);
            }
            if a.can_precede(b) || b.can_precede(a) {
                separating += 1;
                lone = d;
            }
        }
        match separating {
            0 => Err(Conflict),
            1 => self.separate(ctx, i * self.dims + lone, j * self.dims + lone),
            _ => Ok(PairState::Open(false)),
        }
    }

    /// Separates two boxes in the one dimension that can (`a` and `b` index their origins
    /// and sizes there).
    fn separate(&self, ctx: &mut Context<'_>, a: usize, b: usize) -> Result<PairState, Conflict> {
        let (sa, sb) = (self.side(ctx, a), self.side(ctx, b));
        let changed = match (sa.can_precede(sb), sb.can_precede(sa)) {
            (true, false) => self.precede(ctx, a, b)?,
            (false, true) => self.precede(ctx, b, a)?,
            _ => {
                // Either order: an origin may not take a value where its box, however small,
                // would cover the other's compulsory part [hi, lo + least).
                let (xa, xb) = (self.origins[a], self.origins[b]);
                let mut changed =
                    remove_interval(ctx, xa, sb.hi - sa.least + 1, sb.lo + sb.least - 1)?;
                let sa = self.side(ctx, a);
                changed |= remove_interval(ctx, xb, sa.hi - sb.least + 1, sa.lo + sa.least - 1)?;
                changed
            }
        };
        Ok(PairState::Open(changed))
    }

    /// Makes the box at `a` end at or before the one at `b` begins (in their dimension).
    fn precede(&self, ctx: &mut Context<'_>, a: usize, b: usize) -> Result<bool, Conflict> {
        let (sa, sb) = (self.side(ctx, a), self.side(ctx, b));
        let mut changed = ctx.set_min(self.origins[b], sa.lo + sa.least)?;
        changed |= ctx.set_max(self.origins[a], sb.hi - sa.least)?;
        if let Size::View(s) = self.sizes[a] {
            changed |= ctx.set_max(s, sb.hi - sa.lo)?;
        }
        Ok(changed)
    }

    fn all_fixed(&self, ctx: &Context<'_>) -> bool {
        self.origins.iter().all(|&x| ctx.is_fixed(x))
            && self.sizes.iter().all(|s| match *s {
                Size::Fixed(_) => true,
                Size::View(v) => ctx.is_fixed(v),
            })
    }
}

/// Removes the values `lo..=hi` from `x`, by moving a bound where the interval covers one.
fn remove_interval(ctx: &mut Context<'_>, x: IntView, lo: i64, hi: i64) -> Result<bool, Conflict> {
    let (min, max) = (ctx.min(x), ctx.max(x));
    let (lo, hi) = (lo.max(min), hi.min(max));
    if lo > hi {
        Ok(false)
    } else if lo == min {
        ctx.set_min(x, hi + 1)
    } else if hi == max {
        ctx.set_max(x, lo - 1)
    } else {
        let mut changed = false;
        for v in lo..=hi {
            changed |= ctx.remove(x, v)?;
        }
        Ok(changed)
    }
}

impl Propagator for Diffn {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &x in &self.origins {
            s.subscribe(x, Event::Bounds);
        }
        for size in &self.sizes {
            if let Size::View(v) = *size {
                // `diffn_nonstrict` watches whether a size can still be 0.
                s.subscribe(
                    v,
                    if self.strict {
                        Event::Bounds
                    } else {
                        Event::Domain
                    },
                );
            }
        }
        self.live = Some(s.trailed_int(self.pairs.len() as i64));
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let slot = self.live.expect("set up");
        let mut live = ctx.int(slot) as usize;
        loop {
            let mut changed = false;
            let mut p = 0;
            while p < live {
                let (i, j) = self.pairs[p];
                match self.check_pair(ctx, i as usize, j as usize)? {
                    PairState::Apart => {
                        live -= 1;
                        self.pairs.swap(p, live);
                    }
                    PairState::Open(moved) => {
                        changed |= moved;
                        p += 1;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        ctx.set_int(slot, live as i64);
        Ok(PropStatus::subsumed_if(live == 0 || self.all_fixed(ctx)))
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        let (n, k) = (self.boxes, self.dims);
        let size = |at: usize| match self.sizes[at] {
            Size::Fixed(v) => v,
            Size::View(s) => a.value(s),
        };
        let free = |i: usize| !self.strict && (0..k).any(|d| size(i * k + d) == 0);
        let apart = |i: usize, j: usize| {
            free(i)
                || free(j)
                || (0..k).any(|d| {
                    let (p, q) = (i * k + d, j * k + d);
                    let (op, oq) = (a.value(self.origins[p]), a.value(self.origins[q]));
                    op + size(p) <= oq || oq + size(q) <= op
                })
        };
        (0..n).all(|i| (i + 1..n).all(|j| apart(i, j)))
    }

    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    fn name(&self) -> &'static str {
        "diffn"
    }
}

/// Boxes along one dimension as tasks on a cumulative resource, beside [`Diffn`]: each box
/// runs for its size along the dimension with its cross-section (the product of its other
/// sizes) as height, and the capacity is the cross-section of the bounding box of all the
/// boxes, read at every run. That holds because the boxes that cover one coordinate along
/// the dimension must be apart in another, so their cross-sections lie side by side within
/// the bounding box's; it shrinks with the domains. The rule is
/// time-tabling ([`DiffnTimeTable`]) or energetic reasoning ([`DiffnEnergy`]), as for
/// [`Cumulative`](super::Cumulative) and [`CumulativeEnergy`](super::CumulativeEnergy).
/// Sizes count with their least values; a box with a least size of 0 or less takes no
/// room. Posted by [`Model::diffn_k`](crate::Model::diffn_k) and its kin, one per dimension.
#[derive(Debug, Clone)]
pub struct DiffnStacks<R> {
    /// The origins, laid out as in [`Diffn`].
    origins: Vec<IntView>,
    sizes: Vec<Size>,
    boxes: usize,
    dims: usize,
    /// The dimension along which the boxes are tasks.
    along: usize,
    /// Scratch: the tasks that take room, and their origins along the dimension.
    tasks: Vec<Bounds>,
    starts: Vec<IntView>,
    passes: Passes<R>,
}

/// [`DiffnStacks`] with time-tabling over compulsory parts: `O(n²)` per pass.
pub type DiffnTimeTable = DiffnStacks<Profile>;

/// [`DiffnStacks`] with energetic reasoning over task intervals: `O(n³)` per pass.
pub type DiffnEnergy = DiffnStacks<Windows>;

impl<R: Default> DiffnStacks<R> {
    /// The boxes of `diffn` as tasks along dimension `along`.
    pub fn of(diffn: &Diffn, along: usize) -> DiffnStacks<R> {
        DiffnStacks {
            origins: diffn.origins.clone(),
            sizes: diffn.sizes.clone(),
            boxes: diffn.boxes,
            dims: diffn.dims,
            along,
            tasks: Vec::new(),
            starts: Vec::new(),
            passes: Passes::default(),
        }
    }
}

impl<R> DiffnStacks<R> {
    /// Box `i`'s origin and size in dimension `d`, through the bounds.
    fn side(&self, ctx: &Context<'_>, i: usize, d: usize) -> Side {
        let at = i * self.dims + d;
        Side::read(ctx, self.origins[at], self.sizes[at])
    }

    /// The capacity: the product over the other dimensions of the bounding box's extent
    /// there, from the least origin to the furthest end; `None` beyond `i64`.
    fn capacity(&self, ctx: &Context<'_>) -> Option<i64> {
        (0..self.dims)
            .filter(|&e| e != self.along)
            .try_fold(1i64, |cap, e| {
                let (mut low, mut high) = (i64::MAX, i64::MIN);
                for i in 0..self.boxes {
                    let s = self.side(ctx, i, e);
                    low = low.min(s.lo);
                    high = high.max(s.hi + s.most.max(0));
                }
                cap.checked_mul(high - low)
            })
    }

    /// Fills `tasks` and `starts` with the boxes that take room; returns their total height.
    fn read(&mut self, ctx: &Context<'_>) -> i64 {
        self.tasks.clear();
        self.starts.clear();
        let mut total = 0i64;
        for i in 0..self.boxes {
            let along = self.side(ctx, i, self.along);
            let height = (0..self.dims)
                .filter(|&e| e != self.along)
                .fold(1i64, |h, e| {
                    h.saturating_mul(self.side(ctx, i, e).least.max(0))
                });
            if along.least <= 0 || height == 0 {
                continue;
            }
            total = total.saturating_add(height);
            self.tasks.push(Bounds {
                est: along.lo,
                lst: along.hi,
                d: along.least,
                r: height,
            });
            self.starts.push(self.origins[i * self.dims + self.along]);
        }
        total
    }
}

impl<R: Rule> Propagator for DiffnStacks<R> {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &x in &self.origins {
            s.subscribe(x, Event::Bounds);
        }
        for size in &self.sizes {
            if let Size::View(v) = *size {
                s.subscribe(v, Event::Bounds);
            }
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        loop {
            let Some(cap) = self.capacity(ctx) else {
                return Ok(PropStatus::Fixpoint);
            };
            if self.read(ctx) <= cap {
                // Nothing can overload; the capacity only shrinks, so later runs may.
                return Ok(PropStatus::Fixpoint);
            }
            if self.passes.run(&self.tasks, cap)? > cap {
                return Err(Conflict); // both rules fail first; kept in case one does not
            }
            if !self.passes.narrow(ctx, &self.starts, &self.tasks)? {
                return Ok(PropStatus::Fixpoint);
            }
        }
    }

    /// The implied resource on the values: at the origin of every box that takes room,
    /// the cross-sections of the boxes that cover it along the dimension fit into the
    /// bounding box's.
    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        let (n, k, d) = (self.boxes, self.dims, self.along);
        let size = |i: usize, e: usize| match self.sizes[i * k + e] {
            Size::Fixed(v) => v,
            Size::View(s) => a.value(s),
        };
        let origin = |i: usize, e: usize| a.value(self.origins[i * k + e]);
        let mut cap = 1i64;
        for e in (0..k).filter(|&e| e != d) {
            let low = (0..n).map(|i| origin(i, e)).min().unwrap_or(0);
            let high = (0..n)
                .map(|i| origin(i, e) + size(i, e).max(0))
                .max()
                .unwrap_or(0);
            match cap.checked_mul(high - low) {
                Some(c) => cap = c,
                None => return true, // the rule does not run
            }
        }
        let room: Vec<usize> = (0..n).filter(|&i| (0..k).all(|e| size(i, e) > 0)).collect();
        let height = |i: usize| {
            (0..k)
                .filter(|&e| e != d)
                .fold(1i64, |h, e| h.saturating_mul(size(i, e)))
        };
        room.iter().all(|&i| {
            let at = origin(i, d);
            let load = room
                .iter()
                .filter(|&&j| origin(j, d) <= at && at < origin(j, d) + size(j, d))
                .fold(0i64, |l, &j| l.saturating_add(height(j)));
            load <= cap
        })
    }

    fn priority(&self) -> Priority {
        R::PRIORITY
    }

    fn name(&self) -> &'static str {
        "diffn_stacks"
    }
}
