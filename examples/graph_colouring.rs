//! Graph colouring: colour the vertices of a graph with as few colours as possible, no edge
//! joining two vertices of the same colour. The fewest is the graph's chromatic number: 3 for
//! the Petersen graph, 4 for the Grötzsch graph (`myciel3` of the DIMACS colouring benchmarks),
//! which has no triangle.
//!
//! It shows expressions (`x.ne(y)` for an edge, `max(&colour).eq(top)`, which posts the
//! maximum's propagator on `top` itself), `Solver::minimize` on the largest colour, and
//! symmetry breaking with a chain of `value_precede`: colour `c + 1` is first used after
//! colour `c`, so renaming the colours of a colouring gives no new one.
//!
//! Run with `cargo run --release --example graph_colouring`.

use bezzel::core::expr::max;
use bezzel::prelude::*;

/// The Petersen graph: an outer 5-cycle, an inner pentagram, and five spokes between them.
pub(crate) fn petersen() -> (usize, Vec<(usize, usize)>) {
    let mut edges = Vec::new();
    for i in 0..5 {
        edges.push((i, (i + 1) % 5));
        edges.push((i, i + 5));
        edges.push((5 + i, 5 + (i + 2) % 5));
    }
    (10, edges)
}

/// The Mycielskian of a graph (Mycielski, 1955): a twin `w_i` for each vertex `u_i`, joined to
/// the neighbours of `u_i`, and one more vertex joined to every twin. It needs one colour more
/// and adds no triangle; that of the 5-cycle is the Grötzsch graph.
pub(crate) fn mycielskian(n: usize, edges: &[(usize, usize)]) -> (usize, Vec<(usize, usize)>) {
    let mut out = edges.to_vec();
    for &(a, b) in edges {
        out.push((n + a, b));
        out.push((a, n + b));
    }
    out.extend((0..n).map(|i| (n + i, 2 * n)));
    (2 * n + 1, out)
}

/// The colouring model: `colour[v]` in `0..n` for each vertex and `top` the largest colour,
/// the objective to minimise.
pub(crate) fn model(
    n: usize,
    edges: &[(usize, usize)],
) -> Result<(Model, Vec<VarId>, VarId), ModelError> {
    let mut m = Model::new();
    let colour = m.named_vars("colour", n, 0..n as i32)?;
    for &(a, b) in edges {
        let (Some(&x), Some(&y)) = (colour.get(a), colour.get(b)) else {
            return Err(ModelError::InvalidArgument {
                reason: format!("edge ({a}, {b}) names a vertex beyond the {n} of the graph"),
            });
        };
        m.post(x.ne(y))?;
    }
    for c in 1..n as i32 {
        m.value_precede(c - 1, c, &colour)?;
    }
    let top = m.named_var("top", 0..n as i32)?;
    m.post(max(&colour).eq(top))?;
    Ok((m, colour, top))
}

fn main() -> Result<(), ModelError> {
    let (n, cycle): (usize, Vec<_>) = (5, (0..5).map(|i| (i, (i + 1) % 5)).collect());
    let graphs = [
        ("Petersen", petersen()),
        ("Grötzsch (myciel3)", mycielskian(n, &cycle)),
    ];
    for (name, (n, edges)) in graphs {
        let (m, colour, top) = model(n, &edges)?;
        let mut solver = Solver::new(m);
        let best = solver.minimize(top)?.finish();
        match (&best.solution, best.value) {
            (Some(solution), Some(value)) => {
                println!("{name}: {} colours", value + 1);
                println!("  colours: {:?}", solution.values_of(&colour));
            }
            _ => println!("{name}: no colouring"),
        }
        println!("  optimal: {}; {}\n", best.optimal, best.stats);
    }
    Ok(())
}
