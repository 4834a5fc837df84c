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
//! too). Every file is checked before anything is solved (that it exists and is no folder; a
//! regular file, that it opens), so a mistyped name costs nothing; each is then opened only when
//! its turn comes and closed after, so any number of files can be given, and a named pipe is
//! opened once, in its turn. An input is read and answered a chunk of lines at a time, so it runs in
//! little memory and answers come while stdin is still being written (one by one when stdin is
//! a terminal). The text accepted is the library's (`bezzel_sudoku::reader`): one puzzle per
//! line in line form, `N * N` cells row by row, `1`-`9` then `A`-`P` for 10-25, `.` or `0` for
//! an empty cell; blank lines and lines starting with `#` are skipped; a byte-order mark at the
//! start is skipped. An input is instead read as *one* puzzle in grid form (one row per line;
//! spaces and the separators `|`, `-`, `+` ignored, so `--pretty` output reads back) when
//! `--grid` is given, or when its lines really form a grid: no line has the length of a
//! line-form puzzle (16, 81, 256 or 625 characters), and there are N rows of N cells for N = 4,
//! 9, 16 or 25, give or take one mistake (a missing, extra, short or long row). A 16x16 grid
//! written without spaces has rows of 16 characters, the length of a 4x4 line, so it needs
//! `--grid`.
//!
//! **Alphabets.** A 16x16 puzzle may be written `1`-`G` or, one symbol lower, `0`-`F` (with `.`
//! for empty cells). Without `--alphabet`, a 16x16 puzzle holding a `G` is `1`-`G`, one holding
//! both `0` and `.` (and no `G`) is `0`-`F`, and any other reads validly both ways, so it is
//! refused as an input error asking for `--alphabet 1` or `--alphabet 0`, never guessed. Other
//! sizes are `1`-based unless `--alphabet 0` says otherwise. Answers are written in the
//! puzzle's own alphabet.
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
//! givens, an unclear alphabet; the other puzzles are still answered), and for a bad option or
//! a file that cannot be opened (then nothing is solved). A read error part way through an
//! input (a failing disk, say) stops the run there, after answering every puzzle read before
//! it and the summary, with status 2 and a message naming the input and the line. Output that
//! cannot be written (stdout closed, a full disk) is an error too: a one-line message and
//! status 2; a reader that went away (`sudoku big.txt | head`) ends the run quietly with
//! status 141, what a shell reports for a program killed by a broken pipe.

mod common;

