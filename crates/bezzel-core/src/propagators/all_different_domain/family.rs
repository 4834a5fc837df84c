//! A family of domain-consistent all-differents that share their variables, as one propagator.
//!
//! Sudoku's 27 units, or the rows and columns of a Latin square, posted one by one cost a
//! propagator run per unit woken, and every run pays a fixed cost (reading masks, the value
//! pass, the matching, the write-back) whatever it prunes: about 34 runs per search node on
//! Sudoku. Here every cell's mask is read once per run, the cheap rules run word-parallel over
//! the units until none applies, and Régin's matching (the one-word one of
//! [`matching_small`](super::matching_small)) runs only then, and only on the units whose
//! masks changed since it last left them. The cheap rules, per unit:
//! - naked singles: a fixed cell's value leaves the other cells;
//! - counting: with `once`/`twice` masks or-ed over the unit's cells, a unit whose cells can
//!   take fewer values than it has cells fails, and in a unit with exactly as many values as
//!   cells every value is used, so a value in `once & !twice` fixes the one cell holding it
//!   (hidden singles).
//!
//! Each unit ends domain consistent (the matching's result, or unchanged since it was), so the
//! run reaches at least the fixpoint of the units posted one by one at the domain level. It
//! goes further where two units must both take every value of one set (as many values as
//! cells) and share two cells or more, as a Sudoku row and a box it crosses: the values the
//! first takes outside the shared cells are those the second takes outside them, so a value
//! the first cannot take outside them leaves the second's other cells, and the other way
//! round ("locked candidates", a rule of the pair that no single unit sees). Without such
//! pairs (Latin squares, units over different values) the domains are those of the units one
//! by one at every node, hence the same search tree; with them, the same solutions with
//! domains as narrow or narrower after the same decisions (Sudoku, first-fail: a quarter
//! fewer nodes on top1465, 44 % fewer on the 17-clue puzzles, 15 % on the hardest).
//!
//! The cheap rules run in sweeps over the units whose cells changed, the units with a newly
//! fixed cell first (their naked singles are certain work); the others, which can only have
//! hidden singles, wait until no naked single is pending. The order changes no fixpoint, only
//! the work to reach it and which unit a failure is charged to. At the cheap rules' fixpoint
//! the pairs' rule below runs before the matchings (it costs less and prunes more often),
//! and whatever either narrows goes back to the cheap rules first. The cells' masks live in
//! [`slots`](super::slots), the pairs' rule in [`locked`](super::locked).
//!
//! A unit's cached masks are those its last matching left (domain consistent by themselves):
//! a unit whose masks equal them needs no matching (units of nine cells keep none: see
//! `matching`). The cache is not trailed; after backtracking it is merely stale, which costs a
//! matching and never a wrong answer. The advice tokens name the units of the cells that
//! changed since the last run, so a run starts from those units only. The model forms
//! families of at most 64 units, over variables (not views) whose declared values fit one
//! window of 64 (see `Model::form_families`).
//!
//! The scan and update of a unit are the kernels of [`kernel`](super::kernel); those of 9-cell
//! units, and the whole run with them, have an AVX2 version ([`wide`](super::wide)), chosen
//! when the CPU has it; the results are the same bit for bit.

use super::kernel::{Kernel, Scalar, Work, open_cells, scan, update};
use super::locked::Pairs;
use super::matching_small::Small;
use super::slots::Slots;
use super::wide::Avx2;
use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup, WordView};
use crate::queue::Priority;
use crate::store::Conflict;
use crate::var::IntView;

/// No value matched (in `mates`), as in the single propagator.
const NO_VALUE: i64 = i64::MIN;

