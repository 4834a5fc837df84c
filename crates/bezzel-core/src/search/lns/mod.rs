//! Large neighbourhood search (Shaw 1998): improve a solution by re-solving part of it.
//!
//! [`Solver::lns`] finds a first solution by branch and bound, then repeats: fix a subset of
//! the decision variables to their values in the incumbent (the best solution so far), search
//! the rest under the bound "better than the incumbent" with a budget of nodes, and keep what
//! improves. Which variables stay free is the [`Neighbourhood`]: a random subset, or a
//! propagation-guided one (related variables: [`Neighbourhood::PropagationGuided`]), or either,
//! drawn by how often each recently improved the incumbent (as OR-Tools' CP-SAT weighs its
//! generators). The share of variables left free adapts, for each kind on its own, as in
//! OR-Tools: a neighbourhood searched to the end within its budget was too small, so the next
//! one is larger; one that ran out of budget was too large. Each neighbourhood is a run below a
//! prefix of `x = incumbent value` decisions, so everything a run does (propagation,
//! dom/wdeg's learning, the guidance of
//! [`SearchConfig::for_optimization`](super::SearchConfig::for_optimization)) works inside it.
//!
//! LNS alone proves nothing: a neighbourhood without a better solution says nothing about the
//! rest of the space. So a share of the nodes ([`Lns::proof_share`]) goes to complete
//! branch and bound on the whole problem under the incumbent's bound, with a budget that
//! doubles each time; when one of those runs ends without hitting its budget, the incumbent
//! is proven optimal (or the model infeasible), and [`LnsRun::is_proven`] says so. With no
//! share, a run is proven only if a neighbourhood happens to free every variable and is
//! searched to its end.
//!
//! Everything random comes from a generator seeded by [`Lns::seed`], propagation is
//! deterministic, and budgets count nodes, not time, so two runs with the same seed, model and
//! configuration make the same neighbourhoods and find the same solutions (unless the time
//! limit cuts them at different points).

mod neighbourhood;
#[cfg(test)]
mod tests;

use self::neighbourhood::{Scratch, SplitMix};
use super::config::Limits;
use super::decision::Decision;
use super::dfs::Solver;
use super::optimize::{Objective, Optimum, Sense};
use crate::error::ModelError;
use crate::solution::Solution;
use crate::stats::{Statistics, StopReason};
use crate::var::{IntView, VarId};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// How LNS chooses the variables it frees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Neighbourhood {
    /// A uniformly random subset of the decision variables.
    #[default]
    Random,
    /// Propagation-guided (Perron, Shaw and Furnon 2004): fix variables one at a time to the
    /// incumbent's values, each next one among those whose domains the fixes so far reduced
    /// most, until few enough are left unfixed; the free ones are related to each other.
    PropagationGuided,
    /// Both kinds, each with its own adaptive size, drawn at random with weights that follow
    /// how often each recently improved the incumbent.
    Adaptive,
}

impl Neighbourhood {
    /// The kinds that build neighbourhoods themselves, as indices of per-kind state.
    const KINDS: [Neighbourhood; 2] = [Neighbourhood::Random, Neighbourhood::PropagationGuided];

    fn kind_index(self) -> usize {
        match self {
            Neighbourhood::PropagationGuided => 1,
            Neighbourhood::Random | Neighbourhood::Adaptive => 0,
        }
    }
}

