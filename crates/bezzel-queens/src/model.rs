//! N-Queens as a constraint model on the generic engine.
//!
//! One variable per row holds the column of that row's queen, so rows are distinct by
//! construction. Columns are distinct: `all_different(q)`. Diagonals are distinct through offset
//! views: `all_different(q[i] + i)` and `all_different(q[i] - i)`. No special-purpose
//! propagator is involved: this is the model a user would write, and the fast paths in the
//! sibling modules cross-check it.

use bezzel_core::prelude::*;
use std::fmt;

/// Largest board the constraint model accepts (its cost grows with n² per node).
pub const MAX_MODEL_N: usize = 10_000;

/// Why a queens model could not be built.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum QueensError {
    /// n = 0: there is no board.
    EmptyBoard,
    /// n above what the engine accepts.
    TooLarge {
        /// The size asked for.
        n: usize,
        /// The largest accepted.
        max: usize,
    },
    /// The engine refused the model (should not happen for valid n).
    Model(ModelError),
}

impl fmt::Display for QueensError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueensError::EmptyBoard => f.write_str("n must be at least 1"),
            QueensError::TooLarge { n, max } => {
                write!(
                    f,
                    "n = {n} is too large for the constraint model (at most {max})"
                )
            }
            QueensError::Model(e) => write!(f, "model error: {e}"),
        }
    }
}

impl std::error::Error for QueensError {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for QueensError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "QueensError: {self}")
    }
}

impl From<ModelError> for QueensError {
    fn from(e: ModelError) -> QueensError {
        QueensError::Model(e)
    }
}

/// The N-Queens model with its search.
#[derive(Debug)]
pub struct Queens {
    solver: Solver,
    rows: Vec<VarId>,
}

/// Builds the model: the engine's [`Model`] and the row variables `q[0..n]`, with
/// value-consistent `all_different`s.
pub fn build(n: usize) -> Result<(Model, Vec<VarId>), QueensError> {
    build_with(n, Consistency::Value)
}

/// [`build`] with the `all_different`s pruned at the given consistency level.
pub fn build_with(n: usize, consistency: Consistency) -> Result<(Model, Vec<VarId>), QueensError> {
    if n == 0 {
        return Err(QueensError::EmptyBoard);
    }
    if n > MAX_MODEL_N {
        return Err(QueensError::TooLarge {
            n,
            max: MAX_MODEL_N,
        });
    }
    let mut m = Model::new();
    let q = m.named_vars("q", n, 0..n as i32)?;
    let up: Vec<IntView> = q
        .iter()
        .enumerate()
        .map(|(i, x)| x.offset(i as i32))
        .collect();
    let down: Vec<IntView> = q
        .iter()
        .enumerate()
        .map(|(i, x)| x.offset(-(i as i32)))
        .collect();
    m.all_different_with(&q, consistency)?;
    m.all_different_with(&up, consistency)?;
    m.all_different_with(&down, consistency)?;
    Ok((m, q))
}

impl Queens {
    /// The model for an `n × n` board with the given search configuration. Solutions come in
    /// lexicographic order only with [`VarOrder::InputOrder`] and [`ValueOrder::Min`]; see
    /// [`Queens::lexicographic`].
    pub fn new(n: usize, config: SearchConfig) -> Result<Queens, QueensError> {
        Queens::with_consistency(n, config, Consistency::Value)
    }

    /// [`Queens::new`] with the `all_different`s pruned at the given consistency level.
    pub fn with_consistency(
        n: usize,
        config: SearchConfig,
        consistency: Consistency,
    ) -> Result<Queens, QueensError> {
        let (model, rows) = build_with(n, consistency)?;
        let solver = Solver::with_config(model, config).branch_on(&rows)?;
        Ok(Queens { solver, rows })
    }

    /// Rows in order, smallest column first: solutions come in lexicographic order.
    pub fn lexicographic(n: usize) -> Result<Queens, QueensError> {
        Queens::new(
            n,
            SearchConfig {
                var_order: VarOrder::InputOrder,
                value_order: ValueOrder::Min,
                ..SearchConfig::default()
            },
        )
    }

    /// Smallest domain first, smallest column first (Gecode's `INT_VAR_SIZE_MIN`,
    /// `INT_VAL_MIN`): the fastest order for counting.
    pub fn first_fail(n: usize) -> Result<Queens, QueensError> {
        Queens::new(n, SearchConfig::default())
    }

    /// Board size.
    pub fn n(&self) -> usize {
        self.rows.len()
    }

    /// Number of solutions (exact unless a limit in the configuration cut it short).
    pub fn count(&mut self) -> u64 {
        self.solver.count()
    }

    /// The first solution found, as the column of each row's queen.
    pub fn first(&mut self) -> Option<Vec<usize>> {
        let rows = &self.rows;
        self.solver.first().map(|s| placement(&s, rows))
    }

    /// A lazy iterator over solutions, each the column of every row's queen.
    pub fn solutions(&mut self) -> impl Iterator<Item = Vec<usize>> + '_ {
        let rows = &self.rows;
        self.solver.solutions().map(move |s| placement(&s, rows))
    }

    /// Statistics of the latest run.
    pub fn stats(&self) -> &Statistics {
        self.solver.stats()
    }

    /// The solver, e.g. to set a cancellation flag or change limits.
    pub fn solver_mut(&mut self) -> &mut Solver {
        &mut self.solver
    }
}

fn placement(s: &Solution, rows: &[VarId]) -> Vec<usize> {
    rows.iter().map(|&x| s[x] as usize).collect()
}

#[cfg(test)]
mod error_tests {
    use super::*;

    #[test]
    fn a_boxed_error_prints_its_message_where_main_shows_it() {
        let e = QueensError::TooLarge { n: 9999, max: 64 };
        let message = e.to_string();
        let shown = format!("{:?}", Box::<dyn std::error::Error>::from(e));
        assert_eq!(shown, format!("QueensError: {message}"));
        assert!(shown.contains("n = 9999 is too large"), "{shown}");
    }
}
