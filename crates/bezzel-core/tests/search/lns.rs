//! Search that finds good solutions: large neighbourhood search ([`Solver::lns`]) and the
//! optimisation configuration ([`SearchConfig::for_optimization`]: dom/wdeg, last conflict,
//! solution-guided values, restarts inside branch and bound).
//!
//! On random small models, checked against brute force computed here in plain Rust: every
//! reported solution satisfies the constraints (checked here, not by the solver), each beats
//! the one before, no run reports a value better than the optimum, and a run that claims a
//! proof has the brute-force optimum (or, claiming infeasibility, a model without solutions).
//! An LNS run with a seed and node limits repeats itself exactly. Each of these holds for
//! every kind of neighbourhood.

use bezzel_core::prelude::*;
use bezzel_core::{Lns, Neighbourhood};
use std::collections::BTreeSet;

use crate::common::FT06;

/// Every kind of neighbourhood.
const KINDS: [Neighbourhood; 3] = [
    Neighbourhood::Random,
    Neighbourhood::PropagationGuided,
    Neighbourhood::Adaptive,
];

/// A small deterministic generator for the random models (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// One constraint of a random model, over the indices of its variables.
#[derive(Debug, Clone)]
enum Spec {
    /// `Σ coefficients · x (relation) constant`.
    Linear(Vec<(i64, usize)>, Relation, i64),
    /// The variables take different values.
    AllDifferent(Vec<usize>),
    /// Two tasks (start variable, duration) do not overlap: one ends before the other starts.
    NoOverlap((usize, i64), (usize, i64)),
}

/// A random model: domains, constraints, and a weighted sum to optimise.
#[derive(Debug, Clone)]
struct Case {
    domains: Vec<Vec<i32>>,
    constraints: Vec<Spec>,
    objective: Vec<(i64, usize)>,
    sense: Sense,
}

fn holds(spec: &Spec, a: &[i32]) -> bool {
    match spec {
        Spec::Linear(terms, relation, c) => {
            let s: i64 = terms.iter().map(|&(k, x)| k * i64::from(a[x])).sum();
            match relation {
                Relation::Eq => s == *c,
                Relation::Le => s <= *c,
                Relation::Ge => s >= *c,
                Relation::Ne => s != *c,
                Relation::Lt => s < *c,
                Relation::Gt => s > *c,
            }
        }
        Spec::AllDifferent(xs) => {
            let values: BTreeSet<i32> = xs.iter().map(|&x| a[x]).collect();
            values.len() == xs.len()
        }
        Spec::NoOverlap((x, dx), (y, dy)) => {
            i64::from(a[*x]) + dx <= i64::from(a[*y]) || i64::from(a[*y]) + dy <= i64::from(a[*x])
        }
    }
}

impl Case {
    fn random(rng: &mut Rng) -> Case {
        let n = rng.range(3, 6) as usize;
        let domains: Vec<Vec<i32>> = (0..n)
            .map(|_| {
                let lo = rng.range(-2, 2) as i32;
                let hi = lo + rng.range(1, 5) as i32;
                // Holes now and then.
                (lo..=hi).filter(|_| !rng.chance(15)).collect::<Vec<_>>()
            })
            .map(|d| if d.is_empty() { vec![0] } else { d })
            .collect();
        let mut constraints = Vec::new();
        for _ in 0..rng.range(1, 4) {
            let spec = match rng.range(0, 3) {
                0 | 1 => {
                    let k = rng.range(2, 3.min(n as i64));
                    let terms = (0..k)
                        .map(|_| (rng.range(-3, 3), rng.range(0, n as i64 - 1) as usize))
                        .collect();
                    let relation =
                        [Relation::Eq, Relation::Le, Relation::Ge][rng.range(0, 2) as usize];
                    Spec::Linear(terms, relation, rng.range(-4, 6))
                }
                2 => {
                    let mut xs: Vec<usize> = (0..n).filter(|_| rng.chance(60)).collect();
                    if xs.len() < 2 {
                        xs = vec![0, 1];
                    }
                    Spec::AllDifferent(xs)
                }
                _ => {
                    let x = rng.range(0, n as i64 - 2) as usize;
                    let y = rng.range(x as i64 + 1, n as i64 - 1) as usize;
                    Spec::NoOverlap((x, rng.range(1, 3)), (y, rng.range(1, 3)))
                }
            };
            constraints.push(spec);
        }
        let mut objective = Vec::new();
        for x in 0..n {
            if rng.chance(70) {
                objective.push((rng.range(-3, 3), x));
            }
        }
        let objective = if objective.is_empty() {
            vec![(1, 0)]
        } else {
            objective
        };
        let sense = if rng.chance(50) {
            Sense::Minimize
        } else {
            Sense::Maximize
        };
        Case {
            domains,
            constraints,
            objective,
            sense,
        }
    }

