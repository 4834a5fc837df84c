//! A hand-written search for 9×9 puzzles: candidates held value-major as bitboards, naked
//! and hidden singles, branching on a cell with two candidates.
//!
//! The engine's model ([`crate::model`]) pays for its generality on every node: a store of
//! domains, a trail, a queue of propagators, a matching per unit. On puzzles that singles
//! nearly finish (easy ones, and ones with many solutions, where a count to 2 is two dives to
//! a full grid) that cost is most of the work. Here the whole state of a node is one 81-bit
//! board per value (the cells that can still take it) and the set of open cells: 160 bytes,
//! copied to branch, so nothing is undone. Placing a value clears its cell from the other
//! values' boards and the value from the cell's peers; a cell left with one value
//! (naked single) or a value left with one cell in a row, column or box (hidden single) is
//! placed in turn, until neither is found. Then the search branches on the first open cell
//! with the fewest candidates, values in rising order.
//!
//! The counts are exact: a branch is cut only when some open cell has no value left, some
//! unit has no place left for a value, or a value would go beside a peer holding it. Each
//! solution can be checked as it is found ([`Limits::check`]) by tests that share nothing
//! with the propagation: every value once in every unit, every given kept.

use crate::grid::Grid;
use bezzel_core::{Statistics, StopReason};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The box size of the grids the kernel takes: 3, for 9×9.
pub const BOX_SIZE: usize = 3;
/// Cells per side.
const N: usize = BOX_SIZE * BOX_SIZE;
/// Cells in the grid.
const CELLS: usize = N * N;
/// Every cell's bit.
const ALL: u128 = (1 << CELLS) - 1;

/// The cells of each row, column and box (rows 0-8, columns 9-17, boxes 18-26).
static UNITS: [u128; 3 * N] = units();
/// The other cells of each cell's row, column and box.
static PEERS: [u128; CELLS] = peers();
/// The units of each cell, one bit per unit as numbered in [`UNITS`].
static CELL_UNITS: [u32; CELLS] = cell_units();
/// Every unit's bit.
const ALL_UNITS: u32 = (1 << (3 * N)) - 1;
/// The units that hold a peer of each cell: where placing a value there can leave that
/// value with fewer places.
static PEER_UNITS: [u32; CELLS] = peer_units();

const fn peer_units() -> [u32; CELLS] {
    let peers = peers();
    let of = cell_units();
    let mut units = [0u32; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut p = 0;
        while p < CELLS {
            if peers[cell] & (1 << p) != 0 {
                units[cell] |= of[p];
            }
            p += 1;
        }
        cell += 1;
    }
    units
}

const fn cell_units() -> [u32; CELLS] {
    let mut of = [0u32; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = (cell / N, cell % N);
        of[cell] = 1 << r | 1 << (N + c) | 1 << (2 * N + (r / 3) * 3 + c / 3);
        cell += 1;
    }
    of
}

const fn units() -> [u128; 3 * N] {
    let mut units = [0u128; 3 * N];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = (cell / N, cell % N);
        units[r] |= 1 << cell;
        units[N + c] |= 1 << cell;
        units[2 * N + (r / 3) * 3 + c / 3] |= 1 << cell;
        cell += 1;
    }
    units
}

const fn peers() -> [u128; CELLS] {
    let units = units();
    let mut peers = [0u128; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut u = 0;
        while u < 3 * N {
            if units[u] & (1 << cell) != 0 {
                peers[cell] |= units[u];
            }
            u += 1;
        }
        peers[cell] &= !(1 << cell);
        cell += 1;
    }
    peers
}

/// The candidates of a grid part way through a search.
#[derive(Clone, Copy, Debug)]
struct Board {
    /// Per value (0 for 1), the cells that hold it or can still take it.
    cand: [u128; N],
    /// The cells with no value placed yet.
    open: u128,
    /// Per value, the units where it is placed: no single of it is looked for there.
    done: [u32; N],
    /// Per value, the units where its places may have changed since they were last looked
    /// at for a hidden single: the others have none (nor a contradiction) to find.
    dirty: [u32; N],
}

impl Board {
    /// The empty grid: every value possible everywhere.
    const EMPTY: Board = Board {
        cand: [ALL; N],
        open: ALL,
        done: [0; N],
        dirty: [ALL_UNITS; N],
    };

