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
    /// Restarts for [`Solver::first`](super::Solver::first) and for branch and bound
    /// ([`Solver::minimize`](super::Solver::minimize)); `None` (the default) searches the
    /// tree once.
    #[serde(default)]
    pub restarts: Option<Restarts>,
    /// Last-conflict branching (see [`guide`](super::guide)): after a decision fails, branch
    /// first on its variable for as long as it is unfixed. Off by default.
    #[serde(default)]
    pub last_conflict: bool,
    /// Solution-guided values, or phase saving (see [`guide`](super::guide)): once branch and
    /// bound finds a solution, each variable first tries its value in it, while its domain
    /// holds it. Off by default. The values are kept across runs of a solver (as dom/wdeg's
    /// weights are: a later run, of any kind, starts near the best solution so far), and
    /// forgotten by [`Solver::forget_weights`](super::Solver::forget_weights).
    #[serde(default)]
    pub solution_phase: bool,
    /// Checks every solution against every constraint's definition
    /// ([`Propagator::is_satisfied`](crate::Propagator::is_satisfied)) before reporting it,
    /// and panics, naming the constraint, if one is broken: a propagator bug must not pass
    /// as an answer. The default is on in debug builds and off in release builds, where it
    /// costs time on every solution (about 12% when counting queens with the model); the
    /// environment variable `BEZZEL_CHECK_SOLUTIONS` overrides the default (`1` on, `0` off).
    /// The repository's `.cargo/config.toml` sets it to `1`, so the test suite runs with it.
    #[serde(default = "checks_by_default")]
    pub check_solutions: bool,
    /// Learning from failure (see [`learn`](crate::learn)): each failure is analysed into a
    /// nogood, kept and propagated, and search jumps back to where the nogood applies.
    /// Counts, solution sets and optima stay exact. Off by default; a run that learns does
    /// not restart ([`restarts`](Self::restarts) is ignored) and runs on one thread.
    #[serde(default)]
    pub learning: bool,
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
            last_conflict: false,
            solution_phase: false,
            check_solutions: checks_by_default(),
            learning: false,
        }
    }
}

impl SearchConfig {
    /// The strong default for optimisation: dom/wdeg ([`VarOrder::DomWDeg`]), smallest value
    /// first, last conflict, solution-guided values, and Luby restarts of scale 100 (which
    /// branch and bound keeps through: every attempt keeps the bound, the weights and the
    /// incumbent's values). Complete, like every configuration: a run that ends without
    /// hitting a limit has proven its answer. No limits.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    ///
    /// let mut m = Model::new();
    /// let x = m.int_vars(4, 0..=3)?;
    /// let total = m.int_var(0..=12)?;
    /// m.all_different(&x)?;
    /// m.linear(&[1, 1, 1, 1, -1], &[x[0], x[1], x[2], x[3], total], Relation::Eq, 0)?;
    /// let mut solver = Solver::with_config(m, SearchConfig::for_optimization());
    /// let best = solver.minimize(total)?.finish();
    /// assert_eq!((best.value, best.optimal), (Some(6), true)); // 0 + 1 + 2 + 3
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn for_optimization() -> SearchConfig {
        SearchConfig {
            var_order: VarOrder::DomWDeg,
            value_order: ValueOrder::Min,
            restarts: Some(Restarts::default()),
            last_conflict: true,
            solution_phase: true,
            ..SearchConfig::default()
        }
    }
}
