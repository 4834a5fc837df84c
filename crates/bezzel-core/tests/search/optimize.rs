//! Branch and bound ([`Solver::minimize`], [`Solver::maximize`]): on random tiny models the
//! optimum equals the brute-force optimum, every yielded solution satisfies the model and beats
//! the one before; Golomb rulers reach their known optimal lengths; limits stop a run early
//! with the best solution so far.

use bezzel_core::prelude::*;
use bezzel_core::{Optimum, Sense};
use proptest::prelude::*;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::brute;

use brute::ViewSpec;
use brute::spec::{ModelSpec, every_order};

/// What is optimised: a view of one variable, or a weighted sum of variables, which the model
/// states as an extra variable equal to the sum.
#[derive(Debug, Clone)]
enum ObjectiveSpec {
    View(ViewSpec),
    Sum(Vec<(i32, usize)>),
}

/// A random model with an objective.
#[derive(Debug, Clone)]
struct OptSpec {
    model: ModelSpec,
    objective: ObjectiveSpec,
    sense: Sense,
}

impl OptSpec {
    fn objective_value(&self, a: &[i32]) -> i64 {
        match &self.objective {
            ObjectiveSpec::View(v) => v.eval(a),
            ObjectiveSpec::Sum(terms) => terms
                .iter()
                .map(|&(k, x)| i64::from(k) * i64::from(a[x]))
                .sum(),
        }
    }

    fn is_solution(&self, a: &[i32]) -> bool {
        a.iter()
            .zip(&self.model.domains)
            .all(|(v, d)| d.contains(v))
            && self.model.holds(a)
    }

    /// The best objective value over every solution, if there is one.
    fn brute_force(&self) -> Option<i64> {
        let values = self
            .model
            .brute_force()
            .into_iter()
            .map(|a| self.objective_value(&a));
        match self.sense {
            Sense::Minimize => values.min(),
            Sense::Maximize => values.max(),
        }
    }

    /// The model, its variables (without the objective's own) and the objective view.
    fn build(&self) -> (Model, Vec<VarId>, IntView) {
        let (mut m, vars) = self.model.build();
        let objective = match &self.objective {
            ObjectiveSpec::View(v) => v.view(&vars),
            ObjectiveSpec::Sum(terms) => {
                let bound: i32 = terms.iter().map(|&(k, _)| k.abs() * 5).sum();
                let obj = m.int_var(-bound..=bound).unwrap();
                let mut coefs: Vec<i32> = terms.iter().map(|t| t.0).collect();
                let mut xs: Vec<VarId> = terms.iter().map(|t| vars[t.1]).collect();
                coefs.push(-1);
                xs.push(obj);
                m.linear(&coefs, &xs, Relation::Eq, 0).unwrap();
                obj.into()
            }
        };
        (m, vars, objective)
    }

    /// Runs branch and bound and checks every yielded solution; returns the outcome.
    fn solve(&self, config: SearchConfig) -> Optimum {
        let (m, vars, objective) = self.build();
        let mut solver = Solver::with_config(m, config);
        let mut run = match self.sense {
            Sense::Minimize => solver.minimize(objective),
            Sense::Maximize => solver.maximize(objective),
        }
        .unwrap();
        let mut previous: Option<i64> = None;
        for s in run.by_ref() {
            let values = s.values_of(&vars);
            assert!(self.is_solution(&values), "{values:?} is no solution");
            let v = self.objective_value(&values);
            assert_eq!(
                v,
                i64::from(s.view_value(objective)),
                "the objective's value"
            );
            if let Some(p) = previous {
                match self.sense {
                    Sense::Minimize => assert!(v < p, "{v} after {p}"),
                    Sense::Maximize => assert!(v > p, "{v} after {p}"),
                }
            }
            previous = Some(v);
        }
        assert_eq!(run.best_value().map(i64::from), previous);
        run.finish()
    }
}

