//! Text forms of placements, shared by the command line and the snapshot tests.
//!
//! A placement is the 0-based column of each row's queen, top row first. The classic text
//! form numbers it: `NO.1: 0 4 7 5 2 6 1 3`; the board form draws `Q` and `.`.

use std::fmt::Write;

/// `NO.<index>: c0 c1 ...`, the form of the classic programs.
pub fn text(index: u64, placement: &[usize]) -> String {
    let mut s = format!("NO.{index}:");
    for c in placement {
        let _ = write!(s, " {c}");
    }
    s
}

/// The board, one line per row, `Q` for the queen and `.` elsewhere, separated by spaces.
pub fn board(placement: &[usize]) -> String {
    let n = placement.len();
    let mut s = String::with_capacity(n * 2 * n);
    for &c in placement {
        for col in 0..n {
            if col > 0 {
                s.push(' ');
            }
            s.push(if col == c { 'Q' } else { '.' });
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_forms() {
        assert_eq!(text(1, &[0, 4, 7, 5, 2, 6, 1, 3]), "NO.1: 0 4 7 5 2 6 1 3");
        assert_eq!(board(&[1, 3, 0, 2]), ". Q . .\n. . . Q\nQ . . .\n. . Q .\n");
    }
}
