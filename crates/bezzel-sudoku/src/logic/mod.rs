//! Solving as a person does: candidates (pencil marks) and human techniques, with no guessing,
//! to rate how hard a puzzle is and to explain it a step at a time.
//!
//! A [`Candidates`] grid holds the values still possible in each open cell. [`next_step`]
//! looks for the easiest [`Technique`] that applies (singles before locked candidates before
//! subsets, fish, wings and coloring, and forcing chains last) and returns the [`Step`] it finds: a value placed, or
//! candidates removed, with the cells of the pattern that justify it. [`explain`] applies
//! steps until the grid is full or no technique applies; [`rate`] grades a puzzle by the
//! hardest technique its explanation needed (a [`Rating`] with a numeric score on the scale
//! of Sudoku Explainer, whose numbers these follow), and a puzzle that these techniques do
//! not finish is graded [`Grade::BeyondLogic`], never guessed at. Named [`Difficulty`]
//! levels group the grades.
//!
//! Singles come in the order of QQWing and HoDoKu, naked before hidden (in boxes, then in
//! lines), where Sudoku Explainer puts hidden singles first: with candidates on the grid, as
//! here, a cell with one candidate left is in plain sight, and a puzzle that QQWing calls
//! *simple* (naked singles alone solve it) then rates below one it calls *easy* (it needed
//! a hidden single). The naked single scores 1.0; every other score is Sudoku Explainer's.
//!
//! One file per family of techniques: [`singles`](self) (naked and hidden singles),
//! intersections (locked candidates), subsets (naked and hidden pairs, triples and quads),
//! fish (X-wing, swordfish, jellyfish), wings (XY-wing, XYZ-wing), coloring (simple
//! coloring) and chains (forcing chains: a candidate whose assumption leads to a
//! contradiction is false).
//!
//! ```
//! use bezzel_sudoku::grid::Grid;
//! use bezzel_sudoku::logic::{rate, Difficulty, Grade};
//!
//! let puzzle: Grid =
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79".parse()?;
//! let rating = rate(&puzzle);
//! assert_eq!(rating.difficulty(), Difficulty::Easy);
//! assert!(matches!(rating.grade, Grade::Solved { .. }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod chains;
mod coloring;
mod fish;
mod intersections;
mod marks;
mod singles;
mod subsets;
mod wings;

use crate::grid::Grid;
use crate::kernel;
pub use marks::MarksError;
use std::fmt;
use std::sync::OnceLock;

/// The techniques, easiest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    /// A cell with one candidate left.
    NakedSingle,
    /// A value with one place left in a box.
    HiddenSingleBox,
    /// A value with one place left in a row or column.
    HiddenSingleLine,
    /// A box's candidates for a value all in one row or column: not elsewhere in that line.
    Pointing,
    /// A line's candidates for a value all in one box: not elsewhere in that box.
    Claiming,
    /// Two cells of a unit with the same two candidates.
    NakedPair,
    /// A value in two rows (columns) only in the same two columns (rows).
    XWing,
    /// Two values of a unit with the same two places.
    HiddenPair,
    /// Three cells of a unit with three candidates between them.
    NakedTriple,
    /// X-wing over three lines.
    Swordfish,
    /// Three values of a unit with three places between them.
    HiddenTriple,
    /// A cell {x,y} seeing {x,z} and {y,z}: no z where both of those are seen.
    XyWing,
    /// A cell {x,y,z} seeing {x,z} and {y,z}: no z where all three are seen.
    XyzWing,
    /// A value's conjugate pairs coloured two ways: a colour that meets itself is false, and
    /// a cell seeing both colours cannot hold it.
    SimpleColoring,
    /// Four cells of a unit with four candidates between them.
    NakedQuad,
    /// X-wing over four lines.
    Jellyfish,
    /// Four values of a unit with four places between them.
    HiddenQuad,
    /// A candidate whose assumption leads, by singles, to a contradiction: it is false.
    ForcingChain,
    /// A candidate whose assumption leads, by singles and the patterns up to expert (locked
    /// candidates, subsets, fish, wings, coloring), to a contradiction: it is false.
    DynamicForcingChain,
}

impl Technique {
    /// Every technique, easiest first: the order [`next_step`] tries them in.
    pub const ALL: [Technique; 19] = [
        Technique::NakedSingle,
        Technique::HiddenSingleBox,
        Technique::HiddenSingleLine,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::SimpleColoring,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::ForcingChain,
        Technique::DynamicForcingChain,
    ];

