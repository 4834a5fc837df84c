//! Text forms of placements, written by the command line and read back by its `check`.
//!
//! A placement is the 0-based column of each row's queen, top row first. It is printed in
//! one of three forms, and [`parse_placement`] reads each of them back:
//!
//! - text, the form of the classic programs: `NO.1: 0 4 7 5 2 6 1 3` ([`text`]);
//! - the board, a `NO.1:` line and then one line per row, `Q` for the queen and `.`
//!   elsewhere ([`board`], [`write_board`]);
//! - JSON, one object per line: `{"n":8,"index":1,"placement":[0,4,7,5,2,6,1,3]}`
//!   ([`json`]).
//!
//! The program also draws placements as SVG pictures ([`svg`](mod@crate::svg)); the readers
//! take those back too, so that `check` reads whatever the program printed.
//!
//! [`write_placement`] writes any of them, [`write_check`] what `queens check` says of a
//! placement; [`read_placement`] reads one placement from a stream, [`Placements`] many, and
//! [`check_placements`] checks them all.
//!
//! The code is in four parts: the writers (`write`), the readers (`read`), why input was
//! refused (`error`), and what `check` says (`report`); the limits on input are here.

mod error;
mod read;
mod report;
mod write;

pub use error::{ParseError, escape};
pub use read::{Placements, parse_placement, read_placement};
pub use report::{Checked, check_placements, write_check};
pub use write::{Form, board, count_json, json, text, write_board, write_placement};

/// The most queens [`read_placement`] accepts: a placement of this many costs `check` a few
/// hundred megabytes, and refusing more keeps the memory for any input bounded.
pub const MAX_QUEENS: usize = 10_000_000;

/// The longest line [`read_placement`] accepts, in bytes: the text form of [`MAX_QUEENS`]
/// queens (columns of at most 7 digits and a separator each), with room for a label or the
/// JSON around it. Longer lines are refused before they are read whole.
pub const MAX_LINE: usize = 8 * MAX_QUEENS + 1024;

#[cfg(test)]
mod tests;
