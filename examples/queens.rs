//! The queens command: count, list, construct and check N-Queens placements.
//!
//! ```text
//! cargo run --release --example queens -- 8                 # the 92 solutions and the total
//! cargo run --release --example queens -- count 14          # fastest exact count, all cores
//! cargo run --release --example queens -- count 12 --engine model --consistency domain --stats
//! cargo run --release --example queens -- count 18 --checkpoint q18.ckpt   # Ctrl-C, rerun: resumes
//! cargo run --release --example queens -- first 8 --format board
//! cargo run --release --example queens -- unique 8 --list
//! cargo run --release --example queens -- construct 1000000 > placement.txt
//! echo "0 4 7 5 2 6 1 3" | cargo run --release --example queens -- check
//! ```
//!
//! Placements are printed as the 0-based column of each row's queen, top row first, and
//! `check` reads back every form printed (see `bezzel_queens::format::read_placement`).
//! Exit status: 0 on success, 1 when the answer is negative (`check` found attacks,
//! `construct` has no solution for n = 2 or 3), 2 on bad input or when output cannot be
//! written, 141 (quietly) when the reader of the output went away, 130 when Ctrl-C stopped a
//! count (after saying how far it got; a second Ctrl-C quits at once).
//!
//! Counting engines: `symmetry` (default) counts only placements canonical under the board's
//! 8 symmetries, weighted by orbit size; `bitmask` is the classic mirror-symmetry counter;
//! `model` is the generic constraint model, searched in parallel over subproblems (or by plain
//! depth-first search with `--threads 1`). Every engine splits its work into subproblems that
//! `--checkpoint FILE` records as they finish.

mod common;

use bezzel_core::checkpoint::{Checkpoint, CheckpointError};
use bezzel_core::parallel::{ParallelSearch, add_subproblem_stats, check_subproblems};
use bezzel_core::{Consistency, ModelError, SearchConfig, Solver, Statistics, VarOrder};
use bezzel_queens::{
    bitmask, check, construct, format, model, model::Queens, symmetry, symmetry_count,
};
use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(
    name = "queens",
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
    output: Output,
}

#[derive(clap::Args, Debug, Clone)]
struct Output {
    /// How to print placements and counts (`board`: placements only, so all, first,
    /// construct and unique --list).
    #[arg(long, value_enum, default_value_t = Format::Text, global = true)]
    format: Format,
    /// Print at most this many placements (all, unique --list) or attacking pairs (check,
    /// default 100).
    #[arg(long, global = true, allow_negative_numbers = true, value_parser = whole_number)]
    limit: Option<u64>,
    /// Worker threads for count and unique, 1 to 1024 (default: all cores; `--threads 1`
    /// with the model engine runs plain sequential search). More is refused, not clamped.
    #[arg(long, global = true, allow_negative_numbers = true, value_parser = positive_number)]
    threads: Option<usize>,
    /// Print statistics (nodes, failures, time) on stderr (all but check).
    #[arg(long, global = true)]
    stats: bool,
    /// Record finished subproblems of count or unique in FILE; rerunning the same command
    /// resumes.
    #[arg(long, value_name = "FILE", global = true)]
    checkpoint: Option<std::path::PathBuf>,
    /// No progress bar (accepted by every command; only count and unique show one).
    #[arg(long, short, global = true)]
    quiet: bool,
    /// Propagation strength of the model's all-different constraints (all, first, and
    /// count --engine model).
    #[arg(
        long,
        default_value = "value",
        value_name = "value|bounds|domain",
        global = true
    )]
    consistency: Consistency,
    /// Variable order of the model's search (count --engine model; `all` and `first` always
    /// go row by row so that solutions come in lexicographic order).
    #[arg(long, value_enum, default_value_t = Order::FirstFail, global = true)]
    order: Order,
}

/// `--limit`: a whole number, 0 or more. A value parser rather than `u64` so that `-1` is
/// read as a value, and refused as such, instead of as an unknown option.
fn whole_number(text: &str) -> Result<u64, String> {
    text.parse::<u64>().map_err(|_| {
        if is_integer(text) {
            "must be a whole number, 0 or more".to_string()
        } else {
            "must be a whole number".to_string()
        }
    })
}

