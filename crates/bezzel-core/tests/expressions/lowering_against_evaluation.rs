//! Random expressions over tiny domains, posted, reified and enforced: the solver's solutions
//! (projected on the declared variables) must be exactly the assignments where a direct
//! evaluation of the expression, written here and sharing nothing with the lowering, says so.
//! Every operator is drawn, nested, with Booleans mixed into the integers and the other way
//! round, and views (`-x`, `x + c`, `!b`, the scaled `k·x + c`) and scaled terms (`k * x + c`,
//! which the lowering makes a scaled view wherever it needs a view) as leaves.
//!
//! Semantics checked: `/` and `%` round as Rust's do, and a division by zero or an index out
//! of range anywhere in the expression makes the assignment no solution, whatever Boolean
//! context it is in (the lowering defines every part by a constraint of its own). The
//! solver's count must equal the number of solutions too, so auxiliary variables are
//! functions of the declared ones.

use bezzel_core::expr::{abs, element, max, min};
use bezzel_core::prelude::*;
use proptest::prelude::*;
use std::collections::BTreeSet;

use crate::brute::spec::{relation, relation_holds};

const INTS: usize = 3;
const BOOLS: usize = 2;
const LO: i32 = -2;
const HI: i32 = 2;

#[derive(Debug, Clone)]
enum Int {
    Const(i32),
    Var(usize),
    /// `±x + c`, as a view.
    View(usize, bool, i32),
    /// `k·x + c`, as a scaled view built by hand.
    ScaledView(usize, i32, i32),
    /// `k * x + c`, as an expression.
    Affine(i32, usize, i32),
    /// A Boolean variable (or its negation) as 0/1.
    BoolVar(usize, bool),
    Add(Box<Int>, Box<Int>),
    Sub(Box<Int>, Box<Int>),
    Mul(Box<Int>, Box<Int>),
    Scale(i32, Box<Int>),
    Neg(Box<Int>),
    Div(Box<Int>, Box<Int>),
    Mod(Box<Int>, Box<Int>),
    Abs(Box<Int>),
    Min(Vec<Int>),
    Max(Vec<Int>),
    Element(Vec<Int>, Box<Int>),
    ElementConst(Vec<i32>, Box<Int>),
    Truth(Box<Bool>),
}

#[derive(Debug, Clone)]
enum Bool {
    Const(bool),
    Lit(usize, bool),
    Cmp(Int, Relation, Int),
    And(Box<Bool>, Box<Bool>),
    Or(Box<Bool>, Box<Bool>),
    Xor(Box<Bool>, Box<Bool>),
    Not(Box<Bool>),
    Implies(Box<Bool>, Box<Bool>),
    Iff(Box<Bool>, Box<Bool>),
}

/// An assignment: the integers, then the Booleans.
struct Point<'a> {
    ints: &'a [i64],
    bools: &'a [i64],
}

/// The value, or `None` where it is undefined (a division by zero, an index out of range).
fn eval_int(e: &Int, p: &Point<'_>) -> Option<i64> {
    Some(match e {
        Int::Const(c) => i64::from(*c),
        Int::Var(i) => p.ints[*i],
        Int::View(i, negated, c) => {
            let v = p.ints[*i];
            (if *negated { -v } else { v }) + i64::from(*c)
        }
        Int::ScaledView(i, k, c) | Int::Affine(k, i, c) => {
            i64::from(*k) * p.ints[*i] + i64::from(*c)
        }
        Int::BoolVar(i, negated) => {
            let v = p.bools[*i];
            if *negated { 1 - v } else { v }
        }
        Int::Add(a, b) => eval_int(a, p)? + eval_int(b, p)?,
        Int::Sub(a, b) => eval_int(a, p)? - eval_int(b, p)?,
        Int::Mul(a, b) => eval_int(a, p)? * eval_int(b, p)?,
        Int::Scale(k, a) => i64::from(*k) * eval_int(a, p)?,
        Int::Neg(a) => -eval_int(a, p)?,
        Int::Div(a, b) => {
            let (a, b) = (eval_int(a, p)?, eval_int(b, p)?);
            if b == 0 {
                return None;
            }
            a / b
        }
        Int::Mod(a, b) => {
            let (a, b) = (eval_int(a, p)?, eval_int(b, p)?);
            if b == 0 {
                return None;
            }
            a % b
        }
        Int::Abs(a) => eval_int(a, p)?.abs(),
        Int::Min(es) => {
            let vs: Option<Vec<i64>> = es.iter().map(|e| eval_int(e, p)).collect();
            vs?.into_iter().min()?
        }
        Int::Max(es) => {
            let vs: Option<Vec<i64>> = es.iter().map(|e| eval_int(e, p)).collect();
            vs?.into_iter().max()?
        }
        Int::Element(es, index) => {
            // Every entry is defined by a constraint of its own, chosen or not.
            let vs: Option<Vec<i64>> = es.iter().map(|e| eval_int(e, p)).collect();
            let vs = vs?;
            let i = eval_int(index, p)?;
            *vs.get(usize::try_from(i).ok()?)?
        }
        Int::ElementConst(vs, index) => {
            let i = eval_int(index, p)?;
            i64::from(*vs.get(usize::try_from(i).ok()?)?)
        }
        Int::Truth(b) => i64::from(eval_bool(b, p)?),
    })
}