    fn objective_value(&self, a: &[i32]) -> i64 {
        self.objective
            .iter()
            .map(|&(k, x)| k * i64::from(a[x]))
            .sum()
    }

    /// Whether `a` is a solution: in the domains, every constraint holds.
    fn is_solution(&self, a: &[i32]) -> bool {
        a.iter().zip(&self.domains).all(|(v, d)| d.contains(v))
            && self.constraints.iter().all(|c| holds(c, a))
    }

    /// Every solution, by enumeration.
    fn solutions(&self) -> Vec<Vec<i32>> {
        let mut out = Vec::new();
        let mut a = vec![0; self.domains.len()];
        fn rec(case: &Case, i: usize, a: &mut Vec<i32>, out: &mut Vec<Vec<i32>>) {
            if i == a.len() {
                if case.is_solution(a) {
                    out.push(a.clone());
                }
                return;
            }
            for &v in &case.domains[i] {
                a[i] = v;
                rec(case, i + 1, a, out);
            }
        }
        rec(self, 0, &mut a, &mut out);
        out
    }

    /// The best objective value over every solution, if any.
    fn optimum(&self) -> Option<i64> {
        let values = self
            .solutions()
            .into_iter()
            .map(|a| self.objective_value(&a));
        match self.sense {
            Sense::Minimize => values.min(),
            Sense::Maximize => values.max(),
        }
    }

    /// Whether `a` is strictly better than `b` in the case's sense.
    fn better(&self, a: i64, b: i64) -> bool {
        match self.sense {
            Sense::Minimize => a < b,
            Sense::Maximize => a > b,
        }
    }

    /// The model, its variables, and the variable that holds the objective.
    fn build(&self) -> (Model, Vec<VarId>, VarId) {
        let (mut m, vars) = crate::brute::model(&self.domains);
        for c in &self.constraints {
            match c {
                Spec::Linear(terms, relation, constant) => {
                    // The oracle computes in `i64`; the coefficients are small.
                    let coefs: Vec<i32> = terms.iter().map(|t| t.0 as i32).collect();
                    let xs: Vec<VarId> = terms.iter().map(|t| vars[t.1]).collect();
                    m.linear(&coefs, &xs, *relation, *constant as i32).unwrap();
                }
                Spec::AllDifferent(xs) => {
                    let xs: Vec<VarId> = xs.iter().map(|&x| vars[x]).collect();
                    m.all_different(&xs).unwrap();
                }
                Spec::NoOverlap((x, dx), (y, dy)) => {
                    // b -> x before y; not b -> y before x: the job shop's reified pairs.
                    let b = m.named_bool(format!("b{x}_{y}")).unwrap();
                    let (x, y) = (vars[*x], vars[*y]);
                    m.less_eq_reif(x.offset(*dx as i32), y, b, Reif::Imp)
                        .unwrap();
                    m.less_eq_reif(y.offset(*dy as i32), x, b.not(), Reif::Imp)
                        .unwrap();
                }
            }
        }
        let bound: i64 = self.objective.iter().map(|&(k, _)| k.abs() * 8).sum();
        let objective = m.int_var(-bound as i32..=bound as i32).unwrap();
        let mut coefs: Vec<i32> = self.objective.iter().map(|t| t.0 as i32).collect();
        let mut xs: Vec<VarId> = self.objective.iter().map(|t| vars[t.1]).collect();
        coefs.push(-1);
        xs.push(objective);
        m.linear(&coefs, &xs, Relation::Eq, 0).unwrap();
        (m, vars, objective)
    }

