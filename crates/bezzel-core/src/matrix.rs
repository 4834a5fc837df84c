//! Matrices of variables, for puzzles stated on grids.
//!
//! A [`Matrix`] stores variables row by row and hands out the slices a grid puzzle talks about:
//! rows, columns and rectangular blocks (the boxes of a Sudoku). Each comes as an owned
//! `Vec<VarId>`, whatever its shape (a column cannot be a slice of row-major storage, and one
//! type for all three lets them be mixed, as in `rows().chain(columns())`);
//! [`as_slice`](Matrix::as_slice) is the one borrowed view, of the whole grid.

use crate::error::ModelError;
use crate::var::VarId;

/// A `rows × cols` grid of variables, stored row by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    vars: Vec<VarId>,
}

impl Matrix {
    pub(crate) fn new(rows: usize, cols: usize, vars: Vec<VarId>) -> Matrix {
        debug_assert_eq!(rows * cols, vars.len());
        Matrix { rows, cols, vars }
    }

    /// A matrix of variables created one by one (e.g. with different domains), given row by
    /// row; `vars` must hold exactly `rows × cols` of them.
    pub fn from_vars(rows: usize, cols: usize, vars: Vec<VarId>) -> Result<Matrix, ModelError> {
        match rows.checked_mul(cols) {
            Some(len) if len == vars.len() => Ok(Matrix { rows, cols, vars }),
            _ => Err(ModelError::LengthMismatch {
                what: "matrix: rows × columns and variables",
                expected: rows.saturating_mul(cols),
                found: vars.len(),
            }),
        }
    }

    /// Number of rows.
    pub fn num_rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn num_cols(&self) -> usize {
        self.cols
    }

    /// The variable at row `r`, column `c` (0-based), if inside the grid.
    pub fn get(&self, r: usize, c: usize) -> Option<VarId> {
        (r < self.rows && c < self.cols).then(|| self.vars[r * self.cols + c])
    }

    /// Every variable, row by row.
    pub fn as_slice(&self) -> &[VarId] {
        &self.vars
    }

    /// Row `r` (empty if out of range).
    pub fn row(&self, r: usize) -> Vec<VarId> {
        if r < self.rows {
            self.vars[r * self.cols..(r + 1) * self.cols].to_vec()
        } else {
            Vec::new()
        }
    }

    /// Column `c` (empty if out of range).
    pub fn column(&self, c: usize) -> Vec<VarId> {
        if c >= self.cols {
            return Vec::new();
        }
        (0..self.rows)
            .map(|r| self.vars[r * self.cols + c])
            .collect()
    }

    /// All rows, top to bottom.
    pub fn rows(&self) -> impl Iterator<Item = Vec<VarId>> + '_ {
        (0..self.rows).map(|r| self.row(r))
    }

    /// All columns, left to right.
    pub fn columns(&self) -> impl Iterator<Item = Vec<VarId>> + '_ {
        (0..self.cols).map(|c| self.column(c))
    }

    /// The `height × width` block whose top-left cell is `(r, c)`, clipped to the grid.
    pub fn block(&self, r: usize, c: usize, height: usize, width: usize) -> Vec<VarId> {
        // Clipped before anything is sized, so that huge arguments cannot overflow.
        let rows = r.min(self.rows)..r.saturating_add(height).min(self.rows);
        let cols = c.min(self.cols)..c.saturating_add(width).min(self.cols);
        let mut out = Vec::with_capacity(rows.len() * cols.len());
        for rr in rows {
            for cc in cols.clone() {
                out.push(self.vars[rr * self.cols + cc]);
            }
        }
        out
    }

    /// The grid tiled by `height × width` blocks, left to right, top to bottom (the boxes of a
    /// Sudoku when both are the box size).
    pub fn blocks(&self, height: usize, width: usize) -> Vec<Vec<VarId>> {
        if height == 0 || width == 0 {
            return Vec::new();
        }
        let mut out = Vec::new();
        for r in (0..self.rows).step_by(height) {
            for c in (0..self.cols).step_by(width) {
                out.push(self.block(r, c, height, width));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::Model;

    #[test]
    fn rows_columns_and_blocks_slice_the_grid() {
        let mut m = Model::new();
        let g = m.int_matrix("c", 4, 4, 1..=4).unwrap();
        let idx = |v: &[crate::VarId]| v.iter().map(|x| x.index()).collect::<Vec<_>>();
        assert_eq!(idx(&g.row(1)), vec![4, 5, 6, 7]);
        assert_eq!(idx(&g.column(2)), vec![2, 6, 10, 14]);
        assert_eq!(g.rows().count(), 4);
        assert_eq!(g.columns().count(), 4);
        let boxes = g.blocks(2, 2);
        assert_eq!(boxes.len(), 4);
        assert_eq!(idx(&boxes[3]), vec![10, 11, 14, 15]);
        assert_eq!(m.name(g.get(3, 2).unwrap()).unwrap(), "c[3][2]");
        assert_eq!(g.get(4, 0), None);
        assert!(g.row(9).is_empty());
        let again = crate::Matrix::from_vars(4, 4, g.as_slice().to_vec()).unwrap();
        assert_eq!(again, g);
        assert!(crate::Matrix::from_vars(3, 4, g.as_slice().to_vec()).is_err());
    }
}
