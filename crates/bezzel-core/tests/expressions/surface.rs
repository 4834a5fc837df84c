//! The surface of the expression API: operators between every kind of operand, what `==`
//! still means, what auxiliary variables show, and the errors a wrong expression gives.

use bezzel_core::expr::{abs, all, any, sum};
use bezzel_core::prelude::*;

/// The values of `x` (over `0..=4`, declared first) for which `make` holds.
fn solutions_in_x(make: impl Fn(VarId, IntView, BoolVar) -> BoolExpr) -> Vec<i32> {
    let mut m = Model::new();
    let x = m.named_var("x", 0..=4).unwrap();
    let y = m.named_var("y", 2..=2).unwrap(); // y = 2, seen as the view y + 1 = 3
    let b = m.named_bool("b").unwrap();
    m.fix(b, 1).unwrap();
    let e = make(x, y.offset(1), b);
    m.post(e).unwrap();
    let mut s = Solver::new(m);
    let set = s.solution_set_of(&[x]).unwrap();
    set.iter().map(|r| r[0]).collect()
}

#[test]
fn operators_combine_variables_views_booleans_and_constants_on_either_side() {
    // v is 3, b is 1.
    assert_eq!(solutions_in_x(|x, v, _| (x + v).eq(5)), vec![2]);
    assert_eq!(solutions_in_x(|x, v, _| (v + x).eq(5)), vec![2]);
    assert_eq!(solutions_in_x(|x, _, b| (x + b).eq(5)), vec![4]);
    assert_eq!(solutions_in_x(|x, _, b| (b - x).eq(-2)), vec![3]);
    assert_eq!(solutions_in_x(|x, _, _| (2 * x).eq(6)), vec![3]);
    assert_eq!(solutions_in_x(|x, _, _| (x * 2).eq(6)), vec![3]);
    assert_eq!(solutions_in_x(|x, _, _| (7 - x).eq(6)), vec![1]);
    assert_eq!(solutions_in_x(|x, v, _| (x * v).eq(12)), vec![4]);
    assert_eq!(solutions_in_x(|x, _, _| (-x).eq(-4)), vec![4]);
    assert_eq!(solutions_in_x(|x, v, _| (-v + x).eq(0)), vec![3]);
    assert_eq!(solutions_in_x(|x, _, _| (x / 2).eq(1)), vec![2, 3]);
    assert_eq!(solutions_in_x(|x, v, _| (x % v).eq(1)), vec![1, 4]);
    assert_eq!(solutions_in_x(|x, _, _| (9 / (x + 1)).eq(3)), vec![2]);
    assert_eq!(solutions_in_x(|x, _, _| abs(x - 3).le(1)), vec![2, 3, 4]);
    assert_eq!(solutions_in_x(|x, _, _| (x - 3).abs().ge(2)), vec![0, 1]);
    assert_eq!(
        solutions_in_x(|x, v, b| sum([IntExpr::from(x), 1.into()]).eq(v) & b),
        vec![2]
    );
    assert_eq!(solutions_in_x(|x, _, b| x.eq(4) & !b | x.eq(0)), vec![0]);
    assert_eq!(
        solutions_in_x(|x, _, b| (x.lt(2) ^ b) & x.ne(4)),
        vec![2, 3]
    );
    assert_eq!(
        solutions_in_x(|x, _, b| b.implies(x.gt(3)) & b.iff(x.ge(1))),
        vec![4]
    );
    // Booleans as integers: the truth of `x >= 2` plus that of `x >= 3` is 1.
    assert_eq!(solutions_in_x(|x, _, _| (x.ge(2) + x.ge(3)).eq(1)), vec![2]);
    assert_eq!(
        solutions_in_x(|x, _, _| all([x.ge(1), x.le(2)]) & any([x.eq(2), x.eq(4)])),
        vec![2]
    );
}

#[test]
fn double_equals_still_compares_handles_while_eq_builds_a_constraint() {
    let mut m = Model::new();
    let x = m.int_var(0..=1).unwrap();
    let y = m.int_var(0..=1).unwrap();
    assert!(x == x && x != y);
    assert!(x.offset(1) == x.offset(1));
    let b = m.named_bool("b").unwrap();
    assert!(b == b);
    let _: BoolExpr = x.eq(y);
    let _: BoolExpr = b.eq(1);
    let _: BoolExpr = x.offset(1).le(y);
}