    /// The board that placing every one of `givens` (81 values, 0 for an empty cell) reaches,
    /// built in one pass: `None` when two givens clash (a value given twice in a unit).
    fn of_givens(givens: &[u8]) -> Option<Board> {
        let (mut given, mut seen, mut done) = ([0u128; N], [0u128; N], [0u32; N]);
        for (cell, &g) in givens.iter().enumerate() {
            if g != 0 {
                let value = g as usize - 1;
                given[value] |= 1 << cell;
                seen[value] |= PEERS[cell];
                done[value] |= CELL_UNITS[cell];
            }
        }
        let open = ALL & !given.iter().fold(0, |all, &g| all | g);
        let mut cand = [0; N];
        for value in 0..N {
            if given[value] & seen[value] != 0 {
                return None;
            }
            cand[value] = given[value] | (open & !seen[value]);
        }
        Some(Board {
            cand,
            open,
            done,
            dirty: [ALL_UNITS; N],
        })
    }

    /// [`Board::of_givens`] with the value `exclude.1` (1 to 9) ruled out of the cell
    /// `exclude.0` first, as placing the givens on a board without it would leave it: `None`
    /// too when that cell is given that value.
    fn of_givens_excluding(givens: &[u8], exclude: Option<(usize, u8)>) -> Option<Board> {
        let mut board = Board::of_givens(givens)?;
        if let Some((cell, value)) = exclude {
            if givens[cell] == value {
                return None;
            }
            board.cand[value as usize - 1] &= !(1 << cell);
        }
        Some(board)
    }

    /// Places `value` (0-based) in `cell`: false when the cell cannot take it or a peer
    /// already holds it.
    #[inline]
    fn place(&mut self, cell: usize, value: usize) -> bool {
        let bit = 1u128 << cell;
        if self.cand[value] & bit == 0 || self.cand[value] & PEERS[cell] & !self.open != 0 {
            return false;
        }
        for c in &mut self.cand {
            *c &= !bit;
        }
        for d in &mut self.dirty {
            *d |= CELL_UNITS[cell];
        }
        self.cand[value] = (self.cand[value] & !PEERS[cell]) | bit;
        self.open &= !bit;
        self.done[value] |= CELL_UNITS[cell];
        self.dirty[value] |= PEER_UNITS[cell];
        true
    }

    /// Places naked and hidden singles until there are none: false on a contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            // Cells with at least one and with at least two candidates, bit-sliced.
            let (mut one, mut two) = (0u128, 0u128);
            for &c in &self.cand {
                two |= one & c;
                one |= c;
            }
            if self.open & !one != 0 {
                return false;
            }
            let singles = self.open & !two;
            if singles != 0 {
                for value in 0..N {
                    let mut cells = singles & self.cand[value];
                    while cells != 0 {
                        let cell = cells.trailing_zeros() as usize;
                        cells &= cells - 1;
                        // A peer placed just before may have taken the value: the cell is
                        // then empty, which the next round finds.
                        if self.cand[value] & (1 << cell) != 0 && !self.place(cell, value) {
                            return false;
                        }
                    }
                }
                continue;
            }
            let mut placed = false;
            for value in 0..N {
                let mut units = self.dirty[value] & !self.done[value];
                self.dirty[value] = 0;
                while units != 0 {
                    let cells = self.cand[value] & UNITS[units.trailing_zeros() as usize];
                    units &= units - 1;
                    // At most one cell: none is a contradiction, one open cell a single.
                    if cells & cells.wrapping_sub(1) == 0 {
                        if cells == 0 {
                            return false;
                        }
                        // The cell may have been given the value since `units` was read.
                        if cells & self.open != 0 {
                            if !self.place(cells.trailing_zeros() as usize, value) {
                                return false;
                            }
                            placed = true;
                        }
                    }
                }
            }
            if !placed {
                return true;
            }
        }
    }

    /// The first open cell with the fewest candidates (`None` when none is open).
    fn branch_cell(&self) -> Option<usize> {
        if self.open == 0 {
            return None;
        }
        let (mut one, mut two, mut three) = (0u128, 0u128, 0u128);
        for &c in &self.cand {
            three |= two & c;
            two |= one & c;
            one |= c;
        }
        let pairs = self.open & two & !three;
        if pairs != 0 {
            return Some(pairs.trailing_zeros() as usize);
        }
        let mut best = (u32::MAX, 0);
        let mut open = self.open;
        while open != 0 {
            let cell = open.trailing_zeros() as usize;
            open &= open - 1;
            let k = self.cand.iter().filter(|&&c| c & (1 << cell) != 0).count() as u32;
            best = best.min((k, cell));
        }
        Some(best.1)
    }

    /// The grid's values, 1 to 9, and 0 in the cells still open.
    fn values(&self) -> Vec<u8> {
        let mut values = vec![0; CELLS];
        for (value, &c) in (1..).zip(&self.cand) {
            let mut cells = c & !self.open;
            while cells != 0 {
                values[cells.trailing_zeros() as usize] = value;
                cells &= cells - 1;
            }
        }
        values
    }

    /// Whether a full board is a solution of `givens`, by the definition alone: each value
    /// once in every row, column and box, and every given where it was given.
    fn solves(&self, givens: &[u8]) -> bool {
        self.cand
            .iter()
            .all(|&c| UNITS.iter().all(|&u| (c & u).count_ones() == 1))
            && givens
                .iter()
                .enumerate()
                .all(|(cell, &g)| g == 0 || self.cand[g as usize - 1] & (1 << cell) != 0)
    }
}