/// `--threads`: a positive whole number (at most 1024 is checked with the other options,
/// so that the message can say so).
fn positive_number(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be a positive whole number, at least 1".to_string()),
        Ok(t) => Ok(t),
        Err(_) if is_integer(text) && !text.starts_with('-') => {
            Err(format!("must be at most {MAX_THREADS}"))
        }
        Err(_) => Err("must be a positive whole number".to_string()),
    }
}

/// Whether `text` is an optionally signed run of decimal digits.
fn is_integer(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// Smallest domain first (Gecode's INT_VAR_SIZE_MIN).
    FirstFail,
    /// Row by row.
    Rows,
    /// dom/wdeg: smallest domain per failure weight.
    DomWdeg,
}

impl Output {
    fn search(&self, lexicographic: bool) -> SearchConfig {
        let var_order = match (lexicographic, self.order) {
            (true, _) | (false, Order::Rows) => VarOrder::InputOrder,
            (false, Order::FirstFail) => VarOrder::SmallestDomain,
            (false, Order::DomWdeg) => VarOrder::DomWDeg,
        };
        SearchConfig {
            var_order,
            ..SearchConfig::default()
        }
    }

    fn model(&self, n: usize, lexicographic: bool) -> Result<Queens, Failure> {
        Queens::with_consistency(n, self.search(lexicographic), self.consistency)
            .map_err(|e| Failure::input(e.to_string()))
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count all solutions.
    Count {
        /// Board size.
        #[arg(allow_negative_numbers = true)]
        n: String,
        /// Counting engine (default: the fastest exact one).
        #[arg(long, value_enum, default_value_t = Engine::Symmetry)]
        engine: Engine,
    },
    /// Print every solution in lexicographic order, then the total.
    All {
        /// Board size.
        #[arg(allow_negative_numbers = true)]
        n: String,
    },
    /// Print the lexicographically first solution (slow for large n, where row-by-row search
    /// backtracks a lot: use `construct` for any one solution).
    First {
        /// Board size.
        #[arg(allow_negative_numbers = true)]
        n: String,
    },
    /// Count solutions that are distinct under rotations and reflections.
    Unique {
        /// Board size.
        #[arg(allow_negative_numbers = true)]
        n: String,
        /// Also print one representative of each class (the lexicographically smallest).
        #[arg(long)]
        list: bool,
    },
    /// Print one solution for any n >= 4 (and n = 1) in O(n), by the closed-form rule.
    Construct {
        /// Board size.
        #[arg(allow_negative_numbers = true)]
        n: String,
    },
    /// Read a placement (columns separated by spaces or commas, or any form this program
    /// prints) and say whether it is a solution, and which queens attack each other if not.
    Check {
        /// The placement; read from stdin when absent.
        #[arg(allow_negative_numbers = true)]
        columns: Vec<String>,
    },
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum Engine {
    /// The generic constraint model (three all-different constraints).
    Model,
    /// The bit-parallel backtracking counter with mirror symmetry, on all threads.
    Bitmask,
    /// Bit-parallel counting of placements canonical under all 8 symmetries, weighted by
    /// orbit size (also yields the unique count): the fastest.
    Symmetry,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    /// `NO.1: 0 4 7 5 2 6 1 3`
    Text,
    /// The board drawn with `Q` and `.`.
    Board,
    /// One JSON object per line.
    Json,
}

/// A failure to report: one line on stderr, and the exit status.
struct Failure {
    message: String,
    status: u8,
}

impl Failure {
    fn input(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            status: 2,
        }
    }
}

/// The exit status, without a message, when the reader of stdout went away (`queens 8 |
/// head -1`): what the shell reports for a program killed by SIGPIPE, which is how the
/// classic programs end there.
const BROKEN_PIPE: u8 = 141;

/// The most worker threads accepted: far more than any machine's cores, and far fewer than
/// would exhaust the system (each thread reserves a stack).
const MAX_THREADS: usize = 1024;

impl From<CheckpointError> for Failure {
    fn from(e: CheckpointError) -> Failure {
        Failure::input(e.to_string())
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return Failure {
                message: String::new(),
                status: BROKEN_PIPE,
            };
        }
        Failure {
            message: format!("cannot write output: {e}"),
            status: 2,
        }
    }
}