    /// The difficulty score, on Sudoku Explainer's scale (where it has the technique), but
    /// for the naked single: see the [module](self)'s note on the order of singles.
    pub fn score(self) -> f32 {
        match self {
            Technique::NakedSingle => 1.0,
            Technique::HiddenSingleBox => 1.2,
            Technique::HiddenSingleLine => 1.5,
            Technique::Pointing => 2.6,
            Technique::Claiming => 2.8,
            Technique::NakedPair => 3.0,
            Technique::XWing => 3.2,
            Technique::HiddenPair => 3.4,
            Technique::NakedTriple => 3.6,
            Technique::Swordfish => 3.8,
            Technique::HiddenTriple => 4.0,
            Technique::XyWing => 4.2,
            Technique::XyzWing => 4.4,
            Technique::SimpleColoring => 4.5,
            Technique::NakedQuad => 5.0,
            Technique::Jellyfish => 5.2,
            Technique::HiddenQuad => 5.4,
            Technique::ForcingChain => 8.5,
            Technique::DynamicForcingChain => 9.5,
        }
    }

    /// The name people use.
    pub fn name(self) -> &'static str {
        match self {
            Technique::HiddenSingleBox => "hidden single (box)",
            Technique::HiddenSingleLine => "hidden single (line)",
            Technique::NakedSingle => "naked single",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked pair",
            Technique::XWing => "x-wing",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriple => "hidden triple",
            Technique::XyWing => "xy-wing",
            Technique::XyzWing => "xyz-wing",
            Technique::SimpleColoring => "simple coloring",
            Technique::NakedQuad => "naked quad",
            Technique::Jellyfish => "jellyfish",
            Technique::HiddenQuad => "hidden quad",
            Technique::ForcingChain => "forcing chain",
            Technique::DynamicForcingChain => "dynamic forcing chain",
        }
    }

    /// The named level a puzzle needing this technique (and none harder) has.
    pub fn difficulty(self) -> Difficulty {
        match self {
            Technique::NakedSingle | Technique::HiddenSingleBox | Technique::HiddenSingleLine => {
                Difficulty::Easy
            }
            Technique::Pointing
            | Technique::Claiming
            | Technique::NakedPair
            | Technique::HiddenPair => Difficulty::Medium,
            Technique::XWing
            | Technique::NakedTriple
            | Technique::Swordfish
            | Technique::HiddenTriple
            | Technique::XyWing
            | Technique::XyzWing => Difficulty::Hard,
            Technique::SimpleColoring
            | Technique::NakedQuad
            | Technique::Jellyfish
            | Technique::HiddenQuad => Difficulty::Expert,
            Technique::ForcingChain | Technique::DynamicForcingChain => Difficulty::Extreme,
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Named levels of difficulty, easiest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    /// Singles only.
    Easy,
    /// Also locked candidates and naked or hidden pairs.
    Medium,
    /// Also triples, X-wing, swordfish, XY-wing and XYZ-wing.
    Hard,
    /// Also simple coloring, quads and jellyfish.
    Expert,
    /// Also forcing chains: a candidate ruled out because assuming it leads to a
    /// contradiction.
    Extreme,
    /// The techniques here do not finish it.
    Beyond,
}

impl Difficulty {
    /// Every level, easiest first.
    pub const ALL: [Difficulty; 6] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
        Difficulty::Extreme,
        Difficulty::Beyond,
    ];

    /// The level's name: `easy`, `medium`, `hard`, `expert`, `extreme` or `beyond`.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
            Difficulty::Extreme => "extreme",
            Difficulty::Beyond => "beyond",
        }
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One step of a logical solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// The cells (row-major indexes) of the pattern that justifies the step.
    pub cells: Vec<usize>,
    /// The values of the pattern (the pair of a naked pair, the fish's value, ...).
    pub values: Vec<u8>,
    /// A value placed: (cell, value).
    pub place: Option<(usize, u8)>,
    /// Candidates removed: (cell, value).
    pub remove: Vec<(usize, u8)>,
}

