//! The generator's own small search: candidates as bitmasks, naked and hidden singles, and
//! branching on the cell with the fewest candidates. Digging a puzzle asks "is it still
//! unique?" dozens of times; this answers in microseconds, with no model to load. It only
//! steers the digging: every puzzle handed out is proven unique by the engine's solver
//! ([`SudokuSolver`](crate::model::SudokuSolver)) as well. 9×9 questions go to the
//! [`kernel`](crate::kernel), which applies the same rules value-major on bitboards.

use super::SplitMix;
use crate::kernel;
use bezzel_core::StopReason;

/// The cells, units and peers of one grid size.
#[derive(Debug)]
pub(crate) struct Layout {
    /// Cells per side (and values).
    pub(crate) n: usize,
    /// Every value's bit set.
    full: u32,
    /// The cells of each row, column and box.
    units: Vec<Vec<u16>>,
    /// The other cells of each cell's row, column and box.
    peers: Vec<Vec<u16>>,
}

impl Layout {
    pub(crate) fn new(box_size: usize) -> Layout {
        let n = box_size * box_size;
        let mut units: Vec<Vec<u16>> = Vec::with_capacity(3 * n);
        for r in 0..n {
            units.push((0..n).map(|c| (r * n + c) as u16).collect());
        }
        for c in 0..n {
            units.push((0..n).map(|r| (r * n + c) as u16).collect());
        }
        for b in 0..n {
            let (top, left) = ((b / box_size) * box_size, (b % box_size) * box_size);
            units.push(
                (0..n)
                    .map(|i| ((top + i / box_size) * n + left + i % box_size) as u16)
                    .collect(),
            );
        }
        let mut peers = vec![Vec::new(); n * n];
        for unit in &units {
            for &a in unit {
                for &b in unit {
                    if a != b && !peers[a as usize].contains(&b) {
                        peers[a as usize].push(b);
                    }
                }
            }
        }
        Layout {
            n,
            full: if n == 32 { u32::MAX } else { (1 << n) - 1 },
            units,
            peers,
        }
    }
}

impl Layout {
    /// Whether the givens of `cell`'s peers leave it `value` alone: then emptying it keeps
    /// the puzzle as solvable by singles as it was, with no search to tell.
    pub(crate) fn naked_single(&self, givens: &[u8], cell: usize, value: u8) -> bool {
        let seen = self.peers[cell]
            .iter()
            .map(|&p| givens[p as usize])
            .filter(|&v| v != 0)
            .fold(0u32, |m, v| m | 1 << (v - 1));
        seen | 1 << (value - 1) == self.full && seen & 1 << (value - 1) == 0
    }
}

/// A grid of candidates part way through a search.
#[derive(Clone, Debug)]
struct Board {
    cand: Vec<u32>,
    /// Cells whose value has been taken out of their peers.
    fixed: Vec<bool>,
}

/// How a search may branch, and how much it may do.
struct Walk<'a> {
    layout: &'a Layout,
    /// Values tried in random order (for a random solution), or in rising order.
    rng: Option<&'a mut SplitMix>,
    /// Nodes left before the search gives up.
    budget: u64,
    /// A solution not to keep as the first one found (the one a puzzle is made from).
    avoid: Option<&'a [u8]>,
}

impl Board {
    /// The board of `givens` (0 for empty), its singles propagated: `None` when they clash.
    fn new(layout: &Layout, givens: &[u8], exclude: Option<(usize, u8)>) -> Option<Board> {
        let mut board = Board {
            cand: vec![layout.full; givens.len()],
            fixed: vec![false; givens.len()],
        };
        if let Some((cell, value)) = exclude {
            board.cand[cell] &= !(1 << (value - 1));
        }
        let mut stack = Vec::new();
        for (cell, &v) in givens.iter().enumerate() {
            if v != 0 {
                let bit = 1u32 << (v - 1);
                if board.cand[cell] & bit == 0 {
                    return None;
                }
                board.cand[cell] = bit;
                stack.push(cell as u16);
            }
        }
        board.propagate(layout, stack).then_some(board)
    }

