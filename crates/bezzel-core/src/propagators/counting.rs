//! Counting and channeling: how many views take a value from a set (`among`, and through it
//! `count` and `global_cardinality`), and `inverse`.

use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::queue::Priority;
use crate::store::Conflict;
use crate::var::IntView;

/// `n = |{i : xs[i] ∈ values}|`, domain consistent: `n` lies between the number of views that
/// must take a value of the set and the number that can; when `n` reaches the first, the
/// undecided views leave the set, and when it reaches the second, they keep only the set.
/// Each run costs `O(Σ min(|D(xs[i])| · log |values|, |values|))` to count, and a domain scan
/// of the undecided views when they must leave or keep the set.
#[derive(Debug, Clone)]
pub struct Among {
    xs: Vec<IntView>,
    /// Sorted, without repeats.
    values: Vec<i64>,
    n: IntView,
}

impl Among {
    /// The propagator for `n = |{i : xs[i] ∈ values}|`; `values` may be in any order and
    /// repeat.
    pub fn new(xs: Vec<IntView>, mut values: Vec<i64>, n: IntView) -> Among {
        values.sort_unstable();
        values.dedup();
        Among { xs, values, n }
    }

    fn has(&self, v: i64) -> bool {
        self.values.binary_search(&v).is_ok()
    }
}

impl Propagator for Among {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &x in &self.xs {
            s.subscribe(x, Event::Domain);
        }
        s.subscribe(self.n, Event::Bounds);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        // Repeats because the views may share variables.
        loop {
            let (mut sure, mut possible) = (0i64, 0i64);
            let mut undecided = Vec::new();
            for &x in &self.xs {
                // Look up the set's values in the domain when there are fewer of them (count
                // has one): a run then costs O(|values|) per view, not a scan of the domain.
                let size = ctx.size(x) as usize;
                let inside = if self.values.len() < size {
                    self.values.iter().filter(|&&v| ctx.contains(x, v)).count()
                } else {
                    ctx.values(x).iter().filter(|&&v| self.has(v)).count()
                };
                if inside == size {
                    sure += 1;
                    possible += 1;
                } else if inside > 0 {
                    possible += 1;
                    undecided.push(x);
                }
            }
            let mut changed = ctx.set_min(self.n, sure)? | ctx.set_max(self.n, possible)?;
            let keep_inside = if ctx.max(self.n) == sure {
                Some(false)
            } else if ctx.min(self.n) == possible {
                Some(true)
            } else {
                None
            };
            if let Some(inside) = keep_inside {
                for &x in &undecided {
                    if !inside && self.values.len() < ctx.size(x) as usize {
                        for &v in &self.values {
                            changed |= ctx.remove(x, v)?;
                        }
                        continue;
                    }
                    for v in ctx.values(x) {
                        if self.has(v) != inside {
                            changed |= ctx.remove(x, v)?;
                        }
                    }
                }
            }
            if !changed {
                return Ok(if undecided.is_empty() {
                    PropStatus::Subsumed
                } else {
                    PropStatus::Fixpoint
                });
            }
        }
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        let count = self
            .xs
            .iter()
            .filter(|&&x| self.values.contains(&a.value(x)))
            .count();
        i64::try_from(count).is_ok_and(|c| c == a.value(self.n))
    }

    fn name(&self) -> &'static str {
        "among"
    }
}

/// `xs[i] = j ⇔ ys[j] = i` for all positions, counted from 0, with `xs` and `ys` of one length
/// `n`: every view lies in `0..n`, and `j` leaves `xs[i]` as soon as `i` leaves `ys[j]`, and the
/// other way round (domain consistent on this channeling, which implies that both arrays are
/// all-different permutations once fixed). Each run costs `O(Σ |D|)`.
#[derive(Debug, Clone)]
pub struct Inverse {
    xs: Vec<IntView>,
    ys: Vec<IntView>,
}

impl Inverse {
    /// The propagator for `xs[i] = j ⇔ ys[j] = i`; see
    /// [`Model::inverse`](crate::Model::inverse), which checks the lengths.
    pub fn new(xs: Vec<IntView>, ys: Vec<IntView>) -> Inverse {
        Inverse { xs, ys }
    }
}

/// Removes `j` from `a[i]` whenever `b[j]` lacks `i`; returns whether anything changed.
fn channel(ctx: &mut Context<'_>, a: &[IntView], b: &[IntView]) -> Result<bool, Conflict> {
    let n = a.len() as i64;
    let mut changed = false;
    for (i, &x) in a.iter().enumerate() {
        changed |= ctx.set_min(x, 0)? | ctx.set_max(x, n - 1)?;
        for j in ctx.values(x) {
            if !ctx.contains(b[j as usize], i as i64) {
                changed |= ctx.remove(x, j)?;
            }
        }
    }
    Ok(changed)
}

impl Propagator for Inverse {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &x in self.xs.iter().chain(&self.ys) {
            s.subscribe(x, Event::Domain);
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        while channel(ctx, &self.xs, &self.ys)? | channel(ctx, &self.ys, &self.xs)? {}
        Ok(
            if self.xs.iter().chain(&self.ys).all(|&x| ctx.is_fixed(x)) {
                PropStatus::Subsumed
            } else {
                PropStatus::Fixpoint
            },
        )
    }

    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        let n = self.xs.len() as i64;
        let at = |views: &[IntView], i: usize| {
            let v = a.value(views[i]);
            (0..n).contains(&v).then_some(v as usize)
        };
        (0..self.xs.len()).all(|i| at(&self.xs, i).is_some_and(|j| at(&self.ys, j) == Some(i)))
            && (0..self.ys.len())
                .all(|j| at(&self.ys, j).is_some_and(|i| at(&self.xs, i) == Some(j)))
    }

    fn name(&self) -> &'static str {
        "inverse"
    }
}
