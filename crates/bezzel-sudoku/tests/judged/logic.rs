//! The logical solver judged against each puzzle's unique solution, found by the engine and
//! confirmed by the independent checker: every step it takes, on the top1465 and 17-clue
//! samples, places the solution's value or removes a candidate that is not the solution's.

use bezzel_sudoku::check;
use bezzel_sudoku::grid::Grid;
use bezzel_sudoku::logic::{self, Candidates, Difficulty, Grade, Technique};
use bezzel_sudoku::model::{self, Status};
use bezzel_sudoku::reader::PuzzleLines;
use std::collections::BTreeMap;

const TOP1465: &str = include_str!("../../../../tests/data/top1465_sample.txt");
const SEVENTEEN: &str = include_str!("../../../../tests/data/sudoku17_sample.txt");

fn puzzles(text: &str) -> Vec<Grid> {
    PuzzleLines::new(text)
        .map(|(line, g)| g.unwrap_or_else(|e| panic!("line {line}: {e}")))
        .collect()
}

/// The puzzle's one solution, proven unique by the engine and valid by the checker.
fn solution(puzzle: &Grid) -> Grid {
    let outcome = model::count(puzzle, 2).unwrap();
    assert_eq!(outcome.status(), Status::Unique, "{}", puzzle.to_line());
    let solution = outcome.solution.unwrap();
    assert_eq!(check::is_valid_solution(puzzle, &solution), Ok(()));
    solution
}

/// Walks the logical solution of `puzzle`, checking every step against its solution; the
/// techniques used.
fn assert_every_step_valid(puzzle: &Grid) -> Vec<Technique> {
    let solution = solution(puzzle);
    let mut grid = Candidates::new(puzzle);
    let mut used = Vec::new();
    // The candidates start right: the solution's value is one of each open cell's.
    for cell in 0..puzzle.cells().len() {
        if grid.value(cell) == 0 {
            assert!(grid.has(cell, solution.cells()[cell]));
        }
    }
    while let Some(step) = logic::next_step(&grid) {
        let what = step.describe(puzzle.size());
        if let Some((cell, value)) = step.place {
            assert_eq!(
                solution.cells()[cell],
                value,
                "{what} in {}",
                puzzle.to_line()
            );
        }
        for &(cell, value) in &step.remove {
            assert_ne!(
                solution.cells()[cell],
                value,
                "{what} in {}",
                puzzle.to_line()
            );
            assert!(grid.has(cell, value), "{what} removes a value already gone");
        }
        assert!(
            step.place.is_some() || !step.remove.is_empty(),
            "{what} does nothing"
        );
        grid.apply(&step);
        used.push(step.technique);
    }
    if grid.is_solved() {
        assert_eq!(grid.grid(), solution);
    }
    used
}

#[test]
fn every_step_on_the_samples_keeps_the_solution() {
    let mut seen: BTreeMap<Technique, usize> = BTreeMap::new();
    for puzzle in puzzles(TOP1465).iter().chain(&puzzles(SEVENTEEN)) {
        for t in assert_every_step_valid(puzzle) {
            *seen.entry(t).or_default() += 1;
        }
    }
    // The samples exercise most techniques, so the check above covers them.
    for t in [
        Technique::HiddenSingleBox,
        Technique::NakedSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::XWing,
        Technique::SimpleColoring,
        Technique::ForcingChain,
    ] {
        assert!(seen.contains_key(&t), "{t} never used: {seen:?}");
    }
}

#[test]
fn the_rating_of_a_puzzle_solved_by_singles_is_easy_and_the_hardest_beyond() {
    // Wikipedia's puzzle falls to singles; the first of the forum's hardest list needs
    // more than these techniques, forcing chains included.
    for (line, level) in [
        (
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
            Difficulty::Easy,
        ),
        (
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
            Difficulty::Beyond,
        ),
    ] {
        let puzzle: Grid = line.parse().unwrap();
        assert_every_step_valid(&puzzle);
        let rating = logic::rate(&puzzle);
        assert_eq!(rating.difficulty(), level, "{line}");
        match rating.grade {
            Grade::Solved { .. } => assert!(rating.score() <= Technique::HiddenSingleLine.score()),
            Grade::BeyondLogic { open, .. } => assert!(open > 0),
        }
    }
}

/// The grade read off the step-by-step explanation: every step built, none in bulk.
fn grade_by_steps(puzzle: &Grid) -> (Grade, usize) {
    let (steps, grid) = logic::explain(puzzle);
    let hardest = steps.iter().map(|s| s.technique).max();
    let open = (0..puzzle.cells().len())
        .filter(|&c| grid.value(c) == 0)
        .count();
    (Grade::new(hardest, open), steps.len())
}

