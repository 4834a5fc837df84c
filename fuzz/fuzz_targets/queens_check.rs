//! The queens checker (`check::validate`, `is_solution`, `attacking_pairs`), the symmetry
//! functions and the printed forms (`format::text`, `format::board`), fed the placements a
//! user can hand to `queens check`: any length, any columns, off the board too.
//!
//! Every answer is compared with the definition, pair by pair; each symmetry with its
//! documented coordinate map; and each printed form is read back here, from its documented
//! shape, to the same placement.
//!
//! The reader of those forms, `format::parse_placement`, has its own target,
//! `queens_placement`; the shapes are checked here without it so that a mistake shared by the
//! writer and the reader still shows.
#![no_main]

use bezzel_queens::check::{self, Attack, AttackKind};
use bezzel_queens::format;
use bezzel_queens::symmetry::{self, PermutationError, Symmetry};
use libfuzzer_sys::fuzz_target;

/// The O(n^2) cost of the checks by definition keeps inputs short.
const MAX_QUEENS: usize = 300;

/// Turns the input into a placement. An odd first byte makes a permutation of `0..n` (shuffled
/// by the remaining bytes), which most random bytes are not, so that the symmetry functions
/// and real solutions are reached; an even one takes the bytes as columns, with the top
/// sixteen byte values standing for columns near `usize::MAX` to test the edges of the
/// diagonal arithmetic.
fn placement(data: &[u8]) -> Vec<usize> {
    let Some((&mode, rest)) = data.split_first() else {
        return Vec::new();
    };
    let rest = &rest[..rest.len().min(MAX_QUEENS)];
    if mode % 2 == 1 {
        let mut p: Vec<usize> = (0..rest.len()).collect();
        for (i, &b) in rest.iter().enumerate() {
            p.swap(i, usize::from(b) % rest.len());
        }
        p
    } else {
        rest.iter()
            .map(|&b| match b {
                0xf0..=0xff => usize::MAX - usize::from(b - 0xf0),
                _ => usize::from(b),
            })
            .collect()
    }
}

/// Every attacking pair by the definition: same column, same `column - row` or same
/// `column + row`, computed in i128 so that huge columns cannot wrap.
fn attacks_by_definition(p: &[usize]) -> Vec<Attack> {
    let mut attacks = Vec::new();
    for a in 0..p.len() {
        for b in a + 1..p.len() {
            let (ca, cb, ra, rb) = (p[a] as i128, p[b] as i128, a as i128, b as i128);
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

/// The image of a permutation under `s`, square by square, from the coordinate maps in the
/// documentation of `Symmetry`.
fn image_by_definition(p: &[usize], s: Symmetry) -> Vec<usize> {
    let n = p.len();
    let last = n - 1;
    let mut image = vec![usize::MAX; n];
    for (row, &col) in p.iter().enumerate() {
        let (r, c) = match s {
            Symmetry::Identity => (row, col),
            Symmetry::Rotate90 => (col, last - row),
            Symmetry::Rotate180 => (last - row, last - col),
            Symmetry::Rotate270 => (last - col, row),
            Symmetry::FlipHorizontal => (row, last - col),
            Symmetry::FlipVertical => (last - row, col),
            Symmetry::Transpose => (col, row),
            Symmetry::AntiTranspose => (last - col, last - row),
        };
        image[r] = c;
    }
    image
}

fn check_printed_forms(p: &[usize]) {
    // Text form: `NO.<k>:` then the columns, each after one space.
    let text = format::text(7, p);
    let columns = text
        .strip_prefix("NO.7:")
        .unwrap_or_else(|| panic!("{text:?}"));
    let read: Vec<usize> = columns
        .split(' ')
        .skip(1) // the text before the first space is empty
        .map(|t| t.parse().unwrap_or_else(|_| panic!("{text:?}")))
        .collect();
    assert_eq!(read, p, "{text:?}");

    // Board form: one line per row, cells separated by single spaces, `Q` at the queen.
    let board = format::board(p);
    let rows: Vec<&str> = board.lines().collect();
    assert_eq!(rows.len(), p.len(), "{board:?}");
    assert!(p.is_empty() || board.ends_with('\n'));
    for (row, line) in rows.iter().enumerate() {
        let cells: Vec<&str> = line.split(' ').collect();
        assert_eq!(cells.len(), p.len(), "{board:?}");
        for (col, cell) in cells.iter().enumerate() {
            let expected = if col == p[row] { "Q" } else { "." };
            assert_eq!(*cell, expected, "{board:?}");
        }
    }
}

fn check_symmetries(p: &[usize]) {
    let n = p.len();
    let is_permutation = {
        let mut seen = vec![false; n];
        p.iter()
            .all(|&c| c < n && !std::mem::replace(&mut seen[c], true))
    };
    if !is_permutation {
        // Only permutations have images; the error must name the first bad row, the rows
        // above it being on the board and all different.
        let err = symmetry::transform(p, Symmetry::Rotate90).unwrap_err();
        let row = match err {
            PermutationError::OutOfRange {
                row,
                column,
                n: size,
            } => {
                assert!(column >= n && p[row] == column && size == n, "{err:?}");
                row
            }
            PermutationError::Repeated {
                row,
                earlier_row,
                column,
            } => {
                assert!(earlier_row < row, "{err:?}");
                assert!(p[earlier_row] == column && p[row] == column, "{err:?}");
                row
            }
        };
        let mut above = p[..row].to_vec();
        above.sort_unstable();
        above.dedup();
        assert!(
            above.len() == row && above.iter().all(|&c| c < n),
            "{err:?}"
        );
        assert!(!err.to_string().is_empty());
        assert_eq!(symmetry::canonical(p), Err(err));
        return;
    }
    let images: Vec<Vec<usize>> = Symmetry::ALL
        .iter()
        .map(|&s| {
            let image = symmetry::transform(p, s).expect("a permutation");
            assert_eq!(image, image_by_definition(p, s), "{s:?} of {p:?}");
            // Undoing the symmetry gives the placement back.
            assert_eq!(symmetry::transform(&image, s.inverse()).as_deref(), Ok(p));
            // A symmetry of the board maps solutions to solutions and others to others.
            assert_eq!(check::is_solution(&image), check::is_solution(p));
            image
        })
        .collect();
    let smallest = images.iter().min().expect("eight images").clone();
    assert_eq!(symmetry::canonical(p).as_ref(), Ok(&smallest));
    assert_eq!(symmetry::is_canonical(p), Ok(smallest == p));
    let mut distinct = images.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(symmetry::orbit_size(p), Ok(distinct.len()), "{p:?}");
}

fuzz_target!(|data: &[u8]| {
    let p = placement(data);
    let n = p.len();

    let first_off_board = p.iter().position(|&c| c >= n);
    match check::validate(&p) {
        Ok(()) => assert_eq!(first_off_board, None),
        Err(e) => {
            assert_eq!(Some(e.row), first_off_board);
            assert_eq!((e.column, e.n), (p[e.row], n));
            assert!(!e.to_string().is_empty());
        }
    }

    let attacks = check::attacking_pairs(&p);
    assert_eq!(attacks, attacks_by_definition(&p), "{p:?}");
    assert_eq!(
        check::is_solution(&p),
        n > 0 && first_off_board.is_none() && attacks.is_empty(),
        "{p:?}"
    );

    if first_off_board.is_none() {
        check_printed_forms(&p);
    }
    if n > 0 {
        check_symmetries(&p);
    }
});
