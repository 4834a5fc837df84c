//! `Model::linear` with two or three unit coefficients and `=` posts the specialised
//! `UnitSum`: on random small instances it must prune exactly as the generic `Linear` does
//! (same domains after propagation, same search tree) and find exactly the solutions that
//! brute force finds from the definition.

use bezzel_core::prelude::*;
use bezzel_core::propagators::Linear;
use proptest::prelude::*;

/// A view of variable `var`: negated or not, plus an offset.
fn view(vars: &[VarId], (var, negated, offset): (usize, bool, i32)) -> IntView {
    let x = vars[var];
    if negated {
        x.minus().offset(offset)
    } else {
        x.offset(offset)
    }
}

fn value((var, negated, offset): (usize, bool, i32), a: &[i32]) -> i64 {
    let x = i64::from(a[var]);
    (if negated { -x } else { x }) + i64::from(offset)
}

/// The model with the constraint posted through `Model::linear` (`generic`: as the generic
/// propagator, posted directly).
fn build(
    domains: &[Vec<i32>],
    terms: &[(i32, (usize, bool, i32))],
    constant: i32,
    generic: bool,
) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let vars: Vec<VarId> = domains
        .iter()
        .map(|d| m.int_var(d.as_slice()).unwrap())
        .collect();
    let views: Vec<IntView> = terms.iter().map(|&(_, v)| view(&vars, v)).collect();
    let coefs: Vec<i32> = terms.iter().map(|&(c, _)| c).collect();
    if generic {
        let terms = coefs
            .iter()
            .map(|&c| i64::from(c))
            .zip(views.iter().copied())
            .collect();
        m.post(Linear::new(terms, Relation::Eq, i64::from(constant)))
            .unwrap();
    } else {
        m.linear(&coefs, &views, Relation::Eq, constant).unwrap();
    }
    (m, vars)
}

fn brute(domains: &[Vec<i32>], terms: &[(i32, (usize, bool, i32))], constant: i32) -> u64 {
    let mut count = 0;
    let mut a = vec![0; domains.len()];
    fn go(
        i: usize,
        a: &mut Vec<i32>,
        domains: &[Vec<i32>],
        holds: &dyn Fn(&[i32]) -> bool,
        count: &mut u64,
    ) {
        if i == domains.len() {
            *count += u64::from(holds(a));
            return;
        }
        for &v in &domains[i] {
            a[i] = v;
            go(i + 1, a, domains, holds, count);
        }
    }
    let holds = |a: &[i32]| {
        terms
            .iter()
            .map(|&(c, v)| i64::from(c) * value(v, a))
            .sum::<i64>()
            == i64::from(constant)
    };
    go(0, &mut a, domains, &holds, &mut count);
    count
}

fn domain() -> impl Strategy<Value = Vec<i32>> {
    prop::collection::btree_set(-6..=6i32, 1..=6).prop_map(|s| s.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]
    #[test]
    fn unit_sums_prune_as_linear_does_and_count_exactly(
        domains in prop::collection::vec(domain(), 1..=3),
        raw in prop::collection::vec((any::<bool>(), 0..3usize, any::<bool>(), -3..=3i32), 2..=3),
        constant in -8..=8i32,
    ) {
        let n = domains.len();
        let terms: Vec<(i32, (usize, bool, i32))> = raw
            .iter()
            .map(|&(minus, var, negated, offset)| {
                (if minus { -1 } else { 1 }, (var % n, negated, offset))
            })
            .collect();
        let (mut special, vars) = build(&domains, &terms, constant, false);
        let (mut generic, gvars) = build(&domains, &terms, constant, true);
        let a = special.propagate().is_ok();
        let b = generic.propagate().is_ok();
        prop_assert_eq!(a, b);
        if a {
            for (x, y) in vars.iter().zip(&gvars) {
                prop_assert_eq!(special.domain(*x).unwrap(), generic.domain(*y).unwrap());
            }
        }
        let (special, _) = build(&domains, &terms, constant, false);
        let (generic, _) = build(&domains, &terms, constant, true);
        let mut s = Solver::new(special);
        let mut g = Solver::new(generic);
        let count = s.count();
        prop_assert_eq!(count, brute(&domains, &terms, constant));
        prop_assert_eq!(g.count(), count);
        prop_assert_eq!(s.stats().nodes, g.stats().nodes);
    }
}
