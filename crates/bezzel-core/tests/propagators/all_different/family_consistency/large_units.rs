//! Units of 9, 16 and 64 cells and families of 64 units and more: random shapes around a
//! planted solution, 16 × 16 Sudokus and nearly complete grids, and units over 64 values
//! agree with the units one by one and keep every unit consistent and every pair locked.

use super::*;

/// Units of `size` cells (9 or 16) over shared variables around a planted solution: `n`
/// variables planted with `1..=size` (each value at least once), each unit a random choice of
/// one variable per value (so the plant satisfies it), about `percent` of the variables given,
/// the others over `1..=size` with holes (never the planted value), and sometimes one declared
/// over `0..=size` (its units are then not exact).
fn shapes(rng: &mut Rng, size: usize, extra: usize, units: usize, percent: u64) -> Case {
    let n = size + extra;
    let mut planted: Vec<i32> = (1..=size as i32).collect();
    planted.extend((0..extra).map(|_| rng.range(1, size as i64) as i32));
    for i in (1..n).rev() {
        planted.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let wide = rng.chance(30).then(|| rng.below(n as u64) as usize);
    let domains: Vec<Vec<i32>> = (0..n)
        .map(|i| {
            if Some(i) == wide {
                let mut d = subset(rng, 1, size as i32, Some(planted[i]), 4);
                d.insert(0, 0);
                d
            } else {
                around(rng, planted[i], size as i32, percent, 30, 3)
            }
        })
        .collect();
    let units = (0..units)
        .map(|_| {
            (1..=size as i32)
                .map(|v| {
                    let holders: Vec<usize> = (0..n).filter(|&i| planted[i] == v).collect();
                    holders[rng.below(holders.len() as u64) as usize]
                })
                .collect()
        })
        .collect();
    Case::new(domains, units)
}

#[test]
fn shapes_of_nine_and_sixteen_cells_agree_with_the_units_one_by_one() {
    let mut rng = Rng::seeded(916);
    let mut paired = 0;
    for round in 0..100 {
        let size = if round % 2 == 0 { 9 } else { 16 };
        let extra = rng.range(2, 6) as usize;
        let units = rng.range(2, 6) as usize;
        let percent = rng.range(20, 60) as u64;
        let case = shapes(&mut rng, size, extra, units, percent);
        if !case.connected() {
            continue;
        }
        paired += usize::from(!case.pairs().is_empty());
        let (found, complete) = prefix_agree(&case, 30, 20_000);
        if size == 9 {
            audit(&case, 1, 200, None);
        }
        // The plant is a solution: a complete search below the limit finds it.
        if complete && (found.len() as u64) < 30 {
            assert!(!found.is_empty(), "the plant lost on {case:?}");
        }
        // The root: compared with the solutions found by the units one by one, all of them
        // where there are few.
        let (m, vars) = case.build(Post::OneByOne);
        let mut c = checked();
        c.limits.solutions = Some(2_000);
        c.limits.nodes = Some(20_000);
        let mut s = Solver::with_config(m, c);
        let all = set_of(&mut s, &vars);
        if s.stats().stopped.is_none() {
            root(&case, Post::Family, &all);
            root(&case, Post::TwoBatches, &all);
        }
    }
    assert!(paired >= 30, "{paired} shapes with pairs");
}

/// A solved 16 × 16 Sudoku (the usual pattern, with its digits, bands, stacks, rows within
/// bands and columns within stacks shuffled), about `percent` of it given.
fn sixteen(rng: &mut Rng, percent: u64) -> (Case, Vec<i32>) {
    let shuffle = |rng: &mut Rng, v: &mut Vec<usize>| {
        for i in (1..v.len()).rev() {
            v.swap(i, rng.below(i as u64 + 1) as usize);
        }
    };
    let order = |rng: &mut Rng| -> Vec<usize> {
        let mut bands: Vec<usize> = (0..4).collect();
        shuffle(rng, &mut bands);
        let mut out = Vec::new();
        for b in bands {
            let mut within: Vec<usize> = (0..4).collect();
            shuffle(rng, &mut within);
            out.extend(within.into_iter().map(|w| b * 4 + w));
        }
        out
    };
    let (rows, cols) = (order(rng), order(rng));
    let mut digits: Vec<usize> = (0..16).collect();
    shuffle(rng, &mut digits);
    let pattern = |r: usize, c: usize| (4 * (r % 4) + r / 4 + c) % 16;
    let solved: Vec<i32> = (0..256)
        .map(|i| digits[pattern(rows[i / 16], cols[i % 16])] as i32 + 1)
        .collect();
    let domains = (0..256)
        .map(|i| {
            if rng.chance(percent) {
                vec![solved[i]]
            } else {
                (1..=16).collect()
            }
        })
        .collect();
    let mut units: Vec<Vec<usize>> = Vec::new();
    for r in 0..16 {
        units.push((0..16).map(|c| r * 16 + c).collect());
        units.push((0..16).map(|c| c * 16 + r).collect());
        let (br, bc) = (r / 4 * 4, r % 4 * 4);
        units.push((0..16).map(|i| (br + i / 4) * 16 + bc + i % 4).collect());
    }
    (Case::new(domains, units), solved)
}

#[test]
fn sixteen_by_sixteen_sudokus_count_as_the_units_one_by_one() {
    let mut rng = Rng::seeded(1616);
    for round in 0..16 {
        let percent = rng.range(45, 80) as u64;
        let (case, solved) = sixteen(&mut rng, percent);
        assert!(case.holds(&solved));
        // 16 rows and 16 columns, each crossing 4 boxes.
        assert_eq!(case.pairs().len(), 128);
        let mut counts = Vec::new();
        for post in [Post::Family, Post::OneByOne] {
            let (m, vars) = case.build(post);
            let mut c = checked();
            c.limits.solutions = Some(3);
            c.limits.nodes = Some(20_000);
            let mut s = Solver::with_config(m, c);
            let found = set_of(&mut s, &vars);
            for a in &found {
                assert!(case.holds(a), "{post:?}: a non-solution");
            }
            counts.push((found, s.stats().clone()));
        }
        let ((fa, sa), (fb, sb)) = (&counts[0], &counts[1]);
        if sa.is_complete() && sb.is_complete() {
            assert_eq!(fa, fb, "round {round}");
        }
        if sa.is_complete() && (fa.len() as u64) < 3 {
            assert!(fa.contains(&solved), "round {round}: the solution lost");
        }
        let known: BTreeSet<Vec<i32>> = fa.union(fb).cloned().chain([solved]).collect();
        root(&case, Post::Family, &known);
        if round < 4 {
            prefix_agree(&case, 2, 20_000);
        }
    }
}

#[test]
fn nearly_complete_sixteen_by_sixteen_grids_find_exactly_their_completions() {
    // A few cells open: often a unique completion; every other grid has one wrong given.
    let mut rng = Rng::seeded(7);
    for round in 0..6 {
        let (mut case, solved) = sixteen(&mut rng, 93);
        if round % 2 == 1 {
            let i = rng.below(256) as usize;
            case.domains[i] = vec![solved[i] % 16 + 1];
        }
        let want = case.enumerate_limited(3);
        let (m, vars) = case.build(Post::Family);
        let mut s = Solver::with_config(m, checked());
        let found = set_of(&mut s, &vars);
        assert_eq!(found, want, "round {round}");
        root(&case, Post::Family, &want);
    }
}
#[test]
fn families_of_sixty_four_units_and_more_find_every_solution() {
    // Units of three cells (not exact) or four (mostly exact, and then paired with others)
    // over ten shared variables and four values, around a plant: 63 to 70 units, the model
    // forming families of at most 64 (a pair may fall across two families, one unit alone
    // keeps its own propagator).
    let mut rng = Rng::seeded(64);
    for count in [63, 64, 65, 66, 70] {
        let planted: Vec<i32> = (0..10).map(|i| i % 4 + 1).collect();
        let mut units = Vec::new();
        while units.len() < count {
            let size = rng.range(3, 4) as usize;
            let unit: Vec<usize> = (0..size).map(|_| rng.below(10) as usize).collect();
            let values: BTreeSet<i32> = unit.iter().map(|&i| planted[i]).collect();
            let cells: BTreeSet<usize> = unit.iter().copied().collect();
            if values.len() == size && cells.len() == size {
                units.push(unit);
            }
        }
        let domains = (0..10)
            .map(|i| subset(&mut rng, 1, 4, Some(planted[i]), 2))
            .collect();
        let case = Case::new(domains, units);
        assert!(!case.pairs().is_empty());
        let expected = case.enumerate();
        assert!(expected.contains(&planted));
        for post in [Post::Family, Post::TwoBatches] {
            let (m, vars) = case.build(post);
            assert_eq!(all_solutions(m, &vars), expected, "{count} units");
            // Locked candidates only within a family: the rule is checked for one family.
            if count <= 64 || post == Post::TwoBatches {
                root(&case, post, &expected);
            }
        }
    }
}

#[test]
fn units_over_sixty_four_values_from_minus_thirty_two_find_every_solution() {
    // Two units of 64 cells over -32..=31 sharing 60 cells (a pair), and a third of 9 cells,
    // around a plant with all but a few cells given.
    let mut rng = Rng::seeded(3264);
    for _ in 0..6 {
        let n = 68;
        let mut planted: Vec<i32> = (-32..32).collect();
        for i in (1..64).rev() {
            planted.swap(i, rng.below(i as u64 + 1) as usize);
        }
        // The last four cells repeat the values of four of the first that the second unit
        // leaves out.
        let left_out: Vec<usize> = (0..4).map(|j| j * 16 + rng.below(16) as usize).collect();
        let repeated: Vec<i32> = left_out.iter().map(|&i| planted[i]).collect();
        planted.extend(repeated);
        let a: Vec<usize> = (0..64).collect();
        let b: Vec<usize> = (0..n).filter(|i| !left_out.contains(i)).collect();
        let c: Vec<usize> = (0..9).map(|j| j * 7).collect();
        let domains = (0..n)
            .map(|i| {
                if rng.chance(90) {
                    vec![planted[i]]
                } else {
                    subset(&mut rng, -32, 31, Some(planted[i]), 3)
                }
            })
            .collect();
        let case = Case::new(domains, vec![a, b, c]);
        assert_eq!(case.pairs(), vec![(0, 1)]);
        let expected = case.enumerate();
        assert!(expected.contains(&planted));
        root(&case, Post::Family, &expected);
        let (m, vars) = case.build(Post::Family);
        assert_eq!(all_solutions(m, &vars), expected);
    }
}

#[test]
fn two_units_of_sixty_four_open_cells_stay_consistent_and_locked() {
    // Two units of 64 cells over -32..=31 sharing 62 (a pair), each cell over its planted
    // value and five others: Régin on up to 64 open cells, every bit of the word in use.
    let mut rng = Rng::seeded(6464);
    for _ in 0..3 {
        let mut planted: Vec<i32> = (-32..32).collect();
        for i in (1..64).rev() {
            planted.swap(i, rng.below(i as u64 + 1) as usize);
        }
        planted.extend([planted[0], planted[1]]);
        let domains: Vec<Vec<i32>> = planted
            .iter()
            .map(|&p| {
                let mut d: BTreeSet<i32> = (0..5).map(|_| rng.range(-32, 31) as i32).collect();
                d.insert(p);
                d.into_iter().collect()
            })
            .collect();
        let case = Case::new(domains, vec![(0..64).collect(), (2..66).collect()]);
        assert_eq!(case.pairs(), vec![(0, 1)]);
        root(&case, Post::Family, &BTreeSet::from([planted]));
        prefix_agree(&case, 3, 5_000);
        assert!(audit(&case, 1, 8, None) > 0);
    }
}
