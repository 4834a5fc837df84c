//! The `queens` program's option groups, each with what it does, and the commands whose work
//! is more than a call into [`bezzel_queens`].
//!
//! Like [`options`], each group is a small [`clap::Args`] struct that the program flattens
//! into the subcommands it applies to; here each also carries the behaviour its options ask
//! for (a stop watching Ctrl-C and `--time-limit`, a count with `--checkpoint`, the
//! placements' `--format`), so that the program itself only maps arguments onto these calls
//! and prints. Every failure is a [`Failure`] with the program's messages and exit statuses.

use crate::cluster::{Mpi, MpiFlag};
use crate::input::{Input, check_inputs};
use crate::options::{self, Format, Order, Quiet, Stats, Threads, TimeLimit, Tree};
use crate::{Failure, Stop, count, status, warn};
use bezzel_core::{Consistency, SearchConfig, Statistics};
use bezzel_queens::counting::Engine;
use bezzel_queens::listing::{self, ListError, Output, Style};
use bezzel_queens::{check, construct, format, model::Queens, svg, tree};
use bezzel_runner::{Cluster, RunReport};
use clap::ValueEnum;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

/// Stdout, buffered: where answers go.
pub type Stdout = BufWriter<io::StdoutLock<'static>>;

/// Stdout, locked and buffered for many lines.
pub fn stdout() -> Stdout {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// The options of every command that may run long.
#[derive(clap::Args, Debug)]
pub struct LongRun {
    /// `--stats`.
    #[command(flatten)]
    pub stats: Stats,
    /// `--quiet`.
    #[command(flatten)]
    pub quiet: Quiet,
    /// `--time-limit`.
    #[command(flatten)]
    pub time_limit: TimeLimit,
}

impl LongRun {
    /// Ctrl-C and the time limit, watched from now on.
    pub fn stop(&self) -> Stop {
        Stop::install(self.time_limit.time_limit)
    }

    /// Prints `stats` on stderr with `--stats`.
    pub fn print_stats(&self, stats: &impl std::fmt::Display) {
        if self.stats.stats {
            warn(&stats.to_string());
        }
    }
}

/// The options of the parallel counts (`count`, `unique`).
#[derive(clap::Args, Debug)]
pub struct RunOptions {
    /// `--threads`.
    #[command(flatten)]
    pub threads: Threads,
    /// Record finished subproblems in FILE; rerunning the same command resumes.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// `--stats`, `--quiet` and `--time-limit`.
    #[command(flatten)]
    pub long: LongRun,
    /// `--mpi`.
    #[command(flatten)]
    pub mpi: MpiFlag,
}

impl RunOptions {
    /// Counts `n` queens with `engine` by the library's resumable parallel runner with these
    /// options, watching `stop`, on the ranks of `mpi` when given (see [`count::count`]); no
    /// progress bar with `json` output.
    pub fn count(
        &self,
        n: usize,
        engine: Engine,
        stop: &Stop,
        mpi: Option<&Mpi>,
        json: bool,
    ) -> Result<RunReport<2>, Failure> {
        let run = count::Run {
            threads: self.threads.threads,
            checkpoint: self.checkpoint.as_deref(),
            quiet: self.long.quiet.quiet || json,
        };
        count::count(n, engine, &run, stop, mpi.map(|m| m as &dyn Cluster))
    }

    /// With `--stats`, prints on stderr what the count `report` by `engine` took, begun at
    /// `start`: the model's search statistics, or the other engines' time; and the threads.
    pub fn print_stats(
        &self,
        report: &RunReport<2>,
        engine: Engine,
        mpi: Option<&Mpi>,
        start: Instant,
    ) {
        let threads = match mpi {
            Some(mpi) => format!("{} x {} ranks", self.threads.count(), mpi.size()),
            None => self.threads.count().to_string(),
        };
        if let Engine::Model { .. } = engine {
            let mut s = report.stats.clone();
            s.solutions = report.counts[0];
            let subproblems = report.total;
            self.long.print_stats(&format!(
                "{s} (subproblems: {subproblems}, threads: {threads})"
            ));
        } else {
            let time = start.elapsed().as_secs_f64();
            let name = engine.name();
            self.long.print_stats(&format!(
                "engine: {name}, threads: {threads}, time: {time:.3} s"
            ));
        }
    }
}

/// `--consistency` of the model's all-different constraints.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct ConsistencyArg {
    /// Propagation strength of the model's all-different constraints.
    #[arg(long, value_name = "value|bounds|domain", value_parser = options::consistency)]
    pub consistency: Option<Consistency>,
}

