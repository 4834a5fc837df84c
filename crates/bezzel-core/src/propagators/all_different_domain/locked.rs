//! Locked candidates: the family's rule for pairs of units.
//!
//! Two units that must both take every value of one set (as many values as cells) and share
//! two cells or more, neither inside the other (Sudoku: a row or column and a box it
//! crosses), take the same values outside the shared cells: so the cells of one outside the
//! other keep only the values the other's cells outside the first can take. Most of the
//! rule's work is or-ing those masks (six per side in Sudoku, for every pair whose units
//! changed), which [`Slots::or_of`] does without bounds checks.

use super::slots::{SlotList, Slots};
use crate::store::Conflict;

/// The pairs of a family.
#[derive(Debug, Clone)]
pub(super) struct Pairs {
    /// Per pair, its two units as bits.
    units: Vec<u64>,
    /// Per pair, the bounds in `outside` of the slots of its first unit outside the second,
    /// then of the second's outside the first.
    bounds: Vec<[u32; 3]>,
    outside: SlotList,
}

impl Pairs {
    /// The pairs among the first `exact.len()` units of `slots`, where `exact[u]` is the set
    /// of values unit `u` must take (0 for none).
    pub(super) fn new(slots: &Slots, exact: &[u64]) -> Pairs {
        let cells_of = |u: usize| slots.cells_of_unit(u);
        // The slots of `first` whose cells are not in `second`.
        let outside = |first: usize, second: usize| {
            let others = cells_of(second);
            slots
                .range(first)
                .zip(cells_of(first))
                .filter(|(_, c)| !others.contains(c))
                .map(|(slot, _)| slot as u32)
        };
        let (mut units, mut bounds, mut list) = (Vec::new(), Vec::new(), Vec::new());
        for a in 0..exact.len() {
            for b in a + 1..exact.len() {
                if exact[a] == 0 || exact[a] != exact[b] {
                    continue;
                }
                let (ca, cb) = (cells_of(a), cells_of(b));
                let shared = ca.iter().filter(|c| cb.contains(c)).count();
                if shared < 2 || shared == ca.len() || shared == cb.len() {
                    continue;
                }
                let start = list.len() as u32;
                list.extend(outside(a, b));
                let mid = list.len() as u32;
                list.extend(outside(b, a));
                bounds.push([start, mid, list.len() as u32]);
                units.push((1 << a) | (1 << b));
            }
        }
        Pairs {
            units,
            bounds,
            outside: slots.list(list),
        }
    }

    /// No pairs (a family before its setup).
    pub(super) fn none() -> Pairs {
        Pairs {
            units: Vec::new(),
            bounds: Vec::new(),
            outside: SlotList::empty(),
        }
    }

    /// Whether there are no pairs.
    pub(super) fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// The rule on the pairs that touch `units`; returns the units of the cells it narrowed,
    /// or on failure the pair that failed (as unit bits).
    #[inline(always)]
    pub(super) fn run(&self, slots: &mut Slots, units: u64) -> Result<u64, (Conflict, u64)> {
        let mut touched = 0;
        for (&pair, bounds) in self.units.iter().zip(&self.bounds) {
            if pair & units == 0 {
                continue;
            }
            let [a, mid, end] = bounds.map(|b| b as usize);
            let (va, vb) = (
                slots.or_of(&self.outside, a..mid),
                slots.or_of(&self.outside, mid..end),
            );
            if va == vb {
                continue;
            }
            for (rest, keep) in [(mid..end, va), (a..mid, vb)] {
                for i in rest {
                    let slot = self.outside.get(i);
                    let old = slots.masks()[slot];
                    let new = old & keep;
                    if new != old {
                        if new == 0 {
                            return Err((Conflict, pair));
                        }
                        touched |= slots.narrow(slot, new);
                    }
                }
            }
        }
        Ok(touched)
    }
}
