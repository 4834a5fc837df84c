//! Models written in expressions and by hand (the gallery's way, with coefficient arrays and
//! views) must search the same tree: the same solutions and the same number of nodes. The
//! expression form merges a variable's terms (SEND + MORE's `E` appears three times), which
//! the by-hand form here does as well, so that both post the same constraint; the by-hand
//! form with the terms unmerged may search more.

use bezzel_core::expr::sum;
use bezzel_core::prelude::*;

/// Both optimisations, by hand and in expressions, prove the optimum `best` (published or
/// brute force), on trees of the same size.
fn assert_same_proof(what: &str, hand: &Optimum, expr: &Optimum, best: i32) {
    assert_eq!(hand.value, Some(best), "{what}: by hand");
    assert_eq!(expr.value, Some(best), "{what}: in expressions");
    assert!(hand.optimal && expr.optimal, "{what}: proven");
    eprintln!(
        "{what}: nodes expressions {}, by hand {}",
        expr.stats.nodes, hand.stats.nodes
    );
    assert_eq!(expr.stats.nodes, hand.stats.nodes, "{what}");
}

fn nodes_and_count(m: Model) -> (u64, u64) {
    let mut solver = Solver::new(m);
    let count = solver.count();
    (solver.stats().nodes, count)
}

/// Queens with the columns and both diagonals all different, `diagonals(m, q[i], i)` giving
/// row `i`'s two diagonal views.
fn queens_with(n: usize, diagonals: impl Fn(&mut Model, VarId, i32) -> [IntView; 2]) -> Model {
    let mut m = Model::new();
    let q = m.int_vars(n, 0..=n as i32 - 1).unwrap();
    let (up, down): (Vec<IntView>, Vec<IntView>) = (0..n)
        .map(|i| {
            let [up, down] = diagonals(&mut m, q[i], i as i32);
            (up, down)
        })
        .unzip();
    m.all_different(&q).unwrap();
    m.all_different(&up).unwrap();
    m.all_different(&down).unwrap();
    m
}

pub(crate) fn queens_by_hand(n: usize) -> Model {
    queens_with(n, |_, x, i| [x.offset(i), x.offset(-i)])
}

/// Queens with the diagonals as expressions: `q[i] + i` is a view, no variable.
pub(crate) fn queens_in_expressions(n: usize) -> Model {
    queens_with(n, |m, x, i| {
        [m.view_of(x + i).unwrap(), m.view_of(x - i).unwrap()]
    })
}

/// Queens as pairwise comparisons: value-consistent all-different prunes as the `!=` pairs
/// do, so the tree is the same.
fn queens_pairwise(n: usize) -> Model {
    let mut m = Model::new();
    let q = m.int_vars(n, 0..=n as i32 - 1).unwrap();
    for i in 0..n {
        for j in i + 1..n {
            let d = (j - i) as i32;
            m.post(q[i].ne(q[j]) & (q[i] + d).ne(q[j]) & (q[i] - d).ne(q[j]))
                .unwrap();
        }
    }
    m
}

#[test]
fn queens_in_expressions_search_the_tree_of_queens_by_hand() {
    for n in 4..=8 {
        let hand = nodes_and_count(queens_by_hand(n));
        let views = queens_in_expressions(n);
        assert_eq!(views.num_vars(), n, "the diagonals cost no variable");
        assert_eq!(nodes_and_count(views), hand, "n = {n}");
        assert_eq!(
            nodes_and_count(queens_pairwise(n)),
            hand,
            "n = {n}, pairwise"
        );
    }
    // Published counts, so that "the same" is also right.
    assert_eq!(nodes_and_count(queens_by_hand(8)).1, 92);
}

const LETTERS: [&str; 8] = ["S", "E", "N", "D", "M", "O", "R", "Y"];

/// A model of the letters' digits, all different, in the order of [`LETTERS`].
fn letters() -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let v: Vec<VarId> = LETTERS
        .iter()
        .map(|&l| m.named_var(l, 0..=9).unwrap())
        .collect();
    m.all_different(&v).unwrap();
    (m, v)
}

pub(crate) fn send_more_money_by_hand(merged: bool) -> (Model, Vec<VarId>) {
    let (mut m, v) = letters();
    let [s, e, n, d, mo, o, r, y] = v[..] else {
        unreachable!()
    };
    if merged {
        // SEND + MORE - MONEY with each letter's terms added up.
        m.linear(
            &[1000, 91, -90, 1, -9000, -900, 10, -1],
            &[s, e, n, d, mo, o, r, y],
            Relation::Eq,
            0,
        )
        .unwrap();
    } else {
        m.linear(
            &[
                1000, 100, 10, 1, 1000, 100, 10, 1, -10000, -1000, -100, -10, -1,
            ],
            &[s, e, n, d, mo, o, r, e, mo, o, n, e, y],
            Relation::Eq,
            0,
        )
        .unwrap();
    }
    m.linear(&[1], &[s], Relation::Ge, 1).unwrap();
    m.linear(&[1], &[mo], Relation::Ge, 1).unwrap();
    (m, v)
}