impl ConsistencyArg {
    /// The model of `n` queens at this consistency, searched in `order` (row by row for `all`
    /// and `first`, so that solutions come in lexicographic order), watching `stop`.
    pub fn model(self, n: usize, order: Option<Order>, stop: &Stop) -> Result<Queens, Failure> {
        let config = SearchConfig {
            var_order: order.unwrap_or_default().var_order(),
            ..SearchConfig::default()
        };
        let mut q = Queens::with_consistency(n, config, self.consistency.unwrap_or_default())
            .map_err(|e| Failure::input(e.to_string()))?;
        q.solver_mut().set_cancel_flag(stop.flag().clone());
        Ok(q)
    }
}

/// `--format` of the commands that print placements.
#[derive(clap::Args, Debug)]
pub struct PlacementFormat {
    /// How to print placements: `NO.1: 0 4 7 5 2 6 1 3`, the board, JSON lines, or one SVG
    /// picture of the boards.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    pub format: Format,
    /// With `--format svg`: shade the lines each queen attacks, and draw in red the queens
    /// that attack another.
    #[arg(long)]
    pub attacks: bool,
}

impl PlacementFormat {
    /// Where placements go: stdout, in the format asked for (`--attacks` only with SVG).
    pub fn output(&self) -> Result<Output<Stdout>, Failure> {
        let style = match self.format {
            Format::Svg => Style::Svg {
                attacks: self.attacks,
            },
            _ if self.attacks => {
                return Err(Failure::input(
                    "--attacks shades the lines of the SVG pictures: add --format svg",
                ));
            }
            Format::Text => Style::Text,
            Format::Board => Style::Board,
            Format::Json => Style::Json,
        };
        Ok(Output::new(stdout(), style))
    }

    /// Prints one placement, as the only one.
    pub fn print_one(&self, placement: &[usize]) -> Result<(), Failure> {
        if self.format == Format::Svg {
            // The picture an `Output` draws of one placement, drawn from the placement itself:
            // the `Output` would keep a copy (80 MB for 10,000,000 queens), which a memory
            // limit that the placement fits in may not hold.
            let options = svg::Options {
                attacks: self.attacks,
                ..svg::Options::fitted(placement.len())
            };
            let mut w = stdout();
            svg::write_board(&mut w, placement, &options)?;
            return Ok(w.flush()?);
        }
        let mut out = self.output()?;
        out.add(1, placement)?;
        Ok(out.finish()?)
    }
}

/// `--format` of the commands that print a summary only.
#[derive(clap::Args, Debug)]
pub struct SummaryFormat {
    /// How to print the answer: text, or one JSON object per line.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Summary::Text)]
    pub format: Summary,
}

/// How a summary is printed.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Summary {
    /// Plain text.
    Text,
    /// One JSON object per line.
    Json,
}

/// `12 unique solutions (92 in total)`, or `1 unique solution (...)`: the sentence of
/// `queens unique`.
pub fn unique_summary(unique: u64, total: u64) -> String {
    let s = if unique == 1 { "" } else { "s" };
    format!("{unique} unique solution{s} ({total} in total)")
}

/// Prints a count: the number alone (with `unique`, the sentence of `queens unique`), or its
/// JSON line, which names the `engine`.
pub fn print_count(
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
        (Summary::Text, Some(unique)) => writeln!(w, "{}", unique_summary(unique, count))?,
    }
    Ok(w.flush()?)
}

