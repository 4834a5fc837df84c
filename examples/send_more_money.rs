//! SEND + MORE = MONEY: the classic cryptarithm, stated on the core API.
//!
//! Run with `cargo run --release --example send_more_money`.

use bezzel::prelude::*;

fn main() -> Result<(), ModelError> {
    let mut m = Model::new();
    let s = m.named_var("S", 1..=9)?;
    let mo = m.named_var("M", 1..=9)?;
    let mut digit = |name: &str| m.named_var(name, 0..=9);
    let (e, n, d, o, r, y) = (
        digit("E")?,
        digit("N")?,
        digit("D")?,
        digit("O")?,
        digit("R")?,
        digit("Y")?,
    );
    m.all_different(&[s, e, n, d, mo, o, r, y])?;
    //      S E N D
    //  +   M O R E
    //  = M O N E Y
    m.linear(
        &[
            1000, 100, 10, 1, 1000, 100, 10, 1, -10000, -1000, -100, -10, -1,
        ],
        &[s, e, n, d, mo, o, r, e, mo, o, n, e, y],
        Relation::Eq,
        0,
    )?;
    let mut solver = Solver::new(m);
    match solver.first() {
        Some(sol) => {
            let word = |xs: &[VarId]| xs.iter().map(|&x| sol[x].to_string()).collect::<String>();
            println!("  {}", word(&[s, e, n, d]));
            println!("+ {}", word(&[mo, o, r, e]));
            println!("={}", word(&[mo, o, n, e, y]));
        }
        None => println!("no solution"),
    }
    let total = solver.count();
    println!("solutions: {total}");
    println!("{}", solver.stats());
    Ok(())
}