    /// Takes the value of each cell on `stack` (and of each cell left with one candidate, or
    /// the only place of a value in a unit) out of its peers: false on a contradiction.
    fn propagate(&mut self, layout: &Layout, mut stack: Vec<u16>) -> bool {
        loop {
            while let Some(cell) = stack.pop() {
                let cell = cell as usize;
                if self.fixed[cell] {
                    continue;
                }
                self.fixed[cell] = true;
                let bit = self.cand[cell];
                for &p in &layout.peers[cell] {
                    let p = p as usize;
                    if self.cand[p] & bit != 0 {
                        self.cand[p] &= !bit;
                        match self.cand[p].count_ones() {
                            0 => return false,
                            1 => stack.push(p as u16),
                            _ => {}
                        }
                    }
                }
            }
            // Hidden singles: a value with one place left in a unit goes there.
            for unit in &layout.units {
                let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
                for &c in unit {
                    let m = self.cand[c as usize];
                    twice |= once & m;
                    once |= m;
                    if self.fixed[c as usize] {
                        placed |= m;
                    }
                }
                if once != layout.full {
                    return false;
                }
                let mut hidden = once & !twice & !placed;
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden &= hidden - 1;
                    if let Some(&c) = unit.iter().find(|&&c| self.cand[c as usize] & bit != 0) {
                        if self.cand[c as usize] != bit {
                            self.cand[c as usize] = bit;
                        }
                        stack.push(c);
                    }
                }
            }
            if stack.is_empty() {
                return true;
            }
        }
    }

    /// The open cell with the fewest candidates, or `None` when every cell is fixed.
    fn branch_cell(&self) -> Option<usize> {
        let mut best = None;
        let mut fewest = u32::MAX;
        for (cell, &m) in self.cand.iter().enumerate() {
            if !self.fixed[cell] {
                let k = m.count_ones();
                if k < fewest {
                    fewest = k;
                    best = Some(cell);
                    if k == 2 {
                        break;
                    }
                }
            }
        }
        best
    }

    fn values(&self) -> Vec<u8> {
        self.cand
            .iter()
            .map(|m| m.trailing_zeros() as u8 + 1)
            .collect()
    }
}

impl Walk<'_> {
    /// Counts solutions below `board` up to `limit`, adding to `found` (and keeping the first
    /// in `first`, with the cells branched on along its path): false if the budget ran out.
    fn count(
        &mut self,
        board: Board,
        limit: usize,
        found: &mut usize,
        first: &mut Option<(Vec<u8>, Vec<u16>)>,
        path: &mut Vec<u16>,
    ) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let Some(cell) = board.branch_cell() else {
            *found += 1;
            if first.is_none() {
                let values = board.values();
                if self.avoid != Some(&values[..]) {
                    *first = Some((values, path.clone()));
                }
            }
            return true;
        };
        let mut bits: Vec<u32> = (0..self.layout.n as u32)
            .map(|v| 1 << v)
            .filter(|b| board.cand[cell] & b != 0)
            .collect();
        if let Some(rng) = self.rng.as_deref_mut() {
            rng.shuffle(&mut bits);
        }
        path.push(cell as u16);
        for bit in bits {
            let mut child = board.clone();
            child.cand[cell] = bit;
            if child.propagate(self.layout, vec![cell as u16])
                && !self.count(child, limit, found, first, path)
            {
                path.pop();
                return false;
            }
            if *found >= limit {
                break;
            }
        }
        path.pop();
        true
    }
}

