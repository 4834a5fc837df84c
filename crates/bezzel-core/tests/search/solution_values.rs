//! A solution holds every variable's value, read as the store's first `num_vars` minima in one
//! pass. Models with variables outside the family (before, between and after its units),
//! variables and constraints added after a propagation formed the family, Boolean variables,
//! and unconstrained variables: every solution, read whole (`values()`), per variable
//! (`sol[x]`) and as `values_of`, against an enumeration of every assignment written here.

use bezzel_core::prelude::*;
use std::collections::BTreeSet;

use crate::brute;

use brute::Rng;

/// A check of a full assignment, in creation order.
type Check = Box<dyn Fn(&[i32]) -> bool>;

/// One random model: `spec` says what each variable is; the checks are closures over the
/// full assignment, in creation order.
struct Built {
    m: Model,
    vars: Vec<VarId>,
    domains: Vec<Vec<i32>>,
    checks: Vec<Check>,
}

fn subset(rng: &mut Rng, lo: i32, hi: i32) -> Vec<i32> {
    loop {
        let d: Vec<i32> = (lo..=hi).filter(|_| rng.chance(65)).collect();
        if !d.is_empty() {
            return d;
        }
    }
}

fn distinct(xs: &[usize]) -> Check {
    let xs = xs.to_vec();
    Box::new(move |a: &[i32]| {
        let s: BTreeSet<i32> = xs.iter().map(|&i| a[i]).collect();
        s.len() == xs.len()
    })
}

fn random_model(rng: &mut Rng) -> Built {
    let mut m = Model::new();
    let mut vars = Vec::new();
    let mut domains = Vec::new();
    let mut checks: Vec<Check> = Vec::new();
    let new_var =
        |m: &mut Model, d: Vec<i32>, vars: &mut Vec<VarId>, domains: &mut Vec<Vec<i32>>| {
            let x = m.int_var(d.as_slice()).unwrap();
            assert_eq!(x.index(), vars.len());
            vars.push(x);
            domains.push(d);
            vars.len() - 1
        };
    // Variables before the family, some constrained, one free.
    let before = rng.range(0, 2) as usize;
    for _ in 0..before {
        let d = subset(rng, -2, 3);
        new_var(&mut m, d, &mut vars, &mut domains);
    }
    // The family's cells: 4 over 0..=3, two units of three sharing two cells.
    let s = 4;
    let first = vars.len();
    for _ in 0..s {
        let d = subset(rng, 0, 3);
        new_var(&mut m, d, &mut vars, &mut domains);
    }
    let u1 = vec![first, first + 1, first + 2];
    let u2 = vec![first + 1, first + 2, first + 3];
    // A variable between the units' posts.
    let mid = new_var(&mut m, subset(rng, 5, 8), &mut vars, &mut domains);
    for u in [&u1, &u2] {
        let xs: Vec<VarId> = u.iter().map(|&i| vars[i]).collect();
        m.all_different_with(&xs, Consistency::Domain).unwrap();
        checks.push(distinct(u));
    }
    if rng.chance(50) {
        // `mid` above the sum of the first unit.
        let xs: Vec<VarId> = u1.iter().map(|&i| vars[i]).chain([vars[mid]]).collect();
        m.linear(&[1, 1, 1, -1], &xs, Relation::Le, 0).unwrap();
        let (a, b, c) = (u1[0], u1[1], u1[2]);
        checks.push(Box::new(move |x: &[i32]| x[a] + x[b] + x[c] - x[mid] <= 0));
    }
    // After a propagation (the family forms): more variables and constraints.
    let _ = m.propagate();
    let after = rng.range(1, 2) as usize;
    for _ in 0..after {
        let x = new_var(&mut m, subset(rng, 0, 4), &mut vars, &mut domains);
        let y = first + rng.below(s as u64) as usize;
        if rng.chance(60) {
            m.not_equal(vars[x], vars[y]).unwrap();
            checks.push(Box::new(move |a: &[i32]| a[x] != a[y]));
        }
    }
    if rng.chance(50) {
        // A Boolean: b <=> (first cell == 0), as a linear reification if available through
        // `count` (b counts the zeros among the first cell).
        let b = new_var(&mut m, vec![0, 1], &mut vars, &mut domains);
        m.count(&[vars[first]], 0, vars[b]).unwrap();
        checks.push(Box::new(move |a: &[i32]| (a[first] == 0) == (a[b] == 1)));
    }
    // A third unit over new and old cells, posted after the propagation (a second family
    // or a unit alone).
    if rng.chance(50) {
        let z = new_var(&mut m, subset(rng, 0, 3), &mut vars, &mut domains);
        let u3 = vec![first + 2, first + 3, z];
        let xs: Vec<VarId> = u3.iter().map(|&i| vars[i]).collect();
        m.all_different_with(&xs, Consistency::Domain).unwrap();
        checks.push(distinct(&u3));
    }
    Built {
        m,
        vars,
        domains,
        checks,
    }
}

#[test]
fn solutions_read_every_variable_of_the_model() {
    let mut rng = Rng::seeded(3_000_003);
    let mut total = 0;
    for round in 0..600 {
        let Built {
            m,
            vars,
            domains,
            checks,
        } = random_model(&mut rng);
        let holds = |a: &[i32]| checks.iter().all(|c| c(a));
        let expected = brute::brute(&domains, &holds);
        assert_eq!(m.num_vars(), vars.len());
        let config = SearchConfig {
            check_solutions: true,
            ..SearchConfig::default()
        };
        let mut solver = Solver::with_config(m, config);
        let mut found = BTreeSet::new();
        for sol in solver.solutions() {
            let whole = sol.values().to_vec();
            assert_eq!(whole.len(), vars.len(), "round {round}");
            for (i, &x) in vars.iter().enumerate() {
                assert_eq!(sol[x], whole[i], "round {round}");
                assert_eq!(sol.value(x), whole[i], "round {round}");
            }
            assert_eq!(sol.values_of(&vars), whole, "round {round}");
            assert!(found.insert(whole), "round {round}: a solution twice");
        }
        assert_eq!(found, expected, "round {round}: {domains:?}");
        total += found.len();
        // The first solution of a dom/wdeg search over a fresh copy of the model.
        let copy = random_model(&mut Rng::seeded(3_000_003 ^ round));
        let copy_domains = copy.domains.clone();
        let holds = |a: &[i32]| copy.checks.iter().all(|c| c(a));
        let config = SearchConfig {
            var_order: VarOrder::DomWDeg,
            check_solutions: true,
            ..SearchConfig::default()
        };
        let copy_expected = brute::brute(&copy_domains, &holds);
        match Solver::with_config(copy.m, config).first() {
            Some(sol) => assert!(copy_expected.contains(sol.values()), "round {round}"),
            None => assert!(copy_expected.is_empty(), "round {round}"),
        }
    }
    assert!(total > 1_000, "{total}");
}
