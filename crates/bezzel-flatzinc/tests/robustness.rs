//! Input and surroundings that once crashed `fzn-bezzel`: each must end in a clear error or
//! an answer, never a panic (exit 101) or a stack overflow (exit 134).

use bezzel_flatzinc::parse;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

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
fn a_closed_output_pipe_is_not_a_panic() {
    // Many solutions, the reader gone after the first line; standard error is the same
    // closed pipe, as with `fzn-bezzel -a big.fzn 2>&1 | head -1`.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.fzn");
    std::fs::write(&path, "var 1..100000: x :: output_var;\nsolve satisfy;\n").unwrap();
    let (reader, writer) = std::io::pipe().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fzn-bezzel"))
        .arg("-a")
        .arg(&path)
        .stdout(writer.try_clone().unwrap())
        .stderr(writer)
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    {
        let mut reader = BufReader::new(reader);
        reader.read_line(&mut first).unwrap();
    }
    let status = child.wait().unwrap();
    assert_eq!(first, "x = 1;\n");
    // 101 is Rust's panic exit; a signal (no code) would be an abort.
    assert!(matches!(status.code(), Some(0 | 1)), "{status:?}");
}
