//! Tables and regular constraints against brute force.
//!
//! For random tiny instances every assignment of the variables is enumerated and judged by the
//! definition written here, independently of the engine: the solver's solution set (with
//! solution checking on) must be exactly that set, and after one `Model::propagate`, and
//! again at every node of searches with random decisions (`brute::walk`), each domain must be
//! exactly the values some solution takes (domain consistency).

use bezzel_core::prelude::*;
use std::collections::BTreeSet;

use crate::brute;

use brute::*;

#[derive(Debug, Clone)]
struct TableCase {
    domains: Vec<Vec<i32>>,
    views: Vec<ViewSpec>,
    tuples: Vec<Vec<i32>>,
    positive: bool,
}

impl TableCase {
    fn random(rng: &mut Rng, positive: bool) -> TableCase {
        let nvars = rng.range(1, 3) as usize;
        let domains = (0..nvars).map(|_| domain(rng, -1, 3)).collect();
        let arity = rng.range(1, 3) as usize;
        let views = (0..arity).map(|_| ViewSpec::random(rng, nvars)).collect();
        let count = rng.range(1, 12);
        let tuples = (0..count)
            .map(|_| (0..arity).map(|_| rng.range(-2, 4) as i32).collect())
            .collect();
        TableCase {
            domains,
            views,
            tuples,
            positive,
        }
    }
}

impl Instance for TableCase {
    fn holds(&self, a: &[i32]) -> bool {
        let t: Vec<i64> = self.views.iter().map(|v| v.eval(a)).collect();
        let listed = self
            .tuples
            .iter()
            .any(|u| u.iter().map(|&v| i64::from(v)).eq(t.iter().copied()));
        listed == self.positive
    }

    fn model(&self) -> (Model, Vec<VarId>) {
        let (mut m, vars) = model(&self.domains);
        let views: Vec<IntView> = self.views.iter().map(|v| v.view(&vars)).collect();
        if self.positive {
            m.table(&views, &self.tuples).unwrap();
        } else {
            m.table_negative(&views, &self.tuples).unwrap();
        }
        (m, vars)
    }

    fn domain_consistent(&self) -> bool {
        true
    }

    fn domains(&self) -> &[Vec<i32>] {
        &self.domains
    }
}

#[test]
fn tables_match_brute_force_and_are_domain_consistent() {
    check_random(0x9e37_79b9_7f4a_7c15, 1500, |rng, round| {
        TableCase::random(rng, round % 2 == 0)
    });
}

#[test]
fn tables_under_search_with_other_constraints() {
    // Large enough for several words of tuples and for backtracking through them.
    let mut rng = Rng(12345);
    for round in 0..40 {
        let positive = round % 2 == 0;
        let n = 4;
        let domains: Vec<Vec<i32>> = (0..n).map(|_| domain(&mut rng, 0, 4)).collect();
        let tuples: Vec<Vec<i32>> = (0..rng.range(50, 300))
            .map(|_| (0..n).map(|_| rng.range(0, 4) as i32).collect())
            .collect();
        let holds =
            |a: &[i32]| tuples.iter().any(|t| t == a) == positive && a[0] != a[1] && a[2] <= a[3];
        let expected = brute(&domains, &holds);
        let (mut m, vars) = model(&domains);
        if positive {
            m.table(&vars, &tuples).unwrap();
        } else {
            m.table_negative(&vars, &tuples).unwrap();
        }
        m.not_equal(vars[0], vars[1]).unwrap();
        m.less_eq(vars[2], vars[3]).unwrap();
        assert_eq!(solve(m), expected, "round {round}");
    }
}

/// No solution is an empty answer, not an error: a positive table without tuples leaves the
/// model without solutions, as an empty clause does; a negative one forbids nothing.
#[test]
fn an_empty_table_has_no_solutions_and_an_empty_negative_table_forbids_nothing() {
    let none: &[[i32; 2]] = &[];
    let mut m = Model::new();
    let x = m.int_vars(2, 0..=3).unwrap();
    m.table(&x, none)
        .expect("an empty table is a model without solutions");
    assert_eq!(Solver::new(m).count(), 0);
    let mut m = Model::new();
    let _unconstrained = m.int_vars(2, 0..=3).unwrap();
    m.clause(&[] as &[VarId], &[] as &[VarId]).unwrap();
    assert_eq!(Solver::new(m).count(), 0);
    let mut m = Model::new();
    let x = m.int_vars(2, 0..=3).unwrap();
    m.table_negative(&x, none).unwrap();
    assert_eq!(Solver::new(m).count(), 16);
}

