//! A FlatZinc front end for Bezzel, so that MiniZinc models run on it unchanged.
//!
//! The MiniZinc compiler turns a model and its data into FlatZinc: flat declarations of
//! variables and calls of builtin constraints, one statement a line. [`parse`] reads that
//! text with the [`flatzinc`] crate (a statement parser, MIT licence, used by other Rust
//! solvers; it parses what MiniZinc 2.6 writes) and translates it into a Bezzel
//! [`Model`](bezzel_core::Model): every integer and Boolean variable becomes a Bezzel variable
//! (Booleans are `0..=1`), every builtin and every global constraint that the `mznlib`
//! directory of this crate declares becomes one of Bezzel's constraints, and the search
//! annotations become branch groups. [`run`] searches the result and prints solutions as the
//! FlatZinc specification asks (`----------`, `==========`, `=====UNSATISFIABLE=====`); the
//! `fzn-bezzel` program is [`Cli`] and [`run`].
//!
//! Set variables reach Bezzel as arrays of Booleans: its `mznlib` includes MiniZinc's
//! `nosets.mzn`, which rewrites them so. What is not supported (float variables, set variables
//! in FlatZinc written by hand or for another solver, a builtin that is not in [`BUILTINS`]),
//! a builtin called with the wrong number or types of arguments, or text that is not
//! FlatZinc is an [`FznError`] naming it, never a panic.
//!
//! The translation is a series of passes, a module each: `parse` (text to statements, each
//! with its line), `declarations` (variables and parameters), `bounds` (bounds for unbounded
//! `var int`), `builtins` (the constraints, through the one table [`BUILTINS`] of name,
//! argument types and poster, with a module per family), `search` (the solve item's goal
//! and annotations) and `output` (what a solution prints); `disjunctions` then finds the unary
//! resources that pairs of reified precedences spell and posts a `disjunctive` beside them;
//! `builder` holds the state they share and runs them in order. `run` searches and prints, `cli` is the command line.
//!
//! The mapping, in short: comparisons, their `_reif` and `_imp` forms (`Reif::Equiv`,
//! `Reif::Imp`; `ne` is `eq` of the negated literal), `int_lin_eq/ne/le` (+ `_reif`, `_imp`) to
//! `linear`/`linear_reif`, `int_plus/times/div/mod/abs/min/max` and `array_int_maximum/minimum`
//! to the arithmetic constraints (`int_pow` to a table), the four element builtins to `element_const`/`element`
//! (indices shifted to count from 0), the Boolean builtins to `clause`, `and`, `or`, `xor`,
//! `bool_lin_*` to `linear`, `set_in` (+ `_reif`, `_imp`) on constant sets to `among`, and the
//! globals of `mznlib` (all_different, table, regular, circuit, subcircuit, inverse,
//! global_cardinality and its closed and bounded forms, count of a fixed value, among,
//! lex_less(eq) on integers and Booleans, value_precede, cumulative, disjunctive,
//! disjunctive_strict, and diffn with its k-dimensional and non-strict forms) to Bezzel's own. Circuit, subcircuit
//! and inverse pass the model's first index along (`bezzel_circuit` and friends in `mznlib`),
//! since FlatZinc arrays count from 1 whatever the model's index sets were.
//!
//! The parser is the `flatzinc` crate rather than one of our own: it reads every statement
//! MiniZinc 2.6 writes except predicate declarations with two-dimensional array types, which
//! carry nothing to translate and are skipped. `var int` without bounds gets bounds inferred
//! from its defining constraint; with none found, a window of 2²¹ values is assumed (put at
//! the side a linear inequality over it implies, else around 0), and then the answer never
//! claims completeness: `=====UNKNOWN=====` instead of unsatisfiable, no `==========`, and a
//! `%` line saying which windows were assumed.

mod bounds;
mod builder;
mod builtins;
mod cli;
mod declarations;
mod disjunctions;
mod error;
mod output;
mod parse;
mod program;
mod run;
mod search;
mod value;

pub use builtins::{ArgType, BUILTINS, Builtin};
pub use cli::{Cli, LNS_FIRST_NODES, MZNLIB, Options, STD_FLAGS, solver_config, write_msc};
pub use error::FznError;
pub use output::Output;
pub use program::{Program, parse, parse_with};
pub use run::{run, run_text, run_text_cancellable};
pub use search::Goal;
