//! Golomb ruler: N marks on a ruler, all pairwise distances different, as short as possible,
//! found and proved optimal with branch and bound ([`Solver::minimize`]).
//!
//! ```text
//! cargo run --release --example golomb            # 8 marks: length 34
//! cargo run --release --example golomb -- 10      # 10 marks: length 55
//! ```
//!
//! The model is Gecode's `examples/golomb-ruler.cpp` (and `benches/peers/gecode/golomb.cpp`):
//! marks in `0..2^(N-1)` starting at 0 and strictly increasing, the distances as variables,
//! all different at bounds consistency, and the first distance below the last to rule out
//! mirror images; search fixes the marks in order, smallest value first. The constraints are
//! expressions (`dij.eq(marks[j] - marks[i])` is one three-term sum, `w[0].lt(w[1])` a view
//! relation); `benches/expressions.rs` times them against the same model posted by hand. The
//! ruler goes to stdout; the statistics (`nodes: ..., time: ... s`) to stderr.

use bezzel::prelude::*;
use std::process::ExitCode;

/// The Golomb ruler model with `n` marks: the solver, set to branch on the marks, and the marks.
pub(crate) fn golomb(n: usize) -> Result<(Solver, Vec<VarId>), ModelError> {
    // Any n marks fit below 2^(n-1) (the powers of two form a ruler), so this loses nothing.
    let top = (1i32 << (n - 1)) - 1;
    let mut m = Model::new();
    let marks = m.int_vars(n, 0..=top)?;
    m.post(marks[0].eq(0))?;
    for w in marks.windows(2) {
        m.post(w[0].lt(w[1]))?;
    }
    let mut d = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            // j - i distances lie between marks i and j, all different, so they sum to at
            // least 1 + 2 + ... + (j - i).
            let k = (j - i) as i32;
            let dij = m.int_var(k * (k + 1) / 2..=top)?;
            m.post(dij.eq(marks[j] - marks[i]))?;
            d.push(dij);
        }
    }
    m.all_different_with(&d, Consistency::Bounds)?;
    if n > 2 {
        m.post(d[0].lt(d[d.len() - 1]))?;
    }
    let config = SearchConfig {
        var_order: VarOrder::InputOrder,
        value_order: ValueOrder::Min,
        ..SearchConfig::default()
    };
    let solver = Solver::with_config(m, config).branch_on(&marks)?;
    Ok((solver, marks))
}

fn main() -> ExitCode {
    let arg = std::env::args().nth(1);
    let n = match arg.as_deref().map_or(Ok(8), str::parse::<usize>) {
        Ok(n) if (2..=16).contains(&n) => n,
        _ => {
            eprintln!("usage: golomb [N]   (2 <= N <= 16 marks, default 8)");
            return ExitCode::from(2);
        }
    };
    let (mut solver, marks) = match golomb(n) {
        Ok(model) => model,
        Err(e) => {
            eprintln!("golomb: {e}");
            return ExitCode::from(2);
        }
    };
    let length = marks[n - 1];
    let best = match solver.minimize(length) {
        Ok(run) => run.finish(),
        Err(e) => {
            eprintln!("golomb: {e}");
            return ExitCode::from(2);
        }
    };
    match (&best.solution, best.value) {
        (Some(ruler), Some(value)) => {
            let ruler: Vec<String> = ruler.values_of(&marks).iter().map(i32::to_string).collect();
            println!("marks: {}", ruler.join(" "));
            let proof = if best.optimal {
                "optimal"
            } else {
                "not proven optimal"
            };
            println!("length: {value} ({proof})");
        }
        _ => println!("no ruler"),
    }
    eprintln!("{}", best.stats);
    ExitCode::SUCCESS
}
