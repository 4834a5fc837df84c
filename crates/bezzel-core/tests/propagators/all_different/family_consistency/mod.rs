//! The all-different family's fast paths keep every unit domain consistent and every pair of
//! exact units locked, and lose no solution: units of 9 and 16 cells on an unrolled path,
//! Régin skipped ("settled") in units with as many values as cells and at most seven open
//! cells (six before the seventh pass) without a Hall set shape, and locked candidates between
//! two such units over the same values.
//! The ground truth never goes through the family: every assignment enumerated by a
//! backtracking search written here (for small cases), or the same units posted one by one as
//! separate `AllDifferentDomain` propagators, compared by solution sets, by the first solutions
//! in input order (lexicographic, whatever the pruning), and by counts. The family may prune
//! more than the units one by one (locked candidates), never less, and never a value some
//! solution takes.
//!
//! Beyond solutions, the domains themselves are judged at the root and at every node of
//! random searches and of the built-in ones (through an observer): each unit must be domain
//! consistent, checked by a matching written here (Kuhn's augmenting paths), and each pair of
//! exact units over the same values sharing two cells or more must be locked. That catches a
//! skipped Régin or a missed pair, which lose no solution.
//!
//! Instances: jigsaw grids (irregular regions that share two cells or more with rows and
//! columns, with extra units that are or are not exact), crafted units whose open cells hold
//! a naked pair, a hidden pair or a naked triple, exact units of four to seven open cells at
//! the cheap rules' fixpoint or near it (their root domains against an enumeration of each
//! unit's assignments), random shapes of 9 and 16 cells over shared variables around a
//! planted solution, 16 × 16 Sudokus with random givens, negative and gapped value sets, sums,
//! counts and value- or bounds-level all-differents over the same cells, families of 64 units
//! and more, units of 64 cells, and every kind of run: all solutions, first, limited counts,
//! restarts, split prefixes, a reused solver, a model propagated between posts and givens,
//! parallel workers and branch and bound.
//!
//! The harness (cases, the audits and the runs compared) is here; the instances and their
//! tests are in one module per kind: `jigsaws`, `few_open_cells` (the Hall set shapes that
//! decide whether Régin runs), `large_units` (9, 16 and 64 cells, families of 64 units) and
//! `pruning_rules` (locked candidates, the ends of a window, propagating again).

use bezzel_core::parallel::ParallelSearch;
use bezzel_core::prelude::*;
use bezzel_core::propagators::AllDifferentDomain;
use bezzel_core::search::{Node, Observer};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::brute;

use brute::{RandomDecisions, Rng, has_matching, set_of, supports};

mod few_open_cells;
mod jigsaws;
mod large_units;
mod pruning_rules;

/// A constraint besides the units, posted the same way in every model.
#[derive(Debug, Clone)]
enum Extra {
    /// The sum of the variables is at most the bound.
    SumAtMost(Vec<usize>, i32),
    /// The variable `n` counts the variables equal to `value`.
    Count(Vec<usize>, i32, usize),
    /// An all-different at another level (value or bounds), which no domain family takes in.
    Distinct(Vec<usize>, Consistency),
}

/// How the units are posted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Post {
    /// `all_different_with(.., Domain)`: one family forms.
    Family,
    /// Half of them, a propagation (one family forms and runs), then the rest (another).
    TwoBatches,
    /// One `AllDifferentDomain` each: no family.
    OneByOne,
}

/// Variables with domains, units over them (positions in `domains`), and extra constraints.
#[derive(Debug, Clone)]
struct Case {
    domains: Vec<Vec<i32>>,
    units: Vec<Vec<usize>>,
    extras: Vec<Extra>,
}

impl Case {
    fn new(domains: Vec<Vec<i32>>, units: Vec<Vec<usize>>) -> Case {
        Case {
            domains,
            units,
            extras: Vec::new(),
        }
    }

