//! `var int` without bounds: bounds inferred from definitions, windows assumed (and then
//! never a claim of completeness), and `int_pow` whatever its operands.

use crate::{run, run_all};
use bezzel_flatzinc::Options;

#[test]
fn bounds_of_var_int_are_inferred_from_definitions() {
    // z = x * y with x, y in -3..3 has no declared bounds; it gets -9..9, and the 7 · 7
    // products are all found.
    let text = "var -3..3: x;\nvar -3..3: y;\nvar int: z :: output_var;\n\
                constraint int_times(x,y,z);\nsolve satisfy;\n";
    let out = run_all(text, None);
    assert_eq!(out.matches("----------").count(), 49);
    assert!(out.contains("z = -9;") && out.contains("z = 9;"));
}

#[test]
fn an_assumed_window_for_var_int_never_claims_completeness() {
    // x + y = 3000000, x - y = 2900000: x = 2950000, y = 50000 (by hand), far from where the
    // windows of these unbounded variables are put. Missing it is allowed; calling the model
    // unsatisfiable is not.
    let text = "var int: x :: output_var;\nvar int: y :: output_var;\n\
                constraint int_lin_eq([1,1],[x,y],3000000);\n\
                constraint int_lin_eq([1,-1],[x,y],2900000);\nsolve satisfy;\n";
    let out = run(text, &Options::default());
    assert!(
        out == "x = 2950000;\ny = 50000;\n----------\n" || out.ends_with("=====UNKNOWN=====\n"),
        "{out}"
    );
    assert!(!out.contains("UNSATISFIABLE"), "{out}");
    // cost >= 5000 a with a in 500..1000, as MiniZinc writes it: the optimum is a = 500,
    // cost = 2500000 (Gecode 6.2 agrees), found in a window put at the inferred lower bound
    // of cost, but not proven optimal.
    let text = "array [1..2] of int: k = [-1,5000];\nvar 500..1000: a :: output_var;\n\
                var int: cost :: output_var;\nconstraint int_lin_le(k,[cost,a],0);\n\
                solve minimize cost;\n";
    let out = run(text, &Options::default());
    assert!(
        out.contains("a = 500;\ncost = 2500000;\n----------\n"),
        "{out}"
    );
    assert!(!out.contains("=========="), "{out}");
    // x + y >= 3000000, both unbounded: each gets a window from its share.
    let text = "var int: x :: output_var;\nvar int: y :: output_var;\n\
                constraint int_lin_le([-1,-1],[x,y],-3000000);\nsolve satisfy;\n";
    let out = run(text, &Options::default());
    assert!(out.contains("----------"), "{out}");
}

#[test]
fn int_pow_defines_its_result() {
    // z = x^y, x in -2..3, y in 0..3, z declared without bounds (as MiniZinc writes x^y):
    // 6 · 4 = 24 pairs, each one solution. By hand: 2^3 = 8 and (-2)^3 = -8 are the ends.
    let text = "var -2..3: x :: output_var;\nvar 0..3: y :: output_var;\n\
                var int: z :: is_defined_var :: output_var;\n\
                constraint int_pow(x,y,z) :: defines_var(z);\nsolve satisfy;\n";
    let out = run_all(text, None);
    assert_eq!(out.matches("----------").count(), 24, "{out}");
    assert!(out.contains("x = -2;\ny = 3;\nz = -8;\n"), "{out}");
    assert!(out.contains("x = 3;\ny = 3;\nz = 27;\n"), "{out}");
    assert!(out.ends_with("==========\n"), "{out}");
}

/// The solutions of `int_pow(x, y, z)` with `x` in -1..1 and the constant exponent `y`, run
/// on another thread; `None` when that takes over 20 seconds.
fn powers_of_small_bases(y: i64) -> Option<Vec<String>> {
    let text = format!(
        "var -1..1: x :: output_var;\nvar int: z :: output_var;\n\
         constraint int_pow(x, {y}, z);\nsolve satisfy;\n"
    );
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let all = Options {
            all: true,
            ..Options::default()
        };
        let _ = send.send(run(&text, &all));
    });
    let out = receive
        .recv_timeout(std::time::Duration::from_secs(20))
        .ok()?;
    let mut solutions: Vec<String> = out
        .split("----------\n")
        .filter(|s| s.contains("x = "))
        .map(str::to_string)
        .collect();
    solutions.sort();
    Some(solutions)
}

#[test]
fn int_pow_of_a_small_base_is_immediate_whatever_the_exponent() {
    // (-1)^y is 1 for y even and -1 for y odd, 0^y = 0 and 1^y = 1 for y > 0 (by hand);
    // multiplying y times would take hours at these exponents.
    for (y, minus_one) in [
        (i64::MAX, -1),
        (i64::MAX - 1, 1),
        (1 << 40, 1),
        ((1 << 29) + 1, -1),
    ] {
        let solutions = powers_of_small_bases(y)
            .unwrap_or_else(|| panic!("int_pow(x, {y}, z) took more than 20 seconds"));
        assert_eq!(
            solutions,
            [
                format!("x = -1;\nz = {minus_one};\n"),
                "x = 0;\nz = 0;\n".to_string(),
                "x = 1;\nz = 1;\n".to_string(),
            ],
            "y = {y}"
        );
    }
}
