//! Extensional constraints: tables of allowed or forbidden tuples.

use crate::error::ModelError;
use crate::model::Model;
use crate::propagators::{Dfa, Regular, Table};
use crate::var::IntView;

/// The tuples as rows of `i64` (as the propagator takes them), checked: each as long as
/// `arity`, every value within `MIN_VALUE..=MAX_VALUE`.
fn checked_tuples<T: AsRef<[i32]>>(
    what: &'static str,
    arity: usize,
    tuples: &[T],
) -> Result<Vec<Vec<i64>>, ModelError> {
    let range = crate::MIN_VALUE..=crate::MAX_VALUE;
    tuples
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let t = t.as_ref();
            if t.len() != arity {
                return Err(ModelError::InvalidArgument {
                    reason: format!(
                        "{what}: tuple {k} has {} values, but there are {arity} variables",
                        t.len()
                    ),
                });
            }
            if let Some(v) = t.iter().find(|v| !range.contains(v)) {
                return Err(ModelError::InvalidArgument {
                    reason: format!(
                        "{what}: tuple {k} holds {v}, outside the supported range {}..={}",
                        crate::MIN_VALUE,
                        crate::MAX_VALUE
                    ),
                });
            }
            Ok(t.iter().map(|&v| i64::from(v)).collect())
        })
        .collect()
}

impl Model {
    /// The views take the values of one of `tuples` (a positive table), with domain
    /// consistency: after propagation every value left is part of a tuple all of whose
    /// values are left.
    ///
    /// Compact-table filtering (Demeulenaere et al. 2016): the tuples still possible are a
    /// reversible bitset; a run costs, for each view whose domain changed, `O(d · t / 64)`
    /// (`d` values, `t` tuples) and then a support check per value left, usually one word
    /// thanks to residues. Memory: `n · d · t / 64` words. Tuples with a value outside its
    /// view's declared range are dropped; tuples may repeat.
    ///
    /// No tuples at all is allowed and, like an empty [`clause`](Model::clause), leaves the
    /// model without solutions: no solution is an empty answer, not an error.
    ///
    /// Errors: no views, a tuple of the wrong length, a value outside
    /// [`MIN_VALUE`](crate::MIN_VALUE)`..=`[`MAX_VALUE`](crate::MAX_VALUE).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=1)?;
    /// let y = m.int_var(0..=3)?;
    /// m.table(&[x, y], &[[0, 1], [1, 2], [3, 3]])?; // x = 3 is out of x's domain
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(y)?, vec![1, 2]);
    /// assert_eq!(Solver::new(m).count(), 2);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn table<V, T>(&mut self, vars: &[V], tuples: &[T]) -> Result<(), ModelError>
    where
        V: Into<IntView> + Copy,
        T: AsRef<[i32]>,
    {
        let views = super::some_views(self, "table", vars)?;
        let tuples = checked_tuples("table", views.len(), tuples)?;
        self.post(Table::new(views, tuples))
    }

    /// The views take the values of none of `tuples` (a negative table), with domain
    /// consistency: a value is removed exactly when every combination of it with the other
    /// domains is a listed tuple.
    ///
    /// Compact-table style: the forbidden tuples still possible are a reversible bitset, and a
    /// value goes when the count of those that hold it reaches the product of the other
    /// domains' sizes. A run costs `O(d · t / 64)` per changed view to update the bitset,
    /// then, for views whose product of other sizes is at most the count of tuples left, a
    /// count of `t / 64` words per value, repeated while values go. No tuples is allowed and
    /// posts nothing.
    ///
    /// Errors: no views, a tuple of the wrong length, a value outside
    /// [`MIN_VALUE`](crate::MIN_VALUE)`..=`[`MAX_VALUE`](crate::MAX_VALUE).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var(0..=1)?;
    /// let y = m.int_var(0..=1)?;
    /// m.table_negative(&[x, y], &[[0, 0], [0, 1]])?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(x)?, vec![1]); // x = 0 is forbidden with every y
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn table_negative<V, T>(&mut self, vars: &[V], tuples: &[T]) -> Result<(), ModelError>
    where
        V: Into<IntView> + Copy,
        T: AsRef<[i32]>,
    {
        let views = super::some_views(self, "table_negative", vars)?;
        let tuples = checked_tuples("table_negative", views.len(), tuples)?;
        if tuples.is_empty() {
            return Ok(());
        }
        self.post(Table::negative(views, tuples))
    }

    /// The views spell, in order, a word that `dfa` accepts (see [`Dfa`]), with domain
    /// consistency when the views are on distinct variables: after propagation every value
    /// left labels a transition on some accepted path through the domains. (A variable seen
    /// at two positions is pruned to a fixpoint of the passes, which may keep a value whose
    /// paths all need it to take two values.)
    ///
    /// Pesant's layered graph (2004): a forward pass marks the states reachable at each
    /// position and a backward pass keeps those that reach a final state; each run costs
    /// `O(n · |δ|)` for `n` views and `|δ|` transitions, and the propagator keeps
    /// `(n + 1) · states` marks. [`Dfa::nonogram_row`] builds the automaton of a nonogram
    /// clue.
    ///
    /// Errors: no views (an empty word is accepted or not whatever the model).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// use bezzel_core::constraints::Dfa;
    /// let mut m = Model::new();
    /// let row = m.int_vars(5, 0..=1)?;
    /// m.regular(&row, &Dfa::nonogram_row(&[3, 1]))?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(row[0])?, vec![1]); // 1 1 1 0 1 is the only way
    /// assert_eq!(m.domain(row[3])?, vec![0]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn regular<V: Into<IntView> + Copy>(
        &mut self,
        vars: &[V],
        dfa: &Dfa,
    ) -> Result<(), ModelError> {
        let views = super::some_views(self, "regular", vars)?;
        self.post(Regular::new(views, dfa.clone()))
    }
}