    fn build(&self, post: Post) -> (Model, Vec<VarId>) {
        let (mut m, vars) = brute::model(&self.domains);
        for extra in &self.extras {
            match extra {
                Extra::SumAtMost(xs, bound) => {
                    let xs: Vec<VarId> = xs.iter().map(|&i| vars[i]).collect();
                    let ones = vec![1; xs.len()];
                    m.linear(&ones, &xs, Relation::Le, *bound).unwrap();
                }
                Extra::Count(xs, value, n) => {
                    let xs: Vec<VarId> = xs.iter().map(|&i| vars[i]).collect();
                    m.count(&xs, *value, vars[*n]).unwrap();
                }
                Extra::Distinct(xs, consistency) => {
                    let xs: Vec<VarId> = xs.iter().map(|&i| vars[i]).collect();
                    m.all_different_with(&xs, *consistency).unwrap();
                }
            }
        }
        let half = self.units.len() / 2;
        for (u, unit) in self.units.iter().enumerate() {
            let views: Vec<IntView> = unit.iter().map(|&i| vars[i].into()).collect();
            match post {
                Post::OneByOne => m.post(AllDifferentDomain::new(views)).unwrap(),
                Post::Family | Post::TwoBatches => {
                    if post == Post::TwoBatches && u == half {
                        // The first family forms and runs; a conflict leaves the model
                        // failed, which every search must then report as no solution.
                        let _ = m.propagate();
                    }
                    m.all_different_with(&views, Consistency::Domain).unwrap();
                }
            }
        }
        (m, vars)
    }

    /// Whether `a` satisfies everything, by the definitions.
    fn holds(&self, a: &[i32]) -> bool {
        self.units.iter().all(|unit| {
            let values: BTreeSet<i32> = unit.iter().map(|&i| a[i]).collect();
            values.len() == unit.len()
        }) && self.extras.iter().all(|extra| match extra {
            Extra::SumAtMost(xs, bound) => xs.iter().map(|&i| a[i]).sum::<i32>() <= *bound,
            Extra::Count(xs, value, n) => {
                xs.iter().filter(|&&i| a[i] == *value).count() as i32 == a[*n]
            }
            Extra::Distinct(xs, _) => {
                xs.iter().map(|&i| a[i]).collect::<BTreeSet<i32>>().len() == xs.len()
            }
        })
    }

    /// Every solution, by a backtracking enumeration (smallest domains first) that checks
    /// each unit as soon as two of its cells are set, and the extras at the leaves.
    fn enumerate(&self) -> BTreeSet<Vec<i32>> {
        let n = self.domains.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| self.domains[i].len());
        let mut rank = vec![0; n];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        // Per variable, the variables set before it that it must differ from.
        let mut before: Vec<Vec<usize>> = vec![Vec::new(); n];
        for unit in &self.units {
            for &i in unit {
                for &j in unit {
                    if rank[j] < rank[i] && !before[i].contains(&j) {
                        before[i].push(j);
                    }
                }
            }
        }
        let mut out = BTreeSet::new();
        let mut a = vec![0; n];
        self.go(&order, &before, &mut a, &mut out);
        out
    }

    fn go(
        &self,
        order: &[usize],
        before: &[Vec<usize>],
        a: &mut Vec<i32>,
        out: &mut BTreeSet<Vec<i32>>,
    ) {
        let Some((&i, rest)) = order.split_first() else {
            if self.holds(a) {
                out.insert(a.clone());
            }
            return;
        };
        for &v in &self.domains[i] {
            if before[i].iter().all(|&j| a[j] != v) {
                a[i] = v;
                self.go(rest, before, a, out);
            }
        }
    }

    /// The pairs of units locked candidates apply to ([`brute::locked_pairs`]).
    fn pairs(&self) -> Vec<(usize, usize)> {
        brute::locked_pairs(&self.domains, &self.units)
    }

    /// Whether the units form one connected family.
    fn connected(&self) -> bool {
        let mut reached = vec![false; self.units.len()];
        let mut stack = vec![0];
        reached[0] = true;
        while let Some(u) = stack.pop() {
            for (w, other) in self.units.iter().enumerate() {
                if !reached[w] && other.iter().any(|i| self.units[u].contains(i)) {
                    reached[w] = true;
                    stack.push(w);
                }
            }
        }
        reached.iter().all(|&r| r)
    }
}

