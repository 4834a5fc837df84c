//! The queens command: count, list, construct and check N-Queens placements.
//!
//! ```text
//! cargo run --release --example queens -- 8                 # the 92 solutions and the total
//! cargo run --release --example queens -- count 14          # fastest exact count, all cores
//! cargo run --release --example queens -- count 12 --engine model --consistency domain --stats
//! cargo run --release --example queens -- count 18 --checkpoint q18.ckpt   # Ctrl-C, rerun: resumes
//! cargo run --release --example queens -- count 20 --time-limit 10s
//! cargo run --release --example queens -- first 8 --format board
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

use bezzel_cli::options::{Format, Order, Quiet, Stats, Threads, TimeLimit};
use bezzel_cli::{Failure, Progress, Stop, options, status};
use bezzel_core::parallel::RunError;
use bezzel_core::{Consistency, SearchConfig};
use bezzel_queens::counting::{self, CountError, Engine};
use bezzel_queens::{check, construct, format, model::Queens, symmetry};
use clap::{Args, Parser, Subcommand, ValueEnum};
use serde::Serialize;
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
    Count {
        /// Board size.
        #[arg(allow_negative_numbers = true)]
        n: String,
        /// Counting engine: `symmetry` counts placements canonical under the board's 8
        /// symmetries (the fastest), `bitmask` is the classic mirror-symmetry counter, `model`
        /// the generic constraint model (plain depth-first search with `--threads 1`).
        #[arg(long, value_enum, default_value_t = EngineArg::Symmetry)]
        engine: EngineArg,
        #[command(flatten)]
        model: ModelOptions,
        #[command(flatten)]
        run: RunOptions,
        #[command(flatten)]
        format: SummaryFormat,
    },
    /// Print every solution in lexicographic order, then the total.
    All {
        /// Board size.
        #[arg(allow_negative_numbers = true)]
        n: String,
        #[command(flatten)]
        options: AllOptions,
    },
    /// Print the lexicographically first solution (slow for large n, where row-by-row search
    /// backtracks a lot: use `construct` for any one solution).
    First {
        /// Board size.
        #[arg(allow_negative_numbers = true)]
        n: String,
        #[command(flatten)]
        format: PlacementFormat,
        #[command(flatten)]
        consistency: ConsistencyArg,
        #[command(flatten)]
        long: LongRun,
    },
    /// Count solutions that are distinct under rotations and reflections.
    Unique {
        /// Board size.
        #[arg(allow_negative_numbers = true)]
        n: String,
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
    },
    /// Print one solution for any n >= 4 (and n = 1) in O(n), by the closed-form rule.
    Construct {
        /// Board size.
        #[arg(allow_negative_numbers = true)]
        n: String,
        #[command(flatten)]
        format: PlacementFormat,
        #[command(flatten)]
        stats: Stats,
    },
    /// Read placements (columns separated by spaces or commas, or any form this program
    /// prints: `queens 8 | queens check` checks all 92) and say whether each is a solution,
    /// and which queens attack each other if not.
    Check {
        /// One placement; placements are read from stdin when absent.
        #[arg(allow_negative_numbers = true)]
        columns: Vec<String>,
        /// Attacking pairs listed per placement (default 100); all are counted.
        #[arg(long, allow_negative_numbers = true, value_parser = options::whole_number)]
        limit: Option<u64>,
        #[command(flatten)]
        format: SummaryFormat,
    },
}

/// The options of `all` (and of a plain `queens N`).
#[derive(Args, Debug, Clone, Copy)]
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

/// The options of every command that may run long.
#[derive(Args, Debug, Clone, Copy)]
struct LongRun {
    #[command(flatten)]
    stats: Stats,
    #[command(flatten)]
    quiet: Quiet,
    #[command(flatten)]
    time_limit: TimeLimit,
}

/// The options of the parallel counts (`count`, `unique`).
#[derive(Args, Debug, Clone)]
struct RunOptions {
    #[command(flatten)]
    threads: Threads,
    /// Record finished subproblems in FILE; rerunning the same command resumes.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    #[command(flatten)]
    long: LongRun,
}

/// `--consistency` of the model's all-different constraints.
#[derive(Args, Debug, Clone, Copy)]
struct ConsistencyArg {
    /// Propagation strength of the model's all-different constraints.
    #[arg(long, value_name = "value|bounds|domain", value_parser = options::consistency)]
    consistency: Option<Consistency>,
}

/// The options of `count --engine model`.
#[derive(Args, Debug, Clone, Copy)]
struct ModelOptions {
    #[command(flatten)]
    consistency: ConsistencyArg,
    /// Variable order of the model's search (`--engine model` only; `all` and `first` go row
    /// by row, so that solutions come in lexicographic order) [default: first-fail].
    #[arg(long, value_enum)]
    order: Option<Order>,
}