fn eval_bool(e: &Bool, p: &Point<'_>) -> Option<bool> {
    Some(match e {
        Bool::Const(t) => *t,
        Bool::Lit(i, negated) => (p.bools[*i] == 1) != *negated,
        Bool::Cmp(a, rel, b) => {
            let (a, b) = (eval_int(a, p)?, eval_int(b, p)?);
            relation_holds(i128::from(a), *rel, i128::from(b))
        }
        // Both sides are evaluated: an undefined part is undefined in any context.
        Bool::And(a, b) => {
            let (a, b) = (eval_bool(a, p)?, eval_bool(b, p)?);
            a && b
        }
        Bool::Or(a, b) => {
            let (a, b) = (eval_bool(a, p)?, eval_bool(b, p)?);
            a || b
        }
        Bool::Xor(a, b) => eval_bool(a, p)? != eval_bool(b, p)?,
        Bool::Not(a) => !eval_bool(a, p)?,
        Bool::Implies(a, b) => {
            let (a, b) = (eval_bool(a, p)?, eval_bool(b, p)?);
            !a || b
        }
        Bool::Iff(a, b) => eval_bool(a, p)? == eval_bool(b, p)?,
    })
}

struct Vars {
    ints: Vec<VarId>,
    bools: Vec<BoolVar>,
}

fn int_expr(e: &Int, v: &Vars) -> IntExpr {
    match e {
        Int::Const(c) => IntExpr::from(*c),
        Int::Var(i) => v.ints[*i].into(),
        Int::View(i, negated, c) => {
            let x = if *negated {
                v.ints[*i].minus()
            } else {
                v.ints[*i].into()
            };
            x.offset(*c).into()
        }
        Int::ScaledView(i, k, c) => v.ints[*i].scale(*k).offset(*c).into(),
        Int::Affine(k, i, c) => *k * v.ints[*i] + *c,
        Int::BoolVar(i, false) => v.bools[*i].into(),
        Int::BoolVar(i, true) => (!v.bools[*i]).into(),
        Int::Add(a, b) => int_expr(a, v) + int_expr(b, v),
        Int::Sub(a, b) => int_expr(a, v) - int_expr(b, v),
        Int::Mul(a, b) => int_expr(a, v) * int_expr(b, v),
        Int::Scale(k, a) => *k * int_expr(a, v),
        Int::Neg(a) => -int_expr(a, v),
        Int::Div(a, b) => int_expr(a, v) / int_expr(b, v),
        Int::Mod(a, b) => int_expr(a, v) % int_expr(b, v),
        Int::Abs(a) => abs(int_expr(a, v)),
        Int::Min(es) => min(es.iter().map(|e| int_expr(e, v))),
        Int::Max(es) => max(es.iter().map(|e| int_expr(e, v))),
        Int::Element(es, i) => element(es.iter().map(|e| int_expr(e, v)), int_expr(i, v)),
        Int::ElementConst(vs, i) => element(vs, int_expr(i, v)),
        Int::Truth(b) => bool_expr(b, v).into(),
    }
}

