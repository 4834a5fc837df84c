//! The sudoku command: solve Sudoku puzzles of any box size (4x4, 9x9, 16x16, 25x25) on the
//! generic engine, one answer per puzzle.
//!
//! ```text
//! cargo run --release --example sudoku -- puzzles.txt          # one answer line per puzzle line
//! cargo run --release --example sudoku -- --count --limit 100 puzzles.txt
//! cargo run --release --example sudoku -- --pretty grid.txt      # a puzzle in grid form
//! echo 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 \
//!     | cargo run --release --example sudoku -- --json
//! ```
//!
//! **Input.** Files given as arguments, in order, or stdin when there are none (`-` names stdin
//! too). Every file is opened before anything is solved; a batch is then read and answered a
//! chunk of lines at a time, so it runs in little memory and answers come while stdin is still
//! being written (one by one when stdin is a terminal). A batch holds one puzzle per line in line form: `N * N` cells row by row, `1`-`9`
//! then `A`-`P` for 10-25, `.` or `0` for an empty cell; blank lines and lines starting with
//! `#` are skipped. An input is instead read as *one* puzzle in grid form (one row per line;
//! spaces and the separators `|`, `-`, `+` ignored, so `--pretty` output reads back) when
//! `--grid` is given, or when it looks like one grid: none of its lines has the length of a
//! line-form puzzle (16, 81, 256 or 625 characters), and at least 4 lines hold cells, none
//! more than 25. A 16x16 grid written without spaces has rows of 16 characters, the length of
//! a 4x4 line, so it needs `--grid`.
//!
//! **Output.** Every puzzle gets exactly one line on stdout, in input order: the solution in
//! line form, `no solution`, `multiple solutions`, or `error: line L: what is wrong` (with the
//! file name when there are several inputs). By default each puzzle is solved and proven
//! unique (solutions counted up to 2); `--first` prints the first solution without that
//! proof; `--count` prints the number of solutions instead, up to `--limit` (default 2), as
//! `K+` when the limit stopped the count. `--pretty` prints a `# line L: status` header and
//! the grid with box separators; `--json` one JSON object per puzzle: `line`, `puzzle`,
//! `status` (`unique`, `multiple`, `no_solution`, `solved` with `--first`, or `error`), then
//! `solution` (the first found), `count`, `exact` (false when the limit stopped the count),
//! `nodes`, `failures`, `propagations` and `time_ms`, or `error`; and `file` when there are
//! several inputs. A summary goes to stderr (puzzles, solved, unique, errors, time, puzzles per
//! second, nodes; with `--stats` also failures, propagations, the deepest search and the
//! search-only time), and each bad line is repeated there. Puzzles are solved on all cores
//! (`--threads N` to choose), and answers still come in input order.
//!
//! **Search.** Smallest domain first by default (`--order first-fail`); `--order dom-wdeg`
//! weighs cells by how often their units failed, which matters for big, nearly empty grids at
//! `--consistency value` or `bounds`; `--restarts` (with `--first`) restarts on a Luby
//! schedule, keeping those weights.
//!
//! **Exit status.** 0 when every puzzle was read and had consistent givens, whatever the
//! answers; 2 when any puzzle had an input error (wrong length, illegal character, clashing
//! givens; the other puzzles are still answered), and for a bad option or a file that cannot
//! be opened (then nothing is solved). A read error part way through an input (a failing disk,
//! say) stops the run there, after the answers so far and the summary, with status 2.

use bezzel::core::{Consistency, Restarts, SearchConfig, Statistics, VarOrder};
use bezzel::sudoku::grid::Grid;
use bezzel::sudoku::model::{Outcome, Status, SudokuSolver};
use clap::{Parser, ValueEnum};
use rayon::prelude::*;
use serde::Serialize;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// The lengths of line-form puzzles: `N * N` for N = 4, 9, 16, 25.
const LINE_LENGTHS: [usize; 4] = [16, 81, 256, 625];

