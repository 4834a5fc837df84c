use super::*;
use crate::check::{self, PlacementError};
use std::io;

#[test]
fn pictures_read_back_as_the_placements_drawn() {
    use crate::svg;
    let placements = vec![vec![1, 3, 0, 2], vec![0, 1, 2, 3], vec![4, 0, 3, 1, 2]];
    for attacks in [false, true] {
        let options = svg::Options {
            attacks,
            ..svg::Options::fitted(5)
        };
        let sheet = svg::sheet(&placements, &[], &options);
        let read: Vec<_> = Placements::new(sheet.as_bytes()).collect();
        assert_eq!(read, placements.iter().cloned().map(Ok).collect::<Vec<_>>());
        for p in &placements {
            let one = svg::board(p, &options);
            assert_eq!(parse_placement(&one).as_ref(), Ok(p), "{one}");
        }
    }
    // Many squares to the board, and a square that is no whole number of pixels.
    let big: Vec<usize> = (0..1000).map(|r| (r * 7) % 1000).collect();
    let options = svg::Options {
        square: 0.75,
        ..svg::Options::default()
    };
    assert_eq!(parse_placement(&svg::board(&big, &options)), Ok(big));
    // A picture of none is a list of none; so is nothing at all.
    let none = svg::sheet(
        &[],
        &["no solutions shown".to_string()],
        &svg::Options::default(),
    );
    for text in [none.as_str(), "", "\n\n"] {
        let mut read = Placements::new(text.as_bytes());
        assert!(read.next().is_none(), "{text:?}");
        assert!(read.said_none(), "{text:?}");
    }
}

#[test]
fn a_json_count_of_none_is_a_list_of_none() {
    for (text, none) in [
        (
            "{\"n\":3,\"count\":0,\"engine\":\"symmetry\",\"unique\":0}\n",
            true,
        ),
        ("{\"n\":3,\"count\":0,\"engine\":\"bitmask\"}\n", true),
        (
            "{\"n\":8,\"count\":92,\"engine\":\"symmetry\",\"unique\":12}\n",
            false,
        ),
        ("92 solutions\n", false),
    ] {
        let mut read = Placements::new(text.as_bytes());
        assert!(read.next().is_none(), "{text:?}");
        assert_eq!(read.said_none(), none, "{text:?}");
    }
}

#[test]
fn streamed_forms_are_the_built_strings() {
    for placement in [&[][..], &[0], &[1, 3, 0, 2], &[0, 4, 7, 5, 2, 6, 1, 3]] {
        for (form, line) in [
            (Form::Text, text(12, placement)),
            (Form::Json, json(12, placement)),
        ] {
            let mut written = Vec::new();
            write_placement(&mut written, form, 12, placement).unwrap();
            assert_eq!(String::from_utf8(written).unwrap(), line + "\n");
        }
    }
}

#[test]
fn a_bad_line_does_not_swallow_the_placement_it_ends() {
    let text = "NO.1: 0 4 7 5 2 6 1 3\nNO.2: 0 1 2 3 4 5 6 7\nNO.3: 0 x\n";
    let read: Vec<_> = Placements::new(text.as_bytes()).collect();
    assert_eq!(read.len(), 3, "{read:?}");
    assert_eq!(read[0].as_ref().unwrap(), &[0, 4, 7, 5, 2, 6, 1, 3]);
    assert_eq!(read[1].as_ref().unwrap(), &[0, 1, 2, 3, 4, 5, 6, 7]);
    assert!(read[2].is_err());
    let json = "{\"n\":8,\"index\":1,\"placement\":[0,1,2,3,4,5,6,7]}\n{\"n\":8,\"index\":2,\"placement\":[0,x]}\n";
    let read: Vec<_> = Placements::new(json.as_bytes()).collect();
    assert_eq!(read.len(), 2, "{read:?}");
    assert!(read[0].is_ok() && read[1].is_err());
}
use proptest::prelude::*;

#[test]
fn classic_forms() {
    assert_eq!(text(1, &[0, 4, 7, 5, 2, 6, 1, 3]), "NO.1: 0 4 7 5 2 6 1 3");
    assert_eq!(board(&[1, 3, 0, 2]), ". Q . .\n. . . Q\nQ . . .\n. . Q .\n");
    assert_eq!(
        json(3, &[1, 3, 0, 2]),
        r#"{"n":4,"index":3,"placement":[1,3,0,2]}"#
    );
}

