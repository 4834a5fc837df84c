//! The sudoku command: solve Sudoku puzzles of any box size (4x4, 9x9, 16x16, 25x25) on the
//! generic engine, one answer per puzzle. The work is the library's
//! (`bezzel_sudoku::reader` reads, `bezzel_sudoku::batch` answers and formats); this program
//! parses the options, feeds inputs through and prints.
//!
//! ```text
//! cargo run --release --example sudoku -- tests/data/top1465_sample.txt  # one answer per line
//! cargo run --release --example sudoku -- --count --limit 100 tests/data/sudoku17_sample.txt
//! cargo run --release --example sudoku -- --format board --grid grid.txt  # a grid-form puzzle
//! cargo run --release --example sudoku -- --format svg examples/data/hex16.txt > hex16.svg
//! cargo run --release --example sudoku -- --tree tree.html examples/data/hex16.txt  # the search
//! echo 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 \
//!     | cargo run --release --example sudoku -- --format json
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
//! spaces and the separators `|`, `-`, `+` ignored, so `--format board` output reads back) when
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
//! **Output.** Every puzzle gets exactly one answer on stdout, in input order. `--format text`
//! (the default) gives one line: the solution in line form, `no solution`, `multiple
//! solutions`, or `error: line L: what is wrong` (with the file name when there are several
//! inputs). By default each puzzle is solved and proven unique (solutions counted up to 2);
//! `--first` prints the first solution without that proof; `--count` prints the number of
//! solutions instead, up to `--limit` (default 2), as `K+` when the limit stopped the count.
//! `--format board` prints a `# line L: status` header and the grid with box separators;
//! `--format json` one JSON object per puzzle: `line`, `puzzle`, `status` (`unique`,
//! `multiple`, `no_solution`, `solved` with `--first`, `unknown`, or `error`), then `solution`
//! (the first found), `count`, `exact` (false when the limit stopped the count), `nodes`,
//! `failures`, `propagations` and `time_ms`, or `error`; and `file` when there are several
//! inputs. `--format svg` draws every answer in one SVG picture, written once all are in:
//! each puzzle under the header of `--format board`, givens in bold on grey, the cells the
//! solution filled in blue. `--tree FILE` (for an input of one puzzle; more than one is
//! refused before anything is solved) also writes the puzzle's search tree as an HTML page
//! (`bezzel_sudoku::tree`): the puzzle is answered on this thread with a recorder watching,
//! and the page is written even when Ctrl-C or the time limit cut the search short (it then
//! shows how far it went). A summary goes to stderr (puzzles, solved, unique, errors, time, puzzles per
//! second, nodes; with `--stats` also failures, propagations, the deepest search and the
//! search-only time), and each bad line is repeated there. Puzzles are solved on all cores
//! (`--threads N` to choose), and answers still come in input order. On a terminal, a spinner
//! on stderr counts the puzzles answered (not with `--quiet`).
//!
//! **Stopping.** Ctrl-C, or the end of `--time-limit`, stops the puzzles in flight and reads
//! no more, even while waiting for input. Answers are printed in input order up to the first
//! puzzle whose search had not started; a puzzle whose search was cut short is printed as
//! `unknown` (JSON `"status":"unknown"`), never with a guess. The summary (with `unknown: K`
//! when there were any) follows on stderr after `interrupted:` or `time limit reached:`, and
//! the exit status is 130 or 124. A second Ctrl-C ends the program at once.
//!
//! **Search.** Smallest domain first by default (`--order first-fail`); `--order dom-wdeg`
//! weighs cells by how often their units failed, which matters for big, nearly empty grids at
//! `--consistency value` or `bounds`; `--restarts` (with `--first`) restarts on a Luby
//! schedule, keeping those weights.
//!
//! **Exit status.** 0 when every puzzle was read and had consistent givens, whatever the
//! answers; 2 when any puzzle had an input error (wrong length, illegal character, clashing
//! givens, an unclear alphabet; the other puzzles are still answered), and for a bad option or
//! a file that cannot be opened (then nothing is solved); 124 and 130 as above. A read error
//! part way through an input (a failing disk, say) stops the run there, after answering every
//! puzzle read before it and the summary, with status 2 and a message naming the input and the
//! line. Output that cannot be written (stdout closed, a full disk) is an error too: a
//! one-line message and status 2; a reader that went away (`sudoku big.txt | head`) ends the
//! run quietly with status 141, what a shell reports for a program killed by a broken pipe.