#[derive(Parser, Debug)]
#[command(
    name = "sudoku",
    about = "Solve Sudoku puzzles (4x4 to 25x25): one answer line per puzzle line",
    long_about = "Solve Sudoku puzzles (4x4 to 25x25): one answer line per puzzle line.\n\n\
        Each non-blank line not starting with `#` is a puzzle in line form: N*N cells, \
        1-9 then A-P for 10-25, `.` or `0` for empty. An input that looks like one grid \
        (N lines of N cells, spaces and | - + ignored), or any input with --grid, is read \
        as a single puzzle in grid form.\n\n\
        Each puzzle gets one line: the solution, `no solution`, `multiple solutions` or \
        `error: line L: ...`; a summary goes to stderr. Exit status: 0, or 2 when any \
        input was bad (the other puzzles are still answered)."
)]
struct Cli {
    /// Puzzle files, read in order; stdin when none is given, or for `-`.
    files: Vec<PathBuf>,
    /// Read each input as one puzzle in grid form (one row per line).
    #[arg(long)]
    grid: bool,
    /// Print the first solution found, without proving that it is the only one.
    #[arg(long, conflicts_with = "count")]
    first: bool,
    /// Print the number of solutions (`K+` when --limit stopped the count).
    #[arg(long)]
    count: bool,
    /// Stop counting at this many solutions (with --count).
    #[arg(long, default_value_t = 2, requires = "count", value_parser = parse_positive::<u64>)]
    limit: u64,
    /// Print solutions as grids with box separators, after a `# line L: status` header.
    #[arg(long, conflicts_with = "json")]
    pretty: bool,
    /// Print one JSON object per puzzle.
    #[arg(long)]
    json: bool,
    /// Add failures, propagations, the deepest search and the search-only time (summed over
    /// puzzles, model building and output excluded) to the summary.
    #[arg(long)]
    stats: bool,
    /// Solve this many puzzles at a time, one per thread (default: all cores); answers stay
    /// in input order.
    #[arg(long, value_parser = parse_positive::<usize>)]
    threads: Option<usize>,
    /// No summary on stderr.
    #[arg(short, long)]
    quiet: bool,
    /// Propagation strength of the row, column and box constraints.
    #[arg(long, default_value = "domain", value_name = "value|bounds|domain")]
    consistency: Consistency,
    /// Which empty cell to branch on next. `dom-wdeg` learns from failures which units are
    /// hard; it finds a first solution of an empty or nearly empty big grid at once where
    /// `first-fail` with the weaker consistency levels can search for minutes.
    #[arg(long, value_enum, default_value_t = Order::FirstFail)]
    order: Order,
    /// With --first: restart the search after 100·luby(i) failures in the i-th attempt
    /// (keeping what `dom-wdeg` learnt). Counting and uniqueness proofs never restart.
    #[arg(long, requires = "first")]
    restarts: bool,
}

/// The cell order of the search.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// Fewest candidates first (Gecode's INT_VAR_SIZE_MIN).
    FirstFail,
    /// Fewest candidates per failure weight of the cell's units.
    DomWdeg,
    /// Row by row, left to right.
    Rows,
}

impl Cli {
    fn search(&self) -> SearchConfig {
        SearchConfig {
            var_order: match self.order {
                Order::FirstFail => VarOrder::SmallestDomain,
                Order::DomWdeg => VarOrder::DomWDeg,
                Order::Rows => VarOrder::InputOrder,
            },
            restarts: self.restarts.then(Restarts::default),
            ..SearchConfig::default()
        }
    }
}

/// A whole number of at least 1.
fn parse_positive<T: std::str::FromStr + PartialEq + From<u8>>(text: &str) -> Result<T, String> {
    match text.trim().parse::<T>() {
        Ok(k) if k == T::from(0) => Err("it must be at least 1".to_string()),
        Ok(k) => Ok(k),
        Err(_) => Err(format!("`{text}` is not a whole number")),
    }
}

/// What is asked of each puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Solve and prove unique (count to 2).
    Unique,
    /// The first solution only.
    First,
    /// Count up to a limit.
    Count(u64),
}

/// One input: its name for messages and its bytes, read as they are solved.
struct Input {
    name: String,
    reader: Box<dyn BufRead>,
    /// Stdin from a terminal: someone typing puzzles gets each answer at once. Files keep
    /// full chunks (and so every thread busy) wherever stdin is.
    interactive: bool,
}

/// One puzzle of an input, read or not.
struct Puzzle {
    /// 1-based line of the input where the puzzle starts.
    line: usize,
    /// The puzzle's text as given (trimmed).
    text: String,
    parsed: Result<Grid, String>,
}

/// The answer to one puzzle.
enum Answer {
    Error(String),
    Solved(Outcome),
}

