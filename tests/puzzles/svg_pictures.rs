//! The SVG pictures of boards and grids: well-formed XML (parsed by an XML reader that knows
//! nothing of this code), holding exactly the queens and digits they should, and snapshots of
//! small ones; and `--format svg` in both programs.

use crate::common;

use bezzel::queens::svg as queens_svg;
use bezzel::sudoku::grid::{Alphabet, Grid};
use bezzel::sudoku::svg as sudoku_svg;
use common::{run, stdout};

/// The queens of a picture: (row, column) of each `<use>` of the queen, from its position.
fn queens_in(svg: &str, square: f64) -> Vec<(usize, usize)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let mut queens: Vec<(usize, usize)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("use"))
        .map(|n| {
            let at = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap() / square;
            (at("y") as usize, at("x") as usize)
        })
        .collect();
    queens.sort_unstable();
    queens
}

#[test]
fn every_queen_is_drawn_where_the_placement_puts_it() {
    // The 2 solutions of n = 4 and the 10 of n = 5, from the published counts' boards.
    for p in [vec![1, 3, 0, 2], vec![2, 0, 3, 1], vec![0, 2, 4, 1, 3]] {
        let options = queens_svg::Options::default();
        let svg = queens_svg::board(&p, &options);
        let expected: Vec<(usize, usize)> = p.iter().copied().enumerate().collect();
        assert_eq!(queens_in(&svg, options.square), expected);
    }
    let big: Vec<usize> = bezzel::queens::construct::construct(200).unwrap();
    let options = queens_svg::Options::fitted(200);
    let svg = queens_svg::board(&big, &options);
    assert_eq!(queens_in(&svg, options.square).len(), 200);
}

#[test]
fn sheets_and_attacks_are_well_formed() {
    let sols: Vec<Vec<usize>> = bezzel::queens::model::Queens::lexicographic(6)
        .unwrap()
        .solutions()
        .collect();
    let captions: Vec<String> = (0..sols.len()).map(|i| format!("<{i}> & \"x\"")).collect();
    let svg = queens_svg::sheet(&sols, &captions, &queens_svg::Options::default());
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(
        texts,
        captions.iter().map(String::as_str).collect::<Vec<_>>()
    );
    let options = queens_svg::Options {
        attacks: true,
        ..queens_svg::Options::default()
    };
    let placement = [0, 1, 3, 4, 4, 9];
    let wrong = queens_svg::board(&placement, &options);
    roxmltree::Document::parse(&wrong).expect("well-formed SVG");
    // Red queens: those that attack another, by the definition, pair by pair.
    let n = placement.len();
    let attacked = (0..n)
        .filter(|&i| placement[i] < n)
        .filter(|&i| {
            (0..n).any(|j| {
                j != i
                    && placement[j] < n
                    && (placement[i] == placement[j]
                        || placement[i].abs_diff(placement[j]) == i.abs_diff(j))
            })
        })
        .count();
    assert_eq!(
        attacked, 5,
        "rows 0-1 and 2-3 share diagonals, 3-4 a column"
    );
    assert_eq!(wrong.matches("fill=\"#d22\"/>").count(), attacked);
}

#[test]
fn small_boards_snapshot() {
    insta::assert_snapshot!(
        "queens_board_4",
        queens_svg::board(&[1, 3, 0, 2], &queens_svg::Options::default())
    );
    let options = queens_svg::Options {
        square: 10.0,
        attacks: true,
        columns: 2,
    };
    insta::assert_snapshot!(
        "queens_sheet_attacks",
        queens_svg::sheet(&[vec![1, 3, 0, 2], vec![0, 1, 2, 3]], &[], &options)
    );
}

/// A solved grid of box size `b` by the shifted-rows pattern, checked by the independent
/// checker, and a puzzle made of it by emptying every cell whose index is not a multiple of 3.
fn solved_and_puzzle(b: usize) -> (Grid, Grid) {
    let n = b * b;
    let cells: Vec<u8> = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            ((b * (r % b) + r / b + c) % n + 1) as u8
        })
        .collect();
    let solved = Grid::from_cells(b, cells.clone()).unwrap();
    assert!(bezzel::sudoku::check::is_complete_and_valid(&solved));
    let holes = cells
        .iter()
        .enumerate()
        .map(|(i, &v)| if i % 3 == 0 { v } else { 0 })
        .collect();
    (solved, Grid::from_cells(b, holes).unwrap())
}

#[test]
fn grids_of_every_size_draw_givens_and_filled_cells_apart() {
    for b in 2..=5 {
        let (solved, puzzle) = solved_and_puzzle(b);
        let svg = sudoku_svg::grid(&puzzle, Some(&solved), Alphabet::FromOne);
        let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
        let n = b * b;
        for text in doc.descendants().filter(|n| n.has_tag_name("text")) {
            let at = |a: &str| (text.attribute(a).unwrap().parse::<f64>().unwrap() / 36.0) as usize;
            let (row, col) = (at("y"), at("x"));
            let value = Alphabet::FromOne.value(text.text().unwrap().chars().next().unwrap());
            assert_eq!(
                value,
                Some(solved.get(row, col)),
                "cell {row},{col} of {n}x{n}"
            );
            let given = puzzle.get(row, col) != 0;
            assert_eq!(
                text.attribute("class"),
                Some(if given { "given" } else { "filled" })
            );
        }
        let texts = doc.descendants().filter(|n| n.has_tag_name("text")).count();
        assert_eq!(texts, n * n);
    }
}

