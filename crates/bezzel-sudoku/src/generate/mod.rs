//! Making puzzles: a random solution, then givens taken away while the puzzle stays unique.
//!
//! A puzzle starts from a random solution of the empty grid, found by a search that tries
//! values in random order. Then each cell (with the cells the [`Symmetry`] pairs it with), in
//! random order, is emptied if singles alone (naked and hidden) still fill the grid: a quick
//! check that keeps the puzzle unique. That is the quick puzzle, solvable by singles. A
//! [minimal](Options::minimal) one goes on: each given (group) left, in random order, is
//! taken away if a search finds no second solution without it, so in the end no given
//! (group) can go. A puzzle of a [difficulty](Options::difficulty) above easy, rare among
//! minimal ones, is found by a walk: from the quick puzzle, moves that take a given away
//! and add the cells that rule out the other solutions this lets in, kept while the rating
//! comes no further from the level asked for. Every puzzle handed out is then proven unique by the engine
//! ([`SudokuSolver::count`] to 2), never trusted to the digging alone.
//!
//! Puzzle `i` of a seed depends on the seed and `i` only, so output is reproducible and the
//! puzzles can be made on any number of threads in any order.
//!
//! ```
//! use bezzel_sudoku::generate::{Generator, Options, Symmetry};
//! use bezzel_sudoku::model::{count, Status};
//!
//! let options = Options { symmetry: Symmetry::Rotational, minimal: true, ..Options::default() };
//! let mut generator = Generator::new(options)?;
//! let made = generator.puzzle(0)?;
//! assert_eq!(count(&made.puzzle, 2)?.status(), Status::Unique);
//! assert_eq!(made, generator.puzzle(0)?, "the same seed and index: the same puzzle");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod search;

use crate::grid::{Grid, is_supported_box_size};
use crate::kernel;
use crate::logic::{self, Difficulty};
use crate::model::{DEFAULT_CONSISTENCY, Status, SudokuError, SudokuSolver};
use search::Layout;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Which cells are given together, so that the givens make a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Symmetry {
    /// Any cells.
    #[default]
    None,
    /// A cell and its image under a half turn of the grid.
    Rotational,
    /// A cell and its mirror image across the middle column.
    Mirror,
    /// A cell and its mirror image across the main diagonal.
    Diagonal,
}

impl Symmetry {
    /// The cells given together with `(row, col)` in an `n`×`n` grid, itself included.
    fn orbit(self, n: usize, row: usize, col: usize) -> Vec<usize> {
        let image = match self {
            Symmetry::None => (row, col),
            Symmetry::Rotational => (n - 1 - row, n - 1 - col),
            Symmetry::Mirror => (row, n - 1 - col),
            Symmetry::Diagonal => (col, row),
        };
        let mut cells = vec![row * n + col, image.0 * n + image.1];
        cells.dedup();
        cells
    }
}

/// What to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Boxes of `box_size × box_size` cells: 3 for 9×9, 4 for 16×16 (2 to 5).
    pub box_size: usize,
    /// The pattern of the givens.
    pub symmetry: Symmetry,
    /// Take givens away until none (no group of the symmetry) can go.
    pub minimal: bool,
    /// The seed: the same seed gives the same puzzles.
    pub seed: u64,
    /// Only puzzles of this level, as [`logic::rate`] grades them (puzzles are made, and
    /// made again, until one is). Puzzles from medium to expert are found by a walk from
    /// the quick puzzle that swaps givens, and need not be minimal; with
    /// [`minimal`](Options::minimal) (and for [`Difficulty::Beyond`]) they are minimal
    /// puzzles, drawn until one has the level (slower).
    pub difficulty: Option<Difficulty>,
}

impl Default for Options {
    /// 9×9, no symmetry, not necessarily minimal, seed 0.
    fn default() -> Options {
        Options {
            box_size: 3,
            symmetry: Symmetry::None,
            minimal: false,
            seed: 0,
            difficulty: None,
        }
    }
}

/// A puzzle made, with its one solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The givens (0 for an empty cell).
    pub puzzle: Grid,
    /// Its only solution.
    pub solution: Grid,
}