impl Step {
    /// The step in words, cells written `r1c1` (1-based): `naked pair {3,7} at r4c1 r4c5:
    /// removes 3 from r4c2, 7 from r4c9`.
    pub fn describe(&self, n: usize) -> String {
        let cell = |c: usize| format!("r{}c{}", c / n + 1, c % n + 1);
        let values: Vec<String> = self.values.iter().map(u8::to_string).collect();
        let mut text = self.technique.name().to_string();
        if !self.values.is_empty() {
            text += &format!(" {{{}}}", values.join(","));
        }
        if !self.cells.is_empty() {
            let cells: Vec<String> = self.cells.iter().map(|&c| cell(c)).collect();
            text += &format!(" at {}", cells.join(" "));
        }
        if let Some((c, v)) = self.place {
            text += &format!(": {} = {v}", cell(c));
        } else {
            let removed: Vec<String> = self
                .remove
                .iter()
                .map(|&(c, v)| format!("{v} from {}", cell(c)))
                .collect();
            text += &format!(": removes {}", removed.join(", "));
        }
        text
    }
}

/// A grid of candidates: the values placed and, in each open cell, those still possible.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidates {
    box_size: usize,
    n: usize,
    /// The value of each cell, 0 for an open one.
    values: Vec<u8>,
    /// The candidates of each open cell (bit `v - 1` for `v`); 0 for a placed cell.
    masks: Vec<u32>,
    /// The places of each value in each unit (entry `unit * n + value - 1`, bit `i` for
    /// the unit's `i`th cell), kept in step with `masks`: the techniques ask for them in
    /// every unit for every value, each time they look for a step.
    places: Vec<u32>,
    /// The units of the grid's size, shared by every grid of the size so that a new grid
    /// (one per rating) allocates only its cells.
    layout: &'static Layout,
    /// The cells of each row, column and box (rows, then columns, then boxes): `layout`'s.
    units: &'static [Vec<usize>],
}

/// The units of one grid size, and where each cell stands in them.
#[derive(Debug, PartialEq, Eq)]
struct Layout {
    /// The cells of each row, column and box (rows, then columns, then boxes).
    units: Vec<Vec<usize>>,
    /// Each cell's row, column and box (as unit numbers), with its position in each.
    of_cell: Vec<[(usize, u32); 3]>,
}

/// The layout of the grid with boxes of `box_size` cells a side, built once per size.
fn layout_of(box_size: usize) -> &'static Layout {
    static LAYOUTS: [OnceLock<Layout>; 8] = [const { OnceLock::new() }; 8];
    LAYOUTS[box_size].get_or_init(|| {
        let n = box_size * box_size;
        let mut units: Vec<Vec<usize>> = Vec::with_capacity(3 * n);
        for r in 0..n {
            units.push((0..n).map(|c| r * n + c).collect());
        }
        for c in 0..n {
            units.push((0..n).map(|r| r * n + c).collect());
        }
        for b in 0..n {
            let (top, left) = ((b / box_size) * box_size, (b % box_size) * box_size);
            units.push(
                (0..n)
                    .map(|i| (top + i / box_size) * n + left + i % box_size)
                    .collect(),
            );
        }
        let mut of_cell = vec![[(0, 0); 3]; n * n];
        for (unit, cells) in units.iter().enumerate() {
            for (i, &c) in cells.iter().enumerate() {
                of_cell[c][unit / n] = (unit, i as u32);
            }
        }
        Layout { units, of_cell }
    })
}

impl Candidates {
    /// The candidates of `puzzle`: every value its placed peers leave to each open cell.
    pub fn new(puzzle: &Grid) -> Candidates {
        Candidates::of_cells(puzzle.box_size(), puzzle.cells())
    }

    /// [`Candidates::new`] for the values of a grid with boxes of `box_size` cells a side.
    fn of_cells(box_size: usize, cells: &[u8]) -> Candidates {
        let n = box_size * box_size;
        let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let layout = layout_of(box_size);
        // What placing each given in turn leaves, in one pass: an open cell keeps the
        // values no given of its units holds, a given cell none.
        let mut given = vec![0u32; 3 * n];
        for (unit, members) in layout.units.iter().enumerate() {
            for &c in members {
                if cells[c] != 0 {
                    given[unit] |= bit(cells[c]);
                }
            }
        }
        let masks = (0..n * n)
            .map(|c| match cells[c] {
                0 => layout.of_cell[c]
                    .iter()
                    .fold(full, |m, &(u, _)| m & !given[u]),
                _ => 0,
            })
            .collect();
        let mut grid = Candidates::with_masks(box_size, masks);
        grid.values.copy_from_slice(cells);
        grid
    }