    /// Checks a solution the solver reported: the constraints hold on its values and its
    /// objective variable holds the objective's value.
    fn check_reported(&self, s: &Solution, vars: &[VarId], objective: VarId) -> i64 {
        let a = s.values_of(vars);
        assert!(
            self.is_solution(&a),
            "{self:?}: reported {a:?}, not a solution"
        );
        let value = self.objective_value(&a);
        assert_eq!(
            i64::from(s[objective]),
            value,
            "{self:?}: objective variable"
        );
        value
    }
}

/// Runs LNS on a case, checking every improving solution, and returns the values found in
/// order, the final value, and whether it claimed a proof.
fn run_lns(case: &Case, config: SearchConfig, lns: &Lns) -> (Vec<i64>, Option<i64>, bool, bool) {
    let (m, vars, objective) = case.build();
    let mut solver = Solver::with_config(m, config);
    let mut run = solver.lns(objective, case.sense, lns).unwrap();
    let mut values = Vec::new();
    for s in run.by_ref() {
        let value = case.check_reported(&s, &vars, objective);
        if let Some(&last) = values.last() {
            assert!(case.better(value, last), "{case:?}: {value} after {last}");
        }
        values.push(value);
    }
    let best = run.finish();
    let value = best.value.map(i64::from);
    assert_eq!(value, values.last().copied(), "{case:?}");
    (values, value, best.optimal, best.infeasible)
}

/// That a run proved `optimum`, brute force's: found it and proved it optimal or, without
/// one, proved the model infeasible.
fn assert_proves(
    optimum: Option<i64>,
    value: Option<i64>,
    optimal: bool,
    infeasible: bool,
    what: &str,
) {
    match optimum {
        Some(opt) => assert!(optimal && value == Some(opt), "{what}: {value:?}"),
        None => assert!(infeasible && value.is_none(), "{what}"),
    }
}

#[test]
fn lns_never_reports_a_wrong_optimum_or_a_wrong_proof() {
    let mut rng = Rng(0x1a5);
    let (mut proven, mut cases) = (0, 0);
    for i in 0..300 {
        let case = Case::random(&mut rng);
        let optimum = case.optimum();
        let lns = Lns {
            seed: i,
            neighbourhood: KINDS[i as usize % 3],
            nodes_per_neighbourhood: rng.range(1, 30) as u64,
            first_nodes: [0, 5, 50, 1000][(i / 3) as usize % 4],
            initial_free_share: [0.05, 0.3, 1.0][rng.range(0, 2) as usize],
            proof_share: [0.0, 0.1, 0.5][rng.range(0, 2) as usize],
            // Every other pair of runs proves with the free search in turn.
            free_proofs: i % 4 >= 2,
            vars: Vec::new(),
        };
        let mut config = if rng.chance(50) {
            SearchConfig::for_optimization()
        } else {
            SearchConfig::default()
        };
        config.limits.nodes = Some(rng.range(1, 20_000) as u64);
        // Every other run learns in each part (nogoods kept within the part only).
        config.learning = i % 2 == 1;
        let (_, value, optimal, infeasible) = run_lns(&case, config, &lns);
        cases += 1;
        match optimum {
            None => {
                assert_eq!(value, None, "{case:?}: a solution where there is none");
                assert!(!optimal, "{case:?}");
            }
            Some(opt) => {
                assert!(!infeasible, "{case:?}: claimed infeasible, optimum {opt}");
                if let Some(v) = value {
                    assert!(
                        !case.better(v, opt),
                        "{case:?}: {v} beats the optimum {opt}"
                    );
                }
                if optimal {
                    assert_eq!(value, Some(opt), "{case:?}: a wrong proven optimum");
                }
            }
        }
        proven += usize::from(optimal || infeasible);
    }
    // With a proof share, tiny models are proven within the node limits most of the time: the
    // proofs above are checked, not just vacuous.
    assert!(proven * 2 > cases, "only {proven} of {cases} runs proven");
}

#[test]
fn lns_with_a_proof_share_and_no_limit_proves_the_brute_force_optimum_learning_or_not() {
    let mut rng = Rng(0xb0b);
    for i in 0..200 {
        let case = Case::random(&mut rng);
        let optimum = case.optimum();
        for neighbourhood in KINDS {
            let lns = Lns {
                seed: i,
                neighbourhood,
                nodes_per_neighbourhood: 5,
                first_nodes: i % 3 * 10,
                proof_share: 0.2,
                ..Lns::default()
            };
            for learning in [false, true] {
                let config = SearchConfig {
                    learning,
                    ..SearchConfig::for_optimization()
                };
                let (_, value, optimal, infeasible) = run_lns(&case, config, &lns);
                let what = format!("{case:?} {neighbourhood:?} learning {learning}");
                assert_proves(optimum, value, optimal, infeasible, &what);
            }
        }
    }
}

