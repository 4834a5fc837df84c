//! Generated puzzles judged from outside the generator: every one has exactly one solution by
//! a plain backtracking counter written here (it shares no code with the library's searches),
//! its solution passes the independent checker, its givens keep the symmetry asked for, and
//! a minimal one loses its uniqueness with any given (group) taken away.

use crate::oracle::solutions;
use bezzel_sudoku::check;
use bezzel_sudoku::generate::{Generated, Generator, Options, Symmetry};

/// The cell paired with `(r, c)` by `symmetry`.
fn image(symmetry: Symmetry, n: usize, r: usize, c: usize) -> (usize, usize) {
    match symmetry {
        Symmetry::None => (r, c),
        Symmetry::Rotational => (n - 1 - r, n - 1 - c),
        Symmetry::Mirror => (r, n - 1 - c),
        Symmetry::Diagonal => (c, r),
    }
}

/// Checks one generated puzzle: unique by the counter here, the solution valid by the
/// checker, and the givens symmetric.
fn assert_sound(made: &Generated, symmetry: Symmetry) {
    let line = made.puzzle.to_line();
    assert_eq!(solutions(&made.puzzle, 2), 1, "{line}");
    assert_eq!(
        check::is_valid_solution(&made.puzzle, &made.solution),
        Ok(()),
        "{line}"
    );
    let n = made.puzzle.size();
    for r in 0..n {
        for c in 0..n {
            let (ir, ic) = image(symmetry, n, r, c);
            assert_eq!(
                made.puzzle.get(r, c) == 0,
                made.puzzle.get(ir, ic) == 0,
                "{symmetry:?}: ({r}, {c}) and ({ir}, {ic}) in {line}"
            );
        }
    }
}

const SYMMETRIES: [Symmetry; 4] = [
    Symmetry::None,
    Symmetry::Rotational,
    Symmetry::Mirror,
    Symmetry::Diagonal,
];

#[test]
fn every_puzzle_made_has_exactly_one_solution_and_its_symmetry() {
    for symmetry in SYMMETRIES {
        for minimal in [false, true] {
            let options = Options {
                symmetry,
                minimal,
                seed: 7,
                ..Options::default()
            };
            let mut generator = Generator::new(options).unwrap();
            for i in 0..15 {
                assert_sound(&generator.puzzle(i).unwrap(), symmetry);
            }
        }
    }
}

#[test]
fn small_and_large_grids_are_made_unique_too() {
    for minimal in [false, true] {
        let options = Options {
            box_size: 2,
            minimal,
            seed: 3,
            ..Options::default()
        };
        let mut generator = Generator::new(options).unwrap();
        for i in 0..20 {
            assert_sound(&generator.puzzle(i).unwrap(), Symmetry::None);
        }
    }
    // A 16x16 puzzle with few givens is beyond the plain counter here: the engine counts
    // (in a model of its own, not the generator's solver) and the checker judges.
    let options = Options {
        box_size: 4,
        symmetry: Symmetry::Rotational,
        seed: 3,
        ..Options::default()
    };
    let mut generator = Generator::new(options).unwrap();
    for i in 0..2 {
        let made = generator.puzzle(i).unwrap();
        let outcome = bezzel_sudoku::model::count(&made.puzzle, 2).unwrap();
        assert_eq!(outcome.solutions, 1);
        assert!(outcome.exact);
        assert_eq!(
            check::is_valid_solution(&made.puzzle, &made.solution),
            Ok(())
        );
        assert!(made.puzzle.givens() < 256);
    }
}

#[test]
fn no_given_of_a_minimal_puzzle_can_be_taken_away() {
    for symmetry in SYMMETRIES {
        let options = Options {
            symmetry,
            minimal: true,
            seed: 11,
            ..Options::default()
        };
        let mut generator = Generator::new(options).unwrap();
        for i in 0..4 {
            let made = generator.puzzle(i).unwrap();
            let n = made.puzzle.size();
            for r in 0..n {
                for c in 0..n {
                    if made.puzzle.get(r, c) == 0 {
                        continue;
                    }
                    let mut fewer = made.puzzle.clone();
                    let (ir, ic) = image(symmetry, n, r, c);
                    fewer.set(r, c, 0);
                    fewer.set(ir, ic, 0);
                    assert_eq!(
                        solutions(&fewer, 2),
                        2,
                        "{symmetry:?}: ({r}, {c}) can go from {}",
                        made.puzzle.to_line()
                    );
                }
            }
        }
    }
}

#[test]
fn a_seed_gives_the_same_puzzles_and_another_seed_others() {
    let make = |seed| {
        let options = Options {
            seed,
            minimal: true,
            ..Options::default()
        };
        bezzel_sudoku::generate::generate(options, 5).unwrap()
    };
    let first = make(1);
    assert_eq!(first, make(1));
    let other = make(2);
    assert!(first.iter().zip(&other).all(|(a, b)| a.puzzle != b.puzzle));
    // The puzzles of one seed differ from each other too.
    for (i, a) in first.iter().enumerate() {
        for b in &first[i + 1..] {
            assert_ne!(a.solution, b.solution);
        }
    }
}

#[test]
fn an_unsupported_box_size_is_refused() {
    let options = Options {
        box_size: 6,
        ..Options::default()
    };
    let e = Generator::new(options).unwrap_err();
    assert!(e.to_string().contains("box size 6"), "{e}");
}

#[test]
fn a_puzzle_made_for_a_difficulty_is_unique_and_graded_so() {
    use bezzel_sudoku::logic::{self, Difficulty};
    for (wanted, symmetry) in [
        (Difficulty::Medium, Symmetry::None),
        (Difficulty::Hard, Symmetry::Rotational),
        (Difficulty::Expert, Symmetry::None),
        (Difficulty::Extreme, Symmetry::Mirror),
    ] {
        let options = Options {
            symmetry,
            seed: 5,
            difficulty: Some(wanted),
            ..Options::default()
        };
        let mut generator = Generator::new(options).unwrap();
        for i in 0..3 {
            let made = generator.puzzle(i).unwrap();
            assert_sound(&made, symmetry);
            assert_eq!(logic::rate(&made.puzzle).difficulty(), wanted);
        }
    }
}