fn exit_with(f: Failure) -> ExitCode {
    if !f.message.is_empty() {
        // Messages quote input (a board size, a file name, clap's unknown argument): escaped,
        // so that none can send a terminal escape sequence or a NUL to the reader.
        eprintln!("queens: {}", format::escape(&f.message));
    }
    ExitCode::from(f.status)
}

fn main() -> ExitCode {
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches).map(|cli| (cli, matches)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let printed = e.print().and_then(|()| io::stdout().flush());
                return match printed {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) => exit_with(e.into()),
                };
            }
            return exit_with(Failure::input(format!("{} (try --help)", clap_message(&e))));
        }
    };
    if let Err(f) = options_apply(&cli, &matches) {
        return exit_with(f);
    }
    if common::stdout_was_closed() {
        return exit_with(Failure::input("cannot write output: stdout is closed"));
    }
    match run(cli) {
        Ok(status) => ExitCode::from(status),
        Err(f) => exit_with(f),
    }
}

/// Clap's message in one line, instead of its multi-line usage block: the first paragraph,
/// whose continuation lines (the names of missing arguments) are joined to the first.
fn clap_message(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let context = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.as_str()),
        _ => None,
    };
    // Clap drops escape sequences in what it quotes, leaving `''` for `$'\x1b[31m'`: say
    // what was given, escaped.
    let hidden = |s: &str| format::escape(s) != s;
    if let Some(arg) = context(ContextKind::InvalidArg) {
        if e.kind() == ErrorKind::UnknownArgument && hidden(arg) {
            return format!("unexpected argument '{}' found", format::escape(arg));
        }
        if let Some(value) = context(ContextKind::InvalidValue)
            && hidden(value)
        {
            return format!("invalid value '{}' for '{arg}'", format::escape(value));
        }
    }
    let rendered = e.to_string();
    let paragraph: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty())
        .collect();
    paragraph
        .join(" ")
        .trim_start_matches("error: ")
        .to_string()
}

/// Where each option applies, for [`options_apply`]: its id, how it is written, and which
/// commands take it.
const OPTION_USES: [(&str, &str, &str); 6] = [
    ("checkpoint", "--checkpoint", "count and unique"),
    ("threads", "--threads", "count and unique"),
    ("limit", "--limit", "all, unique --list and check"),
    (
        "stats",
        "--stats",
        "count, all, first, unique and construct",
    ),
    (
        "consistency",
        "--consistency",
        "all, first and count --engine model",
    ),
    ("order", "--order", "count --engine model"),
];

/// Refuses an option given on the command line that the command would not use: an ignored
/// `--checkpoint` would leave a count that cannot be resumed, an ignored `--order` a
/// measurement of something else. `--quiet` is accepted everywhere: it only asks for less.
fn options_apply(cli: &Cli, matches: &ArgMatches) -> Result<(), Failure> {
    let sub = matches.subcommand().map(|(_, m)| m);
    // Global options land in the subcommand's matches when they follow it.
    let given = |id: &str| {
        [Some(matches), sub].into_iter().flatten().any(|m| {
            m.try_get_raw(id).is_ok_and(|v| v.is_some())
                && m.value_source(id) == Some(ValueSource::CommandLine)
        })
    };
    let (name, applies): (String, fn(&str) -> bool) = match &cli.command {
        Some(Command::Count { engine, .. }) => match engine {
            Engine::Model => ("count --engine model".into(), |id| {
                matches!(
                    id,
                    "checkpoint" | "threads" | "stats" | "consistency" | "order"
                )
            }),
            Engine::Symmetry | Engine::Bitmask => (
                format!(
                    "count --engine {}",
                    engine
                        .to_possible_value()
                        .expect("no skipped engines")
                        .get_name()
                ),
                |id| matches!(id, "checkpoint" | "threads" | "stats"),
            ),
        },
        Some(Command::All { .. }) | None => ("all".into(), |id| {
            matches!(id, "limit" | "stats" | "consistency")
        }),
        Some(Command::First { .. }) => ("first".into(), |id| matches!(id, "stats" | "consistency")),
        Some(Command::Unique { list: true, .. }) => ("unique --list".into(), |id| {
            matches!(id, "checkpoint" | "threads" | "stats" | "limit")
        }),
        Some(Command::Unique { list: false, .. }) => ("unique".into(), |id| {
            matches!(id, "checkpoint" | "threads" | "stats")
        }),
        Some(Command::Construct { .. }) => ("construct".into(), |id| id == "stats"),
        Some(Command::Check { .. }) => ("check".into(), |id| id == "limit"),
    };
    for (id, flag, uses) in OPTION_USES {
        if given(id) && !applies(id) {
            return Err(Failure::input(format!(
                "{flag} applies to {uses} only, not to `{name}`"
            )));
        }
    }
    let prints_placements = match &cli.command {
        Some(Command::All { .. } | Command::First { .. } | Command::Construct { .. }) | None => {
            true
        }
        Some(Command::Unique { list, .. }) => *list,
        Some(Command::Count { .. } | Command::Check { .. }) => false,
    };
    if cli.output.format == Format::Board && !prints_placements {
        return Err(Failure::input(format!(
            "--format board applies to placements, so to all, first, construct and unique --list only, not to `{name}`"
        )));
    }
    Ok(())
}

