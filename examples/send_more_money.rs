//! SEND + MORE = MONEY: the classic cryptarithm, stated in expressions.
//!
//! The sum is written as it is read: each word is the number its digits make, and the
//! expression `send + more` compared with `money` becomes one linear constraint (`E`, which
//! appears three times, gets one merged coefficient). The lower-level form, a coefficient
//! array for [`Model::linear`], is in `benches/expressions.rs`, which checks that both search
//! the same tree.
//!
//! Run with `cargo run --release --example send_more_money`.

use bezzel::core::expr::IntExpr;
use bezzel::prelude::*;

/// The number that the digits make, most significant first.
fn word(digits: &[VarId]) -> IntExpr {
    digits
        .iter()
        .fold(IntExpr::constant(0), |acc, &d| 10 * acc + d)
}

fn main() -> Result<(), ModelError> {
    let mut m = Model::new();
    let [s, e, n, d, mo, o, r, y] =
        ["S", "E", "N", "D", "M", "O", "R", "Y"].map(|name| m.named_var(name, 0..=9));
    let [s, e, n, d, mo, o, r, y] = [s?, e?, n?, d?, mo?, o?, r?, y?];
    m.all_different(&[s, e, n, d, mo, o, r, y])?;
    m.post(s.ne(0) & mo.ne(0))?; // no leading zeros
    m.post((word(&[s, e, n, d]) + word(&[mo, o, r, e])).eq(word(&[mo, o, n, e, y])))?;
    let mut solver = Solver::new(m);
    match solver.first() {
        Some(sol) => {
            let digits = |xs: &[VarId]| xs.iter().map(|&x| sol[x].to_string()).collect::<String>();
            println!("  {}", digits(&[s, e, n, d]));
            println!("+ {}", digits(&[mo, o, r, e]));
            println!("={}", digits(&[mo, o, n, e, y]));
        }
        None => println!("no solution"),
    }
    let total = solver.count();
    println!("solutions: {total}");
    println!("{}", solver.stats());
    Ok(())
}
