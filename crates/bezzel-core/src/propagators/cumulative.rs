//! A cumulative resource: tasks with start times, durations and heights (resource use) whose
//! total height at any time stays within a capacity (`cumulative`).
//!
//! Two propagators share the work, as in most solvers: a cheap one and a stronger one that
//! runs after it.
//!
//! - [`Cumulative`], time-tabling: a task whose latest start comes before its earliest
//!   completion surely runs over that *compulsory part*; the compulsory parts of all tasks
//!   stack up into a profile. The profile may not rise above the capacity (whose least value
//!   rises to the profile's peak), and a task may not start where its own height on top of the
//!   profile (without its own compulsory part) would exceed the capacity: its earliest start
//!   moves past every such stretch it would overlap, and likewise its latest start, in
//!   `O(n²)` per pass.
//! - [`CumulativeEnergy`], energetic reasoning over task intervals: for every window `[a, b)`
//!   from an earliest start `a` to a latest completion `b`, every task must spend in it at
//!   least its *minimum intersection* (the least overlap over its possible starts, times its
//!   height). Their sum may not exceed the capacity times `b - a` (the capacity's least value
//!   rises to the sum divided by `b - a`), and a task whose overlap when started at its
//!   earliest start would not fit next to the others' must start late enough to leave the
//!   window its room: `O(n³)` per pass, so it is posted for up to
//!   [`ENERGETIC_MAX_TASKS`] tasks.
//!
//! Durations and heights may be variables: the reasoning uses their least values, which is
//! sound, and exact once they are fixed. Tasks of zero duration or zero height take no
//! resource. Each propagator repeats its passes until no bound moves, so that its rule holds
//! on the bounds it leaves.

use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::queue::Priority;
use crate::store::Conflict;
use crate::var::IntView;

/// The most tasks for which [`Model::cumulative`](crate::Model::cumulative) posts
/// [`CumulativeEnergy`], whose runs cost `O(n³)`; larger resources get time-tabling alone.
pub const ENERGETIC_MAX_TASKS: usize = 64;

/// A duration or a height: a constant, or a view whose least value is used (the type is
/// learning's, so that the propagator's [`Shape`](crate::learn::Shape) is its own data).
use crate::learn::Amount;

impl Amount {
    fn min(self, ctx: &Context<'_>) -> i64 {
        match self {
            Amount::Fixed(v) => v,
            Amount::View(x) => ctx.min(x),
        }
    }
    fn value(self, a: &Assignment<'_>) -> i64 {
        match self {
            Amount::Fixed(v) => v,
            Amount::View(x) => a.value(x),
        }
    }
}

/// A task in one direction of time, as the reasoning sees it: its start lies in
/// `[est, lst]`, and it runs at least `d` with at least height `r`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bounds {
    pub(super) est: i64,
    pub(super) lst: i64,
    pub(super) d: i64,
    pub(super) r: i64,
}

impl Bounds {
    fn ect(self) -> i64 {
        self.est + self.d
    }
    fn lct(self) -> i64 {
        self.lst + self.d
    }
    /// Whether the task uses the resource at all.
    fn busy(self) -> bool {
        self.d > 0 && self.r > 0
    }
    /// The same task with time reversed: it runs over `[-(s + d), -s)`.
    fn mirrored(self) -> Bounds {
        Bounds {
            est: -(self.lst + self.d),
            lst: -(self.est + self.d),
            d: self.d,
            r: self.r,
        }
    }
}

/// The tasks and the capacity, shared by both propagators.
#[derive(Debug, Clone)]
struct Tasks {
    starts: Vec<IntView>,
    durations: Vec<Amount>,
    heights: Vec<Amount>,
    capacity: IntView,
}

impl Tasks {
    fn subscribe(&self, s: &mut Setup<'_>) {
        for &x in &self.starts {
            s.subscribe(x, Event::Bounds);
        }
        for a in self.durations.iter().chain(&self.heights) {
            if let Amount::View(x) = *a {
                s.subscribe(x, Event::Bounds);
            }
        }
        s.subscribe(self.capacity, Event::Bounds);
    }

    fn read(&self, ctx: &Context<'_>, out: &mut Vec<Bounds>) {
        out.clear();
        for i in 0..self.starts.len() {
            out.push(Bounds {
                est: ctx.min(self.starts[i]),
                lst: ctx.max(self.starts[i]),
                d: self.durations[i].min(ctx).max(0),
                r: self.heights[i].min(ctx).max(0),
            });
        }
    }

