//! Sudoku as a constraint model on the generic engine.
//!
//! The model is the textbook one, and the one a user would write for their own grid puzzle:
//! one variable per cell with domain `1..=N` (a given's domain is just its value), named `r1c1`
//! to `rNcN` so that printed solutions read well, and one `all_different` on every row, column
//! and box, sliced out of the engine's [`Matrix`]. The `all_different`s are domain consistent
//! by default ([`DEFAULT_CONSISTENCY`]); [`build_with`] takes another level. Search is
//! [`default_search`]: dom/wdeg (smallest domain per failure weight), smallest value first.
//!
//! Givens that contradict each other (two 5s in a row, say) are found by
//! [`Grid::first_clash`] before the model is built and reported as a
//! [`SudokuError::Clash`] naming both cells and their unit, rather than as a bare
//! "no solution". Every other puzzle is answered by search: [`Sudoku::solve`] finds the first
//! solution, [`Sudoku::count`] counts solutions up to a limit (2 tells unique from not), and
//! each returns an [`Outcome`] with the run's [`Statistics`].
//!
//! ```
//! use bezzel_sudoku::{check, grid::Grid, model::{self, Status}};
//!
//! let puzzle: Grid =
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
//!         .parse()?;
//! let outcome = model::count(&puzzle, 2)?; // solve, and prove there is no second solution
//! assert_eq!(outcome.status(), Status::Unique);
//! let solution = outcome.solution.as_ref().expect("a unique puzzle has a solution");
//! assert!(check::is_valid_solution(&puzzle, solution).is_ok());
//! println!("{solution:#}\n{}", outcome.stats);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::grid::{Clash, Grid};
use bezzel_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a Sudoku model could not be built.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SudokuError {
    /// Two givens share a unit and a value, so no solution exists; the conflict names both
    /// cells and the unit.
    Clash(Clash),
    /// The engine refused the model (does not happen for a valid [`Grid`]).
    Model(ModelError),
}

impl fmt::Display for SudokuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SudokuError::Clash(conflict) => conflict.fmt(f),
            SudokuError::Model(e) => write!(f, "model error: {e}"),
        }
    }
}

impl std::error::Error for SudokuError {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for SudokuError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SudokuError: {self}")
    }
}

impl From<ModelError> for SudokuError {
    fn from(e: ModelError) -> SudokuError {
        SudokuError::Model(e)
    }
}

impl From<Clash> for SudokuError {
    fn from(c: Clash) -> SudokuError {
        SudokuError::Clash(c)
    }
}

/// Builds the model of `puzzle`: the engine's [`Model`] and the `N × N` [`Matrix`] of cell
/// variables (row by row, named `r1c1` … `rNcN`, 1-based as people count cells).
///
/// Fails with [`SudokuError::Clash`] when two givens contradict each other. The
/// `all_different`s are domain consistent ([`DEFAULT_CONSISTENCY`]).
pub fn build(puzzle: &Grid) -> Result<(Model, Matrix), SudokuError> {
    build_with(puzzle, DEFAULT_CONSISTENCY)
}

/// How the search branches unless told otherwise: dom/wdeg (the empty cell with the smallest
/// domain per failure weight of its units, which learns where a puzzle is hard), smallest
/// value first, no limits, the weights starting at zero for every puzzle. On the four
/// collections of `BENCHMARKS.md` it visits fewer nodes than smallest-domain-first on every
/// one (top1465 −24 %, the 17-clue puzzles −9 %, the forum's hardest −50 %, a generated hard
/// set −19 %) and takes as long or less.
pub fn default_search() -> SearchConfig {
    SearchConfig {
        var_order: VarOrder::DomWDeg,
        ..SearchConfig::default()
    }
}

/// How strongly the model's `all_different`s propagate unless told otherwise: domain
/// consistency, which solves most puzzles with a few nodes.
pub const DEFAULT_CONSISTENCY: Consistency = Consistency::Domain;

