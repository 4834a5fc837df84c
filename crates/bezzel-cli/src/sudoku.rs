//! The `sudoku` program's run: its inputs read in turn on a thread of their own, answered a
//! chunk of puzzles at a time on many threads (or on the ranks of an MPI job), printed in
//! input order, and stopped cleanly by Ctrl-C or the time limit.
//!
//! The program maps its options onto a [`Run`] and calls [`run`] (on an MPI job's rank 0, or
//! alone) or [`serve`] (on the other ranks). The work is the library's
//! ([`bezzel_sudoku::reader`] reads, [`bezzel_sudoku::batch`] answers,
//! [`bezzel_sudoku::output`] writes); what this adds is the program's plumbing around it: a
//! spinner while a person watches, each bad line repeated on stderr, a summary at the end,
//! the exit status, and `--tree`'s page of one puzzle's search. The behaviour is described
//! in full in the program's own documentation (`src/bin/sudoku.rs`).

use crate::cluster::Mpi;
use crate::input::{Input, check_inputs, io_reason};
use crate::options::Tree;
use crate::{Failure, Progress, Stop, escape, warn};
use bezzel_sudoku::batch::{
    Answer, Batch, Settings, Summary, answer_on_cluster, finish_cluster, location, serve_cluster,
};
use bezzel_sudoku::grid::ParseError;
use bezzel_sudoku::output::{Output, Style};
use bezzel_sudoku::reader::{Puzzle, ReadOptions};
use bezzel_sudoku::stream::{Chunk, Incoming, read_in_background};
use std::io::{self, BufWriter, IsTerminal};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The most puzzles solved between two writes of the output: big enough to keep every
/// thread busy (each chunk ends with threads waiting on its last puzzle and one thread writing:
/// 1,024 rather than 256 took two threads on the 17-clue file from 1.84x to 1.90x of one),
/// small enough that answers appear while a long batch runs (and that a batch of any size
/// runs in little memory), and that a stop is noticed soon. A chunk is answered as soon as
/// no more puzzles are waiting (`bezzel_sudoku::stream`), so a slow pipe's puzzles are
/// answered one by one, as they come.
const CHUNK: usize = 1024;

/// What the program was asked to do.
#[derive(Debug, Clone)]
pub struct Run<'a> {
    /// The input files, in order; stdin when there are none, and for `-`.
    pub files: &'a [PathBuf],
    /// How the inputs are read (`--grid`, `--alphabet`).
    pub read: ReadOptions,
    /// What is asked of each puzzle, and how it is searched.
    pub settings: Settings,
    /// Worker threads (on each rank of an MPI job).
    pub threads: usize,
    /// How answers are printed (`--format`).
    pub style: Style,
    /// `--tree`: one puzzle's search, drawn.
    pub tree: &'a Tree,
    /// `--time-limit`.
    pub time_limit: Option<Duration>,
    /// `--quiet`: no spinner and no summary.
    pub quiet: bool,
    /// `--stats`: a longer summary, printed also with `--quiet`.
    pub stats: bool,
}

/// An MPI rank above 0: answers the puzzles rank 0 hands out, round after round, and prints
/// nothing.
pub fn serve(run: &Run<'_>, mpi: &Mpi) -> Result<u8, Failure> {
    let stop = Stop::install(run.time_limit);
    serve_cluster(mpi, run.threads, &run.settings, stop.flag())
        .map_err(|e| Failure::input(e.to_string()))?;
    Ok(0)
}

/// Where the answers go, and what has been said so far.
struct Printer {
    out: Output<BufWriter<io::StdoutLock<'static>>>,
    sum: Summary,
    progress: Progress,
}