/// Why no puzzle was made.
#[derive(Debug)]
pub enum GenerateError {
    /// The box size is not one of the supported ones.
    UnsupportedBoxSize(usize),
    /// The engine's solver could not be built or run.
    Solver(SudokuError),
    /// The cancel flag stopped the search for a puzzle of the difficulty asked for.
    Cancelled,
    /// No puzzle of the difficulty asked for came in this many tries.
    DifficultyNotReached(u64),
    /// The engine did not confirm that a puzzle made is unique: a defect, reported rather
    /// than handed out.
    NotUnique(Grid),
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::UnsupportedBoxSize(b) => {
                write!(f, "box size {b} is not supported: it must be 2 to 5")
            }
            GenerateError::Solver(e) => write!(f, "{e}"),
            GenerateError::Cancelled => write!(f, "stopped before a puzzle was made"),
            GenerateError::DifficultyNotReached(tries) => write!(
                f,
                "no puzzle of that difficulty in {tries} tries: try another level or symmetry"
            ),
            GenerateError::NotUnique(g) => write!(
                f,
                "internal error: a generated puzzle was not proven unique: {}",
                g.to_line()
            ),
        }
    }
}

impl std::error::Error for GenerateError {}

impl From<SudokuError> for GenerateError {
    fn from(e: SudokuError) -> GenerateError {
        GenerateError::Solver(e)
    }
}

/// Nodes the quick search may spend on one question before it is given up (the given is then
/// kept, or the solution drawn again): far more than a 9×9 or 16×16 question takes.
const BUDGET: u64 = 20_000;

/// Puzzles made for one of a given difficulty before giving up.
const TRIES: u64 = 100_000;

/// Cells a move of the walk may add to rule out the other solutions that taking a given
/// away lets in.
const FIXES: usize = 3;

/// Moves of one walk towards a difficulty before it starts again from a new solution.
const WALK: u64 = 500;

/// Makes puzzles as [`Options`] say; see the [module docs](self).
#[derive(Debug)]
pub struct Generator {
    options: Options,
    layout: Layout,
    prover: SudokuSolver,
    cancel: Option<Arc<AtomicBool>>,
}

impl Generator {
    /// A generator for `options`.
    pub fn new(options: Options) -> Result<Generator, GenerateError> {
        if !is_supported_box_size(options.box_size) {
            return Err(GenerateError::UnsupportedBoxSize(options.box_size));
        }
        Ok(Generator {
            options,
            layout: Layout::new(options.box_size),
            prover: SudokuSolver::new(options.box_size, DEFAULT_CONSISTENCY)?,
            cancel: None,
        })
    }

    /// Sets a flag that another thread can raise (Ctrl-C, a time limit) to stop the search
    /// for a puzzle of a [`difficulty`](Options::difficulty) between two tries: the puzzle
    /// being made then fails with [`GenerateError::Cancelled`].
    pub fn set_cancel_flag(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }

    /// The options it makes puzzles for.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Puzzle number `index` of the seed, proven unique by the engine.
    pub fn puzzle(&mut self, index: u64) -> Result<Generated, GenerateError> {
        let mut rng = SplitMix::new(self.options.seed, index);
        let Some(wanted) = self.options.difficulty else {
            return self.one(&mut rng, self.options.minimal);
        };
        if !self.options.minimal && wanted > Difficulty::Easy && wanted < Difficulty::Beyond {
            return self.of_level(&mut rng, wanted);
        }
        let minimal = self.options.minimal || wanted > Difficulty::Easy;
        for _ in 0..TRIES {
            if self
                .cancel
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
            {
                return Err(GenerateError::Cancelled);
            }
            let made = self.one(&mut rng, minimal)?;
            // Singles alone (one node of the quick search) finish exactly the easy puzzles:
            // no rating needed to turn those away.
            let easy = search::count(&self.layout, made.puzzle.cells(), None, 2, 1) == Some(1);
            if easy != (wanted == Difficulty::Easy) {
                continue;
            }
            if logic::level_within(&made.puzzle, Difficulty::Beyond) == wanted {
                return Ok(made);
            }
        }
        Err(GenerateError::DifficultyNotReached(TRIES))
    }