#[test]
fn auxiliary_variables_stay_out_of_printed_solutions_unless_asked_for() {
    let mut m = Model::new();
    let x = m.named_var("x", 1..=3).unwrap();
    let y = m.named_var("y", 1..=3).unwrap();
    m.post((x * y).eq(3) & abs(x - y).eq(2)).unwrap();
    assert!(m.num_vars() > 2);
    assert_eq!(m.declared_vars(), vec![x, y]);
    let mut s = Solver::new(m);
    assert_eq!(s.solution_set().to_string(), "x=1 y=3\nx=3 y=1\n");
    assert_eq!(s.first().unwrap().to_string(), "x=1 y=3");
    let all = s.solution_set_with_auxiliaries();
    assert!(all.variables.len() > 2);
    assert_eq!(all.len(), 2);
}

#[test]
fn a_model_without_expressions_prints_every_variable() {
    let mut m = Model::new();
    let x = m.int_var(0..=1).unwrap();
    let y = m.int_var(0..=1).unwrap();
    m.less_than(x, y).unwrap();
    let mut s = Solver::new(m);
    assert_eq!(s.solution_set().to_string(), "x0=0 x1=1\n");
}

#[test]
fn offsets_and_negations_cost_no_variable() {
    let mut m = Model::new();
    let x = m.int_var(0..=5).unwrap();
    let y = m.int_var(0..=5).unwrap();
    m.post((x + 2).le(y - 1)).unwrap();
    m.post((3 - x).ne(y)).unwrap();
    m.post((2 * x + 3 * y).le(12)).unwrap();
    assert_eq!(m.num_vars(), 2);
    assert_eq!(m.view_of(-x + 4).unwrap(), x.minus().offset(4));
    assert_eq!(m.var_of(x).unwrap(), x);
}

#[test]
fn wrong_expressions_are_errors_not_panics() {
    let mut m = Model::new();
    let x = m.int_var(0..=5).unwrap();
    let wide = m.int_var(-(1 << 20)..=(1 << 20)).unwrap();
    // The product ranges over 2⁴⁰ values: no variable holds it.
    let err = m.post((wide * wide).le(x)).unwrap_err();
    assert!(err.to_string().contains("product"), "{err}");
    // A view that is not 0/1 is not a literal.
    let err = m.post(x.offset(0) & x.offset(0)).unwrap_err();
    assert!(matches!(err, ModelError::InvalidArgument { .. }), "{err}");
    // Variables of another model.
    let mut other = Model::new();
    let z = other.int_var(0..=1).unwrap();
    assert!(m.post(x.eq(z)).is_err());
    // Coefficients beyond what a constraint takes.
    let huge = (0..5).fold(IntExpr::from(x), |e, _| e * 1_000_000);
    assert!(m.post(huge.le(1)).is_err());
    // min of nothing.
    assert!(
        m.post(bezzel_core::expr::min(Vec::<VarId>::new()).eq(0))
            .is_err()
    );
}

#[test]
fn constants_at_the_ends_of_i32_decide_comparisons_rather_than_refuse_them() {
    let mut m = Model::new();
    let x = m.int_var(0..=2).unwrap();
    let always = m.reify(x.ge(i32::MIN)).unwrap();
    let never = m.reify(x.lt(i32::MIN)).unwrap();
    let also_always = m.reify((-x).ge(i32::MIN)).unwrap();
    m.post_if(always, x.ge(i32::MIN)).unwrap();
    m.post(x.ge(i32::MIN) | never).unwrap();
    let flags = [always, never, also_always].map(|b| b.var());
    let mut solver = Solver::new(m);
    let seen: Vec<Vec<i32>> = solver.solutions().map(|s| s.values_of(&flags)).collect();
    assert_eq!(seen, vec![vec![1, 0, 1]; 3]);

    // x > y + (2^30 - 1) near the largest offset a view may have: brute force has 3.
    let mut m = Model::new();
    let x = m.int_var((1 << 30) - 2..=1 << 30).unwrap();
    let y = m.int_var(-1..=1).unwrap();
    m.post(x.gt(y + ((1 << 30) - 1))).unwrap();
    let brute = ((1 << 30) - 2..=1i64 << 30)
        .flat_map(|a| (-1..=1i64).map(move |b| (a, b)))
        .filter(|&(a, b)| a > b + (1 << 30) - 1)
        .count();
    assert_eq!(Solver::new(m).count() as usize, brute);
}

