//! Learning from failure: explanations and conflict-driven nogoods (see `docs/learning.md`).
//!
//! A search that learns ([`SearchConfig::learning`](crate::SearchConfig::learning)) logs
//! every domain change as predicates with their reasons (the log), explains propagations
//! from the constraints' definitions (a propagator's [`Shape`]), analyses each failure into
//! a nogood (first unique implication point), keeps the nogoods and propagates them (two
//! watched predicates each), and jumps back to the level where a nogood asserts. The engine
//! itself is unchanged: the log is built from what each propagator run changed (the store's
//! trail holds every changed variable's state before the run), so a search that does not
//! learn pays nothing for it.

pub(crate) mod analysis;
mod explain;
pub(crate) mod log;
mod nogoods;
pub(crate) mod predicate;
mod resource;
#[cfg(test)]
mod tests;
mod values;

pub use explain::Shape;
pub use resource::Amount;

use crate::engine::{Engine, Record};
use crate::propagator::Propagator;
use crate::search::Decision;
use crate::store::Store;
use crate::trail::Mark;
use analysis::{Analysis, Failure, Learned};
use explain::{Overlay, explain_failure};
use log::{Cause, Item, Log};
use nogoods::{Nogoods, Visit};
use predicate::{Kind, Predicate};

/// How many nogoods are learnt before the database is first reduced, and by how many more
/// each later reduction waits (Glucose's 2,000 and 300).
const FIRST_REDUCTION: u64 = 2000;
const REDUCTION_STEP: u64 = 300;

#[cfg(test)]
thread_local! {
    /// Set by tests: every reduction deletes every nogood, the reasons of the propagations
    /// on the current path included, and happens at every nogood learnt.
    pub(crate) static DELETE_ALL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a test asked reductions to delete every nogood.
fn delete_all() -> bool {
    #[cfg(test)]
    return DELETE_ALL.with(std::cell::Cell::get);
    #[cfg(not(test))]
    false
}

/// Where the changes of one batch of writes came from.
enum Source<'a> {
    /// The decision whose node is at this log position.
    Decision { node: u32, pred: Predicate },
    /// A nogood: `asserted` made true because `others` are.
    Nogood {
        others: &'a [Predicate],
        asserted: Predicate,
    },
    /// A propagator with a shape.
    Shape(Shape<'a>),
    /// A propagator without one.
    Opaque,
}

/// One explanation, kept for tests that check each against the constraint's definition.
#[derive(Debug, Clone)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct Explained {
    /// The propagator that propagated, or `None` for a decision or a nogood.
    pub(crate) propagator: Option<u32>,
    /// The nogood that propagated, if one did.
    pub(crate) nogood: Option<Vec<Predicate>>,
    /// What was explained: a change, or `None` for a failure.
    pub(crate) fact: Option<Predicate>,
    /// The reason, decision nodes as their predicates.
    pub(crate) reason: Vec<Predicate>,
}

/// The learning state of a search run: log, nogoods, and one trail mark per level.
#[derive(Debug)]
pub(crate) struct Learner {
    pub(crate) log: Log,
    pub(crate) nogoods: Nogoods,
    /// `marks[l]`: the trail mark taken before the decision of level `l + 1`.
    marks: Vec<Mark>,
    /// `decisions[l]`: the decision of level `l + 1`.
    decisions: Vec<Decision>,
    /// The log position up to which nogoods have seen the changes.
    qhead: usize,
    /// Every explanation and failure reason, while tests ask for them.
    pub(crate) audit: Option<Vec<Explained>>,
    /// In branch and bound, the objective value of the latest solution (of the minimised
    /// view): every later state must beat it, so the nogoods learnt from then on hold
    /// only for the solutions that do.
    pub(crate) bound: Option<i64>,
    /// Every nogood learnt, with the bound in force when it was, while tests ask for them
    /// (the database may have deleted it since).
    pub(crate) learnt: Option<Vec<(Vec<Predicate>, Option<i64>)>>,
    /// Nogoods learnt since the database was last reduced, and how many it takes to
    /// reduce it next (growing, as in Glucose).
    since_reduction: u64,
    reduce_after: u64,
    /// How many nogoods reductions have deleted.
    pub(crate) deleted: u64,
    /// How many failures analysis could not turn into a nogood (an explanation named a fact
    /// the log does not hold before the one it explains): a bug, which tests look for.
    pub(crate) broken: u64,
}

