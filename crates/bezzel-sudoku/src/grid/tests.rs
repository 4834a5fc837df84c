use super::*;
use crate::pattern;
use crate::reader::{PuzzleLines, parse_batch};
use proptest::prelude::*;

/// The puzzle from Wikipedia's "Sudoku" article.
const WIKI: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

#[test]
fn parses_wikipedia_puzzle() {
    let g = Grid::parse_line(WIKI).unwrap();
    assert_eq!((g.size(), g.box_size(), g.givens()), (9, 3, 30));
    assert_eq!(g.get(0, 0), 5);
    assert_eq!(g.get(0, 1), 3);
    assert_eq!(g.get(0, 2), 0);
    assert_eq!(g.get(8, 8), 9);
    assert_eq!(g.get(4, 0), 4);
    assert_eq!(g.to_line(), WIKI);
    assert!(g.clashes().is_empty());
}

#[test]
fn pretty_form_is_exact() {
    let g = Grid::parse_line(WIKI).unwrap();
    let expected = "\
5 3 . | . 7 . | . . .
6 . . | 1 9 5 | . . .
. 9 8 | . . . | . 6 .
------+-------+------
8 . . | . 6 . | . . 3
4 . . | 8 . 3 | . . 1
7 . . | . 2 . | . . 6
------+-------+------
. 6 . | . . . | 2 8 .
. . . | 4 1 9 | . . 5
. . . | . 8 . | . 7 9
";
    assert_eq!(g.to_pretty(), expected);
    assert_eq!(format!("{g:#}"), expected);
    assert_eq!(Grid::parse_grid(expected).unwrap(), g);
}

#[test]
fn pretty_4x4_and_16x16_shapes() {
    let g = Grid::parse_line("1.3.............").unwrap();
    assert_eq!(
        g.to_pretty(),
        "1 . | 3 .\n. . | . .\n----+----\n. . | . .\n. . | . .\n"
    );
    let big = pattern(4).to_pretty();
    let lines: Vec<&str> = big.lines().collect();
    assert_eq!(lines.len(), 16 + 3);
    assert_eq!(lines[0], "1 2 3 4 | 5 6 7 8 | 9 A B C | D E F G");
    assert_eq!(lines[4], "--------+---------+---------+--------");
    assert!(
        lines
            .iter()
            .all(|l| l.chars().count() == lines[0].chars().count())
    );
}

#[test]
fn letters_stand_for_values_above_nine() {
    let g = pattern(4);
    assert_eq!(&g.to_line()[..16], "123456789ABCDEFG");
    let g = pattern(5);
    assert_eq!(&g.to_line()[..25], "123456789ABCDEFGHIJKLMNOP");
    assert_eq!(char_value('a'), Some(10));
    assert_eq!(char_value('P'), Some(25));
    assert_eq!(char_value('p'), Some(25));
    assert_eq!(char_value('Q'), None);
    assert_eq!(char_value('0'), Some(0));
    assert_eq!(value_char(16), Some('G'));
    assert_eq!(value_char(26), None);
    // Hexadecimal Sudoku: 0-F for 1-16, and only '.' empty.
    let zero = Alphabet::FromZero;
    assert_eq!(zero.value('0'), Some(1));
    assert_eq!(zero.value('9'), Some(10));
    assert_eq!(zero.value('A'), Some(11));
    assert_eq!(zero.value('f'), Some(16));
    assert_eq!(zero.value('O'), Some(25));
    assert_eq!(zero.value('P'), None);
    assert_eq!(zero.value('.'), Some(0));
    assert_eq!(zero.symbol(0), Some('.'));
    assert_eq!(zero.symbol(1), Some('0'));
    assert_eq!(zero.symbol(16), Some('F'));
    assert_eq!(zero.symbol(26), None);
    assert_eq!(zero.range(16), "0-F");
    assert_eq!(Alphabet::FromOne.range(16), "1-G");
    assert_eq!(Alphabet::FromOne.range(9), "1-9");
}