#[derive(Serialize)]
struct JsonLine<'a> {
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

/// Why a run stopped before answering every puzzle.
enum Failure {
    Output(io::Error),
    Threads(String),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Output(e)
    }
}

/// Totals for the summary.
#[derive(Default)]
struct Summary {
    puzzles: u64,
    solved: u64,
    unique: u64,
    multiple: u64,
    no_solution: u64,
    errors: u64,
    nodes: u64,
    failures: u64,
    propagations: u64,
    max_depth: u64,
    /// The searches' own time, summed over puzzles (model building and output excluded).
    search_secs: f64,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            // One clear line instead of clap's multi-line usage block; a message ending in
            // a colon ("required arguments were not provided:") takes the next line along.
            let rendered = e.to_string();
            let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
            let mut line = lines.next().unwrap_or("").to_string();
            if line.ends_with(':') {
                if let Some(next) = lines.next() {
                    line = format!("{line} {next}");
                }
            }
            eprintln!(
                "sudoku: {} (try --help)",
                line.trim_start_matches("error: ")
            );
            return ExitCode::from(2);
        }
    };
    let inputs = match open_inputs(&cli.files) {
        Ok(inputs) => inputs,
        Err(message) => {
            eprintln!("sudoku: {message}");
            return ExitCode::from(2);
        }
    };
    match run(&cli, inputs) {
        Ok(status) => ExitCode::from(status),
        // The reader went away (`sudoku big.txt | head`): nothing left to say.
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(e)) => {
            eprintln!("sudoku: cannot write output: {e}");
            ExitCode::from(2)
        }
        Err(Failure::Threads(e)) => {
            eprintln!("sudoku: cannot start threads: {e}");
            ExitCode::from(2)
        }
    }
}

/// Opens every input before solving anything, so a mistyped file name costs nothing; their
/// text is read later, as it is solved.
fn open_inputs(files: &[PathBuf]) -> Result<Vec<Input>, String> {
    let stdin = || Input {
        name: "<stdin>".to_string(),
        reader: Box::new(BufReader::new(io::stdin())),
        interactive: io::stdin().is_terminal(),
    };
    if files.is_empty() {
        return Ok(vec![stdin()]);
    }
    let mut inputs = Vec::with_capacity(files.len());
    for path in files {
        if path.as_os_str() == "-" {
            inputs.push(stdin());
            continue;
        }
        let cannot = |reason: String| format!("cannot read {}: {reason}", path.display());
        let file = File::open(path).map_err(|e| cannot(io_reason(&e)))?;
        // Opening a directory succeeds; reading it would fail only later.
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(cannot("Is a directory".to_string()));
        }
        inputs.push(Input {
            name: path.display().to_string(),
            reader: Box::new(BufReader::with_capacity(1 << 16, file)),
            interactive: false,
        });
    }
    Ok(inputs)
}

/// The lines of one input, numbered from 1, without their line ends. Bytes that are not
/// UTF-8 become U+FFFD and are then reported as illegal characters of their line.
struct Lines {
    input: Input,
    number: usize,
    bytes: Vec<u8>,
}

impl Lines {
    fn new(input: Input) -> Lines {
        Lines {
            input,
            number: 0,
            bytes: Vec::new(),
        }
    }

    /// The next line; `Err` says why the input could not be read.
    fn next_line(&mut self) -> Result<Option<(usize, String)>, String> {
        self.bytes.clear();
        let read = self
            .input
            .reader
            .read_until(b'\n', &mut self.bytes)
            .map_err(|e| format!("cannot read {}: {}", self.input.name, io_reason(&e)))?;
        if read == 0 {
            return Ok(None);
        }
        if self.bytes.last() == Some(&b'\n') {
            self.bytes.pop();
            if self.bytes.last() == Some(&b'\r') {
                self.bytes.pop();
            }
        }
        self.number += 1;
        Ok(Some((
            self.number,
            String::from_utf8_lossy(&self.bytes).into_owned(),
        )))
    }

    /// The rest of the input, each line ended by `\n`.
    fn rest(&mut self, text: &mut String) -> Result<(), String> {
        while let Some((_, line)) = self.next_line()? {
            text.push_str(&line);
            text.push('\n');
        }
        Ok(())
    }
}

