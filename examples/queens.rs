//! The queens command: count, list, construct and check N-Queens placements.
//!
//! ```text
//! cargo run --release --example queens -- 8                 # the 92 solutions and the total
//! cargo run --release --example queens -- count 14          # fastest exact count, all cores
//! cargo run --release --example queens -- count 12 --engine model --consistency domain --stats
//! cargo run --release --example queens -- count 18 --checkpoint q18.ckpt   # Ctrl-C, rerun: resumes
//! cargo run --release --example queens -- count 20 --time-limit 10s
//! cargo run --release --example queens -- first 8 --format board
//! cargo run --release --example queens -- first 8 --tree tree.html    # the search, drawn
//! cargo run --release --example queens -- unique 8 --list --format svg > unique8.svg
//! cargo run --release --example queens -- unique 8 --list
//! cargo run --release --example queens -- construct 1000000 > placement.txt
//! cargo run --release --example queens -- 8 | cargo run --release --example queens -- check
//! ```
//!
//! The work is the library's (`bezzel_queens::counting` for counts, `format` for reading and
//! writing placements, `check` for checking them); this program parses arguments and prints.
//! Exit status: 0 on success, 1 when the answer is negative (`check` found attacks, `first`
//! or `construct` has no solution), 2 on bad input or when output cannot be written, 124
//! when `--time-limit` stopped the work and 130 when Ctrl-C did (after saying how far it
//! got; a second Ctrl-C quits at once), 141 (quietly) when the reader of the output went away.

use bezzel_cli::cluster::{self, Mpi, MpiFlag};
use bezzel_cli::options::{Format, Order, Quiet, Stats, Threads, TimeLimit, Tree};
use bezzel_cli::{Failure, Progress, Stop, options, status};
use bezzel_core::parallel::{ParallelError, RunError, RunReport};
use bezzel_core::search::tree::{self as search_tree, Layout, PageOptions};
use bezzel_core::{Consistency, SearchConfig};
use bezzel_queens::counting::{self, CountError, Engine};
use bezzel_queens::{check, construct, format, model::Queens, svg, symmetry};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(
    name = "queens",
    version,
    about = "N-Queens: count, list, construct and check placements",
    long_about = "N-Queens: count, list, construct and check placements.\n\n\
                  A plain `queens N` prints every solution and the total, like the classic programs.",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Board size, for the default command (`all`).
    #[arg(allow_negative_numbers = true)]
    n: Option<String>,
    #[command(flatten)]
    all: AllOptions,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count all solutions.
    Count(CountCommand),
    /// Print every solution in lexicographic order, then the total.
    All(AllCommand),
    /// Print the lexicographically first solution (slow for large n, where row-by-row search
    /// backtracks a lot: use `construct` for any one solution).
    First(FirstCommand),
    /// Count solutions that are distinct under rotations and reflections.
    Unique(UniqueCommand),
    /// Print one solution for any n >= 4 (and n = 1) in O(n), by the closed-form rule.
    Construct(ConstructCommand),
    /// Read placements (columns separated by spaces or commas, or any form this program
    /// prints: `queens 8 | queens check` checks all 92) and say whether each is a solution,
    /// and which queens attack each other if not.
    Check(CheckCommand),
}

/// The board size of every command but `check`.
#[derive(Args, Debug)]
struct Board {
    /// Board size.
    #[arg(allow_negative_numbers = true)]
    n: String,
}

#[derive(Args, Debug)]
struct CountCommand {
    #[command(flatten)]
    board: Board,
    /// Counting engine: `symmetry` counts placements canonical under the board's 8
    /// symmetries (the fastest), `bitmask` is the classic mirror-symmetry counter, `model`
    /// the generic constraint model (plain depth-first search with `--threads 1`).
    #[arg(long, value_enum, ignore_case = true, default_value_t = EngineArg::Symmetry)]
    engine: EngineArg,
    #[command(flatten)]
    consistency: ConsistencyArg,
    /// Variable order of the model's search (`--engine model` only; `all` and `first` go row
    /// by row, so that solutions come in lexicographic order) [default: first-fail].
    #[arg(long, value_enum, ignore_case = true)]
    order: Option<Order>,
    #[command(flatten)]
    run: RunOptions,
    #[command(flatten)]
    format: SummaryFormat,
    /// `--tree`: with `--engine model`, the count's one-thread search, drawn.
    #[command(flatten)]
    tree: Tree,
}

