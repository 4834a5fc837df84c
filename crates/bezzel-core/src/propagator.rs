//! The [`Propagator`] trait: how a constraint prunes domains.
//!
//! A propagator is set up once when it is posted ([`Propagator::setup`]: subscribe to events on
//! views, allocate trailed integers), then run by the queue whenever a subscribed event happens.
//! It reads and narrows domains through a [`Context`], which records every change on the trail
//! and wakes the other propagators concerned. It answers with a [`PropStatus`], or with
//! `Err(Conflict)` when it finds the constraint cannot be satisfied any more.
//!
//! # How to add a propagator
//!
//! 1. Write a struct holding the views it constrains (and any [`TrailedInt`] handles).
//! 2. In `setup`, subscribe to the weakest [`Event`] that can let it prune: `Fixed` for
//!    checks on assigned values, `Bounds` for bounds reasoning, `Domain` for anything else.
//! 3. In `propagate`, read domains (`ctx.min`, `ctx.max`, `ctx.contains`, ...) and narrow them
//!    (`ctx.remove`, `ctx.set_min`, ...) with `?`, so that an emptied domain fails at once.
//! 4. Return `Subsumed` once the constraint holds whatever happens next, `Fixpoint` if running
//!    again now would change nothing, and `NoFixpoint` otherwise (the queue will run it again).
//! 5. In `is_satisfied`, state the constraint plainly on a full [`Assignment`]: the solver
//!    checks every solution with it (in debug builds, and whenever
//!    [`SearchConfig::check_solutions`](crate::SearchConfig::check_solutions) is set), so it
//!    must not reuse the pruning code it is meant to check.
//! 6. Pick a [`Priority`] if it is not linear-time, and post it with
//!    [`Model::post`](crate::Model::post).
//!
//! ```
//! use bezzel_core::prelude::*;
//!
//! /// `x` is even: a check that prunes odd bounds.
//! #[derive(Debug)]
//! struct Even(IntView);
//!
//! impl Propagator for Even {
//!     fn setup(&mut self, s: &mut Setup<'_>) {
//!         s.subscribe(self.0, Event::Bounds);
//!     }
//!     fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
//!         let x = self.0;
//!         while ctx.min(x) % 2 != 0 {
//!             let m = ctx.min(x);
//!             ctx.set_min(x, m + 1)?;
//!         }
//!         while ctx.max(x) % 2 != 0 {
//!             let m = ctx.max(x);
//!             ctx.set_max(x, m - 1)?;
//!         }
//!         Ok(if ctx.is_fixed(x) { PropStatus::Subsumed } else { PropStatus::Fixpoint })
//!     }
//!     fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
//!         a.value(self.0) % 2 == 0
//!     }
//! }
//!
//! let mut m = Model::new();
//! let x = m.int_var(1..=7)?;
//! m.post(Even(x.into()))?;
//! assert_eq!(Solver::new(m).count(), 3); // 2, 4, 6
//! # Ok::<(), ModelError>(())
//! ```
//!
//! # Fast propagators
//!
//! The built-in propagators use nothing that a propagator written outside the crate cannot:
//! [`Context`] lists the powers they are built from (advice on which views changed, one-word
//! domain masks and [`WordView`]s, staged runs), each documented with an example.
//! `tests/propagators/public_propagator.rs` rebuilds the value-level all-different from them
//! and matches the built-in one node for node.

use crate::event::Event;
use crate::queue::{Priority, Queue};
use crate::store::{Conflict, Store, TrailedInt};
use crate::var::{IntView, VarId};
use smallvec::SmallVec;

/// What a propagator reports after running.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PropStatus {
    /// It ran to its own fixpoint: running it again now would prune nothing.
    Fixpoint,
    /// It pruned but may prune more if run again; the queue schedules it once more.
    NoFixpoint,
    /// The constraint holds in every remaining assignment; it is switched off until
    /// backtracking goes above this point.
    Subsumed,
}

impl PropStatus {
    /// [`Subsumed`](Self::Subsumed) when `entailed` (the constraint holds in every
    /// remaining assignment: its variables are fixed, say), [`Fixpoint`](Self::Fixpoint)
    /// otherwise: the usual last word of a propagator that runs to its own fixpoint.
    #[inline]
    pub fn subsumed_if(entailed: bool) -> PropStatus {
        if entailed {
            PropStatus::Subsumed
        } else {
            PropStatus::Fixpoint
        }
    }
}

