//! The family's AVX2 kernels search exactly as the plain ones do, and both give the answers of
//! the units one by one: the kernels (`wide.rs`: the scan, update, cache compare and open-cell
//! mask of 9-cell units), the per-slot other-slot lists (cells in at most four units; a spare
//! slot past the end absorbs the padding writes), the first-slot table, the early return of
//! the matching (one open cell, or three in a unit with as many values as cells), and the
//! dom/wdeg weights kept per variable.
//!
//! Two kinds of ground truth:
//! - the same units posted one by one as `AllDifferentDomain` propagators (no family forms),
//!   compared by the first solutions in input order (lexicographic, whatever the pruning), by
//!   complete solution sets where small, and, for the smallest, by a backtracking enumeration
//!   written here;
//! - the other kernel: the test binary runs itself again with `BEZZEL_NO_AVX2=1` (the plain
//!   kernel) and every search, of every order (dom/wdeg with restarts, a solver reused after
//!   `forget_weights`, branch and bound, parallel counts) must give the same answers and the
//!   same nodes, failures and propagations. Where the CPU has no AVX2 both runs are plain.
//!   Also: a count after `forget_weights` must equal a fresh solver's, nodes and all.
//!
//! Instances whose units have 9 cells but are not Sudoku's: Latin squares, jigsaws (boxes with
//! cells swapped), Sudoku X (the centre cell in five units: no other-slot lists), windoku (cells in
//! four units: the lists full), 9-cell units over 10 to 12 values (not exact), random 9-cell
//! units over 30 cells (cells in many units), mixes of 9-cell units with units of 3, 8, 10 and
//! 16 cells, values placed anywhere in the window of 64 (`-5..=3`, `50..=58`, a unit at the top
//! of its window, two units' value sets far apart in one family), rows posted two or three
//! times, 64 units in one family, 4 × 4 and 16 × 16 Sudokus, and every 10th of the forum's
//! hardest Sudokus (`benches/data`).

use bezzel_core::parallel::ParallelSearch;
use bezzel_core::prelude::*;
use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::brute;

use brute::Rng;

/// Variables with domains and units over them (positions in `domains`).
#[derive(Debug, Clone)]
struct Case {
    name: String,
    domains: Vec<Vec<i32>>,
    units: Vec<Vec<usize>>,
}

impl Case {
    /// The model; `family`: the units through `all_different_with(.., Domain)` (a family
    /// forms), else one `AllDifferentDomain` each.
    fn build(&self, family: bool) -> (Model, Vec<VarId>) {
        brute::units_model(&self.domains, &self.units, family)
    }

    fn holds(&self, a: &[i32]) -> bool {
        self.units.iter().all(|unit| {
            let values: BTreeSet<i32> = unit.iter().map(|&i| a[i]).collect();
            values.len() == unit.len()
        }) && a.iter().zip(&self.domains).all(|(v, d)| d.contains(v))
    }

    /// Every solution, by backtracking over the variables in input order with each unit
    /// checked as soon as its cells are set.
    fn enumerate(&self) -> BTreeSet<Vec<i32>> {
        let all = brute::enumerate_units(&self.domains, &self.units);
        assert!(all.iter().all(|a| self.holds(a)));
        all
    }
}

fn shuffle<T>(rng: &mut Rng, v: &mut [T]) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

fn permutation(rng: &mut Rng, n: usize) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    shuffle(rng, &mut p);
    p
}

/// Rows and columns of an `n` × `n` grid.
fn rows_and_columns(n: usize) -> Vec<Vec<usize>> {
    let rows = (0..n).map(|r| (0..n).map(|c| r * n + c).collect());
    let cols = (0..n).map(|c| (0..n).map(|r| r * n + c).collect());
    rows.chain(cols).collect()
}

/// The boxes of a `b²` × `b²` Sudoku.
fn boxes(b: usize) -> Vec<Vec<usize>> {
    let n = b * b;
    (0..n)
        .map(|k| {
            let (r0, c0) = ((k / b) * b, (k % b) * b);
            (0..n).map(|i| (r0 + i / b) * n + c0 + i % b).collect()
        })
        .collect()
}

