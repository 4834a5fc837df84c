//! The library on hand-written FlatZinc: the builtins against Gecode's counts, answers
//! checked by hand or brute force, bounds inference, the output format, and errors that name
//! their cause. Needs no MiniZinc.

mod answers;
mod bounds;
mod builtins;
mod errors;
mod output;
mod scheduling;

use bezzel_flatzinc::{Options, run_text};

/// The output of a run that must succeed.
fn run(text: &str, options: &Options) -> String {
    let mut out = Vec::new();
    run_text(text, options, &mut out).expect("runs");
    String::from_utf8(out).unwrap()
}

/// [`run`] with `-a`: every solution, or every improving one, up to `solutions` (`-n`).
fn run_all(text: &str, solutions: Option<u64>) -> String {
    let options = Options {
        all: true,
        solutions,
        ..Options::default()
    };
    run(text, &options)
}
