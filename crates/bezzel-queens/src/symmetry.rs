//! The eight symmetries of the square board, and counting solutions up to
//! them.
//!
//! Rotating or reflecting a solution gives a solution, so solutions fall into
//! classes (orbits) of 1, 2, 4 or 8 members under the dihedral group D4. Each
//! class is represented by its lexicographically smallest member, the
//! canonical one. [`count_unique`] ([`CanonicalCounter`]) enumerates solutions
//! with the bitmask search, keeps those that no symmetry makes smaller, and adds
//! up their orbit sizes to recover the total as a cross-check: slower than
//! [`symmetry_count`](crate::symmetry_count), and independent of it. Since the left-right mirror
//! of a canonical solution cannot be smaller, its first-row queen is in the
//! left half (or the middle), and only that half is searched.
//!
//! Every symmetry is computed the same way: the image of a placement `p` is
//! read either from `p` or from its inverse permutation (the rotations by 90
//! and 270 degrees and the two diagonal reflections swap rows with columns),
//! possibly back to front (reversing rows), possibly with each column `c`
//! replaced by `n - 1 - c` (reversing columns).

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, ControlFlow};

use serde::{Deserialize, Serialize};

use crate::bitmask;
use crate::counter::{BitmaskError, CountPair, Counter, Never, Poll, SplitCounter, check_size_for};

/// One of the eight rotations and reflections of the board.
///
/// Row 0 is the top row and column 0 the left column; rotations are
/// clockwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Symmetry {
    /// Leaves the board as it is.
    Identity,
    /// Rotates a quarter turn clockwise: `(row, column)` goes to
    /// `(column, n - 1 - row)`.
    Rotate90,
    /// Rotates a half turn: `(row, column)` goes to
    /// `(n - 1 - row, n - 1 - column)`.
    Rotate180,
    /// Rotates a quarter turn anticlockwise: `(row, column)` goes to
    /// `(n - 1 - column, row)`.
    Rotate270,
    /// Mirrors left and right: `(row, column)` goes to `(row, n - 1 - column)`.
    FlipHorizontal,
    /// Mirrors top and bottom: `(row, column)` goes to `(n - 1 - row, column)`.
    FlipVertical,
    /// Mirrors in the main diagonal: `(row, column)` goes to `(column, row)`.
    Transpose,
    /// Mirrors in the other diagonal: `(row, column)` goes to
    /// `(n - 1 - column, n - 1 - row)`.
    AntiTranspose,
}

impl Symmetry {
    /// All eight symmetries, [`Identity`](Symmetry::Identity) first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipHorizontal,
        Symmetry::FlipVertical,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// How the image is read off the placement: (from the inverse
    /// permutation, rows reversed, columns reversed). See the module docs.
    fn recipe(self) -> (bool, bool, bool) {
        match self {
            Symmetry::Identity => (false, false, false),
            Symmetry::FlipHorizontal => (false, false, true),
            Symmetry::FlipVertical => (false, true, false),
            Symmetry::Rotate180 => (false, true, true),
            Symmetry::Transpose => (true, false, false),
            Symmetry::Rotate90 => (true, false, true),
            Symmetry::Rotate270 => (true, true, false),
            Symmetry::AntiTranspose => (true, true, true),
        }
    }
}

/// Why a placement could not be transformed: only permutations of `0..n`
/// (one queen per row and per column, as in every solution) stay one queen
/// per row under the rotations and diagonal reflections.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PermutationError {
    /// A column is not on the board.
    OutOfRange {
        /// The first row whose column is out of range.
        row: usize,
        /// The offending column.
        column: usize,
        /// The board size, which is the placement length.
        n: usize,
    },
    /// Two rows have their queens in the same column.
    Repeated {
        /// The first row that repeats a column.
        row: usize,
        /// The earlier row with the same column.
        earlier_row: usize,
        /// The shared column.
        column: usize,
    },
}

impl fmt::Display for PermutationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::OutOfRange { row, column, n } => write!(
                f,
                "row {row} has its queen in column {column}, but a board of size {n} only has columns 0 to {}",
                n.saturating_sub(1)
            ),
            Self::Repeated {
                row,
                earlier_row,
                column,
            } => write!(
                f,
                "rows {earlier_row} and {row} both have their queen in column {column}"
            ),
        }
    }
}

