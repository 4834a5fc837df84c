//! Answering batches of puzzles, as the `sudoku` program does: the question asked of each
//! puzzle, solving a chunk of puzzles on one thread or many with the answers in input order,
//! stopping on a cancel flag, the three printed forms of an answer, and the totals.
//!
//! A [`Batch`] answers the [`Puzzle`]s of a [`PuzzleReader`](crate::reader::PuzzleReader) a
//! chunk at a time. Each thread keeps one [`SudokuSolver`] per grid size, so a model is built
//! once per size and thread rather than once per puzzle. Every puzzle gets an [`Answer`]:
//! an error (it could not be read, or its givens clash), what the search concluded, or
//! [`Answer::Unknown`] when the cancel flag ([`Batch::set_cancel_flag`]) cut its search short
//! or came before it started. A search cut short is never reported as a conclusion: a
//! uniqueness proof interrupted after one solution is `unknown`, not `unique`, and a count
//! interrupted is the lower bound it reached, `K+` ([`Answer::CountSoFar`]), not a count.
//!
//! [`Answer::text`], [`Answer::board`] and [`Answer::json`] write an answer in the program's
//! three formats; [`Summary`] adds answers up.
//!
//! ```
//! use bezzel_sudoku::batch::{Answer, Batch, Mode, Settings, Summary};
//! use bezzel_sudoku::reader::PuzzleReader;
//!
//! let text = "....3..2..4....3\n1...3.........2.\n1234\n";
//! let puzzles: Vec<_> = PuzzleReader::new(text.as_bytes()).collect::<Result<_, _>>()?;
//! let mut batch = Batch::new(Settings::default(), 1)?;
//! let answers = batch.answer(&puzzles);
//! let mode = Mode::Unique;
//! assert_eq!(answers[1].text(mode, puzzles[1].alphabet, "line 2"), "multiple solutions");
//! assert!(matches!(answers[2], Answer::Error(_)));
//! let mut summary = Summary::default();
//! answers.iter().for_each(|a| summary.add(a));
//! assert_eq!((summary.puzzles, summary.unique, summary.errors), (3, 1, 1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::grid::{Alphabet, Grid};
use crate::model::{DEFAULT_CONSISTENCY, Outcome, Status, SudokuSolver};
use crate::reader::Puzzle;
use bezzel_core::{Consistency, SearchConfig, Statistics, StopReason};
use bezzel_runner::distributed::map_round;
use bezzel_runner::{Cluster, ClusterError};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What is asked of each puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Solve, and prove the solution unique (count up to 2).
    #[default]
    Unique,
    /// The first solution found, without proving it unique.
    First,
    /// Count the solutions, up to this limit.
    Count(u64),
}

/// Which search answers a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// 9×9 puzzles by the hand-written [`kernel`](crate::kernel) (its own propagation and
    /// branching; of the search settings only the solution and node limits and the check
    /// of solutions apply), other sizes by the model. Its statistics count its own nodes.
    #[default]
    Kernel,
    /// Every puzzle by the engine's model, at the settings' consistency and with their
    /// search.
    Model,
}

/// How every puzzle of a batch is solved.
#[derive(Debug, Clone)]
pub struct Settings {
    /// What is asked of each puzzle.
    pub mode: Mode,
    /// Which search answers the puzzles.
    pub engine: Engine,
    /// How strongly rows, columns and boxes propagate (the model only).
    pub consistency: Consistency,
    /// Heuristics and restarts of the search (the model; the kernel takes the limits).
    pub search: SearchConfig,
}

impl Default for Settings {
    /// Prove each puzzle unique; 9×9 puzzles by the kernel, others by the model at domain
    /// consistency with the default search
    /// ([`default_search`](crate::model::default_search): dom/wdeg).
    fn default() -> Settings {
        Settings {
            mode: Mode::Unique,
            engine: Engine::Kernel,
            consistency: DEFAULT_CONSISTENCY,
            search: crate::model::default_search(),
        }
    }
}

