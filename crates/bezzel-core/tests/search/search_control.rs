//! Search control: variable groups with their own orders ([`Solver::branch_groups`]) and
//! user branchers ([`Solver::brancher`]). On random tiny models the solution set is the
//! brute-force set whatever the groups or the brancher; and the decisions come in the order
//! asked for.

use bezzel_core::parallel::ParallelSearch;
use bezzel_core::prelude::*;
use bezzel_core::search::{BranchGroup, Brancher, Domains};
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use crate::brute;

use brute::spec::{ModelSpec, VALUE_ORDERS, VAR_ORDERS};

/// Every solution of `solver`, checked against the spec and for duplicates; and the count.
fn solve(spec: &ModelSpec, solver: &mut Solver, vars: &[VarId]) -> BTreeSet<Vec<i32>> {
    let mut found = BTreeSet::new();
    for s in solver.solutions() {
        let values = s.values_of(vars);
        assert!(spec.holds(&values), "{values:?} breaks a constraint");
        assert!(found.insert(values), "duplicate solution");
    }
    assert_eq!(solver.count(), found.len() as u64);
    found
}

/// Two to five variables over -3..=4, up to three core constraints.
fn model_spec() -> impl Strategy<Value = ModelSpec> {
    brute::spec::core_model_spec(2..=5, -3..=4, 5, 0..=3)
}

/// Groups of the model's variables: each a list of indices (repeats and empty groups
/// allowed), with indices into the orders.
fn groups_spec() -> impl Strategy<Value = Vec<(Vec<usize>, usize, usize)>> {
    prop::collection::vec(
        (
            prop::collection::vec(0..5usize, 0..=4),
            0..4usize,
            0..3usize,
        ),
        0..=3,
    )
}

/// A brancher that branches at random: a random unfixed variable, a random kind of decision
/// that splits its domain, and now and then no decision at all (left to the built-ins).
#[derive(Debug)]
struct RandomBrancher {
    rng: brute::Rng,
}

impl RandomBrancher {
    fn next(&mut self) -> u64 {
        self.rng.next()
    }
}

impl Brancher for RandomBrancher {
    fn decide(&mut self, domains: &Domains<'_>) -> Option<Decision> {
        let unfixed: Vec<VarId> = domains.vars().filter(|&x| !domains.is_fixed(x)).collect();
        if unfixed.is_empty() || self.next().is_multiple_of(5) {
            return None;
        }
        let x = unfixed[(self.next() % unfixed.len() as u64) as usize];
        // The reads agree with each other.
        let values: Vec<i32> = domains.values(x).collect();
        assert_eq!(values.len() as u32, domains.size(x));
        assert_eq!(
            (values[0], values[values.len() - 1]),
            (domains.min(x), domains.max(x))
        );
        assert!(values.iter().all(|&v| domains.contains(x, v)));
        assert!(!domains.contains(x, domains.max(x) + 1));
        let v = values[(self.next() % values.len() as u64) as usize];
        // A bound below the largest value splits the domain.
        let below_max = values[(self.next() % (values.len() as u64 - 1)) as usize];
        Some(match self.next() % 4 {
            0 => Decision::Assign(x, v),
            1 => Decision::Exclude(x, v),
            2 => Decision::AtMost(x, below_max),
            _ => Decision::Above(x, below_max),
        })
    }
}

proptest! {
    #![proptest_config(brute::spec::persisted(500, "proptest-regressions/search_control.txt"))]

    /// Any groups, with any orders, find exactly the brute-force solutions, as the default
    /// search does.
    #[test]
    fn groups_keep_the_solution_set(
        spec in model_spec(),
        groups in groups_spec(),
        var_order in 0..4usize,
        value_order in 0..3usize,
    ) {
        let expected = spec.brute_force();
        let (m, vars) = spec.build();
        prop_assert_eq!(solve(&spec, &mut Solver::new(m), &vars), expected.clone());
        let (m, vars) = spec.build();
        let groups: Vec<BranchGroup> = groups
            .iter()
            .map(|(xs, vo, wo)| BranchGroup {
                vars: xs.iter().filter(|&&x| x < vars.len()).map(|&x| vars[x]).collect(),
                var_order: VAR_ORDERS[*vo],
                value_order: VALUE_ORDERS[*wo],
            })
            .collect();
        let config = SearchConfig {
            var_order: VAR_ORDERS[var_order],
            value_order: VALUE_ORDERS[value_order],
            check_solutions: true,
            ..SearchConfig::default()
        };
        let mut solver = Solver::with_config(m, config).branch_groups(&groups).unwrap();
        prop_assert_eq!(solve(&spec, &mut solver, &vars), expected);
    }

    /// A brancher that branches at random (and sometimes leaves the node to the built-ins)
    /// finds exactly the brute-force solutions.
    #[test]
    fn a_random_brancher_keeps_the_solution_set(spec in model_spec(), seed in 1..u64::MAX) {
        let expected = spec.brute_force();
        let (m, vars) = spec.build();
        let brancher = RandomBrancher { rng: brute::Rng(seed) };
        let config = SearchConfig { check_solutions: true, ..SearchConfig::default() };
        let mut solver = Solver::with_config(m, config).brancher(brancher);
        prop_assert_eq!(solve(&spec, &mut solver, &vars), expected);
    }
}

