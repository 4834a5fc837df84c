//! Random sums with 64-bit coefficients and constants, posted, reified and enforced, against
//! a direct evaluation in `i128` over every assignment. The sums repeat variables, cancel
//! large coefficients, fold from the left and from the right, run past 32 terms, and put
//! constants near the ends of `i32` and `i64`. A comparison whose numbers stay within `i64`
//! on the way (each coefficient and constant as the operators build it) must be posted
//! exactly; one that leaves `i64` may be refused with an error, never a panic or a wrong
//! answer. Most comparisons are made tight at a random point (`lhs - rhs` is -1, 0 or 1
//! there), so that a constant off by one shows. The cases come from a fixed seed;
//! `BEZZEL_SUM_CASES` and `BEZZEL_SUM_SEED` run more or others.

use bezzel_core::expr::{abs, sum};
use bezzel_core::prelude::*;
use std::collections::BTreeSet;

use crate::brute::Rng;
use crate::brute::spec::{RELATIONS, relation_holds};

/// A number below `n`.
fn below(r: &mut Rng, n: usize) -> usize {
    r.below(n as u64) as usize
}

fn pick<T: Copy>(r: &mut Rng, xs: &[T]) -> T {
    xs[below(r, xs.len())]
}

/// An integer expression, as the test builds it through the API.
#[derive(Debug, Clone)]
enum E {
    /// `constant(f₀) * f₁ * …`: a constant reaching past `i32`.
    Const(Vec<i32>),
    Var(usize),
    /// `(±x).offset(c)` as a view.
    View(usize, bool, i32),
    /// `x.scale(k).offset(c)` as a view.
    Scaled(usize, i32, i32),
    /// A Boolean as 0/1, negated (`1 - b`) or not.
    Bool(usize, bool),
    Add(Box<E>, Box<E>),
    Sub(Box<E>, Box<E>),
    /// `e * k`.
    Times(Box<E>, i32),
    /// `k * e`.
    TimesLeft(i32, Box<E>),
    Neg(Box<E>),
    /// `sum(es)`.
    Sum(Vec<E>),
    /// `abs(e)`, a non-linear part.
    Abs(Box<E>),
    /// An `i64` constant built from 32- and 16-bit pieces.
    Wide(i64),
}

/// A factor of a coefficient: small ones, and ones whose products reach `2^40..2^63`.
const FACTORS: [i32; 14] = [
    1,
    -1,
    2,
    -3,
    7,
    1 << 15,
    -(1 << 16),
    1 << 20,
    1 << 30,
    i32::MAX,
    i32::MIN,
    -(1 << 30) + 1,
    1_162_261_467, // 3^19
    65_535,
];

fn factors(r: &mut Rng) -> Vec<i32> {
    let n = 1 + below(r, 3);
    (0..n).map(|_| pick(r, &FACTORS)).collect()
}

fn leaf(r: &mut Rng, ints: usize, bools: usize) -> E {
    match below(r, 10) {
        0 | 1 => E::Const(if r.chance(50) {
            vec![pick(
                r,
                &[0, 1, -1, 2, i32::MAX, i32::MIN, i32::MIN + 1, i32::MAX - 1],
            )]
        } else if r.chance(20) {
            // i64::MIN, and one above it.
            vec![i32::MIN, 65_536, pick(r, &[65_536, -65_536])]
        } else {
            factors(r)
        }),
        2..=4 => E::Var(below(r, ints)),
        5 => E::View(below(r, ints), r.chance(50), pick(r, &[0, 1, -2, 1 << 20])),
        6 => E::Scaled(below(r, ints), pick(r, &[2, -3, 5]), pick(r, &[0, 1, -1])),
        7 => E::Bool(below(r, bools), r.chance(50)),
        _ => {
            // A variable with a large coefficient, on either side.
            let x = Box::new(E::Var(below(r, ints)));
            let mut e = *x;
            for f in factors(r) {
                e = if r.chance(50) {
                    E::Times(Box::new(e), f)
                } else {
                    E::TimesLeft(f, Box::new(e))
                };
            }
            e
        }
    }
}