impl std::error::Error for PermutationError {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for PermutationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PermutationError: {self}")
    }
}

/// The number of unique solutions (one per orbit) and of all solutions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UniqueCount {
    /// Solutions up to rotation and reflection (OEIS A002562).
    pub unique: u64,
    /// All solutions (OEIS A000170), as the sum of the orbit sizes.
    pub total: u64,
}

/// `[total, unique]`.
impl CountPair for UniqueCount {
    fn to_pair(self) -> [u64; 2] {
        [self.total, self.unique]
    }

    fn from_pair([total, unique]: [u64; 2]) -> UniqueCount {
        UniqueCount { unique, total }
    }
}

impl Add for UniqueCount {
    type Output = UniqueCount;

    fn add(self, other: UniqueCount) -> UniqueCount {
        UniqueCount {
            unique: self.unique + other.unique,
            total: self.total + other.total,
        }
    }
}

/// The inverse permutation of `placement`: the row of the queen in each
/// column.
fn inverse_permutation(placement: &[usize]) -> Result<Vec<usize>, PermutationError> {
    let n = placement.len();
    let mut row_of_column = vec![usize::MAX; n];
    for (row, &column) in placement.iter().enumerate() {
        let Some(slot) = row_of_column.get_mut(column) else {
            return Err(PermutationError::OutOfRange { row, column, n });
        };
        if *slot != usize::MAX {
            return Err(PermutationError::Repeated {
                row,
                earlier_row: *slot,
                column,
            });
        }
        *slot = row;
    }
    Ok(row_of_column)
}

/// Entry `i` of the image of `placement` (whose inverse is `inverse`) under
/// `recipe`. Both must be permutations of the same length.
fn image_at(
    placement: &[usize],
    inverse: &[usize],
    (from_inverse, reverse_rows, reverse_columns): (bool, bool, bool),
    i: usize,
) -> usize {
    let n = placement.len();
    let source = if from_inverse { inverse } else { placement };
    let value = source[if reverse_rows { n - 1 - i } else { i }];
    if reverse_columns {
        n - 1 - value
    } else {
        value
    }
}

/// `placement` rotated or reflected by `symmetry`.
///
/// The placement must be a permutation of `0..n`, as every solution is;
/// anything else is a [`PermutationError`].
pub fn transform(placement: &[usize], symmetry: Symmetry) -> Result<Vec<usize>, PermutationError> {
    let inverse = inverse_permutation(placement)?;
    let recipe = symmetry.recipe();
    Ok((0..placement.len())
        .map(|i| image_at(placement, &inverse, recipe, i))
        .collect())
}

/// The lexicographically smallest of the eight images of `placement`, which
/// represents its whole orbit.
pub fn canonical(placement: &[usize]) -> Result<Vec<usize>, PermutationError> {
    let inverse = inverse_permutation(placement)?;
    let mut best = placement.to_vec();
    let mut image = vec![0; placement.len()];
    for symmetry in &Symmetry::ALL[1..] {
        let recipe = symmetry.recipe();
        for (i, slot) in image.iter_mut().enumerate() {
            *slot = image_at(placement, &inverse, recipe, i);
        }
        if image < best {
            best.clone_from(&image);
        }
    }
    Ok(best)
}

/// Whether `placement` is its own [`canonical`] form.
pub fn is_canonical(placement: &[usize]) -> Result<bool, PermutationError> {
    let inverse = inverse_permutation(placement)?;
    Ok(canonical_orbit_size(placement, &inverse).is_some())
}

/// The number of distinct images of `placement` under the eight symmetries:
/// 1, 2, 4 or 8. For solutions it is 8, 4 (unchanged by a half turn) or 2
/// (unchanged by a quarter turn), except for the 1x1 board's 1.
pub fn orbit_size(placement: &[usize]) -> Result<usize, PermutationError> {
    let inverse = inverse_permutation(placement)?;
    Ok(8 / stabilizer_size(placement, &inverse))
}

/// How many symmetries leave `placement` unchanged (the identity included).
fn stabilizer_size(placement: &[usize], inverse: &[usize]) -> usize {
    Symmetry::ALL
        .iter()
        .filter(|symmetry| compare_image(placement, inverse, **symmetry) == Ordering::Equal)
        .count()
}

