//! The brute-force oracle: for random small models, the engine's solution set equals the set
//! found by enumerating every assignment, under every variable and value order.

use bezzel_core::prelude::*;
use proptest::prelude::*;
use std::collections::BTreeSet;

use crate::brute;

use brute::ViewSpec;
use brute::spec::{ConstraintSpec, Kinds, ModelSpec, Shape, VALUE_ORDERS, VAR_ORDERS, every_order};

impl ModelSpec {
    fn engine(&self, config: SearchConfig) -> (BTreeSet<Vec<i32>>, u64) {
        let (m, vars) = self.build();
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

fn check_against_brute_force(spec: &ModelSpec) {
    let expected = spec.brute_force();
    for config in every_order() {
        let orders = (config.var_order, config.value_order);
        let (found, count) = spec.engine(config);
        assert_eq!(found, expected, "{orders:?} on {spec:#?}");
        assert_eq!(count, expected.len() as u64);
    }
}

/// Two to six variables, mostly small values and now and then a far one (so that wide,
/// multi-word domains are searched too), one to four constraints of every kind.
fn model_spec() -> impl Strategy<Value = ModelSpec> {
    brute::spec::model_spec(Shape {
        vars: 2..=6,
        values: prop_oneof![8 => -3..=4i32, 1 => Just(-100), 1 => Just(100)].boxed(),
        max_values: 6,
        constraints: 1..=4,
        kinds: Kinds::All,
    })
}

proptest! {
    #![proptest_config(brute::spec::persisted(150, "proptest-regressions/parallel.txt"))]

    /// Parallel search over subproblems counts what sequential search counts.
    #[test]
    fn parallel_counts_match_brute_force(spec in model_spec()) {
        let expected = spec.brute_force().len() as u64;
        for threads in [1, 2, 4] {
            let search = bezzel_core::parallel::ParallelSearch::new("spec", || spec.try_build().map(|(m, _)| m))
                .threads(Some(threads))
                .per_worker(4);
            let subproblems = search.subproblems().unwrap();
            let result = search.count(&subproblems, None, |_, _| {}).unwrap();
            prop_assert_eq!(result.solutions, expected, "{} threads", threads);
        }
    }
}

proptest! {
    #![proptest_config(brute::spec::persisted(2000, "proptest-regressions/oracle.txt"))]

    #[test]
    fn random_models_match_brute_force(spec in model_spec()) {
        check_against_brute_force(&spec);
    }
}

impl ModelSpec {
    /// Every solution when search branches on the variables of `subset` first (in that
    /// order), checking each reported solution against the spec's own definitions.
    fn engine_branching_on(&self, subset: &[usize], config: SearchConfig) -> BTreeSet<Vec<i32>> {
        let (m, vars) = self.build();
        let chosen: Vec<VarId> = subset.iter().map(|&i| vars[i]).collect();
        let mut solver = Solver::with_config(m, config).branch_on(&chosen).unwrap();
        let mut found = BTreeSet::new();
        for s in solver.solutions() {
            let values = s.values_of(&vars);
            assert!(
                self.holds(&values),
                "reported {values:?}, which breaks a constraint"
            );
            assert!(found.insert(values), "duplicate solution");
        }
        assert_eq!(solver.count(), found.len() as u64);
        found
    }
}

proptest! {
    #![proptest_config(brute::spec::persisted(400, "proptest-regressions/branch_on.txt"))]

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
        let (m, _) = spec.build();
        let values: Vec<i32> = spec
            .domains
            .iter()
            .zip(&picks)
            .map(|(d, pick)| *pick.get(d))
            .collect();
        let expected = spec.holds(&values);
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
            scale: 1,
        },
        ViewSpec {
            var: 1,
            negated: true,
            offset: 2,
            scale: 1,
        },
        ViewSpec {
            var: 2,
            negated: false,
            offset: -1,
            scale: 1,
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
        scale: 1,
    };
    let x_minus_1 = ViewSpec {
        var: 0,
        negated: false,
        offset: -1,
        scale: 1,
    };
    let minus_x = ViewSpec {
        var: 0,
        negated: true,
        offset: 0,
        scale: 1,
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
