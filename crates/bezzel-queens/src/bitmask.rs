//! Counting and enumerating N-Queens solutions with bit-parallel backtracking.
//!
//! This is the search of the classic C programs, on the bit kernel that the
//! counters share: the attacked columns and diagonals as bit sets, one bit per
//! column, so that the free squares of the next row are a single
//! `!(cols | ld | rd)`; an iterative search with an explicit stack, and nested
//! loops for the last five rows, where most of the search tree lies.
//!
//! Counting ([`BitmaskCounter`]) uses the left-right mirror: every solution
//! whose first-row queen is in the right half is the mirror image of one in the
//! left half, so only the left half is searched and doubled. For odd `n` a
//! queen in the middle column of the first row is its own mirror image, so
//! there the second row is restricted to the left half instead (it can never
//! be in the middle too). The placements of the first two rows that remain are
//! the subproblems ([`TwoRows`]), which are independent and are what
//! [`counting`](crate::counting) hands to bezzel-core's runner.
//!
//! Enumerating ([`for_each_solution`] and its kin) walks every solution in
//! lexicographic order, with no symmetry.

use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};

use crate::counter::{Poll, SplitCounter, check_size_for};
use crate::kernel::{
    Lines, Rows, STACK_LEN, STACK_MASK, count_last_five, count_last_four, count_last_three,
    count_last_two, full_row, search_rows,
};

// The bit-parallel counters' limits and errors, where they were first defined.
pub use crate::counter::{BitmaskError, Counter, MAX_N};

/// One independent piece (subproblem) of the mirror-reduced search: the queens
/// of the first two rows, and whether the count also stands for the mirror
/// images. Its serialized form (`first`, `second`, `mirrored`) is what
/// checkpoints record.
///
/// Summing [`SplitCounter::count_subproblem`] over [`subproblems`] gives
/// [`count`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TwoRows {
    /// The column of the first-row queen.
    pub first: usize,
    /// The column of the second-row queen; `None` only on the 1x1 board,
    /// which has no second row.
    pub second: Option<usize>,
    /// Whether the solutions found also stand for their mirror images, which
    /// are not searched.
    pub mirrored: bool,
}

impl TwoRows {
    /// How many solutions each solution found in this subproblem stands for:
    /// 2 when [`mirrored`](Self::mirrored), else 1.
    pub fn weight(&self) -> u64 {
        if self.mirrored { 2 } else { 1 }
    }

    fn prefix(&self) -> ([usize; 2], usize) {
        match self.second {
            Some(second) => ([self.first, second], 2),
            None => ([self.first, 0], 1),
        }
    }
}

/// Places `prefix` in the first rows; `Ok(None)` if two of its queens attack
/// each other (so nothing extends it). Inlined into the counter: as a call it
/// left the hot loops a register short (0.5 % more instructions, measured).
#[inline(always)]
fn place_prefix(n: usize, prefix: &[usize]) -> Result<Option<Lines>, BitmaskError> {
    if let Some((row, &column)) = prefix.iter().enumerate().find(|&(_, &c)| c >= n) {
        return Err(BitmaskError::ColumnOutOfRange { row, column, n });
    }
    let mut lines = Lines::EMPTY;
    for &column in prefix {
        let bit = 1u32 << column;
        if lines.attacked() & bit != 0 {
            return Ok(None);
        }
        lines = lines.place(bit);
    }
    Ok(Some(lines))
}

/// A board without restrictions, as the stack loop sees it.
struct Plain {
    all: u32,
}

impl Rows for Plain {
    type Tail = ();

    #[inline(always)]
    fn candidates(&self, _: usize, lines: Lines) -> u32 {
        self.all & !lines.attacked()
    }

    #[inline(always)]
    fn set(&mut self, _: usize, _: u32) {}

    #[inline(always)]
    fn tail(&mut self, (): (), _: usize, lines: Lines) -> u64 {
        count_last_five(self.all, lines)
    }
}