/// The units of `units` take pairwise distinct values each, at domain consistency.
#[derive(Debug, Clone)]
pub(in crate::propagators) struct AllDifferentFamily {
    /// Every view of the family once, by cell number.
    cells: Vec<IntView>,
    /// The cells as word views over one window, made at setup.
    words: Vec<WordView>,
    /// Per unit, the values its cells can ever take if they are as many as its cells (then
    /// every one of them is used), else 0; made at setup. In a fixed array of 64 (the most
    /// units a family has), which the hot paths index by `u & 63` without a bounds check.
    unit_exact: Box<[u64; 64]>,
    /// Every unit, as bits.
    all_units: u64,
    /// Per cell, the mask its slots hold (0 before the first run).
    synced: Vec<u64>,
    /// Per slot (a cell in a unit; a unit's slots are consecutive), its cell's current mask,
    /// with the tables between cells, slots and units, and the cells this run narrowed,
    /// which the write-back visits.
    slots_of_cells: Slots,
    /// Per slot, the mask its unit's last matching left (0: none yet).
    cache: Vec<u64>,
    /// Per slot, the value bit matched to its cell by its unit's last matching.
    mates: Vec<i64>,
    /// The matching's buffers, and the unfixed cells of the unit being matched: their slots
    /// and their matched values.
    small: Box<Small>,
    /// Pairs of units over the same values sharing two cells or more, for locked
    /// candidates; made at setup.
    pairs: Pairs,
    picked: [u32; 64],
    picked_mates: [i64; 64],
    /// The units of the rule that failed in the last run, as bits: what
    /// [`blame`](Propagator::blame) charges, for dom/wdeg.
    failed: u64,
    wide: Option<Avx2>,
    /// Whether this run started from every unit (the root of a puzzle). A field rather than
    /// a local of `run`: there it took a register from the sweeps (forum hardest +0.5 %
    /// instructions).
    fresh: bool,
}

impl AllDifferentFamily {
    /// The family of `units`, each a list of at most 64 views over distinct variables, at most
    /// 64 units; a view in several units is one cell.
    pub(in crate::propagators) fn new(units: &[Vec<IntView>]) -> AllDifferentFamily {
        assert!(units.len() <= 64, "a family has at most 64 units");
        let mut cells: Vec<IntView> = Vec::new();
        let mut index = std::collections::HashMap::new();
        let mut unit_start = vec![0];
        let mut unit_cells = Vec::new();
        let mut cell_units = Vec::new();
        for (u, unit) in units.iter().enumerate() {
            assert!(unit.len() <= 64, "a unit has at most 64 cells");
            for &v in unit {
                let c = *index.entry(v).or_insert_with(|| {
                    cells.push(v);
                    cell_units.push(0u64);
                    cells.len() - 1
                });
                cell_units[c] |= 1 << u;
                unit_cells.push(c as u32);
            }
            unit_start.push(unit_cells.len());
        }
        let n = cells.len();
        let flat = unit_cells.len();
        let mut unit_range = Box::new([[0u32; 2]; 64]);
        for (range, bounds) in unit_range.iter_mut().zip(unit_start.windows(2)) {
            *range = [bounds[0] as u32, bounds[1] as u32];
        }
        AllDifferentFamily {
            slots_of_cells: Slots::new(&unit_cells, cell_units, &unit_range),
            unit_exact: Box::new([0; 64]),

            cells,
            words: Vec::new(),
            all_units: u64::MAX >> (64 - units.len().max(1)),
            synced: vec![0; n],
            cache: vec![0; flat],
            mates: vec![NO_VALUE; flat],
            small: Box::new(Small::new()),
            pairs: Pairs::none(),
            picked: [0; 64],
            picked_mates: [NO_VALUE; 64],
            failed: 0,
            fresh: false,
            wide: Avx2::detect(),
        }
    }