    fn all_fixed(&self, ctx: &Context<'_>) -> bool {
        let amount_fixed = |a: &Amount| match *a {
            Amount::Fixed(_) => true,
            Amount::View(x) => ctx.is_fixed(x),
        };
        self.starts.iter().all(|&x| ctx.is_fixed(x))
            && self.durations.iter().all(amount_fixed)
            && self.heights.iter().all(amount_fixed)
            && ctx.is_fixed(self.capacity)
    }

    /// The definition: durations and heights are not negative, the capacity is not negative
    /// when there is a task, and at the start of every task the heights of the tasks running
    /// (started, not yet ended) sum to at most the capacity. The peak of the profile is at
    /// some task's start, so looking there is enough.
    fn holds(&self, a: &Assignment<'_>) -> bool {
        let tasks: Vec<(i64, i64, i64)> = (0..self.starts.len())
            .map(|i| {
                (
                    a.value(self.starts[i]),
                    self.durations[i].value(a),
                    self.heights[i].value(a),
                )
            })
            .collect();
        let b = a.value(self.capacity);
        if tasks.iter().any(|&(_, d, r)| d < 0 || r < 0) || (!tasks.is_empty() && b < 0) {
            return false;
        }
        tasks.iter().all(|&(t, _, _)| {
            let load: i64 = tasks
                .iter()
                .filter(|&&(s, d, _)| s <= t && t < s + d)
                .map(|&(_, _, r)| r)
                .sum();
            load <= b
        })
    }

    fn new(
        starts: Vec<IntView>,
        durations: Vec<Amount>,
        heights: Vec<Amount>,
        capacity: IntView,
    ) -> Tasks {
        Tasks {
            starts,
            durations,
            heights,
            capacity,
        }
    }
}

/// A rule for tasks on a cumulative resource, as one pass forward in time; the same pass
/// over the tasks mirrored (time reversed) moves the latest starts.
pub(super) trait Rule: Default + Clone + std::fmt::Debug + Send {
    /// The propagator's name.
    const NAME: &'static str;
    /// How much one run costs.
    const PRIORITY: Priority;
    /// Whether time-table explanations account for what the rule prunes (a search that
    /// learns explains the rest by the decisions: trying time-tabling on them is wasted).
    const TIME_TABLED: bool = false;

    /// Sets each task's earliest start in `est` as the rule allows under the capacity's
    /// greatest value `cap`, and returns the least capacity the tasks need, or fails.
    fn pass(&mut self, tasks: &[Bounds], cap: i64, est: &mut [i64]) -> Result<i64, Conflict>;
}

/// A propagator for tasks on a cumulative resource that applies one rule, forward and
/// backward in time, until no bound moves: [`Cumulative`] (time-tabling) or
/// [`CumulativeEnergy`] (energetic reasoning).
#[derive(Debug, Clone)]
pub struct CumulativeRule<R> {
    tasks: Tasks,
    now: Vec<Bounds>,
    passes: Passes<R>,
}

/// One rule applied forward and backward in time to tasks given by their bounds, with its
/// scratch: the new earliest and latest starts land in `est` and `lst`. Besides
/// [`CumulativeRule`], [`DiffnStacks`](super::DiffnStacks) runs it on the resource that
/// boxes make along one dimension.
#[derive(Debug, Clone, Default)]
pub(super) struct Passes<R> {
    rule: R,
    mirror: Vec<Bounds>,
    est: Vec<i64>,
    lst: Vec<i64>,
}

impl<R: Rule> Passes<R> {
    /// Applies the rule to `tasks` under the capacity's greatest value `cap`, forward and
    /// backward in time: fills `est` and `lst`, and returns the least capacity the tasks
    /// need, or fails.
    pub(super) fn run(&mut self, tasks: &[Bounds], cap: i64) -> Result<i64, Conflict> {
        let n = tasks.len();
        self.est.resize(n, 0);
        self.lst.resize(n, 0);
        let need = self.rule.pass(tasks, cap, &mut self.est)?;
        self.mirror.clear();
        self.mirror.extend(tasks.iter().map(|t| t.mirrored()));
        // The mirrored tasks need the same capacity: their windows are the same, reversed.
        self.rule.pass(&self.mirror, cap, &mut self.lst)?;
        for (lst, t) in self.lst.iter_mut().zip(&self.mirror) {
            *lst = -*lst - t.d;
        }
        Ok(need)
    }

