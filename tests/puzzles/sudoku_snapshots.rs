//! Snapshots of the solutions of named Sudoku puzzles, in canonical (sorted) form.
//!
//! Each puzzle is solved for *every* solution by the engine ([`Sudoku::solution_set`], sorted,
//! so the text does not depend on the search order). Before anything is compared with a
//! snapshot, every solution is checked by the independent checker (`check::is_valid_solution`:
//! rows, columns and boxes are permutations, givens kept), and the number of solutions is
//! checked against a reference counter written here, a plain backtracking search that shares
//! no code with the engine. Published facts are checked where there are some.

use bezzel::sudoku::check;
use bezzel::sudoku::grid::Grid;
use bezzel::sudoku::model::{self, Status, Sudoku};

/// Counts the solutions of `puzzle` up to `limit` by plain backtracking: fill the empty cell
/// with the fewest candidates, try each candidate. Independent of the engine on purpose.
fn reference_count(puzzle: &Grid, limit: usize) -> usize {
    fn go(cells: &mut [u8], b: usize, limit: usize, found: &mut usize) {
        let n = b * b;
        let mut best: Option<(usize, Vec<u8>)> = None;
        for i in 0..n * n {
            if cells[i] != 0 {
                continue;
            }
            let (r, c) = (i / n, i % n);
            let mut used = vec![false; n + 1];
            for k in 0..n {
                used[usize::from(cells[r * n + k])] = true;
                used[usize::from(cells[k * n + c])] = true;
                let (br, bc) = (r / b * b + k / b, c / b * b + k % b);
                used[usize::from(cells[br * n + bc])] = true;
            }
            let candidates: Vec<u8> = (1..=n as u8).filter(|&v| !used[usize::from(v)]).collect();
            if best
                .as_ref()
                .is_none_or(|(_, cs)| candidates.len() < cs.len())
            {
                let dead = candidates.is_empty();
                best = Some((i, candidates));
                if dead {
                    break;
                }
            }
        }
        match best {
            None => *found += 1,
            Some((i, candidates)) => {
                for v in candidates {
                    if *found >= limit {
                        return;
                    }
                    cells[i] = v;
                    go(cells, b, limit, found);
                }
                cells[i] = 0;
            }
        }
    }
    let mut cells = puzzle.cells().to_vec();
    let mut found = 0;
    go(&mut cells, puzzle.box_size(), limit, &mut found);
    found
}

/// The only solution of `text` (it must have exactly one) and its report (see
/// [`solutions_report`]).
fn unique_report(text: &str) -> (Grid, String) {
    let (mut solutions, report) = solutions_report(text);
    assert_eq!(solutions.len(), 1, "{text}");
    (solutions.remove(0), report)
}

/// Every solution, checked, with the text a snapshot compares: the puzzle, the number of
/// solutions, and each solution in line and grid form.
fn solutions_report(text: &str) -> (Vec<Grid>, String) {
    let puzzle: Grid = text.parse().expect("named puzzles parse");
    let mut sudoku = Sudoku::new(&puzzle).expect("named puzzles have no clashing givens");
    let set = sudoku.solution_set();
    assert!(sudoku.stats().is_complete());
    let n = puzzle.size();
    assert_eq!(set.variables.len(), n * n);
    assert_eq!(set.variables[0], "r1c1");
    assert_eq!(set.variables[n * n - 1], format!("r{n}c{n}"));
    let solutions: Vec<Grid> = set
        .iter()
        .map(|row| {
            let cells = row.iter().map(|&v| u8::try_from(v).unwrap()).collect();
            Grid::from_cells(puzzle.box_size(), cells).unwrap()
        })
        .collect();
    for s in &solutions {
        assert_eq!(check::is_valid_solution(&puzzle, s), Ok(()), "{s}");
    }
    assert_eq!(
        solutions.len(),
        reference_count(&puzzle, 1000),
        "the reference counter disagrees on {puzzle}"
    );
    // Counting up to 2 agrees with the full enumeration.
    let two = model::count(&puzzle, 2).unwrap();
    let expected = match solutions.len() {
        0 => Status::NoSolution,
        1 => Status::Unique,
        _ => Status::Multiple,
    };
    assert_eq!(two.status(), expected);
    if let Some(first) = &two.solution {
        assert!(solutions.contains(first));
    }

    let n = puzzle.size();
    let mut report = format!(
        "{n}x{n}, {} givens\n{}\n{}",
        puzzle.givens(),
        puzzle.to_line(),
        puzzle.to_pretty()
    );
    report += &match solutions.len() {
        0 => "\nno solution\n".to_string(),
        1 => "\n1 solution\n".to_string(),
        k => format!("\n{k} solutions\n"),
    };
    for s in &solutions {
        report += &format!("\n{}\n{}", s.to_line(), s.to_pretty());
    }
    (solutions, report)
}

