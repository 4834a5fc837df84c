//! Solutions, and solution sets in canonical order for snapshot tests.
//!
//! A [`Solution`] is the value of every variable of the model, indexed by [`VarId`]. A
//! [`SolutionSet`] collects solutions projected on some variables, sorted and without
//! duplicates, so that its text (one solution per line, `name=value` pairs) and its serde form
//! do not depend on the search order. That is what makes it fit for `insta` snapshots:
//!
//! ```
//! use bezzel_core::prelude::*;
//!
//! let mut m = Model::new();
//! let a = m.named_var("a", 1..=3)?;
//! let b = m.named_var("b", 1..=3)?;
//! m.less_than(a, b)?;
//! let set = Solver::new(m).solution_set();
//! assert_eq!(set.to_string(), "a=1 b=2\na=1 b=3\na=2 b=3\n");
//! // In a test: insta::assert_snapshot!(set.to_string());
//! //        or: insta::assert_yaml_snapshot!(set);
//! # Ok::<(), ModelError>(())
//! ```
//!
//! # Grids
//!
//! Both print the variables of a matrix ([`Model::int_matrix`](crate::Model::int_matrix), whose
//! variables are named `prefix[r][c]`) as a grid: a line `prefix:`, then one line per row, the
//! values right-aligned to the widest of that grid. A solution of a set is then a block of
//! lines, and blocks are separated by an empty line, so that in a snapshot diff a changed cell
//! is one changed line. Other variables keep the `name=value` form, on one line per run of
//! them. What counts as a grid is read from the names alone: a run of variables, in creation
//! (or projection) order, named `p[0][0]`, `p[0][1]`, ... through whole rows, as
//! `int_matrix` names them; renamed or reordered variables print as `name=value` pairs.
//!
//! ```
//! use bezzel_core::prelude::*;
//!
//! // The Latin squares of order 2: each row and each column holds 1 and 2 once.
//! let mut m = Model::new();
//! let g = m.int_matrix("g", 2, 2, 1..=2)?;
//! for r in 0..2 {
//!     m.all_different(&g.row(r))?;
//! }
//! for c in g.columns() {
//!     m.all_different(&c)?;
//! }
//! let mut solver = Solver::new(m);
//! let first = solver.first().expect("there are two");
//! assert_eq!(first.to_string(), "g:\n  1 2\n  2 1");
//! let set = solver.solution_set();
//! assert_eq!(set.to_string(), "g:\n  1 2\n  2 1\n\ng:\n  2 1\n  1 2\n");
//! # Ok::<(), ModelError>(())
//! ```

use crate::model::Names;
use crate::var::{IntView, VarId};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Index, Range};
use std::sync::Arc;

/// The value of every variable of a model, in creation order. Solutions compare by their
/// values alone.
///
/// It prints itself (`Display`) with the model's variable names: `name=value` pairs, and
/// matrices as grids (see the [module docs](self#grids)):
///
/// ```
/// use bezzel_core::prelude::*;
///
/// let mut m = Model::new();
/// let x = m.named_var("x", 1..=2)?;
/// let y = m.named_var("y", 1..=2)?;
/// m.less_than(x, y)?;
/// let s = Solver::new(m).first().expect("x=1 y=2");
/// assert_eq!(s.to_string(), "x=1 y=2");
/// # Ok::<(), ModelError>(())
/// ```
///
/// Only the values are serialized: a solution read back from its serde form has no names, and
/// prints its variables as `x0`, `x1`, ... (the names [`Model::int_var`](crate::Model::int_var)
/// gives).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Solution {
    values: Vec<i32>,
    /// The model that produced it, so that a variable of another model is refused rather
    /// than read at its index; not serialized (a read-back solution checks only the index).
    #[serde(skip, default = "unknown_model")]
    model: Option<u32>,
    /// The model's variable names, shared with it, for printing; not serialized, so that the
    /// serde form stays the values alone.
    #[serde(skip)]
    names: Option<Arc<Names>>,
}

fn unknown_model() -> Option<u32> {
    None
}

