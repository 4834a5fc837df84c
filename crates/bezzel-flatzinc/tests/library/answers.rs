//! Answers on hand-written FlatZinc, checked by hand or by brute force: optima, unsatisfiable
//! models, solution limits, restarts, edge cases of the globals, parallel branch and bound.

use crate::{run, run_all};
use bezzel_core::Neighbourhood;
use bezzel_flatzinc::Options;

#[test]
fn an_optimum_is_printed_once_and_proven() {
    // The cheapest x + 2y with x + y >= 5, x, y in 0..4: x = 4, y = 1, cost 6 (by hand).
    let text = "\
var 0..4: x :: output_var;
var 0..4: y :: output_var;
var int: cost :: output_var :: is_defined_var;
constraint int_lin_le([-1,-1],[x,y],-5);
constraint int_lin_eq([1,2,-1],[x,y,cost],0) :: defines_var(cost);
solve minimize cost;
";
    let out = run(text, &Options::default());
    assert_eq!(out, "x = 4;\ny = 1;\ncost = 6;\n----------\n==========\n");
    // Learning from failures (--learning: LNS whose parts learn; with --no-lns, branch and
    // bound that learns) proves the same optimum.
    for no_lns in [false, true] {
        let learning = Options {
            learning: true,
            no_lns,
            ..Options::default()
        };
        assert_eq!(run(text, &learning), out, "--no-lns {no_lns}");
    }
    // With -a every improving solution is printed, the last the optimum.
    let out = run_all(text, None);
    assert!(
        out.ends_with("cost = 6;\n----------\n==========\n"),
        "{out}"
    );
    // With -s, statistics lines.
    let out = run(
        text,
        &Options {
            stats: true,
            ..Options::default()
        },
    );
    assert!(out.contains("%%%mzn-stat: objective=6\n"), "{out}");
}

#[test]
fn unsatisfiable_and_booleans() {
    let text = "\
var bool: a :: output_var;
var bool: b :: output_var;
constraint bool_clause([a],[b]);
constraint bool_clause([b],[]);
constraint bool_clause([],[a]);
solve satisfy;
";
    assert_eq!(run(text, &Options::default()), "=====UNSATISFIABLE=====\n");
    let learning = Options {
        learning: true,
        ..Options::default()
    };
    assert_eq!(run(text, &learning), "=====UNSATISFIABLE=====\n");
    let text = "var bool: a :: output_var;\nvar {1,3,5}: x :: output_var;\n\
                constraint bool_eq(a,true);\nsolve :: int_search([x], input_order, indomain_max, complete) satisfy;\n";
    assert_eq!(
        run(text, &Options::default()),
        "a = true;\nx = 5;\n----------\n"
    );
}

#[test]
fn solution_limit_and_count() {
    // Three values in {1,3,5} for one variable: -a finds 3, -n 2 stops after two.
    let text = "var {1,3,5}: x :: output_var;\nsolve satisfy;\n";
    let all = run_all(text, None);
    assert_eq!(all.matches("----------").count(), 3);
    assert!(all.ends_with("==========\n"));
    let two = run_all(text, Some(2));
    assert_eq!(two.matches("----------").count(), 2);
    assert!(!two.contains("=========="));
}

#[test]
fn restart_luby_finds_one_solution_or_proves_none() {
    let sat = "var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\nconstraint int_lt(x,y);\n\
               solve :: restart_luby(50) satisfy;\n";
    assert_eq!(
        run(sat, &Options::default()),
        "x = 1;\ny = 2;\n----------\n"
    );
    let unsat = "var 1..3: x;\nvar 1..3: y;\nconstraint int_lt(x,y);\nconstraint int_lt(y,x);\n\
                 solve :: restart_luby(50) satisfy;\n";
    assert_eq!(run(unsat, &Options::default()), "=====UNSATISFIABLE=====\n");
}