/// The number of solutions of `givens` up to `limit`, with the value `exclude.1` ruled out of
/// the cell `exclude.0` when given; `None` when `budget` nodes were not enough to tell.
pub(crate) fn count(
    layout: &Layout,
    givens: &[u8],
    exclude: Option<(usize, u8)>,
    limit: usize,
    budget: u64,
) -> Option<usize> {
    if layout.n == kernel::BOX_SIZE * kernel::BOX_SIZE {
        let found = ask_kernel(givens, exclude, None, limit, budget);
        return (found.stats.stopped != Some(StopReason::NodeLimit))
            .then_some(found.stats.solutions as usize);
    }
    let Some(board) = Board::new(layout, givens, exclude) else {
        return Some(0);
    };
    let mut walk = Walk {
        layout,
        rng: None,
        budget,
        avoid: None,
    };
    let mut found = 0;
    walk.count(board, limit, &mut found, &mut None, &mut Vec::new())
        .then_some(found)
}

/// Whether singles alone fill the grid from `givens`: a search of one node finds the solution.
pub(crate) fn filled_by_singles(layout: &Layout, givens: &[u8]) -> bool {
    if layout.n == kernel::BOX_SIZE * kernel::BOX_SIZE {
        return kernel::filled_by_singles(givens);
    }
    count(layout, givens, None, 2, 1) == Some(1)
}

/// A solution of `givens` other than `solution` (one of theirs): `Some(None)` when there is
/// none, `None` when `budget` nodes were not enough to tell. The first other one in the
/// search's order; the 9×9 kernel stops there, not at a second solution.
pub(crate) fn other_solution(
    layout: &Layout,
    givens: &[u8],
    solution: &[u8],
    budget: u64,
) -> Option<Option<Vec<u8>>> {
    if layout.n == kernel::BOX_SIZE * kernel::BOX_SIZE {
        let found = ask_kernel(givens, None, Some(solution), 2, budget);
        return (found.stats.stopped != Some(StopReason::NodeLimit)).then_some(found.first);
    }
    let Some(board) = Board::new(layout, givens, None) else {
        return Some(None);
    };
    let mut walk = Walk {
        layout,
        rng: None,
        budget,
        avoid: Some(solution),
    };
    let (mut found, mut first) = (0, None);
    walk.count(board, 2, &mut found, &mut first, &mut Vec::new())
        .then(|| first.map(|(other, _)| other))
}

/// The first solution of `givens` with the value `exclude.1` ruled out of the cell
/// `exclude.0`: `Some(None)` when there is none, `None` when `budget` nodes were not enough
/// to tell.
pub(crate) fn first_solution(
    layout: &Layout,
    givens: &[u8],
    exclude: (usize, u8),
    budget: u64,
) -> Option<Option<Vec<u8>>> {
    if layout.n == kernel::BOX_SIZE * kernel::BOX_SIZE {
        let found = ask_kernel(givens, Some(exclude), None, 1, budget);
        return (found.stats.stopped != Some(StopReason::NodeLimit)).then_some(found.first);
    }
    let Some(board) = Board::new(layout, givens, Some(exclude)) else {
        return Some(None);
    };
    let mut walk = Walk {
        layout,
        rng: None,
        budget,
        avoid: None,
    };
    let (mut found, mut first) = (0, None);
    walk.count(board, 1, &mut found, &mut first, &mut Vec::new())
        .then(|| first.map(|(other, _)| other))
}

/// The question "a solution of `givens` with the value `exclude.1` ruled out of the cell
/// `exclude.0`?" asked again as givens are added: on 9×9 the kernel's [`kernel::Root`]
/// keeps the singles already placed, on other sizes each question starts again.
pub(crate) struct Differing<'a> {
    layout: &'a Layout,
    givens: Vec<u8>,
    exclude: (usize, u8),
    root: Option<kernel::Root>,
}

