//! Time-table explanations for tasks on a resource (cumulative, and a unary resource as
//! heights of 1 within a capacity of 1), as Schutt et al. (2011) and Pumpkin explain them.
//!
//! A task `j` whose latest start comes before its earliest completion surely runs over that
//! *compulsory part*: at a time `t` it runs for sure while `[s_j ≤ t]` and
//! `[s_j ≥ t + 1 - d_j]`. When the compulsory parts of other tasks at `t`, with task `i`'s
//! height, exceed the capacity, `i` cannot run at `t`. An earliest start moved over several
//! such points is explained as a chain: from the old bound `lo`, the latest overloaded point
//! `t` that a start at `lo` would cover rules out every start in `lo..=t`, the next chain link
//! starts at `t + 1`, and values already gone from the start's domain are stepped over with
//! their `[s ≠ v]` facts. Each point names only enough of its tasks to exceed the capacity,
//! highest first, and the capacity's bound only as low as that needs (the lifted, pointwise
//! explanation). Latest starts are the same backwards in time.
//!
//! Everything is recomputed from the domains as the log stands (no trust in the propagator's
//! own reasoning): what cannot be derived so falls back.

use super::log::Item;
use super::predicate::{Kind, Predicate};
use crate::var::IntView;

/// A duration or a height of a task in a [`Shape`](super::Shape): a constant, or a view
/// whose least value is what the reasoning uses.
#[derive(Debug, Clone, Copy)]
pub enum Amount {
    /// A constant.
    Fixed(i64),
    /// A view; its least value counts.
    View(IntView),
}

/// Domains as an explanation reads them: the log's state before a change (the overlay) or
/// the store at a failure.
pub(crate) trait Domains {
    /// A variable's bounds.
    fn bounds(&self, x: u32) -> (i64, i64);
    /// Whether a variable still has a value.
    fn member(&self, x: u32, v: i64) -> bool;

    /// A view's least and greatest values.
    fn view_bounds(&self, view: IntView) -> (i64, i64) {
        let (lo, hi) = self.bounds(view.var.index);
        let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        let (a, b) = (view.to_view(clamp(lo)), view.to_view(clamp(hi)));
        (a.min(b), a.max(b))
    }

    /// Whether a view still has a value.
    fn view_member(&self, view: IntView, w: i64) -> bool {
        self.member(view.var.index, view.to_var(w))
    }
}

/// The tasks and capacity of a resource, as shapes give them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Resource<'a> {
    pub(crate) starts: &'a [IntView],
    /// Durations: amounts, or constants (a unary resource).
    pub(crate) durations: Lengths<'a>,
    /// Heights; `None`: every height is 1.
    pub(crate) heights: Option<&'a [Amount]>,
    /// The capacity; `None`: the constant 1.
    pub(crate) capacity: Option<IntView>,
}