/// The result of a propagation: a status, or `Err(Conflict)` when the constraint failed.
pub type PropResult = Result<PropStatus, Conflict>;

/// A constraint's filtering algorithm. See the [module docs](self) for a walkthrough.
pub trait Propagator: Send {
    /// Subscribes to events and allocates trailed state; called once, when posted.
    fn setup(&mut self, s: &mut Setup<'_>);

    /// Narrows domains; see [`PropStatus`] for what to return.
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult;

    /// Whether the constraint holds in a full assignment, decided from the definition of the
    /// constraint alone, without the propagation code. The solver runs it on every solution
    /// when [`SearchConfig::check_solutions`](crate::SearchConfig::check_solutions) is on, so
    /// a propagator that lets a wrong solution through is caught instead of believed.
    fn is_satisfied(&self, assignment: &Assignment<'_>) -> bool;

    /// How expensive a run is; cheaper propagators run first.
    fn priority(&self) -> Priority {
        Priority::Linear
    }

    /// A short name for diagnostics.
    fn name(&self) -> &'static str {
        "propagator"
    }

    /// For dom/wdeg ([`VarOrder::DomWDeg`](crate::VarOrder::DomWDeg)), after a run that
    /// failed: names, through `charge`, the variables of the part of the constraint that
    /// failed, and returns `true`; each of them then weighs one more. The default charges
    /// nothing and returns `false`: the failure weighs on the propagator as a whole, that is
    /// on every variable it listens to. A propagator that stands for several constraints (as
    /// a family of all-differents does) names the variables of the one that failed, so that
    /// the heuristic still learns which of them are hard.
    fn blame(&self, charge: &mut dyn FnMut(VarId)) -> bool {
        let _ = charge;
        false
    }

    /// What the constraint is, for a search that learns
    /// ([`SearchConfig::learning`](crate::SearchConfig::learning)): its propagations are then
    /// explained from this definition (the bounds or literals that forced each one). The
    /// default, `None`, still learns, from the decisions that led to each propagation.
    fn shape(&self) -> Option<crate::learn::Shape<'_>> {
        None
    }
}

/// One value for every variable of a model, read through views: what
/// [`Propagator::is_satisfied`] judges.
#[derive(Debug, Clone, Copy)]
pub struct Assignment<'a> {
    values: &'a [i32],
}

impl<'a> Assignment<'a> {
    /// The assignment giving variable `i` (by [`VarId::index`](crate::VarId::index)) the
    /// value `values[i]`.
    pub fn new(values: &'a [i32]) -> Assignment<'a> {
        Assignment { values }
    }

    /// The value of a view (or of a variable).
    ///
    /// # Panics
    /// If the view's variable is not covered by the assignment (it belongs to a larger model).
    #[inline]
    pub fn value(&self, v: impl Into<IntView>) -> i64 {
        let v = v.into();
        v.to_view(self.values[v.var.index()])
    }

    /// The values of the views, in order.
    pub fn values_of(&self, views: &[IntView]) -> Vec<i64> {
        views.iter().map(|&v| self.value(v)).collect()
    }
}

/// Handed to [`Propagator::setup`]: records subscriptions and allocates trailed integers.
#[derive(Debug)]
pub struct Setup<'a> {
    pub(crate) store: &'a mut Store,
    /// (view, event, token): see [`Setup::subscribe_advised`].
    pub(crate) subscriptions: Vec<(IntView, Event, u64)>,
    /// (view, value, token): see [`Setup::subscribe_watching`].
    pub(crate) watches: Vec<(IntView, i64, u64)>,
    /// The bucket that `Fixed` events wake the propagator into, when not that of its
    /// priority: see [`Setup::fixed_wakes_at`].
    pub(crate) fixed_priority: Option<Priority>,
}

/// Wakes what `event` on variable `x` concerns: its subscribers, and the watches of values
/// that `x` can no longer take or is now fixed to (see [`Setup::subscribe_watching`]). The
/// one place both propagators' changes and search decisions go through.
#[inline(always)]
pub(crate) fn notify(queue: &mut Queue, store: &Store, x: u32, event: Event) {
    if queue.notify(x, event) {
        let open = |v: i32| store.size(x) > 1 && store.contains(x, i64::from(v));
        queue.wake_watches(x, event, open);
    }
}