impl<'a> Differing<'a> {
    pub(crate) fn new(layout: &'a Layout, givens: &[u8], exclude: (usize, u8)) -> Differing<'a> {
        let nine = layout.n == kernel::BOX_SIZE * kernel::BOX_SIZE;
        Differing {
            layout,
            givens: givens.to_vec(),
            exclude,
            root: nine.then(|| kernel::Root::new(givens, Some(exclude))),
        }
    }

    /// Gives `value` in `cell` too.
    pub(crate) fn give(&mut self, cell: usize, value: u8) {
        self.givens[cell] = value;
        if let Some(root) = &mut self.root {
            root.give(cell, value);
        }
    }

    /// [`first_solution`] of the givens so far.
    pub(crate) fn first(&self, budget: u64) -> Option<Option<Vec<u8>>> {
        match &self.root {
            Some(root) => root.first(&self.givens, budget).ok(),
            None => first_solution(self.layout, &self.givens, self.exclude, budget),
        }
    }
}

/// A 9×9 question put to the [`kernel`], which answers it with the same propagation and
/// branching as the search here (so the same answers), faster and with no board to build.
fn ask_kernel(
    givens: &[u8],
    exclude: Option<(usize, u8)>,
    avoid: Option<&[u8]>,
    limit: usize,
    budget: u64,
) -> kernel::Found {
    let question = kernel::Question { exclude, avoid };
    let limits = kernel::Limits {
        solutions: limit as u64,
        nodes: Some(budget),
        ..kernel::Limits::default()
    };
    kernel::ask(givens, question, limits)
}

/// A random solution of the empty grid (on 9×9 the [`kernel`]'s); `None` when `budget` nodes
/// were not enough.
pub(crate) fn random_solution(layout: &Layout, rng: &mut SplitMix, budget: u64) -> Option<Vec<u8>> {
    if layout.n == kernel::BOX_SIZE * kernel::BOX_SIZE {
        return kernel::random_solution(&mut |values: &mut [u8]| rng.shuffle(values), budget);
    }
    let board = Board::new(layout, &vec![0; layout.n * layout.n], None)?;
    let mut walk = Walk {
        layout,
        rng: Some(rng),
        budget,
        avoid: None,
    };
    let (mut found, mut first) = (0, None);
    walk.count(board, 1, &mut found, &mut first, &mut Vec::new());
    first.map(|(solution, _)| solution)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check;
    use crate::generate::{BUDGET, Generator, Options};
    use crate::grid::Grid;

    /// Solutions of `cells` up to `limit`, by plain backtracking over the definition (no code
    /// shared with the searches above).
    fn brute_count(box_size: usize, cells: &mut [u8], limit: usize) -> usize {
        let n = box_size * box_size;
        let Some(at) = cells.iter().position(|&v| v == 0) else {
            return 1;
        };
        let (r, c) = (at / n, at % n);
        let (top, left) = (r / box_size * box_size, c / box_size * box_size);
        let mut found = 0;
        for v in 1..=n as u8 {
            let clash = (0..n).any(|i| {
                cells[r * n + i] == v
                    || cells[i * n + c] == v
                    || cells[(top + i / box_size) * n + left + i % box_size] == v
            });
            if !clash {
                cells[at] = v;
                found += brute_count(box_size, cells, limit - found);
                cells[at] = 0;
                if found >= limit {
                    break;
                }
            }
        }
        found
    }

    /// The layout of boxes of `box_size` cells a side, and a generator of plain puzzles.
    fn sized(box_size: usize, seed: u64) -> (Layout, Generator) {
        let options = Options {
            box_size,
            seed,
            ..Options::default()
        };
        (Layout::new(box_size), Generator::new(options).unwrap())
    }

    /// The 9×9 random solutions (the kernel's) are full grids that the definition accepts,
    /// the same for the same draws and different for different ones.
    #[test]
    fn random_solutions_are_valid_grids_reproducible_and_varied() {
        let layout = Layout::new(3);
        let mut seen = std::collections::HashSet::new();
        for index in 0..40 {
            let draw = || random_solution(&layout, &mut SplitMix::new(5, index), BUDGET);
            let solution = draw().expect("the empty grid is solved within the budget");
            let grid = Grid::from_cells(3, solution.clone()).unwrap();
            assert!(check::is_complete_and_valid(&grid), "{solution:?}");
            assert_eq!(
                draw(),
                Some(solution.clone()),
                "the same draws, the same grid"
            );
            seen.insert(solution);
        }
        assert_eq!(seen.len(), 40, "forty draws, forty grids");
    }

    /// Takes each given of a unique puzzle away in turn: the first solution with its value
    /// ruled out is a solution of the rest that differs there, and there is none exactly when
    /// the rest is still unique.
    #[test]
    fn the_first_solution_with_a_value_ruled_out_differs_there_or_the_rest_is_unique() {
        let (mut unique, mut other) = (0, 0);
        for box_size in [2, 3] {
            let (layout, mut generator) = sized(box_size, 11);
            for index in 0..3 {
                let made = generator.puzzle(index).unwrap();
                let solution = made.solution.cells();
                // More givens than needed, so that some can go with the puzzle still unique.
                let puzzle: Vec<u8> = (0..solution.len())
                    .map(|c| match c % 4 {
                        0 => solution[c],
                        _ => made.puzzle.cells()[c],
                    })
                    .collect();
                for cell in (0..solution.len()).filter(|&c| puzzle[c] != 0) {
                    let mut rest = puzzle.clone();
                    rest[cell] = 0;
                    let found = first_solution(&layout, &rest, (cell, solution[cell]), BUDGET);
                    let alone = brute_count(box_size, &mut rest.clone(), 2) == 1;
                    match found.expect("within the budget") {
                        None => {
                            assert!(alone, "no other solution reported, but there is one");
                            unique += 1;
                        }
                        Some(found) => {
                            assert!(!alone, "another solution reported for a unique puzzle");
                            assert_ne!(found[cell], solution[cell]);
                            let rest = Grid::from_cells(box_size, rest).unwrap();
                            let found = Grid::from_cells(box_size, found).unwrap();
                            assert_eq!(check::is_valid_solution(&rest, &found), Ok(()));
                            other += 1;
                        }
                    }
                }
            }
        }
        assert!(
            unique > 0 && other > 0,
            "both answers met: {unique}, {other}"
        );
    }

    /// Takes a given of a unique puzzle away, then gives back cells where the other solution
    /// found differs, one at a time: each answer of the kept root is the answer of a search
    /// from scratch, and agrees with the counter here.
    #[test]
    fn a_root_given_more_cells_answers_as_a_search_from_scratch() {
        let (mut unique, mut other, mut again) = (0, 0, 0);
        for box_size in [2, 3] {
            let (layout, mut generator) = sized(box_size, 12);
            let made = generator.puzzle(0).unwrap();
            let solution = made.solution.cells();
            for cell in (0..solution.len()).filter(|&c| made.puzzle.cells()[c] != 0) {
                let mut rest = made.puzzle.cells().to_vec();
                rest[cell] = 0;
                let exclude = (cell, solution[cell]);
                let mut differing = Differing::new(&layout, &rest, exclude);
                for round in 0..4 {
                    let found = differing.first(BUDGET).expect("within the budget");
                    let scratch = first_solution(&layout, &rest, exclude, BUDGET).unwrap();
                    assert_eq!(found, scratch);
                    let alone = brute_count(box_size, &mut rest.clone(), 2) == 1;
                    let Some(found) = found else {
                        assert!(alone, "no other solution reported, but there is one");
                        unique += 1;
                        break;
                    };
                    assert!(!alone, "another solution reported for a unique puzzle");
                    other += 1;
                    again += usize::from(round > 0);
                    // Not the cell taken away: that would make it unique at once.
                    let fix = (0..solution.len())
                        .find(|&c| c != cell && found[c] != solution[c])
                        .unwrap();
                    rest[fix] = solution[fix];
                    differing.give(fix, solution[fix]);
                }
            }
        }
        assert!(
            unique > 0 && again > 0,
            "both answers met: {unique}, {other}, {again}"
        );
    }
}
