//! The propagation engine: domains, the propagation queue and the propagators, run to a fixpoint.
//!
//! A [`Model`](crate::Model) is what a user states (variables, names, constraints); the
//! [`Engine`] inside it is what runs. It owns the store of domains and its trail, the queue that
//! wakes propagators by [`Event`](crate::Event) and [`Priority`](crate::Priority), the posted
//! propagators, and how often each one failed (the weights of dom/wdeg). Search talks to it
//! through a small API and never touches its parts:
//!
//! * [`propagate`](Engine::propagate) runs queued propagators to a fixpoint or a conflict;
//! * [`mark`](Engine::mark) and [`restore`](Engine::restore) take and return to trail marks;
//! * [`decide`](Engine::decide) applies a branching decision and wakes the propagators on it;
//! * reads ([`min`](Engine::min), [`size`](Engine::size), ...) and the heuristics' figures
//!   ([`degree`](Engine::degree), [`weighted_degree`](Engine::weighted_degree)).
//!
//! The engine is crate-private: variables are named by their index here (a `u32`, as the store
//! keeps them), and checking that a [`VarId`](crate::VarId) belongs to the model is the model's
//! and the solver's business. Every read is `#[inline]`: search calls them at every node.

use crate::domain::DomainSpec;
use crate::event::Event;
use crate::propagator::{Assignment, Context, PropStatus, Propagator, Setup};
use crate::queue::{Priority, Queue};
use crate::search::Decision;
use crate::store::{Conflict, Store};
use crate::trail::Mark;
use crate::var::IntView;

/// Adds `times` failures of a propagator listening as `listens` says (variable, entries) to
/// the per-variable `counts`, grown on demand.
fn add_failures(counts: &mut Vec<u64>, listens: &[(u32, u32)], times: u64) {
    for &(x, entries) in listens {
        let x = x as usize;
        if counts.len() <= x {
            counts.resize(x + 1, 0);
        }
        counts[x] += times * u64::from(entries);
    }
}

/// What sees each propagator run of [`Engine::propagate_recording`]: the learning log, which
/// turns the changes of each run into predicates with that propagator as their reason.
pub(crate) trait Record {
    /// Called before propagator runs, with the store it is about to change.
    fn before_run(&mut self, store: &mut Store);
    /// Called after propagator `p` (of `props`) ran: `ok` is false when it failed.
    fn after_run(&mut self, p: u32, props: &[Box<dyn Propagator>], store: &Store, ok: bool);
}

/// The recorder of a search that does not learn: it records nothing and costs nothing.
pub(crate) struct NoRecord;

impl Record for NoRecord {
    #[inline(always)]
    fn before_run(&mut self, _: &mut Store) {}
    #[inline(always)]
    fn after_run(&mut self, _: u32, _: &[Box<dyn Propagator>], _: &Store, _: bool) {}
}

/// Domains, queue and propagators; see the [module docs](self).
pub(crate) struct Engine {
    store: Store,
    queue: Queue,
    props: Vec<Box<dyn Propagator>>,
    /// How often each propagator failed, over the engine's life: the weights of dom/wdeg.
    failures: Vec<u64>,
    /// How often each variable was named by a failed propagator's
    /// [`blame`](Propagator::blame) (indexed by variable; grown on demand): weights of
    /// dom/wdeg charged to part of a propagator.
    blamed: Vec<u64>,
    /// Whether a search reads the weights: only then are `weights` kept (a failure adds to
    /// them by a walk over the propagator's variables, 4.5 % of the instructions of a
    /// first-fail queens count that never reads them).
    weighing: bool,
    /// While `weighing`, per variable, its dom/wdeg weight before the floor of 1: its degree,
    /// what `blame` charged it, and the failures (without blame) of the propagators listening
    /// to it, once per entry of each in its subscriptions. Kept as failures happen, so that a
    /// choice reads one number per variable rather than walks the subscriptions; counted
    /// again where a degree changes and when weighing is turned on.
    weights: Vec<u64>,
    /// Per propagator, the variables it listens to and its entries in each one's
    /// subscriptions: what one failure of it adds to.
    listens: Vec<Vec<(u32, u32)>>,
}