/// Settings of a large neighbourhood search: see [`Solver::lns`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Lns {
    /// Seed of the generator that picks the neighbourhoods: one seed, one sequence of runs.
    pub seed: u64,
    /// How neighbourhoods are chosen.
    pub neighbourhood: Neighbourhood,
    /// The nodes each neighbourhood may use before it is given up.
    pub nodes_per_neighbourhood: u64,
    /// The nodes of plain branch and bound the run starts with: it goes on past the first
    /// solution, improving it (and proving easy models outright), until it has used this
    /// many; 0 starts the neighbourhoods at the first solution. The complete runs that
    /// follow start with twice the nodes this one used, as smaller ones would prove less.
    pub first_nodes: u64,
    /// The share of the decision variables freed in the first neighbourhood, in `(0, 1]`;
    /// it adapts from there.
    pub initial_free_share: f64,
    /// The share of all nodes spent on complete branch and bound, which alone can prove the
    /// incumbent optimal, in `[0, 1)`: 0 never proves (set a limit then, or the run goes on
    /// for ever), higher values prove sooner and improve more slowly. While neighbourhoods
    /// stop improving (no better solution in the nodes of 20 of them), a nonzero share rises
    /// to one half: the incumbent is then likely optimal or close, and proving it is what is
    /// left to do.
    pub proof_share: f64,
    /// Whether every other complete run searches freely: dom/wdeg, last conflict, the
    /// incumbent's values first and restarts
    /// ([`SearchConfig::for_optimization`](super::SearchConfig::for_optimization)'s orders)
    /// over every variable, in place of the solver's own branching and orders. A model's
    /// stated search may find good solutions and still prove slowly, or never; the runs of
    /// both kinds are complete, so either proves. Off by default; ignored when the solver
    /// has a user's [`Brancher`](crate::Brancher).
    #[serde(default)]
    pub free_proofs: bool,
    /// The variables that neighbourhoods fix or free; empty (the default) means the
    /// solver's branching variables ([`Solver::branch_on`], [`Solver::branch_groups`], or all
    /// of them). The objective's variable is always left free.
    pub vars: Vec<VarId>,
}

impl Default for Lns {
    fn default() -> Lns {
        Lns {
            seed: 0,
            neighbourhood: Neighbourhood::Random,
            nodes_per_neighbourhood: 1000,
            first_nodes: 0,
            initial_free_share: 0.2,
            proof_share: 0.1,
            free_proofs: false,
            vars: Vec::new(),
        }
    }
}

/// The smallest and largest share of variables a neighbourhood frees (at least one variable).
const MIN_FREE_SHARE: f64 = 0.02;
/// How far the free share moves after each neighbourhood, as a fraction of the way to 0 or 1.
const ADAPT_STEP: f64 = 0.1;
/// The success rate each kind starts with: both are tried.
const INITIAL_SUCCESS: f64 = 0.5;
/// How far a neighbourhood's outcome moves its kind's success rate.
const SUCCESS_DECAY: f64 = 0.1;
/// Added to each kind's success rate when drawing, so that no kind is dropped for good (a
/// kind that stopped improving may be the one that helps later).
const MIN_WEIGHT: f64 = 0.05;
/// After the nodes of this many neighbourhoods without a better solution, the run is stale.
const STALE_NEIGHBOURHOODS: u64 = 20;
/// The share of complete runs in a stale run (unless [`Lns::proof_share`] is 0 or higher).
const STALE_PROOF_SHARE: f64 = 0.5;
/// The node budget of the first complete run after the first solution.
const FIRST_PROOF_BUDGET: u64 = 1000;

/// Which kind of run is going on inside an LNS run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    /// Complete branch and bound until the first solution, and on until
    /// [`Lns::first_nodes`].
    First,
    /// A neighbourhood: the incumbent's values on some variables, a node budget; `complete`
    /// when it fixes nothing (so that searching it to the end proves the incumbent); `kind`
    /// is the index of the kind that built it ([`Neighbourhood::KINDS`]).
    Neighbourhood { complete: bool, kind: usize },
    /// Complete branch and bound with a node budget.
    Proof,
}

/// A large neighbourhood search: a lazy iterator over improving solutions, each better than
/// the one before; see [`Solver::lns`].
#[derive(Debug)]
pub struct LnsRun<'a> {
    solver: &'a mut Solver,
    settings: Lns,
    /// The objective as the caller stated it.
    objective: IntView,
    /// The view minimised (the objective, negated for maximisation).
    view: IntView,
    /// The limits of the whole run, as the solver's configuration had them.
    limits: Limits,
    started: Instant,
    rng: SplitMix,
    /// The indices of the variables neighbourhoods fix or free; those the root's propagation
    /// fixes are dropped once the first solution is found.
    vars: Vec<u32>,
    /// Whether `vars` holds only variables the root leaves open.
    vars_open_at_root: bool,
    /// The share of `vars` the next neighbourhood of each kind frees.
    free_share: [f64; 2],
    /// For each kind, a decaying average of whether its neighbourhoods improved the
    /// incumbent: [`Neighbourhood::Adaptive`] draws kinds with these weights.
    success: [f64; 2],
    /// Whether the neighbourhood going on found a better solution.
    improved: bool,
    /// The propagation-guided builder's scratch.
    scratch: Scratch,
    /// The best solution and its objective value.
    best: Option<(Solution, i32)>,
    /// What the finished parts did, added up.
    total: Statistics,
    /// The part going on, and its node budget, if any.
    part: Option<(Part, Option<u64>)>,
    /// The node budget of the next complete run.
    proof_budget: u64,
    /// Nodes spent in neighbourhoods since the latest complete run.
    nodes_since_proof: u64,
    /// Nodes spent since the latest better solution.
    nodes_since_improvement: u64,
    /// Whether the best solution is proven optimal, or the model infeasible.
    proven: bool,
    /// Why the run stopped early, if it did.
    stopped: Option<StopReason>,
    /// Whether the run is over.
    finished: bool,
    /// The free search of [`Lns::free_proofs`] while the solver has its own; swapped with
    /// the solver's for the free complete runs. `None` when not asked for.
    other_search: Option<Box<ProofSearch>>,
    /// Whether the solver holds the free search (and `other_search` its own).
    searching_freely: bool,
    /// Complete runs started after the first solution.
    proofs_started: u64,
}

