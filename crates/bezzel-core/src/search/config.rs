//! What a search is told: its heuristics, its limits, and whether it checks its solutions.
//!
//! A [`SearchConfig`] is plain data (serde), so a run's settings can be printed, stored beside
//! its results, or handed to another process that solves part of the tree.

use super::branching::{ValueOrder, VarOrder};
use super::restarts::Restarts;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Limits that end a run early. `None` means unlimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Limits {
    /// Stop after this many solutions.
    pub solutions: Option<u64>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this much wall-clock time.
    pub time: Option<Duration>,
}

/// Heuristics and limits of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchConfig {
    /// Variable selection.
    pub var_order: VarOrder,
    /// Value selection.
    pub value_order: ValueOrder,
    /// Limits of each run.
    pub limits: Limits,
    /// Restarts for [`Solver::first`](super::Solver::first); `None` (the default) searches
    /// the tree once.
    #[serde(default)]
    pub restarts: Option<Restarts>,
    /// Checks every solution against every constraint's definition
    /// ([`Propagator::is_satisfied`](crate::Propagator::is_satisfied)) before reporting it,
    /// and panics, naming the constraint, if one is broken: a propagator bug must not pass
    /// as an answer. The default is on in debug builds and off in release builds, where it
    /// costs time on every solution (about 12% when counting queens with the model); the
    /// environment variable `BEZZEL_CHECK_SOLUTIONS` overrides the default (`1` on, `0` off).
    /// The repository's `.cargo/config.toml` sets it to `1`, so the test suite runs with it.
    #[serde(default = "checks_by_default")]
    pub check_solutions: bool,
}

/// Whether solutions are checked unless a [`SearchConfig`] says otherwise: in debug builds,
/// unless the environment variable `BEZZEL_CHECK_SOLUTIONS` says `1` (on) or `0` (off).
pub fn checks_by_default() -> bool {
    static DEFAULT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *DEFAULT.get_or_init(|| match std::env::var_os("BEZZEL_CHECK_SOLUTIONS") {
        Some(v) if v == "1" => true,
        Some(v) if v == "0" => false,
        _ => cfg!(debug_assertions),
    })
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            var_order: VarOrder::default(),
            value_order: ValueOrder::default(),
            limits: Limits::default(),
            restarts: None,
            check_solutions: checks_by_default(),
        }
    }
}