pub(crate) fn send_more_money_in_expressions() -> (Model, Vec<VarId>) {
    let (mut m, v) = letters();
    let [s, e, n, d, mo, o, r, y] = v[..] else {
        unreachable!()
    };
    let send = 1000 * s + 100 * e + 10 * n + d;
    let more = 1000 * mo + 100 * o + 10 * r + e;
    let money = 10000 * mo + 1000 * o + 100 * n + 10 * e + y;
    m.post((send + more).eq(money)).unwrap();
    m.post(s.ge(1) & mo.ge(1)).unwrap();
    (m, v)
}

#[test]
fn send_more_money_in_expressions_searches_the_tree_of_the_merged_sum() {
    let (hand, hv) = send_more_money_by_hand(true);
    let (unmerged, _) = send_more_money_by_hand(false);
    let (expr, ev) = send_more_money_in_expressions();
    assert_eq!(expr.num_vars(), 8, "a sum costs no variable");
    let mut hand = Solver::new(hand);
    let mut expr = Solver::new(expr);
    let mut unmerged = Solver::new(unmerged);
    let (h, e, u) = (hand.count(), expr.count(), unmerged.count());
    assert_eq!((h, e, u), (1, 1, 1));
    let (hn, en, un) = (
        hand.stats().nodes,
        expr.stats().nodes,
        unmerged.stats().nodes,
    );
    eprintln!("SEND+MORE nodes: expressions {en}, by hand merged {hn}, unmerged {un}");
    assert_eq!(en, hn);
    assert!(en <= un);
    let answer = expr.first().unwrap().values_of(&ev);
    assert_eq!(answer, hand.first().unwrap().values_of(&hv));
    assert_eq!(answer, vec![9, 5, 6, 7, 1, 0, 8, 2]);
}

/// Golomb's ruler with `n` marks by hand: the solver (branching on the marks) and the length.
pub(crate) fn golomb_by_hand(n: usize) -> (Solver, VarId) {
    let top = (1i32 << (n - 1)) - 1;
    let mut m = Model::new();
    let marks = m.int_vars(n, 0..=top).unwrap();
    m.fix(marks[0], 0).unwrap();
    for w in marks.windows(2) {
        m.less_than(w[0], w[1]).unwrap();
    }
    let mut d = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let k = (j - i) as i32;
            let dij = m.int_var(k * (k + 1) / 2..=top).unwrap();
            m.linear(&[1, -1, -1], &[marks[j], marks[i], dij], Relation::Eq, 0)
                .unwrap();
            d.push(dij);
        }
    }
    m.all_different_with(&d, Consistency::Bounds).unwrap();
    m.less_than(d[0], d[d.len() - 1]).unwrap();
    golomb_solver(m, &marks)
}

/// Golomb's ruler with `n` marks in expressions, as [`golomb_by_hand`] returns it.
pub(crate) fn golomb_in_expressions(n: usize) -> (Solver, VarId) {
    let top = (1i32 << (n - 1)) - 1;
    let mut m = Model::new();
    let marks = m.int_vars(n, 0..=top).unwrap();
    m.post(marks[0].eq(0)).unwrap();
    for w in marks.windows(2) {
        m.post(w[0].lt(w[1])).unwrap();
    }
    let mut d = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let k = (j - i) as i32;
            let dij = m.int_var(k * (k + 1) / 2..=top).unwrap();
            m.post(dij.eq(marks[j] - marks[i])).unwrap();
            d.push(dij);
        }
    }
    m.all_different_with(&d, Consistency::Bounds).unwrap();
    m.post(d[0].lt(d[d.len() - 1])).unwrap();
    golomb_solver(m, &marks)
}

fn golomb_solver(m: Model, marks: &[VarId]) -> (Solver, VarId) {
    let config = SearchConfig {
        var_order: VarOrder::InputOrder,
        value_order: ValueOrder::Min,
        ..SearchConfig::default()
    };
    let length = marks[marks.len() - 1];
    (
        Solver::with_config(m, config).branch_on(marks).unwrap(),
        length,
    )
}

fn minimized((mut solver, cost): (Solver, VarId)) -> Optimum {
    solver.minimize(cost).unwrap().finish()
}

#[test]
fn golomb_in_expressions_searches_the_tree_of_golomb_by_hand() {
    // Optimal lengths published for 2..=8 marks (OEIS A003022).
    for (n, best) in [(4, 6), (5, 11), (6, 17), (7, 25)] {
        assert_same_proof(
            &format!("Golomb {n}"),
            &minimized(golomb_by_hand(n)),
            &minimized(golomb_in_expressions(n)),
            best,
        );
    }
}

#[test]
fn a_sum_of_booleans_counts_like_the_sum_constraint() {
    let mut by_hand = Model::new();
    let b = by_hand.named_bools("b", 6).unwrap();
    by_hand.sum(&b, Relation::Eq, 3).unwrap();
    let mut expr = Model::new();
    let c = expr.named_bools("b", 6).unwrap();
    expr.post(sum(&c).eq(3)).unwrap();
    let (h, e) = (nodes_and_count(by_hand), nodes_and_count(expr));
    assert_eq!(h.1, 20); // 6 choose 3
    assert_eq!(e, h);
}

