//! The sudoku command: solve Sudoku puzzles of any box size (4x4, 9x9, 16x16, 25x25) on the
//! generic engine, one answer per puzzle. The work is the library's
//! (`bezzel_sudoku::reader` reads, `bezzel_sudoku::batch` answers, `bezzel_sudoku::output`
//! writes, and `bezzel_cli::sudoku` runs them over the inputs with the stop, the spinner and
//! the summary); this program parses the options and hands them over.
//!
//! ```text
//! cargo run --release --bin sudoku -- tests/data/top1465_sample.txt  # one answer per line
//! cargo run --release --bin sudoku -- --count --limit 100 tests/data/sudoku17_sample.txt
//! cargo run --release --bin sudoku -- --format board --grid grid.txt  # a grid-form puzzle
//! cargo run --release --bin sudoku -- --format svg examples/data/hex16.txt > hex16.svg
//! cargo run --release --bin sudoku -- --tree tree.html examples/data/hex16.txt  # the search
//! echo 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 \
//!     | cargo run --release --bin sudoku -- --format json
//! ```
//!
//! **Generate.** `sudoku generate [COUNT]` makes new puzzles (`bezzel_sudoku::generate`),
//! one per line in line form, each with exactly one solution, proven by the solver:
//! `--size 4|9|16|25` (default 9), `--symmetry none|rotational|mirror|diagonal` for the
//! pattern of the givens, `--minimal` for puzzles from which no given (no pair of the
//! symmetry) can be taken away, `--seed N` to make the same puzzles again (by default the
//! clock's, named in the summary), `--solution` to print the solution after each puzzle,
//! `--format json` for one object per puzzle, `--difficulty easy|medium|hard|expert|extreme|beyond`
//! for puzzles of one level as `sudoku rate` grades them, `--threads`, `--time-limit`,
//! `--quiet`.
//!
//! **Rate, hint, explain.** `sudoku rate [FILES]` grades each puzzle by the hardest human
//! technique its logical solution needs (`bezzel_sudoku::logic`: singles, locked candidates,
//! naked and hidden subsets, X-wing, swordfish, jellyfish, XY-wing, XYZ-wing, simple
//! coloring, forcing chains), one line per puzzle: the score on Sudoku Explainer's scale,
//! the level (`easy`, `medium`, `hard`, `expert`, `extreme` for forcing chains, or `beyond`
//! when the techniques get stuck: never a guess) and the technique; a summary with the
//! median score goes to stderr. `sudoku hint` prints each puzzle's next logical step
//! (technique, cells as `r1c1`, the value placed or candidates removed) and `sudoku
//! explain` every step, then `solved` or where it got stuck. `hint --candidates` reads a
//! grid part way through instead, as pencil marks (81 cells, each the digits of its
//! candidates); `hint --format board` prints the grid's pencil marks before the step, in
//! that same format, and `--format svg` draws them with the step's cells and candidates
//! highlighted.
//!
//! ```text
//! cargo run --release --bin sudoku -- generate 10 --symmetry rotational --minimal --seed 1
//! cargo run --release --bin sudoku -- generate 5 --difficulty hard | cargo run --release --bin sudoku -- rate
//! cargo run --release --bin sudoku -- explain tests/data/top1465_sample.txt
//! cargo run --release --bin sudoku -- hint --candidates marks.txt --format svg > hint.svg
//! ```
//!
//! **Input.** Files given as arguments, in order, or stdin when there are none (`-` names stdin
//! too). Every file is checked before anything is solved (that it exists and is no folder; a
//! regular file, that it opens), so a mistyped name costs nothing; each is then opened only when
//! its turn comes and closed after, so any number of files can be given, and a named pipe is
//! opened once, in its turn. An input is answered as it arrives: the puzzles read and waiting
//! are solved together (up to 1,024 at a time), so a file keeps every thread busy in little
//! memory, and a slow pipe or a terminal gets each answer as soon as its line is in. The text accepted is the library's (`bezzel_sudoku::reader`): one puzzle per
//! line in line form, `N * N` cells row by row, `1`-`9` then `A`-`P` for 10-25, `.` or `0` for
//! an empty cell; a `#` starts a comment, to the end of its line; blank lines and lines holding
//! only a comment are skipped; a byte-order mark at the start is skipped; a line longer than
//! 65,536 bytes is refused as soon as it passes that length, and ends the input (`sudoku <
//! /dev/zero` stops at once). An input is instead read as *one* puzzle in grid form (one row per line;
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
//! `unknown` (JSON `"status":"unknown"`), never with a guess, and a count cut short as `K+`,
//! the solutions found so far (JSON `"status":"unknown"` with `count` K and `"exact":false`). The summary (with `unknown: K`
//! when there were any) follows on stderr after `interrupted:` or `time limit reached:`, and
//! the exit status is 130 or 124. A second Ctrl-C ends the program at once.
//!
//! **Search.** 9×9 puzzles go to a hand-written bit-parallel search by default (`--engine
//! kernel`, `bezzel_sudoku::kernel`): candidates as one bitboard per value, naked and hidden
//! singles, a branch on a cell with two candidates; its statistics count its own nodes. Other
//! sizes, and every puzzle with `--engine model` (implied by `--order`, `--consistency`,
//! `--restarts` and `--tree`), go to the constraint model on the generic engine.
//! The model's search is dom/wdeg by default (`--order dom-wdeg`): the empty cell with the smallest
//! domain per failure weight of its units, the weights starting at zero for every puzzle
//! (fewer nodes than smallest-domain-first on every collection measured, and half as many on
//! the hardest; `BENCHMARKS.md`); `--order first-fail` is smallest domain first (Gecode's
//! `INT_VAR_SIZE_MIN`, what the Gecode comparison uses), `--order input-order` (or `rows`) row by row;
//! `--restarts` (with `--first`) restarts on a Luby schedule, keeping the weights.
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

