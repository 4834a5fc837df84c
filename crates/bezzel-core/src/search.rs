//! Depth-first search over a [`Model`], with an explicit stack.
//!
//! A [`Solver`] owns the model. Each node picks an unfixed variable ([`VarOrder`]) and a
//! decision on it ([`ValueOrder`]): the left branch applies the decision, the right branch its
//! negation. Every frame of the stack holds the trail checkpoint taken before the left branch,
//! so backtracking is a restore to that checkpoint; the depth of search is bounded by memory,
//! not by the call stack. Search is resumable between solutions, which is what makes
//! [`Solver::solutions`] a lazy iterator. Limits (solutions, nodes, time, a cancellation flag)
//! end a run early; [`Statistics::stopped`] says which.

use crate::error::ModelError;
use crate::model::Model;
use crate::solution::{Solution, SolutionSet};
use crate::stats::{Statistics, StopReason};
use crate::store::Conflict;
use crate::trail::Mark;
use crate::var::VarId;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Which unfixed variable to branch on next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum VarOrder {
    /// The first unfixed variable in branching order.
    InputOrder,
    /// The unfixed variable with the fewest values; ties go to the earliest ("first fail").
    #[default]
    SmallestDomain,
    /// Fewest values; ties go to the variable with the most propagators, then the earliest.
    SmallestDomainMaxDegree,
    /// Smallest ratio of domain size to weighted degree ("dom/wdeg", Boussemart et al. 2004):
    /// every propagator's weight is 1 plus the number of times it failed, and a variable's
    /// weighted degree sums the weights of the propagators listening to it. Weights persist
    /// across runs and restarts, so search learns where the model is hard.
    DomWDeg,
}

/// What to try first on the chosen variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum ValueOrder {
    /// `x = min`, then `x != min`.
    #[default]
    Min,
    /// `x = max`, then `x != max`.
    Max,
    /// Bisect: `x <= mid`, then `x > mid`.
    Split,
}

/// Limits that end a run early. `None` means unlimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Limits {
    /// Stop after this many solutions.
    pub solutions: Option<u64>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this much wall-clock time.
    pub time: Option<Duration>,
}

/// Restarts for satisfaction search: after `scale · luby(i)` failures the `i`-th attempt
/// gives up and search starts again from the root (keeping what [`VarOrder::DomWDeg`] learnt).
///
/// Restarts only apply to [`Solver::first`], where revisiting a subtree is harmless; runs that
/// enumerate or count solutions ignore them, so no solution is lost or reported twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Restarts {
    /// Failures allowed in an attempt of Luby length 1.
    pub scale: u64,
}

impl Default for Restarts {
    fn default() -> Restarts {
        Restarts { scale: 100 }
    }
}

/// The `i`-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...
pub fn luby(i: u64) -> u64 {
    let i = i.max(1);
    let mut k = 1u32;
    // Find k with 2^(k-1) <= i < 2^k.
    while k < 63 && (1u64 << k) - 1 < i {
        k += 1;
    }
    if i == (1u64 << k) - 1 {
        1u64 << (k - 1)
    } else {
        luby(i - ((1u64 << (k - 1)) - 1))
    }
}

/// Heuristics and limits of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchConfig {
    /// Variable selection.
    pub var_order: VarOrder,
    /// Value selection.
    pub value_order: ValueOrder,
    /// Limits of each run.
    pub limits: Limits,
    /// Restarts for [`Solver::first`]; `None` (the default) searches the tree once.
    #[serde(default)]
    pub restarts: Option<Restarts>,
    /// Checks every solution against every constraint's definition
    /// ([`Propagator::is_satisfied`](crate::Propagator::is_satisfied)) before reporting it,
    /// and panics, naming the constraint, if one is broken: a propagator bug must not pass
    /// as an answer. The default is on in debug builds and off in release builds, where it
    /// costs time on every solution (about 12% when counting queens with the model); the
    /// environment variable `BEZZEL_CHECK_SOLUTIONS` overrides the default (`1` on, `0` off).
    /// The repository's `.cargo/config.toml` sets it to `1`, so the test suite runs with it.
    #[serde(default = "checks_by_default")]
    pub check_solutions: bool,
}

