//! The brute-force oracle: for random small models, the engine's solution set equals the set
//! found by enumerating every assignment, under every variable and value order.

use bezzel_core::prelude::*;
use proptest::prelude::*;
use std::collections::BTreeSet;

/// A view described independently of the engine: `±x[var] + offset`.
#[derive(Debug, Clone, Copy)]
struct ViewSpec {
    var: usize,
    negated: bool,
    offset: i32,
}

impl ViewSpec {
    fn eval(self, a: &[i32]) -> i64 {
        let v = i64::from(a[self.var]);
        (if self.negated { -v } else { v }) + i64::from(self.offset)
    }

    fn view(self, vars: &[VarId]) -> IntView {
        let base: IntView = vars[self.var].into();
        let base = if self.negated { base.minus() } else { base };
        base.offset(self.offset)
    }
}

#[derive(Debug, Clone)]
enum ConstraintSpec {
    AllDifferent(Vec<ViewSpec>),
    NotEqual(ViewSpec, ViewSpec),
    Equal(ViewSpec, ViewSpec),
    LessEq(ViewSpec, ViewSpec),
    LessThan(ViewSpec, ViewSpec),
    Linear(Vec<(i64, ViewSpec)>, Relation, i64),
    /// The closure check: the sum of the views' values is divisible by 3.
    SumDivisibleBy3(Vec<ViewSpec>),
}

impl ConstraintSpec {
    fn holds(&self, a: &[i32]) -> bool {
        match self {
            ConstraintSpec::AllDifferent(vs) => {
                let vals: BTreeSet<i64> = vs.iter().map(|v| v.eval(a)).collect();
                vals.len() == vs.len()
            }
            ConstraintSpec::NotEqual(x, y) => x.eval(a) != y.eval(a),
            ConstraintSpec::Equal(x, y) => x.eval(a) == y.eval(a),
            ConstraintSpec::LessEq(x, y) => x.eval(a) <= y.eval(a),
            ConstraintSpec::LessThan(x, y) => x.eval(a) < y.eval(a),
            ConstraintSpec::Linear(terms, rel, c) => {
                let s: i128 = terms
                    .iter()
                    .map(|&(k, v)| i128::from(k) * i128::from(v.eval(a)))
                    .sum();
                let c = i128::from(*c);
                match rel {
                    Relation::Eq => s == c,
                    Relation::Le => s <= c,
                    Relation::Ge => s >= c,
                }
            }
            ConstraintSpec::SumDivisibleBy3(vs) => {
                vs.iter().map(|v| v.eval(a)).sum::<i64>().rem_euclid(3) == 0
            }
        }
    }

    fn post(&self, m: &mut Model, vars: &[VarId]) -> Result<(), ModelError> {
        let views = |vs: &[ViewSpec]| vs.iter().map(|v| v.view(vars)).collect::<Vec<_>>();
        match self {
            ConstraintSpec::AllDifferent(vs) => m.all_different(&views(vs)),
            ConstraintSpec::NotEqual(x, y) => m.not_equal(x.view(vars), y.view(vars)),
            ConstraintSpec::Equal(x, y) => m.equal(x.view(vars), y.view(vars)),
            ConstraintSpec::LessEq(x, y) => m.less_eq(x.view(vars), y.view(vars)),
            ConstraintSpec::LessThan(x, y) => m.less_than(x.view(vars), y.view(vars)),
            ConstraintSpec::Linear(terms, rel, c) => {
                let coefs: Vec<i64> = terms.iter().map(|t| t.0).collect();
                let vs: Vec<ViewSpec> = terms.iter().map(|t| t.1).collect();
                m.linear(&coefs, &views(&vs), *rel, *c)
            }
            ConstraintSpec::SumDivisibleBy3(vs) => m.check(&views(vs), |vals| {
                vals.iter().sum::<i64>().rem_euclid(3) == 0
            }),
        }
    }
}