#[test]
fn groups_branch_in_the_order_asked_for() {
    // No constraints: the order of the solutions is the order of the decisions. Group 1 is
    // c then a (input order), largest value first; group 2 is b, smallest first; d comes last
    // with the configuration's orders (input order, smallest first).
    let mut m = Model::new();
    let [a, b, c, d] = [0, 1, 2, 3].map(|_| m.int_var(0..=2).unwrap());
    let config = SearchConfig {
        var_order: VarOrder::InputOrder,
        ..SearchConfig::default()
    };
    let mut solver = Solver::with_config(m, config)
        .branch_groups(&[
            BranchGroup {
                vars: vec![c, a],
                var_order: VarOrder::InputOrder,
                value_order: ValueOrder::Max,
            },
            BranchGroup {
                vars: vec![b],
                var_order: VarOrder::InputOrder,
                value_order: ValueOrder::Min,
            },
        ])
        .unwrap();
    let found: Vec<Vec<i32>> = solver
        .solutions()
        .map(|s| s.values_of(&[a, b, c, d]))
        .collect();
    let mut expected: Vec<Vec<i32>> = (0..81)
        .map(|i| vec![i % 3, i / 3 % 3, i / 9 % 3, i / 27])
        .collect();
    expected.sort_by_key(|s| (-s[2], -s[0], s[1], s[3]));
    assert_eq!(found, expected);

    // A group's own variable order: the smallest domain of the group first, even though
    // the configuration says input order; the group's value order splits it.
    let mut m = Model::new();
    let a = m.int_var(0..=5).unwrap();
    let b = m.int_var(0..=3).unwrap();
    let c = m.int_var(0..=1).unwrap();
    let config = SearchConfig {
        var_order: VarOrder::InputOrder,
        ..SearchConfig::default()
    };
    let mut solver = Solver::with_config(m, config)
        .branch_groups(&[BranchGroup {
            vars: vec![a, b],
            var_order: VarOrder::SmallestDomain,
            value_order: ValueOrder::Split,
        }])
        .unwrap();
    let split = solver.split(2).unwrap();
    // (Split prefixes name unbound variables: compare indices.)
    assert!(
        matches!(split[0][0], Decision::AtMost(x, 1) if x.index() == b.index()),
        "{split:?}"
    );
    // branch_on replaces the groups: back to the configuration's orders on a first.
    let mut solver = solver.branch_on(&[a, c]).unwrap();
    let split = solver.split(2).unwrap();
    assert_eq!(split[0][0].var().index(), a.index());
    assert_eq!(solver.count(), 6 * 4 * 2);
}

/// Branches on the variable with the largest domain, largest value first, and records its
/// decisions.
#[derive(Debug)]
struct LargestFirst {
    vars: Vec<VarId>,
    log: Arc<Mutex<Vec<Decision>>>,
}

impl Brancher for LargestFirst {
    fn decide(&mut self, domains: &Domains<'_>) -> Option<Decision> {
        let x = self
            .vars
            .iter()
            .copied()
            .filter(|&x| !domains.is_fixed(x))
            .max_by_key(|&x| (domains.size(x), std::cmp::Reverse(x.index())))?;
        let d = Decision::Assign(x, domains.max(x));
        self.log.lock().unwrap().push(d);
        Some(d)
    }
}

#[test]
fn a_brancher_decides_first_and_the_built_ins_finish() {
    // The brancher sees only a and b; c is left to the built-in branching.
    let mut m = Model::new();
    let a = m.int_var(0..=1).unwrap();
    let b = m.int_var(0..=2).unwrap();
    let c = m.int_var(0..=1).unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    let brancher = LargestFirst {
        vars: vec![a, b],
        log: log.clone(),
    };
    let mut solver = Solver::new(m).brancher(brancher);
    let first = solver.first().unwrap();
    // b (three values) first at its largest, then a at its largest, then c at its smallest.
    assert_eq!(first.values_of(&[a, b, c]), [1, 2, 0]);
    assert_eq!(
        *log.lock().unwrap(),
        [Decision::Assign(b, 2), Decision::Assign(a, 1)]
    );
    assert_eq!(solver.count(), 12);
}