#[test]
fn the_rating_with_singles_in_bulk_matches_the_step_by_step_explanation() {
    let generated = bezzel_sudoku::generate::generate(
        bezzel_sudoku::generate::Options {
            minimal: true,
            seed: 21,
            ..Default::default()
        },
        60,
    )
    .unwrap();
    let puzzles = puzzles(TOP1465)
        .into_iter()
        .chain(puzzles(SEVENTEEN))
        .chain(generated.into_iter().map(|g| g.puzzle));
    for puzzle in puzzles {
        let rating = logic::rate(&puzzle);
        assert_eq!(
            (rating.grade, rating.steps),
            grade_by_steps(&puzzle),
            "{}",
            puzzle.to_line()
        );
        // With every level allowed, the ceiling changes nothing.
        assert_eq!(logic::rate_within(&puzzle, Difficulty::Beyond), rating);
    }
}

/// Puzzles of the top1465 list that forcing chains with singles alone do not finish: the
/// dynamic forcing chain, which forces with every pattern, does.
const FOR_DYNAMIC_CHAINS: [&str; 3] = [
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
    "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5...........",
    "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5",
];

#[test]
fn dynamic_forcing_chains_keep_the_solution_and_finish_what_singles_chains_do_not() {
    for line in FOR_DYNAMIC_CHAINS {
        let puzzle: Grid = line.parse().unwrap();
        let used = assert_every_step_valid(&puzzle);
        assert!(used.contains(&Technique::DynamicForcingChain), "{line}");
        let rating = logic::rate(&puzzle);
        assert_eq!(rating.difficulty(), Difficulty::Extreme, "{line}");
        // Without the dynamic chain (a ceiling below extreme) the puzzle is beyond.
        assert_eq!(
            logic::rate_within(&puzzle, Difficulty::Expert).difficulty(),
            Difficulty::Beyond
        );
    }
}

#[test]
fn candidate_grids_read_back_as_printed_even_open_cells_with_one_candidate() {
    for puzzle in puzzles(TOP1465).iter().take(12) {
        let solution = solution(puzzle);
        let mut grid = Candidates::new(puzzle);
        let mut taken = 0;
        while let Some(step) = logic::next_step(&grid) {
            if taken % 7 == 0 {
                let marks = grid.to_marks();
                let read =
                    Candidates::from_marks(&marks).unwrap_or_else(|e| panic!("{e}\n{marks}"));
                // The solution's value is still allowed everywhere: the marks kept it.
                for (cell, &v) in solution.cells().iter().enumerate() {
                    assert!(read.value(cell) == v || read.has(cell, v), "{marks}");
                }
                // The grid reads back as it was, open cells with one candidate left
                // included (not as placed values).
                assert_eq!(read, grid, "{marks}");
                assert_eq!(logic::next_step(&read), Some(step.clone()));
                // Read back, the grid may be full; if not, its hint keeps the solution.
                if let Some(hint) = logic::next_step(&read) {
                    let what = hint.describe(9);
                    if let Some((cell, value)) = hint.place {
                        assert_eq!(solution.cells()[cell], value, "{what}\n{marks}");
                    }
                    for &(cell, value) in &hint.remove {
                        assert_ne!(solution.cells()[cell], value, "{what}\n{marks}");
                    }
                }
            }
            grid.apply(&step);
            taken += 1;
        }
    }
}

#[test]
fn a_candidate_grid_loses_the_marks_its_placed_values_rule_out() {
    // Row 1 holds 1 and 2; the open cells of the 4x4 grid list every value.
    let marks = "1 2 1234 1234\n1234 1234 1234 1234\n1234 1234 1234 1234\n1234 1234 1234 1234";
    let grid = Candidates::from_marks(marks).unwrap();
    assert_eq!(grid.value(0), 1);
    assert_eq!(grid.candidates(2), vec![3, 4]);
    assert_eq!(
        grid.candidates(4),
        vec![3, 4],
        "r2c1 shares the box of 1 and 2"
    );
    assert_eq!(grid.candidates(15), vec![1, 2, 3, 4]);
}