/// With [`Lns::first_nodes`] to spare, the first part is plain branch and bound that goes on
/// past the first solution: on small models it proves the brute-force optimum by itself, with
/// no share of complete runs after it.
#[test]
fn lns_starting_with_branch_and_bound_proves_the_brute_force_optimum_in_it() {
    let mut rng = Rng(0xf157);
    for i in 0..100 {
        let case = Case::random(&mut rng);
        let lns = Lns {
            seed: i,
            neighbourhood: KINDS[i as usize % 3],
            nodes_per_neighbourhood: 1,
            first_nodes: 1_000_000,
            initial_free_share: 0.02,
            proof_share: 0.0,
            ..Lns::default()
        };
        let mut config = SearchConfig::for_optimization();
        config.limits.nodes = Some(50_000);
        let (_, value, optimal, infeasible) = run_lns(&case, config, &lns);
        assert_proves(
            case.optimum(),
            value,
            optimal,
            infeasible,
            &format!("{case:?}"),
        );
    }
}

#[test]
fn lns_repeats_itself_for_a_seed() {
    let mut rng = Rng(0xdec);
    for i in 0..60 {
        let case = Case::random(&mut rng);
        let lns = Lns {
            seed: 1000 + i,
            neighbourhood: KINDS[i as usize % 3],
            nodes_per_neighbourhood: 3,
            first_nodes: i % 2 * 20,
            initial_free_share: 0.3,
            proof_share: 0.05,
            ..Lns::default()
        };
        let mut config = SearchConfig::for_optimization();
        config.limits.nodes = Some(5_000);
        let run = |case: &Case| {
            let (m, vars, objective) = case.build();
            let mut solver = Solver::with_config(m, config);
            let mut run = solver.lns(objective, case.sense, &lns).unwrap();
            let found: Vec<Vec<i32>> = run.by_ref().map(|s| s.values_of(&vars)).collect();
            let best = run.finish();
            (found, best.stats.nodes, best.stats.failures, best.optimal)
        };
        assert_eq!(run(&case), run(&case), "{case:?}");
    }
}

#[test]
fn lns_stops_at_the_solution_limit_and_reports_no_proof() {
    // Ten digits, all different, minimise Σ (i + 1) · d_i: many improving solutions.
    let mut m = Model::new();
    let d = m.int_vars(10, 0..=9).unwrap();
    let cost = m.int_var(0..=500).unwrap();
    m.all_different(&d).unwrap();
    let mut terms: Vec<IntView> = d.iter().map(|&x| x.into()).collect();
    terms.push(cost.minus());
    m.linear(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1], &terms, Relation::Eq, 0)
        .unwrap();
    let mut config = SearchConfig::for_optimization();
    config.limits.solutions = Some(2);
    let mut solver = Solver::with_config(m, config);
    let best = solver
        .lns(cost, Sense::Minimize, &Lns::default())
        .unwrap()
        .finish();
    assert_eq!(best.stats.solutions, 2);
    assert_eq!(best.stats.stopped, Some(StopReason::SolutionLimit));
    assert!(!best.optimal && !best.infeasible);
    // The solver's own limits are back, and its statistics are the whole run's.
    assert_eq!(solver.config().limits.solutions, Some(2));
    assert_eq!(solver.config().limits.nodes, None);
    assert_eq!(solver.stats().solutions, 2);
}

#[test]
fn lns_refuses_shares_out_of_range() {
    let mut m = Model::new();
    let x = m.int_var(0..=3).unwrap();
    let mut solver = Solver::new(m);
    for lns in [
        Lns {
            initial_free_share: 0.0,
            ..Lns::default()
        },
        Lns {
            initial_free_share: 1.5,
            ..Lns::default()
        },
        Lns {
            proof_share: 1.0,
            ..Lns::default()
        },
        Lns {
            proof_share: -0.1,
            ..Lns::default()
        },
    ] {
        assert!(matches!(
            solver.lns(x, Sense::Minimize, &lns),
            Err(ModelError::InvalidArgument { .. })
        ));
    }
}