impl Settings {
    /// The solutions a run looks for before it stops: what the mode asks, capped by the
    /// search's own solution limit.
    fn solution_limit(&self) -> u64 {
        let asked = match self.mode {
            Mode::Unique => 2,
            Mode::First => 1,
            Mode::Count(limit) => limit.max(1),
        };
        self.search
            .limits
            .solutions
            .map_or(asked, |s| s.clamp(1, asked))
    }

    /// Whether `grid` goes to the kernel: a 9×9 grid, and settings it honours (no time limit,
    /// which the model's clock enforces; the program's limit is the cancel flag).
    fn takes_kernel(&self, grid: &Grid) -> bool {
        self.engine == Engine::Kernel
            && grid.box_size() == crate::kernel::BOX_SIZE
            && self.search.limits.time.is_none()
    }

    /// Answers `grid` with the kernel, or says how long it tried when it gave up after
    /// [`KERNEL_FAILURES`] failures (the model is then asked).
    fn answer_with_kernel(
        &self,
        cancel: Option<&Arc<AtomicBool>>,
        grid: &Grid,
    ) -> Result<Answer, Duration> {
        let found = crate::kernel::count_grid(
            grid,
            crate::kernel::Limits {
                solutions: self.solution_limit(),
                nodes: self.search.limits.nodes,
                failures: Some(KERNEL_FAILURES),
                cancel: cancel.map(|c| &**c),
                check: self.search.check_solutions,
            },
        );
        let gave_up = found.stats.failures >= KERNEL_FAILURES
            && found.stats.stopped == Some(StopReason::NodeLimit);
        if gave_up {
            return Err(found.stats.elapsed);
        }
        // The kernel finds clashing givens as it places them; the grid names the clash.
        if let Some(clash) = found.givens_clash.then(|| grid.first_clash()).flatten() {
            return Ok(Answer::Error(
                crate::model::SudokuError::Clash(clash).to_string(),
            ));
        }
        let solution = found.first.map(|values| {
            Grid::from_cells(crate::kernel::BOX_SIZE, values).expect("the kernel fills 1..=9")
        });
        let stats = found.stats;
        let outcome = Outcome {
            solution,
            solutions: stats.solutions,
            // A first solution ends the run before the rest of the tree is seen.
            exact: stats.is_complete(),
            stats,
        };
        Ok(Answer::from_outcome(self.mode, outcome))
    }
}

/// Failures after which the kernel leaves a puzzle to the model, which starts again with its
/// matchings and dom/wdeg. Measured in instructions over the six collections of
/// `benches/peers/sudoku_peers.sh` for 3, 8, 12, 20, 30, 50 and no limit: 30 is the least on
/// top1465 and the 17-clue sample but for 50 (−12 % and −11 % against 3), and gives QQWing's
/// hard set (which propagation nearly solves, 5 failures a puzzle on average: at 3 most went
/// to the model) −59 %; the forum's hardest (+5.5 %) alone prefer the kernel to the end.
const KERNEL_FAILURES: u64 = 30;

/// The answer to one puzzle (serde, to come back from another process of a distributed
/// batch).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    /// The puzzle could not be read, or its givens clash: why.
    Error(String),
    /// The search went as far as the [`Mode`] asks: to the end of the tree, to the count's
    /// limit, or (with [`Mode::First`]) to a solution.
    Done(Outcome),
    /// The cancel flag cut the search short: nothing is known. The statistics are those of
    /// the work done.
    Unknown(Statistics),
    /// The cancel flag cut a count ([`Mode::Count`]) short: the puzzle has at least
    /// `solutions` solutions (the outcome is not [`exact`](Outcome::exact)), and how many is
    /// not known.
    CountSoFar(Outcome),
    /// The cancel flag came before the search started. A program prints answers up to the
    /// first of these: what comes after it was not looked at (or, on several threads, only
    /// partly).
    NotStarted,
}