/// What a propagator's [`setup`](Propagator::setup) asked for: its subscriptions (view, event,
/// advice token) and the bucket its `Fixed` events wake it into, if not that of its priority.
pub(crate) struct Subscriptions {
    pub(crate) views: Vec<(IntView, Event, u64)>,
    pub(crate) watches: Vec<(IntView, i64, u64)>,
    pub(crate) fixed_priority: Option<Priority>,
}

impl Engine {
    /// An engine without variables or propagators.
    pub(crate) fn new() -> Engine {
        Engine {
            store: Store::new(),
            queue: Queue::new(),
            props: Vec::new(),
            failures: Vec::new(),
            blamed: Vec::new(),
            weighing: false,
            weights: Vec::new(),
            listens: Vec::new(),
        }
    }

    // ----- building -----

    /// A new variable with the domain `spec`; returns its index.
    pub(crate) fn add_var(&mut self, spec: &DomainSpec) -> u32 {
        let index = self.store.add_var(spec);
        self.queue.add_var();
        if self.weighing {
            // No propagator listens to it yet, and it never failed.
            self.weights.push(0);
        }
        index
    }

    /// Runs a propagator's [`setup`](Propagator::setup) (which may allocate trailed state) and
    /// returns what it subscribed to, for the model to check before
    /// [`add_propagator`](Engine::add_propagator).
    pub(crate) fn setup(&mut self, propagator: &mut dyn Propagator) -> Subscriptions {
        let mut setup = Setup {
            store: &mut self.store,
            subscriptions: Vec::new(),
            watches: Vec::new(),
            fixed_priority: None,
        };
        propagator.setup(&mut setup);
        Subscriptions {
            views: setup.subscriptions,
            watches: setup.watches,
            fixed_priority: setup.fixed_priority,
        }
    }

    /// Adds a propagator that [`setup`](Engine::setup) prepared, with its subscriptions.
    pub(crate) fn add_propagator(
        &mut self,
        propagator: Box<dyn Propagator>,
        subscriptions: Subscriptions,
    ) {
        let priority = propagator.priority();
        let fixed_priority = subscriptions.fixed_priority.unwrap_or(priority);
        let id = self.store.add_propagator();
        let queue_id = self.queue.add_propagator(priority, fixed_priority);
        debug_assert_eq!(id, queue_id);
        let mut vars: Vec<u32> = (subscriptions.views.iter().map(|v| v.0.var.index))
            .chain(subscriptions.watches.iter().map(|w| w.0.var.index))
            .collect();
        vars.sort_unstable();
        vars.dedup();
        for (view, event, token) in subscriptions.views {
            self.queue.subscribe(view.var.index, id, event, token);
        }
        for (view, value, token) in subscriptions.watches {
            match i32::try_from(view.to_var(value)) {
                Ok(value) => self.queue.watch(view.var.index, id, value, token),
                // A value the variable can never take: every change may matter.
                Err(_) => self
                    .queue
                    .subscribe(view.var.index, id, Event::Domain, token),
            }
        }
        let listens = vars
            .into_iter()
            .map(|x| (x, self.queue.entries_of(x, id) as u32))
            .filter(|&(_, n)| n > 0)
            .collect();
        self.props.push(propagator);
        self.failures.push(0);
        self.listens.push(listens);
        self.recount_weights();
    }

    /// Retires propagator `p`, which subscribed to (some of) `vars`: another one posted in its
    /// place does its work. It never runs again and wakes for nothing, but it still checks
    /// assignments ([`violated`](Engine::violated)) and counts in the degrees of its variables.
    pub(crate) fn retire(&mut self, p: usize, vars: &[u32]) {
        let placeholder: Box<dyn Propagator> = Box::new(Retired(None));
        let inner = std::mem::replace(&mut self.props[p], placeholder);
        self.props[p] = Box::new(Retired(Some(inner)));
        self.store.retire(p as u32);
        if !self.queue.is_waiting(p as u32) {
            self.queue.park(p as u32);
        }
        // Its entries become ghosts, which weigh 1 whatever it failed before.
        self.listens[p].clear();
        for &x in vars {
            self.queue.unsubscribe(x, p as u32);
        }
        self.recount_weights();
    }

