//! Sudoku on the default engine (9×9 by the bit-parallel kernel, which leaves a puzzle to the
//! model after 3 failures) and on the generic model alone: puzzles per second and nodes per
//! puzzle on public collections.
//!
//! ```text
//! cargo bench --bench sudoku                                  # both collections, 3 runs each
//! cargo bench --bench sudoku -- --runs 5 --sample 5000        # 5 runs on 5000 puzzles each
//! cargo bench --bench sudoku -- /path/to/sudoku/data          # another data folder
//! BEZZEL_SUDOKU_DATA=/path/to/sudoku/data cargo bench --bench sudoku
//! ```
//!
//! Reads `puzzles3_magictour_top1465` (hard puzzles) and `puzzles2_17_clue` (every known
//! 17-clue puzzle) from the data folder: the argument, else `$BEZZEL_SUDOKU_DATA`, else
//! `../shared/data/sudoku` beside the repository; and the easy set of `benches/data`. Collections that are not there are skipped
//! with a note, so the bench runs anywhere. `--sample N` takes N puzzles spread evenly over
//! each collection (puzzle `i * size / N` for `i` in `0..N`), for quicker runs that are still
//! representative (the 17-clue file is sorted, so its first puzzles are not). Each puzzle is
//! solved and proven unique (solutions counted up to 2) twice: by the default engine, as the
//! `sudoku` command answers it (`kernel` rows; their nodes are the kernel's, and the model's
//! for the puzzles it leaves), and by the model with the default search (`model` rows, as
//! `--engine model`); the time of each run over a whole collection is measured, and the
//! median run is reported. Every answer is checked, outside the timing: one
//! solution, unique, and valid by the independent checker.

use bezzel::core::SearchConfig;
use bezzel::sudoku::batch::{Answer, Engine, Settings, Solvers};
use bezzel::sudoku::{check, grid::Grid, model, reader::PuzzleLines};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const COLLECTIONS: [(&str, &str); 2] = [
    ("puzzles3_magictour_top1465", "top1465 (hard)"),
    ("puzzles2_17_clue", "17-clue"),
];

struct Args {
    dir: PathBuf,
    runs: usize,
    sample: usize,
}

fn usage() -> ! {
    eprintln!("usage: cargo bench --bench sudoku -- [DATA_DIR] [--runs N] [--sample PUZZLES]");
    std::process::exit(2)
}

fn parse_args() -> Args {
    let mut dir = None;
    let mut runs = 3;
    let mut sample = usize::MAX;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            // `cargo bench` passes `--bench` to every bench binary.
            "--bench" => {}
            "--runs" | "--sample" => {
                let Some(n) = args.next().and_then(|v| v.parse::<usize>().ok()) else {
                    usage()
                };
                if arg == "--runs" {
                    runs = n.max(1);
                } else {
                    sample = n.max(1);
                }
            }
            a if a.starts_with('-') => usage(),
            a => dir = Some(PathBuf::from(a)),
        }
    }
    let dir = dir
        .or_else(|| std::env::var_os("BEZZEL_SUDOKU_DATA").map(PathBuf::from))
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/sudoku"));
    Args { dir, runs, sample }
}

/// Node counts of one run over a collection: total nodes, the most for one puzzle, failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Work {
    nodes: u64,
    max_nodes: u64,
    failures: u64,
}

