//! Bounds for `var int` declared without them, which Bezzel's bitset domains cannot hold.
//!
//! Each is inferred from the constraint that defines it (a linear equation, a sum, a product,
//! an element...) by interval arithmetic, repeated until nothing changes (at most 16 rounds,
//! since each round can only pass bounds one definition further). A variable still without
//! bounds gets an assumed window (see `Builder::make_pending`), put on the side that the
//! linear inequalities over it imply: these sides are the hints.

use crate::builder::{Builder, Hint, Value};
use crate::builtins::int::pow_table;
use flatzinc::ConstraintItem;

impl Builder {
    /// A call's arguments, unless it has the wrong shape (reported when it is posted; its
    /// arguments are not where the rules look for them) or names something undeclared.
    fn arguments(&self, c: &ConstraintItem) -> Option<Vec<Value>> {
        if !crate::builtins::takes(&c.id, c.exprs.len()) {
            return None;
        }
        c.exprs.iter().map(|e| self.expr(e).ok()).collect()
    }

    /// Bounds for the pending variables, from their defining constraints; then hints for
    /// those still without.
    pub(crate) fn infer_bounds(&mut self, constraints: &[(usize, ConstraintItem)]) {
        if self.pending.is_empty() {
            return;
        }
        let clamp = |lo: i128, hi: i128| -> (i64, i64) {
            let c = |x: i128| x.clamp(i128::from(i64::MIN / 4), i128::from(i64::MAX / 4)) as i64;
            (c(lo), c(hi))
        };
        for _pass in 0..16 {
            let mut changed = false;
            for (_, c) in constraints {
                let Some(args) = self.arguments(c) else {
                    continue;
                };
                let target = |i: usize| -> Option<usize> {
                    match args.get(i) {
                        Some(Value::Pending(k)) if self.pending[*k].1.is_none() => Some(*k),
                        _ => None,
                    }
                };
                let iv = |i: usize| self.interval(&args[i]);
                let found: Option<(usize, (i64, i64))> = match c.id.as_str() {
                    "int_lin_eq" => (|| {
                        let coeffs = self.pars(&args[0]).ok()?;
                        let Value::Array(xs) = &args[1] else {
                            return None;
                        };
                        let rhs = self.par(&args[2]).ok()?;
                        let mut unknown = None;
                        let (mut lo, mut hi) = (i128::from(rhs), i128::from(rhs));
                        for (a, x) in coeffs.iter().zip(xs) {
                            match (self.interval(x), x) {
                                (Some((l, h)), _) => {
                                    let (p, q) = (
                                        i128::from(*a) * i128::from(l),
                                        i128::from(*a) * i128::from(h),
                                    );
                                    lo -= p.max(q);
                                    hi -= p.min(q);
                                }
                                (None, Value::Pending(k)) if unknown.is_none() => {
                                    unknown = Some((*k, *a))
                                }
                                _ => return None,
                            }
                        }
                        let (k, a) = unknown?;
                        let a = i128::from(a);
                        let (l, h) = if a > 0 { (lo, hi) } else { (-hi, -lo) };
                        let a = a.abs();
                        Some((k, clamp(l.div_euclid(a), h.div_euclid(a) + 1)))
                    })(),
                    "int_plus" => target(2)
                        .zip(iv(0).zip(iv(1)))
                        .map(|(k, ((a, b), (c, d)))| {
                            (
                                k,
                                clamp(i128::from(a) + i128::from(c), i128::from(b) + i128::from(d)),
                            )
                        }),
                    "int_times" => target(2)
                        .zip(iv(0).zip(iv(1)))
                        .map(|(k, ((a, b), (c, d)))| {
                            let p = [
                                i128::from(a) * i128::from(c),
                                i128::from(a) * i128::from(d),
                                i128::from(b) * i128::from(c),
                                i128::from(b) * i128::from(d),
                            ];
                            (k, clamp(*p.iter().min().unwrap(), *p.iter().max().unwrap()))
                        }),
                    "int_div" => target(2).zip(iv(0)).map(|(k, (a, b))| {
                        let m = a.abs().max(b.abs());
                        (k, (-m, m))
                    }),
                    "int_mod" => target(2).zip(iv(1)).map(|(k, (a, b))| {
                        let m = a.abs().max(b.abs());
                        (k, (-m, m))
                    }),
                    "int_pow" => target(2).zip(iv(0).zip(iv(1))).and_then(|(k, (x, y))| {
                        let rows = pow_table(x, y)?;
                        let lo = rows.iter().map(|r| r.2).min()?;
                        let hi = rows.iter().map(|r| r.2).max()?;
                        Some((k, (lo, hi)))
                    }),
                    "int_abs" => target(1)
                        .zip(iv(0))
                        .map(|(k, (a, b))| (k, (0, a.abs().max(b.abs())))),
                    "int_min" | "int_max" => target(2)
                        .zip(iv(0).zip(iv(1)))
                        .map(|(k, ((a, b), (c, d)))| (k, (a.min(c), b.max(d)))),
                    "array_int_maximum" | "array_int_minimum" => target(0).zip(self.hull(&args[1])),
                    "array_int_element" | "array_var_int_element" => {
                        target(2).zip(self.hull(&args[1]))
                    }
                    "int_eq" => target(0).zip(iv(1)).or_else(|| target(1).zip(iv(0))),
                    "bool2int" => target(1).map(|k| (k, (0, 1))),
                    "bool_lin_eq" => target(2).zip(self.pars(&args[0]).ok()).map(|(k, a)| {
                        let lo = a.iter().filter(|&&c| c < 0).sum();
                        let hi = a.iter().filter(|&&c| c > 0).sum();
                        (k, (lo, hi))
                    }),
                    _ => None,
                };
                if let Some((k, b)) = found {
                    self.pending[k].1 = Some(b);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        self.infer_hints(constraints);
    }

    /// Sides for the windows of the pending variables still without bounds, from the linear
    /// inequalities over them (`Σ aᵢxᵢ ≤ c`, the known terms at their smallest): with one
    /// unknown a true bound, with several each unknown's equal share of the slack.
    fn infer_hints(&mut self, constraints: &[(usize, ConstraintItem)]) {
        for (_, c) in constraints {
            let Some(args) = self.arguments(c) else {
                continue;
            };
            if (c.id == "int_le" || c.id == "int_lt") && args.len() == 2 {
                // x <= y (x < y): a side for whichever is pending, from the other's bounds.
                let strict = i64::from(c.id == "int_lt");
                match (&args[0], &args[1]) {
                    (Value::Pending(k), other) if self.pending[*k].1.is_none() => {
                        if let Some((_, hi)) = self.interval(other) {
                            self.hints.entry(*k).or_insert(Hint::AtMost(hi - strict));
                        }
                    }
                    (other, Value::Pending(k)) if self.pending[*k].1.is_none() => {
                        if let Some((lo, _)) = self.interval(other) {
                            self.hints.entry(*k).or_insert(Hint::AtLeast(lo + strict));
                        }
                    }
                    _ => {}
                }
                continue;
            }
            if c.id != "int_lin_le" && c.id != "int_lin_eq" {
                continue;
            }
            let (Some(coeffs), Some(Value::Array(xs)), Some(rhs)) = (
                args.first().and_then(|v| self.pars(v).ok()),
                args.get(1),
                args.get(2).and_then(|v| self.par(v).ok()),
            ) else {
                continue;
            };
            // An equation gives both inequalities; try `≤` then `≥`.
            let sides: &[i128] = if c.id == "int_lin_eq" { &[1, -1] } else { &[1] };
            for &sign in sides {
                let mut slack = sign * i128::from(rhs);
                let mut unknown = Vec::new();
                for (&a, x) in coeffs.iter().zip(xs) {
                    let a = sign * i128::from(a);
                    match (self.interval(x), x) {
                        (Some((l, h)), _) => {
                            slack -= (a * i128::from(l)).min(a * i128::from(h));
                        }
                        (None, Value::Pending(k)) if a != 0 => unknown.push((*k, a)),
                        _ => {}
                    }
                }
                let n = unknown.len() as i128;
                for &(k, a) in &unknown {
                    let share = slack.div_euclid(n);
                    // a·x ≤ share
                    let clamp = |v: i128| {
                        v.clamp(i128::from(i64::MIN / 4), i128::from(i64::MAX / 4)) as i64
                    };
                    let hint = if a > 0 {
                        Hint::AtMost(clamp(share.div_euclid(a)))
                    } else {
                        Hint::AtLeast(clamp(-share.div_euclid(-a)))
                    };
                    self.hints.entry(k).or_insert(hint);
                }
            }
        }
    }
}
