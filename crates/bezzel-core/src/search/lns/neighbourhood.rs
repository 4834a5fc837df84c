//! How a neighbourhood is chosen: which variables keep the incumbent's values.
//!
//! A random neighbourhood frees a uniformly random subset of the variables. A
//! propagation-guided one (Perron, Shaw and Furnon, CP 2004) grows the set of fixed variables
//! one at a time from a random start, propagating after each: the next variable fixed is the
//! open one whose domain the fixes so far reduced most (summing `ln(old size / new size)` over
//! the steps), or a random one when propagation reduced none. Fixing stops as soon as at most
//! the target number of variables is left unfixed, so the free variables are those the fixed
//! ones constrain least: a neighbourhood of related variables (the other machine's tasks, the
//! other project's activities) that can move together, which a random one seldom frees.
//!
//! Both are built from a seeded generator and the engine's deterministic propagation, so a
//! seed gives the same neighbourhoods.

use crate::engine::Engine;
use crate::model::Model;
use crate::search::decision::Decision;
use crate::var::VarId;

/// A small deterministic generator (SplitMix64, Steele, Lea and Flood 2014): LNS needs
/// reproducible, well-spread choices, not cryptographic ones.
#[derive(Debug, Clone)]
pub(super) struct SplitMix(pub(super) u64);

impl SplitMix {
    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by multiply-and-shift: bias below 2^-32 for the sizes
    /// used here.
    pub(super) fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }

    /// A number in `[0, 1)`, from the top 53 bits.
    pub(super) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The most propagation rounds a propagation-guided neighbourhood takes: beyond that many
/// open variables, each round fixes several (the best candidates first), so that building a
/// neighbourhood of a model with thousands of variables costs about as much as searching it.
const GUIDED_ROUNDS: usize = 256;

/// Per-variable scratch of the propagation-guided builder, kept between neighbourhoods so
/// that each one allocates only its result.
#[derive(Debug, Clone, Default)]
pub(super) struct Scratch {
    /// The domain size of each open variable after the latest round.
    size: Vec<u32>,
    /// How much the fixes so far reduced each open variable's domain.
    score: Vec<f64>,
    /// Whether the variable is in the candidate list.
    listed: Vec<bool>,
}

/// The number of variables a neighbourhood frees: `share` of `n`, at least one (when there is
/// one) and at most `n`.
pub(super) fn free_count(share: f64, n: usize) -> usize {
    ((share * n as f64).ceil() as usize).clamp(1.min(n), n)
}

/// A random neighbourhood: all but `free` of `vars` (reordered by a partial Fisher-Yates
/// shuffle), in increasing index order so that the prefix does not depend on the shuffle.
pub(super) fn random(vars: &mut [u32], free: usize, rng: &mut SplitMix) -> Vec<u32> {
    let n = vars.len();
    for i in 0..free.min(n) {
        let j = i + rng.below(n - i);
        vars.swap(i, j);
    }
    let mut fixed = vars[free.min(n)..].to_vec();
    fixed.sort_unstable();
    fixed
}

impl Scratch {
    /// A propagation-guided neighbourhood (see the [module docs](self)): the variables of `vars`
    /// to fix to their values in `incumbent`, in the order they were chosen, so that at most
    /// `free` of `vars` are left unfixed once they are propagated at the root (without the
    /// objective's bound). Leaves the engine reset; counts its propagator runs in `propagations`.
    pub(super) fn propagation_guided(
        &mut self,
        model: &mut Model,
        vars: &[u32],
        incumbent: &[i32],
        free: usize,
        rng: &mut SplitMix,
        propagations: &mut u64,
    ) -> Vec<u32> {
        let scratch = self;
        let (id, engine) = (model.id(), model.engine_mut());
        let mut fixed = Vec::new();
        engine.reset();
        engine.schedule_all();
        if engine.propagate(propagations).is_err() {
            // Only a model without solutions fails at its root, and an incumbent says there is
            // one; a neighbourhood that fixes nothing is sound anyway.
            engine.reset();
            return fixed;
        }
        let n = incumbent.len();
        if scratch.size.len() < n {
            scratch.size.resize(n, 0);
            scratch.score.resize(n, 0.0);
            scratch.listed.resize(n, false);
        }
        let mut open: Vec<u32> = vars
            .iter()
            .copied()
            .filter(|&x| !engine.is_fixed(x))
            .collect();
        for &x in &open {
            scratch.size[x as usize] = engine.size(x);
            scratch.score[x as usize] = 0.0;
        }
        let per_round = 1 + open.len() / GUIDED_ROUNDS;
        let mut candidates: Vec<u32> = Vec::new();
        'rounds: while open.len() > free {
            let want = per_round.min(open.len() - free);
            let mut chosen = 0;
            // The most reduced first; the sort is stable, so ties keep the order in which
            // propagation first reduced them, which is deterministic.
            candidates.retain(|&y| {
                let keep = !engine.is_fixed(y);
                scratch.listed[y as usize] = keep;
                keep
            });
            candidates
                .sort_by(|&a, &b| scratch.score[b as usize].total_cmp(&scratch.score[a as usize]));
            let from_list = want.min(candidates.len());
            for y in candidates.drain(..from_list) {
                scratch.listed[y as usize] = false;
                if fix(engine, id, y, incumbent, &mut fixed).is_err() {
                    break 'rounds;
                }
                chosen += 1;
            }
            while chosen < want {
                // Propagation reduced no open variable: start a new group at random. `open` may
                // hold variables this round fixed already; those are drawn again.
                let y = open[rng.below(open.len())];
                if engine.is_fixed(y) {
                    continue;
                }
                if fix(engine, id, y, incumbent, &mut fixed).is_err() {
                    break 'rounds;
                }
                chosen += 1;
            }
            if engine.propagate(propagations).is_err() {
                // Propagators are sound, and the incumbent satisfies every constraint, so fixing
                // its values cannot fail; were it to, the neighbourhood below this prefix is
                // empty, which costs a node and proves nothing wrong.
                break;
            }
            let mut i = 0;
            while i < open.len() {
                let y = open[i];
                let size = engine.size(y);
                if size == 1 {
                    open.swap_remove(i);
                    continue;
                }
                let old = scratch.size[y as usize];
                if size < old {
                    scratch.score[y as usize] += (f64::from(old) / f64::from(size)).ln();
                    scratch.size[y as usize] = size;
                    if !scratch.listed[y as usize] {
                        scratch.listed[y as usize] = true;
                        candidates.push(y);
                    }
                }
                i += 1;
            }
        }
        for y in candidates {
            scratch.listed[y as usize] = false;
        }
        engine.reset();
        fixed
    }
}

/// Fixes `x` to its incumbent value (no propagation yet) and records it.
fn fix(
    engine: &mut Engine,
    model: u32,
    x: u32,
    incumbent: &[i32],
    fixed: &mut Vec<u32>,
) -> Result<(), crate::store::Conflict> {
    fixed.push(x);
    engine.decide(Decision::Assign(
        VarId { model, index: x },
        incumbent[x as usize],
    ))
}
