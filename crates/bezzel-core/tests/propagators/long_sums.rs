//! Long linear sums (at least `LONG_SUM_TERMS` terms) keep the sums of their terms' bounds
//! trailed and look again only at the terms their advice names, so these tests go after what
//! could leave the sums stale: more than 64 terms sharing advice bits, views sharing variables
//! (`x`, `-x`, `x + 1` in one sum), two sums narrowing each other's views while they wait in
//! the queue, and random searches that backtrack through all of it. Ground truth comes from
//! outside the solver: every assignment enumerated and judged by the definition written here,
//! or, for sums over many distinct variables, the number of solutions counted by dynamic
//! programming over the partial sums, and at every node the bounds reasoning redone here.

use bezzel_core::prelude::*;
use bezzel_core::propagators::LONG_SUM_TERMS;
use std::collections::BTreeMap;

use crate::brute;

use brute::spec::relation_holds;
use brute::{Rng, ViewSpec, checked, record_search, three_kinds, walk};

/// `Σ aᵢ·viewᵢ (relation) c`, described independently of the engine.
#[derive(Debug, Clone)]
struct Sum {
    terms: Vec<(i32, ViewSpec)>,
    relation: Relation,
    constant: i32,
}

impl Sum {
    fn value(&self, a: &[i32]) -> i64 {
        self.terms
            .iter()
            .map(|&(k, v)| i64::from(k) * v.eval(a))
            .sum()
    }

    fn holds(&self, a: &[i32]) -> bool {
        let (lhs, rhs) = (i128::from(self.value(a)), i128::from(self.constant));
        relation_holds(lhs, self.relation, rhs)
    }

    fn post(&self, m: &mut Model, vars: &[VarId]) {
        let coefficients: Vec<i32> = self.terms.iter().map(|t| t.0).collect();
        let views: Vec<IntView> = self.terms.iter().map(|t| t.1.view(vars)).collect();
        m.linear(&coefficients, &views, self.relation, self.constant)
            .unwrap();
    }
}

/// A random relation; `≠` (which holds almost everywhere) only if `with_ne`.
fn random_relation(rng: &mut Rng, with_ne: bool) -> Relation {
    match rng.below(6) {
        0 => Relation::Le,
        1 => Relation::Lt,
        2 => Relation::Ge,
        3 => Relation::Gt,
        4 if with_ne => Relation::Ne,
        _ => Relation::Eq,
    }
}

/// Two long sums over a few variables, with views that share them.
#[derive(Debug)]
struct FewVariables {
    domains: Vec<Vec<i32>>,
    sums: Vec<Sum>,
}

impl FewVariables {
    fn random(rng: &mut Rng) -> FewVariables {
        let nvars = rng.range(3, 6) as usize;
        let domains: Vec<Vec<i32>> = (0..nvars).map(|_| brute::domain(rng, -2, 2)).collect();
        let sums = (0..2)
            .map(|_| {
                // Up to 80 terms: advice bits are shared past 64.
                let n = rng.range(LONG_SUM_TERMS as i64, 80) as usize;
                let terms: Vec<(i32, ViewSpec)> = (0..n)
                    .map(|_| (rng.range(-3, 3) as i32, ViewSpec::random(rng, nvars)))
                    .collect();
                // Around the value of a random assignment, so that many instances have
                // solutions and the sums are tight.
                let a: Vec<i32> = domains
                    .iter()
                    .map(|d| d[rng.below(d.len() as u64) as usize])
                    .collect();
                let partial = Sum {
                    terms,
                    relation: random_relation(rng, true),
                    constant: 0,
                };
                let constant = partial.value(&a) as i32 + rng.range(-2, 2) as i32;
                Sum {
                    constant,
                    ..partial
                }
            })
            .collect();
        FewVariables { domains, sums }
    }

    fn model(&self) -> (Model, Vec<VarId>) {
        let (mut m, vars) = brute::model(&self.domains);
        for sum in &self.sums {
            sum.post(&mut m, &vars);
        }
        (m, vars)
    }

    fn holds(&self, a: &[i32]) -> bool {
        self.sums.iter().all(|s| s.holds(a))
    }
}

#[test]
fn long_sums_over_shared_variables_find_exactly_the_brute_force_solutions() {
    let mut rng = Rng::seeded(31);
    for _ in 0..60 {
        let case = FewVariables::random(&mut rng);
        // The solution set of the default search and of random walks through the tree, each
        // equal to brute force (no consistency is claimed: views of one variable in one sum
        // are beyond bounds reasoning).
        brute::check_instance(
            &case.domains,
            &|| case.model(),
            &|a| case.holds(a),
            false,
            &case,
        );
        walk(
            &case.domains,
            &|| case.model(),
            &|a| case.holds(a),
            &[],
            3,
            &case,
        );
    }
}

/// A weighted sum over many distinct variables, mostly Booleans (as `bin_packing_load` and
/// `bool2int` make), with a constant chosen so that its solutions can be enumerated.
#[derive(Debug)]
struct ManyVariables {
    domains: Vec<Vec<i32>>,
    sum: Sum,
    /// The number of solutions, counted by dynamic programming.
    count: u128,
}

