//! Depth-first search over a [`Model`], with an explicit stack.
//!
//! A [`Solver`] owns the model. Each node picks a decision ([`branching`](super::branching)):
//! the left branch applies the decision, the right branch its negation. Every frame of the
//! stack holds the trail mark taken before the left branch, so backtracking is a restore to
//! that mark; the depth of search is bounded by memory, not by the call stack. Search is
//! resumable between solutions, which is what makes [`Solver::solutions`] a lazy iterator.
//! Limits (solutions, nodes, time, a cancellation flag) end a run early;
//! [`Statistics::stopped`] says which. The solver drives the model's engine through its API
//! (decide, propagate, mark, restore) and reads domains through it; it keeps only the search
//! state: the stack, the run's prefix, its statistics and restarts.

use super::brancher::Domains;
use super::branching::Branching;
use super::config::SearchConfig;
use super::decision::Decision;
use super::guide::{Guide, Steer};
use super::observe::{Node, Observer};
use super::optimize::Objective;
use super::restarts::RestartState;
use crate::error::ModelError;
use crate::model::Model;
use crate::solution::{Solution, SolutionSet};
use crate::stats::{Statistics, StopReason};
use crate::store::Conflict;
use crate::trail::Mark;
use crate::var::VarId;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// One open node on the stack: the decision of its left branch, and where to return to.
#[derive(Debug, Clone, Copy)]
pub(super) struct Frame {
    /// The trail mark taken before the left branch.
    pub(super) mark: Mark,
    /// The decision of the left branch; the right branch is its negation.
    pub(super) decision: Decision,
    /// Whether search has moved on to the right branch, so that the frame is popped next time.
    pub(super) right_branch_taken: bool,
}

/// Where a run stands between two calls of [`Solver::advance`], which is what lets it stop at a
/// solution and go on from there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// The root is yet to be propagated (below the run's prefix).
    Start,
    /// Choose a decision at the current node, or report it as a solution.
    Descend,
    /// Go back to the deepest open right branch.
    Backtrack,
    /// The run is over (the tree is done, or a limit stopped it).
    Done,
}

/// Runs depth-first search on a model; see the [module docs](super).
///
/// Each call of [`solutions`](Solver::solutions), [`first`](Solver::first),
/// [`count`](Solver::count) or [`solution_set`](Solver::solution_set) starts a new run from the
/// model as posted, and [`stats`](Solver::stats) describes the latest run.
#[derive(Debug)]
pub struct Solver {
    pub(super) model: Model,
    pub(super) config: SearchConfig,
    pub(super) branching: Branching,
    pub(super) cancel: Option<Arc<AtomicBool>>,
    pub(super) stats: Statistics,
    pub(super) stack: Vec<Frame>,
    pub(super) phase: Phase,
    pub(super) started: Instant,
    /// Restart bookkeeping of the current run: `None` when the run does not restart.
    pub(super) restart: Option<RestartState>,
    /// Decisions applied at the root of the current run, restricting it to a subproblem.
    pub(super) prefix: Vec<Decision>,
    /// The values of a solution being checked, kept to check without allocating.
    checked_values: Vec<i32>,
    /// Branch and bound's objective and best value in an optimisation run
    /// ([`Solver::minimize`]); `None` in other runs.
    pub(super) objective: Option<Objective>,
    /// The user's brancher ([`Solver::brancher`]), asked first at each node, and whether
    /// guidance chooses after it; `None` when neither is there, so that a node tests one
    /// pointer for both.
    pub(super) custom: Option<Box<Steer>>,
    /// What sees every node ([`Solver::observe`]); `None`, the default, costs one test per
    /// solution, not per node (see [`observe`](super::observe)).
    pub(super) observer: Option<Box<dyn Observer>>,
    /// Last-conflict branching and solution-guided values
    /// ([`SearchConfig::last_conflict`], [`SearchConfig::solution_phase`]): what they learnt,
    /// the latest solution's values kept across runs as dom/wdeg's weights are.
    pub(super) guide: Guide,
    /// How to search on worker threads ([`Solver::parallel`]); `None` for a solver made from
    /// a model, which searches here.
    pub(super) threads: Option<Box<super::threads::Threads>>,
    /// The learning state of the current run when it learns ([`SearchConfig::learning`]):
    /// such a run is driven by [`learning`](super::learning) instead of the loop here.
    pub(super) learner: Option<Box<crate::learn::Learner>>,
}

