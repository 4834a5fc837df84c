//! Grids drawn as SVG pictures, 4x4 to 25x25.
//!
//! [`grid`] draws a puzzle, and over it a solution when one is given: the givens in bold on a
//! grey ground, the cells the solution filled in blue, so the two are told apart at a
//! glance; box lines are heavier than cell lines. [`sheet`] stacks several grids (and answers
//! without one, as a caption alone) in one document, which is what `sudoku --format svg`
//! prints. [`hints`] draws grids of candidates (pencil marks) with a logical step on each,
//! its cells and candidates highlighted (`sudoku hint --format svg`). The text is
//! well-formed XML that browsers open as it is.

use crate::grid::{Alphabet, Grid};
use crate::logic::{Candidates, Step};
use bezzel_core::markup::escape;

/// The side of a cell, in pixels.
const CELL: f64 = 36.0;
const MARGIN: f64 = 4.0;
/// Height of a caption in a [`sheet`].
const CAPTION: f64 = 22.0;

/// One entry of a [`sheet`]: a caption, and the puzzle with its solution when there are
/// grids to draw.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    /// Drawn above the grid (escaped).
    pub caption: &'a str,
    /// The puzzle, if there is one to draw.
    pub puzzle: Option<&'a Grid>,
    /// Its solution, drawn over the puzzle's empty cells.
    pub solution: Option<&'a Grid>,
    /// The symbols the values are written in.
    pub alphabet: Alphabet,
}

/// `puzzle` as an SVG document, with `solution` (a grid of the same size) filling its empty
/// cells when given; values in `alphabet`.
pub fn grid(puzzle: &Grid, solution: Option<&Grid>, alphabet: Alphabet) -> String {
    let side = puzzle.size() as f64 * CELL + 2.0 * MARGIN;
    let mut s = header(side, side);
    draw(&mut s, puzzle, solution, alphabet, MARGIN, MARGIN);
    s.push_str("</svg>\n");
    s
}

/// Several entries as one SVG document, one under another, as wide as the widest grid or
/// caption. No entries give a picture of one
/// caption that says so: `no puzzles`.
pub fn sheet(entries: &[Entry<'_>]) -> String {
    if entries.is_empty() {
        let none = Entry {
            caption: "no puzzles",
            puzzle: None,
            solution: None,
            alphabet: Alphabet::FromOne,
        };
        return sheet(&[none]);
    }
    let height_of = |e: &Entry<'_>| {
        CAPTION
            + e.puzzle
                .map_or(0.0, |p| p.size() as f64 * CELL + 2.0 * MARGIN)
    };
    // As wide as the widest grid or caption: about 8.5 pixels a character at 14 pixels,
    // sans-serif.
    let width = entries
        .iter()
        .map(|e| {
            let grid = e.puzzle.map_or(0.0, |p| p.size() as f64 * CELL);
            grid.max(e.caption.chars().count() as f64 * 8.5)
        })
        .fold(320.0_f64, f64::max)
        + 2.0 * MARGIN;
    let height: f64 = entries.iter().map(height_of).sum();
    let mut s = header(width, height);
    let mut y = 0.0;
    for e in entries {
        s += &format!(
            "<text x=\"{MARGIN}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"14\">{}</text>\n",
            y + 16.0,
            escape(e.caption)
        );
        if let Some(p) = e.puzzle {
            draw(&mut s, p, e.solution, e.alphabet, MARGIN, y + CAPTION);
        }
        y += height_of(e);
    }
    s.push_str("</svg>\n");
    s
}

fn header(width: f64, height: f64) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \
         width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n"
    )
}

