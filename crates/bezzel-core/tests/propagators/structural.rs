//! Circuits and symmetry-breaking orderings against brute force.
//!
//! For random tiny instances every assignment is enumerated and judged by the definition
//! written here, independently of the engine: the solver's solution set (with solution
//! checking on) must be exactly that set. Where domain consistency is claimed (lex orderings
//! and value precedence, on distinct variables), each domain after one `Model::propagate`,
//! and at every node of searches with random decisions (`brute::walk`), must be exactly the
//! values that solutions take.

use bezzel_core::prelude::*;
use std::collections::BTreeSet;

use crate::brute;

use brute::*;

/// A single cycle through the nodes `members` (all of `0..n` for a circuit).
fn one_cycle(succ: &[i32], sub: bool) -> bool {
    let n = succ.len() as i32;
    if succ.iter().any(|&j| j < 0 || j >= n) {
        return false;
    }
    let members: Vec<usize> = (0..succ.len())
        .filter(|&i| !sub || succ[i] != i as i32)
        .collect();
    if members.is_empty() {
        return sub;
    }
    // Follow from the first member; the cycle must come back after exactly |members| arcs,
    // having met every member once.
    let mut seen = BTreeSet::new();
    let mut i = members[0];
    for _ in 0..members.len() {
        seen.insert(i);
        i = succ[i] as usize;
    }
    i == members[0] && seen.len() == members.len() && members.iter().all(|k| seen.contains(k))
}

#[test]
fn circuits_match_brute_force() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for round in 0..600 {
        let sub = round % 2 == 1;
        let n = rng.range(1, 5) as i32;
        let domains: Vec<Vec<i32>> = (0..n)
            .map(|_| {
                if rng.chance(30) {
                    domain(&mut rng, -1, n)
                } else {
                    domain(&mut rng, 0, n - 1)
                }
            })
            .collect();
        let expected = brute(&domains, &|a| one_cycle(a, sub));
        let (mut m, vars) = model(&domains);
        if sub {
            m.subcircuit(&vars).unwrap();
        } else {
            m.circuit(&vars).unwrap();
        }
        assert_eq!(solve(m), expected, "sub {sub}: {domains:?}");
    }
}

#[test]
fn circuits_count_cycles_of_complete_graphs() {
    for n in 1..=6usize {
        let mut m = Model::new();
        let succ = m.int_vars(n, 0..n as i32).unwrap();
        m.circuit(&succ).unwrap();
        let expected: u64 = (1..n as u64).product::<u64>().max(1);
        assert_eq!(Solver::new(m).count(), expected, "circuit {n}");
        // Subcircuits: the empty one, plus for each k >= 2 chosen nodes, (k - 1)! cycles.
        let mut m = Model::new();
        let succ = m.int_vars(n, 0..n as i32).unwrap();
        m.subcircuit(&succ).unwrap();
        let choose = |n: u64, k: u64| (0..k).fold(1u64, |c, i| c * (n - i) / (i + 1));
        let expected: u64 = 1
            + (2..=n as u64)
                .map(|k| choose(n as u64, k) * (1..k).product::<u64>())
                .sum::<u64>();
        assert_eq!(Solver::new(m).count(), expected, "subcircuit {n}");
    }
}

#[test]
fn the_path_end_rule_prunes_short_cycles() {
    // 0 -> 1 -> 2 fixed: 2 may not go back to 0.
    let (mut m, succ) = model(&[vec![1], vec![2], vec![0, 1, 2, 3], vec![0, 1, 2, 3]]);
    m.circuit(&succ).unwrap();
    m.propagate().unwrap();
    assert_eq!(m.domain(succ[2]).unwrap(), vec![3]);
    assert_eq!(m.domain(succ[3]).unwrap(), vec![0]);
    // A subcircuit may close 0 -> 1 -> 0 only while 2 and 3 may be left out; 3 may not.
    let (mut m, succ) = model(&[vec![1], vec![0, 1, 2, 3], vec![0, 1, 2, 3], vec![0, 1, 2]]);
    m.subcircuit(&succ).unwrap();
    m.propagate().unwrap();
    assert!(!m.domain(succ[1]).unwrap().contains(&0));
    // Once 0 -> 1 -> 0 is closed, every other node is out.
    let (mut m, succ) = model(&[vec![1], vec![0], vec![0, 1, 2, 3], vec![0, 1, 2, 3]]);
    m.subcircuit(&succ).unwrap();
    m.propagate().unwrap();
    assert_eq!(m.domain(succ[2]).unwrap(), vec![2]);
    assert_eq!(m.domain(succ[3]).unwrap(), vec![3]);
}

