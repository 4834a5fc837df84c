//! Listing placements as the `queens` program prints them: the model's solutions in
//! lexicographic order, or one representative of each class of solutions under the board's
//! 8 symmetries, up to a limit, into an [`Output`].
//!
//! An [`Output`] writes each placement in its text form ([`format`](mod@crate::format)) as
//! it comes, so that a listing of any length runs in little memory and the first lines
//! appear at once; or, in [`Style::Svg`], keeps them and draws them all as one picture
//! ([`svg`](mod@crate::svg)) when [`Output::finish`] is called. A listing stopped early (the
//! model's cancel flag, or the one given to [`unique`]) says so in [`Listed::stopped`], and
//! what was listed before the stop is still written.
//!
//! ```
//! use bezzel_queens::listing::{self, Output, Style};
//! use bezzel_queens::model::Queens;
//!
//! let mut out = Output::new(Vec::new(), Style::Text);
//! let listed = listing::solutions(&mut Queens::lexicographic(4)?, None, &mut out)?;
//! assert_eq!((listed.shown, listed.stopped), (2, false));
//! let text = String::from_utf8(out.into_inner())?;
//! assert_eq!(text, "NO.1: 1 3 0 2\nNO.2: 2 0 3 1\n2 solutions\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::bitmask::BitmaskError;
use crate::format::{self, Form};
use crate::model::Queens;
use crate::{svg, symmetry};
use std::fmt;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

/// How an [`Output`] writes placements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `NO.1: 0 4 7 5 2 6 1 3`, a line each.
    Text,
    /// A `NO.1:` line, the board and a blank line each.
    Board,
    /// One JSON object per line.
    Json,
    /// One SVG picture of them all, drawn by [`Output::finish`]: a board alone, or a sheet of
    /// boards captioned `NO.1`, `NO.2`, ...
    Svg {
        /// Shade the lines each queen attacks, and draw in red the queens that attack
        /// another.
        attacks: bool,
    },
}

/// Where placements go: written as they come, or, in [`Style::Svg`], kept and drawn as one
/// picture by [`finish`](Output::finish).
#[derive(Debug)]
pub struct Output<W: Write> {
    w: W,
    style: Style,
    kept: Vec<Vec<usize>>,
    captions: Vec<String>,
}

impl<W: Write> Output<W> {
    /// An output writing to `w` in `style`.
    pub fn new(w: W, style: Style) -> Output<W> {
        Output {
            w,
            style,
            kept: Vec::new(),
            captions: Vec::new(),
        }
    }

    /// The style it writes in.
    pub fn style(&self) -> Style {
        self.style
    }

    /// Writes placement number `index` (kept for the picture in [`Style::Svg`]).
    pub fn add(&mut self, index: u64, placement: &[usize]) -> io::Result<()> {
        let form = match self.style {
            Style::Text => Form::Text,
            Style::Board => Form::Board,
            Style::Json => Form::Json,
            Style::Svg { .. } => {
                self.kept.push(placement.to_vec());
                self.captions.push(format!("NO.{index}"));
                return Ok(());
            }
        };
        format::write_placement(&mut self.w, form, index, placement)
    }

    /// Draws the picture in [`Style::Svg`] (with no placement kept, still one picture, which
    /// says there is nothing on it), and flushes the writer.
    pub fn finish(&mut self) -> io::Result<()> {
        if let Style::Svg { attacks } = self.style {
            let n = self.kept.iter().map(Vec::len).max().unwrap_or(1);
            let options = svg::Options {
                attacks,
                ..svg::Options::fitted(n)
            };
            match &self.kept[..] {
                [] => svg::write_sheet(
                    &mut self.w,
                    &[],
                    &["no solutions shown".to_string()],
                    &options,
                )?,
                [one] => svg::write_board(&mut self.w, one, &options)?,
                many => svg::write_sheet(&mut self.w, many, &self.captions, &options)?,
            }
        }
        self.w.flush()
    }

    /// The writer, for what a program prints around the placements.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.w
    }

    /// The writer back, as it is (call [`finish`](Output::finish) first).
    pub fn into_inner(self) -> W {
        self.w
    }
}