/// The options of `all` (and of a plain `queens N`).
#[derive(clap::Args, Debug)]
pub struct AllOptions {
    /// `--format` and `--attacks`.
    #[command(flatten)]
    pub format: PlacementFormat,
    /// Print at most this many solutions.
    #[arg(long, allow_negative_numbers = true, value_parser = options::whole_number)]
    pub limit: Option<u64>,
    /// `--consistency`.
    #[command(flatten)]
    pub consistency: ConsistencyArg,
    /// `--stats`, `--quiet` and `--time-limit`.
    #[command(flatten)]
    pub long: LongRun,
}

impl AllOptions {
    /// `queens all N`: every solution in lexicographic order, then the total.
    pub fn all(&self, n: usize) -> Result<u8, Failure> {
        let stop = self.long.stop();
        let mut q = self.consistency.model(n, Some(Order::InputOrder), &stop)?;
        let mut out = self.format.output()?;
        let listed = listing::solutions(&mut q, self.limit, &mut out)?;
        self.long.print_stats(q.stats());
        if listed.stopped {
            return Err(stop.failure(&format!("{} solutions printed", listed.shown)));
        }
        Ok(0)
    }
}

/// Runs `search` on the queens model with a recorder watching, and writes the page of the
/// tree to the `--tree` file.
fn drawn<T>(
    q: &mut Queens,
    tree: &Tree,
    search: impl FnOnce(&mut Queens) -> T,
) -> Result<T, Failure> {
    tree.check_writable().map_err(Failure::input)?;
    let (answer, recorded) = tree::record(q, tree.limit(), search);
    let page = recorded.to_html(&tree::page_options(q.n()));
    tree.write(&page).map_err(Failure::input)?;
    Ok(answer)
}

/// `queens count N --engine model --tree FILE`: the one-thread depth-first count (the search
/// the library's count runs on one thread) of the model at `consistency` in `order`,
/// recorded and drawn, watching `stop`; the count and the search's statistics.
pub fn count_drawn(
    n: usize,
    consistency: ConsistencyArg,
    order: Option<Order>,
    tree: &Tree,
    stop: &Stop,
) -> Result<(u64, Statistics), Failure> {
    let mut q = consistency.model(n, order, stop)?;
    let count = drawn(&mut q, tree, Queens::count)?;
    Ok((count, q.stats().clone()))
}

/// `queens first N`: the lexicographically first solution, printed in `format` (with
/// `--tree`, its search drawn), or on stderr that none exists (status 1).
pub fn first(
    n: usize,
    consistency: ConsistencyArg,
    format: &PlacementFormat,
    long: &LongRun,
    tree: &Tree,
) -> Result<u8, Failure> {
    let stop = long.stop();
    let mut q = consistency.model(n, Some(Order::InputOrder), &stop)?;
    let found = match tree.tree {
        Some(_) => drawn(&mut q, tree, Queens::first)?,
        None => q.first(),
    };
    long.print_stats(q.stats());
    match found {
        Some(p) => {
            format.print_one(&p)?;
            Ok(0)
        }
        None if !q.stats().is_complete() => Err(stop.failure("no solution found yet")),
        None => {
            warn(&format!("no solution exists for n = {n}"));
            Ok(status::NEGATIVE)
        }
    }
}

/// `queens construct N`: one solution by the closed-form rule, printed in `format` (with
/// `stats`, the time on stderr), or on stderr that none exists (status 1).
pub fn construct(n: usize, format: &PlacementFormat, stats: bool) -> Result<u8, Failure> {
    let start = Instant::now();
    match construct::construct(n) {
        Ok(p) => {
            debug_assert!(check::is_solution(&p));
            format.print_one(&p)?;
            if stats {
                warn(&format!("time: {:.3} s", start.elapsed().as_secs_f64()));
            }
            Ok(0)
        }
        Err(construct::ConstructError::NoSolution { .. }) => {
            // On stderr, as `first` says it: stdout carries placements only, in the format
            // asked for, and a plain-text line would break a JSON reader.
            warn(&format!("no solution exists for n = {n}"));
            Ok(status::NEGATIVE)
        }
        Err(e) => Err(Failure::input(e.to_string())),
    }
}

