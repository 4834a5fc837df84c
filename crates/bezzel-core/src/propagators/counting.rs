//! Counting and channeling: how many views take a value from a set (`among`, and through it
//! `count` and `global_cardinality`), and `inverse`.

use super::bits;
use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup, WordView};
use crate::queue::Priority;
use crate::store::{Conflict, TrailedInt};
use crate::var::{IntView, VarId};

/// `n = |{i : xs[i] ∈ values}|`, domain consistent: `n` lies between the number of views that
/// must take a value of the set and the number that can; when `n` reaches the first, the
/// undecided views leave the set, and when it reaches the second, they keep only the set.
///
/// Incremental: each view's standing (must, may, cannot take a value of the set) and the two
/// counts are trailed, and a run looks again only at the views its advice names (view `i`
/// carries token bit `i % 64`), so that a run woken by one view of many costs `O(1)` views
/// rather than all of them (`magicseq`: a hundred `count`s over the same hundred variables).
/// A count of one value [watches](Setup::subscribe_watching) it, so that changes which keep
/// it and another value do not wake it at all. Looking at a view costs `O(min(|D(x)| · log
/// |values|, |values|))`. Everything is looked at on the first run of a branch and on a run
/// without an event; after the run narrows views itself, those views (and the ones over
/// `n`'s variable) are looked at again, or everything when views share variables.
#[derive(Debug, Clone)]
pub struct Among {
    xs: Vec<IntView>,
    /// Sorted, without repeats.
    values: Vec<i64>,
    n: IntView,
    /// Per view, its standing as of the last look: [`OUT`], [`MAYBE`] or [`IN`]; made at setup.
    standing: Vec<TrailedInt>,
    /// The views that must take a value of the set, and those that can; and whether the
    /// standings were computed on this branch (1) or not (0).
    sure: Option<TrailedInt>,
    possible: Option<TrailedInt>,
    ready: Option<TrailedInt>,
    /// Whether two views share a variable, and the views over `n`'s variable (made at
    /// setup): what a narrowing of this run's own can change besides the view narrowed.
    shared: bool,
    over_n: Vec<usize>,
}

/// A view's standing: it cannot take a value of the set, it may, or it must.
const OUT: i64 = 0;
const MAYBE: i64 = 1;
const IN: i64 = 2;

impl Among {
    /// The propagator for `n = |{i : xs[i] ∈ values}|`; `values` may be in any order and
    /// repeat.
    pub fn new(xs: Vec<IntView>, mut values: Vec<i64>, n: IntView) -> Among {
        values.sort_unstable();
        values.dedup();
        Among {
            xs,
            values,
            n,
            standing: Vec::new(),
            sure: None,
            possible: None,
            ready: None,
            shared: false,
            over_n: Vec::new(),
        }
    }

    fn has(&self, v: i64) -> bool {
        self.values.binary_search(&v).is_ok()
    }

    /// Whether `x` must, may or cannot take a value of the set, now.
    fn standing_of(&self, ctx: &Context<'_>, x: IntView) -> i64 {
        // Look up the set's values in the domain when there are fewer of them (count has
        // one): a look then costs O(|values|), not a scan of the domain.
        let size = ctx.size(x) as usize;
        let inside = if size == 1 {
            usize::from(self.has(ctx.min(x)))
        } else if self.values.len() < size {
            self.values.iter().filter(|&&v| ctx.contains(x, v)).count()
        } else {
            ctx.values(x).iter().filter(|&&v| self.has(v)).count()
        };
        if inside == size {
            IN
        } else if inside > 0 {
            MAYBE
        } else {
            OUT
        }
    }

    /// Looks again at view `i`, updating its standing and the counts.
    fn look(&self, ctx: &mut Context<'_>, i: usize, counts: &mut (i64, i64)) {
        let now = self.standing_of(ctx, self.xs[i]);
        let before = ctx.int(self.standing[i]);
        if now != before {
            counts.0 += i64::from(now == IN) - i64::from(before == IN);
            counts.1 += i64::from(now != OUT) - i64::from(before != OUT);
            ctx.set_int(self.standing[i], now);
        }
    }
}