/// How far a run may go.
#[derive(Debug, Clone, Copy)]
pub struct Limits<'a> {
    /// Stop once this many solutions are found (at least 1).
    pub solutions: u64,
    /// Give up after this many nodes.
    pub nodes: Option<u64>,
    /// Give up after this many failed nodes (the run ends as at the node limit): a puzzle
    /// that singles do not carry far is better left to the model's stronger propagation.
    pub failures: Option<u64>,
    /// Stop at the next node once this is raised.
    pub cancel: Option<&'a AtomicBool>,
    /// Check every solution found against the definition and the givens (and panic on a
    /// wrong one: a bug, never an answer).
    pub check: bool,
}

impl Default for Limits<'_> {
    /// One solution, no node or failure limit, no cancel flag, no check.
    fn default() -> Self {
        Limits {
            solutions: 1,
            nodes: None,
            failures: None,
            cancel: None,
            check: false,
        }
    }
}

/// What a run found: the solutions counted (up to the limit), the first of them, and the
/// statistics (nodes, failures, one propagation per node, the deepest branch, why it stopped).
#[derive(Debug, Clone)]
pub struct Found {
    /// The first solution found, values 1 to 9 row by row.
    pub first: Option<Vec<u8>>,
    /// The run's statistics; `solutions` is the count, exact when `stopped` is `None`.
    pub stats: Statistics,
    /// Whether two givens clash (then there is no solution, found at the root).
    pub givens_clash: bool,
}

/// What the generator asks beyond a count: a value ruled out of a cell before the search
/// starts, and a solution not to keep as the first one found.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Question<'a> {
    /// The cell, and the value (1 to 9) it may not take.
    pub(crate) exclude: Option<(usize, u8)>,
    /// A solution passed over when the first one is kept (it is still counted). The run
    /// then ends at the first other solution: the question is what it is, not how many.
    pub(crate) avoid: Option<&'a [u8]>,
}

/// One search's state.
struct Run<'a> {
    givens: &'a [u8],
    avoid: Option<&'a [u8]>,
    limits: Limits<'a>,
    stats: Statistics,
    first: Option<Vec<u8>>,
}

impl Run<'_> {
    /// Searches below `board` (its last placement made, not yet propagated): false once the
    /// run must stop.
    fn search(&mut self, mut board: Board, depth: u64) -> bool {
        if self.limits.nodes.is_some_and(|n| self.stats.nodes >= n)
            || self
                .limits
                .failures
                .is_some_and(|f| self.stats.failures >= f)
        {
            self.stats.stopped = Some(StopReason::NodeLimit);
            return false;
        }
        if self
            .limits
            .cancel
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            self.stats.stopped = Some(StopReason::Cancelled);
            return false;
        }
        self.stats.nodes += 1;
        self.stats.propagations += 1;
        self.stats.max_depth = self.stats.max_depth.max(depth);
        if !board.propagate() {
            self.stats.failures += 1;
            return true;
        }
        let Some(cell) = board.branch_cell() else {
            assert!(
                !self.limits.check || board.solves(self.givens),
                "the sudoku kernel found a wrong solution"
            );
            self.stats.solutions += 1;
            if self.first.is_none() {
                let values = board.values();
                if self.avoid != Some(&values[..]) {
                    self.first = Some(values);
                    if self.avoid.is_some() {
                        self.stats.stopped = Some(StopReason::SolutionLimit);
                        return false;
                    }
                }
            }
            if self.stats.solutions >= self.limits.solutions {
                self.stats.stopped = Some(StopReason::SolutionLimit);
                return false;
            }
            return true;
        };
        for value in 0..N {
            if board.cand[value] & (1 << cell) != 0 {
                let mut child = board;
                let placed = child.place(cell, value);
                debug_assert!(placed, "a candidate of an open cell can be placed");
                if !self.search(child, depth + 1) {
                    return false;
                }
            }
        }
        true
    }
}