/// `queens unique N --list`: prints one representative of each class, at most `limit`, in
/// `format`, watching `stop`. Cut short, what was listed is still drawn: one picture of the
/// partial list, as text prints the lines so far.
pub fn list_unique(
    n: usize,
    limit: Option<u64>,
    stop: &Stop,
    format: &PlacementFormat,
) -> Result<(), Failure> {
    let mut out = format.output()?;
    let listed = listing::unique(n, limit, stop.flag(), &mut out);
    out.finish()?;
    match listed {
        Ok(listed) if listed.stopped => {
            let shown = listed.shown;
            Err(stop.failure(&format!("{shown} unique solutions listed")))
        }
        Ok(_) => Ok(()),
        Err(ListError::Write(e)) => Err(e.into()),
        Err(e) => Err(Failure::input(e.to_string())),
    }
}

/// The message of a placement that cannot be read from `input` (named in a read error).
fn malformed(e: format::ParseError, input: &str) -> Failure {
    match e {
        format::ParseError::Read { reason } => {
            Failure::input(format!("cannot read {input}: {reason}"))
        }
        e => Failure::input(format!("malformed placement: {e}")),
    }
}

/// What `queens check` was given: none, or `-`, is stdin; one argument that is not made of
/// column numbers and names something that exists is a file of placements; anything else is
/// one placement (`None`), such as `1 3 0 2` or `'NO.1: 1 3 0 2'`.
fn check_input(arguments: &[String]) -> Result<Option<Input>, Failure> {
    let columns_only = |a: &str| {
        a.chars()
            .all(|c| c.is_ascii_digit() || c == ',' || c.is_whitespace())
    };
    match arguments {
        [] => Ok(Some(Input::Stdin)),
        [one] if one == "-" => Ok(Some(Input::Stdin)),
        [one] if !columns_only(one) => {
            let path = PathBuf::from(one);
            if std::fs::symlink_metadata(&path).is_err()
                && let Err(e) = format::parse_placement(one)
            {
                return Err(Failure::input(format!(
                    "`{one}` is neither a file (no such file) nor a placement ({e}): check \
                     reads a file of placements, or one placement, e.g. `queens check 1 3 0 2`"
                )));
            }
            if std::fs::symlink_metadata(&path).is_err() {
                return Ok(None);
            }
            let inputs = check_inputs(&[path]).map_err(Failure::input)?;
            Ok(inputs.into_iter().next())
        }
        _ => Ok(None),
    }
}

/// `queens check`: checks the placement in `arguments` (its columns), or every placement in
/// the file they name, or with none every placement on stdin (in memory for one, however
/// large the input), listing at most `limit` attacking pairs each (default 100; all are
/// counted). Status 0 when all are solutions, 1 when one is not, 2 when one could not be
/// read (each such one named on stderr).
pub fn check(arguments: &[String], limit: Option<u64>, format: Summary) -> Result<u8, Failure> {
    let shown = limit.unwrap_or(100);
    let json = format == Summary::Json;
    let input = check_input(arguments)?;
    let mut w = stdout();
    let answer = |solution| Ok(if solution { 0 } else { status::NEGATIVE });
    let Some(input) = input else {
        let p = format::parse_placement(&arguments.join(" "))
            .map_err(|e| malformed(e, "the arguments"))?;
        let solution = format::write_check(&mut w, None, &p, shown, json)?;
        w.flush()?;
        return answer(solution);
    };
    let name = match &input {
        Input::Stdin => "stdin".to_string(),
        Input::File(path) => path.display().to_string(),
    };
    let (reader, _) = input.open().map_err(Failure::input)?;
    let found = format::check_placements(reader, &mut w, shown, json, |i, e| {
        let message = crate::escape(&malformed(e, &name).message);
        match i {
            Some(i) => warn(&format!("queens: placement {i}: {message}")),
            None => warn(&format!("queens: {message}")),
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
