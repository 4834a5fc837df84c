//! Regressions for wrong answers given without any error (issue 11, items 1-3): branching on a
//! subset of the variables, a solution checker independent of propagation, and arithmetic
//! overflow in `linear`, in views and in domains. Expected answers come from brute force in
//! `i128`, never from the engine.

use bezzel_core::prelude::*;
use bezzel_core::propagators::Linear;
use proptest::prelude::*;

use crate::brute::assignments;
use crate::brute::spec::relation_holds;

fn all_solutions(solver: &mut Solver, vars: &[VarId]) -> Vec<Vec<i32>> {
    let mut found: Vec<Vec<i32>> = solver.solutions().map(|s| s.values_of(vars)).collect();
    found.sort();
    found
}

/// A model of two variables `x` and `y` in `0..=max`.
fn two_vars(max: i32) -> (Model, VarId, VarId) {
    let mut m = Model::new();
    let x = m.int_var(0..=max).unwrap();
    let y = m.int_var(0..=max).unwrap();
    (m, x, y)
}

// ---- 1. Branching on a subset ------------------------------------------------------------

#[test]
fn branching_on_one_variable_still_checks_the_others() {
    let (mut m, x, y) = two_vars(1);
    m.check(&[x, y], |d| d[0] + d[1] == 5).unwrap();
    let mut solver = Solver::new(m).branch_on(&[x]).unwrap();
    assert_eq!(all_solutions(&mut solver, &[x, y]), Vec::<Vec<i32>>::new());
    assert_eq!(solver.count(), 0);
}

#[test]
fn branching_on_nothing_still_searches_every_variable() {
    let (mut m, x, y) = two_vars(1);
    m.not_equal(x, y).unwrap();
    let mut solver = Solver::new(m).branch_on(&[]).unwrap();
    assert_eq!(
        all_solutions(&mut solver, &[x, y]),
        vec![vec![0, 1], vec![1, 0]]
    );
}

#[test]
fn branching_on_a_subset_keeps_its_order_and_then_covers_the_rest() {
    // x < y < z over 0..=3: four solutions, whichever variables search starts with.
    let mut m = Model::new();
    let v = m.int_vars(3, 0..=3).unwrap();
    m.less_than(v[0], v[1]).unwrap();
    m.less_than(v[1], v[2]).unwrap();
    let config = SearchConfig {
        var_order: VarOrder::InputOrder,
        ..SearchConfig::default()
    };
    let mut solver = Solver::with_config(m, config).branch_on(&[v[2]]).unwrap();
    let found = all_solutions(&mut solver, &v);
    let expected: Vec<Vec<i32>> = assignments(&vec![vec![0, 1, 2, 3]; 3])
        .into_iter()
        .filter(|a| a[0] < a[1] && a[1] < a[2])
        .collect();
    assert_eq!(found, expected);
    // Input order on the chosen variable: z's smallest value comes first.
    assert_eq!(solver.first().unwrap().value(v[2]), 2);
}

// ---- 2. The solution checker --------------------------------------------------------------

/// A propagator that prunes nothing and whose definition holds only for `x = 0`: the solver
/// would report every value of `x` without the checker.
#[derive(Debug)]
struct LazyZero(IntView);

impl Propagator for LazyZero {
    fn setup(&mut self, s: &mut Setup<'_>) {
        s.subscribe(self.0, Event::Fixed);
    }
    fn propagate(&mut self, _: &mut Context<'_>) -> PropResult {
        Ok(PropStatus::Fixpoint)
    }
    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        a.value(self.0) == 0
    }
    fn name(&self) -> &'static str {
        "lazy_zero"
    }
}

fn lazy_model() -> (Model, VarId) {
    let mut m = Model::new();
    let x = m.int_var(0..=2).unwrap();
    m.post(LazyZero(x.into())).unwrap();
    (m, x)
}

#[test]
#[should_panic(expected = "lazy_zero")]
fn a_propagator_that_lets_a_wrong_solution_through_is_caught() {
    let (m, _) = lazy_model();
    let mut solver = Solver::with_config(
        m,
        SearchConfig {
            check_solutions: true,
            ..SearchConfig::default()
        },
    );
    solver.count();
}

