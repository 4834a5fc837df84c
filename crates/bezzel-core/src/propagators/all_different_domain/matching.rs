//! Régin's filtering in general: matching and strongly connected components over an adjacency
//! array, for live views whose values span more than 64.
//!
//! Values are indexed densely (`value - lo`), or by their rank among the sorted distinct values
//! when the span is huge and sparse. The matching is completed by breadth-first augmenting
//! paths, and an iterative Tarjan finds the components of the view graph while it propagates
//! "reaches a free value" from component to component.

use super::NO_VALUE;
use crate::propagator::Context;
use crate::store::Conflict;
use crate::var::IntView;

/// No index.
const NONE: u32 = u32::MAX;
/// Spans up to this many values are indexed densely (`value - lo`); beyond, unless the
/// domains are dense enough, values are compressed by sorting.
const DENSE_SPAN: i64 = 1 << 16;

/// Buffers of the general path, reused between calls.
#[derive(Debug, Clone, Default)]
pub(super) struct Wide {
    /// Adjacency of live views: `adj[adj_start[x]..adj_start[x + 1]]` are value indices,
    /// `adj_val` the same values in view terms.
    adj_start: Vec<u32>,
    adj: Vec<u32>,
    adj_val: Vec<i64>,
    /// Sorted distinct values, when they are compressed rather than dense.
    uni: Vec<i64>,
    /// Value index matched to each view position.
    mate: Vec<u32>,
    /// Per value index: its view (valid when `val_epoch == epoch`), its BFS mark, its BFS parent.
    val_var: Vec<u32>,
    val_epoch: Vec<u32>,
    visit_epoch: Vec<u32>,
    parent: Vec<u32>,
    epoch: u32,
    bfs_epoch: u32,
    queue: Vec<u32>,
    /// Tarjan state per view position, and per component whether it reaches a free value.
    index: Vec<u32>,
    low: Vec<u32>,
    comp: Vec<u32>,
    pos: Vec<u32>,
    on_stack: Vec<bool>,
    reach: Vec<bool>,
    comp_reach: Vec<bool>,
    stack: Vec<u32>,
    calls: Vec<u32>,
}

impl Wide {
    pub(super) fn with_views(n: usize) -> Wide {
        Wide {
            adj_start: Vec::with_capacity(n + 1),
            mate: vec![NONE; n],
            queue: Vec::with_capacity(n + 1),
            index: vec![0; n],
            low: vec![0; n],
            comp: vec![0; n],
            pos: vec![0; n],
            on_stack: vec![false; n],
            reach: vec![false; n],
            comp_reach: vec![false; n],
            stack: Vec::with_capacity(n),
            calls: Vec::with_capacity(n),
            ..Wide::default()
        }
    }

    /// Régin's filtering of `views` (at least two, each with a domain, spanning more than 64
    /// values in all): removes every value that no matching covering all views uses.
    /// `mate_val` is read as the previous matching (a cache: pairs whose value has gone are
    /// dropped) and written as the new one. Returns whether any domain changed.
    pub(super) fn filter(
        &mut self,
        ctx: &mut Context<'_>,
        views: &[IntView],
        mate_val: &mut [i64],
    ) -> Result<bool, Conflict> {
        let w = self;
        let m = views.len();
        let mut changed = false;
        let (mut lo, mut hi, mut edges) = (i64::MAX, i64::MIN, 0i64);
        for &v in views {
            lo = lo.min(ctx.min(v));
            hi = hi.max(ctx.max(v));
            edges += i64::from(ctx.size(v));
        }
        if hi - lo + 1 < m as i64 {
            return Err(Conflict);
        }
        w.adj_start.clear();
        w.adj_val.clear();
        w.adj_start.push(0);
        for &v in views {
            push_values(ctx, v, &mut w.adj_val);
            w.adj_start.push(w.adj_val.len() as u32);
        }
        let dense = hi - lo < DENSE_SPAN || hi - lo < 2 * edges;
        let k = if dense {
            (hi - lo + 1) as usize
        } else {
            w.uni.clear();
            w.uni.extend_from_slice(&w.adj_val);
            w.uni.sort_unstable();
            w.uni.dedup();
            w.uni.len()
        };
        if k < m {
            return Err(Conflict);
        }
        w.adj.clear();
        if dense {
            w.adj.extend(w.adj_val.iter().map(|&val| (val - lo) as u32));
        } else {
            let uni = &w.uni;
            w.adj.extend(
                w.adj_val
                    .iter()
                    .map(|val| uni.partition_point(|u| u < val) as u32),
            );
        }
        let value_of = |w: &Wide, idx: u32| {
            if dense {
                lo + i64::from(idx)
            } else {
                w.uni[idx as usize]
            }
        };
        if w.val_epoch.len() < k {
            w.val_epoch.resize(k, 0);
            w.visit_epoch.resize(k, 0);
            w.val_var.resize(k, 0);
            w.parent.resize(k, 0);
        }
        w.epoch = next_epoch(w.epoch, &mut w.val_epoch);
        let epoch = w.epoch;

        // Keep the pairs that survived, then augment for the views left unmatched.
        w.queue.clear();
        for (x, &v) in views.iter().enumerate() {
            w.mate[x] = NONE;
            let mv = mate_val[x];
            if mv == NO_VALUE || !ctx.contains(v, mv) {
                continue;
            }
            let idx = if dense {
                (mv - lo) as u32
            } else {
                w.uni.partition_point(|&u| u < mv) as u32
            };
            if w.val_epoch[idx as usize] != epoch {
                w.val_epoch[idx as usize] = epoch;
                w.val_var[idx as usize] = x as u32;
                w.mate[x] = idx;
            }
        }
        for x in 0..m {
            if w.mate[x] == NONE && !w.augment(x as u32) {
                return Err(Conflict);
            }
        }
        // Augmenting paths move other views' partners too.
        for (x, mv) in mate_val.iter_mut().enumerate() {
            *mv = value_of(w, w.mate[x]);
        }

        w.components(m);

        for (x, &v) in views.iter().enumerate() {
            let (start, end) = (w.adj_start[x] as usize, w.adj_start[x + 1] as usize);
            for p in start..end {
                let idx = w.adj[p];
                if idx == w.mate[x] || w.val_epoch[idx as usize] != epoch {
                    continue;
                }
                let y = w.val_var[idx as usize] as usize;
                let cy = w.comp[y] as usize;
                if cy == w.comp[x] as usize || w.comp_reach[cy] {
                    continue;
                }
                ctx.remove(v, w.adj_val[p])?;
                changed = true;
            }
        }
        Ok(changed)
    }

