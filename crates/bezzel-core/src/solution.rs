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

use crate::var::{IntView, VarId};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Index;

/// The value of every variable of a model, in creation order. Solutions compare by their
/// values alone.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Solution {
    values: Vec<i32>,
    /// The model that produced it, so that a variable of another model is refused rather
    /// than read at its index; not serialized (a read-back solution checks only the index).
    #[serde(skip, default = "unknown_model")]
    model: Option<u32>,
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
    pub(crate) fn new(model: u32, values: Vec<i32>) -> Solution {
        Solution {
            values,
            model: Some(model),
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
    pub fn value(&self, x: VarId) -> i32 {
        assert!(
            self.model.is_none_or(|m| m == x.model),
            "variable {x:?} belongs to another model than this solution"
        );
        self.values[x.index()]
    }

    /// The value of a view, e.g. of `x.offset(3)`.
    pub fn view_value(&self, v: IntView) -> i64 {
        v.to_view(self.value(v.var()))
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

impl Index<VarId> for Solution {
    type Output = i32;

    /// Panics as [`Solution::value`] does.
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
impl fmt::Display for SolutionSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.solutions.is_empty() {
            return writeln!(f, "no solutions");
        }
        for row in &self.solutions {
            for (i, (name, value)) in self.variables.iter().zip(row).enumerate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{name}={value}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
