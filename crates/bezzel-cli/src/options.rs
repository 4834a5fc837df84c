//! The options both programs take, each with one parser and one meaning.
//!
//! Each is a small [`clap::Args`] group, flattened into the (sub)commands it applies to, so
//! that a command's `--help` lists only the options it uses and an option it does not use is
//! refused by clap ("unexpected argument") rather than silently ignored.

use bezzel_core::{Consistency, VarOrder};
use clap::ValueEnum;
use std::path::PathBuf;
use std::time::Duration;

/// The most worker threads accepted: far more than any machine's cores, and far fewer than
/// would exhaust the system (each thread reserves a stack). More is refused, not clamped.
pub const MAX_THREADS: usize = 1024;

/// `--threads N`.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct Threads {
    /// Worker threads, 1 to 1024 (default: every core).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = thread_count)]
    pub threads: Option<usize>,
}

impl Threads {
    /// The number of threads to start: the one asked for, or every core.
    pub fn count(&self) -> usize {
        self.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

/// `--time-limit DURATION`.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct TimeLimit {
    /// Stop after this long (`90`, `90s`, `1.5m`, `500ms`, `2h`), after a summary of the work
    /// done; exit status 124.
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = duration)]
    pub time_limit: Option<Duration>,
}

/// `--stats`.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct Stats {
    /// Print search statistics (nodes, failures, propagations, time) on stderr.
    ///
    /// Propagations count propagator runs, not domain changes: a propagator that reaches its
    /// own fixpoint runs once a node, so where the model is one such propagator (queens at
    /// domain consistency, whose three all-differents run as one) they equal the nodes.
    #[arg(long)]
    pub stats: bool,
}

/// `--quiet`.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct Quiet {
    /// No progress bar and no summary on stderr (errors are still reported).
    // Given twice (`-q -q`, as scripts and other programs' habits have it) it means the same.
    #[arg(long, short, overrides_with = "quiet")]
    pub quiet: bool,
}

/// The most nodes `--tree` keeps unless `--tree-nodes` says otherwise: a page of this many
/// stays quick to open.
pub const DEFAULT_TREE_NODES: u64 = 200_000;

/// `--tree FILE` and `--tree-nodes N`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Tree {
    /// Also write the search tree to FILE, as one self-contained HTML page to open in a
    /// browser (nothing is fetched): failures, solutions and open subtrees in colours, subtrees
    /// folding, a click on a node shows the decisions down to it and its domains (at most
    /// 32 MiB of domains are kept: past them, nodes are drawn without theirs). A file, never
    /// stdout (which carries the answers): `-` is refused.
    #[arg(long, value_name = "FILE", value_parser = tree_file)]
    pub tree: Option<PathBuf>,
    /// With --tree: keep at most N nodes; the nodes after them are counted, not drawn
    /// [default: 200000].
    #[arg(long, value_name = "N", requires = "tree", allow_negative_numbers = true, value_parser = positive_number)]
    pub tree_nodes: Option<u64>,
}

impl Tree {
    /// The most nodes to keep.
    pub fn limit(&self) -> usize {
        usize::try_from(self.tree_nodes.unwrap_or(DEFAULT_TREE_NODES)).unwrap_or(usize::MAX)
    }

    /// Whether the `--tree` file can be written, found before the search rather than after
    /// it: an existing file is opened for writing (and left as it is), a new one is created
    /// and removed again. A message naming the file when it cannot be written.
    pub fn check_writable(&self) -> Result<(), String> {
        let Some(path) = &self.tree else {
            return Ok(());
        };
        let mut options = std::fs::OpenOptions::new();
        let opened = match std::fs::metadata(path) {
            Ok(_) => options.write(true).open(path).map(drop),
            Err(_) => options
                .write(true)
                .create_new(true)
                .open(path)
                .and_then(|file| {
                    drop(file);
                    std::fs::remove_file(path)
                }),
        };
        opened.map_err(|e| {
            format!(
                "cannot write the tree to {}: {}",
                path.display(),
                crate::io_reason(&e)
            )
        })
    }