/// [`build`] with the `all_different`s at the given consistency level.
pub fn build_with(puzzle: &Grid, consistency: Consistency) -> Result<(Model, Matrix), SudokuError> {
    if let Some(conflict) = puzzle.first_clash() {
        return Err(SudokuError::Clash(conflict));
    }
    let (b, n) = (puzzle.box_size(), puzzle.size());
    let mut m = Model::new();
    // A given is a one-value domain; the grid stores cells row by row, as the matrix does.
    let mut vars = Vec::with_capacity(n * n);
    for (i, &given) in puzzle.cells().iter().enumerate() {
        let name = format!("r{}c{}", i / n + 1, i % n + 1);
        let x = if given == 0 {
            m.named_var(name, 1..=n as i32)?
        } else {
            m.named_var(name, [i32::from(given)])?
        };
        vars.push(x);
    }
    let cells = Matrix::from_vars(n, n, vars)?;
    for row in cells.rows() {
        m.all_different_with(&row, consistency)?;
    }
    for column in cells.columns() {
        m.all_different_with(&column, consistency)?;
    }
    for block in cells.blocks(b, b) {
        m.all_different_with(&block, consistency)?;
    }
    Ok((m, cells))
}

/// One model per grid size, reused for any number of puzzles: the empty grid is built and
/// posted once, and each puzzle's givens are applied at the root of a run as a decision prefix
/// (see [`Solver::count_in`]). Propagation then reaches the same root fixpoint as a model built
/// with the givens as domains, and what dom/wdeg learnt on earlier puzzles is forgotten
/// ([`Solver::forget_weights`]), so the search tree and its statistics are the same; only the
/// per-puzzle cost of building a model is gone. This is what batch solving uses.
///
/// ```
/// use bezzel_sudoku::{grid::Grid, model::{SudokuSolver, Status}};
/// use bezzel_core::Consistency;
///
/// let mut solver = SudokuSolver::new(3, Consistency::Domain)?;
/// for line in [
///     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
///     "....7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
/// ] {
///     let puzzle: Grid = line.parse()?;
///     let outcome = solver.count(&puzzle, 2)?;
///     assert!(matches!(outcome.status(), Status::Unique | Status::Multiple));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct SudokuSolver {
    box_size: usize,
    cells: Matrix,
    solver: Solver,
    givens: Vec<Decision>,
}

impl SudokuSolver {
    /// The model of the empty grid with boxes of `box_size × box_size`, searched as
    /// [`default_search`] says.
    pub fn new(box_size: usize, consistency: Consistency) -> Result<SudokuSolver, SudokuError> {
        SudokuSolver::with_config(box_size, consistency, default_search())
    }

    /// [`SudokuSolver::new`] with other heuristics or limits.
    pub fn with_config(
        box_size: usize,
        consistency: Consistency,
        config: SearchConfig,
    ) -> Result<SudokuSolver, SudokuError> {
        if !crate::grid::is_supported_box_size(box_size) {
            return Err(SudokuError::Model(ModelError::InvalidArgument {
                reason: format!("unsupported box size {box_size}"),
            }));
        }
        let (model, cells) = build_with(&Grid::empty(box_size), consistency)?;
        Ok(SudokuSolver {
            box_size,
            cells,
            solver: Solver::with_config(model, config),
            givens: Vec::new(),
        })
    }

    /// The box size this solver is for.
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// Sets a flag that another thread can raise to stop the current and every later run at
    /// its next node (Ctrl-C, a time limit). A run it stops ends with
    /// [`StopReason::Cancelled`] in its statistics, so its [`Outcome`] is not mistaken for a
    /// complete one.
    pub fn set_cancel_flag(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        self.solver.set_cancel_flag(flag);
    }

    /// Checks the puzzle and turns its givens into root decisions.
    fn load(&mut self, puzzle: &Grid) -> Result<(), SudokuError> {
        if puzzle.box_size() != self.box_size {
            return Err(SudokuError::Model(ModelError::InvalidArgument {
                reason: format!(
                    "a {n}x{n} puzzle given to the {m}x{m} solver",
                    n = puzzle.size(),
                    m = self.box_size * self.box_size
                ),
            }));
        }
        if let Some(conflict) = puzzle.first_clash() {
            return Err(SudokuError::Clash(conflict));
        }
        // What dom/wdeg learnt on the last puzzle is no guide to this one, and keeping it
        // would make a puzzle's search depend on the puzzles before it.
        self.solver.forget_weights();
        self.givens.clear();
        for (&x, &given) in self.cells.as_slice().iter().zip(puzzle.cells()) {
            if given != 0 {
                self.givens.push(Decision::Assign(x, i32::from(given)));
            }
        }
        Ok(())
    }

