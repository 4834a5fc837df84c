//! A FlatZinc run: search a translated program, print its solutions and the final line the
//! FlatZinc specification asks for, and statistics.

use crate::cli::{LNS_FIRST_NODES, Options};
use crate::{FznError, Goal, Program, parse_with};
use bezzel_core::Lns;
use bezzel_core::parallel::{ParallelError, ParallelSearch};
use bezzel_core::prelude::*;
use bezzel_core::search::{Optimum, Sense};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// Reads the FlatZinc file named by `options` (standard input when none, or `-`), then
/// [`run_text_cancellable`].
pub fn run(
    options: &Options,
    cancel: Option<&Arc<AtomicBool>>,
    out: &mut impl Write,
) -> Result<(), FznError> {
    let options = &Options {
        started: Some(options.started.unwrap_or_else(Instant::now)),
        ..options.clone()
    };
    let io = |action: String| {
        move |e: std::io::Error| FznError::Io {
            action,
            reason: bezzel_cli::io_reason(&e),
        }
    };
    let text = match &options.file {
        Some(path) if path.as_os_str() != "-" => {
            std::fs::read_to_string(path).map_err(io(format!("read {}", path.display())))?
        }
        _ => std::io::read_to_string(std::io::stdin()).map_err(io("read standard input".into()))?,
    };
    run_text_cancellable(&text, options, cancel, out)
}

/// [`run_text_cancellable`] without a cancel flag.
pub fn run_text(text: &str, options: &Options, out: &mut impl Write) -> Result<(), FznError> {
    run_text_cancellable(text, options, None, out)
}