/// Counts the ways to fill the last `rows_left` rows of an `n`-column board
/// whose first `n - rows_left` rows hold non-attacking queens with lines
/// `start`, asking `poll` whether to give up; `None` if it did.
fn count_completions(n: usize, start: Lines, rows_left: usize, poll: &impl Poll) -> Option<u64> {
    let all = full_row(n);
    match rows_left {
        0 => return Some(1),
        1 => return Some(u64::from((all & !start.attacked()).count_ones())),
        2 => return Some(count_last_two(all, start)),
        3 => return Some(count_last_three(all, start)),
        4 => return Some(count_last_four(all, start)),
        5 => return Some(count_last_five(all, start)),
        _ => {}
    }
    // The plain board's rows are all alike: numbered from the first free one, so that the
    // loop's end is a compare with zero (a register more for the hot loops, measured).
    search_rows(&mut Plain { all }, (), rows_left, 0, start, poll)
}

/// The mirror-reduced split of the `n`-queens search into independent
/// pieces, in a fixed order, for callers that want to count them one by one
/// (say, to show progress) with [`SplitCounter::count_subproblem`].
pub fn subproblems(n: usize) -> Result<Vec<TwoRows>, BitmaskError> {
    check_size_for(n, Counter::Bitmask)?;
    if n == 1 {
        return Ok(vec![TwoRows {
            first: 0,
            second: None,
            mirrored: false,
        }]);
    }
    let mut pieces = Vec::new();
    let non_adjacent = |first: usize, second: usize| first.abs_diff(second) >= 2;
    for first in 0..n / 2 {
        pieces.extend(
            (0..n)
                .filter(|&second| non_adjacent(first, second))
                .map(|second| TwoRows {
                    first,
                    second: Some(second),
                    mirrored: true,
                }),
        );
    }
    if n % 2 == 1 {
        let middle = n / 2;
        pieces.extend(
            (0..middle)
                .filter(|&second| non_adjacent(middle, second))
                .map(|second| TwoRows {
                    first: middle,
                    second: Some(second),
                    mirrored: true,
                }),
        );
    }
    Ok(pieces)
}

/// The mirror-symmetry counter, on the [`SplitCounter`] API; in parallel with
/// [`counting::count_parallel`](crate::counting::count_parallel).
#[derive(Debug, Clone, Copy)]
pub struct BitmaskCounter;

impl SplitCounter for BitmaskCounter {
    type Piece = TwoRows;
    type Count = u64;
    const NAME: Counter = Counter::Bitmask;

    fn subproblems(n: usize) -> Result<Vec<TwoRows>, BitmaskError> {
        subproblems(n)
    }

    /// The solutions starting with the piece's first two rows, times its
    /// [`weight`](TwoRows::weight).
    fn count_polled(n: usize, piece: &TwoRows, poll: &impl Poll) -> Result<u64, BitmaskError> {
        check_size_for(n, Counter::Bitmask)?;
        let (prefix, len) = piece.prefix();
        let prefix = &prefix[..len];
        let Some(lines) = place_prefix(n, prefix)? else {
            return Ok(0);
        };
        let Some(rows_left) = n.checked_sub(prefix.len()) else {
            return Ok(0);
        };
        let count = count_completions(n, lines, rows_left, poll).ok_or(BitmaskError::Cancelled)?;
        Ok(count * piece.weight())
    }
}

/// The number of ways to place `n` non-attacking queens on an `n`x`n` board,
/// on the calling thread ([`BitmaskCounter::count`]).
pub fn count(n: usize) -> Result<u64, BitmaskError> {
    BitmaskCounter::count(n)
}

/// Calls `f` with every `n`-queens solution, as `placement[row] = column`, in
/// lexicographic order.
pub fn for_each_solution(n: usize, f: impl FnMut(&[usize])) -> Result<(), BitmaskError> {
    for_each_solution_with_prefix(n, &[], f)
}

/// Calls `f` with every `n`-queens solution whose first rows are `prefix`,
/// in lexicographic order. A prefix whose queens attack each other, or that
/// is longer than `n`, has no solutions; a column outside `0..n` is an
/// error.
pub fn for_each_solution_with_prefix(
    n: usize,
    prefix: &[usize],
    mut f: impl FnMut(&[usize]),
) -> Result<(), BitmaskError> {
    try_for_each_solution_with_prefix(n, prefix, |placement| {
        f(placement);
        ControlFlow::Continue(())
    })
}