/// A solved `b²` × `b²` Sudoku (values `0..n`), shuffled by symbols, bands and stacks.
fn planted_sudoku(rng: &mut Rng, b: usize) -> Vec<usize> {
    let n = b * b;
    let symbols = permutation(rng, n);
    let band = permutation(rng, b);
    let stack = permutation(rng, b);
    let within: Vec<Vec<usize>> = (0..b).map(|_| permutation(rng, b)).collect();
    let within_c: Vec<Vec<usize>> = (0..b).map(|_| permutation(rng, b)).collect();
    let row = |r: usize| band[r / b] * b + within[r / b][r % b];
    let col = |c: usize| stack[c / b] * b + within_c[c / b][c % b];
    (0..n * n)
        .map(|i| {
            let (r, c) = (row(i / n), col(i % n));
            symbols[(r * b + r / b + c) % n]
        })
        .collect()
}

/// A solved `n` × `n` Latin square (values `0..n`).
fn planted_latin(rng: &mut Rng, n: usize) -> Vec<usize> {
    let (pr, pc, ps) = (
        permutation(rng, n),
        permutation(rng, n),
        permutation(rng, n),
    );
    (0..n * n)
        .map(|i| ps[(pr[i / n] + pc[i % n]) % n])
        .collect()
}

/// Domains around a planted solution (values `0..n`, shifted by `base`): a given cell holds
/// its value alone; the others the planted value and each other value of `0..n` with
/// `density` percent, or all `n` values when `density` is 100.
fn around(
    rng: &mut Rng,
    planted: &[usize],
    n: usize,
    base: i32,
    givens: u64,
    density: u64,
) -> Vec<Vec<i32>> {
    planted
        .iter()
        .map(|&p| {
            if rng.chance(givens) {
                vec![base + p as i32]
            } else {
                (0..n)
                    .filter(|&v| v == p || rng.chance(density))
                    .map(|v| base + v as i32)
                    .collect()
            }
        })
        .collect()
}

/// A solution of `units` over `cells` variables with values `0..n`, found by a search over
/// the units one by one (no family), its symbols shuffled; `None` past a node limit.
fn planted_by_search(
    rng: &mut Rng,
    units: &[Vec<usize>],
    cells: usize,
    n: usize,
) -> Option<Vec<usize>> {
    let case = Case {
        name: String::new(),
        domains: vec![(0..n as i32).collect(); cells],
        units: units.to_vec(),
    };
    let (m, vars) = case.build(false);
    let mut s = Solver::with_config(m, config(VarOrder::DomWDeg, ValueOrder::Min, 1_000));
    let found = s.first()?.values_of(&vars);
    let symbols = permutation(rng, n);
    Some(found.iter().map(|&v| symbols[v as usize]).collect())
}

/// Irregular regions of a 9 × 9 grid that `planted` (a solved Sudoku) also solves: from the
/// boxes, cells of one symbol swapped between regions (each region keeps nine symbols) where
/// both regions stay connected.
fn jigsaw_regions(rng: &mut Rng, planted: &[usize]) -> Vec<Vec<usize>> {
    let mut owner: Vec<usize> = (0..81).map(|i| (i / 27) * 3 + (i % 9) / 3).collect();
    let connected = |owner: &[usize], k: usize| -> bool {
        let cells: Vec<usize> = (0..81).filter(|&i| owner[i] == k).collect();
        let mut seen = vec![cells[0]];
        let mut i = 0;
        while i < seen.len() {
            let c = seen[i];
            i += 1;
            for n in [c.wrapping_sub(9), c + 9, c.wrapping_sub(1), c + 1] {
                let adjacent = n < 81 && (n / 9 == c / 9 || n % 9 == c % 9);
                if adjacent && owner[n] == k && !seen.contains(&n) {
                    seen.push(n);
                }
            }
        }
        seen.len() == cells.len()
    };
    let mut swaps = 0;
    // Some shuffles of the boxes leave few swaps (or none): a bounded number of tries.
    for _ in 0..20_000 {
        if swaps == 12 {
            break;
        }
        let (a, b) = (rng.below(81) as usize, rng.below(81) as usize);
        if owner[a] == owner[b] || planted[a] != planted[b] {
            continue;
        }
        let (ka, kb) = (owner[a], owner[b]);
        owner[a] = kb;
        owner[b] = ka;
        if connected(&owner, ka) && connected(&owner, kb) {
            swaps += 1;
        } else {
            owner[a] = ka;
            owner[b] = kb;
        }
    }
    (0..9)
        .map(|k| (0..81).filter(|&i| owner[i] == k).collect())
        .collect()
}