#[test]
fn a_constant_outside_its_declared_domain_has_no_solution() {
    // Each declares a variable equal to a constant its domain excludes (by hand: unsatisfiable).
    for text in [
        "var 1..3: x :: output_var = 5;\nsolve satisfy;\n",
        "var {1,3}: x :: output_var = 2;\nsolve satisfy;\n",
        "var 1..3: x :: output_var;\narray [1..1] of var 1..3: a :: output_array([1..1]) = [7];\nsolve satisfy;\n",
        "array [1..2] of var {1,4}: a :: output_array([1..2]) = [1,3];\nsolve satisfy;\n",
    ] {
        assert_eq!(
            run(text, &Options::default()),
            "=====UNSATISFIABLE=====\n",
            "{text}"
        );
    }
    // Inside the domain, the constant is the answer.
    let text = "var 1..3: x :: output_var = 2;\nsolve satisfy;\n";
    assert!(run(text, &Options::default()).starts_with("x = 2;\n----------\n"));
}

#[test]
fn valid_edge_cases_are_answered_not_refused() {
    let all = Options {
        all: true,
        ..Options::default()
    };
    // global_cardinality with cover [1, 1]: both counts are the number of 1s (the documented
    // meaning; MiniZinc's own decomposition adds "length(x) >= sum(counts)", which is implied
    // only for distinct cover values). By hand: x, y in 1..2 give 4 solutions.
    let text = "var 1..2: x;\nvar 1..2: y;\nvar 0..2: c1 :: output_var;\nvar 0..2: c2 :: output_var;\n\
                constraint fzn_global_cardinality([x,y],[1,1],[c1,c2]);\nsolve satisfy;\n";
    let out = run(text, &all);
    assert_eq!(out.matches("----------").count(), 4, "{out}");
    assert!(
        out.contains("c1 = 2;\nc2 = 2;") && out.ends_with("==========\n"),
        "{out}"
    );
    // An element whose index can take no position of the array: no solution, not an error.
    let text = "var {-1,2,3}: i :: output_var;\nvar bool: b :: output_var;\n\
                constraint array_bool_element(i,[false],b);\nsolve satisfy;\n";
    assert_eq!(run(text, &all), "=====UNSATISFIABLE=====\n");
    let text = "var -3..0: i :: output_var;\nvar 0..5: v :: output_var;\n\
                constraint array_var_int_element(i,[v,v],v);\nsolve satisfy;\n";
    assert_eq!(run(text, &all), "=====UNSATISFIABLE=====\n");
    // lex on arrays of different lengths (MiniZinc's definition): [a, b] <=lex [c] holds
    // when a < c; a prefix that is equal is enough only for the shorter array first. By hand.
    let text = "var 0..1: a :: output_var;\nvar 0..1: b :: output_var;\nvar 0..1: c :: output_var;\n\
                constraint fzn_lex_lesseq_int([a,b],[c]);\nsolve satisfy;\n";
    assert_eq!(run(text, &all).matches("----------").count(), 2);
    let text = "var 0..1: a :: output_var;\nvar 0..1: c :: output_var;\nvar 0..1: d :: output_var;\n\
                constraint fzn_lex_less_int([a],[c,d]);\nsolve satisfy;\n";
    assert_eq!(run(text, &all).matches("----------").count(), 6); // a <= c
    let text = "var 0..1: a :: output_var;\nconstraint fzn_lex_less_int([a],[]);\nsolve satisfy;\n";
    assert_eq!(run(text, &all), "=====UNSATISFIABLE=====\n");
    // value_precede(2, 2, x): by MiniZinc's definition, 2 does not occur. By hand: 1 of 4.
    let text = "var 1..2: x :: output_var;\nvar 1..2: y :: output_var;\n\
                constraint fzn_value_precede_int(2,2,[x,y]);\nsolve satisfy;\n";
    assert_eq!(run(text, &all), "x = 1;\ny = 1;\n----------\n==========\n");
}