/// Where the puzzles of one input come from: a batch in line form is read a chunk at a time,
/// anything else (a grid, or a batch whose first puzzle line is not a line-form puzzle) is
/// read whole and parsed as before.
enum Source {
    Stream {
        lines: Lines,
        /// The first puzzle line, already read to decide the form.
        first: Option<(usize, String)>,
    },
    Whole(std::vec::IntoIter<Puzzle>),
}

impl Source {
    fn new(input: Input, grid_form: bool) -> Result<Source, String> {
        let mut lines = Lines::new(input);
        let mut head = String::new();
        if !grid_form {
            while let Some((number, line)) = lines.next_line()? {
                let trimmed = line.trim();
                if !is_puzzle_line(trimmed) {
                    head.push_str(&line);
                    head.push('\n');
                    continue;
                }
                if LINE_LENGTHS.contains(&trimmed.chars().count()) {
                    // Such a line rules grid form out (see `looks_like_one_grid`).
                    return Ok(Source::Stream {
                        lines,
                        first: Some((number, line)),
                    });
                }
                head.push_str(&line);
                head.push('\n');
                break;
            }
        }
        lines.rest(&mut head)?;
        Ok(Source::Whole(puzzles(&head, grid_form).into_iter()))
    }

    /// Up to `n` more puzzles; none at the end of the input.
    fn next_chunk(&mut self, n: usize) -> Result<Vec<Puzzle>, String> {
        match self {
            Source::Whole(rest) => Ok(rest.by_ref().take(n).collect()),
            Source::Stream { lines, first } => {
                let mut chunk = Vec::with_capacity(n);
                while chunk.len() < n {
                    let Some((line, text)) = first
                        .take()
                        .map_or_else(|| lines.next_line(), |f| Ok(Some(f)))?
                    else {
                        break;
                    };
                    let text = text.trim();
                    if is_puzzle_line(text) {
                        chunk.push(Puzzle {
                            line,
                            text: text.to_string(),
                            parsed: Grid::parse_line(text).map_err(|e| e.to_string()),
                        });
                    }
                }
                Ok(chunk)
            }
        }
    }
}

/// The OS message without Rust's " (os error N)" suffix.
fn io_reason(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Whether a trimmed line is a puzzle line (not blank, not a comment).
fn is_puzzle_line(line: &str) -> bool {
    !line.is_empty() && !line.starts_with('#')
}

fn cell_count(line: &str) -> usize {
    line.chars()
        .filter(|&c| !c.is_whitespace() && !matches!(c, '|' | '-' | '+'))
        .count()
}

/// Whether an input looks like one puzzle in grid form: no line has the length of a
/// line-form puzzle, and at least 4 lines hold cells, none more than 25.
fn looks_like_one_grid(text: &str) -> bool {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| is_puzzle_line(l))
        .collect();
    if lines
        .iter()
        .any(|l| LINE_LENGTHS.contains(&l.chars().count()))
    {
        return false;
    }
    let rows: Vec<usize> = lines
        .iter()
        .map(|l| cell_count(l))
        .filter(|&k| k > 0)
        .collect();
    rows.len() >= 4 && rows.iter().all(|&k| k <= 25)
}

/// The puzzles of one whole input, in order.
fn puzzles(text: &str, grid_form: bool) -> Vec<Puzzle> {
    if grid_form || looks_like_one_grid(text) {
        // Comment lines become blank lines, which the grid reader skips; the line structure
        // (and so every position in an error) stays as in the input.
        let body: String = text
            .lines()
            .map(|l| if l.trim().starts_with('#') { "" } else { l })
            .collect::<Vec<_>>()
            .join("\n");
        let line = text
            .lines()
            .position(|l| is_puzzle_line(l.trim()))
            .map_or(1, |i| i + 1);
        return vec![Puzzle {
            line,
            text: text.trim().to_string(),
            parsed: Grid::parse_grid(&body).map_err(|e| e.to_string()),
        }];
    }
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| is_puzzle_line(l))
        .map(|(line, l)| Puzzle {
            line,
            text: l.to_string(),
            parsed: Grid::parse_line(l).map_err(|e| e.to_string()),
        })
        .collect()
}

/// Solvers for the grid sizes met so far, one model per size, reused across puzzles.
#[derive(Default)]
struct Solvers(Vec<SudokuSolver>);

