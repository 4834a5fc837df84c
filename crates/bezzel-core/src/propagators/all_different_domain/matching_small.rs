//! Régin's filtering on one word: matching and strongly connected components when the live
//! views' values span at most 64, so that domains, value sets and view sets are single `u64`
//! words.
//!
//! A view is named by the bit of its matched value, so that its domain is its row of the view
//! graph; the components come from bit-parallel forward and backward closures. This is the hot
//! path of Sudoku (up to 25 × 25) and of the N-Queens diagonals up to n = 32. It avoids
//! branches that depend on the data wherever it can (the rounds that find the predecessors in
//! the view graph): measured, their mispredictions cost more than the extra instructions of
//! computing every case.

use crate::propagators::bits;
use crate::store::Conflict;

/// Buffers of the one-word path: views and values are bit positions (at most 64 of each).
/// Fixed-size arrays spare this hot path the pointer and length loads of vectors (measured:
/// vectors cost about 10% more instructions per run).
#[derive(Debug, Clone)]
pub(super) struct Small {
    /// Each live view's values, as read and as narrowed.
    pub(super) orig: [u64; 64],
    pub(super) cur: [u64; 64],
    /// Value bit matched to each view.
    mate: [u8; 64],
    /// Breadth-first search of augmenting paths, and the views left unmatched.
    queue: [u8; 64],
    unmatched: [u8; 64],
    /// The view matched to each value bit, and the view it was reached from in a search.
    val_var: [u8; 64],
    parent: [u8; 64],
}

impl Small {
    /// Empty buffers.
    pub(super) fn new() -> Small {
        Small {
            orig: [0; 64],
            cur: [0; 64],
            mate: [0; 64],
            queue: [0; 64],
            unmatched: [0; 64],
            val_var: [0; 64],
            parent: [0; 64],
        }
    }

    /// Régin's filtering on the masks `cur[..m]` (`m` = `mate_val.len()`, at least 2), which
    /// it narrows; `mate_val` is read as the previous matching and written as the new one.
    #[inline]
    pub(super) fn regin(&mut self, mate_val: &mut [i64], base: i64) -> Result<(), Conflict> {
        self.regin_inlined(mate_val, base)
    }