use bezzel_cli::cluster::{self, Mpi, MpiFlag};
use bezzel_cli::input::{Input, check_inputs, io_reason};
use bezzel_cli::options::positive_number;
use bezzel_cli::options::{Format, Order, Quiet, Stats, Threads, TimeLimit, Tree, consistency};
use bezzel_cli::{Failure, Progress, Stop};
use bezzel_core::{Consistency, Restarts, SearchConfig};
use bezzel_sudoku::batch::{
    Answer, Batch, Mode, Settings, Summary, answer_on_cluster, finish_cluster, location,
    serve_cluster,
};
use bezzel_sudoku::grid::{Alphabet, Grid, ParseError};
use bezzel_sudoku::model::Status;
use bezzel_sudoku::reader::{Chunk, Form, Puzzle, ReadOptions, read_in_background};
use bezzel_sudoku::svg::{self, Entry};
use clap::{Parser, ValueEnum};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
#[command(
    name = "sudoku",
    version,
    about = "Solve Sudoku puzzles (4x4 to 25x25): one answer line per puzzle line",
    long_about = "Solve Sudoku puzzles (4x4 to 25x25): one answer line per puzzle line.\n\n\
        Each non-blank line not starting with `#` is a puzzle in line form: N*N cells, \
        1-9 then A-P for 10-25, `.` or `0` for empty. An input whose lines form one grid \
        (N lines of N cells, spaces and | - + ignored), or any input with --grid, is read \
        as a single puzzle in grid form. A 16x16 puzzle may be written 0-F instead of 1-G \
        (see --alphabet).\n\n\
        Each puzzle gets one line: the solution, `no solution`, `multiple solutions` or \
        `error: line L: ...`; a summary goes to stderr. Ctrl-C or --time-limit stops the \
        work: answers so far are printed, a puzzle cut short as `unknown`. Exit status: 0; \
        2 when any input was bad (the other puzzles are still answered); 124 after \
        --time-limit; 130 after Ctrl-C."
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
    #[arg(long, value_enum, ignore_case = true, default_value_t = AlphabetArg::Auto, value_name = "auto|1|0")]
    alphabet: AlphabetArg,
    /// Print the first solution found, without proving that it is the only one.
    #[arg(long, conflicts_with = "count")]
    first: bool,
    /// Print the number of solutions (`K+` when --limit stopped the count).
    #[arg(long)]
    count: bool,
    /// With --count: stop counting at this many solutions.
    #[arg(long, value_name = "N", default_value_t = 2, requires = "count",
          allow_negative_numbers = true, value_parser = positive_number)]
    limit: u64,
    /// How answers are printed: `text`, one line per puzzle; `board`, a `# line L: status`
    /// header and the grid with box separators; `json`, one JSON object per puzzle; `svg`,
    /// one SVG picture of every answer (written at the end).
    #[arg(long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
    /// Which empty cell to branch on next. `dom-wdeg` learns from failures which units are
    /// hard; it finds a first solution of an empty or nearly empty big grid at once where
    /// `first-fail` with the weaker consistency levels can search for minutes.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Order::FirstFail)]
    order: Order,
    /// Propagation strength of the row, column and box constraints.
    #[arg(long, default_value = "domain", value_name = "value|bounds|domain",
          value_parser = consistency)]
    consistency: Consistency,
    /// With --first: restart the search after 100·luby(i) failures in the i-th attempt
    /// (keeping what `dom-wdeg` learnt). Counting and uniqueness proofs never restart.
    #[arg(long, requires = "first")]
    restarts: bool,
    #[command(flatten)]
    threads: Threads,
    #[command(flatten)]
    time_limit: TimeLimit,
    #[command(flatten)]
    stats: Stats,
    #[command(flatten)]
    quiet: Quiet,
    /// `--tree`: one puzzle's search, drawn.
    #[command(flatten)]
    tree: Tree,
    #[command(flatten)]
    mpi: MpiFlag,
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

    fn settings(&self) -> Settings {
        Settings {
            mode: match (self.count, self.first) {
                (true, _) => Mode::Count(self.limit),
                (false, true) => Mode::First,
                (false, false) => Mode::Unique,
            },
            consistency: self.consistency,
            search: SearchConfig {
                var_order: self.order.var_order(),
                restarts: self.restarts.then(Restarts::default),
                ..SearchConfig::default()
            },
        }
    }
}