#[test]
fn unchecked_search_believes_the_propagator_and_the_checker_does_not() {
    let (m, x) = lazy_model();
    let mut solver = Solver::with_config(
        m,
        SearchConfig {
            check_solutions: false,
            ..SearchConfig::default()
        },
    );
    let reported = all_solutions(&mut solver, &[x]);
    assert_eq!(reported.len(), 3);
    let bad: Vec<_> = reported
        .iter()
        .filter(|a| solver.model().check_assignment(a).is_err())
        .collect();
    assert_eq!(bad, vec![&vec![1], &vec![2]]);
    assert_eq!(
        solver.model().check_assignment(&[1]),
        Err(ModelError::ConstraintViolated {
            propagator: 0,
            name: "lazy_zero"
        })
    );
    assert!(matches!(
        solver.model().check_assignment(&[]),
        Err(ModelError::LengthMismatch { .. })
    ));
}

#[test]
fn the_test_suite_runs_with_solution_checks_on() {
    // Set by the repository's .cargo/config.toml: every test that enumerates solutions with a
    // default configuration is checked.
    assert!(SearchConfig::default().check_solutions);
}

// ---- 3. Arithmetic overflow ---------------------------------------------------------------

/// Brute-force count of `Σ a·(view value) (rel) c` in `i128`, with views `x + offset`.
fn brute_linear(
    coefs: &[i64],
    domains: &[Vec<i32>],
    offsets: &[i32],
    rel: Relation,
    c: i64,
) -> u64 {
    assignments(domains)
        .iter()
        .filter(|a| {
            let sum: i128 = a
                .iter()
                .zip(coefs)
                .zip(offsets)
                .map(|((&v, &k), &o)| i128::from(k) * (i128::from(v) + i128::from(o)))
                .sum();
            relation_holds(sum, rel, i128::from(c))
        })
        .count() as u64
}

fn engine_linear(
    coefs: &[i64],
    domains: &[Vec<i32>],
    offsets: &[i32],
    rel: Relation,
    c: i64,
) -> u64 {
    let mut m = Model::new();
    let views: Vec<IntView> = domains
        .iter()
        .zip(offsets)
        .map(|(d, &o)| m.int_var(d.as_slice()).unwrap().offset(o))
        .collect();
    let narrow: Result<Vec<i32>, _> = coefs.iter().map(|&k| i32::try_from(k)).collect();
    match (narrow, i32::try_from(c)) {
        // What the model's `i32` API can state goes through it...
        (Ok(coefs), Ok(c)) => m.linear(&coefs, &views, rel, c).unwrap(),
        // ...and the ends of `i64` straight to the propagator, which takes them.
        _ => {
            let terms = coefs.iter().copied().zip(views).collect();
            m.post(Linear::new(terms, rel, c)).unwrap();
        }
    }
    Solver::new(m).count()
}

#[test]
fn linear_with_i64_min_coefficient_counts_exactly() {
    let domains = [(-3..=3).collect::<Vec<i32>>(), (0..=3).collect()];
    let coefs = [i64::MIN, 1];
    let expected = brute_linear(&coefs, &domains, &[0, 0], Relation::Eq, 0);
    assert_eq!(expected, 1);
    assert_eq!(
        engine_linear(&coefs, &domains, &[0, 0], Relation::Eq, 0),
        expected
    );
}

#[test]
fn linear_up_to_i64_max_on_an_offset_view_counts_exactly() {
    let domains = [(0..=10).collect::<Vec<i32>>()];
    let expected = brute_linear(&[1], &domains, &[-5], Relation::Le, i64::MAX);
    assert_eq!(expected, 11);
    assert_eq!(
        engine_linear(&[1], &domains, &[-5], Relation::Le, i64::MAX),
        11
    );
    assert_eq!(
        engine_linear(&[1], &domains, &[5], Relation::Ge, i64::MIN),
        11
    );
    assert_eq!(
        engine_linear(&[-1], &domains, &[5], Relation::Le, i64::MAX),
        11
    );
}

/// Sets a bound far outside `i32` through an offset view, as a propagator might.
#[derive(Debug)]
struct FarBounds(IntView);