#[test]
fn malformed_candidate_grids_are_refused_with_the_reason() {
    let open = |k: usize| vec!["1234"; k].join(" ");
    for (text, reason) in [
        (open(15), "16 or 81 cells".to_string()),
        (
            format!("1x {}", open(15)),
            "cell 1 of the candidate grid is \"1x\"".into(),
        ),
        (
            format!("15 {}", open(15)),
            "cell 1 of the candidate grid is \"15\"".into(),
        ),
        (
            format!("11 {}", open(15)),
            "cell 1 of the candidate grid is \"11\"".into(),
        ),
        (
            format!("1 1 {}", open(14)),
            "1 is placed twice in one unit, at r1c1 and r1c2".into(),
        ),
        // 1 and 2 in r1c4's row, 3 in its box and 4 in its column leave it nothing.
        (
            format!("1 2 1234 1234 {} 3 {} 4", open(3), open(7)),
            "r1c4 is open with no candidate".into(),
        ),
    ] {
        let e = Candidates::from_marks(&text).unwrap_err();
        assert!(e.to_string().contains(&reason), "{text:?}: {e}");
    }
}

#[test]
fn the_level_alone_is_the_level_of_the_full_rating_at_every_ceiling() {
    use bezzel_sudoku::generate::{Options, generate};
    // Puzzles the walk makes for each level (seed 1's medium puzzle 55 needs an X-wing,
    // hard, and a hidden pair, scored higher but medium: the level follows the score).
    let mut all: Vec<Grid> = puzzles(TOP1465)
        .into_iter()
        .chain(puzzles(SEVENTEEN).into_iter().take(100))
        .collect();
    for (wanted, count) in [
        (Difficulty::Medium, 60),
        (Difficulty::Hard, 20),
        (Difficulty::Expert, 20),
        (Difficulty::Extreme, 10),
    ] {
        let options = Options {
            seed: 1,
            difficulty: Some(wanted),
            ..Options::default()
        };
        all.extend(
            generate(options, count)
                .unwrap()
                .into_iter()
                .map(|g| g.puzzle),
        );
    }
    for puzzle in &all {
        for ceiling in Difficulty::ALL {
            assert_eq!(
                logic::level_within(puzzle, ceiling),
                logic::rate_within(puzzle, ceiling).difficulty(),
                "{ceiling}: {}",
                puzzle.to_line()
            );
        }
    }
}

#[test]
fn candidate_grids_skip_a_byte_order_mark_and_comments_after_a_hash() {
    let plain = "1 2 34 34\n34 34 12 12\n2 1 34 34\n34 34 1 2\n";
    let grid = Candidates::from_marks(plain).unwrap();
    let commented =
        "\u{FEFF}# a 4x4 grid\n1 2 34 34 # row 1\n34 34 12 12\n2 1 34 34#\n34 34 1 2 # 1 2 3\n";
    assert_eq!(Candidates::from_marks(commented), Ok(grid));
}

#[test]
fn candidate_grids_that_contradict_themselves_are_refused() {
    for (text, reason) in [
        // Two open cells of row 1 left with 3 alone.
        (
            "1 2 .3 .3\n34 34 12 12\n2 1 34 34\n34 34 1 2",
            "r1c3 and r1c4 share a unit and are both left with 3 alone",
        ),
        // The same in a 9x9 box, with room for every value elsewhere.
        (
            &format!(
                ".5 {} .5 {}",
                ["123456789"; 9].join(" "),
                vec!["123456789"; 70].join(" ")
            ),
            "r1c1 and r2c2 share a unit and are both left with 5 alone",
        ),
        // Row 1 holds 1 and three cells of {2,3}: no place for 4.
        (
            "1 23 23 23\n1234 1234 1234 1234\n1234 1234 1234 1234\n1234 1234 1234 1234",
            "row 1 has no place left for 4",
        ),
    ] {
        let e = Candidates::from_marks(text).unwrap_err();
        assert!(e.to_string().contains(reason), "{text:?}: {e}");
    }
}

#[test]
fn values_that_singles_place_given_in_advance_leave_the_level_as_it_was() {
    // The generator keeps a move's level when its singles reach the grid they reached: the
    // level must depend on that grid alone. Checked with the full rating, step by step.
    let mut checked = 0;
    for puzzle in puzzles(TOP1465).iter().chain(&puzzles(SEVENTEEN)[..100]) {
        let (steps, _) = logic::explain(puzzle);
        let n = puzzle.size();
        let mut more = puzzle.clone();
        for step in steps
            .iter()
            .take_while(|s| s.technique.difficulty() == Difficulty::Easy)
        {
            let (cell, value) = step.place.expect("a single places a value");
            more.set(cell / n, cell % n, value);
        }
        if more == *puzzle {
            continue;
        }
        checked += 1;
        for ceiling in Difficulty::ALL {
            let level = logic::rate_within(puzzle, ceiling).difficulty();
            assert_eq!(logic::rate_within(&more, ceiling).difficulty(), level);
            assert_eq!(logic::level_within(&more, ceiling), level);
        }
    }
    assert!(checked > 50, "{checked} puzzles with singles to give");
}
