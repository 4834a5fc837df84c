//! Failures, exit statuses, and clap's errors as one line.

use clap::{CommandFactory, FromArgMatches};
use std::io::{self, Write};
use std::process::ExitCode;

/// The exit statuses of both programs.
pub mod status {
    /// The answer is negative: `check` found attacks, `first` or `construct` found no solution.
    pub const NEGATIVE: u8 = 1;
    /// Bad input (options, files, puzzles) or output that cannot be written.
    pub const BAD_INPUT: u8 = 2;
    /// `--time-limit` stopped the work (the status `timeout(1)` uses), after a summary.
    pub const TIME_LIMIT: u8 = 124;
    /// Ctrl-C stopped the work, after a summary.
    pub const INTERRUPTED: u8 = 130;
    /// The reader of stdout went away (`queens 8 | head -1`): what a shell reports for a
    /// program killed by SIGPIPE, which is how the classic programs end there. No message.
    pub const BROKEN_PIPE: u8 = 141;
}

/// Why a program stops early: a one-line message for stderr, and the exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The message, without the program's name; empty for none.
    pub message: String,
    /// The exit status.
    pub status: u8,
}

impl Failure {
    /// Bad input: exit status [`status::BAD_INPUT`].
    pub fn input(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            status: status::BAD_INPUT,
        }
    }
}

impl From<io::Error> for Failure {
    /// A failed write to stdout: quiet status 141 when the reader went away, else status 2.
    fn from(e: io::Error) -> Failure {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return Failure {
                message: String::new(),
                status: status::BROKEN_PIPE,
            };
        }
        Failure::input(format!("cannot write output: {}", io_reason(&e)))
    }
}

/// The exit code for a program's result, printing a failure's message as
/// `program: message` on stderr, escaped so that quoted input cannot send terminal escapes.
pub fn exit(program: &str, result: Result<u8, Failure>) -> ExitCode {
    match result {
        Ok(status) => ExitCode::from(status),
        Err(f) => {
            if !f.message.is_empty() {
                warn(&format!("{program}: {}", escape(&f.message)));
            }
            ExitCode::from(f.status)
        }
    }
}

/// `text` with control characters, and the invisible ones that reorder or hide text,
/// written as Rust escapes (`\u{1b}`), so that quoting input in a message is harmless.
pub fn escape(text: &str) -> String {
    bezzel_queens::format::escape(text)
}

/// Parses the command line into `C`. Help and version are printed and end the program
/// (`Err(code)`); any other clap error ends it with one line, `program: message (try
/// --help)`, and status 2.
pub fn parse_args<C: CommandFactory + FromArgMatches>(program: &str) -> Result<C, ExitCode> {
    let parsed = C::command()
        .try_get_matches()
        .and_then(|matches| C::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let printed = e.print().and_then(|()| io::stdout().flush());
                return Err(exit(program, printed.map(|()| 0).map_err(Failure::from)));
            }
            let message = format!("{} (try --help)", clap_message(&e));
            return Err(exit(program, Err(Failure::input(message))));
        }
    };
    Ok(cli)
}

/// Clap's message in one line, instead of its multi-line usage block: the first paragraph,
/// whose continuation lines (the names of missing arguments, the valid values, "a similar
/// argument exists") are joined to the first.
pub fn clap_message(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let context = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.as_str()),
        _ => None,
    };
    // Clap drops escape sequences in what it quotes, leaving `''` for `$'\x1b[31m'`: say
    // what was given, escaped.
    let hidden = |s: &str| escape(s) != s;
    if let Some(arg) = context(ContextKind::InvalidArg) {
        if e.kind() == ErrorKind::UnknownArgument && hidden(arg) {
            return format!("unexpected argument '{}' found", escape(arg));
        }
        if let Some(value) = context(ContextKind::InvalidValue)
            && hidden(value)
        {
            return format!("invalid value '{}' for '{arg}'", escape(value));
        }
    }
    let rendered = e.to_string();
    // Everything before the usage block: the error and its tips, without blank lines.
    let lines: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more"))
        // "to pass '--limit' as a value, use '-- --limit'" misleads where the option exists
        // but the command does not take it, which is the common case here.
        .filter(|l| !l.is_empty() && !l.starts_with("tip: to pass"))
        .collect();
    lines.join(" ").trim_start_matches("error: ").to_string()
}

/// Writes a line on stderr, ignoring a failure to write it: a message nobody can read (stderr
/// closed, full or gone) must not turn into a panic, which is what `eprintln!` does there.
pub fn warn(line: &str) {
    use std::io::Write;
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// An I/O error's message without Rust's " (os error N)" suffix.
pub fn io_reason(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}