    /// Moves the bounds of `starts` (read as `now`) to the earliest and latest starts of
    /// the last [`run`](Self::run); whether one moved.
    pub(super) fn narrow(
        &self,
        ctx: &mut Context<'_>,
        starts: &[IntView],
        now: &[Bounds],
    ) -> Result<bool, Conflict> {
        let mut changed = false;
        for (i, &x) in starts.iter().enumerate() {
            if self.est[i] > now[i].est {
                changed |= ctx.set_min(x, self.est[i])?;
            }
            if self.lst[i] < now[i].lst {
                changed |= ctx.set_max(x, self.lst[i])?;
            }
        }
        Ok(changed)
    }
}

impl<R: Default> CumulativeRule<R> {
    fn with(tasks: Tasks) -> CumulativeRule<R> {
        CumulativeRule {
            tasks,
            now: Vec::new(),
            passes: Passes::default(),
        }
    }

    /// Tasks `starts[i]` of constant `durations[i]` and `heights[i]` (at least 0) within
    /// `capacity`. [`Model::cumulative`](crate::Model::cumulative) checks the arguments.
    pub fn new(
        starts: Vec<IntView>,
        durations: Vec<i64>,
        heights: Vec<i64>,
        capacity: IntView,
    ) -> CumulativeRule<R> {
        let d = durations.into_iter().map(Amount::Fixed).collect();
        let r = heights.into_iter().map(Amount::Fixed).collect();
        CumulativeRule::with(Tasks::new(starts, d, r, capacity))
    }

    /// As [`new`](Self::new), with durations and heights that are views (which must not go
    /// negative: [`Model::cumulative_vars`](crate::Model::cumulative_vars) constrains them
    /// so).
    pub fn flexible(
        starts: Vec<IntView>,
        durations: Vec<IntView>,
        heights: Vec<IntView>,
        capacity: IntView,
    ) -> CumulativeRule<R> {
        let d = durations.into_iter().map(Amount::View).collect();
        let r = heights.into_iter().map(Amount::View).collect();
        CumulativeRule::with(Tasks::new(starts, d, r, capacity))
    }
}

impl<R: Rule> Propagator for CumulativeRule<R> {
    fn setup(&mut self, s: &mut Setup<'_>) {
        self.tasks.subscribe(s);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let n = self.tasks.starts.len();
        if n == 0 {
            return Ok(PropStatus::Subsumed);
        }
        loop {
            self.tasks.read(ctx, &mut self.now);
            let cap = ctx.max(self.tasks.capacity);
            let need = self.passes.run(&self.now, cap)?;
            let mut changed = ctx.set_min(self.tasks.capacity, need)?;
            changed |= self.passes.narrow(ctx, &self.tasks.starts, &self.now)?;
            if !changed {
                return Ok(PropStatus::subsumed_if(self.tasks.all_fixed(ctx)));
            }
        }
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        self.tasks.holds(a)
    }

    fn priority(&self) -> Priority {
        R::PRIORITY
    }

    fn name(&self) -> &'static str {
        R::NAME
    }

    fn shape(&self) -> Option<crate::learn::Shape<'_>> {
        R::TIME_TABLED.then_some(crate::learn::Shape::Cumulative {
            starts: &self.tasks.starts,
            durations: &self.tasks.durations,
            heights: &self.tasks.heights,
            capacity: self.tasks.capacity,
        })
    }
}

/// One stretch of the profile of compulsory parts: `height` over `[start, end)`.
#[derive(Debug, Clone, Copy)]
struct Segment {
    start: i64,
    end: i64,
    height: i64,
}

/// Time-tabling, with its scratch: the rule of [`Cumulative`].
#[derive(Debug, Clone, Default)]
pub struct Profile {
    events: Vec<(i64, i64)>,
    segments: Vec<Segment>,
}

impl Profile {
    /// Builds the profile of the compulsory parts `[lst, ect)` of `tasks`; returns its peak.
    fn build(&mut self, tasks: &[Bounds]) -> i64 {
        self.events.clear();
        for t in tasks.iter().filter(|t| t.busy() && t.lst < t.ect()) {
            self.events.push((t.lst, t.r));
            self.events.push((t.ect(), -t.r));
        }
        self.events.sort_unstable();
        self.segments.clear();
        let (mut height, mut peak) = (0i64, 0i64);
        let mut k = 0;
        while k < self.events.len() {
            let time = self.events[k].0;
            while k < self.events.len() && self.events[k].0 == time {
                height += self.events[k].1;
                k += 1;
            }
            if height > 0 {
                let end = self.events[k].0; // a positive height is closed by a later event
                self.segments.push(Segment {
                    start: time,
                    end,
                    height,
                });
                peak = peak.max(height);
            }
        }
        peak
    }

