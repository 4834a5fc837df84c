//! Models written in expressions against the same models posted by hand.
//!
//! `cargo bench --bench expressions [-- ROUNDS]` (default 7) builds and solves each model both
//! ways: N-Queens 10 (all solutions), SEND + MORE = MONEY (all solutions), Golomb's ruler with
//! 10 marks (proved optimal), the gallery's KenKen (all solutions) and the job shop ft06
//! (proved optimal). It asserts that both ways give the same answer and search the same
//! number of nodes, then prints the median time of each, timed in interleaved rounds (the two
//! ways alternate, and which goes first alternates too, so that drift in the machine's speed
//! falls on both), and their ratio (expressions / by hand: 1.02 is 2 % slower). Each time
//! covers building the model and solving it, with the per-solution check off. Quick models are
//! repeated within a round until it lasts about 50 ms. On a loaded machine, compare
//! instruction counts instead: `-- hand:KenKen` or `-- expr:KenKen` runs one side once, for
//! `valgrind --tool=callgrind`.
//!
//! The by-hand forms are those of `crates/bezzel-core/tests/expressions/node_counts.rs` (which
//! checks the same trees on smaller sizes on every test run) and, for KenKen, the one below;
//! the expression forms are that file's and the gallery's (`examples/kenken.rs`,
//! `examples/jobshop.rs`).

use bezzel::prelude::*;
use std::time::{Duration, Instant};

// Its tests are compiled out here, and what only they use is unused.
#[allow(dead_code, unused_imports)]
#[path = "../crates/bezzel-core/tests/expressions/node_counts.rs"]
mod node_counts;

#[allow(dead_code)]
#[path = "../examples/kenken.rs"]
mod kenken;

#[allow(dead_code)]
#[path = "../examples/jobshop.rs"]
mod jobshop;

/// KenKen posted by hand: `linear` for sums, chains of `times` for products, `abs` of a gap
/// for differences, and `min`, `max` and `times` for quotients, each onto a variable fixed to
/// the cage's target.
fn kenken_by_hand() -> Result<Model, ModelError> {
    let n = kenken::GRID.len();
    let mut m = Model::new();
    let g = m.int_matrix("grid", n, n, 1..=n as i32)?;
    for line in g.rows().chain(g.columns()) {
        m.all_different(&line)?;
    }
    for (letter, target, op) in kenken::CAGES {
        let cells: Vec<VarId> = (0..n * n)
            .filter(|&i| kenken::GRID[i / n].as_bytes()[i % n] == letter as u8)
            .map(|i| g.as_slice()[i])
            .collect();
        let t = m.int_var(target..=target)?;
        match (op, cells.as_slice()) {
            ('+', _) => m.linear(&vec![1; cells.len()], &cells, Relation::Eq, target)?,
            ('*', [first, rest @ ..]) => {
                let mut product = *first;
                for (k, &cell) in rest.iter().enumerate() {
                    // The last product is the target itself; partial ones divide it.
                    let next = if k + 1 == rest.len() {
                        t
                    } else {
                        m.int_var(1..=target)?
                    };
                    m.times(product, cell, next)?;
                    product = next;
                }
            }
            ('-', &[a, b]) => {
                let gap = m.int_var(-(n as i32)..=n as i32)?;
                m.linear(&[1, -1, -1], &[a, b, gap], Relation::Eq, 0)?;
                m.abs(gap, t)?;
            }
            ('/', &[a, b]) => {
                let (low, high) = (m.int_var(1..=n as i32)?, m.int_var(1..=n as i32)?);
                m.min(&[a, b], low)?;
                m.max(&[a, b], high)?;
                m.times(low, t, high)?;
            }
            _ => unreachable!("the gallery's cages are well formed"),
        }
    }
    Ok(m)
}

/// What a run finds: the number of solutions or the optimum, and the nodes it took.
type Found = (i64, u64);

/// All solutions of the model: their number and the nodes.
fn count(m: Model) -> Found {
    let mut solver = Solver::new(m);
    solver.config_mut().check_solutions = false;
    let count = solver.count();
    (count as i64, solver.stats().nodes)
}

/// The proved optimum of `cost` and the nodes.
fn minimum((mut solver, cost): (Solver, VarId)) -> Found {
    solver.config_mut().check_solutions = false;
    let best = solver.minimize(cost).expect("a model variable").finish();
    assert!(best.optimal, "the benchmark's optima are proved");
    (i64::from(best.value.expect("a solution")), best.stats.nodes)
}