/// Translates FlatZinc text, searches it and writes the answers as the FlatZinc
/// specification asks: each solution followed by `----------`, then `==========` when the
/// search was complete, or `=====UNSATISFIABLE=====` / `=====UNKNOWN=====` without a solution.
/// Raising `cancel` stops the search as the time limit does (what was found is printed, the
/// answer not claimed complete).
pub fn run_text_cancellable(
    text: &str,
    options: &Options,
    cancel: Option<&Arc<AtomicBool>>,
    out: &mut impl Write,
) -> Result<(), FznError> {
    let start = options.started.unwrap_or_else(Instant::now);
    let Program {
        model,
        outputs,
        goal,
        groups,
        restart_scale,
        assumptions,
        implied_disjunctives: _,
    } = parse_with(text, !options.no_implied_disjunctives)?;
    let printer = Program {
        model: Model::new(),
        outputs,
        goal,
        groups: Vec::new(),
        restart_scale: None,
        assumptions: Vec::new(),
        implied_disjunctives: 0,
    };
    // An optimisation without search annotations gets the search that finds good solutions
    // (dom/wdeg, last conflict, the incumbent's values first, restarts); an annotated one is
    // searched as its annotations say.
    let optimising = matches!(goal, Goal::Minimize(_) | Goal::Maximize(_));
    let mut config = if optimising && (options.free || groups.is_empty()) {
        SearchConfig::for_optimization()
    } else {
        SearchConfig::default()
    };
    config.limits.time = time_left(options, start);
    config.limits.nodes = options.node_limit;
    config.learning = options.learning;
    let io = |e: std::io::Error| FznError::Io {
        action: "write the output".into(),
        reason: bezzel_cli::io_reason(&e),
    };
    // -i asks an optimisation for its improving solutions, as -a does.
    let improving = options.all || options.intermediate;
    let mut solver = Solver::with_config(model, config);
    if let Some(cancel) = cancel {
        solver.set_cancel_flag(Arc::clone(cancel));
    }
    let annotated = !options.free && !groups.is_empty();
    if annotated {
        solver = solver.branch_groups(&groups)?;
    }
    let print = |out: &mut dyn Write, s: &Solution| -> Result<(), FznError> {
        // One write per solution, so that a watchdog's line never splits one.
        let text = format!("{}----------\n", printer.format(s));
        out.write_all(text.as_bytes()).map_err(io)?;
        out.flush().map_err(io)
    };
    let (found, complete, objective, stats) = match goal {
        Goal::Satisfy
            if !options.all && options.solutions.unwrap_or(1) == 1 && restart_scale.is_some() =>
        {
            // One solution with restarts (`restart_luby`): the engine's `first`.
            solver.config_mut().restarts = restart_scale.map(|scale| Restarts { scale });
            let first = solver.first();
            if let Some(s) = &first {
                print(out, s)?;
            }
            let stats = solver.stats().clone();
            let complete = first.is_none() && stats.is_complete();
            (u64::from(first.is_some()), complete, None, stats)
        }
        Goal::Satisfy => {
            let limit = if options.all {
                options.solutions
            } else {
                Some(options.solutions.unwrap_or(1))
            };
            solver.config_mut().limits.solutions = limit;
            let mut found = 0;
            let mut run = solver.solutions();
            for s in run.by_ref() {
                print(out, &s)?;
                found += 1;
            }
            let stats = run.stats().clone();
            (found, stats.is_complete(), None, stats)
        }
        Goal::Minimize(v) | Goal::Maximize(v)
            if options.threads > 1
                && options.solutions.is_none()
                && options.node_limit.is_none()
                && !options.learning =>
        {
            let sense = if matches!(goal, Goal::Minimize(_)) {
                Sense::Minimize
            } else {
                Sense::Maximize
            };
            let groups = if options.free { Vec::new() } else { groups };
            let (found, optimum) =
                optimize_in_parallel(text, options, cancel, &groups, v, sense, |s| {
                    if improving {
                        print(out, s)?;
                    }
                    Ok(())
                })?;
            match optimum {
                Some(optimum) => {
                    if !improving && let Some(best) = &optimum.solution {
                        print(out, best)?;
                    }
                    let complete = optimum.optimal || optimum.infeasible;
                    (found, complete, optimum.value, optimum.stats)
                }
                None => (0, false, None, Statistics::default()),
            }
        }
        Goal::Minimize(v) | Goal::Maximize(v) => {
            // -n counts improving solutions when -a prints them; otherwise only the best is
            // printed, at the end.
            if improving {
                solver.config_mut().limits.solutions = options.solutions;
            }
            // Branch and bound and LNS are both iterators over improving solutions with the
            // same questions to ask at the end.
            macro_rules! drain {
                ($run:expr) => {{
                    let mut run = $run;
                    let mut found = 0;
                    for s in run.by_ref() {
                        if improving {
                            print(out, &s)?;
                        }
                        found += 1;
                    }
                    let best = run.best().cloned();
                    (
                        found,
                        run.is_proven(),
                        run.best_value(),
                        run.stats().clone(),
                        best,
                    )
                }};
            }
            let sense = if matches!(goal, Goal::Minimize(_)) {
                Sense::Minimize
            } else {
                Sense::Maximize
            };
            let (found, complete, value, stats, best) = if !options.no_lns {
                let lns = Lns {
                    seed: options.seed.unwrap_or(0) as u64,
                    neighbourhood: options.neighbourhood,
                    first_nodes: options.lns_first_nodes.unwrap_or(LNS_FIRST_NODES),
                    // The stated search finds the solutions; every other complete run is free
                    // to prove them optimal (train 1: the stated search cannot in 60 s, the
                    // free one proves in 258 nodes).
                    free_proofs: annotated && !options.no_free_proofs,
                    ..Lns::default()
                };
                drain!(solver.lns(v, sense, &lns)?)
            } else if sense == Sense::Minimize {
                drain!(solver.minimize(v)?)
            } else {
                drain!(solver.maximize(v)?)
            };
            if !improving && let Some(best) = &best {
                print(out, best)?;
            }
            (found, complete, value, stats)
        }
    };
    // A search in assumed windows proves nothing about the values outside them.
    let complete = complete && assumptions.is_empty();
    if !assumptions.is_empty() {
        writeln!(
            out,
            "% fzn-bezzel: bounds not found for some `var int`; the search assumed {}, so it \
             cannot prove unsatisfiability, optimality or that all solutions were found",
            assumptions.join(", ")
        )
        .map_err(io)?;
    }
    match (found, complete) {
        (0, true) => writeln!(out, "=====UNSATISFIABLE=====").map_err(io)?,
        (0, false) => writeln!(out, "=====UNKNOWN=====").map_err(io)?,
        (_, true) => writeln!(out, "==========").map_err(io)?,
        (_, false) => {}
    }
    if options.stats {
        let mut lines = vec![
            format!("nodes={}", stats.nodes),
            format!("failures={}", stats.failures),
            format!("propagations={}", stats.propagations),
            format!("peakDepth={}", stats.max_depth),
            format!("solutions={found}"),
            format!("solveTime={:.3}", stats.elapsed.as_secs_f64()),
            format!("time={:.3}", start.elapsed().as_secs_f64()),
        ];
        if let Some(v) = objective {
            lines.push(format!("objective={v}"));
        }
        for l in lines {
            writeln!(out, "%%%mzn-stat: {l}").map_err(io)?;
        }
        writeln!(out, "%%%mzn-stat-end").map_err(io)?;
    }
    out.flush().map_err(io)
}