use bezzel_core::{Consistency, Restarts, SearchConfig, Statistics, VarOrder};
use bezzel_sudoku::grid::{Alphabet, Grid, ParseError};
use bezzel_sudoku::model::{Outcome, Status, SudokuSolver};
use bezzel_sudoku::reader::{Form, Puzzle, PuzzleReader, ReadOptions};
use clap::{Parser, ValueEnum};
use rayon::prelude::*;
use serde::Serialize;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(
    name = "sudoku",
    about = "Solve Sudoku puzzles (4x4 to 25x25): one answer line per puzzle line",
    long_about = "Solve Sudoku puzzles (4x4 to 25x25): one answer line per puzzle line.\n\n\
        Each non-blank line not starting with `#` is a puzzle in line form: N*N cells, \
        1-9 then A-P for 10-25, `.` or `0` for empty. An input whose lines form one grid \
        (N lines of N cells, spaces and | - + ignored), or any input with --grid, is read \
        as a single puzzle in grid form. A 16x16 puzzle may be written 0-F instead of 1-G \
        (see --alphabet).\n\n\
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
    /// The symbol of the value 1: `1` for 1-9 then A-P (16x16: 1-G; `.` or `0` empty), `0`
    /// for one lower (16x16: 0-F; `.` empty). `auto` tells a 16x16 puzzle's alphabet from its
    /// cells (a G: 1-G; both 0 and `.`: 0-F; else refused) and reads other sizes as `1`.
    #[arg(long, value_enum, default_value_t = AlphabetArg::Auto, value_name = "auto|1|0")]
    alphabet: AlphabetArg,
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
    /// Solve this many puzzles at a time, one per thread (default: all cores, at most 1024);
    /// answers stay in input order.
    #[arg(long, value_parser = parse_threads)]
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

/// The alphabet option.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum AlphabetArg {
    /// Tell each puzzle's alphabet from its cells, refusing where that cannot be done.
    Auto,
    /// 1-9 then A-P.
    #[value(name = "1")]
    One,
    /// 0-9 then A-O.
    #[value(name = "0")]
    Zero,
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
    fn read_options(&self) -> ReadOptions {
        ReadOptions {
            form: if self.grid { Form::Grid } else { Form::Auto },
            alphabet: match self.alphabet {
                AlphabetArg::Auto => None,
                AlphabetArg::One => Some(Alphabet::FromOne),
                AlphabetArg::Zero => Some(Alphabet::FromZero),
            },
        }
    }

    fn mode(&self) -> Mode {
        if self.count {
            Mode::Count(self.limit)
        } else if self.first {
            Mode::First
        } else {
            Mode::Unique
        }
    }

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

/// The most worker threads accepted: far more than any machine's cores, and far fewer than
/// would exhaust the system (each thread reserves a stack). The same bound as `queens`.
const MAX_THREADS: usize = 1024;

/// A thread count from 1 to [`MAX_THREADS`].
fn parse_threads(text: &str) -> Result<usize, String> {
    match parse_positive::<usize>(text)? {
        t if t > MAX_THREADS => Err(format!("it must be at most {MAX_THREADS}")),
        t => Ok(t),
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

/// One input, opened only when its turn comes.
enum Input {
    Stdin,
    File(PathBuf),
}

impl Input {
    /// The name in messages.
    fn name(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".to_string(),
            Input::File(path) => path.display().to_string(),
        }
    }
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
            if line.ends_with(':')
                && let Some(next) = lines.next()
            {
                line = format!("{line} {next}");
            }
            eprintln!(
                "sudoku: {} (try --help)",
                line.trim_start_matches("error: ")
            );
            return ExitCode::from(2);
        }
    };
    if common::stdout_was_closed() {
        eprintln!("sudoku: cannot write output: stdout is closed");
        return ExitCode::from(2);
    }
    let inputs = match check_inputs(&cli.files) {
        Ok(inputs) => inputs,
        Err(message) => {
            eprintln!("sudoku: {message}");
            return ExitCode::from(2);
        }
    };
    match run(&cli, inputs) {
        Ok(status) => ExitCode::from(status),
        // A reader that went away (`sudoku big.txt | head`): answers were lost, so not a
        // success, but no message either: the status a shell reports for a program killed by
        // SIGPIPE, as the classic programs end there (and as `queens` does).
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(141),
        Err(Failure::Output(e)) => {
            eprintln!("sudoku: cannot write output: {}", io_reason(&e));
            ExitCode::from(2)
        }
        Err(Failure::Threads(e)) => {
            eprintln!("sudoku: cannot start threads: {e}");
            ExitCode::from(2)
        }
    }
}

/// The inputs named on the command line, each checked before anything is solved so that a
/// mistyped name costs nothing; they are opened later, one at a time.
fn check_inputs(files: &[PathBuf]) -> Result<Vec<Input>, String> {
    if files.is_empty() {
        return Ok(vec![Input::Stdin]);
    }
    let mut inputs = Vec::with_capacity(files.len());
    for path in files {
        if path.as_os_str() == "-" {
            inputs.push(Input::Stdin);
            continue;
        }
        let cannot = |reason: String| format!("cannot read {}: {reason}", path.display());
        let meta = std::fs::metadata(path).map_err(|e| cannot(io_reason(&e)))?;
        if meta.is_dir() {
            return Err(cannot("Is a directory".to_string()));
        }
        // A regular file is opened and closed again to check that it may be read. A pipe
        // is not: opening one for a moment would let its writer go on, and closing it would
        // make that writer fail; it is opened in its turn only.
        if meta.is_file() {
            open(path)?;
        }
        inputs.push(Input::File(path.clone()));
    }
    Ok(inputs)
}

/// Opens a file for reading; the message names it and says why not.
fn open(path: &Path) -> Result<File, String> {
    let cannot = |reason: String| format!("cannot read {}: {reason}", path.display());
    let file = File::open(path).map_err(|e| cannot(io_reason(&e)))?;
    // Opening a directory succeeds; reading it would fail only later.
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(cannot("Is a directory".to_string()));
    }
    Ok(file)
}

