//! Learning against brute force: random small models (clauses, linear and reified linear
//! constraints, binary relations, element, tables, all-different at each consistency,
//! cumulative and disjunctive resources; the energetic cumulative and the disjunctive's edge
//! finding cannot explain and use the fallback) solved with learning on must give exactly
//! the solutions, counts and optima that enumerating every assignment gives; every learnt
//! nogood must hold in every solution; every explanation must follow from the constraint's
//! definition alone.

use super::Explained;
use super::predicate::{Kind, Predicate};
use crate::learn::Shape;
use crate::prelude::*;
use proptest::prelude::*;
use std::collections::BTreeSet;

/// A random model, as data: domains, then constraints.
#[derive(Debug, Clone)]
struct Spec {
    domains: Vec<Vec<i32>>,
    constraints: Vec<Con>,
}

#[derive(Debug, Clone)]
enum Con {
    /// Clause over the 0/1 variables: (variable, positive).
    Clause(Vec<(usize, bool)>),
    /// `Σ a·x (relation) c`.
    Linear(Vec<(i32, usize)>, Relation, i32),
    /// All different, at a consistency.
    AllDifferent(Vec<usize>, Consistency),
    /// `b (mode) Σ a·x (relation) c`.
    Reified(usize, Reif, Vec<(i32, usize)>, Relation, i32),
    /// Tasks (start, duration, height) within a capacity variable.
    Cumulative(Vec<(usize, i32, i32)>, usize),
    /// Tasks (start, duration) on a unary resource.
    Disjunctive(Vec<(usize, i32)>),
    /// `x (relation) y + offset`, for `relation` one of `≤`, `=`, `≠`.
    Binary(usize, Relation, usize, i32),
    /// `value = array[index]`.
    Element(Vec<i32>, usize, usize),
    /// The variables take one of the tuples.
    Table(Vec<usize>, Vec<Vec<i32>>),
}

fn domain() -> impl Strategy<Value = Vec<i32>> {
    prop_oneof![
        2 => Just(vec![0, 1]),
        3 => (-2i32..=1, 1i32..=4).prop_map(|(lo, w)| (lo..=lo + w).collect()),
        1 => proptest::collection::btree_set(-3i32..=5, 2..=4).prop_map(|s| s.into_iter().collect()),
    ]
}

/// A domain wider than one word (the store keeps it in bitset words, with lazy bounds), with
/// holes.
fn wide_domain() -> impl Strategy<Value = Vec<i32>> {
    (-3i32..=0, proptest::collection::btree_set(1i32..66, 0..20)).prop_map(|(lo, holes)| {
        (lo..=lo + 66)
            .filter(|v| !holes.contains(&(v - lo)))
            .collect()
    })
}