/// The image of `placement` under `symmetry` compared with `placement`
/// itself, stopping at the first difference.
fn compare_image(placement: &[usize], inverse: &[usize], symmetry: Symmetry) -> Ordering {
    let recipe = symmetry.recipe();
    for (i, &own) in placement.iter().enumerate() {
        match image_at(placement, inverse, recipe, i).cmp(&own) {
            Ordering::Equal => {}
            unequal => return unequal,
        }
    }
    Ordering::Equal
}

/// `Some(orbit size)` if `placement` is canonical, `None` if an image is
/// smaller. Orbit-stabilizer: the orbit has 8 / |stabilizer| members.
fn canonical_orbit_size(placement: &[usize], inverse: &[usize]) -> Option<u64> {
    let mut stabilizer = 1;
    for &symmetry in &Symmetry::ALL[1..] {
        match compare_image(placement, inverse, symmetry) {
            Ordering::Less => return None,
            Ordering::Equal => stabilizer += 1,
            Ordering::Greater => {}
        }
    }
    Some(8 / stabilizer)
}

/// Calls `on_canonical(solution, orbit size)` for each canonical solution
/// starting with `prefix`, in lexicographic order, until it returns
/// [`ControlFlow::Break`] or `poll`, asked on every solution (canonical ones
/// can be far apart), says to give up; either way the result is then `Break`.
fn for_each_canonical(
    n: usize,
    prefix: &[usize],
    poll: &impl Poll,
    mut on_canonical: impl FnMut(&[usize], u64) -> ControlFlow<()>,
) -> Result<ControlFlow<()>, BitmaskError> {
    let mut inverse = vec![0; n];
    let mut flow = ControlFlow::Continue(());
    bitmask::try_for_each_solution_with_prefix(n, prefix, |solution| {
        if poll.cancelled() {
            flow = ControlFlow::Break(());
            return flow;
        }
        // Solutions are permutations, so the inverse needs no checking.
        for (row, &column) in solution.iter().enumerate() {
            inverse[column] = row;
        }
        if let Some(orbit) = canonical_orbit_size(solution, &inverse) {
            flow = on_canonical(solution, orbit);
        }
        flow
    })?;
    Ok(flow)
}

/// The enumerate-and-test counter, on the [`SplitCounter`] API: every
/// solution starting with a piece's first two rows is enumerated, and the
/// canonical ones are counted with their orbit sizes. In parallel with
/// [`counting::count_parallel`](crate::counting::count_parallel).
#[derive(Debug, Clone, Copy)]
pub struct CanonicalCounter;

impl SplitCounter for CanonicalCounter {
    /// The first rows of the solutions counted.
    type Piece = Vec<usize>;
    type Count = UniqueCount;
    const NAME: Counter = Counter::Symmetry;

    /// The first two rows of the solutions a canonical one can start with:
    /// the first queen in the left half or the middle.
    fn subproblems(n: usize) -> Result<Vec<Vec<usize>>, BitmaskError> {
        check_size_for(n, Counter::Symmetry)?;
        if n == 1 {
            return Ok(vec![vec![0]]);
        }
        Ok((0..n.div_ceil(2))
            .flat_map(|first| {
                (0..n)
                    .filter(move |second| first.abs_diff(*second) >= 2)
                    .map(move |second| vec![first, second])
            })
            .collect())
    }

    /// The canonical solutions starting with `prefix`, and the solutions in
    /// their orbits. The poll is asked on each solution found.
    fn count_polled(
        n: usize,
        prefix: &Vec<usize>,
        poll: &impl Poll,
    ) -> Result<UniqueCount, BitmaskError> {
        check_size_for(n, Counter::Symmetry)?;
        let mut count = UniqueCount::default();
        let flow = for_each_canonical(n, prefix, poll, |_, orbit| {
            count.unique += 1;
            count.total += orbit;
            ControlFlow::Continue(())
        })?;
        if flow.is_break() {
            return Err(BitmaskError::Cancelled);
        }
        Ok(count)
    }
}

/// Counts the `n`-queens solutions up to rotation and reflection, and all of
/// them via the orbit sizes, on the calling thread
/// ([`CanonicalCounter::count`]).
pub fn count_unique(n: usize) -> Result<UniqueCount, BitmaskError> {
    CanonicalCounter::count(n)
}

