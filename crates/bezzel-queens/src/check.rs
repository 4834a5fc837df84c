//! Checking a placement of queens, one per row.
//!
//! A placement is a slice where `placement[row]` is the 0-based column of the
//! queen in that row, so the board size `n` is the slice length and two
//! queens can never share a row. What is left to check is the columns and the
//! two diagonal directions. [`is_solution`] does that in O(n) by marking each
//! column and diagonal in a boolean array the first time it is used;
//! [`conflicts`] explains a failure by counting the attacking pairs and
//! listing the first few, in memory proportional to `n` however many pairs
//! there are ([`attacking_pairs`] lists them all, which can be quadratic), and
//! [`validate`] reports columns that fall off the board.
//!
//! Nothing here uses the solvers: the checker is the independent judge of
//! what they find.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The line along which two queens attack each other.
///
/// Rows are numbered from the top and columns from the left, so a
/// [`Diagonal`](AttackKind::Diagonal) runs from top-left to bottom-right
/// (`column - row` is constant) and an
/// [`AntiDiagonal`](AttackKind::AntiDiagonal) from top-right to bottom-left
/// (`column + row` is constant).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum AttackKind {
    /// Both queens stand in the same column.
    Column,
    /// Both queens stand on the same top-left to bottom-right diagonal.
    Diagonal,
    /// Both queens stand on the same top-right to bottom-left diagonal.
    AntiDiagonal,
}

/// Two queens, in rows `a < b`, that attack each other along `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Attack {
    /// The upper row of the pair.
    pub a: usize,
    /// The lower row of the pair; always greater than `a`.
    pub b: usize,
    /// The line the two queens share.
    pub kind: AttackKind,
}

/// A queen whose column does not fit on the board, found by [`validate`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlacementError {
    /// The first row whose column is out of range.
    pub row: usize,
    /// The offending column.
    pub column: usize,
    /// The board size, which is the placement length; columns must be below it.
    pub n: usize,
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "row {} has its queen in column {}, but a board of size {} only has columns 0 to {}",
            self.row,
            self.column,
            self.n,
            self.n.saturating_sub(1),
        )
    }
}

impl std::error::Error for PlacementError {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for PlacementError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PlacementError: {self}")
    }
}

/// Checks that every column lies on the board, reporting the first row that
/// does not.
///
/// An empty placement passes: it has no column to get wrong.
pub fn validate(placement: &[usize]) -> Result<(), PlacementError> {
    let n = placement.len();
    match placement.iter().position(|&column| column >= n) {
        None => Ok(()),
        Some(row) => Err(PlacementError {
            row,
            column: placement[row],
            n,
        }),
    }
}

/// Whether `placement` puts `n = placement.len()` queens on an `n`x`n` board
/// with no two attacking each other, in O(n) time.
///
/// A column outside `0..n` makes the answer `false`. The empty placement is
/// also `false`: a board with no squares is treated as having no solution, so
/// that a caller who lost the board size cannot mistake it for success.
pub fn is_solution(placement: &[usize]) -> bool {
    let n = placement.len();
    if n == 0 {
        return false;
    }
    let mut column_used = vec![false; n];
    // `column - row` ranges over -(n-1)..=n-1, shifted by n-1 to index from 0.
    let mut diagonal_used = vec![false; 2 * n - 1];
    let mut anti_diagonal_used = vec![false; 2 * n - 1];
    for (row, &column) in placement.iter().enumerate() {
        if column >= n {
            return false;
        }
        let diagonal = column + (n - 1) - row;
        let anti_diagonal = column + row;
        if column_used[column] || diagonal_used[diagonal] || anti_diagonal_used[anti_diagonal] {
            return false;
        }
        column_used[column] = true;
        diagonal_used[diagonal] = true;
        anti_diagonal_used[anti_diagonal] = true;
    }
    true
}

/// Every pair of queens in `placement` that attack each other, sorted by
/// `(a, b)`.
///
/// Columns are taken at face value, even outside `0..n` (use [`validate`] to
/// reject those), so the answer is always the geometric truth. Two queens in
/// different rows share at most one line, so each pair appears at most once.
///
/// There can be `n (n - 1) / 2` pairs (all queens in one column), which for
/// large untrusted input is more than memory holds: use [`conflicts`] there.
pub fn attacking_pairs(placement: &[usize]) -> Vec<Attack> {
    conflicts(placement, usize::MAX).first
}

