//! Snapshots of queens solution sets, in canonical (sorted) order so that they do not depend
//! on the search order. Each set is checked against the OEIS count before it is compared.

use bezzel::core::prelude::*;
use bezzel::queens::{check, format, model, symmetry};

/// Every solution for board size `n`, found by the generic engine with smallest-domain-first
/// (not lexicographic) order, then sorted: the snapshot is canonical whatever the order.
fn sorted_solutions(n: usize) -> Vec<Vec<usize>> {
    let (m, q) = model::build(n).unwrap();
    let set = Solver::new(m).solution_set_of(&q).unwrap();
    set.iter()
        .map(|row| row.iter().map(|&c| c as usize).collect())
        .collect()
}

fn text(solutions: &[Vec<usize>]) -> String {
    if solutions.is_empty() {
        return "no solutions\n".to_string();
    }
    let mut s = String::new();
    for (i, p) in solutions.iter().enumerate() {
        assert!(check::is_solution(p));
        s += &format::text(i as u64 + 1, p);
        s.push('\n');
    }
    s
}

#[test]
fn solution_sets_n1_to_n8_in_text_form() {
    let a000170 = [1, 0, 0, 2, 10, 4, 40, 92];
    for n in 1..=8 {
        let sols = sorted_solutions(n);
        assert_eq!(sols.len(), a000170[n - 1]);
        insta::assert_snapshot!(format!("text_n{n}"), text(&sols));
    }
}

#[test]
fn boards_n4_and_n5() {
    for n in [4, 5] {
        let boards: Vec<String> = sorted_solutions(n)
            .iter()
            .enumerate()
            .map(|(i, p)| format!("NO.{}:\n{}", i + 1, format::board(p)))
            .collect();
        insta::assert_snapshot!(format!("board_n{n}"), boards.join("\n"));
    }
}

#[test]
fn unique_representatives_n8() {
    let reps = symmetry::unique_solutions(8).unwrap();
    assert_eq!(reps.len(), 12);
    insta::assert_snapshot!("unique_n8", text(&reps));
}

#[test]
fn one_solution_as_json() {
    let (m, q) = model::build(8).unwrap();
    let mut solver = Solver::with_config(
        m,
        SearchConfig {
            var_order: VarOrder::InputOrder,
            ..SearchConfig::default()
        },
    );
    let first = solver.first().unwrap();
    assert_eq!(first.values_of(&q), vec![0, 4, 7, 5, 2, 6, 1, 3]);
    insta::assert_json_snapshot!("first_n8_json", first);
}

/// The generic `SolutionSet` snapshot a user would write for their own puzzle.
#[test]
fn solution_set_yaml_n6() {
    let (m, q) = model::build(6).unwrap();
    let set = Solver::new(m).solution_set_of(&q).unwrap();
    assert_eq!(set.len(), 4);
    insta::assert_yaml_snapshot!("solution_set_n6", set);
    insta::assert_snapshot!("solution_set_n6_text", set.to_string());
}
