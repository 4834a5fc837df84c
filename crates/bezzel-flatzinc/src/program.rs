//! The result of a translation, and the entry point that runs the passes.

use crate::FznError;
use crate::builder::Builder;
use crate::output::Output;
use bezzel_core::prelude::*;
use bezzel_core::search::BranchGroup;

/// What a solve item asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// Any solution.
    Satisfy,
    /// The smallest value of the view.
    Minimize(IntView),
    /// The largest value of the view.
    Maximize(IntView),
}

/// A translated FlatZinc model: the Bezzel model, what to print, the goal and the search
/// annotations (as branch groups).
#[derive(Debug)]
pub struct Program {
    /// The model.
    pub model: Model,
    /// What a solution prints, in order.
    pub outputs: Vec<Output>,
    /// Satisfy, minimize or maximize.
    pub goal: Goal,
    /// The solve item's search annotations, in order; empty when it has none.
    pub groups: Vec<BranchGroup>,
    /// The scale of a `restart_luby(scale)` annotation (Bezzel restarts on the Luby sequence
    /// only, and only when searching for one solution).
    pub restart_scale: Option<u64>,
    /// The windows assumed for `var int` variables whose bounds could not be inferred (each
    /// `` `name` in lo..hi ``). When there are any, the search covered only part of the
    /// space: no solution means "unknown", and an optimum or a complete enumeration is not
    /// proven.
    pub assumptions: Vec<String>,
    /// How many `disjunctive` constraints were posted beside pairs of reified precedences
    /// that keep tasks apart (see the crate docs): implied, so they change no answer.
    pub implied_disjunctives: usize,
}

/// Reads FlatZinc text and translates it into a [`Program`]: the statements are parsed, the
/// bounds of unbounded `var int` inferred, the constraints posted through
/// [`BUILTINS`](crate::BUILTINS), and the solve item's goal and annotations read.
pub fn parse(text: &str) -> Result<Program, FznError> {
    Builder::default().build(crate::parse::statements(text)?)
}