/// How many pairs of queens attack each other, and the first of them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Conflicts {
    /// The number of attacking pairs, all of them; zero exactly when no two
    /// queens attack each other. Exact: it is at most `n (n - 1) / 2`, and
    /// `n` is a slice length.
    pub total: u64,
    /// The first attacking pairs in `(a, b)` order, as many as were asked
    /// for (or all, if fewer).
    pub first: Vec<Attack>,
}

/// Counts the attacking pairs of `placement` and lists the first `limit` of
/// them in `(a, b)` order, in O(n log n + limit) time and O(n + limit)
/// memory however many pairs there are.
///
/// Columns are taken at face value, as by [`attacking_pairs`], which is
/// `conflicts(placement, usize::MAX).first`. To print many pairs without
/// keeping them, iterate over [`attacks`] instead.
pub fn conflicts(placement: &[usize], limit: usize) -> Conflicts {
    let attacks = attacks(placement);
    let total = attacks.total();
    Conflicts {
        total,
        first: attacks.take(limit).collect(),
    }
}

/// Every attacking pair of `placement` in `(a, b)` order, one at a time, in
/// O(n) memory however many pairs there are (all queens in one column attack
/// in `n (n - 1) / 2` pairs); [`Attacks::total`] says how many there are
/// before any is taken. Building it takes O(n log n) time.
///
/// Columns are taken at face value, as by [`attacking_pairs`].
pub fn attacks(placement: &[usize]) -> Attacks {
    let n = placement.len();
    let kinds = [
        AttackKind::Column,
        AttackKind::Diagonal,
        AttackKind::AntiDiagonal,
    ];
    // next[k][row]: the next row below `row` on its line of kind k, or NONE.
    let mut next = [vec![NONE; n], vec![NONE; n], vec![NONE; n]];
    let mut total = 0u64;
    let mut keyed: Vec<(i128, usize)> = Vec::with_capacity(n);
    for (kind, next) in kinds.iter().zip(&mut next) {
        keyed.clear();
        keyed.extend(
            placement
                .iter()
                .enumerate()
                .map(|(row, &column)| (line_key(*kind, row, column), row)),
        );
        // Sorting by (key, row) puts each line's queens together, upper rows first.
        keyed.sort_unstable();
        for group in keyed.chunk_by(|x, y| x.0 == y.0) {
            let size = group.len() as u64;
            total += size * (size - 1) / 2;
            for pair in group.windows(2) {
                next[pair[0].1] = pair[1].1;
            }
        }
    }
    Attacks {
        next,
        a: 0,
        heads: [NONE; 3],
        total,
    }
    .start()
}

/// No row: the end of a line.
const NONE: usize = usize::MAX;

/// The attacking pairs of a placement in `(a, b)` order, made by [`attacks`].
#[derive(Debug, Clone)]
pub struct Attacks {
    /// For each kind of line, the next row below each row on its line, or `NONE`.
    next: [Vec<usize>; 3],
    /// The upper row of the pairs being listed.
    a: usize,
    /// The rows below `a` on each of its three lines not listed yet.
    heads: [usize; 3],
    /// All attacking pairs.
    total: u64,
}

impl Attacks {
    /// The number of attacking pairs, all of them, including those already
    /// taken; zero exactly when no two queens attack each other.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Points the heads at the rows below row 0.
    fn start(mut self) -> Attacks {
        if !self.next[0].is_empty() {
            self.heads = [self.next[0][0], self.next[1][0], self.next[2][0]];
        }
        self
    }
}

impl Iterator for Attacks {
    type Item = Attack;