    /// The earliest start of each task (into `est`) past every stretch of the profile that
    /// its height, on top of the others' compulsory parts, would push above `cap`.
    fn push_starts(&self, tasks: &[Bounds], cap: i64, est: &mut [i64]) {
        for (i, t) in tasks.iter().enumerate() {
            est[i] = t.est;
            if !t.busy() || t.est == t.lst {
                continue;
            }
            let mut start = t.est;
            for seg in &self.segments {
                if seg.end <= start {
                    continue;
                }
                if seg.start >= start + t.d {
                    break;
                }
                // Segments never straddle the ends of a compulsory part: both are events.
                let own = if t.lst < t.ect() && t.lst <= seg.start && seg.end <= t.ect() {
                    t.r
                } else {
                    0
                };
                if seg.height - own + t.r > cap {
                    start = seg.end;
                }
            }
            est[i] = start;
        }
    }
}

/// Time-tabling over compulsory parts, for tasks on a cumulative resource. A task whose
/// latest start comes before its earliest completion surely runs over that compulsory part;
/// the compulsory parts stack up into a profile, which may not rise above the capacity (whose
/// least value rises to the profile's peak). A task may not start where its height on top of
/// the profile of the others would exceed the capacity: its earliest start moves past every
/// such stretch that it would overlap, and its latest start likewise back. `O(n²)` per pass;
/// a run repeats passes until no bound moves. Durations and heights count with their least
/// values. Post it through [`Model::cumulative`](crate::Model::cumulative).
pub type Cumulative = CumulativeRule<Profile>;

impl Rule for Profile {
    const NAME: &'static str = "cumulative";
    const PRIORITY: Priority = Priority::Quadratic;
    const TIME_TABLED: bool = true;

    fn pass(&mut self, tasks: &[Bounds], cap: i64, est: &mut [i64]) -> Result<i64, Conflict> {
        let peak = self.build(tasks);
        // A task higher than the capacity fits nowhere (the profile does not see it unless
        // it has a compulsory part).
        if peak > cap || tasks.iter().any(|t| t.busy() && t.r > cap) {
            return Err(Conflict);
        }
        self.push_starts(tasks, cap, est);
        Ok(peak.max(0))
    }
}

/// The least overlap of task `t` with the window `[a, b)`, over all its starts.
fn min_overlap(t: Bounds, a: i64, b: i64) -> i64 {
    (b - a).min(t.d).min(t.ect() - a).min(b - t.lst).max(0)
}

/// The overlap of task `t` with the window `[a, b)` when it starts at its earliest start.
fn overlap_at_est(t: Bounds, a: i64, b: i64) -> i64 {
    (t.ect().min(b) - t.est.max(a)).max(0)
}

/// The integer type of energetic reasoning's products: `i64` where they provably fit, `i128`
/// otherwise (see [`energetic_pass`]).
trait Energy:
    Copy
    + Ord
    + From<i64>
    + TryInto<i64>
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
{
}

impl Energy for i64 {}
impl Energy for i128 {}

/// One pass of energetic reasoning over the windows from an earliest start to a latest
/// completion: raises `est` and returns the least capacity the windows need, or fails.
///
/// The products are exact in `i64` when `(n + 1) · M · W < 2^61`, with `n` the busy tasks,
/// `M` the greatest of their heights and `|cap|`, and `W` the widest window: every energy
/// `r · overlap` and `cap · width` is then at most `M · W`, a window's total at most
/// `n · M · W`, and each room, sum and rounding below stays within `(n + 1) · M · W + W`.
/// Bounds from the domains (`±2^30`) make that the usual case; views with large offsets or
/// scales take the `i128` path, which gives the same answers.
fn energetic_pass(
    tasks: &[Bounds],
    cap: i64,
    est: &mut [i64],
    scratch: &mut Windows,
) -> Result<i64, Conflict> {
    for (e, t) in est.iter_mut().zip(tasks) {
        *e = t.est;
    }
    scratch.busy.clear();
    scratch.busy.extend(
        tasks
            .iter()
            .enumerate()
            .filter(|(_, t)| t.busy())
            .map(|(i, t)| (i, *t)),
    );
    if scratch.busy.is_empty() {
        return Ok(0);
    }
    scratch.lefts.clear();
    scratch
        .lefts
        .extend(scratch.busy.iter().map(|(_, t)| t.est));
    scratch.lefts.sort_unstable();
    scratch.lefts.dedup();
    scratch.rights.clear();
    scratch
        .rights
        .extend(scratch.busy.iter().map(|(_, t)| t.lct()));
    scratch.rights.sort_unstable();
    scratch.rights.dedup();
    let widest =
        i128::from(scratch.rights[scratch.rights.len() - 1]) - i128::from(scratch.lefts[0]);
    let most = scratch
        .busy
        .iter()
        .map(|(_, t)| i128::from(t.r))
        .max()
        .unwrap_or(0);
    let most = most.max(i128::from(cap).abs()).max(1);
    let bound = (scratch.busy.len() as i128 + 1)
        .saturating_mul(most)
        .saturating_mul(widest.max(1));
    if bound < 1 << 61 {
        energetic_windows::<i64>(cap, est, scratch)
    } else {
        energetic_windows::<i128>(cap, est, scratch)
    }
}