/// Every instance of this suite, from one seed.
fn cases(seed: u64) -> Vec<Case> {
    let mut rng = Rng::seeded(seed);
    let mut out = Vec::new();
    let mut push = |name: String, domains: Vec<Vec<i32>>, units: Vec<Vec<usize>>| {
        out.push(Case {
            name,
            domains,
            units,
        });
    };
    // Latin squares 9 × 9 (cells in two units), values in several places of the window.
    for (k, base) in [1, -5, 50, 0, 55].into_iter().enumerate() {
        let planted = planted_latin(&mut rng, 9);
        let d = around(&mut rng, &planted, 9, base, 30 + 5 * k as u64, 55);
        push(format!("latin9 base {base}"), d, rows_and_columns(9));
        let d = around(&mut rng, &planted, 9, base, 3 * k as u64, 85);
        push(format!("sparse latin9 base {base}"), d, rows_and_columns(9));
    }
    // Sudokus 9 × 9, plain, X (diagonals: the centre in five units), windoku (four more
    // boxes: cells in four units), and jigsaws (random regions), each around a solution found
    // by a search over the units one by one, its symbols shuffled.
    for (k, base) in [1, -5, 50].into_iter().enumerate() {
        let mut units = rows_and_columns(9);
        units.extend(boxes(3));
        let mut x = units.clone();
        x.push((0..9).map(|i| i * 10).collect());
        x.push((0..9).map(|i| i * 8 + 8).collect());
        let mut w = units.clone();
        for (r0, c0) in [(1, 1), (1, 5), (5, 1), (5, 5)] {
            w.push((0..9).map(|i| (r0 + i / 3) * 9 + c0 + i % 3).collect());
        }
        for (name, units) in [("sudoku9", units), ("sudoku-x", x), ("windoku", w)] {
            let planted = planted_by_search(&mut rng, &units, 81, 9).expect(name);
            let d = around(&mut rng, &planted, 9, base, 20 + 5 * k as u64, 50);
            push(format!("{name} base {base}"), d, units.clone());
            let d = around(&mut rng, &planted, 9, base, 2 * k as u64, 90);
            push(format!("sparse {name} base {base}"), d, units);
        }
    }
    for j in 0..4 {
        let planted = planted_sudoku(&mut rng, 3);
        let mut units = rows_and_columns(9);
        units.extend(jigsaw_regions(&mut rng, &planted));
        let d = around(&mut rng, &planted, 9, 1, 15 + 5 * j, 60);
        push("jigsaw9".to_string(), d, units.clone());
        let d = around(&mut rng, &planted, 9, 1, j, 90);
        push("sparse jigsaw9".to_string(), d, units);
    }
    // A Sudoku with its rows posted twice (cells in four units) or three times (five), and
    // one with 37 more 9-cell units, each one cell of each value: 64 units in one family.
    for copies in [2, 3] {
        let planted = planted_sudoku(&mut rng, 3);
        let mut units = rows_and_columns(9);
        units.extend(boxes(3));
        for _ in 1..copies {
            units.extend(rows_and_columns(9).into_iter().take(9));
        }
        let d = around(&mut rng, &planted, 9, -5, 5, 85);
        push(format!("sudoku9 with rows {copies} times"), d, units);
    }
    {
        let planted = planted_sudoku(&mut rng, 3);
        let mut units = rows_and_columns(9);
        units.extend(boxes(3));
        while units.len() < 64 {
            let mut cells: Vec<usize> = (0..9)
                .map(|v| {
                    let holders: Vec<usize> = (0..81).filter(|&c| planted[c] == v).collect();
                    holders[rng.below(9) as usize]
                })
                .collect();
            cells.sort_unstable();
            units.push(cells);
        }
        let d = around(&mut rng, &planted, 9, 1, 5, 85);
        push("sudoku9 with 64 units".to_string(), d, units);
    }
    // Not exact: a 9 × 9 grid's rows and columns over 10 to 12 values.
    for extra in [1, 2, 3] {
        let planted = planted_latin(&mut rng, 9);
        let n = 9 + extra;
        let d: Vec<Vec<i32>> = planted
            .iter()
            .map(|&p| {
                if rng.chance(20) {
                    vec![p as i32 - 2]
                } else {
                    (0..n)
                        .filter(|&v| v == p || rng.chance(45))
                        .map(|v| v as i32 - 2)
                        .collect()
                }
            })
            .collect();
        push(format!("latin9 over {n} values"), d, rows_and_columns(9));
    }
    // Random 9-cell units over 30 cells, around a random assignment: each unit takes one
    // cell of each of 9 values (of 9 or 10), so cells lie in four units on average and some
    // in five or more.
    for values in [9, 10] {
        for _ in 0..3 {
            let planted: Vec<usize> = (0..30)
                .map(|i| {
                    if i < values {
                        i
                    } else {
                        rng.below(values as u64) as usize
                    }
                })
                .collect();
            let units: Vec<Vec<usize>> = (0..14)
                .map(|_| {
                    let mut vals = permutation(&mut rng, values);
                    vals.truncate(9);
                    let mut cells: Vec<usize> = vals
                        .iter()
                        .map(|&v| {
                            let holders: Vec<usize> =
                                (0..30).filter(|&c| planted[c] == v).collect();
                            holders[rng.below(holders.len() as u64) as usize]
                        })
                        .collect();
                    cells.sort_unstable();
                    cells
                })
                .collect();
            let d = around(&mut rng, &planted, values, 3, 10, 55);
            push(
                format!("random 9-cell units over {values} values"),
                d,
                units.clone(),
            );
            let d = around(&mut rng, &planted, values, 3, 0, 85);
            push(
                format!("sparse random 9-cell units over {values} values"),
                d,
                units,
            );
        }
    }
    // Mixes: 9-cell rows with units of 3, 8, 10 and 16 cells over the same cells.
    for _ in 0..3 {
        let planted = planted_sudoku(&mut rng, 4);
        // A 16 × 16 Sudoku's first 9 columns make 9-cell row pieces; columns are 16 long.
        let mut units: Vec<Vec<usize>> = (0..16)
            .map(|r| (0..9).map(|c| r * 16 + c).collect())
            .collect();
        units.extend((0..9).map(|c| (0..16).map(|r| r * 16 + c).collect::<Vec<usize>>()));
        units.push(vec![0, 17, 34]);
        units.push((0..8).map(|i| i * 17).collect());
        units.push((0..10).map(|i| 100 + i).collect());
        units.truncate(64);
        let cells: Vec<usize> = (0..256).collect();
        let d: Vec<Vec<i32>> = cells
            .iter()
            .map(|&i| {
                let p = planted[i];
                if rng.chance(35) {
                    vec![p as i32 - 7]
                } else {
                    (0..16)
                        .filter(|&v| v == p || rng.chance(40))
                        .map(|v| v as i32 - 7)
                        .collect()
                }
            })
            .collect();
        // Only the cells the units use: the rest would be free variables.
        let used: BTreeSet<usize> = units.iter().flatten().copied().collect();
        let index: std::collections::BTreeMap<usize, usize> =
            used.iter().enumerate().map(|(k, &c)| (c, k)).collect();
        let units = units
            .iter()
            .map(|u| u.iter().map(|c| index[c]).collect())
            .collect();
        let d = used.iter().map(|&c| d[c].clone()).collect();
        push("mixed 3/8/9/10/16-cell units".to_string(), d, units);
    }
    // One family over a wide window: a Latin square over 0..=8 and another over 50..=58
    // tied by one unit of 9 cells taking from both (its values: 18 in a 59-wide window).
    {
        let (a, b) = (planted_latin(&mut rng, 9), planted_latin(&mut rng, 9));
        let mut d = around(&mut rng, &a, 9, 0, 35, 55);
        d.extend(around(&mut rng, &b, 9, 50, 35, 55));
        let mut units = rows_and_columns(9);
        units.extend(
            rows_and_columns(9)
                .into_iter()
                .map(|u| u.into_iter().map(|c| c + 81).collect()),
        );
        units.push(vec![0, 1, 2, 3, 81, 82, 83, 84, 85]);
        push(
            "two latin squares far apart in one window".to_string(),
            d,
            units,
        );
    }
    // A unit at the top of its window: values 55..=63 with a cell reaching down to 0.
    {
        let planted = planted_latin(&mut rng, 9);
        let mut d = around(&mut rng, &planted, 9, 55, 30, 60);
        d[40] = vec![0, 55 + planted[40] as i32];
        push(
            "latin9 at the top of the window".to_string(),
            d,
            rows_and_columns(9),
        );
    }
    // 4 × 4 and 16 × 16 Sudokus.
    for b in [2, 4] {
        for _ in 0..2 {
            let planted = planted_sudoku(&mut rng, b);
            let n = b * b;
            let mut units = rows_and_columns(n);
            units.extend(boxes(b));
            let d = around(&mut rng, &planted, n, 1, if b == 2 { 10 } else { 45 }, 50);
            push(format!("sudoku{n}"), d, units);
        }
    }
    out
}