    /// The cheap rules on unit `u` (naked and hidden singles, counting); returns the units
    /// of the cells it narrowed, and those of the cells it fixed (which have a naked single
    /// to apply: `u` itself among them if so).
    #[inline(always)]
    fn cheap<K: Kernel>(&mut self, kernel: K, u: usize) -> Result<(u64, u64), Conflict> {
        // Slices in locals: the compiler then keeps their addresses in registers across the
        // stores into them.
        let (start, unit) = self.slots_of_cells.unit_mut(u);
        let len = unit.len();
        // Units of 9 and 16 cells (Sudoku's, Latin squares') are scanned by loops the
        // compiler unrolls: 6 % fewer instructions on Sudoku than the loop of any length.
        let (once, twice, fixed, clash) = if let Ok(nine) = <&[u64; 9]>::try_from(&*unit) {
            kernel.scan9(nine)
        } else if let Ok(sixteen) = <&[u64; 16]>::try_from(&*unit) {
            scan(sixteen)
        } else {
            scan(unit)
        };
        // With as many values as cells, every value is used: a unit that can only take
        // fewer fails, and a value only one cell can take fixes it.
        let exact = self.unit_exact[u & 63];
        let (short, hidden) = if exact != 0 {
            // No count needed: the unit's values are known.
            (once != exact, exact & !twice)
        } else {
            let values = once.count_ones() as usize;
            let hidden = if values == len { once & !twice } else { 0 };
            (values < len, hidden)
        };
        // Two fixed cells with one value, or fewer values than cells.
        if clash != 0 || short {
            return Err(Conflict);
        }
        // Nothing to do when every fixed value is held by its cell alone and every hidden
        // value by a fixed cell: the usual case, after a decision elsewhere.
        if (fixed & twice) | (hidden & !fixed) == 0 {
            return Ok((0, 0));
        }
        // Without a branch per cell (which cells change is data): the new masks go to the
        // unit's slots, and the changed cells are noted as bits, to reach their other slots.
        let (mut changed, bad) = if unit.len() == 9 {
            kernel.update9(
                <&mut [u64; 9]>::try_from(unit).expect("9 cells"),
                fixed,
                hidden,
            )
        } else if unit.len() == 16 {
            update(
                <&mut [u64; 16]>::try_from(unit).expect("16 cells"),
                fixed,
                hidden,
            )
        } else {
            update(unit, fixed, hidden)
        };
        if bad {
            return Err(Conflict);
        }
        let (mut touched, mut fixing) = (0, 0);
        while changed != 0 {
            let slot = start + changed.trailing_zeros() as usize;
            changed &= changed - 1;
            let (new, units) = self.slots_of_cells.changed(slot);
            touched |= units;
            // A newly fixed cell's value must leave the other cells of its units (`u`'s
            // too: a hidden single's removals may make more hidden singles there).
            let single = new & new.wrapping_sub(1) == 0;
            fixing |= units & 0u64.wrapping_sub(u64::from(single));
        }
        Ok((touched, fixing))
    }