impl Setup<'_> {
    /// Runs the propagator whenever `view` undergoes a change at least as strong as `event`.
    pub fn subscribe(&mut self, view: impl Into<IntView>, event: Event) {
        self.subscriptions.push((view.into(), event, 0));
    }

    /// [`subscribe`](Setup::subscribe), with advice: when this subscription wakes the
    /// propagator, the bits of `token` are in [`Context::advice`] on its next run, so that it
    /// learns which of its views changed without looking at all of them. Subscriptions of one
    /// propagator to one variable merge, tokens included, at the weakest event asked for; a
    /// propagator that gives each view one bit should therefore not have two views of one
    /// variable (or use at most 64 views).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    ///
    /// /// Counts, in a trailed integer, how many of its (at most 64) views are fixed.
    /// #[derive(Debug)]
    /// struct CountFixed(Vec<IntView>, Option<TrailedInt>);
    ///
    /// impl Propagator for CountFixed {
    ///     fn setup(&mut self, s: &mut Setup<'_>) {
    ///         for (i, &v) in self.0.iter().enumerate() {
    ///             s.subscribe_advised(v, Event::Fixed, 1 << i);
    ///         }
    ///         self.1 = Some(s.trailed_int(0));
    ///     }
    ///     fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
    ///         let slot = self.1.expect("set up");
    ///         // All ones: a run without an event (the first), where anything may have changed.
    ///         let fixed = if ctx.advice() == u64::MAX {
    ///             self.0.iter().filter(|&&v| ctx.is_fixed(v)).count() as i64
    ///         } else {
    ///             ctx.int(slot) + i64::from(ctx.advice().count_ones())
    ///         };
    ///         ctx.set_int(slot, fixed);
    ///         Ok(PropStatus::Fixpoint)
    ///     }
    ///     fn is_satisfied(&self, _: &Assignment<'_>) -> bool {
    ///         true
    ///     }
    /// }
    ///
    /// let mut m = Model::new();
    /// let x = m.int_vars(3, 0..=1)?;
    /// m.post(CountFixed(x.iter().map(|&v| v.into()).collect(), None))?;
    /// assert_eq!(Solver::new(m).count(), 8);
    /// # Ok::<(), ModelError>(())
    /// ```
    #[inline]
    pub fn subscribe_advised(&mut self, view: impl Into<IntView>, event: Event, token: u64) {
        self.subscriptions.push((view.into(), event, token));
    }

    /// [`subscribe_advised`](Setup::subscribe_advised) at [`Event::Domain`], but woken only by
    /// the changes that take `value` from `view` or leave it nothing else: those that can
    /// change whether the view takes `value` for sure, may take it, or cannot (what a count of
    /// `value` looks at). A propagator that only counts one value then sleeps through the
    /// other changes of its views, as with Gecode's advisors. Each call is a subscription of
    /// its own (they do not merge), so views may share variables.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    ///
    /// static RUNS: AtomicUsize = AtomicUsize::new(0);
    ///
    /// /// Watches whether `x` can still take 5; does nothing else.
    /// #[derive(Debug)]
    /// struct WatchFive(IntView);
    ///
    /// impl Propagator for WatchFive {
    ///     fn setup(&mut self, s: &mut Setup<'_>) {
    ///         s.subscribe_watching(self.0, 5, 1);
    ///     }
    ///     fn propagate(&mut self, _: &mut Context<'_>) -> PropResult {
    ///         RUNS.fetch_add(1, Ordering::Relaxed);
    ///         Ok(PropStatus::Fixpoint)
    ///     }
    ///     fn is_satisfied(&self, _: &Assignment<'_>) -> bool {
    ///         true
    ///     }
    /// }
    ///
    /// let mut m = Model::new();
    /// let (x, seven) = (m.int_var(0..=9)?, m.int_var(0..=7)?);
    /// m.post(WatchFive(x.into()))?;
    /// // x <= 7 keeps 5 and other values: only the first run.
    /// m.less_eq(x, seven)?;
    /// m.propagate().unwrap();
    /// assert_eq!(RUNS.load(Ordering::Relaxed), 1);
    /// // x <= 4 takes 5 away: a second run.
    /// let four = m.int_var(0..=4)?;
    /// m.less_eq(x, four)?;
    /// m.propagate().unwrap();
    /// assert_eq!(RUNS.load(Ordering::Relaxed), 2);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn subscribe_watching(&mut self, view: impl Into<IntView>, value: i64, token: u64) {
        self.watches.push((view.into(), value, token));
    }

    /// Makes the propagator staged: `Fixed` events wake it into the bucket of `priority`, a
    /// cheaper one than its own [`Propagator::priority`], for a cheap first stage of its work.
    /// It learns which stage it is in from [`Context::stage`], and after the cheap stage it
    /// can [`requeue`](Context::requeue) itself in its own bucket for the expensive rest, which
    /// then runs after every cheaper propagator, so that several wake-ups share one expensive
    /// run. Other events, and the first run, wake it as usual (the first run, and a rerun
    /// after [`PropStatus::NoFixpoint`], start in the cheap stage).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    ///
    /// /// A pairwise `!=` on fixed views first, and an expensive full check afterwards.
    /// #[derive(Debug)]
    /// struct Staged(Vec<IntView>);
    ///
    /// impl Propagator for Staged {
    ///     fn setup(&mut self, s: &mut Setup<'_>) {
    ///         for &v in &self.0 {
    ///             s.subscribe(v, Event::Domain);
    ///         }
    ///         s.fixed_wakes_at(Priority::Linear);
    ///     }
    ///     fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
    ///         if ctx.stage() < Priority::Expensive {
    ///             // ... the cheap stage ...
    ///             ctx.requeue(Priority::Expensive);
    ///             return Ok(PropStatus::Fixpoint);
    ///         }
    ///         // ... the expensive stage ...
    ///         Ok(PropStatus::Fixpoint)
    ///     }
    ///     fn priority(&self) -> Priority {
    ///         Priority::Expensive
    ///     }
    ///     fn is_satisfied(&self, _: &Assignment<'_>) -> bool {
    ///         true
    ///     }
    /// }
    ///
    /// let mut m = Model::new();
    /// let x = m.int_vars(2, 0..=2)?;
    /// m.post(Staged(x.iter().map(|&v| v.into()).collect()))?;
    /// assert_eq!(Solver::new(m).count(), 9);
    /// # Ok::<(), ModelError>(())
    /// ```
    #[inline]
    pub fn fixed_wakes_at(&mut self, priority: Priority) {
        self.fixed_priority = Some(priority);
    }

    /// Allocates an integer that backtracking restores, starting at `initial`.
    pub fn trailed_int(&mut self, initial: i64) -> TrailedInt {
        self.store.new_int(initial)
    }

    /// The smallest value the view can ever take: that of its variable's domain as declared.
    /// The current bounds may be narrower (after a
    /// [`Model::propagate`](crate::Model::propagate), which search undoes), so this is the
    /// bound to size a propagator's tables by.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    ///
    /// #[derive(Debug)]
    /// struct Spy(IntView);
    ///
    /// impl Propagator for Spy {
    ///     fn setup(&mut self, s: &mut Setup<'_>) {
    ///         // -x, for x declared over 2..=9.
    ///         assert_eq!((s.declared_min(self.0), s.declared_max(self.0)), (-9, -2));
    ///     }
    ///     fn propagate(&mut self, _: &mut Context<'_>) -> PropResult {
    ///         Ok(PropStatus::Subsumed)
    ///     }
    ///     fn is_satisfied(&self, _: &Assignment<'_>) -> bool {
    ///         true
    ///     }
    /// }
    ///
    /// let mut m = Model::new();
    /// let x = m.int_var(2..=9)?;
    /// m.post(Spy(x.minus()))?;
    /// # Ok::<(), ModelError>(())
    /// ```
    #[inline]
    pub fn declared_min(&self, v: impl Into<IntView>) -> i64 {
        let v = v.into();
        let x = v.var.index;
        if v.negated {
            v.to_view(self.store.initial_max(x))
        } else {
            v.to_view(self.store.base(x))
        }
    }

    /// The largest value the view can ever take; see [`declared_min`](Setup::declared_min).
    #[inline]
    pub fn declared_max(&self, v: impl Into<IntView>) -> i64 {
        let v = v.into();
        let x = v.var.index;
        if v.negated {
            v.to_view(self.store.base(x))
        } else {
            v.to_view(self.store.initial_max(x))
        }
    }

    /// The view as a [`WordView`] over the window `base..base + 64`: `Some` when the view is
    /// `x + c` (neither negated nor scaled) and every value it was declared with lies in that
    /// window. A
    /// [`WordView`] reads and narrows the whole domain in one word, with the shift into the
    /// window worked out here once instead of on every access.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    ///
    /// /// `x` is even, pruned a word at a time over the window 0..64.
    /// #[derive(Debug)]
    /// struct EvenWord(IntView, Option<WordView>);
    ///
    /// impl Propagator for EvenWord {
    ///     fn setup(&mut self, s: &mut Setup<'_>) {
    ///         s.subscribe(self.0, Event::Domain);
    ///         self.1 = s.word_view(self.0, 0);
    ///     }
    ///     fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
    ///         let w = self.1.expect("declared within 0..64");
    ///         ctx.keep_word(w, 0x5555_5555_5555_5555)?; // bits 0, 2, 4, ...: the even values
    ///         Ok(PropStatus::Subsumed)
    ///     }
    ///     fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
    ///         a.value(self.0) % 2 == 0
    ///     }
    /// }
    ///
    /// let mut m = Model::new();
    /// let x = m.int_var(1..=7)?;
    /// m.post(EvenWord(x.offset(2), None))?; // x + 2 even
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(x)?, vec![2, 4, 6]);
    /// # Ok::<(), ModelError>(())
    /// ```
    #[inline]
    pub fn word_view(&self, v: impl Into<IntView>, base: i64) -> Option<WordView> {
        let v = v.into();
        let (lo, hi) = (self.declared_min(v), self.declared_max(v));
        if v.negated || !v.is_unit() || lo < base || hi - base >= 64 {
            return None;
        }
        Some(WordView {
            var: v.var.index,
            shift: (lo - base) as u32,
        })
    }
}