/// The OS message without Rust's " (os error N)" suffix.
fn io_reason(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// The message of a puzzle that could not be read.
fn parse_message(e: &ParseError) -> String {
    match e {
        ParseError::AmbiguousAlphabet => format!("{e} (--alphabet 1 or --alphabet 0)"),
        e => e.to_string(),
    }
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
                debug_assert_eq!(bezzel_sudoku::check::is_valid_solution(grid, s), Ok(()));
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
    let mut answers = Answerer {
        cli,
        pool,
        serial: Solvers::default(),
        sum: Summary::default(),
        out: BufWriter::with_capacity(1 << 16, io::stdout().lock()),
    };
    let start = Instant::now();
    // A read error part way stops the run there: what was read before it is answered, the
    // summary still comes, and the status is 2.
    let mut unreadable = false;
    let options = cli.read_options();
    'inputs: for input in inputs {
        let name = input.name();
        // Each file is opened only now and closed when its reader is dropped, so any number
        // of files can be read with few descriptors.
        let (reader, interactive): (Box<dyn BufRead>, bool) = match &input {
            Input::Stdin => (Box::new(io::stdin().lock()), io::stdin().is_terminal()),
            Input::File(path) => match open(path) {
                Ok(file) => (Box::new(BufReader::with_capacity(1 << 16, file)), false),
                Err(message) => {
                    eprintln!("sudoku: {message}");
                    unreadable = true;
                    break 'inputs;
                }
            },
        };
        // Stdin from a terminal: someone typing puzzles gets each answer at once. Files keep
        // full chunks (and so every thread busy) wherever stdin is.
        let chunk_size = if interactive { 1 } else { CHUNK };
        let mut reader = PuzzleReader::with_options(reader, options);
        let file = named.then_some(name.as_str());
        loop {
            let mut chunk = Vec::with_capacity(chunk_size);
            let mut failed = None;
            while chunk.len() < chunk_size {
                match reader.next() {
                    Some(Ok(puzzle)) => chunk.push(puzzle),
                    Some(Err(e)) => {
                        failed = Some(e);
                        break;
                    }
                    None => break,
                }
            }
            answers.chunk(&chunk, file)?;
            if let Some(e) = failed {
                let reason = io_reason(&e.error);
                eprintln!("sudoku: cannot read {name} at line {}: {reason}", e.line);
                unreadable = true;
                break 'inputs;
            }
            if chunk.len() < chunk_size {
                break;
            }
        }
    }
    let Answerer { sum, mut out, .. } = answers;
    out.flush()?;
    if !cli.quiet {
        eprintln!(
            "{}",
            summary_line(&sum, start.elapsed().as_secs_f64(), cli.stats)
        );
    }
    Ok(if sum.errors > 0 || unreadable { 2 } else { 0 })
}

/// What answering needs from one chunk to the next.
struct Answerer<'a, W: Write> {
    cli: &'a Cli,
    pool: Option<rayon::ThreadPool>,
    /// The solvers of the single-threaded run, kept across chunks.
    serial: Solvers,
    sum: Summary,
    out: W,
}

impl<W: Write> Answerer<'_, W> {
    /// Solves a chunk of puzzles (on the pool, when there is one) and writes their answers in
    /// order; `file` names the input in messages when there are several.
    fn chunk(&mut self, chunk: &[Puzzle], file: Option<&str>) -> io::Result<()> {
        let cli = self.cli;
        let mode = cli.mode();
        let (consistency, search) = (cli.consistency, cli.search());
        let solve = |solvers: &mut Solvers, p: &Puzzle| match &p.grid {
            Ok(grid) => answer(solvers, grid, mode, consistency, search),
            Err(e) => Answer::Error(parse_message(e)),
        };
        let answers: Vec<Answer> = match &self.pool {
            None => chunk.iter().map(|p| solve(&mut self.serial, p)).collect(),
            Some(pool) => {
                pool.install(|| chunk.par_iter().map_init(Solvers::default, solve).collect())
            }
        };
        for (p, answer) in chunk.iter().zip(&answers) {
            let where_ = match file {
                Some(name) => format!("{name}: line {}", p.line),
                None => format!("line {}", p.line),
            };
            self.sum.puzzles += 1;
            match answer {
                Answer::Error(e) => {
                    self.sum.errors += 1;
                    eprintln!("sudoku: {where_}: {e}");
                }
                Answer::Solved(o) => tally(&mut self.sum, o),
            }
            let out = &mut self.out;
            if cli.json {
                write_json(out, file, p, answer)?;
            } else if cli.pretty {
                write_pretty(out, &where_, mode, p.alphabet, answer)?;
            } else {
                writeln!(out, "{}", plain(&where_, mode, p.alphabet, answer))?;
            }
        }
        self.out.flush()
    }
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
fn plain(where_: &str, mode: Mode, alphabet: Alphabet, answer: &Answer) -> String {
    let o = match answer {
        Answer::Error(e) => return format!("error: {where_}: {e}"),
        Answer::Solved(o) => o,
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

fn write_pretty(
    out: &mut impl Write,
    where_: &str,
    mode: Mode,
    alphabet: Alphabet,
    answer: &Answer,
) -> io::Result<()> {
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
        write!(out, "{}", s.to_pretty_in(alphabet))?;
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
    let puzzle = match &p.grid {
        Ok(g) => g.to_line_in(p.alphabet),
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
            line.solution = o.solution.as_ref().map(|s| s.to_line_in(p.alphabet));
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
