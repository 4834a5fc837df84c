//! A closed knight's tour of a 6 × 6 board: the knight visits every square once, by knight's
//! moves, and its last move brings it back to where it started.
//!
//! Each square has a successor variable whose domain is the squares a knight's move away, and
//! `circuit` makes the successors one cycle through all 36 squares. The tour prints as the
//! board, each square numbered by when the knight reaches it from the top-left corner.
//!
//! Run with `cargo run --release --example knights_tour`.

use bezzel::prelude::*;

/// The board is `SIZE × SIZE`; square `r · SIZE + c` is at row `r`, column `c`.
pub(crate) const SIZE: usize = 6;

/// The squares a knight's move away from `square`.
pub(crate) fn knight_moves(square: usize) -> Vec<usize> {
    let (r, c) = ((square / SIZE) as i64, (square % SIZE) as i64);
    let jumps = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let on_board = |x: i64| (0..SIZE as i64).contains(&x);
    jumps
        .iter()
        .map(|&(dr, dc)| (r + dr, c + dc))
        .filter(|&(r, c)| on_board(r) && on_board(c))
        .map(|(r, c)| r as usize * SIZE + c as usize)
        .collect()
}

/// The model: `next[s]` is the square the knight moves to from square `s`.
pub(crate) fn model() -> Result<(Model, Vec<VarId>), ModelError> {
    let mut m = Model::new();
    let next = (0..SIZE * SIZE)
        .map(|s| {
            let moves: Vec<i32> = knight_moves(s).iter().map(|&t| t as i32).collect();
            m.named_var(format!("next[{s}]"), moves)
        })
        .collect::<Result<Vec<_>, _>>()?;
    m.circuit(&next)?;
    Ok((m, next))
}

/// The order of the squares along the tour from square 0, one row of the board a line: the
/// step (0 to 35) at which the knight reaches each square.
pub(crate) fn render(solution: &Solution, next: &[VarId]) -> String {
    let mut step = vec![0; next.len()];
    let mut at = 0;
    for k in 0..next.len() {
        step[at] = k;
        at = solution[next[at]] as usize;
    }
    step.chunks(SIZE)
        .map(|row| row.iter().map(|k| format!("{k:>3}")).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

fn main() -> Result<(), ModelError> {
    let (m, next) = model()?;
    let mut solver = Solver::new(m);
    match solver.first() {
        Some(solution) => println!("{}\n", render(&solution, &next)),
        None => println!("no tour"),
    }
    println!("{}", solver.stats());
    Ok(())
}