    /// Writes `html` to the `--tree` file; a message naming it when that fails.
    pub fn write(&self, html: &str) -> Result<(), String> {
        let Some(path) = &self.tree else {
            return Ok(());
        };
        std::fs::write(path, html).map_err(|e| {
            format!(
                "cannot write the tree to {}: {}",
                path.display(),
                crate::io_reason(&e)
            )
        })
    }
}

/// `--format`: how answers are printed on stdout.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// One line per answer (queens: `NO.1: 0 4 7 5 2 6 1 3`; sudoku: the solution's cells).
    #[default]
    Text,
    /// The board drawn, with a header line per answer.
    Board,
    /// One JSON object per line.
    Json,
    /// One SVG picture on stdout: the boards drawn, with a caption each (with none to draw, a
    /// picture whose one caption says so).
    Svg,
}

/// `--order`: which variable search branches on next, named as [`VarOrder::name`] names it
/// (the one vocabulary of the API, the programs and checkpoints).
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Smallest domain first (Gecode's INT_VAR_SIZE_MIN).
    #[default]
    FirstFail,
    /// In order: row by row (also accepted as `rows`).
    #[value(alias = "rows")]
    InputOrder,
    /// Smallest domain per failure weight (dom/wdeg): learns where the puzzle is hard.
    DomWdeg,
}

impl Order {
    /// The engine's variable order.
    pub fn var_order(self) -> VarOrder {
        match self {
            Order::FirstFail => VarOrder::SmallestDomain,
            Order::InputOrder => VarOrder::InputOrder,
            Order::DomWdeg => VarOrder::DomWDeg,
        }
    }
}

/// `--consistency`, parsed: `value`, `bounds` or `domain`.
pub fn consistency(text: &str) -> Result<Consistency, String> {
    text.parse::<Consistency>().map_err(|e| e.to_string())
}

/// `--threads`: a whole number from 1 to [`MAX_THREADS`].
pub fn thread_count(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(t) if t > MAX_THREADS => Err(format!("must be at most {MAX_THREADS}")),
        Ok(t) => Ok(t),
        Err(_) if is_integer(text.trim()) && !text.trim().starts_with('-') => {
            Err(format!("must be at most {MAX_THREADS}"))
        }
        Err(_) => Err("must be a whole number from 1 to 1024".to_string()),
    }
}

/// A whole number, 0 or more. A value parser rather than `u64` so that `-1` is read as a
/// value, and refused as such, instead of as an unknown option.
pub fn whole_number(text: &str) -> Result<u64, String> {
    let t = text.trim();
    t.parse::<u64>().map_err(|_| match is_integer(t) {
        true if t.starts_with('-') => "must be a whole number, 0 or more".to_string(),
        true => format!("must be at most {}", u64::MAX),
        false => "must be a whole number".to_string(),
    })
}

/// A whole number, 1 or more.
pub fn positive_number(text: &str) -> Result<u64, String> {
    match whole_number(text) {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(k) => Ok(k),
        Err(_) if is_integer(text.trim()) && text.trim().starts_with('-') => {
            Err("must be at least 1".to_string())
        }
        Err(e) => Err(e),
    }
}

/// `--tree`'s file: any path but `-`, which would read as stdout (where the answers go) and
/// is refused rather than written as a file of that name.
pub fn tree_file(text: &str) -> Result<PathBuf, String> {
    if text == "-" {
        return Err(
            "the page is written to a file, not to stdout: name one (./- for a file named -)"
                .to_string(),
        );
    }
    Ok(PathBuf::from(text))
}

