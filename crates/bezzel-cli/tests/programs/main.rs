//! The programs `queens` and `sudoku` end to end, run as a user runs them, and the search-tree
//! pages they write.
//!
//! One test binary for all of them (linking one binary instead of one per file is most of the
//! build time saved). Shared helpers are crate modules: a suite reaches them with
//! `use crate::common;` (`tests/common/mod.rs`, which the root package's tests share).

#[path = "../common/mod.rs"]
mod common;

mod queens;
mod sudoku;
mod tree_page;