#[test]
fn empty_circuits_are_model_errors() {
    let mut m = Model::new();
    let none: &[VarId] = &[];
    assert!(matches!(
        m.circuit(none),
        Err(ModelError::TooFewVariables { .. })
    ));
    assert!(matches!(
        m.subcircuit(none),
        Err(ModelError::TooFewVariables { .. })
    ));
}

/// Whether a random case gives each view a variable of its own (seven times in ten), and how
/// many variables it has: `own` when so, otherwise from 1 to `shared`.
fn variables(rng: &mut Rng, own: usize, shared: i64) -> (bool, usize) {
    let distinct = rng.chance(70);
    let nvars = if distinct {
        own
    } else {
        rng.range(1, shared) as usize
    };
    (distinct, nvars)
}

#[derive(Debug, Clone)]
struct LexCase {
    domains: Vec<Vec<i32>>,
    xs: Vec<ViewSpec>,
    ys: Vec<ViewSpec>,
    strict: bool,
    distinct: bool,
}

impl LexCase {
    fn random(rng: &mut Rng) -> LexCase {
        let n = rng.range(0, 3) as usize;
        let (distinct, nvars) = variables(rng, 2 * n, 4);
        let domains = (0..nvars).map(|_| domain(rng, -1, 2)).collect();
        let spec = |rng: &mut Rng, i: usize| {
            if distinct {
                ViewSpec {
                    var: i,
                    negated: rng.chance(20),
                    offset: rng.range(-1, 1) as i32,
                    scale: 1,
                }
            } else {
                ViewSpec::random(rng, nvars)
            }
        };
        let xs = (0..n).map(|i| spec(rng, i)).collect();
        let ys = (0..n).map(|i| spec(rng, n + i)).collect();
        LexCase {
            domains,
            xs,
            ys,
            strict: rng.chance(50),
            distinct,
        }
    }
}

impl Instance for LexCase {
    /// The definition: the first difference decides; no difference is "equal".
    fn holds(&self, a: &[i32]) -> bool {
        for (x, y) in self.xs.iter().zip(&self.ys) {
            let (u, v) = (x.eval(a), y.eval(a));
            if u != v {
                return u < v;
            }
        }
        !self.strict
    }

    fn model(&self) -> (Model, Vec<VarId>) {
        let (mut m, vars) = model(&self.domains);
        let xs: Vec<IntView> = self.xs.iter().map(|v| v.view(&vars)).collect();
        let ys: Vec<IntView> = self.ys.iter().map(|v| v.view(&vars)).collect();
        if self.strict {
            m.lex_less(&xs, &ys).unwrap();
        } else {
            m.lex_less_eq(&xs, &ys).unwrap();
        }
        (m, vars)
    }

    fn domain_consistent(&self) -> bool {
        self.distinct
    }

    fn domains(&self) -> &[Vec<i32>] {
        &self.domains
    }
}

#[test]
fn lex_orderings_match_brute_force_and_are_domain_consistent() {
    check_random(0xdead_beef_cafe_f00d, 2000, |rng, _| LexCase::random(rng));
}

#[derive(Debug, Clone)]
struct PrecedeCase {
    domains: Vec<Vec<i32>>,
    views: Vec<ViewSpec>,
    s: i32,
    t: i32,
    distinct: bool,
}

impl PrecedeCase {
    fn random(rng: &mut Rng) -> PrecedeCase {
        let n = rng.range(0, 4) as usize;
        let (distinct, nvars) = variables(rng, n, 3);
        let domains = (0..nvars).map(|_| domain(rng, 0, 3)).collect();
        let views = (0..n)
            .map(|i| {
                let mut v = ViewSpec::random(rng, nvars);
                if distinct {
                    v.var = i;
                }
                v
            })
            .collect();
        let s = rng.range(0, 3) as i32;
        let t = loop {
            let t = rng.range(0, 3) as i32;
            if t != s {
                break t;
            }
        };
        PrecedeCase {
            domains,
            views,
            s,
            t,
            distinct,
        }
    }
}