fn checked() -> SearchConfig {
    SearchConfig {
        check_solutions: true,
        ..SearchConfig::default()
    }
}

fn config(var_order: VarOrder, value_order: ValueOrder) -> SearchConfig {
    SearchConfig {
        var_order,
        value_order,
        ..checked()
    }
}

/// Every unit is domain consistent over `domains`: each value of each cell is part of a
/// matching of the unit's cells to distinct values.
fn units_consistent(case: &Case, domains: &[Vec<i32>], what: &str) {
    for (u, unit) in case.units.iter().enumerate() {
        for (j, &i) in unit.iter().enumerate() {
            for &v in &domains[i] {
                let single = [v];
                let cells: Vec<&[i32]> = unit
                    .iter()
                    .enumerate()
                    .map(|(k, &c)| if k == j { &single[..] } else { &domains[c][..] })
                    .collect();
                assert!(
                    has_matching(&cells),
                    "{what}: unit {u} not domain consistent: x{i} = {v} has no support in {:?}",
                    unit.iter().map(|&c| &domains[c]).collect::<Vec<_>>()
                );
            }
        }
    }
}

/// The root domains of `case` under the family, against the units one by one, against
/// `solutions` (known solutions, not necessarily all) and against the definitions: within the
/// units' (equal without pairs), holding every value a known solution takes, every unit
/// domain consistent, and every pair locked.
fn root(case: &Case, post: Post, solutions: &BTreeSet<Vec<i32>>) {
    let (mut a, vars) = case.build(post);
    let (mut b, vars_b) = case.build(Post::OneByOne);
    let (ra, rb) = (a.propagate(), b.propagate());
    let pairs = case.pairs();
    if ra.is_err() {
        assert!(
            solutions.is_empty(),
            "{post:?} failed at the root of {case:?}"
        );
        assert!(
            rb.is_err() || !pairs.is_empty(),
            "{post:?} failed where the units one by one did not, without pairs, on {case:?}"
        );
        return;
    }
    // At least as strong: where the units one by one fail, so does the family.
    assert!(
        rb.is_ok(),
        "{post:?} did not fail where the units one by one did, on {case:?}"
    );
    let domains: Vec<Vec<i32>> = vars.iter().map(|&x| a.domain(x).unwrap()).collect();
    for (i, d) in domains.iter().enumerate() {
        for s in solutions {
            assert!(
                d.contains(&s[i]),
                "{post:?}: root domain {d:?} of x{i} lost {} of solution {s:?} on {case:?}",
                s[i]
            );
        }
        let db = b.domain(vars_b[i]).unwrap();
        if pairs.is_empty() {
            assert_eq!(*d, db, "{post:?}: root domain of x{i} on {case:?}");
        } else {
            assert!(
                d.iter().all(|v| db.contains(v)),
                "{post:?}: root domain {d:?} of x{i} not within {db:?} on {case:?}"
            );
        }
    }
    let what = format!("{post:?} at the root of {case:?}");
    units_consistent(case, &domains, &what);
    // Locked candidates (one family only: two batches pair within each batch).
    if post == Post::Family {
        locked(case, &pairs, &domains, &what);
    }
}

/// Every pair is locked over `domains`: the values its first unit can take outside the
/// shared cells are those its second can take outside them.
fn locked(case: &Case, pairs: &[(usize, usize)], domains: &[Vec<i32>], what: &str) {
    if let Some((p, q)) = brute::unlocked_pair(&case.units, pairs, domains) {
        panic!("{what}: units {p} and {q} not locked");
    }
}