impl Answer {
    /// The answer a search's outcome gives to `mode`: [`Answer::Unknown`] when a limit or the
    /// cancel flag ended it before it concluded anything.
    pub fn from_outcome(mode: Mode, outcome: Outcome) -> Answer {
        // The solution limit is how a uniqueness proof and a count end; anything else that
        // stopped the run (the cancel flag) left the tree unexplored.
        let cut_short = outcome
            .stats
            .stopped
            .is_some_and(|r| r != StopReason::SolutionLimit);
        // A first solution is a solution however the run ended.
        let concluded = !cut_short || (mode == Mode::First && outcome.solution.is_some());
        if concluded {
            Answer::Done(outcome)
        } else if let Mode::Count(_) = mode {
            Answer::CountSoFar(Outcome {
                exact: false,
                ..outcome
            })
        } else {
            Answer::Unknown(outcome.stats)
        }
    }

    /// Whether the answer concludes something about the puzzle (it is not
    /// [`Answer::Unknown`], [`Answer::CountSoFar`] or [`Answer::NotStarted`]).
    pub fn is_known(&self) -> bool {
        !matches!(
            self,
            Answer::Unknown(_) | Answer::CountSoFar(_) | Answer::NotStarted
        )
    }

    /// Whether the puzzle was looked at: read, and searched unless it could not be read.
    pub fn is_started(&self) -> bool {
        !matches!(self, Answer::NotStarted)
    }

    /// The statistics of the puzzle's search, if one ran.
    pub fn stats(&self) -> Option<&Statistics> {
        match self {
            Answer::Error(_) | Answer::NotStarted => None,
            Answer::Done(o) | Answer::CountSoFar(o) => Some(&o.stats),
            Answer::Unknown(stats) => Some(stats),
        }
    }

    /// The answer in one line: the solution in line form (in `alphabet`), `no solution`,
    /// `multiple solutions`, the count (`K+` when the limit or the cancel flag stopped it)
    /// with [`Mode::Count`], `unknown`, or `error: {location}: why`.
    pub fn text(&self, mode: Mode, alphabet: Alphabet, location: &str) -> String {
        let o = match self {
            Answer::Error(e) => return format!("error: {location}: {e}"),
            Answer::CountSoFar(o) => return count_text(o),
            Answer::Unknown(_) | Answer::NotStarted => return "unknown".to_string(),
            Answer::Done(o) => o,
        };
        if let Mode::Count(_) = mode {
            return count_text(o);
        }
        match (o.status(), &o.solution) {
            (Status::Unique | Status::Solved, Some(s)) => s.to_line_in(alphabet),
            (Status::Multiple, _) => "multiple solutions".to_string(),
            (Status::NoSolution, _) => "no solution".to_string(),
            _ => "unknown".to_string(),
        }
    }

    /// The answer as a `# {location}: status` header, the solution's grid with box
    /// separators when there is one to show, and a blank line.
    pub fn board(&self, mode: Mode, alphabet: Alphabet, location: &str) -> String {
        let o = match self {
            Answer::Error(e) => return format!("# {location}: error: {e}\n\n"),
            Answer::CountSoFar(o) => {
                return format!("# {location}: {} solution(s)\n\n", count_text(o));
            }
            Answer::Unknown(_) | Answer::NotStarted => return format!("# {location}: unknown\n\n"),
            Answer::Done(o) => o,
        };
        let status = match mode {
            Mode::Count(_) => format!("{} solution(s)", count_text(o)),
            _ => o.status().to_string(),
        };
        let mut text = format!("# {location}: {status}\n");
        if let (Status::Unique | Status::Solved, Some(s)) = (o.status(), &o.solution) {
            text += &s.to_pretty_in(alphabet);
        }
        text.push('\n');
        text
    }

