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
//! completions). A run is one round of the passes in both directions; a round that moved a
//! bound asks for another run, so a fixpoint is only reported after a round that moved
//! nothing, where every rule holds. The tasks' orders by each time are kept from run to run
//! and repaired by insertion sort. Zero-duration tasks take no time: in the non-strict
//! version they are free; in the strict one each may not lie strictly inside another task,
//! which a pairwise rule on bounds enforces.

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

/// No task: the responsible task of a node without a gray task below.
const NO_TASK: u32 = u32::MAX;

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
    /// The Λ task that `p_bar` adds, or [`NO_TASK`].
    p_resp: u32,
    /// The Λ task that `ect_bar` adds, or [`NO_TASK`].
    ect_resp: u32,
}

const EMPTY: Node = Node {
    p: 0,
    ect: NONE,
    p_bar: 0,
    ect_bar: NONE,
    p_resp: NO_TASK,
    ect_resp: NO_TASK,
};

impl Node {
    /// A leaf of Θ.
    fn theta(t: Task) -> Node {
        Node {
            p: t.p,
            ect: t.ect(),
            p_bar: t.p,
            ect_bar: t.ect(),
            p_resp: NO_TASK,
            ect_resp: NO_TASK,
        }
    }

    /// The node above `l` and `r` (left: earlier starts).
    #[inline]
    fn join(l: Node, r: Node) -> Node {
        // On ties the side with a gray task wins: an ECT̄ above the ECT must name one.
        let (p_bar, p_resp) = pick((l.p_bar + r.p, l.p_resp), (l.p + r.p_bar, r.p_resp));
        let (ect_bar, ect_resp) = pick(
            pick((r.ect_bar, r.ect_resp), (l.ect + r.p_bar, r.p_resp)),
            (l.ect_bar + r.p, l.ect_resp),
        );
        Node {
            p: l.p + r.p,
            ect: r.ect.max(l.ect + r.p),
            p_bar,
            ect_bar,
            p_resp,
            ect_resp,
        }
    }
}

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
    /// Places the leaves in the order of earliest starts `by_est`; the tree's content is
    /// left for [`clear`](ThetaLambda::clear) or [`fill`](ThetaLambda::fill).
    fn place(&mut self, by_est: &[usize]) {
        let n = by_est.len();
        self.leaves = n.next_power_of_two().max(1);
        self.nodes.resize(2 * self.leaves, EMPTY);
        self.leaf.resize(n, 0);
        for (pos, &i) in by_est.iter().enumerate() {
            self.leaf[i] = pos;
        }
    }

    /// Empties Θ and Λ.
    fn clear(&mut self) {
        self.nodes.fill(EMPTY);
    }

    /// Puts every task in Θ at once, bottom up: `O(n)` rather than `n` inserts.
    fn fill(&mut self, tasks: &[Task]) {
        self.clear();
        for (i, &t) in tasks.iter().enumerate() {
            self.nodes[self.leaves + self.leaf[i]] = Node::theta(t);
        }
        for v in (1..self.leaves).rev() {
            self.nodes[v] = Node::join(self.nodes[2 * v], self.nodes[2 * v + 1]);
        }
    }

    fn update(&mut self, mut v: usize) {
        while v > 1 {
            v /= 2;
            self.nodes[v] = Node::join(self.nodes[2 * v], self.nodes[2 * v + 1]);
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

    /// Moves task `i` from Θ to Λ.
    fn gray(&mut self, i: usize, t: Task) {
        let me = i as u32;
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
#[inline]
fn pick(a: (i64, u32), b: (i64, u32)) -> (i64, u32) {
    if a.0 > b.0 || (a.0 == b.0 && a.1 != NO_TASK) {
        a
    } else {
        b
    }
}

/// The tasks in increasing order of each of their four times, for one direction of time.
/// Kept from run to run: bounds move little between runs, so an insertion sort repairs an
/// order in about `n` steps where sorting again takes `n log n` (as in Gecode and Vilím's
/// implementations).
#[derive(Debug, Clone, Default)]
struct Orders {
    est: Vec<usize>,
    lct: Vec<usize>,
    ect: Vec<usize>,
    lst: Vec<usize>,
}

/// Above this many tasks an order is sorted again rather than repaired: an insertion sort
/// is quadratic when many tasks moved (after a backtrack high in the tree).
const REPAIR_MAX_TASKS: usize = 32;

/// Sorts `order` by `key`, assuming it is nearly sorted already.
fn repair(order: &mut [usize], key: impl Fn(usize) -> i64) {
    if order.len() > REPAIR_MAX_TASKS {
        order.sort_by_key(|&i| key(i));
        return;
    }
    for k in 1..order.len() {
        let x = order[k];
        let kx = key(x);
        let mut j = k;
        while j > 0 && key(order[j - 1]) > kx {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = x;
    }
}

impl Orders {
    /// Every order sorted again for `tasks` (the forward ones).
    fn repair(&mut self, tasks: &[Task]) {
        if self.est.len() != tasks.len() {
            for o in [&mut self.est, &mut self.lct, &mut self.ect, &mut self.lst] {
                o.clear();
                o.extend(0..tasks.len());
            }
        }
        repair(&mut self.est, |i| tasks[i].est);
        repair(&mut self.lct, |i| tasks[i].lct);
        repair(&mut self.ect, |i| tasks[i].ect());
        repair(&mut self.lst, |i| tasks[i].lst());
    }

    /// The orders of the mirrored tasks (`est' = -lct`, `lct' = -est`, so `ect' = -lst` and
    /// `lst' = -ect`): each is one of these reversed.
    fn mirror_into(&self, out: &mut Orders) {
        let reversed = |o: &mut Vec<usize>, from: &[usize]| {
            o.clear();
            o.extend(from.iter().rev());
        };
        reversed(&mut out.est, &self.lct);
        reversed(&mut out.lct, &self.est);
        reversed(&mut out.ect, &self.lst);
        reversed(&mut out.lst, &self.ect);
    }
}

/// Scratch of the passes, kept to avoid allocating on every run.
#[derive(Debug, Clone, Default)]
struct Scratch {
    tree: ThetaLambda,
    /// The orders of the mirrored tasks.
    mirrored: Orders,
}

/// One pass of the four rules over `tasks` in one direction of time, `by` giving the tasks
/// in order of each time: raises `est` (detectable precedences, edge finding) and lowers
/// `lct` (not-last), or fails on an overload. Every rule reads the bounds as they were at the
/// start of the pass.
fn pass(
    tasks: &[Task],
    by: &Orders,
    est: &mut [i64],
    lct: &mut [i64],
    tree: &mut ThetaLambda,
) -> Result<(), Conflict> {
    let n = tasks.len();
    tree.place(&by.est);

    // Edge finding, with overload checking: Θ = the tasks with lct at most lct(j), Λ the
    // tasks removed from it so far (j by decreasing lct).
    tree.fill(tasks);
    let by_lct_down = |k: usize| by.lct[n - 1 - k];
    if tree.ect() > tasks[by_lct_down(0)].lct {
        return Err(Conflict);
    }
    for k in 0..n - 1 {
        let j = by_lct_down(k);
        tree.gray(j, tasks[j]);
        let next_lct = tasks[by_lct_down(k + 1)].lct;
        // The overload check of the next Θ comes first: an ECT above the next lct leaves
        // ECT̄ above it without a gray task to blame.
        if tree.ect() > next_lct {
            return Err(Conflict);
        }
        loop {
            let root = tree.root();
            if root.ect_bar <= next_lct {
                break;
            }
            debug_assert!(
                root.ect_resp != NO_TASK,
                "an ECT̄ above the ECT names a gray task"
            );
            let i = root.ect_resp as usize;
            est[i] = est[i].max(root.ect);
            tree.remove(i);
        }
    }

    // Detectable precedences: for i by ect, Θ = the tasks j with lst(j) < ect(i).
    tree.clear();
    let mut q = 0;
    for &i in &by.ect {
        while q < n && tasks[i].ect() > tasks[by.lst[q]].lst() {
            tree.insert_theta(by.lst[q], tasks[by.lst[q]]);
            q += 1;
        }
        est[i] = est[i].max(ect_without(tree, i));
    }

    // Not-last: for i by lct, Θ = the tasks j with lst(j) < lct(i); if i cannot follow all of
    // Θ \ {i}, it ends before the latest start among them.
    tree.clear();
    let mut q = 0;
    // The largest lst in Θ, and the second largest task's lst, for when the largest is i.
    let mut top: Option<usize> = None;
    let mut below_top: Option<usize> = None;
    for &i in &by.lct {
        while q < n && tasks[i].lct > tasks[by.lst[q]].lst() {
            let j = by.lst[q];
            tree.insert_theta(j, tasks[j]);
            below_top = top;
            top = Some(j);
            q += 1;
        }
        if ect_without(tree, i) > tasks[i].lst() {
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
/// finding on a Θ-Λ-tree (`O(n log n)` per rule), forwards and backwards in time, until a
/// round moves no bound; zero-duration tasks of the strict version are kept out of the inside of the
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
    /// The forward tasks by each of their times, repaired on every run.
    orders: Orders,
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
            orders: Orders::default(),
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

    /// The four rules forwards and backwards in time, on the bounds at the start of the
    /// round; returns whether a bound moved.
    fn round(&mut self, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        let n = self.starts.len();
        if n < 2 {
            return Ok(false);
        }
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
        self.orders.repair(&self.forward);
        self.orders.mirror_into(&mut self.scratch.mirrored);
        pass(
            &self.forward,
            &self.orders,
            &mut self.est,
            &mut self.lct,
            &mut self.scratch.tree,
        )?;
        self.est_back.clear();
        self.est_back.extend(self.backward.iter().map(|t| t.est));
        self.lct_back.clear();
        self.lct_back.extend(self.backward.iter().map(|t| t.lct));
        pass(
            &self.backward,
            &self.scratch.mirrored,
            &mut self.est_back,
            &mut self.lct_back,
            &mut self.scratch.tree,
        )?;
        let mut changed = false;
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
        // One round, then another run if it moved a bound (the rules are not idempotent):
        // the queue runs the cheaper propagators first, and the wake-ups from what they
        // derive from this round's changes share that next run.
        if self.points(ctx)? | self.round(ctx)? {
            return Ok(PropStatus::NoFixpoint);
        }
        let all_fixed = self
            .starts
            .iter()
            .chain(&self.points)
            .all(|&x| ctx.is_fixed(x));
        Ok(PropStatus::subsumed_if(all_fixed))
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