fn ft06(in_expressions: bool) -> Found {
    let jobs = jobshop::ft06().jobs;
    let (m, span) = node_counts::job_shop(&jobs, in_expressions);
    minimum((Solver::new(m), span))
}

/// The models, each built and solved both ways by [`run`].
const MODELS: [&str; 5] = [
    "queens 10",
    "SEND+MORE",
    "Golomb 10",
    "KenKen 6x6",
    "job shop ft06",
];

/// Builds and solves the model named `name` (one of [`MODELS`]) in expressions or by hand.
fn run(name: &str, in_expressions: bool) -> Found {
    use node_counts as pairs;
    let e = in_expressions;
    match name {
        "queens 10" if e => count(pairs::queens_in_expressions(10)),
        "queens 10" => count(pairs::queens_by_hand(10)),
        "SEND+MORE" if e => count(pairs::send_more_money_in_expressions().0),
        "SEND+MORE" => count(pairs::send_more_money_by_hand(true).0),
        "Golomb 10" if e => minimum(pairs::golomb_in_expressions(10)),
        "Golomb 10" => minimum(pairs::golomb_by_hand(10)),
        "KenKen 6x6" if e => count(kenken::model().expect("the gallery's puzzle").0),
        "KenKen 6x6" => count(kenken_by_hand().expect("the gallery's puzzle")),
        _ => ft06(e),
    }
}

/// Runs `name` `reps` times; the time of one run and what it found.
fn timed(name: &str, in_expressions: bool, reps: u32) -> (Duration, Found) {
    let start = Instant::now();
    let mut found = run(name, in_expressions);
    for _ in 1..reps {
        found = run(name, in_expressions);
    }
    (start.elapsed() / reps, found)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// `hand:NAME` or `expr:NAME` (a prefix of a model's name): that side of that pair, run once,
/// for an instruction count (`valgrind --tool=callgrind`), which load on the machine does not
/// blur as it does times.
fn run_one_side(side: &str) {
    let (hand, name) = match side.split_once(':') {
        Some(("hand", name)) => (true, name),
        Some(("expr", name)) => (false, name),
        _ => {
            eprintln!("usage: expressions [ROUNDS] [hand:NAME | expr:NAME]");
            std::process::exit(2);
        }
    };
    let Some(model) = MODELS.into_iter().find(|m| m.starts_with(name)) else {
        eprintln!("expressions: no model named `{name}`");
        std::process::exit(2);
    };
    let (answer, nodes) = run(model, !hand);
    println!("{model} {side}: answer {answer}, nodes {nodes}");
}

fn main() {
    // `cargo bench` passes `--bench`; anything else not a number picks one side.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if let Some(side) = args.iter().find(|a| a.parse::<usize>().is_err()) {
        return run_one_side(side);
    }
    let rounds: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(7).max(1);
    println!("expressions against by hand, median of {rounds} interleaved rounds");
    println!(
        "{:<14} {:>8} {:>9} {:>12} {:>12} {:>7}",
        "model", "answer", "nodes", "by hand", "expressions", "ratio"
    );
    for name in MODELS {
        // One run of each, untimed: the answers and trees must agree, and the time of the
        // slower sets how often a round repeats them.
        let (once, hand) = timed(name, false, 1);
        let (_, expr) = timed(name, true, 1);
        assert_eq!(
            hand, expr,
            "{}: (answer, nodes) by hand and in expressions",
            name
        );
        let reps = (Duration::from_millis(50).as_nanos() / once.as_nanos().max(1)).clamp(1, 10_000);
        let reps = reps as u32;
        let (mut by_hand, mut in_expressions) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            let run = |in_expressions, times: &mut Vec<Duration>| {
                let (t, found) = timed(name, in_expressions, reps);
                assert_eq!(found, hand, "{}: the runs must agree", name);
                times.push(t);
            };
            if round % 2 == 0 {
                run(false, &mut by_hand);
                run(true, &mut in_expressions);
            } else {
                run(true, &mut in_expressions);
                run(false, &mut by_hand);
            }
        }
        let (h, e) = (median(by_hand), median(in_expressions));
        println!(
            "{:<14} {:>8} {:>9} {:>10.3}ms {:>10.3}ms {:>7.3}",
            name,
            hand.0,
            hand.1,
            h.as_secs_f64() * 1e3,
            e.as_secs_f64() * 1e3,
            e.as_secs_f64() / h.as_secs_f64()
        );
    }
}
