//! Tests of the neighbourhoods themselves: what each kind fixes, counted here by propagating
//! its prefix again, and how the adaptive kind draws. (Whole runs are tested against brute
//! force in `tests/search/lns.rs`.)

use super::neighbourhood::free_count;
use super::*;
use crate::model::Model;
use crate::search::SearchConfig;
use std::collections::BTreeSet;

/// Two groups of eight variables, each a permutation of 0..8 (all different), one variable
/// fixed from the start, and an objective over all of them. The groups share no constraint.
fn two_groups() -> (Model, Vec<VarId>, Vec<VarId>, VarId) {
    let mut m = Model::new();
    let a = m.int_vars(8, 0..=7).unwrap();
    let b = m.int_vars(8, 0..=7).unwrap();
    m.all_different(&a).unwrap();
    m.all_different(&b).unwrap();
    let fixed = m.int_var(3..=3).unwrap();
    let cost = m.int_var(-1000..=1000).unwrap();
    let mut terms: Vec<IntView> = a.iter().chain(&b).map(|&x| x.into()).collect();
    let mut coefs: Vec<i32> = (1..=16).collect();
    terms.push(fixed.into());
    coefs.push(1);
    terms.push(cost.minus());
    coefs.push(1);
    m.linear(&coefs, &terms, crate::Relation::Eq, 0).unwrap();
    (m, a, b, cost)
}

/// The variables of `vars` that propagating `prefix` at the root leaves open.
fn open_after(solver: &mut Solver, prefix: &[Decision], vars: &[VarId]) -> BTreeSet<u32> {
    let engine = solver.model.engine_mut();
    engine.reset();
    engine.schedule_all();
    for &d in prefix {
        engine.decide(d).expect("a prefix of incumbent values");
    }
    engine
        .propagate(&mut 0)
        .expect("a prefix of incumbent values propagates");
    let open = vars
        .iter()
        .map(|x| x.index)
        .filter(|&x| !engine.is_fixed(x))
        .collect();
    engine.reset();
    open
}

/// Checks a prefix: distinct variables of `vars`, each fixed to its incumbent value.
fn check_prefix(prefix: &[Decision], vars: &[VarId], incumbent: &Solution) {
    let mut seen = BTreeSet::new();
    for d in prefix {
        let Decision::Assign(x, v) = *d else {
            panic!("{d:?} is not an assignment");
        };
        assert!(vars.contains(&x), "{x:?} is not a neighbourhood variable");
        assert_eq!(v, incumbent[x], "{x:?} fixed to another value");
        assert!(seen.insert(x.index), "{x:?} fixed twice");
    }
}

#[test]
fn random_neighbourhoods_free_exactly_their_share_of_the_open_variables() {
    let (m, a, b, cost) = two_groups();
    let vars: Vec<VarId> = a.iter().chain(&b).copied().collect();
    let mut solver = Solver::with_config(m, SearchConfig::for_optimization());
    let mut run = solver.lns(cost, Sense::Minimize, &Lns::default()).unwrap();
    let incumbent = run.next().expect("the model has solutions");
    for share in [0.01, 0.05, 0.2, 0.5, 0.99, 1.0] {
        for _ in 0..20 {
            run.free_share[0] = share;
            let prefix = run.neighbourhood(0);
            check_prefix(&prefix, &vars, &incumbent);
            // 16 open variables: the fixed one and the objective are never part of it.
            let free = ((share * 16.0).ceil() as usize).max(1);
            assert_eq!(prefix.len(), 16 - free, "share {share}");
        }
    }
}

#[test]
fn propagation_guided_neighbourhoods_leave_their_share_open_with_no_extra_fix() {
    let (m, a, b, cost) = two_groups();
    let vars: Vec<VarId> = a.iter().chain(&b).copied().collect();
    let mut solver = Solver::with_config(m, SearchConfig::for_optimization());
    let mut run = solver
        .lns(
            cost,
            Sense::Minimize,
            &Lns {
                neighbourhood: Neighbourhood::PropagationGuided,
                ..Lns::default()
            },
        )
        .unwrap();
    let incumbent = run.next().expect("the model has solutions");
    for share in [0.01, 0.05, 0.2, 0.5, 0.99, 1.0] {
        for _ in 0..20 {
            run.free_share[1] = share;
            let prefix = run.neighbourhood(1);
            check_prefix(&prefix, &vars, &incumbent);
            let free = free_count(share, 16);
            let open = open_after(run.solver, &prefix, &vars);
            assert!(open.len() <= free, "share {share}: {} open", open.len());
            // Minimal: one fix fewer leaves too many open (the builder fixes one variable
            // per round on a model this small).
            if let Some((_, fewer)) = prefix.split_last() {
                let open = open_after(run.solver, fewer, &vars);
                assert!(open.len() > free, "share {share}: a fix too many");
            }
        }
    }
}

/// On two unrelated groups, a guided neighbourhood frees variables of one group (fixing one
/// variable of a group narrows the rest of that group only, so they are fixed next), where a
/// random one mixes them.
#[test]
fn propagation_guided_neighbourhoods_free_related_variables() {
    let (m, a, b, cost) = two_groups();
    let vars: Vec<VarId> = a.iter().chain(&b).copied().collect();
    let group_a: BTreeSet<u32> = a.iter().map(|x| x.index).collect();
    let mut solver = Solver::with_config(m, SearchConfig::for_optimization());
    let mut run = solver.lns(cost, Sense::Minimize, &Lns::default()).unwrap();
    run.next().expect("the model has solutions");
    let mut mixed = [0; 2];
    for _ in 0..40 {
        for kind in [0, 1] {
            run.free_share[kind] = 0.25;
            let prefix = run.neighbourhood(kind);
            let open = open_after(run.solver, &prefix, &vars);
            assert!(!open.is_empty() && open.len() <= 4);
            let in_a = open.iter().filter(|x| group_a.contains(x)).count();
            if in_a != 0 && in_a != open.len() {
                mixed[kind] += 1;
            }
        }
    }
    let [mixed_random, mixed_guided] = mixed;
    assert_eq!(mixed_guided, 0, "guided neighbourhoods mixed the groups");
    // Four of sixteen drawn at random leave two open in each group (a group with one free
    // variable fixes it by propagation) with probability 0.43: the test tells the kinds apart.
    assert!(mixed_random > 8, "random: only {mixed_random} of 40 mixed");
}

#[test]
fn adaptive_draws_kinds_by_their_success_and_never_drops_one() {
    let (m, _, _, cost) = two_groups();
    let mut solver = Solver::new(m);
    let settings = Lns {
        neighbourhood: Neighbourhood::Adaptive,
        ..Lns::default()
    };
    let mut run = solver.lns(cost, Sense::Minimize, &settings).unwrap();
    for (success, expected_guided) in [([0.5, 0.5], 0.5), ([1.0, 0.0], 0.05 / 1.1)] {
        run.success = success;
        let guided = (0..4000).filter(|_| run.next_kind() == 1).count();
        let share = guided as f64 / 4000.0;
        assert!(
            (share - expected_guided).abs() < 0.02 && guided > 0,
            "{success:?}: guided {share}"
        );
    }
    // The fixed kinds are never mixed.
    for (kind, index) in [
        (Neighbourhood::Random, 0),
        (Neighbourhood::PropagationGuided, 1),
    ] {
        run.settings.neighbourhood = kind;
        assert!((0..100).all(|_| run.next_kind() == index));
    }
}