    /// Cells per side.
    pub fn size(&self) -> usize {
        self.n
    }

    /// The value placed in `cell`, 0 when open.
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// Whether `value` is still a candidate of the open `cell`.
    pub fn has(&self, cell: usize, value: u8) -> bool {
        self.masks[cell] & bit(value) != 0
    }

    /// The candidates of `cell`, rising (none for a placed cell).
    pub fn candidates(&self, cell: usize) -> Vec<u8> {
        values_of(self.masks[cell])
    }

    /// Whether every cell is placed.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// The values placed, as a grid.
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.box_size, self.values.clone()).expect("a grid of its own size")
    }

    /// A grid of `box_size` with no value placed and these candidates, its places counted.
    fn with_masks(box_size: usize, masks: Vec<u32>) -> Candidates {
        let n = box_size * box_size;
        let layout = layout_of(box_size);
        let mut places = vec![0u32; 3 * n * n];
        for (unit, members) in layout.units.iter().enumerate() {
            let row = &mut places[unit * n..(unit + 1) * n];
            for (i, &c) in members.iter().enumerate() {
                let mut values = masks[c];
                while values != 0 {
                    row[values.trailing_zeros() as usize] |= 1 << i;
                    values &= values - 1;
                }
            }
        }
        Candidates {
            box_size,
            n,
            values: vec![0; n * n],
            masks,
            places,
            layout,
            units: &layout.units,
        }
    }

    /// Takes the candidate `b` (a value's bit) out of `cell`, and its place out of the
    /// cell's units.
    #[inline]
    fn clear(&mut self, cell: usize, b: u32) {
        if self.masks[cell] & b != 0 {
            self.masks[cell] &= !b;
            let v = b.trailing_zeros() as usize;
            for &(unit, i) in &self.layout.of_cell[cell] {
                self.places[unit * self.n + v] &= !(1 << i);
            }
        }
    }

    /// Places `value` in `cell` and takes it out of the cell's peers.
    fn place(&mut self, cell: usize, value: u8) {
        self.values[cell] = value;
        let mut others = self.masks[cell];
        while others != 0 {
            let b = others & others.wrapping_neg();
            others &= others - 1;
            self.clear(cell, b);
        }
        let b = bit(value);
        let layout = self.layout;
        for &(unit, _) in &layout.of_cell[cell] {
            // Only the cells that still have the value: its places in the unit.
            let mut at = self.places[unit * self.n + usize::from(value - 1)];
            while at != 0 {
                let i = at.trailing_zeros() as usize;
                at &= at - 1;
                self.clear(layout.units[unit][i], b);
            }
        }
    }

    /// Applies a step found on this grid.
    pub fn apply(&mut self, step: &Step) {
        if let Some((cell, value)) = step.place {
            self.place(cell, value);
        }
        for &(cell, value) in &step.remove {
            self.clear(cell, bit(value));
        }
    }

    /// Whether cells `a` and `b` (different) share a row, column or box.
    fn sees(&self, a: usize, b: usize) -> bool {
        let (ua, ub) = (&self.layout.of_cell[a], &self.layout.of_cell[b]);
        a != b && (ua[0].0 == ub[0].0 || ua[1].0 == ub[1].0 || ua[2].0 == ub[2].0)
    }

    /// The open cells of `unit` with `value` as a candidate.
    fn places(&self, unit: usize, value: u8) -> impl Iterator<Item = usize> + '_ {
        self.cells_at(unit, self.place_mask(unit, value))
    }

    /// The positions in `unit` (bit `i` for its `i`th cell) where `value` is a candidate.
    fn place_mask(&self, unit: usize, value: u8) -> u32 {
        self.places[unit * self.n + usize::from(value - 1)]
    }

    /// The cells of `unit` at the positions of `mask`.
    fn cells_at(&self, unit: usize, mask: u32) -> impl Iterator<Item = usize> + '_ {
        let cells = &self.units[unit];
        let mut left = mask;
        std::iter::from_fn(move || {
            (left != 0).then(|| {
                let i = left.trailing_zeros() as usize;
                left &= left - 1;
                cells[i]
            })
        })
    }

    /// Every value's bit set.
    fn full(&self) -> u32 {
        if self.n == 32 {
            u32::MAX
        } else {
            (1 << self.n) - 1
        }
    }

    /// The values of `unit` with at least one place, with at least two places, and placed.
    fn tally(&self, unit: usize) -> (u32, u32, u32) {
        let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
        for &c in &self.units[unit] {
            let m = self.masks[c];
            twice |= once & m;
            once |= m;
            if self.values[c] != 0 {
                placed |= bit(self.values[c]);
            }
        }
        (once, twice, placed)
    }

    /// Places singles the way [`next_step`] takes them (naked singles while there are any,
    /// then hidden singles in boxes, then in lines), with no [`Step`] built, until none is
    /// left. `used` keeps the hardest single placed and `steps` counts the values placed.
    /// False when the grid contradicts itself: an open cell with no candidate, or a value
    /// with no place in a unit.
    ///
    /// The closure of a grid under any set of these rules does not depend on the order they
    /// are applied in, so this reaches the state [`next_step`] reaches one step at a time,
    /// and a single kind is used here exactly when it is used there: a box single when the
    /// naked singles' closure is stuck short of the singles' closure, a line single when
    /// the closure of naked and box singles is.
    fn fill_singles(&mut self, used: &mut Option<Technique>, steps: &mut usize) -> bool {
        let n = self.n;
        let full = self.full();
        loop {
            let Some(naked) = self.place_naked_singles() else {
                return false;
            };
            if naked > 0 {
                *used = (*used).max(Some(Technique::NakedSingle));
                *steps += naked;
                continue;
            }
            let mut placed = false;
            for (units, technique) in [
                (2 * n..3 * n, Technique::HiddenSingleBox),
                (0..2 * n, Technique::HiddenSingleLine),
            ] {
                for unit in units {
                    let (once, twice, values) = self.tally(unit);
                    if once | values != full {
                        return false;
                    }
                    let mut hidden = once & !twice;
                    while hidden != 0 {
                        let b = hidden & hidden.wrapping_neg();
                        hidden &= hidden - 1;
                        let units = self.units;
                        let Some(&cell) = units[unit].iter().find(|&&c| self.masks[c] & b != 0)
                        else {
                            return false;
                        };
                        self.place(cell, b.trailing_zeros() as u8 + 1);
                        *used = (*used).max(Some(technique));
                        *steps += 1;
                        placed = true;
                    }
                }
                if placed {
                    break;
                }
            }
            if !placed {
                return true;
            }
        }
    }

    /// Places every naked single in one pass over the cells (one placed may make a later cell
    /// one): how many, or `None` when an open cell is left with no candidate.
    fn place_naked_singles(&mut self) -> Option<usize> {
        let mut placed = 0;
        for cell in 0..self.n * self.n {
            if self.values[cell] == 0 {
                match self.masks[cell].count_ones() {
                    0 => return None,
                    1 => {
                        self.place(cell, self.masks[cell].trailing_zeros() as u8 + 1);
                        placed += 1;
                    }
                    _ => {}
                }
            }
        }
        Some(placed)
    }

    /// Places singles, naked and hidden, in whatever order is quickest, until none is left:
    /// false when an open cell is left with no candidate. For a grid with a solution it
    /// reaches the grid [`Candidates::fill_singles`] reaches (a single stays a single, or is
    /// placed, whatever is placed before it: the singles closure is one), with no record of
    /// which kind of single placed what: enough for a level, not for a score.
    fn close_singles(&mut self) -> bool {
        let n = self.n;
        loop {
            let Some(naked) = self.place_naked_singles() else {
                return false;
            };
            let mut placed = naked > 0;
            for entry in 0..3 * n * n {
                let at = self.places[entry];
                if at != 0 && at & (at - 1) == 0 {
                    let cell = self.units[entry / n][at.trailing_zeros() as usize];
                    self.place(cell, (entry % n) as u8 + 1);
                    placed = true;
                }
            }
            if !placed {
                return true;
            }
        }
    }
}