/// How a solver searches: its branching and the orders of its configuration.
#[derive(Debug)]
struct ProofSearch {
    branching: super::branching::Branching,
    var_order: super::VarOrder,
    value_order: super::ValueOrder,
    restarts: Option<super::Restarts>,
    last_conflict: bool,
    solution_phase: bool,
}

impl ProofSearch {
    /// The free search over every variable of `solver`'s model.
    fn free(solver: &Solver) -> ProofSearch {
        let model = &solver.model;
        let orders = super::SearchConfig::for_optimization();
        ProofSearch {
            branching: super::branching::Branching::new(
                model.engine(),
                model.id(),
                model.num_vars() as u32,
            ),
            var_order: orders.var_order,
            value_order: orders.value_order,
            restarts: orders.restarts,
            last_conflict: orders.last_conflict,
            solution_phase: orders.solution_phase,
        }
    }

    /// Gives `solver` this search and keeps the one it had.
    fn swap_with(&mut self, solver: &mut Solver) {
        let config = &mut solver.config;
        std::mem::swap(&mut self.branching, &mut solver.branching);
        std::mem::swap(&mut self.var_order, &mut config.var_order);
        std::mem::swap(&mut self.value_order, &mut config.value_order);
        std::mem::swap(&mut self.restarts, &mut config.restarts);
        std::mem::swap(&mut self.last_conflict, &mut config.last_conflict);
        std::mem::swap(&mut self.solution_phase, &mut config.solution_phase);
    }
}