/// Calls `f` with the canonical representative of every orbit of `n`-queens
/// solutions, in lexicographic order, on the calling thread, until `f`
/// returns [`ControlFlow::Break`]. Memory stays O(n) however many there are,
/// unlike [`unique_solutions`], and the first few come at once.
pub fn for_each_unique_solution(
    n: usize,
    mut f: impl FnMut(&[usize]) -> ControlFlow<()>,
) -> Result<(), BitmaskError> {
    for prefix in CanonicalCounter::subproblems(n)? {
        if for_each_canonical(n, &prefix, &Never, |solution, _| f(solution))?.is_break() {
            break;
        }
    }
    Ok(())
}

/// The canonical representative of every orbit of `n`-queens solutions,
/// sorted lexicographically, on the calling thread.
pub fn unique_solutions(n: usize) -> Result<Vec<Vec<usize>>, BitmaskError> {
    let mut found = Vec::new();
    // The prefixes are in lexicographic order and each one's solutions are
    // too, so the list comes sorted.
    for_each_unique_solution(n, |solution| {
        found.push(solution.to_vec());
        ControlFlow::Continue(())
    })?;
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::is_solution;
    use crate::oeis::unique_and_total;
    use proptest::prelude::*;

    /// The geometric definition of each symmetry, square by square, written
    /// independently of the recipes the module uses.
    fn by_definition(placement: &[usize], symmetry: Symmetry) -> Vec<usize> {
        let n = placement.len();
        let last = n - 1;
        let mut image = vec![usize::MAX; n];
        for (r, &c) in placement.iter().enumerate() {
            let (r2, c2) = match symmetry {
                Symmetry::Identity => (r, c),
                Symmetry::Rotate90 => (c, last - r),
                Symmetry::Rotate180 => (last - r, last - c),
                Symmetry::Rotate270 => (last - c, r),
                Symmetry::FlipHorizontal => (r, last - c),
                Symmetry::FlipVertical => (last - r, c),
                Symmetry::Transpose => (c, r),
                Symmetry::AntiTranspose => (last - c, last - r),
            };
            image[r2] = c2;
        }
        image
    }

    fn permutation(n: usize) -> impl Strategy<Value = Vec<usize>> {
        Just((0..n).collect::<Vec<_>>()).prop_shuffle()
    }

    #[test]
    fn transforms_match_the_geometric_definition() {
        let p = [0, 4, 7, 5, 2, 6, 1, 3];
        for symmetry in Symmetry::ALL {
            assert_eq!(
                transform(&p, symmetry).unwrap(),
                by_definition(&p, symmetry)
            );
        }
        // A quarter turn clockwise of a 3x3 board, worked out by hand.
        assert_eq!(transform(&[1, 2, 0], Symmetry::Rotate90), Ok(vec![0, 2, 1]));
    }

    #[test]
    fn rotations_compose_like_rotations() {
        let p = [2, 0, 3, 1, 4];
        let quarter = |x: &[usize]| transform(x, Symmetry::Rotate90).unwrap();
        let twice = quarter(&p);
        let twice = quarter(&twice);
        assert_eq!(twice, transform(&p, Symmetry::Rotate180).unwrap());
        let thrice = quarter(&twice);
        assert_eq!(thrice, transform(&p, Symmetry::Rotate270).unwrap());
        assert_eq!(quarter(&thrice), p);
    }

    #[test]
    fn transforms_of_solutions_are_solutions() {
        for n in [1, 4, 5, 6, 8] {
            for solution in bitmask::solutions(n).unwrap() {
                for symmetry in Symmetry::ALL {
                    assert!(is_solution(&transform(&solution, symmetry).unwrap()));
                }
            }
        }
    }

    #[test]
    fn count_unique_matches_oeis() {
        for n in 1..=14 {
            assert_eq!(count_unique(n), Ok(unique_and_total(n)), "n = {n}");
        }
    }

    #[test]
    fn unique_solutions_are_the_sorted_orbit_minima() {
        for n in 1..=8 {
            // Brute force: canonicalise every solution and deduplicate.
            let mut expected: Vec<_> = bitmask::solutions(n)
                .unwrap()
                .iter()
                .map(|s| canonical(s).unwrap())
                .collect();
            expected.sort();
            expected.dedup();
            assert_eq!(unique_solutions(n).unwrap(), expected, "n = {n}");
        }
        let eight = unique_solutions(8).unwrap();
        assert_eq!(eight.len(), 12);
        assert_eq!(eight[0], vec![0, 4, 7, 5, 2, 6, 1, 3]);
        // The one 8x8 solution unchanged by a half turn.
        let symmetric: Vec<_> = eight.iter().filter(|s| orbit_size(s) == Ok(4)).collect();
        assert_eq!(symmetric, [&vec![2, 4, 1, 7, 0, 6, 3, 5]]);
    }

    #[test]
    fn orbit_sizes_of_small_boards() {
        assert_eq!(orbit_size(&[0]), Ok(1));
        assert_eq!(canonical(&[0]), Ok(vec![0]));
        // The 4x4 board has one orbit of two, unchanged by a quarter turn.
        assert_eq!(orbit_size(&[1, 3, 0, 2]), Ok(2));
        assert_eq!(canonical(&[2, 0, 3, 1]), Ok(vec![1, 3, 0, 2]));
        assert_eq!(is_canonical(&[2, 0, 3, 1]), Ok(false));
        assert_eq!(is_canonical(&[1, 3, 0, 2]), Ok(true));
        assert_eq!(orbit_size(&[]), Ok(1));
    }

    #[test]
    fn inverse_undoes() {
        let p = [3, 0, 4, 1, 5, 2];
        for symmetry in Symmetry::ALL {
            let there = transform(&p, symmetry).unwrap();
            assert_eq!(
                transform(&there, symmetry.inverse()).unwrap(),
                p,
                "{symmetry:?}"
            );
        }
    }

    #[test]
    fn non_permutations_are_refused() {
        assert_eq!(
            transform(&[0, 3, 1], Symmetry::Rotate90),
            Err(PermutationError::OutOfRange {
                row: 1,
                column: 3,
                n: 3
            })
        );
        let repeated = PermutationError::Repeated {
            row: 2,
            earlier_row: 0,
            column: 1,
        };
        assert_eq!(canonical(&[1, 0, 1]), Err(repeated));
        assert_eq!(
            repeated.to_string(),
            "rows 0 and 2 both have their queen in column 1"
        );
        assert!(orbit_size(&[usize::MAX]).is_err());
    }

    #[test]
    fn streaming_the_representatives_gives_the_same_list() {
        for n in 1..=10 {
            let mut streamed = Vec::new();
            for_each_unique_solution(n, |p| {
                streamed.push(p.to_vec());
                ControlFlow::Continue(())
            })
            .unwrap();
            assert_eq!(streamed, unique_solutions(n).unwrap(), "n = {n}");
        }
        // Breaking off after two gives the first two.
        let mut two = Vec::new();
        for_each_unique_solution(10, |p| {
            two.push(p.to_vec());
            if two.len() == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        assert_eq!(two, unique_solutions(10).unwrap()[..2].to_vec());
        assert!(for_each_unique_solution(bitmask::MAX_N + 1, |_| ControlFlow::Break(())).is_err());
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert_eq!(count_unique(0), Err(BitmaskError::ZeroBoard));
        assert!(matches!(
            unique_solutions(bitmask::MAX_N + 1),
            Err(BitmaskError::TooLarge { .. })
        ));
    }

    proptest! {
        #[test]
        fn the_eight_images_form_a_group(p in (1usize..10).prop_flat_map(permutation)) {
            let images: Vec<_> = Symmetry::ALL
                .iter()
                .map(|&s| transform(&p, s).unwrap())
                .collect();
            for &symmetry in &Symmetry::ALL {
                prop_assert_eq!(&transform(&p, symmetry).unwrap(), &by_definition(&p, symmetry));
                // Closed: transforming any image lands on another image.
                for image in &images {
                    prop_assert!(images.contains(&transform(image, symmetry).unwrap()));
                }
            }
            let canon = canonical(&p).unwrap();
            prop_assert_eq!(Some(&canon), images.iter().min());
            let mut distinct = images.clone();
            distinct.sort();
            distinct.dedup();
            prop_assert_eq!(orbit_size(&p).unwrap(), distinct.len());
            // Every image has the same canonical form and orbit.
            for image in &images {
                prop_assert_eq!(&canonical(image).unwrap(), &canon);
                prop_assert_eq!(is_canonical(image).unwrap(), image == &canon);
            }
        }
    }
}