/// Wikipedia's "Sudoku" article: the puzzle and the solution printed beside it.
const WIKIPEDIA: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const WIKIPEDIA_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

#[test]
fn easy_wikipedia() {
    let (solution, report) = unique_report(WIKIPEDIA);
    assert_eq!(solution.to_line(), WIKIPEDIA_SOLUTION);
    insta::assert_snapshot!("easy_wikipedia", report);
}

/// A 16x16 puzzle made for this test: the textbook pattern grid with its values relabelled
/// and its bands, stacks, rows and columns shuffled (which keeps it a valid Sudoku), then 115
/// of its 256 cells emptied at random; 141 givens remain and the solution is unique.
const SIXTEEN: &str = "A..CD.4.....F39...E.27.136..A5..F3..5A..D.4B72G172.G3F.658C..D4ED7....6..9..5.E..BC..D.4..62.A89.F.6A389....D...3A98B.EC741.2F6G4.726.3F...9..D.G..38..A.......798...C..17..G6.FCE.D14..6F3..85A8C.B.E..G..1..A31G2F...3C5B..47.E.D.G1F.9..6..B5.9.AC8..4D..1.F.";

/// A 25x25 puzzle made the same way as [`SIXTEEN`], with 407 of its 625 cells given.
const TWENTY_FIVE: &str = "N.AE..KF..MO.L.39.....I7.9J5.B..H.CF.KD.1I8..OPL6..FG.4LP.O6821I.E.H..5..BJLMOP6..827...9BKDF.GAENC.I8.17.3J.....NCP.M6O.KD4FJBL5.HA.I14..F3287K.NOME.H..A1F.4.36NO..5..PLD....8..2KJ.BLP.IAH.OM...9GF3.M6NO..27DK.L5..GF4..I.H1C.49.3.O.NE.D.8KAHC1IL5J.BEA.HI.FG....MP.J35LB78..2.5BJ..HACIG4...8.2..6M.NO1..8D3J5BLACH.I.PO..4FK.GPO6M.1827D5B.3..KG94.HEIAK..F.PMO6N..81D.EAICB.3.5AI.C..493JNE6OHB5..P.72F..L...A.I189.4G..2DF.E6O..G934.O.NEH..72.CA.8..B5..2DK7F..LPM..C.8.ONH..4GJ9O..6H.7DKF.PB5M4G.J3..A8I6.HNA7DK.G.MLB.9.3...I.2.B.ML.C.1.23.945.7KGFHN6AE7......PMO....2N...H.945.43J9.6NEHAK.D7GI..28.LBO.C18.2.9...EHN6AL...MF..GK";

#[test]
fn unique_puzzles_report_as_their_snapshots() {
    for (name, puzzle, givens) in [
        // The first puzzle of magictour's top1465 (tests/data/top1465_sample.txt, line 10), a
        // collection of hard puzzles, each with a unique solution.
        (
            "hard_top1465_first",
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
            18,
        ),
        // The first puzzle of the 17-clue collection (tests/data/sudoku17_sample.txt, line
        // 12): 17 givens, the fewest a 9x9 puzzle with a unique solution can have.
        (
            "seventeen_clues",
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
            17,
        ),
        // Four givens, the fewest a 4x4 puzzle with a unique solution can have.
        ("four_by_four", "....3..2..4....3", 4),
        ("sixteen_by_sixteen", SIXTEEN, 141),
        ("twenty_five_by_twenty_five", TWENTY_FIVE, 407),
    ] {
        assert_eq!(Grid::parse_line(puzzle).unwrap().givens(), givens, "{name}");
        let (_, report) = unique_report(puzzle);
        insta::assert_snapshot!(name, report);
    }
}

