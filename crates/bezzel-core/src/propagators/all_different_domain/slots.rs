//! The family's working copy of its cells: one mask per slot (a cell in a unit), so that a
//! unit reads its cells' masks in one sweep, and the tables that keep a cell's slots equal.
//!
//! A cell's mask lives in every slot of it; narrowing a cell in one unit copies the mask to
//! its other slots and notes the cell for the write-back. That copy runs for every cell a
//! unit's rules change (about 320 times per 17-clue Sudoku, 25 times per search node on the
//! forum's hardest), and with bounds checks on each of its five table reads it was the
//! family's most expensive loop.
//!
//! Why `unsafe` here (with [`wide`](super::wide), the only modules of the crate that have
//! it): the hot methods index the tables without bounds checks. Measured against the same
//! code with checked indexing (the commit before this module), pinned, alternating, medians
//! of 11 and 9, same nodes: 17-clue 0.468 → 0.420 s, the forum's hardest 0.153 → 0.142 s;
//! instructions 216 M → 204 M on 2,000 17-clue puzzles, 1,470 M → 1,406 M on 400 of the
//! forum's (`docs/performance-notes.md`, "The family's sixth pass"). The proof is the same
//! at every site: [`Slots::new`] checks, once, that every index a table holds is within the
//! table it indexes, and no table changes length afterwards (the fields are private to this
//! module, which only ever hands out slices of the masks, whose values callers may change
//! but not their number).

#![allow(unsafe_code)]

/// One slot: its cell, and the cell's other slots, padded with the spare slot (which the
/// copies write and nothing reads as a cell's mask).
#[derive(Debug, Clone, Copy)]
struct Link {
    cell: u32,
    others: [u32; 3],
    /// The cell's units, as bits: here rather than read through `cell`, one load fewer on
    /// the path from a changed slot to the units it touches.
    units: u64,
}

/// A list of slots, checked against the [`Slots`] that made it: every entry is below
/// `bound`, that `Slots`' number of masks.
#[derive(Debug, Clone)]
pub(super) struct SlotList {
    slots: Box<[u32]>,
    bound: usize,
}

impl SlotList {
    /// No slots.
    pub(super) fn empty() -> SlotList {
        SlotList {
            slots: Box::new([]),
            bound: 0,
        }
    }

    /// Entry `i`.
    #[inline]
    pub(super) fn get(&self, i: usize) -> usize {
        self.slots[i] as usize
    }
}

/// The slots' masks and the tables between cells and slots; see the [module docs](self).
#[derive(Debug, Clone)]
pub(super) struct Slots {
    /// Per slot, its cell's mask, then the spare slot.
    masks: Box<[u64]>,
    /// Per slot; `masks.len() == links.len() + 1`, every `cell` below `units.len()`, every
    /// one of `others` below `masks.len()`. Empty where a cell lies in more than four units
    /// (then `start` and `all` list the slots).
    links: Box<[Link]>,
    /// Per slot, its cell (every entry below `units.len()`): where `links` is empty.
    cell_of: Box<[u32]>,
    /// Per cell, its first slot (every entry below `links.len()` where `links` is not empty).
    first: Box<[u32]>,
    /// Per cell, the units it lies in, as bits.
    units: Box<[u64]>,
    /// Per cell, one bit: narrowed since the last write-back. `units.len()` bits or more.
    narrowed: Box<[u64]>,
    /// Per unit (and `[0, 0]` past the units), the bounds of its slots: `start <= end <
    /// masks.len()`.
    ranges: Box<[[u32; 2]; 64]>,
    /// The first units' slots, as few as hold every cell (Sudoku: the rows), for
    /// [`all_fixed`](Slots::all_fixed); at most `masks.len() - 1`.
    cover: usize,
    /// Cell `c`'s slots are `all[start[c]..start[c + 1]]`.
    start: Box<[usize]>,
    all: Box<[u32]>,
}