    /// The answer as one JSON object (serialize it with `serde_json`): `file` (when given),
    /// `line`, `puzzle`, `status` (`unique`, `multiple`, `no_solution`, `solved`, `unknown`
    /// or `error`), then `solution`, `count`, `exact`, or `error`, and the search's `nodes`,
    /// `failures`, `propagations` and `time_ms`.
    pub fn json<'a>(&'a self, file: Option<&'a str>, puzzle: &Puzzle) -> JsonAnswer<'a> {
        let text = match &puzzle.grid {
            Ok(g) => g.to_line_in(puzzle.alphabet),
            Err(_) => puzzle.text.clone(),
        };
        let mut json = JsonAnswer {
            file,
            line: puzzle.line,
            puzzle: text,
            status: "error",
            solution: None,
            count: None,
            exact: None,
            error: None,
            nodes: None,
            failures: None,
            propagations: None,
            time_ms: None,
        };
        match self {
            Answer::Error(e) => json.error = Some(e),
            Answer::Done(o) => {
                json.status = status_name(o.status());
                json.solution = o.solution.as_ref().map(|s| s.to_line_in(puzzle.alphabet));
                json.count = Some(o.solutions);
                json.exact = Some(o.exact);
            }
            Answer::Unknown(_) | Answer::NotStarted => json.status = "unknown",
            Answer::CountSoFar(o) => {
                json.status = "unknown";
                json.count = Some(o.solutions);
                json.exact = Some(false);
            }
        }
        if let Some(stats) = self.stats() {
            json.nodes = Some(stats.nodes);
            json.failures = Some(stats.failures);
            json.propagations = Some(stats.propagations);
            json.time_ms = Some((stats.elapsed.as_secs_f64() * 1e6).round() / 1e3);
        }
        json
    }
}

/// Where a puzzle is, in messages: `line L`, or `file: line L` when there are several inputs.
pub fn location(file: Option<&str>, line: usize) -> String {
    match file {
        Some(name) => format!("{name}: line {line}"),
        None => format!("line {line}"),
    }
}

/// A count, with `+` when the limit stopped it.
fn count_text(o: &Outcome) -> String {
    if o.exact {
        o.solutions.to_string()
    } else {
        format!("{}+", o.solutions)
    }
}

/// A status as JSON writes it.
fn status_name(status: Status) -> &'static str {
    match status {
        Status::NoSolution => "no_solution",
        Status::Solved => "solved",
        Status::Unique => "unique",
        Status::Multiple => "multiple",
        Status::Unknown => "unknown",
    }
}

/// One answer as a JSON object; see [`Answer::json`].
#[derive(Debug, Serialize)]
pub struct JsonAnswer<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    line: usize,
    puzzle: String,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exact: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    failures: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    propagations: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_ms: Option<f64>,
}

/// Totals over the answers of a batch.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Puzzles answered, whatever the answer.
    pub puzzles: u64,
    /// Puzzles with a solution found (unique, multiple, or a first solution).
    pub solved: u64,
    /// Puzzles proven to have exactly one solution.
    pub unique: u64,
    /// Puzzles with at least two solutions.
    pub multiple: u64,
    /// Puzzles proven to have none.
    pub no_solution: u64,
    /// Puzzles that could not be read or whose givens clash.
    pub errors: u64,
    /// Puzzles whose search was cut short.
    pub unknown: u64,
    /// Search nodes, summed over puzzles.
    pub nodes: u64,
    /// Failed nodes, summed over puzzles.
    pub failures: u64,
    /// Propagator runs, summed over puzzles.
    pub propagations: u64,
    /// The deepest search of any puzzle.
    pub max_depth: u64,
    /// The searches' own time in seconds, summed over puzzles (model building and output
    /// excluded).
    pub search_secs: f64,
}

