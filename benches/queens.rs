//! Queens counting, every engine side by side in one run.
//!
//! `cargo bench --bench queens [-- MAX_N [RUNS]]` (defaults: 14 and 5) times, for n = 8..=MAX_N:
//! the naive array-based backtracking baseline (the "check every earlier row" program), the
//! constraint model (smallest domain first), and the bitmask counter on one thread and on all
//! threads. It prints medians of RUNS runs, each engine's speed as a ratio to the baseline, and
//! the model's nodes per second. Counts are cross-checked between engines on every run.

use bezzel::queens::bitmask::{self, BitmaskCounter};
use bezzel::queens::{counting, model::Queens};
use std::time::{Duration, Instant};

/// The textbook program: place row by row, checking every earlier row for a clash.
fn baseline_count(n: usize) -> u64 {
    fn safe(cols: &[usize], row: usize, col: usize) -> bool {
        (0..row).all(|r| {
            let c = cols[r];
            c != col && c.abs_diff(col) != row - r
        })
    }
    let mut cols = vec![0usize; n];
    let mut count = 0;
    // Iterative: cols[row] is the next column to try in that row.
    let mut row = 0;
    cols[0] = 0;
    loop {
        if cols[row] == n {
            if row == 0 {
                return count;
            }
            row -= 1;
            cols[row] += 1;
            continue;
        }
        if safe(&cols, row, cols[row]) {
            if row + 1 == n {
                count += 1;
                cols[row] += 1;
            } else {
                row += 1;
                cols[row] = 0;
            }
        } else {
            cols[row] += 1;
        }
    }
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn time<T: PartialEq + std::fmt::Debug>(runs: usize, f: impl Fn() -> T) -> (T, Duration) {
    let mut times = Vec::with_capacity(runs);
    let mut result = None;
    for _ in 0..runs {
        let start = Instant::now();
        let r = f();
        times.push(start.elapsed());
        if let Some(prev) = &result {
            assert_eq!(prev, &r, "engine is not deterministic");
        }
        result = Some(r);
    }
    (result.expect("at least one run"), median(times))
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let max_n: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(14);
    let runs: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5).max(1);
    let threads = rayon::current_num_threads();
    println!(
        "queens count, median of {runs} runs; ratio = baseline time / engine time (higher is faster)"
    );
    println!(
        "{:>3} {:>10} | {:>10} | {:>10} {:>7} {:>10} | {:>10} {:>7} | {:>10} {:>7} (threads={threads})",
        "n",
        "count",
        "baseline",
        "model",
        "ratio",
        "nodes/s",
        "bitmask×1",
        "ratio",
        "bitmask×N",
        "ratio"
    );
    for n in 8..=max_n {
        let (base_count, base) = time(runs, || baseline_count(n));
        let (model_result, model) = time(runs, || {
            let mut q = Queens::first_fail(n).expect("valid n");
            // Counts are cross-checked between engines; the per-solution check is not timed.
            q.solver_mut().config_mut().check_solutions = false;
            let count = q.count();
            (count, q.stats().nodes)
        });
        let (one_count, one) = time(runs, || bitmask::count(n).expect("valid n"));
        let (all_count, all) = time(runs, || {
            counting::count_parallel::<BitmaskCounter>(n, None).expect("valid n")
        });
        assert_eq!(base_count, model_result.0);
        assert_eq!(base_count, one_count);
        assert_eq!(base_count, all_count);
        let ratio = |d: Duration| base.as_secs_f64() / d.as_secs_f64();
        let nodes_per_s = model_result.1 as f64 / model.as_secs_f64();
        println!(
            "{n:>3} {base_count:>10} | {:>9.4}s | {:>9.4}s {:>6.2}x {:>9.2}M | {:>9.4}s {:>6.1}x | {:>9.4}s {:>6.1}x",
            base.as_secs_f64(),
            model.as_secs_f64(),
            ratio(model),
            nodes_per_s / 1e6,
            one.as_secs_f64(),
            ratio(one),
            all.as_secs_f64(),
            ratio(all),
        );
    }
}