#[test]
fn lower_case_and_zero_read_like_upper_case_and_dot() {
    let upper = "1.3.G".to_string() + &".".repeat(251);
    let lower = "103.g".to_string() + &"0".repeat(251);
    assert_eq!(
        Grid::parse_line(&upper).unwrap(),
        Grid::parse_line(&lower).unwrap()
    );
    assert_eq!(Grid::parse_line(&lower).unwrap().get(0, 4), 16);
}

#[test]
fn crlf_and_surrounding_whitespace_are_trimmed() {
    let g = Grid::parse_line(WIKI).unwrap();
    assert_eq!(Grid::parse_line(&format!("{WIKI}\r")).unwrap(), g);
    assert_eq!(Grid::parse_line(&format!("  {WIKI}\t\r\n")).unwrap(), g);
    let crlf_pretty = g.to_pretty().replace('\n', "\r\n");
    assert_eq!(Grid::parse_grid(&crlf_pretty).unwrap(), g);
    let batch = format!("# comment\r\n{WIKI}\r\n\r\n{WIKI}\r\n");
    let parsed = parse_batch(&batch);
    assert_eq!(parsed.len(), 2);
    assert_eq!(parsed[0], (2, Ok(g.clone())));
    assert_eq!(parsed[1], (4, Ok(g)));
}

#[test]
fn wrong_length_names_found_and_expected() {
    let e = Grid::parse_line(&WIKI[..80]).unwrap_err();
    assert_eq!(
        e,
        ParseError::WrongLength {
            found: 80,
            expected: 81
        }
    );
    assert_eq!(
        e.to_string(),
        "line has 80 cells; expected 81 (9x9), 16, 256 or 625"
    );
    let e = Grid::parse_line("1234").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line has 4 cells; expected 16 (4x4), 81, 256 or 625"
    );
    let e = Grid::parse_line(&".".repeat(600)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line has 600 cells; expected 625 (25x25), 16, 81 or 256"
    );
    let e = Grid::parse_line("").unwrap_err();
    assert_eq!(
        e,
        ParseError::WrongLength {
            found: 0,
            expected: 16
        }
    );
}

#[test]
fn illegal_char_names_char_and_place() {
    let line = format!("5300x{}", &WIKI[5..]);
    let e = Grid::parse_line(&line).unwrap_err();
    assert_eq!(
        e,
        ParseError::IllegalChar {
            ch: 'x',
            position: 5,
            row: 1,
            col: 5
        }
    );
    assert_eq!(
        e.to_string(),
        "illegal character 'x' at position 5 (row 1, column 5)"
    );
    // Position 32 is the fifth cell of the fourth row.
    let mut line = WIKI.to_string();
    line.replace_range(31..32, "*");
    let e = Grid::parse_line(&line).unwrap_err();
    assert_eq!(
        e.to_string(),
        "illegal character '*' at position 32 (row 4, column 5)"
    );
    // Non-ASCII characters count as one position each, not by their bytes.
    let line = format!("é{}", &WIKI[1..]);
    let e = Grid::parse_line(&line).unwrap_err();
    assert_eq!(
        e,
        ParseError::IllegalChar {
            ch: 'é',
            position: 1,
            row: 1,
            col: 1
        }
    );
    // Letters past P can never be values, so they are illegal even in a 25x25 grid.
    let line = format!("{}Z", ".".repeat(624));
    let e = Grid::parse_line(&line).unwrap_err();
    assert_eq!(
        e,
        ParseError::IllegalChar {
            ch: 'Z',
            position: 625,
            row: 25,
            col: 25
        }
    );
}