    /// A puzzle of level `wanted` (above easy, below beyond), by a walk among the unique
    /// puzzles of one solution: the quick puzzle first, then moves that take one given
    /// (group) away and give back cells where another solution differs until the puzzle is
    /// unique again ([`Generator::rule_out_others`]), kept when its rating
    /// ([`logic::rate_within`] `wanted`) comes no further from `wanted`. A move costs a few
    /// quick searches and one rating, a small part of what drawing a new minimal puzzle
    /// costs, and the walk climbs towards the level where drawing would hope for it; a walk that
    /// does not reach `wanted` in [`WALK`] moves starts again from a new solution. The
    /// puzzle found is proven unique by the engine, as every other.
    fn of_level(
        &mut self,
        rng: &mut SplitMix,
        wanted: Difficulty,
    ) -> Result<Generated, GenerateError> {
        let box_size = self.options.box_size;
        let n = self.layout.n;
        // The level of a unique puzzle, as far as the walk needs it: any level above
        // `wanted` reads `Beyond`, found with no technique above `wanted` tried.
        let nine = n == kernel::BOX_SIZE * kernel::BOX_SIZE;
        // On 9x9 the grid that singles reach from the givens (`None` elsewhere): the level
        // depends on it alone, so a move that reaches the same grid keeps the level.
        let singles = |givens: &[u8]| nine.then(|| kernel::singles(givens)).flatten();
        let level = |givens: &[u8], singles: &Option<Vec<u8>>| {
            let within = |ceiling| match singles {
                Some(values) => logic::level_of_singles(values, ceiling),
                None => {
                    let grid = Grid::from_cells(box_size, givens.to_vec()).expect("a grid");
                    logic::level_within(&grid, ceiling)
                }
            };
            match within(wanted) {
                // The ceiling can find an easier way than the full rating (an X-wing, hard,
                // is tried before a hidden pair, medium): the full rating decides.
                d if d == wanted => within(Difficulty::Beyond).max(d),
                d => d,
            }
        };
        let distance = |d: Difficulty| (d as i32 - wanted as i32).abs();
        for _ in 0..TRIES / WALK {
            if self
                .cancel
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
            {
                return Err(GenerateError::Cancelled);
            }
            let solution = loop {
                if let Some(found) = search::random_solution(&self.layout, rng, BUDGET) {
                    break found;
                }
            };
            let mut givens = self.dig(&solution, rng, false);
            let mut reached = singles(&givens);
            let mut now = level(&givens, &reached);
            for _ in 0..WALK {
                if now == wanted {
                    let puzzle = Grid::from_cells(box_size, givens).expect("a grid");
                    let solution = Grid::from_cells(box_size, solution).expect("a grid");
                    return self.proven(puzzle, solution);
                }
                let symmetry = self.options.symmetry;
                let pick = |rng: &mut SplitMix, given: bool| loop {
                    let c = rng.below(n * n);
                    if (givens[c] != 0) == given {
                        break symmetry.orbit(n, c / n, c % n);
                    }
                };
                // A given (group) out; if that lets another solution in, a cell where that
                // one differs from the solution given in its place, which rules it out.
                let mut next = givens.clone();
                let removed = pick(rng, true);
                for &c in &removed {
                    next[c] = 0;
                }
                if !self.rule_out_others(&mut next, &solution, &removed, rng) {
                    continue;
                }
                // A move that gave back the cells it took, or whose singles reach the grid
                // they reached, keeps the level.
                if next == givens {
                    continue;
                }
                let next_reached = singles(&next);
                let then = match next_reached.is_some() && next_reached == reached {
                    true => now,
                    false => level(&next, &next_reached),
                };
                if distance(then) <= distance(now) {
                    (givens, now, reached) = (next, then, next_reached);
                }
            }
        }
        Err(GenerateError::DifficultyNotReached(TRIES))
    }

    /// Adds to `givens` cells of `solution` (groups of the symmetry) where another solution
    /// differs, until `solution` is the only one: false when a few cells are not enough.
    /// With the cells `removed` given, `solution` was the only solution, so every other one
    /// differs from it in a removed cell: with one cell removed, the search for another rules
    /// that cell's value out before it starts (the tree below that value holds no other
    /// solution) and ends at the first solution it finds.
    fn rule_out_others(
        &self,
        givens: &mut [u8],
        solution: &[u8],
        removed: &[usize],
        rng: &mut SplitMix,
    ) -> bool {
        let n = self.layout.n;
        let mut differing = match *removed {
            [c] => Some(search::Differing::new(
                &self.layout,
                givens,
                (c, solution[c]),
            )),
            _ => None,
        };
        let other_of = |givens: &[u8], differing: &Option<search::Differing>| match differing {
            Some(differing) => differing.first(BUDGET),
            None => search::other_solution(&self.layout, givens, solution, BUDGET),
        };
        for _ in 0..FIXES {
            let other = match other_of(givens, &differing) {
                Some(None) => return true,
                Some(Some(other)) => other,
                None => return false,
            };
            let differ: Vec<usize> = (0..n * n).filter(|&c| other[c] != solution[c]).collect();
            let c = differ[rng.below(differ.len())];
            for c in self.options.symmetry.orbit(n, c / n, c % n) {
                givens[c] = solution[c];
                if let Some(differing) = &mut differing {
                    differing.give(c, solution[c]);
                }
            }
        }
        other_of(givens, &differing) == Some(None)
    }