fn spec() -> impl Strategy<Value = Spec> {
    // At most one wide domain, which keeps brute force small.
    let domains = (
        proptest::option::weighted(0.25, wide_domain()),
        proptest::collection::vec(domain(), 2..=5),
    )
        .prop_map(|(wide, small)| wide.into_iter().chain(small).collect::<Vec<_>>());
    domains.prop_flat_map(|domains| {
        let n = domains.len();
        let bools: Vec<usize> = (0..n).filter(|&i| domains[i] == [0, 1]).collect();
        let terms = proptest::collection::vec((-3i32..=3, 0..n), 2..=4);
        let relation = prop_oneof![Just(Relation::Le), Just(Relation::Ge), Just(Relation::Eq)];
        let relation_reified = relation.clone();
        let reif = prop_oneof![Just(Reif::Equiv), Just(Reif::Imp), Just(Reif::Pmi)];
        let clause = if bools.is_empty() {
            Just(Con::AllDifferent(vec![], Consistency::Value)).boxed()
        } else {
            proptest::collection::vec((proptest::sample::select(bools), any::<bool>()), 1..=3)
                .prop_map(Con::Clause)
                .boxed()
        };
        let tasks = proptest::collection::vec((0..n, 1i32..=3, 1i32..=2), 2..=4);
        let unary = proptest::collection::vec((0..n, 1i32..=3), 2..=3);
        let binary = prop_oneof![Just(Relation::Le), Just(Relation::Eq), Just(Relation::Ne)];
        let consistency = prop_oneof![
            Just(Consistency::Value),
            Just(Consistency::Bounds),
            Just(Consistency::Domain)
        ];
        let table = (1usize..=3).prop_flat_map(move |arity| {
            let rows =
                proptest::collection::vec(proptest::collection::vec(-2i32..=3, arity), 1..=6);
            (proptest::collection::vec(0..n, arity), rows)
        });
        let con = prop_oneof![
            2 => (tasks, 0..n).prop_map(|(t, cap)| Con::Cumulative(t, cap)),
            1 => unary.prop_map(Con::Disjunctive),
            2 => (0..n, binary, 0..n, -1i32..=1).prop_map(|(x, r, y, c)| Con::Binary(x, r, y, c)),
            1 => (proptest::collection::vec(-2i32..=4, 1..=5), 0..n, 0..n)
                .prop_map(|(a, i, v)| Con::Element(a, i, v)),
            1 => table.prop_map(|(vars, rows)| Con::Table(vars, rows)),
            3 => clause,
            4 => (terms.clone(), relation, -4i32..=6).prop_map(|(t, r, c)| Con::Linear(t, r, c)),
            1 => (proptest::collection::vec(0..n, 2..=4), consistency)
                .prop_map(|(v, c)| Con::AllDifferent(v, c)),
            2 => (0..n, reif, terms, relation_reified, -3i32..=4)
                .prop_map(|(b, mode, t, r, c)| Con::Reified(b, mode, t, r, c)),
        ];
        (Just(domains), proptest::collection::vec(con, 1..=5)).prop_map(|(domains, constraints)| {
            Spec {
                domains,
                constraints,
            }
        })
    })
}

/// The model of a spec; constraints the model refuses (a reified constraint whose control
/// variable is not 0/1, an all-different over one variable twice) are left out.
fn model(spec: &Spec) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let mut x = Vec::with_capacity(spec.domains.len());
    for d in &spec.domains {
        x.push(m.int_var(d.clone()).unwrap());
    }
    for con in &spec.constraints {
        let _ = match con {
            Con::Clause(lits) => {
                let pos: Vec<VarId> = lits.iter().filter(|l| l.1).map(|l| x[l.0]).collect();
                let neg: Vec<VarId> = lits.iter().filter(|l| !l.1).map(|l| x[l.0]).collect();
                m.clause(&pos, &neg)
            }
            Con::Linear(terms, relation, c) => {
                let (a, v): (Vec<i32>, Vec<VarId>) = terms.iter().map(|&(a, i)| (a, x[i])).unzip();
                m.linear(&a, &v, *relation, *c)
            }
            Con::AllDifferent(vars, consistency) => {
                let mut vars = vars.clone();
                vars.sort_unstable();
                vars.dedup();
                let v: Vec<VarId> = vars.iter().map(|&i| x[i]).collect();
                m.all_different_with(&v, *consistency)
            }
            Con::Reified(b, mode, terms, relation, c) => {
                let (a, v): (Vec<i32>, Vec<VarId>) = terms.iter().map(|&(a, i)| (a, x[i])).unzip();
                m.linear_reif(&a, &v, *relation, *c, x[*b], *mode)
            }
            Con::Cumulative(tasks, cap) => {
                let starts: Vec<VarId> = tasks.iter().map(|t| x[t.0]).collect();
                let durations: Vec<i32> = tasks.iter().map(|t| t.1).collect();
                let heights: Vec<i32> = tasks.iter().map(|t| t.2).collect();
                m.cumulative(&starts, &durations, &heights, x[*cap])
            }
            Con::Disjunctive(tasks) => {
                let (starts, durations): (Vec<VarId>, Vec<i32>) =
                    tasks.iter().map(|&(s, d)| (x[s], d)).unzip();
                m.disjunctive(&starts, &durations)
            }
            Con::Binary(a, relation, b, c) => {
                let y = x[*b].offset(*c);
                match relation {
                    Relation::Le => m.less_eq(x[*a], y),
                    Relation::Eq => m.equal(x[*a], y),
                    _ => m.not_equal(x[*a], y),
                }
            }
            Con::Element(array, index, value) => m.element_const(array, x[*index], x[*value]),
            Con::Table(vars, rows) => {
                let v: Vec<VarId> = vars.iter().map(|&i| x[i]).collect();
                m.table(&v, rows)
            }
        };
    }
    (m, x)
}