#[derive(Args, Debug)]
struct AllCommand {
    #[command(flatten)]
    board: Board,
    #[command(flatten)]
    options: AllOptions,
}

/// The options of `all` (and of a plain `queens N`).
#[derive(Args, Debug)]
struct AllOptions {
    #[command(flatten)]
    format: PlacementFormat,
    /// Print at most this many solutions.
    #[arg(long, allow_negative_numbers = true, value_parser = options::whole_number)]
    limit: Option<u64>,
    #[command(flatten)]
    consistency: ConsistencyArg,
    #[command(flatten)]
    long: LongRun,
}

#[derive(Args, Debug)]
struct FirstCommand {
    #[command(flatten)]
    board: Board,
    #[command(flatten)]
    format: PlacementFormat,
    #[command(flatten)]
    consistency: ConsistencyArg,
    #[command(flatten)]
    long: LongRun,
    #[command(flatten)]
    tree: Tree,
}

#[derive(Args, Debug)]
struct UniqueCommand {
    #[command(flatten)]
    board: Board,
    /// Also print one representative of each class (the lexicographically smallest).
    #[arg(long)]
    list: bool,
    /// Print at most this many representatives.
    #[arg(long, requires = "list", allow_negative_numbers = true, value_parser = options::whole_number)]
    limit: Option<u64>,
    #[command(flatten)]
    format: PlacementFormat,
    #[command(flatten)]
    run: RunOptions,
}

#[derive(Args, Debug)]
struct ConstructCommand {
    #[command(flatten)]
    board: Board,
    #[command(flatten)]
    format: PlacementFormat,
    #[command(flatten)]
    stats: Stats,
}

#[derive(Args, Debug)]
struct CheckCommand {
    /// One placement; placements are read from stdin when absent.
    #[arg(allow_negative_numbers = true)]
    columns: Vec<String>,
    /// Attacking pairs listed per placement (default 100); all are counted.
    #[arg(long, allow_negative_numbers = true, value_parser = options::whole_number)]
    limit: Option<u64>,
    #[command(flatten)]
    format: SummaryFormat,
}

/// The options of every command that may run long.
#[derive(Args, Debug)]
struct LongRun {
    #[command(flatten)]
    stats: Stats,
    #[command(flatten)]
    quiet: Quiet,
    #[command(flatten)]
    time_limit: TimeLimit,
}

impl LongRun {
    /// Ctrl-C and the time limit, watched from now on.
    fn stop(&self) -> Stop {
        Stop::install(self.time_limit.time_limit)
    }

    fn print_stats(&self, stats: &impl std::fmt::Display) {
        if self.stats.stats {
            bezzel_cli::warn(&stats.to_string());
        }
    }
}

/// The options of the parallel counts (`count`, `unique`).
#[derive(Args, Debug)]
struct RunOptions {
    #[command(flatten)]
    threads: Threads,
    /// Record finished subproblems in FILE; rerunning the same command resumes.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    #[command(flatten)]
    long: LongRun,
    #[command(flatten)]
    mpi: MpiFlag,
}

/// `--consistency` of the model's all-different constraints.
#[derive(Args, Debug, Clone, Copy)]
struct ConsistencyArg {
    /// Propagation strength of the model's all-different constraints.
    #[arg(long, value_name = "value|bounds|domain", value_parser = options::consistency)]
    consistency: Option<Consistency>,
}

/// `--format` of the commands that print placements.
#[derive(Args, Debug)]
struct PlacementFormat {
    /// How to print placements: `NO.1: 0 4 7 5 2 6 1 3`, the board, JSON lines, or one SVG
    /// picture of the boards.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
    /// With `--format svg`: shade the lines each queen attacks, and draw in red the queens
    /// that attack another.
    #[arg(long)]
    attacks: bool,
}

