//! The library's distributed count: any model's solutions counted on the ranks of an MPI job
//! (`Solver::count_distributed` over `bezzel_mpi::Mpi`, on a solver made by
//! `Solver::parallel`), resumable with a checkpoint.
//! Built only with the `mpi` feature:
//!
//! ```text
//! cargo build --release --features mpi --example distributed_count
//! mpirun -np 4 target/release/examples/distributed_count 12 [CHECKPOINT]   # 14200
//! ```
//!
//! The model is N-Queens' three all-different constraints, the diagonals as expressions
//! (`q[i] + i` is a view, no variable); rank 0 prints the count.

use bezzel::core::prelude::*;
use std::process::ExitCode;

fn queens(n: usize) -> impl Fn() -> Result<Model, ModelError> + Send + Sync + 'static {
    move || {
        let mut m = Model::new();
        let q = m.int_vars(n, 0..n as i32)?;
        let up = (0..n)
            .map(|i| m.view_of(q[i] + i as i32))
            .collect::<Result<Vec<_>, _>>()?;
        let down = (0..n)
            .map(|i| m.view_of(q[i] - i as i32))
            .collect::<Result<Vec<_>, _>>()?;
        m.all_different(&q)?;
        m.all_different(&up)?;
        m.all_different(&down)?;
        Ok(m)
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(n) = args
        .first()
        .and_then(|a| a.parse::<usize>().ok())
        .filter(|&n| n <= 32)
    else {
        eprintln!("usage: distributed_count N [CHECKPOINT] (N at most 32)");
        return ExitCode::from(2);
    };
    let mpi = match bezzel_mpi::Mpi::initialize() {
        Ok(mpi) => mpi,
        Err(e) => {
            eprintln!("distributed_count: {e}");
            return ExitCode::from(2);
        }
    };
    let solver = match Solver::parallel(1, queens(n)) {
        Ok(solver) => solver,
        Err(e) => {
            eprintln!("distributed_count: {e}");
            return ExitCode::from(2);
        }
    };
    let checkpoint = args.get(1).map(std::path::Path::new);
    match solver.count_distributed(&mpi, checkpoint, |_, _| {}) {
        Ok(report) if mpi.rank() == 0 => {
            println!("{}", report.counts[0]);
            ExitCode::SUCCESS
        }
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("distributed_count (rank {}): {e}", mpi.rank());
            mpi.abort(2)
        }
    }
}