fn objective_spec(nvars: usize) -> impl Strategy<Value = ObjectiveSpec> {
    prop_oneof![
        brute::spec::view_spec(nvars).prop_map(ObjectiveSpec::View),
        prop::collection::vec((-3..=3i32, 0..nvars), 1..=4).prop_map(ObjectiveSpec::Sum),
    ]
}

/// Two to five variables over -3..=5, up to four core constraints, and an objective.
fn model_spec() -> impl Strategy<Value = OptSpec> {
    brute::spec::core_model_spec(2..=5, -3..=5, 6, 0..=4)
        .prop_flat_map(|model| {
            let n = model.domains.len();
            (
                Just(model),
                objective_spec(n),
                prop_oneof![Just(Sense::Minimize), Just(Sense::Maximize)],
            )
        })
        .prop_map(|(model, objective, sense)| OptSpec {
            model,
            objective,
            sense,
        })
}

proptest! {
    #![proptest_config(brute::spec::persisted(600, "proptest-regressions/optimize.txt"))]

    /// The optimum is the brute-force optimum, proven, under every order; every solution on
    /// the way satisfies the model and beats the one before (checked in `solve`).
    #[test]
    fn the_optimum_is_the_brute_force_optimum(spec in model_spec()) {
        let expected = spec.brute_force();
        for config in every_order() {
            let orders = (config.var_order, config.value_order);
            let outcome = spec.solve(SearchConfig { check_solutions: true, ..config });
            prop_assert_eq!(outcome.value.map(i64::from), expected, "{:?}", orders);
            prop_assert!(outcome.stats.is_complete());
            prop_assert_eq!(outcome.optimal, expected.is_some());
            prop_assert_eq!(outcome.infeasible, expected.is_none());
        }
    }
}

/// A Golomb ruler with `n` marks, stated with the constraints of the core: marks
/// `0 = m[0] < m[1] < ... < m[n-1]` (`less_than`), a variable per pairwise difference
/// `d(i,j) = m[j] - m[i]` (`linear`), all differences distinct (`all_different`), and the
/// mirror symmetry (the ruler read backwards) broken by `d(0,1) < d(n-2,n-1)`. Returns the
/// model, the marks and the length `m[n-1]`.
fn golomb(n: usize) -> (Model, Vec<VarId>, VarId) {
    let max = (n * n) as i32;
    let mut m = Model::new();
    let marks = m.named_vars("mark", n, 0..=max).unwrap();
    m.linear(&[1], &marks[..1], Relation::Eq, 0).unwrap();
    for w in marks.windows(2) {
        m.less_than(w[0], w[1]).unwrap();
    }
    let mut diffs = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            // Marks i and j are j - i gaps apart, each gap at least 1.
            let d = m.int_var((j - i) as i32..=max).unwrap();
            m.linear(&[1, -1, 1], &[d, marks[j], marks[i]], Relation::Eq, 0)
                .unwrap();
            diffs.push(d);
        }
    }
    m.all_different(&diffs).unwrap();
    // diffs[0] is d(0,1); d(n-2,n-1) is the last one pushed.
    m.less_than(diffs[0], diffs[diffs.len() - 1]).unwrap();
    let length = marks[n - 1];
    (m, marks, length)
}

/// Checks a ruler by its definition: starts at 0, increasing, all differences distinct.
fn assert_golomb(marks: &[i32]) {
    assert_eq!(marks[0], 0);
    assert!(marks.windows(2).all(|w| w[0] < w[1]), "{marks:?}");
    let mut diffs: Vec<i32> = (0..marks.len())
        .flat_map(|i| (i + 1..marks.len()).map(move |j| (i, j)))
        .map(|(i, j)| marks[j] - marks[i])
        .collect();
    diffs.sort_unstable();
    assert!(diffs.windows(2).all(|w| w[0] != w[1]), "{marks:?}");
}

fn golomb_solver(n: usize) -> (Solver, Vec<VarId>, VarId) {
    let (m, marks, length) = golomb(n);
    let config = SearchConfig {
        var_order: VarOrder::InputOrder,
        value_order: ValueOrder::Min,
        ..SearchConfig::default()
    };
    let solver = Solver::with_config(m, config).branch_on(&marks).unwrap();
    (solver, marks, length)
}