    /// Régin's filtering on unit `u` unless its masks are those its last matching left;
    /// returns the units of the cells it narrowed.
    #[inline(always)]
    fn matching<K: Kernel>(&mut self, kernel: K, u: usize) -> Result<u64, Conflict> {
        let (start, masks) = self.slots_of_cells.unit(u);
        let range = start..start + masks.len();
        // Units of nine cells keep no cache: on Sudoku their masks equal it in 1 % of the
        // matchings on the forum's hardest, 4 % at a 17-clue root, and testing and keeping it
        // cost more than those runs (1 % of the instructions).
        let nine = <&[u64; 9]>::try_from(masks).ok();
        let cached = nine.is_none();
        // The unfixed cells, as bits: the cheap rules took the fixed values out of them.
        let open = match nine {
            Some(nine) => kernel.open9(nine),
            None => {
                if masks == &self.cache[range.clone()] {
                    return Ok(0);
                }
                open_cells(masks)
            }
        };
        let k = open.count_ones() as usize;
        let exact = self.unit_exact[u & 63] != 0;
        // See below: with three open cells or fewer the unit is as Régin would leave it.
        if k <= 1 || (exact && k <= 3) {
            if cached {
                self.cache[range].copy_from_slice(masks);
            }
            return Ok(0);
        }
        // The open cells' masks, which the shape tests below read; their slots and matched
        // values only if Régin runs. Buffers in locals, indexed within their 64 entries: no
        // reload of the box's address and no bounds check per cell.
        let cur = &mut self.small.cur;
        let mut bits = open;
        for j in 0..k {
            cur[j & 63] = masks[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        let mut touched = 0;
        // At the cheap rules' fixpoint, in a unit with as many values as cells, each open value
        // lies in two open cells or more and each open cell holds two values or more. Régin
        // prunes or fails only where `s` open cells hold `s` values (a Hall set), with `s`
        // from 2 to `k - 2`: 1 and `k - 1` are the singles the cheap rules took (or fewer
        // values than cells, which the same shapes show). Up to `k` = 5 that is two cells
        // with one pair of values, or two values confined to one pair of cells (the
        // complement of a Hall set of 3); at `k` = 6 also three cells within three values (a
        // Hall set of 3, or a subset of a failing 4); at `k` = 7 also three values confined
        // to three cells (the complement of a Hall set of 4, or part of a failing 5; a Hall
        // set of 5 is the complement of two values in two cells): without those the unit is
        // domain consistent as it is. At `k` = 7 Régin pruned in 3 % of its runs on the
        // forum's hardest; at 8 the shapes would add sets of four (70 of them), which cost
        // as much as Régin.
        let settled = exact
            && match k {
                0..=3 => true,
                4 => !equal_pair(&self.small.cur[..4]),
                5 => {
                    !equal_pair(&self.small.cur[..5])
                        && !equal_pair(&cells_per_value::<5>(&self.small.cur[..5]))
                }
                6 => {
                    !equal_pair(&self.small.cur[..6])
                        && !equal_pair(&cells_per_value::<6>(&self.small.cur[..6]))
                        && !three_within_three(&self.small.cur[..6])
                }
                7 => {
                    !equal_pair(&self.small.cur[..7])
                        && !three_within_three(&self.small.cur[..7])
                        && {
                            let values = cells_per_value::<7>(&self.small.cur[..7]);
                            !equal_pair(&values) && !three_within_three(&values)
                        }
                }
                _ => false,
            };
        if !settled {
            let (picked, picked_mates) = (&mut self.picked, &mut self.picked_mates);
            let mut bits = open;
            for j in 0..k {
                let slot = range.start + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                picked[j & 63] = slot as u32;
                picked_mates[j & 63] = self.mates[slot];
            }
            // Values are bit positions: the window's first value is 0 here.
            self.small.regin_inlined(&mut self.picked_mates[..k], 0)?;
            for j in 0..k {
                let slot = self.picked[j] as usize;
                self.mates[slot] = self.picked_mates[j];
                let m = self.small.cur[j];
                if m != self.slots_of_cells.masks()[slot] {
                    touched |= self.slots_of_cells.narrow(slot, m);
                }
            }
        }
        if cached {
            self.cache[range.clone()].copy_from_slice(&self.slots_of_cells.masks()[range]);
        }
        Ok(touched)
    }

    /// One run: the cheap rules and the matchings to a fixpoint, then the write-back.
    #[inline(always)]
    fn run<K: Kernel>(&mut self, kernel: K, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.failed = 0;
        // The slots keep the masks of the last run's end: only the cells changed since
        // (by search, backtracking or other propagators) are copied again.
        {
            let word = ctx.word_reader();
            let now = self.words.iter().map(|&w| word(w));
            self.slots_of_cells.copy_in(&mut self.synced, now);
        }
        // Units whose cells did not change since the last run were left domain consistent.
        let mut dirty = ctx.advice() & self.all_units;
        let mut unmatched = dirty;
        let mut unlocked = dirty;
        let mut urgent = dirty;
        self.fresh = dirty == self.all_units;
        loop {
            // In sweeps: a unit that several cells of a sweep touch runs once for all of them.
            // The units the sweeps touched, for the matchings and the pairs.
            let mut swept = 0;
            while dirty != 0 {
                let pick = if urgent != 0 { urgent } else { dirty };
                let mut sweep = pick;
                dirty &= !pick;
                urgent &= !pick;
                while sweep != 0 {
                    let u = sweep.trailing_zeros() as usize;
                    sweep &= sweep - 1;
                    let (touched, fixing) = self
                        .cheap(kernel, u)
                        .inspect_err(|_| self.failed = 1 << u)?;
                    let next = touched & !(!fixing & (1 << u));
                    // Units still to come in this sweep see the changes anyway.
                    dirty |= next & !sweep;
                    urgent |= fixing & !sweep;
                    swept |= touched;
                }
            }
            unmatched |= swept;
            unlocked |= swept;
            // In a run over every unit (the root of a puzzle), once every cell is fixed the
            // cheap rules' fixpoint is a solution of every unit (each was scanned after its
            // last change: no value twice): the matchings and the pairs have nothing to do.
            if self.fresh && self.slots_of_cells.all_fixed() {
                break;
            }
            // At the cheap rules' fixpoint the pairs first: they cost less than a round of
            // matchings and prune more often (at a 17-clue root every round of them pruned,
            // against 29 % of Régin's runs; 17-clue −4 % instructions, forum −1 %).
            if unlocked != 0 && !self.pairs.is_empty() {
                let touched = self
                    .pairs
                    .run(&mut self.slots_of_cells, std::mem::take(&mut unlocked))
                    .map_err(|(conflict, pair)| {
                        self.failed = pair;
                        conflict
                    })?;
                if touched != 0 {
                    dirty |= touched;
                    urgent |= touched;
                    unmatched |= touched;
                    unlocked |= touched;
                    continue;
                }
            }
            let mut todo = std::mem::take(&mut unmatched);
            while todo != 0 {
                let u = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                // The unit itself is left domain consistent: the cheap rules have nothing
                // to do there.
                let touched = self
                    .matching(kernel, u)
                    .inspect_err(|_| self.failed = 1 << u)?;
                unlocked |= touched;
                dirty |= touched & !(1 << u);
                urgent |= touched & !(1 << u);
                unmatched |= dirty;
                if dirty != 0 {
                    // Back to the cheap rules, before more matchings: they are cheaper, and
                    // what they do the matchings need not find.
                    unmatched |= todo;
                    break;
                }
            }
            // Done when no rule has anything left: the pairs too, if a matching narrowed
            // cells of their units only within its own unit.
            if dirty == 0 && unmatched == 0 && (unlocked == 0 || self.pairs.is_empty()) {
                break;
            }
        }
        // Masks only narrow within a run: every cell noted differs from the store.
        let (words, synced) = (&self.words, &mut self.synced);
        self.slots_of_cells.drain_narrowed(|c, m| {
            synced[c] = m;
            ctx.keep_word(words[c], m).map(drop)
        })?;
        Ok(())
    }
}

impl Work for AllDifferentFamily {
    #[inline(always)]
    fn run_with<K: Kernel>(&mut self, kernel: K, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.run(kernel, ctx)
    }
}

impl Propagator for AllDifferentFamily {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for (&v, &units) in self.cells.iter().zip(self.slots_of_cells.units()) {
            s.subscribe_advised(v, Event::Domain, units);
        }
        let (base, words) = super::super::word_views(s, &self.cells)
            .expect("the model forms families over one window of 64 values");
        self.words = words;
        // The window holds every declared value, so each cell's range is a run of its bits.
        let ranges: Vec<u64> = self
            .cells
            .iter()
            .map(|&v| {
                let (lo, hi) = (s.declared_min(v) - base, s.declared_max(v) - base);
                (u64::MAX >> (63 - (hi - lo))) << lo
            })
            .collect();
        for u in 0..self.all_units.count_ones() as usize {
            let cells = self.slots_of_cells.cells_of_unit(u);
            let values = cells.iter().fold(0, |all, &c| all | ranges[c as usize]);
            self.unit_exact[u] = if values.count_ones() as usize == cells.len() {
                values
            } else {
                0
            };
        }
        // Anew on every setup (a copy of the model is set up again).
        let units = self.all_units.count_ones() as usize;
        self.pairs = Pairs::new(&self.slots_of_cells, &self.unit_exact[..units]);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let result = match self.wide {
            Some(avx2) => avx2.run(self, ctx),
            None => self.run(Scalar, ctx),
        };
        if result.is_err() {
            // A failed run leaves slots narrowed that the store never saw, some of them in
            // no note (a unit update that fails has written its slots before returning): the
            // next run copies every cell in again. Restoring only the noted cells was tried:
            // wrong answers until the failing update's cells were noted too, then no faster.
            self.synced.fill(0);
            self.slots_of_cells.clear_narrowed();
        }
        result.map(|()| PropStatus::Fixpoint)
    }

    fn priority(&self) -> Priority {
        Priority::Expensive
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        // Pair by pair: no allocation, as checked searches expect.
        (0..self.all_units.count_ones() as usize).all(|u| {
            let cells = self.slots_of_cells.cells_of_unit(u);
            (0..cells.len()).all(|i| {
                let v = a.value(self.cells[cells[i] as usize]);
                cells[i + 1..]
                    .iter()
                    .all(|&c| a.value(self.cells[c as usize]) != v)
            })
        })
    }

    fn name(&self) -> &'static str {
        "all_different(domain) family"
    }

