//! Tests of search: they drive the solver's phases directly, so they live inside the module.

use super::*;
use crate::Relation;
use crate::error::ModelError;
use crate::model::Model;
use crate::solution::Solution;
use crate::stats::{Statistics, StopReason};
use crate::trail::Mark;
use crate::var::{IntView, VarId};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

fn queens(n: usize) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let q = m.named_vars("q", n, 0..n as i32).unwrap();
    m.all_different(&q).unwrap();
    let up: Vec<IntView> = q
        .iter()
        .enumerate()
        .map(|(i, x)| x.offset(i as i32))
        .collect();
    let down: Vec<IntView> = q
        .iter()
        .enumerate()
        .map(|(i, x)| x.offset(-(i as i32)))
        .collect();
    m.all_different(&up).unwrap();
    m.all_different(&down).unwrap();
    (m, q)
}

#[test]
fn backtracking_restores_the_whole_store() {
    let (m, _) = queens(6);
    let mut solver = Solver::new(m);
    let before = solver.model_state();
    // Walk the whole tree; every restore must land exactly on the state it left.
    let mut count = 0;
    solver.restart();
    while solver.advance() {
        count += 1;
    }
    assert_eq!(count, 4);
    solver.model.engine_mut().restore(Mark::default());
    assert_eq!(solver.model_state(), before);

    // And at every depth: state after a restore equals the state at the mark.
    solver.restart();
    solver.stats.nodes = 1;
    solver.model.engine_mut().schedule_all();
    solver.propagate().unwrap();
    let root = solver.model_state();
    let cp = solver.model.engine_mut().mark();
    let d = solver.choose().unwrap();
    solver.apply(d).unwrap();
    let child = solver.model_state();
    assert_ne!(child, root);
    let cp2 = solver.model.engine_mut().mark();
    let d2 = solver.choose().unwrap();
    let _ = solver.apply(d2);
    solver.model.engine_mut().restore(cp2);
    assert_eq!(solver.model_state(), child);
    solver.model.engine_mut().restore(cp);
    assert_eq!(solver.model_state(), root);
}

#[test]
fn queens_counts_match_oeis_for_every_order() {
    // OEIS A000170.
    let expected = [1u64, 0, 0, 2, 10, 4, 40, 92];
    for (i, &e) in expected.iter().enumerate() {
        for var_order in [
            VarOrder::InputOrder,
            VarOrder::SmallestDomain,
            VarOrder::SmallestDomainMaxDegree,
            VarOrder::DomWDeg,
        ] {
            for value_order in [ValueOrder::Min, ValueOrder::Max, ValueOrder::Split] {
                let (m, _) = queens(i + 1);
                let config = SearchConfig {
                    var_order,
                    value_order,
                    ..Default::default()
                };
                let mut s = Solver::with_config(m, config);
                assert_eq!(s.count(), e, "n={} {var_order:?} {value_order:?}", i + 1);
                assert!(s.stats().is_complete());
            }
        }
    }
}

#[test]
fn a_node_limit_is_never_passed_even_by_failing_right_branches() {
    let (m, _) = queens(8);
    let mut s = Solver::new(m);
    let whole_tree = {
        s.count();
        s.stats().nodes
    };
    for limit in 1..whole_tree {
        s.config_mut().limits.nodes = Some(limit);
        s.count();
        assert_eq!(s.stats().nodes, limit, "limit {limit}");
        assert_eq!(s.stats().stopped, Some(StopReason::NodeLimit));
    }
    s.config_mut().limits.nodes = Some(whole_tree);
    assert_eq!(s.count(), 92);
}

#[test]
fn limits_stop_runs_and_say_why() {
    let (m, _) = queens(8);
    let mut s = Solver::new(m);
    s.config_mut().limits.solutions = Some(5);
    assert_eq!(s.count(), 5);
    assert_eq!(s.stats().stopped, Some(StopReason::SolutionLimit));
    s.config_mut().limits = Limits {
        nodes: Some(10),
        ..Limits::default()
    };
    s.count();
    assert_eq!(s.stats().stopped, Some(StopReason::NodeLimit));
    assert_eq!(s.stats().nodes, 10);
    s.config_mut().limits = Limits {
        time: Some(Duration::ZERO),
        ..Limits::default()
    };
    s.count();
    assert_eq!(s.stats().stopped, Some(StopReason::TimeLimit));
    s.config_mut().limits = Limits::default();
    let flag = Arc::new(AtomicBool::new(true));
    s.set_cancel_flag(flag.clone());
    assert_eq!(s.count(), 0);
    assert_eq!(s.stats().stopped, Some(StopReason::Cancelled));
    flag.store(false, Ordering::Relaxed);
    assert_eq!(s.count(), 92);
    assert!(s.stats().is_complete());
    assert_eq!(s.stats().solutions, 92);
    assert!(s.stats().failures > 0 && s.stats().propagations > 0);
    assert!(s.stats().max_depth >= 5);
}

