//! A queens count as the program runs it: the library's resumable parallel count
//! ([`bezzel_queens::counting`]) with a progress bar while a person watches, stopped by
//! Ctrl-C or the time limit ([`Stop`]), on the ranks of an MPI job with `--mpi`, and every
//! way it can end turned into a [`Failure`] that says how far it got and what to do next.

use crate::{Failure, Progress, Stop};
use bezzel_core::parallel::ParallelError;
use bezzel_queens::counting::{self, CountError, Engine};
use bezzel_runner::{Cluster, RunError, RunReport};
use std::path::Path;
use std::sync::OnceLock;

/// How a count runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Run<'a> {
    /// Worker threads (`--threads`); `None` uses every core.
    pub threads: Option<usize>,
    /// The checkpoint file (`--checkpoint`): finished subproblems are recorded there, and a
    /// rerun resumes.
    pub checkpoint: Option<&'a Path>,
    /// No progress bar (`--quiet`, or output that a bar would get in the way of).
    pub quiet: bool,
}

/// Counts `n` queens with `engine`, watching `stop`, on the ranks of `cluster` when given
/// (see [`counting::count`]): the complete report, or the failure of a count cut short
/// (`... of ... subproblems done, ... solutions so far`, with how to resume) or refused.
pub fn count(
    n: usize,
    engine: Engine,
    run: &Run<'_>,
    stop: &Stop,
    cluster: Option<&dyn Cluster>,
) -> Result<RunReport<2>, Failure> {
    let options = counting::Options {
        threads: run.threads,
        checkpoint: run.checkpoint,
        cancel: Some(stop.flag()),
        cluster,
    };
    // The bar is made when the runner says how many subproblems there are.
    let bar = OnceLock::new();
    let report = counting::count(n, engine, &options, |done, total| {
        bar.get_or_init(|| Progress::new(Some(total as u64), "subproblems", run.quiet))
            .set_position(done as u64);
    });
    if let Some(bar) = bar.get() {
        bar.finish();
    }
    let report = report.map_err(|e| failure(e, run.checkpoint, stop))?;
    if !report.is_complete() {
        let resume = if run.checkpoint.is_some() {
            "run the same command again to resume"
        } else {
            "add --checkpoint FILE to make a run resumable"
        };
        return Err(stop.failure(&format!(
            "{} of {} subproblems done, {} solutions so far; {resume}",
            report.done, report.total, report.counts[0]
        )));
    }
    Ok(report)
}

/// The failure of a count that went wrong: an error in a subproblem names it and the
/// checkpoint (a rerun would meet it again, so it is no interruption).
fn failure(e: RunError<CountError>, checkpoint: Option<&Path>, stop: &Stop) -> Failure {
    if let RunError::Split(CountError::Parallel(ParallelError::Cancelled)) = e {
        return stop.failure("stopped while splitting the work, before counting");
    }
    let checkpoint = checkpoint.map(|p| p.display().to_string());
    Failure::input(match (e, checkpoint) {
        (RunError::Solve { index, error }, Some(path)) => {
            format!("cannot solve subproblem {index} of checkpoint {path}: {error}")
        }
        (RunError::Solve { index, error }, None) => {
            format!("cannot solve subproblem {index}: {error}")
        }
        (RunError::Split(CountError::UnusableSplit(e)), Some(path)) => format!(
            "checkpoint {path} has a split this run cannot use: {e}; remove it to start over"
        ),
        (e, _) => e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status;

    #[test]
    fn counts_match_the_published_ones() {
        // OEIS A000170: solutions of n queens, and A002562, the unique ones.
        let run = Run {
            threads: Some(2),
            quiet: true,
            ..Run::default()
        };
        for (n, total, unique) in [(6, 4, 1), (8, 92, 12), (10, 724, 92)] {
            let report = count(n, Engine::Symmetry, &run, &Stop::manual(), None).expect("count");
            assert_eq!(report.counts, [total, unique], "n = {n}");
            let report = count(n, Engine::Bitmask, &run, &Stop::manual(), None).expect("count");
            assert_eq!(report.counts[0], total, "n = {n}");
        }
    }

    #[test]
    fn a_raised_stop_is_an_interruption_that_says_how_to_resume() {
        let stop = Stop::manual();
        stop.raise();
        let run = Run {
            threads: Some(1),
            quiet: true,
            ..Run::default()
        };
        let f = count(12, Engine::Symmetry, &run, &stop, None).expect_err("stopped");
        assert_eq!(f.status, status::INTERRUPTED);
        assert!(f.message.starts_with("interrupted: "), "{}", f.message);
        assert!(f.message.contains("add --checkpoint FILE"), "{}", f.message);
    }

    #[test]
    fn a_board_too_large_is_bad_input() {
        let f = count(40, Engine::Symmetry, &Run::default(), &Stop::manual(), None)
            .expect_err("refused");
        assert_eq!(f.status, status::BAD_INPUT);
        assert!(f.message.contains("too large"), "{}", f.message);
    }
}
