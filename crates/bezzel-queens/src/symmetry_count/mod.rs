//! Counting N-Queens solutions with the board's full symmetry group, in
//! parallel.
//!
//! Each orbit of solutions under the eight rotations and reflections is
//! counted once, through one representative, and weighted by its size (2, 4
//! or 8); this yields the unique count (OEIS A002562) and the total (OEIS
//! A000170) together. The algorithm is the classic one of the Japanese
//! bitmask N-Queens programs (Kenjiro Takaki's `Backtrack1` and `Backtrack2`
//! with `BOUND1`, `BOUND2`, `TOPBIT`, `ENDBIT`, `SIDEMASK` and `LASTMASK`),
//! which keeps non-representatives out of the search itself instead of
//! testing every solution afterwards as
//! [`symmetry::count_unique`](crate::symmetry::count_unique) does:
//!
//! - *Corner*: a solution with a queen in a corner is turned so that the
//!   corner is the top left, and transposed so that the second row's queen
//!   (in column `BOUND1`) comes before the second column's queen, so rows
//!   `2..BOUND1` keep off the second column. A corner queen rules out any
//!   symmetric solution, so these orbits all have 8 members.
//! - *Edge*: otherwise the representative has, in its top row, the border
//!   queen nearest a corner: in column `BOUND1` of the left half. Every
//!   other border queen keeps at least `BOUND1` squares from the corners, so
//!   the side columns' queens lie in rows `BOUND1` to `BOUND2 = n - 1 -
//!   BOUND1`: rows above `BOUND1` keep off the sides (`SIDEMASK`), both
//!   sides are taken by row `BOUND2`, and the bottom row keeps off the
//!   `BOUND1` columns next to each corner (`LASTMASK`). A complete placement
//!   can then only tie with a rotation whose top row also has its queen in
//!   column `BOUND1` (a side queen in row `BOUND2` or `BOUND1`, or the bottom
//!   queen in column `n - 1 - BOUND1`; the reflections cannot tie, as their
//!   queen would attack the top one). Only those few placements are compared
//!   with the rotated board, row by row on the bit masks; one equal to its
//!   quarter turn is an orbit of 2, one equal to its half turn an orbit of
//!   4, and all the others are orbits of 8.
//!
//! The search is the one of [`bitmask`](crate::bitmask), on the same bit
//! kernel: iterative with an explicit stack and nested loops for the last
//! five rows, compiled once for each way the bound masks
//! can reach into those rows, so that the hot loops test no more than they
//! must. Searching only for representatives
//! visits about 45% of the nodes that the mirror-only counter of
//! [`bitmask`](crate::bitmask) visits. The placements of the first
//! [`split_rows`] rows that can start a representative are the
//! subproblems ([`FirstRows`]), which are independent and are what the
//! parallel counter hands to bezzel-core's runner (see
//! [`counting`](crate::counting)); larger boards fix more rows, so that
//! there are many more subproblems than the workers of a cluster.
//!
//! Where the CPU has AVX2, a subproblem is searched instead in the eight
//! lanes of a vector register (`lanes.rs`): its queens are extended by a
//! few rows into *items*, and each lane searches one item at a time, taking
//! the next when it is done, so that the lanes stay busy to the end of the
//! subproblem. Every step of the lane loop moves each lane one node on, with
//! selects for the choice between stepping down, across or back up, so
//! that the board's branches, which the scalar search mispredicts often,
//! become data; a lane's stack is the column of each of its rows, five bits
//! a row in two `u32`, from which stepping back up recomputes the lines. The
//! last two rows are counted without a loop, and the rare placements that
//! may tie with a rotation go to the same rotation test as the scalar
//! search's. The lanes are busy 97% of their steps (`queens count 16`), so
//! the items need no ordering. Measured when the lanes came (one thread,
//! medians of user CPU time, runs interleaved, on a shared 2-core AMD EPYC;
//! the classic C program at `-O2` for the ratio): `queens count 16` took
//! 1.592 s in the scalar search (4.44x the C program), 0.961 s in the lanes
//! (7.35x); `queens count 17` 10.98 s (4.43x) and 5.92 s (8.23x). They run
//! about as many instructions as the scalar search, but without its
//! mispredicted branches. Tried and measured no faster: 16 lanes in two
//! registers, AVX-512's extra registers, blend instructions for the
//! selects, a copy of the loop for each set of rules.
//!
//! The shapes and their per-row rules are in `shape.rs`, what becomes of a
//! complete placement (the rotation test, the tally by orbit size) in
//! `orbit.rs`, the search of one shape in `search.rs` and in the lanes in
//! `lanes.rs`; this file splits the board into subproblems and counts them.

