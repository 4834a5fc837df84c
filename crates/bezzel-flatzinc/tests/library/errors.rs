//! Input Bezzel cannot run: each an error of its own kind that names the cause and where it
//! is, never a panic.

use bezzel_flatzinc::{FznError, parse};

#[test]
fn unsupported_input_is_an_error_naming_it() {
    for (text, needle) in [
        ("var 0.0..1.0: f;\nsolve satisfy;\n", "float variables"),
        ("var set of 1..3: s;\nsolve satisfy;\n", "set variables"),
        (
            "var 1..3: x;\nconstraint fancy_global([x]);\nsolve satisfy;\n",
            "fancy_global",
        ),
        ("var 1..3 x;\nsolve satisfy;\n", "line 1"),
        ("var 0..100000000: x;\nsolve satisfy;\n", "x"),
    ] {
        let message = parse(text).unwrap_err().to_string();
        assert!(message.contains(needle), "{text:?}: {message}");
    }
    let no_solve = "var 1..3: x;\n";
    assert!(parse(no_solve).is_err());
}

#[test]
fn a_name_declared_twice_is_an_error() {
    for text in [
        "var 1..2: x :: output_var;\nvar 1..3: x :: output_var;\nsolve satisfy;\n",
        "int: k = 1;\nvar 1..3: k;\nsolve satisfy;\n",
        "var 1..2: x;\narray [1..1] of var int: x = [x];\nsolve satisfy;\n",
    ] {
        let e = parse(text).unwrap_err().to_string();
        assert!(e.contains("declared twice"), "{text}: {e}");
    }
}

#[test]
fn an_automaton_whose_table_size_overflows_is_an_error() {
    for (q, s, table) in [
        ("4611686018427387904", "4", "[]"),
        ("3", "6148914691236517206", "[1,1]"),
    ] {
        let text = format!(
            "var 1..2: x :: output_var;\n\
             constraint fzn_regular([x],{q},{s},{table},1,{{1}});\nsolve satisfy;\n"
        );
        let e = parse(&text).unwrap_err().to_string();
        assert!(e.contains("automaton"), "{e}");
    }
}

#[test]
fn deeply_nested_annotations_are_refused_not_overflowed() {
    let nest = |n: usize| {
        format!(
            "var 0..9: x :: output_var;\nsolve :: {}int_search([x],input_order,indomain_min,complete){} satisfy;\n",
            "seq_search([".repeat(n),
            "])".repeat(n)
        )
    };
    let e = parse(&nest(10_000)).unwrap_err().to_string();
    assert!(e.contains("nested"), "{e}");
    // A few levels, as MiniZinc writes them, are fine.
    assert!(parse(&nest(3)).is_ok());
}

#[test]
fn a_known_builtin_with_the_wrong_arity_says_so() {
    let text =
        "var 1..3: x :: output_var;\nvar 1..3: y;\n\nconstraint int_le(x, y, x);\nsolve satisfy;\n";
    let e = parse(text).unwrap_err();
    assert!(
        matches!(&e, FznError::Arity { line: 4, name, expected, found: 3 }
            if name == "int_le" && expected == &[2]),
        "{e:?}"
    );
    let message = e.to_string();
    assert!(
        message.contains("line 4") && message.contains("takes 2 arguments, not 3"),
        "{message}"
    );
    // bool_xor has two forms; neither takes one argument.
    let text = "var bool: a;\nconstraint bool_xor(a);\nsolve satisfy;\n";
    let message = parse(text).unwrap_err().to_string();
    assert!(
        message.contains("takes 2 or 3 arguments, not 1"),
        "{message}"
    );
    // An unknown name is another error.
    let text = "var 1..3: x;\nconstraint int_lee(x, x);\nsolve satisfy;\n";
    assert!(
        matches!(parse(text).unwrap_err(), FznError::UnknownBuiltin { line: 2, name } if name == "int_lee")
    );
}

#[test]
fn a_definition_with_the_wrong_arity_is_an_error_not_a_panic() {
    // The bounds of `z` are inferred from the calls that define it, before they are posted:
    // calls of the wrong shape must reach the arity check, not index past their arguments.
    for call in [
        "int_lin_eq([1, -1], [x, z])",
        "int_plus(x, z)",
        "int_times(z)",
        "int_pow(x, z)",
        "array_int_element(z)",
        "int_abs(z)",
        "bool_lin_eq([1], [a])",
        "int_lin_le([1, 1])",
    ] {
        let text = format!(
            "var 1..3: x;\nvar bool: a;\nvar int: z :: output_var;\nconstraint {call};\nsolve satisfy;\n"
        );
        let e = parse(&text).unwrap_err();
        assert!(
            matches!(e, FznError::Arity { line: 4, .. }),
            "{call}: {e:?}"
        );
    }
}

