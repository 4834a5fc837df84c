//! The gallery puzzles of `examples/`, each solved from the example's own model and checked
//! against its published answer before its solution is compared with a snapshot.

#[allow(dead_code)]
#[path = "../../examples/zebra.rs"]
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

#[allow(dead_code)]
#[path = "../../examples/kenken.rs"]
mod kenken;

/// Whether `grid` is a Latin square that makes every cage's target, checked from the rules
/// rather than from the model.
fn kenken_holds(grid: &[Vec<i32>]) -> bool {
    let n = grid.len();
    let all = |line: Vec<i32>| {
        let mut line = line;
        line.sort_unstable();
        line == (1..=n as i32).collect::<Vec<_>>()
    };
    let latin = (0..n).all(|r| all(grid[r].clone()))
        && (0..n).all(|c| all((0..n).map(|r| grid[r][c]).collect()));
    latin
        && kenken::CAGES.iter().all(|&(letter, target, op)| {
            let cells: Vec<i32> = (0..n * n)
                .filter(|&i| kenken::GRID[i / n].chars().nth(i % n) == Some(letter))
                .map(|i| grid[i / n][i % n])
                .collect();
            match (op, cells.as_slice()) {
                ('+', _) => cells.iter().sum::<i32>() == target,
                ('*', _) => cells.iter().product::<i32>() == target,
                ('-', &[a, b]) => (a - b).abs() == target,
                ('/', &[a, b]) => a * target == b || b * target == a,
                _ => false,
            }
        })
}

#[test]
fn kenken_has_one_solution_the_published_one() {
    // The solution Wikipedia's KenKen article gives for its example puzzle.
    let published = [
        [5, 6, 3, 4, 1, 2],
        [6, 1, 4, 5, 2, 3],
        [4, 5, 2, 3, 6, 1],
        [3, 4, 1, 2, 5, 6],
        [2, 3, 6, 1, 4, 5],
        [1, 2, 5, 6, 3, 4],
    ];
    let published: Vec<Vec<i32>> = published.iter().map(|r| r.to_vec()).collect();
    assert!(kenken_holds(&published));
    // The checker can fail: swapping two rows keeps the square Latin but breaks the cages.
    let mut swapped = published.clone();
    swapped.swap(0, 1);
    assert!(!kenken_holds(&swapped));

    let (m, grid) = kenken::model().unwrap();
    let set = Solver::new(m).solution_set_of(grid.as_slice()).unwrap();
    assert_eq!(set.len(), 1);
    let found: Vec<Vec<i32>> = set.solutions[0].chunks(6).map(<[i32]>::to_vec).collect();
    assert_eq!(found, published);
    insta::assert_snapshot!("kenken", set.to_string());
}

#[allow(dead_code)]
#[path = "../../examples/graph_colouring.rs"]
mod graph_colouring;

/// Whether some colouring of the graph with `k` colours is proper, by trying all `k^n`.
fn colourable(n: usize, edges: &[(usize, usize)], k: usize) -> bool {
    let mut colour = vec![0; n];
    loop {
        if edges.iter().all(|&(a, b)| colour[a] != colour[b]) {
            return true;
        }
        // The next colouring, counting in base k.
        let Some(i) = (0..n).find(|&i| colour[i] + 1 < k) else {
            return false;
        };
        colour[i] += 1;
        colour[..i].fill(0);
    }
}

/// The optimum colouring the example's model finds, checked to be proper and to use exactly
/// `chromatic` colours, a number no colouring can go below (by brute force).
fn optimum_colouring(n: usize, edges: &[(usize, usize)], chromatic: usize) -> String {
    assert!(colourable(n, edges, chromatic));
    assert!(!colourable(n, edges, chromatic - 1));
    let (m, colour, top) = graph_colouring::model(n, edges).unwrap();
    let mut solver = Solver::new(m);
    let best = solver.minimize(top).unwrap().finish();
    assert!(best.optimal);
    assert_eq!(best.value, Some(chromatic as i32 - 1));
    let solution = best.solution.unwrap();
    let values = solution.values_of(&colour);
    assert!(edges.iter().all(|&(a, b)| values[a] != values[b]));
    assert_eq!(values.iter().max(), Some(&(chromatic as i32 - 1)));
    solution.to_string()
}

#[test]
fn petersen_graph_needs_three_colours() {
    let (n, edges) = graph_colouring::petersen();
    assert_eq!(edges.len(), 15);
    // Published: the Petersen graph has chromatic number 3.
    insta::assert_snapshot!("colouring_petersen", optimum_colouring(n, &edges, 3));
}

#[test]
fn grotzsch_graph_needs_four_colours() {
    let cycle: Vec<_> = (0..5).map(|i| (i, (i + 1) % 5)).collect();
    let (n, edges) = graph_colouring::mycielskian(5, &cycle);
    // DIMACS myciel3: 11 vertices, 20 edges, chromatic number 4.
    assert_eq!((n, edges.len()), (11, 20));
    insta::assert_snapshot!("colouring_myciel3", optimum_colouring(n, &edges, 4));
}

#[allow(dead_code)]
#[path = "../../examples/knights_tour.rs"]
mod knights_tour;

/// Whether `next` (a successor square for each square of an `n × n` board) is a closed
/// knight's tour: every move a knight's, and the moves from square 0 visit every square once
/// before they come back to it.
fn is_closed_tour(n: usize, next: &[usize]) -> bool {
    let knight = |a: usize, b: usize| {
        let dr = (a / n).abs_diff(b / n);
        let dc = (a % n).abs_diff(b % n);
        (dr, dc) == (1, 2) || (dr, dc) == (2, 1)
    };
    let mut seen = vec![false; n * n];
    let mut at = 0;
    for _ in 0..n * n {
        if seen[at] || next[at] >= n * n || !knight(at, next[at]) {
            return false;
        }
        seen[at] = true;
        at = next[at];
    }
    at == 0
}

#[test]
fn knights_tour_is_closed_and_visits_every_square() {
    let (m, next) = knights_tour::model().unwrap();
    let mut solver = Solver::new(m);
    let solution = solver.first().unwrap();
    let tour: Vec<usize> = solution
        .values_of(&next)
        .iter()
        .map(|&s| s as usize)
        .collect();
    assert!(is_closed_tour(6, &tour));
    // The checker can fail: swapping two successors breaks the cycle or a move.
    let mut broken = tour.clone();
    broken.swap(0, 1);
    assert!(!is_closed_tour(6, &broken));
    insta::assert_snapshot!("knights_tour_6x6", knights_tour::render(&solution, &next));
}