/// The windows of [`energetic_pass`], over `scratch.busy`, in the integer type `T`.
fn energetic_windows<T: Energy>(
    cap: i64,
    est: &mut [i64],
    scratch: &mut Windows,
) -> Result<i64, Conflict> {
    let Windows {
        lefts,
        rights,
        busy,
        active,
        overlaps,
    } = scratch;
    let wide = T::from;
    let cap_t = wide(cap);
    let zero = wide(0);
    let one = wide(1);
    let mut need = zero;
    for &a in lefts.iter() {
        // A task that completes by `a` spends nothing in a window from `a` and, started at its
        // earliest start, does not overlap it either: it plays no part.
        active.clear();
        active.extend(busy.iter().filter(|(_, t)| t.ect() > a));
        let most_r = active.iter().map(|(_, t)| t.r).max().unwrap_or(0);
        let most_rd = active
            .iter()
            .map(|(_, t)| wide(t.r) * wide(t.d))
            .max()
            .unwrap_or(zero);
        for &b in rights.iter().filter(|&&b| b > a) {
            let width = wide(b - a);
            overlaps.clear();
            overlaps.extend(active.iter().map(|(_, t)| min_overlap(*t, a, b)));
            let energy = |t: &Bounds, overlap: i64| wide(t.r) * wide(overlap);
            let total = active
                .iter()
                .zip(overlaps.iter())
                .fold(zero, |s, ((_, t), &o)| s + energy(t, o));
            let slack = cap_t * width - total;
            if slack < zero {
                return Err(Conflict);
            }
            need = need.max((total + width - one) / width);
            // A task is pushed only if its overlap from its earliest start, at most
            // `r · min(d, b - a)`, exceeds its least energy by more than the slack.
            if slack >= most_rd.min(wide(most_r) * width) {
                continue;
            }
            for (&(i, t), &o) in active.iter().zip(overlaps.iter()) {
                let room = slack + energy(&t, o);
                let r = wide(t.r);
                if r * wide(overlap_at_est(t, a, b)) > room {
                    // Started at s >= a, the task overlaps the window by min(d, b - s), and
                    // d is over the room: it must start at b - room / r or later. The bound
                    // is below `b`; one below `i64` moves nothing.
                    let latest_fit = (wide(b) - room / r).try_into().unwrap_or(i64::MIN);
                    est[i] = est[i].max(latest_fit);
                }
            }
        }
    }
    Ok(need.try_into().unwrap_or(cap))
}

/// Energetic reasoning over task intervals, for tasks on a cumulative resource. In every
/// window `[a, b)` from an earliest start `a` to a latest completion `b`, each task spends at
/// least its height times its least overlap with the window over all its starts; the sum may
/// not exceed the capacity times `b - a` (the capacity's least value rises to the sum over
/// `b - a`), and a task whose overlap when started at its earliest start does not fit in the
/// room the others leave must start late enough to fit it (and the same backwards in time).
/// `O(n³)` per pass; a run repeats passes until no bound moves. Post it through
/// [`Model::cumulative`](crate::Model::cumulative), which adds it to [`Cumulative`] for up
/// to [`ENERGETIC_MAX_TASKS`] tasks.
pub type CumulativeEnergy = CumulativeRule<Windows>;

/// Energetic reasoning's scratch: the windows' left and right ends, the busy tasks (with
/// their indices), those that reach past a window's left end, and their least overlaps with it.
#[derive(Debug, Clone, Default)]
pub struct Windows {
    lefts: Vec<i64>,
    rights: Vec<i64>,
    busy: Vec<(usize, Bounds)>,
    active: Vec<(usize, Bounds)>,
    overlaps: Vec<i64>,
}

impl Rule for Windows {
    const NAME: &'static str = "cumulative energy";
    const PRIORITY: Priority = Priority::Expensive;

    fn pass(&mut self, tasks: &[Bounds], cap: i64, est: &mut [i64]) -> Result<i64, Conflict> {
        energetic_pass(tasks, cap, est, self)
    }
}