/// [`for_each_solution_with_prefix`] that stops as soon as `f` returns
/// [`ControlFlow::Break`]: to take only the first solutions, or to give up.
pub fn try_for_each_solution_with_prefix(
    n: usize,
    prefix: &[usize],
    mut f: impl FnMut(&[usize]) -> ControlFlow<()>,
) -> Result<(), BitmaskError> {
    check_size_for(n, Counter::Bitmask)?;
    if prefix.len() > n {
        return Ok(());
    }
    let Some(start) = place_prefix(n, prefix)? else {
        return Ok(());
    };
    let mut placement = [0usize; STACK_LEN];
    placement[..prefix.len()].copy_from_slice(prefix);
    let first = prefix.len();
    if first == n {
        let _ = f(&placement[..n]);
        return Ok(());
    }
    let all = full_row(n);
    let mut lines = [Lines::EMPTY; STACK_LEN];
    let mut avail = [0u32; STACK_LEN];
    // Indexed by row here, unlike the counter, because the placement is too.
    lines[first] = start;
    avail[first] = all & !start.attacked();
    let mut row = first;
    loop {
        let a = avail[row & STACK_MASK];
        if a == 0 {
            if row == first {
                return Ok(());
            }
            row -= 1;
            continue;
        }
        let bit = a & a.wrapping_neg();
        avail[row & STACK_MASK] = a ^ bit;
        placement[row & STACK_MASK] = bit.trailing_zeros() as usize;
        if row + 1 == n {
            if f(&placement[..n]).is_break() {
                return Ok(());
            }
            continue;
        }
        let next = lines[row & STACK_MASK].place(bit);
        row += 1;
        lines[row & STACK_MASK] = next;
        avail[row & STACK_MASK] = all & !next.attacked();
    }
}