mod lanes;
mod orbit;
mod search;
mod shape;

use serde::{Deserialize, Serialize};

use crate::counter::{BitmaskError, Counter, Poll, SplitCounter, check_size_for};
use crate::kernel::Lines;
use crate::symmetry::UniqueCount;
use lanes::Kernel;
use orbit::{CornerLeaves, EdgeLeaves, EdgeTest, Tally};
use search::{Tail, search_shape};
use shape::{Rules, Shape};

/// How many rows each [`FirstRows`] from [`subproblems`] fixes on boards up to 15 columns
/// (see [`split_rows`]).
pub const SPLIT_ROWS: usize = 3;

/// How many rows each [`FirstRows`] from [`subproblems`] fixes on an `n`-column board: 3 up
/// to 15 columns, 4 from 16 to 19, 5 from 20. Each row more multiplies the subproblems by
/// several times and cuts the largest one down about as much: 16 columns have 6,778 (a
/// second's work, which two threads share evenly), 21 have 298,867, over 70 for each of the
/// 4,096 threads of 128 ranks of 32 cores (see `docs/distributed.md`). The depth depends on
/// `n` alone, as a checkpoint's split must.
pub fn split_rows(n: usize) -> usize {
    match n {
        ..=15 => SPLIT_ROWS,
        16..=19 => SPLIT_ROWS + 1,
        _ => SPLIT_ROWS + 2,
    }
}

/// The smallest board the shapes are defined for; of the smaller ones only
/// the 1x1 board has a solution, whose one queen is its own orbit.
const SMALLEST_SEARCHED: usize = 4;

/// One independent piece (subproblem) of the symmetry-reduced search: the
/// queens of the first rows. Its serialized form (`prefix`) is what
/// checkpoints record.
///
/// It stands for the representatives (see the [module docs](self)) that
/// start with [`prefix`](Self::prefix). Summing [`count_subproblem`] over
/// [`subproblems`] gives [`SplitCounter::count`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FirstRows {
    /// The columns of the queens in the first rows, top row first.
    pub prefix: Vec<usize>,
}

/// How the shapes of a subproblem are searched.
#[derive(Debug, Clone, Copy)]
struct How {
    /// The last rows of the scalar search.
    tail_of: fn(usize, Shape) -> Tail,
    /// The lanes, with this kernel, where they fit the board; `None`: the scalar search alone.
    lanes: Option<Kernel>,
}

impl How {
    /// The fastest way on this CPU.
    fn fastest() -> How {
        How {
            tail_of: Tail::fastest,
            lanes: Kernel::detect(),
        }
    }

    /// The scalar search with the fastest tails.
    #[cfg(test)]
    const SCALAR: How = How {
        tail_of: Tail::fastest,
        lanes: None,
    };
}