    /// Forgets one retired propagator's subscription to `x` in its degree: see
    /// [`Queue::forget_ghost`].
    pub(crate) fn forget_ghost(&mut self, x: u32) {
        self.queue.forget_ghost(x);
        self.recount_weights();
    }

    /// Counts `weights` again from their parts, if kept.
    fn recount_weights(&mut self) {
        if !self.weighing {
            return;
        }
        let vars = self.queue.num_vars();
        self.weights.clear();
        self.weights.extend((0..vars).map(|x| {
            (self.queue.degree(x as u32) as u64)
                .saturating_add(self.blamed.get(x).copied().unwrap_or(0))
        }));
        for (listens, &failed) in self.listens.iter().zip(&self.failures) {
            if failed > 0 {
                add_failures(&mut self.weights, listens, failed);
            }
        }
    }

    /// Number of posted propagators.
    pub(crate) fn num_propagators(&self) -> usize {
        self.props.len()
    }

    // ----- propagation -----

    /// Queues every active propagator, for a propagation from scratch.
    pub(crate) fn schedule_all(&mut self) {
        for p in 0..self.props.len() as u32 {
            if self.store.is_active(p) {
                self.queue.schedule(p);
            }
        }
    }

    /// Runs queued propagators until none is left (a fixpoint) or one fails, counting runs in
    /// `propagations`. A failure empties the queue and adds to the failed propagator's weight.
    pub(crate) fn propagate(&mut self, propagations: &mut u64) -> Result<(), Conflict> {
        self.propagate_recording(propagations, &mut NoRecord)
    }

    /// [`propagate`](Engine::propagate), telling `recorder` of every propagator run: what a
    /// search that learns sees of propagation. With [`NoRecord`] it is `propagate` itself.
    #[inline(always)]
    pub(crate) fn propagate_recording<R: Record>(
        &mut self,
        propagations: &mut u64,
        recorder: &mut R,
    ) -> Result<(), Conflict> {
        while let Some((p, advice, stage)) = self.queue.pop() {
            if !self.store.is_active(p) {
                self.queue.done_running();
                continue;
            }
            *propagations += 1;
            recorder.before_run(&mut self.store);
            let mut ctx = Context {
                store: &mut self.store,
                queue: &mut self.queue,
                advice,
                stage,
                requeue: None,
            };
            let result = self.props[p as usize].propagate(&mut ctx);
            let requeue = ctx.requeue;
            self.queue.done_running();
            recorder.after_run(p, &self.props, &self.store, result.is_ok());
            match result {
                Ok(PropStatus::Fixpoint) => {
                    if let Some(priority) = requeue {
                        self.queue.schedule_at(p, priority);
                    }
                }
                Ok(PropStatus::NoFixpoint) => self.queue.schedule(p),
                Ok(PropStatus::Subsumed) => {
                    self.store.deactivate(p);
                    self.queue.park(p);
                }
                Err(conflict) => {
                    self.queue.clear();
                    let (blamed, weights) = (&mut self.blamed, &mut self.weights);
                    let weighing = self.weighing;
                    let charged = self.props[p as usize].blame(&mut |x| {
                        let x = x.index as usize;
                        if blamed.len() <= x {
                            blamed.resize(x + 1, 0);
                        }
                        blamed[x] += 1;
                        if weighing {
                            weights[x] = weights[x].saturating_add(1);
                        }
                    });
                    if !charged {
                        self.failures[p as usize] += 1;
                    }
                    if !charged && self.weighing {
                        add_failures(&mut self.weights, &self.listens[p as usize], 1);
                    }
                    return Err(conflict);
                }
            }
        }
        Ok(())
    }