/// Puzzles of a file solved between two writes of the output: big enough to keep every
/// thread busy (each chunk ends with threads waiting on its last puzzle and one thread writing:
/// 1,024 rather than 256 took two threads on the 17-clue file from 1.84x to 1.90x of one),
/// small enough that answers appear while a long batch runs (and that a batch of any size
/// runs in little memory), and that a stop is noticed soon.
const CHUNK: usize = 1024;

/// Puzzles piped into stdin solved between two writes: a program feeding puzzles as it makes
/// them gets answers after this many, while it keeps the pipe open. Someone typing puzzles at a
/// terminal gets each answer at once.
const STREAM_CHUNK: usize = 256;

fn main() -> ExitCode {
    let cli: Cli = match bezzel_cli::parse_args("sudoku") {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = cli.mpi.start().and_then(|mpi| {
        let result = match &mpi {
            Some(m) if m.rank() > 0 => serve(&cli, m),
            _ => run(&cli, mpi.as_ref()),
        };
        cluster::end("sudoku", mpi, result)
    });
    bezzel_cli::exit("sudoku", result)
}

/// An MPI rank above 0: answers the puzzles rank 0 hands out, round after round, and prints
/// nothing.
fn serve(cli: &Cli, mpi: &Mpi) -> Result<u8, Failure> {
    let (settings, stop) = (cli.settings(), Stop::install(cli.time_limit.time_limit));
    serve_cluster(mpi, cli.threads.count(), &settings, stop.flag()).map_err(Failure::input)?;
    Ok(0)
}

/// Where the answers go, and what has been said so far.
struct Printer<'a> {
    cli: &'a Cli,
    mode: Mode,
    out: BufWriter<io::StdoutLock<'static>>,
    sum: Summary,
    progress: Progress,
    /// With `--format svg`: every answer, drawn as one picture at the end.
    pictures: Vec<Picture>,
}

/// One answer as `--format svg` draws it: the board format's header line, the puzzle, and the
/// solution when there is one to show.
struct Picture {
    caption: String,
    puzzle: Option<Grid>,
    solution: Option<Grid>,
    alphabet: Alphabet,
}