impl Solver {
    /// A solver with the default configuration: smallest domain first, minimum value first,
    /// no limits, branching on every variable.
    pub fn new(model: Model) -> Solver {
        Solver::with_config(model, SearchConfig::default())
    }

    /// A solver with the given heuristics and limits.
    pub fn with_config(mut model: Model, config: SearchConfig) -> Solver {
        model.form_families();
        let branching = Branching::new(model.engine(), model.id(), model.num_vars() as u32);
        Solver {
            model,
            config,
            branching,
            cancel: None,
            stats: Statistics::default(),
            stack: Vec::new(),
            phase: Phase::Done,
            started: Instant::now(),
            restart: None,
            prefix: Vec::new(),
            checked_values: Vec::new(),
            objective: None,
            custom: None,
            observer: None,
            guide: Guide::default(),
            threads: None,
            learner: None,
        }
    }

    /// Branches on `vars` first, in this order for [`VarOrder::InputOrder`](super::VarOrder::InputOrder). Once they are
    /// all fixed, search goes on over the other variables that propagation left unfixed
    /// (in creation order for [`VarOrder::InputOrder`](super::VarOrder::InputOrder), by the same heuristic otherwise), so
    /// every solution still fixes every variable and satisfies every constraint.
    pub fn branch_on(mut self, vars: &[VarId]) -> Result<Solver, ModelError> {
        for &x in vars {
            self.model.check_var(x)?;
        }
        let vars: Vec<u32> = vars.iter().map(|x| x.index).collect();
        self.branching
            .branch_on(&vars, self.model.num_vars() as u32);
        Ok(self)
    }

    /// Sets a flag that another thread can raise to stop the run at the next node.
    pub fn set_cancel_flag(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }

    /// Whether the cancel flag is up.
    pub(super) fn is_cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Changes the configuration for the next runs.
    pub fn config_mut(&mut self) -> &mut SearchConfig {
        &mut self.config
    }