fn expr(r: &mut Rng, depth: u32, ints: usize, bools: usize) -> E {
    if depth == 0 || r.chance(25) {
        return leaf(r, ints, bools);
    }
    let sub = |r: &mut Rng| Box::new(expr(r, depth - 1, ints, bools));
    match below(r, 12) {
        0..=2 => E::Add(sub(r), sub(r)),
        3 | 4 => E::Sub(sub(r), sub(r)),
        5 => {
            let e = sub(r);
            E::Times(e, pick(r, &FACTORS))
        }
        6 => {
            let e = sub(r);
            E::TimesLeft(pick(r, &FACTORS), e)
        }
        7 => E::Neg(sub(r)),
        8 => {
            // A long sum, 30..40 terms over few variables: repeated, maybe cancelling.
            let n = 30 + below(r, 11);
            E::Sum((0..n).map(|_| leaf(r, ints, bools)).collect())
        }
        9 => {
            // A right fold (`x + acc`) and a left one.
            let n = 2 + below(r, 40);
            let terms: Vec<E> = (0..n).map(|_| leaf(r, ints, bools)).collect();
            if r.chance(50) {
                terms
                    .into_iter()
                    .rev()
                    .reduce(|acc, t| E::Add(Box::new(t), Box::new(acc)))
                    .unwrap()
            } else {
                terms
                    .into_iter()
                    .reduce(|acc, t| E::Add(Box::new(acc), Box::new(t)))
                    .unwrap()
            }
        }
        10 => {
            // e + k·x - k·x: a large term that cancels.
            let e = sub(r);
            let x = below(r, ints);
            let k = factors(r);
            let big = k.iter().fold(E::Var(x), |e, &f| E::Times(Box::new(e), f));
            E::Sub(Box::new(E::Add(e, Box::new(big.clone()))), Box::new(big))
        }
        _ => {
            if r.chance(30) {
                // Over a variable alone: its auxiliary variable holds every value.
                let x = if r.chance(50) {
                    E::Var(below(r, ints))
                } else {
                    E::Bool(below(r, bools), r.chance(50))
                };
                E::Abs(Box::new(x))
            } else {
                E::Add(sub(r), sub(r))
            }
        }
    }
}

struct Vars {
    ints: Vec<VarId>,
    bools: Vec<BoolVar>,
}

fn build(e: &E, v: &Vars) -> IntExpr {
    match e {
        E::Const(fs) => fs[1..].iter().fold(IntExpr::constant(fs[0]), |e, &f| e * f),
        E::Var(i) => v.ints[*i].into(),
        E::View(i, neg, c) => {
            let x = IntView::from(v.ints[*i]);
            let x = if *neg { x.minus() } else { x };
            x.offset(*c).into()
        }
        E::Scaled(i, k, c) => v.ints[*i].scale(*k).offset(*c).into(),
        E::Bool(i, false) => v.bools[*i].into(),
        E::Bool(i, true) => (!v.bools[*i]).into(),
        // The operands by value and by kind: a variable on the right goes in as a term.
        E::Add(a, b) => match &**b {
            E::Var(i) => build(a, v) + v.ints[*i],
            E::Bool(i, false) => build(a, v) + v.bools[*i],
            E::Const(fs) if fs.len() == 1 => build(a, v) + fs[0],
            _ => build(a, v) + build(b, v),
        },
        E::Sub(a, b) => match &**b {
            E::Var(i) => build(a, v) - v.ints[*i],
            E::Const(fs) if fs.len() == 1 => build(a, v) - fs[0],
            _ => build(a, v) - build(b, v),
        },
        E::Times(a, k) => build(a, v) * *k,
        E::TimesLeft(k, a) => *k * build(a, v),
        E::Neg(a) => -build(a, v),
        E::Sum(es) => sum(es.iter().map(|e| build(e, v))),
        E::Abs(a) => abs(build(a, v)),
        E::Wide(k) => {
            IntExpr::constant((k >> 32) as i32) * 65_536 * 65_536
                + IntExpr::constant(((k >> 16) & 0xffff) as i32) * 65_536
                + (k & 0xffff) as i32
        }
    }
}

