//! Placements drawn as SVG pictures: a chequered board with the queens on it.
//!
//! [`board`] draws one placement, [`sheet`] several side by side with a caption each;
//! [`write_board`] and [`write_sheet`] stream the same text to a writer, which matters for
//! large boards (one element per queen, the squares are one pattern whatever the size). With
//! [`Options::attacks`] the lines each queen attacks (its row, column and both diagonals) are
//! shaded, and queens that attack another are drawn in red, so a wrong placement shows where
//! it is wrong. The text is well-formed XML that browsers open as it is. Finding the attacked
//! queens takes memory in proportion to the board; where that memory cannot be had (millions
//! of queens under a memory limit), the writers fail with [`io::ErrorKind::OutOfMemory`]
//! before drawing the board, rather than aborting the process.

use bezzel_core::markup::escape;
use std::io;

/// How a board is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The side of one square, in pixels (the picture is `n * square` wide, plus a margin).
    /// At most 1,000; one that is not a positive number (NaN, infinite, 0 or less) is drawn
    /// as the default's 40.
    pub square: f64,
    /// Shade the lines each queen attacks, and draw queens that attack another in red.
    pub attacks: bool,
    /// Boards per row of a [`sheet`]; 0 picks one (up to 8). Never more than the boards.
    pub columns: usize,
}

impl Default for Options {
    /// 40-pixel squares, no shading, up to 8 boards per row.
    fn default() -> Options {
        Options {
            square: 40.0,
            attacks: false,
            columns: 0,
        }
    }
}

impl Options {
    /// The options as drawn: the square in range (see [`Options::square`]).
    fn checked(&self) -> Options {
        let square = if self.square.is_finite() && self.square > 0.0 {
            self.square.min(MAX_SQUARE)
        } else {
            Options::default().square
        };
        Options {
            square,
            ..self.clone()
        }
    }

    /// Options whose squares make an `n`-square board about 640 pixels wide, between 2 and
    /// 40 pixels a square: what the command line draws.
    pub fn fitted(n: usize) -> Options {
        Options {
            square: (640.0 / n.max(1) as f64).clamp(2.0, 40.0).round(),
            ..Options::default()
        }
    }
}

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const MARGIN: f64 = 4.0;
/// The largest square drawn, in pixels.
const MAX_SQUARE: f64 = 1000.0;
/// Height of a board's caption in a sheet.
const CAPTION: f64 = 22.0;

/// One placement as an SVG document. A column outside `0..n` leaves its row empty.
pub fn board(placement: &[usize], options: &Options) -> String {
    let mut s = Vec::new();
    write_board(&mut s, placement, options).expect("writing to a Vec cannot fail");
    String::from_utf8(s).expect("the picture is UTF-8")
}

/// Writes [`board`] to `w`.
pub fn write_board(
    w: &mut impl io::Write,
    placement: &[usize],
    options: &Options,
) -> io::Result<()> {
    let options = &options.checked();
    let side = placement.len() as f64 * options.square;
    let attacked = attacked_if_shaded(placement, options)?;
    header(w, side + 2.0 * MARGIN, side + 2.0 * MARGIN, options)?;
    draw(w, placement, &attacked, options, MARGIN, MARGIN)?;
    writeln!(w, "</svg>")
}

/// Several placements as one SVG document: boards in rows of [`Options::columns`], each under
/// a caption (`captions[i]`, or `NO.{i+1}` when there is none). No placements give a picture
/// of one caption that says so: `captions[0]` if there is one, else `no placements`.
pub fn sheet(placements: &[Vec<usize>], captions: &[String], options: &Options) -> String {
    let mut s = Vec::new();
    write_sheet(&mut s, placements, captions, options).expect("writing to a Vec cannot fail");
    String::from_utf8(s).expect("the picture is UTF-8")
}