/// Whether solutions are checked unless a [`SearchConfig`] says otherwise: in debug builds,
/// unless the environment variable `BEZZEL_CHECK_SOLUTIONS` says `1` (on) or `0` (off).
pub fn checks_by_default() -> bool {
    static DEFAULT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *DEFAULT.get_or_init(|| match std::env::var_os("BEZZEL_CHECK_SOLUTIONS") {
        Some(v) if v == "1" => true,
        Some(v) if v == "0" => false,
        _ => cfg!(debug_assertions),
    })
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            var_order: VarOrder::default(),
            value_order: ValueOrder::default(),
            limits: Limits::default(),
            restarts: None,
            check_solutions: checks_by_default(),
        }
    }
}

/// A branching decision on one variable (by its index in the model).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Decision {
    /// `x = v`
    Assign(u32, i32),
    /// `x != v`
    Exclude(u32, i32),
    /// `x <= v`
    AtMost(u32, i32),
    /// `x > v`
    Above(u32, i32),
}

impl Decision {
    /// The decision of the other branch.
    pub fn negate(self) -> Decision {
        match self {
            Decision::Assign(x, v) => Decision::Exclude(x, v),
            Decision::Exclude(x, v) => Decision::Assign(x, v),
            Decision::AtMost(x, v) => Decision::Above(x, v),
            Decision::Above(x, v) => Decision::AtMost(x, v),
        }
    }