/// How a listing went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listed {
    /// The placements written.
    pub shown: u64,
    /// Whether a cancel flag stopped it before the last placement or the limit.
    pub stopped: bool,
}

/// Lists the solutions of the model `q` in the order its search finds them (lexicographic
/// for a row-by-row search), at most `limit` of them, then finishes `out`. In text and board
/// styles a last line gives the total, `92 solutions`, or `5 solutions shown (limit 5)` when
/// the limit ended the listing; a listing stopped by the model's cancel flag has none.
pub fn solutions<W: Write>(
    q: &mut Queens,
    limit: Option<u64>,
    out: &mut Output<W>,
) -> io::Result<Listed> {
    let most = limit.unwrap_or(u64::MAX);
    let mut shown = 0;
    for placement in q.solutions() {
        if shown == most {
            break;
        }
        shown += 1;
        out.add(shown, &placement)?;
    }
    // Ended by the cancel flag, not by the last solution or the limit.
    let stopped = shown < most && !q.stats().is_complete();
    if matches!(out.style, Style::Text | Style::Board) && !stopped {
        let noun = if shown == 1 { "solution" } else { "solutions" };
        if shown == most && limit.is_some() {
            writeln!(out.w, "{shown} {noun} shown (limit {most})")?;
        } else {
            writeln!(out.w, "{shown} {noun}")?;
        }
    }
    out.finish()?;
    Ok(Listed { shown, stopped })
}