impl Summary {
    /// Adds one answer.
    pub fn add(&mut self, answer: &Answer) {
        self.puzzles += 1;
        match answer {
            Answer::Error(_) => self.errors += 1,
            Answer::Unknown(_) | Answer::CountSoFar(_) | Answer::NotStarted => self.unknown += 1,
            Answer::Done(o) => match o.status() {
                Status::Unique => {
                    self.solved += 1;
                    self.unique += 1;
                }
                Status::Solved => self.solved += 1,
                Status::Multiple => {
                    self.solved += 1;
                    self.multiple += 1;
                }
                Status::NoSolution => self.no_solution += 1,
                Status::Unknown => self.unknown += 1,
            },
        }
        if let Some(stats) = answer.stats() {
            self.nodes += stats.nodes;
            self.failures += stats.failures;
            self.propagations += stats.propagations;
            self.max_depth = self.max_depth.max(stats.max_depth);
            self.search_secs += stats.elapsed.as_secs_f64();
        }
    }

    /// The summary in one line, for a run of `secs` seconds: puzzles, solved, unique,
    /// multiple, no solution, errors, unknown (when there were any), time, puzzles per second,
    /// nodes; with `stats` also failures, propagations, the deepest search and the search time.
    pub fn line(&self, secs: f64, stats: bool) -> String {
        let rate = if secs > 0.0 {
            self.puzzles as f64 / secs
        } else {
            0.0
        };
        let mut line = format!(
            "puzzles: {}, solved: {}, unique: {}, multiple: {}, no solution: {}, errors: {}",
            self.puzzles, self.solved, self.unique, self.multiple, self.no_solution, self.errors
        );
        if self.unknown > 0 {
            line += &format!(", unknown: {}", self.unknown);
        }
        line += &format!(
            ", time: {secs:.3} s, puzzles/s: {rate:.1}, nodes: {}",
            self.nodes
        );
        if stats {
            line += &format!(
                ", failures: {}, propagations: {}, max depth: {}, search time: {:.3} s",
                self.failures, self.propagations, self.max_depth, self.search_secs
            );
        }
        line
    }
}

/// Solvers for the grid sizes met so far, one model per size, reused across puzzles: the state
/// of one thread.
#[derive(Debug, Default)]
pub struct Solvers(Vec<SudokuSolver>);

impl Solvers {
    /// Answers one puzzle with the solver of its size, built on first use.
    fn answer(
        &mut self,
        settings: &Settings,
        cancel: Option<&Arc<AtomicBool>>,
        puzzle: &Puzzle,
    ) -> Answer {
        match &puzzle.grid {
            Ok(grid) => self.answer_grid(settings, cancel, grid),
            Err(e) => Answer::Error(e.to_string()),
        }
    }

    /// Answers the puzzle `grid` as `settings` ask, with the solver of its size (built on
    /// first use, then kept), stopping when `cancel` is raised: what each thread of a
    /// distributed batch does with the grids it is handed.
    pub fn answer_grid(
        &mut self,
        settings: &Settings,
        cancel: Option<&Arc<AtomicBool>>,
        grid: &Grid,
    ) -> Answer {
        // Once the flag is up, no new search starts: each would stop at its first node anyway,
        // but building a solver for a new size would not.
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Answer::NotStarted;
        }
        let mut kernel_time = Duration::ZERO;
        if settings.takes_kernel(grid) {
            match settings.answer_with_kernel(cancel, grid) {
                Ok(answer) => return answer,
                Err(tried) => kernel_time = tried,
            }
        }
        let solver = match self.0.iter().position(|s| s.box_size() == grid.box_size()) {
            Some(i) => Ok(&mut self.0[i]),
            None => {
                SudokuSolver::with_config(grid.box_size(), settings.consistency, settings.search)
                    .map(|mut s| {
                        if let Some(flag) = cancel {
                            s.set_cancel_flag(flag.clone());
                        }
                        self.0.push(s);
                        self.0.last_mut().expect("just pushed")
                    })
            }
        };
        let outcome = solver.and_then(|s| match settings.mode {
            Mode::Unique => s.count(grid, 2),
            Mode::First => s.solve(grid),
            Mode::Count(limit) => s.count(grid, limit),
        });
        match outcome {
            Ok(mut o) => {
                // The kernel's attempt is part of the puzzle's search time.
                o.stats.elapsed += kernel_time;
                if let Some(s) = &o.solution {
                    debug_assert_eq!(crate::check::is_valid_solution(grid, s), Ok(()));
                }
                Answer::from_outcome(settings.mode, o)
            }
            Err(e) => Answer::Error(e.to_string()),
        }
    }
}