/// The bit of `value`.
fn bit(value: u8) -> u32 {
    1 << (value - 1)
}

/// The values of a mask, rising.
fn values_of(mask: u32) -> Vec<u8> {
    (0..32u8)
        .filter(|v| mask & (1 << v) != 0)
        .map(|v| v + 1)
        .collect()
}

/// Every `k`-subset (`k` at most 4) of the indexes `0..len`, in order, until `each` says
/// stop (true, then returned); with no allocation, as the techniques ask this in loops.
fn subsets(len: usize, k: usize, mut each: impl FnMut(&[usize]) -> bool) -> bool {
    if k == 0 || k > len || k > 4 {
        return false;
    }
    let mut chosen = [0, 1, 2, 3];
    loop {
        if each(&chosen[..k]) {
            return true;
        }
        // The last index that can still move up, moved, and those after it right behind.
        let Some(i) = (0..k).rev().find(|&i| chosen[i] < len - k + i) else {
            return false;
        };
        chosen[i] += 1;
        for j in i + 1..k {
            chosen[j] = chosen[j - 1] + 1;
        }
    }
}

/// The easiest step that applies to `grid`, or `None` when none of the techniques does (or
/// the grid is full). A grid whose candidates contradict each other (an open cell with
/// none left) gets `None` too.
pub fn next_step(grid: &Candidates) -> Option<Step> {
    if grid.is_solved() || (0..grid.n * grid.n).any(|c| grid.values[c] == 0 && grid.masks[c] == 0) {
        return None;
    }
    Technique::ALL.iter().find_map(|&t| find(grid, t))
}