#[test]
fn an_unbounded_objective_starts_at_its_best_side() {
    // maximize x with x <= y, y in 1..5, x unbounded: the optimum is 5 (by hand). Ten
    // improving solutions are enough to reach it (improving one value at a time from the
    // bottom of an assumed window would take millions).
    let text = "array [1..2] of int: k = [1,-1];\nvar 1..5: y :: output_var;\n\
                var int: x :: output_var;\nconstraint int_lin_le(k,[x,y],0);\nsolve maximize x;\n";
    let out = run_all(text, Some(10));
    let last = out.rsplit("----------").nth(1).unwrap_or("");
    assert!(last.contains("x = 5;"), "{out}");
    // The same with int_le, and minimizing from below.
    let text = "var 1..5: y :: output_var;\nvar int: x :: output_var;\nconstraint int_le(y,x);\n\
                solve minimize x;\n";
    let out = run(text, &Options::default());
    assert!(out.contains("x = 1;\n----------\n"), "{out}");
}

/// Five different values in 0..6 with 3a + 5b + 2c + 7d + 4e >= 40, minimising
/// 4a + 2b + 6c + 3d + 5e (coefficients chosen so that the optimum is not at a corner).
const WEIGHTED_DISTINCT: &str = "\
predicate fzn_all_different_int(array [int] of var int: x);
var 0..6: a :: output_var;
var 0..6: b :: output_var;
var 0..6: c :: output_var;
var 0..6: d :: output_var;
var 0..6: e :: output_var;
var 0..200: cost :: output_var;
constraint fzn_all_different_int([a,b,c,d,e]);
constraint int_lin_le([-3,-5,-2,-7,-4],[a,b,c,d,e],-40);
constraint int_lin_eq([4,2,6,3,5,-1],[a,b,c,d,e,cost],0);
solve :: int_search([a,b,c,d,e], input_order, indomain_max, complete) minimize cost;
";

#[test]
fn parallel_branch_and_bound_finds_the_brute_force_optimum() {
    let text = WEIGHTED_DISTINCT;
    let mut best = i64::MAX;
    for code in 0..7i64.pow(5) {
        let v: Vec<i64> = (0..5).map(|i| code / 7i64.pow(i) % 7).collect();
        let distinct = (0..5).all(|i| (0..i).all(|j| v[i] != v[j]));
        if distinct && 3 * v[0] + 5 * v[1] + 2 * v[2] + 7 * v[3] + 4 * v[4] >= 40 {
            best = best.min(4 * v[0] + 2 * v[1] + 6 * v[2] + 3 * v[3] + 5 * v[4]);
        }
    }
    for threads in [2, 3] {
        let out = run(
            text,
            &Options {
                all: true,
                threads,
                ..Options::default()
            },
        );
        assert!(out.ends_with("----------\n==========\n"), "{out}");
        let costs: Vec<i64> = out
            .lines()
            .filter_map(|l| l.strip_prefix("cost = "))
            .map(|v| v.trim_end_matches(';').parse().unwrap())
            .collect();
        assert_eq!(costs.last(), Some(&best), "{threads} threads: {out}");
        assert!(
            costs.windows(2).all(|w| w[1] < w[0]),
            "not improving: {costs:?}"
        );
        // Without -a, only the optimum.
        let out = run(
            text,
            &Options {
                threads,
                ..Options::default()
            },
        );
        assert_eq!(out.matches("----------").count(), 1, "{out}");
        assert!(out.contains(&format!("cost = {best};")), "{out}");
    }
}