#[test]
fn sums_take_coefficients_and_constants_beyond_i32() {
    // Values are i32, but a sum of them is not: x + y + z = 3·2^30 - 1 near the top of the
    // domains, 2^32·w as a term, and the same as a reified condition. Brute force over the
    // small domains counts each.
    let base = (1i64 << 30) - 2;
    let range = base..=base + 2;
    let two_30 = IntExpr::constant(1 << 30);
    let target = two_30.clone() * 3 - 1;
    let brute = |pred: &dyn Fn(i64, i64, i64, i64) -> bool| {
        let mut n = 0;
        for x in range.clone() {
            for y in range.clone() {
                for z in range.clone() {
                    n += (0..=2).filter(|&w| pred(x, y, z, w)).count() as u64;
                }
            }
        }
        n
    };
    let model = || {
        let mut m = Model::new();
        let lo = base as i32;
        let v = m.int_vars(3, lo..=lo + 2).unwrap();
        let w = m.int_var(0..=2).unwrap();
        (m, v[0], v[1], v[2], w)
    };
    let (mut m, x, y, z, _) = model();
    m.post((x + y + z).eq(target.clone())).unwrap();
    let want = brute(&|x, y, z, _| x + y + z == 3 * (1 << 30) - 1);
    assert_eq!(Solver::new(m).count(), want);
    let (mut m, x, y, z, w) = model();
    m.post((x + y - z + w * two_30.clone() * 4).gt(two_30.clone() * 5))
        .unwrap();
    let want = brute(&|x, y, z, w| x + y - z + w * (1 << 32) > 5 * (1 << 30));
    assert_eq!(Solver::new(m).count(), want);
    let (mut m, x, y, z, w) = model();
    let b = m.reify((x + y + z + w).le(target.clone())).unwrap();
    m.post(b).unwrap();
    let want = brute(&|x, y, z, w| x + y + z + w < 3 * (1 << 30));
    assert_eq!(Solver::new(m).count(), want);
    // Beyond 64 bits is still refused.
    let (mut m, x, y, z, _) = model();
    let huge = (0..4).fold(IntExpr::constant(1), |e, _| e * 65_536) - 1; // 2^64 - 1
    assert!(m.post((x + y + z).eq(huge)).is_err());
}

#[test]
fn an_expression_refused_before_lowering_leaves_the_model_as_it_was() {
    let mut m = Model::new();
    let x = m.int_var(0..=2).unwrap();
    let y = m.int_var(0..=2).unwrap();
    let mut other = Model::new();
    let z = other.int_var(0..=1).unwrap();
    let (vars, propagators) = (m.num_vars(), m.num_propagators());
    let huge = || (0..8).fold(IntExpr::constant(1), |e, _| e * 65_536);
    // Each would post its first parts (y != 0 for the quotient, x = 1) before meeting the
    // error, were the error not found first.
    let refused = [
        (x / y + abs(huge() * 2 - huge() + x)).eq(0),
        x.eq(1) & (huge() * 2 - huge() + x).eq(0),
        x.eq(1) & (x / y).eq(z),
        x.eq(1) & bezzel_core::expr::max(Vec::<VarId>::new()).eq(0),
        x.eq(1) & x.offset(3).eq(0).implies(x.offset(5)),
    ];
    for e in refused {
        assert!(m.post(e.clone()).is_err(), "{e:?}");
        assert!(m.reify(e.clone()).is_err(), "{e:?}");
        assert!(m.post_if(x.eq(0), e).is_err());
    }
    // A lone comparison too: reifying it makes its Boolean first.
    assert!(m.reify(x.eq(z)).is_err());
    assert!(m.reify((huge() * 2 - huge() + x).eq(0)).is_err());
    assert!(m.view_of(x / y + abs(huge() * 2 - huge())).is_err());
    assert!(m.var_of(x / y + z).is_err());
    assert_eq!((m.num_vars(), m.num_propagators()), (vars, propagators));
    assert_eq!(Solver::new(m).count(), 9);
}