/// Every assignment of the declared domains that the constraints' definitions accept.
fn brute_force(spec: &Spec, m: &Model) -> Vec<Vec<i32>> {
    let n = m.num_vars();
    assert_eq!(
        n,
        spec.domains.len(),
        "the test models have no auxiliary variables"
    );
    let mut out = Vec::new();
    let mut values: Vec<i32> = spec.domains.iter().map(|d| d[0]).collect();
    let mut index = vec![0usize; n];
    loop {
        if m.check_constraints(&values).is_ok() {
            out.push(values.clone());
        }
        let mut k = 0;
        loop {
            if k == n {
                return out;
            }
            index[k] += 1;
            if index[k] < spec.domains[k].len() {
                values[k] = spec.domains[k][index[k]];
                break;
            }
            index[k] = 0;
            values[k] = spec.domains[k][0];
            k += 1;
        }
    }
}

fn holds(p: &Predicate, values: &[i32]) -> bool {
    p.holds_for(values[p.var as usize].into())
}

/// The variables a constraint of `shape` reads.
fn shape_vars(shape: &Shape<'_>) -> Vec<u32> {
    match *shape {
        Shape::Linear { terms, .. } => terms.iter().map(|t| t.1.var.index).collect(),
        Shape::UnitSum { views, .. } => views.iter().map(|v| v.var.index).collect(),
        Shape::Clause { lits } => lits.iter().map(|v| v.var.index).collect(),
        Shape::ReifiedLinear { b, terms, .. } => {
            let vars = terms.iter().map(|t| t.1.var.index);
            vars.chain([b.var.index]).collect()
        }
        Shape::ReifiedLessEq { b, x, y, .. } => vec![b.var.index, x.var.index, y.var.index],
        Shape::Cumulative {
            starts,
            durations,
            heights,
            capacity,
        } => {
            let amounts = durations.iter().chain(heights).filter_map(|a| match *a {
                crate::learn::Amount::View(v) => Some(v),
                crate::learn::Amount::Fixed(_) => None,
            });
            let views = starts.iter().copied().chain(amounts).chain([capacity]);
            views.map(|v| v.var.index).collect()
        }
        Shape::Disjunctive { starts, .. }
        | Shape::Table { views: starts, .. }
        | Shape::AllDifferent { views: starts } => starts.iter().map(|v| v.var.index).collect(),
        Shape::LessEq { x, y } | Shape::Equal { x, y } | Shape::NotEqual { x, y } => {
            vec![x.var.index, y.var.index]
        }
        Shape::ElementConst { index, value, .. } => vec![index.var.index, value.var.index],
    }
}