fn config(var_order: VarOrder, value_order: ValueOrder, nodes: u64) -> SearchConfig {
    let mut c = SearchConfig {
        var_order,
        value_order,
        check_solutions: true,
        ..SearchConfig::default()
    };
    c.limits.nodes = Some(nodes);
    c
}

fn stats_line(s: &Statistics) -> String {
    format!(
        "nodes {} failures {} propagations {} solutions {} restarts {} stopped {:?}",
        s.nodes, s.failures, s.propagations, s.solutions, s.restarts, s.stopped
    )
}

/// Every search of this suite on one case, written down: answers and statistics. The same
/// text from both kernels means the same search trees.
fn digest_of(case: &Case, out: &mut String) {
    let n = case.domains.len();
    writeln!(
        out,
        "## {} ({} vars, {} units)",
        case.name,
        n,
        case.units.len()
    )
    .unwrap();
    // The first solutions in input order, and counts under node limits, for several orders.
    for (var_order, value_order, nodes) in [
        (VarOrder::InputOrder, ValueOrder::Min, 3_000),
        (VarOrder::SmallestDomain, ValueOrder::Max, 3_000),
        (VarOrder::DomWDeg, ValueOrder::Split, 3_000),
        (VarOrder::SmallestDomainMaxDegree, ValueOrder::Min, 2_000),
    ] {
        let mut c = config(var_order, value_order, nodes);
        c.limits.solutions = Some(20);
        let (m, vars) = case.build(true);
        let mut s = Solver::with_config(m, c);
        let sols: Vec<Vec<i32>> = s.solutions().map(|x| x.values_of(&vars)).collect();
        writeln!(
            out,
            "{var_order:?}/{value_order:?}: {sols:?} {}",
            stats_line(s.stats())
        )
        .unwrap();
        // Again on the same solver (dom/wdeg keeps its weights), then after forgetting them.
        let again = s.count();
        writeln!(out, "  again {again} {}", stats_line(s.stats())).unwrap();
        s.forget_weights();
        let forgot = s.count();
        writeln!(out, "  forgot {forgot} {}", stats_line(s.stats())).unwrap();
        // Forgotten weights are no weights: the same count as a fresh solver's.
        let mut fresh = Solver::with_config(case.build(true).0, c);
        let fresh_count = fresh.count();
        assert_eq!(
            (forgot, stats_line(s.stats())),
            (fresh_count, stats_line(fresh.stats())),
            "{}: {var_order:?} after forget_weights, against a fresh solver",
            case.name
        );
    }
    // First solutions with restarts (dom/wdeg learning across them).
    let mut c = config(VarOrder::DomWDeg, ValueOrder::Min, 5_000);
    c.restarts = Some(Restarts { scale: 2 });
    let (m, vars) = case.build(true);
    let mut s = Solver::with_config(m, c);
    let first = s.first().map(|x| x.values_of(&vars));
    writeln!(out, "restarts: {first:?} {}", stats_line(s.stats())).unwrap();
    // Branch and bound on the first variable's value minus the last's (a view-free
    // objective: a new variable tied by a sum).
    {
        let (mut m, vars) = case.build(true);
        let z = m.int_var(-200..=200).unwrap();
        let (a, b) = (vars[0], vars[vars.len() - 1]);
        m.linear(&[1, -1, -1], &[a, b, z], Relation::Eq, 0).unwrap();
        let mut s = Solver::with_config(m, config(VarOrder::DomWDeg, ValueOrder::Min, 3_000));
        let best = s.minimize(z).unwrap().finish();
        writeln!(
            out,
            "minimize: {:?} {:?} optimal {} {}",
            best.value,
            best.solution.map(|x| x.values_of(&vars)),
            best.optimal,
            stats_line(&best.stats)
        )
        .unwrap();
    }
}

