//! The judge of every count: a plain backtracking counter that shares no code with the
//! library's searches.

use bezzel_sudoku::grid::Grid;

/// Solutions of `cells` (an `n`×`n` grid, 0 for empty) up to `limit`, by backtracking on the
/// empty cell with the fewest values allowed by its row, column and box.
fn count_solutions(cells: &mut [u8], box_size: usize, limit: usize) -> usize {
    let n = box_size * box_size;
    let allowed = |cells: &[u8], cell: usize| -> Vec<u8> {
        let (r, c) = (cell / n, cell % n);
        let (top, left) = (r / box_size * box_size, c / box_size * box_size);
        (1..=n as u8)
            .filter(|&v| {
                (0..n).all(|i| cells[r * n + i] != v && cells[i * n + c] != v)
                    && (0..n).all(|i| cells[(top + i / box_size) * n + left + i % box_size] != v)
            })
            .collect()
    };
    let mut best: Option<(usize, Vec<u8>)> = None;
    for cell in (0..n * n).filter(|&c| cells[c] == 0) {
        let values = allowed(cells, cell);
        if best.as_ref().is_none_or(|(_, b)| values.len() < b.len()) {
            let empty = values.is_empty();
            best = Some((cell, values));
            if empty {
                break;
            }
        }
    }
    let Some((cell, values)) = best else {
        return 1;
    };
    let mut found = 0;
    for v in values {
        cells[cell] = v;
        found += count_solutions(cells, box_size, limit - found);
        if found >= limit {
            break;
        }
    }
    cells[cell] = 0;
    found
}

/// The solutions of `puzzle` up to `limit`.
pub(crate) fn solutions(puzzle: &Grid, limit: usize) -> usize {
    count_solutions(&mut puzzle.cells().to_vec(), puzzle.box_size(), limit)
}