/// Whether `text` is an optionally signed run of decimal digits.
pub fn is_integer(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A duration: a number of seconds, or a number followed by `ms`, `s`, `m` or `h`.
pub fn duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let t = t.strip_prefix('+').unwrap_or(t);
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let seconds_per_unit = match unit.trim() {
        "" | "s" => 1.0,
        "ms" => 0.001,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => {
            return Err(format!(
                "`{text}` is not a duration: write a number of seconds, or one with ms, s, m or h"
            ));
        }
    };
    let value: f64 = number.parse().map_err(|_| {
        format!("`{text}` is not a duration: write a number of seconds, or one with ms, s, m or h")
    })?;
    let seconds = value * seconds_per_unit;
    if seconds <= 0.0 {
        return Err("must be longer than 0".to_string());
    }
    // A year is far beyond any run; beyond that, Duration arithmetic could overflow.
    if !seconds.is_finite() || seconds > 365.0 * 24.0 * 3600.0 {
        return Err(format!("`{text}` is longer than a year"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// A board or puzzle size `n` from the command line: a whole number of at least 1, with a
/// message that quotes what was given (cut to one line) when it is not one. How large a size
/// each engine takes is the engine's to say; this refuses only what is no size at all.
pub fn board_size(text: &str) -> Result<usize, String> {
    let trimmed = text.trim();
    if !is_integer(trimmed) {
        return Err(format!(
            "n must be a positive whole number, got `{}`",
            shorten(text)
        ));
    }
    if trimmed.starts_with('-') || trimmed.trim_start_matches(['+', '0']).is_empty() {
        return Err(format!("n must be at least 1, got {}", shorten(trimmed)));
    }
    // The engines say how large a board each takes; this is only the largest number.
    trimmed.parse::<usize>().map_err(|_| {
        format!(
            "n = {} is too large (at most {})",
            shorten(trimmed),
            usize::MAX
        )
    })
}

/// `text`, cut to a length that fits in a one-line message.
pub fn shorten(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn order_names_are_the_engines_variable_order_names() {
        for order in Order::value_variants() {
            let name = order.to_possible_value().expect("every order is listed");
            assert_eq!(name.get_name(), order.var_order().name());
        }
        assert_eq!(Order::from_str("rows", true), Ok(Order::InputOrder));
    }

    use super::*;

    #[test]
    fn durations_read_as_people_write_them() {
        assert_eq!(duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(duration("1.5m"), Ok(Duration::from_secs(90)));
        assert_eq!(duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(duration("2h"), Ok(Duration::from_secs(7200)));
        assert!(duration("-1").is_err());
        assert!(duration("ten").is_err());
        assert!(duration("5 days").is_err());
        assert!(duration("1e300").is_err());
        assert!(duration("").is_err());
        assert!(duration("0").is_err());
        assert_eq!(duration("+2s"), Ok(Duration::from_secs(2)));
    }

    #[test]
    fn numbers_say_what_is_wrong() {
        assert_eq!(whole_number("7"), Ok(7));
        assert!(whole_number("-1").unwrap_err().contains("0 or more"));
        assert!(
            whole_number("99999999999999999999")
                .unwrap_err()
                .contains("at most")
        );
        assert!(positive_number("0").unwrap_err().contains("at least 1"));
        assert!(positive_number("-1").unwrap_err().contains("at least 1"));
        assert!(whole_number("x").unwrap_err().contains("whole number"));
    }

    #[test]
    fn board_sizes_say_what_is_wrong() {
        assert_eq!(board_size(" 8 "), Ok(8));
        assert_eq!(board_size("+8"), Ok(8));
        assert!(board_size("0").unwrap_err().contains("at least 1"));
        assert!(board_size("-3").unwrap_err().contains("at least 1"));
        assert!(board_size("eight").unwrap_err().contains("whole number"));
        assert!(
            board_size(&"9".repeat(60))
                .unwrap_err()
                .contains("too large")
        );
        assert!(board_size(&"x".repeat(60)).unwrap_err().contains("..."));
    }

    #[test]
    fn quiet_may_be_given_more_than_once() {
        use clap::Parser;
        #[derive(Parser, Debug)]
        struct Program {
            #[command(flatten)]
            quiet: Quiet,
        }
        for args in [
            &["p"][..],
            &["p", "-q"],
            &["p", "-q", "-q"],
            &["p", "--quiet", "-q"],
        ] {
            let parsed = Program::try_parse_from(args).expect("accepted");
            assert_eq!(parsed.quiet.quiet, args.len() > 1, "{args:?}");
        }
        assert!(Program::try_parse_from(["p", "-qq"]).is_ok_and(|p| p.quiet.quiet));
    }

    #[test]
    fn thread_counts_are_bounded() {
        assert_eq!(thread_count("4"), Ok(4));
        assert!(thread_count("0").is_err());
        assert!(thread_count("1025").unwrap_err().contains("1024"));
        assert!(
            thread_count("99999999999999999999999")
                .unwrap_err()
                .contains("1024")
        );
        assert!(thread_count("-3").is_err());
        assert!(thread_count("x").is_err());
    }
}