impl Learner {
    pub(crate) fn new(num_vars: usize) -> Learner {
        Learner {
            log: Log::new(num_vars),
            nogoods: Nogoods::new(num_vars),
            marks: Vec::new(),
            decisions: Vec::new(),
            qhead: 0,
            // Tests check every explanation; other builds keep none.
            audit: cfg!(test).then(Vec::new),
            bound: None,
            learnt: cfg!(test).then(Vec::new),
            since_reduction: 0,
            // Tests reduce after every few nogoods, so that deletion meets every case.
            reduce_after: if cfg!(test) { 3 } else { FIRST_REDUCTION },
            deleted: 0,
            broken: 0,
        }
    }

    /// The current decision level.
    pub(crate) fn level(&self) -> u32 {
        self.log.level()
    }

    /// Logs the changes written since `batch`, explained as `source` says.
    fn record(&mut self, store: &Store, batch: Mark, source: Source<'_>, from: Option<u32>) {
        let (mut overlay, mut facts) = Overlay::new(store, batch);
        if self.log.level() == 0 || matches!(source, Source::Opaque) {
            for fact in facts {
                self.log.push(fact, Cause::Fallback);
            }
            return;
        }
        while !facts.is_empty() {
            let mut progress = false;
            let mut k = 0;
            while k < facts.len() {
                let fact = facts[k];
                match explain(&overlay, &source, fact) {
                    Some(items) => {
                        self.audit_reason(from, &source, Some(fact), &items);
                        let cause = self.log.reason(&items);
                        self.log.push(fact, cause);
                        overlay.commit(fact);
                        facts.swap_remove(k);
                        progress = true;
                    }
                    None => k += 1,
                }
            }
            if !progress && let Some(fact) = facts.pop() {
                self.log.push(fact, Cause::Fallback);
                overlay.commit(fact);
            }
        }
    }

    fn audit_reason(
        &mut self,
        propagator: Option<u32>,
        source: &Source<'_>,
        fact: Option<Predicate>,
        items: &[Item],
    ) {
        let Some(audit) = &mut self.audit else {
            return;
        };
        let reason = items
            .iter()
            .map(|&item| match item {
                Item::Pred(p) => p,
                Item::Node(i) => self.log.entries[i as usize].pred,
            })
            .collect();
        let nogood = match source {
            Source::Nogood { others, asserted } => {
                let mut all = others.to_vec();
                all.push(asserted.negate());
                Some(all)
            }
            _ => None,
        };
        audit.push(Explained {
            propagator,
            nogood,
            fact,
            reason,
        });
    }

    /// Starts a run: every propagator queued, and `root` (a prefix's decisions, the bound of
    /// branch and bound) applied at the root; `false` if one of them fails.
    pub(crate) fn start(
        &mut self,
        engine: &mut Engine,
        mut root: impl Iterator<Item = Decision>,
    ) -> bool {
        engine.schedule_all();
        root.all(|d| self.decide_at_root(engine, d))
    }

    /// Applies a decision at the root (a prefix's, or the bound of branch and bound), where
    /// every change counts as a consequence of the constraints.
    pub(crate) fn decide_at_root(&mut self, engine: &mut Engine, decision: Decision) -> bool {
        debug_assert_eq!(self.level(), 0);
        let batch = engine.mark();
        let ok = engine.decide(decision).is_ok();
        self.record(engine.store(), batch, Source::Opaque, None);
        ok
    }