fn run(cli: Cli) -> Result<u8, Failure> {
    let out = cli.output;
    match out.threads {
        Some(0) => return Err(Failure::input("--threads must be at least 1")),
        Some(t) if t > MAX_THREADS => {
            return Err(Failure::input(format!(
                "--threads must be at most {MAX_THREADS}, got {t}"
            )));
        }
        _ => {}
    }
    match cli.command {
        Some(Command::Count { n, engine }) => count(parse_n(&n)?, engine, &out),
        Some(Command::All { n }) => all(parse_n(&n)?, &out),
        Some(Command::First { n }) => first(parse_n(&n)?, &out),
        Some(Command::Unique { n, list }) => unique(parse_n(&n)?, list, &out),
        Some(Command::Construct { n }) => construct_one(parse_n(&n)?, &out),
        Some(Command::Check { columns }) => check_placement(&columns, &out),
        None => match cli.n {
            Some(n) => all(parse_n(&n)?, &out),
            None => Err(Failure::input(
                "missing board size: try `queens 8` or `queens count 12` (see --help)",
            )),
        },
    }
}

fn parse_n(text: &str) -> Result<usize, Failure> {
    let trimmed = text.trim();
    if !is_integer(trimmed) {
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

fn print_stats(out: &Output, stats: &Statistics) {
    if out.stats {
        eprintln!("{stats}");
    }
}

#[derive(Serialize)]
struct CountLine {
    n: usize,
    count: u64,
    engine: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    unique: Option<u64>,
}

fn count(n: usize, engine: Engine, out: &Output) -> Result<u8, Failure> {
    let start = Instant::now();
    let (total, name) = match engine {
        Engine::Model if out.threads == Some(1) && out.checkpoint.is_none() => {
            // One thread: plain depth-first search, whose tree and node count are those of
            // Gecode's example with the same heuristic.
            let mut q = out.model(n, false)?;
            q.solver_mut().set_cancel_flag(cancel_flag());
            let total = q.count();
            print_stats(out, q.stats());
            if !q.stats().is_complete() {
                return Err(Failure {
                    message: format!("interrupted: {total} solutions so far"),
                    status: 130,
                });
            }
            (total, "model")
        }
        Engine::Model => {
            let identity = format!(
                "queens n={n} engine=model consistency={:?} order={:?}",
                out.consistency, out.order
            );
            let config = out.search(false);
            let consistency = out.consistency;
            let build = move || model::build_with(n, consistency).map(|(m, _)| m);
            build().map_err(|e| Failure::input(e.to_string()))?;
            let search = ParallelSearch::new(identity.clone(), || {
                build().map_err(|e| ModelError::InvalidArgument {
                    reason: e.to_string(),
                })
            })
            .config(config)
            .threads(out.threads);
            let (checkpoint, subproblems) = open_split(&identity, out, || {
                search
                    .subproblems()
                    .map_err(|e| Failure::input(e.to_string()))
            })?;
            // A recorded split is the one check left to the split itself: another model's
            // subproblems, or one twice, would give a wrong total.
            check_subproblems(&identity, &subproblems).map_err(|e| {
                Failure::input(match &out.checkpoint {
                    Some(path) => format!(
                        "checkpoint {} has a split this run cannot use: {e}; remove it to start over",
                        path.display()
                    ),
                    None => e.to_string(),
                })
            })?;
            let stats = Mutex::new(Statistics::default());
            let [total, _] = run_subproblems(
                checkpoint,
                &subproblems,
                out,
                || Solver::with_config(build().expect("the same model was built above"), config),
                |solver, sub, cancel| {
                    solver.set_cancel_flag(cancel.clone());
                    let count = solver.count_in(&sub.decisions).map_err(|e| e.to_string())?;
                    let s = solver.stats();
                    match s.stopped {
                        None => {}
                        Some(bezzel_core::StopReason::Cancelled) => return Ok(None),
                        Some(other) => return Err(other.to_string()),
                    }
                    let mut total = stats.lock().unwrap_or_else(|e| e.into_inner());
                    add_subproblem_stats(&mut total, s, sub.decisions.len());
                    Ok(Some([count, 0]))
                },
            )?;
            if out.stats {
                let mut s = stats.into_inner().unwrap_or_else(|e| e.into_inner());
                s.solutions = total;
                s.elapsed = start.elapsed();
                eprintln!(
                    "{s} (subproblems: {}, threads: {})",
                    subproblems.len(),
                    threads(out)
                );
            }
            (total, "model")
        }
        Engine::Symmetry => {
            let [total, _] = symmetry_counts(n, out)?;
            if out.stats {
                eprintln!(
                    "engine: symmetry, threads: {}, time: {:.3} s",
                    threads(out),
                    start.elapsed().as_secs_f64()
                );
            }
            (total, "symmetry")
        }
        Engine::Bitmask => {
            let (checkpoint, subproblems) =
                open_fixed_split(&format!("queens n={n} engine=bitmask"), out, || {
                    bitmask::subproblems(n).map_err(|e| Failure::input(e.to_string()))
                })?;
            let [total, _] = run_subproblems(
                checkpoint,
                &subproblems,
                out,
                || (),
                |_, sub, cancel| match bitmask::count_subproblem_with_cancel(n, sub, cancel) {
                    Ok(c) => Ok(Some([c, 0])),
                    Err(bitmask::BitmaskError::Cancelled) => Ok(None),
                    Err(e) => Err(e.to_string()),
                },
            )?;
            if out.stats {
                eprintln!(
                    "engine: bitmask, threads: {}, time: {:.3} s",
                    threads(out),
                    start.elapsed().as_secs_f64()
                );
            }
            (total, "bitmask")
        }
    };
    let mut w = stdout();
    if out.format == Format::Json {
        let line = CountLine {
            n,
            count: total,
            engine: name,
            unique: None,
        };
        writeln!(w, "{}", serde_json::to_string(&line).expect("plain data"))?;
    } else {
        writeln!(w, "{total}")?;
    }
    w.flush()?;
    Ok(0)
}

fn threads(out: &Output) -> usize {
    out.threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Set by Ctrl-C (or SIGTERM): every engine looks at it inside its search and stops within
/// milliseconds, so that the count so far can be reported (and checkpointed). A second Ctrl-C
/// ends the process at once, with status 130, for when stopping takes too long anyway.
fn cancel_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = flag.clone();
        // Counted apart from the flag, which a failed checkpoint save raises too.
        let presses = AtomicU64::new(0);
        // Without a handler (e.g. one is installed already) Ctrl-C just ends the process.
        let _ = ctrlc::set_handler(move || {
            if presses.fetch_add(1, Ordering::Relaxed) > 0 {
                eprintln!("queens: interrupted again, quitting at once");
                std::process::exit(130);
            }
            handler_flag.store(true, Ordering::Relaxed);
        });
        flag
    })
    .clone()
}