/// The representatives on an `n`-column board (at least
/// [`SMALLEST_SEARCHED`]) that start with `prefix`, searched as `how` says;
/// `None` if `poll` said to give up.
fn count_prefix(n: usize, prefix: &[usize], how: How, poll: &impl Poll) -> Option<Tally> {
    let shape = match prefix {
        [] => Err(()),
        [first] => Shape::of(n, *first, None),
        [first, second, ..] => Shape::of(n, *first, Some(*second)),
    };
    let shape = match shape {
        // Too short to tell the shape: split on the next row.
        Err(()) => {
            let mut tally = Tally::default();
            let mut longer = prefix.to_vec();
            longer.push(0);
            for column in 0..n {
                longer[prefix.len()] = column;
                let more = count_prefix(n, &longer, how, poll)?;
                tally.two += more.two;
                tally.four += more.four;
                tally.eight += more.eight;
            }
            return Some(tally);
        }
        Ok(None) => return Some(Tally::default()),
        Ok(Some(shape)) => shape,
    };
    if let (Some(kernel), Some(start)) = (how.lanes, lanes::start_row(n, prefix.len())) {
        return lanes::count(n, shape, prefix, start, kernel, poll);
    }
    let tail = (how.tail_of)(n, shape);
    match shape {
        Shape::Corner { .. } => Some(Tally {
            eight: search_shape(n, shape, prefix, tail, CornerLeaves, poll).0?,
            ..Tally::default()
        }),
        Shape::Edge { bound1 } => {
            let leaves = EdgeLeaves {
                test: EdgeTest::new(n, bound1),
                tally: Tally::default(),
            };
            let (eights, leaves) = search_shape(n, shape, prefix, tail, leaves, poll);
            Some(Tally {
                eight: leaves.tally.eight + eights?,
                ..leaves.tally
            })
        }
    }
}

/// Appends to `out` every extension of `prefix` to `rows` rows that `rules`
/// allow.
fn split(
    rules: &Rules,
    rows: usize,
    prefix: &mut Vec<usize>,
    lines: Lines,
    out: &mut Vec<FirstRows>,
) {
    let row = prefix.len();
    if row == rows {
        out.push(FirstRows {
            prefix: prefix.clone(),
        });
        return;
    }
    let mut avail = rules.candidates(row, lines);
    while avail != 0 {
        let bit = avail & avail.wrapping_neg();
        avail ^= bit;
        prefix.push(bit.trailing_zeros() as usize);
        split(rules, rows, prefix, lines.place(bit), out);
        prefix.pop();
    }
}

/// The split of the symmetry-reduced `n`-queens search into independent
/// pieces, in a fixed order: every placement of the first [`split_rows`]
/// rows that can start a representative. Count them one by one (say, to
/// show progress or to record them in a checkpoint) with
/// [`count_subproblem`].
pub fn subproblems(n: usize) -> Result<Vec<FirstRows>, BitmaskError> {
    subproblems_at(n, split_rows(n))
}

/// [`subproblems`], fixing `rows` rows (at least 2, as a corner shape is
/// set by its second row; shorter boards fix them all), to compare splits.
pub fn subproblems_at(n: usize, rows: usize) -> Result<Vec<FirstRows>, BitmaskError> {
    check_size_for(n, Counter::Symmetry)?;
    if n < SMALLEST_SEARCHED {
        // Only the 1x1 board has a solution: its one queen.
        return Ok(if n == 1 {
            vec![FirstRows { prefix: vec![0] }]
        } else {
            Vec::new()
        });
    }
    let mut pieces = Vec::new();
    for shape in Shape::all(n) {
        split(
            &Rules::new(n, shape),
            rows.clamp(2, n),
            &mut Vec::new(),
            Lines::EMPTY,
            &mut pieces,
        );
    }
    Ok(pieces)
}

/// The full-symmetry counter, on the [`SplitCounter`] API: the unique and
/// total counts together; in parallel with
/// [`counting::count_parallel`](crate::counting::count_parallel).
#[derive(Debug, Clone, Copy)]
pub struct SymmetryCounter;

impl SplitCounter for SymmetryCounter {
    type Piece = FirstRows;
    type Count = UniqueCount;
    const NAME: Counter = Counter::Symmetry;

    fn subproblems(n: usize) -> Result<Vec<FirstRows>, BitmaskError> {
        subproblems(n)
    }

