//! # bezzel-cli: what the `queens` and `sudoku` programs share
//!
//! The two programs (`src/bin/queens.rs` and `src/bin/sudoku.rs`: `cargo run --release --bin
//! queens -- 8` from the repository's root, or installed as commands by `cargo install --path
//! crates/bezzel-cli`) parse arguments, call the library and print. What
//! they have in common lives here, so that the same flag means the same thing in both:
//!
//! - [`options`]: the options both take (`--threads`, `--time-limit`, `--stats`, `--quiet`,
//!   `--format`, `--order`, `--consistency`), each with one parser and one meaning;
//! - [`Failure`] and [`status`]: one-line error messages and the exit statuses, the same in
//!   both programs; [`parse_args`] turns clap's errors into such a line;
//! - [`Stop`]: Ctrl-C and the time limit as one flag that the library's searches watch;
//! - [`Progress`]: a progress bar on stderr, only when a person is watching;
//! - [`cluster`]: `--mpi`, a count on the ranks of an MPI job;
//! - [`count`](mod@count): a queens count with progress, stop, checkpoint and MPI, and its
//!   failures as messages;
//! - [`queens`]: the `queens` program's option groups with what they do, and its commands
//!   whose work is more than one call into `bezzel_queens`;
//! - [`sudoku`]: the `sudoku` program's run, from the inputs to the summary;
//! - [`sudoku_generate`]: `sudoku generate`, new puzzles on many threads, in order;
//! - [`sudoku_logic`]: `sudoku rate`, `hint` and `explain`, the logical solver over the inputs;
//! - [`input`]: input files named on the command line, checked up front and opened in turn.

#![deny(missing_docs)]

pub mod cluster;
pub mod count;
mod failure;
pub mod input;
pub mod options;
mod progress;
pub mod queens;
mod stop;
pub mod sudoku;
pub mod sudoku_generate;
pub mod sudoku_logic;

pub use failure::{Failure, clap_message, escape, exit, io_reason, parse_args, status, warn};
pub use progress::Progress;
pub use stop::{Stop, StopCause};
