//! The trail: an undo stack of overwritten state.
//!
//! Each write to search state first records the old value here (what is recorded is the
//! store's business: see `store::Entry`). A checkpoint is
//! simply the trail's length; backtracking pops entries back to it, restoring each old value, so
//! no node ever clones the store. Writes within one checkpoint are recorded once per location:
//! each location keeps the *stamp* of the checkpoint in which it was last saved, and a new stamp
//! is issued at every checkpoint and every restore.

/// A trail position to return to.
pub type Checkpoint = usize;

/// The undo stack together with the stamp that tells whether a location is saved already.
#[derive(Debug, Clone, Default)]
pub(crate) struct Trail<E> {
    entries: Vec<E>,
    stamp: u64,
}

impl<E> Trail<E> {
    pub(crate) fn new() -> Trail<E> {
        Trail {
            entries: Vec::new(),
            stamp: 1,
        }
    }

    /// Current checkpoint; also starts a new stamp so the next write saves its old value.
    pub(crate) fn checkpoint(&mut self) -> Checkpoint {
        self.stamp += 1;
        self.entries.len()
    }

    #[inline]
    pub(crate) fn stamp(&self) -> u64 {
        self.stamp
    }

    #[inline]
    pub(crate) fn push(&mut self, entry: E) {
        self.entries.push(entry);
    }

    /// Pops the newest entry above `to`, if any.
    #[inline]
    pub(crate) fn pop_above(&mut self, to: Checkpoint) -> Option<E> {
        if self.entries.len() > to {
            self.entries.pop()
        } else {
            None
        }
    }

    /// Called once a restore is complete: later writes must save again.
    pub(crate) fn restored(&mut self) {
        self.stamp += 1;
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_are_lengths_and_stamps_advance() {
        let mut t = Trail::<(u32, i64)>::new();
        let s0 = t.stamp();
        let cp = t.checkpoint();
        assert_eq!(cp, 0);
        assert!(t.stamp() > s0);
        t.push((0, 3));
        t.push((1, 7));
        assert_eq!(t.len(), 2);
        assert_eq!(t.pop_above(cp), Some((1, 7)));
        assert_eq!(t.pop_above(cp), Some((0, 3)));
        assert_eq!(t.pop_above(cp), None);
        let s1 = t.stamp();
        t.restored();
        assert!(t.stamp() > s1);
    }
}
