//! The queens command: count, list, construct and check N-Queens placements.
//!
//! ```text
//! cargo run --release --bin queens -- 8                 # the 92 solutions and the total
//! cargo run --release --bin queens -- count 14          # fastest exact count, all cores
//! cargo run --release --bin queens -- count 12 --engine model --consistency domain --stats
//! cargo run --release --bin queens -- count 18 --checkpoint q18.ckpt   # Ctrl-C, rerun: resumes
//! cargo run --release --bin queens -- count 20 --time-limit 10s
//! cargo run --release --bin queens -- first 8 --format board
//! cargo run --release --bin queens -- first 8 --tree tree.html    # the search, drawn
//! cargo run --release --bin queens -- unique 8 --list --format svg > unique8.svg
//! cargo run --release --bin queens -- unique 8 --list
//! cargo run --release --bin queens -- construct 1000000 > placement.txt
//! cargo run --release --bin queens -- 8 | cargo run --release --bin queens -- check
//! ```
//!
//! The work is the library's (`bezzel_queens::counting` for counts, `listing` and `format` for
//! listing, writing and reading placements, `check` for checking them, `tree` for drawing a
//! search; `bezzel_cli::count` and `bezzel_cli::queens` for the options' behaviour: stop,
//! checkpoint, MPI, formats); this program parses arguments, hands them over and prints.
//! Exit status: 0 on success, 1 when the answer is negative (`check` found attacks, `first`
//! or `construct` has no solution), 2 on bad input or when output cannot be written, 124
//! when `--time-limit` stopped the work and 130 when Ctrl-C did (after saying how far it
//! got; a second Ctrl-C quits at once), 141 (quietly) when the reader of the output went away.

use bezzel_cli::cluster::{self, Mpi};
use bezzel_cli::options::{self, Format, Order, Stats, Tree};
use bezzel_cli::queens::{self, AllOptions, ConsistencyArg, PlacementFormat, RunOptions};
use bezzel_cli::queens::{LongRun, Summary, SummaryFormat, print_count};
use bezzel_cli::{Failure, Stop};
use bezzel_queens::counting::Engine;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::process::ExitCode;
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
    /// prints, pictures and empty answers included: `queens 8 | queens check` checks all 92,
    /// `queens check placements.txt` those of a file) and say whether each is a solution,
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
    /// One placement's columns (`1 3 0 2`), or a file of placements in any form this program
    /// prints (`-` for stdin); placements are read from stdin when absent.
    #[arg(allow_negative_numbers = true, value_name = "COLUMNS|FILE")]
    columns: Vec<String>,
    /// Attacking pairs listed per placement (default 100); all are counted.
    #[arg(long, allow_negative_numbers = true, value_parser = options::whole_number)]
    limit: Option<u64>,
    #[command(flatten)]
    format: SummaryFormat,
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
        Some(Command::All(c)) => parse_n(&c.board.n).and_then(|n| c.options.all(n)),
        Some(Command::First(c)) => c.run(),
        Some(Command::Unique(c)) => c.run(),
        Some(Command::Construct(c)) => c.run(),
        Some(Command::Check(c)) => c.run(),
        None => match cli.n {
            Some(n) => parse_n(&n).and_then(|n| cli.all.all(n)),
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

impl CountCommand {
    fn run(self) -> Result<u8, Failure> {
        self.run.mpi.run("queens", |mpi| self.count(mpi))
    }

    fn count(&self, mpi: Option<&Mpi>) -> Result<u8, Failure> {
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
        let report = run.count(n, engine, &stop, mpi, format == Summary::Json)?;
        if cluster::is_worker(mpi) {
            return Ok(0);
        }
        run.print_stats(&report, engine, mpi, start);
        print_count(n, report.counts[0], None, engine.name(), format)?;
        Ok(0)
    }

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
        let (count, stats) =
            queens::count_drawn(n, self.consistency, self.order, &self.tree, stop)?;
        self.run.long.print_stats(&stats);
        if !stats.is_complete() {
            return Err(stop.failure(&format!("{count} solutions so far")));
        }
        print_count(n, count, None, "model", self.format.format)?;
        Ok(0)
    }
}

impl FirstCommand {
    fn run(self) -> Result<u8, Failure> {
        let n = parse_n(&self.board.n)?;
        queens::first(n, self.consistency, &self.format, &self.long, &self.tree)
    }
}

impl UniqueCommand {
    fn run(self) -> Result<u8, Failure> {
        self.run.mpi.run("queens", |mpi| self.count(mpi))
    }

    fn count(&self, mpi: Option<&Mpi>) -> Result<u8, Failure> {
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
        let [total, unique] = self
            .run
            .count(n, Engine::Symmetry, &stop, mpi, json)?
            .counts;
        if cluster::is_worker(mpi) {
            return Ok(0);
        }
        if self.list {
            queens::list_unique(n, self.limit, &stop, &self.format)?;
        }
        let summary = if json { Summary::Json } else { Summary::Text };
        if format == Format::Svg {
            // Stdout holds the picture alone.
            bezzel_cli::warn(&queens::unique_summary(unique, total));
        } else {
            print_count(n, total, Some(unique), "symmetry", summary)?;
        }
        let time = start.elapsed().as_secs_f64();
        self.run.long.print_stats(&format!("time: {time:.3} s"));
        Ok(0)
    }
}

impl ConstructCommand {
    fn run(self) -> Result<u8, Failure> {
        let n = parse_n(&self.board.n)?;
        queens::construct(n, &self.format, self.stats.stats)
    }
}

impl CheckCommand {
    fn run(self) -> Result<u8, Failure> {
        queens::check(&self.columns, self.limit, self.format.format)
    }
}
