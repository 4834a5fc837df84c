//! A family of domain-consistent all-differents over offset views of shared variables, as one
//! propagator.
//!
//! N-Queens at the domain level posts `all_different(q)`, `all_different(q[i] + i)` and
//! `all_different(q[i] - i)`. One by one, a decision wakes each unit twice (its value pass,
//! then its matching), and every run reads the unit's masks, runs the value pass and writes
//! back what changed: about five runs per node. Here one run reads each variable's word once
//! and keeps the domains in registers and one buffer until the end:
//! - the value pass of all units at once, in rounds (a fixed variable's value leaves the
//!   other variables of each of its units, shifted by the offsets; as in
//!   [`AllDifferentValueFamily`](crate::propagators) of the value level);
//! - then Régin's matching (the one-word one of [`matching_small`](super::matching_small)) on
//!   one unit whose variables changed since it was last left domain consistent, over its
//!   unfixed variables; what it fixes goes back to the value pass, what it narrows makes the
//!   other units holding those variables dirty;
//! - until no unit is dirty and nothing is fixed; then each changed variable is written once.
//!
//! Every unit ends domain consistent, so the run reaches the units' common fixpoint: the same
//! domains at every node as the units posted one by one, hence the same search tree. Which
//! units are dirty at the start comes from the advice (each variable's subscription carries
//! its slot's bit); the matchings are kept per unit between runs as a cache, not trailed, as
//! in the single propagator. The model forms such a family from domain-level units that share
//! variables, at least one of them with an offset, at most 64 units and 64 variables, each
//! unit's views `x + c` over distinct variables with declared values in one window of 64 (see
//! `Model::form_families`). Plain units sharing variables form the other kind of family
//! (`family.rs`).

use super::matching_small::Small;
use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup, WordView};
use crate::propagators::bits;
use crate::queue::Priority;
use crate::store::{Conflict, TrailedInt};
use crate::var::IntView;

/// No value matched to a view, as in the single propagator.
const NO_VALUE: i64 = i64::MIN;

/// A variable's view in a unit: the unit, and the shift of the variable's own word into the
/// unit's window; slots in fewer units are padded with links of an empty `mask`.
#[derive(Debug, Clone, Copy, Default)]
struct Link {
    unit: usize,
    shift: u32,
    mask: u64,
}

/// The buffers of a run.
#[derive(Debug, Clone)]
struct Scratch {
    small: Small,
    /// Per slot, the domain as read and as narrowed so far.
    orig: [u64; 64],
    dom: [u64; 64],
    /// Per unit, the values fixed in the current round of the value pass.
    fixed: [u64; 64],
    /// The matched values of the unit being matched, by its unfixed variables in slot order.
    mates: [i64; 64],
}

/// The units of `units` take pairwise distinct values each, at domain consistency.
#[derive(Debug, Clone)]
pub(in crate::propagators) struct OffsetFamily {
    units: Vec<Vec<IntView>>,
    /// The distinct variables by slot (at most 64), as plain views, and their own words.
    vars: Vec<IntView>,
    words: Vec<WordView>,
    /// Per slot, `per_slot` links (the value pass).
    links: Vec<Link>,
    per_slot: usize,
    /// Per unit, its slots as bits; per slot, its units as bits, and the slots that share
    /// a unit with it.
    members: Vec<u64>,
    units_of: Vec<u64>,
    peers: Vec<u64>,
    /// Per unit and slot (`unit * 64 + slot`): the shift into the unit's window, and the bit
    /// of the unit's window matched to the slot's variable by the unit's last matching.
    shifts: Vec<u32>,
    matched: Vec<i64>,
    /// When every slot lies in every unit (N-Queens), the shifts slot by slot in unit order,
    /// for a value pass with the units' masks in registers; else empty.
    complete: Vec<u32>,
    all_units: u64,
    /// The bitmask of slots not yet fixed (whose values have not left the others yet).
    live: Option<TrailedInt>,
    scratch: Box<Scratch>,
}

impl OffsetFamily {
    /// The family of `units` (at most 64), each a list of views `x + c` over distinct
    /// variables, at most 64 variables in all, each unit's values within one window of 64
    /// (the model checks all of it before forming a family).
    pub(in crate::propagators) fn new(units: &[Vec<IntView>]) -> OffsetFamily {
        assert!(units.len() <= 64, "a family has at most 64 units");
        let mut vars: Vec<IntView> = units
            .iter()
            .flatten()
            .map(|v| IntView::from(v.var()))
            .collect();
        vars.sort_unstable_by_key(|v| v.var());
        vars.dedup_by_key(|v| v.var());
        assert!(vars.len() <= 64, "a family has at most 64 variables");
        OffsetFamily {
            units: units.to_vec(),
            vars,
            words: Vec::new(),
            links: Vec::new(),
            per_slot: 0,
            members: Vec::new(),
            units_of: Vec::new(),
            peers: Vec::new(),
            shifts: Vec::new(),
            matched: Vec::new(),
            complete: Vec::new(),
            all_units: u64::MAX >> (64 - units.len().max(1)),
            live: None,
            scratch: Box::new(Scratch {
                small: Small::new(),
                orig: [0; 64],
                dom: [0; 64],
                fixed: [0; 64],
                mates: [NO_VALUE; 64],
            }),
        }
    }