fn bool_expr(e: &Bool, v: &Vars) -> BoolExpr {
    match e {
        Bool::Const(t) => BoolExpr::constant(*t),
        Bool::Lit(i, false) => v.bools[*i].into(),
        Bool::Lit(i, true) => (!v.bools[*i]).into(),
        Bool::Cmp(a, rel, b) => {
            let (a, b) = (int_expr(a, v), int_expr(b, v));
            match rel {
                Relation::Eq => a.eq(b),
                Relation::Ne => a.ne(b),
                Relation::Le => a.le(b),
                Relation::Lt => a.lt(b),
                Relation::Ge => a.ge(b),
                Relation::Gt => a.gt(b),
            }
        }
        Bool::And(a, b) => bool_expr(a, v) & bool_expr(b, v),
        Bool::Or(a, b) => bool_expr(a, v) | bool_expr(b, v),
        Bool::Xor(a, b) => bool_expr(a, v) ^ bool_expr(b, v),
        Bool::Not(a) => !bool_expr(a, v),
        Bool::Implies(a, b) => bool_expr(a, v).implies(bool_expr(b, v)),
        Bool::Iff(a, b) => bool_expr(a, v).iff(bool_expr(b, v)),
    }
}

fn int_leaf() -> impl Strategy<Value = Int> {
    prop_oneof![
        (-3..=3i32).prop_map(Int::Const),
        (0..INTS).prop_map(Int::Var),
        (0..INTS, any::<bool>(), -2..=2i32).prop_map(|(i, n, c)| Int::View(i, n, c)),
        (0..INTS, scale(), -2..=2i32).prop_map(|(i, k, c)| Int::ScaledView(i, k, c)),
        (scale(), 0..INTS, -2..=2i32).prop_map(|(k, i, c)| Int::Affine(k, i, c)),
        (0..BOOLS, any::<bool>()).prop_map(|(i, n)| Int::BoolVar(i, n)),
    ]
}

/// A factor of a scaled term: ±2 or ±3.
fn scale() -> impl Strategy<Value = i32> {
    prop_oneof![Just(-3), Just(-2), Just(2), Just(3)]
}

fn bool_leaf() -> impl Strategy<Value = Bool> {
    prop_oneof![
        1 => any::<bool>().prop_map(Bool::Const),
        4 => (0..BOOLS, any::<bool>()).prop_map(|(i, n)| Bool::Lit(i, n)),
    ]
}

/// Integer expressions of depth up to `depth`, whose Boolean parts go one level less deep.
fn int(depth: u32) -> BoxedStrategy<Int> {
    if depth == 0 {
        return int_leaf().boxed();
    }
    let sub = int(depth - 1);
    prop_oneof![
        3 => int_leaf(),
        2 => (sub.clone(), sub.clone()).prop_map(|(a, c)| Int::Add(Box::new(a), Box::new(c))),
        2 => (sub.clone(), sub.clone()).prop_map(|(a, c)| Int::Sub(Box::new(a), Box::new(c))),
        2 => (sub.clone(), sub.clone()).prop_map(|(a, c)| Int::Mul(Box::new(a), Box::new(c))),
        1 => (-3..=3i32, sub.clone()).prop_map(|(k, a)| Int::Scale(k, Box::new(a))),
        1 => sub.clone().prop_map(|a| Int::Neg(Box::new(a))),
        1 => (sub.clone(), sub.clone()).prop_map(|(a, c)| Int::Div(Box::new(a), Box::new(c))),
        1 => (sub.clone(), sub.clone()).prop_map(|(a, c)| Int::Mod(Box::new(a), Box::new(c))),
        1 => sub.clone().prop_map(|a| Int::Abs(Box::new(a))),
        1 => prop::collection::vec(sub.clone(), 1..=3).prop_map(Int::Min),
        1 => prop::collection::vec(sub.clone(), 1..=3).prop_map(Int::Max),
        1 => (prop::collection::vec(sub.clone(), 1..=3), sub.clone())
            .prop_map(|(es, i)| Int::Element(es, Box::new(i))),
        1 => (prop::collection::vec(-3..=3i32, 1..=4), sub.clone())
            .prop_map(|(vs, i)| Int::ElementConst(vs, Box::new(i))),
        1 => boolean(depth - 1).prop_map(|b| Int::Truth(Box::new(b))),
    ]
    .boxed()
}