    /// Applies a branching decision and queues the propagators it wakes; run
    /// [`propagate`](Engine::propagate) next. A decision that empties its variable's domain
    /// fails at once and leaves the queue empty.
    #[inline]
    pub(crate) fn decide(&mut self, decision: Decision) -> Result<(), Conflict> {
        let x = decision.var().index;
        match self.apply(decision) {
            Ok(Some(event)) => {
                crate::propagator::notify(&mut self.queue, &self.store, x, event);
                Ok(())
            }
            Ok(None) => Ok(()),
            Err(conflict) => {
                self.queue.clear();
                Err(conflict)
            }
        }
    }

    /// [`decide`](Engine::decide) where every active propagator is queued already with all
    /// ones for advice ([`schedule_all`](Engine::schedule_all), as at the root of a run before
    /// its prefix): what the decision would wake is waiting anyway, so only the store
    /// changes (17 givens a Sudoku: 1 % of a 17-clue puzzle's instructions).
    #[inline]
    pub(crate) fn decide_scheduled(&mut self, decision: Decision) -> Result<(), Conflict> {
        match self.apply(decision) {
            Ok(_) => Ok(()),
            Err(conflict) => {
                self.queue.clear();
                Err(conflict)
            }
        }
    }

    /// A decision's change to the store.
    #[inline(always)]
    fn apply(&mut self, decision: Decision) -> crate::store::Change {
        let x = decision.var().index;
        match decision {
            Decision::Assign(_, v) => self.store.assign(x, v.into()),
            Decision::Exclude(_, v) => self.store.remove(x, v.into()),
            Decision::AtMost(_, v) => self.store.set_max(x, v.into()),
            Decision::Above(_, v) => self.store.set_min(x, i64::from(v) + 1),
        }
    }

    // ----- learning -----

    /// The store, for the learning log, which reads domains and what a batch of writes
    /// changed.
    #[inline]
    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// Propagator `p`, for tests that check its explanations.
    #[cfg(test)]
    pub(crate) fn propagator(&self, p: u32) -> &dyn Propagator {
        &*self.props[p as usize]
    }

    /// Empties the queue, after a failure found outside the propagators (by a learned
    /// nogood), so that search may backtrack.
    pub(crate) fn clear_queue(&mut self) {
        self.queue.clear();
    }

    // ----- backtracking -----

    /// A mark of the current state, to [`restore`](Engine::restore) to.
    #[inline]
    pub(crate) fn mark(&mut self) -> Mark {
        self.store.mark()
    }

    /// Undoes every change made since `mark`. The queue is not touched: it is empty whenever
    /// search backtracks (after a fixpoint, or after a failure emptied it).
    #[inline]
    pub(crate) fn restore(&mut self, mark: Mark) {
        let queue = &mut self.queue;
        self.store.restore(mark, |p| queue.unpark(p));
    }

    /// Back to the state as posted: every change undone, nothing queued.
    pub(crate) fn reset(&mut self) {
        self.queue.clear();
        let queue = &mut self.queue;
        self.store.restore(Mark::default(), |p| queue.unpark(p));
    }

    // ----- reads -----

    /// The smallest value of `x`.
    #[inline]
    pub(crate) fn min(&self, x: u32) -> i32 {
        self.store.min(x)
    }

    /// The smallest values of the first `n` variables, in one pass over the store.
    #[inline]
    pub(crate) fn mins(&self, n: usize) -> Vec<i32> {
        self.store.mins(n)
    }

    /// The largest value of `x`.
    #[inline]
    pub(crate) fn max(&self, x: u32) -> i32 {
        self.store.max(x)
    }

    /// The number of values of `x`.
    #[inline]
    pub(crate) fn size(&self, x: u32) -> u32 {
        self.store.size(x)
    }

    /// Whether `x` has one value left.
    #[inline]
    pub(crate) fn is_fixed(&self, x: u32) -> bool {
        self.store.size(x) == 1
    }

    /// Whether `v` is in the domain of `x`.
    #[inline]
    pub(crate) fn contains(&self, x: u32, v: i32) -> bool {
        self.store.contains(x, v.into())
    }