    /// One round of the joint value pass: the values of the slots `found` leave the slots
    /// `live` in `sc.dom`. Returns the slots narrowed, those this fixed, and whether it
    /// failed (two slots of a unit fixed to one value, or an empty domain).
    #[inline(always)]
    fn round(
        (links, per_slot, peers, units): (&[Link], usize, &[u64], usize),
        sc: &mut Scratch,
        live: u64,
        found: u64,
    ) -> (u64, u64, bool) {
        let mut clash = 0;
        let mut scope = 0;
        for j in bits(found) {
            scope |= peers[j];
            let w = sc.dom[j];
            for l in &links[j * per_slot..(j + 1) * per_slot] {
                let v = (w << l.shift) & l.mask;
                let f = &mut sc.fixed[l.unit & 63];
                clash |= *f & v;
                *f |= v;
            }
        }
        let mut narrowed = 0u64;
        let mut next = 0u64;
        let mut empty = false;
        // Only the slots sharing a unit with a fixed one can lose a value.
        for j in bits(live & scope) {
            let mut r = 0;
            for l in &links[j * per_slot..(j + 1) * per_slot] {
                r |= (sc.fixed[l.unit & 63] >> l.shift) & l.mask;
            }
            let d = sc.dom[j];
            let nd = d & !r;
            sc.dom[j] = nd;
            let hit = u64::from(nd != d);
            narrowed |= hit << j;
            next |= (hit & u64::from(nd & nd.wrapping_sub(1) == 0)) << j;
            empty |= nd == 0;
        }
        sc.fixed[..units].fill(0);
        (narrowed, next, clash != 0 || empty)
    }

    /// One run from the live slots `live`, with `dirty` the units that may not be domain
    /// consistent: see the module docs. Works on `scratch.dom`; returns the live slots left.
    fn run(&mut self, live: u64, mut dirty: u64) -> Result<u64, Conflict> {
        let sc = &mut *self.scratch;
        let mut live = live;
        let mut found = 0u64;
        for j in bits(live) {
            let d = sc.dom[j];
            found |= u64::from(d & d.wrapping_sub(1) == 0) << j;
        }
        loop {
            // The value pass of all units, in rounds.
            while found != 0 {
                live &= !found;
                let (narrowed, next, bad) = match (self.complete.is_empty(), self.units.len()) {
                    (false, 2) => round::<2>(&self.complete, &mut sc.dom, live, found),
                    (false, 3) => round::<3>(&self.complete, &mut sc.dom, live, found),
                    (false, 4) => round::<4>(&self.complete, &mut sc.dom, live, found),
                    _ => OffsetFamily::round(
                        (&self.links, self.per_slot, &self.peers, self.units.len()),
                        sc,
                        live,
                        found,
                    ),
                };
                if bad {
                    return Err(Conflict);
                }
                for j in bits(narrowed) {
                    dirty |= self.units_of[j];
                }
                found = next;
            }
            if dirty == 0 {
                return Ok(live);
            }
            // Régin's matching on one dirty unit, over its unfixed variables.
            let u = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let mine = self.members[u] & live;
            let m = mine.count_ones() as usize;
            if m < 2 {
                continue;
            }
            let shifts = &self.shifts[u * 64..(u + 1) * 64];
            let matched = &mut self.matched[u * 64..(u + 1) * 64];
            for (i, j) in bits(mine).enumerate() {
                sc.small.cur[i] = sc.dom[j] << shifts[j];
                sc.mates[i] = matched[j];
            }
            sc.small.regin(&mut sc.mates[..m], 0)?;
            let mut narrowed = 0u64;
            for (i, j) in bits(mine).enumerate() {
                matched[j] = sc.mates[i];
                let d = sc.dom[j];
                let nd = sc.small.cur[i] >> shifts[j];
                sc.dom[j] = nd;
                let hit = u64::from(nd != d);
                narrowed |= hit << j;
                found |= (hit & u64::from(nd & nd.wrapping_sub(1) == 0)) << j;
            }
            // The unit itself is domain consistent now; the others holding what it
            // narrowed may not be.
            for j in bits(narrowed) {
                dirty |= self.units_of[j] & !(1 << u);
            }
        }
    }
}

