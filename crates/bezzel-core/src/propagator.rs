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

use crate::event::Event;
use crate::queue::{Priority, Queue};
use crate::store::{Conflict, Store, TrailedInt};
use crate::var::IntView;
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
    /// The bucket that `Fixed` events wake the propagator into, when not that of its
    /// priority: see [`Setup::fixed_wakes_at`].
    pub(crate) fixed_priority: Option<Priority>,
}

impl Setup<'_> {
    /// Runs the propagator whenever `view` undergoes a change at least as strong as `event`.
    pub fn subscribe(&mut self, view: impl Into<IntView>, event: Event) {
        self.subscriptions.push((view.into(), event, 0));
    }

    /// [`subscribe`](Setup::subscribe), and the propagator's next run finds the bits of
    /// `token` in [`Context::advice`] if this subscription woke it. Subscriptions of one
    /// propagator to one variable merge, tokens included, at the weakest event asked for.
    pub(crate) fn subscribe_advised(&mut self, view: IntView, event: Event, token: u64) {
        self.subscriptions.push((view, event, token));
    }

    /// `Fixed` events wake the propagator into the bucket of `priority`, a cheaper one than
    /// its own, for a cheap first stage of its work (it learns which from
    /// [`Context::stage`](Context) and can [`requeue`](Context) itself for the rest).
    pub(crate) fn fixed_wakes_at(&mut self, priority: Priority) {
        self.fixed_priority = Some(priority);
    }

    /// Allocates an integer that backtracking restores, starting at `initial`.
    pub fn trailed_int(&mut self, initial: i64) -> TrailedInt {
        self.store.new_int(initial)
    }
}

/// A propagator's access to domains while it runs.
///
/// Reads and writes go through views, so values are view values (`x + c`, `-x`). Every write
/// that changes something is trailed and wakes the subscribers of the variable; a write that
/// would empty a domain returns `Err(Conflict)`.
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
    /// Set by a propagator that reports [`PropStatus::Fixpoint`] but wants to run again from
    /// the bucket of this priority, e.g. a staged one whose cheap first stage ran: the queue
    /// serves every cheaper propagator first, so several wake-ups share one run of the
    /// expensive stage.
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
    /// word-level propagators; `None` when the variable's domain is wider than one word.
    #[inline]
    pub fn bits64(&self, v: IntView, base: i64) -> Option<u64> {
        let x = v.var.index;
        if v.negated {
            // View value w = offset - x, so w in base..base+64 is x in offset-base-63..=offset-base,
            // in reverse order.
            self.store
                .word_from(x, v.offset - base - 63)
                .map(u64::reverse_bits)
        } else {
            self.store.word_from(x, base - v.offset)
        }
    }

    /// Keeps only the view's values in `base..base + 64` whose bits are set in `mask` (bit
    /// `i`: value `base + i`), in one write; the values outside that window must be gone
    /// already. `None` when the variable's domain is wider than one word.
    #[inline]
    pub(crate) fn keep_bits64(
        &mut self,
        v: IntView,
        base: i64,
        mask: u64,
    ) -> Option<Result<bool, Conflict>> {
        let x = v.var.index;
        let change = if v.negated {
            self.store
                .keep_word_from(x, v.offset - base - 63, mask.reverse_bits())
        } else {
            self.store.keep_word_from(x, base - v.offset, mask)
        }?;
        Some(self.report(v, change))
    }

    #[inline(always)]
    fn report(&mut self, v: IntView, change: crate::store::Change) -> Result<bool, Conflict> {
        match change? {
            Some(event) => {
                self.queue.notify(v.var.index, event);
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

    /// Removes `value`; returns what kind of change happened, if any.
    #[inline(always)]
    pub(crate) fn remove_event(
        &mut self,
        v: IntView,
        value: i64,
    ) -> Result<Option<Event>, Conflict> {
        let change = self.store.remove(v.var.index, v.to_var(value))?;
        if let Some(event) = change {
            self.queue.notify(v.var.index, event);
        }
        Ok(change)
    }

    /// Removes every value below `value`.
    pub fn set_min(&mut self, v: IntView, value: i64) -> Result<bool, Conflict> {
        let change = if v.negated {
            self.store.set_max(v.var.index, v.to_var(value))
        } else {
            self.store.set_min(v.var.index, v.to_var(value))
        };
        self.report(v, change)
    }

    /// Removes every value above `value`.
    pub fn set_max(&mut self, v: IntView, value: i64) -> Result<bool, Conflict> {
        let change = if v.negated {
            self.store.set_min(v.var.index, v.to_var(value))
        } else {
            self.store.set_max(v.var.index, v.to_var(value))
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
}