/// A view `x + c` whose declared values all lie in one window of 64 values, `base..base +
/// 64`, made by [`Setup::word_view`]: bit `i` of its masks is the value `base + i`.
/// [`Context::word`] reads its domain and [`Context::keep_word`] narrows it, each in a couple
/// of instructions, which is what word-level propagators (all-different on puzzles, whose
/// views have few values) run on.
///
/// It belongs to the model whose [`Setup`] made it; in another model it names another
/// variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WordView {
    var: u32,
    /// How far the variable's own word (bit 0: its declared minimum) moves up into the window.
    shift: u32,
}

/// A propagator's access to domains while it runs.
///
/// Reads and writes go through views, so values are view values (`x + c`, `-x`). Every write
/// that changes something is trailed and wakes the subscribers of the variable; a write that
/// would empty a domain returns `Err(Conflict)`.
///
/// Besides plain reads and writes, it offers what fast propagators are built from, the same
/// for a user's propagator as for the built-in ones (which use nothing else):
/// - advice: [`advice`](Context::advice) names the views that changed, for subscriptions made
///   with [`Setup::subscribe_advised`];
/// - one-word domains: [`bits64`](Context::bits64) and [`keep_bits64`](Context::keep_bits64)
///   read and narrow a domain as a 64-bit mask over any window, [`word`](Context::word) and
///   [`keep_word`](Context::keep_word) do it over the window fixed at setup by a
///   [`WordView`], and [`remove_event`](Context::remove_event) says what a removal did;
/// - stages: [`stage`](Context::stage) and [`requeue`](Context::requeue), for propagators set
///   up with [`Setup::fixed_wakes_at`].
#[derive(Debug)]
pub struct Context<'a> {
    pub(crate) store: &'a mut Store,
    pub(crate) queue: &'a mut Queue,
    /// The tokens of the advised subscriptions that fired since the propagator last ran; all
    /// ones when it was scheduled without an event (first run, rescheduling), meaning that
    /// anything may have changed.
    pub(crate) advice: u64,
    /// The priority of the bucket the propagator was taken from.
    pub(crate) stage: Priority,
    /// Set by [`Context::requeue`].
    pub(crate) requeue: Option<Priority>,
}