    /// The variable (index in the model) the decision is about.
    pub fn var(self) -> u32 {
        match self {
            Decision::Assign(x, _)
            | Decision::Exclude(x, _)
            | Decision::AtMost(x, _)
            | Decision::Above(x, _) => x,
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    checkpoint: Mark,
    decision: Decision,
    right_branch_taken: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Start,
    Descend,
    Backtrack,
    Done,
}

/// Runs depth-first search on a model; see the [module docs](self).
///
/// Each call of [`solutions`](Solver::solutions), [`first`](Solver::first),
/// [`count`](Solver::count) or [`solution_set`](Solver::solution_set) starts a new run from the
/// model as posted, and [`stats`](Solver::stats) describes the latest run.
#[derive(Debug)]
pub struct Solver {
    model: Model,
    config: SearchConfig,
    branch_vars: Vec<u32>,
    /// The variables outside `branch_vars`, branched on (with the same heuristics) once every
    /// branching variable is fixed, so that a solution always fixes every variable.
    other_vars: Vec<u32>,
    degree: Vec<usize>,
    cancel: Option<Arc<AtomicBool>>,
    stats: Statistics,
    stack: Vec<Frame>,
    phase: Phase,
    started: Instant,
    /// Restart bookkeeping of the current run: `None` when the run does not restart.
    restart: Option<RestartState>,
    /// Decisions applied at the root of the current run, restricting it to a subproblem.
    prefix: Vec<Decision>,
    /// The values of a solution being checked, kept to check without allocating.
    checked_values: Vec<i32>,
}

#[derive(Debug, Clone, Copy)]
struct RestartState {
    attempt: u64,
    failures_at_start: u64,
    allowed: u64,
    scale: u64,
}

impl Solver {
    /// A solver with the default configuration: smallest domain first, minimum value first,
    /// no limits, branching on every variable.
    pub fn new(model: Model) -> Solver {
        Solver::with_config(model, SearchConfig::default())
    }

    /// A solver with the given heuristics and limits.
    pub fn with_config(model: Model, config: SearchConfig) -> Solver {
        let n = model.num_vars() as u32;
        let degree = model
            .vars()
            .into_iter()
            .map(|x| model.queue.degree(x.index))
            .collect();
        Solver {
            model,
            config,
            branch_vars: (0..n).collect(),
            other_vars: Vec::new(),
            degree,
            cancel: None,
            stats: Statistics::default(),
            stack: Vec::new(),
            phase: Phase::Done,
            started: Instant::now(),
            restart: None,
            prefix: Vec::new(),
            checked_values: Vec::new(),
        }
    }

    /// Branches on `vars` first, in this order for [`VarOrder::InputOrder`]. Once they are
    /// all fixed, search goes on over the other variables that propagation left unfixed
    /// (in creation order for [`VarOrder::InputOrder`], by the same heuristic otherwise), so
    /// every solution still fixes every variable and satisfies every constraint.
    pub fn branch_on(mut self, vars: &[VarId]) -> Result<Solver, ModelError> {
        let mut chosen = vec![false; self.model.num_vars()];
        for &x in vars {
            self.model.check_var(x)?;
            chosen[x.index()] = true;
        }
        self.branch_vars = vars.iter().map(|x| x.index).collect();
        self.other_vars = (0..self.model.num_vars() as u32)
            .filter(|&x| !chosen[x as usize])
            .collect();
        Ok(self)
    }

    /// Sets a flag that another thread can raise to stop the run at the next node.
    pub fn set_cancel_flag(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Changes the configuration for the next runs.
    pub fn config_mut(&mut self) -> &mut SearchConfig {
        &mut self.config
    }

    /// The model being searched.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Statistics of the latest run.
    pub fn stats(&self) -> &Statistics {
        &self.stats
    }

    /// A lazy iterator over the solutions of a new run.
    pub fn solutions(&mut self) -> Solutions<'_> {
        self.restart();
        Solutions { solver: self }
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
        self.restart = self.config.restarts.map(|r| RestartState {
            attempt: 1,
            failures_at_start: 0,
            allowed: r.scale.max(1) * luby(1),
            scale: r.scale.max(1),
        });
        self.next_solution()
    }

    /// Counts solutions (up to the solution limit, if one is set); check
    /// [`Statistics::is_complete`] to see whether a limit cut the count short.
    pub fn count(&mut self) -> u64 {
        self.restart();
        while self.advance() {}
        self.stats.solutions
    }

    /// All solutions on every variable, as a canonical [`SolutionSet`].
    pub fn solution_set(&mut self) -> SolutionSet {
        let vars = self.model.vars();
        self.collect_set(&vars)
    }

    /// All solutions projected on `vars` (deduplicated), as a canonical [`SolutionSet`].
    pub fn solution_set_of(&mut self, vars: &[VarId]) -> Result<SolutionSet, ModelError> {
        for &x in vars {
            self.model.check_var(x)?;
        }
        Ok(self.collect_set(vars))
    }

    fn collect_set(&mut self, vars: &[VarId]) -> SolutionSet {
        let names = vars
            .iter()
            .map(|&x| self.model.names()[x.index()].clone())
            .collect();
        let rows = self.solutions().map(|s| s.values_of(vars)).collect();
        SolutionSet::new(names, rows)
    }

    fn restart(&mut self) {
        self.restart = None;
        self.prefix.clear();
        self.model.store.restore(Mark::default());
        self.model.queue.clear();
        self.stack.clear();
        self.stats = Statistics::default();
        self.started = Instant::now();
        self.phase = Phase::Start;
    }

    fn next_solution(&mut self) -> Option<Solution> {
        if !self.advance() {
            return None;
        }
        let values = (0..self.model.num_vars() as u32)
            .map(|x| self.model.store.min(x))
            .collect();
        Some(Solution::new(self.model.id(), values))
    }

    fn limit_reached(&self) -> Option<StopReason> {
        let limits = &self.config.limits;
        if limits.solutions.is_some_and(|l| self.stats.solutions >= l) {
            return Some(StopReason::SolutionLimit);
        }
        if limits.nodes.is_some_and(|l| self.stats.nodes >= l) {
            return Some(StopReason::NodeLimit);
        }
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
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
    fn advance(&mut self) -> bool {
        loop {
            match self.phase {
                Phase::Start => {
                    // The prefix narrows the root before its one propagation: propagation
                    // reaches the same fixpoint in any order, and once is cheaper than once per
                    // decision. The prefix is part of the root, not search nodes.
                    self.stats.nodes = 1;
                    self.model.schedule_all();
                    let narrowed =
                        (0..self.prefix.len()).all(|i| self.narrow(self.prefix[i]).is_ok());
                    let ok = if narrowed {
                        self.propagate().is_ok()
                    } else {
                        self.stats.failures += 1;
                        self.model.queue.clear();
                        false
                    };
                    self.phase = if ok { Phase::Descend } else { Phase::Done };
                }
                Phase::Descend => {
                    if let Some(reason) = self.limit_reached() {
                        self.stats.stopped = Some(reason);
                        self.phase = Phase::Done;
                        continue;
                    }
                    if self.restart_due() {
                        self.model
                            .store
                            .restore(self.stack.first().map_or(Mark::default(), |f| f.checkpoint));
                        self.stack.clear();
                        self.stats.restarts += 1;
                        continue;
                    }
                    let Some(decision) = self.choose() else {
                        if self.config.check_solutions {
                            self.check_solution();
                        }
                        self.stats.solutions += 1;
                        self.phase = Phase::Backtrack;
                        self.stats.elapsed = self.started.elapsed();
                        return true;
                    };
                    let checkpoint = self.model.store.mark();
                    self.stack.push(Frame {
                        checkpoint,
                        decision,
                        right_branch_taken: false,
                    });
                    self.stats.max_depth = self.stats.max_depth.max(self.stack.len() as u64);
                    if self.apply(decision).is_err() {
                        self.phase = Phase::Backtrack;
                    }
                }
                Phase::Backtrack => {
                    self.phase = if self.backtrack() {
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

    /// Returns to the deepest open right branch and takes it; false when the tree is done.
    fn backtrack(&mut self) -> bool {
        while let Some(frame) = self.stack.last_mut() {
            let (checkpoint, decision) = (frame.checkpoint, frame.decision);
            let right = !frame.right_branch_taken;
            frame.right_branch_taken = true;
            self.model.store.restore(checkpoint);
            if !right {
                self.stack.pop();
            } else if self.apply(decision.negate()).is_ok() {
                return true;
            }
        }
        false
    }

    /// Decisions that lead from the root to the current node, with the same solutions below.
    ///
    /// The path itself can be long: a chain of right branches `x != 0`, `x != 1`, ... runs
    /// on through every variable it fixes, and a split's prefixes together would hold a number
    /// of decisions quadratic in their count (2 million for 2,000 subproblems of 80 queens).
    /// So the decisions on a variable that is fixed here are replaced by one `x = value`,
    /// placed where the first of them was: solutions below the node give `x` that value
    /// (propagation is sound), and that value satisfies every decision on `x`. A prefix then
    /// holds at most a few decisions per variable it touches. `seen` is all false, and is
    /// left so.
    fn current_prefix(&self, seen: &mut [bool]) -> Vec<Decision> {
        let path = self
            .prefix
            .iter()
            .copied()
            .chain(self.stack.iter().map(|f| {
                if f.right_branch_taken {
                    f.decision.negate()
                } else {
                    f.decision
                }
            }));
        let mut prefix = Vec::new();
        for decision in path {
            let x = decision.var();
            if !self.model.is_fixed(x) {
                prefix.push(decision);
            } else if !std::mem::replace(&mut seen[x as usize], true) {
                prefix.push(Decision::Assign(x, self.model.store.min(x)));
            }
        }
        for d in &prefix {
            seen[d.var() as usize] = false;
        }
        prefix
    }

    /// Splits the search tree into at least `target` subproblems where the tree allows:
    /// decision prefixes, none refuted by propagation, whose subtrees partition the
    /// solutions (Embarrassingly Parallel Search, Régin et al. 2013). The split deepens one
    /// level at a time until there are enough; a level is one left branch (one value of one
    /// variable), so the split behaves like d-way branching on the first variables. Solving each with [`count_in`](Solver::count_in) and adding up
    /// gives [`count`](Solver::count).
    pub fn split(&mut self, target: usize) -> Vec<Vec<Decision>> {
        let mut depth = 1;
        let mut previous = usize::MAX;
        loop {
            let prefixes = self.prefixes_at(depth);
            if prefixes.len() >= target || prefixes.len() == previous {
                self.restart();
                return prefixes;
            }
            previous = prefixes.len();
            depth += 1;
        }
    }

    /// How deep the current node is for [`split`](Solver::split). Left branches count, and
    /// a chain of right branches (`x != 0`, `x != 1`, ...) stays on its level, so each level
    /// expands every value of a variable and the rightmost subproblem is not left holding most
    /// of the tree. But a chain that has fixed its variable (the last value left) counts as a
    /// level of its own, like the left branch `x = last` it amounts to: otherwise the chain
    /// would run on through every later variable on one level, and a split of 300 queens into
    /// 100 pieces would make 29,000. `seen` is all false, and is left so.
    fn split_level(&self, seen: &mut [bool]) -> usize {
        let mut level = 0;
        for f in self.stack.iter().rev() {
            let x = f.decision.var();
            let last_on_its_variable = !std::mem::replace(&mut seen[x as usize], true);
            if !f.right_branch_taken || (last_on_its_variable && self.model.is_fixed(x)) {
                level += 1;
            }
        }
        for f in &self.stack {
            seen[f.decision.var() as usize] = false;
        }
        level
    }

    /// Every node at `depth` (or a shallower solution), as a decision prefix.
    fn prefixes_at(&mut self, depth: usize) -> Vec<Vec<Decision>> {
        self.restart();
        let mut out = Vec::new();
        self.model.schedule_all();
        if self.propagate().is_err() {
            return out;
        }
        let mut seen = vec![false; self.model.num_vars()];
        loop {
            let level = self.split_level(&mut seen);
            let decision = if level < depth { self.choose() } else { None };
            let alive = match decision {
                None => {
                    out.push(self.current_prefix(&mut seen));
                    self.backtrack()
                }
                Some(decision) => {
                    let checkpoint = self.model.store.mark();
                    self.stack.push(Frame {
                        checkpoint,
                        decision,
                        right_branch_taken: false,
                    });
                    self.apply(decision).is_ok() || self.backtrack()
                }
            };
            if !alive {
                return out;
            }
        }
    }

    /// Checks that every decision names a variable of the model.
    fn check_prefix(&self, prefix: &[Decision]) -> Result<(), ModelError> {
        match prefix
            .iter()
            .find(|d| d.var() as usize >= self.model.num_vars())
        {
            Some(d) => Err(ModelError::InvalidArgument {
                reason: format!(
                    "decision {d:?} names variable #{}, but the model has {} variables",
                    d.var(),
                    self.model.num_vars()
                ),
            }),
            None => Ok(()),
        }
    }

    /// Counts the solutions below a decision prefix (a subproblem from
    /// [`split`](Solver::split)); the prefix may come from another process, so it is checked.
    pub fn count_in(&mut self, prefix: &[Decision]) -> Result<u64, ModelError> {
        self.check_prefix(prefix)?;
        self.restart();
        self.prefix.extend_from_slice(prefix);
        while self.advance() {}
        Ok(self.stats.solutions)
    }

    /// A lazy iterator over the solutions below a decision prefix.
    pub fn solutions_in(&mut self, prefix: &[Decision]) -> Result<Solutions<'_>, ModelError> {
        self.check_prefix(prefix)?;
        self.restart();
        self.prefix.extend_from_slice(prefix);
        Ok(Solutions { solver: self })
    }

    /// Whether the current attempt has used up its failures; if so, starts the next one.
    fn restart_due(&mut self) -> bool {
        let Some(r) = &mut self.restart else {
            return false;
        };
        if self.stats.failures - r.failures_at_start < r.allowed || self.stack.is_empty() {
            return false;
        }
        r.attempt += 1;
        r.failures_at_start = self.stats.failures;
        r.allowed = r.scale.saturating_mul(luby(r.attempt));
        true
    }

    /// Applies a decision as a new node and propagates; counts a failure if it fails.
    fn apply(&mut self, decision: Decision) -> Result<(), Conflict> {
        self.stats.nodes += 1;
        if self.narrow(decision).is_err() {
            self.stats.failures += 1;
            self.model.queue.clear();
            return Err(Conflict);
        }
        self.propagate()
    }

    /// Applies a decision's domain change and wakes the propagators concerned.
    fn narrow(&mut self, decision: Decision) -> Result<(), Conflict> {
        let x = decision.var();
        self.model.narrow(x, |s| match decision {
            Decision::Assign(x, v) => s.assign(x, v.into()),
            Decision::Exclude(x, v) => s.remove(x, v.into()),
            Decision::AtMost(x, v) => s.set_max(x, v.into()),
            Decision::Above(x, v) => s.set_min(x, i64::from(v) + 1),
        })
    }

    fn propagate(&mut self) -> Result<(), Conflict> {
        let result = self.model.run_queue(&mut self.stats.propagations);
        if result.is_err() {
            self.stats.failures += 1;
        }
        result
    }

    /// Panics, naming the constraint, if the current node (every variable fixed) breaks a
    /// posted constraint: see [`SearchConfig::check_solutions`].
    fn check_solution(&mut self) {
        let mut values = std::mem::take(&mut self.checked_values);
        values.clear();
        values.extend((0..self.model.num_vars() as u32).map(|x| {
            assert!(
                self.model.is_fixed(x),
                "bezzel bug: a solution leaves x{x} unfixed"
            );
            self.model.store.min(x)
        }));
        if let Err(e) = self.model.check_constraints(&values) {
            panic!(
                "bezzel: search reported a wrong solution: {e}; a propagator let it through \
                 (values: {values:?})"
            );
        }
        self.checked_values = values;
    }

    fn choose(&self) -> Option<Decision> {
        let x = self
            .choose_var(&self.branch_vars)
            .or_else(|| self.choose_var(&self.other_vars))?;
        let store = &self.model.store;
        let (min, max) = (store.min(x), store.max(x));
        Some(match self.config.value_order {
            ValueOrder::Min => Decision::Assign(x, min),
            ValueOrder::Max => Decision::Assign(x, max),
            ValueOrder::Split => {
                Decision::AtMost(x, ((i64::from(min) + i64::from(max)).div_euclid(2)) as i32)
            }
        })
    }

    /// The unfixed variable of `vars` that the variable order picks, if any.
    fn choose_var(&self, vars: &[u32]) -> Option<u32> {
        let store = &self.model.store;
        let unfixed = vars.iter().copied().filter(|&x| !self.model.is_fixed(x));
        match self.config.var_order {
            VarOrder::InputOrder => unfixed.into_iter().next(),
            VarOrder::SmallestDomain => {
                // One key per variable, (size, position), and a plain minimum: comparisons
                // that select rather than branch, and the earliest of equal sizes wins.
                // Fixed variables get the largest key.
                let key = |(i, &x): (usize, &u32)| {
                    let size = u64::from(store.size(x));
                    let key = size << 32 | i as u64;
                    if size == 1 { u64::MAX } else { key }
                };
                let best = vars.iter().enumerate().map(key).min();
                best.filter(|&k| k != u64::MAX)
                    .map(|k| vars[(k & u64::from(u32::MAX)) as usize])
            }
            VarOrder::SmallestDomainMaxDegree => {
                unfixed.min_by_key(|&x| (store.size(x), std::cmp::Reverse(self.degree[x as usize])))
            }
            VarOrder::DomWDeg => {
                let mut best: Option<(u32, u64, u64)> = None;
                for x in unfixed {
                    let weight: u64 = self
                        .model
                        .queue
                        .subscribers(x)
                        .map(|p| 1 + self.model.failures[p as usize])
                        .sum::<u64>()
                        .max(1);
                    let size = u64::from(store.size(x));
                    // size/weight < best_size/best_weight, without division.
                    if best.is_none_or(|(_, s, w)| {
                        u128::from(size) * u128::from(w) < u128::from(s) * u128::from(weight)
                    }) {
                        best = Some((x, size, weight));
                    }
                }
                best.map(|(x, _, _)| x)
            }
        }
    }

    /// The restorable state of the model, for tests that check backtracking.
    #[cfg(test)]
    pub(crate) fn model_state(&self) -> crate::store::StoreState {
        self.model.state()
    }
}

/// Lazy iterator over solutions; see [`Solver::solutions`].
#[derive(Debug)]
pub struct Solutions<'a> {
    solver: &'a mut Solver,
}

impl Solutions<'_> {
    /// Statistics of the run so far.
    pub fn stats(&self) -> &Statistics {
        &self.solver.stats
    }
}

impl Iterator for Solutions<'_> {
    type Item = Solution;

    fn next(&mut self) -> Option<Solution> {
        self.solver.next_solution()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Relation;

    fn queens(n: usize) -> (Model, Vec<VarId>) {
        let mut m = Model::new();
        let q = m.named_vars("q", n, 0..n as i32).unwrap();
        m.all_different(&q).unwrap();
        let up: Vec<IntView> = q
            .iter()
            .enumerate()
            .map(|(i, x)| x.offset(i as i32))
            .collect();
        let down: Vec<IntView> = q
            .iter()
            .enumerate()
            .map(|(i, x)| x.offset(-(i as i32)))
            .collect();
        m.all_different(&up).unwrap();
        m.all_different(&down).unwrap();
        (m, q)
    }

    use crate::var::IntView;

    #[test]
    fn backtracking_restores_the_whole_store() {
        let (m, _) = queens(6);
        let mut solver = Solver::new(m);
        let before = solver.model_state();
        // Walk the whole tree; every restore must land exactly on the state it left.
        let mut count = 0;
        solver.restart();
        while solver.advance() {
            count += 1;
        }
        assert_eq!(count, 4);
        solver.model.store.restore(Mark::default());
        assert_eq!(solver.model_state(), before);

        // And at every depth: state after a restore equals the state at the checkpoint.
        solver.restart();
        solver.stats.nodes = 1;
        solver.model.schedule_all();
        solver.propagate().unwrap();
        let root = solver.model_state();
        let cp = solver.model.store.mark();
        let d = solver.choose().unwrap();
        solver.apply(d).unwrap();
        let child = solver.model_state();
        assert_ne!(child, root);
        let cp2 = solver.model.store.mark();
        let d2 = solver.choose().unwrap();
        let _ = solver.apply(d2);
        solver.model.store.restore(cp2);
        assert_eq!(solver.model_state(), child);
        solver.model.store.restore(cp);
        assert_eq!(solver.model_state(), root);
    }

    #[test]
    fn queens_counts_match_oeis_for_every_order() {
        // OEIS A000170.
        let expected = [1u64, 0, 0, 2, 10, 4, 40, 92];
        for (i, &e) in expected.iter().enumerate() {
            for var_order in [
                VarOrder::InputOrder,
                VarOrder::SmallestDomain,
                VarOrder::SmallestDomainMaxDegree,
                VarOrder::DomWDeg,
            ] {
                for value_order in [ValueOrder::Min, ValueOrder::Max, ValueOrder::Split] {
                    let (m, _) = queens(i + 1);
                    let config = SearchConfig {
                        var_order,
                        value_order,
                        ..Default::default()
                    };
                    let mut s = Solver::with_config(m, config);
                    assert_eq!(s.count(), e, "n={} {var_order:?} {value_order:?}", i + 1);
                    assert!(s.stats().is_complete());
                }
            }
        }
    }

    #[test]
    fn limits_stop_runs_and_say_why() {
        let (m, _) = queens(8);
        let mut s = Solver::new(m);
        s.config_mut().limits.solutions = Some(5);
        assert_eq!(s.count(), 5);
        assert_eq!(s.stats().stopped, Some(StopReason::SolutionLimit));
        s.config_mut().limits = Limits {
            nodes: Some(10),
            ..Limits::default()
        };
        s.count();
        assert_eq!(s.stats().stopped, Some(StopReason::NodeLimit));
        assert!(s.stats().nodes <= 11);
        s.config_mut().limits = Limits {
            time: Some(Duration::ZERO),
            ..Limits::default()
        };
        s.count();
        assert_eq!(s.stats().stopped, Some(StopReason::TimeLimit));
        s.config_mut().limits = Limits::default();
        let flag = Arc::new(AtomicBool::new(true));
        s.set_cancel_flag(flag.clone());
        assert_eq!(s.count(), 0);
        assert_eq!(s.stats().stopped, Some(StopReason::Cancelled));
        flag.store(false, Ordering::Relaxed);
        assert_eq!(s.count(), 92);
        assert!(s.stats().is_complete());
        assert_eq!(s.stats().solutions, 92);
        assert!(s.stats().failures > 0 && s.stats().propagations > 0);
        assert!(s.stats().max_depth >= 5);
    }

    #[test]
    fn iterator_is_lazy_and_runs_restart() {
        let (m, q) = queens(8);
        let mut s = Solver::with_config(
            m,
            SearchConfig {
                var_order: VarOrder::InputOrder,
                ..Default::default()
            },
        );
        let first3: Vec<Vec<i32>> = s.solutions().take(3).map(|x| x.values_of(&q)).collect();
        // Input order with minimum value first enumerates in lexicographic order.
        assert_eq!(first3[0], vec![0, 4, 7, 5, 2, 6, 1, 3]);
        assert!(first3.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(s.stats().solutions, 3);
        assert_eq!(s.first().unwrap().values_of(&q), first3[0]);
        assert_eq!(s.count(), 92);
    }

    #[test]
    fn no_solution_is_an_ordinary_answer() {
        let mut m = Model::new();
        let x = m.int_var(0..=3).unwrap();
        let y = m.int_var(0..=3).unwrap();
        m.linear(&[1, 1], &[x, y], Relation::Ge, 7).unwrap();
        let mut s = Solver::new(m);
        assert_eq!(s.first(), None);
        assert_eq!(s.count(), 0);
        assert_eq!(s.stats().failures, 1);
        assert!(s.stats().is_complete());
        assert!(s.solution_set().is_empty());
    }

    #[test]
    fn deep_search_does_not_use_the_call_stack() {
        // A chain x0 < x1 < ... with split branching goes thousands of levels deep.
        let mut m = Model::new();
        let n = 3000;
        let xs = m.int_vars(n, 0..=1).unwrap();
        m.linear(&vec![1; n], &xs, Relation::Eq, 1).unwrap();
        let mut s = Solver::with_config(
            m,
            SearchConfig {
                var_order: VarOrder::InputOrder,
                ..Default::default()
            },
        );
        assert_eq!(s.count(), n as u64);
        assert!(s.stats().max_depth >= n as u64 - 1);
    }

    #[test]
    fn luby_sequence() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
        assert_eq!(luby(31), 16);
        assert_eq!(luby(32), 1);
    }

    /// Checks a placement (a column per row) by the rules of the board, not by the model.
    fn assert_no_attacks(cols: &[i32]) {
        for i in 0..cols.len() {
            for j in i + 1..cols.len() {
                assert_ne!(cols[i], cols[j], "{cols:?}");
                assert_ne!(
                    (cols[i] - cols[j]).unsigned_abs() as usize,
                    j - i,
                    "{cols:?}"
                );
            }
        }
    }

    /// dom/wdeg with frequent restarts, so that 30 queens restart often.
    fn learning_solver(m: Model) -> Solver {
        Solver::with_config(
            m,
            SearchConfig {
                var_order: VarOrder::DomWDeg,
                restarts: Some(Restarts { scale: 2 }),
                ..SearchConfig::default()
            },
        )
    }

    #[test]
    fn restarts_find_solutions_and_learn_weights() {
        let (m, q) = queens(30);
        let mut s = learning_solver(m);
        let sol = s.first().expect("30 queens have solutions");
        let cols: Vec<i32> = sol.values_of(&q);
        assert_no_attacks(&cols);
        assert!(s.stats().restarts > 0, "{}", s.stats());
        assert!(s.model.failures.iter().any(|&f| f > 0));
        // Counting ignores restarts and stays exact.
        let (m, _) = queens(6);
        let mut s = Solver::with_config(
            m,
            SearchConfig {
                restarts: Some(Restarts { scale: 1 }),
                ..SearchConfig::default()
            },
        );
        assert_eq!(s.count(), 4);
        assert_eq!(s.stats().restarts, 0);
    }

    #[test]
    fn restarts_below_a_prefix_keep_the_prefix() {
        let (m, q) = queens(30);
        let mut s = learning_solver(m);
        // Queens in the first two rows at columns 5 and 12, as givens.
        let givens = [
            Decision::Assign(q[0].index() as u32, 5),
            Decision::Assign(q[1].index() as u32, 12),
        ];
        let sol = s
            .first_in(&givens)
            .expect("a valid prefix")
            .expect("30 queens have solutions with these two");
        let cols: Vec<i32> = sol.values_of(&q);
        assert_eq!(&cols[..2], &[5, 12]);
        assert_no_attacks(&cols);
        assert!(s.stats().restarts > 0, "{}", s.stats());
        // Contradictory givens: no solution, and the answer is exact.
        let clash = [
            Decision::Assign(q[0].index() as u32, 5),
            Decision::Assign(q[1].index() as u32, 6),
        ];
        assert_eq!(s.first_in(&clash).expect("a valid prefix"), None);
        assert!(s.stats().is_complete());
        // A decision on a variable the model lacks is an error, not a panic.
        assert!(s.first_in(&[Decision::Assign(99, 0)]).is_err());
    }

    #[test]
    fn settings_and_statistics_round_trip_through_serde() {
        let config = SearchConfig {
            var_order: VarOrder::SmallestDomainMaxDegree,
            value_order: ValueOrder::Split,
            limits: Limits {
                solutions: Some(3),
                nodes: None,
                time: Some(Duration::from_millis(1500)),
            },
            restarts: Some(Restarts { scale: 50 }),
            check_solutions: true,
        };
        let json = serde_json::to_string(&config).unwrap();
        assert_eq!(serde_json::from_str::<SearchConfig>(&json).unwrap(), config);
        let (m, _) = queens(5);
        let mut s = Solver::new(m);
        let sol = s.first().unwrap();
        let stats = s.stats().clone();
        let json = serde_json::to_string(&stats).unwrap();
        assert_eq!(serde_json::from_str::<Statistics>(&json).unwrap(), stats);
        let json = serde_json::to_string(&sol).unwrap();
        assert_eq!(serde_json::from_str::<Solution>(&json).unwrap(), sol);
    }
}