#[test]
fn lns_of_every_kind_prints_checked_improving_solutions_and_proves_the_optimum() {
    let text = WEIGHTED_DISTINCT;
    let cost = |v: &[i64]| 4 * v[0] + 2 * v[1] + 6 * v[2] + 3 * v[3] + 5 * v[4];
    let feasible = |v: &[i64]| {
        v.iter().all(|x| (0..=6).contains(x))
            && (0..5).all(|i| (0..i).all(|j| v[i] != v[j]))
            && 3 * v[0] + 5 * v[1] + 2 * v[2] + 7 * v[3] + 4 * v[4] >= 40
    };
    let best = (0..7i64.pow(5))
        .map(|code| (0..5).map(|i| code / 7i64.pow(i) % 7).collect::<Vec<i64>>())
        .filter(|v| feasible(v))
        .map(|v| cost(&v))
        .min()
        .unwrap();
    for kind in [
        Neighbourhood::Random,
        Neighbourhood::PropagationGuided,
        Neighbourhood::Adaptive,
    ] {
        for (seed, free) in [(1, false), (2, true), (-3, false)] {
            let options = Options {
                all: true,
                lns: true,
                neighbourhood: kind,
                // No branch and bound first, which would prove so small a model by itself.
                lns_first_nodes: Some(0),
                seed: Some(seed),
                free,
                ..Options::default()
            };
            let out = run(text, &options);
            assert!(out.ends_with("----------\n==========\n"), "{out}");
            let mut costs = Vec::new();
            for block in out.split("----------\n").filter(|b| b.contains("cost")) {
                let value = |name: &str| -> i64 {
                    let line = block
                        .lines()
                        .find_map(|l| l.strip_prefix(&format!("{name} = ")))
                        .unwrap_or_else(|| panic!("no {name} in {block}"));
                    line.trim_end_matches(';').parse().unwrap()
                };
                let v: Vec<i64> = ["a", "b", "c", "d", "e"].map(value).to_vec();
                assert!(feasible(&v), "{kind:?}: {v:?} is not a solution");
                assert_eq!(value("cost"), cost(&v), "{kind:?}: {block}");
                costs.push(cost(&v));
            }
            assert_eq!(costs.last(), Some(&best), "{kind:?} seed {seed}: {out}");
            assert!(costs.windows(2).all(|w| w[1] < w[0]), "{costs:?}");
            // A seed is one sequence of solutions.
            assert_eq!(run(text, &options), out, "{kind:?} seed {seed}");
        }
    }
}

/// The `nodes=` statistic of a run with `-s`.
fn nodes_of(out: &str) -> u64 {
    out.lines()
        .find_map(|l| l.strip_prefix("%%%mzn-stat: nodes="))
        .unwrap_or_else(|| panic!("no node count in {out}"))
        .parse()
        .unwrap()
}

#[test]
fn a_node_limit_stops_every_kind_of_search_unproven() {
    let grid = "var 1..9: x :: output_var;\nvar 1..9: y :: output_var;\nsolve satisfy;\n";
    let all = Options {
        all: true,
        stats: true,
        ..Options::default()
    };
    let searches = [
        (grid, all.clone()),
        (
            WEIGHTED_DISTINCT,
            Options {
                no_lns: true,
                ..all.clone()
            },
        ),
        (
            WEIGHTED_DISTINCT,
            Options {
                lns_first_nodes: Some(0),
                ..all.clone()
            },
        ),
        (
            WEIGHTED_DISTINCT,
            Options {
                threads: 2,
                ..all.clone()
            },
        ),
    ];
    for (i, (text, options)) in searches.iter().enumerate() {
        // Unlimited, each proves its answer (all 81 points of the grid, the optimum) in more
        // nodes than the limit below allows.
        let whole = run(text, options);
        assert!(whole.contains("==========\n"), "search {i}: {whole}");
        let limit = 4;
        assert!(nodes_of(&whole) > limit, "search {i}: {whole}");
        let cut = run(
            text,
            &Options {
                node_limit: Some(limit),
                ..options.clone()
            },
        );
        // It stops at the limit exactly, failed right branches counted as nodes too.
        assert_eq!(nodes_of(&cut), limit, "search {i}: {cut}");
        assert!(!cut.contains("=========="), "search {i}: {cut}");
    }
}