/// Checks one explanation by enumerating the box that its reason leaves of the declared
/// domains: wherever the constraint (a propagator's definition, a nogood, or nothing for a
/// decision) holds, the explained fact must hold; a failure's box must hold no point where
/// the constraint does.
fn check_explanation(e: &Explained, spec: &Spec, m: &Model) -> Result<(), String> {
    let engine = m.engine();
    let mut vars: Vec<u32> = e
        .reason
        .iter()
        .map(|p| p.var)
        .chain(e.fact.map(|f| f.var))
        .collect();
    if let Some(p) = e.propagator {
        let shape = engine
            .propagator(p)
            .shape()
            .ok_or("an explanation from no shape")?;
        vars.extend(shape_vars(&shape));
    }
    if let Some(ng) = &e.nogood {
        vars.extend(ng.iter().map(|p| p.var));
    }
    vars.sort_unstable();
    vars.dedup();
    let boxed: Vec<Vec<i32>> = vars
        .iter()
        .map(|&x| {
            spec.domains[x as usize]
                .iter()
                .copied()
                .filter(|&v| {
                    e.reason
                        .iter()
                        .filter(|p| p.var == x)
                        .all(|p| p.holds_for(v.into()))
                })
                .collect()
        })
        .collect();
    let mut values: Vec<i32> = spec.domains.iter().map(|d| d[0]).collect();
    let mut index = vec![0usize; vars.len()];
    if boxed.iter().any(Vec::is_empty) {
        // The reason alone is contradictory: it implies anything, but that is not what an
        // explanation should be (every predicate of a reason was true at once).
        return Err(format!("contradictory reason {e:?}"));
    }
    loop {
        for (k, &x) in vars.iter().enumerate() {
            values[x as usize] = boxed[k][index[k]];
        }
        let constraint = match (e.propagator, &e.nogood) {
            (Some(p), _) => engine.propagator(p).is_satisfied(&Assignment::new(&values)),
            (None, Some(ng)) => !ng.iter().all(|p| holds(p, &values)),
            (None, None) => true,
        };
        if constraint {
            match e.fact {
                None => return Err(format!("failure reason {e:?} allows {values:?}")),
                Some(f) if !holds(&f, &values) => {
                    return Err(format!("explanation {e:?} allows {values:?}"));
                }
                Some(_) => {}
            }
        }
        let mut k = 0;
        loop {
            if k == vars.len() {
                return Ok(());
            }
            index[k] += 1;
            if index[k] < boxed[k].len() {
                break;
            }
            index[k] = 0;
            k += 1;
        }
    }
}

/// Checks what a learning run left: its nogoods against the solutions that must survive
/// them (in branch and bound, those that beat the bound in force when the nogood was
/// learnt, `objective` being the minimised variable), its explanations against the
/// constraints.
fn check_learning(
    solver: &Solver,
    spec: &Spec,
    solutions: &[Vec<i32>],
    objective: Option<usize>,
) -> Result<usize, String> {
    let learner = solver.learner().ok_or("the run did not learn")?;
    if learner.broken > 0 {
        return Err(format!("{} failures not analysed", learner.broken));
    }
    let learnt = learner.learnt.as_ref().ok_or("no audit of the nogoods")?;
    for (ng, bound) in learnt {
        let kept = |s: &&Vec<i32>| match (objective, bound) {
            (Some(o), Some(b)) => i64::from(s[o]) < *b,
            _ => true,
        };
        let excluded = solutions
            .iter()
            .filter(kept)
            .find(|s| ng.iter().all(|p| holds(p, s)));
        if let Some(s) = excluded {
            return Err(format!(
                "nogood {ng:?} (bound {bound:?}) excludes solution {s:?}"
            ));
        }
    }
    let audit = learner.audit.as_ref().ok_or("no audit")?;
    for e in audit {
        check_explanation(e, spec, solver.model())?;
    }
    Ok(learnt.len())
}

const ORDERS: [(VarOrder, ValueOrder); 4] = [
    (VarOrder::InputOrder, ValueOrder::Min),
    (VarOrder::SmallestDomain, ValueOrder::Max),
    (VarOrder::DomWDeg, ValueOrder::Split),
    (VarOrder::SmallestDomainMaxDegree, ValueOrder::Min),
];