/// Answers puzzles a chunk at a time, on one thread or on a pool of them, in input order; see
/// the [module docs](self).
#[derive(Debug)]
pub struct Batch {
    settings: Settings,
    /// `None` for one thread: the puzzles are answered on the caller's.
    pool: Option<rayon::ThreadPool>,
    /// The solvers of the one-thread batch, kept across chunks.
    serial: Solvers,
    /// The solvers of each pool thread (by its index in the pool), kept across chunks. Only
    /// that thread locks its own, so no lock ever waits.
    workers: Vec<Mutex<Solvers>>,
    cancel: Option<Arc<AtomicBool>>,
}

impl Batch {
    /// A batch that answers each chunk on `threads` threads (at least 1). Fails when the
    /// system cannot start them.
    pub fn new(settings: Settings, threads: usize) -> io::Result<Batch> {
        let pool = if threads <= 1 {
            None
        } else {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(io::Error::other)?;
            Some(pool)
        };
        let workers = match &pool {
            Some(pool) => (0..pool.current_num_threads())
                .map(|_| Mutex::new(Solvers::default()))
                .collect(),
            None => Vec::new(),
        };
        Ok(Batch {
            settings,
            pool,
            serial: Solvers::default(),
            workers,
            cancel: None,
        })
    }

    /// How puzzles are solved.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Sets a flag that another thread raises to stop (Ctrl-C, a time limit): the searches in
    /// flight stop at their next node and no new one starts; their answers are
    /// [`Answer::Unknown`].
    pub fn set_cancel_flag(&mut self, flag: Arc<AtomicBool>) {
        for solver in &mut self.serial.0 {
            solver.set_cancel_flag(flag.clone());
        }
        self.cancel = Some(flag);
    }

    /// Answers `chunk`, one answer per puzzle, in order. Its puzzles are solved in parallel
    /// on the batch's threads, so a chunk should hold several times as many puzzles as there
    /// are threads to keep them all busy.
    pub fn answer(&mut self, chunk: &[Puzzle]) -> Vec<Answer> {
        let (settings, cancel) = (&self.settings, self.cancel.as_ref());
        match &self.pool {
            None => chunk
                .iter()
                .map(|p| self.serial.answer(settings, cancel, p))
                .collect(),
            // Each puzzle is a task of its own (`with_max_len(1)`), so that an idle thread can
            // always steal one: rayon's default leaves runs of puzzles on one thread while the
            // other idles at the end of every chunk (and `map_init` made new solvers per run).
            Some(pool) => {
                let workers = &self.workers;
                pool.install(|| {
                    chunk
                        .par_iter()
                        .with_max_len(1)
                        .map(|p| {
                            let slot = rayon::current_thread_index().unwrap_or(0) % workers.len();
                            let mut solvers =
                                workers[slot].lock().unwrap_or_else(|e| e.into_inner());
                            solvers.answer(settings, cancel, p)
                        })
                        .collect()
                })
            }
        }
    }
}