/// Total and unique counts by the full-symmetry counter, in parallel and checkpointed.
fn symmetry_counts(n: usize, out: &Output) -> Result<Counts, Failure> {
    let (checkpoint, subproblems) =
        open_fixed_split(&format!("queens n={n} engine=symmetry"), out, || {
            symmetry_count::subproblems(n).map_err(|e| Failure::input(e.to_string()))
        })?;
    run_subproblems(
        checkpoint,
        &subproblems,
        out,
        || (),
        |_, sub, cancel| match symmetry_count::count_subproblem_with_cancel(n, sub, cancel) {
            Ok(c) => Ok(Some([c.total, c.unique])),
            Err(bitmask::BitmaskError::Cancelled) => Ok(None),
            Err(e) => Err(e.to_string()),
        },
    )
}

/// What a subproblem yields: `[solutions, unique solutions]` (the second only from engines that
/// count classes under the board's symmetries).
type Counts = [u64; 2];

/// The subproblems to solve, and with `--checkpoint` the checkpoint that records them, opened
/// (and locked) before any work. A checkpoint's recorded split wins over `split`: the split
/// may depend on the options (the model engine's on `--threads`), and a rerun must solve the
/// same subproblems to add up to the exact total.
fn open_split<S>(
    identity: &str,
    out: &Output,
    split: impl FnOnce() -> Result<Vec<S>, Failure>,
) -> Result<(Option<Checkpoint>, Vec<S>), Failure>
where
    S: Serialize + DeserializeOwned,
{
    match &out.checkpoint {
        Some(path) => {
            let (checkpoint, subproblems) = Checkpoint::open(path, identity, 2, split)?;
            Ok((Some(checkpoint), subproblems))
        }
        None => Ok((None, split()?)),
    }
}