    /// Opens a level with `decision` (a pseudo-decision if `pseudo`: see
    /// [`log::Level`]) and applies it.
    pub(crate) fn decide(
        &mut self,
        engine: &mut Engine,
        decision: Decision,
        pseudo: bool,
    ) -> Result<(), Failure> {
        let batch = engine.mark();
        self.marks.push(batch);
        self.decisions.push(decision);
        let pred = Predicate::of_decision(decision);
        let node = self.log.open_level(pred, pseudo);
        let result = engine.decide(decision);
        self.record(engine.store(), batch, Source::Decision { node, pred }, None);
        result.map_err(|_| Failure::Fallback)
    }

    /// Propagates the propagators and the nogoods to a common fixpoint, logging every
    /// change; `propagations` counts the propagator runs.
    pub(crate) fn propagate(
        &mut self,
        engine: &mut Engine,
        propagations: &mut u64,
    ) -> Result<(), Failure> {
        loop {
            let mut recorder = Recorder {
                learner: self,
                batch: Mark::default(),
                failure: None,
            };
            if engine
                .propagate_recording(propagations, &mut recorder)
                .is_err()
            {
                return Err(recorder.failure.unwrap_or(Failure::Fallback));
            }
            let before = self.log.len();
            if let Err(failure) = self.propagate_nogoods(engine) {
                engine.clear_queue();
                return Err(failure);
            }
            if self.log.len() == before {
                return Ok(());
            }
        }
    }