#[test]
fn a_coefficient_that_overflows_on_the_way_is_refused_not_cancelled() {
    // x·2¹²⁸·2 - x·2¹²⁸ is x·2¹²⁸: no constraint takes it. Arithmetic that saturated
    // would read both terms as the same largest number, cancel them, and post `0 = 0`,
    // every x a solution where the true constraint (x·2¹²⁸ = 0) has only x = 0.
    let mut m = Model::new();
    let x = m.int_var(0..=2).unwrap();
    let huge = (0..8).fold(IntExpr::from(x), |e, _| e * 65_536);
    let err = m.post((huge.clone() * 2 - huge).eq(0)).unwrap_err();
    assert!(err.to_string().contains("64 bits"), "{err}");
    // The same on the constant side, and through a nested part.
    let c = (0..8).fold(IntExpr::constant(1), |e, _| e * 65_536);
    assert!(m.post((c.clone() * 2 - c + x).eq(0)).is_err());
    let c = (0..8).fold(IntExpr::constant(1), |e, _| e * 65_536);
    assert!(m.post(abs(c.clone() * 2 - c + x).eq(0)).is_err());
    // A view whose own arithmetic saturated is not the view it was built as.
    let saturated = IntView::from(x).scale(65_536).scale(65_536);
    assert!(m.post(saturated.eq(x * 65_536 * 65_536)).is_err());
    let far = IntView::from(x)
        .offset(i32::MIN)
        .scale(65_536)
        .scale(65_535);
    let far = far.offset(i32::MIN).offset(i32::MIN);
    assert!(m.post((x - far).eq(0)).is_err());
    assert!(m.post((x + -far).eq(0)).is_err());
    // i64::MIN % -1 is 0, not an overflow.
    let min64 = IntExpr::constant(i32::MIN) * i32::MIN * -2;
    m.post((x + min64 % IntExpr::constant(-1)).eq(1)).unwrap();
    // Large but within 64 bits on the way, and cancelled back: accepted and exact.
    let big = IntExpr::from(x) * 65_536 * 65_536 * 65_536;
    m.post((big.clone() - big + x).eq(1)).unwrap();
    // Within 64 bits term by term, beyond them while merging (2⁶² + 2⁶²), exact after.
    let half = IntExpr::from(x) * 65_536 * 65_536 * 65_536 * 16_384;
    let terms = half.clone() + half.clone() - half.clone() - half;
    m.post((terms.clone() + x + x + x).eq(3)).unwrap();
    m.post((terms + x + 2 * x).ne(0)).unwrap();
    assert_eq!(Solver::new(m).count(), 1);
}

#[test]
fn a_part_equal_to_a_variable_is_defined_onto_it_without_a_new_one() {
    let mut m = Model::new();
    let x = m.named_var("x", 0..=5).unwrap();
    let w = m.named_var("w", -3..=3).unwrap();
    m.post((w * w).eq(x)).unwrap();
    let xs = m.int_vars(3, 0..=4).unwrap();
    let top = m.named_var("top", 0..=4).unwrap();
    m.post(bezzel_core::expr::max(&xs).eq(top)).unwrap();
    assert_eq!(m.num_vars(), 6);
    let mut s = Solver::new(m);
    // w in -2..=2 with x = w², times the 5³ triples, each with its maximum as `top`.
    assert_eq!(s.count(), 5 * 125);
}

#[test]
fn relations_negate_and_mirror() {
    for r in [
        Relation::Eq,
        Relation::Ne,
        Relation::Le,
        Relation::Lt,
        Relation::Ge,
        Relation::Gt,
    ] {
        assert_eq!(r.negation().negation(), r);
        assert_eq!(r.mirrored().mirrored(), r);
        assert_ne!(r.negation(), r);
    }
}

