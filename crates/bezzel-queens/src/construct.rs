//! One N-Queens solution for any board size, in O(n), without search.
//!
//! The explicit construction (Hoffman, Loessi and Moore, 1969, in the form
//! given on Wikipedia's "Eight queens puzzle" page) lists the even numbers
//! `2, 4, ..., ` and then the odd numbers `1, 3, ...` (1-based) as the rows
//! of the queens in successive columns. Consecutive evens, like consecutive
//! odds, are two apart, which rules out diagonal attacks within each half;
//! the only clashes left come from where the halves meet, and they occur
//! exactly when `n mod 6` is 2 or 3. Those two cases move a few numbers
//! around as the rule prescribes. Because the transpose of a solution is also
//! a solution, the list can be read directly as `placement[row] = column`.
//! Boards of size 2 and 3 have no solution at all.

use std::fmt;

/// Why [`construct`] has no placement to give.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConstructError {
    /// `n = 0`: there is no board.
    EmptyBoard,
    /// The board admits no solution; true exactly for `n = 2` and `n = 3`.
    NoSolution {
        /// The board size.
        n: usize,
    },
    /// The placement for this `n` does not fit in memory.
    TooLarge {
        /// The board size.
        n: usize,
    },
}

impl fmt::Display for ConstructError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::EmptyBoard => write!(f, "n = 0 is an empty board; there is nothing to construct"),
            Self::NoSolution { n } => write!(f, "no solution exists for n = {n}"),
            Self::TooLarge { n } => write!(f, "a placement for n = {n} does not fit in memory"),
        }
    }
}

impl std::error::Error for ConstructError {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for ConstructError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ConstructError: {self}")
    }
}

/// A solution of the `n`-queens problem as `placement[row] = column`, built
/// in O(n) time.
///
/// Solutions exist for `n = 1` and every `n >= 4`; `n = 0` is
/// [`ConstructError::EmptyBoard`] and `n = 2, 3` are
/// [`ConstructError::NoSolution`].
pub fn construct(n: usize) -> Result<Vec<usize>, ConstructError> {
    match n {
        0 => return Err(ConstructError::EmptyBoard),
        2 | 3 => return Err(ConstructError::NoSolution { n }),
        _ => {}
    }
    let mut placement = Vec::new();
    // An absurd n would otherwise abort the process inside the allocator.
    placement
        .try_reserve_exact(n)
        .map_err(|_| ConstructError::TooLarge { n })?;
    // The rule is stated for 1-based numbers; `push` converts to 0-based.
    let mut push = |one_based: usize| placement.push(one_based - 1);
    let evens = (2..=n).step_by(2);
    let odds = (1..=n).step_by(2);
    match n % 6 {
        2 => {
            // Evens, then odds with 1 and 3 swapped and 5 moved to the end.
            evens.for_each(&mut push);
            push(3);
            push(1);
            (7..=n).step_by(2).for_each(&mut push);
            push(5);
        }
        3 => {
            // Evens with 2 moved to the end, then odds with 1 and 3 moved to
            // the end.
            (4..=n).step_by(2).for_each(&mut push);
            push(2);
            (5..=n).step_by(2).for_each(&mut push);
            push(1);
            push(3);
        }
        _ => {
            evens.for_each(&mut push);
            odds.for_each(&mut push);
        }
    }
    Ok(placement)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::is_solution;

    #[test]
    fn small_boards() {
        assert_eq!(construct(0), Err(ConstructError::EmptyBoard));
        assert_eq!(construct(1), Ok(vec![0]));
        assert_eq!(construct(2), Err(ConstructError::NoSolution { n: 2 }));
        assert_eq!(construct(3), Err(ConstructError::NoSolution { n: 3 }));
        assert_eq!(
            ConstructError::NoSolution { n: 3 }.to_string(),
            "no solution exists for n = 3"
        );
        assert_eq!(construct(4), Ok(vec![1, 3, 0, 2]));
    }

    #[test]
    fn the_adjusted_cases_follow_the_rule() {
        // n mod 6 == 2: 2 4 6 8 | 3 1 7 5 (1-based).
        assert_eq!(construct(8), Ok(vec![1, 3, 5, 7, 2, 0, 6, 4]));
        // n mod 6 == 3: 4 6 8 2 | 5 7 9 1 3 (1-based).
        assert_eq!(construct(9), Ok(vec![3, 5, 7, 1, 4, 6, 8, 0, 2]));
    }

    #[test]
    fn valid_for_every_size_up_to_2000() {
        for n in 4..=2000 {
            let placement = construct(n).unwrap();
            assert_eq!(placement.len(), n);
            assert!(is_solution(&placement), "n = {n}");
        }
    }

    #[test]
    fn valid_and_fast_for_huge_boards() {
        // 100_000..=100_005 covers every residue mod 6.
        for n in (100_000..=100_005).chain([1_000_000]) {
            let started = std::time::Instant::now();
            let placement = construct(n).unwrap();
            // Generous, so that only a non-linear construction would trip it.
            assert!(started.elapsed().as_secs_f64() < 0.5, "n = {n}");
            assert_eq!(placement.len(), n);
            assert!(is_solution(&placement), "n = {n}");
        }
    }

    #[test]
    fn absurd_sizes_are_an_error_not_an_abort() {
        assert_eq!(
            construct(usize::MAX),
            Err(ConstructError::TooLarge { n: usize::MAX })
        );
    }
}