impl Propagator for FarBounds {
    fn setup(&mut self, s: &mut Setup<'_>) {
        s.subscribe(self.0, Event::Bounds);
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        ctx.set_min(self.0, i64::MIN)?;
        ctx.set_max(self.0, i64::MAX)?;
        ctx.set_min(self.0.minus(), i64::MIN)?;
        ctx.set_max(self.0.minus(), i64::MAX)?;
        ctx.remove(self.0, i64::MIN)?;
        ctx.remove(self.0, i64::MAX)?;
        Ok(PropStatus::Subsumed)
    }
    fn is_satisfied(&self, _: &Assignment<'_>) -> bool {
        true
    }
}

#[test]
fn bounds_beyond_i64_through_views_are_no_ops() {
    let far = bezzel_core::var::MAX_VIEW_OFFSET;
    for offset in [1, -1, far, -far] {
        let mut m = Model::new();
        let x = m.int_var(0..=10).unwrap();
        m.post(FarBounds(x.offset(offset))).unwrap();
        assert_eq!(Solver::new(m).count(), 11, "offset {offset}");
    }
}

#[test]
fn domain_values_outside_i32_are_refused_not_wrapped() {
    let mut m = Model::new();
    assert_eq!(
        m.int_var((usize::MAX - 5)..=usize::MAX),
        Err(ModelError::ValueOutOfRange {
            value: (usize::MAX - 5) as i128
        })
    );
    assert!(matches!(
        m.int_var((u64::MAX - 1)..u64::MAX),
        Err(ModelError::ValueOutOfRange { .. })
    ));
    assert!(matches!(
        m.int_var(vec![usize::MAX]),
        Err(ModelError::ValueOutOfRange { .. })
    ));
    assert!(matches!(
        m.int_var(i64::MIN..i64::MIN + 3),
        Err(ModelError::ValueOutOfRange { .. })
    ));
    // `i64::MIN..i64::MIN` is empty, not a wrapped huge range.
    assert!(matches!(
        m.int_var(i64::MIN..i64::MIN),
        Err(ModelError::EmptyDomain { .. })
    ));
    assert_eq!(m.num_vars(), 0);
}

#[test]
fn views_with_offsets_beyond_the_limit_are_refused() {
    let (mut m, x, y) = two_vars(3);
    let mut far: IntView = x.into();
    for _ in 0..600 {
        far = far.offset(i32::MAX);
    }
    assert!(matches!(
        m.not_equal(far, y),
        Err(ModelError::InvalidArgument { .. })
    ));
    // Saturating, not wrapping: negating the farthest view stays far.
    assert!(m.less_eq(far.minus(), y).is_err());
    assert_eq!(Solver::new(m).count(), 16);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Linear constraints with extreme coefficients, constants and offsets count exactly what
    /// brute force in `i128` counts.
    #[test]
    fn extreme_linear_constraints_match_brute_force(
        terms in prop::collection::vec(
            (
                prop_oneof![
                    Just(i64::MIN), Just(i64::MAX), Just(i64::MIN + 1), Just(-1i64), Just(1i64),
                    Just(1i64 << 62), -5..=5i64,
                ],
                prop::collection::btree_set(-4..=4i32, 1..=4),
                prop_oneof![
                    Just(0i32),
                    Just(bezzel_core::var::MAX_VIEW_OFFSET),
                    Just(-bezzel_core::var::MAX_VIEW_OFFSET),
                    -3..=3i32,
                ],
            ),
            1..=3,
        ),
        rel in prop_oneof![Just(Relation::Eq), Just(Relation::Le), Just(Relation::Ge)],
        c in prop_oneof![Just(i64::MIN), Just(i64::MAX), Just(0i64), -10..=10i64],
    ) {
        let coefs: Vec<i64> = terms.iter().map(|t| t.0).collect();
        let domains: Vec<Vec<i32>> = terms.iter().map(|t| t.1.iter().copied().collect()).collect();
        let offsets: Vec<i32> = terms.iter().map(|t| t.2).collect();
        prop_assert_eq!(
            engine_linear(&coefs, &domains, &offsets, rel, c),
            brute_linear(&coefs, &domains, &offsets, rel, c)
        );
    }
}