/// `--format` of the commands that print a summary only.
#[derive(Args, Debug)]
struct SummaryFormat {
    /// How to print the answer: text, or one JSON object per line.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Summary::Text)]
    format: Summary,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum Summary {
    /// Plain text.
    Text,
    /// One JSON object per line.
    Json,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum EngineArg {
    /// The generic constraint model (three all-different constraints).
    Model,
    /// The bit-parallel backtracking counter with mirror symmetry.
    Bitmask,
    /// Bit-parallel counting of placements canonical under all 8 symmetries: the fastest.
    Symmetry,
}

fn main() -> ExitCode {
    let cli = match bezzel_cli::parse_args::<Cli>("queens") {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = match cli.command {
        Some(Command::Count(c)) => c.run(),
        Some(Command::All(c)) => parse_n(&c.board.n).and_then(|n| all(n, &c.options)),
        Some(Command::First(c)) => c.run(),
        Some(Command::Unique(c)) => c.run(),
        Some(Command::Construct(c)) => c.run(),
        Some(Command::Check(c)) => c.run(),
        None => match cli.n {
            Some(n) => parse_n(&n).and_then(|n| all(n, &cli.all)),
            None => Err(Failure::input(
                "missing board size: try `queens 8` or `queens count 12` (see --help)",
            )),
        },
    };
    bezzel_cli::exit("queens", result)
}

fn parse_n(text: &str) -> Result<usize, Failure> {
    options::board_size(text).map_err(Failure::input)
}

fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// The model of `n` queens searched in `order` (row by row for `all` and `first`, so that
/// solutions come in lexicographic order), watching `stop`.
fn queens_model(
    n: usize,
    consistency: ConsistencyArg,
    order: Option<Order>,
    stop: &Stop,
) -> Result<Queens, Failure> {
    let config = SearchConfig {
        var_order: order.unwrap_or_default().var_order(),
        ..SearchConfig::default()
    };
    let mut q = Queens::with_consistency(n, config, consistency.consistency.unwrap_or_default())
        .map_err(|e| Failure::input(e.to_string()))?;
    q.solver_mut().set_cancel_flag(stop.flag().clone());
    Ok(q)
}

/// Prints a count: the number alone (with `unique`, the sentence of `queens unique`), or its
/// JSON line.
fn print_count(
    n: usize,
    count: u64,
    unique: Option<u64>,
    engine: &str,
    format: Summary,
) -> Result<(), Failure> {
    let mut w = stdout();
    match (format, unique) {
        (Summary::Json, _) => writeln!(w, "{}", format::count_json(n, count, engine, unique))?,
        (Summary::Text, None) => writeln!(w, "{count}")?,
        (Summary::Text, Some(unique)) => {
            writeln!(w, "{unique} unique solutions ({count} in total)")?
        }
    }
    Ok(w.flush()?)
}

impl CountCommand {
    fn run(self) -> Result<u8, Failure> {
        let mpi = self.run.mpi.start()?;
        let result = self.count(mpi.as_ref());
        cluster::end("queens", mpi, result)
    }

    fn count(self, mpi: Option<&Mpi>) -> Result<u8, Failure> {
        let n = parse_n(&self.board.n)?;
        let model_options = self.order.is_some() || self.consistency.consistency.is_some();
        let engine = match self.engine {
            EngineArg::Model => Engine::Model {
                consistency: self.consistency.consistency.unwrap_or_default(),
                order: self.order.unwrap_or_default().var_order(),
            },
            _ if model_options => {
                let flag = if self.order.is_some() {
                    "--order"
                } else {
                    "--consistency"
                };
                return Err(Failure::input(format!(
                    "{flag} applies to the model's search, so to count --engine model only"
                )));
            }
            EngineArg::Symmetry => Engine::Symmetry,
            EngineArg::Bitmask => Engine::Bitmask,
        };
        let (start, run, format) = (Instant::now(), &self.run, self.format.format);
        let stop = run.long.stop();
        if self.tree.tree.is_some() {
            if mpi.is_some() {
                return Err(Failure::input(
                    "--tree draws the search of one process: leave out --mpi",
                ));
            }
            return self.count_drawn(n, &stop);
        }
        let report = run_count(n, engine, run, &stop, mpi, format == Summary::Json)?;
        if cluster::is_worker(mpi) {
            return Ok(0);
        }
        let threads = match mpi {
            Some(mpi) => format!("{} x {} ranks", run.threads.count(), mpi.size()),
            None => run.threads.count().to_string(),
        };
        if let Engine::Model { .. } = engine {
            let mut s = report.stats.clone();
            s.solutions = report.counts[0];
            let subproblems = report.total;
            run.long.print_stats(&format!(
                "{s} (subproblems: {subproblems}, threads: {threads})"
            ));
        } else {
            let time = start.elapsed().as_secs_f64();
            let name = engine.name();
            run.long.print_stats(&format!(
                "engine: {name}, threads: {threads}, time: {time:.3} s"
            ));
        }
        print_count(n, report.counts[0], None, engine.name(), format)?;
        Ok(0)
    }
}

impl CountCommand {
    /// `count --engine model --tree FILE`: the one-thread depth-first count (the search
    /// `counting::count` runs on one thread), recorded and drawn.
    fn count_drawn(&self, n: usize, stop: &Stop) -> Result<u8, Failure> {
        let refuse = |why: &str| Err(Failure::input(format!("--tree {why}")));
        if self.engine != EngineArg::Model {
            return refuse("draws the model's search: add --engine model");
        }
        if self.run.threads.threads.is_some_and(|t| t != 1) || self.run.checkpoint.is_some() {
            return refuse(
                "draws one depth-first search: it takes neither --threads nor --checkpoint",
            );
        }
        let mut q = queens_model(n, self.consistency, self.order, stop)?;
        let tree = drawn(&mut q, &self.tree, |q| q.count());
        let count = tree?;
        self.run.long.print_stats(q.stats());
        if !q.stats().is_complete() {
            return Err(stop.failure(&format!("{count} solutions so far")));
        }
        print_count(n, count, None, "model", self.format.format)?;
        Ok(0)
    }
}

/// Runs `run` on the queens model with a recorder watching, and writes the page of the tree
/// to the `--tree` file.
fn drawn<T>(q: &mut Queens, tree: &Tree, run: impl FnOnce(&mut Queens) -> T) -> Result<T, Failure> {
    let n = q.n();
    search_tree::start(q.solver_mut(), tree.limit());
    let answer = run(q);
    let recorded = search_tree::take(q.solver_mut()).expect("the recorder");
    let page = recorded.to_html(&PageOptions {
        title: format!("{n} queens"),
        layout: Layout::Queens,
        symbols: Vec::new(),
    });
    tree.write(&page).map_err(Failure::input)?;
    Ok(answer)
}

/// Counts by the library's resumable parallel runner, with a progress bar when a person is
/// watching; a run cut short is a failure that says how far it got.
fn run_count(
    n: usize,
    engine: Engine,
    run: &RunOptions,
    stop: &Stop,
    mpi: Option<&Mpi>,
    json: bool,
) -> Result<RunReport<2>, Failure> {
    let options = counting::Options {
        threads: run.threads.threads,
        checkpoint: run.checkpoint.as_deref(),
        cancel: Some(stop.flag()),
        cluster: mpi.map(|m| m as &dyn bezzel_core::parallel::Cluster),
    };
    // The bar is made when the runner says how many subproblems there are.
    let bar = OnceLock::new();
    let quiet = run.long.quiet.quiet || json;
    let report = counting::count(n, engine, &options, |done, total| {
        bar.get_or_init(|| Progress::new(Some(total as u64), "subproblems", quiet))
            .set_position(done as u64);
    });
    if let Some(bar) = bar.get() {
        bar.finish();
    }
    let report = report.map_err(|e| run_failure(e, run, stop))?;
    if !report.is_complete() {
        let resume = if run.checkpoint.is_some() {
            "run the same command again to resume"
        } else {
            "add --checkpoint FILE to make a run resumable"
        };
        return Err(stop.failure(&format!(
            "{} of {} subproblems done, {} solutions so far; {resume}",
            report.done, report.total, report.counts[0]
        )));
    }
    Ok(report)
}

/// The message of a failed count: an error in a subproblem names it and the checkpoint (a
/// rerun would meet it again, so it is no interruption).
fn run_failure(e: RunError<CountError>, run: &RunOptions, stop: &Stop) -> Failure {
    if let RunError::Split(CountError::Parallel(ParallelError::Cancelled)) = e {
        return stop.failure("stopped while splitting the work, before counting");
    }
    let checkpoint = run.checkpoint.as_ref().map(|p| p.display().to_string());
    Failure::input(match (e, checkpoint) {
        (RunError::Solve { index, error }, Some(path)) => {
            format!("cannot solve subproblem {index} of checkpoint {path}: {error}")
        }
        (RunError::Solve { index, error }, None) => {
            format!("cannot solve subproblem {index}: {error}")
        }
        (RunError::Split(CountError::UnusableSplit(e)), Some(path)) => format!(
            "checkpoint {path} has a split this run cannot use: {e}; remove it to start over"
        ),
        (e, _) => e.to_string(),
    })
}

fn write_placement(w: &mut impl Write, format: Format, index: u64, p: &[usize]) -> io::Result<()> {
    let form = match format {
        Format::Text => format::Form::Text,
        Format::Board => format::Form::Board,
        Format::Json => format::Form::Json,
        // One picture holds every board: see `Output`.
        Format::Svg => return Ok(()),
    };
    format::write_placement(w, form, index, p)
}

/// Where placements go: written as they come, or, for `--format svg`, kept and drawn as one
/// picture by `finish` (a board alone, or a sheet of several).
struct Output<W: Write> {
    w: W,
    format: Format,
    attacks: bool,
    kept: Vec<Vec<usize>>,
    captions: Vec<String>,
}

impl<W: Write> Output<W> {
    fn new(w: W, format: &PlacementFormat) -> Result<Self, Failure> {
        if format.attacks && format.format != Format::Svg {
            return Err(Failure::input(
                "--attacks shades the lines of the SVG pictures: add --format svg",
            ));
        }
        Ok(Output {
            w,
            format: format.format,
            attacks: format.attacks,
            kept: Vec::new(),
            captions: Vec::new(),
        })
    }

    fn add(&mut self, index: u64, p: &[usize]) -> io::Result<()> {
        if self.format == Format::Svg {
            self.kept.push(p.to_vec());
            self.captions.push(format!("NO.{index}"));
            return Ok(());
        }
        write_placement(&mut self.w, self.format, index, p)
    }

    fn finish(&mut self) -> io::Result<()> {
        if self.format == Format::Svg {
            let n = self.kept.iter().map(Vec::len).max().unwrap_or(1);
            let options = svg::Options {
                attacks: self.attacks,
                ..svg::Options::fitted(n)
            };
            match &self.kept[..] {
                // Still one picture, which says there is nothing on it.
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
}

fn all(n: usize, options: &AllOptions) -> Result<u8, Failure> {
    let stop = options.long.stop();
    let mut q = queens_model(n, options.consistency, Some(Order::Rows), &stop)?;
    let format = options.format.format;
    let mut out = Output::new(stdout(), &options.format)?;
    let mut shown = 0;
    let limit = options.limit.unwrap_or(u64::MAX);
    for placement in q.solutions() {
        if shown == limit {
            break;
        }
        shown += 1;
        out.add(shown, &placement)?;
    }
    // Ended by Ctrl-C or the time limit, not by the last solution or the limit.
    let stopped = shown < limit && !q.stats().is_complete();
    if !matches!(format, Format::Json | Format::Svg) && !stopped {
        if shown == limit && options.limit.is_some() {
            writeln!(out.w, "{shown} solutions shown (limit {limit})")?;
        } else {
            writeln!(out.w, "{shown} solutions")?;
        }
    }
    out.finish()?;
    options.long.print_stats(q.stats());
    if stopped {
        return Err(stop.failure(&format!("{shown} solutions printed")));
    }
    Ok(0)
}

impl FirstCommand {
    fn run(self) -> Result<u8, Failure> {
        let n = parse_n(&self.board.n)?;
        let stop = self.long.stop();
        let mut q = queens_model(n, self.consistency, Some(Order::Rows), &stop)?;
        let found = match self.tree.tree {
            Some(_) => drawn(&mut q, &self.tree, Queens::first)?,
            None => q.first(),
        };
        self.long.print_stats(q.stats());
        match found {
            Some(p) => {
                let mut out = Output::new(stdout(), &self.format)?;
                out.add(1, &p)?;
                out.finish()?;
                Ok(0)
            }
            None if !q.stats().is_complete() => Err(stop.failure("no solution found yet")),
            None => {
                bezzel_cli::warn(&format!("no solution exists for n = {n}"));
                Ok(status::NEGATIVE)
            }
        }
    }
}

impl UniqueCommand {
    fn run(self) -> Result<u8, Failure> {
        let mpi = self.run.mpi.start()?;
        let result = self.count(mpi.as_ref());
        cluster::end("queens", mpi, result)
    }

    fn count(self, mpi: Option<&Mpi>) -> Result<u8, Failure> {
        let n = parse_n(&self.board.n)?;
        let format = self.format.format;
        if matches!(format, Format::Board | Format::Svg) && !self.list {
            return Err(Failure::input(
                "--format board and svg draw placements: add --list to print the representatives",
            ));
        }
        let start = Instant::now();
        let stop = self.run.long.stop();
        let json = format == Format::Json;
        let [total, unique] = run_count(n, Engine::Symmetry, &self.run, &stop, mpi, json)?.counts;
        if cluster::is_worker(mpi) {
            return Ok(0);
        }
        if self.list {
            let limit = self.limit.unwrap_or(u64::MAX);
            let mut out = Output::new(stdout(), &self.format)?;
            let listed = list_unique(n, limit, &stop, &mut out);
            // Cut short, what was listed is still drawn: one picture of the partial list, as
            // text prints the lines so far.
            out.finish()?;
            listed?;
        }
        let summary = if json { Summary::Json } else { Summary::Text };
        if format == Format::Svg {
            // Stdout holds the picture alone.
            bezzel_cli::warn(&format!("{unique} unique solutions ({total} in total)"));
        } else {
            print_count(n, total, Some(unique), "symmetry", summary)?;
        }
        let time = start.elapsed().as_secs_f64();
        self.run.long.print_stats(&format!("time: {time:.3} s"));
        Ok(0)
    }
}

/// Prints the representatives as they are found, in order, up to the limit: memory for one,
/// however many there are.
fn list_unique<W: Write>(
    n: usize,
    limit: u64,
    stop: &Stop,
    out: &mut Output<W>,
) -> Result<(), Failure> {
    let mut shown = 0;
    let mut failed = None;
    symmetry::for_each_unique_solution(n, |p| {
        if shown == limit {
            return ControlFlow::Break(());
        }
        if stop.is_raised() {
            failed = Some(stop.failure(&format!("{shown} unique solutions listed")));
            return ControlFlow::Break(());
        }
        shown += 1;
        match out.add(shown, p) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                failed = Some(e.into());
                ControlFlow::Break(())
            }
        }
    })
    .map_err(|e| Failure::input(e.to_string()))?;
    out.w.flush()?;
    failed.map_or(Ok(()), Err)
}

impl ConstructCommand {
    fn run(self) -> Result<u8, Failure> {
        let n = parse_n(&self.board.n)?;
        let start = Instant::now();
        match construct::construct(n) {
            Ok(p) => {
                debug_assert!(check::is_solution(&p));
                let mut out = Output::new(stdout(), &self.format)?;
                out.add(1, &p)?;
                out.finish()?;
                if self.stats.stats {
                    bezzel_cli::warn(&format!("time: {:.3} s", start.elapsed().as_secs_f64()));
                }
                Ok(0)
            }
            Err(construct::ConstructError::NoSolution { .. }) => {
                // On stderr, as `first` says it: stdout carries placements only, in the
                // format asked for, and a plain-text line would break a JSON reader.
                bezzel_cli::warn(&format!("no solution exists for n = {n}"));
                Ok(status::NEGATIVE)
            }
            Err(e) => Err(Failure::input(e.to_string())),
        }
    }
}

fn malformed(e: format::ParseError) -> Failure {
    match e {
        format::ParseError::Read { reason } => {
            Failure::input(format!("cannot read stdin: {reason}"))
        }
        e => Failure::input(format!("malformed placement: {e}")),
    }
}

impl CheckCommand {
    fn run(self) -> Result<u8, Failure> {
        // Attacking pairs listed unless `--limit` says otherwise; all of them are counted.
        let shown = self.limit.unwrap_or(100);
        let json = self.format.format == Summary::Json;
        let mut w = stdout();
        let answer = |solution| Ok(if solution { 0 } else { status::NEGATIVE });
        if !self.columns.is_empty() {
            let p = format::parse_placement(&self.columns.join(" ")).map_err(malformed)?;
            let solution = format::write_check(&mut w, None, &p, shown, json)?;
            w.flush()?;
            return answer(solution);
        }
        // Placement by placement, in memory for one, however large the input.
        let found = format::check_placements(io::stdin().lock(), &mut w, shown, json, |i, e| {
            let message = bezzel_cli::escape(&malformed(e).message);
            match i {
                Some(i) => bezzel_cli::warn(&format!("queens: placement {i}: {message}")),
                None => bezzel_cli::warn(&format!("queens: {message}")),
            }
        })?;
        w.flush()?;
        match found {
            format::Checked { malformed: 1.., .. } => Ok(status::BAD_INPUT),
            format::Checked {
                not_solutions: 1.., ..
            } => Ok(status::NEGATIVE),
            _ => Ok(0),
        }
    }
}