#[test]
fn value_too_large_names_value_and_limit() {
    let line = format!("{}A{}", &WIKI[..9], &WIKI[10..]);
    let e = Grid::parse_line(&line).unwrap_err();
    let expected = ParseError::ValueTooLarge {
        ch: 'A',
        value: 10,
        max: 9,
        position: 10,
        row: 2,
        col: 1,
    };
    assert_eq!(e, expected);
    assert_eq!(
        e.to_string(),
        "character 'A' at position 10 (row 2, column 1) stands for 10, \
             but a 9x9 grid holds values up to 9"
    );
    let e = Grid::parse_line("5...............").unwrap_err();
    assert_eq!(
        e,
        ParseError::ValueTooLarge {
            ch: '5',
            value: 5,
            max: 4,
            position: 1,
            row: 1,
            col: 1
        }
    );
    let line = format!("{}h", ".".repeat(255));
    let e = Grid::parse_line(&line).unwrap_err();
    assert_eq!(
        e.to_string(),
        "character 'h' at position 256 (row 16, column 16) stands for 17, but a 16x16 grid holds values up to 16"
    );
}

#[test]
fn grid_form_errors() {
    let g = Grid::parse_line(WIKI).unwrap();
    let pretty = g.to_pretty();

    let missing_row: String = pretty.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let e = Grid::parse_grid(&missing_row).unwrap_err();
    assert_eq!(
        e,
        ParseError::WrongRowCount {
            found: 8,
            expected: 9
        }
    );
    assert_eq!(
        e.to_string(),
        "grid has 8 rows; expected 9 (9x9), 4, 16 or 25"
    );
    let e = Grid::parse_grid("\n  \n------\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "grid has 0 rows; expected 4 (4x4), 9, 16 or 25"
    );

    let short_row = pretty.replacen("6 . . | 1 9 5", "6 . . | 1 9", 1);
    let e = Grid::parse_grid(&short_row).unwrap_err();
    assert_eq!(
        e,
        ParseError::WrongRowLength {
            row: 2,
            found: 8,
            expected: 9
        }
    );
    assert_eq!(e.to_string(), "row 2 has 8 cells; expected 9");

    // Third text line after the rule line is the sixth row; 'x' is its seventh character.
    let bad = pretty.replacen("7 . . | . 2 .", "7 . . x . 2 .", 1);
    let e = Grid::parse_grid(&bad).unwrap_err();
    assert_eq!(
        e,
        ParseError::IllegalChar {
            ch: 'x',
            position: 7,
            row: 6,
            col: 4
        }
    );
    assert_eq!(
        e.to_string(),
        "illegal character 'x' at position 7 (row 6, column 4)"
    );

    let big = pretty.replacen(". . . | . 8 . | . 7 9", ". . . | . 8 . | . 7 b", 1);
    let e = Grid::parse_grid(&big).unwrap_err();
    assert_eq!(
        e,
        ParseError::ValueTooLarge {
            ch: 'b',
            value: 11,
            max: 9,
            position: 21,
            row: 9,
            col: 9
        }
    );
}

#[test]
fn grid_form_accepts_plain_and_loose_layouts() {
    let g = Grid::parse_line(WIKI).unwrap();
    let plain: String = WIKI
        .as_bytes()
        .chunks(9)
        .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
        .collect();
    assert_eq!(Grid::parse_grid(&plain).unwrap(), g);
    let loose = format!("\n\n{}\n\n", plain.replace('\n', "\n\n").replace('.', "0"));
    assert_eq!(Grid::parse_grid(&loose).unwrap(), g);
    let tabs = "1\t2 | 3 4\n3 4|1 2\n+--+--+\n2 1 | 4 3\n4 3 | 2 1";
    assert_eq!(
        Grid::parse_grid(tabs).unwrap().to_line(),
        "1234341221434321"
    );
}

#[test]
fn from_str_picks_the_form_by_shape() {
    let g = Grid::parse_line(WIKI).unwrap();
    assert_eq!(WIKI.parse::<Grid>().unwrap(), g);
    assert_eq!(g.to_pretty().parse::<Grid>().unwrap(), g);
    assert_eq!(format!("\n{WIKI}\n").parse::<Grid>().unwrap(), g);
    assert_eq!(g.to_string(), WIKI);
    assert!(matches!(
        "12\n34".parse::<Grid>(),
        Err(ParseError::WrongRowCount { .. })
    ));
    assert!(matches!(
        "1234".parse::<Grid>(),
        Err(ParseError::WrongLength { .. })
    ));
}

