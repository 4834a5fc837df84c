//! The library's puzzle making and logical solving judged from outside: generated puzzles by
//! a backtracking counter written here, logical steps against each puzzle's unique solution.
//! One binary, so that the two build and link once.

mod generate;
mod logic;
