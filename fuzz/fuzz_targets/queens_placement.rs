//! `format::parse_placement`, the reader behind `queens check`, which takes any printed form
//! of a placement (text, board, JSON lines, bare columns, with the summaries that follow).
//!
//! Any text must be answered by a placement that fits its board or by a one-line error. Every
//! accepted placement, and a placement built from the input bytes, must read back unchanged
//! from each form the command prints it in, as `queens` writes them (`format::text`, a
//! `NO.k:` line then `format::write_board`, `format::json`), with and without the summary
//! lines, CRLF line ends and a byte-order mark. Text made only of digits, commas and
//! whitespace must read as the plain list of its numbers.
#![no_main]

use bezzel_queens::check;
use bezzel_queens::format::{self, ParseError};
use libfuzzer_sys::fuzz_target;

/// A board costs `2 n²` bytes, so the placements built from bytes stay small, and larger
/// ones that the reader accepted (a few thousand bytes of column numbers) skip the board.
const MAX_QUEENS: usize = 64;
const MAX_BOARD: usize = 256;

/// The forms the command prints `p` in, one placement each, as whole outputs.
fn printed_forms(p: &[usize]) -> Vec<String> {
    let n = p.len();
    let columns: Vec<String> = p.iter().map(ToString::to_string).collect();
    let text = format::text(1, p);
    let json = format::json(1, p);
    let mut forms = vec![
        format!("{text}\n"),
        format!("{text}\n1 solutions shown (limit 1)\n"),
        format!("{json}\n"),
        format!("{json}\n{{\"n\":{n},\"count\":92,\"engine\":\"symmetry\",\"unique\":12}}\n"),
        columns.join(" "),
        columns.join(","),
        columns.join(",\n"),
        format!("\u{feff}{}\r\n", text),
    ];
    if n <= MAX_BOARD {
        let mut board = Vec::new();
        format::write_board(&mut board, p).expect("writing to a Vec cannot fail");
        let board = String::from_utf8(board).expect("the board is ASCII");
        assert_eq!(board, format::board(p), "write_board and board must agree");
        forms.push(format!("NO.1:\n{board}\n"));
        forms.push(format!("NO.3:\n{board}\n1 solutions\n"));
        forms.push(format!("  NO.1:\r\n{}\r\n", board.replace('\n', "\r\n")));
    }
    forms
}

fn check_round_trips(p: &[usize]) {
    assert!(!p.is_empty() && check::validate(p).is_ok());
    for form in printed_forms(p) {
        assert_eq!(format::parse_placement(&form).as_deref(), Ok(p), "{form:?}");
    }
}

/// The reading of text made only of digits, commas and whitespace: its numbers, in order.
fn plain_numbers(text: &str) -> Option<Result<Vec<usize>, ()>> {
    if !text
        .chars()
        .all(|c| c.is_ascii_digit() || c == ',' || c.is_whitespace())
    {
        return None;
    }
    Some(
        text.split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .map(|t| t.parse::<usize>().map_err(|_| ()))
            .collect(),
    )
}

/// A placement that fits its board, built from the bytes: column `b mod n` for each byte.
fn placement_from_bytes(data: &[u8]) -> Vec<usize> {
    let data = &data[..data.len().min(MAX_QUEENS)];
    data.iter().map(|&b| usize::from(b) % data.len()).collect()
}

fuzz_target!(|data: &[u8]| {
    let built = placement_from_bytes(data);
    if !built.is_empty() {
        check_round_trips(&built);
    }

    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let result = format::parse_placement(text);
    match &result {
        Ok(p) => {
            check_round_trips(p);
        }
        Err(e) => {
            let message = e.to_string();
            assert!(!message.is_empty());
            // KNOWN FINDING (fuzz report, issue 11): serde's "unknown field `…`" quotes a JSON
            // key as it is, so `{"\n":0}` gives a message of two lines, against the
            // documented contract. Tolerated for that message alone until parse_placement
            // escapes it; the seed `json_unknown_field_newline` keeps the case.
            let known =
                matches!(e, ParseError::Json { reason, .. } if reason.contains("unknown field"));
            assert!(
                known || !message.contains(['\n', '\r']),
                "messages are one line: {message:?}"
            );
            if let ParseError::OutOfRange(e) = e {
                assert!(e.column >= e.n, "{e:?}");
            }
        }
    }

    // Bare numbers: a list of columns, refused only when empty, too large for usize or off
    // the board.
    if let Some(numbers) = plain_numbers(text) {
        match numbers {
            Err(()) => assert!(matches!(result, Err(ParseError::Column { .. })), "{text:?}"),
            Ok(numbers) if numbers.is_empty() => {
                assert_eq!(result, Err(ParseError::Empty), "{text:?}")
            }
            Ok(numbers) => match check::validate(&numbers) {
                Ok(()) => assert_eq!(result, Ok(numbers), "{text:?}"),
                Err(e) => assert_eq!(result, Err(ParseError::OutOfRange(e)), "{text:?}"),
            },
        }
    }
});