/// Everything compared between the kernels.
fn digest() -> String {
    let mut out = String::new();
    for case in (0..4).flat_map(|k| cases(0x5eed_0009 + k)) {
        digest_of(&case, &mut out);
    }
    // The forum's hardest Sudokus (every 10th of them), uniqueness proofs (up to 2 solutions)
    // in two orders.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../benches/data/sudoku_forum_hardest_1106.txt"
    ))
    .unwrap();
    let mut units = rows_and_columns(9);
    units.extend(boxes(3));
    for line in text
        .lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .step_by(10)
    {
        let domains = line[..81]
            .bytes()
            .map(|b| match b {
                b'1'..=b'9' => vec![i32::from(b - b'0')],
                _ => (1..=9).collect(),
            })
            .collect();
        let case = Case {
            name: line[..81].to_string(),
            domains,
            units: units.clone(),
        };
        writeln!(out, "## {}", case.name).unwrap();
        for var_order in [VarOrder::DomWDeg, VarOrder::SmallestDomain] {
            let (m, vars) = case.build(true);
            let mut c = config(var_order, ValueOrder::Min, 100_000);
            c.limits.solutions = Some(2);
            let mut s = Solver::with_config(m, c);
            let sols: Vec<Vec<i32>> = s.solutions().map(|x| x.values_of(&vars)).collect();
            assert_eq!(sols.len(), 1, "{}", case.name);
            assert!(case.holds(&sols[0]));
            writeln!(
                out,
                "{var_order:?}: {:?} {}",
                sols[0],
                stats_line(s.stats())
            )
            .unwrap();
        }
    }
    // Parallel counts (their totals only: the split of work between threads varies).
    let mut rng = Rng::seeded(17);
    let planted = planted_sudoku(&mut rng, 3);
    let mut units = rows_and_columns(9);
    units.extend(boxes(3));
    let case = Case {
        name: "parallel sudoku".to_string(),
        domains: around(&mut rng, &planted, 9, 1, 30, 40),
        units,
    };
    let mut c = config(VarOrder::DomWDeg, ValueOrder::Min, u64::MAX);
    c.limits.nodes = None;
    let search = ParallelSearch::new("kernels".to_string(), || Ok(case.build(true).0))
        .config(c)
        .threads(Some(2))
        .per_worker(4);
    let subproblems = search.subproblems().unwrap();
    let count = search.count(&subproblems, None, |_, _| {}).unwrap();
    writeln!(out, "parallel count {}", count.solutions).unwrap();
    out
}