    /// The values of `x`, in increasing order.
    pub(crate) fn values(&self, x: u32) -> impl Iterator<Item = i32> + '_ {
        self.store.values(x)
    }

    /// Whether `v` is in the domain `x` was created with.
    pub(crate) fn declared_contains(&self, x: u32, v: i64) -> bool {
        self.store.declared_contains(x, v)
    }

    /// The smallest and largest values `x` was created with.
    pub(crate) fn declared_bounds(&self, x: u32) -> (i32, i32) {
        (self.store.base(x), self.store.initial_max(x))
    }

    /// Number of propagators that listen to `x`.
    pub(crate) fn degree(&self, x: u32) -> usize {
        self.queue.degree(x)
    }

    /// The weighted degree of `x` for dom/wdeg: each propagator listening to it weighs 1 plus
    /// the number of times it failed; at least 1, so that a variable no propagator listens to
    /// still has a ratio. A retired propagator (see [`retire`](Engine::retire)) weighs 1.
    /// Read from the kept `weights` while a search reads them, else counted.
    #[inline]
    pub(crate) fn weighted_degree(&self, x: u32) -> u64 {
        if self.weighing {
            self.weights[x as usize].max(1)
        } else {
            self.weighted_degree_by_definition(x)
        }
    }

    /// [`weighted_degree`](Engine::weighted_degree) by its definition, walking the
    /// subscriptions: what the kept counts must always equal.
    pub(crate) fn weighted_degree_by_definition(&self, x: u32) -> u64 {
        let charged: u64 = self
            .queue
            .subscribers(x)
            .map(|p| 1 + self.failures[p as usize])
            .sum();
        charged
            .saturating_add(self.queue.ghosts(x) as u64)
            .saturating_add(self.blamed.get(x as usize).copied().unwrap_or(0))
            .max(1)
    }

    /// Whether the coming search reads the weights of dom/wdeg: while it does, failures keep
    /// each variable's weight up to date; turned on, the weights are counted from the
    /// failures so far.
    pub(crate) fn set_weighing(&mut self, on: bool) {
        let turned_on = on && !self.weighing;
        self.weighing = on;
        if turned_on {
            self.recount_weights();
        }
    }

    /// Every failure count (the weights of dom/wdeg) back to zero.
    pub(crate) fn forget_weights(&mut self) {
        self.failures.fill(0);
        self.blamed.clear();
        self.recount_weights();
    }

    // ----- checking -----

    /// The index and name of the first propagator whose constraint `values` (one per variable)
    /// breaks, if any.
    pub(crate) fn violated(&self, values: &[i32]) -> Option<(usize, &'static str)> {
        let assignment = Assignment::new(values);
        self.props
            .iter()
            .position(|p| !p.is_satisfied(&assignment))
            .map(|i| (i, self.props[i].name()))
    }

    /// Whether some propagator failed at least once (its dom/wdeg weight grew).
    #[cfg(test)]
    pub(crate) fn has_failed(&self) -> bool {
        self.failures.iter().chain(&self.blamed).any(|&f| f > 0)
    }

    /// The restorable state, for tests that check backtracking.
    #[cfg(test)]
    pub(crate) fn state(&self) -> crate::store::StoreState {
        self.store.state()
    }
}

/// A propagator retired in favour of another that does its work (see [`Engine::retire`]): it
/// prunes nothing, and checks assignments as the one it wraps did.
struct Retired(Option<Box<dyn Propagator>>);

impl Propagator for Retired {
    fn setup(&mut self, _: &mut Setup<'_>) {}

    fn propagate(&mut self, _: &mut Context<'_>) -> crate::propagator::PropResult {
        Ok(PropStatus::Subsumed)
    }

    fn is_satisfied(&self, assignment: &Assignment<'_>) -> bool {
        self.0.as_ref().is_none_or(|p| p.is_satisfied(assignment))
    }

    fn name(&self) -> &'static str {
        self.0.as_ref().map_or("retired", |p| p.name())
    }
}