fn run(cli: &Cli, mpi: Option<&Mpi>) -> Result<u8, Failure> {
    // On an MPI job of several ranks, rank 0 hands its chunks out.
    let mpi = mpi.filter(|m| m.size() > 1);
    if cli.tree.tree.is_some() && mpi.is_some() {
        return Err(Failure::input(
            "--tree draws the search of one process: leave out --mpi",
        ));
    }
    let inputs = check_inputs(&cli.files).map_err(Failure::input)?;
    let mut batch = Batch::new(cli.settings(), cli.threads.count())
        .map_err(|e| Failure::input(format!("cannot start threads: {e}")))?;
    let stop = Stop::install(cli.time_limit.time_limit);
    batch.set_cancel_flag(stop.flag().clone());
    // Someone typing puzzles at a terminal sees each answer at once: no spinner for them.
    let typing = inputs.contains(&Input::Stdin) && io::stdin().is_terminal();
    let mut printer = Printer {
        cli,
        mode: batch.settings().mode,
        out: BufWriter::with_capacity(1 << 16, io::stdout().lock()),
        sum: Summary::default(),
        progress: Progress::new(None, "puzzles", cli.quiet.quiet || typing),
        pictures: Vec::new(),
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
        // Files keep full chunks (and so every thread busy) wherever stdin is.
        let chunk = match input {
            Input::Stdin => STREAM_CHUNK,
            Input::File(_) => CHUNK,
        };
        let open = move || {
            input
                .open()
                .map(|(r, typing)| (r, if typing { 1 } else { chunk }))
        };
        let chunks = read_in_background(open, cli.read_options());
        loop {
            let Some(read) = next(&chunks, &stop) else {
                break 'inputs;
            };
            let (chunk, failed, last) = match read {
                Chunk::CannotOpen(message) => {
                    let message = format!("sudoku: {}", bezzel_cli::escape(&message));
                    printer.progress.suspend(|| bezzel_cli::warn(&message));
                    unreadable = true;
                    break 'inputs;
                }
                Chunk::Puzzles {
                    puzzles,
                    failed,
                    last,
                } => (puzzles, failed, last),
            };
            if cli.tree.tree.is_some() {
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
                    Some(mpi) => answer_on_cluster(
                        mpi,
                        cli.threads.count(),
                        batch.settings(),
                        stop.flag(),
                        &chunk,
                    )
                    .map_err(Failure::input)?,
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
                let message = bezzel_cli::escape(&message);
                printer.progress.suspend(|| bezzel_cli::warn(&message));
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
        finish_cluster(mpi, stop.flag()).map_err(Failure::input)?;
    }
    let tree = if cli.tree.tree.is_some() && !stop.is_raised() {
        answer_with_tree(&mut printer, &batch, tree_input, &stop)
    } else {
        Ok(())
    };
    if cli.format == Format::Svg {
        let entries: Vec<Entry<'_>> = printer
            .pictures
            .iter()
            .map(|p| Entry {
                caption: &p.caption,
                puzzle: p.puzzle.as_ref(),
                solution: p.solution.as_ref(),
                alphabet: p.alphabet,
            })
            .collect();
        let picture = svg::sheet(&entries);
        printer
            .out
            .write_all(picture.as_bytes())
            .map_err(write_failure)?;
    }
    printer.out.flush().map_err(write_failure)?;
    printer.progress.finish();
    tree?;
    let summary = printer
        .sum
        .line(start.elapsed().as_secs_f64(), cli.stats.stats);
    if stop.is_raised() {
        return Err(stop.failure(&summary));
    }
    // --stats asks for the summary, which --quiet alone leaves out.
    if !cli.quiet.quiet || cli.stats.stats {
        bezzel_cli::warn(&summary);
    }
    Ok(if printer.sum.errors > 0 || unreadable {
        2
    } else {
        0
    })
}

impl Printer<'_> {
    /// Writes the answers of `puzzles` (the first of `answers`) in order, repeating the bad
    /// lines on stderr, and counts them; `file` names the input when there are several.
    fn print(
        &mut self,
        puzzles: &[Puzzle],
        answers: Vec<Answer>,
        file: Option<&str>,
    ) -> Result<(), Failure> {
        let Printer {
            cli,
            mode,
            out,
            sum,
            progress,
            pictures,
        } = self;
        progress
            .suspend(|| {
                for (p, mut answer) in puzzles.iter().zip(answers) {
                    // The library knows no options; the program names the one that settles it.
                    if let (Err(e @ ParseError::AmbiguousAlphabet), Answer::Error(_)) =
                        (&p.grid, &answer)
                    {
                        answer = Answer::Error(format!("{e} (--alphabet 1 or --alphabet 0)"));
                    }
                    let where_ = location(file.map(bezzel_cli::escape).as_deref(), p.line);
                    if let Answer::Error(e) = &answer {
                        bezzel_cli::warn(&format!("sudoku: {where_}: {e}"));
                    }
                    sum.add(&answer);
                    match cli.format {
                        Format::Text => {
                            writeln!(out, "{}", answer.text(*mode, p.alphabet, &where_))
                        }
                        Format::Board => {
                            write!(out, "{}", answer.board(*mode, p.alphabet, &where_))
                        }
                        Format::Json => {
                            let json = serde_json::to_string(&answer.json(file, p))
                                .map_err(io::Error::other)?;
                            writeln!(out, "{json}")
                        }
                        Format::Svg => {
                            pictures.push(picture(&answer, *mode, p, &where_));
                            Ok(())
                        }
                    }?;
                }
                out.flush()
            })
            .map_err(write_failure)?;
        progress.inc(puzzles.len() as u64);
        Ok(())
    }
}

/// `--tree`: answers the one puzzle with a recorder watching (the search whose answer is
/// printed, so the page and the answer agree, also when Ctrl-C or the time limit cuts it
/// short), and writes the page of what was searched.
fn answer_with_tree(
    printer: &mut Printer<'_>,
    batch: &Batch,
    input: Vec<(Puzzle, Option<String>)>,
    stop: &Stop,
) -> Result<(), Failure> {
    let cli = printer.cli;
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
        cli.tree.limit(),
        Some(stop.flag().clone()),
    );
    let (answer, tree) = match recorded {
        Ok(recorded) => recorded,
        Err(e) => {
            printer.print(one, vec![Answer::Error(e.to_string())], file)?;
            return Err(Failure::input(format!("--tree: {e}")));
        }
    };
    printer.print(one, vec![answer], file)?;
    let title = format!("sudoku, line {}", puzzle.line);
    let options = bezzel_sudoku::tree::page_options(grid, puzzle.alphabet, &title);
    cli.tree
        .write(&tree.to_html(&options))
        .map_err(Failure::input)
}