#[test]
fn linear_refuses_more_terms_than_it_can_sum() {
    let mut m = Model::new();
    let x = m.int_var(0..=1).unwrap();
    let many = vec![x; bezzel_core::propagators::MAX_LINEAR_TERMS + 1];
    let coefs = vec![1; many.len()];
    assert!(matches!(
        m.linear(&coefs, &many, Relation::Le, 0),
        Err(ModelError::InvalidArgument { .. })
    ));
    // The propagator itself stays usable directly for ordinary sizes.
    let _ = Linear::new(vec![(i64::MIN, x.into())], Relation::Eq, 0);
}

/// Found by a tester: `int_matrix` multiplied its sizes unchecked (wrapping to an empty
/// allocation, then making variables until memory ran out), and `Matrix::block` sized its
/// result before clipping (`block(0, 0, 1 << 40, 1)` aborted on an 8 TB allocation).
#[test]
fn huge_matrix_arguments_are_refused_or_clipped() {
    let mut m = Model::new();
    assert!(matches!(
        m.int_matrix("c", 1 << 40, 1 << 40, 1..=3),
        Err(ModelError::InvalidArgument { .. })
    ));
    assert!(matches!(
        m.int_matrix("c", usize::MAX, 2, 1..=3),
        Err(ModelError::InvalidArgument { .. })
    ));
    assert_eq!(m.num_vars(), 0);
    let mx = m.int_matrix("c", 2, 3, 1..=3).unwrap();
    assert_eq!(mx.block(0, 0, 1 << 40, 1), mx.column(0));
    assert_eq!(mx.block(1, 1, usize::MAX, usize::MAX).len(), 2);
    assert_eq!(mx.block(usize::MAX, usize::MAX, 5, 5), Vec::<VarId>::new());
    assert_eq!(mx.blocks(usize::MAX, 1).len(), 3);
    assert_eq!(mx.blocks(1, usize::MAX), vec![mx.row(0), mx.row(1)]);
}

/// Found by a tester: `check_assignment` judged the constraints only, so `[-7, 1000]` passed
/// for `x, y in 0..=3` with `x < y`. A value must lie in its variable's declared domain (holes
/// and wide domains included), whatever search or `propagate` narrowed since.
#[test]
fn the_checker_refuses_values_outside_the_declared_domains() {
    let mut m = Model::new();
    let x = m.named_var("x", 0..=3).unwrap();
    let y = m.named_var("y", [1, 3, 5]).unwrap();
    let z = m.named_var("z", vec![-500, 7, 9000]).unwrap();
    m.less_than(x, y).unwrap();
    assert!(m.check_assignment(&[0, 1, 7]).is_ok());
    for (values, name, value) in [
        ([-7, 1, 7], "x", -7),
        ([0, 1000, 7], "y", 1000),
        ([0, 2, 7], "y", 2),
        ([0, 1, 8], "z", 8),
        ([0, 1, i32::MAX], "z", i32::MAX),
    ] {
        assert_eq!(
            m.check_assignment(&values),
            Err(ModelError::NotInDomain {
                name: name.into(),
                value
            }),
            "{values:?}"
        );
    }
    // Narrowed domains are not the declared ones: x = 3 is refused by `x < y` only.
    m.linear(&[1], &[y], Relation::Le, 3).unwrap();
    m.propagate().unwrap();
    assert_eq!(m.domain(x).unwrap(), vec![0, 1, 2]);
    assert!(matches!(
        m.check_assignment(&[3, 5, 7]),
        Err(ModelError::ConstraintViolated { .. })
    ));
    let mut solver = Solver::new(m);
    let first = solver.first().unwrap();
    assert!(solver.model().check_assignment(first.values()).is_ok());
    let _ = (x, y, z);
}

/// Found by a tester: reading a solution with a variable of another model returned the value
/// at the same index, silently, where the docs promise a panic.
#[test]
#[should_panic(expected = "another model")]
fn a_solution_refuses_a_variable_of_another_model() {
    let mut a = Model::new();
    let _x = a.int_var(5..=6).unwrap();
    let mut b = Model::new();
    let y = b.int_var(0..=1).unwrap();
    let solution = Solver::new(a).first().unwrap();
    let _ = solution.value(y);
}
