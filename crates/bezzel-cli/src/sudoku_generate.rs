//! `sudoku generate`: puzzles made by the library ([`bezzel_sudoku::generate`]) on many
//! threads, printed in order of their number, one per line, with a summary on stderr; stopped
//! by Ctrl-C or the time limit after the puzzles made so far.

use crate::{Failure, Stop, warn};
use bezzel_sudoku::generate::{GenerateError, Generated, Generator, Options};
use rayon::prelude::*;
use std::io::{self, BufWriter, Write};
use std::time::{Duration, Instant};

/// What `sudoku generate` was asked to do.
#[derive(Debug, Clone)]
pub struct GenerateRun {
    /// How many puzzles.
    pub count: u64,
    /// What kind of puzzle.
    pub options: Options,
    /// Worker threads.
    pub threads: usize,
    /// One JSON object per puzzle (`puzzle`, `solution`, `givens`, `seed`, `index`) instead
    /// of the puzzle's line.
    pub json: bool,
    /// `--solution`: the solution after the puzzle, on the same line.
    pub solution: bool,
    /// `--time-limit`.
    pub time_limit: Option<Duration>,
    /// `--quiet`: no summary.
    pub quiet: bool,
}

/// Puzzles made between two writes of the output, per thread.
const PER_THREAD: u64 = 8;

/// Makes and prints the puzzles: status 0, or the failure of a run stopped early.
pub fn generate(run: &GenerateRun) -> Result<u8, Failure> {
    // A bad option is refused before any thread starts.
    let stop = Stop::install(run.time_limit);
    let generators = (0..run.threads)
        .map(|_| {
            Generator::new(run.options).map(|mut g| {
                g.set_cancel_flag(stop.flag().clone());
                std::sync::Mutex::new(g)
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Failure::input(e.to_string()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.threads)
        .build()
        .map_err(|e| Failure::input(format!("cannot start threads: {e}")))?;
    let mut out = BufWriter::new(io::stdout().lock());
    let start = Instant::now();
    let (mut made, mut givens) = (0u64, 0u64);
    let step = PER_THREAD * run.threads as u64;
    let mut next = 0;
    while next < run.count && !stop.is_raised() {
        let end = run.count.min(next + step);
        let flag = stop.flag();
        let chunk: Vec<Option<Result<Generated, String>>> = pool.install(|| {
            (next..end)
                .collect::<Vec<u64>>()
                .into_par_iter()
                .with_max_len(1)
                .map(|i| {
                    if flag.load(std::sync::atomic::Ordering::Relaxed) {
                        return None;
                    }
                    // One generator per thread, kept: building one builds a solver.
                    let slot = rayon::current_thread_index().unwrap_or(0) % generators.len();
                    let mut generator = generators[slot].lock().unwrap_or_else(|e| e.into_inner());
                    match generator.puzzle(i) {
                        Err(GenerateError::Cancelled) => None,
                        made => Some(made.map_err(|e| e.to_string())),
                    }
                })
                .collect()
        });
        for (i, item) in (next..).zip(chunk) {
            // After a stop, the puzzles printed end before the first one not made.
            let Some(item) = item else { break };
            let puzzle = item.map_err(Failure::input)?;
            givens += puzzle.puzzle.givens() as u64;
            made += 1;
            write_puzzle(&mut out, run, i, &puzzle)?;
        }
        out.flush()?;
        next = end;
    }
    out.flush()?;
    let secs = start.elapsed().as_secs_f64();
    let summary = format!(
        "puzzles: {made}, givens: {:.1} on average, time: {secs:.3} s, puzzles/s: {:.1}, seed: {}",
        if made > 0 {
            givens as f64 / made as f64
        } else {
            0.0
        },
        if secs > 0.0 { made as f64 / secs } else { 0.0 },
        run.options.seed
    );
    if stop.is_raised() {
        return Err(stop.failure(&summary));
    }
    if !run.quiet {
        warn(&summary);
    }
    Ok(0)
}

fn write_puzzle(
    out: &mut impl Write,
    run: &GenerateRun,
    index: u64,
    made: &Generated,
) -> io::Result<()> {
    if run.json {
        let object = serde_json::json!({
            "index": index,
            "seed": run.options.seed,
            "puzzle": made.puzzle.to_line(),
            "givens": made.puzzle.givens(),
            "solution": made.solution.to_line(),
        });
        writeln!(out, "{object}")
    } else if run.solution {
        writeln!(out, "{} {}", made.puzzle.to_line(), made.solution.to_line())
    } else {
        writeln!(out, "{}", made.puzzle.to_line())
    }
}