#[test]
fn iterator_is_lazy_and_runs_restart() {
    let (m, q) = queens(8);
    let mut s = Solver::with_config(
        m,
        SearchConfig {
            var_order: VarOrder::InputOrder,
            ..Default::default()
        },
    );
    let first3: Vec<Vec<i32>> = s.solutions().take(3).map(|x| x.values_of(&q)).collect();
    // Input order with minimum value first enumerates in lexicographic order.
    assert_eq!(first3[0], vec![0, 4, 7, 5, 2, 6, 1, 3]);
    assert!(first3.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(s.stats().solutions, 3);
    assert_eq!(s.first().unwrap().values_of(&q), first3[0]);
    assert_eq!(s.count(), 92);
}

#[test]
fn no_solution_is_an_ordinary_answer() {
    let mut m = Model::new();
    let x = m.int_var(0..=3).unwrap();
    let y = m.int_var(0..=3).unwrap();
    m.linear(&[1, 1], &[x, y], Relation::Ge, 7).unwrap();
    let mut s = Solver::new(m);
    assert_eq!(s.first(), None);
    assert_eq!(s.count(), 0);
    assert_eq!(s.stats().failures, 1);
    assert!(s.stats().is_complete());
    assert!(s.solution_set().is_empty());
}

#[test]
fn deep_search_does_not_use_the_call_stack() {
    // A chain x0 < x1 < ... with split branching goes thousands of levels deep.
    let mut m = Model::new();
    let n = 3000;
    let xs = m.int_vars(n, 0..=1).unwrap();
    m.linear(&vec![1; n], &xs, Relation::Eq, 1).unwrap();
    let mut s = Solver::with_config(
        m,
        SearchConfig {
            var_order: VarOrder::InputOrder,
            ..Default::default()
        },
    );
    assert_eq!(s.count(), n as u64);
    assert!(s.stats().max_depth >= n as u64 - 1);
}

#[test]
fn luby_sequence() {
    let first: Vec<u64> = (1..=15).map(luby).collect();
    assert_eq!(first, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    assert_eq!(luby(31), 16);
    assert_eq!(luby(32), 1);
}

/// Checks a placement (a column per row) by the rules of the board, not by the model.
fn assert_no_attacks(cols: &[i32]) {
    for i in 0..cols.len() {
        for j in i + 1..cols.len() {
            assert_ne!(cols[i], cols[j], "{cols:?}");
            assert_ne!(
                (cols[i] - cols[j]).unsigned_abs() as usize,
                j - i,
                "{cols:?}"
            );
        }
    }
}

/// dom/wdeg with frequent restarts, so that 30 queens restart often.
fn learning_solver(m: Model) -> Solver {
    Solver::with_config(
        m,
        SearchConfig {
            var_order: VarOrder::DomWDeg,
            restarts: Some(Restarts { scale: 2 }),
            ..SearchConfig::default()
        },
    )
}

#[test]
fn restarts_find_solutions_and_learn_weights() {
    let (m, q) = queens(30);
    let mut s = learning_solver(m);
    let sol = s.first().expect("30 queens have solutions");
    let cols: Vec<i32> = sol.values_of(&q);
    assert_no_attacks(&cols);
    assert!(s.stats().restarts > 0, "{}", s.stats());
    assert!(s.model.engine().has_failed());
    // Forgotten on request (`SudokuSolver` does it between puzzles), then learnt again.
    s.forget_weights();
    assert!(!s.model.engine().has_failed());
    assert!(s.first().is_some());
    assert!(s.model.engine().has_failed());
    // Counting ignores restarts and stays exact.
    let (m, _) = queens(6);
    let mut s = Solver::with_config(
        m,
        SearchConfig {
            restarts: Some(Restarts { scale: 1 }),
            ..SearchConfig::default()
        },
    );
    assert_eq!(s.count(), 4);
    assert_eq!(s.stats().restarts, 0);
}

#[test]
fn restarts_below_a_prefix_keep_the_prefix() {
    let (m, q) = queens(30);
    let mut s = learning_solver(m);
    // Queens in the first two rows at columns 5 and 12, as givens.
    let givens = [Decision::Assign(q[0], 5), Decision::Assign(q[1], 12)];
    let sol = s
        .first_in(&givens)
        .expect("a valid prefix")
        .expect("30 queens have solutions with these two");
    let cols: Vec<i32> = sol.values_of(&q);
    assert_eq!(&cols[..2], &[5, 12]);
    assert_no_attacks(&cols);
    assert!(s.stats().restarts > 0, "{}", s.stats());
    // Contradictory givens: no solution, and the answer is exact.
    let clash = [Decision::Assign(q[0], 5), Decision::Assign(q[1], 6)];
    assert_eq!(s.first_in(&clash).expect("a valid prefix"), None);
    assert!(s.stats().is_complete());
    // A decision on a variable the model lacks, or on another model's, is an error, not a
    // panic; an unbound one (read back from a file) of an index in range is this model's.
    let missing: Decision = serde_json::from_str(r#"{"Assign":[99,0]}"#).unwrap();
    assert!(s.first_in(&[missing]).is_err());
    let (other, other_q) = queens(30);
    drop(other);
    assert_eq!(
        s.first_in(&[Decision::Assign(other_q[0], 5)]),
        Err(ModelError::ForeignVariable { index: 0 })
    );
    let unbound: Decision = serde_json::from_str(r#"{"Assign":[0,5]}"#).unwrap();
    let sol = s.first_in(&[unbound]).unwrap().unwrap();
    assert_eq!(sol.values_of(&q)[0], 5);
}

#[test]
fn settings_and_statistics_round_trip_through_serde() {
    let config = SearchConfig {
        var_order: VarOrder::SmallestDomainMaxDegree,
        value_order: ValueOrder::Split,
        limits: Limits {
            solutions: Some(3),
            nodes: None,
            time: Some(Duration::from_millis(1500)),
        },
        restarts: Some(Restarts { scale: 50 }),
        last_conflict: true,
        solution_phase: false,
        check_solutions: true,
        learning: true,
    };
    let json = serde_json::to_string(&config).unwrap();
    assert_eq!(serde_json::from_str::<SearchConfig>(&json).unwrap(), config);
    let (m, _) = queens(5);
    let mut s = Solver::new(m);
    let sol = s.first().unwrap();
    let stats = s.stats().clone();
    let json = serde_json::to_string(&stats).unwrap();
    assert_eq!(serde_json::from_str::<Statistics>(&json).unwrap(), stats);
    let json = serde_json::to_string(&sol).unwrap();
    assert_eq!(serde_json::from_str::<Solution>(&json).unwrap(), sol);
}

#[test]
fn decisions_serialize_with_the_variable_as_its_index() {
    let (m, q) = queens(5);
    let d = Decision::Assign(q[3], 5);
    let json = serde_json::to_string(&d).unwrap();
    assert_eq!(json, r#"{"Assign":[3,5]}"#);
    let back: Decision = serde_json::from_str(&json).unwrap();
    assert_eq!(back.var().index(), 3);
    // Split prefixes are unbound, so they compare equal to what reads back from a file.
    let mut s = Solver::new(m);
    let split = s.split(8).expect("no cancel flag");
    let json = serde_json::to_string(&split).unwrap();
    let back: Vec<Vec<Decision>> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, split);
    let total: u64 = back.iter().map(|p| s.count_in(p).unwrap()).sum();
    assert_eq!(total, 10);
}

#[test]
fn a_wide_domain_is_split_into_a_bounded_number_of_pieces() {
    // x + y = 19_999 in 0..20_000: 20,000 solutions. A level used to expand every value of
    // x, 20,000 subproblems (a FlatZinc `var int` has millions of values, and hung the split).
    let mut m = Model::new();
    let x = m.int_var(0..20_000).unwrap();
    let y = m.int_var(0..20_000).unwrap();
    m.linear(&[1, 1], &[x, y], Relation::Eq, 19_999).unwrap();
    let mut s = Solver::new(m);
    let split = s.split(8).expect("no cancel flag");
    assert!(
        split.len() >= 8 && split.len() <= 257,
        "{} pieces",
        split.len()
    );
    // The pieces partition the solutions: the last holds the values not expanded.
    let total: u64 = split.iter().map(|p| s.count_in(p).unwrap()).sum();
    assert_eq!(total, 20_000);
}

#[test]
fn a_split_has_no_piece_holding_a_large_share_of_the_tree() {
    // A cap on the number of pieces per level once left one piece holding the values not yet
    // expanded, 9 % of queens 12 (and 55 % of queens 15 on 4 threads) against at most 0.4 %
    // for any other piece: a parallel run waited on it, a time-limited resumable run never
    // finished it.
    let (m, _) = queens(12);
    let mut s = Solver::new(m);
    for target in [36, 60, 90, 120, 180, 360] {
        let split = s.split(target).expect("no cancel flag");
        let counts: Vec<u64> = split.iter().map(|p| s.count_in(p).unwrap()).collect();
        assert_eq!(counts.iter().sum::<u64>(), 14_200, "target {target}");
        let largest = counts.iter().max().copied().unwrap_or(0);
        assert!(
            largest <= 14_200 / 20,
            "target {target}: a piece of {largest} solutions"
        );
    }
}

#[test]
fn a_family_charges_dom_wdeg_to_the_unit_that_failed() {
    // Two units sharing `s` form one family; the first cannot hold three variables over two
    // values. By dom/wdeg's definition, as if the units had been posted one by one: the
    // first weighs 2 (1 + its failure), the second 1, and a variable sums the weights of its
    // units.
    let mut m = Model::new();
    let xs: Vec<VarId> = (0..3).map(|_| m.int_var(1..=2).unwrap()).collect();
    let s = m.int_var(1..=5).unwrap();
    let y = m.int_var(1..=5).unwrap();
    let z = m.int_var(1..=5).unwrap();
    let first: Vec<IntView> = xs.iter().chain([&s]).map(|&v| v.into()).collect();
    let second: [IntView; 3] = [s.into(), y.into(), z.into()];
    m.all_different_with(&first, crate::Consistency::Domain)
        .unwrap();
    m.all_different_with(&second, crate::Consistency::Domain)
        .unwrap();
    assert!(m.propagate().is_err());
    // The two units, retired, and the family.
    assert_eq!(m.num_propagators(), 3, "one family");
    let weight = |v: VarId| m.engine().weighted_degree(v.index);
    assert_eq!(weight(xs[0]), 2, "a variable of the failed unit");
    assert_eq!(weight(s), 3, "the shared variable");
    assert_eq!(weight(y), 1, "a variable of the other unit only");
}

/// The dom/wdeg weights the engine keeps as failures happen equal their definition (the
/// failures of every propagator listening to a variable, once per entry in its subscriptions,
/// its ghosts, and what `blame` charged it), after searches that fail often: queens with
/// value-level all-differents (a family of offset views), a magic sequence (`among`, which
/// watches values), sums and differences over a Latin square (a family of all-differents
/// that blames, beside propagators that do not), and a model whose all-differents share no
/// variable (each its own propagator).
#[test]
fn kept_weights_equal_the_definition_after_searches() {
    let mut models: Vec<(&str, Model)> = Vec::new();
    models.push(("queens 9", queens(9).0));
    {
        let mut m = Model::new();
        let n = 8;
        let s = m.int_vars(n, 0..=n as i32).unwrap();
        for i in 0..n {
            m.count(&s, i as i32, s[i]).unwrap();
        }
        models.push(("magic sequence 8", m));
    }
    {
        let mut m = Model::new();
        let n = 5;
        let x = m.int_vars(n * n, 1..=n as i32).unwrap();
        for i in 0..n {
            let row: Vec<VarId> = (0..n).map(|j| x[i * n + j]).collect();
            let col: Vec<VarId> = (0..n).map(|j| x[j * n + i]).collect();
            m.all_different_with(&row, crate::Consistency::Domain)
                .unwrap();
            m.all_different_with(&col, crate::Consistency::Domain)
                .unwrap();
        }
        // The diagonal sums to 13 and two cells differ by more than 1: constraints that
        // fail without naming their part.
        let diagonal: Vec<VarId> = (0..n).map(|i| x[i * n + i]).collect();
        m.linear(&[1; 5], &diagonal, Relation::Eq, 13).unwrap();
        m.not_equal(x[1], x[5]).unwrap();
        models.push(("latin 5 with a sum", m));
    }
    {
        let mut m = Model::new();
        let a = m.int_vars(4, 0..=2).unwrap();
        let b = m.int_vars(4, 0..=3).unwrap();
        m.all_different(&a[..3]).unwrap();
        m.all_different(&b).unwrap();
        m.linear(&[1, 1, 1, 1], &a, Relation::Eq, 7).unwrap();
        models.push(("apart", m));
    }
    for (name, m) in models {
        // First a search that does not read the weights (they are counted when one does).
        let config = SearchConfig {
            limits: crate::Limits {
                nodes: Some(500),
                ..crate::Limits::default()
            },
            ..SearchConfig::default()
        };
        let mut s = Solver::with_config(m, config);
        s.count();
        s.config_mut().var_order = VarOrder::DomWDeg;
        s.config_mut().limits.nodes = Some(3_000);
        s.count();
        let engine = s.model.engine();
        assert!(engine.has_failed(), "{name}: no failure to weigh");
        for x in 0..s.model.num_vars() as u32 {
            assert_eq!(
                engine.weighted_degree(x),
                engine.weighted_degree_by_definition(x),
                "{name}: variable {x}"
            );
        }
        s.forget_weights();
        for x in 0..s.model.num_vars() as u32 {
            let engine = s.model.engine();
            assert_eq!(
                engine.weighted_degree(x),
                engine.weighted_degree_by_definition(x),
                "{name}: variable {x} after forgetting"
            );
        }
    }
}