/// Counts the solutions of the 9×9 puzzle `givens` (81 values, 0 for an empty cell) up to
/// `limits.solutions`, keeping the first. Givens that clash make a root failure (no
/// solution). Panics unless `givens` has 81 values of at most 9.
pub fn count(givens: &[u8], limits: Limits<'_>) -> Found {
    ask(givens, Question::default(), limits)
}

/// [`count`], with the generator's [`Question`].
pub(crate) fn ask(givens: &[u8], question: Question<'_>, limits: Limits<'_>) -> Found {
    assert!(
        givens.len() == CELLS && givens.iter().all(|&g| g as usize <= N),
        "the kernel takes 81 values from 0 to 9"
    );
    let start = Instant::now();
    let mut run = Run {
        givens,
        avoid: question.avoid,
        limits: Limits {
            solutions: limits.solutions.max(1),
            ..limits
        },
        stats: Statistics::default(),
        first: None,
    };
    let board = Board::of_givens_excluding(givens, question.exclude);
    let consistent = board.is_some();
    if let Some(board) = board {
        run.search(board, 0);
    } else {
        run.stats.nodes = 1;
        run.stats.failures = 1;
    }
    run.stats.elapsed = start.elapsed();
    Found {
        first: run.first,
        stats: run.stats,
        givens_clash: !consistent,
    }
}

/// The grid that naked and hidden singles reach from the 9×9 `givens` (81 values, 0 for an
/// empty cell), 0 in the cells they leave open: `None` when the givens clash or the singles
/// run into a contradiction. For a puzzle with a solution this is the grid any order of
/// placing singles reaches, the logical rater's first (its levels start from here).
pub(crate) fn singles(givens: &[u8]) -> Option<Vec<u8>> {
    let mut board = Board::of_givens(givens)?;
    board.propagate().then(|| board.values())
}

/// A puzzle's root node, its singles placed, kept so that more givens can be added to it
/// and the question "a solution?" asked again with no board built and no singles found again
/// (the generator adds givens one at a time until a puzzle is unique). Singles reach one grid
/// whatever order they are placed in, so a root given a value reaches the node that the
/// puzzle with that value among its givens has, and the search below is the same.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Root {
    board: Board,
    /// False once givens clash or singles run into a contradiction: no solution.
    consistent: bool,
}

impl Root {
    /// The root of `givens` (81 values, 0 for an empty cell), with the value `exclude.1` (1 to
    /// 9) ruled out of the cell `exclude.0` when given.
    pub(crate) fn new(givens: &[u8], exclude: Option<(usize, u8)>) -> Root {
        assert!(
            givens.len() == CELLS && givens.iter().all(|&g| g as usize <= N),
            "the kernel takes 81 values from 0 to 9"
        );
        match Board::of_givens_excluding(givens, exclude) {
            Some(mut board) => {
                let consistent = board.propagate();
                Root { board, consistent }
            }
            None => Root {
                board: Board::EMPTY,
                consistent: false,
            },
        }
    }

    /// Gives `value` (1 to 9) in `cell` too, and places the singles that follow.
    pub(crate) fn give(&mut self, cell: usize, value: u8) {
        self.consistent =
            self.consistent && self.board.place(cell, value as usize - 1) && self.board.propagate();
    }

    /// The first solution below the root, `None` when there is none; `Err` when `nodes`
    /// nodes were not enough to tell.
    pub(crate) fn first(&self, givens: &[u8], nodes: u64) -> Result<Option<Vec<u8>>, ()> {
        if !self.consistent {
            return Ok(None);
        }
        let mut run = Run {
            givens,
            avoid: None,
            limits: Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
            stats: Statistics::default(),
            first: None,
        };
        run.search(self.board, 0);
        match run.stats.stopped {
            Some(StopReason::NodeLimit) => Err(()),
            _ => Ok(run.first),
        }
    }
}

