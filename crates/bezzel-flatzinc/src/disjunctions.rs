//! Unary resources found in pairs of reified precedences, handed to `disjunctive`.
//!
//! MiniZinc models such as the job shop say "tasks `a` and `b` do not overlap" as
//! `(s_a + d_a <= s_b) \/ (s_b + d_b <= s_a)`, which flattens to two reified linear
//! inequalities and a clause of their two literals. Searched as such, every pair is a choice of
//! its own and nothing reasons about a machine as a whole: on ft06 (6×6) the pairs alone need
//! 36.9 M nodes to prove the optimum where one `disjunctive` per machine needs 229.
//!
//! This pass reads the flattened constraints, keeps each clause `b₁ ∨ b₂` (`array_bool_or`
//! with `true`, or `bool_clause` without negative literals) whose literals imply
//! `x + d₁ <= y` and `y + d₂ <= x` (`int_lin_le_reif` or `_imp` over `[1, -1]`, durations
//! positive), and joins tasks `(x, d)` that pairwise may not overlap into cliques. Each clique
//! of three tasks or more gets a `disjunctive`, posted beside the pairs: it is implied by them
//! (a unary resource is exactly "no two of its tasks overlap"), so no solution is lost and
//! none is added; it only prunes earlier.

use crate::FznError;
use crate::builder::{Builder, Value};
use bezzel_core::VarId;
use flatzinc::ConstraintItem;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A task: its start variable and its duration.
type Task = (VarId, i64);

/// The smallest clique worth a propagator: two tasks are the pair itself.
const MIN_CLIQUE: usize = 3;

/// Posts a `disjunctive` for each clique of tasks that the pairs of reified precedences among
/// `constraints` keep apart. Returns how many were posted.
pub(crate) fn post_implied(
    b: &mut Builder,
    constraints: &[(usize, ConstraintItem)],
) -> Result<usize, FznError> {
    // The precedence each literal implies: literal -> (x, y, d) for `x + d <= y`.
    let mut implies: HashMap<VarId, (VarId, VarId, i64)> = HashMap::new();
    let mut clauses: Vec<(VarId, VarId)> = Vec::new();
    for (_, c) in constraints {
        let args: Vec<Value> = match c
            .exprs
            .iter()
            .map(|e| b.expr(e).map(|v| b.resolve(v)))
            .collect::<Result<_, _>>()
        {
            Ok(args) => args,
            Err(_) => continue,
        };
        match (c.id.as_str(), args.as_slice()) {
            ("int_lin_le_reif" | "int_lin_le_imp", [coeffs, xs, rhs, lit]) => {
                if let (Some(prec), Value::Var(lit)) = (precedence(coeffs, xs, rhs), lit) {
                    implies.insert(*lit, prec);
                }
            }
            ("array_bool_or", [Value::Array(lits), Value::Bool(true)])
            | ("bool_clause", [Value::Array(lits), Value::Array(_)])
                if lits.len() == 2 =>
            {
                let negatives_empty = match args.get(1) {
                    Some(Value::Array(n)) => n.is_empty(),
                    _ => true,
                };
                if let (true, Value::Var(p), Value::Var(q)) = (negatives_empty, &lits[0], &lits[1])
                {
                    clauses.push((*p, *q));
                }
            }
            _ => {}
        }
    }
    // Edges between tasks that may not overlap.
    let mut edges: BTreeMap<Task, BTreeSet<Task>> = BTreeMap::new();
    for (p, q) in clauses {
        let (Some(&(x1, y1, d1)), Some(&(x2, y2, d2))) = (implies.get(&p), implies.get(&q)) else {
            continue;
        };
        // p: x1 + d1 <= y1 and q: x2 + d2 <= x1 with y1 = x2: x1 before y1, or y1 before x1.
        if x1 != y2 || y1 != x2 || x1 == y1 {
            continue;
        }
        let (a, c) = ((x1, d1), (y1, d2));
        edges.entry(a).or_default().insert(c);
        edges.entry(c).or_default().insert(a);
    }
    let mut posted = 0;
    for clique in cliques(&edges) {
        let starts: Vec<VarId> = clique.iter().map(|&(x, _)| x).collect();
        // An implied constraint: durations beyond `i32` (which the linear constraints they
        // come from refuse anyway) just leave it out.
        let Ok(durations) = clique
            .iter()
            .map(|&(_, d)| i32::try_from(d))
            .collect::<Result<Vec<i32>, _>>()
        else {
            continue;
        };
        b.model.disjunctive(&starts, &durations)?;
        posted += 1;
    }
    Ok(posted)
}

