//! Propagators against ground truth from outside the engine: brute-force enumeration of every
//! assignment, judged by each constraint's definition written in the test, published counts,
//! and independent algorithms (matchings, fixpoints computed here).
//!
//! One test binary for every propagator suite (linking one binary instead of one per file is
//! most of the build time saved). Each module is one suite; to add one, put the file next to
//! this one and declare it below. Shared helpers are crate modules: a suite reaches them with
//! `use crate::brute;` (the files under `tests/brute/`) and `use crate::common;` (models,
//! `tests/common/mod.rs`).

#[path = "../brute/mod.rs"]
mod brute;
#[path = "../common/mod.rs"]
mod common;

mod all_different;
mod among;
mod arith;
mod boolean;
mod diffn;
mod extensional;
mod long_sums;
mod public_propagator;
mod scheduling;
mod structural;
mod unit_sum;
mod window_after_propagate;
mod word_windows_far_away;
