//! Times the full-symmetry counter's subproblems one by one, for the load-balance study of
//! `docs/distributed.md` (whose simulator, `benches/simulate_queue.py`, reads this output).
//!
//! ```text
//! cargo bench --bench subproblem_times -- 18            # every subproblem
//! cargo bench --bench subproblem_times -- 20 300 7      # 300 at random (seed 7)
//! ```
//!
//! A tool kept among the benchmarks (a `harness = false` bench target, so built optimised):
//! `cargo bench` adds `--bench` to the arguments, which is ignored.
//!
//! Prints `# n=N subproblems=S timed=T` and then one line per timed subproblem:
//! its index, its seconds, its solutions and its first rows.

use bezzel::queens::symmetry_count::{self, FirstRows};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<u64> = match std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .map(|a| a.parse::<u64>())
        .collect::<Result<Vec<u64>, _>>()
    {
        Ok(args) if !args.is_empty() && args.len() <= 3 => args,
        _ => {
            eprintln!("usage: subproblem_times N [SAMPLE [SEED]]");
            return ExitCode::from(2);
        }
    };
    let n = args[0] as usize;
    let pieces: Vec<FirstRows> = match symmetry_count::subproblems(n) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("subproblem_times: {e}");
            return ExitCode::from(2);
        }
    };
    let mut chosen: Vec<usize> = (0..pieces.len()).collect();
    if let Some(&sample) = args.get(1) {
        // A partial Fisher-Yates shuffle with a small xorshift generator: the same sample
        // for the same seed.
        let mut state = args.get(2).copied().unwrap_or(1).max(1);
        let sample = (sample as usize).min(chosen.len());
        for i in 0..sample {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let j = i + (state % (chosen.len() - i) as u64) as usize;
            chosen.swap(i, j);
        }
        chosen.truncate(sample);
        chosen.sort_unstable();
    }
    println!(
        "# n={n} subproblems={} timed={}",
        pieces.len(),
        chosen.len()
    );
    for index in chosen {
        let started = Instant::now();
        let count = match symmetry_count::count_subproblem(n, &pieces[index]) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("subproblem_times: {e}");
                return ExitCode::from(2);
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        let prefix: Vec<String> = pieces[index].prefix.iter().map(|c| c.to_string()).collect();
        println!("{index} {seconds:.6} {} {}", count.total, prefix.join(","));
    }
    ExitCode::SUCCESS
}