/// [`open_split`] for a split that depends on `n` alone (the bitmask and symmetry engines'):
/// a checkpoint whose recorded split is not the one `split` makes is refused.
fn open_fixed_split<S>(
    identity: &str,
    out: &Output,
    split: impl FnOnce() -> Result<Vec<S>, Failure>,
) -> Result<(Option<Checkpoint>, Vec<S>), Failure>
where
    S: Serialize + DeserializeOwned,
{
    let subproblems = split()?;
    match &out.checkpoint {
        Some(path) => {
            let (checkpoint, subproblems) = Checkpoint::open_fixed(path, identity, 2, subproblems)?;
            Ok((Some(checkpoint), subproblems))
        }
        None => Ok((None, subproblems)),
    }
}

/// Adds `count` to `sum` unless the sum would overflow; whether it did (a wrong total is worse
/// than none).
fn add_count(sum: &AtomicU64, count: u64) -> bool {
    sum.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| {
        s.checked_add(count)
    })
    .is_ok()
}

/// Solves subproblems in parallel, skipping those the checkpoint has already, recording each as
/// it finishes, and showing progress when a person is watching. Returns the exact total, or
/// fails with exit status 130 (after saying how far it got) when interrupted. `solve` gives a
/// subproblem's counts, `None` when it was cancelled, or an error, which ends the run with
/// status 2 naming the subproblem (an error is not an interruption: a rerun would meet it
/// again).
fn run_subproblems<S, T>(
    checkpoint: Option<Checkpoint>,
    subproblems: &[S],
    out: &Output,
    init: impl Fn() -> T + Sync + Send,
    solve: impl Fn(&mut T, &S, &Arc<AtomicBool>) -> Result<Option<Counts>, String> + Sync + Send,
) -> Result<Counts, Failure>
where
    S: Sync,
{
    let todo: Vec<usize> = (0..subproblems.len())
        .filter(|&i| checkpoint.as_ref().is_none_or(|c| !c.is_done(i)))
        .collect();
    let earlier: Counts = checkpoint
        .as_ref()
        .map_or([0, 0], |c| [0, 1].map(|i| c.totals()[i]));
    let bar = progress_bar(subproblems.len() as u64, out);
    if let Some(bar) = &bar {
        bar.set_position((subproblems.len() - todo.len()) as u64);
    }
    let checkpoint = Mutex::new(checkpoint);
    let error = Mutex::new(None);
    let fail = |message: String| {
        error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(message);
    };
    let solved = AtomicU64::new(0);
    let found = [AtomicU64::new(earlier[0]), AtomicU64::new(earlier[1])];
    let cancel = cancel_flag();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads(out))
        .build()
        .map_err(|e| Failure::input(format!("cannot start threads: {e}")))?;
    pool.install(|| {
        todo.par_iter().for_each_init(&init, |state, &i| {
            if cancel.load(Ordering::Relaxed) {
                return;
            }
            let count = match solve(state, &subproblems[i], &cancel) {
                Ok(Some(count)) => count,
                Ok(None) => return,
                Err(e) => {
                    fail(match &out.checkpoint {
                        Some(path) => format!(
                            "cannot solve subproblem {i} of checkpoint {}: {e}",
                            path.display()
                        ),
                        None => format!("cannot solve subproblem {i}: {e}"),
                    });
                    cancel.store(true, Ordering::Relaxed);
                    return;
                }
            };
            let mut guard = checkpoint.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(c) = guard.as_mut()
                && let Err(e) = c.record(i, &count)
            {
                fail(e.to_string());
                cancel.store(true, Ordering::Relaxed);
                return;
            }
            drop(guard);
            if found.iter().zip(count).any(|(sum, c)| !add_count(sum, c)) {
                fail(format!("the count is larger than {}", u64::MAX));
                cancel.store(true, Ordering::Relaxed);
                return;
            }
            solved.fetch_add(1, Ordering::Relaxed);
            if let Some(bar) = &bar {
                bar.inc(1);
            }
        });
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Some(c) = checkpoint
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .as_mut()
        && let Err(e) = c.sync()
    {
        fail(e.to_string());
    }
    if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(Failure::input(e));
    }
    let total = found.map(|sum| sum.load(Ordering::Relaxed));
    let finished = subproblems.len() - todo.len() + solved.load(Ordering::Relaxed) as usize;
    if finished < subproblems.len() {
        let resume = if out.checkpoint.is_some() {
            "run the same command again to resume"
        } else {
            "add --checkpoint FILE to make a run resumable"
        };
        return Err(Failure {
            message: format!(
                "interrupted: {finished} of {} subproblems done, {} solutions so far; {resume}",
                subproblems.len(),
                total[0]
            ),
            status: 130,
        });
    }
    Ok(total)
}