#[test]
fn a_bool_where_an_int_is_expected_is_a_type_error() {
    let text =
        "var bool: b;\nvar 0..3: x :: output_var;\nconstraint int_le(b, x);\nsolve satisfy;\n";
    let e = parse(text).unwrap_err();
    assert!(
        matches!(&e, FznError::Type { line: 3, name, position: 1, expected, .. }
            if name == "int_le" && expected == "var int"),
        "{e:?}"
    );
    let message = e.to_string();
    assert!(
        message.contains("`b`") && message.contains("var bool"),
        "{message}"
    );
    // And the other way round, in an array, and a variable where a constant is expected.
    for (text, position) in [
        (
            "var 0..1: x;\nvar bool: b;\nconstraint bool_and(b, x, b);\nsolve satisfy;\n",
            2,
        ),
        (
            "var bool: b;\nvar 0..3: x;\nconstraint int_lin_le([1, 1], [x, b], 2);\nsolve satisfy;\n",
            2,
        ),
        (
            "var 0..3: x;\nconstraint int_lin_le([1, x], [x, x], 2);\nsolve satisfy;\n",
            1,
        ),
        (
            "var 0..3: x;\nconstraint set_in(x, x);\nsolve satisfy;\n",
            2,
        ),
    ] {
        let e = parse(text).unwrap_err();
        assert!(
            matches!(e, FznError::Type { position: p, .. } if p == position),
            "{text}: {e:?}"
        );
    }
}

#[test]
fn a_non_ascii_character_is_reported_where_it_is() {
    let text = "var 1..3: x;\nvar 1..3: yé :: output_var;\nsolve satisfy;\n";
    let e = parse(text).unwrap_err();
    assert!(
        matches!(&e, FznError::Parse { line: 2, column: 12, message } if message.contains('é')),
        "{e:?}"
    );
    let message = e.to_string();
    assert!(message.starts_with("line 2, column 12:"), "{message}");
    assert!(!message.contains("end of file"), "{message}");
    // In a string literal or a comment, such characters are text, not names.
    let text = "% café\nvar 1..3: x :: output_var;\n% naïve\nsolve satisfy;\n";
    assert!(parse(text).is_ok());
}

#[test]
fn a_syntax_error_names_its_line_and_what_is_there() {
    let text = "var 1..3: x;\n\nconstraint int_le(x, 3;\nsolve satisfy;\n";
    let e = parse(text).unwrap_err();
    assert!(
        matches!(
            &e,
            FznError::Parse {
                line: 3,
                column: 23,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("`;`"), "{e}");
    let text = "var 1..3: x;\nsolve satisfy";
    assert!(matches!(
        parse(text).unwrap_err(),
        FznError::Parse { line: 2, .. }
    ));
}

#[test]
fn an_array_shorter_than_its_index_set_is_refused() {
    for text in [
        "var 1..3: x;\narray [1..3] of var int: a :: output_array([1..3]) = [x, x];\nsolve satisfy;\n",
        "var bool: b;\narray [1..3] of var bool: a = [b, b];\nsolve satisfy;\n",
        "array [1..3] of int: k = [1, 2];\nsolve satisfy;\n",
        "var 1..3: x;\narray [1..2] of var int: a = [x, x, x];\nsolve satisfy;\n",
    ] {
        let e = parse(text).unwrap_err();
        let line = text.lines().position(|l| l.starts_with("array")).unwrap() + 1;
        assert!(
            matches!(e, FznError::Invalid { line: l, .. } if l == line),
            "{text}: {e:?}"
        );
        let message = e.to_string();
        assert!(message.contains("elements"), "{message}");
    }
    // An output annotation whose index sets do not hold the array: refused too.
    let text = "var 1..3: x;\narray [1..2] of var int: a :: output_array([1..2, 1..2]) = [x, x];\nsolve satisfy;\n";
    let e = parse(text).unwrap_err();
    assert!(
        e.to_string()
            .contains("needs 4 elements, but the array has 2"),
        "{e}"
    );
}

/// FlatZinc integers are `i64`; Bezzel's models take `i32` values. An integer beyond `i32`
/// where a model needs the value (a coefficient, a constant, an array, a table, a count) is
/// an error that names it, never a value wrapped into another one.
#[test]
fn an_integer_beyond_i32_where_a_value_is_needed_is_an_error_naming_it() {
    let far = "3000000000";
    for constraint in [
        format!("int_lin_le([{far}, 1], [x, y], 5)"),
        format!("int_lin_eq([1, 1], [x, y], -{far})"),
        format!("int_lin_le_reif([1, 1], [x, y], {far}, b)"),
        format!("array_int_element(x, [1, {far}], y)"),
        format!("fzn_table_int([x, y], [1, 2, {far}, 1])"),
        format!("bezzel_count([x, y], {far}, x)"),
        format!("bezzel_disjunctive([x, y], [1, {far}])"),
    ] {
        let text = format!(
            "var 1..2: x :: output_var;\nvar 1..2: y :: output_var;\n\
             var bool: b :: output_var;\nconstraint {constraint};\nsolve satisfy;\n"
        );
        let e = parse(&text).unwrap_err();
        let message = e.to_string();
        assert!(
            matches!(e, FznError::Invalid { .. }) && message.contains(far),
            "{constraint}: {message}"
        );
        assert!(message.contains("2147483647"), "{constraint}: {message}");
    }
}

#[test]
fn a_boxed_error_prints_its_message_where_main_shows_it() {
    let e = parse("var 1..3 x;\nsolve satisfy;\n").unwrap_err();
    let message = e.to_string();
    let shown = format!("{:?}", Box::<dyn std::error::Error>::from(e));
    assert_eq!(shown, format!("FznError: {message}"));
    assert!(shown.contains("line 1"), "{shown}");
}