/// Durations as amounts or as constants.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Lengths<'a> {
    Amounts(&'a [Amount]),
    Constants(&'a [i64]),
}

/// A task as the domains stand: start view and bounds, least duration and height, and the
/// facts those least values rest on.
#[derive(Debug, Clone, Copy)]
struct Task {
    view: IntView,
    est: i64,
    lst: i64,
    d: i64,
    r: i64,
    d_fact: Option<Predicate>,
    r_fact: Option<Predicate>,
}

impl Task {
    /// Whether the task surely runs at `t`.
    fn covers(&self, t: i64) -> bool {
        self.d > 0 && self.r > 0 && self.lst <= t && t < self.est + self.d
    }

    /// Why it runs at `t`: its start lies in `t + 1 - d ..= t`, with its least duration and
    /// height.
    fn at(&self, t: i64, out: &mut Vec<Item>) {
        out.push(Item::Pred(Predicate::view_le(self.view, t)));
        out.push(Item::Pred(Predicate::view_ge(self.view, t + 1 - self.d)));
        self.amounts(out);
    }

    fn amounts(&self, out: &mut Vec<Item>) {
        out.extend(self.d_fact.into_iter().chain(self.r_fact).map(Item::Pred));
    }
}

/// How far a chain may go before the explanation is given up (the fallback takes over).
const MAX_STEPS: usize = 512;

fn amount(a: Amount, domains: &impl Domains) -> (i64, Option<Predicate>) {
    match a {
        Amount::Fixed(v) => (v.max(0), None),
        Amount::View(view) => {
            let lo = domains.view_bounds(view).0;
            (lo.max(0), (lo > 0).then(|| Predicate::view_ge(view, lo)))
        }
    }
}

impl<'a> Resource<'a> {
    /// The explanation of `fact` (a bound of a task's start, or the capacity's least value),
    /// from the domains before it; `None` when time-tabling does not give it.
    pub(crate) fn explain(&self, domains: &impl Domains, fact: Predicate) -> Option<Vec<Item>> {
        let scene = Scene::new(self, domains);
        if let Some(c) = self.capacity
            && c.var.index == fact.var
        {
            return scene.capacity_reason(c, fact);
        }
        let i = self.starts.iter().position(|v| v.var.index == fact.var)?;
        let view = self.starts[i];
        if !view.is_unit() {
            return None;
        }
        let target = if view.negated {
            view.offset.checked_sub(fact.value)?
        } else {
            fact.value.checked_add(view.offset)?
        };
        match (fact.kind, view.negated) {
            (Kind::Ge, false) | (Kind::Le, true) => scene.chain(i, target, true),
            (Kind::Le, false) | (Kind::Ge, true) => scene.chain(i, target, false),
            _ => None,
        }
    }

    /// Why the domains admit no schedule: a point where the compulsory parts exceed the
    /// capacity, or a task whose start is pushed past its latest start; `None` if neither.
    pub(crate) fn failure(&self, domains: &impl Domains) -> Option<Vec<Item>> {
        let scene = Scene::new(self, domains);
        let tasks = &scene.tasks;
        let peak = tasks
            .iter()
            .filter(|t| t.covers(t.lst))
            .map(|t| t.lst)
            .find(|&t| scene.height_at(t, usize::MAX) > scene.cap);
        if let Some(t) = peak {
            let mut items = Vec::new();
            scene.overload_at(usize::MAX, t, 0, &mut items)?;
            return Some(items);
        }
        // A task higher than the capacity fits nowhere.
        if let Some(task) = tasks.iter().find(|t| t.d > 0 && t.r > scene.cap) {
            let mut items = Vec::new();
            task.amounts(&mut items);
            if let Some(c) = self.capacity {
                items.push(Item::Pred(Predicate::view_le(c, task.r - 1)));
            }
            return Some(items);
        }
        (0..tasks.len()).find_map(|i| {
            let mut items = scene.chain(i, tasks[i].lst + 1, true)?;
            items.push(Item::Pred(Predicate::view_le(tasks[i].view, tasks[i].lst)));
            Some(items)
        })
    }
}

/// The tasks of a resource as the domains of one explanation stand.
struct Scene<'r, 'a, D> {
    resource: &'r Resource<'a>,
    domains: &'r D,
    tasks: Vec<Task>,
    cap: i64,
}

impl<'r, 'a, D: Domains> Scene<'r, 'a, D> {
    fn new(resource: &'r Resource<'a>, domains: &'r D) -> Self {
        let tasks = (0..resource.starts.len())
            .map(|i| {
                let view = resource.starts[i];
                let (est, lst) = domains.view_bounds(view);
                let (d, d_fact) = match resource.durations {
                    Lengths::Amounts(a) => amount(a[i], domains),
                    Lengths::Constants(c) => (c[i].max(0), None),
                };
                let (r, r_fact) = resource
                    .heights
                    .map_or((1, None), |h| amount(h[i], domains));
                Task {
                    view,
                    est,
                    lst,
                    d,
                    r,
                    d_fact,
                    r_fact,
                }
            })
            .collect();
        let cap = resource.capacity.map_or(1, |c| domains.view_bounds(c).1);
        Scene {
            resource,
            domains,
            tasks,
            cap,
        }
    }

    /// The height of the compulsory parts at `t`, task `skip` left out.
    fn height_at(&self, t: i64, skip: usize) -> i64 {
        let at = self.tasks.iter().enumerate();
        at.filter(|&(j, task)| j != skip && task.covers(t))
            .map(|(_, task)| task.r)
            .sum()
    }

    /// Why the tasks other than `skip` at `t` leave no room for `height` more: enough of
    /// them, highest first, to pass the capacity less `height`, and the capacity below what
    /// they use with it.
    fn overload_at(&self, skip: usize, t: i64, height: i64, out: &mut Vec<Item>) -> Option<()> {
        let mut at: Vec<usize> = (0..self.tasks.len())
            .filter(|&j| j != skip && self.tasks[j].covers(t))
            .collect();
        at.sort_by_key(|&j| std::cmp::Reverse(self.tasks[j].r));
        let mut used = height;
        for j in at {
            if used > self.cap {
                break;
            }
            used += self.tasks[j].r;
            self.tasks[j].at(t, out);
        }
        if let Some(c) = self.resource.capacity {
            out.push(Item::Pred(Predicate::view_le(c, used - 1)));
        }
        (used > self.cap).then_some(())
    }

    /// The stretches `[a, b)` where the compulsory parts of the tasks other than `i` leave
    /// no room for `i`.
    fn overloads(&self, i: usize) -> Vec<(i64, i64)> {
        let mut events: Vec<(i64, i64)> = Vec::new();
        for (j, t) in self.tasks.iter().enumerate() {
            if j != i && t.d > 0 && t.r > 0 && t.lst < t.est + t.d {
                events.push((t.lst, t.r));
                events.push((t.est + t.d, -t.r));
            }
        }
        events.sort_unstable();
        let room = self.cap - self.tasks[i].r;
        let (mut out, mut height, mut k) = (Vec::new(), 0i64, 0);
        while k < events.len() {
            let time = events[k].0;
            while k < events.len() && events[k].0 == time {
                height += events[k].1;
                k += 1;
            }
            if height > room
                && let Some(&(next, _)) = events.get(k)
            {
                out.push((time, next));
            }
        }
        out
    }

    /// Task `i` starts at `target` or later (`up`), or at `target` or earlier: the chain of
    /// overloaded points from its earliest (latest) start (see the [module docs](self)).
    fn chain(&self, i: usize, target: i64, up: bool) -> Option<Vec<Item>> {
        let task = self.tasks[i];
        if task.d <= 0 || task.r <= 0 {
            return None;
        }
        let overloads = self.overloads(i);
        let (mut s, bound) = if up {
            (task.est, Predicate::view_ge(task.view, task.est))
        } else {
            (task.lst, Predicate::view_le(task.view, task.lst))
        };
        let mut items = vec![Item::Pred(bound)];
        task.amounts(&mut items);
        let step = if up { 1 } else { -1 };
        for _ in 0..MAX_STEPS {
            if (s - target) * step >= 0 {
                return Some(items);
            }
            if !self.domains.view_member(task.view, s) {
                items.push(Item::Pred(Predicate::view_ne(task.view, s)));
                s += step;
                continue;
            }
            // The overloaded points a start at `s` would cover; the one furthest along.
            let end = s + task.d - 1;
            let covered = overloads.iter().filter(|&&(a, b)| a <= end && b > s);
            let t = if up {
                covered.map(|&(_, b)| (b - 1).min(end)).max()?
            } else {
                covered.map(|&(a, _)| a.max(s)).min()?
            };
            self.overload_at(i, t, task.r, &mut items)?;
            s = if up { t + 1 } else { t - task.d };
        }
        None
    }

    /// The capacity's least value rises to `fact`'s: a point where the compulsory parts
    /// reach it.
    fn capacity_reason(&self, c: IntView, fact: Predicate) -> Option<Vec<Item>> {
        if c.negated || !c.is_unit() || fact.kind != Kind::Ge {
            return None;
        }
        let need = fact.value.checked_add(c.offset)?;
        let t = (self.tasks.iter())
            .filter(|t| t.covers(t.lst))
            .map(|t| t.lst)
            .find(|&t| self.height_at(t, usize::MAX) >= need)?;
        let mut at: Vec<&Task> = self.tasks.iter().filter(|task| task.covers(t)).collect();
        at.sort_by_key(|task| std::cmp::Reverse(task.r));
        let (mut items, mut used) = (Vec::new(), 0);
        for task in at {
            if used >= need {
                break;
            }
            used += task.r;
            task.at(t, &mut items);
        }
        Some(items)
    }
}
