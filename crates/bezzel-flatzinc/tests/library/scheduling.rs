//! The scheduling globals on hand-written FlatZinc, against brute force, and the unary
//! resources found in pairs of reified precedences: found where the pairs form a clique of
//! tasks, not elsewhere, and never changing an answer.

use crate::run;
use bezzel_flatzinc::{Options, parse, parse_with};

/// Job shop pairs `(s_a + d_a <= s_b) \/ (s_b + d_b <= s_a)` as MiniZinc flattens them, for
/// tasks `(start, duration)` of one machine, with the literals named from `tag`; `clause` is
/// `or` (`array_bool_or`), `negated` (a clause with the second literal negated, which is no
/// such pair) or anything else (`bool_clause`).
fn pairs(tag: &str, tasks: &[(&str, i64)], clause: &str) -> String {
    let mut text = String::new();
    let mut k = 0;
    for (i, &(a, da)) in tasks.iter().enumerate() {
        for &(b, db) in &tasks[i + 1..] {
            let (p, q) = (format!("{tag}{k}"), format!("{tag}{}", k + 1));
            k += 2;
            text += &format!("var bool: {p};\nvar bool: {q};\n");
            text += &format!(
                "constraint int_lin_le_reif([1,-1],[{a},{b}],{},{p});\n",
                -da
            );
            text += &format!(
                "constraint int_lin_le_reif([1,-1],[{b},{a}],{},{q});\n",
                -db
            );
            text += &match clause {
                "or" => format!("constraint array_bool_or([{p},{q}],true);\n"),
                // p \/ !q: no disjunction of the two precedences.
                "negated" => format!("constraint bool_clause([{p}],[{q}]);\n"),
                _ => format!("constraint bool_clause([{p},{q}],[]);\n"),
            };
        }
    }
    text
}

/// Two machines of three tasks (one stated with `array_bool_or`, one with `bool_clause`),
/// all starts in 0..`horizon`.
fn two_machines(horizon: i64) -> String {
    let mut text = String::new();
    for s in ["a", "b", "c", "d", "e", "f"] {
        text += &format!("var 0..{horizon}: {s} :: output_var;\n");
    }
    text += &pairs("p", &[("a", 2), ("b", 1), ("c", 3)], "or");
    text += &pairs("q", &[("d", 1), ("e", 2), ("f", 2)], "clause");
    text += "solve satisfy;\n";
    text
}

/// Brute force: the assignments of starts in 0..=horizon where no two tasks of a machine
/// overlap.
fn brute_two_machines(horizon: i64) -> u64 {
    let machine = |tasks: &[(i64, i64)]| {
        tasks.iter().enumerate().all(|(i, &(s, d))| {
            tasks[i + 1..]
                .iter()
                .all(|&(t, e)| s + d <= t || t + e <= s)
        })
    };
    let mut count = 0;
    let range = || 0..=horizon;
    for a in range() {
        for b in range() {
            for c in range() {
                if !machine(&[(a, 2), (b, 1), (c, 3)]) {
                    continue;
                }
                for d in range() {
                    for e in range() {
                        for f in range() {
                            count += u64::from(machine(&[(d, 1), (e, 2), (f, 2)]));
                        }
                    }
                }
            }
        }
    }
    count
}

#[test]
fn each_machine_of_pairs_gets_one_implied_disjunctive() {
    let program = parse(&two_machines(6)).expect("translates");
    assert_eq!(program.implied_disjunctives, 2);
    // Unless they are switched off (--no-implied-disjunctives).
    let program = parse_with(&two_machines(6), false).expect("translates");
    assert_eq!(program.implied_disjunctives, 0);
}

#[test]
fn implied_disjunctives_change_no_count() {
    for no_implied_disjunctives in [false, true] {
        let out = run(
            &two_machines(6),
            &Options {
                all: true,
                no_implied_disjunctives,
                ..Options::default()
            },
        );
        let found = out.matches("----------").count() as u64;
        assert_eq!(found, brute_two_machines(6));
    }
}

#[test]
fn pairs_that_form_no_clique_get_no_disjunctive() {
    // a-b, b-c and c-a of different durations per side: (a,2) meets (c,1), not (c,3).
    let mut text = String::new();
    for s in ["a", "b", "c", "d"] {
        text += &format!("var 0..6: {s};\n");
    }
    text += &pairs("p", &[("a", 2), ("b", 1)], "or");
    text += &pairs("q", &[("b", 1), ("c", 3)], "or");
    text += &pairs("r", &[("c", 1), ("a", 2)], "or");
    // A chain a-b-c-d of one duration each: no three tasks pairwise apart.
    text += &pairs("s", &[("a", 1), ("d", 1)], "or");
    text += "solve satisfy;\n";
    let program = parse(&text).expect("translates");
    assert_eq!(program.implied_disjunctives, 0);
}

#[test]
fn a_clause_with_a_negative_literal_keeps_nothing_apart() {
    // bool_clause([p], [q]) is p \/ !q: no disjunction of the two precedences.
    let mut text = String::new();
    for s in ["a", "b", "c"] {
        text += &format!("var 0..6: {s};\n");
    }
    text += &pairs("p", &[("a", 2), ("b", 1), ("c", 3)], "negated");
    text += "solve satisfy;\n";
    let program = parse(&text).expect("translates");
    assert_eq!(program.implied_disjunctives, 0);
}

#[test]
fn native_disjunctive_and_cumulative_count_as_brute_force() {
    // bezzel_disjunctive over 0..3 with durations 2, 1, 0 (the last may go anywhere), and
    // bezzel_cumulative of heights 1, 2, 1 and durations 2, 1, 2 on a capacity of 2.
    let disjunctive = "\
var 0..3: x;
var 0..3: y;
var 0..3: z;
array [1..3] of var 0..3: s :: output_array([1..3]) = [x, y, z];
constraint bezzel_disjunctive([x,y,z],[2,1,0]);
solve satisfy;
";
    let cumulative = "\
var 0..3: x;
var 0..3: y;
var 0..3: z;
array [1..3] of var 0..3: s :: output_array([1..3]) = [x, y, z];
constraint bezzel_cumulative([x,y,z],[2,1,2],[1,2,1],2);
solve satisfy;
";
    let brute = |ok: &dyn Fn(&[i64; 3]) -> bool| {
        let mut count = 0;
        for x in 0..=3 {
            for y in 0..=3 {
                for z in 0..=3 {
                    count += u64::from(ok(&[x, y, z]));
                }
            }
        }
        count
    };
    let apart = |s: &[i64; 3]| {
        let d = [2, 1, 0];
        (0..3).all(|i| {
            (i + 1..3).all(|j| d[i] == 0 || d[j] == 0 || s[i] + d[i] <= s[j] || s[j] + d[j] <= s[i])
        })
    };
    let fits = |s: &[i64; 3]| {
        let (d, h) = ([2, 1, 2], [1, 2, 1]);
        (0..6).all(|t| {
            (0..3)
                .filter(|&i| s[i] <= t && t < s[i] + d[i])
                .map(|i| h[i])
                .sum::<i64>()
                <= 2
        })
    };
    let all = Options {
        all: true,
        ..Options::default()
    };
    for (text, ok) in [
        (disjunctive, &apart as &dyn Fn(&[i64; 3]) -> bool),
        (cumulative, &fits),
    ] {
        let found = run(text, &all).matches("----------").count() as u64;
        assert_eq!(found, brute(ok), "{text}");
    }
}
