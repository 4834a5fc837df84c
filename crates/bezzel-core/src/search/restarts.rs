//! Restarts: give up an attempt after a budget of failures and search again from the root.
//!
//! Budgets follow the Luby sequence (1 1 2 1 1 2 4 ...) times a scale: most attempts are short,
//! a few are long, and the total is within a log factor of the best fixed budget for any tree
//! (Luby, Sinclair and Zuckerman 1993). An attempt starts again from the root of the run (below
//! its prefix) and keeps what [`VarOrder::DomWDeg`](super::VarOrder::DomWDeg) learnt, so each
//! attempt branches better than the last.

use serde::{Deserialize, Serialize};

/// Restarts for satisfaction search: after `scale · luby(i)` failures the `i`-th attempt
/// gives up and search starts again from the root (keeping what
/// [`VarOrder::DomWDeg`](super::VarOrder::DomWDeg) learnt).
///
/// Restarts only apply to [`Solver::first`](super::Solver::first), where revisiting a subtree
/// is harmless; runs that enumerate or count solutions ignore them, so no solution is lost or
/// reported twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Restarts {
    /// Failures allowed in an attempt of Luby length 1.
    pub scale: u64,
}

impl Default for Restarts {
    fn default() -> Restarts {
        Restarts { scale: 100 }
    }
}

/// The `i`-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...
pub fn luby(i: u64) -> u64 {
    let i = i.max(1);
    let mut k = 1u32;
    // Find k with 2^(k-1) <= i < 2^k.
    while k < 63 && (1u64 << k) - 1 < i {
        k += 1;
    }
    if i == (1u64 << k) - 1 {
        1u64 << (k - 1)
    } else {
        luby(i - ((1u64 << (k - 1)) - 1))
    }
}

/// The restart bookkeeping of one run: which attempt it is and how many failures it may use.
#[derive(Debug, Clone, Copy)]
pub(super) struct RestartState {
    attempt: u64,
    failures_at_start: u64,
    allowed: u64,
    scale: u64,
}

impl RestartState {
    /// The first attempt of a run with `restarts`.
    pub(super) fn new(restarts: Restarts) -> RestartState {
        let scale = restarts.scale.max(1);
        RestartState {
            attempt: 1,
            failures_at_start: 0,
            allowed: scale * luby(1),
            scale,
        }
    }

    /// Whether the current attempt has used up its failures, `failures` being the run's count
    /// so far; if so, starts the next attempt. An attempt at the root (`at_root`) has nothing
    /// to give up.
    pub(super) fn due(&mut self, failures: u64, at_root: bool) -> bool {
        if failures - self.failures_at_start < self.allowed || at_root {
            return false;
        }
        self.attempt += 1;
        self.failures_at_start = failures;
        self.allowed = self.scale.saturating_mul(luby(self.attempt));
        true
    }
}
