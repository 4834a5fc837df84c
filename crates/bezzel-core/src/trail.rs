//! The trail: an undo stack of overwritten state.
//!
//! Each write to search state first records the old value here (what is recorded is the
//! store's business: see `store::VarEntry` and `store::Entry`). Variables' states and all other
//! locations go on two separate stacks, so that undoing the common kind needs no test of what
//! kind each entry is; the two touch disjoint state, so the order between them does not matter.
//! A [`Mark`] is simply the two stacks' lengths; backtracking pops entries back to it,
//! restoring each old value, so no node ever clones the store. Writes within one mark are
//! recorded once per location: each location keeps the *stamp* of the mark in which it was
//! last saved, and a new stamp is issued at every mark and every restore. (A mark is not a
//! [`checkpoint`](crate::checkpoint): that is a journal file of a split run.)

/// A trail position to return to; the default is the very start, before any write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Mark {
    vars: usize,
    cells: usize,
}

/// The two undo stacks together with the stamp that tells whether a location is saved already.
#[derive(Debug, Clone, Default)]
pub(crate) struct Trail<V, C> {
    /// `vars[..top]` is the stack; the slots beyond are spare, written by
    /// [`push_var_if`](Trail::push_var_if) whether or not it keeps the entry.
    vars: Vec<V>,
    top: usize,
    cells: Vec<C>,
    stamp: u64,
}

impl<V: Copy, C> Trail<V, C> {
    pub(crate) fn new() -> Trail<V, C> {
        Trail {
            vars: Vec::new(),
            top: 0,
            cells: Vec::new(),
            stamp: 1,
        }
    }

    /// A mark of the current position; also starts a new stamp so the next write saves its old value.
    pub(crate) fn mark(&mut self) -> Mark {
        self.stamp += 1;
        Mark {
            vars: self.top,
            cells: self.cells.len(),
        }
    }

    #[inline]
    pub(crate) fn stamp(&self) -> u64 {
        self.stamp
    }

    /// Pushes `entry` if `keep`. The entry is written either way, so that whether a
    /// variable was saved already (a coin flip to the branch predictor) costs no branch.
    #[inline(always)]
    pub(crate) fn push_var_if(&mut self, entry: V, keep: bool) {
        if self.top == self.vars.len() {
            self.vars.push(entry);
        } else {
            self.vars[self.top] = entry;
        }
        self.top += usize::from(keep);
    }

    #[inline]
    pub(crate) fn push_cell(&mut self, entry: C) {
        self.cells.push(entry);
    }

    /// Pops every variable entry above `to` at once, newest last (restore them in reverse):
    /// one slice rather than a test per entry.
    #[inline]
    pub(crate) fn pop_vars_above(&mut self, to: Mark) -> &[V] {
        let from = to.vars.min(self.top);
        let popped = &self.vars[from..self.top];
        self.top = from;
        popped
    }

    /// Pops the newest other entry above `to`, if any.
    #[inline]
    pub(crate) fn pop_cell_above(&mut self, to: Mark) -> Option<C> {
        if self.cells.len() > to.cells {
            self.cells.pop()
        } else {
            None
        }
    }

    /// The variable entries pushed since `mark`, oldest first: with a mark taken just before
    /// a batch of writes, each variable the batch changed, once, with its state before.
    pub(crate) fn vars_since(&self, mark: Mark) -> &[V] {
        &self.vars[mark.vars.min(self.top)..self.top]
    }

    /// The other entries pushed since `mark`, oldest first.
    pub(crate) fn cells_since(&self, mark: Mark) -> &[C] {
        &self.cells[mark.cells.min(self.cells.len())..]
    }

    /// Called once a restore is complete: later writes must save again.
    pub(crate) fn restored(&mut self) {
        self.stamp += 1;
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.top + self.cells.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_lengths_and_stamps_advance() {
        let mut t = Trail::<(u32, i64), u8>::new();
        let s0 = t.stamp();
        let cp = t.mark();
        assert_eq!(cp, Mark::default());
        assert!(t.stamp() > s0);
        t.push_var_if((0, 3), true);
        t.push_var_if((5, 5), false);
        t.push_cell(9);
        t.push_var_if((1, 7), true);
        assert_eq!(t.len(), 3);
        assert_eq!(t.pop_vars_above(cp), [(0, 3), (1, 7)]);
        assert_eq!(t.pop_vars_above(cp), []);
        assert_eq!(t.pop_cell_above(cp), Some(9));
        assert_eq!(t.pop_cell_above(cp), None);
        let s1 = t.stamp();
        t.restored();
        assert!(t.stamp() > s1);
    }
}
