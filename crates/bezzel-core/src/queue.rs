//! The propagation queue: who must run next, and who listens to which variable.
//!
//! Each variable keeps a list of subscriptions (propagator, weakest event it cares about). A
//! domain change wakes the subscribers whose event it meets; a woken propagator joins the bucket
//! of its [`Priority`] unless it is queued already, so it never sits in the queue twice. The
//! cheapest non-empty bucket is served first. The propagator that is running is not woken by its
//! own changes: it reports itself whether it reached a fixpoint.
//!
//! Two refinements, after Gecode. *Advice*: a subscription may carry token bits, which the
//! queue collects for the propagator it wakes and hands over when it runs, so that the
//! propagator learns which of its views changed without looking at all of them. *Stages*: a
//! propagator may ask to be woken by `Fixed` events into a cheaper bucket than its own, run a
//! cheap first stage there, and requeue itself in its own bucket for the expensive rest.

use crate::event::Event;
use serde::{Deserialize, Serialize};

/// How expensive a propagator is to run; cheaper ones run first.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub enum Priority {
    /// Constant time, e.g. a check on one or two variables.
    Unary = 0,
    /// Cheap binary constraints such as `x != y`.
    Binary = 1,
    /// Linear in the number of variables (the default).
    #[default]
    Linear = 2,
    /// Quadratic or n·log n work, e.g. bounds-consistent all-different.
    Quadratic = 3,
    /// Anything heavier, e.g. matching-based filtering.
    Expensive = 4,
}

const BUCKETS: usize = 5;
const PRIORITIES: [Priority; BUCKETS] = [
    Priority::Unary,
    Priority::Binary,
    Priority::Linear,
    Priority::Quadratic,
    Priority::Expensive,
];
const NOBODY: u32 = u32::MAX;
/// In `Queue::sole`: not exactly one subscriber (never a propagator, nor `NOBODY`).
const SEVERAL: u32 = u32::MAX - 1;

/// The one subscriber of a variable with these subscriptions and watches, or `SEVERAL`.
fn sole_of(subs: &[Subscription], watches: &[Watch]) -> u32 {
    match (subs, watches) {
        ([only], []) => only.prop,
        _ => SEVERAL,
    }
}

#[derive(Debug, Clone, Copy)]
struct Subscription {
    prop: u32,
    event: Event,
    priority: Priority,
    /// The bucket a `Fixed` event wakes the propagator into (usually `priority`).
    fixed_priority: Priority,
    /// Bits for the propagator's advice when this subscription wakes it (0: none).
    token: u64,
}

/// What a change of one variable must look at: the weakest event any subscriber waits for
/// (`None`: nobody listens), and whether some subscription watches one of its values.
#[derive(Debug, Clone, Copy, Default)]
struct Gate {
    weakest: Option<Event>,
    watched: bool,
}

/// A subscription that wakes its propagator only when the variable can no longer take
/// `value`, or can take nothing else: see [`Queue::watch`].
#[derive(Debug, Clone, Copy)]
struct Watch {
    /// The subscription woken (at [`Event::Domain`]), when the change concerns `value`.
    sub: Subscription,
    value: i32,
}

/// Queues the propagator of `s` for `event` with its token, unless it is running: what both
/// kinds of subscription do once they are concerned.
#[inline(always)]
fn wake_one(
    s: &Subscription,
    event: Event,
    running: u32,
    buckets: &mut [Ring; BUCKETS],
    queued: &mut [bool],
    advice: &mut [u64],
    len: &mut usize,
) {
    let p = s.prop as usize;
    if s.prop == running {
        return;
    }
    advice[p] |= s.token;
    if !queued[p] {
        queued[p] = true;
        let bucket = if event == Event::Fixed {
            s.fixed_priority
        } else {
            s.priority
        };
        buckets[bucket as usize].push(s.prop);
        *len += 1;
    }
}

/// The waiting propagators of one priority, first in first out. As a propagator waits at most
/// once, a ring of more slots than there are propagators never fills, so pushing needs no
/// growth check.
#[derive(Debug, Clone, Default)]
struct Ring {
    slots: Vec<u32>,
    /// Free-running positions; the ring holds `slots[head & mask..tail & mask]`.
    head: usize,
    tail: usize,
}