/// Random decisions that first audit the node they are shown: after every propagation, past
/// backtracking, failures and the family's stale caches, each unit must be domain consistent
/// and each pair locked (the units in one family).
#[derive(Debug)]
struct Auditor {
    case: Case,
    pairs: Vec<(usize, usize)>,
    random: RandomDecisions,
    nodes: Arc<AtomicU64>,
}

impl Brancher for Auditor {
    fn decide(&mut self, d: &Domains<'_>) -> Option<Decision> {
        let domains: Vec<Vec<i32>> = d.vars().map(|x| d.values(x).collect()).collect();
        let what = format!("a node {domains:?} of {:?}", self.case);
        units_consistent(&self.case, &domains, &what);
        locked(&self.case, &self.pairs, &domains, &what);
        self.nodes.fetch_add(1, Ordering::Relaxed);
        self.random.decide(d)
    }
}

/// Audits every node that propagation did not fail, under any brancher and any kind of run
/// ([`Solver::observe`]): each unit domain consistent, each pair locked.
#[derive(Debug)]
struct Inspector {
    case: Case,
    pairs: Vec<(usize, usize)>,
    nodes: u64,
}

impl Inspector {
    /// For the model that `post` makes: pairs lock only within one family.
    fn new(case: &Case, post: Post) -> Inspector {
        let one_family = post == Post::Family && case.units.len() <= 64;
        Inspector {
            case: case.clone(),
            pairs: if one_family { case.pairs() } else { Vec::new() },
            nodes: 0,
        }
    }
}

impl Observer for Inspector {
    fn node(&mut self, node: &Node<'_>) {
        if node.failed {
            return;
        }
        let d = node.domains;
        let domains: Vec<Vec<i32>> = d.vars().map(|x| d.values(x).collect()).collect();
        let what = format!("node {} {:?} of {:?}", self.nodes, node.decision, self.case);
        units_consistent(&self.case, &domains, &what);
        locked(&self.case, &self.pairs, &domains, &what);
        self.nodes += 1;
    }
}

/// Random searches over the family's model whose every node is audited, each finding
/// exactly `expected` (when given and the search is complete); returns the nodes audited.
fn audit(case: &Case, walks: u64, nodes: u64, expected: Option<&BTreeSet<Vec<i32>>>) -> u64 {
    let audited = Arc::new(AtomicU64::new(0));
    // Pairs lock within one family: at most 64 units.
    let pairs = if case.units.len() <= 64 {
        case.pairs()
    } else {
        Vec::new()
    };
    for walk in 0..walks {
        let (m, vars) = case.build(Post::Family);
        let mut c = checked();
        c.limits.nodes = Some(nodes);
        let auditor = Auditor {
            case: case.clone(),
            pairs: pairs.clone(),
            random: RandomDecisions(Rng::seeded(walk * 1_000 + nodes)),
            nodes: Arc::clone(&audited),
        };
        let mut s = Solver::with_config(m, c).brancher(auditor);
        let found = set_of(&mut s, &vars);
        assert!(
            found.iter().all(|a| case.holds(a)),
            "walk {walk} on {case:?}"
        );
        if let Some(expected) = expected.filter(|_| s.stats().stopped.is_none()) {
            assert_eq!(found, *expected, "audited walk {walk} on {case:?}");
        }
    }
    audited.load(Ordering::Relaxed)
}