#[test]
fn bad_tables_are_model_errors() {
    let mut m = Model::new();
    let x = m.int_vars(2, 0..=3).unwrap();
    let none: &[[i32; 2]] = &[];
    assert!(m.table_negative(&x, none).is_ok());
    let e = m.table(&x, &[vec![1, 2], vec![1]]).unwrap_err();
    assert!(e.to_string().contains("tuple 1 has 1 values"), "{e}");
    let e = m.table(&x, &[[1, i32::MAX]]).unwrap_err();
    assert!(e.to_string().contains("outside the supported range"), "{e}");
    let empty: &[VarId] = &[];
    assert!(matches!(
        m.table(empty, &[[0i32; 0]]),
        Err(ModelError::TooFewVariables { .. })
    ));
}

#[derive(Debug, Clone)]
struct RegularCase {
    domains: Vec<Vec<i32>>,
    views: Vec<ViewSpec>,
    states: usize,
    start: usize,
    finals: Vec<usize>,
    /// `delta[q][symbol]`, symbols 0..3.
    delta: Vec<[Option<usize>; 3]>,
}

impl RegularCase {
    fn random(rng: &mut Rng, max_states: i64) -> RegularCase {
        let nvars = rng.range(1, 4) as usize;
        let domains = (0..nvars).map(|_| domain(rng, -1, 3)).collect();
        let len = rng.range(1, 4) as usize;
        let views = (0..len)
            .map(|_| {
                let mut v = ViewSpec::random(rng, nvars);
                v.negated = false;
                v
            })
            .collect();
        let states = rng.range(1, max_states) as usize;
        let finals = (0..states).filter(|_| rng.chance(40)).collect();
        let delta = (0..states)
            .map(|_| {
                let mut row = [None; 3];
                for slot in &mut row {
                    if rng.chance(60) {
                        *slot = Some(rng.below(states as u64) as usize);
                    }
                }
                row
            })
            .collect();
        RegularCase {
            domains,
            views,
            states,
            start: rng.below(states as u64) as usize,
            finals,
            delta,
        }
    }
}

impl Instance for RegularCase {
    /// The definition, run on the word directly.
    fn holds(&self, a: &[i32]) -> bool {
        let mut q = self.start;
        for v in &self.views {
            let s = v.eval(a);
            if !(0..3).contains(&s) {
                return false;
            }
            match self.delta[q][s as usize] {
                Some(next) => q = next,
                None => return false,
            }
        }
        self.finals.contains(&q)
    }

    fn model(&self) -> (Model, Vec<VarId>) {
        let (mut m, vars) = model(&self.domains);
        let mut transitions = Vec::new();
        for (q, row) in self.delta.iter().enumerate() {
            for (s, to) in row.iter().enumerate() {
                if let Some(to) = to {
                    transitions.push((q, s as i32, *to));
                }
            }
        }
        let dfa = Dfa::new(self.states, self.start, &self.finals, &transitions).unwrap();
        let views: Vec<IntView> = self.views.iter().map(|v| v.view(&vars)).collect();
        m.regular(&views, &dfa).unwrap();
        (m, vars)
    }

    fn domain_consistent(&self) -> bool {
        // Claimed on distinct variables (a variable seen twice makes the layered graph an
        // over-approximation).
        let vars: BTreeSet<usize> = self.views.iter().map(|v| v.var).collect();
        vars.len() == self.views.len()
    }

    fn domains(&self) -> &[Vec<i32>] {
        &self.domains
    }
}

use bezzel_core::constraints::Dfa;