    /// The orbits whose representative (see the [module docs](self)) starts
    /// with the piece's queens: how many (`unique`), and how many solutions
    /// they hold (`total`). The empty prefix stands for every orbit, and a
    /// prefix that no representative starts with (its queens attack each
    /// other, say, or it is longer than the board) for none.
    fn count_polled(
        n: usize,
        piece: &FirstRows,
        poll: &impl Poll,
    ) -> Result<UniqueCount, BitmaskError> {
        check_size_for(n, Counter::Symmetry)?;
        let prefix = piece.prefix.as_slice();
        if let Some((row, &column)) = prefix.iter().enumerate().find(|&(_, &c)| c >= n) {
            return Err(BitmaskError::ColumnOutOfRange { row, column, n });
        }
        if prefix.len() > n {
            return Ok(UniqueCount::default());
        }
        if n < SMALLEST_SEARCHED {
            let whole_board = UniqueCount {
                unique: 1,
                total: 1,
            };
            return Ok(if n == 1 {
                whole_board
            } else {
                UniqueCount::default()
            });
        }
        count_prefix(n, prefix, How::fastest(), poll)
            .map(Tally::unique_count)
            .ok_or(BitmaskError::Cancelled)
    }
}

/// The orbits of `n`-queens solutions whose representative starts with the
/// queens of `subproblem` ([`SymmetryCounter::count_subproblem`]).
pub fn count_subproblem(n: usize, subproblem: &FirstRows) -> Result<UniqueCount, BitmaskError> {
    SymmetryCounter::count_subproblem(n, subproblem)
}

#[cfg(test)]
mod tests {
    use super::orbit::Leaves;
    use super::*;
    use crate::check::is_solution;
    use crate::counter::{MAX_N, Never};
    use crate::kernel::STACK_LEN;
    use crate::oeis::unique_and_total as expected;
    use crate::symmetry;

    fn sum(n: usize, pieces: &[FirstRows]) -> UniqueCount {
        pieces.iter().fold(UniqueCount::default(), |total, piece| {
            total + count_subproblem(n, piece).unwrap()
        })
    }

    /// Records every representative with its orbit size, the way the counter
    /// classifies it.
    struct Recorder {
        test: Option<EdgeTest>,
        n: usize,
        found: Vec<(Vec<usize>, u64)>,
    }

    impl Leaves for Recorder {
        const BOARD: bool = true;

        fn leaf(&mut self, board: &[u32; STACK_LEN]) -> u64 {
            let orbit = match &self.test {
                None => Some(8),
                Some(test) if test.may_tie(board) => test.orbit(board),
                Some(_) => Some(8),
            };
            if let Some(orbit) = orbit {
                let placement = board[..self.n]
                    .iter()
                    .map(|bit| bit.trailing_zeros() as usize)
                    .collect();
                self.found.push((placement, orbit));
            }
            0
        }

        fn needs_leaf(&self, _: &[u32; STACK_LEN], _: u32) -> bool {
            true
        }
    }

    /// Every representative on an `n`-column board (n >= 4), searched with
    /// the rules throughout.
    fn representatives(n: usize) -> Vec<(Vec<usize>, u64)> {
        let mut found = Vec::new();
        for shape in Shape::all(n) {
            let (test, prefix) = match shape {
                Shape::Corner { bound1 } => (None, vec![0, bound1]),
                Shape::Edge { bound1 } => (Some(EdgeTest::new(n, bound1)), vec![bound1]),
            };
            let recorder = Recorder {
                test,
                n,
                found: Vec::new(),
            };
            let (eights, recorder) = search_shape(n, shape, &prefix, Tail::Rules, recorder, &Never);
            assert_eq!(eights, Some(0));
            found.extend(recorder.found);
        }
        found
    }

    #[test]
    fn count_matches_oeis() {
        for n in 1..=15 {
            assert_eq!(SymmetryCounter::count(n), Ok(expected(n)), "n = {n}");
        }
    }