impl Ring {
    #[inline(always)]
    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    #[inline(always)]
    fn push(&mut self, prop: u32) {
        let i = self.tail & self.mask();
        self.slots[i] = prop;
        self.tail += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<u32> {
        if self.head == self.tail {
            return None;
        }
        let prop = self.slots[self.head & self.mask()];
        self.head += 1;
        Some(prop)
    }

    /// Makes room for `props` propagators, keeping those waiting in order.
    fn reserve(&mut self, props: usize) {
        let len = (props + 1).next_power_of_two();
        if self.slots.len() < len {
            let waiting: Vec<u32> = std::iter::from_fn(|| self.pop()).collect();
            self.slots = vec![NOBODY; len];
            (self.head, self.tail) = (0, 0);
            for prop in waiting {
                self.push(prop);
            }
        }
    }
}

/// Subscriptions per variable plus the priority buckets of waiting propagators.
#[derive(Debug, Clone, Default)]
pub(crate) struct Queue {
    subscriptions: Vec<Vec<Subscription>>,
    /// Per variable, the subscriptions that watch one value (see [`watch`](Queue::watch)),
    /// apart so that the loop over the others stays as it was.
    watches: Vec<Vec<Watch>>,
    /// Per variable, the weakest event any subscriber waits for (`None`: nobody listens), so
    /// that most changes are dismissed without walking the list, and whether some
    /// subscription watches one of its values: side by side, so that a change reads one
    /// word for both (this is the hottest path).
    gates: Vec<Gate>,
    /// Per variable, its one subscriber when it has one and nothing watches it, else
    /// `SEVERAL`: a change that propagator makes itself (a family of all-differents writing
    /// back its cells) wakes nobody, which this tells without a look at the subscriptions
    /// (see [`is_sole_subscriber`](Queue::is_sole_subscriber)). Beside `gates`, not in them,
    /// which every change reads: a wider gate cost other models 1 % (Golomb rulers).
    sole: Vec<u32>,
    /// Per variable, the subscriptions of retired propagators, which its degree still counts
    /// (see [`unsubscribe`](Queue::unsubscribe)).
    ghosts: Vec<usize>,
    buckets: [Ring; BUCKETS],
    queued: Vec<bool>,
    /// Per propagator, the tokens of the subscriptions that woke it since it last ran. Only
    /// a waiting propagator has any, so emptying the queue clears them all.
    advice: Vec<u64>,
    priority: Vec<Priority>,
    fixed_priority: Vec<Priority>,
    running: u32,
    len: usize,
}

impl Queue {
    pub(crate) fn new() -> Queue {
        let mut q = Queue {
            running: NOBODY,
            ..Queue::default()
        };
        for b in &mut q.buckets {
            b.reserve(0);
        }
        q
    }

    /// Number of variables.
    pub(crate) fn num_vars(&self) -> usize {
        self.subscriptions.len()
    }

    pub(crate) fn add_var(&mut self) {
        self.subscriptions.push(Vec::new());
        self.watches.push(Vec::new());
        self.gates.push(Gate::default());
        self.sole.push(SEVERAL);
        self.ghosts.push(0);
    }

    /// Adds a propagator that events wake into the bucket of `priority`, except `Fixed`
    /// events, which wake it into that of `fixed_priority`.
    pub(crate) fn add_propagator(&mut self, priority: Priority, fixed_priority: Priority) -> u32 {
        self.queued.push(false);
        self.advice.push(0);
        self.priority.push(priority);
        self.fixed_priority.push(fixed_priority);
        let props = self.queued.len();
        for b in &mut self.buckets {
            b.reserve(props);
        }
        (props - 1) as u32
    }