/// Answers every puzzle of the inputs and prints the answers and the summary (on rank 0 of
/// `mpi`, handing the puzzles out to the other ranks): status 0, or 2 when a puzzle had an
/// input error or an input could not be read to its end; the failure of a run stopped early
/// carries the summary.
pub fn run(run: &Run<'_>, mpi: Option<&Mpi>) -> Result<u8, Failure> {
    // On an MPI job of several ranks, rank 0 hands its chunks out.
    let mpi = mpi.filter(|m| m.size() > 1);
    if run.tree.tree.is_some() && mpi.is_some() {
        return Err(Failure::input(
            "--tree draws the search of one process: leave out --mpi",
        ));
    }
    let inputs = check_inputs(run.files).map_err(Failure::input)?;
    run.tree.check_writable().map_err(Failure::input)?;
    let mut batch = Batch::new(run.settings.clone(), run.threads)
        .map_err(|e| Failure::input(format!("cannot start threads: {e}")))?;
    let stop = Stop::install(run.time_limit);
    batch.set_cancel_flag(stop.flag().clone());
    // Someone typing puzzles at a terminal sees each answer at once: no spinner for them.
    let typing = inputs.contains(&Input::Stdin) && io::stdin().is_terminal();
    let stdout = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut printer = Printer {
        out: Output::new(stdout, run.style, batch.settings().mode),
        sum: Summary::default(),
        progress: Progress::new(None, "puzzles", run.quiet || typing),
    };
    // With `--tree`: the one puzzle, answered once the input is read, and its file's name.
    let mut tree_input: Vec<(Puzzle, Option<String>)> = Vec::new();
    let start = Instant::now();
    let named = inputs.len() > 1;
    // A read error part way stops the run there: what was read before it is answered, the
    // summary still comes, and the status is 2.
    let mut unreadable = false;
    'inputs: for input in &inputs {
        let name = input.name();
        let file = named.then_some(name.as_str());
        // Read on a thread of its own, so that Ctrl-C and the time limit are seen while the
        // input keeps us waiting (a slow pipe, a terminal, a FIFO with no writer yet).
        let input = input.clone();
        let open = move || input.open().map(|(r, _)| (r, CHUNK));
        let mut chunks = read_in_background(open, run.read);
        loop {
            let Some(read) = next(&mut chunks, &stop) else {
                break 'inputs;
            };
            let (chunk, failed, last) = match read {
                Chunk::CannotOpen(message) => {
                    let message = format!("sudoku: {}", escape(&message));
                    printer.progress.suspend(|| warn(&message));
                    unreadable = true;
                    break 'inputs;
                }
                Chunk::Puzzles {
                    puzzles,
                    failed,
                    last,
                } => (puzzles, failed, last),
            };
            if run.tree.tree.is_some() {
                // The one puzzle is searched once the input is read, so that more than one is
                // refused before anything is solved.
                tree_input.extend(chunk.into_iter().map(|p| (p, file.map(String::from))));
                if tree_input.len() > 1 {
                    return Err(Failure::input(
                        "--tree draws the search of one puzzle: the input holds more than one",
                    ));
                }
            } else {
                let answers = match mpi {
                    Some(mpi) => {
                        answer_on_cluster(mpi, run.threads, batch.settings(), stop.flag(), &chunk)
                            .map_err(|e| Failure::input(e.to_string()))?
                    }
                    None => batch.answer(&chunk),
                };
                // After a stop, the answers end before the first puzzle not started: the ones
                // after it were not looked at, or (on several threads) only some of them.
                let shown = answers
                    .iter()
                    .position(|a| !a.is_started())
                    .unwrap_or(answers.len());
                printer.print(&chunk[..shown], answers, file)?;
            }
            if stop.is_raised() {
                break 'inputs;
            }
            if let Some(e) = failed {
                let (line, reason) = (e.line, io_reason(&e.error));
                let message = format!("sudoku: cannot read {name} at line {line}: {reason}");
                let message = escape(&message);
                printer.progress.suspend(|| warn(&message));
                unreadable = true;
                break 'inputs;
            }
            if last {
                break;
            }
        }
    }
    if let Some(mpi) = mpi {
        // No more rounds: the other ranks stop.
        finish_cluster(mpi, stop.flag()).map_err(|e| Failure::input(e.to_string()))?;
    }
    let tree = if run.tree.tree.is_some() && !stop.is_raised() {
        answer_with_tree(&mut printer, &batch, run.tree, tree_input, &stop)
    } else {
        Ok(())
    };
    printer.out.finish()?;
    printer.progress.finish();
    tree?;
    let summary = printer.sum.line(start.elapsed().as_secs_f64(), run.stats);
    if stop.is_raised() {
        return Err(stop.failure(&summary));
    }
    // --stats asks for the summary, which --quiet alone leaves out.
    if !run.quiet || run.stats {
        warn(&summary);
    }
    Ok(if printer.sum.errors > 0 || unreadable {
        2
    } else {
        0
    })
}