/// The first step of `technique` on `grid`.
pub fn find(grid: &Candidates, technique: Technique) -> Option<Step> {
    match technique {
        Technique::HiddenSingleBox => singles::hidden(grid, true),
        Technique::HiddenSingleLine => singles::hidden(grid, false),
        Technique::NakedSingle => singles::naked(grid),
        Technique::Pointing => intersections::pointing(grid),
        Technique::Claiming => intersections::claiming(grid),
        Technique::NakedPair => subsets::naked(grid, 2),
        Technique::NakedTriple => subsets::naked(grid, 3),
        Technique::NakedQuad => subsets::naked(grid, 4),
        Technique::HiddenPair => subsets::hidden(grid, 2),
        Technique::HiddenTriple => subsets::hidden(grid, 3),
        Technique::HiddenQuad => subsets::hidden(grid, 4),
        Technique::XWing => fish::find(grid, 2),
        Technique::Swordfish => fish::find(grid, 3),
        Technique::Jellyfish => fish::find(grid, 4),
        Technique::XyWing => wings::xy(grid),
        Technique::XyzWing => wings::xyz(grid),
        Technique::SimpleColoring => coloring::simple(grid),
        Technique::ForcingChain | Technique::DynamicForcingChain => {
            chains::forcing(grid, technique)
        }
    }
}

/// The steps of a logical solution of `puzzle`, easiest technique first at each step, until
/// the grid is full or no technique applies; and the grid reached.
pub fn explain(puzzle: &Grid) -> (Vec<Step>, Candidates) {
    let mut grid = Candidates::new(puzzle);
    let mut steps = Vec::new();
    while let Some(step) = next_step(&grid) {
        grid.apply(&step);
        steps.push(step);
    }
    (steps, grid)
}

/// How far logic got with a puzzle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Grade {
    /// Solved; the hardest technique needed and its score (none for a full grid).
    Solved {
        /// The hardest technique used, `None` when the puzzle was already full.
        hardest: Option<Technique>,
        /// Its score (0 for a full grid).
        score: f32,
    },
    /// The techniques here got stuck (or the givens contradict each other): it needs more.
    BeyondLogic {
        /// The hardest technique used before getting stuck.
        hardest: Option<Technique>,
        /// Cells still open.
        open: usize,
    },
}

impl Grade {
    /// The grade of a logical solution that used `hardest` at most and left `open` cells.
    pub fn new(hardest: Option<Technique>, open: usize) -> Grade {
        if open == 0 {
            Grade::Solved {
                hardest,
                score: hardest.map_or(0.0, Technique::score),
            }
        } else {
            Grade::BeyondLogic { hardest, open }
        }
    }
}

/// A puzzle's rating: its grade and the number of steps taken.
#[derive(Debug, Clone, PartialEq)]
pub struct Rating {
    /// How far logic got and the hardest technique it needed.
    pub grade: Grade,
    /// Steps taken.
    pub steps: usize,
}

impl Rating {
    /// The named level: that of the hardest technique, or [`Difficulty::Beyond`].
    pub fn difficulty(&self) -> Difficulty {
        match self.grade {
            Grade::Solved { hardest, .. } => hardest.map_or(Difficulty::Easy, |t| t.difficulty()),
            Grade::BeyondLogic { .. } => Difficulty::Beyond,
        }
    }