/// Every `n`-queens solution, in lexicographic order.
pub fn solutions(n: usize) -> Result<Vec<Vec<usize>>, BitmaskError> {
    let mut found = Vec::new();
    for_each_solution(n, |placement| found.push(placement.to_vec()))?;
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::is_solution;
    use crate::counter::Never;
    use crate::oeis::total as expected;

    /// Tries every permutation, which is the definition with nothing clever.
    fn brute_force(n: usize) -> Vec<Vec<usize>> {
        fn extend(placement: &mut Vec<usize>, n: usize, found: &mut Vec<Vec<usize>>) {
            if placement.len() == n {
                if is_solution(placement) {
                    found.push(placement.clone());
                }
                return;
            }
            for column in 0..n {
                if !placement.contains(&column) {
                    placement.push(column);
                    extend(placement, n, found);
                    placement.pop();
                }
            }
        }
        let mut found = Vec::new();
        extend(&mut Vec::new(), n, &mut found);
        found
    }

    #[test]
    fn count_matches_oeis() {
        for n in 1..=14 {
            assert_eq!(count(n), Ok(expected(n)), "n = {n}");
        }
    }

    #[test]
    fn count_agrees_with_brute_force() {
        for n in 1..=8 {
            assert_eq!(count(n), Ok(brute_force(n).len() as u64), "n = {n}");
        }
    }

    #[test]
    fn enumeration_is_the_brute_force_list_in_order() {
        // brute_force tries columns in increasing order, so its list is sorted.
        for n in 1..=8 {
            assert_eq!(solutions(n), Ok(brute_force(n)), "n = {n}");
        }
    }

    #[test]
    fn enumeration_matches_oeis_and_check() {
        for n in 1..=11 {
            let mut seen = 0u64;
            let mut previous: Option<Vec<usize>> = None;
            for_each_solution(n, |placement| {
                assert!(is_solution(placement), "{placement:?}");
                if let Some(previous) = &previous {
                    assert!(previous.as_slice() < placement);
                }
                previous = Some(placement.to_vec());
                seen += 1;
            })
            .unwrap();
            assert_eq!(seen, expected(n), "n = {n}");
        }
    }

    #[test]
    fn prefixes_partition_the_solutions() {
        let n = 10;
        let mut total = 0;
        for first in 0..n {
            for_each_solution_with_prefix(n, &[first], |placement| {
                assert_eq!(placement[0], first);
                total += 1;
            })
            .unwrap();
        }
        assert_eq!(total, expected(n));
        let mut calls = 0;
        for_each_solution_with_prefix(n, &[0, 1], |_| calls += 1).unwrap();
        for_each_solution_with_prefix(n, &[0; 11], |_| calls += 1).unwrap();
        assert_eq!(calls, 0);
        // Breaking off stops at once, after the first solutions in order.
        let mut first_three = Vec::new();
        try_for_each_solution_with_prefix(n, &[], |p| {
            first_three.push(p.to_vec());
            if first_three.len() == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        assert_eq!(first_three, solutions(n).unwrap()[..3].to_vec());
        let full = [0, 4, 7, 5, 2, 6, 1, 3];
        let mut found = Vec::new();
        for_each_solution_with_prefix(8, &full, |p| found.push(p.to_vec())).unwrap();
        assert_eq!(found, vec![full.to_vec()]);
    }

    #[test]
    fn subproblems_sum_to_the_count_and_use_the_mirror() {
        for n in 1..=12 {
            let pieces = subproblems(n).unwrap();
            let sum: u64 = pieces
                .iter()
                .map(|piece| BitmaskCounter::count_subproblem(n, piece).unwrap())
                .sum();
            assert_eq!(sum, expected(n), "n = {n}");
            // Only the left half (and the middle for odd n) is searched.
            assert!(pieces.iter().all(|piece| 2 * piece.first < n));
        }
        // First row in columns 0..4, second row not adjacent: 6 + 5 + 5 + 5.
        assert_eq!(subproblems(8).unwrap().len(), 21);
    }

    #[test]
    fn odd_middle_column_is_counted_exactly() {
        // n = 5: two solutions start in the middle column, [2,0,3,1,4] and its mirror.
        let middle: u64 = subproblems(5)
            .unwrap()
            .iter()
            .filter(|piece| piece.first == 2)
            .map(|piece| BitmaskCounter::count_subproblem(5, piece).unwrap())
            .sum();
        assert_eq!(middle, 2);
    }

    #[test]
    fn any_subproblem_is_counted_honestly() {
        let clash = TwoRows {
            first: 3,
            second: Some(4),
            mirrored: false,
        };
        assert_eq!(BitmaskCounter::count_subproblem(8, &clash), Ok(0));
        let unmirrored = TwoRows {
            first: 0,
            second: Some(4),
            mirrored: false,
        };
        let by_hand = solutions(8)
            .unwrap()
            .iter()
            .filter(|p| p[0] == 0 && p[1] == 4)
            .count() as u64;
        assert_eq!(
            BitmaskCounter::count_subproblem(8, &unmirrored),
            Ok(by_hand)
        );
        assert_eq!(by_hand, 1);
        let off_board = TwoRows {
            first: 0,
            second: Some(8),
            mirrored: true,
        };
        assert_eq!(
            BitmaskCounter::count_subproblem(8, &off_board),
            Err(BitmaskError::ColumnOutOfRange {
                row: 1,
                column: 8,
                n: 8
            })
        );
        let too_long = TwoRows {
            first: 0,
            second: Some(0),
            mirrored: false,
        };
        assert_eq!(BitmaskCounter::count_subproblem(1, &too_long), Ok(0));
    }

    #[test]
    fn refuses_bad_sizes() {
        assert_eq!(count(0), Err(BitmaskError::ZeroBoard));
        let too_large = BitmaskError::TooLarge {
            n: 40,
            max: MAX_N,
            counter: Counter::Bitmask,
        };
        assert_eq!(count(40), Err(too_large.clone()));
        assert_eq!(
            too_large.to_string(),
            "n = 40 is too large for the bitmask counter (at most 28)"
        );
        assert!(solutions(MAX_N + 1).is_err());
        assert!(subproblems(0).is_err());
        assert_eq!(
            for_each_solution_with_prefix(4, &[1, 4], |_| {}),
            Err(BitmaskError::ColumnOutOfRange {
                row: 1,
                column: 4,
                n: 4
            })
        );
    }

    #[test]
    fn largest_board_is_accepted() {
        // Counting n = MAX_N is out of reach, but the set-up must not overflow
        // a shift; find one solution and stop looking by fixing most rows.
        let n = MAX_N;
        assert!(subproblems(n).is_ok());
        let one = crate::construct::construct(n).unwrap();
        let mut found = Vec::new();
        for_each_solution_with_prefix(n, &one[..n - 4], |p| found.push(p.to_vec())).unwrap();
        assert!(found.contains(&one));
        assert!(found.iter().all(|p| is_solution(p)));
        // With all rows but the last four fixed the counter finishes at once.
        let lines = place_prefix(n, &one[..n - 4]).unwrap().unwrap();
        assert_eq!(
            count_completions(n, lines, 4, &Never),
            Some(found.len() as u64)
        );
    }
}