/// Branch and bound with each rule of the optimisation configuration alone and all together:
/// the brute-force optimum, proven, every solution checked and improving.
#[test]
fn branch_and_bound_with_guidance_and_restarts_proves_the_brute_force_optimum() {
    let mut rng = Rng(0x0b7);
    let configs = [
        SearchConfig::for_optimization(),
        SearchConfig {
            last_conflict: true,
            ..SearchConfig::default()
        },
        SearchConfig {
            solution_phase: true,
            ..SearchConfig::default()
        },
        SearchConfig {
            restarts: Some(Restarts { scale: 1 }),
            ..SearchConfig::default()
        },
        SearchConfig {
            restarts: Some(Restarts { scale: 2 }),
            value_order: ValueOrder::Split,
            ..SearchConfig::for_optimization()
        },
    ];
    for _ in 0..150 {
        let case = Case::random(&mut rng);
        let optimum = case.optimum();
        for config in configs {
            let (m, vars, objective) = case.build();
            let mut solver = Solver::with_config(m, config);
            let mut run = match case.sense {
                Sense::Minimize => solver.minimize(objective).unwrap(),
                Sense::Maximize => solver.maximize(objective).unwrap(),
            };
            let mut last = None;
            for s in run.by_ref() {
                let value = case.check_reported(&s, &vars, objective);
                if let Some(l) = last {
                    assert!(case.better(value, l), "{case:?} {config:?}");
                }
                last = Some(value);
            }
            assert!(run.is_proven(), "{case:?} {config:?}");
            assert_eq!(last, optimum, "{case:?} {config:?}");
        }
    }
}

/// Guidance changes the order of search, never its set of solutions: every solution once.
#[test]
fn guided_search_enumerates_every_solution_once() {
    let mut rng = Rng(0x5e7);
    for _ in 0..150 {
        let case = Case::random(&mut rng);
        let expected: BTreeSet<Vec<i32>> = case.solutions().into_iter().collect();
        let (m, vars, objective) = case.build();
        let config = SearchConfig {
            last_conflict: true,
            solution_phase: true,
            var_order: VarOrder::DomWDeg,
            ..SearchConfig::default()
        };
        let mut solver = Solver::with_config(m, config);
        // Once unguided by any solution, once guided by branch and bound's best one.
        for round in 0..2 {
            if round == 1 {
                solver.minimize(objective).unwrap().finish();
            }
            let mut seen = BTreeSet::new();
            for s in solver.solutions() {
                let a = s.values_of(&vars);
                assert!(case.is_solution(&a), "{case:?}: {a:?}");
                assert!(seen.insert(a.clone()), "{case:?}: {a:?} twice");
            }
            assert_eq!(seen, expected, "{case:?}");
        }
    }
}

/// The job shop with reified pairs on each machine; the solver branches on the start times.
fn ft06_model(config: SearchConfig) -> (Solver, Vec<Vec<VarId>>, VarId) {
    let horizon: i32 = FT06.iter().flatten().map(|t| t.1).sum();
    let mut m = Model::new();
    let starts: Vec<Vec<VarId>> = FT06
        .iter()
        .map(|job| {
            let s = m.int_vars(6, 0..=horizon).unwrap();
            for k in 0..5 {
                m.less_eq(s[k].offset(job[k].1), s[k + 1]).unwrap();
            }
            s
        })
        .collect();
    let makespan = m.int_var(0..=horizon).unwrap();
    for (j, job) in FT06.iter().enumerate() {
        m.less_eq(starts[j][5].offset(job[5].1), makespan).unwrap();
    }
    for ja in 0..6 {
        for jb in ja + 1..6 {
            for ka in 0..6 {
                for kb in 0..6 {
                    let ((ma, da), (mb, db)) = (FT06[ja][ka], FT06[jb][kb]);
                    if ma != mb {
                        continue;
                    }
                    let (a, b) = (starts[ja][ka], starts[jb][kb]);
                    let first = m.named_bool(format!("b{ja}{ka}{jb}{kb}")).unwrap();
                    m.less_eq_reif(a.offset(da), b, first, Reif::Imp).unwrap();
                    m.less_eq_reif(b.offset(db), a, first.not(), Reif::Imp)
                        .unwrap();
                }
            }
        }
    }
    let all: Vec<VarId> = starts.iter().flatten().copied().collect();
    let solver = Solver::with_config(m, config).branch_on(&all).unwrap();
    (solver, starts, makespan)
}