    #[test]
    fn deeper_splits_sum_to_the_count() {
        for n in 4..=12 {
            for rows in 0..=7 {
                let pieces = subproblems_at(n, rows).unwrap();
                assert_eq!(
                    sum(n, &pieces),
                    SymmetryCounter::count(n).unwrap(),
                    "n = {n}, rows = {rows}"
                );
            }
        }
        // The depth grows with the board, never shrinks.
        assert!((1..=32).all(|n| split_rows(n) <= split_rows(n + 1)));
        assert_eq!((split_rows(15), split_rows(16), split_rows(20)), (3, 4, 5));
    }

    #[test]
    fn subproblems_sum_to_the_count() {
        for n in 1..=14 {
            let pieces = subproblems(n).unwrap();
            assert_eq!(
                sum(n, &pieces),
                SymmetryCounter::count(n).unwrap(),
                "n = {n}"
            );
            assert!(
                pieces
                    .iter()
                    .all(|piece| piece.prefix.len() == split_rows(n).min(n)),
                "n = {n}"
            );
        }
        assert_eq!(subproblems(1), Ok(vec![FirstRows { prefix: vec![0] }]));
        assert_eq!(subproblems(3), Ok(Vec::new()));
        // Only representatives' starts: the first queen in the left half.
        assert!(
            subproblems(12)
                .unwrap()
                .iter()
                .all(|piece| 2 * piece.prefix[0] + 1 < 12)
        );
    }

    #[test]
    fn agrees_with_enumerating_every_solution() {
        for n in 1..=12 {
            assert_eq!(
                SymmetryCounter::count(n),
                symmetry::count_unique(n),
                "n = {n}"
            );
        }
    }

    #[test]
    fn representatives_are_one_per_orbit() {
        for n in 4..=10 {
            let found = representatives(n);
            let mut canonical: Vec<_> = found
                .iter()
                .map(|(placement, orbit)| {
                    assert!(is_solution(placement), "{placement:?}");
                    assert_eq!(
                        symmetry::orbit_size(placement),
                        Ok(*orbit as usize),
                        "{placement:?}"
                    );
                    symmetry::canonical(placement).unwrap()
                })
                .collect();
            canonical.sort();
            assert_eq!(canonical, symmetry::unique_solutions(n).unwrap(), "n = {n}");
        }
        // The 4x4 board's one orbit has two members, each its own quarter
        // turn; the 6x6 board's one orbit has four.
        assert_eq!(representatives(4), vec![(vec![1, 3, 0, 2], 2)]);
        assert_eq!(representatives(6).len(), 1);
        assert_eq!(representatives(6)[0].1, 4);
    }

    #[test]
    fn fast_tails_agree_with_the_rules() {
        for n in 4..=13 {
            for piece in subproblems(n).unwrap() {
                let fast = count_prefix(n, &piece.prefix, How::SCALAR, &Never)
                    .unwrap()
                    .unique_count();
                let ruled = How {
                    tail_of: |_, _| Tail::Rules,
                    lanes: None,
                };
                let ruled = count_prefix(n, &piece.prefix, ruled, &Never)
                    .unwrap()
                    .unique_count();
                assert_eq!(fast, ruled, "n = {n}, {piece:?}");
            }
        }
        // Every kind of tail is exercised.
        let tails: Vec<_> = Shape::all(16)
            .map(|shape| Tail::fastest(16, shape))
            .collect();
        for tail in [
            Tail::Rules,
            Tail::Plain,
            Tail::Edge { sides: 0 },
            Tail::Edge { sides: 3 },
            Tail::Edge { sides: 4 },
            Tail::Edge { sides: 5 },
        ] {
            assert!(tails.contains(&tail), "{tail:?}");
        }
    }