#[test]
fn golomb_rulers_reach_their_optimal_lengths() {
    for (n, optimum) in [(4, 6), (5, 11), (6, 17), (7, 25)] {
        let (mut solver, marks, length) = golomb_solver(n);
        let mut run = solver.minimize(length).unwrap();
        let mut lengths = Vec::new();
        for s in run.by_ref() {
            assert_golomb(&s.values_of(&marks));
            lengths.push(s[length]);
        }
        assert!(lengths.windows(2).all(|w| w[0] > w[1]), "{lengths:?}");
        assert!(run.is_optimal(), "{n} marks");
        assert_eq!(run.best_value(), Some(optimum), "{n} marks");
        assert!(solver.stats().is_complete());
        assert_eq!(solver.stats().solutions, lengths.len() as u64);
    }
}

#[test]
fn limits_stop_early_and_report_the_best_so_far() {
    // A node limit: the run stops with the best ruler so far, and says it is not proven.
    let (mut solver, marks, length) = golomb_solver(7);
    let full = solver.minimize(length).unwrap().finish();
    assert!(full.optimal);
    solver.config_mut().limits.nodes = Some(full.stats.nodes / 2);
    let outcome = solver.minimize(length).unwrap().finish();
    assert_eq!(outcome.stats.stopped, Some(StopReason::NodeLimit));
    assert!(!outcome.optimal && !outcome.infeasible);
    let best = outcome.solution.expect("half the nodes find some ruler");
    assert_golomb(&best.values_of(&marks));
    assert_eq!(outcome.value, Some(best[length]));
    assert!(outcome.value >= Some(25));
    // So few nodes that no ruler is found: nothing to report, and nothing proven.
    solver.config_mut().limits.nodes = Some(3);
    let outcome = solver.minimize(length).unwrap().finish();
    assert_eq!(outcome.stats.stopped, Some(StopReason::NodeLimit));
    assert_eq!(
        (outcome.solution, outcome.optimal, outcome.infeasible),
        (None, false, false)
    );

    // A solution limit counts improving solutions: one is the first ruler found.
    let (mut solver, marks, length) = golomb_solver(6);
    solver.config_mut().limits.solutions = Some(1);
    let mut run = solver.minimize(length).unwrap();
    let first = run.next().expect("a ruler");
    assert_eq!(run.next(), None);
    assert!(!run.is_proven() && !run.is_optimal());
    assert_eq!(run.best(), Some(&first));
    assert_golomb(&first.values_of(&marks));
    assert_eq!(run.stats().stopped, Some(StopReason::SolutionLimit));
    // Without the limit, the next run goes on to the optimum.
    solver.config_mut().limits = Limits::default();
    assert_eq!(solver.minimize(length).unwrap().finish().value, Some(17));

    // A time limit: 10 marks take far longer than 50 ms to prove optimal.
    let (mut solver, marks, length) = golomb_solver(10);
    solver.config_mut().limits.time = Some(Duration::from_millis(50));
    let outcome = solver.minimize(length).unwrap().finish();
    assert_eq!(outcome.stats.stopped, Some(StopReason::TimeLimit));
    assert!(outcome.stats.elapsed < Duration::from_secs(5));
    assert!(!outcome.optimal);
    if let Some(best) = &outcome.solution {
        assert_golomb(&best.values_of(&marks));
        assert!(outcome.value >= Some(55));
    }

    // A raised cancel flag stops the run before its first node: nothing found, nothing proven.
    let (mut solver, _, length) = golomb_solver(7);
    let flag = Arc::new(AtomicBool::new(true));
    solver.set_cancel_flag(flag);
    let outcome = solver.minimize(length).unwrap().finish();
    assert_eq!(outcome.stats.stopped, Some(StopReason::Cancelled));
    assert_eq!(
        (outcome.solution, outcome.optimal, outcome.infeasible),
        (None, false, false)
    );
}