    /// Lets the nogoods see the log entries they have not seen yet.
    fn propagate_nogoods(&mut self, engine: &mut Engine) -> Result<(), Failure> {
        while self.qhead < self.log.len() {
            let entry = self.log.entries[self.qhead];
            self.qhead += 1;
            if entry.cause == Cause::Decision {
                continue;
            }
            let x = entry.pred.var;
            let before = match entry.pred.kind {
                Kind::Ge | Kind::Le => self.log.bound_before(self.qhead as u32 - 1, engine.store()),
                _ => 0,
            };
            for &slot in nogoods::slots(entry.pred.kind) {
                let mut k = 0;
                while k < self.nogoods.watches(x, slot) {
                    if !self.nogoods.fires(slot, k, entry.pred, before) {
                        k += 1;
                        continue;
                    }
                    let id = self.nogoods.watcher(x, slot, k);
                    match self.nogoods.visit(x, slot, k, engine.store()) {
                        Visit::Moved => {}
                        Visit::Quiet => k += 1,
                        Visit::Fail => {
                            let preds = &self.nogoods.list[id as usize];
                            let items: Vec<Item> = preds.iter().map(|&p| Item::Pred(p)).collect();
                            if let Some(audit) = &mut self.audit {
                                audit.push(Explained {
                                    propagator: None,
                                    nogood: Some(preds.clone()),
                                    fact: None,
                                    reason: preds.clone(),
                                });
                            }
                            return Err(Failure::Items(items));
                        }
                        Visit::Propagate(asserted) => {
                            k += 1;
                            self.assert(engine, id, asserted)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Makes `asserted` true because of nogood `id`, which holds its negation and other
    /// predicates, all true.
    fn assert(&mut self, engine: &mut Engine, id: u32, asserted: Predicate) -> Result<(), Failure> {
        let batch = engine.mark();
        let result = engine.decide(asserted.as_decision());
        let others: Vec<Predicate> = self.nogoods.list[id as usize]
            .iter()
            .copied()
            .filter(|&p| p != asserted.negate())
            .collect();
        let source = Source::Nogood {
            others: &others,
            asserted,
        };
        self.record(engine.store(), batch, source, None);
        result.map_err(|_| Failure::Fallback)
    }

    /// Analyses a failure of the current state.
    pub(crate) fn analyse(&mut self, engine: &Engine, failure: &Failure) -> Analysis {
        let analysis = analysis::analyse(&self.log, engine.store(), failure);
        self.broken += u64::from(matches!(analysis, Analysis::Chronological { .. }));
        analysis
    }

    /// The highest pseudo-decision level below `level`, 0 if none.
    pub(crate) fn pseudo_below(&self, level: u32) -> u32 {
        (1..level)
            .rev()
            .find(|&l| self.log.levels[l as usize].pseudo)
            .unwrap_or(0)
    }

    /// Whether level `level`'s decision is a pseudo-decision.
    pub(crate) fn is_pseudo(&self, level: u32) -> bool {
        self.log.levels[level as usize].pseudo
    }

    /// Undoes every level above `level`.
    pub(crate) fn backjump(&mut self, engine: &mut Engine, level: u32) {
        if level >= self.level() {
            return;
        }
        engine.restore(self.marks[level as usize]);
        self.marks.truncate(level as usize);
        self.decisions.truncate(level as usize);
        self.log.truncate(level);
        self.qhead = self.qhead.min(self.log.len());
    }

    /// Keeps a learnt nogood, at the current level (at or above its assertion level, below
    /// its conflict level), and propagates the negation of its UIP.
    pub(crate) fn learn(&mut self, engine: &mut Engine, learned: Learned) -> Result<(), Failure> {
        let asserted = learned.preds[0].negate();
        self.since_reduction += 1;
        if delete_all() {
            let all: Vec<u32> = (0..self.nogoods.list.len() as u32).collect();
            self.deleted += self.nogoods.delete(&all) as u64;
        } else if self.since_reduction >= self.reduce_after {
            self.since_reduction = 0;
            self.reduce_after += REDUCTION_STEP;
            self.deleted += self.nogoods.reduce() as u64;
        }
        if let Some(learnt) = &mut self.learnt {
            learnt.push((learned.preds.clone(), self.bound));
        }
        let id = self.nogoods.add(learned.preds, learned.lbd);
        if asserted.is_true(engine.store()) {
            return Ok(());
        }
        self.assert(engine, id, asserted)
    }

    /// After the subtree of level `level` is done (a solution, or a failure at a
    /// pseudo-decision's level), moves to the other branch of the deepest decision at or
    /// above it that is not a pseudo-decision, as a pseudo-decision; `false` when there is
    /// none left (the tree is done).
    pub(crate) fn next_branch(
        &mut self,
        engine: &mut Engine,
        level: u32,
    ) -> Option<Result<(), Failure>> {
        let q = (1..=level).rev().find(|&l| !self.is_pseudo(l))?;
        let decision = self.decisions[q as usize - 1];
        self.backjump(engine, q - 1);
        Some(self.decide(engine, decision.negate(), true))
    }
}

/// The explanation of `fact` from `source`, checked; `None` when there is none.
fn explain(overlay: &Overlay<'_>, source: &Source<'_>, fact: Predicate) -> Option<Vec<Item>> {
    match source {
        Source::Decision { node, pred } => {
            let mut items = vec![Item::Node(*node)];
            items.extend(overlay.closure(fact, *pred)?);
            Some(items)
        }
        Source::Nogood { others, asserted } => {
            let mut items: Vec<Item> = others.iter().map(|&p| Item::Pred(p)).collect();
            items.extend(overlay.closure(fact, *asserted)?);
            Some(items)
        }
        Source::Shape(shape) => overlay.explain(shape, fact),
        Source::Opaque => None,
    }
}

/// The learner as the engine's recorder: logs each propagator run's changes.
struct Recorder<'a> {
    learner: &'a mut Learner,
    batch: Mark,
    failure: Option<Failure>,
}

impl Record for Recorder<'_> {
    fn before_run(&mut self, store: &mut Store) {
        self.batch = store.mark();
    }

    fn after_run(&mut self, p: u32, props: &[Box<dyn Propagator>], store: &Store, ok: bool) {
        let shape = props[p as usize].shape().filter(|s| !s.has_scaled_view());
        let source = shape.map_or(Source::Opaque, Source::Shape);
        self.learner.record(store, self.batch, source, Some(p));
        if !ok {
            let items = shape.and_then(|s| explain_failure(store, &s));
            if let Some(items) = &items {
                self.learner
                    .audit_reason(Some(p), &Source::Opaque, None, items);
            }
            self.failure = Some(items.map_or(Failure::Fallback, Failure::Items));
        }
    }
}
