//! Statistics of a search run, and how the statistics of the parts of a split run add up.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// Why a run ended before exploring the whole tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StopReason {
    /// The solution limit was reached.
    SolutionLimit,
    /// The node limit was reached.
    NodeLimit,
    /// The time limit was reached.
    TimeLimit,
    /// The cancellation flag was set.
    Cancelled,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::SolutionLimit => "solution limit reached",
            StopReason::NodeLimit => "node limit reached",
            StopReason::TimeLimit => "time limit reached",
            StopReason::Cancelled => "cancelled",
        })
    }
}

/// What a run did. Every run (solutions, first, count) fills one in.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Statistics {
    /// Search nodes: the root plus every decision applied (left or right branch).
    pub nodes: u64,
    /// Nodes whose propagation failed.
    pub failures: u64,
    /// Propagator runs.
    pub propagations: u64,
    /// Deepest decision stack reached.
    pub max_depth: u64,
    /// Solutions found.
    pub solutions: u64,
    /// Restarts made (only by a search for a first solution with restarts on).
    #[serde(default)]
    pub restarts: u64,
    /// Wall-clock time of the run so far.
    pub elapsed: Duration,
    /// `None` while the run is going or when it explored the whole tree; otherwise why it
    /// stopped early.
    pub stopped: Option<StopReason>,
}

impl Statistics {
    /// Whether the whole search tree was explored (so counts are exact).
    pub fn is_complete(&self) -> bool {
        self.stopped.is_none()
    }
}

/// Merges the statistics of two parts of one search (say, two subproblems of a split run):
/// nodes, failures, propagations, solutions, restarts and time add up (saturating), the maximum
/// depth is the deeper one, and the first reason to stop is kept. A part searched below a
/// prefix of decisions should count the prefix in its `max_depth` before it is added, as
/// sequential search would have those decisions on its stack too. The time is the sum of the
/// parts' times, not wall time: a parallel run sets its own.
impl std::ops::AddAssign for Statistics {
    fn add_assign(&mut self, part: Statistics) {
        self.nodes = self.nodes.saturating_add(part.nodes);
        self.failures = self.failures.saturating_add(part.failures);
        self.propagations = self.propagations.saturating_add(part.propagations);
        self.max_depth = self.max_depth.max(part.max_depth);
        self.solutions = self.solutions.saturating_add(part.solutions);
        self.restarts = self.restarts.saturating_add(part.restarts);
        self.elapsed = self.elapsed.saturating_add(part.elapsed);
        self.stopped = self.stopped.or(part.stopped);
    }
}

impl fmt::Display for Statistics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "solutions: {}, nodes: {}, failures: {}, propagations: {}, max depth: {}, time: {:.6} s",
            self.solutions,
            self.nodes,
            self.failures,
            self.propagations,
            self.max_depth,
            self.elapsed.as_secs_f64()
        )?;
        if let Some(reason) = self.stopped {
            write!(f, " (stopped: {reason})")?;
        }
        Ok(())
    }
}