    /// The lane kernels this CPU runs: the plain one, and AVX2 where it has it.
    fn kernels() -> Vec<Kernel> {
        [Some(Kernel::Plain), Kernel::choose(false)]
            .into_iter()
            .flatten()
            .collect()
    }

    fn orbits(tally: Tally) -> (u64, u64, u64) {
        (tally.two, tally.four, tally.eight)
    }

    #[test]
    fn the_scalar_search_runs_when_asked_or_without_avx2() {
        assert_eq!(Kernel::choose(true), None);
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            Kernel::choose(false).is_some(),
            std::is_x86_feature_detected!("avx2")
        );
        #[cfg(not(target_arch = "x86_64"))]
        assert_eq!(Kernel::choose(false), None);
    }

    #[test]
    fn lanes_from_any_start_row_find_the_orbits_of_the_scalar_search() {
        // From every row the lanes can start at: one item (fewer than the lanes) where it is
        // the first free row, up to thousands; the shapes' tallies by orbit size, and their
        // sum against OEIS.
        let mut fewer_items_than_lanes = 0;
        for kernel in kernels() {
            for n in 4..=12 {
                let mut total = UniqueCount::default();
                for shape in Shape::all(n) {
                    let prefix = match shape {
                        Shape::Corner { bound1 } => vec![0, bound1],
                        Shape::Edge { bound1 } => vec![bound1],
                    };
                    let scalar = count_prefix(n, &prefix, How::SCALAR, &Never).unwrap();
                    total = total + scalar.unique_count();
                    for start in (prefix.len()..n).filter(|&start| lanes::fits(n, start)) {
                        let lanes = lanes::count(n, shape, &prefix, start, kernel, &Never);
                        assert_eq!(
                            orbits(lanes.unwrap()),
                            orbits(scalar),
                            "{kernel:?}, n = {n}, {shape:?}, start {start}"
                        );
                        let items = lanes::items(n, shape, &prefix, start);
                        if (1..lanes::LANES).contains(&items) {
                            fewer_items_than_lanes += 1;
                        }
                    }
                }
                assert_eq!(total, expected(n), "n = {n}");
            }
        }
        assert!(fewer_items_than_lanes > 10);
    }

    #[test]
    fn the_scalar_search_and_each_lane_kernel_match_oeis() {
        let lanes = kernels().into_iter().map(|kernel| How {
            tail_of: Tail::fastest,
            lanes: Some(kernel),
        });
        for how in [How::SCALAR].into_iter().chain(lanes) {
            for n in 4..=15 {
                let tally =
                    subproblems(n)
                        .unwrap()
                        .iter()
                        .fold(UniqueCount::default(), |total, piece| {
                            let tally = count_prefix(n, &piece.prefix, how, &Never).unwrap();
                            total + tally.unique_count()
                        });
                assert_eq!(tally, expected(n), "{how:?}, n = {n}");
            }
        }
        // The lanes search the boards from 11 columns on, the default split.
        assert_eq!(lanes::start_row(10, split_rows(10)), None);
        assert_eq!(lanes::start_row(11, split_rows(11)), Some(6));
        assert_eq!(lanes::start_row(20, split_rows(20)), Some(8));
    }

    #[test]
    fn prefixes_of_any_length_partition_the_orbits() {
        for n in 4..=8 {
            let whole = SymmetryCounter::count(n).unwrap();
            assert_eq!(
                count_subproblem(n, &FirstRows { prefix: vec![] }),
                Ok(whole)
            );
            // All non-attacking placements of the first `rows` rows.
            let mut prefixes = vec![Vec::new()];
            for rows in 1..=n {
                prefixes = prefixes
                    .iter()
                    .flat_map(|prefix: &Vec<usize>| {
                        (0..n).map(move |column| {
                            let mut longer = prefix.clone();
                            longer.push(column);
                            longer
                        })
                    })
                    .filter(|p| is_solution_prefix(p))
                    .collect();
                let pieces: Vec<_> = prefixes
                    .iter()
                    .map(|prefix| FirstRows {
                        prefix: prefix.clone(),
                    })
                    .collect();
                assert_eq!(sum(n, &pieces), whole, "n = {n}, rows = {rows}");
            }
        }
    }

    /// Whether no two queens of `prefix` attack each other.
    fn is_solution_prefix(prefix: &[usize]) -> bool {
        prefix.iter().enumerate().all(|(a, &ca)| {
            prefix[a + 1..]
                .iter()
                .enumerate()
                .all(|(d, &cb)| ca != cb && ca.abs_diff(cb) != d + 1)
        })
    }

    #[test]
    fn any_subproblem_is_counted_honestly() {
        let none = UniqueCount::default();
        let piece = |prefix: &[usize]| FirstRows {
            prefix: prefix.to_vec(),
        };
        // Attacking queens, a right-half start, a corner the wrong way round.
        assert_eq!(count_subproblem(8, &piece(&[3, 4])), Ok(none));
        assert_eq!(count_subproblem(8, &piece(&[5])), Ok(none));
        assert_eq!(count_subproblem(8, &piece(&[0, 7])), Ok(none));
        // The first 8x8 representative, [0, 4, 7, 5, 2, 6, 1, 3], in full.
        let one = UniqueCount {
            unique: 1,
            total: 8,
        };
        assert_eq!(
            count_subproblem(8, &piece(&[0, 4, 7, 5, 2, 6, 1, 3])),
            Ok(one)
        );
        assert_eq!(count_subproblem(8, &piece(&[0, 4, 7, 5, 2, 6, 1])), Ok(one));
        // Its transpose is a solution too, but not the representative.
        assert!(is_solution(&[0, 6, 4, 7, 1, 3, 5, 2]));
        assert_eq!(
            count_subproblem(8, &piece(&[0, 6, 4, 7, 1, 3, 5, 2])),
            Ok(none)
        );
        assert_eq!(count_subproblem(8, &piece(&[0; 9])), Ok(none));
        assert_eq!(count_subproblem(1, &piece(&[])), Ok(expected(1)));
        assert_eq!(count_subproblem(1, &piece(&[0, 0])), Ok(none));
        assert_eq!(count_subproblem(3, &piece(&[])), Ok(none));
        assert_eq!(
            count_subproblem(8, &piece(&[0, 8])),
            Err(BitmaskError::ColumnOutOfRange {
                row: 1,
                column: 8,
                n: 8
            })
        );
    }

    #[test]
    fn refuses_bad_sizes() {
        assert_eq!(SymmetryCounter::count(0), Err(BitmaskError::ZeroBoard));
        let too_large = BitmaskError::TooLarge {
            n: MAX_N + 1,
            max: MAX_N,
            counter: Counter::Symmetry,
        };
        assert_eq!(
            too_large.to_string(),
            format!(
                "n = {} is too large for the symmetry counter (at most {})",
                MAX_N + 1,
                MAX_N
            )
        );
        assert_eq!(SymmetryCounter::count(MAX_N + 1), Err(too_large.clone()));
        assert_eq!(subproblems(MAX_N + 1), Err(too_large));
        assert!(subproblems(0).is_err());
    }

    #[test]
    fn largest_board_is_accepted() {
        // Counting n = MAX_N is out of reach, but the set-up must not
        // overflow a shift, and a subproblem with most rows fixed finishes
        // at once.
        let n = MAX_N;
        let pieces = subproblems(n).unwrap();
        assert!(pieces.iter().all(|piece| 2 * piece.prefix[0] + 1 < n));
        let solution = crate::construct::construct(n).unwrap();
        let mirrored: Vec<_> = solution.iter().map(|&column| n - 1 - column).collect();
        let found: u64 = [solution, mirrored]
            .iter()
            .map(|placement| {
                let prefix = placement[..n - 6].to_vec();
                count_subproblem(n, &FirstRows { prefix }).unwrap().total
            })
            .sum();
        assert!(found <= 16);
    }
}