const BEGIN: &str = "----- kernel digest -----";
const END: &str = "----- end of the digest -----";

/// Set in the second run of [`both_kernels_search_the_same_trees`] (the plain kernel), which
/// then prints its digest for the first run to compare.
const PRINT: &str = "BEZZEL_TEST_PRINT_KERNEL_DIGEST";

#[test]
fn both_kernels_search_the_same_trees() {
    // Every search of the digest checks its answers as it goes, with this process's kernel.
    let here = digest();
    assert!(here.len() > 1000);
    if std::env::var_os(PRINT).is_some() {
        // The second run, started below: its digest goes back to the first.
        println!("{BEGIN}\n{here}{END}");
        return;
    }
    if std::env::var_os("BEZZEL_NO_AVX2").is_some() {
        // Already the plain kernel (CI's second pass): no other kernel to compare with.
        return;
    }
    // A family takes its kernel from the environment, which is the whole process's (setting
    // it here would switch the tests running beside this one): the plain kernel runs this
    // very test again in a process of its own. The harness names a test by its path without
    // the crate's name.
    let path = concat!(module_path!(), "::both_kernels_search_the_same_trees");
    let name = path.split_once("::").map_or(path, |(_, name)| name);
    let exe = std::env::current_exe().unwrap();
    let output = std::process::Command::new(exe)
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env("BEZZEL_NO_AVX2", "1")
        .env(PRINT, "1")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    let start = text.find(BEGIN).expect("the digest") + BEGIN.len() + 1;
    let end = text.find(END).expect("the digest's end");
    let plain = &text[start..end];
    for (line, (a, b)) in here.lines().zip(plain.lines()).enumerate() {
        assert_eq!(a, b, "line {line} differs (AVX2 if detected, then plain)");
    }
    assert_eq!(here.lines().count(), plain.lines().count());
}