use bezzel_cli::cluster::MpiFlag;
use bezzel_cli::options::positive_number;
use bezzel_cli::options::{Format, Order, Quiet, Stats, Threads, TimeLimit, Tree, consistency};
use bezzel_cli::sudoku::{self, Run};
use bezzel_cli::sudoku_generate::{self, GenerateRun};
use bezzel_cli::sudoku_logic::{self, Ask, HintFormat, HintOptions};
use bezzel_core::{Consistency, Restarts, SearchConfig};
use bezzel_sudoku::batch::{Engine, Mode, Settings};
use bezzel_sudoku::generate::{Options as GenerateOptions, Symmetry};
use bezzel_sudoku::grid::Alphabet;
use bezzel_sudoku::logic::Difficulty;
use bezzel_sudoku::model::DEFAULT_CONSISTENCY;
use bezzel_sudoku::output::Style;
use bezzel_sudoku::reader::{Form, ReadOptions};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

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
        work: answers so far are printed, a puzzle cut short as `unknown` (a count as `K+`). Exit status: 0; \
        2 when any input was bad (the other puzzles are still answered); 124 after \
        --time-limit; 130 after Ctrl-C.\n\n\
        `sudoku generate` makes new puzzles, `sudoku rate` grades puzzles by the human \
        techniques they need, `sudoku hint` gives the next step and `sudoku explain` all of \
        them (`sudoku generate --help`, ...).",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
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
    /// Which search answers the puzzles: `kernel`, 9x9 puzzles by a hand-written
    /// bit-parallel search (singles, then a branch on a cell with two candidates; its own
    /// node counts) and other sizes by the model; `model`, every puzzle by the constraint
    /// model on the generic engine, as --order and --consistency say. Default: `kernel`,
    /// or `model` when --order, --consistency, --restarts or --tree is given.
    #[arg(long, value_enum, ignore_case = true)]
    engine: Option<EngineArg>,
    /// Which empty cell the model branches on next (default `dom-wdeg`). `dom-wdeg` learns
    /// from failures which units are hard: fewer nodes than `first-fail` on every collection
    /// measured, and it finds a first solution of an empty or nearly empty big grid at once
    /// where `first-fail` with the weaker consistency levels can search for minutes.
    #[arg(long, value_enum, ignore_case = true)]
    order: Option<Order>,
    /// Propagation strength of the model's row, column and box constraints (default
    /// `domain`).
    #[arg(long, value_name = "value|bounds|domain", value_parser = consistency)]
    consistency: Option<Consistency>,
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