fn boolean(depth: u32) -> BoxedStrategy<Bool> {
    let cmp =
        (int(depth.min(2)), relation(), int(depth.min(2))).prop_map(|(a, r, c)| Bool::Cmp(a, r, c));
    if depth == 0 {
        return prop_oneof![bool_leaf(), cmp].boxed();
    }
    let sub = boolean(depth - 1);
    let pair = || (sub.clone(), sub.clone());
    prop_oneof![
        2 => bool_leaf(),
        4 => cmp,
        1 => pair().prop_map(|(a, c)| Bool::And(Box::new(a), Box::new(c))),
        1 => pair().prop_map(|(a, c)| Bool::Or(Box::new(a), Box::new(c))),
        1 => pair().prop_map(|(a, c)| Bool::Xor(Box::new(a), Box::new(c))),
        1 => sub.clone().prop_map(|a| Bool::Not(Box::new(a))),
        1 => pair().prop_map(|(a, c)| Bool::Implies(Box::new(a), Box::new(c))),
        1 => pair().prop_map(|(a, c)| Bool::Iff(Box::new(a), Box::new(c))),
    ]
    .boxed()
}

fn model() -> (Model, Vars) {
    let mut m = Model::new();
    let ints = (0..INTS)
        .map(|i| m.named_var(format!("x{i}"), LO..=HI).unwrap())
        .collect();
    let bools = (0..BOOLS)
        .map(|i| m.named_bool(format!("b{i}")).unwrap())
        .collect();
    (m, Vars { ints, bools })
}