    /// Counts the solutions of `puzzle` up to `limit` (2 tells unique from not).
    pub fn count(&mut self, puzzle: &Grid, limit: u64) -> Result<Outcome, SudokuError> {
        self.load(puzzle)?;
        let saved = self.solver.config().limits.solutions;
        self.solver.config_mut().limits.solutions =
            Some(saved.map_or(limit.max(1), |s| s.min(limit.max(1))));
        let first = {
            let mut run = self.solver.solutions_in(&self.givens)?;
            let first = run.next();
            run.for_each(drop);
            first
        };
        self.solver.config_mut().limits.solutions = saved;
        let stats = self.solver.stats().clone();
        Ok(Outcome {
            solution: first.map(|s| solution_grid(self.box_size, &self.cells, &s)),
            solutions: stats.solutions,
            exact: stats.is_complete(),
            stats,
        })
    }

    /// The first solution of `puzzle`, without proving it unique; restarts as configured.
    pub fn solve(&mut self, puzzle: &Grid) -> Result<Outcome, SudokuError> {
        self.load(puzzle)?;
        let found = self.solver.first_in(&self.givens)?;
        let stats = self.solver.stats().clone();
        let solution = found.map(|s| solution_grid(self.box_size, &self.cells, &s));
        Ok(Outcome {
            solutions: u64::from(solution.is_some()),
            exact: solution.is_none() && stats.is_complete(),
            solution,
            stats,
        })
    }
}

/// What a search run concluded about a puzzle; see [`Outcome::status`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The whole search tree was explored and holds no solution.
    NoSolution,
    /// A solution was found; whether it is the only one was not checked ([`Sudoku::solve`]).
    Solved,
    /// Exactly one solution, proven by exploring the whole tree.
    Unique,
    /// At least two solutions.
    Multiple,
    /// A limit in the search configuration (nodes, time) or a cancellation ended the run
    /// before any solution was found.
    Unknown,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::NoSolution => "no solution",
            Status::Solved => "solved",
            Status::Unique => "unique",
            Status::Multiple => "multiple solutions",
            Status::Unknown => "unknown",
        })
    }
}

/// The answer of one run: the first solution, how many were found, and the run's statistics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// Solutions found: at most 1 for [`Sudoku::solve`], at most the limit for
    /// [`Sudoku::count`].
    pub solutions: u64,
    /// Whether the whole tree was explored, so that `solutions` is the exact count.
    pub exact: bool,
    /// Statistics of the run (nodes, failures, propagations, time).
    pub stats: Statistics,
}

impl Outcome {
    /// What the run concluded: no solution, solved, unique, multiple, or unknown.
    pub fn status(&self) -> Status {
        match (self.solutions, self.exact) {
            (0, true) => Status::NoSolution,
            (0, false) => Status::Unknown,
            (1, true) => Status::Unique,
            (1, false) => Status::Solved,
            _ => Status::Multiple,
        }
    }
}

/// A puzzle's model with its solver: solve, count, enumerate.
///
/// Each call starts a new search from the puzzle as given; [`stats`](Sudoku::stats)
/// describes the latest run.
#[derive(Debug)]
pub struct Sudoku {
    puzzle: Grid,
    cells: Matrix,
    solver: Solver,
}

impl Sudoku {
    /// The model of `puzzle` with the default search ([`default_search`]: dom/wdeg, smallest
    /// value first, no limits).
    pub fn new(puzzle: &Grid) -> Result<Sudoku, SudokuError> {
        Sudoku::with_config(puzzle, default_search())
    }

    /// The model of `puzzle` with the given heuristics and limits.
    pub fn with_config(puzzle: &Grid, config: SearchConfig) -> Result<Sudoku, SudokuError> {
        Sudoku::with_options(puzzle, config, DEFAULT_CONSISTENCY)
    }

