//! Arithmetic, indexing and counting: `abs`, `times`, `div`, `modulo`, `min`, `max`,
//! `element`, `count`, `among`, `global_cardinality` and `inverse`.
//!
//! Arithmetic is exact: the propagators compute in `i128`, where every product and quotient
//! of view values fits, so nothing wraps and no model is refused for its size.

use super::{some_views, views};
use crate::error::ModelError;
use crate::model::Model;
use crate::propagators::{
    Abs, Among, Div, ElementConst, ElementVar, Inverse, Linear, MinArray, Mod, Relation, Times,
};
use crate::var::IntView;

/// The values as the propagators take them: in `i64`, where their sums and products are
/// computed without overflow.
pub(super) fn widen(values: &[i32]) -> Vec<i64> {
    values.iter().map(|&v| i64::from(v)).collect()
}

impl Model {
    fn arith_view(&self, v: impl Into<IntView>) -> Result<IntView, ModelError> {
        let v = v.into();
        self.check_view(v)?;
        Ok(v)
    }

    /// Fails unless some value of the view `index` is a position of an array of length `n`.
    fn arith_check_index(&self, what: &str, index: IntView, n: usize) -> Result<(), ModelError> {
        let values = self.domain(index.var())?;
        // An empty domain (after a failed `propagate`) has no solution anyway: nothing to say.
        if values.is_empty()
            || values
                .iter()
                .any(|&v| usize::try_from(index.to_view(v)).is_ok_and(|i| i < n))
        {
            Ok(())
        } else {
            let (lo, hi) = (values[0], values[values.len() - 1]);
            let (lo, hi) = (
                index.to_view(lo).min(index.to_view(hi)),
                index.to_view(lo).max(index.to_view(hi)),
            );
            Err(ModelError::InvalidArgument {
                reason: format!(
                    "{what}: the index ranges over {lo}..={hi}, which holds no position of an \
                     array of length {n} (positions count from 0)"
                ),
            })
        }
    }

