//! `format::parse_placement`, the streaming `format::read_placement` and `format::Placements`
//! (many placements), the readers behind `queens check`, which take any printed form of a
//! placement (text, board, JSON lines, SVG pictures, bare columns, with the summaries that
//! follow).
//!
//! Any text must be answered by a placement that fits its board or by a one-line error, and
//! both readers must answer alike however the bytes arrive. Every accepted placement, and a
//! placement built from the input bytes, must read back unchanged from each form the command
//! prints it in, as `queens` writes them (`format::text`, a `NO.k:` line then
//! `format::write_board`, `format::json`), with and without the summary lines, CRLF line ends
//! and a byte-order mark. Text made only of digits, commas and whitespace must read as the
//! plain list of its numbers, or be refused as two placements where a blank line splits it.
#![no_main]

use bezzel_queens::format::{self, ParseError};
use bezzel_queens::{check, svg};
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
        format!("{text}\n1 solution shown (limit 1)\n"),
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
        // The SVG picture, alone and with the shading of `--attacks`.
        for attacks in [false, true] {
            let options = svg::Options {
                attacks,
                ..svg::Options::fitted(n)
            };
            forms.push(svg::board(p, &options));
        }
    }
    forms
}

fn check_round_trips(p: &[usize]) {
    assert!(!p.is_empty() && check::validate(p).is_ok());
    for form in printed_forms(p) {
        assert_eq!(format::parse_placement(&form).as_deref(), Ok(p), "{form:?}");
    }
}

/// The reading of text made only of digits, commas and whitespace: the numbers of each
/// placement, a blank line ending one. `None` when a non-blank line holds no number (commas
/// alone), which this oracle leaves to the reader.
fn plain_numbers(text: &str) -> Option<Vec<Result<Vec<usize>, ()>>> {
    if !text
        .chars()
        .all(|c| c.is_ascii_digit() || c == ',' || c.is_whitespace())
    {
        return None;
    }
    let mut groups = Vec::new();
    let mut current: Option<Result<Vec<usize>, ()>> = None;
    for line in text.split('\n') {
        if line.trim().is_empty() {
            groups.extend(current.take());
            continue;
        }
        let tokens: Vec<&str> = line
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .collect();
        if tokens.is_empty() {
            return None;
        }
        let group = current.get_or_insert(Ok(Vec::new()));
        for t in tokens {
            match (t.parse::<usize>(), group.as_mut()) {
                (Ok(c), Ok(columns)) => columns.push(c),
                _ => *group = Err(()),
            }
        }
    }
    groups.extend(current);
    Some(groups)
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
            assert!(
                !message.contains(['\n', '\r']),
                "messages are one line: {message:?}"
            );
            if let ParseError::OutOfRange(e) = e {
                assert!(e.column >= e.n, "{e:?}");
            }
        }
    }

    // Bare numbers: one list of columns, refused only when empty, too large for usize or off
    // the board; two lists (a blank line between) are two placements, refused.
    if let Some(groups) = plain_numbers(text) {
        match groups.as_slice() {
            [] => assert_eq!(result, Err(ParseError::Empty), "{text:?}"),
            [Err(())] => assert!(matches!(result, Err(ParseError::Column { .. })), "{text:?}"),
            [Ok(numbers)] => match check::validate(numbers) {
                Ok(()) => assert_eq!(result.as_ref(), Ok(numbers), "{text:?}"),
                Err(e) => assert_eq!(result, Err(ParseError::OutOfRange(e)), "{text:?}"),
            },
            _ => assert!(result.is_err(), "{text:?}"),
        }
    }

    // The streaming reader reads the same, however the bytes arrive.
    let capacity = data.first().map_or(1, |&b| usize::from(b % 8) + 1);
    let streamed = format::read_placement(std::io::BufReader::with_capacity(capacity, data));
    assert_eq!(streamed, result, "{text:?}");

    // The reader of many placements (`queens 8 | queens check`) agrees with the reader of
    // one: one placement is its only item, and what one refuses is not a single good item.
    let many: Vec<_> =
        format::Placements::new(std::io::BufReader::with_capacity(capacity, data)).collect();
    for p in many.iter().flatten() {
        assert!(!p.is_empty() && check::validate(p).is_ok(), "{text:?}");
    }
    match &result {
        Ok(p) => assert_eq!(many, [Ok(p.clone())], "{text:?}"),
        Err(ParseError::Several { .. }) => assert!(many.len() >= 2, "{text:?}"),
        Err(_) => assert!(
            many.is_empty() || many.iter().any(Result::is_err),
            "{text:?}"
        ),
    }
});
