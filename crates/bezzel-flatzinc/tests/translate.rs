//! The FlatZinc reader and the output format on hand-written FlatZinc: answers checked by
//! hand, errors that name their cause. Needs no MiniZinc.

use bezzel_flatzinc::{Options, parse, run_text};

fn run(text: &str, options: &Options) -> String {
    let mut out = Vec::new();
    run_text(text, options, &mut out).expect("runs");
    String::from_utf8(out).unwrap()
}

/// SEND + MORE = MONEY as MiniZinc writes it: one answer, 9567 + 1085 = 10652.
const SEND_MORE: &str = "\
predicate fzn_all_different_int(array [int] of var int: x);
var 1..9: S :: output_var;
var 0..9: E :: output_var;
var 0..9: N :: output_var;
var 0..9: D :: output_var;
var 1..9: M :: output_var;
var 0..9: O :: output_var;
var 0..9: R :: output_var;
var 0..9: Y :: output_var;
array [1..8] of var int: all :: output_array([1..2, 1..4]) = [S,E,N,D,M,O,R,Y];
constraint fzn_all_different_int(all);
constraint int_lin_eq([1000,100,10,1,1000,100,10,1,-10000,-1000,-100,-10,-1],[S,E,N,D,M,O,R,E,M,O,N,E,Y],0);
solve :: int_search(all, input_order, indomain_min, complete) satisfy;
";

#[test]
fn send_more_money_prints_as_flatzinc_asks() {
    let out = run(
        SEND_MORE,
        &Options {
            all: true,
            ..Options::default()
        },
    );
    assert_eq!(
        out,
        "S = 9;\nE = 5;\nN = 6;\nD = 7;\nM = 1;\nO = 0;\nR = 8;\nY = 2;\n\
         all = array2d(1..2, 1..4, [9, 5, 6, 7, 1, 0, 8, 2]);\n----------\n==========\n"
    );
}

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
    // With -a every improving solution is printed, the last the optimum.
    let out = run(
        text,
        &Options {
            all: true,
            ..Options::default()
        },
    );
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
    let all = run(
        text,
        &Options {
            all: true,
            ..Options::default()
        },
    );
    assert_eq!(all.matches("----------").count(), 3);
    assert!(all.ends_with("==========\n"));
    let two = run(
        text,
        &Options {
            all: true,
            solutions: Some(2),
            ..Options::default()
        },
    );
    assert_eq!(two.matches("----------").count(), 2);
    assert!(!two.contains("=========="));
}

#[test]
fn unsupported_input_is_an_error_naming_it() {
    let float = "var 0.0..1.0: f;\nsolve satisfy;\n";
    assert!(
        parse(float)
            .unwrap_err()
            .to_string()
            .contains("float variables")
    );
    let set = "var set of 1..3: s;\nsolve satisfy;\n";
    assert!(
        parse(set)
            .unwrap_err()
            .to_string()
            .contains("set variables")
    );
    let unknown = "var 1..3: x;\nconstraint fancy_global([x]);\nsolve satisfy;\n";
    assert!(
        parse(unknown)
            .unwrap_err()
            .to_string()
            .contains("fancy_global")
    );
    let syntax = "var 1..3 x;\nsolve satisfy;\n";
    assert!(parse(syntax).unwrap_err().to_string().contains("line 1"));
    let no_solve = "var 1..3: x;\n";
    assert!(parse(no_solve).is_err());
    let wide = "var 0..100000000: x;\nsolve satisfy;\n";
    assert!(parse(wide).unwrap_err().to_string().contains('x'));
    assert!(Options::parse(["-q".to_string()]).is_err());
    let o = Options::parse(["-a", "-n", "3", "-t", "500", "f.fzn"].map(String::from)).unwrap();
    assert!(o.all && o.solutions == Some(3) && o.time_ms == Some(500));
}

#[test]
fn bounds_of_var_int_are_inferred_from_definitions() {
    // z = x * y with x, y in -3..3 has no declared bounds; it gets -9..9, and the 7 · 7
    // products are all found.
    let text = "var -3..3: x;\nvar -3..3: y;\nvar int: z :: output_var;\n\
                constraint int_times(x,y,z);\nsolve satisfy;\n";
    let out = run(
        text,
        &Options {
            all: true,
            ..Options::default()
        },
    );
    assert_eq!(out.matches("----------").count(), 49);
    assert!(out.contains("z = -9;") && out.contains("z = 9;"));
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
