//! A unary resource: tasks of fixed durations that may not overlap (`disjunctive`).
//!
//! The reasoning is Vilím's (Global Constraints in Scheduling, 2007), on a Θ-Λ-tree: a
//! balanced tree over the tasks ordered by earliest start, whose nodes hold the total
//! duration and the earliest completion time (ECT) of the tasks of Θ below them, and the same
//! two numbers when one "gray" task of Λ may join. Four rules run in `O(n log n)` each:
//!
//! - overload checking: no set Ω of tasks fits between its earliest start and latest
//!   completion when `ECT(Ω) > lct(Ω)`;
//! - detectable precedences: when `ect(i) > lst(j)`, `j` must come before `i`, so `i` starts
//!   no earlier than the ECT of all such `j`;
//! - not-last: when `ECT(Ω) > lst(i)`, `i` cannot come after all of Ω, so it ends before the
//!   latest start of one of them;
//! - edge finding: when `ECT(Ω ∪ {i}) > lct(Ω)`, `i` comes after all of Ω, so it starts no
//!   earlier than `ECT(Ω)`.
//!
//! Each rule narrows earliest starts (or, for not-last, latest completions); the mirrored
//! tasks (time reversed, `-s - d`) give the other side (not-first, and the rules on latest
//! completions). A run repeats the passes until no bound moves, so that every rule holds on
//! the bounds it leaves. Zero-duration tasks take no time: in the non-strict version they are
//! free; in the strict one each may not lie strictly inside another task, which a pairwise
//! rule on bounds enforces.

use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::queue::Priority;
use crate::store::Conflict;
use crate::var::IntView;

/// Below every ECT that a real task can have, and far enough from `i64::MIN` that adding
/// durations to it cannot overflow.
const NONE: i64 = i64::MIN / 4;

/// A task in one direction of time: earliest start, latest completion, duration.
#[derive(Debug, Clone, Copy)]
struct Task {
    est: i64,
    lct: i64,
    p: i64,
}

impl Task {
    fn ect(self) -> i64 {
        self.est + self.p
    }
    fn lst(self) -> i64 {
        self.lct - self.p
    }
}

/// One node of the Θ-Λ-tree.
#[derive(Debug, Clone, Copy)]
struct Node {
    /// Total duration of the Θ tasks below.
    p: i64,
    /// Earliest completion time of the Θ tasks below.
    ect: i64,
    /// Largest total duration with at most one Λ task added.
    p_bar: i64,
    /// Largest ECT with at most one Λ task added.
    ect_bar: i64,
    /// The Λ task that `p_bar` adds, if any (a task index).
    p_resp: Option<u32>,
    /// The Λ task that `ect_bar` adds, if any.
    ect_resp: Option<u32>,
}

const EMPTY: Node = Node {
    p: 0,
    ect: NONE,
    p_bar: 0,
    ect_bar: NONE,
    p_resp: None,
    ect_resp: None,
};

/// Vilím's Θ-Λ-tree over tasks whose leaves are fixed by the order of earliest starts.
#[derive(Debug, Clone, Default)]
struct ThetaLambda {
    nodes: Vec<Node>,
    /// Number of leaves (a power of two).
    leaves: usize,
    /// Leaf position of each task.
    leaf: Vec<usize>,
}

impl ThetaLambda {
    /// An empty tree for `tasks`, the leaves in order of earliest start.
    fn reset(&mut self, tasks: &[Task], by_est: &[usize]) {
        self.leaves = tasks.len().next_power_of_two().max(1);
        self.nodes.clear();
        self.nodes.resize(2 * self.leaves, EMPTY);
        self.leaf.clear();
        self.leaf.resize(tasks.len(), 0);
        for (pos, &i) in by_est.iter().enumerate() {
            self.leaf[i] = pos;
        }
    }

    fn update(&mut self, mut v: usize) {
        while v > 1 {
            v /= 2;
            let (l, r) = (self.nodes[2 * v], self.nodes[2 * v + 1]);
            let p = l.p + r.p;
            let ect = r.ect.max(l.ect + r.p);
            // On ties the side with a gray task wins: an ECT̄ above the ECT must name one.
            let (p_bar, p_resp) = pick((l.p_bar + r.p, l.p_resp), (l.p + r.p_bar, r.p_resp));
            let (ect_bar, ect_resp) = pick(
                pick((r.ect_bar, r.ect_resp), (l.ect + r.p_bar, r.p_resp)),
                (l.ect_bar + r.p, l.ect_resp),
            );
            self.nodes[v] = Node {
                p,
                ect,
                p_bar,
                ect_bar,
                p_resp,
                ect_resp,
            };
        }
    }

