//! Forcing chains, the last resort: assume a candidate true and follow what it forces; when
//! that ends in a contradiction (an open cell with no candidate left, or a value with no
//! place left in a unit), the candidate is false. What the assumption may use to force
//! grades the step: singles only ([`Technique::ForcingChain`]), or singles and every
//! technique up to [`Difficulty::Expert`] ([`Technique::DynamicForcingChain`]).
//!
//! An elimination here is as sound as the techniques the chain uses, none of which assumes
//! the puzzle unique; but a person finds such a chain by trial, so they score above every
//! pattern.

use super::{Candidates, Difficulty, Step, Technique, pattern_step, values_of};

/// The first candidate whose assumption leads to a contradiction, found with `technique`'s
/// means of forcing.
pub(super) fn forcing(grid: &Candidates, technique: Technique) -> Option<Step> {
    let with_patterns = technique == Technique::DynamicForcingChain;
    let mut trial = grid.clone();
    // Bi-value cells first: their chains are the shortest, and a contradiction there is
    // the likeliest.
    for size in 2..=grid.n as u32 {
        for cell in (0..grid.n * grid.n).filter(|&c| grid.masks[c].count_ones() == size) {
            for value in values_of(grid.masks[cell]) {
                trial.clone_from(grid);
                if contradicts(&mut trial, cell, value, with_patterns) {
                    return Some(Step {
                        technique,
                        cells: vec![cell],
                        values: vec![value],
                        place: None,
                        remove: vec![(cell, value)],
                    });
                }
            }
        }
    }
    None
}

/// Whether placing `value` in `cell` of `trial` leads to a contradiction, by singles, and
/// by the patterns up to expert too when `with_patterns`.
fn contradicts(trial: &mut Candidates, cell: usize, value: u8, with_patterns: bool) -> bool {
    trial.place(cell, value);
    let (mut used, mut steps) = (None, 0);
    loop {
        if !trial.fill_singles(&mut used, &mut steps) {
            return true;
        }
        if trial.is_solved() || !with_patterns {
            return false;
        }
        match pattern_step(trial, Difficulty::Expert) {
            Some(step) => trial.apply(&step),
            None => return false,
        }
    }
}
