//! The zebra puzzle (Life International, 1962; often credited to Einstein): five houses in a
//! row, each with its own colour, owner, pet, drink and cigarette brand. Who owns the zebra,
//! and who drinks water?
//!
//! Each value (say "Spaniard" or "coffee") is a variable for the house it belongs to, 1 to 5
//! from the left, so a clue is one expression: "the Englishman lives in the red house" is
//! `english.eq(red)`, "right of" `(ivory + 1).eq(green)` (a view, no variable), "next to"
//! `abs(a - b).eq(1)`. It shows `all_different`, expressions, and that propagation alone
//! nearly solves it.
//!
//! Run with `cargo run --release --example zebra`.

use bezzel::core::expr::abs;
use bezzel::prelude::*;

/// The five attributes, each with its five values; the puzzle's clues name them all.
pub(crate) const ATTRIBUTES: [(&str, [&str; 5]); 5] = [
    ("colour", ["red", "green", "ivory", "yellow", "blue"]),
    (
        "nation",
        [
            "Englishman",
            "Spaniard",
            "Ukrainian",
            "Norwegian",
            "Japanese",
        ],
    ),
    ("pet", ["dog", "snails", "fox", "horse", "zebra"]),
    ("drink", ["coffee", "tea", "milk", "orange juice", "water"]),
    (
        "smoke",
        [
            "Old Gold",
            "Kools",
            "Chesterfield",
            "Lucky Strike",
            "Parliament",
        ],
    ),
];

/// The puzzle as a model: `houses[a][v]` is the house (1 to 5) of value `v` of attribute `a`,
/// in the order of [`ATTRIBUTES`].
pub(crate) fn model() -> Result<(Model, Vec<Vec<VarId>>), ModelError> {
    let mut m = Model::new();
    let mut houses = Vec::new();
    for (_, values) in ATTRIBUTES {
        let vars = values
            .iter()
            .map(|v| m.named_var(*v, 1..=5))
            .collect::<Result<Vec<_>, _>>()?;
        m.all_different(&vars)?;
        houses.push(vars);
    }
    let [red, green, ivory, yellow, blue] = houses[0][..] else {
        unreachable!()
    };
    let [english, spaniard, ukrainian, norwegian, japanese] = houses[1][..] else {
        unreachable!()
    };
    let [dog, snails, fox, horse, _zebra] = houses[2][..] else {
        unreachable!()
    };
    let [coffee, tea, milk, orange_juice, _water] = houses[3][..] else {
        unreachable!()
    };
    let [old_gold, kools, chesterfield, lucky_strike, parliament] = houses[4][..] else {
        unreachable!()
    };
    let next_to = |a: VarId, b: VarId| abs(a - b).eq(1);
    m.post(english.eq(red))?; // 2
    m.post(spaniard.eq(dog))?; // 3
    m.post(coffee.eq(green))?; // 4
    m.post(ukrainian.eq(tea))?; // 5
    m.post((ivory + 1).eq(green))?; // 6: green is immediately right of ivory
    m.post(old_gold.eq(snails))?; // 7
    m.post(kools.eq(yellow))?; // 8
    m.post(milk.eq(3))?; // 9: milk in the middle house
    m.post(norwegian.eq(1))?; // 10: the Norwegian in the first house
    m.post(next_to(chesterfield, fox))?; // 11
    m.post(next_to(kools, horse))?; // 12
    m.post(lucky_strike.eq(orange_juice))?; // 13
    m.post(japanese.eq(parliament))?; // 14
    m.post(next_to(norwegian, blue))?; // 15
    Ok((m, houses))
}

/// A solution as a table: one line per house, one column per attribute.
pub(crate) fn render(solution: &Solution, houses: &[Vec<VarId>]) -> String {
    let mut out = format!("{:<6}", "house");
    for (name, _) in ATTRIBUTES {
        out += &format!(" {name:<13}");
    }
    for house in 1..=5 {
        out += &format!("\n{house:<6}");
        for (a, (_, values)) in ATTRIBUTES.iter().enumerate() {
            let v = (0..5)
                .find(|&v| solution[houses[a][v]] == house)
                .unwrap_or(0);
            out += &format!(" {:<13}", values[v]);
        }
    }
    out.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

fn main() -> Result<(), ModelError> {
    let (m, houses) = model()?;
    let mut solver = Solver::new(m);
    for solution in solver.solutions() {
        println!("{}\n", render(&solution, &houses));
    }
    println!("{}", solver.stats());
    Ok(())
}