#[derive(Debug, Clone)]
struct ModelSpec {
    domains: Vec<Vec<i32>>,
    constraints: Vec<ConstraintSpec>,
}

impl ModelSpec {
    fn brute_force(&self) -> BTreeSet<Vec<i32>> {
        let mut out = BTreeSet::new();
        let mut a = vec![0; self.domains.len()];
        self.enumerate(0, &mut a, &mut out);
        out
    }

    fn enumerate(&self, i: usize, a: &mut Vec<i32>, out: &mut BTreeSet<Vec<i32>>) {
        if i == self.domains.len() {
            if self.constraints.iter().all(|c| c.holds(a)) {
                out.insert(a.clone());
            }
            return;
        }
        for &v in &self.domains[i] {
            a[i] = v;
            self.enumerate(i + 1, a, out);
        }
    }

    fn build(&self) -> Result<Model, ModelError> {
        let mut m = Model::new();
        let vars: Vec<VarId> = self
            .domains
            .iter()
            .map(|d| m.int_var(d.as_slice()))
            .collect::<Result<_, _>>()?;
        for c in &self.constraints {
            c.post(&mut m, &vars)?;
        }
        Ok(m)
    }

    fn engine(&self, config: SearchConfig) -> (BTreeSet<Vec<i32>>, u64) {
        let mut m = Model::new();
        let vars: Vec<VarId> = self
            .domains
            .iter()
            .map(|d| m.int_var(d.as_slice()).unwrap())
            .collect();
        for c in &self.constraints {
            c.post(&mut m, &vars).unwrap();
        }
        let mut solver = Solver::with_config(m, config);
        let mut found = BTreeSet::new();
        for s in solver.solutions() {
            // Every solution is reported once.
            assert!(found.insert(s.values_of(&vars)), "duplicate solution");
        }
        let count = solver.count();
        // Satisfaction search with aggressive restarts still finds a solution exactly when
        // there is one, and it is a real one.
        solver.config_mut().restarts = Some(bezzel_core::search::Restarts { scale: 1 });
        match solver.first() {
            Some(s) => assert!(found.contains(&s.values_of(&vars)), "restarted first()"),
            None => assert!(found.is_empty(), "restarted first() lost every solution"),
        }
        (found, count)
    }
}

const VAR_ORDERS: [VarOrder; 4] = [
    VarOrder::InputOrder,
    VarOrder::SmallestDomain,
    VarOrder::SmallestDomainMaxDegree,
    VarOrder::DomWDeg,
];
const VALUE_ORDERS: [ValueOrder; 3] = [ValueOrder::Min, ValueOrder::Max, ValueOrder::Split];

fn check_against_brute_force(spec: &ModelSpec) {
    let expected = spec.brute_force();
    for var_order in VAR_ORDERS {
        for value_order in VALUE_ORDERS {
            let config = SearchConfig {
                var_order,
                value_order,
                ..SearchConfig::default()
            };
            let (found, count) = spec.engine(config);
            assert_eq!(
                found, expected,
                "{var_order:?}/{value_order:?} on {spec:#?}"
            );
            assert_eq!(count, expected.len() as u64);
        }
    }
}

fn view_spec(nvars: usize) -> impl Strategy<Value = ViewSpec> {
    (0..nvars, prop::bool::weighted(0.25), -3..=3i32).prop_map(|(var, negated, offset)| ViewSpec {
        var,
        negated,
        offset,
    })
}

fn relation() -> impl Strategy<Value = Relation> {
    prop_oneof![Just(Relation::Eq), Just(Relation::Le), Just(Relation::Ge)]
}