    fn next(&mut self) -> Option<Attack> {
        let kinds = [
            AttackKind::Column,
            AttackKind::Diagonal,
            AttackKind::AntiDiagonal,
        ];
        let n = self.next[0].len();
        while self.a < n {
            // The rows below `a` on each of its three lines, merged in order; they
            // are distinct, since two rows share at most one line.
            let (k, &b) = self
                .heads
                .iter()
                .enumerate()
                .min_by_key(|&(_, &b)| b)
                .expect("three lines");
            if b != NONE {
                self.heads[k] = self.next[k][b];
                return Some(Attack {
                    a: self.a,
                    b,
                    kind: kinds[k],
                });
            }
            self.a += 1;
            if self.a < n {
                self.heads = [0, 1, 2].map(|k| self.next[k][self.a]);
            }
        }
        None
    }
}

/// Which line of `kind` the square `(row, column)` lies on. i128 holds
/// `column - row` and `column + row` exactly for any usize column, so distinct
/// lines never collide through wrap-around.
fn line_key(kind: AttackKind, row: usize, column: usize) -> i128 {
    let (row, column) = (row as i128, column as i128);
    match kind {
        AttackKind::Column => column,
        AttackKind::Diagonal => column - row,
        AttackKind::AntiDiagonal => column + row,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The definition, pair by pair, to compare the fast versions against.
    fn attacks_by_definition(placement: &[usize]) -> Vec<Attack> {
        let mut attacks = Vec::new();
        for a in 0..placement.len() {
            for b in a + 1..placement.len() {
                let (ca, cb) = (placement[a] as i128, placement[b] as i128);
                let (ra, rb) = (a as i128, b as i128);
                let kind = if ca == cb {
                    AttackKind::Column
                } else if ca - ra == cb - rb {
                    AttackKind::Diagonal
                } else if ca + ra == cb + rb {
                    AttackKind::AntiDiagonal
                } else {
                    continue;
                };
                attacks.push(Attack { a, b, kind });
            }
        }
        attacks
    }

    const EIGHT_QUEENS: [usize; 8] = [0, 4, 7, 5, 2, 6, 1, 3];

    #[test]
    fn accepts_known_solutions() {
        assert!(is_solution(&[0]));
        assert!(is_solution(&[1, 3, 0, 2]));
        assert!(is_solution(&[2, 0, 3, 1]));
        assert!(is_solution(&EIGHT_QUEENS));
        assert!(attacking_pairs(&EIGHT_QUEENS).is_empty());
        assert_eq!(validate(&EIGHT_QUEENS), Ok(()));
    }

    #[test]
    fn empty_board_is_not_a_solution() {
        assert!(!is_solution(&[]));
        assert!(attacking_pairs(&[]).is_empty());
        assert_eq!(validate(&[]), Ok(()));
    }

    #[test]
    fn rejects_shared_column() {
        let placement = [0, 2, 0];
        assert!(!is_solution(&placement));
        assert_eq!(
            attacking_pairs(&placement),
            vec![Attack {
                a: 0,
                b: 2,
                kind: AttackKind::Column
            }]
        );
    }

    #[test]
    fn rejects_shared_diagonal() {
        // Rows 0 and 2 sit on column - row == 0.
        let placement = [0, 3, 2, 1];
        assert!(!is_solution(&placement));
        let attacks = attacking_pairs(&placement);
        assert!(attacks.contains(&Attack {
            a: 0,
            b: 2,
            kind: AttackKind::Diagonal
        }));
        assert_eq!(attacks, attacks_by_definition(&placement));
    }

    #[test]
    fn rejects_shared_anti_diagonal() {
        // Rows 0 and 1 sit on column + row == 3.
        let placement = [3, 2, 0, 1];
        assert!(!is_solution(&placement));
        assert!(attacking_pairs(&placement).contains(&Attack {
            a: 0,
            b: 1,
            kind: AttackKind::AntiDiagonal
        }));
    }

    #[test]
    fn lists_every_pair_on_a_crowded_line() {
        // All four queens on the main diagonal: six pairs.
        let attacks = attacking_pairs(&[0, 1, 2, 3]);
        assert_eq!(attacks.len(), 6);
        assert!(attacks.iter().all(|x| x.kind == AttackKind::Diagonal));
        assert!(
            attacks
                .windows(2)
                .all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b))
        );
    }

    #[test]
    fn rejects_out_of_range_columns() {
        assert!(!is_solution(&[1, 3, 0, 4]));
        assert!(!is_solution(&[usize::MAX]));
        let error = validate(&[1, 3, 0, 4]).unwrap_err();
        assert_eq!(
            error,
            PlacementError {
                row: 3,
                column: 4,
                n: 4
            }
        );
        assert_eq!(
            error.to_string(),
            "row 3 has its queen in column 4, but a board of size 4 only has columns 0 to 3"
        );
        // The first bad row is the one reported.
        assert_eq!(validate(&[9, 9, 0]).unwrap_err().row, 0);
    }

    #[test]
    fn huge_columns_do_not_wrap_onto_a_diagonal() {
        // column - row agrees modulo 2^64 but not as integers.
        let placement = [usize::MAX, 0];
        assert!(attacking_pairs(&placement).is_empty());
        assert_eq!(attacking_pairs(&[usize::MAX, usize::MAX]).len(), 1);
    }

    #[test]
    fn agrees_with_brute_force_on_every_small_board() {
        // Every placement (not just permutations) for n <= 5.
        for n in 1..=5usize {
            let total = n.pow(n as u32);
            for code in 0..total {
                let mut rest = code;
                let placement: Vec<usize> = (0..n)
                    .map(|_| {
                        let column = rest % n;
                        rest /= n;
                        column
                    })
                    .collect();
                let expected = attacks_by_definition(&placement);
                assert_eq!(attacking_pairs(&placement), expected, "{placement:?}");
                assert_eq!(
                    is_solution(&placement),
                    expected.is_empty(),
                    "{placement:?}"
                );
            }
        }
    }

    #[test]
    fn conflicts_count_everything_and_list_the_first() {
        // Every queen in one column: n (n - 1) / 2 pairs, counted without
        // listing them (listing would take gigabytes).
        let n = 100_000;
        let column = vec![7; n];
        let found = conflicts(&column, 3);
        assert_eq!(found.total, (n as u64) * (n as u64 - 1) / 2);
        let first: Vec<_> = (1..=3)
            .map(|b| Attack {
                a: 0,
                b,
                kind: AttackKind::Column,
            })
            .collect();
        assert_eq!(found.first, first);
        assert_eq!(conflicts(&[1, 3, 0, 2], 10).total, 0);
        assert_eq!(conflicts(&[0, 1, 2, 3], 0).first, vec![]);
        assert_eq!(conflicts(&[0, 1, 2, 3], 0).total, 6);
    }

    #[test]
    fn attacks_are_listed_one_at_a_time() {
        // 2,000 queens in one column: 1,999,000 pairs, taken in order without
        // collecting them.
        let n = 2_000;
        let mut attacks = attacks(&vec![3; n]);
        assert_eq!(attacks.total(), 1_999_000);
        let mut listed = 0u64;
        let mut last = (0, 0);
        for attack in attacks.by_ref() {
            assert_eq!(attack.kind, AttackKind::Column);
            assert!((attack.a, attack.b) > last || listed == 0, "{attack:?}");
            last = (attack.a, attack.b);
            listed += 1;
        }
        assert_eq!(listed, 1_999_000);
        assert_eq!(attacks.next(), None);
        assert_eq!(super::attacks(&[]).total(), 0);
        assert_eq!(super::attacks(&[]).next(), None);
    }

    proptest! {
        #[test]
        fn conflicts_are_a_prefix_of_the_definition(
            placement in proptest::collection::vec(0usize..10, 0..14),
            limit in 0usize..20,
        ) {
            let expected = attacks_by_definition(&placement);
            let found = conflicts(&placement, limit);
            prop_assert_eq!(found.total, expected.len() as u64);
            prop_assert_eq!(&found.first[..], &expected[..limit.min(expected.len())]);
        }

        #[test]
        fn fast_checks_match_the_definition(
            placement in proptest::collection::vec(0usize..12, 0..12)
        ) {
            let expected = attacks_by_definition(&placement);
            prop_assert_eq!(&attacking_pairs(&placement), &expected);
            let in_range = placement.iter().all(|&c| c < placement.len());
            prop_assert_eq!(
                is_solution(&placement),
                !placement.is_empty() && in_range && expected.is_empty()
            );
            prop_assert_eq!(validate(&placement).is_ok(), in_range);
        }
    }
}