/// Branch and bound on `options.threads` threads ([`ParallelSearch::optimize`]): every thread
/// translates `text` again for its own copy of the model (the translation is deterministic, so
/// `objective` names the same variable in each). Each improving solution reaches `improved`
/// on this thread, in order, while the workers search; the time limit or `external` cancels
/// the run.
/// Returns how many improving solutions there were and the optimum (`None` when the time
/// limit came while the search was still being split).
fn optimize_in_parallel(
    text: &str,
    options: &Options,
    external: Option<&Arc<AtomicBool>>,
    groups: &[BranchGroup],
    objective: IntView,
    sense: Sense,
    mut improved: impl FnMut(&Solution) -> Result<(), FznError>,
) -> Result<(u64, Option<Optimum>), FznError> {
    let build = || {
        parse_with(text, !options.no_implied_disjunctives)
            .map(|p| p.model)
            .map_err(|e| ModelError::InvalidArgument {
                reason: e.to_string(),
            })
    };
    let parallel = |e: ParallelError| FznError::Search {
        reason: e.to_string(),
    };
    // More threads than cores only add splitting and copies of the model.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cancel = Arc::new(AtomicBool::new(false));
    let mut search = ParallelSearch::new("fzn", build)
        .threads(Some(options.threads.clamp(1, cores.max(1))))
        .cancel_flag(cancel.clone());
    if !groups.is_empty() {
        search = search.branch_groups(groups);
    }
    let (solutions, arriving) = mpsc::channel::<Solution>();
    let (finished, done) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let start = options.started.unwrap_or_else(Instant::now);
        let deadline = time_left(options, start).map(|left| Instant::now() + left);
        let timer_cancel = cancel.clone();
        let external = external.cloned();
        scope.spawn(move || {
            // Watches the time limit and the external flag in short naps; ends when the
            // search does (its sender is dropped).
            const NAP: Duration = Duration::from_millis(10);
            loop {
                let now = Instant::now();
                if deadline.is_some_and(|d| now >= d)
                    || external.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
                {
                    timer_cancel.store(true, Ordering::Relaxed);
                    return;
                }
                let nap = deadline.map_or(NAP, |d| NAP.min(d - now));
                if done.recv_timeout(nap) != Err(mpsc::RecvTimeoutError::Timeout) {
                    return;
                }
            }
        });
        let worker = scope.spawn(|| {
            // Split under the time limit too: the timer above is already running.
            let subproblems = match search.subproblems() {
                Ok(s) => s,
                Err(ParallelError::Cancelled) => {
                    drop(finished);
                    return Ok(None);
                }
                Err(e) => return Err(e),
            };
            let solutions = Mutex::new(solutions);
            let result = search.optimize(
                &subproblems,
                objective,
                sense,
                Some(cancel.clone()),
                |s, _| {
                    let _ = solutions
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .send(s.clone());
                },
            );
            drop(finished);
            result.map(Some)
        });
        let mut found = 0;
        let mut failed = None;
        for s in arriving {
            found += 1;
            if failed.is_none()
                && let Err(e) = improved(&s)
            {
                // Cannot write: stop searching, and say so once the workers are back.
                cancel.store(true, Ordering::Relaxed);
                failed = Some(e);
            }
        }
        let optimum = worker
            .join()
            .map_err(|_| FznError::Search {
                reason: "a search thread panicked".into(),
            })?
            .map_err(parallel)?;
        match failed {
            Some(e) => Err(e),
            None => Ok((found, optimum)),
        }
    })
}

/// What is left of the time limit, which counts from `start` (reading and translating the
/// model count: a limit is the whole run's, as MiniZinc's `-t` means).
fn time_left(options: &Options, start: Instant) -> Option<Duration> {
    options
        .time_ms
        .map(|ms| Duration::from_millis(ms).saturating_sub(start.elapsed()))
}