    pub(crate) fn subscribe(&mut self, var: u32, prop: u32, event: Event, token: u64) {
        let gate = &mut self.gates[var as usize];
        gate.weakest = Some(gate.weakest.map_or(event, |w| w.min(event)));
        let subs = &mut self.subscriptions[var as usize];
        // One subscription per (variable, propagator), at the weakest event asked for. A
        // propagator subscribes all at once when it is added, after every older one, so an
        // earlier subscription of `prop` to `var` can only be the last: no scan of the list
        // (a FlatZinc queens 100 has 300 propagators on each variable, and the scans were
        // half of its reading time).
        if let Some(s) = subs.last_mut().filter(|s| s.prop == prop) {
            s.event = s.event.min(event);
            s.token |= token;
        } else {
            debug_assert!(subs.iter().all(|s| s.prop != prop));
            subs.push(Subscription {
                prop,
                event,
                priority: self.priority[prop as usize],
                fixed_priority: self.fixed_priority[prop as usize],
                token,
            });
        }
        self.sole[var as usize] = sole_of(subs, &self.watches[var as usize]);
    }

    /// Recomputes the gate of `var` from its subscriptions and watches.
    fn regate(&mut self, var: u32) {
        let (subs, watches) = (
            &self.subscriptions[var as usize],
            &self.watches[var as usize],
        );
        self.gates[var as usize] = Gate {
            weakest: subs.iter().map(|s| s.event).min(),
            watched: !watches.is_empty(),
        };
        self.sole[var as usize] = sole_of(subs, watches);
    }

    /// Subscribes `prop` to `var` for changes that take `value` away from it or leave it
    /// nothing else: the changes that can alter whether `var` takes `value` for sure, may
    /// take it, or cannot (what a `count` of `value` looks at). Other changes do not wake it,
    /// nor add `token` to its advice.
    pub(crate) fn watch(&mut self, var: u32, prop: u32, value: i32, token: u64) {
        self.watches[var as usize].push(Watch {
            sub: Subscription {
                prop,
                event: Event::Domain,
                priority: self.priority[prop as usize],
                fixed_priority: self.fixed_priority[prop as usize],
                token,
            },
            value,
        });
        self.gates[var as usize].watched = true;
        self.sole[var as usize] = SEVERAL;
    }

    /// After `event` on `var`, wakes the watches whose value `var` can no longer take or is
    /// now fixed to; `open(value)` tells whether `var` may still take `value` and another.
    pub(crate) fn wake_watches(&mut self, var: u32, event: Event, open: impl Fn(i32) -> bool) {
        let Queue {
            watches,
            buckets,
            queued,
            advice,
            running,
            len,
            ..
        } = self;
        for w in &watches[var as usize] {
            if !open(w.value) {
                wake_one(&w.sub, event, *running, buckets, queued, advice, len);
            }
        }
    }

    /// Number of propagators listening to `var`, counting those retired in favour of one
    /// that does their work (a family of all-differents counts once per unit): as many as
    /// [`subscribers`](Queue::subscribers) yields, plus the ghosts.
    #[inline]
    pub(crate) fn degree(&self, var: u32) -> usize {
        self.subscriptions[var as usize].len()
            + self.watches[var as usize].len()
            + self.ghosts[var as usize]
    }

    /// How many entries of `prop` [`subscribers`](Queue::subscribers) yields for `var`.
    pub(crate) fn entries_of(&self, var: u32, prop: u32) -> usize {
        let x = var as usize;
        self.subscriptions[x]
            .iter()
            .filter(|s| s.prop == prop)
            .count()
            + self.watches[x]
                .iter()
                .filter(|w| w.sub.prop == prop)
                .count()
    }

    /// The subscriptions of retired propagators to `var`, which its degree counts.
    pub(crate) fn ghosts(&self, var: u32) -> usize {
        self.ghosts[var as usize]
    }

    /// Removes the subscription of `prop` to `var`, if any, leaving it in the degree of `var`
    /// as a ghost: `prop` is retired, another propagator does its work.
    pub(crate) fn unsubscribe(&mut self, var: u32, prop: u32) {
        let subs = &mut self.subscriptions[var as usize];
        let before = subs.len();
        subs.retain(|s| s.prop != prop);
        self.ghosts[var as usize] += before - subs.len();
        let watches = &mut self.watches[var as usize];
        let before = watches.len();
        watches.retain(|w| w.sub.prop != prop);
        self.ghosts[var as usize] += before - watches.len();
        self.regate(var);
    }