    /// Puts task `i` in Θ for the passes that never read Λ (detectable precedences,
    /// not-last): only the duration and ECT of the nodes above it are brought up to date,
    /// the Λ fields are left stale.
    fn insert_theta(&mut self, i: usize, t: Task) {
        let mut v = self.leaves + self.leaf[i];
        self.nodes[v].p = t.p;
        self.nodes[v].ect = t.ect();
        while v > 1 {
            v /= 2;
            let (l, r) = (self.nodes[2 * v], self.nodes[2 * v + 1]);
            self.nodes[v].p = l.p + r.p;
            self.nodes[v].ect = r.ect.max(l.ect + r.p);
        }
    }

    fn set(&mut self, task: usize, node: Node) {
        let v = self.leaves + self.leaf[task];
        self.nodes[v] = node;
        self.update(v);
    }

    /// Puts task `i` in Θ.
    fn insert(&mut self, i: usize, t: Task) {
        self.set(
            i,
            Node {
                p: t.p,
                ect: t.ect(),
                p_bar: t.p,
                ect_bar: t.ect(),
                p_resp: None,
                ect_resp: None,
            },
        );
    }

    /// Moves task `i` from Θ to Λ.
    fn gray(&mut self, i: usize, t: Task) {
        let me = Some(i as u32);
        self.set(
            i,
            Node {
                p: 0,
                ect: NONE,
                p_bar: t.p,
                ect_bar: t.ect(),
                p_resp: me,
                ect_resp: me,
            },
        );
    }

    fn remove(&mut self, i: usize) {
        self.set(i, EMPTY);
    }

    fn ect(&self) -> i64 {
        self.nodes[1].ect
    }

    fn root(&self) -> Node {
        self.nodes[1]
    }
}

/// The larger of two (value, responsible) pairs, preferring one with a responsible task.
fn pick(a: (i64, Option<u32>), b: (i64, Option<u32>)) -> (i64, Option<u32>) {
    if a.0 > b.0 || (a.0 == b.0 && a.1.is_some()) {
        a
    } else {
        b
    }
}

/// Scratch of the passes, kept to avoid allocating on every run.
#[derive(Debug, Clone, Default)]
struct Scratch {
    tree: ThetaLambda,
    by_est: Vec<usize>,
    order: Vec<usize>,
    queue: Vec<usize>,
}