/// `--format` of the commands that print placements.
#[derive(Args, Debug, Clone, Copy)]
struct PlacementFormat {
    /// How to print placements: `NO.1: 0 4 7 5 2 6 1 3`, the board, or JSON lines.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// `--format` of the commands that print a summary only.
#[derive(Args, Debug, Clone, Copy)]
struct SummaryFormat {
    /// How to print the answer: text, or one JSON object per line.
    #[arg(long, value_enum, default_value_t = Summary::Text)]
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
    bezzel_cli::exit("queens", run(cli))
}

fn run(cli: Cli) -> Result<u8, Failure> {
    match cli.command {
        Some(Command::Count {
            n,
            engine,
            model,
            run,
            format,
        }) => count(parse_n(&n)?, engine, model, &run, format.format),
        Some(Command::All { n, options }) => all(parse_n(&n)?, &options),
        Some(Command::First {
            n,
            format,
            consistency,
            long,
        }) => first(parse_n(&n)?, format.format, consistency, long),
        Some(Command::Unique {
            n,
            list,
            limit,
            format,
            run,
        }) => unique(parse_n(&n)?, list.then_some(limit), format.format, &run),
        Some(Command::Construct { n, format, stats }) => {
            construct_one(parse_n(&n)?, format.format, stats.stats)
        }
        Some(Command::Check {
            columns,
            limit,
            format,
        }) => check_placements(&columns, limit.unwrap_or(ATTACKS_SHOWN), format.format),
        None => match cli.n {
            Some(n) => all(parse_n(&n)?, &cli.all),
            None => Err(Failure::input(
                "missing board size: try `queens 8` or `queens count 12` (see --help)",
            )),
        },
    }
}

fn parse_n(text: &str) -> Result<usize, Failure> {
    let trimmed = text.trim();
    if !options::is_integer(trimmed) {
        return Err(Failure::input(format!(
            "n must be a positive whole number, got `{}`",
            shorten(text)
        )));
    }
    if trimmed.starts_with('-') || trimmed.trim_start_matches(['+', '0']).is_empty() {
        return Err(Failure::input(format!(
            "n must be at least 1, got {}",
            shorten(trimmed)
        )));
    }
    // The engines say how large a board each takes; this is only the largest number.
    trimmed.parse::<usize>().map_err(|_| {
        Failure::input(format!(
            "n = {} is too large (at most {})",
            shorten(trimmed),
            usize::MAX
        ))
    })
}

/// `text`, cut to a length that fits in a one-line message.
fn shorten(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// The model of `n` queens; `lexicographic` searches row by row whatever `order` says.
fn queens_model(
    n: usize,
    consistency: ConsistencyArg,
    order: Option<Order>,
) -> Result<Queens, Failure> {
    let config = SearchConfig {
        var_order: order.unwrap_or_default().var_order(),
        ..SearchConfig::default()
    };
    Queens::with_consistency(n, config, consistency.consistency.unwrap_or_default())
        .map_err(|e| Failure::input(e.to_string()))
}

#[derive(Serialize)]
struct CountLine {
    n: usize,
    count: u64,
    engine: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    unique: Option<u64>,
}

fn print_count(line: CountLine, format: Summary) -> Result<(), Failure> {
    let mut w = stdout();
    match (format, line.unique) {
        (Summary::Json, _) => writeln!(w, "{}", serde_json::to_string(&line).expect("plain data"))?,
        (Summary::Text, None) => writeln!(w, "{}", line.count)?,
        (Summary::Text, Some(unique)) => {
            writeln!(w, "{unique} unique solutions ({} in total)", line.count)?
        }
    }
    Ok(w.flush()?)
}

fn count(
    n: usize,
    engine: EngineArg,
    model: ModelOptions,
    run: &RunOptions,
    format: Summary,
) -> Result<u8, Failure> {
    let engine = match engine {
        EngineArg::Model => Engine::Model {
            consistency: model.consistency.consistency.unwrap_or_default(),
            order: model.order.unwrap_or_default().var_order(),
        },
        EngineArg::Symmetry | EngineArg::Bitmask
            if model.order.is_some() || model.consistency.consistency.is_some() =>
        {
            let flag = if model.order.is_some() {
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
    let start = Instant::now();
    let stop = Stop::install(run.long.time_limit.time_limit);
    if matches!(engine, Engine::Model { .. })
        && run.threads.threads == Some(1)
        && run.checkpoint.is_none()
    {
        // One thread: plain depth-first search, whose tree and node count are those of
        // Gecode's example with the same heuristic.
        let mut q = queens_model(n, model.consistency, model.order)?;
        q.solver_mut().set_cancel_flag(stop.flag().clone());
        let total = q.count();
        print_stats(run.long.stats.stats, &q.stats().to_string());
        if !q.stats().is_complete() {
            return Err(stop.failure(&format!("{total} solutions so far")));
        }
        print_count(line(n, total, "model", None), format)?;
        return Ok(0);
    }
    let (counts, threads) = run_count(n, engine, run, &stop, format == Summary::Json)?;
    // The model's statistics were printed by run_count; the counters keep none but time.
    if run.long.stats.stats && !matches!(engine, Engine::Model { .. }) {
        eprintln!(
            "engine: {}, threads: {threads}, time: {:.3} s",
            engine.name(),
            start.elapsed().as_secs_f64()
        );
    }
    print_count(line(n, counts.counts[0], engine.name(), None), format)?;
    Ok(0)
}

fn line(n: usize, count: u64, engine: &'static str, unique: Option<u64>) -> CountLine {
    CountLine {
        n,
        count,
        engine,
        unique,
    }
}

fn print_stats(shown: bool, stats: &str) {
    if shown {
        eprintln!("{stats}");
    }
}

/// Counts by the library's resumable parallel runner, with a progress bar when a person is
/// watching; a run cut short is a failure that says how far it got.
fn run_count(
    n: usize,
    engine: Engine,
    run: &RunOptions,
    stop: &Stop,
    json: bool,
) -> Result<(bezzel_core::parallel::RunReport<2>, usize), Failure> {
    let options = counting::Options {
        threads: run.threads.threads,
        checkpoint: run.checkpoint.as_deref(),
        cancel: Some(stop.flag()),
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
    let report = report.map_err(|e| run_failure(e, run))?;
    let threads = run.threads.count();
    if let Engine::Model { .. } = engine
        && run.long.stats.stats
    {
        let mut s = report.stats.clone();
        s.solutions = report.counts[0];
        eprintln!("{s} (subproblems: {}, threads: {threads})", report.total);
    }
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
    Ok((report, threads))
}

/// The message of a failed count: an error in a subproblem names it and the checkpoint (a
/// rerun would meet it again, so it is no interruption).
fn run_failure(e: RunError<CountError>, run: &RunOptions) -> Failure {
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

fn write_placement(
    w: &mut impl Write,
    format: Format,
    index: u64,
    placement: &[usize],
) -> io::Result<()> {
    let form = match format {
        Format::Text => format::Form::Text,
        Format::Board => format::Form::Board,
        Format::Json => format::Form::Json,
    };
    format::write_placement(w, form, index, placement)
}

fn all(n: usize, options: &AllOptions) -> Result<u8, Failure> {
    let mut q = queens_model(n, options.consistency, Some(Order::Rows))?;
    let stop = Stop::install(options.long.time_limit.time_limit);
    q.solver_mut().set_cancel_flag(stop.flag().clone());
    let format = options.format.format;
    let mut w = stdout();
    let mut shown = 0;
    let limit = options.limit.unwrap_or(u64::MAX);
    for placement in q.solutions() {
        if shown == limit {
            break;
        }
        shown += 1;
        write_placement(&mut w, format, shown, &placement)?;
    }
    // Ended by Ctrl-C or the time limit, not by the last solution or the limit.
    let stopped = shown < limit && !q.stats().is_complete();
    if format != Format::Json && !stopped {
        if shown == limit && options.limit.is_some() {
            writeln!(w, "{shown} solutions shown (limit {limit})")?;
        } else {
            writeln!(w, "{shown} solutions")?;
        }
    }
    w.flush()?;
    print_stats(options.long.stats.stats, &q.stats().to_string());
    if stopped {
        return Err(stop.failure(&format!("{shown} solutions printed")));
    }
    Ok(0)
}

fn first(
    n: usize,
    format: Format,
    consistency: ConsistencyArg,
    long: LongRun,
) -> Result<u8, Failure> {
    let mut q = queens_model(n, consistency, Some(Order::Rows))?;
    let stop = Stop::install(long.time_limit.time_limit);
    q.solver_mut().set_cancel_flag(stop.flag().clone());
    let found = q.first();
    print_stats(long.stats.stats, &q.stats().to_string());
    let mut w = stdout();
    match found {
        Some(p) => write_placement(&mut w, format, 1, &p)?,
        None if !q.stats().is_complete() => {
            return Err(stop.failure("no solution found yet"));
        }
        None => {
            w.flush()?;
            eprintln!("no solution exists for n = {n}");
            return Ok(status::NEGATIVE);
        }
    }
    w.flush()?;
    Ok(0)
}

/// `limit` is `Some` with `--list` (itself `Some` with `--limit`).
fn unique(
    n: usize,
    list: Option<Option<u64>>,
    format: Format,
    run: &RunOptions,
) -> Result<u8, Failure> {
    if format == Format::Board && list.is_none() {
        return Err(Failure::input(
            "--format board draws placements: add --list to print the representatives",
        ));
    }
    let start = Instant::now();
    let stop = Stop::install(run.long.time_limit.time_limit);
    let json = format == Format::Json;
    let (report, _) = run_count(n, Engine::Symmetry, run, &stop, json)?;
    let [total, unique] = report.counts;
    if let Some(limit) = list {
        list_unique(n, format, limit.unwrap_or(u64::MAX), &stop, &mut stdout())?;
    }
    let summary = if json { Summary::Json } else { Summary::Text };
    print_count(line(n, total, "symmetry", Some(unique)), summary)?;
    if run.long.stats.stats {
        eprintln!("time: {:.3} s", start.elapsed().as_secs_f64());
    }
    Ok(0)
}

/// Prints the representatives as they are found, in order, up to the limit: memory for one,
/// however many there are.
fn list_unique(
    n: usize,
    format: Format,
    limit: u64,
    stop: &Stop,
    w: &mut impl Write,
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
        match write_placement(w, format, shown, p) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                failed = Some(e.into());
                ControlFlow::Break(())
            }
        }
    })
    .map_err(|e| Failure::input(e.to_string()))?;
    w.flush()?;
    failed.map_or(Ok(()), Err)
}

fn construct_one(n: usize, format: Format, stats: bool) -> Result<u8, Failure> {
    let start = Instant::now();
    match construct::construct(n) {
        Ok(p) => {
            debug_assert!(check::is_solution(&p));
            let mut w = stdout();
            write_placement(&mut w, format, 1, &p)?;
            w.flush()?;
            if stats {
                eprintln!("time: {:.3} s", start.elapsed().as_secs_f64());
            }
            Ok(0)
        }
        Err(construct::ConstructError::NoSolution { .. }) => {
            // On stderr, as `first` says it: stdout carries placements only, in the format
            // asked for, and a plain-text line would break a JSON reader.
            eprintln!("no solution exists for n = {n}");
            Ok(status::NEGATIVE)
        }
        Err(e) => Err(Failure::input(e.to_string())),
    }
}

/// Attacking pairs listed by `check` unless `--limit` says otherwise; all of them are counted.
const ATTACKS_SHOWN: u64 = 100;

fn malformed(e: format::ParseError) -> Failure {
    match e {
        format::ParseError::Read { reason } => {
            Failure::input(format!("cannot read stdin: {reason}"))
        }
        e => Failure::input(format!("malformed placement: {e}")),
    }
}

fn check_placements(columns: &[String], shown: u64, format: Summary) -> Result<u8, Failure> {
    let mut w = stdout();
    let json = format == Summary::Json;
    if !columns.is_empty() {
        let placement = format::parse_placement(&columns.join(" ")).map_err(malformed)?;
        let solution = format::write_check(&mut w, None, &placement, shown, json)?;
        w.flush()?;
        return Ok(if solution { 0 } else { status::NEGATIVE });
    }
    // Read placement by placement: memory for one placement and one line, however large the
    // input. One placement is answered as such; more get a line each that is not a solution,
    // and a summary.
    let mut placements = format::Placements::new(io::stdin().lock());
    let first = placements.next().unwrap_or(Err(format::ParseError::Empty));
    let Some(second) = placements.next() else {
        let solution = format::write_check(&mut w, None, &first.map_err(malformed)?, shown, json)?;
        w.flush()?;
        return Ok(if solution { 0 } else { status::NEGATIVE });
    };
    let (mut checked, mut bad, mut unreadable) = (0u64, 0u64, None);
    for read in [first, second].into_iter().chain(placements) {
        checked += 1;
        match read {
            Ok(p) => {
                if !format::write_check(&mut w, Some(checked), &p, shown, json)? {
                    bad += 1;
                }
            }
            Err(e) => {
                w.flush()?;
                let f = malformed(e);
                eprintln!(
                    "queens: placement {checked}: {}",
                    bezzel_cli::escape(&f.message)
                );
                unreadable.get_or_insert(f.status);
            }
        }
    }
    let malformed_count = u64::from(unreadable.is_some());
    match format {
        Summary::Json => writeln!(
            w,
            "{{\"checked\":{checked},\"not_solutions\":{bad},\"malformed\":{malformed_count}}}"
        )?,
        Summary::Text if bad == 0 && unreadable.is_none() => {
            writeln!(w, "{checked} placements checked: all are solutions")?
        }
        Summary::Text => writeln!(
            w,
            "{checked} placements checked: {bad} not a solution{}",
            if unreadable.is_some() {
                ", reading stopped at a malformed one"
            } else {
                ""
            }
        )?,
    }
    w.flush()?;
    Ok(unreadable.unwrap_or(if bad == 0 { 0 } else { status::NEGATIVE }))
}