impl Solver {
    /// Large neighbourhood search that minimises or maximises `objective` (see
    /// [`lns`](super::lns) for the idea): a lazy iterator over improving solutions. The
    /// solver's configuration says how each part searches (say
    /// [`SearchConfig::for_optimization`](super::SearchConfig::for_optimization)), and its
    /// limits (time, nodes, the number of improving solutions, the cancel flag) end the whole
    /// run; [`LnsRun::finish`] says what was found and whether it is proven.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// use bezzel_core::search::Lns;
    ///
    /// // Six different digits below 6; minimise Σ (i + 1) · dᵢ. The largest digit goes with
    /// // the smallest weight (the rearrangement inequality): 5·1 + 4·2 + ... + 0·6 = 35.
    /// let mut m = Model::new();
    /// let d = m.int_vars(6, 0..=5)?;
    /// let cost = m.int_var(0..=200)?;
    /// m.all_different(&d)?;
    /// let mut terms: Vec<IntView> = d.iter().map(|&x| x.into()).collect();
    /// terms.push(cost.minus());
    /// m.linear(&[1, 2, 3, 4, 5, 6, 1], &terms, Relation::Eq, 0)?;
    /// let mut config = SearchConfig::for_optimization();
    /// config.limits.nodes = Some(1_000_000); // deterministic, unlike a time limit
    /// let mut solver = Solver::with_config(m, config);
    /// let best = solver.lns(cost, Sense::Minimize, &Lns { seed: 7, ..Lns::default() })?.finish();
    /// assert_eq!(best.value, Some(35));
    /// assert!(best.optimal); // the complete runs it interleaves proved it
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn lns(
        &mut self,
        objective: impl Into<IntView>,
        sense: Sense,
        settings: &Lns,
    ) -> Result<LnsRun<'_>, ModelError> {
        let objective = objective.into();
        self.model.check_view(objective)?;
        for &x in &settings.vars {
            self.model.check_var(x)?;
        }
        let bad_share = |s: f64| !(0.0..=1.0).contains(&s);
        if bad_share(settings.initial_free_share) || settings.initial_free_share == 0.0 {
            return Err(ModelError::InvalidArgument {
                reason: format!(
                    "the initial free share of LNS must be in (0, 1], not {}",
                    settings.initial_free_share
                ),
            });
        }
        if bad_share(settings.proof_share) || settings.proof_share == 1.0 {
            return Err(ModelError::InvalidArgument {
                reason: format!(
                    "the proof share of LNS must be in [0, 1), not {}",
                    settings.proof_share
                ),
            });
        }
        let view = match sense {
            Sense::Minimize => objective,
            Sense::Maximize => objective.minus(),
        };
        let chosen: Vec<u32> = if settings.vars.is_empty() {
            self.branching.decision_vars()
        } else {
            settings.vars.iter().map(|x| x.index).collect()
        };
        let objective_var = view.var.index;
        let mut seen = vec![false; self.model.num_vars()];
        let vars = chosen
            .into_iter()
            .filter(|&x| x != objective_var && !std::mem::replace(&mut seen[x as usize], true))
            .collect();
        let limits = self.config.limits;
        let has_user_brancher = self.custom.as_ref().is_some_and(|c| c.user.is_some());
        let other_search =
            (settings.free_proofs && !has_user_brancher).then(|| Box::new(ProofSearch::free(self)));
        Ok(LnsRun {
            solver: self,
            settings: settings.clone(),
            objective,
            view,
            limits,
            started: Instant::now(),
            rng: SplitMix(settings.seed),
            vars,
            vars_open_at_root: false,
            free_share: [settings.initial_free_share.max(MIN_FREE_SHARE); 2],
            success: [INITIAL_SUCCESS; 2],
            improved: false,
            scratch: Scratch::default(),
            best: None,
            total: Statistics::default(),
            part: None,
            proof_budget: FIRST_PROOF_BUDGET,
            nodes_since_proof: 0,
            nodes_since_improvement: 0,
            proven: false,
            stopped: None,
            finished: false,
            other_search,
            searching_freely: false,
            proofs_started: 0,
        })
    }
}