#[test]
fn regular_matches_brute_force_and_is_domain_consistent() {
    // Automata of up to 4 states, and every third one of up to 12, with many distinct
    // (symbol, shift) groups of transitions.
    check_random(0x2545_f491_4f6c_dd1d, 1500, |rng, round| {
        RegularCase::random(rng, if round % 3 == 0 { 12 } else { 4 })
    });
}

/// The blocks of 1s of a 0/1 word, by definition.
fn blocks(word: &[i32]) -> Vec<usize> {
    word.split(|&v| v == 0)
        .filter(|b| !b.is_empty())
        .map(<[i32]>::len)
        .collect()
}

#[test]
fn nonogram_rows_accept_exactly_their_clue() {
    for len in 0..=8usize {
        for bits in 0u32..(1 << len) {
            let word: Vec<i32> = (0..len).map(|i| (bits >> i & 1) as i32).collect();
            let clue = blocks(&word);
            assert!(Dfa::nonogram_row(&clue).accepts(&word), "{word:?}");
            for other in [
                vec![],
                vec![1],
                vec![2],
                vec![1, 1],
                vec![2, 1],
                vec![1, 3, 1],
            ] {
                assert_eq!(
                    Dfa::nonogram_row(&other).accepts(&word),
                    other == clue,
                    "{word:?} {other:?}"
                );
            }
        }
    }
    assert!(Dfa::nonogram_row(&[0]).accepts(&[0, 0]));
    // A row of 10 with clue [3, 1] fixes nothing alone but counts its placements.
    let mut m = Model::new();
    let row = m.int_vars(10, 0..=1).unwrap();
    m.regular(&row, &Dfa::nonogram_row(&[3, 1])).unwrap();
    // Placements: choose the start of the 3-block and of the 1-block with a gap: C(7, 2).
    assert_eq!(Solver::new(m).count(), 21);
}

#[test]
fn bad_automata_are_model_errors() {
    let msg = |r: Result<Dfa, ModelError>| r.unwrap_err().to_string();
    assert!(msg(Dfa::new(0, 0, &[], &[])).contains("no states"));
    assert!(msg(Dfa::new(2, 2, &[0], &[])).contains("start state 2 does not exist"));
    assert!(msg(Dfa::new(2, 0, &[5], &[])).contains("final state 5 does not exist"));
    assert!(msg(Dfa::new(2, 0, &[0], &[(0, 1, 3)])).contains("does not exist"));
    assert!(msg(Dfa::new(2, 0, &[0], &[(0, 1, 0), (0, 1, 1)])).contains("not deterministic"));
    assert!(msg(Dfa::new(1, 0, &[0], &[(0, i32::MIN, 0)])).contains("outside"));
    assert!(Dfa::new(1, 0, &[0], &[(0, 1, 0), (0, 1, 0)]).is_ok());
    let mut m = Model::new();
    let none: &[VarId] = &[];
    assert!(m.regular(none, &Dfa::nonogram_row(&[1])).is_err());
}

#[test]
fn tables_over_more_than_64_views() {
    // The queue's advice has 64 bits: positions share them beyond that.
    let mut rng = Rng(777);
    let n = 70;
    let tuples: Vec<Vec<i32>> = (0..5)
        .map(|_| (0..n).map(|_| rng.range(0, 2) as i32).collect())
        .collect();
    let distinct: BTreeSet<&Vec<i32>> = tuples.iter().collect();
    for positive in [true, false] {
        // Negative: all but two positions fixed to the first tuple, 9 assignments left.
        let mut m = Model::new();
        let x: Vec<VarId> = (0..n)
            .map(|i| {
                if positive || i < 2 {
                    m.int_var(0..=2).unwrap()
                } else {
                    m.int_var([tuples[0][i]]).unwrap()
                }
            })
            .collect();
        if positive {
            m.table(&x, &tuples).unwrap();
        } else {
            m.table_negative(&x, &tuples).unwrap();
        }
        let solutions = solve(m);
        if positive {
            let found: BTreeSet<Vec<i32>> = solutions.iter().cloned().collect();
            assert_eq!(found, distinct.iter().map(|t| (*t).clone()).collect());
        } else {
            let forbidden = distinct.iter().filter(|t| t[2..] == tuples[0][2..]).count();
            assert_eq!(solutions.len(), 9 - forbidden);
        }
    }
}