#[test]
fn every_printed_form_reads_back() {
    let p = vec![0, 4, 7, 5, 2, 6, 1, 3];
    for input in [
        "0 4 7 5 2 6 1 3".to_string(),
        "0,4,7,5,2,6,1,3\n".to_string(),
        "0\n4\n7\n5\n2\n6\n1\n3\n".to_string(),
        format!("{}\n1 solution shown (limit 1)\n", text(1, &p)),
        format!("{}\n92 solutions\n", text(17, &p)),
        format!("NO.1:\n{}\n1 solution shown (limit 1)\n", board(&p)),
        board(&p).replace(' ', ""),
        format!("{}\n", json(1, &p)),
        format!(
            "{}\n{{\"n\":8,\"count\":92,\"engine\":\"symmetry\",\"unique\":12}}\n",
            json(1, &p)
        ),
        format!("\u{feff}{}\r\n", text(1, &p)),
        format!("{}\n12 unique solutions (92 in total)\n", text(1, &p)),
    ] {
        assert_eq!(parse_placement(&input), Ok(p.clone()), "{input:?}");
    }
}

#[test]
fn a_label_needs_its_colon() {
    assert_eq!(
        parse_placement("NO.1 0 4 7 5 2 6 1 3"),
        Err(ParseError::Label { line: 1 })
    );
    assert!(parse_placement("NO.x: 0").is_err());
    assert!(parse_placement("NO.: 0").is_err());
    assert_eq!(
        ParseError::Label { line: 1 }.to_string(),
        "line 1: a label must be `NO.<number>:` with the colon, followed by the columns"
    );
}

#[test]
fn malformed_input_is_refused_with_the_place() {
    for (input, expected) in [
        ("", ParseError::Empty),
        ("\u{feff}", ParseError::Empty),
        ("\n\n92 solutions\n", ParseError::Empty),
        ("NO.1:", ParseError::Empty),
        ("NO.1: 0 2\nNO.2: 1 3", ParseError::Several { found: 2 }),
        (
            "0 x 2",
            ParseError::Column {
                line: 1,
                item: 2,
                token: "x".into(),
            },
        ),
        (
            "0 -1",
            ParseError::Column {
                line: 1,
                item: 2,
                token: "-1".into(),
            },
        ),
        (
            "1 2\n+3",
            ParseError::Column {
                line: 2,
                item: 3,
                token: "+3".into(),
            },
        ),
        (
            ". Q\nQ . .",
            ParseError::BoardRow {
                line: 2,
                reason: String::new(),
            },
        ),
        (
            ". .",
            ParseError::BoardRow {
                line: 1,
                reason: String::new(),
            },
        ),
        (
            "Q Q",
            ParseError::BoardRow {
                line: 1,
                reason: String::new(),
            },
        ),
        (
            ". Q x",
            ParseError::BoardRow {
                line: 1,
                reason: String::new(),
            },
        ),
        (
            ". Q\nQ .\n. Q",
            ParseError::TooManyRows {
                line: 3,
                columns: 2,
            },
        ),
        (
            ". Q",
            ParseError::BoardShape {
                rows: 1,
                columns: 2,
            },
        ),
        ("1 0\n. Q", ParseError::Mixed { line: 2 }),
        (
            "{\"placement\": [0, 1",
            ParseError::Json {
                line: 1,
                reason: String::new(),
            },
        ),
        (
            "{\"n\": 3, \"placement\": [0]}",
            ParseError::Json {
                line: 1,
                reason: String::new(),
            },
        ),
        (
            "{\"queens\": [0]}",
            ParseError::Json {
                line: 1,
                reason: String::new(),
            },
        ),
        (
            "0 3 1",
            ParseError::OutOfRange(PlacementError {
                row: 1,
                column: 3,
                n: 3,
            }),
        ),
    ] {
        let found = parse_placement(input);
        let same = match (&found, &expected) {
            (Err(ParseError::BoardRow { line: a, .. }), ParseError::BoardRow { line: b, .. })
            | (Err(ParseError::Json { line: a, .. }), ParseError::Json { line: b, .. }) => a == b,
            (found, expected) => *found == Err(expected.clone()),
        };
        assert!(same, "{input:?}: {found:?}, expected {expected:?}");
        let message = found.unwrap_err().to_string();
        assert_eq!(message.lines().count(), 1, "{input:?}: {message}");
    }
}

#[test]
fn a_blank_line_or_a_summary_ends_a_placement() {
    // Two placements of 4, not one of 8 queens.
    for input in [
        "1 3 0 2\n\n2 0 3 1\n",
        "1 3 0 2\n4 solutions\n2 0 3 1\n",
        "1 3 0 2\n \r\n2 0 3 1",
    ] {
        assert_eq!(
            parse_placement(input),
            Err(ParseError::Several { found: 2 }),
            "{input:?}"
        );
    }
    // Within a placement a blank line is nothing: after a label, or at the end.
    assert_eq!(
        parse_placement("NO.1:\n\n1 3 0 2\n\n"),
        Ok(vec![1, 3, 0, 2])
    );
    assert_eq!(parse_placement("1 3\n0 2\n\n\n"), Ok(vec![1, 3, 0, 2]));
}