/// [`OffsetFamily::round`] for a family of `K` units that each hold every slot: `shifts`
/// holds `K` shifts per slot, and the units' round masks live in registers.
#[inline(always)]
fn round<const K: usize>(
    shifts: &[u32],
    dom: &mut [u64; 64],
    live: u64,
    found: u64,
) -> (u64, u64, bool) {
    let (shifts, _) = shifts.as_chunks::<K>();
    let mut fixed = [0u64; K];
    let mut clash = 0;
    for j in bits(found) {
        let w = dom[j];
        let s = &shifts[j];
        for k in 0..K {
            let v = w << s[k];
            clash |= fixed[k] & v;
            fixed[k] |= v;
        }
    }
    let mut narrowed = 0u64;
    let mut next = 0u64;
    let mut empty = false;
    for j in bits(live) {
        let s = &shifts[j];
        let mut r = 0;
        for k in 0..K {
            r |= fixed[k] >> s[k];
        }
        let d = dom[j];
        let nd = d & !r;
        dom[j] = nd;
        let hit = u64::from(nd != d);
        narrowed |= hit << j;
        next |= (hit & u64::from(nd & nd.wrapping_sub(1) == 0)) << j;
        empty |= nd == 0;
    }
    (narrowed, next, clash != 0 || empty)
}

impl Propagator for OffsetFamily {
    fn setup(&mut self, s: &mut Setup<'_>) {
        let n = self.vars.len();
        let slot_of = |x: IntView| {
            self.vars
                .binary_search_by_key(&x.var(), |v| v.var())
                .expect("every variable has a slot")
        };
        let mut links: Vec<Vec<Link>> = vec![Vec::new(); n];
        self.members = vec![0; self.units.len()];
        self.units_of = vec![0; n];
        self.shifts = vec![0; self.units.len() * 64];
        self.matched = vec![NO_VALUE; self.units.len() * 64];
        for (u, unit) in self.units.iter().enumerate() {
            let base = unit
                .iter()
                .map(|&v| s.declared_min(v))
                .min()
                .expect("a unit has views");
            for &v in unit {
                // The view's declared minimum is the variable's plus the offset: bit 0 of
                // the variable's word is bit `shift` of the unit's window.
                let j = slot_of(v);
                let shift = (s.declared_min(v) - base) as u32;
                links[j].push(Link {
                    unit: u,
                    shift,
                    mask: u64::MAX,
                });
                self.members[u] |= 1 << j;
                self.units_of[j] |= 1 << u;
                self.shifts[u * 64 + j] = shift;
            }
        }
        self.per_slot = links.iter().map(Vec::len).max().unwrap_or(0);
        self.peers = self
            .units_of
            .iter()
            .map(|&units| bits(units).fold(0, |p, u| p | self.members[u]))
            .collect();
        let complete = links.iter().all(|l| {
            l.len() == self.units.len() && l.iter().enumerate().all(|(u, link)| link.unit == u)
        });
        if complete {
            self.complete = links.iter().flatten().map(|l| l.shift).collect();
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
            s.subscribe_advised(x, Event::Domain, 1 << j);
        }
        let all = u64::MAX >> (64 - n);
        self.live = Some(s.trailed_int(all as i64));
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let Some(live_slot) = self.live else {
            return Ok(PropStatus::Fixpoint);
        };
        let live = ctx.int(live_slot) as u64;
        let sc = &mut *self.scratch;
        for j in bits(live) {
            let w = ctx.word(self.words[j]);
            sc.orig[j] = w;
            sc.dom[j] = w;
        }
        // Every unit was domain consistent when the last run ended, or after backtracking to
        // a node where it was: only those holding a variable changed since may not be.
        let dirty = if ctx.advice() == u64::MAX {
            self.all_units
        } else {
            bits(ctx.advice() & live).fold(0, |d, j| d | self.units_of[j])
        };
        let left = self.run(live, dirty)?;
        let sc = &*self.scratch;
        let mut changed = 0u64;
        for j in bits(live) {
            changed |= u64::from(sc.dom[j] != sc.orig[j]) << j;
        }
        for j in bits(changed) {
            ctx.keep_word(self.words[j], sc.dom[j])?;
        }
        ctx.set_int(live_slot, left as i64);
        Ok(PropStatus::subsumed_if(left.count_ones() <= 1))
    }

    fn priority(&self) -> Priority {
        Priority::Expensive
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        self.units
            .iter()
            .all(|unit| crate::propagators::pairwise_different(unit, a))
    }

    fn name(&self) -> &'static str {
        "all_different(domain) offset family"
    }
}