#[test]
fn no_solution_without_clashing_givens() {
    // Wikipedia's puzzle has a unique solution, with a 4 at r1c3. Giving r1c3 = 1 instead
    // clashes with no other given, but a puzzle whose only solution breaks a given has none.
    let mut puzzle = Grid::parse_line(WIKIPEDIA).unwrap();
    assert_eq!(WIKIPEDIA_SOLUTION.as_bytes()[2], b'4');
    puzzle.set(0, 2, 1);
    assert_eq!(puzzle.first_clash(), None);
    let (solutions, report) = solutions_report(&puzzle.to_line());
    assert!(solutions.is_empty());
    assert_eq!(model::solve(&puzzle).unwrap().status(), Status::NoSolution);
    insta::assert_snapshot!("no_solution", report);
}

#[test]
fn several_solutions_9x9() {
    // Wikipedia's solution with the cells of two "unique rectangles" emptied (r4c6 r4c9
    // r5c6 r5c9 hold 1 3 / 3 1, r7c4 r7c9 r8c4 r8c9 hold 5 4 / 4 5; each rectangle spans two
    // boxes, so its two values can swap), and the six non-given cells of row 1 emptied too.
    // Each rectangle can be filled two ways, independently: 4 solutions.
    let mut puzzle = Grid::parse_line(WIKIPEDIA_SOLUTION).unwrap();
    for (r, c) in [
        (3, 5),
        (3, 8),
        (4, 5),
        (4, 8),
        (6, 3),
        (6, 8),
        (7, 3),
        (7, 8),
    ] {
        puzzle.set(r, c, 0);
    }
    for c in [2, 3, 5, 6, 7, 8] {
        puzzle.set(0, c, 0);
    }
    let (solutions, report) = solutions_report(&puzzle.to_line());
    assert_eq!(solutions.len(), 4);
    assert!(solutions.iter().any(|s| s.to_line() == WIKIPEDIA_SOLUTION));
    insta::assert_snapshot!("several_9x9", report);
}

#[test]
fn several_solutions_4x4_as_a_solution_set() {
    // The framework's own snapshot form: the canonical SolutionSet, one solution per line
    // as `name=value` pairs over the cells r1c1 ... r4c4.
    let puzzle = Grid::parse_line("1...3.........2.").unwrap();
    let mut sudoku = Sudoku::new(&puzzle).unwrap();
    let set = sudoku.solution_set();
    assert_eq!(set.len(), reference_count(&puzzle, 1000));
    for row in set.iter() {
        let cells = row.iter().map(|&v| u8::try_from(v).unwrap()).collect();
        let grid = Grid::from_cells(2, cells).unwrap();
        assert_eq!(check::is_valid_solution(&puzzle, &grid), Ok(()));
    }
    insta::assert_snapshot!("several_4x4_solution_set", set.to_string());
    let (_, report) = solutions_report(&puzzle.to_line());
    insta::assert_snapshot!("several_4x4", report);
}

#[test]
fn the_empty_grids_have_the_published_numbers_of_solutions() {
    // 288 4x4 grids (a known count); a 9x9 grid has far more than the limit.
    let o = model::count(&Grid::empty(2), 10_000).unwrap();
    assert_eq!((o.solutions, o.exact), (288, true));
    assert_eq!(reference_count(&Grid::empty(2), 10_000), 288);
    let o = model::count(&Grid::empty(3), 50).unwrap();
    assert_eq!((o.solutions, o.exact), (50, false));
    assert_eq!(o.status(), Status::Multiple);
    let first = o.solution.unwrap();
    assert!(check::is_complete_and_valid(&first));
}

#[test]
fn the_reference_counter_can_tell_right_from_wrong() {
    // The reference must not simply agree with anything: a full valid grid has one
    // solution, and breaking it (two 5s in row 1) leaves none.
    let solved = Grid::parse_line(WIKIPEDIA_SOLUTION).unwrap();
    assert_eq!(reference_count(&solved, 10), 1);
    let mut broken = Grid::parse_line(WIKIPEDIA).unwrap();
    broken.set(0, 2, 5);
    assert_eq!(reference_count(&broken, 10), 0);
    assert_eq!(
        reference_count(&Grid::parse_line(WIKIPEDIA).unwrap(), 10),
        1
    );
}