    /// Finds an augmenting path from the unmatched view `start`, breadth first, and flips it.
    fn augment(&mut self, start: u32) -> bool {
        self.bfs_epoch = next_epoch(self.bfs_epoch, &mut self.visit_epoch);
        let (epoch, bfs) = (self.epoch, self.bfs_epoch);
        self.queue.clear();
        self.queue.push(start);
        let mut head = 0;
        while head < self.queue.len() {
            let j = self.queue[head];
            head += 1;
            let (lo, hi) = (
                self.adj_start[j as usize] as usize,
                self.adj_start[j as usize + 1] as usize,
            );
            for p in lo..hi {
                let idx = self.adj[p];
                let i = idx as usize;
                if self.visit_epoch[i] == bfs {
                    continue;
                }
                self.visit_epoch[i] = bfs;
                if self.val_epoch[i] != epoch {
                    let (mut v, mut x) = (idx, j);
                    loop {
                        let old = self.mate[x as usize];
                        self.mate[x as usize] = v;
                        self.val_var[v as usize] = x;
                        self.val_epoch[v as usize] = epoch;
                        if x == start {
                            return true;
                        }
                        v = old;
                        x = self.parent[old as usize];
                    }
                }
                self.parent[i] = j;
                self.queue.push(self.val_var[i]);
            }
        }
        false
    }

    /// Tarjan's strongly connected components of the view graph over `0..m` (an arc `x → y`
    /// when `x` can take `y`'s matched value), iteratively. Each component also learns whether
    /// it reaches a free value: components complete in reverse topological order, so every
    /// component an arc leaves to is complete by then.
    fn components(&mut self, m: usize) {
        let epoch = self.epoch;
        self.index[..m].fill(NONE);
        self.stack.clear();
        self.calls.clear();
        let (mut counter, mut ncomp) = (0u32, 0u32);
        for root in 0..m as u32 {
            if self.index[root as usize] != NONE {
                continue;
            }
            self.visit(root, &mut counter);
            while let Some(&x) = self.calls.last() {
                let xi = x as usize;
                if self.pos[xi] < self.adj_start[xi + 1] {
                    let idx = self.adj[self.pos[xi] as usize];
                    self.pos[xi] += 1;
                    if self.val_epoch[idx as usize] != epoch {
                        self.reach[xi] = true;
                        continue;
                    }
                    let y = self.val_var[idx as usize];
                    let yi = y as usize;
                    if y == x {
                        continue;
                    }
                    if self.index[yi] == NONE {
                        self.visit(y, &mut counter);
                    } else if self.on_stack[yi] {
                        self.low[xi] = self.low[xi].min(self.index[yi]);
                    } else {
                        self.reach[xi] |= self.comp_reach[self.comp[yi] as usize];
                    }
                    continue;
                }
                self.calls.pop();
                if self.low[xi] == self.index[xi] {
                    let c = ncomp;
                    ncomp += 1;
                    let mut reach = false;
                    loop {
                        let y = self.stack.pop().expect("x is on the stack") as usize;
                        self.on_stack[y] = false;
                        self.comp[y] = c;
                        reach |= self.reach[y];
                        if y == xi {
                            break;
                        }
                    }
                    self.comp_reach[c as usize] = reach;
                }
                if let Some(&p) = self.calls.last() {
                    let pi = p as usize;
                    self.low[pi] = self.low[pi].min(self.low[xi]);
                    if !self.on_stack[xi] {
                        self.reach[pi] |= self.comp_reach[self.comp[xi] as usize];
                    }
                }
            }
        }
    }

    fn visit(&mut self, x: u32, counter: &mut u32) {
        let xi = x as usize;
        self.index[xi] = *counter;
        self.low[xi] = *counter;
        *counter += 1;
        self.pos[xi] = self.adj_start[xi];
        self.on_stack[xi] = true;
        self.reach[xi] = false;
        self.stack.push(x);
        self.calls.push(x);
    }
}

/// Advances a generation counter; on wrap-around, clears the marks so that none is stale.
fn next_epoch(epoch: u32, marks: &mut [u32]) -> u32 {
    if epoch == u32::MAX {
        marks.fill(0);
        1
    } else {
        epoch + 1
    }
}

/// Appends the values of `v` in increasing order.
fn push_values(ctx: &Context<'_>, v: IntView, out: &mut Vec<i64>) {
    let (lo, hi) = (ctx.min(v), ctx.max(v));
    let size = i64::from(ctx.size(v));
    if hi - lo + 1 == size {
        out.extend(lo..=hi);
    } else if hi - lo < 4 * size + 64 {
        out.extend((lo..=hi).filter(|&value| ctx.contains(v, value)));
    } else {
        // Sparse and wide: testing every value of the span would cost more than this
        // allocation (only above 16 values).
        out.extend(ctx.values(v));
    }
}