impl Propagator for Among {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for (i, &x) in self.xs.iter().enumerate() {
            match self.values[..] {
                // A count of one value sleeps through the changes that keep that value and
                // another: they change no standing.
                [value] => s.subscribe_watching(x, value, 1 << (i % 64)),
                _ => s.subscribe_advised(x, Event::Domain, 1 << (i % 64)),
            }
        }
        s.subscribe(self.n, Event::Bounds);
        // Standings start as "may" for every view, counted as such.
        self.standing = self.xs.iter().map(|_| s.trailed_int(MAYBE)).collect();
        self.sure = Some(s.trailed_int(0));
        self.possible = Some(s.trailed_int(self.xs.len() as i64));
        self.ready = Some(s.trailed_int(0));
        let mut vars: Vec<VarId> = self.xs.iter().map(|x| x.var()).collect();
        self.over_n = (0..vars.len())
            .filter(|&i| vars[i] == self.n.var())
            .collect();
        vars.sort_unstable();
        self.shared = vars.windows(2).any(|w| w[0] == w[1]);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let (Some(sure), Some(possible), Some(ready)) = (self.sure, self.possible, self.ready)
        else {
            unreachable!("set up before it runs");
        };
        let mut counts = (ctx.int(sure), ctx.int(possible));
        let mut everything = ctx.int(ready) == 0 || ctx.advice() == u64::MAX;
        let mut advice = ctx.advice();
        let mut narrowed: Vec<usize> = Vec::new();
        loop {
            if everything {
                narrowed.clear();
                for i in 0..self.xs.len() {
                    self.look(ctx, i, &mut counts);
                }
            } else if !narrowed.is_empty() {
                for i in std::mem::take(&mut narrowed) {
                    self.look(ctx, i, &mut counts);
                }
            } else {
                while advice != 0 {
                    let b = advice.trailing_zeros() as usize;
                    advice &= advice - 1;
                    for i in (b..self.xs.len()).step_by(64) {
                        self.look(ctx, i, &mut counts);
                    }
                }
            }
            let (sure_now, possible_now) = counts;
            let n_changed = ctx.set_min(self.n, sure_now)? | ctx.set_max(self.n, possible_now)?;
            let mut changed = n_changed;
            let keep_inside = if ctx.max(self.n) == sure_now {
                Some(false)
            } else if ctx.min(self.n) == possible_now {
                Some(true)
            } else {
                None
            };
            if let Some(inside) = keep_inside
                && sure_now < possible_now
            {
                for (i, &x) in self.xs.iter().enumerate() {
                    if ctx.int(self.standing[i]) != MAYBE {
                        continue;
                    }
                    let mut this = false;
                    if !inside && self.values.len() < ctx.size(x) as usize {
                        for &v in &self.values {
                            this |= ctx.remove(x, v)?;
                        }
                    } else {
                        for v in ctx.values(x) {
                            if self.has(v) != inside {
                                this |= ctx.remove(x, v)?;
                            }
                        }
                    }
                    if this {
                        narrowed.push(i);
                    }
                    changed |= this;
                }
            }
            if !changed {
                break;
            }
            // What this run narrowed wakes no advice of its own: look again at the views it
            // narrowed and, if it moved `n`, those over `n`'s variable; at everything when
            // views share variables.
            if n_changed {
                narrowed.extend_from_slice(&self.over_n);
            }
            everything = self.shared;
            if narrowed.is_empty() {
                break;
            }
        }
        // Written only when they moved: every write is a trail entry.
        if counts != (ctx.int(sure), ctx.int(possible)) {
            ctx.set_int(sure, counts.0);
            ctx.set_int(possible, counts.1);
        }
        if ctx.int(ready) == 0 {
            ctx.set_int(ready, 1);
        }
        Ok(PropStatus::subsumed_if(counts.0 == counts.1))
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
///
/// Up to 64 positions, when every view's declared values lie in `0..64`, the domains are
/// read as words: the domains of `ys` form a bit matrix whose transpose is, row by row, the
/// values each `xs[i]` keeps, and one [`Context::keep_word`] a view applies it. That costs a
/// few instructions a value where testing the values one at a time costs a hundred (a
/// permutation of 52 cards, `black-hole`: five times fewer instructions a node).
#[derive(Debug, Clone)]
pub struct Inverse {
    xs: Vec<IntView>,
    ys: Vec<IntView>,
    /// The views of `xs` and `ys` as words over `0..64`, when they all fit; made at setup.
    words: Option<(Vec<WordView>, Vec<WordView>)>,
    /// Whether a variable appears more than once among `xs` and `ys`; made at setup.
    shared: bool,
}

impl Inverse {
    /// The propagator for `xs[i] = j ⇔ ys[j] = i`; see
    /// [`Model::inverse`](crate::Model::inverse), which checks the lengths.
    pub fn new(xs: Vec<IntView>, ys: Vec<IntView>) -> Inverse {
        Inverse {
            xs,
            ys,
            words: None,
            shared: true,
        }
    }
}

/// [`channel`] over words: keeps in `a[i]` only the `j` whose `b[j]` holds `i`, with `a` and
/// `b` of one length `n ≤ 64`; returns whether anything changed.
fn channel_words(ctx: &mut Context<'_>, a: &[WordView], b: &[WordView]) -> Result<bool, Conflict> {
    let n = a.len();
    let in_range = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut support = [0u64; 64];
    for (j, &w) in b.iter().enumerate() {
        for i in bits(ctx.word(w) & in_range) {
            support[i] |= 1 << j;
        }
    }
    let mut changed = false;
    for (&w, &keep) in a.iter().zip(&support) {
        changed |= ctx.keep_word(w, keep)?.is_some();
    }
    Ok(changed)
}

/// Keeps `a[i]` in `0..n` and removes `j` from it whenever `b[j]` lacks `i`; returns whether
/// anything changed.
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
        let words = |views: &[IntView]| -> Option<Vec<WordView>> {
            views.iter().map(|&v| s.word_view(v, 0)).collect()
        };
        let mut vars: Vec<VarId> = self.xs.iter().chain(&self.ys).map(|v| v.var()).collect();
        vars.sort_unstable();
        self.shared = vars.windows(2).any(|w| w[0] == w[1]);
        self.words = match (words(&self.xs), words(&self.ys)) {
            (Some(xs), Some(ys)) if xs.len() <= 64 => Some((xs, ys)),
            _ => None,
        };
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        // On distinct variables two passes reach the fixpoint: the second takes `i` from
        // `ys[j]` only where `xs[i]` lacks `j` already, so what the first left in `xs` keeps
        // its support. A variable in both arrays (or twice in one) narrowed by the second
        // pass may lose support it gave the first: again until nothing changes.
        loop {
            let changed = if let Some((xs, ys)) = &self.words {
                channel_words(ctx, xs, ys)? | channel_words(ctx, ys, xs)?
            } else {
                channel(ctx, &self.xs, &self.ys)? | channel(ctx, &self.ys, &self.xs)?
            };
            if !(self.shared && changed) {
                break;
            }
        }
        Ok(PropStatus::subsumed_if(
            self.xs.iter().chain(&self.ys).all(|&x| ctx.is_fixed(x)),
        ))
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