impl Printer {
    /// Writes the answers of `puzzles` (the first of `answers`) in order, repeating the bad
    /// lines on stderr, and counts them; `file` names the input when there are several.
    fn print(
        &mut self,
        puzzles: &[Puzzle],
        answers: Vec<Answer>,
        file: Option<&str>,
    ) -> Result<(), Failure> {
        let Printer { out, sum, progress } = self;
        progress.suspend(|| {
            for (p, mut answer) in puzzles.iter().zip(answers) {
                // The library knows no options; the program names the one that settles it.
                if let (Err(e @ ParseError::AmbiguousAlphabet), Answer::Error(_)) =
                    (&p.grid, &answer)
                {
                    answer = Answer::Error(format!("{e} (--alphabet 1 or --alphabet 0)"));
                }
                let where_ = location(file.map(escape).as_deref(), p.line);
                if let Answer::Error(e) = &answer {
                    warn(&format!("sudoku: {where_}: {e}"));
                }
                sum.add(&answer);
                out.write(p, &answer, file, &where_)?;
            }
            out.flush()
        })?;
        progress.inc(puzzles.len() as u64);
        Ok(())
    }
}

/// `--tree`: answers the one puzzle with a recorder watching (the search whose answer is
/// printed, so the page and the answer agree, also when Ctrl-C or the time limit cuts it
/// short), and writes the page of what was searched.
fn answer_with_tree(
    printer: &mut Printer,
    batch: &Batch,
    tree: &Tree,
    input: Vec<(Puzzle, Option<String>)>,
    stop: &Stop,
) -> Result<(), Failure> {
    let Some((puzzle, file)) = input.into_iter().next() else {
        return Err(Failure::input(
            "--tree draws the search of one puzzle: the input holds none",
        ));
    };
    let file = file.as_deref();
    let one = std::slice::from_ref(&puzzle);
    let grid = match &puzzle.grid {
        Ok(grid) => grid,
        Err(e) => {
            printer.print(one, vec![Answer::Error(e.to_string())], file)?;
            return Err(Failure::input(
                "--tree: the puzzle could not be read, so nothing was searched",
            ));
        }
    };
    let recorded = bezzel_sudoku::tree::record(
        batch.settings(),
        grid,
        tree.limit(),
        Some(stop.flag().clone()),
    );
    let (answer, searched) = match recorded {
        Ok(recorded) => recorded,
        Err(e) => {
            printer.print(one, vec![Answer::Error(e.to_string())], file)?;
            return Err(Failure::input(format!("--tree: {e}")));
        }
    };
    printer.print(one, vec![answer], file)?;
    let title = format!("sudoku, line {}", puzzle.line);
    let options = bezzel_sudoku::tree::page_options(grid, puzzle.alphabet, &title);
    tree.write(&searched.to_html(&options))
        .map_err(Failure::input)
}

/// The next chunk, or `None` once the stop flag is up: waits for input and watches the flag
/// at the same time.
fn next(chunks: &mut Incoming, stop: &Stop) -> Option<Chunk> {
    loop {
        if let Some(read) = chunks.next_chunk(Duration::from_millis(20)) {
            return Some(read);
        }
        if stop.is_raised() {
            return None;
        }
    }
}