/// Solves and proves unique every puzzle once with `engine`, then checks every answer
/// (outside the timing).
fn run_once(file: &str, puzzles: &[Grid], engine: Engine) -> (Duration, Work) {
    let mut outcomes = Vec::with_capacity(puzzles.len());
    // Answers are checked below, outside the timing, not by the solver's per-solution check.
    let config = SearchConfig {
        check_solutions: false,
        ..model::default_search()
    };
    let start = Instant::now();
    match engine {
        Engine::Model => {
            // One model per grid size, reused for every puzzle, as the sudoku command does.
            let mut solver =
                model::SudokuSolver::with_config(3, model::DEFAULT_CONSISTENCY, config)
                    .expect("9x9 is a supported size");
            for p in puzzles {
                outcomes.push(
                    solver
                        .count(p, 2)
                        .expect("collection puzzles have no clashing givens"),
                );
            }
        }
        Engine::Kernel => {
            // What the sudoku command does with each puzzle: the kernel first.
            let settings = Settings {
                search: config,
                ..Settings::default()
            };
            let mut solvers = Solvers::default();
            for p in puzzles {
                match solvers.answer_grid(&settings, None, p) {
                    Answer::Done(outcome) => outcomes.push(outcome),
                    other => panic!("{file}: {p}: {other:?}"),
                }
            }
        }
    }
    let elapsed = start.elapsed();
    for (p, o) in puzzles.iter().zip(&outcomes) {
        assert_eq!(o.status(), model::Status::Unique, "{file}: {p}");
        let s = o.solution.as_ref().expect("unique puzzles have a solution");
        check::is_valid_solution(p, s).unwrap_or_else(|e| panic!("{file}: {p}: {e}"));
    }
    let work = Work {
        nodes: outcomes.iter().map(|o| o.stats.nodes).sum(),
        max_nodes: outcomes.iter().map(|o| o.stats.nodes).max().unwrap_or(0),
        failures: outcomes.iter().map(|o| o.stats.failures).sum(),
    };
    (elapsed, work)
}

fn main() {
    let args = parse_args();
    println!(
        "sudoku: solve and prove unique (count to 2), by the default engine (kernel) and by the \
         model alone (dom/wdeg); median of {} runs",
        args.runs
    );
    println!("data: {}", args.dir.display());
    println!(
        "{:<24} {:>8} {:>10} {:>11} {:>13} {:>10} {:>13}",
        "collection", "puzzles", "time", "puzzles/s", "nodes/puzzle", "max nodes", "fails/puzzle"
    );
    let easy = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/sudoku_easy.txt");
    let collections = COLLECTIONS
        .iter()
        .map(|&(file, label)| (args.dir.join(file), label))
        .chain([(easy, "easy")]);
    for ((path, label), engine) in
        collections.flat_map(|c| [(c.clone(), Engine::Kernel), (c, Engine::Model)])
    {
        let file = &path.display().to_string();
        let label = &format!(
            "{label}, {}",
            if engine == Engine::Kernel {
                "kernel"
            } else {
                "model"
            }
        );
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                println!(
                    "{label:<24} skipped: cannot read {} ({e}); pass the data folder as an \
                     argument or set BEZZEL_SUDOKU_DATA",
                    path.display()
                );
                continue;
            }
        };
        let all: Vec<Grid> = PuzzleLines::new(&text)
            .map(|(line, g)| g.unwrap_or_else(|e| panic!("{file} line {line}: {e}")))
            .collect();
        // Puzzle i * size / N for i = 0..N: evenly spread, from the first one on.
        let n = args.sample.min(all.len());
        let puzzles: Vec<Grid> = (0..n).map(|i| all[i * all.len() / n].clone()).collect();
        let mut times = Vec::with_capacity(args.runs);
        let mut first: Option<Work> = None;
        for _ in 0..args.runs {
            let (t, work) = run_once(file, &puzzles, engine);
            match first {
                Some(w) => assert_eq!(w, work, "search is deterministic"),
                None => first = Some(work),
            }
            times.push(t);
        }
        times.sort();
        let median = times[times.len() / 2];
        let work = first.expect("at least one run");
        let per = |x: u64| x as f64 / puzzles.len().max(1) as f64;
        println!(
            "{label:<24} {:>8} {:>9.3}s {:>11.0} {:>13.1} {:>10} {:>13.1}",
            puzzles.len(),
            median.as_secs_f64(),
            puzzles.len() as f64 / median.as_secs_f64(),
            per(work.nodes),
            work.max_nodes,
            per(work.failures),
        );
    }
}