#[derive(Subcommand, Debug)]
enum Command {
    /// Make new puzzles, one per line, each with exactly one solution (proven by the
    /// solver); the same --seed gives the same puzzles.
    Generate(GenerateCommand),
    /// Grade each puzzle by the hardest human technique its logical solution needs:
    /// `score level technique` (levels easy, medium, hard, expert, extreme; `beyond` when
    /// the techniques here get stuck); a summary with the median on stderr.
    Rate(LogicCommand),
    /// The next logical step of each puzzle: the technique, its cells, and the value placed
    /// or the candidates removed.
    Hint(HintCommand),
    /// Every step of each puzzle's logical solution, then `solved` or where it got stuck.
    Explain(LogicCommand),
}

#[derive(Args, Debug)]
struct LogicCommand {
    /// Puzzle files, read in order; stdin when none is given, or for `-`.
    files: Vec<PathBuf>,
    /// Read each input as one puzzle in grid form (one row per line).
    #[arg(long)]
    grid: bool,
    /// No summary on stderr.
    #[command(flatten)]
    quiet: Quiet,
}

#[derive(Args, Debug)]
struct HintCommand {
    #[command(flatten)]
    logic: LogicCommand,
    /// Read each input as one grid of candidates (pencil marks) of a 9×9 or 4×4 puzzle (larger
    /// sizes are not read as marks): its 81 or 16 cells in row order, each written as the digits of its candidates (one digit: the value
    /// placed; `.5`: open, 5 its only candidate), separated by spaces or line ends; `|`,
    /// `-`, `+` and comments (from a `#` to the end of the line) are ignored, so `--format
    /// board` output of those sizes reads back. Marks that contradict themselves are refused.
    #[arg(long, conflicts_with = "grid")]
    candidates: bool,
    /// `text`: the step in words; `board`: the grid's candidates, then the step; `svg`: one
    /// picture of every grid's candidates with the step's cells and candidates highlighted.
    #[arg(long, value_enum, ignore_case = true, default_value = "text")]
    format: HintFormat,
}

#[derive(Args, Debug)]
struct GenerateCommand {
    /// How many puzzles.
    #[arg(default_value_t = 1, allow_negative_numbers = true, value_parser = positive_number)]
    count: u64,
    /// Cells per side: 4, 9, 16 or 25 (25x25 can be slow).
    #[arg(long, default_value_t = 9, value_parser = grid_side)]
    size: usize,
    /// The pattern of the givens: `none`, `rotational` (a half turn), `mirror` (left to
    /// right) or `diagonal` (across the main diagonal).
    #[arg(long, value_enum, ignore_case = true, default_value_t = SymmetryArg::None)]
    symmetry: SymmetryArg,
    /// Take givens away until none (no pair of the symmetry) can go without a second
    /// solution appearing; slower.
    #[arg(long)]
    minimal: bool,
    /// Only puzzles of this level, as `sudoku rate` grades them: `easy` (singles),
    /// `medium`, `hard`, `expert`, `extreme` (forcing chains) or `beyond` (puzzles the
    /// techniques here do not finish: rare, slow to find).
    /// Puzzles of medium to extreme are found by a walk from a quick puzzle (swapping
    /// givens) and need not be minimal; add --minimal for minimal ones (slower).
    #[arg(long, value_enum, ignore_case = true)]
    difficulty: Option<DifficultyArg>,
    /// The seed (default: from the clock; the summary says which, to make the same again).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Print the solution after each puzzle, on the same line.
    #[arg(long)]
    solution: bool,
    /// `text`: one puzzle per line; `json`: one object per puzzle (`index`, `seed`,
    /// `puzzle`, `givens`, `solution`).
    #[arg(long, value_enum, ignore_case = true, default_value_t = GenerateFormat::Text)]
    format: GenerateFormat,
    #[command(flatten)]
    threads: Threads,
    #[command(flatten)]
    time_limit: TimeLimit,
    #[command(flatten)]
    quiet: Quiet,
}

/// `generate --symmetry`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum SymmetryArg {
    None,
    Rotational,
    Mirror,
    Diagonal,
}

/// `generate --difficulty`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum DifficultyArg {
    Easy,
    Medium,
    Hard,
    Expert,
    Extreme,
    Beyond,
}

/// `generate --format`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum GenerateFormat {
    Text,
    Json,
}