#[test]
fn a_nonogram_solves_by_regular_rows_and_columns() {
    // A 5 × 5 picture (a plus sign with a corner), clues from it, one solution.
    let picture = [
        [0, 0, 1, 0, 1],
        [0, 0, 1, 0, 0],
        [1, 1, 1, 1, 1],
        [0, 0, 1, 0, 0],
        [1, 0, 1, 0, 0],
    ];
    let row_clue = |r: usize| blocks(&picture[r]);
    let col_clue = |c: usize| blocks(&picture.map(|row| row[c]));
    let mut m = Model::new();
    let grid = m.int_matrix("cell", 5, 5, 0..=1).unwrap();
    for r in 0..5 {
        let row: Vec<VarId> = (0..5).map(|c| grid.get(r, c).unwrap()).collect();
        m.regular(&row, &Dfa::nonogram_row(&row_clue(r))).unwrap();
    }
    for c in 0..5 {
        let col: Vec<VarId> = (0..5).map(|r| grid.get(r, c).unwrap()).collect();
        m.regular(&col, &Dfa::nonogram_row(&col_clue(c))).unwrap();
    }
    let solutions = solve(m);
    let expected: Vec<i32> = picture.iter().flatten().copied().collect();
    assert!(solutions.contains(&expected));
    for s in &solutions {
        for r in 0..5 {
            let row: Vec<i32> = (0..5).map(|c| s[r * 5 + c]).collect();
            assert_eq!(blocks(&row), row_clue(r));
        }
        for c in 0..5 {
            let col: Vec<i32> = (0..5).map(|r| s[r * 5 + c]).collect();
            assert_eq!(blocks(&col), col_clue(c));
        }
    }
}

fn count_dfa(states: usize, k: usize) -> Dfa {
    let mut t = Vec::new();
    for q in 0..states {
        t.push((q, 0, q));
        if q + 1 < states {
            t.push((q, 1, q + 1));
        }
    }
    Dfa::new(states, 0, &[k], &t).unwrap()
}

#[test]
fn regular_with_more_than_64_states() {
    for (fixed, k, expect_pruned) in [
        (70, 70, true),
        (69, 70, false),
        (60, 75, false),
        (60, 90, true),
    ] {
        let mut m = Model::new();
        let mut xs: Vec<VarId> = (0..fixed).map(|_| m.int_var(1..=1).unwrap()).collect();
        xs.extend((fixed..90).map(|_| m.int_var(0..=1).unwrap()));
        m.regular(&xs, &count_dfa(100, k)).unwrap();
        m.propagate().unwrap();
        for &x in &xs[fixed..] {
            let d = m.domain(x).unwrap();
            if expect_pruned {
                assert_eq!(d, if k == 70 { vec![0] } else { vec![1] }, "{fixed} {k}");
            } else {
                assert_eq!(d, vec![0, 1], "{fixed} {k}");
            }
        }
    }
    let mut m = Model::new();
    let xs: Vec<VarId> = (0..90).map(|_| m.int_var(0..=1).unwrap()).collect();
    m.regular(&xs, &count_dfa(100, 95)).unwrap();
    assert!(m.propagate().is_err());
}

#[test]
fn regular_on_negated_offset_and_wide_views() {
    // Symbols 5..=7; the only word accepted is 7 5.
    let dfa = Dfa::new(3, 0, &[2], &[(0, 7, 1), (1, 5, 2)]).unwrap();
    // Narrow domains, then wide ones (the fallback).
    for (x_min, y_max) in [(-9, 10), (-200, 100)] {
        let mut m = Model::new();
        let x = m.int_var(x_min..=-4).unwrap();
        let y = m.int_var(0..=y_max).unwrap();
        m.regular(&[x.minus(), y.offset(3)], &dfa).unwrap();
        m.propagate().unwrap();
        assert_eq!(m.domain(x).unwrap(), vec![-7], "x from {x_min}");
        assert_eq!(m.domain(y).unwrap(), vec![2], "y to {y_max}");
    }
}