/// The family's answers against the units one by one (no family) and, where small, an
/// enumeration: the first solutions in input order are the same whatever the pruning.
#[test]
fn the_family_answers_as_the_units_one_by_one() {
    let mut compared = 0;
    for case in (0..3).flat_map(|k| cases(0x5eed_0009 + k)) {
        let mut lists = Vec::new();
        for family in [true, false] {
            let (m, vars) = case.build(family);
            let mut c = config(VarOrder::InputOrder, ValueOrder::Min, 20_000);
            c.limits.solutions = Some(30);
            let mut s = Solver::with_config(m, c);
            let sols: Vec<Vec<i32>> = s.solutions().map(|x| x.values_of(&vars)).collect();
            for sol in &sols {
                assert!(case.holds(sol), "{}: not a solution {sol:?}", case.name);
            }
            lists.push((sols, s.stats().clone()));
        }
        let ((fam, fs), (one, os)) = (&lists[0], &lists[1]);
        if fs.stopped.is_none() && os.stopped.is_none() {
            assert_eq!(fam, one, "{}", case.name);
            compared += 1;
        } else {
            // Node limits: the shorter list is a prefix of the longer.
            let k = fam.len().min(one.len());
            assert_eq!(fam[..k], one[..k], "{}", case.name);
        }
        // The family prunes at least as much: never more nodes in input order.
        if fs.stopped.is_none() && os.stopped.is_none() {
            assert!(
                fs.nodes <= os.nodes,
                "{}: {} > {} nodes",
                case.name,
                fs.nodes,
                os.nodes
            );
        }
    }
    assert!(compared >= 60, "{compared} cases compared in full");
}

/// Small cases against an enumeration: a 9-cell unit crossed by others over few cells,
/// values anywhere, exact or not, every solution.
#[test]
fn small_nine_cell_families_against_an_enumeration() {
    let mut rng = Rng::seeded(99);
    let mut nonempty = 0;
    for round in 0..80 {
        // Cells 0..9 form the first unit; 2 to 4 more units of 9 cells take some of them and
        // new cells (at most 12 cells in all), sometimes a unit of 3 or 4 cells too.
        let total = 9 + rng.range(1, 3) as usize;
        let mut units = vec![(0..9).collect::<Vec<usize>>()];
        for _ in 0..rng.range(2, 4) {
            let mut cells = permutation(&mut rng, total);
            cells.truncate(9);
            cells.sort_unstable();
            units.push(cells);
        }
        if rng.chance(40) {
            let mut cells = permutation(&mut rng, total);
            cells.truncate(rng.range(3, 4) as usize);
            units.push(cells);
        }
        let base = [-5, 0, 50, 1, 20][round % 5];
        let values = 9 + rng.range(0, 2) as i32;
        let density = rng.range(30, 50) as u64;
        let domains: Vec<Vec<i32>> = (0..total)
            .map(|_| {
                loop {
                    let d: Vec<i32> = (base..base + values)
                        .filter(|_| rng.chance(density))
                        .collect();
                    if !d.is_empty() {
                        break d;
                    }
                }
            })
            .collect();
        let case = Case {
            name: format!("small round {round}"),
            domains,
            units,
        };
        let expected = case.enumerate();
        nonempty += usize::from(!expected.is_empty());
        for (var_order, value_order) in [
            (VarOrder::InputOrder, ValueOrder::Min),
            (VarOrder::DomWDeg, ValueOrder::Split),
            (VarOrder::SmallestDomain, ValueOrder::Max),
        ] {
            let (m, vars) = case.build(true);
            let mut s = Solver::with_config(m, config(var_order, value_order, u64::MAX));
            let got = brute::set_of(&mut s, &vars);
            assert_eq!(got, expected, "{case:?} {var_order:?}");
        }
    }
    assert!(nonempty >= 20, "{nonempty} cases with solutions");
}