/// A progress bar on stderr, only when a person is watching and did not ask for quiet.
fn progress_bar(len: u64, out: &Output) -> Option<ProgressBar> {
    if out.quiet || out.format == Format::Json || !io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} subproblems, {per_sec}, eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Some(bar)
}

fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// Writes a placement in `format`; the board row by row, as it can be far larger than the
/// placement.
fn write_placement(
    w: &mut impl Write,
    format: Format,
    index: u64,
    placement: &[usize],
) -> io::Result<()> {
    match format {
        Format::Text => writeln!(w, "{}", format::text(index, placement)),
        Format::Board => {
            writeln!(w, "NO.{index}:")?;
            format::write_board(w, placement)?;
            writeln!(w)
        }
        Format::Json => writeln!(w, "{}", format::json(index, placement)),
    }
}

fn all(n: usize, out: &Output) -> Result<u8, Failure> {
    let mut q = out.model(n, true)?;
    let mut w = stdout();
    let mut shown = 0;
    let limit = out.limit.unwrap_or(u64::MAX);
    for placement in q.solutions() {
        if shown == limit {
            break;
        }
        shown += 1;
        write_placement(&mut w, out.format, shown, &placement)?;
    }
    if out.format != Format::Json {
        if shown == limit && out.limit.is_some() {
            writeln!(w, "{shown} solutions shown (limit {limit})")?;
        } else {
            writeln!(w, "{shown} solutions")?;
        }
    }
    w.flush()?;
    print_stats(out, q.stats());
    Ok(0)
}

fn first(n: usize, out: &Output) -> Result<u8, Failure> {
    let mut q = out.model(n, true)?;
    let found = q.first();
    print_stats(out, q.stats());
    let mut w = stdout();
    match found {
        Some(p) => write_placement(&mut w, out.format, 1, &p)?,
        None => {
            w.flush()?;
            eprintln!("no solution exists for n = {n}");
            return Ok(1);
        }
    }
    w.flush()?;
    Ok(0)
}

fn unique(n: usize, list: bool, out: &Output) -> Result<u8, Failure> {
    let start = Instant::now();
    let [total, unique] = symmetry_counts(n, out)?;
    let counts = symmetry::UniqueCount { unique, total };
    let mut w = stdout();
    if list {
        list_unique(n, out, &mut w)?;
    }
    if out.format == Format::Json {
        let line = CountLine {
            n,
            count: counts.total,
            engine: "symmetry",
            unique: Some(counts.unique),
        };
        writeln!(w, "{}", serde_json::to_string(&line).expect("plain data"))?;
    } else {
        writeln!(
            w,
            "{} unique solutions ({} in total)",
            counts.unique, counts.total
        )?;
    }
    w.flush()?;
    if out.stats {
        eprintln!("time: {:.3} s", start.elapsed().as_secs_f64());
    }
    Ok(0)
}