#[test]
fn a_label_and_the_json_line_after_it_are_one_placement() {
    let input = "NO.1:\n{\"placement\":[1,3,0,2]}\n";
    assert_eq!(parse_placement(input), Ok(vec![1, 3, 0, 2]));
    let two = "NO.1: 1 3 0 2\n{\"placement\":[1,3,0,2]}\n";
    assert_eq!(parse_placement(two), Err(ParseError::Several { found: 2 }));
    // A summary with a placement in it is neither.
    assert!(parse_placement("{\"count\":2,\"placement\":[0]}").is_err());
}

#[test]
fn placements_reads_every_printed_form_in_a_stream() {
    let placements = [vec![1, 3, 0, 2], vec![2, 0, 3, 1], vec![0]];
    let mut forms = [String::new(), String::new(), String::new(), String::new()];
    for (i, p) in placements.iter().enumerate() {
        let index = i as u64 + 1;
        forms[0] += &format!("{}\n", text(index, p));
        forms[1] += &format!("NO.{index}:\n{}\n", board(p));
        forms[2] += &format!("{}\n", json(index, p));
        let plain: Vec<String> = p.iter().map(usize::to_string).collect();
        forms[3] += &format!("{}\n\n", plain.join(" "));
    }
    forms[0] += "3 solutions\n";
    forms[1] += "3 solutions shown (limit 3)\n";
    forms[2] += "{\"n\":4,\"count\":2,\"engine\":\"symmetry\"}\n";
    for form in &forms {
        let read: Result<Vec<_>, _> = Placements::new(form.as_bytes()).collect();
        assert_eq!(read.as_ref(), Ok(&placements.to_vec()), "{form}");
    }
}

#[test]
fn placements_go_on_after_a_placement_off_its_board_and_stop_at_bad_text() {
    let read: Vec<_> = Placements::new("1 3 0 2\n\n1 3 0 4\n\n2 0 3 1\n".as_bytes()).collect();
    assert_eq!(read.len(), 3);
    assert!(matches!(read[1], Err(ParseError::OutOfRange(_))));
    assert_eq!(read[2], Ok(vec![2, 0, 3, 1]));
    let read: Vec<_> = Placements::new("1 3 0 2\n\n1 x\n\n2 0 3 1\n".as_bytes()).collect();
    assert_eq!(read.len(), 2);
    assert!(matches!(read[1], Err(ParseError::Column { line: 3, .. })));
    assert_eq!(Placements::new("".as_bytes()).count(), 0);
}

#[test]
fn several_placements_are_more_than_one_not_two() {
    let message = ParseError::Several { found: 2 }.to_string();
    assert!(message.starts_with("more than one placement"), "{message}");
}

#[test]
fn messages_escape_control_characters() {
    for input in [
        "0 \u{1b}[31mRED\u{1b}[0m 1",
        "0 \0 1",
        "\u{7f}",
        ". Q \u{1b}",
        "0 \u{202e}1",
        "{\"placement\":[\"\u{1b}\"]}",
        "{\"placement\":[0], \"\u{1b}\": 1}",
        "0 é\u{9b}1",
    ] {
        let message = parse_placement(input).unwrap_err().to_string();
        assert!(
            !message.chars().any(|c| c.is_control() || c == '\u{202e}'),
            "{input:?}: {message:?}"
        );
        assert_eq!(message.lines().count(), 1, "{message}");
    }
    assert_eq!(
        parse_placement("0 \u{1b}[31m 1").unwrap_err().to_string(),
        "line 1: the control character `\\u{1b}` is in no placement form"
    );
}

/// `text` over and over, without end.
struct Endless(&'static [u8], usize);

impl io::Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        for b in buf.iter_mut() {
            *b = self.0[self.1 % self.0.len()];
            self.1 += 1;
        }
        Ok(buf.len())
    }
}

#[test]
fn endless_input_is_refused_early() {
    let read = |text| read_placement(io::BufReader::new(Endless(text, 0)));
    assert_eq!(
        read(b"\0"),
        Err(ParseError::Control {
            line: 1,
            character: '\0'
        })
    );
    assert_eq!(read(b"1"), Err(ParseError::LineTooLong { line: 1 }));
    assert_eq!(
        read(b"Q .\n. Q\n"),
        Err(ParseError::TooManyRows {
            line: 3,
            columns: 2
        })
    );
    assert_eq!(read(b"1 3 0 2\n\n"), Err(ParseError::Several { found: 2 }));
    assert_eq!(
        read(b"0\n"),
        Err(ParseError::TooLarge {
            line: MAX_QUEENS + 1
        })
    );
}

#[test]
fn long_tokens_are_shortened_in_messages() {
    let long = "9".repeat(100) + "x";
    let message = parse_placement(&long).unwrap_err().to_string();
    assert!(message.len() < 120, "{message}");
}