/// One grid with its top-left corner at `(x, y)`.
fn draw(
    s: &mut String,
    puzzle: &Grid,
    solution: Option<&Grid>,
    alphabet: Alphabet,
    x: f64,
    y: f64,
) {
    let n = puzzle.size();
    let b = puzzle.box_size();
    let side = n as f64 * CELL;
    // A solution of another size is not this puzzle's: draw the puzzle alone.
    let solution = solution.filter(|g| g.size() == n);
    s.push_str(&format!("<g transform=\"translate({x} {y})\">\n"));
    s.push_str(&format!(
        "<rect width=\"{side}\" height=\"{side}\" fill=\"#fff\"/>\n"
    ));
    let font = CELL * 0.55;
    for row in 0..n {
        for col in 0..n {
            let (cx, cy) = (col as f64 * CELL, row as f64 * CELL);
            let given = puzzle.get(row, col);
            let (value, class) = match (given, solution) {
                (0, Some(g)) => (g.get(row, col), "filled"),
                (0, None) => (0, ""),
                (v, _) => (v, "given"),
            };
            if class == "given" {
                s.push_str(&format!(
                    "<rect x=\"{cx}\" y=\"{cy}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"#e4e4e4\"/>\n"
                ));
            }
            let Some(symbol) = alphabet.symbol(value).filter(|_| value != 0) else {
                continue;
            };
            let (weight, colour) = if class == "given" {
                ("bold", "#000")
            } else {
                ("normal", "#1f5fbf")
            };
            s.push_str(&format!(
                "<text class=\"{class}\" x=\"{}\" y=\"{}\" font-family=\"sans-serif\" \
                 font-size=\"{font}\" font-weight=\"{weight}\" fill=\"{colour}\" \
                 text-anchor=\"middle\" dominant-baseline=\"central\">{}</text>\n",
                cx + CELL / 2.0,
                cy + CELL / 2.0,
                escape(&symbol.to_string())
            ));
        }
    }
    lines(s, n, b);
    s.push_str("</g>\n");
}

/// Grids of candidates (pencil marks), each under its caption, one under another, with
/// its step when there is one: the cells of the step's pattern on yellow, the candidates
/// it removes in red and struck through, the value it places in green on a green cell.
/// What `sudoku hint --format svg` prints.
pub fn hints(entries: &[(String, Candidates, Option<Step>)]) -> String {
    let height_of = |g: &Candidates| CAPTION + g.size() as f64 * CELL + 2.0 * MARGIN;
    let width = entries
        .iter()
        .map(|(caption, g, _)| (g.size() as f64 * CELL).max(caption.chars().count() as f64 * 8.5))
        .fold(320.0_f64, f64::max)
        + 2.0 * MARGIN;
    let height: f64 = entries
        .iter()
        .map(|(_, g, _)| height_of(g))
        .sum::<f64>()
        .max(CAPTION);
    let mut s = header(width, height);
    let mut y = 0.0;
    for (caption, grid, step) in entries {
        s += &format!(
            "<text x=\"{MARGIN}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"14\">{}</text>\n",
            y + 16.0,
            escape(caption)
        );
        draw_marks(&mut s, grid, step.as_ref(), MARGIN, y + CAPTION);
        y += height_of(grid);
    }
    s.push_str("</svg>\n");
    s
}