impl PartialEq for Solution {
    fn eq(&self, other: &Solution) -> bool {
        self.values == other.values
    }
}

impl Eq for Solution {}

impl std::hash::Hash for Solution {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.values.hash(state);
    }
}

impl PartialOrd for Solution {
    fn partial_cmp(&self, other: &Solution) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Solution {
    fn cmp(&self, other: &Solution) -> std::cmp::Ordering {
        self.values.cmp(&other.values)
    }
}

impl Solution {
    pub(crate) fn new(model: u32, values: Vec<i32>, names: Arc<Names>) -> Solution {
        debug_assert_eq!(values.len(), names.list.len());
        Solution {
            values,
            model: Some(model),
            names: Some(names),
        }
    }

    /// The same values, readable with the variables of any copy of the model built the same
    /// way, as a solution read back from its serialized form is: what a parallel worker's
    /// solution becomes for the caller, who holds another copy's variables.
    pub(crate) fn unbound(mut self) -> Solution {
        self.model = None;
        self
    }

    /// The value of `x`.
    ///
    /// # Panics
    /// If `x` is not a variable of the model that produced this solution.
    #[inline]
    pub fn value(&self, x: VarId) -> i32 {
        assert!(
            self.model.is_none_or(|m| m == x.model),
            "variable {x:?} belongs to another model than this solution"
        );
        self.values[x.index()]
    }

    /// The value of a view, e.g. of `x.offset(3)`.
    ///
    /// # Panics
    /// As [`value`](Solution::value), and if the view's offset is beyond
    /// ±[`MAX_VIEW_OFFSET`](crate::var::MAX_VIEW_OFFSET) (a view no constraint accepts), whose
    /// value may not fit an `i32`.
    pub fn view_value(&self, v: IntView) -> i32 {
        let value = v.to_view(self.value(v.var()));
        i32::try_from(value).unwrap_or_else(|_| {
            panic!("the view {v:?} takes the value {value}, which does not fit an i32")
        })
    }

    /// The values of `vars`, in that order.
    pub fn values_of(&self, vars: &[VarId]) -> Vec<i32> {
        vars.iter().map(|&x| self.value(x)).collect()
    }

    /// Every value, in variable creation order.
    pub fn values(&self) -> &[i32] {
        &self.values
    }
}

/// The model's names and this solution's values: `name=value` pairs separated by spaces, and
/// the variables of a matrix as a grid, on lines of their own (see the [module docs](self#grids)).
/// Auxiliary variables (see [`Model::is_auxiliary`](crate::Model::is_auxiliary)) are left
/// out. There is no newline at the end.
impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.names {
            Some(names) if names.list.len() == self.values.len() && names.has_auxiliaries() => {
                let declared = |i: &usize| !names.auxiliary[*i];
                let shown: Vec<String> = (0..self.values.len())
                    .filter(declared)
                    .map(|i| names.list[i].clone())
                    .collect();
                let values: Vec<i32> = (0..self.values.len())
                    .filter(declared)
                    .map(|i| self.values[i])
                    .collect();
                write_block(f, &shown, &layout(&shown), &values)
            }
            Some(names) if names.list.len() == self.values.len() => {
                write_block(f, &names.list, &layout(&names.list), &self.values)
            }
            // Read back from serde: the names `int_var` would have given, and no grids.
            _ => {
                let names: Vec<String> = (0..self.values.len()).map(|i| format!("x{i}")).collect();
                write_block(f, &names, &[Segment::Pairs(0..names.len())], &self.values)
            }
        }
    }
}

/// A part of a printed solution: a run of variables printed as `name=value` pairs on one line,
/// or the variables of a matrix, printed as a grid.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    /// The variables of these positions, as pairs.
    Pairs(Range<usize>),
    /// `rows × cols` variables from position `start`, row by row, named `prefix[r][c]`.
    Grid {
        prefix: String,
        start: usize,
        rows: usize,
        cols: usize,
    },
}