#[test]
fn maximising_a_view_and_proving_infeasibility() {
    // Maximise -x + 3 over x in 2..=6 with x != 2: the best is x = 3, value 0.
    let mut m = Model::new();
    let x = m.int_var(2..=6).unwrap();
    let y = m.int_var(2..=6).unwrap();
    m.less_than(y, x).unwrap();
    let mut solver = Solver::new(m);
    let outcome = solver.maximize(x.minus().offset(3)).unwrap().finish();
    assert_eq!(outcome.value, Some(0));
    assert!(outcome.optimal);
    assert_eq!(outcome.solution.unwrap()[x], 3);
    // Minimising the same view: x = 6, value -3.
    assert_eq!(
        solver.minimize(x.minus().offset(3)).unwrap().finish().value,
        Some(-3)
    );
    // Plain search afterwards is unbounded again.
    assert_eq!(solver.count(), 10);

    // No solution at all: proven infeasible, with nothing to report.
    let mut m = Model::new();
    let x = m.int_var(0..=3).unwrap();
    m.less_than(x, x).unwrap();
    let outcome = Solver::new(m).minimize(x).unwrap().finish();
    assert!(outcome.infeasible && !outcome.optimal);
    assert_eq!(outcome.value, None);
}

#[test]
fn a_foreign_objective_is_an_error() {
    let mut other = Model::new();
    let foreign = other.int_var(0..=3).unwrap();
    let mut m = Model::new();
    m.int_var(0..=3).unwrap();
    let mut solver = Solver::new(m);
    assert!(solver.minimize(foreign).is_err());
    assert!(solver.maximize(foreign).is_err());
}

#[test]
fn optimising_below_a_prefix_stays_in_the_subtree() {
    // The shortest 5-mark ruler with its second mark at v, for each v: against the shortest
    // among all the rulers that plain search enumerates.
    let (mut solver, marks, length) = golomb_solver(5);
    let all: Vec<Vec<i32>> = solver.solutions().map(|s| s.values_of(&marks)).collect();
    for v in 1..=5 {
        let expected = all.iter().filter(|r| r[1] == v).map(|r| r[4]).min();
        let prefix = [Decision::Assign(marks[1], v)];
        let outcome = solver
            .optimize_in(&prefix, length, Sense::Minimize)
            .unwrap()
            .finish();
        if let Some(best) = &outcome.solution {
            assert_eq!(best[marks[1]], v);
            assert_golomb(&best.values_of(&marks));
        }
        assert_eq!(outcome.value, expected, "second mark at {v}");
        assert!(outcome.stats.is_complete());
    }
}

// ----- parallel branch and bound -----

use bezzel_core::parallel::ParallelSearch;
use std::sync::Mutex;

/// Runs parallel branch and bound on `threads` workers; checks that the values reported as
/// improvements strictly improve, and returns the outcome.
fn parallel_optimum<F>(
    search: &ParallelSearch<F>,
    objective: IntView,
    sense: Sense,
    cancel: Option<Arc<AtomicBool>>,
) -> Optimum
where
    F: Fn() -> Result<Model, ModelError> + Sync,
{
    let subproblems = search.subproblems().unwrap();
    let seen = Mutex::new(Vec::new());
    let outcome = search
        .optimize(&subproblems, objective, sense, cancel, |s, v| {
            assert_eq!(s.view_value(objective), v);
            seen.lock().unwrap().push(v);
        })
        .unwrap();
    let seen = seen.into_inner().unwrap();
    assert!(
        seen.windows(2).all(|w| match sense {
            Sense::Minimize => w[0] > w[1],
            Sense::Maximize => w[0] < w[1],
        }),
        "{seen:?}"
    );
    assert_eq!(seen.last().copied(), outcome.value);
    outcome
}