/// Writes [`sheet`] to `w`.
pub fn write_sheet(
    w: &mut impl io::Write,
    placements: &[Vec<usize>],
    captions: &[String],
    options: &Options,
) -> io::Result<()> {
    let options = &options.checked();
    if placements.is_empty() {
        let caption = captions.first().map_or("no placements", String::as_str);
        // About 8.5 pixels a character at 14 pixels, sans-serif.
        let width = (caption.chars().count() as f64 * 8.5).max(312.0) + 2.0 * MARGIN;
        header(w, width, CAPTION, options)?;
        writeln!(
            w,
            r#"<text x="{MARGIN}" y="16" font-family="sans-serif" font-size="14">{}</text>"#,
            escape(caption)
        )?;
        return writeln!(w, "</svg>");
    }
    let columns = match options.columns {
        0 => placements.len().clamp(1, 8),
        c => c.min(placements.len()),
    };
    let n = placements.iter().map(Vec::len).max().unwrap_or(0);
    let cell_w = n as f64 * options.square + 2.0 * MARGIN;
    let cell_h = cell_w + CAPTION;
    let rows = placements.len().div_ceil(columns);
    header(w, columns as f64 * cell_w, rows as f64 * cell_h, options)?;
    for (i, p) in placements.iter().enumerate() {
        let (x, y) = ((i % columns) as f64 * cell_w, (i / columns) as f64 * cell_h);
        let attacked = attacked_if_shaded(p, options)?;
        let caption = captions
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("NO.{}", i + 1));
        writeln!(
            w,
            r#"<text x="{}" y="{}" font-family="sans-serif" font-size="14">{}</text>"#,
            x + MARGIN,
            y + 16.0,
            escape(&caption)
        )?;
        draw(w, p, &attacked, options, x + MARGIN, y + CAPTION)?;
    }
    writeln!(w, "</svg>")
}

/// The XML declaration, the root element and the shared definitions: the squares' pattern
/// and the queen's shape, drawn once and used by reference.
fn header(w: &mut impl io::Write, width: f64, height: f64, options: &Options) -> io::Result<()> {
    let s = options.square;
    writeln!(w, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        w,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
    )?;
    writeln!(w, "<defs>")?;
    writeln!(
        w,
        r#"<pattern id="{}" width="{}" height="{}" patternUnits="userSpaceOnUse"><rect width="{s}" height="{s}" fill="{LIGHT}"/><rect x="{s}" width="{s}" height="{s}" fill="{DARK}"/><rect y="{s}" width="{s}" height="{s}" fill="{DARK}"/><rect x="{s}" y="{s}" width="{s}" height="{s}" fill="{LIGHT}"/></pattern>"#,
        squares_id(s),
        2.0 * s,
        2.0 * s
    )?;
    // A crown of five points on a band, in a 100 x 100 box scaled to the square.
    writeln!(
        w,
        r##"<symbol id="queen" viewBox="0 0 100 100"><path d="M18 78 L10 30 L32 55 L38 18 L50 50 L62 18 L68 55 L90 30 L82 78 Z M18 84 H82 V92 H18 Z" stroke="#000" stroke-width="4" stroke-linejoin="round"/></symbol>"##
    )?;
    writeln!(w, "</defs>")
}

/// The id of the squares' pattern for squares of side `square`. Pictures inline in one HTML
/// page share one id space, and a pattern depends on the square's size: each size has an id
/// of its own, so two pictures that share an id share its definition too. (The queen's
/// symbol is scaled where it is used, so one id serves every size.)
fn squares_id(square: f64) -> String {
    if square.fract() == 0.0 && (0.0..1e9).contains(&square) {
        format!("squares-{square}")
    } else {
        // Any other size by its bits: 16 hex digits, never a whole number below 10^9.
        format!("squares-{:x}", square.to_bits())
    }
}

