//! The printed forms written: text and JSON lines as strings, the board and any form
//! streamed to a writer in memory for one row, whatever the size of the board, and the JSON
//! line of a count.

use std::fmt::Write as _;
use std::io;

/// `NO.<index>: c0 c1 ...`, the form of the classic programs.
pub fn text(index: u64, placement: &[usize]) -> String {
    let mut s = format!("NO.{index}:");
    for c in placement {
        let _ = write!(s, " {c}");
    }
    s
}

/// The board, one line per row, `Q` for the queen and `.` elsewhere, separated by spaces.
///
/// The string has `2 n²` bytes, too many for a large board: [`write_board`] streams it.
pub fn board(placement: &[usize]) -> String {
    let mut s = Vec::with_capacity(placement.len() * 2 * placement.len());
    write_board(&mut s, placement).expect("writing to a Vec cannot fail");
    String::from_utf8(s).expect("the board is ASCII")
}

/// Writes [`board`] to `w` row by row, in memory for one row (`2 n` bytes) whatever the
/// board size. A column outside `0..n` leaves its row without a queen.
pub fn write_board(w: &mut impl io::Write, placement: &[usize]) -> io::Result<()> {
    let n = placement.len();
    // Every row is ". . . . \n" with one dot turned into a Q.
    let mut row: Vec<u8> = (0..n)
        .flat_map(|col| [b'.', if col + 1 == n { b'\n' } else { b' ' }])
        .collect();
    for &c in placement {
        let square = c.checked_mul(2).filter(|&i| i < row.len());
        if let Some(i) = square {
            row[i] = b'Q';
        }
        w.write_all(&row)?;
        if let Some(i) = square {
            row[i] = b'.';
        }
    }
    Ok(())
}

/// `{"n":<n>,"index":<index>,"placement":[c0,c1,...]}`, one line of the JSON form.
pub fn json(index: u64, placement: &[usize]) -> String {
    let mut s = format!(
        "{{\"n\":{},\"index\":{index},\"placement\":[",
        placement.len()
    );
    for (i, c) in placement.iter().enumerate() {
        let _ = write!(s, "{}{c}", if i == 0 { "" } else { "," });
    }
    s.push_str("]}");
    s
}

/// The printed forms of a placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Form {
    /// `NO.1: 0 4 7 5 2 6 1 3` ([`text`]).
    Text,
    /// A `NO.1:` line, the board ([`write_board`]) and a blank line.
    Board,
    /// One JSON object per line ([`json`]).
    Json,
}

/// Writes placement number `index` in `form`, column by column (the board row by row): a
/// copy of the text in memory would take more than the placement itself (about 80 MB more
/// for 10,000,000 queens, and `2 n²` bytes for the board). `w` should be buffered.
pub fn write_placement(
    w: &mut impl io::Write,
    form: Form,
    index: u64,
    placement: &[usize],
) -> io::Result<()> {
    match form {
        Form::Text => {
            write!(w, "NO.{index}:")?;
            for c in placement {
                write!(w, " {c}")?;
            }
            writeln!(w)
        }
        Form::Board => {
            writeln!(w, "NO.{index}:")?;
            write_board(w, placement)?;
            writeln!(w)
        }
        Form::Json => {
            write!(
                w,
                "{{\"n\":{},\"index\":{index},\"placement\":[",
                placement.len()
            )?;
            for (i, c) in placement.iter().enumerate() {
                write!(w, "{}{c}", if i == 0 { "" } else { "," })?;
            }
            writeln!(w, "]}}")
        }
    }
}

/// The JSON line of a count: `{"n":8,"count":92,"engine":"symmetry"}`, with `"unique":12`
/// after it when the unique count is given.
pub fn count_json(n: usize, count: u64, engine: &str, unique: Option<u64>) -> String {
    let engine = serde_json::to_string(engine).expect("a string");
    match unique {
        Some(unique) => {
            format!("{{\"n\":{n},\"count\":{count},\"engine\":{engine},\"unique\":{unique}}}")
        }
        None => format!("{{\"n\":{n},\"count\":{count},\"engine\":{engine}}}"),
    }
}