/// A grid's side: 4, 9, 16 or 25.
fn grid_side(text: &str) -> Result<usize, String> {
    match text.trim() {
        "4" => Ok(4),
        "9" => Ok(9),
        "16" => Ok(16),
        "25" => Ok(25),
        _ => Err("must be 4, 9, 16 or 25".to_string()),
    }
}

impl GenerateCommand {
    fn run(&self) -> GenerateRun {
        let seed = self.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        });
        GenerateRun {
            count: self.count,
            options: GenerateOptions {
                box_size: self.size.isqrt(),
                symmetry: match self.symmetry {
                    SymmetryArg::None => Symmetry::None,
                    SymmetryArg::Rotational => Symmetry::Rotational,
                    SymmetryArg::Mirror => Symmetry::Mirror,
                    SymmetryArg::Diagonal => Symmetry::Diagonal,
                },
                minimal: self.minimal,
                seed,
                difficulty: self.difficulty.map(|d| match d {
                    DifficultyArg::Easy => Difficulty::Easy,
                    DifficultyArg::Medium => Difficulty::Medium,
                    DifficultyArg::Hard => Difficulty::Hard,
                    DifficultyArg::Expert => Difficulty::Expert,
                    DifficultyArg::Extreme => Difficulty::Extreme,
                    DifficultyArg::Beyond => Difficulty::Beyond,
                }),
            },
            threads: self.threads.count(),
            json: self.format == GenerateFormat::Json,
            solution: self.solution,
            time_limit: self.time_limit.time_limit,
            quiet: self.quiet.quiet,
        }
    }
}

/// The engine option.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum EngineArg {
    /// 9x9 puzzles by the hand-written kernel, other sizes by the model.
    Kernel,
    /// Every puzzle by the model.
    Model,
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
            engine: match self.engine {
                Some(EngineArg::Kernel) => Engine::Kernel,
                Some(EngineArg::Model) => Engine::Model,
                // Options that only the model reads ask for the model.
                None if self.order.is_some()
                    || self.consistency.is_some()
                    || self.restarts
                    || self.tree.tree.is_some() =>
                {
                    Engine::Model
                }
                None => Engine::Kernel,
            },
            consistency: self.consistency.unwrap_or(DEFAULT_CONSISTENCY),
            search: SearchConfig {
                var_order: self.order.unwrap_or(Order::DomWdeg).var_order(),
                restarts: self.restarts.then(Restarts::default),
                ..SearchConfig::default()
            },
        }
    }
}

impl Cli {
    /// The run the options ask for.
    fn run(&self) -> Run<'_> {
        Run {
            files: &self.files,
            read: self.read_options(),
            settings: self.settings(),
            threads: self.threads.count(),
            style: match self.format {
                Format::Text => Style::Text,
                Format::Board => Style::Board,
                Format::Json => Style::Json,
                Format::Svg => Style::Svg,
            },
            tree: &self.tree,
            time_limit: self.time_limit.time_limit,
            quiet: self.quiet.quiet,
            stats: self.stats.stats,
        }
    }
}

fn main() -> ExitCode {
    let cli: Cli = match bezzel_cli::parse_args("sudoku") {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let logic = |ask, c: &LogicCommand, hint: HintOptions| {
        let read = ReadOptions {
            form: if c.grid { Form::Grid } else { Form::Auto },
            alphabet: None,
        };
        bezzel_cli::exit(
            "sudoku",
            sudoku_logic::run(ask, &c.files, read, hint, c.quiet.quiet),
        )
    };
    match &cli.command {
        Some(Command::Generate(generate)) => {
            return bezzel_cli::exit("sudoku", sudoku_generate::generate(&generate.run()));
        }
        Some(Command::Rate(c)) => return logic(Ask::Rate, c, HintOptions::default()),
        Some(Command::Hint(h)) => {
            let hint = HintOptions {
                candidates: h.candidates,
                format: h.format,
            };
            return logic(Ask::Hint, &h.logic, hint);
        }
        Some(Command::Explain(c)) => return logic(Ask::Explain, c, HintOptions::default()),
        None => {}
    }
    let run = cli.run();
    let result = cli.mpi.run("sudoku", |mpi| match mpi {
        Some(m) if m.rank() > 0 => sudoku::serve(&run, m),
        _ => sudoku::run(&run, mpi),
    });
    bezzel_cli::exit("sudoku", result)
}