#[derive(Debug)]
struct Broken(Decision);

impl Brancher for Broken {
    fn decide(&mut self, _: &Domains<'_>) -> Option<Decision> {
        Some(self.0)
    }
}

#[test]
#[should_panic(expected = "does not split the domain")]
fn a_decision_that_splits_nothing_is_a_bug_named() {
    let mut m = Model::new();
    let x = m.int_var(0..=3).unwrap();
    // x <= 3 keeps every value: the left branch would be the node itself, forever.
    Solver::new(m)
        .brancher(Broken(Decision::AtMost(x, 3)))
        .count();
}

#[test]
#[should_panic(expected = "not a variable of the model being searched")]
fn a_decision_on_another_models_variable_is_a_bug_named() {
    let mut other = Model::new();
    let y = other.int_var(0..=3).unwrap();
    let mut m = Model::new();
    m.int_var(0..=3).unwrap();
    Solver::new(m)
        .brancher(Broken(Decision::Assign(y, 1)))
        .count();
}

#[test]
fn a_group_of_another_models_variables_is_an_error() {
    let mut other = Model::new();
    let y = other.int_var(0..=3).unwrap();
    let mut m = Model::new();
    m.int_var(0..=3).unwrap();
    let groups = [BranchGroup {
        vars: vec![y],
        var_order: VarOrder::InputOrder,
        value_order: ValueOrder::Min,
    }];
    assert!(Solver::new(m).branch_groups(&groups).is_err());
}

#[test]
fn a_brancher_works_with_optimisation() {
    // Minimise a + b + c, all different over 0..=4, branching largest value first: the
    // brancher's decisions make bad solutions first, branch and bound still ends optimal.
    let mut m = Model::new();
    let x = m.int_vars(3, 0..=4).unwrap();
    let total = m.int_var(0..=12).unwrap();
    m.all_different(&x).unwrap();
    m.linear(&[1, 1, 1, -1], &[x[0], x[1], x[2], total], Relation::Eq, 0)
        .unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut solver = Solver::new(m).brancher(LargestFirst {
        vars: x.clone(),
        log,
    });
    let mut run = solver.minimize(total).unwrap();
    let values: Vec<i32> = run.by_ref().map(|s| s[total]).collect();
    assert!(values.len() > 1 && values.windows(2).all(|w| w[0] > w[1]));
    assert!(run.is_optimal());
    assert_eq!(run.best_value(), Some(3));
}

/// The groups of `spec` bound to the variables `vars`, as `groups_spec` draws them.
fn bind_groups(spec: &[(Vec<usize>, usize, usize)], vars: &[VarId]) -> Vec<BranchGroup> {
    spec.iter()
        .map(|(xs, vo, wo)| BranchGroup {
            vars: xs
                .iter()
                .filter(|&&x| x < vars.len())
                .map(|&x| vars[x])
                .collect(),
            var_order: VAR_ORDERS[*vo],
            value_order: VALUE_ORDERS[*wo],
        })
        .collect()
}

proptest! {
    #![proptest_config(brute::spec::persisted(150, "proptest-regressions/search_control_parallel.txt"))]

    /// Parallel search with branch groups (named by the variables of another copy of the
    /// model), and with a random brancher in front of them or not, counts the brute-force
    /// solutions and finds the brute-force minimum of the first variable, on one thread and
    /// on three.
    #[test]
    fn parallel_search_with_groups_counts_and_optimises(
        spec in model_spec(),
        groups in groups_spec(),
        seed in prop::option::of(1..u64::MAX),
    ) {
        let expected = spec.brute_force();
        let minimum = expected.iter().map(|a| a[0]).min();
        let (_, vars) = spec.build();
        let groups = bind_groups(&groups, &vars);
        for threads in [1, 3] {
            let build = || spec.try_build().map(|(m, _)| m);
            let mut search = ParallelSearch::new("spec", build)
                .threads(Some(threads))
                .per_worker(3)
                .branch_groups(&groups);
            if let Some(seed) = seed {
                search = search.brancher(move |_: &Model| RandomBrancher { rng: brute::Rng(seed) });
            }
            let subproblems = search.subproblems().unwrap();
            let counted = search.count(&subproblems, None, |_, _| {}).unwrap();
            prop_assert_eq!(counted.solutions, expected.len() as u64, "{} threads", threads);
            let best = search.minimize(&subproblems, vars[0], None, |_, _| {}).unwrap();
            prop_assert_eq!(best.value, minimum, "{} threads", threads);
            prop_assert_eq!(best.optimal, minimum.is_some());
        }
    }
}