/// Answers `chunk` on the processes of `cluster` (rank 0 included, each with `threads`
/// threads), in order, as [`Batch::answer`] does on one: rank 0 calls it for each chunk while
/// every other rank runs [`serve_cluster`]. Puzzles that failed to read are answered with
/// their error, and puzzles not started before `stop` was raised with
/// [`Answer::NotStarted`]. Fails with the cluster's error when a rank cannot be reached.
pub fn answer_on_cluster(
    cluster: &dyn Cluster,
    threads: usize,
    settings: &Settings,
    stop: &Arc<AtomicBool>,
    chunk: &[Puzzle],
) -> Result<Vec<Answer>, ClusterError> {
    let grids: Vec<Grid> = chunk.iter().filter_map(|p| p.grid.clone().ok()).collect();
    let mut answers = map_round(
        cluster,
        threads,
        stop,
        Some(&grids),
        Solvers::default,
        |solvers, grid: &Grid| solvers.answer_grid(settings, Some(stop), grid),
    )?
    .unwrap_or_default()
    .into_iter();
    Ok(chunk
        .iter()
        .map(|p| match &p.grid {
            Err(e) => Answer::Error(e.to_string()),
            Ok(_) => answers.next().flatten().unwrap_or(Answer::NotStarted),
        })
        .collect())
}

/// A rank above 0 of [`answer_on_cluster`]: answers the puzzles rank 0 hands out, round after
/// round, until rank 0 says there are no more.
pub fn serve_cluster(
    cluster: &dyn Cluster,
    threads: usize,
    settings: &Settings,
    stop: &Arc<AtomicBool>,
) -> Result<(), ClusterError> {
    while map_round(
        cluster,
        threads,
        stop,
        None,
        Solvers::default,
        |solvers, grid: &Grid| solvers.answer_grid(settings, Some(stop), grid),
    )?
    .is_some()
    {}
    Ok(())
}