fn answer(
    solvers: &mut Solvers,
    grid: &Grid,
    mode: Mode,
    consistency: Consistency,
    search: SearchConfig,
) -> Answer {
    let solver = match solvers
        .0
        .iter()
        .position(|s| s.box_size() == grid.box_size())
    {
        Some(i) => Ok(&mut solvers.0[i]),
        None => SudokuSolver::with_config(grid.box_size(), consistency, search).map(|s| {
            solvers.0.push(s);
            solvers.0.last_mut().expect("just pushed")
        }),
    };
    let outcome = solver.and_then(|s| match mode {
        Mode::Unique => s.count(grid, 2),
        Mode::First => s.solve(grid),
        Mode::Count(limit) => s.count(grid, limit),
    });
    match outcome {
        Ok(o) => {
            if let Some(s) = &o.solution {
                debug_assert_eq!(bezzel::sudoku::check::is_valid_solution(grid, s), Ok(()));
            }
            Answer::Solved(o)
        }
        Err(e) => Answer::Error(e.to_string()),
    }
}

/// Puzzles solved between two writes of the output: big enough to keep every thread busy,
/// small enough that answers appear while a long batch runs (and that a batch of any size
/// runs in little memory). Someone typing puzzles at a terminal gets each answer at once.
const CHUNK: usize = 256;

fn run(cli: &Cli, inputs: Vec<Input>) -> Result<u8, Failure> {
    let mode = if cli.count {
        Mode::Count(cli.limit)
    } else if cli.first {
        Mode::First
    } else {
        Mode::Unique
    };
    let pool = match cli.threads {
        Some(1) => None,
        Some(t) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .map_err(|e| Failure::Threads(e.to_string()))?,
        ),
        None => Some(
            rayon::ThreadPoolBuilder::new()
                .build()
                .map_err(|e| Failure::Threads(e.to_string()))?,
        ),
    };
    let named = inputs.len() > 1;
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut sum = Summary::default();
    let mut serial = Solvers::default();
    let start = Instant::now();
    // A read error part way stops the run there: what was answered stays answered, the
    // summary still comes, and the status is 2.
    let mut unreadable = false;
    'inputs: for input in inputs {
        let name = input.name.clone();
        let chunk_size = if input.interactive { 1 } else { CHUNK };
        let mut source = match Source::new(input, cli.grid) {
            Ok(source) => source,
            Err(message) => {
                eprintln!("sudoku: {message}");
                unreadable = true;
                break 'inputs;
            }
        };
        loop {
            let chunk = match source.next_chunk(chunk_size) {
                Ok(chunk) => chunk,
                Err(message) => {
                    eprintln!("sudoku: {message}");
                    unreadable = true;
                    break 'inputs;
                }
            };
            if chunk.is_empty() {
                break;
            }
            let (consistency, search) = (cli.consistency, cli.search());
            let solve = |solvers: &mut Solvers, p: &Puzzle| match &p.parsed {
                Ok(grid) => answer(solvers, grid, mode, consistency, search),
                Err(e) => Answer::Error(e.clone()),
            };
            let answers: Vec<Answer> = match &pool {
                None => chunk.iter().map(|p| solve(&mut serial, p)).collect(),
                Some(pool) => {
                    pool.install(|| chunk.par_iter().map_init(Solvers::default, solve).collect())
                }
            };
            for (p, answer) in chunk.iter().zip(&answers) {
                let where_ = if named {
                    format!("{name}: line {}", p.line)
                } else {
                    format!("line {}", p.line)
                };
                sum.puzzles += 1;
                match answer {
                    Answer::Error(e) => {
                        sum.errors += 1;
                        eprintln!("sudoku: {where_}: {e}");
                    }
                    Answer::Solved(o) => tally(&mut sum, o),
                }
                let file = named.then_some(name.as_str());
                if cli.json {
                    write_json(&mut out, file, p, answer)?;
                } else if cli.pretty {
                    write_pretty(&mut out, &where_, mode, answer)?;
                } else {
                    writeln!(out, "{}", plain(&where_, mode, answer))?;
                }
            }
            out.flush()?;
        }
    }
    out.flush()?;
    if !cli.quiet {
        eprintln!(
            "{}",
            summary_line(&sum, start.elapsed().as_secs_f64(), cli.stats)
        );
    }
    Ok(if sum.errors > 0 || unreadable { 2 } else { 0 })
}

