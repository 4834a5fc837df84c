//! A family of value-consistent all-differents over offset views of shared variables, as one
//! propagator.
//!
//! N-Queens states its diagonals as `all_different(q[i] + i)` and `all_different(q[i] - i)`
//! next to `all_different(q)`: three units over the same variables, each with its own
//! offsets. Posted one by one, fixing `q[i]` wakes three propagators, and each pays a run
//! (queue, dispatch, reading its live views) to remove one value per view. Here one run
//! removes, from every live variable, the values of all the units it lies in at once: per
//! unit, the values fixed in a round are a mask over the unit's window; a variable's view in
//! a unit is its own word shifted by a constant, so what leaves the variable is the OR of
//! the units' masks shifted back, one write per variable. Rounds repeat while removals fix
//! variables, as in [`value_pass_masks`](super::value_pass).
//!
//! The rules are those of the units' value passes (a fixed view's value leaves the other
//! views of its unit; two views fixed to one value fail), applied until none applies, so the
//! run reaches the units' common fixpoint: the same domains at every node as the units posted
//! one by one, hence the same search tree. The model forms a family from value-level units
//! that share variables, at most 64 variables in all, whose views are `x + c` (no variable
//! twice in a unit) with each unit's declared values in one window of 64 (see
//! `Model::form_families`).

use super::bits;
use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup, WordView};
use crate::store::{Conflict, TrailedInt};
use crate::var::IntView;

/// A variable's view in a unit: the unit (below 64), and the shift of the variable's own word
/// into the unit's window. Slots in fewer units than others are padded with links of an
/// empty `mask`, so that every slot has as many links and the loops over them never branch
/// on the number.
#[derive(Debug, Clone, Copy, Default)]
struct Link {
    unit: usize,
    shift: u32,
    /// All ones for a real link, zero for padding.
    mask: u64,
}

/// The units of `units` take pairwise distinct values each, at value consistency.
#[derive(Debug, Clone)]
pub(in crate::propagators) struct AllDifferentValueFamily {
    /// The units as posted, for checking assignments.
    units: Vec<Vec<IntView>>,
    /// The distinct variables, by slot (at most 64), as plain views.
    vars: Vec<IntView>,
    /// Per slot, the variable's own word (bit `i`: its declared minimum plus `i`).
    words: Vec<WordView>,
    /// Per slot, `per_slot` links: `links[slot * per_slot..][..per_slot]`.
    links: Vec<Link>,
    per_slot: usize,
    /// Per unit, the values fixed in the current round, as bits of its window.
    fixed: [u64; 64],
    units_len: usize,
    /// When every slot lies in every unit (N-Queens), the shifts alone, slot by slot in unit
    /// order (`units_len` per slot), for a path with the units' masks in registers; else
    /// empty.
    shifts: Vec<u32>,
    /// Per slot, the slots that share a unit with it.
    peers: Vec<u64>,
    /// The bitmask of slots not yet fixed.
    live: Option<TrailedInt>,
}

impl AllDifferentValueFamily {
    /// The family of `units` (at most 64), each a list of views `x + c` over distinct
    /// variables, at most 64 variables in all, the values of each unit's views within one
    /// window of 64 (the model checks all of it before forming a family).
    pub(in crate::propagators) fn new(units: &[Vec<IntView>]) -> AllDifferentValueFamily {
        assert!(units.len() <= 64, "a family has at most 64 units");
        let mut vars: Vec<IntView> = units
            .iter()
            .flatten()
            .map(|v| IntView::from(v.var()))
            .collect();
        vars.sort_unstable_by_key(|v| v.var());
        vars.dedup_by_key(|v| v.var());
        assert!(vars.len() <= 64, "a family has at most 64 variables");
        AllDifferentValueFamily {
            units: units.to_vec(),
            vars,
            words: Vec::new(),
            links: Vec::new(),
            per_slot: 0,
            fixed: [0; 64],
            units_len: units.len(),
            shifts: Vec::new(),
            peers: Vec::new(),
            live: None,
        }
    }

    /// The links of slot `j`.
    #[inline(always)]
    fn links_of(&self, j: usize) -> &[Link] {
        &self.links[j * self.per_slot..(j + 1) * self.per_slot]
    }

    /// The values that leave slot `j` in this round: those its units fixed, each shifted
    /// back from the unit's window into the variable's word.
    #[inline(always)]
    fn removed_from(&self, j: usize) -> u64 {
        let mut r = 0;
        for l in self.links_of(j) {
            r |= (self.fixed[l.unit & 63] >> l.shift) & l.mask;
        }
        r
    }

    /// Takes in slot `j`, fixed with `word`: its value joins each of its units' round masks;
    /// a value there already is a clash.
    #[inline(always)]
    fn note(&mut self, j: usize, word: u64, clash: &mut u64) {
        let per = self.per_slot;
        for i in j * per..(j + 1) * per {
            let l = self.links[i];
            let v = (word << l.shift) & l.mask;
            let f = &mut self.fixed[l.unit & 63];
            *clash |= *f & v;
            *f |= v;
        }
    }

    /// The rounds of the value pass from the slots of `found` (fixed since the last run), on
    /// the live slots `live`. Returns the live slots left. The round masks are empty before
    /// and after, failure or not. Kept out of line, so that the complete path in
    /// `propagate` stays as compiled without it.
    #[inline(never)]
    fn run(&mut self, ctx: &mut Context<'_>, live: u64, found: u64) -> Result<u64, Conflict> {
        let result = self.rounds(ctx, live, found);
        if result.is_err() {
            self.fixed[..self.units_len].fill(0);
        }
        result
    }

