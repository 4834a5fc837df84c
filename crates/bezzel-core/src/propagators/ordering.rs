//! Orderings that break symmetries: lexicographic order between two sequences of views, and
//! value precedence within one.

use crate::error::ModelError;
use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::var::IntView;

/// `xs` is lexicographically below `ys` (`strict`) or below or equal to it; domain consistent
/// on distinct variables.
///
/// With `a` the first position where `xs` and `ys` are not fixed to equal values, the
/// constraint is `xs[a] < ys[a]`, or `xs[a] = ys[a]` and the rest in order. Whether the rest
/// can be in order is decided position by position (`xs[k] < ys[k]` possible, or else equality
/// possible and the rest after it); if it cannot, `xs[a] < ys[a]` is enforced on the bounds,
/// else `xs[a] <= ys[a]`, repeated while `a` moves. `O(n + d)` per pass.
#[derive(Debug, Clone)]
pub struct Lex {
    xs: Vec<IntView>,
    ys: Vec<IntView>,
    strict: bool,
}

impl Lex {
    /// `xs <lex ys` when `strict`, else `xs <=lex ys`; sequences of different lengths are a
    /// [`ModelError::LengthMismatch`].
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// use bezzel_core::propagators::Lex;
    /// let mut m = Model::new();
    /// let x = m.int_vars(3, 0..=1)?;
    /// let xs: Vec<IntView> = x.iter().map(|&v| v.into()).collect();
    /// assert!(Lex::new(xs[..1].to_vec(), xs[1..].to_vec(), true).is_err());
    /// m.post(Lex::new(xs[..1].to_vec(), xs[1..2].to_vec(), true)?)?;
    /// assert_eq!(Solver::new(m).count(), 2); // x0 = 0, x1 = 1, x2 free
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn new(xs: Vec<IntView>, ys: Vec<IntView>, strict: bool) -> Result<Lex, ModelError> {
        if xs.len() != ys.len() {
            return Err(ModelError::LengthMismatch {
                what: "Lex::new: xs and ys",
                expected: xs.len(),
                found: ys.len(),
            });
        }
        Ok(Lex { xs, ys, strict })
    }

    /// Whether `xs[k..]` can still be ordered before `ys[k..]` (an over-approximation when
    /// variables repeat, which only ever prunes less).
    fn rest_possible(&self, ctx: &Context<'_>, from: usize) -> bool {
        for k in from..self.xs.len() {
            let (x, y) = (self.xs[k], self.ys[k]);
            if ctx.min(x) < ctx.max(y) {
                return true;
            }
            let meet = if ctx.size(x) <= ctx.size(y) {
                ctx.values(x).iter().any(|&v| ctx.contains(y, v))
            } else {
                ctx.values(y).iter().any(|&v| ctx.contains(x, v))
            };
            if !meet {
                return false;
            }
        }
        !self.strict
    }
}

impl Propagator for Lex {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &v in self.xs.iter().chain(&self.ys) {
            s.subscribe(v, Event::Domain);
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let n = self.xs.len();
        loop {
            let mut a = 0;
            while a < n
                && ctx.is_fixed(self.xs[a])
                && ctx.is_fixed(self.ys[a])
                && ctx.min(self.xs[a]) == ctx.min(self.ys[a])
            {
                a += 1;
            }
            if a == n {
                return if self.strict {
                    Err(crate::store::Conflict)
                } else {
                    Ok(PropStatus::Subsumed)
                };
            }
            let (x, y) = (self.xs[a], self.ys[a]);
            if ctx.max(x) < ctx.min(y) {
                return Ok(PropStatus::Subsumed);
            }
            let gap = i64::from(!self.rest_possible(ctx, a + 1));
            let mut changed = ctx.set_max(x, ctx.max(y) - gap)?;
            changed |= ctx.set_min(y, ctx.min(x) + gap)?;
            if !changed {
                return Ok(PropStatus::Fixpoint);
            }
        }
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        let xs = a.values_of(&self.xs);
        let ys = a.values_of(&self.ys);
        if self.strict { xs < ys } else { xs <= ys }
    }

    fn name(&self) -> &'static str {
        if self.strict {
            "lex_less"
        } else {
            "lex_less_eq"
        }
    }
}

/// Value `s` precedes value `t` in `views`: wherever a view takes `t`, an earlier one takes
/// `s`. Domain consistent on distinct variables.
///
/// With `a` the first position that may take `s`, no position up to `a` may take `t`; and if
/// some later view is fixed to `t` before any other position may take `s`, the view at `a`
/// must be `s`. `O(n)` per pass.
#[derive(Debug, Clone)]
pub struct ValuePrecede {
    s: i64,
    t: i64,
    views: Vec<IntView>,
}

impl ValuePrecede {
    /// `s` precedes `t` in `views`.
    pub fn new(s: i64, t: i64, views: Vec<IntView>) -> ValuePrecede {
        ValuePrecede { s, t, views }
    }
}

impl Propagator for ValuePrecede {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &v in &self.views {
            s.subscribe(v, Event::Domain);
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let (s, t, views) = (self.s, self.t, &self.views);
        let n = views.len();
        loop {
            let a = views.iter().position(|&v| ctx.contains(v, s)).unwrap_or(n);
            let mut changed = false;
            for &v in &views[..n.min(a + 1)] {
                changed |= ctx.remove(v, t)?;
            }
            if a == n || ctx.is_fixed(views[a]) && ctx.min(views[a]) == s {
                return Ok(PropStatus::Subsumed);
            }
            let next_s = (a + 1..n).find(|&i| ctx.contains(views[i], s)).unwrap_or(n);
            let first_t = (a + 1..n).find(|&i| ctx.is_fixed(views[i]) && ctx.min(views[i]) == t);
            if first_t.is_some_and(|g| g < next_s) {
                changed |= ctx.assign(views[a], s)?;
            }
            if !changed {
                return Ok(PropStatus::Fixpoint);
            }
        }
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        let values = a.values_of(&self.views);
        (0..values.len()).all(|j| values[j] != self.t || values[..j].contains(&self.s))
    }

    fn name(&self) -> &'static str {
        "value_precede"
    }
}