    /// The model of `puzzle` with the given heuristics, limits and consistency level.
    pub fn with_options(
        puzzle: &Grid,
        config: SearchConfig,
        consistency: Consistency,
    ) -> Result<Sudoku, SudokuError> {
        let (model, cells) = build_with(puzzle, consistency)?;
        Ok(Sudoku {
            puzzle: puzzle.clone(),
            cells,
            solver: Solver::with_config(model, config),
        })
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Grid {
        &self.puzzle
    }

    /// The cell variables, row by row.
    pub fn cells(&self) -> &Matrix {
        &self.cells
    }

    /// The first solution. Uniqueness is not checked: use [`count`](Sudoku::count) with a
    /// limit of 2 for that.
    pub fn solve(&mut self) -> Outcome {
        let found = self.solver.first();
        let stats = self.solver.stats().clone();
        let solution = found.map(|s| self.to_grid(&s));
        Outcome {
            solutions: u64::from(solution.is_some()),
            // Finding a solution ends the run before the rest of the tree is seen.
            exact: solution.is_none() && stats.is_complete(),
            solution,
            stats,
        }
    }

    /// Counts solutions, stopping at `limit` (a limit of 0 counts as 1; a smaller solution
    /// limit in the configuration wins). With `limit = 2` the [`Outcome::status`] tells a
    /// unique puzzle from one with several solutions.
    pub fn count(&mut self, limit: u64) -> Outcome {
        let saved = self.solver.config().limits.solutions;
        let limit = saved.map_or(limit.max(1), |s| s.min(limit.max(1)));
        self.solver.config_mut().limits.solutions = Some(limit);
        let first = {
            let mut run = self.solver.solutions();
            let first = run.next();
            run.for_each(drop);
            first
        };
        self.solver.config_mut().limits.solutions = saved;
        let stats = self.solver.stats().clone();
        Outcome {
            solution: first.map(|s| self.to_grid(&s)),
            solutions: stats.solutions,
            exact: stats.is_complete(),
            stats,
        }
    }

    /// A lazy iterator over the solutions of a new run, as grids.
    pub fn solutions(&mut self) -> impl Iterator<Item = Grid> + '_ {
        let (b, cells) = (self.puzzle.box_size(), &self.cells);
        self.solver
            .solutions()
            .map(move |s| solution_grid(b, cells, &s))
    }

    /// Every solution as a canonical [`SolutionSet`] over the cells `r1c1` … `rNcN` (sorted,
    /// so the text does not depend on the search order): what snapshot tests compare. A
    /// puzzle with few givens has astronomically many solutions; set a solution limit in the
    /// configuration (through [`solver_mut`](Sudoku::solver_mut)) before asking for them.
    pub fn solution_set(&mut self) -> SolutionSet {
        let vars = self.cells.as_slice();
        self.solver
            .solution_set_of(vars)
            .expect("the cell variables belong to this model")
    }

    /// Statistics of the latest run.
    pub fn stats(&self) -> &Statistics {
        self.solver.stats()
    }

    /// The solver, e.g. to change the heuristics or limits, or to set a cancellation flag.
    pub fn solver_mut(&mut self) -> &mut Solver {
        &mut self.solver
    }

    fn to_grid(&self, s: &Solution) -> Grid {
        solution_grid(self.puzzle.box_size(), &self.cells, s)
    }
}

/// Reads a solution back into a grid.
fn solution_grid(box_size: usize, cells: &Matrix, s: &Solution) -> Grid {
    // Every cell's domain is 1..=N with N <= 25, so the values fit a u8 and the grid.
    let values = cells
        .as_slice()
        .iter()
        .map(|&x| u8::try_from(s[x]).expect("cell values lie in 1..=N"))
        .collect();
    Grid::from_cells(box_size, values).expect("a solution fills the grid with values 1..=N")
}

/// The first solution of `puzzle` (uniqueness not checked), with the default search.
pub fn solve(puzzle: &Grid) -> Result<Outcome, SudokuError> {
    Ok(Sudoku::new(puzzle)?.solve())
}

