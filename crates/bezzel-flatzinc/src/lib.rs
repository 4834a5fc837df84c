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

mod run;
mod translate;

pub use run::{Options, run, run_text};
pub use translate::{FznError, Goal, Output, Program, SUPPORTED, parse};