    #[inline(always)]
    fn rounds(
        &mut self,
        ctx: &mut Context<'_>,
        mut live: u64,
        mut found: u64,
    ) -> Result<u64, Conflict> {
        while found != 0 {
            let mut clash = 0;
            let mut scope = 0;
            for j in bits(found) {
                let w = ctx.word(self.words[j]);
                self.note(j, w, &mut clash);
                scope |= self.peers[j];
            }
            if clash != 0 {
                return Err(Conflict);
            }
            live &= !found;
            // Which live slots lose a value, as a bitmask without a branch per slot; only
            // real removals branch. Only the slots sharing a unit with a fixed one can (in a
            // Latin square, a row and a column of the grid).
            let mut hits = 0u64;
            for j in bits(live & scope) {
                hits |= u64::from(ctx.word(self.words[j]) & self.removed_from(j) != 0) << j;
            }
            found = 0;
            for j in bits(hits) {
                let r = self.removed_from(j);
                let event = ctx.keep_word(self.words[j], !r)?;
                found |= u64::from(event == Some(Event::Fixed)) << j;
            }
            self.fixed[..self.units_len].fill(0);
        }
        Ok(live)
    }
}

/// [`AllDifferentValueFamily::run`] for a family of `K` units that each hold every slot:
/// `shifts` holds `K` shifts per slot, and the units' round masks live in registers.
#[inline(always)]
fn complete<const K: usize>(
    words: &[WordView],
    shifts: &[u32],
    ctx: &mut Context<'_>,
    mut live: u64,
    mut found: u64,
) -> Result<u64, Conflict> {
    let (shifts, _) = shifts.as_chunks::<K>();
    while found != 0 {
        let mut fixed = [0u64; K];
        let mut clash = 0;
        for j in bits(found) {
            let w = ctx.word(words[j]);
            let s = &shifts[j];
            for k in 0..K {
                let v = w << s[k];
                clash |= fixed[k] & v;
                fixed[k] |= v;
            }
        }
        if clash != 0 {
            return Err(Conflict);
        }
        live &= !found;
        let removed = |j: usize| {
            let s = &shifts[j];
            let mut r = 0;
            for k in 0..K {
                r |= fixed[k] >> s[k];
            }
            r
        };
        let mut hits = 0u64;
        for j in bits(live) {
            hits |= u64::from(ctx.word(words[j]) & removed(j) != 0) << j;
        }
        found = 0;
        for j in bits(hits) {
            let event = ctx.keep_word(words[j], !removed(j))?;
            found |= u64::from(event == Some(Event::Fixed)) << j;
        }
    }
    Ok(live)
}

impl Propagator for AllDifferentValueFamily {
    fn setup(&mut self, s: &mut Setup<'_>) {
        let slot_of = |x: IntView| {
            self.vars
                .binary_search_by_key(&x.var(), |v| v.var())
                .expect("every variable has a slot")
        };
        let mut links: Vec<Vec<Link>> = vec![Vec::new(); self.vars.len()];
        for (u, unit) in self.units.iter().enumerate() {
            let base = unit
                .iter()
                .map(|&v| s.declared_min(v))
                .min()
                .expect("a unit has views");
            for &v in unit {
                // The view's declared minimum is the variable's plus the offset: bit 0 of
                // the variable's word is bit `shift` of the unit's window.
                links[slot_of(v)].push(Link {
                    unit: u,
                    shift: (s.declared_min(v) - base) as u32,
                    mask: u64::MAX,
                });
            }
        }
        self.per_slot = links.iter().map(Vec::len).max().unwrap_or(0);
        let members: Vec<u64> = self
            .units
            .iter()
            .map(|unit| unit.iter().fold(0, |m, &v| m | 1 << slot_of(v)))
            .collect();
        self.peers = links
            .iter()
            .map(|l| l.iter().fold(0, |p, link| p | members[link.unit]))
            .collect();
        let complete = links.iter().all(|l| {
            l.len() == self.units_len && l.iter().enumerate().all(|(u, link)| link.unit == u)
        });
        if complete {
            self.shifts = links.iter().flatten().map(|l| l.shift).collect();
        }
        self.links = links
            .into_iter()
            .flat_map(|mut l| {
                l.resize(self.per_slot, Link::default());
                l
            })
            .collect();
        self.words = self
            .vars
            .iter()
            .map(|&x| {
                s.word_view(x, s.declared_min(x))
                    .expect("the model checked the windows")
            })
            .collect();
        for (j, &x) in self.vars.iter().enumerate() {
            s.subscribe_advised(x, Event::Fixed, 1 << j);
        }
        let all = u64::MAX >> (64 - self.vars.len());
        self.live = Some(s.trailed_int(all as i64));
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let Some(live_slot) = self.live else {
            return Ok(PropStatus::Fixpoint);
        };
        let live = ctx.int(live_slot) as u64;
        let found = if ctx.advice() == u64::MAX {
            // Run without an event: any slot may be fixed.
            let mut found = 0;
            for j in bits(live) {
                let w = ctx.word(self.words[j]);
                found |= u64::from(w & w.wrapping_sub(1) == 0) << j;
            }
            found
        } else {
            ctx.advice() & live
        };
        let live = match (self.shifts.is_empty(), self.units_len) {
            (false, 2) => complete::<2>(&self.words, &self.shifts, ctx, live, found)?,
            (false, 3) => complete::<3>(&self.words, &self.shifts, ctx, live, found)?,
            (false, 4) => complete::<4>(&self.words, &self.shifts, ctx, live, found)?,
            _ => self.run(ctx, live, found)?,
        };
        ctx.set_int(live_slot, live as i64);
        Ok(PropStatus::subsumed_if(live.count_ones() <= 1))
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        self.units
            .iter()
            .all(|unit| super::pairwise_different(unit, a))
    }

    fn name(&self) -> &'static str {
        "all_different(value) family"
    }
}