    /// `y = |x|`, domain consistent on both views: `y` keeps exactly the absolute values of
    /// the values of `x`, and `x` the values whose absolute value `y` has. A run costs
    /// `O(|D(x)| + |D(y)|)`.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var([-3, -1, 2])?;
    /// let y = m.int_var(0..=2)?;
    /// m.abs(x, y)?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(x)?, vec![-1, 2]);
    /// assert_eq!(m.domain(y)?, vec![1, 2]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn abs(&mut self, x: impl Into<IntView>, y: impl Into<IntView>) -> Result<(), ModelError> {
        let (x, y) = (self.arith_view(x)?, self.arith_view(y)?);
        self.post(Abs::new(x, y))
    }

    /// `x · y = z`, with bounds reasoning over any signs: `z` lies within the products of the
    /// bounds of `x` and `y`, `x` within the quotients of the bounds of `z` by those of `y`
    /// (zero left out, rounded inwards) and `y` likewise, and zero leaves `x` and `y` when `z`
    /// cannot be zero. Constant time a run; exact (in `i128`), so it never overflows.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var(-3..=3)?;
    /// let y = m.int_var(2..=3)?;
    /// let z = m.int_var(7..=20)?;
    /// m.times(x, y, z)?;
    /// m.propagate().unwrap();
    /// // z <= 3·3 = 9, so x >= ceil(7 / 3) = 3, so y >= ceil(7 / 3) = 3, so z = 9.
    /// assert_eq!(m.domain(x)?, vec![3]);
    /// assert_eq!(m.domain(y)?, vec![3]);
    /// assert_eq!(m.domain(z)?, vec![9]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn times(
        &mut self,
        x: impl Into<IntView>,
        y: impl Into<IntView>,
        z: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let (x, y, z) = (
            self.arith_view(x)?,
            self.arith_view(y)?,
            self.arith_view(z)?,
        );
        self.post(Times::new(x, y, z))
    }

    /// `z = x / y`, rounded towards zero like Rust's `/` (`-7 / 2 = -3`); `y = 0` is never a
    /// solution. Bounds reasoning: `z` between the quotients of the bounds of `x` and `y`
    /// (split at zero), `x` within the values whose quotient by some `y` lies in `z`, and
    /// `|y|` between `min|x| / (max|z| + 1)` and `max|x| / min|z|`, with its sign when those of
    /// `x` and `z` decide it. Constant time a run; exact (in `i128`).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var(-7..=7)?;
    /// let y = m.int_var(-2..=2)?;
    /// let z = m.int_var(3..=3)?;
    /// m.div(x, y, z)?;
    /// // x / y = 3: (3, 1), (6, 2), (7, 2), (-3, -1), (-6, -2), (-7, -2); -7 / 2 is -3.
    /// assert_eq!(Solver::new(m).count(), 6);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn div(
        &mut self,
        x: impl Into<IntView>,
        y: impl Into<IntView>,
        z: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let (x, y, z) = (
            self.arith_view(x)?,
            self.arith_view(y)?,
            self.arith_view(z)?,
        );
        self.post(Div::new(x, y, z))
    }

    /// `z = x % y`, the remainder of the truncating division like Rust's `%` (it has the sign
    /// of `x`: `-7 % 2 = -1`, `7 % -2 = 1`); `y = 0` is never a solution. Bounds reasoning:
    /// `|z| < max|y|` and `|z| <= |x|` on the side of zero that `x` is on, `x` at least as far
    /// from zero as `z` and on its side, `|y| > min|z|`, and `z = x` once every `|x|` is below
    /// every `|y|`. Constant time a run; exact once `x` and `y` are fixed.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_var(-9..=9)?;
    /// let y = m.int_var(4..=4)?;
    /// let z = m.int_var(3..=5)?;
    /// m.modulo(x, y, z)?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(z)?, vec![3]);
    /// assert_eq!(Solver::new(m).count(), 2); // 3 and 7
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn modulo(
        &mut self,
        x: impl Into<IntView>,
        y: impl Into<IntView>,
        z: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let (x, y, z) = (
            self.arith_view(x)?,
            self.arith_view(y)?,
            self.arith_view(z)?,
        );
        self.post(Mod::new(x, y, z))
    }

    /// `m = min(xs)`, bounds(Z) consistent (each bound has a support within the other views'
    /// intervals, not always one that avoids their holes): `m` between the smallest minimum
    /// and the smallest maximum of the `xs`, every `x >= min m`, and the only `x` that can
    /// still be as small as `max m`, if only one can, at most `max m`. Linear time a run. An
    /// empty `xs` is a [`ModelError::TooFewVariables`].
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let a = m.int_var(3..=9)?;
    /// let b = m.int_var(5..=7)?;
    /// let low = m.int_var(0..=4)?;
    /// m.min(&[a, b], low)?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(low)?, vec![3, 4]);
    /// assert_eq!(m.domain(a)?, vec![3, 4]); // only `a` can be the minimum
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn min<V: Into<IntView> + Copy>(
        &mut self,
        xs: &[V],
        m: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let xs = some_views(self, "min", xs)?;
        let m = self.arith_view(m)?;
        self.post(MinArray::new(xs, m))
    }

    /// `m = max(xs)`: [`min`](Model::min) of the negated views, with the same strength and
    /// cost. An empty `xs` is a [`ModelError::TooFewVariables`].
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let xs = m.int_vars(3, 0..=2)?;
    /// let top = m.int_var(0..=0)?;
    /// m.max(&xs, top)?;
    /// assert_eq!(Solver::new(m).count(), 1); // all zero
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn max<V: Into<IntView> + Copy>(
        &mut self,
        xs: &[V],
        m: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let xs = some_views(self, "max", xs)?;
        let m = self.arith_view(m)?;
        let negated = xs.iter().map(|x| x.minus()).collect();
        self.post(MinArray::new(negated, m.minus()))
    }

    /// `value = array[index]` over constants, with `index` counted from 0; domain consistent
    /// on both views: `index` keeps the positions whose entry `value` has, and `value` the
    /// entries at the positions `index` has. A run costs
    /// `O((|D(index)| + |D(value)|) · log n)`.
    ///
    /// Index values outside `0..array.len()` are pruned; an empty array, or an index whose
    /// domain holds no position at all, is a [`ModelError`].
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let i = m.int_var(-1..=5)?;
    /// let v = m.int_var(20..=40)?;
    /// m.element_const(&[10, 20, 30, 20], i, v)?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(i)?, vec![1, 2, 3]);
    /// assert_eq!(m.domain(v)?, vec![20, 30]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn element_const(
        &mut self,
        array: &[i32],
        index: impl Into<IntView>,
        value: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let (index, value) = (self.arith_view(index)?, self.arith_view(value)?);
        if array.is_empty() {
            return Err(ModelError::InvalidArgument {
                reason: "element_const: the array is empty".to_string(),
            });
        }
        self.arith_check_index("element_const", index, array.len())?;
        self.post(ElementConst::new(widen(array), index, value))
    }

    /// `value = xs[index]` over views, with `index` counted from 0; domain consistent on
    /// `index` (it keeps the positions whose view shares a value with `value`) and on `value`
    /// (it keeps the values that some view at a remaining position has); once `index` is
    /// fixed, the view it names keeps only the values of `value`. A run costs
    /// `O(Σ |D(xs[i])| + |D(value)| · |D(index)|)`.
    ///
    /// Index values outside `0..xs.len()` are pruned; an empty `xs`, or an index whose domain
    /// holds no position at all, is a [`ModelError`].
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let a = m.int_var(0..=2)?;
    /// let b = m.int_var(5..=6)?;
    /// let i = m.int_var(0..=1)?;
    /// let v = m.int_var(4..=9)?;
    /// m.element(&[a, b], i, v)?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(i)?, vec![1]); // `a` cannot reach 4
    /// assert_eq!(m.domain(v)?, vec![5, 6]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn element<V: Into<IntView> + Copy>(
        &mut self,
        xs: &[V],
        index: impl Into<IntView>,
        value: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let xs = views(self, xs)?;
        let (index, value) = (self.arith_view(index)?, self.arith_view(value)?);
        if xs.is_empty() {
            return Err(ModelError::InvalidArgument {
                reason: "element: the array of variables is empty".to_string(),
            });
        }
        self.arith_check_index("element", index, xs.len())?;
        self.post(ElementVar::new(xs, index, value))
    }

    /// `n` is the number of `xs` equal to `value`: [`among`](Model::among) with one value,
    /// with the same strength and cost. An empty `xs` makes `n = 0`.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let xs = m.int_vars(3, 0..=1)?;
    /// let n = m.int_var(2..=2)?;
    /// m.count(&xs, 1, n)?;
    /// assert_eq!(Solver::new(m).count(), 3); // two ones out of three
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn count<V: Into<IntView> + Copy>(
        &mut self,
        xs: &[V],
        value: i32,
        n: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        self.among(xs, &[value], n)
    }

    /// `n` is the number of `xs` whose value is in `values` (which may be in any order, and
    /// repeat or be empty), domain consistent: `n` lies between the number of views that must
    /// take a value of the set and the number that can; when it reaches the first, the other
    /// views leave the set, when it reaches the second, they keep only the set. A run costs
    /// `O(Σ |D(xs[i])| · log |values|)`.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let xs = m.int_vars(3, 1..=4)?;
    /// let n = m.int_var(0..=0)?;
    /// m.among(&xs, &[2, 4], n)?; // no even value
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(xs[0])?, vec![1, 3]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn among<V: Into<IntView> + Copy>(
        &mut self,
        xs: &[V],
        values: &[i32],
        n: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let xs = views(self, xs)?;
        let n = self.arith_view(n)?;
        self.post(Among::new(xs, widen(values), n))
    }

    /// `counts[j]` is the number of `xs` equal to `values[j]`, for every `j`. The `xs` may
    /// take values outside `values` (restrict their domains for a closed form). Propagation:
    /// one [`count`](Model::count) per value (the counting bounds, domain consistent each),
    /// and, when every value of every `x` is in `values`, `Σ counts = xs.len()` with bounds
    /// reasoning. A run costs `O(Σ |D(xs[i])| · log |values|)` per value.
    ///
    /// Mismatched lengths of `values` and `counts`, or a repeated value, are a [`ModelError`].
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let xs = m.int_vars(4, 1..=2)?;
    /// let counts = m.int_vars(2, 0..=4)?;
    /// m.global_cardinality(&xs, &[1, 2], &counts)?;
    /// m.equal(counts[0], counts[1])?;
    /// assert_eq!(Solver::new(m).count(), 6); // two ones and two twos: 4 choose 2
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn global_cardinality<V: Into<IntView> + Copy, C: Into<IntView> + Copy>(
        &mut self,
        xs: &[V],
        values: &[i32],
        counts: &[C],
    ) -> Result<(), ModelError> {
        let xs = views(self, xs)?;
        let counts = views(self, counts)?;
        if values.len() != counts.len() {
            return Err(ModelError::LengthMismatch {
                what: "global_cardinality: values and counts",
                expected: values.len(),
                found: counts.len(),
            });
        }
        let mut sorted = widen(values);
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(ModelError::InvalidArgument {
                reason: format!("global_cardinality: the value {} is given twice", w[0]),
            });
        }
        let closed = xs.iter().all(|&x| {
            self.domain(x.var()).is_ok_and(|d| {
                d.iter()
                    .all(|&v| sorted.binary_search(&x.to_view(v)).is_ok())
            })
        });
        for (&value, &n) in values.iter().zip(&counts) {
            self.post(Among::new(xs.clone(), vec![i64::from(value)], n))?;
        }
        if closed && !counts.is_empty() {
            let terms = counts.iter().map(|&c| (1, c)).collect();
            self.post(Linear::new(terms, Relation::Eq, xs.len() as i64))?;
        }
        Ok(())
    }

    /// `xs[i] = j ⇔ ys[j] = i` for every position, counted from 0: `xs` and `ys` are
    /// permutations of `0..n` inverse to each other. Domain consistent on the channeling:
    /// every view lies in `0..n`, and `j` leaves `xs[i]` as soon as `i` leaves `ys[j]`, and
    /// the other way round (the all-different they imply is only enforced once fixed; post
    /// [`all_different_with`](Model::all_different_with) as well for more pruning). A run
    /// costs `O(Σ |D|)`.
    ///
    /// Arrays of different lengths are a [`ModelError::LengthMismatch`].
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let xs = m.int_vars(3, 0..=2)?;
    /// let ys = m.int_vars(3, 0..=2)?;
    /// m.inverse(&xs, &ys)?;
    /// assert_eq!(Solver::new(m).count(), 6); // one per permutation
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn inverse<V: Into<IntView> + Copy, W: Into<IntView> + Copy>(
        &mut self,
        xs: &[V],
        ys: &[W],
    ) -> Result<(), ModelError> {
        let xs = views(self, xs)?;
        let ys = views(self, ys)?;
        if xs.len() != ys.len() {
            return Err(ModelError::LengthMismatch {
                what: "inverse: xs and ys",
                expected: xs.len(),
                found: ys.len(),
            });
        }
        if xs.is_empty() {
            return Ok(());
        }
        self.post(Inverse::new(xs, ys))
    }
}