/// Every kind of run over the model that `post` makes must find exactly `expected`.
fn runs(case: &Case, post: Post, expected: &BTreeSet<Vec<i32>>, seed: u64) {
    let total = expected.len() as u64;
    for (var_order, value_order) in [
        (VarOrder::SmallestDomain, ValueOrder::Min),
        (VarOrder::InputOrder, ValueOrder::Max),
        (VarOrder::DomWDeg, ValueOrder::Split),
        (VarOrder::SmallestDomainMaxDegree, ValueOrder::Min),
    ] {
        let (m, vars) = case.build(post);
        let mut s = Solver::with_config(m, config(var_order, value_order));
        let found = set_of(&mut s, &vars);
        assert_eq!(
            found, *expected,
            "{post:?} {var_order:?}/{value_order:?} on {case:?}"
        );
        // The same solver again, after a run left after its first solution.
        let _ = s.solutions().next();
        assert_eq!(s.count(), total, "{post:?}: second run on {case:?}");
        assert_eq!(set_of(&mut s, &vars), *expected, "{post:?}: third run");
    }
    // A run stopped by a node limit mid-tree, then the same solver without it.
    let (m, vars) = case.build(post);
    let mut limited = checked();
    limited.limits.nodes = Some(1 + seed % 7);
    let mut s = Solver::with_config(m, limited);
    s.observe(Inspector::new(case, post));
    assert!(s.count() <= total);
    s.config_mut().limits = Limits::default();
    assert_eq!(
        set_of(&mut s, &vars),
        *expected,
        "{post:?}: after a node limit"
    );
    // A count stopped by a solution limit.
    let mut capped = checked();
    capped.limits.solutions = Some(2);
    let (m, _) = case.build(post);
    assert_eq!(
        Solver::with_config(m, capped).count(),
        total.min(2),
        "{post:?}: capped count on {case:?}"
    );
    // Random decisions of all four kinds.
    for walk in 0..3 {
        let (m, vars) = case.build(post);
        let mut s = Solver::with_config(m, checked())
            .brancher(RandomDecisions(Rng::seeded(seed * 7 + walk)));
        assert_eq!(
            set_of(&mut s, &vars),
            *expected,
            "{post:?}: walk {walk} on {case:?}"
        );
    }
    // Prefixes from a split, counted on the same solver.
    let (m, _) = case.build(post);
    let mut s = Solver::with_config(m, checked());
    s.observe(Inspector::new(case, post));
    let prefixes = s.split(5).expect("no cancel flag");
    let sum: u64 = prefixes.iter().map(|p| s.count_in(p).unwrap()).sum();
    assert_eq!(sum, total, "{post:?}: split on {case:?}");
    // First solutions with restarts after every failure, then a count on the same solver.
    let (m, vars) = case.build(post);
    let mut restarting = config(VarOrder::DomWDeg, ValueOrder::Min);
    restarting.restarts = Some(Restarts { scale: 1 });
    let mut s = Solver::with_config(m, restarting);
    s.observe(Inspector::new(case, post));
    match s.first() {
        Some(sol) => assert!(
            expected.contains(&sol.values_of(&vars)),
            "{post:?}: restarts"
        ),
        None => assert!(expected.is_empty(), "{post:?}: restarts found nothing"),
    }
    assert_eq!(
        s.count(),
        total,
        "{post:?}: count after restarts on {case:?}"
    );
    // The inspector saw the nodes of both runs: the root at least, unless it failed.
    let inspector: Inspector = s.take_observer().expect("the inspector");
    assert!(inspector.nodes > 0 || expected.is_empty());
}

