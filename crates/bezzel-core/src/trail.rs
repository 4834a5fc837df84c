//! The trail: an undo stack of overwritten state.
//!
//! Each write to search state (a domain word, a variable's bounds and size, a propagator's
//! trailed integer, a propagator's active flag) first records the old value here. A checkpoint is
//! simply the trail's length; backtracking pops entries back to it, restoring each old value, so
//! no node ever clones the store. Writes within one checkpoint are recorded once per location:
//! each location keeps the *stamp* of the checkpoint in which it was last saved, and a new stamp
//! is issued at every checkpoint and every restore.

/// A trail position to return to.
pub type Checkpoint = usize;

/// One overwritten piece of state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    /// A variable's bounds and size before a change.
    Bounds {
        var: u32,
        min: i32,
        max: i32,
        size: u32,
    },
    /// A bitset word (global word index) before a change.
    Word { index: u32, old: u64 },
    /// A propagator-owned trailed integer.
    Int { slot: u32, old: i64 },
    /// A propagator that was active before it became subsumed.
    Active { prop: u32 },
}

/// The undo stack together with the stamp that tells whether a location is saved already.
#[derive(Debug, Clone, Default)]
pub(crate) struct Trail {
    entries: Vec<Entry>,
    stamp: u64,
}

impl Trail {
    pub(crate) fn new() -> Trail {
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
    pub(crate) fn push(&mut self, entry: Entry) {
        self.entries.push(entry);
    }

    /// Pops the newest entry above `to`, if any.
    #[inline]
    pub(crate) fn pop_above(&mut self, to: Checkpoint) -> Option<Entry> {
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
        let mut t = Trail::new();
        let s0 = t.stamp();
        let cp = t.checkpoint();
        assert_eq!(cp, 0);
        assert!(t.stamp() > s0);
        t.push(Entry::Int { slot: 0, old: 3 });
        t.push(Entry::Active { prop: 1 });
        assert_eq!(t.len(), 2);
        assert_eq!(t.pop_above(cp), Some(Entry::Active { prop: 1 }));
        assert_eq!(t.pop_above(cp), Some(Entry::Int { slot: 0, old: 3 }));
        assert_eq!(t.pop_above(cp), None);
        let s1 = t.stamp();
        t.restored();
        assert!(t.stamp() > s1);
    }
}