    /// Forgets one ghost of `var`: the propagator that took over the retired ones subscribes
    /// to it itself.
    pub(crate) fn forget_ghost(&mut self, var: u32) {
        let ghosts = &mut self.ghosts[var as usize];
        *ghosts = ghosts.saturating_sub(1);
    }

    /// The propagators listening to `var`.
    pub(crate) fn subscribers(&self, var: u32) -> impl Iterator<Item = u32> + '_ {
        let watching = self.watches[var as usize].iter().map(|w| w.sub.prop);
        self.subscriptions[var as usize]
            .iter()
            .map(|s| s.prop)
            .chain(watching)
    }

    /// Wakes the subscribers of `var` that care about `event`; returns whether some
    /// subscriptions watch values of `var`, for the caller (who can read the domain) to
    /// [`wake_watches`](Queue::wake_watches).
    #[inline(always)]
    pub(crate) fn notify(&mut self, var: u32, event: Event) -> bool {
        let gate = self.gates[var as usize];
        if gate.weakest.is_some_and(|w| event.wakes(w)) {
            self.wake(var, event);
        }
        gate.watched
    }

    /// Whether the running propagator is the one subscriber of `var` (and nothing watches
    /// it): then its own change to `var` wakes nobody, which the word-level writes (a family
    /// of all-differents writing back its cells) check before notifying. The other writes do
    /// not: the test would cost them more than it saves (Golomb rulers: +1.3 %).
    #[inline(always)]
    pub(crate) fn is_sole_subscriber(&self, var: u32) -> bool {
        self.sole[var as usize] == self.running
    }

    #[inline(always)]
    fn wake(&mut self, var: u32, event: Event) {
        let Queue {
            subscriptions,
            buckets,
            queued,
            advice,
            running,
            len,
            ..
        } = self;
        for s in &subscriptions[var as usize] {
            if event.wakes(s.event) {
                wake_one(s, event, *running, buckets, queued, advice, len);
            }
        }
    }

    /// Queues `prop` without an event: its advice says that anything may have changed. A
    /// staged propagator starts with its cheap stage, as after a `Fixed` event.
    #[inline]
    pub(crate) fn schedule(&mut self, prop: u32) {
        self.schedule_at(prop, self.fixed_priority[prop as usize]);
    }

    /// [`schedule`](Queue::schedule) in the bucket of `priority` rather than the one that
    /// events wake `prop` into (unless it waits already).
    #[inline]
    pub(crate) fn schedule_at(&mut self, prop: u32, priority: Priority) {
        let p = prop as usize;
        self.advice[p] = u64::MAX;
        if !self.queued[p] {
            self.queued[p] = true;
            self.buckets[priority as usize].push(prop);
            self.len += 1;
        }
    }