#[test]
fn parallel_golomb_rulers_reach_their_optimal_lengths() {
    for (n, optimum) in [(5, 11), (6, 17), (7, 25)] {
        for threads in [1, 2, 4] {
            let build = || -> Result<Model, ModelError> { Ok(golomb(n).0) };
            let (_, marks, length) = golomb(n);
            let config = SearchConfig {
                var_order: VarOrder::InputOrder,
                ..SearchConfig::default()
            };
            let search = ParallelSearch::new(format!("golomb {n}"), build)
                .config(config)
                .threads(Some(threads))
                .per_worker(8);
            let outcome = parallel_optimum(&search, length.into(), Sense::Minimize, None);
            assert!(outcome.optimal, "{n} marks, {threads} threads");
            assert_eq!(outcome.value, Some(optimum), "{n} marks, {threads} threads");
            let best = outcome.solution.unwrap();
            assert_golomb(&best.values_of(&marks));
            assert!(outcome.stats.is_complete());
        }
    }
}

#[test]
fn parallel_optimisation_stops_on_cancel_and_refuses_a_bad_objective() {
    let build = || -> Result<Model, ModelError> { Ok(golomb(7).0) };
    let (_, _, length) = golomb(7);
    let search = ParallelSearch::new("golomb 7", build).threads(Some(2));
    let flag = Arc::new(AtomicBool::new(true));
    let outcome = parallel_optimum(&search, length.into(), Sense::Minimize, Some(flag));
    assert!(!outcome.optimal && !outcome.infeasible);
    assert_eq!(outcome.stats.stopped, Some(StopReason::Cancelled));
    // A variable beyond the model's is an error, not a panic.
    let mut big = Model::new();
    let far = big.int_vars(1000, 0..=1).unwrap()[999];
    let subproblems = search.subproblems().unwrap();
    assert!(search.minimize(&subproblems, far, None, |_, _| {}).is_err());
}

proptest! {
    #![proptest_config(brute::spec::persisted(150, "proptest-regressions/optimize_parallel.txt"))]

    /// Parallel branch and bound finds the brute-force optimum, on any number of workers.
    #[test]
    fn parallel_optimum_is_the_brute_force_optimum(spec in model_spec()) {
        let expected = spec.brute_force();
        for threads in [1, 3] {
            let build = || -> Result<Model, ModelError> { Ok(spec.build().0) };
            let (_, vars, objective) = spec.build();
            let search = ParallelSearch::new("spec", build).threads(Some(threads)).per_worker(3);
            let outcome = parallel_optimum(&search, objective, spec.sense, None);
            prop_assert_eq!(outcome.value.map(i64::from), expected, "{} threads", threads);
            prop_assert_eq!(outcome.optimal, expected.is_some());
            prop_assert_eq!(outcome.infeasible, expected.is_none());
            if let Some(best) = &outcome.solution {
                prop_assert!(spec.is_solution(&best.values_of(&vars)));
            }
        }
    }
}

#[test]
fn the_shared_bound_prunes_other_subproblems() {
    // On one worker the subproblems are solved in turn: with the bound shared, each starts
    // from the best length found so far, so the whole run takes fewer nodes than solving every
    // subproblem on its own.
    let build = || -> Result<Model, ModelError> { Ok(golomb(7).0) };
    let config = SearchConfig {
        var_order: VarOrder::InputOrder,
        ..SearchConfig::default()
    };
    let search = ParallelSearch::new("golomb 7", build)
        .config(config)
        .threads(Some(1))
        .per_worker(20);
    let subproblems = search.subproblems().unwrap();
    assert!(subproblems.len() > 1);
    let (_, _, length) = golomb(7);
    let shared = search
        .minimize(&subproblems, length, None, |_, _| {})
        .unwrap();
    assert_eq!(shared.value, Some(25));
    let (mut alone, _, length) = golomb_solver(7);
    *alone.config_mut() = config;
    let mut nodes = 0;
    let mut best = None;
    for sub in &subproblems {
        let outcome = alone
            .optimize_in(&sub.decisions, length, Sense::Minimize)
            .unwrap()
            .finish();
        nodes += outcome.stats.nodes;
        best = best.into_iter().chain(outcome.value).min();
    }
    assert_eq!(best, Some(25));
    assert!(
        shared.stats.nodes < nodes,
        "shared: {} nodes, alone: {nodes}",
        shared.stats.nodes
    );
}
