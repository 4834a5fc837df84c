//! Scheduling constraints: tasks on unary (`disjunctive`) and cumulative resources, and
//! boxes that may not overlap (`diffn`).
//!
//! A task is a start view and a duration; on a cumulative resource it also has a height, the
//! amount of the resource it holds while it runs (from its start, inclusive, to its start
//! plus its duration, exclusive). The semantics are MiniZinc's: tasks of zero duration or
//! zero height take no resource.

use crate::error::ModelError;
use crate::model::Model;
use crate::propagators::{
    Cumulative, CumulativeEnergy, Diffn, DiffnEnergy, DiffnTimeTable, Disjunctive,
    ENERGETIC_MAX_TASKS, Relation,
};
use crate::var::IntView;

/// Checks that `amounts` (each task's `amount`: duration or height) has one entry per task
/// (`pair` names the two arrays in the error) and that each lies within `0..=MAX_VALUE`.
fn amounts(
    constraint: &'static str,
    amount: &'static str,
    pair: &'static str,
    tasks: usize,
    amounts: &[i32],
) -> Result<(), ModelError> {
    if amounts.len() != tasks {
        return Err(ModelError::LengthMismatch {
            what: pair,
            expected: tasks,
            found: amounts.len(),
        });
    }
    let max = crate::MAX_VALUE;
    if let Some((i, v)) = amounts
        .iter()
        .enumerate()
        .find(|&(_, &v)| !(0..=max).contains(&v))
    {
        return Err(ModelError::InvalidArgument {
            reason: format!(
                "{constraint}: the {amount} of task {i} is {v}; it must lie within 0..={max} \
                 (negative amounts are not allowed)"
            ),
        });
    }
    Ok(())
}

/// Checks that every box of `origins` has as many dimensions as the first, and that `sizes`
/// has the same shape; returns the number of dimensions.
fn box_shapes<T, U>(origins: &[Vec<T>], sizes: &[Vec<U>]) -> Result<usize, ModelError> {
    let dims = origins.first().map_or(0, Vec::len);
    let mismatch = |what, expected, found| {
        Err(ModelError::LengthMismatch {
            what,
            expected,
            found,
        })
    };
    if sizes.len() != origins.len() {
        return mismatch("diffn: origins and sizes", origins.len(), sizes.len());
    }
    for (origin, size) in origins.iter().zip(sizes) {
        if origin.len() != dims {
            return mismatch("diffn: dimensions of the boxes", dims, origin.len());
        }
        if size.len() != dims {
            return mismatch("diffn: dimensions of origins and sizes", dims, size.len());
        }
    }
    Ok(dims)
}

/// The boxes of 2-D `diffn`: origins `(x[i], y[i])`, sizes `(dx[i], dy[i])`.
type Rectangles<V, S> = (Vec<Vec<V>>, Vec<Vec<S>>);

/// The rectangles of `x`, `y`, `dx` and `dy` as boxes, or the first array whose length
/// differs from that of `x`.
fn rectangles<V: Copy, S: Copy>(
    x: &[V],
    y: &[V],
    dx: &[S],
    dy: &[S],
) -> Result<Rectangles<V, S>, ModelError> {
    for (what, found) in [
        ("diffn: x and y", y.len()),
        ("diffn: x and dx", dx.len()),
        ("diffn: x and dy", dy.len()),
    ] {
        if found != x.len() {
            return Err(ModelError::LengthMismatch {
                what,
                expected: x.len(),
                found,
            });
        }
    }
    let origins = x.iter().zip(y).map(|(&a, &b)| vec![a, b]).collect();
    let sizes = dx.iter().zip(dy).map(|(&a, &b)| vec![a, b]).collect();
    Ok((origins, sizes))
}

