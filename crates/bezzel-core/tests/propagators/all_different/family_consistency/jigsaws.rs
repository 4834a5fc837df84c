//! Jigsaw grids of four and five rows, with irregular regions sharing cells with the rows and
//! columns: the family's root domains, every kind of run, branch and bound and parallel
//! workers find what brute force and the units one by one find.

use super::*;

/// A jigsaw grid: `n` rows, `n` columns and `n` connected regions of `n` cells (the rows,
/// reshaped by random swaps that keep every region connected), about `percent` of the cells
/// given from a Latin square (not always a solution of the regions: many cases are
/// infeasible), some cells with holes, and sometimes a unit that is not exact (a region less
/// one cell) or the main diagonal.
pub(super) fn jigsaw(rng: &mut Rng, n: usize, percent: u64) -> Case {
    let mut region: Vec<usize> = (0..n * n).map(|i| i / n).collect();
    let connected = |region: &[usize], r: usize| {
        let cells: Vec<usize> = (0..n * n).filter(|&i| region[i] == r).collect();
        let mut seen = vec![cells[0]];
        let mut stack = vec![cells[0]];
        while let Some(i) = stack.pop() {
            let (row, col) = (i / n, i % n);
            let mut next = Vec::new();
            if row > 0 {
                next.push(i - n);
            }
            if row + 1 < n {
                next.push(i + n);
            }
            if col > 0 {
                next.push(i - 1);
            }
            if col + 1 < n {
                next.push(i + 1);
            }
            for j in next {
                if region[j] == r && !seen.contains(&j) {
                    seen.push(j);
                    stack.push(j);
                }
            }
        }
        seen.len() == cells.len()
    };
    for _ in 0..60 * n {
        let (i, j) = (
            rng.below((n * n) as u64) as usize,
            rng.below((n * n) as u64) as usize,
        );
        let (ri, rj) = (region[i], region[j]);
        if ri == rj {
            continue;
        }
        region.swap(i, j);
        if !connected(&region, ri) || !connected(&region, rj) {
            region.swap(i, j);
        }
    }
    let mut units: Vec<Vec<usize>> = Vec::new();
    for r in 0..n {
        units.push((0..n).map(|c| r * n + c).collect());
        units.push((0..n).map(|c| c * n + r).collect());
        units.push((0..n * n).filter(|&i| region[i] == r).collect());
    }
    if rng.chance(40) {
        let r = rng.below(n as u64) as usize;
        let mut cells: Vec<usize> = (0..n * n).filter(|&i| region[i] == r).collect();
        cells.remove(rng.below(n as u64) as usize);
        units.push(cells);
    }
    if rng.chance(40) {
        units.push((0..n).map(|i| i * n + i).collect());
    }
    // Givens from a solution, found by random decisions over the units one by one (or from a
    // Latin square if the regions leave none, or once in four: mostly infeasible then).
    let open = Case::new(vec![(1..=n as i32).collect(); n * n], units.clone());
    let (m, vars) = open.build(Post::OneByOne);
    let mut s = Solver::with_config(m, checked()).brancher(RandomDecisions(rng.clone()));
    rng.next();
    let shift = rng.below(n as u64) as usize;
    let solved: Vec<i32> = match s.first() {
        Some(sol) if !rng.chance(25) => sol.values_of(&vars),
        _ => (0..n * n)
            .map(|i| ((i / n + i % n + shift) % n + 1) as i32)
            .collect(),
    };
    let domains = (0..n * n)
        .map(|i| around(rng, solved[i], n as i32, percent, 20, 2))
        .collect();
    Case::new(domains, units)
}

#[test]
fn four_by_four_jigsaws_against_brute_force_and_the_units_one_by_one() {
    let mut rng = Rng::seeded(2026);
    let (mut paired, mut feasible) = (0, 0);
    for seed in 0..150 {
        let percent = rng.range(0, 40) as u64;
        let case = jigsaw(&mut rng, 4, percent);
        let expected = case.enumerate();
        paired += usize::from(!case.pairs().is_empty());
        feasible += usize::from(!expected.is_empty());
        for post in [Post::Family, Post::TwoBatches] {
            root(&case, post, &expected);
        }
        let (m, vars) = case.build(Post::OneByOne);
        assert_eq!(
            all_solutions(m, &vars),
            expected,
            "the units one by one against brute force on {case:?}"
        );
        runs(&case, Post::Family, &expected, seed);
        audit(&case, 2, 300, Some(&expected));
        if seed % 4 == 0 {
            runs(&case, Post::TwoBatches, &expected, seed);
        }
    }
    assert!(
        paired >= 100 && feasible >= 75,
        "jigsaws pair their regions with rows: {paired}, {feasible} feasible"
    );
}