/// The value over an assignment, exactly.
fn eval(e: &E, ints: &[i64], bools: &[i64]) -> i128 {
    match e {
        E::Const(fs) => fs.iter().map(|&f| i128::from(f)).product(),
        E::Var(i) => ints[*i].into(),
        E::View(i, neg, c) => {
            let x = i128::from(ints[*i]);
            (if *neg { -x } else { x }) + i128::from(*c)
        }
        E::Scaled(i, k, c) => i128::from(*k) * i128::from(ints[*i]) + i128::from(*c),
        E::Bool(i, neg) => {
            let b = i128::from(bools[*i]);
            if *neg { 1 - b } else { b }
        }
        E::Add(a, b) => eval(a, ints, bools) + eval(b, ints, bools),
        E::Sub(a, b) => eval(a, ints, bools) - eval(b, ints, bools),
        E::Times(a, k) | E::TimesLeft(k, a) => eval(a, ints, bools) * i128::from(*k),
        E::Neg(a) => -eval(a, ints, bools),
        E::Sum(es) => es.iter().map(|e| eval(e, ints, bools)).sum(),
        E::Abs(a) => eval(a, ints, bools).abs(),
        E::Wide(k) => i128::from(*k),
    }
}

/// A term of the form the operators keep: a coefficient of a variable (or of the `n`th
/// non-linear part, numbered from 1000), unmerged.
type Form = (Vec<(i128, usize)>, i128);

fn fits(v: i128) -> bool {
    i64::try_from(v).is_ok()
}

/// The expression as the operators keep it, or `None` where a coefficient or constant
/// leaves `i64` on the way (which the API documents as refused).
fn form(e: &E, parts: &mut usize) -> Option<Form> {
    let scale = |(ts, c): Form, k: i128| -> Option<Form> {
        let ts: Vec<_> = ts.into_iter().map(|(a, x)| (a * k, x)).collect();
        let c = c * k;
        (ts.iter().all(|&(a, _)| fits(a)) && fits(c)).then_some((ts, c))
    };
    let add = |(mut ts, c): Form, (us, d): Form| -> Option<Form> {
        ts.extend(us);
        fits(c + d).then_some((ts, c + d))
    };
    match e {
        E::Const(fs) => {
            let mut c = i128::from(fs[0]);
            for &f in &fs[1..] {
                c *= i128::from(f);
                if !fits(c) {
                    return None;
                }
            }
            Some((vec![], c))
        }
        E::Var(i) => Some((vec![(1, *i)], 0)),
        E::View(i, neg, c) => Some((vec![(if *neg { -1 } else { 1 }, *i)], i128::from(*c))),
        E::Scaled(i, k, c) => Some((vec![(i128::from(*k), *i)], i128::from(*c))),
        E::Bool(i, neg) => Some(if *neg {
            (vec![(-1, 100 + *i)], 1)
        } else {
            (vec![(1, 100 + *i)], 0)
        }),
        E::Add(a, b) => add(form(a, parts)?, form(b, parts)?),
        E::Sub(a, b) => add(form(a, parts)?, scale(form(b, parts)?, -1)?),
        E::Times(a, k) | E::TimesLeft(k, a) => scale(form(a, parts)?, i128::from(*k)),
        E::Neg(a) => scale(form(a, parts)?, -1),
        E::Sum(es) => es
            .iter()
            .try_fold((vec![], 0), |acc, e| add(acc, form(e, parts)?)),
        E::Abs(a) => {
            form(a, parts)?;
            *parts += 1;
            Some((vec![(1, 1000 + *parts)], 0))
        }
        E::Wide(k) => Some((vec![], i128::from(*k))),
    }
}