#[test]
fn batch_skips_comments_and_blanks_and_keeps_going_after_errors() {
    let text = format!("# header\n\n   # indented comment\n{WIKI}\nnot a puzzle\n  {WIKI}  \n");
    let got = parse_batch(&text);
    assert_eq!(got.len(), 3);
    assert_eq!(got[0].0, 4);
    assert!(got[0].1.is_ok());
    assert_eq!(
        got[1],
        (
            5,
            Err(ParseError::WrongLength {
                found: 12,
                expected: 16
            })
        )
    );
    assert_eq!(got[2].0, 6);
    assert!(got[2].1.is_ok());
    assert_eq!(PuzzleLines::new("").count(), 0);
    assert_eq!(PuzzleLines::new("#\n\n").count(), 0);
}

#[test]
fn a_leading_byte_order_mark_is_skipped() {
    let text = format!("\u{FEFF}{WIKI}\n");
    assert_eq!(text.parse::<Grid>().unwrap().to_line(), WIKI);
    let batch = parse_batch(&text);
    assert_eq!(batch.len(), 1);
    assert_eq!(batch[0].1.as_ref().unwrap().to_line(), WIKI);
}

#[test]
fn conflicts_name_both_cells_and_the_unit() {
    let mut g = Grid::parse_line(WIKI).unwrap();
    // A second 7 in row 1 (the given 7 is at r1c5), outside that 7's column and box.
    g.set(0, 0, 7);
    let all = g.clashes();
    let first = Clash {
        a: (0, 0),
        b: (0, 4),
        value: 7,
        unit: Unit::Row(0),
    };
    assert_eq!(g.first_clash(), Some(first));
    assert_eq!(
        first.to_string(),
        "givens clash: r1c1 and r1c5 both hold 7 in row 1"
    );
    // r6c1 holds the given 7 too.
    let col = Clash {
        a: (0, 0),
        b: (5, 0),
        value: 7,
        unit: Unit::Column(0),
    };
    assert_eq!(all, vec![first, col]);
    assert_eq!(
        col.to_string(),
        "givens clash: r1c1 and r6c1 both hold 7 in column 1"
    );

    let mut g = Grid::empty(3);
    g.set(3, 3, 4);
    g.set(5, 5, 4);
    let only = Clash {
        a: (3, 3),
        b: (5, 5),
        value: 4,
        unit: Unit::Box(4),
    };
    assert_eq!(g.clashes(), vec![only]);
    assert_eq!(
        only.to_string(),
        "givens clash: r4c4 and r6c6 both hold 4 in box 5"
    );
}

#[test]
fn a_value_repeated_three_times_pairs_with_the_first() {
    let mut g = Grid::empty(2);
    g.set(1, 0, 2);
    g.set(1, 2, 2);
    g.set(1, 3, 2);
    let row = |b| Clash {
        a: (1, 0),
        b,
        value: 2,
        unit: Unit::Row(1),
    };
    let bx = Clash {
        a: (1, 2),
        b: (1, 3),
        value: 2,
        unit: Unit::Box(1),
    };
    assert_eq!(g.clashes(), vec![row((1, 2)), row((1, 3)), bx]);
}

#[test]
fn index_helpers() {
    let g = Grid::empty(3);
    assert_eq!(g.index(4, 7), 43);
    assert_eq!(g.position(43), (4, 7));
    assert_eq!(g.box_index(4, 7), 5);
    assert_eq!(g.box_index(8, 0), 6);
    let b5: Vec<_> = g.unit_cells(Unit::Box(5)).collect();
    assert_eq!(
        b5,
        vec![
            (3, 6),
            (3, 7),
            (3, 8),
            (4, 6),
            (4, 7),
            (4, 8),
            (5, 6),
            (5, 7),
            (5, 8)
        ]
    );
    let c2: Vec<_> = g.unit_cells(Unit::Column(2)).take(2).collect();
    assert_eq!(c2, vec![(0, 2), (1, 2)]);
    assert_eq!(g.units().count(), 27);
    assert_eq!(Grid::empty(5).cells().len(), 625);
}

