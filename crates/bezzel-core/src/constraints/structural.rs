//! Structural constraints: circuits over successor variables, and orderings that break
//! symmetries.

use crate::constraints::Consistency;
use crate::error::ModelError;
use crate::model::Model;
use crate::propagators::{Lex, NoSubtour, ValuePrecede};
use crate::var::IntView;

impl Model {
    /// The successor views form a single cycle through every node: `succ[i] = j` is the arc
    /// `i -> j`, nodes are `0..n`, and following the arcs from any node visits all `n`
    /// before coming back (a Hamiltonian circuit; a knight's tour).
    ///
    /// Posts a domain-consistent [`all_different`](Model::all_different_with) on `succ`
    /// (matching-based, `O(n · m)` per run at worst for `m` values) and a sub-tour
    /// propagator: every `succ[i]` is kept within `0..n` and off `i` (for `n > 1`), and by
    /// the path-end rule the last node of a chain of fixed arcs shorter than `n` may not
    /// lead back to its first (`O(n)` per pass).
    ///
    /// Errors: no views.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let succ = m.int_vars(4, 0..=3)?;
    /// m.circuit(&succ)?;
    /// assert_eq!(Solver::new(m).count(), 6); // (4 - 1)! cycles
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn circuit<V: Into<IntView> + Copy>(&mut self, succ: &[V]) -> Result<(), ModelError> {
        let views = super::some_views(self, "circuit", succ)?;
        self.post(NoSubtour::circuit(views.clone()))?;
        self.all_different_with(&views, Consistency::Domain)
    }

    /// The nodes with `succ[i] != i` form a single cycle, and those with `succ[i] = i` are
    /// left out of it; the cycle may be empty (every node left out), but no node can be a
    /// cycle on its own.
    ///
    /// Posts a domain-consistent all-different on `succ` and a sub-tour propagator: every
    /// `succ[i]` is kept within `0..n`; a chain of fixed arcs may close on itself only when
    /// every node off it can still be left out, and once a cycle is closed every other node
    /// is left out (`O(n)` per pass).
    ///
    /// Errors: no views.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let succ = m.int_vars(3, 0..=2)?;
    /// m.subcircuit(&succ)?;
    /// // The empty one, three of two nodes, two of three nodes.
    /// assert_eq!(Solver::new(m).count(), 6);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn subcircuit<V: Into<IntView> + Copy>(&mut self, succ: &[V]) -> Result<(), ModelError> {
        let views = super::some_views(self, "subcircuit", succ)?;
        self.post(NoSubtour::subcircuit(views.clone()))?;
        self.all_different_with(&views, Consistency::Domain)
    }

    /// `xs` is lexicographically smaller than `ys`: at the first position where they differ,
    /// `xs` is smaller (so they are not equal). For symmetry breaking, e.g. between
    /// interchangeable rows of a matrix.
    ///
    /// Domain consistent when no variable appears twice (otherwise it prunes less); a run
    /// costs `O(n + d)` per pass (`d` values of the views compared for equality), passes
    /// repeating while the first undecided position moves.
    ///
    /// Errors: sequences of different lengths. Empty sequences are allowed (and, being
    /// equal, have no solution).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_vars(2, 0..=1)?;
    /// let y = m.int_vars(2, 0..=1)?;
    /// m.lex_less(&x, &y)?;
    /// assert_eq!(Solver::new(m).count(), 6); // pairs of 2-bit words, the first below: C(4, 2)
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn lex_less<V: Into<IntView> + Copy>(
        &mut self,
        xs: &[V],
        ys: &[V],
    ) -> Result<(), ModelError> {
        self.lex(xs, ys, true)
    }

    /// `xs` is lexicographically smaller than or equal to `ys`; see
    /// [`lex_less`](Model::lex_less) for strength and cost.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_vars(2, 0..=1)?;
    /// let y = m.int_vars(2, 0..=1)?;
    /// m.lex_less_eq(&x, &y)?;
    /// assert_eq!(Solver::new(m).count(), 10);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn lex_less_eq<V: Into<IntView> + Copy>(
        &mut self,
        xs: &[V],
        ys: &[V],
    ) -> Result<(), ModelError> {
        self.lex(xs, ys, false)
    }

    fn lex<V: Into<IntView> + Copy>(
        &mut self,
        xs: &[V],
        ys: &[V],
        strict: bool,
    ) -> Result<(), ModelError> {
        let xs = super::views(self, xs)?;
        let ys = super::views(self, ys)?;
        if xs.len() != ys.len() {
            return Err(ModelError::LengthMismatch {
                what: if strict {
                    "lex_less: xs and ys"
                } else {
                    "lex_less_eq: xs and ys"
                },
                expected: xs.len(),
                found: ys.len(),
            });
        }
        self.post(Lex::new(xs, ys, strict)?)
    }

    /// Value `s` precedes value `t` in `vars`: wherever a view takes `t`, some earlier view
    /// takes `s` (Law and Lee 2004). For symmetry breaking between interchangeable values,
    /// e.g. colours: `value_precede(0, 1, ..)`, `value_precede(1, 2, ..)`, ...
    ///
    /// Domain consistent when no variable appears twice (otherwise it prunes less): `t` is
    /// removed up to the first view that may take `s`, and that view is fixed to `s` when a
    /// later view fixed to `t` comes before any other that may take `s`. `O(n)` per pass.
    ///
    /// Errors: `s == t` (a value cannot precede itself).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_vars(3, 0..=2)?;
    /// m.value_precede(0, 1, &x)?;
    /// m.value_precede(1, 2, &x)?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(x[0])?, vec![0]);
    /// assert_eq!(Solver::new(m).count(), 5); // 000 001 010 011 012
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn value_precede<V: Into<IntView> + Copy>(
        &mut self,
        s: i32,
        t: i32,
        vars: &[V],
    ) -> Result<(), ModelError> {
        let views = super::views(self, vars)?;
        if s == t {
            return Err(ModelError::InvalidArgument {
                reason: format!(
                    "value_precede: s and t are both {s}; a value cannot precede itself"
                ),
            });
        }
        self.post(ValuePrecede::new(i64::from(s), i64::from(t), views))
    }
}