#[test]
fn write_board_streams_the_same_board() {
    let p = [2, 0, 3, 1];
    let mut streamed = Vec::new();
    write_board(&mut streamed, &p).unwrap();
    assert_eq!(String::from_utf8(streamed).unwrap(), board(&p));
    // Off-board columns leave their row empty rather than panic.
    assert_eq!(board(&[0, 9]), "Q .\n. .\n");
    assert_eq!(board(&[usize::MAX]), ".\n");
}

/// A placement with columns in range, not necessarily a solution.
fn placement() -> impl Strategy<Value = Vec<usize>> {
    (1usize..40).prop_flat_map(|n| proptest::collection::vec(0..n, n))
}

proptest! {
    #[test]
    fn every_form_round_trips(p in placement(), index in 1u64..1000) {
        let forms = [
            text(index, &p),
            format!("{}\n{index} solutions\n", text(index, &p)),
            format!("NO.{index}:\n{}\n", board(&p)),
            board(&p),
            json(index, &p),
            p.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(","),
            p.iter().map(|c| format!("{c}\n")).collect(),
        ];
        for form in forms {
            prop_assert_eq!(parse_placement(&form), Ok(p.clone()), "{:?}", form);
        }
    }

    #[test]
    fn any_text_is_an_answer_not_a_panic(input in ".{0,200}") {
        if let Ok(p) = parse_placement(&input) {
            prop_assert!(!p.is_empty());
            prop_assert!(check::validate(&p).is_ok());
        }
    }

    #[test]
    fn near_misses_are_answers_not_panics(
        input in "(NO\\.[0-9]{0,2}:? ?|[0-9QO. ,{}\\[\\]\":a-z]{0,6}|\n){0,30}"
    ) {
        if let Ok(p) = parse_placement(&input) {
            prop_assert!(!p.is_empty());
            prop_assert!(check::validate(&p).is_ok());
        }
    }

    /// The stream reader and the one-placement reader agree: one placement read by
    /// one is the one placement of the other, and what one refuses the other does not
    /// read as a single good placement.
    #[test]
    fn placements_agree_with_read_placement(
        input in "(NO\\.[0-9]{0,2}:? ?|[0-9Q. ,]{0,6}|[0-9] solutions|\n){0,30}"
    ) {
        let streamed: Vec<_> = Placements::new(input.as_bytes()).collect();
        for p in streamed.iter().flatten() {
            prop_assert!(!p.is_empty() && check::validate(p).is_ok());
        }
        match read_placement(input.as_bytes()) {
            Ok(p) => prop_assert_eq!(streamed, vec![Ok(p)]),
            Err(ParseError::Several { .. }) => prop_assert!(streamed.len() >= 2),
            Err(_) => prop_assert!(streamed.is_empty() || streamed.iter().any(Result::is_err)),
        }
    }
}

/// What `check_placements` says of `input`, and what it handed to `malformed`.
fn checked(input: &str, json: bool) -> (Checked, String, Vec<ParseError>) {
    let mut out = Vec::new();
    let mut refused = Vec::new();
    let found = check_placements(input.as_bytes(), &mut out, 100, json, |_, e| {
        refused.push(e)
    })
    .expect("written");
    (found, String::from_utf8(out).expect("UTF-8"), refused)
}

#[test]
fn a_board_without_solutions_is_a_list_of_none() {
    // What `queens 3` and `queens unique 3 --list` print: no placement, and a summary
    // that says there is none (3 queens have no solution: OEIS A000170); and what
    // `queens first 3` and `queens all 3 --format json` print on stdout: nothing.
    for input in [
        "0 solutions\n",
        "\n0 unique solutions (0 in total)\n",
        "",
        "\n",
    ] {
        let (found, text, refused) = checked(input, false);
        assert_eq!(found, Checked::default(), "{input:?}");
        assert_eq!(text, "0 placements checked\n", "{input:?}");
        assert!(refused.is_empty(), "{input:?}");
    }
    let (_, text, _) = checked("0 solutions\n", true);
    assert_eq!(
        text,
        "{\"checked\":0,\"not_solutions\":0,\"malformed\":0}\n"
    );
    // A summary of solutions that are not there, or a limit of 0, say nothing of the
    // board: still no placement given.
    for input in ["92 solutions\n", "0 solutions shown (limit 0)\n"] {
        let (found, text, refused) = checked(input, false);
        assert_eq!(found.malformed, 1, "{input:?}");
        assert_eq!(text, "", "{input:?}");
        assert_eq!(refused, [ParseError::Empty], "{input:?}");
    }
    // A placement after the summary is checked as one.
    let (found, text, _) = checked("0 solutions\n1 3 0 2\n", false);
    assert_eq!(found.checked, 1);
    assert!(text.starts_with("solution"), "{text}");
}
