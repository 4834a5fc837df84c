//! What the brute-force tests of the constraint catalogue share: a replayable random
//! generator, random domains and views, the enumeration of every assignment, and the checks of
//! solution sets and domain consistency against it.

// Each test binary uses only some of it.
#![allow(dead_code)]

use bezzel_core::prelude::*;
use std::collections::BTreeSet;

/// A small deterministic generator (xorshift), so that failures replay.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub(crate) fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    pub(crate) fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A non-empty random subset of `lo..=hi`.
pub(crate) fn domain(rng: &mut Rng, lo: i32, hi: i32) -> Vec<i32> {
    loop {
        let d: Vec<i32> = (lo..=hi).filter(|_| rng.chance(60)).collect();
        if !d.is_empty() {
            return d;
        }
    }
}

/// A view spec `±x[var] + offset`, described independently of the engine.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ViewSpec {
    pub(crate) var: usize,
    pub(crate) negated: bool,
    pub(crate) offset: i32,
}

impl ViewSpec {
    pub(crate) fn random(rng: &mut Rng, vars: usize) -> ViewSpec {
        ViewSpec {
            var: rng.below(vars as u64) as usize,
            negated: rng.chance(20),
            offset: if rng.chance(30) {
                rng.range(-1, 1) as i32
            } else {
                0
            },
        }
    }
    pub(crate) fn eval(self, a: &[i32]) -> i64 {
        let v = i64::from(a[self.var]);
        (if self.negated { -v } else { v }) + i64::from(self.offset)
    }
    pub(crate) fn view(self, vars: &[VarId]) -> IntView {
        let base: IntView = vars[self.var].into();
        let base = if self.negated { base.minus() } else { base };
        base.offset(self.offset)
    }
}

/// Every assignment from `domains` that `holds` accepts.
pub(crate) fn brute(domains: &[Vec<i32>], holds: &dyn Fn(&[i32]) -> bool) -> BTreeSet<Vec<i32>> {
    fn go(
        d: &[Vec<i32>],
        i: usize,
        a: &mut Vec<i32>,
        holds: &dyn Fn(&[i32]) -> bool,
        out: &mut BTreeSet<Vec<i32>>,
    ) {
        if i == d.len() {
            if holds(a) {
                out.insert(a.clone());
            }
            return;
        }
        for &v in &d[i] {
            a[i] = v;
            go(d, i + 1, a, holds, out);
        }
    }
    let mut out = BTreeSet::new();
    go(domains, 0, &mut vec![0; domains.len()], holds, &mut out);
    out
}

/// A model with one variable per domain.
pub(crate) fn model(domains: &[Vec<i32>]) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let vars = domains
        .iter()
        .map(|d| m.int_var(d.as_slice()).unwrap())
        .collect();
    (m, vars)
}

/// Every solution, with each one checked against the posted definitions.
pub(crate) fn solve(m: Model) -> BTreeSet<Vec<i32>> {
    let config = SearchConfig {
        check_solutions: true,
        ..SearchConfig::default()
    };
    let mut s = Solver::with_config(m, config);
    s.solution_set().iter().map(|r| r.to_vec()).collect()
}

/// After one propagation each domain is exactly the values that solutions take.
pub(crate) fn assert_domain_consistent(
    mut m: Model,
    vars: &[VarId],
    solutions: &BTreeSet<Vec<i32>>,
    case: &dyn std::fmt::Debug,
) {
    match m.propagate() {
        Err(_) => assert!(solutions.is_empty(), "failed with solutions: {case:?}"),
        Ok(()) => {
            for (i, &x) in vars.iter().enumerate() {
                let supported: Vec<i32> = solutions
                    .iter()
                    .map(|s| s[i])
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect();
                if solutions.is_empty() {
                    continue; // a consistent propagator may leave an unsatisfiable model unfailed
                }
                assert_eq!(m.domain(x).unwrap(), supported, "var {i} of {case:?}");
            }
        }
    }
}