#[test]
fn five_by_five_jigsaws_agree_with_the_units_one_by_one() {
    let mut rng = Rng::seeded(55);
    let (mut feasible, mut complete) = (0, 0);
    for _ in 0..80 {
        let percent = rng.range(15, 45) as u64;
        let case = jigsaw(&mut rng, 5, percent);
        let (m, vars) = case.build(Post::OneByOne);
        let mut c = checked();
        c.limits.solutions = Some(300);
        let mut s = Solver::with_config(m, c);
        let expected = set_of(&mut s, &vars);
        feasible += usize::from(!expected.is_empty());
        if s.stats().stopped.is_none() {
            complete += 1;
            root(&case, Post::Family, &expected);
            let (m, vars) = case.build(Post::Family);
            assert_eq!(all_solutions(m, &vars), expected, "{case:?}");
        }
        prefix_agree(&case, 20, 50_000);
        audit(&case, 1, 300, None);
    }
    assert!(
        feasible >= 40 && complete >= 20,
        "{feasible} feasible, {complete} complete"
    );
}

#[test]
fn branch_and_bound_and_parallel_runs_over_jigsaws_find_the_brute_force_answers() {
    let mut rng = Rng::seeded(99);
    let mut runs_done = 0;
    while runs_done < 12 {
        let case = jigsaw(&mut rng, 4, 15);
        let expected = case.enumerate();
        if expected.is_empty() {
            continue;
        }
        runs_done += 1;
        let weights: Vec<i32> = (0..16).map(|_| rng.range(-3, 3) as i32).collect();
        let objective = |a: &[i32]| -> i64 {
            a.iter()
                .zip(&weights)
                .map(|(&v, &w)| i64::from(v) * i64::from(w))
                .sum()
        };
        // The objective as a variable z = sum(w x), posted in both models.
        let build = |post: Post| -> (Model, Vec<VarId>, VarId) {
            let (mut m, vars) = case.build(post);
            let z = m.int_var(-200..=200).unwrap();
            let mut coefficients = weights.clone();
            coefficients.push(-1);
            let mut xs = vars.clone();
            xs.push(z);
            m.linear(&coefficients, &xs, Relation::Eq, 0).unwrap();
            (m, vars, z)
        };
        for sense in [Sense::Minimize, Sense::Maximize] {
            let want = match sense {
                Sense::Minimize => expected.iter().map(|a| objective(a)).min(),
                Sense::Maximize => expected.iter().map(|a| objective(a)).max(),
            };
            for post in [Post::Family, Post::OneByOne] {
                let (m, vars, z) = build(post);
                let mut s = Solver::with_config(m, checked());
                let best = match sense {
                    Sense::Minimize => s.minimize(z).unwrap().finish(),
                    Sense::Maximize => s.maximize(z).unwrap().finish(),
                };
                assert_eq!(
                    best.value.map(i64::from),
                    want,
                    "{post:?} {sense:?} on {case:?}"
                );
                assert!(best.optimal);
                let sol = best.solution.expect("a solution");
                assert!(expected.contains(&sol.values_of(&vars)));
            }
            // In parallel, over copies of the family's model.
            let (_, _, z) = build(Post::Family);
            let search =
                ParallelSearch::new(format!("jigsaw {runs_done}"), || Ok(build(Post::Family).0))
                    .config(checked())
                    .threads(Some(2))
                    .per_worker(4);
            let subproblems = search.subproblems().unwrap();
            let best = search
                .optimize(&subproblems, z.into(), sense, None, |_, _| {})
                .unwrap();
            assert_eq!(best.value.map(i64::from), want, "parallel {sense:?}");
            let count = search.count(&subproblems, None, |_, _| {}).unwrap();
            assert_eq!(count.solutions, expected.len() as u64, "parallel count");
        }
    }
}