/// The workers and the split follow the groups: minimising `x` with a group `[z, x]` that
/// tries the largest values first, the split expands `z` and each worker then improves `x`
/// through every value from the largest down, where the default order (smallest domain,
/// smallest value) finds the minimum at once.
#[test]
fn parallel_search_follows_the_groups() {
    let build = || -> Result<Model, ModelError> {
        let mut m = Model::new();
        m.int_var(0..=1)?; // y, the smallest domain: the default order's first choice
        m.int_var(0..=2)?; // z
        m.int_var(0..=9)?; // x
        Ok(m)
    };
    let [_, z, x] = <[VarId; 3]>::try_from(build().unwrap().vars()).unwrap();
    let improvements = |groups: &[BranchGroup]| {
        let search = ParallelSearch::new("three", build)
            .threads(Some(1))
            .per_worker(2)
            .branch_groups(groups);
        let subproblems = search.subproblems().unwrap();
        let seen = Mutex::new(Vec::new());
        let best = search
            .minimize(&subproblems, x, None, |_, v| seen.lock().unwrap().push(v))
            .unwrap();
        assert_eq!(best.value, Some(0));
        (subproblems, seen.into_inner().unwrap())
    };
    let (_, plain) = improvements(&[]);
    assert_eq!(plain, [0]);
    let group = BranchGroup {
        vars: vec![z, x],
        var_order: VarOrder::InputOrder,
        value_order: ValueOrder::Max,
    };
    let (subproblems, seen) = improvements(&[group]);
    // (Split prefixes name unbound variables: compare indices.)
    assert!(
        matches!(subproblems[0].decisions[0], Decision::Assign(v, 2) if v.index() == z.index()),
        "{subproblems:?}"
    );
    assert_eq!(seen, (0..=9).rev().collect::<Vec<i32>>());
    // A group naming a variable the model lacks is an error, not a panic.
    let far = Model::new().int_vars(5, 0..=1).unwrap()[4];
    let bad = BranchGroup {
        vars: vec![far],
        var_order: VarOrder::InputOrder,
        value_order: ValueOrder::Min,
    };
    let search = ParallelSearch::new("three", build).branch_groups(&[bad]);
    assert!(search.subproblems().is_err());
}

/// The first unfixed variable of its list, largest value first (the threads' tests use it too).
#[derive(Debug)]
pub(crate) struct LargestValue(pub(crate) Vec<VarId>);

impl Brancher for LargestValue {
    fn decide(&mut self, domains: &Domains<'_>) -> Option<Decision> {
        let x = self.0.iter().copied().find(|&x| !domains.is_fixed(x))?;
        Some(Decision::Assign(x, domains.max(x)))
    }
}

/// The workers and the split use the brancher, each made for its own copy of the model: as
/// with the group `[z, x]` above, every value of `x` from the largest down is an improvement.
#[test]
fn parallel_search_follows_the_brancher() {
    let build = || -> Result<Model, ModelError> {
        let mut m = Model::new();
        m.int_var(0..=1)?;
        m.int_var(0..=2)?;
        m.int_var(0..=9)?;
        Ok(m)
    };
    let x = build().unwrap().vars()[2];
    let search = ParallelSearch::new("three", build)
        .threads(Some(1))
        .per_worker(2)
        .brancher(|m: &Model| LargestValue(m.vars()[1..].to_vec()));
    let subproblems = search.subproblems().unwrap();
    assert!(
        matches!(subproblems[0].decisions[0], Decision::Assign(v, 2) if v.index() == 1),
        "{subproblems:?}"
    );
    let seen = Mutex::new(Vec::new());
    let best = search
        .minimize(&subproblems, x, None, |_, v| seen.lock().unwrap().push(v))
        .unwrap();
    assert_eq!(best.value, Some(0));
    assert_eq!(
        seen.into_inner().unwrap(),
        (0..=9).rev().collect::<Vec<i32>>()
    );
    assert_eq!(
        search
            .count(&subproblems, None, |_, _| {})
            .unwrap()
            .solutions,
        60
    );
}