impl Slots {
    /// The slots of cells `cell_of` (one entry per slot, in slot order), for cells that lie
    /// in the units `units` (one entry per cell, as bits); unit `u` has the slots
    /// `ranges[u][0]..ranges[u][1]` (`[0, 0]` past the units).
    pub(super) fn new(cell_of: &[u32], units: Vec<u64>, ranges: &[[u32; 2]; 64]) -> Slots {
        let cells = units.len();
        let mut per_cell: Vec<Vec<u32>> = vec![Vec::new(); cells];
        for (slot, &c) in cell_of.iter().enumerate() {
            per_cell[c as usize].push(slot as u32);
        }
        let mut start = vec![0];
        let mut all = Vec::with_capacity(cell_of.len());
        for mine in &per_cell {
            all.extend(mine);
            start.push(all.len());
        }
        let spare = cell_of.len() as u32;
        let links: Vec<Link> = if per_cell.iter().all(|mine| mine.len() <= 4) {
            cell_of
                .iter()
                .enumerate()
                .map(|(slot, &cell)| {
                    let mut others = [spare; 3];
                    let rest = per_cell[cell as usize]
                        .iter()
                        .filter(|&&o| o as usize != slot);
                    for (o, &other) in others.iter_mut().zip(rest) {
                        *o = other;
                    }
                    Link {
                        cell,
                        others,
                        units: units[cell as usize],
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        let first: Vec<u32> = per_cell.iter().map(|mine| mine[0]).collect();
        let mut cover = cell_of.len();
        let mut seen = vec![false; cells];
        let mut unseen = cells;
        for &[start, end] in ranges.iter() {
            for &c in &cell_of[start as usize..end as usize] {
                unseen -= usize::from(!std::mem::replace(&mut seen[c as usize], true));
            }
            if unseen == 0 {
                cover = end as usize;
                break;
            }
        }
        let slots = Slots {
            masks: vec![0; cell_of.len() + 1].into_boxed_slice(),
            links: links.into_boxed_slice(),
            cell_of: cell_of.into(),
            first: first.into_boxed_slice(),
            narrowed: vec![0; cells.div_ceil(64)].into_boxed_slice(),
            units: units.into_boxed_slice(),
            start: start.into_boxed_slice(),
            all: all.into_boxed_slice(),
            ranges: Box::new(*ranges),
            cover,
        };
        // The invariants the unchecked reads rely on (see the fields and the module docs).
        let (n, cells) = (slots.masks.len(), slots.units.len());
        assert!(slots.cell_of.iter().all(|&c| (c as usize) < cells));
        assert!(slots.narrowed.len() * 64 >= cells);
        assert!(
            slots
                .ranges
                .iter()
                .all(|&[start, end]| start <= end && (end as usize) < n)
        );
        if !slots.links.is_empty() {
            assert_eq!(n, slots.links.len() + 1);
            assert!(
                slots.links.iter().all(
                    |l| (l.cell as usize) < cells && l.others.iter().all(|&o| (o as usize) < n)
                )
            );
            assert!(
                slots
                    .first
                    .iter()
                    .all(|&s| (s as usize) < slots.links.len())
            );
        }
        slots
    }

    /// Every slot's mask (and the spare's, last).
    #[inline(always)]
    pub(super) fn masks(&self) -> &[u64] {
        &self.masks
    }

    /// The first slot of unit `u` (below 64) and the masks of its slots.
    #[inline(always)]
    pub(super) fn unit(&self, u: usize) -> (usize, &[u64]) {
        let slots = self.range(u);
        // SAFETY: `start <= end < masks.len()` for every range (checked in `new`).
        (slots.start, unsafe { self.masks.get_unchecked(slots) })
    }

    /// [`unit`](Slots::unit), to change the masks.
    #[inline(always)]
    pub(super) fn unit_mut(&mut self, u: usize) -> (usize, &mut [u64]) {
        let slots = self.range(u);
        // SAFETY: `start <= end < masks.len()` for every range (checked in `new`).
        (slots.start, unsafe { self.masks.get_unchecked_mut(slots) })
    }

    /// Whether every cell's mask has one value (at most). A cell's slots all hold its mask,
    /// so one slot per cell is enough: a third of Sudoku's.
    #[inline(always)]
    pub(super) fn all_fixed(&self) -> bool {
        let slots = &self.masks[..self.cover];
        slots
            .iter()
            .fold(0, |open, &m| open | (m & m.wrapping_sub(1)))
            == 0
    }

    /// The slots of unit `u` (below 64; none past the units).
    #[inline(always)]
    pub(super) fn range(&self, u: usize) -> std::ops::Range<usize> {
        let [start, end] = self.ranges[u & 63];
        start as usize..end as usize
    }

    /// The cells of unit `u`, slot by slot.
    #[inline]
    pub(super) fn cells_of_unit(&self, u: usize) -> &[u32] {
        &self.cell_of[self.range(u)]
    }

    /// Per cell, its units as bits.
    #[inline]
    pub(super) fn units(&self) -> &[u64] {
        &self.units
    }

    /// After a unit's rules wrote a new mask into `slot`: copies it into the cell's other
    /// slots and notes the cell narrowed; returns the mask and the cell's units.
    #[inline(always)]
    pub(super) fn changed(&mut self, slot: usize) -> (u64, u64) {
        let Some(&Link {
            cell,
            others,
            units,
        }) = self.links.get(slot)
        else {
            return self.changed_by_lists(slot);
        };
        let c = cell as usize;
        let masks: &mut [u64] = &mut self.masks;
        // SAFETY: `slot < links.len() < masks.len()`, each of `others` is below
        // `masks.len()` and `c / 64 < narrowed.len()` (checked in `new`).
        unsafe {
            let new = *masks.get_unchecked(slot);
            for o in others {
                *masks.get_unchecked_mut(o as usize) = new;
            }
            *self.narrowed.get_unchecked_mut(c / 64) |= 1 << (c % 64);
            (new, units)
        }
    }

    /// [`changed`](Slots::changed) where cells lie in more than four units.
    #[cold]
    fn changed_by_lists(&mut self, slot: usize) -> (u64, u64) {
        let (c, new) = (self.cell_of[slot] as usize, self.masks[slot]);
        for &other in &self.all[self.start[c]..self.start[c + 1]] {
            self.masks[other as usize] = new;
        }
        self.narrowed[c / 64] |= 1 << (c % 64);
        (new, self.units[c])
    }

    /// Gives the cell of `slot` the mask `new` in every slot and notes it narrowed; returns
    /// the cell's units.
    #[inline(always)]
    pub(super) fn narrow(&mut self, slot: usize, new: u64) -> u64 {
        self.masks[slot] = new;
        self.changed(slot).1
    }

    /// Copies into the slots every cell whose mask in `now` (one per cell, in order) differs
    /// from `synced` (the masks the slots hold), and updates `synced`. These are changes made
    /// outside the family: they are not noted for the write-back.
    #[inline(always)]
    pub(super) fn copy_in(&mut self, synced: &mut [u64], now: impl Iterator<Item = u64>) {
        if self.links.is_empty() {
            for (c, (synced, m)) in synced.iter_mut().zip(now).enumerate() {
                if m != *synced {
                    *synced = m;
                    for &slot in &self.all[self.start[c]..self.start[c + 1]] {
                        self.masks[slot as usize] = m;
                    }
                }
            }
            return;
        }
        // The tables in locals, so that the compiler keeps their addresses in registers
        // across the stores into the masks.
        let (masks, links): (&mut [u64], &[Link]) = (&mut self.masks, &self.links);
        for ((synced, m), &first) in synced.iter_mut().zip(now).zip(&*self.first) {
            if m != *synced {
                *synced = m;
                // SAFETY: `first < links.len() < masks.len()` and each of the slot's
                // `others` is below `masks.len()` (checked in `new`).
                unsafe {
                    let others = links.get_unchecked(first as usize).others;
                    *masks.get_unchecked_mut(first as usize) = m;
                    for o in others {
                        *masks.get_unchecked_mut(o as usize) = m;
                    }
                }
            }
        }
    }

    /// `slots` as a list checked against these masks, for [`or_of`](Slots::or_of).
    pub(super) fn list(&self, slots: Vec<u32>) -> SlotList {
        let bound = self.masks.len();
        assert!(slots.iter().all(|&s| (s as usize) < bound));
        SlotList {
            slots: slots.into_boxed_slice(),
            bound,
        }
    }

    /// The or of the masks of the slots `list[range]`; six slots (Sudoku's pairs) unrolled.
    #[inline(always)]
    pub(super) fn or_of(&self, list: &SlotList, range: std::ops::Range<usize>) -> u64 {
        let slots = &list.slots[range];
        let masks: &[u64] = &self.masks;
        // The list's entries are below its bound (checked when it was made), and no `Slots`
        // has fewer masks than the one that made the list: the reads below stay in bounds.
        assert!(list.bound <= masks.len());
        // SAFETY: every entry of `list` is below `list.bound <= masks.len()`.
        let mask = |s: &u32| unsafe { *masks.get_unchecked(*s as usize) };
        match <&[u32; 6]>::try_from(slots) {
            Ok(six) => six.iter().fold(0, |all, s| all | mask(s)),
            Err(_) => slots.iter().fold(0, |all, s| all | mask(s)),
        }
    }

    /// Calls `f` with each cell noted narrowed and its mask, in cell order, and clears the
    /// notes; stops at the first error.
    #[inline(always)]
    pub(super) fn drain_narrowed<E>(
        &mut self,
        mut f: impl FnMut(usize, u64) -> Result<(), E>,
    ) -> Result<(), E> {
        for w in 0..self.narrowed.len() {
            let mut bits = std::mem::take(&mut self.narrowed[w]);
            while bits != 0 {
                let c = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                f(c, self.masks[self.first[c] as usize])?;
            }
        }
        Ok(())
    }

    /// Forgets every note of a narrowed cell.
    pub(super) fn clear_narrowed(&mut self) {
        self.narrowed.fill(0);
    }
}