/// One pass of the four rules over `tasks` in one direction of time: raises `est` (detectable
/// precedences, edge finding) and lowers `lct` (not-last), or fails on an overload. Every
/// rule reads the bounds as they were at the start of the pass.
fn pass(tasks: &[Task], est: &mut [i64], lct: &mut [i64], s: &mut Scratch) -> Result<(), Conflict> {
    let n = tasks.len();
    s.by_est.clear();
    s.by_est.extend(0..n);
    s.by_est.sort_by_key(|&i| tasks[i].est);

    // Edge finding, with overload checking: Θ = the tasks with lct at most lct(j), Λ the
    // tasks removed from it so far.
    s.tree.reset(tasks, &s.by_est);
    for (i, &t) in tasks.iter().enumerate() {
        s.tree.insert(i, t);
    }
    s.order.clear();
    s.order.extend(0..n);
    s.order.sort_by_key(|&i| std::cmp::Reverse(tasks[i].lct));
    if s.tree.ect() > tasks[s.order[0]].lct {
        return Err(Conflict);
    }
    for k in 0..n - 1 {
        let j = s.order[k];
        s.tree.gray(j, tasks[j]);
        let next_lct = tasks[s.order[k + 1]].lct;
        // The overload check of the next Θ comes first: an ECT above the next lct leaves
        // ECT̄ above it without a gray task to blame.
        if s.tree.ect() > next_lct {
            return Err(Conflict);
        }
        loop {
            let root = s.tree.root();
            if root.ect_bar <= next_lct {
                break;
            }
            let i = root.ect_resp.expect("an ECT̄ above the ECT has a gray task") as usize;
            est[i] = est[i].max(root.ect);
            s.tree.remove(i);
        }
    }

    // Detectable precedences: for i by ect, Θ = the tasks j with lst(j) < ect(i).
    s.tree.reset(tasks, &s.by_est);
    s.order.clear();
    s.order.extend(0..n);
    s.order.sort_by_key(|&i| tasks[i].ect());
    s.queue.clear();
    s.queue.extend(0..n);
    s.queue.sort_by_key(|&i| tasks[i].lst());
    let mut q = 0;
    for &i in &s.order {
        while q < n && tasks[i].ect() > tasks[s.queue[q]].lst() {
            s.tree.insert_theta(s.queue[q], tasks[s.queue[q]]);
            q += 1;
        }
        est[i] = est[i].max(ect_without(&s.tree, i));
    }

    // Not-last: for i by lct, Θ = the tasks j with lst(j) < lct(i); if i cannot follow all of
    // Θ \ {i}, it ends before the latest start among them.
    s.tree.reset(tasks, &s.by_est);
    s.order.clear();
    s.order.extend(0..n);
    s.order.sort_by_key(|&i| tasks[i].lct);
    let mut q = 0;
    // The largest lst in Θ, and the second largest task's lst, for when the largest is i.
    let mut top: Option<usize> = None;
    let mut below_top: Option<usize> = None;
    for &i in &s.order {
        while q < n && tasks[i].lct > tasks[s.queue[q]].lst() {
            let j = s.queue[q];
            s.tree.insert_theta(j, tasks[j]);
            below_top = top;
            top = Some(j);
            q += 1;
        }
        if ect_without(&s.tree, i) > tasks[i].lst() {
            let last = if top == Some(i) { below_top } else { top };
            let j = last.expect("a nonempty Θ \\ {i} has a latest start");
            lct[i] = lct[i].min(tasks[j].lst());
        }
    }
    Ok(())
}

/// ECT of Θ without task `i` (which may or may not be in it), reading Θ only: the path from
/// `i`'s leaf to the root is recomputed with that leaf empty, nothing is written.
fn ect_without(tree: &ThetaLambda, i: usize) -> i64 {
    let mut v = tree.leaves + tree.leaf[i];
    if tree.nodes[v].p == 0 {
        return tree.ect();
    }
    let (mut p, mut ect) = (0, NONE);
    while v > 1 {
        let sibling = tree.nodes[v ^ 1];
        let ((lp, lect), (rp, rect)) = if v & 1 == 0 {
            ((p, ect), (sibling.p, sibling.ect))
        } else {
            ((sibling.p, sibling.ect), (p, ect))
        };
        p = lp + rp;
        ect = rect.max(lect + rp);
        v /= 2;
    }
    ect
}

/// Tasks of fixed durations on a unary resource: no two tasks of positive duration overlap.
/// Runs Vilím's overload checking, detectable precedences, not-first/not-last and edge
/// finding on a Θ-Λ-tree (`O(n log n)` per rule), forwards and backwards in time, until no
/// bound moves; zero-duration tasks of the strict version are kept out of the inside of the
/// others pair by pair, on bounds. Post it through
/// [`Model::disjunctive`](crate::Model::disjunctive) or
/// [`Model::disjunctive_strict`](crate::Model::disjunctive_strict).
#[derive(Debug, Clone)]
pub struct Disjunctive {
    /// Starts of the tasks of positive duration.
    starts: Vec<IntView>,
    durations: Vec<i64>,
    /// Starts of the zero-duration tasks that must not lie strictly inside another task (the
    /// strict version); empty otherwise.
    points: Vec<IntView>,
    forward: Vec<Task>,
    backward: Vec<Task>,
    est: Vec<i64>,
    lct: Vec<i64>,
    est_back: Vec<i64>,
    lct_back: Vec<i64>,
    scratch: Scratch,
}

