//! # bezzel-queens: N-Queens on Bezzel
//!
//! Place n queens on an n × n board so that no two attack each other. A placement is written
//! as the column of each row's queen (0-based, top row first), e.g. `[0, 4, 7, 5, 2, 6, 1, 3]`.
//!
//! - [`model`]: the constraint model on the generic engine (three `all_different`s over offset
//!   views), with lazy solutions, counts and statistics;
//! - [`counter`]: the one API of the bit-parallel counters
//!   ([`SplitCounter`](counter::SplitCounter): a count split into independent subproblems),
//!   their limits and errors;
//! - [`bitmask`]: the classic bit-parallel counter with mirror symmetry, and the enumerator
//!   of every solution;
//! - [`symmetry`]: the 8 symmetries of the board, and the count of unique solutions by
//!   enumerating and testing;
//! - [`symmetry_count`]: unique and total counts together, searching only one representative
//!   per orbit of the 8 symmetries (Takaki's bound-mask algorithm);
//! - [`counting`]: parallel counts by every counter on bezzel-core's runner, and resumable
//!   counts by every engine (a checkpoint file, a cancel flag, progress);
//! - [`construct`]: one solution for any n ≥ 4 in O(n), by the closed-form rule;
//! - [`check`]: the O(n) checker that verifies placements from all of the above, independent
//!   of every solver, and counts and lists attacking pairs in O(n) memory;
//! - [`format`](mod@format): the printed forms of a placement (text, board, JSON) and
//!   [`read_placement`](format::read_placement), which reads any of them back from a
//!   stream line by line in bounded memory ([`parse_placement`](format::parse_placement)
//!   from a string), and [`Placements`](format::Placements), which reads many;
//! - [`svg`]: placements drawn as SVG pictures, one board or a sheet of several;
//! - [`listing`]: solutions, or one representative per symmetry class, listed up to a limit
//!   into an [`Output`](listing::Output) that writes each form above or draws one picture;
//! - [`tree`]: a search of the model recorded, and drawn as an HTML page of the search tree.
//!
//! The bit-parallel counters share one bit kernel (the attacked lines as bit sets and the
//! loops over them), and take a cancel flag ([`count_pieces`](counting::count_pieces),
//! [`count_subproblem_with_cancel`](counter::SplitCounter::count_subproblem_with_cancel))
//! that they look at inside their search, so raising it stops them within milliseconds.
//!
//! ```
//! use bezzel_queens::{bitmask, check, construct, model::Queens};
//!
//! let mut q = Queens::lexicographic(8)?;
//! assert_eq!(q.first(), Some(vec![0, 4, 7, 5, 2, 6, 1, 3]));
//! assert_eq!(q.count(), 92);
//! assert_eq!(bitmask::count(8)?, 92);
//! assert!(check::is_solution(&construct::construct(1000)?));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

pub mod bitmask;
pub mod check;
pub mod construct;
pub mod counter;
pub mod counting;
pub mod format;
mod kernel;
pub mod listing;
pub mod model;
#[cfg(test)]
mod oeis;
pub mod svg;
pub mod symmetry;
pub mod symmetry_count;
pub mod tree;
