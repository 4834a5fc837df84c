//! The family's pruning rules exactly: locked candidates across odd shapes prune what the
//! rule says and no more, units at both ends of a 64-value window stay consistent, and a
//! model propagated again after each given keeps the rules and every solution.

use super::few_open_cells::crafted;
use super::jigsaws::jigsaw;
use super::*;

#[test]
fn locked_candidates_across_odd_shapes_prune_exactly_the_rule() {
    // Two units over 1..=5 sharing cells 0, 1 and 2 (an L and a bar, say). Outside the shared
    // cells the first has cells 3 and 4, over {2, 3} and {2, 4}: two of 2, 3 and 4. The second
    // must take the same two values in its cells 5 and 6, which so lose 1 and 5; each unit
    // alone is domain consistent, so the units one by one keep them.
    let mut domains: Vec<Vec<i32>> = vec![(1..=5).collect(); 7];
    domains[3] = vec![2, 3];
    domains[4] = vec![2, 4];
    let case = Case::new(domains, vec![vec![0, 1, 2, 3, 4], vec![0, 1, 2, 5, 6]]);
    assert_eq!(case.pairs(), vec![(0, 1)]);
    let expected = case.enumerate();
    root(&case, Post::Family, &expected);
    let (mut m, vars) = case.build(Post::Family);
    m.propagate().unwrap();
    for cell in [5, 6] {
        assert_eq!(m.domain(vars[cell]).unwrap(), vec![2, 3, 4], "cell {cell}");
    }
    // The same units, but the second declared over 1..=6 in one cell: not exact, no pair, and
    // no pruning beyond the units one by one.
    let mut wide = case.clone();
    wide.domains[6] = (1..=6).collect();
    assert!(wide.pairs().is_empty());
    root(&wide, Post::Family, &wide.enumerate());
    // A given outside the values of the other: its declared values differ, no pair.
    let mut given = case.clone();
    given.domains[6] = vec![6];
    assert!(given.pairs().is_empty());
    root(&given, Post::Family, &given.enumerate());
    // Holes inside the declared range keep the unit exact.
    let mut holes = case;
    holes.domains[5] = vec![1, 5];
    holes.domains[6] = vec![1, 3, 5];
    assert_eq!(holes.pairs(), vec![(0, 1)]);
    let expected = holes.enumerate();
    root(&holes, Post::Family, &expected);
    runs(&holes, Post::Family, &expected, 5);
}

#[test]
fn units_at_both_ends_of_one_window_stay_consistent_and_lose_no_solution() {
    // Exact units near the bottom and near the top of a window of 64 values (-8 to 55),
    // joined by a variable declared over the whole window, so that the masks use the word's
    // lowest and highest bits; pairs at both ends.
    let mut rng = Rng::seeded(5508);
    for round in 0..60 {
        let (low, high) = (-8 + rng.range(0, 2) as i32, 51 + rng.range(0, 1) as i32);
        let mut domains: Vec<Vec<i32>> = Vec::new();
        let mut units = Vec::new();
        for base in [low, high] {
            // Two units of four cells over base..base + 3 sharing two cells.
            let first = domains.len();
            for _ in 0..6 {
                let d = if rng.chance(25) {
                    vec![base + rng.range(0, 3) as i32]
                } else {
                    subset(&mut rng, base, base + 3, None, 2)
                };
                domains.push(d);
            }
            units.push((first..first + 4).collect::<Vec<usize>>());
            units.push(vec![first, first + 1, first + 4, first + 5]);
        }
        let link = domains.len();
        domains.push(if round % 2 == 0 {
            (-8..=55).collect()
        } else {
            vec![-8, 0, 20, 54, 55]
        });
        units.push(vec![0, 6, link]);
        units.push(vec![1, 7, link]);
        let case = Case::new(domains, units);
        let expected = case.enumerate();
        root(&case, Post::Family, &expected);
        let (mut m, _) = case.build(Post::Family);
        let _ = m.propagate();
        assert_eq!(m.num_propagators(), case.units.len() + 1, "one family");
        let (m, vars) = case.build(Post::Family);
        assert_eq!(all_solutions(m, &vars), expected, "{case:?}");
        audit(&case, 2, 200, Some(&expected));
        if round % 5 == 0 {
            runs(&case, Post::Family, &expected, round);
        }
    }
}

#[test]
fn propagating_again_after_each_given_keeps_the_rules_and_every_solution() {
    // The same model propagated again and again as givens are added (the family's slots and
    // caches kept between runs), then searched (from the declared domains): at every step
    // the root domains against the units one by one, the remaining solutions and the rules.
    let mut rng = Rng::seeded(1212);
    for round in 0..40 {
        let case = if round % 2 == 0 {
            let percent = rng.range(0, 20) as u64;
            jigsaw(&mut rng, 4, percent)
        } else {
            crafted(&mut rng)
        };
        let pairs = case.pairs();
        let mut left = case.enumerate();
        let (mut a, vars) = case.build(Post::Family);
        let (mut b, vars_b) = case.build(Post::OneByOne);
        let mut fixes = Vec::new();
        for step in 0..6 {
            let (ra, rb) = (a.propagate(), b.propagate());
            assert!(rb.is_ok() || ra.is_err(), "step {step} on {case:?}");
            if ra.is_err() {
                assert!(left.is_empty(), "step {step}: {fixes:?} failed on {case:?}");
                break;
            }
            let domains: Vec<Vec<i32>> = vars.iter().map(|&x| a.domain(x).unwrap()).collect();
            let what = format!("step {step} after {fixes:?} on {case:?}");
            for (i, d) in domains.iter().enumerate() {
                let db = b.domain(vars_b[i]).unwrap();
                assert!(d.iter().all(|v| db.contains(v)), "{what}: x{i}");
                if pairs.is_empty() {
                    assert_eq!(*d, db, "{what}: x{i}");
                }
                assert!(left.iter().all(|s| d.contains(&s[i])), "{what}: x{i} lost");
            }
            units_consistent(&case, &domains, &what);
            locked(&case, &pairs, &domains, &what);
            // A given: a value of an open cell's root domain (from a solution if any).
            let open: Vec<usize> = (0..vars.len()).filter(|&i| domains[i].len() > 1).collect();
            if open.is_empty() {
                break;
            }
            let i = open[rng.below(open.len() as u64) as usize];
            let v = match left.iter().next() {
                Some(s) if rng.chance(40) => s[i],
                _ => domains[i][rng.below(domains[i].len() as u64) as usize],
            };
            a.fix(vars[i], v).unwrap();
            b.fix(vars_b[i], v).unwrap();
            fixes.push((i, v));
            left.retain(|s| s[i] == v);
        }
        let mut s = Solver::with_config(a, checked());
        s.observe(Inspector::new(&case, Post::Family));
        assert_eq!(
            set_of(&mut s, &vars),
            left,
            "search after {fixes:?} on {case:?}"
        );
        assert_eq!(s.count(), left.len() as u64);
    }
}