    fn blame(&self, charge: &mut dyn FnMut(crate::VarId)) -> bool {
        // The cells of the units whose rule failed, each once (at the first of those units
        // it lies in): as if those units, posted one by one, had failed. Unit by unit rather
        // than a pass over every cell: a failure blames one unit or two.
        let all_units = self.slots_of_cells.units();
        let mut failed = self.failed;
        while failed != 0 {
            let u = failed.trailing_zeros();
            failed &= failed - 1;
            let earlier = self.failed & ((1 << u) - 1);
            for &c in self.slots_of_cells.cells_of_unit(u as usize) {
                if all_units[c as usize] & earlier == 0 {
                    charge(self.cells[c as usize].var());
                }
            }
        }
        self.failed != 0
    }
}

/// Whether two of `masks` are one and the same pair of bits (each mask has two bits or more).
#[inline(always)]
fn equal_pair(masks: &[u64]) -> bool {
    let mut found = false;
    for (i, &m) in masks.iter().enumerate() {
        let rest = m & m.wrapping_sub(1);
        let two = rest & rest.wrapping_sub(1) == 0;
        for &other in &masks[i + 1..] {
            found |= two & (other == m);
        }
    }
    found
}

/// Whether three of `masks` hold three values or fewer between them.
#[inline(always)]
fn three_within_three(masks: &[u64]) -> bool {
    let mut found = false;
    for i in 0..masks.len() {
        for j in i + 1..masks.len() {
            let two = masks[i] | masks[j];
            for &m in &masks[j + 1..] {
                // Three bits or fewer: nothing left after clearing the lowest three.
                let mut u = two | m;
                u &= u.wrapping_sub(1);
                u &= u.wrapping_sub(1);
                found |= u & u.wrapping_sub(1) == 0;
            }
        }
    }
    found
}

/// The transpose of `N` open cells' masks over their `N` values: per value (in order of its
/// bit), the cells that hold it, as bits.
#[inline(always)]
fn cells_per_value<const N: usize>(masks: &[u64]) -> [u64; N] {
    let mut values = masks.iter().fold(0, |all, &m| all | m);
    let mut cells = [0u64; N];
    for holders in &mut cells {
        let v = values.trailing_zeros();
        values &= values.wrapping_sub(1);
        for (i, &m) in masks.iter().enumerate() {
            *holders |= ((m >> v) & 1) << i;
        }
    }
    cells
}