/// What `--format svg` draws of an answer: the header of `--format board` as its caption,
/// the puzzle (when it could be read) and the solution it shows.
fn picture(answer: &Answer, mode: Mode, puzzle: &Puzzle, location: &str) -> Picture {
    let header = answer.board(mode, puzzle.alphabet, location);
    let caption = header.lines().next().unwrap_or("");
    let solution = match answer {
        Answer::Done(o) if matches!(o.status(), Status::Unique | Status::Solved) => {
            o.solution.clone()
        }
        _ => None,
    };
    Picture {
        caption: caption.trim_start_matches("# ").to_string(),
        puzzle: puzzle.grid.as_ref().ok().cloned(),
        solution,
        alphabet: puzzle.alphabet,
    }
}

/// Output that cannot be written: quiet status 141 when the reader went away, else a message
/// without Rust's "(os error N)" and status 2.
fn write_failure(e: io::Error) -> Failure {
    match e.kind() {
        io::ErrorKind::BrokenPipe => Failure::from(e),
        _ => Failure::input(format!("cannot write output: {}", io_reason(&e))),
    }
}

/// The next chunk, or `None` once the stop flag is up (or the reader is gone): waits for
/// input and watches the flag at the same time.
fn next(chunks: &mpsc::Receiver<Chunk>, stop: &Stop) -> Option<Chunk> {
    loop {
        match chunks.recv_timeout(Duration::from_millis(20)) {
            Ok(read) => return Some(read),
            Err(mpsc::RecvTimeoutError::Timeout) if !stop.is_raised() => continue,
            Err(_) => return None,
        }
    }
}
