//! The gallery puzzles of `examples/`, each solved from the example's own model and checked
//! against its published answer before its solution is compared with a snapshot.

#[allow(dead_code)]
#[path = "../examples/zebra.rs"]
mod zebra;

use bezzel::prelude::*;

#[test]
fn zebra_has_one_solution_the_published_one() {
    let (m, houses) = zebra::model().unwrap();
    let mut solver = Solver::new(m);
    let solutions: Vec<Solution> = solver.solutions().collect();
    assert_eq!(solutions.len(), 1);
    let s = &solutions[0];
    // The published answer: the Japanese owns the zebra, the Norwegian drinks water.
    let (nation, pet, drink) = (&houses[1], &houses[2], &houses[3]);
    assert_eq!(s[nation[4]], s[pet[4]], "the Japanese owns the zebra");
    assert_eq!(s[nation[3]], s[drink[4]], "the Norwegian drinks water");
    insta::assert_snapshot!("zebra", zebra::render(s, &houses));
}