fn constraint_spec(nvars: usize) -> impl Strategy<Value = ConstraintSpec> {
    let v = move || view_spec(nvars);
    prop_oneof![
        prop::collection::vec(v(), 2..=nvars.max(2)).prop_map(ConstraintSpec::AllDifferent),
        (v(), v()).prop_map(|(x, y)| ConstraintSpec::NotEqual(x, y)),
        (v(), v()).prop_map(|(x, y)| ConstraintSpec::Equal(x, y)),
        (v(), v()).prop_map(|(x, y)| ConstraintSpec::LessEq(x, y)),
        (v(), v()).prop_map(|(x, y)| ConstraintSpec::LessThan(x, y)),
        (
            prop::collection::vec((-3..=3i64, v()), 1..=4),
            relation(),
            -6..=6i64
        )
            .prop_map(|(t, r, c)| ConstraintSpec::Linear(t, r, c)),
        prop::collection::vec(v(), 1..=3).prop_map(ConstraintSpec::SumDivisibleBy3),
    ]
}

fn model_spec() -> impl Strategy<Value = ModelSpec> {
    (2..=6usize).prop_flat_map(|nvars| {
        (
            // Mostly small values; now and then a far one, so wide (multi-word) domains
            // are searched too.
            prop::collection::vec(
                prop::collection::btree_set(
                    prop_oneof![8 => -3..=4i32, 1 => Just(-100), 1 => Just(100)],
                    1..=6,
                ),
                nvars,
            ),
            prop::collection::vec(constraint_spec(nvars), 1..=4),
        )
            .prop_map(|(domains, constraints)| ModelSpec {
                domains: domains
                    .into_iter()
                    .map(|d| d.into_iter().collect())
                    .collect(),
                constraints,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 150,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::Direct("proptest-regressions/parallel.txt"),
        )),
        ..ProptestConfig::default()
    })]

    /// Parallel search over subproblems counts what sequential search counts.
    #[test]
    fn parallel_counts_match_brute_force(spec in model_spec()) {
        let expected = spec.brute_force().len() as u64;
        for threads in [1, 2, 4] {
            let search = bezzel_core::parallel::ParallelSearch::new("spec", || spec.build())
                .threads(Some(threads))
                .per_worker(4);
            let subproblems = search.subproblems().unwrap();
            let result = search.count(&subproblems, None, |_, _| {}).unwrap();
            prop_assert_eq!(result.solutions, expected, "{} threads", threads);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::Direct("proptest-regressions/oracle.txt"),
        )),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_models_match_brute_force(spec in model_spec()) {
        check_against_brute_force(&spec);
    }
}

impl ModelSpec {
    /// Every solution when search branches on the variables of `subset` first (in that
    /// order), checking each reported solution against the spec's own definitions.
    fn engine_branching_on(&self, subset: &[usize], config: SearchConfig) -> BTreeSet<Vec<i32>> {
        let m = self.build().unwrap();
        let vars = m.vars();
        let chosen: Vec<VarId> = subset.iter().map(|&i| vars[i]).collect();
        let mut solver = Solver::with_config(m, config).branch_on(&chosen).unwrap();
        let mut found = BTreeSet::new();
        for s in solver.solutions() {
            let values = s.values_of(&vars);
            assert!(
                self.constraints.iter().all(|c| c.holds(&values)),
                "reported {values:?}, which breaks a constraint"
            );
            assert!(found.insert(values), "duplicate solution");
        }
        assert_eq!(solver.count(), found.len() as u64);
        found
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::Direct("proptest-regressions/branch_on.txt"),
        )),
        ..ProptestConfig::default()
    })]

    /// Branching on any subset of the variables (in any order, even none) finds exactly the
    /// brute-force solutions: search goes on over the variables left out.
    #[test]
    fn branching_on_a_subset_matches_brute_force(
        spec in model_spec(),
        keys in prop::collection::vec(any::<u32>(), 6),
        keep in any::<u8>(),
        var_order in 0..4usize,
        value_order in 0..3usize,
    ) {
        let n = spec.domains.len();
        let mut subset: Vec<usize> = (0..n).filter(|&i| keep >> i & 1 == 1).collect();
        subset.sort_by_key(|&i| keys[i]);
        let config = SearchConfig {
            var_order: VAR_ORDERS[var_order],
            value_order: VALUE_ORDERS[value_order],
            check_solutions: true,
            ..SearchConfig::default()
        };
        prop_assert_eq!(spec.engine_branching_on(&subset, config), spec.brute_force());
    }

    /// The model's own checker ([`Model::check_assignment`]) agrees with the definitions
    /// above on any assignment, solution or not.
    #[test]
    fn the_solution_checker_agrees_with_the_definitions(
        spec in model_spec(),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 6),
    ) {
        let m = spec.build().unwrap();
        let values: Vec<i32> = spec
            .domains
            .iter()
            .zip(&picks)
            .map(|(d, pick)| *pick.get(d))
            .collect();
        let expected = spec.constraints.iter().all(|c| c.holds(&values));
        prop_assert_eq!(m.check_assignment(&values).is_ok(), expected, "{:?}", values);
    }
}