    /// [`regin`](Small::regin), always inlined: the family's run compiles it with the CPU
    /// features it was compiled with.
    #[inline(always)]
    pub(super) fn regin_inlined(
        &mut self,
        mate_val: &mut [i64],
        base: i64,
    ) -> Result<(), Conflict> {
        let m = mate_val.len();
        let mut matched = 0u64;
        let mut union = 0u64;
        let mut unmatched = 0;
        // Without a branch per view: whether a pair survived is data.
        for (i, &mv) in mate_val.iter().enumerate() {
            let c = self.cur[i];
            union |= c;
            let off = mv.wrapping_sub(base);
            let inside = u64::from((0..64).contains(&off));
            let bit = (off & 63) as usize;
            let kept = c & (inside << bit) & !matched;
            matched |= kept;
            let keep = kept != 0;
            self.mate[i] = bit as u8;
            let owner = &mut self.val_var[bit];
            *owner = if keep { i as u8 } else { *owner };
            self.unmatched[unmatched] = i as u8;
            unmatched += usize::from(!keep);
        }
        if (union.count_ones() as usize) < m {
            return Err(Conflict);
        }
        for u in 0..unmatched {
            let x = self.unmatched[u] as usize;
            let free = self.cur[x] & !matched;
            let v = if free != 0 {
                let v = free.trailing_zeros() as usize;
                self.mate[x] = v as u8;
                self.val_var[v] = x as u8;
                v
            } else {
                self.augment(x, matched).ok_or(Conflict)?
            };
            matched |= 1 << v;
        }
        for (i, mv) in mate_val.iter_mut().enumerate() {
            *mv = base + i64::from(self.mate[i]);
        }

        // From here on a view is named by the bit of its matched value, so that the view graph
        // needs no matrix: the view matched to `b` can move to the values of `cur[val_var[b]]`,
        // and its successors are the views matched to those. Predecessors are found the other
        // way, a round over all views per step (`meeting`): on graphs this small that costs
        // less than building the transpose (measured: a byte-tile transpose, 4.5 M more
        // instructions on Sudoku, and a bit matrix with its transpose, 33 M more).
        let free = union & !matched;
        // All views that reach a free value (none when the views use every value, as in
        // Sudoku's units: that case skips the rounds).
        let mut reach_free = 0;
        if free != 0 {
            // Views with a free value: every edge into them starts an alternating path from
            // a free value (each view on the path moves to the next one's value).
            let direct = self.meeting(m, free);
            if direct == matched {
                // Every edge ends on such a path: nothing to prune.
                return Ok(());
            }
            // Rounds of the views whose domain meets a free value or the value of a view
            // found so far.
            reach_free = direct;
            loop {
                let next = self.meeting(m, free | reach_free);
                if next == reach_free {
                    break;
                }
                reach_free = next;
            }
        }
        let common = free | reach_free;
        for b in bits(reach_free) {
            self.cur[usize::from(self.val_var[b])] &= common;
        }

        // Strongly connected components of the other views: the views reachable from `b`
        // that also reach it back. Edges inside a component are on alternating cycles. The
        // masks of the views left in `rest` are still those the graph was built from (the
        // others, already narrowed, are masked out).
        let mut rest = matched & !reach_free;
        while rest != 0 {
            let b = rest.trailing_zeros() as usize;
            let forward = closure(|y| self.cur[usize::from(self.val_var[y])], b, rest);
            let mut component = 1u64 << b;
            loop {
                let next = component | self.meeting(m, component) & forward;
                if next == component {
                    break;
                }
                component = next;
            }
            if component == matched & !reach_free {
                // One component for all: every edge among them is on a cycle, and none
                // leaves them (they reach no free value).
                break;
            }
            let keep = common | component;
            for y in bits(component) {
                self.cur[usize::from(self.val_var[y])] &= keep;
            }
            rest &= !component;
        }
        Ok(())
    }

    /// The views among the first `m` whose values meet `set`, named by their matched values.
    #[inline]
    fn meeting(&self, m: usize, set: u64) -> u64 {
        let mut views = 0u64;
        for (&c, &a) in self.cur[..m].iter().zip(&self.mate[..m]) {
            views |= u64::from(c & set != 0) << a;
        }
        views
    }

    /// Finds an augmenting path from the unmatched view `start`, breadth first, and flips it.
    /// Returns the free value it ends on, or `None` if there is none (the constraint fails).
    fn augment(&mut self, start: usize, matched: u64) -> Option<usize> {
        let mut visited = 0u64;
        self.queue[0] = start as u8;
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let j = self.queue[head] as usize;
            head += 1;
            let candidates = self.cur[j] & !visited;
            let free = candidates & !matched;
            if free != 0 {
                let end = free.trailing_zeros() as usize;
                let (mut v, mut x) = (end, j);
                loop {
                    let old = self.mate[x] as usize;
                    self.mate[x] = v as u8;
                    self.val_var[v] = x as u8;
                    if x == start {
                        return Some(end);
                    }
                    v = old;
                    x = self.parent[old] as usize;
                }
            }
            visited |= candidates;
            for v in bits(candidates) {
                self.parent[v] = j as u8;
                self.queue[tail] = self.val_var[v];
                tail += 1;
            }
        }
        None
    }
}

/// The views reachable from `x` along `adj` (a view's successors, possibly with other bits
/// set) without leaving `within`.
#[inline]
fn closure(adj: impl Fn(usize) -> u64, x: usize, within: u64) -> u64 {
    let mut reached = 1u64 << x;
    let mut frontier = reached;
    while frontier != 0 {
        let y = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let new = adj(y) & within & !reached;
        reached |= new;
        frontier |= new;
    }
    reached
}