impl LnsRun<'_> {
    /// The best solution found so far (the last one yielded), if any.
    pub fn best(&self) -> Option<&Solution> {
        self.best.as_ref().map(|(s, _)| s)
    }

    /// The objective value of [`best`](LnsRun::best).
    pub fn best_value(&self) -> Option<i32> {
        self.best.as_ref().map(|&(_, v)| v)
    }

    /// Whether the run is over and proved its answer: [`best`](LnsRun::best) is optimal, or
    /// (when `None`) the model has no solution. Only complete runs prove (see
    /// [`lns`](super::lns)); a run stopped by a limit is never proven.
    pub fn is_proven(&self) -> bool {
        self.finished && self.proven
    }

    /// What the run did so far, all parts added up: `stopped` says which limit ended it,
    /// and is `None` only when it is proven.
    pub fn stats(&self) -> Statistics {
        let mut stats = self.total.clone();
        if self.part.is_some() {
            let current = self.solver.stats.clone();
            Self::add(&mut stats, current);
        }
        stats.stopped = if self.proven { None } else { self.stopped };
        stats.elapsed = self.started.elapsed();
        stats
    }

    /// Runs to the end (a proof, or a limit) and says what was found.
    pub fn finish(mut self) -> Optimum {
        for _ in self.by_ref() {}
        let proven = self.is_proven();
        let (solution, value) = match self.best.take() {
            Some((s, v)) => (Some(s), Some(v)),
            None => (None, None),
        };
        Optimum {
            optimal: proven && solution.is_some(),
            infeasible: proven && solution.is_none(),
            solution,
            value,
            stats: self.stats(),
        }
    }

    /// Adds a part's statistics to `total`: its solutions are counted by the run itself,
    /// and its stop reason is the part's own business.
    fn add(total: &mut Statistics, mut part_stats: Statistics) {
        part_stats.stopped = None;
        part_stats.elapsed = Duration::ZERO;
        let solutions = total.solutions;
        *total += part_stats;
        total.solutions = solutions;
    }

    /// Nodes left to the whole run, if it has a node limit.
    fn nodes_left(&self) -> Option<u64> {
        self.limits
            .nodes
            .map(|l| l.saturating_sub(self.total.nodes))
    }

    /// Starts a part below `prefix` with a node budget (`None`: unlimited), under the
    /// incumbent's bound.
    fn start(&mut self, part: Part, prefix: Vec<Decision>, budget: Option<u64>) {
        let freely = part == Part::Proof && self.proofs_started % 2 == 1;
        if part == Part::Proof {
            self.proofs_started += 1;
        }
        self.search_freely(freely);
        let nodes = match (budget, self.nodes_left()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let time = self
            .limits
            .time
            .map(|t| t.saturating_sub(self.started.elapsed()));
        let solver = &mut *self.solver;
        solver.config.limits = Limits {
            solutions: None,
            nodes,
            time,
        };
        solver.restart();
        solver.prefix = prefix;
        let bound = self
            .best
            .as_ref()
            .map(|(s, _)| i64::from(s.view_value(self.view)));
        solver.objective = Some(Objective::new(self.view, bound));
        if !matches!(
            part,
            Part::Neighbourhood {
                complete: false,
                ..
            }
        ) {
            // Complete runs restart as configured; a neighbourhood is too short to.
            solver.start_restarts();
        }
        self.part = Some((part, budget));
        self.improved = false;
    }

    /// Gives the solver the free search, or its own back; nothing without a free search.
    fn search_freely(&mut self, freely: bool) {
        if let Some(other) = &mut self.other_search
            && freely != self.searching_freely
        {
            other.swap_with(self.solver);
            self.searching_freely = freely;
        }
    }

    /// Ends the part going on, learning from how it ended.
    fn end_part(&mut self, paused_at_solution: bool) {
        let Some((part, budget)) = self.part.take() else {
            return;
        };
        let stats = self.solver.stats.clone();
        let nodes = stats.nodes;
        Self::add(&mut self.total, stats.clone());
        if paused_at_solution {
            return;
        }
        self.nodes_since_improvement += nodes;
        match stats.stopped {
            None => match part {
                // Searched to the end under the incumbent's bound, with nothing fixed: the
                // incumbent is optimal, or (without one) there is no solution.
                Part::First | Part::Proof | Part::Neighbourhood { complete: true, .. } => {
                    self.proven = true;
                }
                Part::Neighbourhood {
                    complete: false,
                    kind,
                } => {
                    let share = &mut self.free_share[kind];
                    *share += (1.0 - *share) * ADAPT_STEP;
                }
            },
            Some(StopReason::NodeLimit)
                if budget.is_some_and(|b| nodes >= b)
                    && self.nodes_left().is_none_or(|left| left > 0) =>
            {
                // The part's own budget ran out, not the run's.
                if let Part::Neighbourhood { kind, .. } = part {
                    let share = &mut self.free_share[kind];
                    *share = (*share - *share * ADAPT_STEP).max(MIN_FREE_SHARE);
                }
            }
            Some(reason) => self.stopped = Some(reason),
        }
        if let Part::Neighbourhood { kind, .. } = part
            && self.stopped.is_none()
        {
            let success = &mut self.success[kind];
            *success += (f64::from(u8::from(self.improved)) - *success) * SUCCESS_DECAY;
        }
        match part {
            Part::Proof => {
                self.proof_budget = self.proof_budget.saturating_mul(2);
                self.nodes_since_proof = 0;
            }
            Part::Neighbourhood { .. } => self.nodes_since_proof += nodes,
            Part::First => self.proof_budget = self.proof_budget.max(nodes.saturating_mul(2)),
        }
    }

    /// Starts the next part: the first solution, a complete run when its share is due, or
    /// else a neighbourhood.
    fn start_next(&mut self) {
        if self.best.is_none() {
            self.start(Part::First, Vec::new(), None);
            return;
        }
        let mut share = self.settings.proof_share;
        let stale = STALE_NEIGHBOURHOODS * self.settings.nodes_per_neighbourhood.max(1);
        if share > 0.0 && self.nodes_since_improvement >= stale {
            share = share.max(STALE_PROOF_SHARE);
        }
        if share > 0.0
            && self.nodes_since_proof as f64 * share >= self.proof_budget as f64 * (1.0 - share)
        {
            self.start(Part::Proof, Vec::new(), Some(self.proof_budget));
            return;
        }
        let kind = self.next_kind();
        let prefix = self.neighbourhood(kind);
        let complete = prefix.is_empty();
        let budget = self.settings.nodes_per_neighbourhood.max(1);
        self.start(Part::Neighbourhood { complete, kind }, prefix, Some(budget));
    }

    /// The kind of the next neighbourhood, as an index of [`Neighbourhood::KINDS`].
    fn next_kind(&mut self) -> usize {
        match self.settings.neighbourhood {
            Neighbourhood::Adaptive => {
                let weights = self.success.map(|s| s + MIN_WEIGHT);
                let draw = self.rng.unit() * weights.iter().sum::<f64>();
                usize::from(draw >= weights[0])
            }
            kind => kind.kind_index(),
        }
    }

    /// The decisions that fix the variables outside the next neighbourhood (of kind `kind`,
    /// an index of [`Neighbourhood::KINDS`]) to their values in the incumbent.
    fn neighbourhood(&mut self, kind: usize) -> Vec<Decision> {
        let Some((incumbent, _)) = &self.best else {
            return Vec::new();
        };
        let model = self.solver.model.id();
        if !self.vars_open_at_root {
            let engine = self.solver.model.engine_mut();
            // Variables the root fixes are fixed in every neighbourhood: freeing them would
            // waste the free share.
            engine.reset();
            engine.schedule_all();
            if engine.propagate(&mut self.total.propagations).is_ok() {
                self.vars.retain(|&x| !engine.is_fixed(x));
            }
            engine.reset();
            self.vars_open_at_root = true;
        }
        let free = neighbourhood::free_count(self.free_share[kind], self.vars.len());
        let fixed = match Neighbourhood::KINDS[kind] {
            Neighbourhood::PropagationGuided => self.scratch.propagation_guided(
                &mut self.solver.model,
                &self.vars,
                incumbent.values(),
                free,
                &mut self.rng,
                &mut self.total.propagations,
            ),
            _ => neighbourhood::random(&mut self.vars, free, &mut self.rng),
        };
        fixed
            .into_iter()
            .map(|index| {
                let x = VarId { model, index };
                Decision::Assign(x, incumbent.values()[index as usize])
            })
            .collect()
    }

    /// Whether the run's own limits are reached between parts.
    fn limit_reached(&self) -> Option<StopReason> {
        if self
            .limits
            .solutions
            .is_some_and(|l| self.total.solutions >= l)
        {
            return Some(StopReason::SolutionLimit);
        }
        if self.nodes_left() == Some(0) {
            return Some(StopReason::NodeLimit);
        }
        if self.solver.is_cancelled() {
            return Some(StopReason::Cancelled);
        }
        if self
            .limits
            .time
            .is_some_and(|t| self.started.elapsed() >= t)
        {
            return Some(StopReason::TimeLimit);
        }
        None
    }
}