/// Whether naked and hidden singles alone fill the grid from the 9×9 `givens` (81 values, 0
/// for an empty cell) with no contradiction: the question the generator asks of every cell it
/// digs out, answered with the board built in one pass.
pub(crate) fn filled_by_singles(givens: &[u8]) -> bool {
    assert!(
        givens.len() == CELLS && givens.iter().all(|&g| g as usize <= N),
        "the kernel takes 81 values from 0 to 9"
    );
    Board::of_givens(givens).is_some_and(|mut board| board.propagate() && board.open == 0)
}

/// A random solution of the empty grid: the search of [`count`], with the candidate values of
/// each branch cell in the order `shuffle` leaves them (values 0 to 8). `None` when `nodes`
/// nodes were not enough (the empty grid's search rarely backtracks at all).
pub(crate) fn random_solution(shuffle: &mut dyn FnMut(&mut [u8]), nodes: u64) -> Option<Vec<u8>> {
    /// The first solution below `board` (its last placement not yet propagated).
    fn below(
        mut board: Board,
        shuffle: &mut dyn FnMut(&mut [u8]),
        nodes: &mut u64,
    ) -> Option<Board> {
        if *nodes == 0 {
            return None;
        }
        *nodes -= 1;
        if !board.propagate() {
            return None;
        }
        let Some(cell) = board.branch_cell() else {
            return Some(board);
        };
        let (mut values, mut k) = ([0u8; N], 0);
        for value in 0..N {
            if board.cand[value] & (1 << cell) != 0 {
                values[k] = value as u8;
                k += 1;
            }
        }
        shuffle(&mut values[..k]);
        values[..k].iter().find_map(|&value| {
            let mut child = board;
            child.place(cell, value as usize).then_some(())?;
            below(child, shuffle, nodes)
        })
    }
    let mut nodes = nodes;
    below(Board::EMPTY, shuffle, &mut nodes).map(|board| board.values())
}

/// [`count`] for a [`Grid`], which must be 9×9.
pub fn count_grid(puzzle: &Grid, limits: Limits<'_>) -> Found {
    count(puzzle.cells(), limits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wikipedia::{PUZZLE, SOLUTION};

    fn line(values: &[u8]) -> String {
        values.iter().map(|v| char::from(b'0' + v)).collect()
    }

    /// The board built in one pass is the one placing the givens one by one reaches, clash
    /// for clash; and singles fill the grid exactly when a search of one node finds the
    /// solution.
    #[test]
    fn a_board_built_in_one_pass_is_the_one_placed_given_by_given() {
        let solution: Vec<u8> = SOLUTION.bytes().map(|b| b - b'0').collect();
        let mut state = 7u64;
        let (mut filled, mut clashes) = (0, 0);
        for round in 0..400 {
            let mut givens = solution.clone();
            for given in &mut givens {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                if (state >> 33) % 100 < round / 4 {
                    *given = 0;
                }
            }
            if round % 5 == 0 {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                givens[(state >> 33) as usize % CELLS] = 1 + (state >> 40) as u8 % 9;
            }
            let mut placed = Board::EMPTY;
            let consistent = givens
                .iter()
                .enumerate()
                .all(|(cell, &g)| g == 0 || placed.place(cell, g as usize - 1));
            match Board::of_givens(&givens) {
                None => {
                    assert!(!consistent, "{}", line(&givens));
                    clashes += 1;
                }
                Some(built) => {
                    assert!(consistent, "{}", line(&givens));
                    assert_eq!(built.cand, placed.cand);
                    assert_eq!(built.open, placed.open);
                    assert_eq!(built.done, placed.done);
                    assert_eq!(built.dirty, placed.dirty);
                }
            }
            let one_node = count(
                &givens,
                Limits {
                    solutions: 2,
                    nodes: Some(1),
                    ..Limits::default()
                },
            );
            let by_one_node = one_node.stats.stopped.is_none() && one_node.stats.solutions == 1;
            assert_eq!(filled_by_singles(&givens), by_one_node, "{}", line(&givens));
            filled += usize::from(by_one_node);
        }
        assert!(
            clashes > 10 && filled > 50 && filled < 350,
            "{clashes} {filled}"
        );
    }

    #[test]
    fn solves_and_proves_unique_the_wikipedia_puzzle() {
        let puzzle: Grid = PUZZLE.parse().unwrap();
        let found = count_grid(
            &puzzle,
            Limits {
                solutions: 2,
                check: true,
                ..Limits::default()
            },
        );
        assert_eq!(found.stats.solutions, 1);
        assert_eq!(found.stats.stopped, None);
        assert_eq!(line(&found.first.unwrap()), SOLUTION);
    }
}