#[test]
fn small_grid_snapshot() {
    let (solved, puzzle) = solved_and_puzzle(2);
    insta::assert_snapshot!(
        "sudoku_grid_4",
        sudoku_svg::grid(&puzzle, Some(&solved), Alphabet::FromOne)
    );
}

#[test]
fn programs_write_svg() {
    let out = run("queens", &["first", "8", "--format", "svg"], None);
    assert!(out.status.success());
    let svg = stdout(&out);
    let expected: Vec<(usize, usize)> = [0, 4, 7, 5, 2, 6, 1, 3].into_iter().enumerate().collect();
    let square = queens_svg::Options::fitted(8).square;
    assert_eq!(queens_in(&svg, square), expected);

    // A solution with its lines shaded: no queen in red, as none attacks another.
    let out = run(
        "queens",
        &["first", "6", "--format", "svg", "--attacks"],
        None,
    );
    assert!(out.status.success());
    let svg = stdout(&out);
    assert_eq!(
        queens_in(&svg, queens_svg::Options::fitted(6).square).len(),
        6
    );
    assert!(svg.contains("stroke-opacity") && !svg.contains("fill=\"#d22\"/>"));
    let out = run("queens", &["first", "6", "--attacks"], None);
    assert_eq!(out.status.code(), Some(2), "--attacks without --format svg");

    let out = run(
        "queens",
        &["unique", "6", "--list", "--format", "svg"],
        None,
    );
    assert!(out.status.success());
    assert_eq!(
        queens_in(&stdout(&out), queens_svg::Options::fitted(6).square).len(),
        6
    );

    let puzzles =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\nxyz\n";
    let out = run("sudoku", &["--format", "svg"], Some(puzzles));
    assert_eq!(out.status.code(), Some(2), "the bad line makes status 2");
    let svg = stdout(&out);
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let captions: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("class").is_none())
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(captions.len(), 2);
    assert_eq!(captions[0], "line 1: unique");
    assert!(captions[1].starts_with("line 2: error"), "{captions:?}");
    let cells = doc
        .descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c == "given" || c == "filled")
        })
        .count();
    assert_eq!(cells, 81);
}

/// Captions holding characters XML 1.0 forbids (controls, U+FFFE, U+FFFF) still give
/// well-formed pictures: those characters are dropped, the rest kept.
#[test]
fn captions_with_characters_xml_forbids_stay_well_formed() {
    let bad = "a\u{1}b\u{FFFE}c\u{FFFF}d\u{1F}e";
    let svg = queens_svg::sheet(
        &[vec![0]],
        &[bad.to_string()],
        &queens_svg::Options::default(),
    );
    let doc = roxmltree::Document::parse(&svg).expect("well-formed queens SVG");
    let text = doc.descendants().find(|n| n.has_tag_name("text")).unwrap();
    assert_eq!(text.text(), Some("abcde"));
    let entry = sudoku_svg::Entry {
        caption: bad,
        puzzle: None,
        solution: None,
        alphabet: Alphabet::FromOne,
    };
    let svg = sudoku_svg::sheet(&[entry]);
    let doc = roxmltree::Document::parse(&svg).expect("well-formed sudoku SVG");
    let text = doc.descendants().find(|n| n.has_tag_name("text")).unwrap();
    assert_eq!(text.text(), Some("abcde"));
}

/// Two pictures inline in one HTML page share one id space: boards of different square
/// sizes name their patterns apart (each board fills with its own), so neither draws with
/// the other's tiles; an id two pictures share names the same definition.
#[test]
fn pictures_of_different_sizes_use_ids_apart() {
    let pattern_of = |svg: &str| {
        let doc = roxmltree::Document::parse(svg).unwrap();
        let pattern = doc
            .descendants()
            .find(|n| n.has_tag_name("pattern"))
            .unwrap();
        let id = pattern.attribute("id").unwrap().to_string();
        let width = pattern.attribute("width").unwrap().to_string();
        let fill = doc
            .descendants()
            .filter_map(|n| n.attribute("fill"))
            .find(|f| f.starts_with("url(#"))
            .unwrap()
            .to_string();
        assert_eq!(fill, format!("url(#{id})"));
        (id, width)
    };
    let options = |square| queens_svg::Options {
        square,
        ..queens_svg::Options::default()
    };
    let (a, wa) = pattern_of(&queens_svg::board(&[1, 3, 0, 2], &options(40.0)));
    let (b, wb) = pattern_of(&queens_svg::board(&[1, 3, 0, 2], &options(10.0)));
    let (c, wc) = pattern_of(&queens_svg::board(&[0], &options(10.0)));
    assert_ne!(a, b);
    assert_ne!(wa, wb);
    assert_eq!((b, wb), (c, wc));
}