/// Each built-in constraint on its own, over every pair/triple of small views.
#[test]
fn every_builtin_alone_matches_brute_force() {
    let domains = vec![vec![-1, 0, 1, 2], vec![0, 1, 3], vec![-2, 0, 1, 2, 3]];
    let views = [
        ViewSpec {
            var: 0,
            negated: false,
            offset: 0,
        },
        ViewSpec {
            var: 1,
            negated: true,
            offset: 2,
        },
        ViewSpec {
            var: 2,
            negated: false,
            offset: -1,
        },
    ];
    let (a, b, c) = (views[0], views[1], views[2]);
    let constraints = vec![
        ConstraintSpec::AllDifferent(vec![a, b, c]),
        ConstraintSpec::AllDifferent(vec![a, c]),
        ConstraintSpec::NotEqual(a, c),
        ConstraintSpec::Equal(b, c),
        ConstraintSpec::LessEq(c, a),
        ConstraintSpec::LessThan(a, b),
        ConstraintSpec::Linear(vec![(2, a), (-3, b), (1, c)], Relation::Eq, 1),
        ConstraintSpec::Linear(vec![(2, a), (-3, b), (1, c)], Relation::Le, 0),
        ConstraintSpec::Linear(vec![(2, a), (-3, b), (1, c)], Relation::Ge, -2),
        ConstraintSpec::SumDivisibleBy3(vec![a, b, c]),
    ];
    for constraint in constraints {
        let spec = ModelSpec {
            domains: domains.clone(),
            constraints: vec![constraint],
        };
        let expected = spec.brute_force();
        assert!(
            !expected.is_empty(),
            "a test case without solutions proves little"
        );
        check_against_brute_force(&spec);
    }
}

/// Found by the random test: `x <= x - 1` and friends, where both sides view one variable, so a
/// single pass of a propagator does not reach its fixpoint.
#[test]
fn views_of_the_same_variable_reach_a_fixpoint() {
    let x = ViewSpec {
        var: 0,
        negated: false,
        offset: 0,
    };
    let x_minus_1 = ViewSpec {
        var: 0,
        negated: false,
        offset: -1,
    };
    let minus_x = ViewSpec {
        var: 0,
        negated: true,
        offset: 0,
    };
    for constraint in [
        ConstraintSpec::LessEq(x, x_minus_1),
        ConstraintSpec::LessThan(x, x),
        ConstraintSpec::Equal(x, x_minus_1),
        ConstraintSpec::Equal(x, minus_x),
        ConstraintSpec::NotEqual(x, x),
        ConstraintSpec::AllDifferent(vec![x, minus_x, x_minus_1]),
        ConstraintSpec::Linear(vec![(1, x), (1, x)], Relation::Eq, 2),
    ] {
        let spec = ModelSpec {
            domains: vec![vec![-1, 0, 1, 2], vec![0]],
            constraints: vec![constraint],
        };
        check_against_brute_force(&spec);
    }
}