/// Splits `prefix[r][c]` into its parts; `None` for any other name. Indices are plain decimal
/// numbers as `int_matrix` writes them (no sign, no leading zero), so that `x[01][0]` is not
/// mistaken for `x[1][0]`.
fn matrix_cell(name: &str) -> Option<(&str, usize, usize)> {
    fn index(s: &str) -> Option<usize> {
        let canonical = !s.is_empty()
            && s.bytes().all(|b| b.is_ascii_digit())
            && (s == "0" || !s.starts_with('0'));
        canonical.then(|| s.parse().ok()).flatten()
    }
    let rest = name.strip_suffix(']')?;
    let open = rest.rfind('[')?;
    let c = index(&rest[open + 1..])?;
    let rest = rest[..open].strip_suffix(']')?;
    let open = rest.rfind('[')?;
    let r = index(&rest[open + 1..])?;
    let prefix = &rest[..open];
    (!prefix.is_empty()).then_some((prefix, r, c))
}

/// How variables with these names print: grids where a run of them names the cells of a
/// matrix row by row from `prefix[0][0]` (whole rows only), pairs elsewhere.
fn layout(names: &[String]) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut pairs_from = 0;
    let mut i = 0;
    while i < names.len() {
        let Some((prefix, 0, 0)) = matrix_cell(&names[i]) else {
            i += 1;
            continue;
        };
        let is = |at: usize, r: usize, c: usize| {
            names
                .get(at)
                .is_some_and(|n| matrix_cell(n) == Some((prefix, r, c)))
        };
        let cols = (0..).take_while(|&c| is(i + c, 0, c)).count();
        let rows = (0..)
            .take_while(|&r| (0..cols).all(|c| is(i + r * cols + c, r, c)))
            .count();
        if pairs_from < i {
            out.push(Segment::Pairs(pairs_from..i));
        }
        out.push(Segment::Grid {
            prefix: prefix.to_string(),
            start: i,
            rows,
            cols,
        });
        i += rows * cols;
        pairs_from = i;
    }
    if pairs_from < names.len() || out.is_empty() {
        out.push(Segment::Pairs(pairs_from..names.len()));
    }
    out
}

/// Writes one solution (`values`, in the order of `names`) as `layout` says, its lines
/// separated by newlines, with no newline at the end.
fn write_block(
    f: &mut fmt::Formatter<'_>,
    names: &[String],
    layout: &[Segment],
    values: &[i32],
) -> fmt::Result {
    for (k, segment) in layout.iter().enumerate() {
        if k > 0 {
            f.write_str("\n")?;
        }
        match segment {
            Segment::Pairs(range) => {
                for i in range.clone() {
                    if i > range.start {
                        f.write_str(" ")?;
                    }
                    write!(f, "{}={}", names[i], values[i])?;
                }
            }
            Segment::Grid {
                prefix,
                start,
                rows,
                cols,
            } => {
                let cells = &values[*start..start + rows * cols];
                // One width for the whole grid, so that its columns line up.
                let width = cells.iter().map(|v| v.to_string().len()).max().unwrap_or(0);
                write!(f, "{prefix}:")?;
                for row in cells.chunks(*cols) {
                    f.write_str("\n ")?;
                    for v in row {
                        write!(f, " {v:>width$}")?;
                    }
                }
            }
        }
    }
    Ok(())
}

impl Index<VarId> for Solution {
    type Output = i32;

    /// Panics as [`Solution::value`] does.
    #[inline]
    fn index(&self, x: VarId) -> &i32 {
        let _ = self.value(x);
        &self.values[x.index()]
    }
}

/// Solutions projected on named variables, sorted and deduplicated.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolutionSet {
    /// The variables' names, in column order.
    pub variables: Vec<String>,
    /// One row of values per solution, in increasing lexicographic order.
    pub solutions: Vec<Vec<i32>>,
}

impl SolutionSet {
    /// A set from names and rows; rows are sorted and deduplicated.
    pub fn new(variables: Vec<String>, mut solutions: Vec<Vec<i32>>) -> SolutionSet {
        solutions.sort_unstable();
        solutions.dedup();
        SolutionSet {
            variables,
            solutions,
        }
    }

