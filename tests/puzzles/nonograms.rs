//! The nonogram of `examples/nonogram.rs`: pictures solved back from their own clues, the
//! solution sets checked against brute force, and bad files.

#[allow(dead_code)] // the example's `main` is not called here
#[path = "../../examples/nonogram.rs"]
mod nonogram;

use nonogram::{Puzzle, model, parse, picture};

/// The clue of a line: the lengths of its runs of `#`.
fn clue(line: &[u8]) -> Vec<usize> {
    line.split(|&c| c != b'#')
        .map(<[u8]>::len)
        .filter(|&n| n > 0)
        .collect()
}

/// The puzzle file of a picture (rows of `#` and `.`): ground truth for the solver.
fn puzzle_file(picture: &str) -> String {
    let rows: Vec<&[u8]> = picture.lines().map(str::as_bytes).collect();
    let cols: Vec<Vec<u8>> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c]).collect())
        .collect();
    let line = |clue: Vec<usize>| {
        clue.iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut file = format!("# from a picture\n{} {}\n", rows.len(), cols.len());
    for r in &rows {
        file += &format!("{}\n", line(clue(r)));
    }
    for c in &cols {
        file += &format!("{}\n", line(clue(c)));
    }
    file
}

/// Every solution of the model, as pictures, in search order.
fn solve(p: &Puzzle) -> Vec<String> {
    let (mut solver, cells) = model(p).unwrap();
    solver.solutions().map(|s| picture(&s, &cells)).collect()
}

/// Every solution by brute force: each row any line with the row's clue, then the columns
/// checked; sorted.
fn brute_force(p: &Puzzle) -> Vec<String> {
    let w = p.cols.len();
    let lines: Vec<Vec<u8>> = (0..1u32 << w)
        .map(|bits| {
            (0..w)
                .map(|c| if bits >> c & 1 == 1 { b'#' } else { b'.' })
                .collect()
        })
        .collect();
    let mut grids: Vec<Vec<&[u8]>> = vec![vec![]];
    for row in &p.rows {
        let fits: Vec<&[u8]> = lines
            .iter()
            .filter(|l| clue(l) == *row)
            .map(Vec::as_slice)
            .collect();
        grids = grids
            .iter()
            .flat_map(|g| fits.iter().map(move |&l| [g.clone(), vec![l]].concat()))
            .collect();
    }
    let mut all: Vec<String> = grids
        .into_iter()
        .filter(|g| (0..w).all(|c| clue(&g.iter().map(|r| r[c]).collect::<Vec<_>>()) == p.cols[c]))
        .map(|g| {
            g.iter()
                .map(|r| String::from_utf8(r.to_vec()).unwrap())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    all.sort();
    all
}

#[test]
fn a_picture_comes_back_from_its_clues() {
    // A duck; brute force below says no other picture has its clues.
    let duck = "\
..##....
.#.##...
####....
..#...##
.#######
.######.
..####..";
    let puzzle = parse(&puzzle_file(duck)).unwrap();
    assert_eq!(brute_force(&puzzle), [duck]);
    assert_eq!(solve(&puzzle), [duck]);
}

#[test]
fn solution_sets_agree_with_brute_force() {
    let pictures = [
        "#..\n.#.\n..#",
        "##.#\n.#..\n#.##\n..#.",
        "#.#.#\n.#.#.\n#.#.#\n.#.#.",
    ];
    for p in pictures {
        let puzzle = parse(&puzzle_file(p)).unwrap();
        let mut found = solve(&puzzle);
        found.sort();
        assert_eq!(found, brute_force(&puzzle), "the clues of\n{p}");
    }
}

#[test]
fn a_puzzle_with_several_solutions() {
    // One filled cell per row and column: the 6 permutations of 3.
    let puzzle = parse("3 3\n1\n1\n1\n1\n1\n1\n").unwrap();
    let found = solve(&puzzle);
    assert_eq!(found.len(), 6);
    insta::assert_snapshot!("nonogram_permutations_3", found.join("\n\n"));
}

#[test]
fn empty_clues_and_comments() {
    let puzzle = parse("# two by three\n2 3\n\n# a comment between clues\n3\n1\n1\n1\n").unwrap();
    assert_eq!(puzzle.rows, [vec![], vec![3]]);
    assert_eq!(solve(&puzzle), ["...\n###"]);
}

#[test]
fn bad_files_say_what_is_wrong() {
    let error = |text: &str| parse(text).unwrap_err();
    assert_eq!(error(""), "empty file: expected `rows cols`");
    assert_eq!(
        error("# only a comment\n"),
        "empty file: expected `rows cols`"
    );
    assert_eq!(error("2\n"), "line 1: expected `rows cols`, each 1 to 1000");
    assert_eq!(
        error("0 3\n"),
        "line 1: expected `rows cols`, each 1 to 1000"
    );
    assert_eq!(error("2 x\n"), "line 1: `x` is not a number");
    assert_eq!(error("2 2\n1\n-1\n"), "line 3: `-1` is not a number");
    assert_eq!(
        error("2 2\n1\n1\n1\n"),
        "the file ends before the clue of column 2"
    );
    assert_eq!(
        error("2 2\n1 1\n1\n1\n1\n"),
        "line 2: the clue of row 1 needs 3 cells; it has 2"
    );
    assert_eq!(
        error("1 1\n1\n1\n1\n"),
        "line 4: more lines than 1 rows and 1 columns"
    );
}