impl Context<'_> {
    /// Smallest value of the view.
    #[inline]
    pub fn min(&self, v: IntView) -> i64 {
        let x = v.var.index;
        if v.negated {
            v.to_view(self.store.max(x))
        } else {
            v.to_view(self.store.min(x))
        }
    }

    /// Largest value of the view.
    #[inline]
    pub fn max(&self, v: IntView) -> i64 {
        let x = v.var.index;
        if v.negated {
            v.to_view(self.store.min(x))
        } else {
            v.to_view(self.store.max(x))
        }
    }

    /// Number of values.
    #[inline]
    pub fn size(&self, v: IntView) -> u32 {
        self.store.size(v.var.index)
    }

    /// Whether exactly one value is left.
    #[inline]
    pub fn is_fixed(&self, v: IntView) -> bool {
        self.store.size(v.var.index) == 1
    }

    /// Whether `value` is still possible.
    #[inline]
    pub fn contains(&self, v: IntView, value: i64) -> bool {
        self.store.contains(v.var.index, v.to_var(value))
    }

    /// The values of the view, in increasing order.
    pub fn values(&self, v: IntView) -> SmallVec<[i64; 16]> {
        let mut out: SmallVec<[i64; 16]> = self
            .store
            .values(v.var.index)
            .map(|x| v.to_view(x))
            .collect();
        if v.negated {
            out.reverse();
        }
        out
    }

    /// The view's values in `base..base + 64` as a bitmask (bit `i`: value `base + i`), for
    /// word-level propagators; `None` when the variable's domain is wider than one word
    /// (declared over more than 64 values) or the view is scaled (`3·x`: its values are
    /// spread over more words than its variable's). Values outside the window are left out. A
    /// propagator that uses one window throughout does better with a [`WordView`].
    ///
    /// ```
    /// # use bezzel_core::prelude::*;
    /// # #[derive(Debug)]
    /// # struct P(IntView, Option<WordView>);
    /// # impl Propagator for P {
    /// #     fn setup(&mut self, s: &mut Setup<'_>) {}
    /// #     fn is_satisfied(&self, _: &Assignment<'_>) -> bool { true }
    /// #     fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
    /// #         let x = self.0;
    /// // With x in {3, 5, 6}:
    /// assert_eq!(ctx.bits64(x, 3), Some(0b1101));
    /// assert_eq!(ctx.bits64(x.offset(10), 13), Some(0b1101)); // x + 10 in {13, 15, 16}
    /// assert_eq!(ctx.bits64(x.minus(), -6), Some(0b1011)); // -x in {-6, -5, -3}
    /// assert_eq!(ctx.bits64(x, 5), Some(0b11)); // 3 is outside the window
    /// #         Ok(PropStatus::Subsumed)
    /// #     }
    /// # }
    /// # let mut m = Model::new();
    /// # let x = m.int_var([3, 5, 6])?; m.post(P(x.into(), None))?;
    /// # m.propagate().unwrap();
    /// # Ok::<(), ModelError>(())
    /// ```
    #[inline]
    pub fn bits64(&self, v: IntView, base: i64) -> Option<u64> {
        let x = v.var.index;
        if !v.is_unit() {
            return None;
        }
        if v.negated {
            // View value w = offset - x, so w in base..base+64 is x in offset-base-63..=offset-base,
            // in reverse order.
            // Saturating, as the store's window is: a base near the ends of `i64` is far
            // from every value either way (plain arithmetic would overflow there).
            self.store
                .word_from(x, v.offset.saturating_sub(base).saturating_sub(63))
                .map(u64::reverse_bits)
        } else {
            self.store.word_from(x, base.saturating_sub(v.offset))
        }
    }

    /// Keeps only the view's values in `base..base + 64` whose bits are set in `mask` (bit
    /// `i`: value `base + i`), in one write and with one event, however many values go; values
    /// outside the window go too. Returns whether the domain changed, or `None` (and changes
    /// nothing) when the variable's domain is wider than one word or the view is scaled, as
    /// for [`bits64`](Context::bits64).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    ///
    /// /// `x` is not in 10..=13, in one write.
    /// #[derive(Debug)]
    /// struct NotTeens(IntView);
    ///
    /// impl Propagator for NotTeens {
    ///     fn setup(&mut self, _: &mut Setup<'_>) {}
    ///     fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
    ///         let base = ctx.min(self.0);
    ///         let mask = ctx.bits64(self.0, base).expect("one word");
    ///         let teens = (0..64).filter(|&i| (10..=13).contains(&(base + i)));
    ///         let keep = teens.fold(mask, |m, i| m & !(1 << i));
    ///         ctx.keep_bits64(self.0, base, keep).expect("one word")?;
    ///         Ok(PropStatus::Subsumed)
    ///     }
    ///     fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
    ///         !(10..=13).contains(&a.value(self.0))
    ///     }
    /// }
    ///
    /// let mut m = Model::new();
    /// let x = m.int_var(8..=15)?;
    /// m.post(NotTeens(x.into()))?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(x)?, vec![8, 9, 14, 15]);
    /// # Ok::<(), ModelError>(())
    /// ```
    #[inline]
    pub fn keep_bits64(
        &mut self,
        v: IntView,
        base: i64,
        mask: u64,
    ) -> Option<Result<bool, Conflict>> {
        let x = v.var.index;
        if !v.is_unit() {
            return None;
        }
        let change = if v.negated {
            self.store.keep_word_from(
                x,
                v.offset.saturating_sub(base).saturating_sub(63),
                mask.reverse_bits(),
            )
        } else {
            self.store
                .keep_word_from(x, base.saturating_sub(v.offset), mask)
        }?;
        Some(self.report(v, change))
    }

    /// The values of a [`WordView`], as bits over its window (bit `i`: value `base + i`, for
    /// the `base` it was made with). No values lie outside the window.
    ///
    /// ```
    /// # use bezzel_core::prelude::*;
    /// # #[derive(Debug)]
    /// # struct P(IntView, Option<WordView>);
    /// # impl Propagator for P {
    /// #     fn setup(&mut self, s: &mut Setup<'_>) { self.1 = s.word_view(self.0.offset(1), 0); }
    /// #     fn is_satisfied(&self, _: &Assignment<'_>) -> bool { true }
    /// #     fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
    /// #         let x = self.0;
    /// // With w = s.word_view(x.offset(1), 0) made at setup, and x in {0, 2}:
    /// # let w = self.1.unwrap();
    /// assert_eq!(ctx.word(w), 0b101 << 1);
    /// #         Ok(PropStatus::Subsumed)
    /// #     }
    /// # }
    /// # let mut m = Model::new();
    /// # let x = m.int_var([0, 2])?; m.post(P(x.into(), None))?;
    /// # m.propagate().unwrap();
    /// # Ok::<(), ModelError>(())
    /// ```
    #[inline(always)]
    pub fn word(&self, w: WordView) -> u64 {
        // Declared values fit the window, so no bit shifts out.
        self.store.small_bits(w.var) << w.shift
    }

    /// [`word`](Context::word) of many views in a row (the family's copy of its cells reads
    /// them all at every run).
    #[inline(always)]
    pub(crate) fn word_reader(&self) -> impl Fn(WordView) -> u64 + '_ {
        let bits = self.store.small_bits_reader();
        move |w| bits(w.var) << w.shift
    }

    /// Keeps only the values of a [`WordView`] whose bits are set in `mask`, in one write
    /// with one event; returns the event, or `None` if nothing changed. See
    /// [`Setup::word_view`] for an example.
    #[inline(always)]
    pub fn keep_word(&mut self, w: WordView, mask: u64) -> Result<Option<Event>, Conflict> {
        let change = self.store.keep_small(w.var, mask >> w.shift)?;
        if let Some(event) = change
            && !self.queue.is_sole_subscriber(w.var)
        {
            self.notify(w.var, event);
        }
        Ok(change)
    }

    #[inline(always)]
    fn notify(&mut self, x: u32, event: Event) {
        notify(self.queue, self.store, x, event);
    }

    #[inline(always)]
    fn report(&mut self, v: IntView, change: crate::store::Change) -> Result<bool, Conflict> {
        match change? {
            Some(event) => {
                self.notify(v.var.index, event);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Removes `value`; returns whether the domain changed.
    #[inline(always)]
    pub fn remove(&mut self, v: IntView, value: i64) -> Result<bool, Conflict> {
        let change = self.store.remove(v.var.index, v.to_var(value));
        self.report(v, change)
    }

    /// [`remove`](Context::remove), returning what kind of change happened, if any: a
    /// propagator that removes a value from many views learns which ones it fixed without
    /// reading them again.
    ///
    /// ```
    /// # use bezzel_core::prelude::*;
    /// # #[derive(Debug)]
    /// # struct P(IntView, Option<WordView>);
    /// # impl Propagator for P {
    /// #     fn setup(&mut self, s: &mut Setup<'_>) {}
    /// #     fn is_satisfied(&self, _: &Assignment<'_>) -> bool { true }
    /// #     fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
    /// #         let x = self.0;
    /// // With x in {1, 2, 3}:
    /// assert_eq!(ctx.remove_event(x, 2)?, Some(Event::Domain));
    /// assert_eq!(ctx.remove_event(x, 2)?, None);
    /// assert_eq!(ctx.remove_event(x, 1)?, Some(Event::Fixed));
    /// #         Ok(PropStatus::Subsumed)
    /// #     }
    /// # }
    /// # let mut m = Model::new();
    /// # let x = m.int_var(1..=3)?; m.post(P(x.into(), None))?;
    /// # m.propagate().unwrap();
    /// # Ok::<(), ModelError>(())
    /// ```
    #[inline(always)]
    pub fn remove_event(&mut self, v: IntView, value: i64) -> Result<Option<Event>, Conflict> {
        let change = self.store.remove(v.var.index, v.to_var(value))?;
        if let Some(event) = change {
            self.notify(v.var.index, event);
        }
        Ok(change)
    }

    /// Removes every value below `value`.
    #[inline]
    pub fn set_min(&mut self, v: IntView, value: i64) -> Result<bool, Conflict> {
        // Most calls (a bounds propagator confirming a bound) change nothing: told here,
        // without a call.
        if value <= self.min(v) {
            return Ok(false);
        }
        self.raise_min(v, value)
    }

    /// [`set_min`](Context::set_min) when `value` is above the view's minimum.
    fn raise_min(&mut self, v: IntView, value: i64) -> Result<bool, Conflict> {
        let change = if v.negated {
            self.store.set_max(v.var.index, v.to_var_floor(value))
        } else {
            self.store.set_min(v.var.index, v.to_var_ceil(value))
        };
        self.report(v, change)
    }

    /// Removes every value above `value`.
    #[inline]
    pub fn set_max(&mut self, v: IntView, value: i64) -> Result<bool, Conflict> {
        if value >= self.max(v) {
            return Ok(false);
        }
        self.lower_max(v, value)
    }

    /// [`set_max`](Context::set_max) when `value` is below the view's maximum.
    fn lower_max(&mut self, v: IntView, value: i64) -> Result<bool, Conflict> {
        let change = if v.negated {
            self.store.set_min(v.var.index, v.to_var_ceil(value))
        } else {
            self.store.set_max(v.var.index, v.to_var_floor(value))
        };
        self.report(v, change)
    }

    /// Fixes the view to `value`.
    pub fn assign(&mut self, v: IntView, value: i64) -> Result<bool, Conflict> {
        let change = self.store.assign(v.var.index, v.to_var(value));
        self.report(v, change)
    }

    /// Reads a trailed integer.
    #[inline]
    pub fn int(&self, slot: TrailedInt) -> i64 {
        self.store.int(slot)
    }

    /// Writes a trailed integer; backtracking restores the old value.
    #[inline]
    pub fn set_int(&mut self, slot: TrailedInt, value: i64) {
        self.store.set_int(slot, value);
    }

    /// The tokens of the [advised subscriptions](Setup::subscribe_advised) that woke the
    /// propagator since it last ran, or-ed together. It is all ones when the propagator runs
    /// without an event (its first run, or again after [`PropStatus::NoFixpoint`] or a
    /// [`requeue`](Context::requeue)): then anything may have changed. See
    /// [`Setup::subscribe_advised`] for an example.
    #[inline]
    pub fn advice(&self) -> u64 {
        self.advice
    }

    /// The priority of the bucket the propagator was run from: its own
    /// [`Propagator::priority`], or the cheaper one that [`Setup::fixed_wakes_at`] gave its
    /// `Fixed` events. See [`Setup::fixed_wakes_at`] for an example.
    #[inline]
    pub fn stage(&self) -> Priority {
        self.stage
    }

    /// Asks to run again from the bucket of `priority`, after every cheaper propagator has
    /// run, when this run reports [`PropStatus::Fixpoint`] (otherwise it is ignored): the
    /// second stage of a staged propagator (see [`Setup::fixed_wakes_at`]). Several wake-ups
    /// in the meantime then share that one run.
    #[inline]
    pub fn requeue(&mut self, priority: Priority) {
        self.requeue = Some(priority);
    }
}