/// One grid of candidates with its step, top-left corner at `(x, y)`.
fn draw_marks(s: &mut String, grid: &Candidates, step: Option<&Step>, x: f64, y: f64) {
    let n = grid.size();
    let b = grid.box_size();
    let side = n as f64 * CELL;
    let symbol = |v: u8| escape(&Alphabet::FromOne.symbol(v).unwrap_or('?').to_string());
    s.push_str(&format!("<g transform=\"translate({x} {y})\">\n"));
    s.push_str(&format!(
        "<rect width=\"{side}\" height=\"{side}\" fill=\"#fff\"/>\n"
    ));
    let pattern = step.map_or(&[][..], |st| &st.cells[..]);
    let place = step.and_then(|st| st.place);
    let removed = |cell: usize, v: u8| step.is_some_and(|st| st.remove.contains(&(cell, v)));
    for cell in 0..n * n {
        let (cx, cy) = ((cell % n) as f64 * CELL, (cell / n) as f64 * CELL);
        let ground = if place.is_some_and(|(c, _)| c == cell) {
            Some("#c8f0c8")
        } else if pattern.contains(&cell) {
            Some("#fff3b0")
        } else {
            None
        };
        if let Some(fill) = ground {
            s.push_str(&format!(
                "<rect x=\"{cx}\" y=\"{cy}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>\n"
            ));
        }
        let value = grid.value(cell);
        if value != 0 {
            s.push_str(&format!(
                "<text class=\"value\" x=\"{}\" y=\"{}\" font-family=\"sans-serif\" \
                 font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\" \
                 dominant-baseline=\"central\">{}</text>\n",
                cx + CELL / 2.0,
                cy + CELL / 2.0,
                CELL * 0.55,
                symbol(value)
            ));
            continue;
        }
        // Candidate v in row (v-1)/b, column (v-1)%b of a b-by-b layout in the cell.
        let small = CELL / b as f64;
        for v in grid.candidates(cell) {
            let i = usize::from(v - 1);
            let (px, py) = (
                cx + (i % b) as f64 * small + small / 2.0,
                cy + (i / b) as f64 * small + small / 2.0,
            );
            let (class, colour, extra) = if place == Some((cell, v)) {
                ("placed", "#0a7d0a", " font-weight=\"bold\"")
            } else if removed(cell, v) {
                ("removed", "#d11", " text-decoration=\"line-through\"")
            } else {
                ("candidate", "#555", "")
            };
            s.push_str(&format!(
                "<text class=\"{class}\" x=\"{px}\" y=\"{py}\" font-family=\"sans-serif\" \
                 font-size=\"{}\" fill=\"{colour}\"{extra} text-anchor=\"middle\" \
                 dominant-baseline=\"central\">{}</text>\n",
                small * 0.8,
                symbol(v)
            ));
            if class == "removed" {
                s.push_str(&format!(
                    "<path d=\"M{} {py}H{}\" stroke=\"#d11\" stroke-width=\"1.5\"/>\n",
                    px - small * 0.4,
                    px + small * 0.4
                ));
            }
        }
    }
    lines(s, n, b);
    s.push_str("</g>\n");
}

/// Thin lines between the cells of an `n`-by-`n` grid, heavy ones between boxes of `b` and
/// around it.
fn lines(s: &mut String, n: usize, b: usize) {
    let side = n as f64 * CELL;
    let (mut thin, mut heavy) = (String::new(), String::new());
    for i in 0..=n {
        let p = i as f64 * CELL;
        let line = format!("M{p} 0V{side}M0 {p}H{side}");
        if i % b == 0 { &mut heavy } else { &mut thin }.push_str(&line);
    }
    s.push_str(&format!(
        "<path d=\"{thin}\" stroke=\"#999\" stroke-width=\"1\" fill=\"none\"/>\n"
    ));
    s.push_str(&format!(
        "<path d=\"{heavy}\" stroke=\"#000\" stroke-width=\"3\" fill=\"none\" stroke-linecap=\"square\"/>\n"
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn givens_and_filled_cells_are_told_apart() {
        let puzzle = Grid::parse_line("1.......2.......").unwrap();
        let mut solved = puzzle.clone();
        solved.set(0, 1, 2);
        let svg = grid(&puzzle, Some(&solved), Alphabet::FromOne);
        assert_eq!(svg.matches("class=\"given\"").count(), 2);
        assert_eq!(svg.matches("class=\"filled\"").count(), 1);
    }

    #[test]
    fn captions_are_escaped() {
        let e = Entry {
            caption: "a<b&c",
            puzzle: None,
            solution: None,
            alphabet: Alphabet::FromOne,
        };
        assert!(sheet(&[e]).contains("a&lt;b&amp;c"));
    }
}
