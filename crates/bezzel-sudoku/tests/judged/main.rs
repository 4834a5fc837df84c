//! The library's puzzle making, its 9×9 kernel and its logical solving judged from outside:
//! generated puzzles and the kernel's counts by a backtracking counter written here, logical
//! steps against each puzzle's unique solution. One binary, so that they build and link once.

mod generate;
mod kernel;
mod logic;
mod oracle;