    /// `puzzle` with `solution`, once the engine has proven it the only one.
    fn proven(&mut self, puzzle: Grid, solution: Grid) -> Result<Generated, GenerateError> {
        let proof = self.prover.count(&puzzle, 2)?;
        if proof.status() != Status::Unique || proof.solution.as_ref() != Some(&solution) {
            return Err(GenerateError::NotUnique(puzzle));
        }
        Ok(Generated { puzzle, solution })
    }

    /// One puzzle, drawn with `rng`.
    fn one(&mut self, rng: &mut SplitMix, minimal: bool) -> Result<Generated, GenerateError> {
        let solution = loop {
            if let Some(found) = search::random_solution(&self.layout, rng, BUDGET) {
                break found;
            }
        };
        let made = self.dig(&solution, rng, minimal);
        let box_size = self.options.box_size;
        let puzzle = Grid::from_cells(box_size, made).expect("a grid of the right size");
        let solution = Grid::from_cells(box_size, solution).expect("a grid of the right size");
        self.proven(puzzle, solution)
    }

    /// The givens: the solution, with every group that singles can do without taken away,
    /// then, for a minimal puzzle, every group that the puzzle stays unique without.
    fn dig(&self, solution: &[u8], rng: &mut SplitMix, minimal: bool) -> Vec<u8> {
        let n = self.layout.n;
        let mut givens = solution.to_vec();
        let mut order: Vec<usize> = (0..n * n).collect();
        rng.shuffle(&mut order);
        // One node: the root's singles must fill the grid.
        let by_singles = |givens: &[u8], orbit: &[usize]| {
            orbit
                .iter()
                .all(|&c| self.layout.naked_single(givens, c, solution[c]))
                || search::filled_by_singles(&self.layout, givens)
        };
        self.take_away(&mut givens, solution, &order, by_singles);
        if minimal {
            rng.shuffle(&mut order);
            let unique = |givens: &[u8], orbit: &[usize]| match *orbit {
                // One cell: unique when no solution has another value there.
                [c] => {
                    search::count(&self.layout, givens, Some((c, solution[c])), 1, BUDGET)
                        == Some(0)
                }
                _ => search::count(&self.layout, givens, None, 2, BUDGET) == Some(1),
            };
            self.take_away(&mut givens, solution, &order, unique);
        }
        givens
    }

    /// Empties each group of given cells, in `order`, that `keeps_unique` says can go.
    fn take_away(
        &self,
        givens: &mut [u8],
        solution: &[u8],
        order: &[usize],
        keeps_unique: impl Fn(&[u8], &[usize]) -> bool,
    ) {
        let n = self.layout.n;
        for &cell in order {
            if givens[cell] == 0 {
                continue;
            }
            let orbit = self.options.symmetry.orbit(n, cell / n, cell % n);
            for &c in &orbit {
                givens[c] = 0;
            }
            if !keeps_unique(givens, &orbit) {
                for &c in &orbit {
                    givens[c] = solution[c];
                }
            }
        }
    }
}

/// `count` puzzles of `options`, numbers `0..count` of its seed.
pub fn generate(options: Options, count: u64) -> Result<Vec<Generated>, GenerateError> {
    let mut generator = Generator::new(options)?;
    (0..count).map(|i| generator.puzzle(i)).collect()
}

/// A small deterministic generator (SplitMix64, Steele, Lea and Flood 2014), so that a seed
/// gives the same puzzles everywhere.
#[derive(Debug, Clone)]
pub(crate) struct SplitMix(u64);

impl SplitMix {
    /// The generator of puzzle `index` of `seed`.
    fn new(seed: u64, index: u64) -> SplitMix {
        let mut mixer = SplitMix(seed);
        let base = mixer.next();
        SplitMix(base ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03))
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `bound` (> 0).
    fn below(&mut self, bound: usize) -> usize {
        ((u128::from(self.next()) * bound as u128) >> 64) as usize
    }

    /// Fisher-Yates.
    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}