/// With nothing to draw, `--format svg` still prints one picture, and it says so: a caption
/// alone, in a picture tall enough to show it (it once printed nothing, or an empty picture
/// 0 or 1 pixel high).
#[test]
fn nothing_to_draw_is_a_picture_that_says_so() {
    let caption_of = |svg: &str| {
        let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
        let root = doc.root_element();
        let height: f64 = root.attribute("height").unwrap().parse().unwrap();
        let width: f64 = root.attribute("width").unwrap().parse().unwrap();
        assert!(height >= 20.0 && width >= 100.0, "{svg}");
        let texts: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text().map(String::from))
            .collect();
        texts
    };
    for args in [
        &["all", "2", "--format", "svg"][..],
        &["all", "8", "--format", "svg", "--limit", "0"],
        &["unique", "3", "--list", "--format", "svg"],
        &["unique", "8", "--list", "--format", "svg", "--limit", "0"],
    ] {
        let out = run("queens", args, None);
        assert!(out.status.success(), "{args:?}");
        assert_eq!(
            caption_of(&stdout(&out)),
            ["no solutions shown"],
            "{args:?}"
        );
    }
    let out = run("sudoku", &["--format", "svg"], Some(""));
    assert!(out.status.success());
    assert_eq!(caption_of(&stdout(&out)), ["no puzzles"]);
    assert_eq!(
        caption_of(&queens_svg::sheet(
            &[],
            &[],
            &queens_svg::Options::default()
        )),
        ["no placements"]
    );
}

/// `unique --list --format svg` cut short by the time limit still prints the picture of what
/// was listed, as text prints the lines so far (it once printed nothing). Where the limit
/// lands depends on the machine: the assertion is for every run whose listing was cut
/// (the stderr says how many were listed), and a few limits make one likely.
#[test]
fn a_listing_cut_short_is_still_drawn() {
    for limit in ["0.02s", "0.04s", "0.08s", "0.15s"] {
        let args = [
            "unique",
            "13",
            "--list",
            "--format",
            "svg",
            "--time-limit",
            limit,
        ];
        let out = run("queens", &args, None);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        let Some(at) = err.find(" unique solutions listed") else {
            continue;
        };
        assert_eq!(out.status.code(), Some(124), "{err}");
        let digits: String = err[..at]
            .chars()
            .rev()
            .take_while(char::is_ascii_digit)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let listed: usize = digits.parse().unwrap();
        let svg = stdout(&out);
        let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
        let boards = doc.descendants().filter(|n| n.has_tag_name("g")).count();
        assert_eq!(boards, listed, "{err}");
    }
}

/// Options out of range still give a picture of sensible size: a square that is not a
/// positive finite number is the default's, a huge one is capped, and a sheet has no more
/// columns than boards (NaN, infinite or negative sizes, and widths of 10^20 pixels, once).
#[test]
fn options_out_of_range_give_pictures_of_sensible_size() {
    let size_of = |svg: &str| {
        let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
        let root = doc.root_element();
        let get = |a: &str| -> f64 { root.attribute(a).unwrap().parse().unwrap() };
        (get("width"), get("height"))
    };
    let boards = vec![vec![1, 3, 0, 2]; 3];
    let plain = queens_svg::Options::default();
    for square in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -5.0, 0.0] {
        let options = queens_svg::Options {
            square,
            ..plain.clone()
        };
        assert_eq!(
            size_of(&queens_svg::board(&boards[0], &options)),
            size_of(&queens_svg::board(&boards[0], &plain)),
            "square {square}"
        );
    }
    let huge = queens_svg::Options {
        square: 1e300,
        ..plain.clone()
    };
    let (w, h) = size_of(&queens_svg::board(&boards[0], &huge));
    assert!(w.is_finite() && h.is_finite() && w <= 1e6, "{w} x {h}");
    let three = queens_svg::Options {
        columns: 3,
        ..plain.clone()
    };
    let many = queens_svg::Options {
        columns: usize::MAX,
        ..plain.clone()
    };
    let ten = queens_svg::Options {
        columns: 10,
        ..plain
    };
    let expected = size_of(&queens_svg::sheet(&boards, &[], &three));
    assert_eq!(size_of(&queens_svg::sheet(&boards, &[], &many)), expected);
    assert_eq!(size_of(&queens_svg::sheet(&boards, &[], &ten)), expected);
}

/// A sudoku sheet is wide enough for its longest caption: at 14 pixels, sans-serif text
/// takes at least about half its size a character, 7 pixels (an error line of 70 characters
/// was once cut off at 328 pixels).
#[test]
fn sudoku_captions_fit_their_sheet() {
    let caption = "line 2: error: line has 7 cells; expected 16 (4x4), 81, 256 or 625";
    let entry = sudoku_svg::Entry {
        caption,
        puzzle: None,
        solution: None,
        alphabet: Alphabet::FromOne,
    };
    let svg = sudoku_svg::sheet(&[entry]);
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let width: f64 = doc
        .root_element()
        .attribute("width")
        .unwrap()
        .parse()
        .unwrap();
    assert!(width >= 7.0 * caption.chars().count() as f64, "{width}");
}
