//! Search against ground truth from outside the engine: every solution set equal to the one
//! found by enumerating every assignment, under every order, limit and kind of run; optima
//! against brute force and published values; the recorded search tree against the solver's
//! statistics; and answers that once came out wrong without any error.
//!
//! One test binary for every search suite (linking one binary instead of one per file is most
//! of the build time saved). Each module is one suite; to add one, put the file next to this
//! one and declare it below. Shared helpers are crate modules: a suite reaches them with
//! `use crate::brute;` (the files under `tests/brute/`) and `use crate::common;` (models,
//! `tests/common/mod.rs`).

#[path = "../brute/mod.rs"]
mod brute;
#[path = "../common/mod.rs"]
mod common;

mod lns;
mod optimize;
mod oracle;
mod search_control;
mod search_tree;
mod solution_values;
mod threads;
mod wrong_answers;