#[test]
fn long_sums_merge_repeated_variables_as_short_ones_do() {
    // 40 terms over three variables (a map merges them) and 4 terms (a scan does): each
    // counted against the assignments that satisfy the merged sum, enumerated here.
    for (len, bound) in [(4usize, 3), (40, 30)] {
        let mut m = Model::new();
        let xs = m.int_vars(3, 0..=2).unwrap();
        let terms: Vec<IntExpr> = (0..len)
            .map(|k| (k as i32 * 3 % 7 - 2) * xs[k % 3])
            .collect();
        let weight = |i: usize| {
            (0..len)
                .filter(|k| k % 3 == i)
                .map(|k| k as i32 * 3 % 7 - 2)
                .sum::<i32>()
        };
        m.post(bezzel_core::expr::sum(terms).le(bound)).unwrap();
        let expected = (0..27)
            .filter(|a| {
                (0..3)
                    .map(|i| weight(i) * (a / 3i32.pow(i as u32) % 3))
                    .sum::<i32>()
                    <= bound
            })
            .count();
        assert_eq!(m.num_vars(), 3);
        assert_eq!(Solver::new(m).count(), expected as u64, "{len} terms");
    }
}

#[test]
fn a_common_factor_of_an_operand_is_a_coefficient_not_a_variable() {
    let mut m = Model::new();
    let x = m.named_var("x", -3..=3).unwrap();
    let y = m.named_var("y", -3..=3).unwrap();
    // One variable each, for the product and for |x - 2|: none for `3 * x` or `2x - 4`.
    m.post((3 * x * y).le(y - 4)).unwrap();
    m.post(abs(2 * x - 4).ge(4)).unwrap();
    assert_eq!(m.num_vars(), 4);
    let expected = (-3..=3)
        .flat_map(|x| (-3..=3).map(move |y| (x, y)))
        .filter(|&(x, y)| 3 * x * y <= y - 4 && (2 * x - 4i32).abs() >= 4)
        .count();
    assert!(expected > 0);
    assert_eq!(Solver::new(m).count(), expected as u64);
}

#[test]
fn a_constant_of_i64_min_moved_across_a_comparison_is_posted_not_refused() {
    // `e + i64::MIN (rel) 0` puts 2^63 on the right of the sum, beyond i64, where its
    // negation `-e (mirrored rel) i64::MIN` fits: posted, reified and enforced alike, each
    // counted against brute force over x, y in -2..=2 (and the Boolean).
    let min = || IntExpr::constant(i32::MIN) * 65_536 * 65_536;
    type Shape = (fn(VarId, VarId) -> IntExpr, fn(i128, i128) -> i128);
    let shapes: [Shape; 4] = [
        (|x, _| x.into(), |x, _| x),
        (|x, y| x - y, |x, y| x - y),
        (|x, y| 2 * x + y, |x, y| 2 * x + y),
        (
            |x, y| x * (IntExpr::constant(1 << 30) * 65_536 * 65_536) + y,
            |x, y| x * (1 << 62) + y,
        ),
    ];
    for rel in crate::brute::spec::RELATIONS {
        for (make, value) in shapes {
            let truth = |x: i128, y: i128| rel.holds(value(x, y) - (1 << 63), 0);
            let brute = |f: &dyn Fn(bool, bool) -> bool| {
                let mut n = 0;
                for x in -2..=2 {
                    for y in -2..=2 {
                        n += [false, true]
                            .into_iter()
                            .filter(|&b| f(truth(x, y), b))
                            .count() as u64;
                    }
                }
                n
            };
            for context in 0..3 {
                let mut m = Model::new();
                let x = m.int_var(-2..=2).unwrap();
                let y = m.int_var(-2..=2).unwrap();
                let b = m.bool_var().unwrap();
                let cmp = BoolExpr::compare(make(x, y) + min(), rel, 0);
                let (posted, want) = match context {
                    0 => (m.post(cmp), brute(&|t, _| t)),
                    1 => (
                        m.reify(cmp).and_then(|r| m.post(r.eq(b))),
                        brute(&|t, b| t == b),
                    ),
                    _ => (m.post_if(b, cmp), brute(&|t, b| !b || t)),
                };
                posted.unwrap_or_else(|e| panic!("{rel:?} in context {context}: {e}"));
                assert_eq!(Solver::new(m).count(), want, "{rel:?} in context {context}");
            }
        }
    }
}