/// The end of the schedule, checked in plain Rust: jobs in order, one task at a time on a
/// machine.
fn ft06_schedule_end(starts: &[Vec<i32>]) -> i32 {
    let mut on_machine = vec![Vec::new(); 6];
    let mut end = 0;
    for (j, job) in FT06.iter().enumerate() {
        for (k, &(machine, d)) in job.iter().enumerate() {
            let s = starts[j][k];
            assert!(s >= 0 && (k == 0 || starts[j][k - 1] + job[k - 1].1 <= s));
            on_machine[machine].push((s, s + d));
            end = end.max(s + d);
        }
    }
    for tasks in &mut on_machine {
        tasks.sort();
        assert!(
            tasks.windows(2).all(|w| w[0].1 <= w[1].0),
            "{tasks:?} overlap"
        );
    }
    end
}

/// ft06's optimum is 55 (Fisher and Thompson 1963; proven by many solvers since): the
/// optimisation configuration's branch and bound and LNS with each kind of neighbourhood
/// reach it and prove it.
#[test]
fn ft06_optimum_55_is_found_and_proven_by_every_search() {
    for lns in [None, Some(KINDS[0]), Some(KINDS[1]), Some(KINDS[2])] {
        let mut config = SearchConfig::for_optimization();
        config.limits.nodes = Some(2_000_000);
        let (mut solver, starts, makespan) = ft06_model(config);
        let best = match lns {
            Some(neighbourhood) => {
                let settings = Lns {
                    seed: 3,
                    neighbourhood,
                    ..Lns::default()
                };
                solver
                    .lns(makespan, Sense::Minimize, &settings)
                    .unwrap()
                    .finish()
            }
            None => solver.minimize(makespan).unwrap().finish(),
        };
        let solution = best.solution.expect("ft06 has schedules");
        let values: Vec<Vec<i32>> = starts.iter().map(|s| solution.values_of(s)).collect();
        assert_eq!(ft06_schedule_end(&values), solution[makespan]);
        assert_eq!((best.value, best.optimal), (Some(55), true), "lns: {lns:?}");
    }
}

/// Pigeons `q` (7) in 6 holes, or 7 when `cost` is 1, each pair apart by a binary `!=`, and
/// 14 Booleans that nothing constrains, branched on first in the stated order: the optimum
/// (cost 1) is found at once, and proving that cost 0 is impossible costs the stated search
/// the pigeonhole's refutation under each of the 2^14 settings of the Booleans.
fn pigeons_behind_noise() -> (Solver, VarId) {
    let mut m = Model::new();
    let noise = m.int_vars(14, 0..=1).unwrap();
    let q = m.int_vars(7, 0..=6).unwrap();
    let cost = m.int_var(0..=1).unwrap();
    for (i, &a) in q.iter().enumerate() {
        m.linear(&[1, -1], &[a, cost], Relation::Le, 5).unwrap();
        for &b in &q[i + 1..] {
            m.not_equal(a, b).unwrap();
        }
    }
    let stated = BranchGroup {
        vars: noise.iter().chain(&q).copied().chain([cost]).collect(),
        var_order: VarOrder::InputOrder,
        value_order: ValueOrder::Min,
    };
    let mut config = SearchConfig::default();
    config.limits.nodes = Some(300_000);
    let solver = Solver::with_config(m, config)
        .branch_groups(&[stated])
        .unwrap();
    (solver, cost)
}

#[test]
fn free_complete_runs_prove_what_the_stated_search_cannot() {
    for free_proofs in [false, true] {
        let (mut solver, cost) = pigeons_behind_noise();
        let lns = Lns {
            free_proofs,
            ..Lns::default()
        };
        let best = solver.lns(cost, Sense::Minimize, &lns).unwrap().finish();
        assert_eq!(best.value, Some(1), "free proofs {free_proofs}");
        // 300,000 nodes: far fewer than the stated search's 2^14 refutations.
        assert_eq!(best.optimal, free_proofs, "free proofs {free_proofs}");
    }
}