/// Rank 0, after its last [`answer_on_cluster`]: tells the ranks serving in
/// [`serve_cluster`] that there are no more puzzles, which ends their loops.
pub fn finish_cluster(cluster: &dyn Cluster, stop: &Arc<AtomicBool>) -> Result<(), ClusterError> {
    let settings = Settings::default();
    map_round(
        cluster,
        1,
        stop,
        None,
        Solvers::default,
        |solvers, grid: &Grid| solvers.answer_grid(&settings, None, grid),
    )
    .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::PuzzleReader;

    fn read(text: &str) -> Vec<Puzzle> {
        PuzzleReader::new(text.as_bytes())
            .collect::<Result<_, _>>()
            .unwrap()
    }

    const UNIQUE_4X4: &str = "....3..2..4....3";

    #[test]
    fn a_puzzle_the_kernel_gives_up_on_gets_the_answer_of_the_model_alone() {
        // Some of the forum's hardest puzzles take the kernel past its failure limit; the
        // default engine then asks the model, which must answer as it does on its own.
        let text = include_str!("../../../benches/data/sudoku_forum_hardest_1106.txt");
        let given_up: Vec<Puzzle> = read(text)
            .into_iter()
            .filter(|p| {
                let grid = p.grid.as_ref().unwrap();
                let limits = crate::kernel::Limits {
                    solutions: 2,
                    failures: Some(KERNEL_FAILURES),
                    ..Default::default()
                };
                crate::kernel::count_grid(grid, limits).stats.failures >= KERNEL_FAILURES
            })
            .take(4)
            .collect();
        assert!(
            !given_up.is_empty(),
            "no puzzle takes the kernel to its limit"
        );
        let answers = |engine| {
            let settings = Settings {
                engine,
                mode: Mode::Count(2),
                ..Settings::default()
            };
            Batch::new(settings, 1).unwrap().answer(&given_up)
        };
        let (by_default, by_model) = (answers(Engine::Kernel), answers(Engine::Model));
        for ((p, a), b) in given_up.iter().zip(&by_default).zip(&by_model) {
            let (Answer::Done(a), Answer::Done(b)) = (a, b) else {
                panic!("line {}: {a:?} / {b:?}", p.line);
            };
            assert_eq!(
                (a.solutions, a.exact),
                (b.solutions, b.exact),
                "line {}",
                p.line
            );
            assert_eq!(a.solution, b.solution, "line {}", p.line);
            let solution = a.solution.as_ref().expect("the forum's puzzles have one");
            crate::check::is_valid_solution(p.grid.as_ref().unwrap(), solution).unwrap();
        }
    }

    #[test]
    fn a_raised_flag_gives_unknown_never_a_conclusion() {
        let puzzles = read(&format!("{UNIQUE_4X4}\n{}\n1234\n", ".".repeat(81)));
        for mode in [Mode::Unique, Mode::First, Mode::Count(100)] {
            for threads in [1, 2] {
                let settings = Settings {
                    mode,
                    ..Settings::default()
                };
                let mut batch = Batch::new(settings, threads).unwrap();
                let flag = Arc::new(AtomicBool::new(true));
                batch.set_cancel_flag(flag);
                let answers = batch.answer(&puzzles);
                assert_eq!(answers[0], Answer::NotStarted);
                assert_eq!(
                    answers[0].text(mode, Alphabet::FromOne, "line 1"),
                    "unknown"
                );
                assert!(!answers[1].is_known());
                // A line that cannot be read is an error, whatever the flag.
                assert!(matches!(answers[2], Answer::Error(_)));
            }
        }
    }

    #[test]
    fn a_cut_short_outcome_is_unknown_and_a_first_solution_is_kept() {
        let puzzle = crate::grid::Grid::parse_line(UNIQUE_4X4).unwrap();
        let mut o = crate::model::count(&puzzle, 2).unwrap();
        assert!(Answer::from_outcome(Mode::Unique, o.clone()).is_known());
        // One solution, then the flag: neither unique nor a count.
        o.exact = false;
        o.stats.stopped = Some(StopReason::Cancelled);
        assert!(!Answer::from_outcome(Mode::Unique, o.clone()).is_known());
        assert!(!Answer::from_outcome(Mode::Count(5), o.clone()).is_known());
        assert!(Answer::from_outcome(Mode::First, o).is_known());
    }

    #[test]
    fn a_count_cut_short_gives_the_lower_bound_it_reached() {
        // The empty 4x4 grid has 288 solutions (published); a node limit stops its count
        // part way, after some of them.
        let empty = crate::grid::Grid::parse_line(&".".repeat(16)).unwrap();
        let mut search = crate::model::default_search();
        search.limits.nodes = Some(60);
        let mut sudoku = crate::model::Sudoku::with_config(&empty, search).unwrap();
        let outcome = sudoku.count(1000);
        assert!(
            outcome
                .stats
                .stopped
                .is_some_and(|r| r != StopReason::SolutionLimit)
        );
        let found = outcome.solutions;
        assert!(0 < found && found < 288, "{found}");
        let mode = Mode::Count(1000);
        let answer = Answer::from_outcome(mode, outcome);
        assert!(!answer.is_known());
        assert_eq!(
            answer.text(mode, Alphabet::FromOne, ""),
            format!("{found}+")
        );
        assert!(
            answer
                .board(mode, Alphabet::FromOne, "line 1")
                .contains(&format!("{found}+ solution(s)"))
        );
        let puzzle = read(&".".repeat(16)).remove(0);
        let json = serde_json::to_value(answer.json(None, &puzzle)).unwrap();
        assert_eq!(json["status"], "unknown");
        assert_eq!(json["count"], found);
        assert_eq!(json["exact"], false);
        let mut summary = Summary::default();
        summary.add(&answer);
        assert_eq!((summary.unknown, summary.solved), (1, 0));
    }

    #[test]
    fn answers_come_in_input_order_on_any_number_of_threads() {
        let text = format!("{UNIQUE_4X4}\n1...3.........2.\n").repeat(50);
        let puzzles = read(&text);
        let one = Batch::new(Settings::default(), 1).unwrap().answer(&puzzles);
        let four = Batch::new(Settings::default(), 4).unwrap().answer(&puzzles);
        assert_eq!(one.len(), 100);
        for (a, b) in one.iter().zip(&four) {
            let text = |x: &Answer| x.text(Mode::Unique, Alphabet::FromOne, "");
            assert_eq!(text(a), text(b));
        }
    }
}