/// Whether `lhs - rhs` merged by variable has coefficients and a constant (on either side)
/// within `i64`: the constraint is then one the sums take, and must not be refused.
fn representable(lhs: &E, rhs: &E) -> bool {
    let mut parts = 0;
    let (Some(a), Some(b)) = (form(lhs, &mut parts), form(rhs, &mut parts)) else {
        return false;
    };
    let Some((ts, c)) = (|| {
        let (mut ts, c) = a;
        let neg: Vec<_> = b.0.iter().map(|&(a, x)| (-a, x)).collect();
        if !b.0.iter().all(|&(a, _)| fits(-a)) || !fits(-b.1) {
            return None;
        }
        ts.extend(neg);
        fits(c - b.1).then_some((ts, c - b.1))
    })() else {
        return false;
    };
    let mut merged = std::collections::BTreeMap::new();
    for (a, x) in ts {
        *merged.entry(x).or_insert(0i128) += a;
    }
    merged.values().all(|&a| fits(a)) && fits(c)
}

/// How the comparison goes into the model.
#[derive(Debug, Clone, Copy)]
enum Context {
    Post,
    PostNegated,
    Reify,
    PostIf,
    PostIfNot,
    OnlyIf,
    /// `cmp | c`, which reifies the comparison into a clause.
    OrSwitch,
}

const CONTEXTS: [Context; 7] = [
    Context::Post,
    Context::PostNegated,
    Context::Reify,
    Context::PostIf,
    Context::PostIfNot,
    Context::OnlyIf,
    Context::OrSwitch,
];

/// Domains: near 0, at the top and bottom of the values, 0/1.
const DOMAINS: [(i32, i32); 5] = [
    (-2, 2),
    (0, 3),
    ((1 << 30) - 2, 1 << 30),
    (-(1 << 30), -(1 << 30) + 2),
    (0, 1),
];

#[derive(Debug)]
struct Case {
    domains: Vec<(i32, i32)>,
    bools: usize,
    lhs: E,
    rel: Relation,
    rhs: E,
    context: Context,
    learning: bool,
}

fn draw(r: &mut Rng) -> Case {
    let ints = 2 + below(r, 3);
    let bools = 1 + below(r, 2);
    let domains: Vec<(i32, i32)> = (0..ints).map(|_| pick(r, &DOMAINS)).collect();
    let lhs = expr(r, 3, ints, bools);
    let mut rhs = if r.chance(40) {
        leaf(r, ints, bools)
    } else {
        expr(r, 2, ints, bools)
    };
    if r.chance(70) {
        // Tight at a random point: lhs - rhs is -1, 0 or 1 there, so that a constant off by
        // one shows.
        let point: Vec<i64> = domains
            .iter()
            .map(|&(lo, hi): &(i32, i32)| i64::from(lo) + below(r, (hi - lo + 1) as usize) as i64)
            .collect();
        let bits: Vec<i64> = (0..bools).map(|_| below(r, 2) as i64).collect();
        let d = eval(&lhs, &point, &bits) - eval(&rhs, &point, &bits) + pick(r, &[-1, 0, 1]);
        if let Ok(d) = i64::try_from(d) {
            rhs = E::Add(Box::new(rhs), Box::new(E::Wide(d)));
        }
    }
    Case {
        domains,
        bools,
        lhs,
        rel: pick(r, &RELATIONS),
        rhs,
        context: pick(r, &CONTEXTS),
        learning: r.chance(20),
    }
}

fn assignments(case: &Case) -> Vec<Vec<i64>> {
    let mut all = vec![vec![]];
    let ranges = case
        .domains
        .iter()
        .copied()
        .chain(std::iter::repeat_n((0, 1), case.bools + 1));
    for (lo, hi) in ranges {
        all = all
            .into_iter()
            .flat_map(|a: Vec<i64>| {
                (lo..=hi).map(move |v| {
                    let mut a = a.clone();
                    a.push(i64::from(v));
                    a
                })
            })
            .collect();
    }
    all
}