    /// Forgets what dom/wdeg has learnt: every propagator's and variable's failure count
    /// back to zero, as in a solver just built; forgets too the latest solution that guides
    /// [`SearchConfig::solution_phase`]. Runs keep the counts otherwise (restarts rely
    /// on them); a solver reused for unrelated problems (another puzzle's givens as a
    /// prefix) calls this between them, so that each is searched as on a fresh model.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    ///
    /// let mut m = Model::new();
    /// let x = m.int_vars(3, 0..=1)?;
    /// m.all_different(&x)?; // three variables, two values: every search fails
    /// let config = SearchConfig { var_order: VarOrder::DomWDeg, ..SearchConfig::default() };
    /// let mut solver = Solver::with_config(m, config);
    /// assert_eq!(solver.count(), 0);
    /// solver.forget_weights();
    /// assert_eq!(solver.count(), 0);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn forget_weights(&mut self) {
        self.model.engine_mut().forget_weights();
        self.guide.clear();
    }

    /// The model being searched.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Statistics of the latest run.
    pub fn stats(&self) -> &Statistics {
        &self.stats
    }

    /// A lazy iterator over the solutions of a new run. A solver made by
    /// [`parallel`](Solver::parallel) finds them on its worker threads, which send each one
    /// over as they find it: each comes once, and they are the solutions of a run here, in
    /// the order the workers find them (see [`threads`](super::threads)).
    pub fn solutions(&mut self) -> Solutions<'_> {
        self.restart();
        let workers = self.solutions_on_workers();
        Solutions {
            solver: self,
            workers,
        }
    }

    /// The first solution, if any; with [`SearchConfig::restarts`] set, search restarts from
    /// the root after each attempt's failures run out.
    pub fn first(&mut self) -> Option<Solution> {
        self.restart();
        self.first_after_restart()
    }

    /// The first solution below a decision prefix (such as a puzzle's givens), with restarts
    /// as in [`first`](Solver::first): every attempt starts again below the prefix.
    pub fn first_in(&mut self, prefix: &[Decision]) -> Result<Option<Solution>, ModelError> {
        self.check_prefix(prefix)?;
        self.restart();
        self.prefix.extend_from_slice(prefix);
        Ok(self.first_after_restart())
    }

    fn first_after_restart(&mut self) -> Option<Solution> {
        self.start_restarts();
        self.next_solution()
    }

    /// Makes the run just started restart as [`SearchConfig::restarts`] says.
    pub(super) fn start_restarts(&mut self) {
        self.restart = self.config.restarts.map(RestartState::new);
    }

    /// Turns guidance on or off for a new run, as the configuration says: a solver without a
    /// user's brancher or guidance holds no [`Steer`], so that its nodes test one pointer.
    fn start_guidance(&mut self) {
        let (lc, phase) = (self.config.last_conflict, self.config.solution_phase);
        self.guide.start_run(lc, phase);
        let guided = self.guide.is_on();
        match &mut self.custom {
            Some(steer) if steer.user.is_none() && !guided => self.custom = None,
            Some(steer) => steer.guided = guided,
            None if guided => self.custom = Some(Box::new(Steer { user: None, guided })),
            None => {}
        }
    }

    /// Counts solutions (up to the solution limit, if one is set); check
    /// [`Statistics::is_complete`] to see whether a limit cut the count short. A solver made
    /// by [`parallel`](Solver::parallel) counts on its worker threads.
    pub fn count(&mut self) -> u64 {
        self.restart();
        if let Some(count) = self.count_on_workers() {
            return count;
        }
        while self.advance() {}
        self.stats.solutions
    }

    /// Ends the run with what a search elsewhere (the worker threads) found: nothing left to
    /// explore here, and its statistics as this run's.
    pub(super) fn end_run_with(&mut self, stats: Statistics) {
        self.stack.clear();
        self.phase = Phase::Done;
        self.stats = stats;
    }

    /// All solutions on every variable the user declared, as a canonical [`SolutionSet`]:
    /// the auxiliary variables that expressions introduce are left out (see
    /// [`Model::is_auxiliary`](crate::Model::is_auxiliary)).
    pub fn solution_set(&mut self) -> SolutionSet {
        let vars = self.model.declared_vars();
        self.collect_set(&vars)
    }

    /// All solutions on every variable, auxiliary ones included, as a canonical
    /// [`SolutionSet`].
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.named_var("x", 0..=2)?;
    /// m.post((x * x).eq(4))?;
    /// let mut solver = Solver::new(m);
    /// assert_eq!(solver.solution_set().to_string(), "x=2\n");
    /// assert_eq!(solver.solution_set_with_auxiliaries().to_string(), "x=2 _aux1=4\n");
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn solution_set_with_auxiliaries(&mut self) -> SolutionSet {
        let vars = self.model.vars();
        self.collect_set(&vars)
    }

    /// All solutions projected on `vars` (deduplicated), as a canonical [`SolutionSet`].
    ///
    /// A solver made by [`parallel`](Solver::parallel) searches copies of its model, so it
    /// takes the variables of any build of the model, as its objective does: each names the
    /// variable at its position. A solver made from one model takes only that model's.
    pub fn solution_set_of(&mut self, vars: &[VarId]) -> Result<SolutionSet, ModelError> {
        let vars = if self.threads.is_some() {
            vars.iter()
                .map(|&x| Ok(self.model.same_position(x.into())?.var()))
                .collect::<Result<Vec<_>, ModelError>>()?
        } else {
            for &x in vars {
                self.model.check_var(x)?;
            }
            vars.to_vec()
        };
        Ok(self.collect_set(&vars))
    }

    fn collect_set(&mut self, vars: &[VarId]) -> SolutionSet {
        let names = vars
            .iter()
            .map(|&x| self.model.names()[x.index()].clone())
            .collect();
        let rows = self.solutions().map(|s| s.values_of(vars)).collect();
        SolutionSet::new(names, rows)
    }

    /// Starts a new run from the model as posted: no prefix, no restarts, fresh statistics.
    pub(super) fn restart(&mut self) {
        self.restart = None;
        self.objective = None;
        self.prefix.clear();
        self.start_guidance();
        let weighs = self.branching.weighs(self.config.var_order);
        let engine = self.model.engine_mut();
        engine.set_weighing(weighs);
        engine.reset();
        self.stack.clear();
        self.stats = Statistics::default();
        self.started = Instant::now();
        self.phase = Phase::Start;
        self.learner = (self.config.learning)
            .then(|| Box::new(crate::learn::Learner::new(self.model.num_vars())));
    }

    pub(super) fn next_solution(&mut self) -> Option<Solution> {
        if !self.advance() {
            return None;
        }
        let values = self.model.engine().mins(self.model.num_vars());
        let solution = Solution::new(self.model.id(), values, self.model.shared_names().clone());
        // A solver on threads answers for every build of its model, wherever it searched.
        Some(match self.threads {
            Some(_) => solution.unbound(),
            None => solution,
        })
    }

    /// Whether the search has made as many nodes as its limit allows.
    #[inline(always)]
    fn node_limit_reached(&self) -> bool {
        (self.config.limits.nodes).is_some_and(|l| self.stats.nodes >= l)
    }

    pub(super) fn limit_reached(&self) -> Option<StopReason> {
        let limits = &self.config.limits;
        if limits.solutions.is_some_and(|l| self.stats.solutions >= l) {
            return Some(StopReason::SolutionLimit);
        }
        if self.node_limit_reached() {
            return Some(StopReason::NodeLimit);
        }
        if self.is_cancelled() {
            return Some(StopReason::Cancelled);
        }
        // Reading the clock at every node would cost more than the nodes themselves.
        if self.stats.nodes.is_multiple_of(256)
            && limits.time.is_some_and(|t| self.started.elapsed() >= t)
        {
            return Some(StopReason::TimeLimit);
        }
        None
    }

    /// Runs until the next solution (true) or the end of the run (false).
    pub(super) fn advance(&mut self) -> bool {
        if self.learner.is_some() {
            return self.advance_learning();
        }
        // Two copies of the loop, so that a run nobody watches tests for an observer once
        // here and never at a node.
        if self.observer.is_some() {
            self.advance_with::<true>()
        } else {
            self.advance_with::<false>()
        }
    }

    /// [`advance`](Solver::advance), telling the observer of every node when `WATCHED`.
    #[inline(always)]
    fn advance_with<const WATCHED: bool>(&mut self) -> bool {
        loop {
            match self.phase {
                Phase::Start => {
                    // The prefix narrows the root before its one propagation: propagation
                    // reaches the same fixpoint in any order, and once is cheaper than once per
                    // decision. The prefix is part of the root, not search nodes.
                    self.stats.nodes = 1;
                    let engine = self.model.engine_mut();
                    engine.schedule_all();
                    let bound = self.objective.as_ref().and_then(Objective::bound_decision);
                    let decided = self
                        .prefix
                        .iter()
                        .chain(&bound)
                        .all(|&d| engine.decide_scheduled(d).is_ok());
                    let ok = if decided {
                        self.propagate().is_ok()
                    } else {
                        self.stats.failures += 1;
                        false
                    };
                    if WATCHED {
                        self.observe_node(None, !ok);
                    }
                    self.phase = if ok { Phase::Descend } else { Phase::Done };
                }
                Phase::Descend => {
                    if let Some(reason) = self.limit_reached() {
                        self.stats.stopped = Some(reason);
                        self.phase = Phase::Done;
                        continue;
                    }
                    if self.restart_due() {
                        let root = self.stack.first().map_or(Mark::default(), |f| f.mark);
                        self.model.engine_mut().restore(root);
                        self.stack.clear();
                        self.stats.restarts += 1;
                        continue;
                    }
                    let Some(decision) = self.choose() else {
                        if self.config.check_solutions {
                            self.check_solution();
                        }
                        if WATCHED {
                            self.observe_solution();
                        }
                        self.count_solution();
                        return true;
                    };
                    let mark = self.model.engine_mut().mark();
                    self.stack.push(Frame {
                        mark,
                        decision,
                        right_branch_taken: false,
                    });
                    self.stats.max_depth = self.stats.max_depth.max(self.stack.len() as u64);
                    if self.apply_with::<WATCHED>(decision).is_err() {
                        self.phase = Phase::Backtrack;
                    }
                }
                Phase::Backtrack => {
                    self.phase = if self.backtrack_with::<WATCHED>() {
                        Phase::Descend
                    } else {
                        Phase::Done
                    };
                }
                Phase::Done => {
                    self.stats.elapsed = self.started.elapsed();
                    return false;
                }
            }
        }
    }

    /// Counts the current node (every variable fixed, checked already) as a solution: branch
    /// and bound's incumbent, guidance, statistics; the next step backtracks from it.
    #[inline(always)]
    pub(super) fn count_solution(&mut self) {
        if let Some(objective) = &mut self.objective {
            let value = self.model.engine().min(objective.var());
            objective.found(objective.value_of(value));
            if self.custom.is_some() {
                // Guidance follows branch and bound's improving solutions.
                self.guide
                    .solution(self.model.engine(), self.model.num_vars());
            }
        }
        self.stats.solutions += 1;
        self.phase = Phase::Backtrack;
        self.stats.elapsed = self.started.elapsed();
    }

    /// Returns to the deepest open right branch and takes it; false when the tree is done.
    pub(super) fn backtrack(&mut self) -> bool {
        self.backtrack_with::<false>()
    }

    /// [`backtrack`](Solver::backtrack), telling the observer when `WATCHED`.
    #[inline(always)]
    fn backtrack_with<const WATCHED: bool>(&mut self) -> bool {
        while let Some(frame) = self.stack.last_mut() {
            let (mark, decision) = (frame.mark, frame.decision);
            let right = !frame.right_branch_taken;
            frame.right_branch_taken = true;
            self.model.engine_mut().restore(mark);
            if !right {
                self.stack.pop();
            } else if self.node_limit_reached() {
                // A right branch is a node too: without this check a run of failing right
                // branches would pass the limit before the next descent looked at it.
                self.stats.stopped = Some(StopReason::NodeLimit);
                return false;
            } else if self.apply_with::<WATCHED>(decision.negate()).is_ok() {
                return true;
            }
        }
        false
    }

    /// Checks that every decision names a variable of the model: one of its own, or an
    /// unbound one (read back from a file) whose index is in range.
    pub(super) fn check_prefix(&self, prefix: &[Decision]) -> Result<(), ModelError> {
        for d in prefix {
            let n = self.model.num_vars();
            if d.var().index() >= n {
                return Err(ModelError::InvalidArgument {
                    reason: format!(
                        "decision {d:?} names variable #{}, but the model has {n} variables",
                        d.var().index(),
                    ),
                });
            }
            self.model.check_decision_var(d.var())?;
        }
        Ok(())
    }

    /// Counts the solutions below a decision prefix (a subproblem from
    /// [`split`](Solver::split)). The prefix may come from another process, so it is checked:
    /// each decision must name a variable of this model, or an unbound one (as read back from
    /// a file, see [`VarId`]) whose index is in range; anything else is a [`ModelError`].
    pub fn count_in(&mut self, prefix: &[Decision]) -> Result<u64, ModelError> {
        self.check_prefix(prefix)?;
        self.restart();
        self.prefix.extend_from_slice(prefix);
        while self.advance() {}
        Ok(self.stats.solutions)
    }

    /// A lazy iterator over the solutions below a decision prefix, checked as in
    /// [`count_in`](Solver::count_in).
    pub fn solutions_in(&mut self, prefix: &[Decision]) -> Result<Solutions<'_>, ModelError> {
        self.check_prefix(prefix)?;
        self.restart();
        self.prefix.extend_from_slice(prefix);
        Ok(Solutions {
            solver: self,
            workers: None,
        })
    }

    /// Whether the current attempt has used up its failures; if so, starts the next one.
    fn restart_due(&mut self) -> bool {
        let (failures, at_root) = (self.stats.failures, self.stack.is_empty());
        self.restart
            .as_mut()
            .is_some_and(|r| r.due(failures, at_root))
    }

    /// Applies a decision as a new node and propagates; counts a failure if it fails.
    pub(super) fn apply(&mut self, decision: Decision) -> Result<(), Conflict> {
        self.apply_with::<false>(decision)
    }

    /// [`apply`](Solver::apply), telling the observer of the node when `WATCHED`.
    #[inline(always)]
    fn apply_with<const WATCHED: bool>(&mut self, decision: Decision) -> Result<(), Conflict> {
        let result = self.apply_unwatched(decision);
        if WATCHED {
            self.observe_node(Some(decision), result.is_err());
        }
        result
    }

    #[inline(always)]
    fn apply_unwatched(&mut self, decision: Decision) -> Result<(), Conflict> {
        self.stats.nodes += 1;
        if self.objective.is_some() && self.apply_bound().is_err() {
            self.stats.failures += 1;
            return Err(Conflict);
        }
        if self.model.engine_mut().decide(decision).is_err() {
            self.stats.failures += 1;
            return Err(Conflict);
        }
        self.propagate()
    }

    /// Narrows the objective of an optimisation run to beat the best solution so far (see
    /// [`optimize`](super::optimize)); out of line, as only optimisation runs take it.
    #[cold]
    #[inline(never)]
    fn apply_bound(&mut self) -> Result<(), Conflict> {
        match self.objective.as_ref().and_then(Objective::bound_decision) {
            Some(bound) => self.model.engine_mut().decide(bound),
            None => Ok(()),
        }
    }

    /// Propagates to a fixpoint; counts a failure if it fails.
    pub(super) fn propagate(&mut self) -> Result<(), Conflict> {
        let result = self
            .model
            .engine_mut()
            .propagate(&mut self.stats.propagations);
        if result.is_err() {
            self.stats.failures += 1;
        }
        result
    }

    /// Panics, naming the constraint, if the current node (every variable fixed) breaks a
    /// posted constraint: see [`SearchConfig::check_solutions`].
    pub(super) fn check_solution(&mut self) {
        let mut values = std::mem::take(&mut self.checked_values);
        values.clear();
        let engine = self.model.engine();
        values.extend((0..self.model.num_vars() as u32).map(|x| {
            assert!(
                engine.is_fixed(x),
                "bezzel bug: a solution leaves x{x} unfixed"
            );
            engine.min(x)
        }));
        if let Err(e) = self.model.check_constraints(&values) {
            panic!(
                "bezzel: search reported a wrong solution: {e}; a propagator let it through \
                 (values: {values:?})"
            );
        }
        self.checked_values = values;
    }

    /// The decision to branch on at the current node, `None` at a solution.
    #[inline]
    pub(super) fn choose(&mut self) -> Option<Decision> {
        if self.custom.is_some()
            && let Some(decision) = self.choose_custom()
        {
            return Some(decision);
        }
        self.branching.choose(
            self.model.engine(),
            self.config.var_order,
            self.config.value_order,
        )
    }

    /// The user's brancher's decision ([`Solver::brancher`]), else guidance's
    /// ([`guide`](super::guide)) when it is on; out of line, so that searches without either
    /// pay a test of an `Option` at each node and no more.
    #[inline(never)]
    fn choose_custom(&mut self) -> Option<Decision> {
        let engine = self.model.engine();
        let (model, n) = (self.model.id(), self.model.num_vars());
        let steer = self.custom.as_mut()?;
        if let Some(user) = &mut steer.user
            && let Some(decision) = user.decide(engine, model, n)
        {
            if steer.guided {
                self.guide.note_choice(decision.var().index, &self.stats);
            }
            return Some(decision);
        }
        if !steer.guided {
            return None;
        }
        self.guide.choose(
            engine,
            model,
            &self.branching,
            self.config.var_order,
            self.config.value_order,
            &self.stats,
        )
    }

    /// Whether the latest run has explored its whole tree: it ended (not paused at a
    /// solution, as [`first`](Solver::first) and the [`solutions`](Solver::solutions) iterator
    /// leave it) and no limit stopped it.
    pub fn is_exhausted(&self) -> bool {
        self.phase == Phase::Done && self.stats.is_complete()
    }

    /// Tells the observer of the node just propagated (the root when `decision` is `None`);
    /// out of line, as only watched runs take it.
    #[cold]
    #[inline(never)]
    fn observe_node(&mut self, decision: Option<Decision>, failed: bool) {
        let domains = Domains::new(self.model.engine(), self.model.id(), self.model.num_vars());
        if let Some(observer) = self.observer.as_mut() {
            observer.node(&Node {
                depth: self.stack.len(),
                decision,
                failed,
                domains: &domains,
            });
        }
    }

    /// Tells the observer that the node last reported is a solution.
    #[cold]
    #[inline(never)]
    fn observe_solution(&mut self) {
        if let Some(observer) = self.observer.as_mut() {
            observer.solution(self.stack.len());
        }
    }

    /// The learning state of the latest run, if it learnt.
    #[cfg(test)]
    pub(crate) fn learner(&self) -> Option<&crate::learn::Learner> {
        self.learner.as_deref()
    }

    /// The restorable state of the engine, for tests that check backtracking.
    #[cfg(test)]
    pub(crate) fn model_state(&self) -> crate::store::StoreState {
        self.model.engine().state()
    }
}

/// Lazy iterator over solutions; see [`Solver::solutions`].
#[derive(Debug)]
pub struct Solutions<'a> {
    pub(super) solver: &'a mut Solver,
    /// The solutions the worker threads find, for a run on them.
    pub(super) workers: Option<super::threads::WorkerSolutions>,
}

impl Solutions<'_> {
    /// Statistics of the run so far (of a run on worker threads: once it is over).
    pub fn stats(&self) -> &Statistics {
        &self.solver.stats
    }
}

impl Iterator for Solutions<'_> {
    type Item = Solution;

    fn next(&mut self) -> Option<Solution> {
        match &mut self.workers {
            Some(workers) => workers.next(self.solver),
            None => self.solver.next_solution(),
        }
    }
}