#[test]
#[should_panic(expected = "outside")]
fn index_rejects_a_column_past_the_edge() {
    Grid::empty(3).get(0, 9);
}

#[test]
#[should_panic(expected = "does not fit")]
fn set_rejects_a_value_too_large() {
    Grid::empty(2).set(0, 0, 5);
}

#[test]
fn from_cells_checks_its_input() {
    assert_eq!(
        Grid::from_cells(6, vec![0; 36 * 36]),
        Err(GridError::UnsupportedBoxSize { box_size: 6 })
    );
    assert_eq!(
        Grid::from_cells(1, vec![0]),
        Err(GridError::UnsupportedBoxSize { box_size: 1 })
    );
    assert_eq!(
        Grid::from_cells(2, vec![0; 15]),
        Err(GridError::WrongCellCount {
            found: 15,
            expected: 16
        })
    );
    let mut cells = vec![0; 16];
    cells[3] = 5;
    let e = Grid::from_cells(2, cells).unwrap_err();
    assert_eq!(
        e,
        GridError::ValueOutOfRange {
            index: 3,
            value: 5,
            max: 4
        }
    );
    assert_eq!(e.to_string(), "cell 3 holds 5, but values go up to 4");
}

#[test]
fn serde_round_trip_and_validation() {
    let g = Grid::parse_line(WIKI).unwrap();
    let json = serde_json::to_string(&g).unwrap();
    assert!(
        json.starts_with(r#"{"box_size":3,"cells":[5,3,0,0,7"#),
        "{json}"
    );
    assert_eq!(serde_json::from_str::<Grid>(&json).unwrap(), g);
    let bad = r#"{"box_size":2,"cells":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,9]}"#;
    let e = serde_json::from_str::<Grid>(bad).unwrap_err();
    assert!(e.to_string().contains("cell 15 holds 9"), "{e}");
    let short = r#"{"box_size":3,"cells":[1,2,3]}"#;
    assert!(serde_json::from_str::<Grid>(short).is_err());
}

fn any_grid() -> impl Strategy<Value = Grid> {
    (MIN_BOX_SIZE..=MAX_BOX_SIZE).prop_flat_map(|b| {
        let n = b * b;
        proptest::collection::vec(0..=n as u8, n * n)
            .prop_map(move |cells| Grid::from_cells(b, cells).unwrap())
    })
}

/// Grids with a few givens, placed at random.
fn sparse_grid() -> impl Strategy<Value = Grid> {
    (MIN_BOX_SIZE..=MAX_BOX_SIZE).prop_flat_map(|b| {
        let n = b * b;
        let weight = n as u32;
        let cell = prop_oneof![8 * weight => Just(0u8), weight => 1..=n as u8];
        proptest::collection::vec(cell, n * n)
            .prop_map(move |cells| Grid::from_cells(b, cells).unwrap())
    })
}

proptest! {
    #[test]
    fn line_form_round_trips(g in any_grid()) {
        let line = g.to_line();
        prop_assert_eq!(line.chars().count(), g.size() * g.size());
        prop_assert_eq!(Grid::parse_line(&line).unwrap(), g.clone());
        prop_assert_eq!(Grid::parse_line(&line.to_lowercase()).unwrap(), g.clone());
        prop_assert_eq!(line.parse::<Grid>().unwrap(), g);
    }

    #[test]
    fn every_alphabet_round_trips_in_both_forms(g in any_grid()) {
        for alphabet in [Alphabet::FromOne, Alphabet::FromZero] {
            let line = g.to_line_in(alphabet);
            prop_assert_eq!(line.chars().count(), g.size() * g.size());
            prop_assert_eq!(Grid::parse_line_in(&line, alphabet).unwrap(), g.clone());
            let lower = line.to_lowercase();
            prop_assert_eq!(Grid::parse_line_in(&lower, alphabet).unwrap(), g.clone());
            let pretty = g.to_pretty_in(alphabet);
            prop_assert_eq!(Grid::parse_grid_in(&pretty, alphabet).unwrap(), g.clone());
        }
    }

    #[test]
    fn pretty_form_round_trips(g in any_grid()) {
        let pretty = g.to_pretty();
        prop_assert_eq!(Grid::parse_grid(&pretty).unwrap(), g.clone());
        prop_assert_eq!(pretty.parse::<Grid>().unwrap(), g.clone());
        let back = Grid::parse_grid(&pretty).unwrap().to_line();
        prop_assert_eq!(Grid::parse_line(&back).unwrap(), g);
    }

    #[test]
    fn serde_round_trips(g in any_grid()) {
        let json = serde_json::to_string(&g).unwrap();
        prop_assert_eq!(serde_json::from_str::<Grid>(&json).unwrap(), g);
    }

    #[test]
    fn sparse_grids_clash_exactly_when_a_pair_does(g in sparse_grid()) {
        // Mostly empty grids: about half have no clash, so both answers get exercised.
        let n = g.size();
        let b = g.box_size();
        let clash = (0..n * n).any(|i| {
            (i + 1..n * n).any(|j| {
                let (ri, ci, rj, cj) = (i / n, i % n, j / n, j % n);
                let v = g.cells()[i];
                v != 0 && v == g.cells()[j]
                    && (ri == rj || ci == cj || (ri / b == rj / b && ci / b == cj / b))
            })
        });
        prop_assert_eq!(g.first_clash().is_some(), clash);
        prop_assert_eq!(g.first_clash(), g.clashes().first().copied());
    }

    #[test]
    fn conflicts_match_a_brute_force_pair_scan(g in any_grid()) {
        // Every pair of equal filled cells sharing a row, column or box, however found.
        let n = g.size();
        let b = g.box_size();
        let mut clashing_pairs = 0usize;
        for i in 0..n * n {
            for j in i + 1..n * n {
                let (ri, ci, rj, cj) = (i / n, i % n, j / n, j % n);
                let v = g.cells()[i];
                if v != 0 && v == g.cells()[j]
                    && (ri == rj || ci == cj || (ri / b == rj / b && ci / b == cj / b))
                {
                    clashing_pairs += 1;
                }
            }
        }
        let conflicts = g.clashes();
        prop_assert_eq!(clashing_pairs == 0, conflicts.is_empty());
        prop_assert_eq!(g.first_clash(), conflicts.first().copied());
        for c in &conflicts {
            prop_assert_eq!(g.get(c.a.0, c.a.1), c.value);
            prop_assert_eq!(g.get(c.b.0, c.b.1), c.value);
            prop_assert!(c.a < c.b);
            let cells: Vec<_> = g.unit_cells(c.unit).collect();
            prop_assert!(cells.contains(&c.a) && cells.contains(&c.b));
        }
    }

    #[test]
    fn any_wrong_length_is_reported(len in 0usize..700) {
        prop_assume!(![16, 81, 256, 625].contains(&len));
        let e = Grid::parse_line(&".".repeat(len)).unwrap_err();
        let is_wrong_length = matches!(e, ParseError::WrongLength { found, .. } if found == len);
        prop_assert!(is_wrong_length);
    }
}

#[test]
fn pattern_grids_have_no_conflicts() {
    for b in MIN_BOX_SIZE..=MAX_BOX_SIZE {
        let g = pattern(b);
        assert!(g.is_filled());
        assert_eq!(g.first_clash(), None, "box size {b}");
    }
}