fn tally(sum: &mut Summary, o: &Outcome) {
    match o.status() {
        Status::Unique => {
            sum.solved += 1;
            sum.unique += 1;
        }
        Status::Solved => sum.solved += 1,
        Status::Multiple => {
            sum.solved += 1;
            sum.multiple += 1;
        }
        Status::NoSolution => sum.no_solution += 1,
        Status::Unknown => {}
    }
    sum.nodes += o.stats.nodes;
    sum.failures += o.stats.failures;
    sum.propagations += o.stats.propagations;
    sum.max_depth = sum.max_depth.max(o.stats.max_depth);
    sum.search_secs += o.stats.elapsed.as_secs_f64();
}

fn summary_line(sum: &Summary, secs: f64, stats: bool) -> String {
    let rate = if secs > 0.0 {
        sum.puzzles as f64 / secs
    } else {
        0.0
    };
    let mut line = format!(
        "puzzles: {}, solved: {}, unique: {}, multiple: {}, no solution: {}, errors: {}, \
         time: {secs:.3} s, puzzles/s: {rate:.1}, nodes: {}",
        sum.puzzles, sum.solved, sum.unique, sum.multiple, sum.no_solution, sum.errors, sum.nodes
    );
    if stats {
        line += &format!(
            ", failures: {}, propagations: {}, max depth: {}, search time: {:.3} s",
            sum.failures, sum.propagations, sum.max_depth, sum.search_secs
        );
    }
    line
}

/// A count, with `+` when a limit stopped it.
fn count_text(o: &Outcome) -> String {
    if o.exact {
        o.solutions.to_string()
    } else {
        format!("{}+", o.solutions)
    }
}

/// The one output line of a puzzle.
fn plain(where_: &str, mode: Mode, answer: &Answer) -> String {
    let o = match answer {
        Answer::Error(e) => return format!("error: {where_}: {e}"),
        Answer::Solved(o) => o,
    };
    if let Mode::Count(_) = mode {
        return count_text(o);
    }
    match (o.status(), &o.solution) {
        (Status::Unique | Status::Solved, Some(s)) => s.to_line(),
        (Status::Multiple, _) => "multiple solutions".to_string(),
        (Status::NoSolution, _) => "no solution".to_string(),
        _ => "unknown".to_string(),
    }
}

fn write_pretty(out: &mut impl Write, where_: &str, mode: Mode, answer: &Answer) -> io::Result<()> {
    let o = match answer {
        Answer::Error(e) => return writeln!(out, "# {where_}: error: {e}\n"),
        Answer::Solved(o) => o,
    };
    let status = match mode {
        Mode::Count(_) => format!("{} solution(s)", count_text(o)),
        _ => o.status().to_string(),
    };
    writeln!(out, "# {where_}: {status}")?;
    if let (Status::Unique | Status::Solved, Some(s)) = (o.status(), &o.solution) {
        write!(out, "{}", s.to_pretty())?;
    }
    writeln!(out)
}

fn status_name(status: Status) -> &'static str {
    match status {
        Status::NoSolution => "no_solution",
        Status::Solved => "solved",
        Status::Unique => "unique",
        Status::Multiple => "multiple",
        Status::Unknown => "unknown",
    }
}

fn write_json(
    out: &mut impl Write,
    file: Option<&str>,
    p: &Puzzle,
    answer: &Answer,
) -> io::Result<()> {
    let puzzle = match &p.parsed {
        Ok(g) => g.to_line(),
        Err(_) => p.text.to_string(),
    };
    let mut line = JsonLine {
        file,
        line: p.line,
        puzzle,
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
    match answer {
        Answer::Error(e) => line.error = Some(e),
        Answer::Solved(o) => {
            let Statistics {
                nodes,
                failures,
                propagations,
                elapsed,
                ..
            } = o.stats;
            line.status = status_name(o.status());
            line.solution = o.solution.as_ref().map(Grid::to_line);
            line.count = Some(o.solutions);
            line.exact = Some(o.exact);
            line.nodes = Some(nodes);
            line.failures = Some(failures);
            line.propagations = Some(propagations);
            line.time_ms = Some((elapsed.as_secs_f64() * 1e6).round() / 1e3);
        }
    }
    let json = serde_json::to_string(&line).map_err(io::Error::other)?;
    writeln!(out, "{json}")
}