/// The solutions of `puzzle` counted up to `limit`, with the first one, with the default
/// search. `count(puzzle, 2)` solves and proves uniqueness.
pub fn count(puzzle: &Grid, limit: u64) -> Result<Outcome, SudokuError> {
    Ok(Sudoku::new(puzzle)?.count(limit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::is_valid_solution;
    use crate::grid::Unit;
    use crate::wikipedia::{PUZZLE as WIKI, SOLUTION as WIKI_SOLUTION};

    #[test]
    fn solves_the_wikipedia_puzzle() {
        let puzzle = Grid::parse_line(WIKI).unwrap();
        let outcome = count(&puzzle, 2).unwrap();
        assert_eq!(outcome.status(), Status::Unique);
        let solution = outcome.solution.unwrap();
        assert_eq!(is_valid_solution(&puzzle, &solution), Ok(()));
        assert_eq!(solution.to_line(), WIKI_SOLUTION);
        assert!(outcome.stats.nodes >= 1);
        let first = solve(&puzzle).unwrap();
        assert_eq!(first.status(), Status::Solved);
        assert_eq!(first.solution.unwrap().to_line(), WIKI_SOLUTION);
    }

    #[test]
    fn names_cells_from_one_and_fixes_givens() {
        let puzzle = Grid::parse_line("1...3.........2.").unwrap();
        let (mut m, cells) = build(&puzzle).unwrap();
        assert_eq!(m.name(cells.get(0, 0).unwrap()).unwrap(), "r1c1");
        assert_eq!(m.name(cells.get(3, 2).unwrap()).unwrap(), "r4c3");
        assert_eq!(m.num_vars(), 16);
        m.propagate().unwrap();
        assert_eq!(m.domain(cells.get(0, 0).unwrap()).unwrap(), vec![1]);
        assert_eq!(m.domain(cells.get(1, 0).unwrap()).unwrap(), vec![3]);
        // r1c2 shares row 1 with the 1 and box 1 with the 3.
        assert_eq!(m.domain(cells.get(0, 1).unwrap()).unwrap(), vec![2, 4]);
    }

    #[test]
    fn clashing_givens_are_an_error_naming_both_cells() {
        let mut line = WIKI.to_string();
        line.replace_range(2..3, "5"); // r1c3 = 5 beside the given 5 at r1c1
        let puzzle = Grid::parse_line(&line).unwrap();
        let e = build(&puzzle).unwrap_err();
        match &e {
            SudokuError::Clash(c) => {
                assert_eq!(
                    (c.a, c.b, c.value, c.unit),
                    ((0, 0), (0, 2), 5, Unit::Row(0))
                )
            }
            other => panic!("expected a clash, got {other:?}"),
        }
        assert_eq!(
            e.to_string(),
            "givens clash: r1c1 and r1c3 both hold 5 in row 1"
        );
        assert!(Sudoku::new(&puzzle).is_err());
    }

    #[test]
    fn the_empty_4x4_grid_has_288_solutions() {
        // 288 is the published number of 4x4 Sudoku grids.
        let mut s = Sudoku::new(&Grid::empty(2)).unwrap();
        let all = s.count(1000);
        assert_eq!((all.solutions, all.exact), (288, true));
        let two = s.count(2);
        assert_eq!((two.solutions, two.exact), (2, false));
        assert_eq!(two.status(), Status::Multiple);
        let grids: Vec<Grid> = s.solutions().collect();
        assert_eq!(grids.len(), 288);
        assert!(grids.iter().all(crate::check::is_complete_and_valid));
        assert_eq!(s.solution_set().len(), 288);
    }

    /// A solver reused for several puzzles searches each as a model built for it alone
    /// would, dom/wdeg included: what one puzzle's failures taught is forgotten before the
    /// next (puzzles from the forum's hardest list, where dom/wdeg fails often).
    #[test]
    fn a_reused_solver_searches_each_puzzle_as_a_fresh_model_does() {
        let hard = [
            "........5..6..87..3......9....1.7.4...7...8...4...6....9..8...3..16..4..5...2....",
            "........9..6.1.7.24......3......12...6..2..5...28.7....3......4..8.7.6..9..1.....",
            ".......24..3...7..41..7...6.....3.....5.9.8.....8.5...2...4...9..7...4..96.....1.",
        ];
        let config = default_search();
        assert_eq!(config.var_order, VarOrder::DomWDeg);
        let mut reused = SudokuSolver::with_config(3, DEFAULT_CONSISTENCY, config).unwrap();
        for line in hard.iter().chain(&hard) {
            let puzzle = Grid::parse_line(line).unwrap();
            let fresh = Sudoku::with_config(&puzzle, config).unwrap().count(2);
            let again = reused.count(&puzzle, 2).unwrap();
            assert_eq!(again.status(), Status::Unique, "{line}");
            assert_eq!(again.solution, fresh.solution, "{line}");
            assert_eq!(
                (again.stats.nodes, again.stats.failures),
                (fresh.stats.nodes, fresh.stats.failures),
                "{line}"
            );
        }
    }

    #[test]
    fn limits_in_the_configuration_give_unknown() {
        let puzzle = Grid::parse_line(WIKI).unwrap();
        let config = SearchConfig {
            limits: Limits {
                nodes: Some(0),
                ..Limits::default()
            },
            ..SearchConfig::default()
        };
        let mut s = Sudoku::with_config(&puzzle, config).unwrap();
        let o = s.count(2);
        assert_eq!(o.status(), Status::Unknown);
        assert_eq!(o.solutions, 0);
    }
}