/// Why [`unique`] could not list.
#[non_exhaustive]
pub enum ListError {
    /// The board is out of the symmetry counter's range.
    Board(BitmaskError),
    /// The output could not be written.
    Write(io::Error),
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListError::Board(e) => write!(f, "{e}"),
            ListError::Write(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ListError {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for ListError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ListError: {self}")
    }
}

/// Lists one representative of each class of `n`-queens solutions under the board's 8
/// symmetries (the lexicographically smallest), in lexicographic order as they are found,
/// at most `limit` of them: memory for one, however many there are. Raising `cancel` stops
/// it (looked at before each one). Flushes `out` but does not finish it: a caller draws the
/// picture of [`Style::Svg`] with [`Output::finish`], also after an error, so that what was
/// listed is shown.
pub fn unique<W: Write>(
    n: usize,
    limit: Option<u64>,
    cancel: &AtomicBool,
    out: &mut Output<W>,
) -> Result<Listed, ListError> {
    let most = limit.unwrap_or(u64::MAX);
    let mut shown = 0;
    let mut stopped = false;
    let mut failed = None;
    symmetry::for_each_unique_solution(n, |p| {
        if shown == most {
            return ControlFlow::Break(());
        }
        if cancel.load(Ordering::Relaxed) {
            stopped = true;
            return ControlFlow::Break(());
        }
        shown += 1;
        match out.add(shown, p) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                failed = Some(e);
                ControlFlow::Break(())
            }
        }
    })
    .map_err(ListError::Board)?;
    out.w.flush().map_err(ListError::Write)?;
    match failed {
        Some(e) => Err(ListError::Write(e)),
        None => Ok(Listed { shown, stopped }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check;

    /// Solutions of n queens, OEIS A000170, and unique ones, A002562: published, not computed
    /// by this crate.
    const TOTAL: [u64; 11] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    const UNIQUE: [u64; 11] = [1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92];

    fn lines(out: Output<Vec<u8>>) -> Vec<String> {
        let text = String::from_utf8(out.into_inner()).expect("UTF-8");
        text.lines().map(String::from).collect()
    }

    #[test]
    fn every_solution_once_in_order_then_the_total() {
        for (n, &total) in TOTAL.iter().enumerate().skip(1) {
            let mut q = Queens::lexicographic(n).expect("model");
            let mut out = Output::new(Vec::new(), Style::Json);
            let listed = solutions(&mut q, None, &mut out).expect("listed");
            assert_eq!(
                listed,
                Listed {
                    shown: total,
                    stopped: false
                }
            );
            let placements: Vec<Vec<usize>> = lines(out)
                .iter()
                .map(|l| format::parse_placement(l).expect("a placement"))
                .collect();
            assert_eq!(placements.len() as u64, total, "n = {n}");
            assert!(placements.iter().all(|p| check::is_solution(p)));
            assert!(
                placements.windows(2).all(|w| w[0] < w[1]),
                "n = {n}: in order"
            );
            let mut q = Queens::lexicographic(n).expect("model");
            let mut out = Output::new(Vec::new(), Style::Text);
            solutions(&mut q, None, &mut out).expect("listed");
            let noun = if total == 1 { "solution" } else { "solutions" };
            let total = format!("{total} {noun}");
            assert_eq!(lines(out).last(), Some(&total));
        }
    }

    #[test]
    fn a_limit_says_so_and_a_raised_flag_stops() {
        let mut q = Queens::lexicographic(8).expect("model");
        let mut out = Output::new(Vec::new(), Style::Text);
        let listed = solutions(&mut q, Some(3), &mut out).expect("listed");
        assert_eq!(
            listed,
            Listed {
                shown: 3,
                stopped: false
            }
        );
        assert_eq!(
            lines(out).last().map(String::as_str),
            Some("3 solutions shown (limit 3)")
        );

        let mut q = Queens::lexicographic(8).expect("model");
        let flag = std::sync::Arc::new(AtomicBool::new(true));
        q.solver_mut().set_cancel_flag(flag.clone());
        let mut out = Output::new(Vec::new(), Style::Text);
        let listed = solutions(&mut q, None, &mut out).expect("listed");
        assert!(listed.stopped);
        assert!(
            lines(out).iter().all(|l| l.starts_with("NO.")),
            "no total when stopped"
        );
        let mut out = Output::new(Vec::new(), Style::Text);
        let listed = unique(8, None, &flag, &mut out).expect("listed");
        assert_eq!(
            listed,
            Listed {
                shown: 0,
                stopped: true
            }
        );
    }

    #[test]
    fn one_representative_per_class_and_no_two_alike() {
        for (n, &count) in UNIQUE.iter().enumerate().skip(1) {
            let mut out = Output::new(Vec::new(), Style::Text);
            let listed = unique(n, None, &AtomicBool::new(false), &mut out).expect("listed");
            assert_eq!(
                listed,
                Listed {
                    shown: count,
                    stopped: false
                },
                "n = {n}"
            );
            let reps: Vec<Vec<usize>> = lines(out)
                .iter()
                .map(|l| format::parse_placement(l).expect("a placement"))
                .collect();
            // Each is a solution, and none is an image of another under the 8 symmetries
            // (brute force over the board's rotations and reflections, written out here).
            for (i, p) in reps.iter().enumerate() {
                assert!(check::is_solution(p));
                for q in &reps[..i] {
                    assert!(
                        !images(q).contains(p),
                        "n = {n}: {p:?} is an image of {q:?}"
                    );
                }
            }
        }
        let mut out = Output::new(Vec::new(), Style::Text);
        let listed = unique(8, Some(5), &AtomicBool::new(false), &mut out).expect("listed");
        assert_eq!(listed.shown, 5);
    }

    /// The 8 images of a placement: rotations by 90 degrees, each with its mirror image.
    fn images(p: &[usize]) -> Vec<Vec<usize>> {
        let n = p.len();
        let rotate = |p: &[usize]| {
            let mut r = vec![0; n];
            for (row, &col) in p.iter().enumerate() {
                r[col] = n - 1 - row;
            }
            r
        };
        let mut all = Vec::new();
        let mut q = p.to_vec();
        for _ in 0..4 {
            all.push(q.iter().map(|&c| n - 1 - c).collect());
            all.push(q.clone());
            q = rotate(&q);
        }
        all
    }

    #[test]
    fn svg_draws_one_picture_at_the_end() {
        let mut out = Output::new(Vec::new(), Style::Svg { attacks: false });
        let mut q = Queens::lexicographic(4).expect("model");
        solutions(&mut q, None, &mut out).expect("listed");
        let text = String::from_utf8(out.into_inner()).expect("UTF-8");
        assert_eq!(text.matches("<svg").count(), 1);
        assert!(text.contains("NO.2") && !text.contains("solutions"));
        let mut out = Output::new(Vec::new(), Style::Svg { attacks: false });
        out.finish().expect("drawn");
        assert!(
            String::from_utf8(out.into_inner())
                .expect("UTF-8")
                .contains("no solutions shown")
        );
    }
}