impl Disjunctive {
    /// The propagator for tasks `starts[i]` of durations `durations[i]` (at least 0): those
    /// of duration 0 are left free unless `strict`, in which case none may start strictly
    /// inside another task. [`Model::disjunctive`](crate::Model::disjunctive) checks the
    /// arguments.
    pub fn new(starts: Vec<IntView>, durations: Vec<i64>, strict: bool) -> Disjunctive {
        let (mut positive, mut lengths, mut points) = (Vec::new(), Vec::new(), Vec::new());
        for (s, d) in starts.into_iter().zip(durations) {
            if d > 0 {
                positive.push(s);
                lengths.push(d);
            } else if strict {
                points.push(s);
            }
        }
        Disjunctive {
            starts: positive,
            durations: lengths,
            points,
            forward: Vec::new(),
            backward: Vec::new(),
            est: Vec::new(),
            lct: Vec::new(),
            est_back: Vec::new(),
            lct_back: Vec::new(),
            scratch: Scratch::default(),
        }
    }

    /// The zero-duration tasks against each task of positive duration: a point `z` is at or
    /// before the start of `j`, or at or after its end.
    fn points(&self, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        let mut changed = false;
        for &z in &self.points {
            for (&s, &p) in self.starts.iter().zip(&self.durations) {
                if ctx.min(z) > ctx.max(s) {
                    // z comes after the start of j: after its end.
                    changed |= ctx.set_min(z, ctx.min(s) + p)?;
                    changed |= ctx.set_max(s, ctx.max(z) - p)?;
                } else if ctx.max(z) < ctx.min(s) + p {
                    // z comes before the end of j: at or before its start.
                    changed |= ctx.set_max(z, ctx.max(s))?;
                    changed |= ctx.set_min(s, ctx.min(z))?;
                }
            }
        }
        Ok(changed)
    }
}

impl Propagator for Disjunctive {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &x in self.starts.iter().chain(&self.points) {
            s.subscribe(x, Event::Bounds);
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let n = self.starts.len();
        loop {
            let mut changed = self.points(ctx)?;
            if n > 1 {
                self.forward.clear();
                self.backward.clear();
                for (&s, &p) in self.starts.iter().zip(&self.durations) {
                    let (lo, hi) = (ctx.min(s), ctx.max(s));
                    self.forward.push(Task {
                        est: lo,
                        lct: hi + p,
                        p,
                    });
                    // Time reversed: the task runs over [-(s + p), -s).
                    self.backward.push(Task {
                        est: -(hi + p),
                        lct: -lo,
                        p,
                    });
                }
                self.est.clear();
                self.est.extend(self.forward.iter().map(|t| t.est));
                self.lct.clear();
                self.lct.extend(self.forward.iter().map(|t| t.lct));
                pass(
                    &self.forward,
                    &mut self.est,
                    &mut self.lct,
                    &mut self.scratch,
                )?;
                self.est_back.clear();
                self.est_back.extend(self.backward.iter().map(|t| t.est));
                self.lct_back.clear();
                self.lct_back.extend(self.backward.iter().map(|t| t.lct));
                pass(
                    &self.backward,
                    &mut self.est_back,
                    &mut self.lct_back,
                    &mut self.scratch,
                )?;
                for i in 0..n {
                    let (s, p) = (self.starts[i], self.durations[i]);
                    let est = self.est[i].max(-self.lct_back[i]);
                    let lct = self.lct[i].min(-self.est_back[i]);
                    if est > self.forward[i].est {
                        changed |= ctx.set_min(s, est)?;
                    }
                    if lct < self.forward[i].lct {
                        changed |= ctx.set_max(s, lct - p)?;
                    }
                }
            }
            if !changed {
                let all_fixed = self
                    .starts
                    .iter()
                    .chain(&self.points)
                    .all(|&x| ctx.is_fixed(x));
                return Ok(PropStatus::subsumed_if(all_fixed));
            }
        }
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        let tasks: Vec<(i64, i64)> = self
            .starts
            .iter()
            .zip(&self.durations)
            .map(|(&s, &p)| (a.value(s), p))
            .collect();
        let apart = tasks.iter().enumerate().all(|(i, &(si, pi))| {
            tasks[i + 1..]
                .iter()
                .all(|&(sj, pj)| si + pi <= sj || sj + pj <= si)
        });
        let points_outside = self.points.iter().all(|&z| {
            let z = a.value(z);
            tasks.iter().all(|&(s, p)| z <= s || s + p <= z)
        });
        apart && points_outside
    }

    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    fn name(&self) -> &'static str {
        "disjunctive"
    }

    fn shape(&self) -> Option<crate::learn::Shape<'_>> {
        Some(crate::learn::Shape::Disjunctive {
            starts: &self.starts,
            durations: &self.durations,
        })
    }
}