/// A search that learns, with the heuristics of `ORDERS[order]`, or for `order ==
/// ORDERS.len()` those of [`SearchConfig::for_optimization`] (last conflict and the
/// incumbent's values, which branch on values inside the domains), restarting often.
fn config(order: usize) -> SearchConfig {
    let base = match ORDERS.get(order) {
        Some(&(var_order, value_order)) => SearchConfig {
            var_order,
            value_order,
            ..SearchConfig::default()
        },
        None => SearchConfig::for_optimization(),
    };
    SearchConfig {
        learning: true,
        check_solutions: true,
        // A restart after every failure or so: the runs that may restart (branch and
        // bound) restart often, and must still find and prove the optimum.
        restarts: Some(Restarts { scale: 1 }),
        ..base
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// Enumeration with learning on gives exactly the brute-force solutions, each once;
    /// no nogood excludes one; every explanation follows from its constraint.
    #[test]
    fn learning_enumerates_exactly_the_solutions(spec in spec(), order in 0..=ORDERS.len()) {
        let (m, x) = model(&spec);
        let expected: BTreeSet<Vec<i32>> = brute_force(&spec, &m).into_iter().collect();
        let mut solver = Solver::with_config(m, config(order));
        let found: Vec<Vec<i32>> = solver.solutions().map(|s| s.values_of(&x)).collect();
        prop_assert_eq!(found.len(), expected.len(), "each solution once");
        prop_assert_eq!(found.into_iter().collect::<BTreeSet<_>>(), expected.clone());
        let kept: Vec<Vec<i32>> = expected.into_iter().collect();
        check_learning(&solver, &spec, &kept, None).map_err(TestCaseError::fail)?;
        prop_assert_eq!(solver.count() as usize, kept.len());
    }

    /// Minimising a variable with learning on finds the brute-force optimum and proves it;
    /// no nogood excludes a solution that beats the bound in force when it was learnt.
    #[test]
    fn learning_finds_the_optimum(spec in spec(), objective in 0usize..6, order in 0..=ORDERS.len()) {
        let (m, x) = model(&spec);
        let objective = objective % x.len();
        let solutions = brute_force(&spec, &m);
        let best = solutions.iter().map(|s| s[objective]).min();
        let mut solver = Solver::with_config(m, config(order));
        let optimum = solver.minimize(x[objective]).unwrap().finish();
        prop_assert_eq!(optimum.value, best);
        prop_assert_eq!((optimum.optimal, optimum.infeasible), (best.is_some(), best.is_none()));
        check_learning(&solver, &spec, &solutions, Some(objective))
            .map_err(TestCaseError::fail)?;
    }
}

/// Runs `f` with every reduction of the nogood database deleting every nogood, at every
/// nogood learnt (the reasons of propagations on the current path included).
fn deleting_all<T>(f: impl FnOnce() -> T) -> T {
    super::DELETE_ALL.with(|d| d.set(true));
    let out = f();
    super::DELETE_ALL.with(|d| d.set(false));
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Deleting nogoods, even those whose propagations are still on the path, loses no
    /// solution and no optimum: the same counts and optima as brute force, every reason
    /// still checked against its constraint.
    #[test]
    fn deleting_nogoods_loses_no_solution_and_no_optimum(
        spec in spec(),
        objective in 0usize..6,
        order in 0..=ORDERS.len(),
    ) {
        let (m, x) = model(&spec);
        let solutions = brute_force(&spec, &m);
        let expected: BTreeSet<Vec<i32>> = solutions.iter().cloned().collect();
        let mut solver = Solver::with_config(m, config(order));
        let found: Vec<Vec<i32>> =
            deleting_all(|| solver.solutions().map(|s| s.values_of(&x)).collect());
        prop_assert_eq!(found.len(), expected.len(), "each solution once");
        prop_assert_eq!(found.into_iter().collect::<BTreeSet<_>>(), expected);
        check_learning(&solver, &spec, &solutions, None).map_err(TestCaseError::fail)?;
        let objective = objective % x.len();
        let best = solutions.iter().map(|s| s[objective]).min();
        let (m, x) = model(&spec);
        let mut solver = Solver::with_config(m, config(order));
        let optimum = deleting_all(|| solver.minimize(x[objective]).unwrap().finish());
        prop_assert_eq!(optimum.value, best);
        prop_assert_eq!((optimum.optimal, optimum.infeasible), (best.is_some(), best.is_none()));
        check_learning(&solver, &spec, &solutions, Some(objective))
            .map_err(TestCaseError::fail)?;
    }
}

/// Models on which a propagator surely propagates, with its name: a search that learns
/// must explain some of its propagations from its shape (not only by the fallback), and
/// every explanation must follow from the constraint.
fn explained_cases() -> Vec<(&'static str, Spec)> {
    let range = |lo: i32, hi: i32| (lo..=hi).collect::<Vec<i32>>();
    let case = |name, domains, constraints| {
        (
            name,
            Spec {
                domains,
                constraints,
            },
        )
    };
    let cumulative = |tasks: &[(usize, i32, i32)]| vec![Con::Cumulative(tasks.to_vec(), 3)];
    vec![
        case(
            "cumulative",
            vec![range(0, 4), range(0, 3), range(1, 4), vec![1]],
            cumulative(&[(0, 2, 1), (1, 2, 1), (2, 3, 1)]),
        ),
        case(
            "cumulative",
            vec![vec![0, 1, 2, 3, 5], vec![0, 2, 3], range(0, 2), vec![1, 2]],
            cumulative(&[(0, 2, 2), (1, 3, 1), (2, 1, 2)]),
        ),
        case(
            "disjunctive",
            vec![range(0, 5), vec![0, 1, 3, 4], range(0, 5)],
            vec![Con::Disjunctive(vec![(0, 2), (1, 2), (2, 2)])],
        ),
        case(
            "less_eq",
            vec![range(0, 4), range(0, 4)],
            vec![Con::Binary(0, Relation::Le, 1, -1)],
        ),
        case(
            "equal",
            vec![range(0, 3), vec![1, 2, 3, 5]],
            vec![Con::Binary(0, Relation::Eq, 1, -1)],
        ),
        case(
            "not_equal",
            vec![range(0, 1), range(0, 2)],
            vec![Con::Binary(0, Relation::Ne, 1, 0)],
        ),
        case(
            "element_const",
            vec![range(0, 3), range(0, 3)],
            vec![Con::Element(vec![3, 1, 2, 1], 0, 1)],
        ),
        case(
            "table",
            vec![range(0, 2), range(0, 2), range(0, 2)],
            vec![Con::Table(
                vec![0, 1, 2],
                vec![vec![0, 1, 2], vec![1, 2, 0], vec![2, 0, 0], vec![2, 2, 1]],
            )],
        ),
        case(
            "table",
            vec![range(0, 2), range(0, 2)],
            vec![Con::Table(
                vec![0, 1],
                vec![vec![0, 0], vec![1, 1], vec![2, 2]],
            )],
        ),
        case(
            "all_different(value)",
            vec![range(0, 4); 5],
            vec![Con::AllDifferent(vec![0, 1, 2, 3, 4], Consistency::Value)],
        ),
        case(
            "all_different(bounds)",
            // x4 = 2 makes [0, 2] a Hall interval of x0..x2 (and [1, 2] holds x1 alone,
            // which is no Hall interval).
            vec![
                range(0, 5),
                range(1, 5),
                range(0, 5),
                range(1, 5),
                vec![2, 5],
            ],
            vec![
                Con::AllDifferent(vec![0, 1, 2, 3], Consistency::Bounds),
                Con::Binary(0, Relation::Le, 4, 0),
                Con::Binary(1, Relation::Le, 4, 0),
                Con::Binary(2, Relation::Le, 4, 0),
            ],
        ),
    ]
}

#[test]
fn propagations_are_explained_from_the_constraints() {
    for (name, spec) in explained_cases() {
        let mut explained = 0;
        for order in 0..=ORDERS.len() {
            let (m, x) = model(&spec);
            let expected: BTreeSet<Vec<i32>> = brute_force(&spec, &m).into_iter().collect();
            let mut solver = Solver::with_config(m, config(order));
            let found: BTreeSet<Vec<i32>> = solver.solutions().map(|s| s.values_of(&x)).collect();
            assert_eq!(found, expected, "{name}, order {order}");
            let kept: Vec<Vec<i32>> = expected.into_iter().collect();
            check_learning(&solver, &spec, &kept, None).unwrap();
            let engine = solver.model().engine();
            let audit = solver.learner().unwrap().audit.as_ref().unwrap();
            explained += audit
                .iter()
                .filter(|e| {
                    let p = e.propagator.map(|p| engine.propagator(p).name());
                    e.fact.is_some() && p == Some(name)
                })
                .count();
        }
        assert!(explained > 0, "no {name} explanation");
    }
}

/// Pigeons into fewer holes, as clauses and sums: no solution, and the proof learns
/// nogoods whose explanations come from the clauses and sums (not only the fallback), so
/// the checks above have something to check.
#[test]
fn pigeonhole_is_refuted_by_learnt_nogoods() {
    let (pigeons, holes) = (5usize, 4usize);
    let mut spec = Spec {
        domains: vec![vec![0, 1]; pigeons * holes],
        constraints: Vec::new(),
    };
    let at = |p: usize, h: usize| p * holes + h;
    for p in 0..pigeons {
        spec.constraints
            .push(Con::Clause((0..holes).map(|h| (at(p, h), true)).collect()));
    }
    for h in 0..holes {
        let terms = (0..pigeons).map(|p| (1, at(p, h))).collect();
        spec.constraints.push(Con::Linear(terms, Relation::Le, 1));
    }
    let (m, _) = model(&spec);
    let mut solver = Solver::with_config(m, config(1));
    assert_eq!(solver.count(), 0);
    let learner = solver.learner().expect("a learning run");
    assert_eq!(learner.broken, 0, "failures not analysed");
    let learnt = learner.learnt.as_ref().expect("audited");
    assert!(!learnt.is_empty(), "no nogood learnt");
    let audit = learner.audit.as_ref().expect("audited");
    assert!(
        audit
            .iter()
            .any(|e| e.propagator.is_some() && e.fact.is_some())
    );
    for e in audit {
        // The box of 20 variables is too large to enumerate whole: each explanation names
        // few of them, and the check enumerates only those it names and its constraint's.
        if e.reason.len() <= 12 {
            check_explanation(e, &spec, solver.model()).unwrap();
        }
    }
    assert!(learner.deleted > 0, "no reduction deleted a nogood");
    let mut deleting = Solver::with_config(model(&spec).0, config(1));
    assert_eq!(deleting_all(|| deleting.count()), 0);
    let learner = deleting.learner().expect("a learning run");
    assert_eq!(learner.broken, 0, "failures not analysed");
    assert!(learner.deleted > 0, "no nogood deleted");
    assert!(learner.nogoods.list.len() <= 1, "nogoods kept");
    let plain = Solver::with_config(
        model(&spec).0,
        SearchConfig {
            learning: false,
            ..config(1)
        },
    )
    .count();
    assert_eq!(plain, 0);
    assert!(
        learnt
            .iter()
            .all(|(ng, _)| ng.iter().all(|p| p.kind != Kind::Eq || p.value <= 1))
    );
}

/// Branch and bound that learns and restarts after (about) every failure still finds and
/// proves the optimum: tasks on a cumulative resource, the latest end minimised.
#[test]
fn restarts_keep_branch_and_bound_exact() {
    let tasks = [(2, 2), (3, 1), (2, 2), (1, 2), (3, 1)];
    let n = tasks.len();
    // Starts, the capacity, and the latest end (at least every task's end).
    let mut domains: Vec<Vec<i32>> = vec![(0..=6).collect(); n];
    domains.extend([vec![2], (2..=12).collect()]);
    let mut constraints = vec![Con::Cumulative(
        (0..n).map(|i| (i, tasks[i].0, tasks[i].1)).collect(),
        n,
    )];
    for (i, &(d, _)) in tasks.iter().enumerate() {
        constraints.push(Con::Linear(vec![(1, i), (-1, n + 1)], Relation::Le, -d));
    }
    let spec = Spec {
        domains,
        constraints,
    };
    let solutions = brute_force(&spec, &model(&spec).0);
    let best = solutions.iter().map(|s| s[n + 1]).min();
    let mut restarts = 0;
    for order in 0..=ORDERS.len() {
        let (m, x) = model(&spec);
        let mut solver = Solver::with_config(m, config(order));
        let optimum = solver.minimize(x[n + 1]).unwrap().finish();
        assert_eq!(
            (optimum.value, optimum.optimal),
            (best, true),
            "order {order}"
        );
        restarts += solver.stats().restarts;
        check_learning(&solver, &spec, &solutions, Some(n + 1)).unwrap();
    }
    assert!(restarts > 0, "no run restarted");
}

/// After a solution, a failure whose nogood asserts below the other branch of the
/// solution's decision must not undo that branch: `2·x0 + 5·x1 ≥ 3` has four solutions,
/// found again (six of them) by a backjump over the pseudo-decision.
#[test]
fn backjumps_never_undo_the_branch_after_a_solution() {
    let spec = Spec {
        domains: vec![vec![0, 1]; 3],
        constraints: vec![Con::Linear(
            vec![(2, 0), (1, 1), (2, 1), (2, 1)],
            Relation::Ge,
            3,
        )],
    };
    let (m, x) = model(&spec);
    let expected: BTreeSet<Vec<i32>> = brute_force(&spec, &m).into_iter().collect();
    let mut solver = Solver::with_config(m, config(0));
    let found: Vec<Vec<i32>> = solver.solutions().map(|s| s.values_of(&x)).collect();
    assert_eq!(found.len(), 4);
    assert_eq!(found.into_iter().collect::<BTreeSet<_>>(), expected);
}

/// A write to one variable, for the batch test below.
#[derive(Debug, Clone, Copy)]
enum Write {
    Remove(i64),
    SetMin(i64),
    SetMax(i64),
}

fn write() -> impl Strategy<Value = Write> {
    prop_oneof![
        3 => (-25i64..230).prop_map(Write::Remove),
        1 => (-25i64..230).prop_map(Write::SetMin),
        1 => (-25i64..230).prop_map(Write::SetMax),
    ]
}

/// Applies `w` to the store and to the set of values that stands for the domain, unless
/// it would empty the domain.
fn apply(store: &mut crate::store::Store, set: &mut BTreeSet<i64>, w: Write) {
    let keep = |v: i64| match w {
        Write::Remove(u) => v != u,
        Write::SetMin(u) => v >= u,
        Write::SetMax(u) => v <= u,
    };
    if !set.iter().any(|&v| keep(v)) {
        return;
    }
    set.retain(|&v| keep(v));
    let change = match w {
        Write::Remove(u) => store.remove(0, u),
        Write::SetMin(u) => store.set_min(0, u),
        Write::SetMax(u) => store.set_max(0, u),
    };
    assert!(change.is_ok());
}

proptest! {
    /// What a batch of writes changed, as the log reads it from the trail, agrees with a
    /// plain set of values, for domains in one word and wide ones (lazy bounds over bitset
    /// words): the values removed inside the new bounds, and each value's membership before
    /// the batch.
    #[test]
    fn batches_report_exactly_what_they_changed(
        width in prop_oneof![1i64..=64, 65i64..=200],
        holes in proptest::collection::vec(0i64..200, 0..30),
        before in proptest::collection::vec(write(), 0..10),
        batch in proptest::collection::vec(write(), 1..10),
    ) {
        use crate::domain::IntoDomain;
        let lo = -20i64;
        let mut set: BTreeSet<i64> = (lo..lo + width).collect();
        for h in holes {
            if set.len() > 1 {
                set.remove(&(lo + h % width));
            }
        }
        let spec: Vec<i32> = set.iter().map(|&v| v as i32).collect();
        let mut store = crate::store::Store::new();
        store.add_var(&spec.into_domain().unwrap());
        for w in before {
            apply(&mut store, &mut set, w);
        }
        let old_set = set.clone();
        let mark = store.mark();
        for w in batch {
            apply(&mut store, &mut set, w);
        }
        let changed: Vec<_> = store.changed_since(mark).collect();
        prop_assert_eq!(changed.len(), usize::from(set != old_set));
        for (x, old) in changed {
            for v in lo - 2..lo + width + 2 {
                prop_assert_eq!(store.was_in(mark, &old, v), old_set.contains(&v), "{}", v);
            }
            let (min, max) = (*set.first().unwrap(), *set.last().unwrap());
            let expected: Vec<i64> = old_set
                .difference(&set)
                .copied()
                .filter(|&v| min < v && v < max)
                .collect();
            let mut removed = store.removed_inside(mark, x, &old);
            removed.sort_unstable();
            prop_assert_eq!(removed, expected);
        }
    }
}