impl Model {
    /// Rectangles with origins `(x[i], y[i])` and sizes `dx[i]` by `dy[i]` do not overlap:
    /// for every pair, one ends at or before the other begins along `x` or along `y`
    /// (`x[i] + dx[i] <= x[j]`, `x[j] + dx[j] <= x[i]`, or the same in `y`). MiniZinc's
    /// `diffn(x, y, dx, dy)` with constant sizes, read as literally as MiniZinc does: a
    /// rectangle of zero width is a segment, which may not lie strictly inside another
    /// rectangle (see [`diffn_nonstrict`](Model::diffn_nonstrict) for boxes that vanish).
    ///
    /// Posts [`Diffn`]: pairwise reasoning that fails pairs no dimension can separate,
    /// and separates a pair that only one dimension can, by bounds or by domain holes (see
    /// the [propagator](crate::propagators::Diffn)). Beside it, along `x` and along `y`,
    /// the rectangles are tasks on a cumulative resource as high as their bounding box
    /// (three unit squares do not fit into one column of two rows): time-tabling
    /// ([`DiffnTimeTable`]) and, for up to [`ENERGETIC_MAX_TASKS`] rectangles, energetic
    /// reasoning ([`DiffnEnergy`]). Rectangles whose rows are fixed and all cross one another
    /// (one row of a machine, say) are tasks on a unary resource along `x`: [`Disjunctive`]
    /// goes beside them too, for edge finding.
    ///
    /// Errors: the arrays differ in length.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_vars(2, 0..=2)?;
    /// let y = m.int_vars(2, 0..=0)?;
    /// // Two 2 × 1 rectangles on one row of width 4: one takes 0..2, the other 2..4.
    /// m.diffn(&x, &y, &[2, 2], &[1, 1])?;
    /// assert_eq!(Solver::new(m).count(), 2);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn diffn<V: Into<IntView> + Copy>(
        &mut self,
        x: &[V],
        y: &[V],
        dx: &[i32],
        dy: &[i32],
    ) -> Result<(), ModelError> {
        let (origins, sizes) = rectangles(x, y, dx, dy)?;
        self.diffn_k(&origins, &sizes, true)
    }

    /// [`diffn`](Model::diffn), except that a rectangle of zero width or zero height
    /// overlaps nothing: MiniZinc's `diffn_nonstrict(x, y, dx, dy)` with constant sizes.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// // A 3 × 1 rectangle at the origin, and a segment of width 0 on its row within 0..=2:
    /// // strictly, the segment could only stand at 0 (the rectangle's left end); here it
    /// // may stand anywhere.
    /// let x = [m.int_var(0..=0)?, m.int_var(0..=2)?];
    /// let row = [m.int_var(0..=0)?, m.int_var(0..=0)?];
    /// m.diffn_nonstrict(&x, &row, &[3, 0], &[1, 1])?;
    /// assert_eq!(Solver::new(m).count(), 3);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn diffn_nonstrict<V: Into<IntView> + Copy>(
        &mut self,
        x: &[V],
        y: &[V],
        dx: &[i32],
        dy: &[i32],
    ) -> Result<(), ModelError> {
        let (origins, sizes) = rectangles(x, y, dx, dy)?;
        self.diffn_k(&origins, &sizes, false)
    }

    /// Boxes in any number of dimensions do not overlap: box `i` has its origin at
    /// `origins[i]` (one view per dimension) and the constant sizes `sizes[i]`; two boxes
    /// are apart when one ends at or before the other begins in some dimension. With
    /// `strict`, MiniZinc's `diffn_k(origins, sizes)`, where a box of zero size in a
    /// dimension still may not lie strictly inside another; without, `diffn_nonstrict_k`,
    /// where a box with a zero size is apart from every box. Sizes may be negative: the
    /// definition is then read literally, as MiniZinc's decomposition does. Posts what
    /// [`diffn`](Model::diffn) does, in every dimension.
    ///
    /// Errors: a box has another number of dimensions than the first, or `sizes` is not
    /// shaped as `origins`.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// // Two unit cubes in a 2 × 1 × 1 space: 2 ways to place them.
    /// let boxes: Vec<Vec<VarId>> = vec![
    ///     vec![m.int_var(0..=1)?, m.int_var(0..=0)?, m.int_var(0..=0)?],
    ///     vec![m.int_var(0..=1)?, m.int_var(0..=0)?, m.int_var(0..=0)?],
    /// ];
    /// m.diffn_k(&boxes, &[vec![1, 1, 1], vec![1, 1, 1]], true)?;
    /// assert_eq!(Solver::new(m).count(), 2);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn diffn_k<V: Into<IntView> + Copy>(
        &mut self,
        origins: &[Vec<V>],
        sizes: &[Vec<i32>],
        strict: bool,
    ) -> Result<(), ModelError> {
        box_shapes(origins, sizes)?;
        let origins = self.box_views(origins)?;
        let sizes: Vec<Vec<i64>> = sizes
            .iter()
            .map(|b| b.iter().map(|&v| i64::from(v)).collect())
            .collect();
        if origins.len() < 2 {
            return Ok(());
        }
        if let Some((starts, durations)) = self.unary_row(&origins, &sizes, strict) {
            self.post(Disjunctive::new(starts, durations, true))?;
        }
        self.post_diffn(Diffn::new(origins, sizes, strict))
    }

    /// Posts `diffn` and, dimension by dimension, the cumulative resources beside it.
    fn post_diffn(&mut self, diffn: Diffn) -> Result<(), ModelError> {
        for d in 0..diffn.dims() {
            self.post(DiffnTimeTable::of(&diffn, d))?;
            if diffn.boxes() <= ENERGETIC_MAX_TASKS {
                self.post(DiffnEnergy::of(&diffn, d))?;
            }
        }
        self.post(diffn)
    }

    /// Boxes that all stand across one another in every dimension but one, their origins
    /// fixed there (rectangles on one row, say), are tasks on a unary resource in that
    /// dimension: the starts and durations of the boxes that count, for a `disjunctive`
    /// posted beside [`Diffn`] (which adds its domain holes to edge finding and the rest).
    /// `None` where the boxes are not so, or a duration there is negative.
    fn unary_row(
        &self,
        origins: &[Vec<IntView>],
        sizes: &[Vec<i64>],
        strict: bool,
    ) -> Option<(Vec<IntView>, Vec<i64>)> {
        let fixed = |v: IntView| -> Option<i64> {
            let values = self.domain(v.var()).ok()?;
            (values.len() == 1).then(|| v.to_view(values[0]))
        };
        // Boxes with a zero size are apart from every box under `diffn_nonstrict`.
        let boxes: Vec<usize> = (0..origins.len())
            .filter(|&i| strict || sizes[i].iter().all(|&s| s != 0))
            .collect();
        let dims = origins[0].len();
        let row = |d: usize| -> bool {
            (0..dims).filter(|&e| e != d).all(|e| {
                let placed: Option<Vec<(i64, i64)>> = boxes
                    .iter()
                    .map(|&i| fixed(origins[i][e]).map(|o| (o, sizes[i][e])))
                    .collect();
                placed.is_some_and(|p| {
                    p.iter().enumerate().all(|(k, &(a, sa))| {
                        p[k + 1..].iter().all(|&(b, sb)| a + sa > b && b + sb > a)
                    })
                })
            })
        };
        let d = (0..dims).find(|&d| row(d))?;
        let durations: Vec<i64> = boxes.iter().map(|&i| sizes[i][d]).collect();
        if durations.iter().any(|&p| p < 0) {
            return None;
        }
        Some((boxes.iter().map(|&i| origins[i][d]).collect(), durations))
    }

    /// [`diffn_k`](Model::diffn_k) with sizes that are variables (or views): MiniZinc's
    /// `diffn`, `diffn_k` and their `nonstrict` forms in general. The reasoning uses the
    /// sizes' least values, and bounds a size from above when its box must precede another;
    /// the cumulative resources of [`diffn`](Model::diffn) go beside it, in every dimension.
    ///
    /// Errors: as [`diffn_k`](Model::diffn_k).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let boxes = vec![vec![m.int_var(0..=0)?], vec![m.int_var(2..=2)?]];
    /// let sizes = vec![vec![m.int_var(1..=5)?], vec![m.int_var(1..=1)?]];
    /// m.diffn_k_vars(&boxes, &sizes, true)?;
    /// m.propagate().unwrap();
    /// // The first segment, at 0, must end by 2, where the second begins.
    /// assert_eq!(m.domain(sizes[0][0])?, vec![1, 2]);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn diffn_k_vars<V, W>(
        &mut self,
        origins: &[Vec<V>],
        sizes: &[Vec<W>],
        strict: bool,
    ) -> Result<(), ModelError>
    where
        V: Into<IntView> + Copy,
        W: Into<IntView> + Copy,
    {
        box_shapes(origins, sizes)?;
        let origins = self.box_views(origins)?;
        let sizes = self.box_views(sizes)?;
        if origins.len() < 2 {
            return Ok(());
        }
        self.post_diffn(Diffn::flexible(origins, sizes, strict))
    }

    fn box_views<V: Into<IntView> + Copy>(
        &self,
        boxes: &[Vec<V>],
    ) -> Result<Vec<Vec<IntView>>, ModelError> {
        boxes.iter().map(|b| super::views(self, b)).collect()
    }

    /// Tasks `starts[i]` of `durations[i]` and `heights[i]` never use more than `capacity`
    /// together: at every time `t`, the heights of the tasks with `starts[i] <= t <
    /// starts[i] + durations[i]` sum to at most `capacity`, and the capacity is not negative
    /// (when there is a task). Tasks of zero duration or zero height take no resource.
    /// MiniZinc's `cumulative(s, d, r, b)` with constant `d` and `r`.
    ///
    /// Posts time-tabling over compulsory parts ([`Cumulative`], `O(n²)` per pass) and, for up
    /// to [`ENERGETIC_MAX_TASKS`] tasks that take resource, energetic reasoning over task
    /// intervals after it ([`CumulativeEnergy`], `O(n³)`): see the
    /// [propagators](crate::propagators::Cumulative) for the rules.
    ///
    /// Errors: the arrays differ in length, or a duration or height is negative or above
    /// [`MAX_VALUE`](crate::MAX_VALUE).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let s = m.int_vars(3, 0..=4)?;
    /// let capacity = m.int_var(2..=2)?;
    /// // Heights 2, 2 and 1 on a capacity of 2: no two tasks overlap, so the three tasks of
    /// // duration 2 fill 0..6 back to back, in any of 3! orders.
    /// m.cumulative(&s, &[2, 2, 2], &[2, 2, 1], capacity)?;
    /// assert_eq!(Solver::new(m).count(), 6);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn cumulative<V: Into<IntView> + Copy>(
        &mut self,
        starts: &[V],
        durations: &[i32],
        heights: &[i32],
        capacity: impl Into<IntView>,
    ) -> Result<(), ModelError> {
        let starts = super::views(self, starts)?;
        let capacity = capacity.into();
        self.check_view(capacity)?;
        let n = starts.len();
        amounts(
            "cumulative",
            "duration",
            "cumulative: starts and durations",
            n,
            durations,
        )?;
        amounts(
            "cumulative",
            "height",
            "cumulative: starts and heights",
            n,
            heights,
        )?;
        if starts.is_empty() {
            return Ok(());
        }
        let (mut s, mut d, mut r) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..starts.len() {
            if durations[i] > 0 && heights[i] > 0 {
                s.push(starts[i]);
                d.push(i64::from(durations[i]));
                r.push(i64::from(heights[i]));
            }
        }
        if s.is_empty() {
            return self.linear(&[1], &[capacity], Relation::Ge, 0);
        }
        if s.len() <= ENERGETIC_MAX_TASKS {
            self.post(CumulativeEnergy::new(
                s.clone(),
                d.clone(),
                r.clone(),
                capacity,
            ))?;
        }
        self.post(Cumulative::new(s, d, r, capacity))
    }

    /// [`cumulative`](Model::cumulative) with durations and heights that are variables (or
    /// views): MiniZinc's `cumulative(s, d, r, b)` in general. Durations and heights are
    /// constrained to be at least 0 (MiniZinc assumes it). The reasoning uses their least
    /// values, which is sound, and prunes starts and the capacity only.
    ///
    /// Errors: the arrays differ in length.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let s = m.int_vars(2, 0..=3)?;
    /// let d = m.int_vars(2, 1..=2)?;
    /// let r = m.int_vars(2, 1..=1)?;
    /// let (cap, zero, two) = (m.int_var(1..=1)?, m.int_var(0..=0)?, m.int_var(2..=2)?);
    /// m.cumulative_vars(&s, &d, &r, cap)?;
    /// m.equal(s[0], zero)?;
    /// m.equal(d[0], two)?;
    /// m.propagate().unwrap();
    /// assert_eq!(m.domain(s[1])?, vec![2, 3]); // after the first task ends
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn cumulative_vars<V, W>(
        &mut self,
        starts: &[V],
        durations: &[W],
        heights: &[W],
        capacity: impl Into<IntView>,
    ) -> Result<(), ModelError>
    where
        V: Into<IntView> + Copy,
        W: Into<IntView> + Copy,
    {
        let starts = super::views(self, starts)?;
        let durations = super::views(self, durations)?;
        let heights = super::views(self, heights)?;
        let capacity = capacity.into();
        self.check_view(capacity)?;
        for (what, found) in [("durations", durations.len()), ("heights", heights.len())] {
            if found != starts.len() {
                return Err(ModelError::LengthMismatch {
                    what: if what == "durations" {
                        "cumulative: starts and durations"
                    } else {
                        "cumulative: starts and heights"
                    },
                    expected: starts.len(),
                    found,
                });
            }
        }
        if starts.is_empty() {
            return Ok(());
        }
        for &x in durations.iter().chain(&heights) {
            self.linear(&[1], &[x], Relation::Ge, 0)?;
        }
        if starts.len() <= ENERGETIC_MAX_TASKS {
            self.post(CumulativeEnergy::flexible(
                starts.clone(),
                durations.clone(),
                heights.clone(),
                capacity,
            ))?;
        }
        self.post(Cumulative::flexible(starts, durations, heights, capacity))
    }

    /// Tasks `starts[i]` of `durations[i]` on a unary resource: no two tasks of positive
    /// duration overlap (`starts[i] + durations[i] <= starts[j]` or the other way round);
    /// tasks of zero duration are free. MiniZinc's `disjunctive(s, d)` with constant `d`.
    ///
    /// Posts [`Disjunctive`]: overload checking, detectable precedences, not-first/not-last
    /// and edge finding on Vilím's Θ-Λ-tree, `O(n log n)` per rule and pass.
    ///
    /// Errors: the arrays differ in length, or a duration is negative or above
    /// [`MAX_VALUE`](crate::MAX_VALUE).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let s = m.int_vars(3, 0..=5)?;
    /// m.disjunctive(&s, &[2, 2, 2])?; // three tasks of 2 within 0..7
    /// // 3! orders, and the one free time unit before, between or after them: 4 places.
    /// assert_eq!(Solver::new(m).count(), 6 * 4);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn disjunctive<V: Into<IntView> + Copy>(
        &mut self,
        starts: &[V],
        durations: &[i32],
    ) -> Result<(), ModelError> {
        self.post_disjunctive(starts, durations, false)
    }

    /// [`disjunctive`](Model::disjunctive), except that a task of zero duration may not lie
    /// strictly inside another task either (`starts[i] + durations[i] <= starts[j]` or
    /// `starts[j] + durations[j] <= starts[i]` for every pair): MiniZinc's
    /// `disjunctive_strict(s, d)` with constant `d`.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let s = m.int_vars(2, 0..=3)?;
    /// // The point s1 is at or before s0, or at or after s0 + 3: 11 of the 16 pairs (all 16
    /// // with `disjunctive`, where a zero-duration task is free).
    /// m.disjunctive_strict(&s, &[3, 0])?;
    /// assert_eq!(Solver::new(m).count(), 11);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn disjunctive_strict<V: Into<IntView> + Copy>(
        &mut self,
        starts: &[V],
        durations: &[i32],
    ) -> Result<(), ModelError> {
        self.post_disjunctive(starts, durations, true)
    }

    fn post_disjunctive<V: Into<IntView> + Copy>(
        &mut self,
        starts: &[V],
        durations: &[i32],
        strict: bool,
    ) -> Result<(), ModelError> {
        let starts = super::views(self, starts)?;
        let name = if strict {
            "disjunctive_strict"
        } else {
            "disjunctive"
        };
        let what = if strict {
            "disjunctive_strict: starts and durations"
        } else {
            "disjunctive: starts and durations"
        };
        amounts(name, "duration", what, starts.len(), durations)?;
        let durations = durations.iter().map(|&d| i64::from(d)).collect();
        self.post(Disjunctive::new(starts, durations, strict))
    }
}