/// One board with its top-left corner at `(x, y)`; `attacked` says which rows' queens to draw
/// in red (none when it is empty).
fn draw(
    w: &mut impl io::Write,
    placement: &[usize],
    attacked: &[bool],
    options: &Options,
    x: f64,
    y: f64,
) -> io::Result<()> {
    let n = placement.len();
    let s = options.square;
    let side = n as f64 * s;
    writeln!(w, r#"<g transform="translate({x} {y})">"#)?;
    writeln!(
        w,
        r##"<rect width="{side}" height="{side}" fill="url(#{})" stroke="#333" stroke-width="1"/>"##,
        squares_id(s)
    )?;
    if options.attacks {
        // Each queen's row, column and diagonals, clipped to the board.
        write!(
            w,
            r##"<path fill="none" stroke="#d22" stroke-opacity="0.25" stroke-width="{}" d=""##,
            (s / 4.0).max(1.0)
        )?;
        for (row, &col) in placement.iter().enumerate().filter(|&(_, &c)| c < n) {
            let (cx, cy) = ((col as f64 + 0.5) * s, (row as f64 + 0.5) * s);
            let (r, c) = (row as f64, col as f64);
            let nf = n as f64;
            // How far each diagonal runs from the queen before leaving the board.
            let up_left = r.min(c) + 0.5;
            let down_right = (nf - 1.0 - r).min(nf - 1.0 - c) + 0.5;
            let up_right = r.min(nf - 1.0 - c) + 0.5;
            let down_left = (nf - 1.0 - r).min(c) + 0.5;
            write!(
                w,
                "M0 {cy}H{side}M{cx} 0V{side}M{} {}L{} {}M{} {}L{} {}",
                cx - up_left * s,
                cy - up_left * s,
                cx + down_right * s,
                cy + down_right * s,
                cx + up_right * s,
                cy - up_right * s,
                cx - down_left * s,
                cy + down_left * s,
            )?;
        }
        writeln!(w, r#""/>"#)?;
    }
    for (row, &col) in placement.iter().enumerate().filter(|&(_, &c)| c < n) {
        let fill = if attacked.get(row).copied().unwrap_or(false) {
            "#d22"
        } else {
            "#fff"
        };
        writeln!(
            w,
            r##"<use href="#queen" x="{}" y="{}" width="{s}" height="{s}" fill="{fill}"/>"##,
            col as f64 * s,
            row as f64 * s
        )?;
    }
    writeln!(w, "</g>")
}

/// [`attacked_queens`] when the options shade attacks (else nothing), or an
/// [`io::ErrorKind::OutOfMemory`] error that says which board did not fit.
fn attacked_if_shaded(placement: &[usize], options: &Options) -> io::Result<Vec<bool>> {
    if !options.attacks {
        return Ok(Vec::new());
    }
    attacked_queens(placement).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::OutOfMemory,
            format!(
                "the attacks among {} queens do not fit in memory",
                placement.len()
            ),
        )
    })
}

/// For each row, whether its queen shares a column or a diagonal with another queen; `None`
/// when the counts (about 21 bytes a queen) do not fit in memory.
fn attacked_queens(placement: &[usize]) -> Option<Vec<bool>> {
    let n = placement.len();
    let on_board = |c: usize| c < n;
    // An absurd board would otherwise abort the process inside the allocator.
    let zeros = |len: usize| {
        let mut counts: Vec<u32> = Vec::new();
        counts.try_reserve_exact(len).ok()?;
        counts.resize(len, 0);
        Some(counts)
    };
    let (mut cols, mut downs, mut ups) = (zeros(n)?, zeros(2 * n)?, zeros(2 * n)?);
    for (r, &c) in placement.iter().enumerate().filter(|&(_, &c)| on_board(c)) {
        cols[c] += 1;
        downs[r + n - c] += 1;
        ups[r + c] += 1;
    }
    let mut attacked = Vec::new();
    attacked.try_reserve_exact(n).ok()?;
    attacked.extend(
        placement
            .iter()
            .enumerate()
            .map(|(r, &c)| on_board(c) && (cols[c] > 1 || downs[r + n - c] > 1 || ups[r + c] > 1)),
    );
    Some(attacked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attacked_queens_are_those_sharing_a_line() {
        assert_eq!(attacked_queens(&[1, 3, 0, 2]), Some(vec![false; 4]));
        // A diagonal, then a column and a diagonal; a queen off the board attacks none.
        assert_eq!(attacked_queens(&[0, 1, 3]), Some(vec![true, true, false]));
        assert_eq!(attacked_queens(&[2, 2, 0]), Some(vec![true, true, true]));
        assert_eq!(attacked_queens(&[9, 0]), Some(vec![false, false]));
    }

    #[test]
    fn captions_are_escaped() {
        assert_eq!(escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;");
        let svg = sheet(&[vec![0]], &["<x>".to_string()], &Options::default());
        assert!(svg.contains("&lt;x&gt;") && !svg.contains("<x>"));
    }

    #[test]
    fn one_queen_element_per_queen_on_the_board() {
        let svg = board(&[1, 3, 0, 2, 7], &Options::default());
        assert_eq!(svg.matches("<use ").count(), 4);
    }
}