/// Three jobs on three machines: `(machine, duration)` of each job's tasks, in order.
const JOBS: [[(usize, i32); 3]; 3] = [
    [(0, 3), (1, 2), (2, 2)],
    [(0, 2), (2, 1), (1, 4)],
    [(1, 4), (2, 3), (0, 1)],
];

/// The shortest makespan by brute force, outside the engine: for every order of the tasks
/// on each machine, the earliest schedule that keeps the job and machine orders (a longest
/// path, found by relaxing until nothing moves; an order with a cycle never settles).
fn job_shop_by_brute_force() -> i32 {
    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in permutations(n - 1) {
            for i in 0..=p.len() {
                let mut q = p.clone();
                q.insert(i, n - 1);
                out.push(q);
            }
        }
        out
    }
    // The tasks of each machine, as (job, position).
    let on: Vec<Vec<(usize, usize)>> = (0..3)
        .map(|machine| {
            (0..3)
                .flat_map(|j| (0..3).map(move |t| (j, t)))
                .filter(|&(j, t)| JOBS[j][t].0 == machine)
                .collect()
        })
        .collect();
    let orders = permutations(3);
    let mut best = i32::MAX;
    for a in &orders {
        for b in &orders {
            for c in &orders {
                let chosen = [a, b, c];
                let mut start = [[0i32; 3]; 3];
                let mut settled = false;
                for _ in 0..20 {
                    let mut moved = false;
                    for j in 0..3 {
                        for t in 1..3 {
                            let ready = start[j][t - 1] + JOBS[j][t - 1].1;
                            if start[j][t] < ready {
                                start[j][t] = ready;
                                moved = true;
                            }
                        }
                    }
                    for (machine, order) in chosen.iter().enumerate() {
                        for w in order.windows(2) {
                            let (j0, t0) = on[machine][w[0]];
                            let (j1, t1) = on[machine][w[1]];
                            let ready = start[j0][t0] + JOBS[j0][t0].1;
                            if start[j1][t1] < ready {
                                start[j1][t1] = ready;
                                moved = true;
                            }
                        }
                    }
                    if !moved {
                        settled = true;
                        break;
                    }
                }
                if settled {
                    let span = (0..3).map(|j| start[j][2] + JOBS[j][2].1).max().unwrap();
                    best = best.min(span);
                }
            }
        }
    }
    best
}

/// A job shop by reification, by hand or in expressions, for the `(machine, duration)` of
/// each job's tasks: start times, job order, and for each pair of tasks on one machine a
/// Boolean that says which goes first. The model and its makespan.
pub(crate) fn job_shop<J: AsRef<[(usize, i32)]>>(
    jobs: &[J],
    in_expressions: bool,
) -> (Model, VarId) {
    let jobs: Vec<&[(usize, i32)]> = jobs.iter().map(AsRef::as_ref).collect();
    let horizon: i32 = jobs.iter().flat_map(|j| j.iter()).map(|t| t.1).sum();
    let mut m = Model::new();
    let start: Vec<Vec<VarId>> = (0..jobs.len())
        .map(|j| {
            m.named_vars(format!("s{j}"), jobs[j].len(), 0..=horizon)
                .unwrap()
        })
        .collect();
    let span = m.named_var("makespan", 0..=horizon).unwrap();
    let tasks: Vec<(usize, usize)> = (0..jobs.len())
        .flat_map(|j| (0..jobs[j].len()).map(move |t| (j, t)))
        .collect();
    for &(j, t) in &tasks {
        let (s, d) = (start[j][t], jobs[j][t].1);
        let next = if t + 1 < jobs[j].len() {
            start[j][t + 1]
        } else {
            span
        };
        if in_expressions {
            m.post((s + d).le(next)).unwrap();
        } else {
            m.less_eq(s.offset(d), next).unwrap();
        }
    }
    for (k, &(j, t)) in tasks.iter().enumerate() {
        for &(j2, t2) in &tasks[k + 1..] {
            if jobs[j][t].0 != jobs[j2][t2].0 {
                continue;
            }
            let (a, da) = (start[j][t], jobs[j][t].1);
            let (b, db) = (start[j2][t2], jobs[j2][t2].1);
            if in_expressions {
                let first = m.reify((a + da).le(b)).unwrap();
                m.post_if(!first, (b + db).le(a)).unwrap();
            } else {
                let first = m.named_bool(format!("first{k}_{j2}{t2}")).unwrap();
                m.less_eq_reif(a.offset(da), b, first, Reif::Equiv).unwrap();
                m.less_eq_reif(b.offset(db), a, !first, Reif::Imp).unwrap();
            }
        }
    }
    (m, span)
}

#[test]
fn a_job_shop_by_reification_in_expressions_searches_the_tree_by_hand() {
    let best = job_shop_by_brute_force();
    let solve = |(m, span)| minimized((Solver::new(m), span));
    let (hand, expr) = (solve(job_shop(&JOBS, false)), solve(job_shop(&JOBS, true)));
    assert_same_proof("job shop 3x3", &hand, &expr, best);
}