/// The first `limit` solutions in input order (lexicographic: the same whatever the pruning)
/// are the units one by one's, with no more nodes, and searches by other heuristics find as
/// many solutions (the same when both went through the whole tree). Returns the solutions
/// found in input order and whether that search was complete.
fn prefix_agree(case: &Case, limit: u64, nodes: u64) -> (Vec<Vec<i32>>, bool) {
    let mut lists = Vec::new();
    for post in [Post::Family, Post::OneByOne] {
        let (m, vars) = case.build(post);
        let mut c = config(VarOrder::InputOrder, ValueOrder::Min);
        c.limits.solutions = Some(limit);
        c.limits.nodes = Some(nodes);
        let mut s = Solver::with_config(m, c);
        let found: Vec<Vec<i32>> = s.solutions().map(|sol| sol.values_of(&vars)).collect();
        for a in &found {
            assert!(case.holds(a), "{post:?}: {a:?} is no solution of {case:?}");
        }
        lists.push((found, s.stats().clone()));
    }
    let (family, one) = (&lists[0], &lists[1]);
    if one.1.stopped.is_none() || one.0.len() as u64 == limit {
        // The family's tree lies within the other's: it gets at least as far.
        assert_eq!(family.0, one.0, "input order: solutions differ on {case:?}");
        assert!(family.1.nodes <= one.1.nodes, "more nodes on {case:?}");
    } else {
        assert!(one.0.starts_with(&family.0) || family.0.starts_with(&one.0));
    }
    // Other heuristics: the same solutions when both see the whole tree; when one stops at
    // the solution limit, the other cannot have seen the whole tree with fewer.
    for order in [VarOrder::SmallestDomain, VarOrder::DomWDeg] {
        let mut sets = Vec::new();
        for post in [Post::Family, Post::OneByOne] {
            let (m, vars) = case.build(post);
            let mut c = config(order, ValueOrder::Min);
            c.limits.solutions = Some(limit);
            c.limits.nodes = Some(nodes);
            let mut s = Solver::with_config(m, c);
            let found: BTreeSet<Vec<i32>> = s.solutions().map(|sol| sol.values_of(&vars)).collect();
            assert!(found.iter().all(|a| case.holds(a)), "{order:?} on {case:?}");
            sets.push((found, s.stats().stopped));
        }
        let ((fa, stop_a), (fb, stop_b)) = (&sets[0], &sets[1]);
        match (stop_a, stop_b) {
            (None, None) => assert_eq!(fa, fb, "{order:?}: solutions differ on {case:?}"),
            (None, Some(StopReason::SolutionLimit)) | (Some(StopReason::SolutionLimit), None) => {
                panic!(
                    "{order:?}: all of {} against {} and more on {case:?}",
                    fa.len(),
                    fb.len()
                )
            }
            _ => {}
        }
    }
    (family.0.clone(), family.1.stopped.is_none())
}

/// A random subset of `lo..=hi` holding `must` (if any), with at least `least` values where
/// possible.
fn subset(rng: &mut Rng, lo: i32, hi: i32, must: Option<i32>, least: usize) -> Vec<i32> {
    loop {
        let d: Vec<i32> = (lo..=hi)
            .filter(|&v| Some(v) == must || rng.chance(60))
            .collect();
        if d.len() >= least.min((hi - lo + 1) as usize) {
            return d;
        }
    }
}

/// A cell's domain around its planted value `v` in `1..=size`: given (`[v]`, `given` percent of
/// the time), else a random subset holding `v` and `least` values or more (`narrowed` percent
/// of the rest), else all of `1..=size`.
fn around(rng: &mut Rng, v: i32, size: i32, given: u64, narrowed: u64, least: usize) -> Vec<i32> {
    if rng.chance(given) {
        vec![v]
    } else if rng.chance(narrowed) {
        subset(rng, 1, size, Some(v), least)
    } else {
        (1..=size).collect()
    }
}

/// Every solution of a model, by a checked search.
fn all_solutions(m: Model, vars: &[VarId]) -> BTreeSet<Vec<i32>> {
    let mut s = Solver::with_config(m, checked());
    set_of(&mut s, vars)
}

/// `items` in a random order.
fn shuffled<T>(rng: &mut Rng, mut items: Vec<T>) -> Vec<T> {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i as u64 + 1) as usize);
    }
    items
}

impl Case {
    /// [`enumerate`](Case::enumerate) for cases known to have few solutions: panics past
    /// `at_most`.
    fn enumerate_limited(&self, at_most: usize) -> BTreeSet<Vec<i32>> {
        let all = self.enumerate();
        assert!(all.len() <= at_most);
        all
    }
}