/// Prints the representatives as they are found, in order, up to the limit: memory for one,
/// however many there are. Ctrl-C (whose handler counting installed) stops it.
fn list_unique(n: usize, out: &Output, w: &mut impl Write) -> Result<(), Failure> {
    let limit = out.limit.unwrap_or(u64::MAX);
    let cancel = cancel_flag();
    let mut shown = 0;
    let mut failed = None;
    symmetry::for_each_unique_solution(n, |p| {
        if shown == limit {
            return ControlFlow::Break(());
        }
        if cancel.load(Ordering::Relaxed) {
            failed = Some(Failure {
                message: format!("interrupted: {shown} unique solutions listed"),
                status: 130,
            });
            return ControlFlow::Break(());
        }
        shown += 1;
        match write_placement(w, out.format, shown, p) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                failed = Some(e.into());
                ControlFlow::Break(())
            }
        }
    })
    .map_err(|e| Failure::input(e.to_string()))?;
    match failed {
        Some(f) => {
            let _ = w.flush();
            Err(f)
        }
        None => Ok(()),
    }
}

fn construct_one(n: usize, out: &Output) -> Result<u8, Failure> {
    let start = Instant::now();
    match construct::construct(n) {
        Ok(p) => {
            debug_assert!(check::is_solution(&p));
            let mut w = stdout();
            write_placement(&mut w, out.format, 1, &p)?;
            w.flush()?;
            if out.stats {
                eprintln!("time: {:.3} s", start.elapsed().as_secs_f64());
            }
            Ok(0)
        }
        Err(construct::ConstructError::NoSolution { .. }) => {
            // On stderr, as `first` says it: stdout carries placements only, in the format
            // asked for, and a plain-text line would break a JSON reader.
            eprintln!("no solution exists for n = {n}");
            Ok(1)
        }
        Err(e) => Err(Failure::input(e.to_string())),
    }
}

/// Attacking pairs listed by `check` unless `--limit` says otherwise; all of them are counted.
const ATTACKS_SHOWN: u64 = 100;

fn check_placement(columns: &[String], out: &Output) -> Result<u8, Failure> {
    // Read line by line: memory for the placement and one line, however large the input.
    let parsed = if columns.is_empty() {
        format::read_placement(io::stdin().lock())
    } else {
        format::parse_placement(&columns.join(" "))
    };
    let placement = parsed.map_err(|e| match e {
        format::ParseError::Read { reason } => {
            Failure::input(format!("cannot read stdin: {reason}"))
        }
        e => Failure::input(format!("malformed placement: {e}")),
    })?;
    let shown = out.limit.unwrap_or(ATTACKS_SHOWN);
    let attacks = check::attacks(&placement);
    let total = attacks.total();
    // Printed as they are found, not collected: `--limit` may ask for billions.
    let listed = attacks.take(usize::try_from(shown).unwrap_or(usize::MAX));
    let n = placement.len();
    let solution = total == 0;
    let mut w = stdout();
    if out.format == Format::Json {
        // {"n":..,"solution":..,"attacking_pairs":..,"attacks":[..]} written piece by piece.
        write!(
            w,
            "{{\"n\":{n},\"solution\":{solution},\"attacking_pairs\":{total},\"attacks\":["
        )?;
        for (i, a) in listed.enumerate() {
            let a = serde_json::to_string(&a).expect("plain data");
            write!(w, "{}{a}", if i == 0 { "" } else { "," })?;
        }
        writeln!(w, "]}}")?;
    } else if solution {
        writeln!(w, "solution: no two of the {n} queens attack each other")?;
    } else {
        writeln!(w, "not a solution: {total} attacking pair(s)")?;
        let mut count = 0u64;
        for a in listed {
            let line = match a.kind {
                check::AttackKind::Column => "a column",
                check::AttackKind::Diagonal => "a diagonal",
                check::AttackKind::AntiDiagonal => "an anti-diagonal",
            };
            writeln!(
                w,
                "  rows {} and {} (columns {} and {}) share {line}",
                a.a, a.b, placement[a.a], placement[a.b]
            )?;
            count += 1;
        }
        let more = total - count;
        if more > 0 {
            writeln!(w, "  ... and {more} more (--limit shows more)")?;
        }
    }
    w.flush()?;
    Ok(if solution { 0 } else { 1 })
}