impl Iterator for LnsRun<'_> {
    type Item = Solution;

    fn next(&mut self) -> Option<Solution> {
        loop {
            if self.finished {
                return None;
            }
            if let Some((part, _)) = self.part {
                if let Some(solution) = self.solver.next_solution() {
                    let value = solution.view_value(self.objective);
                    self.best = Some((solution.clone(), value));
                    self.improved = true;
                    self.nodes_since_improvement = 0;
                    self.total.solutions += 1;
                    let enough = self
                        .limits
                        .solutions
                        .is_some_and(|l| self.total.solutions >= l);
                    if enough {
                        self.stopped = Some(StopReason::SolutionLimit);
                    }
                    let budget = self.settings.first_nodes;
                    if part == Part::First && !enough && self.solver.stats.nodes < budget {
                        // Branch and bound goes on improving, up to its own budget.
                        let nodes = self.nodes_left().map_or(budget, |left| left.min(budget));
                        self.solver.config.limits.nodes = Some(nodes);
                        self.part = Some((Part::First, Some(budget)));
                    } else if part == Part::First || enough {
                        // The first part ends: neighbourhoods improve on its best from here.
                        self.end_part(true);
                    }
                    return Some(solution);
                }
                self.end_part(false);
            }
            if self.proven {
                self.finished = true;
                continue;
            }
            if let Some(reason) = self.stopped.or_else(|| self.limit_reached()) {
                self.stopped = Some(reason);
                self.finished = true;
                continue;
            }
            self.start_next();
        }
    }
}

impl Drop for LnsRun<'_> {
    /// Gives the solver its limits back, and the whole run's statistics as its latest run's.
    fn drop(&mut self) {
        self.search_freely(false);
        let stats = self.stats();
        self.solver.config.limits = self.limits;
        self.solver.stats = stats;
    }
}
