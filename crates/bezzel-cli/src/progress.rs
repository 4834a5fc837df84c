//! A progress bar for long work, shown only to a person watching.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// A progress bar on stderr, or nothing: it shows only when stderr is a terminal and the user
/// did not ask for `--quiet`, so pipes, files and tests see no trace of it.
#[derive(Debug)]
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// A bar counting `total` pieces of work named `unit` (e.g. "subproblems"); with `None`,
    /// a spinner with a running count, for work whose size is not known (a stream of puzzles).
    pub fn new(total: Option<u64>, unit: &str, quiet: bool) -> Progress {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let template = match total {
            Some(_) => format!(
                "{{spinner}} [{{elapsed_precise}}] {{bar:40}} {{pos}}/{{len}} {unit}, eta {{eta}}"
            ),
            None => format!("{{spinner}} [{{elapsed_precise}}] {{human_pos}} {unit}"),
        };
        let bar = match total {
            Some(len) => ProgressBar::new(len),
            None => ProgressBar::new_spinner(),
        };
        bar.set_style(
            ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Progress(Some(bar))
    }

    /// A progress bar that never shows.
    pub fn hidden() -> Progress {
        Progress(None)
    }

    /// Whether the bar shows.
    pub fn is_shown(&self) -> bool {
        self.0.is_some()
    }

    /// Sets how much is done.
    pub fn set_position(&self, done: u64) {
        if let Some(bar) = &self.0 {
            bar.set_position(done);
        }
    }

    /// Adds `done` to what is done.
    pub fn inc(&self, done: u64) {
        if let Some(bar) = &self.0 {
            bar.inc(done);
        }
    }

    /// Runs `f` with the bar hidden, so that what `f` writes to the terminal (answers on
    /// stdout, a message on stderr) is not mixed with the bar's line.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.0 {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Removes the bar from the terminal, so that a summary is printed on a clean line.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