/// Runs one case; `Err` describes a defect.
fn run(case: &Case) -> Result<(), String> {
    let mut m = Model::new();
    let ints: Vec<VarId> = case
        .domains
        .iter()
        .map(|&(lo, hi)| m.int_var(lo..=hi).unwrap())
        .collect();
    let bools: Vec<BoolVar> = (0..case.bools).map(|_| m.bool_var().unwrap()).collect();
    let switch = m.bool_var().unwrap();
    let v = Vars { ints, bools };
    let cmp = BoolExpr::compare(build(&case.lhs, &v), case.rel, build(&case.rhs, &v));
    let mut shown = v.ints.clone();
    shown.extend(v.bools.iter().map(|b| b.var()));
    shown.push(switch.var());
    let posted = match case.context {
        Context::Post => m.post(cmp),
        Context::PostNegated => m.post(!cmp),
        Context::Reify => m.reify(cmp).and_then(|r| m.post(r.eq(switch))),
        Context::PostIf => m.post_if(switch, cmp),
        Context::PostIfNot => m.post_if(!switch, cmp),
        Context::OnlyIf => m.post(cmp.only_if(switch)),
        Context::OrSwitch => m.post(cmp | switch),
    };
    let ok = representable(&case.lhs, &case.rhs);
    if let Err(e) = posted {
        return if ok {
            Err(format!("refused a representable comparison: {e}"))
        } else {
            Ok(())
        };
    }
    let n = case.domains.len();
    let expected: BTreeSet<Vec<i64>> = assignments(case)
        .into_iter()
        .filter(|a| {
            let (ints, rest) = a.split_at(n);
            let (bools, s) = rest.split_at(case.bools);
            let s = s[0] == 1;
            let d = eval(&case.lhs, ints, bools) - eval(&case.rhs, ints, bools);
            let t = relation_holds(d, case.rel, 0);
            match case.context {
                Context::Post => t,
                Context::PostNegated => !t,
                Context::Reify => t == s,
                Context::PostIf | Context::OnlyIf => !s || t,
                Context::PostIfNot => s || t,
                Context::OrSwitch => s || t,
            }
        })
        .collect();
    let config = SearchConfig {
        learning: case.learning,
        check_solutions: true,
        ..SearchConfig::default()
    };
    let mut solver = Solver::with_config(m, config);
    let count = solver.count();
    let found: BTreeSet<Vec<i64>> = solver
        .solution_set_of(&shown)
        .map_err(|e| e.to_string())?
        .iter()
        .map(|r| r.iter().map(|&v| i64::from(v)).collect())
        .collect();
    let extra: Vec<_> = found.difference(&expected).take(3).collect();
    let missing: Vec<_> = expected.difference(&found).take(3).collect();
    if !extra.is_empty() || !missing.is_empty() {
        return Err(format!(
            "wrong solutions {extra:?}, lost solutions {missing:?}"
        ));
    }
    if count != expected.len() as u64 {
        return Err(format!("count {count}, expected {}", expected.len()));
    }
    Ok(())
}

#[test]
fn random_wide_sums_have_exactly_the_evaluated_solutions() {
    let cases: usize = std::env::var("BEZZEL_SUM_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let seed: u64 = std::env::var("BEZZEL_SUM_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let mut r = Rng::seeded(seed);
    let mut failures = Vec::new();
    for i in 0..cases {
        let case = draw(&mut r);
        let outcome = std::panic::catch_unwind(|| run(&case));
        match outcome {
            Ok(Ok(())) => {}
            Ok(Err(why)) => failures.push(format!("case {i}: {why}\n{case:?}")),
            Err(_) => failures.push(format!("case {i}: panicked\n{case:?}")),
        }
        if failures.len() >= 5 {
            break;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