/// `coeffs · xs <= rhs` as `x + d <= y` with `d > 0`, when it is `x - y <= -d` over two
/// distinct variables.
fn precedence(coeffs: &Value, xs: &Value, rhs: &Value) -> Option<(VarId, VarId, i64)> {
    let (Value::Array(coeffs), Value::Array(xs), Value::Int(rhs)) = (coeffs, xs, rhs) else {
        return None;
    };
    let ([Value::Int(a), Value::Int(c)], [Value::Var(u), Value::Var(v)]) =
        (coeffs.as_slice(), xs.as_slice())
    else {
        return None;
    };
    let d = rhs.checked_neg()?;
    if d <= 0 || u == v {
        return None;
    }
    match (a, c) {
        (1, -1) => Some((*u, *v, d)),
        (-1, 1) => Some((*v, *u, d)),
        _ => None,
    }
}

/// Cliques of at least [`MIN_CLIQUE`] tasks that cover the graph's edges as far as greedy
/// growth finds them: each task, most connected first, starts a clique of the tasks not yet
/// in one that are adjacent to every member. A job shop's machines are disjoint cliques, found
/// whole.
fn cliques(edges: &BTreeMap<Task, BTreeSet<Task>>) -> Vec<Vec<Task>> {
    let mut order: Vec<Task> = edges.keys().copied().collect();
    order.sort_by_key(|t| std::cmp::Reverse(edges[t].len()));
    let mut used: BTreeSet<Task> = BTreeSet::new();
    let mut found = Vec::new();
    for &seed in &order {
        if used.contains(&seed) {
            continue;
        }
        let mut clique = vec![seed];
        for &t in &edges[&seed] {
            if !used.contains(&t) && clique.iter().all(|m| edges[m].contains(&t)) {
                clique.push(t);
            }
        }
        if clique.len() >= MIN_CLIQUE {
            used.extend(clique.iter().copied());
            found.push(clique);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(vars: &[VarId], i: usize, d: i64) -> Task {
        (vars[i], d)
    }

    fn graph(pairs: &[(Task, Task)]) -> BTreeMap<Task, BTreeSet<Task>> {
        let mut edges: BTreeMap<Task, BTreeSet<Task>> = BTreeMap::new();
        for &(a, c) in pairs {
            edges.entry(a).or_default().insert(c);
            edges.entry(c).or_default().insert(a);
        }
        edges
    }

    #[test]
    fn every_clique_found_is_pairwise_connected_and_two_machines_are_found_whole() {
        // Two machines of three tasks each, and one pair between them that is no clique.
        let mut m = bezzel_core::Model::new();
        let v = m.int_vars(6, 0..=9).unwrap();
        let m1 = [task(&v, 0, 3), task(&v, 1, 2), task(&v, 2, 5)];
        let m2 = [task(&v, 3, 1), task(&v, 4, 1), task(&v, 5, 4)];
        let mut pairs = Vec::new();
        for m in [m1, m2] {
            for i in 0..3 {
                for j in i + 1..3 {
                    pairs.push((m[i], m[j]));
                }
            }
        }
        pairs.push((m1[0], m2[0]));
        let edges = graph(&pairs);
        let found = cliques(&edges);
        for c in &found {
            for (i, a) in c.iter().enumerate() {
                for t in &c[i + 1..] {
                    assert!(edges[a].contains(t), "{a:?} and {t:?} are not kept apart");
                }
            }
        }
        let mut sets: Vec<BTreeSet<Task>> =
            found.iter().map(|c| c.iter().copied().collect()).collect();
        sets.sort();
        let mut expected: Vec<BTreeSet<Task>> = [m1, m2]
            .iter()
            .map(|m| m.iter().copied().collect())
            .collect();
        expected.sort();
        assert_eq!(sets, expected);
    }

    #[test]
    fn a_path_of_pairs_is_no_clique() {
        let mut m = bezzel_core::Model::new();
        let v = m.int_vars(4, 0..=9).unwrap();
        let t: Vec<Task> = (0..4).map(|i| task(&v, i, 1)).collect();
        let edges = graph(&[(t[0], t[1]), (t[1], t[2]), (t[2], t[3])]);
        assert!(cliques(&edges).is_empty());
    }
}
