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
//! `fzn-bezzel` program is [`Options::parse`] and [`run`].
//!
//! What is not supported (float and set variables, a builtin that is not in [`SUPPORTED`])
//! is an [`FznError`] naming it, never a panic.
//!
//! The mapping, in short: comparisons, their `_reif` and `_imp` forms (`Reif::Equiv`,
//! `Reif::Imp`; `ne` is `eq` of the negated literal), `int_lin_eq/ne/le` (+ `_reif`, `_imp`) to
//! `linear`/`linear_reif`, `int_plus/times/div/mod/abs/min/max` and `array_int_maximum/minimum`
//! to the arithmetic constraints, the four element builtins to `element_const`/`element`
//! (indices shifted to count from 0), the Boolean builtins to `clause`, `and`, `or`, `xor`,
//! `bool_lin_*` to `linear`, `set_in` (+ `_reif`, `_imp`) on constant sets to `among`, and the
//! globals of `mznlib` (all_different, table, regular, circuit, subcircuit, inverse,
//! global_cardinality and its closed and bounded forms, count of a fixed value, among,
//! lex_less(eq) on integers and Booleans, value_precede) to Bezzel's own. Circuit, subcircuit
//! and inverse pass the model's first index along (`bezzel_circuit` and friends in `mznlib`),
//! since FlatZinc arrays count from 1 whatever the model's index sets were.
//!
//! The parser is the `flatzinc` crate rather than one of our own: it reads every statement
//! MiniZinc 2.6 writes except predicate declarations with two-dimensional array types, which
//! carry nothing to translate and are skipped. `var int` without bounds gets bounds inferred
//! from its defining constraint; with none found, `-2²⁰..2²⁰` (and a warning on stderr).

mod run;
mod translate;

pub use run::{Options, run, run_text};
pub use translate::{FznError, Goal, Output, Program, SUPPORTED, parse};
