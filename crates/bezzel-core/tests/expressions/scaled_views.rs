//! Scaled terms where a view goes: `k * x + c` as an operand of a product, a quotient, a
//! remainder, `abs`, `min`, `max`, an element's index or entries, the value a part is defined
//! onto, and in an all-different through `view_of`, is a scaled view of `x` with no variable
//! of its own. Each case counts the model's variables and checks its solutions against an
//! enumeration written here.

use bezzel_core::expr::{abs, element, max, min};
use bezzel_core::prelude::*;
use std::collections::BTreeSet;

const X: std::ops::RangeInclusive<i32> = -2..=2;
const Y: std::ops::RangeInclusive<i32> = -2..=2;
const Z: std::ops::RangeInclusive<i32> = -7..=7;

/// Posts `post` over `x`, `y`, `z`; checks that the model then has `vars` variables and
/// exactly the solutions where `holds` says so.
fn case(
    what: &str,
    vars: usize,
    post: impl Fn(&mut Model, VarId, VarId, VarId) -> Result<(), ModelError>,
    holds: impl Fn(i64, i64, i64) -> bool,
) {
    let mut m = Model::new();
    let x = m.named_var("x", X).unwrap();
    let y = m.named_var("y", Y).unwrap();
    let z = m.named_var("z", Z).unwrap();
    post(&mut m, x, y, z).unwrap();
    assert_eq!(m.num_vars(), vars, "{what}: variables");
    let mut solver = Solver::new(m);
    let count = solver.count();
    let found: BTreeSet<Vec<i32>> = solver
        .solution_set_of(&[x, y, z])
        .unwrap()
        .iter()
        .map(|r| r.to_vec())
        .collect();
    let mut expected = BTreeSet::new();
    for a in X {
        for b in Y {
            for c in Z {
                if holds(a.into(), b.into(), c.into()) {
                    expected.insert(vec![a, b, c]);
                }
            }
        }
    }
    assert!(!expected.is_empty(), "{what}: a case with solutions");
    assert_eq!(found, expected, "{what}: solutions");
    assert_eq!(count, expected.len() as u64, "{what}: count");
}

#[test]
fn a_scaled_operand_of_a_non_linear_part_is_a_view_and_no_variable() {
    // Three declared variables: each part is defined onto z, its operands are views.
    case(
        "(3x + 1) * y = z",
        3,
        |m, x, y, z| m.post(((3 * x + 1) * y).eq(z)),
        |x, y, z| (3 * x + 1) * y == z,
    );
    case(
        "|3x + 1| = z",
        3,
        |m, x, _, z| m.post(abs(3 * x + 1).eq(z)),
        |x, _, z| (3 * x + 1).abs() == z,
    );
    case(
        "min(3x + 1, -2y) = z",
        3,
        |m, x, y, z| m.post(min([3 * x + 1, -2 * y]).eq(z)),
        |x, y, z| (3 * x + 1).min(-2 * y) == z,
    );
    case(
        "max(3x - 1, 2y + 1) = z",
        3,
        |m, x, y, z| m.post(max([3 * x - 1, 2 * y + 1]).eq(z)),
        |x, y, z| (3 * x - 1).max(2 * y + 1) == z,
    );
    case(
        "(3x + 1) / y = z",
        3,
        |m, x, y, z| m.post(((3 * x + 1) / y).eq(z)),
        |x, y, z| y != 0 && (3 * x + 1) / y == z,
    );
    case(
        "(3x + 1) % y = z",
        3,
        |m, x, y, z| m.post(((3 * x + 1) % y).eq(z)),
        |x, y, z| y != 0 && (3 * x + 1) % y == z,
    );
    let table = [4, -1, 5, 0, 2];
    case(
        "[4, -1, 5, 0, 2][2x + 2] = z",
        3,
        |m, x, _, z| m.post(element(table, 2 * x + 2).eq(z)),
        |x, _, z| usize::try_from(2 * x + 2).is_ok_and(|i| i < 5 && i64::from(table[i]) == z),
    );
    case(
        "[2x, -3y][y + 1] = z",
        3,
        |m, x, y, z| m.post(element([2 * x, -3 * y], y + 1).eq(z)),
        |x, y, z| usize::try_from(y + 1).is_ok_and(|i| i < 2 && [2 * x, -3 * y][i] == z),
    );
}

#[test]
fn a_part_equal_to_a_scaled_term_is_defined_onto_its_view() {
    case(
        "|x| = 2y + 1",
        3,
        |m, x, y, _| m.post(abs(x).eq(2 * y + 1)),
        |x, y, _| x.abs() == 2 * y + 1,
    );
    case(
        "x * y = -3z",
        3,
        |m, x, y, z| m.post((x * y).eq(-3 * z)),
        |x, y, z| x * y == -3 * z,
    );
}

#[test]
fn scaled_views_in_an_all_different_need_no_variable() {
    // 2x + 1, -3y and z all different, and x + y + z = 0.
    case(
        "all_different(2x + 1, -3y, z)",
        3,
        |m, x, y, z| {
            let vs = [m.view_of(2 * x + 1)?, m.view_of(-3 * y)?, m.view_of(z)?];
            m.all_different(&vs)?;
            m.post((x + y + z).eq(0))
        },
        |x, y, z| {
            let (a, b, c) = (2 * x + 1, -3 * y, z);
            a != b && b != c && a != c && x + y + z == 0
        },
    );
}

#[test]
fn a_scaled_view_beyond_i32_or_scaled_by_zero_is_refused_when_posted() {
    let mut m = Model::new();
    let x = m.named_var("x", 0..=1 << 20).unwrap();
    let y = m.named_var("y", 0..=9).unwrap();
    let wide = m.all_different(&[x.scale(1 << 12), y.into()]).unwrap_err();
    assert!(wide.to_string().contains("beyond i32"), "{wide}");
    let zero = m.all_different(&[x.scale(0), y.into()]).unwrap_err();
    assert!(zero.to_string().contains("scaled by 0"), "{zero}");
    // Through an expression, a term too wide for a view is too wide for a variable too.
    let wide_term = m.view_of((1 << 12) * x).unwrap_err();
    assert!(
        wide_term.to_string().contains("more than a variable holds"),
        "{wide_term}"
    );
}