#[test]
fn bool2int_makes_one_variable_of_the_pair_and_keeps_every_answer() {
    // b1 \/ !b2, x1 + x2 + y <= 3 with xi = bool2int(bi), y in 0..3; x2 may be declared
    // before its Boolean (no alias then: an equality), and x1 in a wider domain.
    let text = |x2_first: bool, x1_dom: &str| {
        let x2 = "var 0..1: x2 :: output_var;\n";
        format!(
            "{}var bool: b1 :: output_var;\nvar bool: b2 :: output_var;\n\
             var {x1_dom}: x1 :: output_var;\n{}var 0..3: y :: output_var;\n\
             constraint bool_clause([b1],[b2]);\n\
             constraint int_lin_le([1,1,1],[x1,x2,y],3);\n\
             constraint bool2int(b1,x1);\nconstraint bool2int(b2,x2);\nsolve satisfy;\n",
            if x2_first { x2 } else { "" },
            if x2_first { "" } else { x2 },
        )
    };
    let mut expected = Vec::new();
    for b1 in 0..=1 {
        for b2 in 0..=1 {
            for y in 0..=3 {
                if (b1 == 1 || b2 == 0) && b1 + b2 + y <= 3 {
                    expected.push((b1, b2, y));
                }
            }
        }
    }
    let read = |out: &str| -> Vec<(i64, i64, i64)> {
        let mut found: Vec<(i64, i64, i64)> = out
            .split("----------\n")
            .filter(|b| b.contains("y = "))
            .map(|block| {
                let value = |name: &str| -> String {
                    block
                        .lines()
                        .find_map(|l| l.strip_prefix(&format!("{name} = ")))
                        .unwrap()
                        .trim_end_matches(';')
                        .to_string()
                };
                let bit = |name: &str| i64::from(value(name) == "true");
                let (b1, b2) = (bit("b1"), bit("b2"));
                // Each integer prints as a number, equal to its Boolean.
                assert_eq!(value("x1"), b1.to_string(), "{block}");
                assert_eq!(value("x2"), b2.to_string(), "{block}");
                (b1, b2, value("y").parse().unwrap())
            })
            .collect();
        found.sort();
        found
    };
    for (x2_first, x1_dom, vars) in [(false, "0..1", 3), (true, "-2..5", 4)] {
        let text = text(x2_first, x1_dom);
        let out = run_all(&text, None);
        assert_eq!(read(&out), expected, "{text}");
        assert!(out.ends_with("==========\n"));
        // One variable for each Boolean declared before its integer.
        let program = bezzel_flatzinc::parse(&text).unwrap();
        assert_eq!(program.model.num_vars(), vars, "{text}");
    }
}

/// FlatZinc for 7 pigeons `q` in 6 holes, or in 7 when `cost` is 1 (binary `!=` apart), and
/// 14 Booleans nothing constrains, searched first by the annotation: the optimum, cost 1,
/// comes at once, and its proof costs the stated order a pigeonhole refutation under each of
/// the 2^14 settings of the Booleans.
fn pigeons_behind_noise_fzn() -> String {
    let mut text = String::new();
    for i in 0..14 {
        text += &format!("var 0..1: b{i};\n");
    }
    for i in 0..7 {
        text += &format!("var 0..6: q{i};\n");
    }
    text += "var 0..1: cost :: output_var;\n";
    for i in 0..7 {
        text += &format!("constraint int_lin_le([1, -1], [q{i}, cost], 5);\n");
        for j in i + 1..7 {
            text += &format!("constraint int_ne(q{i}, q{j});\n");
        }
    }
    let order: Vec<String> = (0..14)
        .map(|i| format!("b{i}"))
        .chain((0..7).map(|i| format!("q{i}")))
        .chain(["cost".to_string()])
        .collect();
    text += &format!(
        "solve :: int_search([{}], input_order, indomain_min, complete) minimize cost;\n",
        order.join(", ")
    );
    text
}

#[test]
fn annotated_optimisation_is_proven_by_its_free_complete_runs() {
    let text = pigeons_behind_noise_fzn();
    for free_proofs in [true, false] {
        let options = Options {
            node_limit: Some(300_000),
            no_free_proofs: !free_proofs,
            ..Options::default()
        };
        let out = run(&text, &options);
        assert!(out.starts_with("cost = 1;\n----------\n"), "{out}");
        // Proven (`==========`) only when every other complete run may search freely: the
        // annotation's order alone needs far more than 300,000 nodes.
        assert_eq!(out.contains("=========="), free_proofs, "{out}");
    }
}