    /// Takes the next propagator from the cheapest non-empty bucket, with its advice and the
    /// priority of that bucket, and marks it running.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(u32, u64, Priority)> {
        if self.len == 0 {
            return None;
        }
        let (prop, bucket) = self
            .buckets
            .iter_mut()
            .enumerate()
            .find_map(|(i, b)| b.pop().map(|p| (p, i)))?;
        self.len -= 1;
        self.queued[prop as usize] = false;
        self.running = prop;
        let advice = std::mem::take(&mut self.advice[prop as usize]);
        Some((prop, advice, PRIORITIES[bucket]))
    }

    /// Parks `prop`, which stopped running (subsumed, or retired): it is marked as waiting
    /// without sitting in any bucket, so that the test every wake-up makes already
    /// (`queued`) turns its events away, and it is never scheduled. Without this, a job
    /// shop's decided precedences were three quarters of all the propagators popped, each
    /// queued and dropped for nothing. A propagator is parked only while it is not waiting.
    pub(crate) fn park(&mut self, prop: u32) {
        self.queued[prop as usize] = true;
    }

    /// Whether `prop` waits in a bucket (or is parked).
    pub(crate) fn is_waiting(&self, prop: u32) -> bool {
        self.queued[prop as usize]
    }

    /// Undoes [`park`](Queue::park) (backtracking made `prop` active again), forgetting the
    /// tokens its turned-away events left in its advice.
    pub(crate) fn unpark(&mut self, prop: u32) {
        self.queued[prop as usize] = false;
        self.advice[prop as usize] = 0;
    }

    pub(crate) fn done_running(&mut self) {
        self.running = NOBODY;
    }

    /// Empties the queue, e.g. after a failure.
    pub(crate) fn clear(&mut self) {
        for bucket in &mut self.buckets {
            while let Some(p) = bucket.pop() {
                self.queued[p as usize] = false;
                self.advice[p as usize] = 0;
            }
        }
        self.len = 0;
        self.running = NOBODY;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cheap_first_never_twice_and_events_filter() {
        let mut q = Queue::new();
        q.add_var();
        let slow = q.add_propagator(Priority::Expensive, Priority::Expensive);
        let fixed_only = q.add_propagator(Priority::Unary, Priority::Unary);
        let bounds = q.add_propagator(Priority::Linear, Priority::Linear);
        q.subscribe(0, slow, Event::Domain, 0);
        q.subscribe(0, fixed_only, Event::Fixed, 0b10);
        q.subscribe(0, bounds, Event::Bounds, 0);
        assert_eq!(q.degree(0), 3);
        q.notify(0, Event::Domain);
        q.notify(0, Event::Domain);
        assert_eq!(q.pop().map(|(p, _, _)| p), Some(slow));
        q.done_running();
        assert_eq!(q.pop(), None);
        q.notify(0, Event::Fixed);
        q.notify(0, Event::Bounds);
        assert_eq!(q.pop(), Some((fixed_only, 0b10, Priority::Unary)));
        // The running propagator is not woken by its own change.
        q.notify(0, Event::Fixed);
        q.done_running();
        assert_eq!(q.pop().map(|(p, _, _)| p), Some(bounds));
        q.done_running();
        assert_eq!(q.pop().map(|(p, _, _)| p), Some(slow));
        q.done_running();
        assert_eq!(q.pop(), None);
        q.notify(0, Event::Fixed);
        q.clear();
        assert_eq!(q.pop(), None);
        // Advice: tokens only from events that wake, all ones when scheduled, none after clear.
        q.notify(0, Event::Bounds);
        q.schedule(slow);
        assert_eq!(q.pop(), Some((bounds, 0, Priority::Linear)));
        q.done_running();
        assert_eq!(q.pop(), Some((slow, u64::MAX, Priority::Expensive)));
        q.done_running();
        q.notify(0, Event::Fixed);
        q.clear();
        q.notify(0, Event::Domain);
        assert_eq!(q.pop(), Some((slow, 0, Priority::Expensive)));
        q.done_running();
        // A propagator can be scheduled in another bucket than its own.
        q.schedule_at(slow, Priority::Unary);
        assert_eq!(q.pop(), Some((slow, u64::MAX, Priority::Unary)));
    }

    #[test]
    fn a_parked_propagator_wakes_for_nothing_until_unparked() {
        let mut q = Queue::new();
        q.add_var();
        let (parked, other) = (
            q.add_propagator(Priority::Binary, Priority::Binary),
            q.add_propagator(Priority::Linear, Priority::Linear),
        );
        q.subscribe(0, parked, Event::Domain, 0b1);
        q.subscribe(0, other, Event::Domain, 0b10);
        q.park(parked);
        assert!(q.is_waiting(parked));
        q.notify(0, Event::Fixed);
        assert_eq!(q.pop(), Some((other, 0b10, Priority::Linear)));
        q.done_running();
        assert_eq!(q.pop(), None);
        // Emptying the queue leaves it parked; unparking forgets the advice it was sent.
        q.notify(0, Event::Domain);
        q.clear();
        q.notify(0, Event::Bounds);
        q.unpark(parked);
        q.clear();
        assert!(!q.is_waiting(parked));
        q.notify(0, Event::Domain);
        assert_eq!(q.pop(), Some((parked, 0b1, Priority::Binary)));
        q.done_running();
        assert_eq!(q.pop(), Some((other, 0b10, Priority::Linear)));
    }

    #[test]
    fn staged_propagators_and_growing_rings() {
        let mut q = Queue::new();
        q.add_var();
        let staged = q.add_propagator(Priority::Expensive, Priority::Linear);
        q.subscribe(0, staged, Event::Domain, 0);
        // A Fixed event wakes it into its cheap stage, any other change into its own bucket,
        // and so does scheduling without an event.
        q.notify(0, Event::Fixed);
        assert_eq!(q.pop(), Some((staged, 0, Priority::Linear)));
        q.done_running();
        q.notify(0, Event::Domain);
        assert_eq!(q.pop(), Some((staged, 0, Priority::Expensive)));
        q.done_running();
        q.schedule(staged);
        // Rings grow with the propagators, keeping those that wait, in order.
        let more: Vec<u32> = (0..9)
            .map(|_| q.add_propagator(Priority::Linear, Priority::Linear))
            .collect();
        for &p in &more {
            q.schedule(p);
        }
        q.add_propagator(Priority::Linear, Priority::Linear);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop().map(|(p, _, _)| p)).collect();
        assert_eq!(order[0], staged);
        assert_eq!(&order[1..], &more[..]);
    }

    #[test]
    fn a_sole_subscriber_is_told_only_while_it_runs() {
        let mut q = Queue::new();
        q.add_var();
        q.add_var();
        let (a, b) = (
            q.add_propagator(Priority::Linear, Priority::Linear),
            q.add_propagator(Priority::Linear, Priority::Linear),
        );
        // Variable 0: `a` alone; variable 1: `a`, then `b` as well.
        q.subscribe(0, a, Event::Domain, 0b1);
        q.subscribe(1, a, Event::Domain, 0b10);
        // Outside any run (a decision) nobody is the running subscriber.
        assert!(!q.is_sole_subscriber(0));
        q.notify(0, Event::Domain);
        assert_eq!(q.pop(), Some((a, 0b1, Priority::Linear)));
        // While `a` runs it is variable 0's sole subscriber, and variable 1's until `b` comes.
        assert!(q.is_sole_subscriber(0));
        assert!(q.is_sole_subscriber(1));
        q.done_running();
        q.subscribe(1, b, Event::Domain, 0);
        q.schedule(a);
        assert_eq!(q.pop().map(|(p, _, _)| p), Some(a));
        assert!(q.is_sole_subscriber(0));
        assert!(!q.is_sole_subscriber(1));
        q.done_running();
        // Outside any run, with two subscribers, both wake.
        assert!(!q.is_sole_subscriber(1));
        q.notify(1, Event::Domain);
        assert_eq!(q.pop().map(|(p, _, _)| p), Some(a));
        q.done_running();
        assert_eq!(q.pop().map(|(p, _, _)| p), Some(b));
        q.done_running();
        // A watch makes every change look at the subscriptions again.
        q.watch(0, b, 3, 0b100);
        q.schedule(a);
        assert_eq!(q.pop().map(|(p, _, _)| p), Some(a));
        assert!(!q.is_sole_subscriber(0));
        assert!(q.notify(0, Event::Domain));
        q.wake_watches(0, Event::Domain, |_| false);
        q.done_running();
        assert_eq!(q.pop(), Some((b, 0b100, Priority::Linear)));
        q.done_running();
        // Unsubscribing `b` from variable 1 leaves `a` alone there again.
        q.unsubscribe(1, b);
        q.schedule(a);
        assert_eq!(q.pop().map(|(p, _, _)| p), Some(a));
        assert!(q.is_sole_subscriber(1));
        // `b` runs: it subscribes to neither variable now (its watch of 0 is not a sole one).
        q.done_running();
        q.schedule(b);
        assert_eq!(q.pop().map(|(p, _, _)| p), Some(b));
        assert!(!q.is_sole_subscriber(0));
        assert!(!q.is_sole_subscriber(1));
    }
}