    /// The numeric score: the hardest technique's, or 11 for a puzzle beyond these
    /// techniques (above every technique here, as Sudoku Explainer's hardest go).
    pub fn score(&self) -> f32 {
        match self.grade {
            Grade::Solved { score, .. } => score,
            Grade::BeyondLogic { .. } => 11.0,
        }
    }
}

/// Rates `puzzle` by the hardest technique its logical solution needs; see the
/// [module docs](self).
pub fn rate(puzzle: &Grid) -> Rating {
    rate_within(puzzle, Difficulty::Beyond)
}

/// Rates `puzzle` with the techniques of `ceiling` and the levels below it only: a puzzle
/// that needs a harder one is graded [`Grade::BeyondLogic`]. The same grade as [`rate`]'s
/// for a puzzle within `ceiling`, found with less work for one above it (the generator
/// asks this of every given it tries to take away).
///
/// Singles are placed in bulk, with no [`Step`] built for them (the grade and the number
/// of steps are those of [`explain`], which builds every step).
pub fn rate_within(puzzle: &Grid, ceiling: Difficulty) -> Rating {
    let mut grid = Candidates::new(puzzle);
    let mut hardest = None;
    let mut steps = 0;
    while grid.fill_singles(&mut hardest, &mut steps) && !grid.is_solved() {
        let Some(step) = pattern_step(&grid, ceiling) else {
            break;
        };
        grid.apply(&step);
        hardest = hardest.max(Some(step.technique));
        steps += 1;
    }
    let open = grid.values.iter().filter(|&&v| v == 0).count();
    Rating {
        grade: Grade::new(hardest, open),
        steps,
    }
}

/// The easiest step of a technique above the singles and at most `ceiling`.
fn pattern_step(grid: &Candidates, ceiling: Difficulty) -> Option<Step> {
    Technique::ALL
        .iter()
        .filter(|t| t.difficulty() > Difficulty::Easy && t.difficulty() <= ceiling)
        .find_map(|&t| find(grid, t))
}

/// [`rate_within`]'s level, `rate_within(puzzle, ceiling).difficulty()`, for a puzzle with a
/// solution (the generator's are unique), found with less work. Only the level is asked, so
/// the singles are placed in bulk in any order, with no record of their kinds: every order
/// reaches the same grid when the puzzle has a solution (a single stays one, or is placed,
/// whatever is placed before it), so each technique looks at the grid that
/// [`rate_within`]'s looks at and finds the same step. The generator asks this of every
/// move of its walk.
pub fn level_within(puzzle: &Grid, ceiling: Difficulty) -> Difficulty {
    if puzzle.box_size() == kernel::BOX_SIZE {
        // The kernel's bitboards reach the singles' grid first.
        return match kernel::singles(puzzle.cells()) {
            Some(values) => level_of_singles(&values, ceiling),
            None => Difficulty::Beyond,
        };
    }
    level_of_grid(Candidates::new(puzzle), ceiling)
}

/// [`level_within`] of a 9×9 puzzle from the grid its singles reach ([`kernel::singles`]):
/// the level is a function of that grid alone. Its candidates are those its values leave,
/// as placing the singles one at a time leaves them; a full grid is easy.
pub(crate) fn level_of_singles(values: &[u8], ceiling: Difficulty) -> Difficulty {
    if values.iter().all(|&v| v != 0) {
        return Difficulty::Easy;
    }
    level_of_grid(Candidates::of_cells(kernel::BOX_SIZE, values), ceiling)
}

/// [`level_within`] from a puzzle's candidates.
fn level_of_grid(mut grid: Candidates, ceiling: Difficulty) -> Difficulty {
    let mut hardest: Option<Technique> = None;
    while grid.close_singles() && !grid.is_solved() {
        let Some(step) = pattern_step(&grid, ceiling) else {
            break;
        };
        grid.apply(&step);
        hardest = hardest.max(Some(step.technique));
    }
    if grid.is_solved() {
        // The level of the technique scored highest (as a rating's), not the highest level
        // used: an X-wing (hard, 3.2) under a hidden pair (medium, 3.4) reads medium.
        hardest.map_or(Difficulty::Easy, Technique::difficulty)
    } else {
        Difficulty::Beyond
    }
}