/// How many assignments of `domains` give each value of `Σ coefficientsᵢ·xᵢ`.
fn sums_counted(domains: &[Vec<i32>], coefficients: &[i32]) -> BTreeMap<i64, u128> {
    let mut counts = BTreeMap::from([(0i64, 1u128)]);
    for (d, &k) in domains.iter().zip(coefficients) {
        let mut next = BTreeMap::new();
        for (&s, &n) in &counts {
            for &v in d {
                *next.entry(s + i64::from(k) * i64::from(v)).or_insert(0) += n;
            }
        }
        counts = next;
    }
    counts
}

/// At most this many solutions per instance, so that the search enumerates them quickly.
const MOST_SOLUTIONS: u128 = 1500;

impl ManyVariables {
    fn random(rng: &mut Rng) -> ManyVariables {
        // Past 64 terms on some: advice bits shared.
        let n = rng.range(LONG_SUM_TERMS as i64, 100) as usize;
        let domains: Vec<Vec<i32>> = (0..n)
            .map(|_| {
                if rng.chance(85) {
                    vec![0, 1]
                } else {
                    brute::domain(rng, -3, 6)
                }
            })
            .collect();
        let coefficients: Vec<i32> = (0..n)
            .map(|_| {
                let k = rng.range(1, 30) as i32;
                if rng.chance(25) { -k } else { k }
            })
            .collect();
        let counts = sums_counted(&domains, &coefficients);
        // Not `≠`, which holds almost everywhere (and is no long sum).
        let relation = random_relation(rng, false);
        let holds = |s: i64, c: i64| relation_holds(s.into(), relation, c.into());
        let count_at = |c: i64| -> u128 {
            counts
                .iter()
                .filter(|&(&s, _)| holds(s, c))
                .map(|(_, &n)| n)
                .sum()
        };
        // Constants with few solutions: past either end of the sums (none at one end at
        // least), or next to them.
        let (least, greatest) = (
            *counts.keys().next().unwrap(),
            *counts.keys().last().unwrap(),
        );
        let candidates: Vec<i64> = (least - 3..=least + 60)
            .chain(greatest - 60..=greatest + 3)
            .filter(|&c| count_at(c) <= MOST_SOLUTIONS)
            .collect();
        let constant = candidates[rng.below(candidates.len() as u64) as usize];
        let terms = coefficients
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, ViewSpec::var(i)))
            .collect();
        ManyVariables {
            domains,
            sum: Sum {
                terms,
                relation,
                constant: constant as i32,
            },
            count: count_at(constant),
        }
    }

    /// Whether bounds reasoning (over the reals, as the propagator reasons) would narrow
    /// the domains of `node` further: `aᵢ·v` plus the least (greatest) sum of the other terms
    /// must not exceed (fall short of) `c`, for `v` the least and the greatest value of `xᵢ`.
    fn narrows(&self, node: &[Vec<i32>]) -> Option<usize> {
        let (relation, c) = match self.sum.relation {
            Relation::Lt => (Relation::Le, i64::from(self.sum.constant) - 1),
            Relation::Gt => (Relation::Ge, i64::from(self.sum.constant) + 1),
            r => (r, i64::from(self.sum.constant)),
        };
        let term = |i: usize, v: i32| i64::from(self.sum.terms[i].0) * i64::from(v);
        let ends = |i: usize| {
            let d = &node[i];
            let (a, b) = (term(i, d[0]), term(i, d[d.len() - 1]));
            (a.min(b), a.max(b))
        };
        let low: i64 = (0..node.len()).map(|i| ends(i).0).sum();
        let high: i64 = (0..node.len()).map(|i| ends(i).1).sum();
        (0..node.len()).find(|&i| {
            let (lo, hi) = ends(i);
            let d = &node[i];
            [d[0], d[d.len() - 1]].iter().any(|&v| {
                let t = term(i, v);
                let at_most = matches!(relation, Relation::Le | Relation::Eq);
                let at_least = matches!(relation, Relation::Ge | Relation::Eq);
                at_most && t + (low - lo) > c || at_least && t + (high - hi) < c
            })
        })
    }
}

#[test]
fn long_weighted_sums_find_every_counted_solution_and_narrow_at_every_node() {
    let mut rng = Rng::seeded(2026);
    for round in 0..80 {
        let case = ManyVariables::random(&mut rng);
        let (mut m, vars) = brute::model(&case.domains);
        case.sum.post(&mut m, &vars);
        let walked = record_search(m, &vars, checked(), Rng::seeded(round), three_kinds);
        assert!(walked.complete, "{case:?}");
        assert_eq!(
            walked.solutions.len() as u128,
            case.count,
            "solutions of {case:?}"
        );
        for a in &walked.solutions {
            assert!(case.sum.holds(a), "{a:?} breaks {case:?}");
        }
        for node in &walked.nodes {
            let node = brute::project(node, &vars);
            assert_eq!(
                case.narrows(&node),
                None,
                "a bound left to narrow at {node:?} of {case:?}"
            );
        }
    }
}