impl Instance for PrecedeCase {
    fn domains(&self) -> &[Vec<i32>] {
        &self.domains
    }

    /// The definition: the first `t` (if any) comes after some `s`.
    fn holds(&self, a: &[i32]) -> bool {
        let values: Vec<i64> = self.views.iter().map(|v| v.eval(a)).collect();
        match values.iter().position(|&v| v == i64::from(self.t)) {
            None => true,
            Some(j) => values[..j].contains(&i64::from(self.s)),
        }
    }

    fn model(&self) -> (Model, Vec<VarId>) {
        let (mut m, vars) = model(&self.domains);
        let views: Vec<IntView> = self.views.iter().map(|v| v.view(&vars)).collect();
        m.value_precede(self.s, self.t, &views).unwrap();
        (m, vars)
    }

    fn domain_consistent(&self) -> bool {
        self.distinct
    }
}

#[test]
fn value_precedence_matches_brute_force_and_is_domain_consistent() {
    check_random(0x0bad_5eed_1234_4321, 2000, |rng, _| {
        PrecedeCase::random(rng)
    });
}

#[test]
fn bad_orderings_are_model_errors() {
    let mut m = Model::new();
    let x = m.int_vars(3, 0..=2).unwrap();
    assert!(matches!(
        m.lex_less(&x[..2], &x[..3]),
        Err(ModelError::LengthMismatch { .. })
    ));
    assert!(matches!(
        m.lex_less_eq(&x[..1], &x[..0]),
        Err(ModelError::LengthMismatch { .. })
    ));
    let e = m.value_precede(1, 1, &x).unwrap_err();
    assert!(e.to_string().contains("cannot precede itself"), "{e}");
    // The public propagator's constructor reports the mismatch too, rather than panicking.
    let views: Vec<IntView> = x.iter().map(|&v| v.into()).collect();
    let e =
        bezzel_core::propagators::Lex::new(views[..2].to_vec(), views.clone(), false).unwrap_err();
    assert!(
        matches!(
            e,
            ModelError::LengthMismatch {
                expected: 2,
                found: 3,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(m.num_propagators(), 0);
}

/// One variable may stand for several successors through views; a pass that pruned used to
/// go on with the arcs it had read before, and then refused a valid circuit or panicked.
#[test]
fn circuits_whose_successors_share_a_variable_are_counted_exactly() {
    // succ = [y, 2, y - 1]: y = 1 is the cycle 0 -> 1 -> 2 -> 0; y = 2 repeats 2.
    let mut m = Model::new();
    let y = m.int_var(1..=2).unwrap();
    let c = m.int_var([2]).unwrap();
    m.circuit(&[y.into(), c.into(), y.offset(-1)]).unwrap();
    assert_eq!(Solver::new(m).count(), 1);
    // succ = [3, x, 1, 2 - x], x in {0, 2}: x = 0 is 0 -> 3 -> 2 -> 1 -> 0.
    let mut m = Model::new();
    let three = m.int_var([3]).unwrap();
    let x = m.int_var([0, 2]).unwrap();
    let one = m.int_var([1]).unwrap();
    m.circuit(&[three.into(), x.into(), one.into(), x.minus().offset(2)])
        .unwrap();
    assert_eq!(Solver::new(m).count(), 1);
    // Two equal successors can never be a permutation: no solution, and no panic.
    for z_value in [0, 1] {
        let mut m = Model::new();
        let x = m.int_var(0..=3).unwrap();
        let y = m.int_var(0..=3).unwrap();
        let z = m.int_var([z_value]).unwrap();
        m.circuit(&[x, x, z, y]).unwrap();
        assert_eq!(Solver::new(m).count(), 0);
    }
    let mut m = Model::new();
    let x = m.int_var(0..=1).unwrap();
    let z = m.int_var(2..=4).unwrap();
    let w = m.int_var(0..=1).unwrap();
    m.subcircuit(&[x.offset(2), x.offset(2), z.minus().offset(2), w.into()])
        .unwrap();
    // Nodes 0 and 1 both lead to x + 2 (2 or 3), and neither can be left out (that would
    // need x + 2 = 0 or 1): two arcs into one node, so no solution.
    assert_eq!(Solver::new(m).count(), 0);
}