    /// Number of distinct solutions.
    pub fn len(&self) -> usize {
        self.solutions.len()
    }

    /// Whether there is no solution.
    pub fn is_empty(&self) -> bool {
        self.solutions.is_empty()
    }

    /// Whether `row` (values in column order) is one of the solutions.
    pub fn contains(&self, row: &[i32]) -> bool {
        self.solutions
            .binary_search_by(|s| s.as_slice().cmp(row))
            .is_ok()
    }

    /// The rows, in canonical order.
    pub fn iter(&self) -> impl Iterator<Item = &[i32]> {
        self.solutions.iter().map(Vec::as_slice)
    }
}

/// One solution per line, `name=value` pairs separated by spaces; "no solutions" when empty.
/// When some of the variables are a matrix, each solution is a block of lines as
/// [`Solution`] prints it (the matrix as a grid), and blocks are separated by an empty line:
/// see the [module docs](self#grids).
impl fmt::Display for SolutionSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.solutions.is_empty() {
            return writeln!(f, "no solutions");
        }
        let layout = layout(&self.variables);
        let grids = layout.iter().any(|s| matches!(s, Segment::Grid { .. }));
        for (k, row) in self.solutions.iter().enumerate() {
            if grids && k > 0 {
                writeln!(f)?;
            }
            if row.len() == self.variables.len() {
                write_block(f, &self.variables, &layout, row)?;
            } else {
                // Built by hand with rows of another length: pairs, as far as both go.
                let n = row.len().min(self.variables.len());
                write_block(f, &self.variables, &[Segment::Pairs(0..n)], row)?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn matrix_cells_are_read_from_names_as_int_matrix_writes_them() {
        assert_eq!(matrix_cell("g[2][13]"), Some(("g", 2, 13)));
        assert_eq!(matrix_cell("p[1][0][2]"), Some(("p[1]", 0, 2)));
        for not_a_cell in [
            "g", "g[1]", "[1][2]", "g[01][2]", "g[1][+2]", "g[1][]", "g[1]x[2]",
        ] {
            assert_eq!(matrix_cell(not_a_cell), None, "{not_a_cell}");
        }
    }

    #[test]
    fn layout_finds_whole_rows_of_matrices_between_pairs() {
        let n = names(&[
            "a", "m[0][0]", "m[0][1]", "m[1][0]", "m[1][1]", "m[2][0]", "b",
        ]);
        let grid = Segment::Grid {
            prefix: "m".into(),
            start: 1,
            rows: 2,
            cols: 2,
        };
        assert_eq!(
            layout(&n),
            vec![Segment::Pairs(0..1), grid, Segment::Pairs(5..7)]
        );
        // Not from the first cell, or out of order: no grid.
        let n = names(&["m[1][0]", "m[0][1]", "m[1][1]"]);
        assert_eq!(layout(&n), vec![Segment::Pairs(0..3)]);
        // Two matrices in a row, and no variables at all.
        let n = names(&["a[0][0]", "b[0][0]", "b[0][1]"]);
        assert_eq!(layout(&n).len(), 2);
        assert_eq!(layout(&[]), vec![Segment::Pairs(0..0)]);
    }

    #[test]
    fn grids_align_their_columns_and_sets_separate_solutions() {
        let n = names(&["k", "m[0][0]", "m[0][1]", "m[1][0]", "m[1][1]"]);
        let set = SolutionSet::new(n, vec![vec![7, 1, 10, -3, 4], vec![0, 1, 2, 3, 4]]);
        assert_eq!(
            set.to_string(),
            "k=0\nm:\n  1 2\n  3 4\n\nk=7\nm:\n   1 10\n  -3  4\n"
        );
        let s = Solution {
            values: vec![5, 6],
            model: None,
            names: None,
        };
        assert_eq!(s.to_string(), "x0=5 x1=6");
        let read_back: Solution = serde_json::from_str(r#"{"values":[1,2]}"#).unwrap();
        assert_eq!(read_back.to_string(), "x0=1 x1=2");
    }
}