/// Every assignment of the declared variables, integers then Booleans.
fn assignments() -> Vec<Vec<i64>> {
    let mut all = vec![vec![]];
    for k in 0..INTS + BOOLS {
        let (lo, hi) = if k < INTS { (LO, HI) } else { (0, 1) };
        all = all
            .into_iter()
            .flat_map(|a| {
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

fn point(a: &[i64]) -> Point<'_> {
    Point {
        ints: &a[..INTS],
        bools: &a[INTS..],
    }
}

fn rows(set: &SolutionSet) -> BTreeSet<Vec<i64>> {
    set.iter()
        .map(|r| r.iter().map(|&v| i64::from(v)).collect())
        .collect()
}

/// The solutions (projected on `shown`), and the number the solver counts.
fn solve(m: Model, shown: &[VarId]) -> (BTreeSet<Vec<i64>>, u64) {
    let mut solver = Solver::new(m);
    let count = solver.count();
    let set = solver.solution_set_of(shown).unwrap();
    (rows(&set), count)
}

fn declared(v: &Vars) -> Vec<VarId> {
    let mut all = v.ints.clone();
    all.extend(v.bools.iter().map(|b| b.var()));
    all
}

/// Fails with the first few rows that differ, rather than both sets whole.
fn same(
    found: &BTreeSet<Vec<i64>>,
    expected: &BTreeSet<Vec<i64>>,
    what: &str,
    e: &Bool,
) -> Result<(), TestCaseError> {
    let extra: Vec<_> = found.difference(expected).take(3).collect();
    let missing: Vec<_> = expected.difference(found).take(3).collect();
    prop_assert!(
        extra.is_empty() && missing.is_empty(),
        "{what} {e:?}: wrong solutions {extra:?}, lost solutions {missing:?}"
    );
    Ok(())
}

fn check_posted(e: &Bool) -> Result<(), TestCaseError> {
    let (mut m, v) = model();
    m.post(bool_expr(e, &v)).unwrap();
    let shown = declared(&v);
    // `solution_set` leaves the auxiliary variables out by itself.
    let mut solver = Solver::new(m);
    let default_set = rows(&solver.solution_set());
    let count = solver.count();
    let set = rows(&solver.solution_set_of(&shown).unwrap());
    let expected: BTreeSet<Vec<i64>> = assignments()
        .into_iter()
        .filter(|a| eval_bool(e, &point(a)) == Some(true))
        .collect();
    same(&set, &expected, "posted", e)?;
    same(&default_set, &expected, "solution_set of posted", e)?;
    prop_assert_eq!(count, expected.len() as u64, "count of {:?}", e);
    Ok(())
}

fn check_reified(e: &Bool) -> Result<(), TestCaseError> {
    let (mut m, v) = model();
    let r = m.reify(bool_expr(e, &v)).unwrap();
    let mut shown = declared(&v);
    shown.push(r.var());
    let (set, count) = solve(m, &shown);
    let expected: BTreeSet<Vec<i64>> = assignments()
        .into_iter()
        .filter_map(|mut a| {
            let t = eval_bool(e, &point(&a))?;
            a.push(i64::from(t));
            Some(a)
        })
        .collect();
    same(&set, &expected, "reified", e)?;
    prop_assert_eq!(count, expected.len() as u64, "count of reified {:?}", e);
    Ok(())
}

fn check_enforced(e: &Bool) -> Result<(), TestCaseError> {
    let (mut m, v) = model();
    let on = m.named_bool("on").unwrap();
    m.post(bool_expr(e, &v).only_if(on)).unwrap();
    let mut shown = declared(&v);
    shown.push(on.var());
    let (set, count) = solve(m, &shown);
    let expected: BTreeSet<Vec<i64>> = assignments()
        .into_iter()
        .flat_map(|a| {
            [0, 1].into_iter().filter_map(move |on| {
                let t = eval_bool(e, &point(&a))?;
                let mut a = a.clone();
                a.push(on);
                (on == 0 || t).then_some(a)
            })
        })
        .collect();
    same(&set, &expected, "enforced", e)?;
    prop_assert_eq!(count, expected.len() as u64, "count of enforced {:?}", e);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn posted_expressions_have_exactly_the_evaluated_solutions(e in boolean(3)) {
        check_posted(&e)?;
    }

    #[test]
    fn reified_expressions_are_true_exactly_where_they_evaluate_true(e in boolean(3)) {
        check_reified(&e)?;
    }

    #[test]
    fn enforced_expressions_hold_exactly_where_the_switch_is_on(e in boolean(3)) {
        check_enforced(&e)?;
    }

    #[test]
    fn integer_expressions_compared_with_a_variable_take_their_evaluated_value(
        e in int(3),
        rel in relation(),
    ) {
        // `e (rel) x0`: an integer expression at the top of a comparison, reified.
        let cmp = Bool::Cmp(e, rel, Int::Var(0));
        check_reified(&cmp)?;
        check_posted(&cmp)?;
    }
    #[test]
    fn a_part_equal_to_a_leaf_is_defined_onto_it_with_the_evaluated_solutions(
        part in part(1),
        leaf in int_leaf(),
        flipped in any::<bool>(),
        negated in any::<bool>(),
    ) {
        // `part = leaf` (either way round, either sign) is posted as the part's propagator
        // on the leaf itself, aliasing included (`abs(x0) = x0`).
        let part = if negated { Int::Neg(Box::new(part)) } else { part };
        let (a, c) = if flipped { (leaf, part) } else { (part, leaf) };
        check_posted(&Bool::Cmp(a, Relation::Eq, c))?;
    }
}

/// A non-linear part at the top: what `post` can define onto the other side of `=`.
fn part(depth: u32) -> BoxedStrategy<Int> {
    let sub = int(depth);
    let pair = || (sub.clone(), sub.clone());
    prop_oneof![
        pair().prop_map(|(a, c)| Int::Mul(Box::new(a), Box::new(c))),
        pair().prop_map(|(a, c)| Int::Div(Box::new(a), Box::new(c))),
        pair().prop_map(|(a, c)| Int::Mod(Box::new(a), Box::new(c))),
        sub.clone().prop_map(|a| Int::Abs(Box::new(a))),
        prop::collection::vec(sub.clone(), 1..=3).prop_map(Int::Min),
        prop::collection::vec(sub.clone(), 1..=3).prop_map(Int::Max),
        (prop::collection::vec(sub.clone(), 1..=3), sub.clone())
            .prop_map(|(es, i)| Int::Element(es, Box::new(i))),
        (prop::collection::vec(-3..=3i32, 1..=4), sub.clone())
            .prop_map(|(vs, i)| Int::ElementConst(vs, Box::new(i))),
    ]
    .boxed()
}
