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

use bezzel_core::parallel::ParallelSearch;
use bezzel_core::prelude::*;
use bezzel_core::propagators::AllDifferentDomain;
use bezzel_core::search::{Node, Observer};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::brute;

use brute::{RandomDecisions, Rng, has_matching, set_of, supports};

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

    /// The values a unit must use, if its cells' declared ranges (least to greatest value)
    /// cover exactly as many values as it has cells.
    fn exact(&self, unit: &[usize]) -> Option<BTreeSet<i32>> {
        brute::exact_values(&self.domains, unit)
    }

    /// The pairs of units locked candidates apply to, written here from the definition: both
    /// exact over the same values, sharing two cells or more, neither inside the other.
    fn pairs(&self) -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        for a in 0..self.units.len() {
            for b in a + 1..self.units.len() {
                let (ua, ub) = (&self.units[a], &self.units[b]);
                let shared = ua.iter().filter(|i| ub.contains(i)).count();
                let va = self.exact(ua);
                if va.is_some()
                    && va == self.exact(ub)
                    && shared >= 2
                    && shared < ua.len()
                    && shared < ub.len()
                {
                    pairs.push((a, b));
                }
            }
        }
        pairs
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

/// A jigsaw grid: `n` rows, `n` columns and `n` connected regions of `n` cells (the rows,
/// reshaped by random swaps that keep every region connected), about `percent` of the cells
/// given from a Latin square (not always a solution of the regions: many cases are
/// infeasible), some cells with holes, and sometimes a unit that is not exact (a region less
/// one cell) or the main diagonal.
fn jigsaw(rng: &mut Rng, n: usize, percent: u64) -> Case {
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
        .map(|i| {
            if rng.chance(percent) {
                vec![solved[i]]
            } else if rng.chance(20) {
                subset(rng, 1, n as i32, Some(solved[i]), 2)
            } else {
                (1..=n as i32).collect()
            }
        })
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

/// Every solution of a model, by a checked search.
fn all_solutions(m: Model, vars: &[VarId]) -> BTreeSet<Vec<i32>> {
    let mut s = Solver::with_config(m, checked());
    set_of(&mut s, vars)
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

/// A unit of `s` cells (4 to 7) over `s` values from `lo` (negative or not, with one gap
/// sometimes), `s - k` of them given, the `k` open ones with two values or more; and a second
/// unit to make a family: one shared cell (no pair), two or more shared over the same values
/// (a pair), or two or more over other values. Sometimes a sum or a count over the cells.
fn crafted(rng: &mut Rng) -> Case {
    let s = rng.range(4, 7) as usize;
    let k = rng.range(3, s.min(6) as i64) as usize;
    let lo = rng.range(-6, 4) as i32;
    // The values: `s` of `lo..=lo + s`, one left out (a gap inside sometimes, else the last).
    let gap = if rng.chance(25) {
        lo + rng.range(1, s as i64 - 1) as i32
    } else {
        lo + s as i32
    };
    let values: Vec<i32> = (lo..=lo + s as i32).filter(|&v| v != gap).collect();
    let mut order = values.clone();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    // With a gap, each open cell's values lie on one side of it (a range across the gap
    // would make the unit's declared values one more than its cells).
    let open_domain = |rng: &mut Rng, planted: i32| -> Vec<i32> {
        let (from, to) = if gap < lo + s as i32 {
            if planted < gap {
                (lo, gap - 1)
            } else {
                (gap + 1, lo + s as i32)
            }
        } else {
            (lo, lo + s as i32 - 1)
        };
        subset(rng, from, to, Some(planted), 2)
    };
    let mut domains: Vec<Vec<i32>> = Vec::new();
    for (i, &planted) in order.iter().enumerate() {
        if i < s - k {
            domains.push(vec![planted]);
        } else {
            domains.push(open_domain(rng, planted));
        }
    }
    let a: Vec<usize> = (0..s).collect();
    // The second unit.
    let shared = match rng.below(3) {
        0 => 1,
        _ => rng.range(2, s as i64 - 1) as usize,
    };
    let mut cells: Vec<usize> = (0..s).collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut b: Vec<usize> = cells[..shared].to_vec();
    let same_values = rng.chance(60);
    let b_size = if same_values {
        s
    } else {
        rng.range(shared.max(3) as i64, s as i64 + 1) as usize
    };
    // Over the same values, the second unit's own cells are planted with the values its
    // shared cells are not, so that the plant satisfies both (the domains may still prune
    // it: the solutions are brute force's).
    let mut rest: Vec<i32> = values
        .iter()
        .copied()
        .filter(|v| b.iter().all(|&i| order[i] != *v))
        .collect();
    while b.len() < b_size {
        let i = domains.len();
        let d = if same_values {
            let p = rest.swap_remove(rng.below(rest.len() as u64) as usize);
            open_domain(rng, p)
        } else {
            subset(rng, lo - 1, lo + s as i32 + 1, None, 2)
        };
        domains.push(d);
        b.push(i);
    }
    let mut case = Case::new(domains, vec![a, b]);
    let n = case.domains.len();
    match rng.below(5) {
        3 => {
            let xs: Vec<usize> = (0..n).filter(|_| rng.chance(40)).collect();
            if xs.len() >= 3 {
                let level = if rng.chance(50) {
                    Consistency::Value
                } else {
                    Consistency::Bounds
                };
                case.extras.push(Extra::Distinct(xs, level));
            }
        }
        0 => {
            let xs: Vec<usize> = (0..n).filter(|_| rng.chance(50)).collect();
            let bound =
                xs.iter().map(|&i| case.domains[i][0]).sum::<i32>() + rng.range(0, 6) as i32;
            case.extras.push(Extra::SumAtMost(xs, bound));
        }
        1 => {
            let xs: Vec<usize> = (0..n).filter(|_| rng.chance(60)).collect();
            let value = values[rng.below(values.len() as u64) as usize];
            case.domains.push((0..=xs.len() as i32).collect());
            case.extras.push(Extra::Count(xs, value, n));
        }
        _ => {}
    }
    case
}

#[test]
fn crafted_units_with_few_open_cells_against_brute_force() {
    let mut rng = Rng::seeded(4);
    let (mut paired, mut plain, mut audited) = (0, 0, 0);
    for seed in 0..400 {
        let case = crafted(&mut rng);
        let expected = case.enumerate();
        if case.pairs().is_empty() {
            plain += 1;
        } else {
            paired += 1;
        }
        root(&case, Post::Family, &expected);
        audited += audit(&case, 2, 200, Some(&expected));
        if seed % 8 == 0 {
            runs(&case, Post::Family, &expected, seed);
        } else {
            let (m, vars) = case.build(Post::Family);
            assert_eq!(all_solutions(m, &vars), expected, "{case:?}");
        }
    }
    assert!(
        paired > 50 && plain > 50,
        "{paired} with pairs, {plain} without"
    );
    assert!(audited > 2_000, "{audited} nodes audited");
}

/// A unit of five cells over `1..=5` given as masks, and a second unit sharing one cell with
/// it (so that a family forms, without pairs): the family's root domains of the first five
/// cells.
fn five(cells: [&[i32]; 5]) -> (Vec<Vec<i32>>, Vec<Vec<i32>>) {
    let mut domains: Vec<Vec<i32>> = cells.iter().map(|c| c.to_vec()).collect();
    domains.push((1..=9).collect());
    domains.push((1..=9).collect());
    let case = Case::new(domains, vec![(0..5).collect(), vec![4, 5, 6]]);
    assert!(case.pairs().is_empty());
    let expected = case.enumerate();
    root(&case, Post::Family, &expected);
    let (mut m, vars) = case.build(Post::Family);
    m.propagate().unwrap();
    assert_eq!(m.num_propagators(), 3, "a family of the two units");
    let family = vars[..5].iter().map(|&x| m.domain(x).unwrap()).collect();
    // The domains the solutions take: the units are domain consistent there.
    let support = (0..5)
        .map(|i| {
            let values: BTreeSet<i32> = expected.iter().map(|a| a[i]).collect();
            values.into_iter().collect()
        })
        .collect();
    (family, support)
}

#[test]
fn hall_sets_among_four_and_five_open_cells_are_found() {
    let cases: [[&[i32]; 5]; 7] = [
        // Four open cells (the fifth given), a naked pair {1, 2}.
        [&[1, 2], &[1, 2], &[1, 2, 3, 4], &[1, 2, 3, 4], &[5]],
        // Four open cells, a naked pair {1, 2} and a cell of three values.
        [&[1, 2], &[1, 2], &[1, 3, 4], &[2, 3, 4], &[5]],
        // Four open cells in a cycle: no Hall set.
        [&[1, 2], &[2, 3], &[3, 4], &[1, 4], &[5]],
        // Five open cells, a naked pair {1, 2}.
        [
            &[1, 2],
            &[1, 2],
            &[1, 2, 3, 4, 5],
            &[3, 4, 5],
            &[1, 3, 4, 5],
        ],
        // Five open cells, a hidden pair: 4 and 5 only in the last two (a naked triple
        // {1, 2, 3} in the first three).
        [&[1, 2, 3], &[1, 3], &[2, 3], &[1, 4, 5], &[2, 4, 5]],
        // Five open cells, a naked triple of three different pairs.
        [&[1, 2], &[2, 3], &[1, 3], &[1, 2, 3, 4, 5], &[1, 4, 5]],
        // Five open cells, no Hall set: nothing to prune.
        [&[1, 2], &[2, 3], &[3, 4], &[4, 5], &[1, 5]],
    ];
    for cells in cases {
        let (family, support) = five(cells);
        assert_eq!(family, support, "{cells:?}");
    }
}

/// The fixpoint of [`supports`] over `units` (cell masks, units as positions), or `None` when
/// some unit has no assignment: what the units one by one at domain consistency reach.
fn supports_one_by_one(masks: &[u64], units: &[Vec<usize>]) -> Option<Vec<u64>> {
    let mut masks = masks.to_vec();
    loop {
        let mut changed = false;
        for unit in units {
            let cells: Vec<u64> = unit.iter().map(|&i| masks[i]).collect();
            for (&i, m) in unit.iter().zip(supports(&cells)?) {
                changed |= masks[i] != m;
                masks[i] = m;
            }
        }
        if !changed {
            return Some(masks);
        }
    }
}

/// The four shapes of Hall sets among open cells that the family looks for before it runs a
/// matching, from their definitions, over subsets: two cells holding one and the same two
/// values, two values held by the same two cells and no other, three cells holding three
/// values or fewer between them, three values held by three cells or fewer between them.
fn hall_shapes(open: &[u64]) -> [bool; 4] {
    let n = open.len();
    let mut shapes = [false; 4];
    for i in 0..n {
        for j in i + 1..n {
            shapes[0] |= open[i].count_ones() == 2 && open[i] == open[j];
            for l in j + 1..n {
                shapes[2] |= (open[i] | open[j] | open[l]).count_ones() <= 3;
            }
        }
    }
    let values = open.iter().fold(0, |all, &m| all | m);
    let holders: Vec<Vec<usize>> = (0..64)
        .filter(|&v| values >> v & 1 == 1)
        .map(|v| (0..n).filter(|&i| open[i] >> v & 1 == 1).collect())
        .collect();
    for a in 0..holders.len() {
        for b in a + 1..holders.len() {
            shapes[1] |= holders[a].len() == 2 && holders[a] == holders[b];
            for c in b + 1..holders.len() {
                let mut cells: Vec<usize> = [&holders[a], &holders[b], &holders[c]]
                    .into_iter()
                    .flatten()
                    .copied()
                    .collect();
                cells.sort_unstable();
                cells.dedup();
                shapes[3] |= cells.len() <= 3;
            }
        }
    }
    shapes
}

/// `items` in a random order.
fn shuffled<T>(rng: &mut Rng, mut items: Vec<T>) -> Vec<T> {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i as u64 + 1) as usize);
    }
    items
}

/// `k` open cells over `k` values (bits `0..k`) as the cheap rules leave them in a unit with
/// as many values as cells: each cell with two values or more, each value in two cells or
/// more. Often around a planted Hall set: `s` cells within `s` values (2 <= `s` <= `k` - 2),
/// or `s + 1` cells within them (no matching).
fn open_cells(rng: &mut Rng, k: usize) -> Vec<u64> {
    let all = (1u64 << k) - 1;
    loop {
        let density = rng.range(30, 75) as u64;
        let random = |rng: &mut Rng, within: u64| -> u64 {
            (0..k)
                .filter(|&b| within >> b & 1 == 1 && rng.chance(density))
                .fold(0, |m, b| m | 1 << b)
        };
        let mut cells: Vec<u64> = (0..k).map(|_| random(rng, all)).collect();
        if rng.chance(65) {
            let s = rng.range(2, k as i64 - 2) as usize;
            let within = shuffled(rng, (0..k).collect())[..s]
                .iter()
                .fold(0, |m, &b| m | 1 << b);
            let planted = s + usize::from(rng.chance(15));
            for c in shuffled(rng, (0..k).collect()).into_iter().take(planted) {
                cells[c] = random(rng, within);
            }
        }
        let held = |b: usize| cells.iter().filter(|&&m| m >> b & 1 == 1).count();
        if cells.iter().all(|m| m.count_ones() >= 2) && (0..k).all(|b| held(b) >= 2) {
            return cells;
        }
    }
}

/// A unit of `k` open cells and up to three givens over as many values as cells from `lo`,
/// and a second unit of one to three of its cells and one or two cells over a wider range
/// (never exact: no pair), so that a family forms. The open cells are those of
/// [`open_cells`], returned as masks, or one of four changes away from the cheap rules'
/// fixpoint (a given's value in an open cell, a value left to one cell, an open cell fixed,
/// or random domains), then `None`.
fn open_unit(rng: &mut Rng, k: usize) -> (Case, Option<Vec<u64>>) {
    let g = rng.below(4) as usize;
    let s = k + g;
    let lo = rng.range(-4, 5) as i32;
    let values = shuffled(rng, (lo..lo + s as i32).collect());
    let (given, open_values) = values.split_at(g);
    let mut open = open_cells(rng, k);
    let mut domains: Vec<Vec<i32>> = given.iter().map(|&v| vec![v]).collect();
    let change = rng
        .chance(25)
        .then(|| rng.below(4))
        .filter(|&c| c != 0 || g > 0);
    match change {
        Some(0) => {
            let c = rng.below(k as u64) as usize;
            open[c] |= 1 << k;
        }
        Some(1) => {
            let b = rng.below(k as u64) as usize;
            let holders: Vec<usize> = (0..k).filter(|&c| open[c] >> b & 1 == 1).collect();
            let keep = holders[rng.below(holders.len() as u64) as usize];
            for c in holders.into_iter().filter(|&c| c != keep) {
                open[c] &= !(1 << b);
            }
        }
        Some(2) => {
            let c = rng.below(k as u64) as usize;
            let bits: Vec<usize> = (0..k).filter(|&b| open[c] >> b & 1 == 1).collect();
            open[c] = 1 << bits[rng.below(bits.len() as u64) as usize];
        }
        _ => {}
    }
    for &mask in &open {
        domains.push(if change == Some(3) {
            subset(rng, lo, lo + s as i32 - 1, None, 1)
        } else {
            // Bit `k` (from the first change) is the first given's value.
            (0..=k)
                .filter(|&b| mask >> b & 1 == 1)
                .map(|b| if b == k { given[0] } else { open_values[b] })
                .collect::<BTreeSet<i32>>()
                .into_iter()
                .collect()
        });
    }
    let shared = rng.range(1, 3) as usize;
    let fresh = if shared == 2 {
        rng.range(1, 2) as usize
    } else {
        3 - shared.min(2)
    };
    let mut second = shuffled(rng, (0..s).collect());
    second.truncate(shared);
    for _ in 0..fresh {
        let mut d = subset(rng, lo, lo + s as i32 - 1, None, 0);
        d.insert(0, lo - 1);
        d.push(lo + s as i32);
        second.push(domains.len());
        domains.push(d);
    }
    let case = Case::new(domains, vec![(0..s).collect(), second]);
    assert!(case.pairs().is_empty());
    (case, change.is_none().then_some(open))
}

#[test]
fn hall_sets_among_six_and_seven_open_cells_against_enumeration() {
    // Random exact units of 4 to 8 open cells, most of them of 6 and 7 (where the family skips
    // the matching without any of three or four shapes): first the claim itself, by
    // enumeration (at the cheap rules' fixpoint, no shape means nothing to prune and no
    // failure), then the family's root domains against the units one by one at domain
    // consistency, by enumeration. Per k, the cases where one shape alone (of those the family
    // looks for at that k) allows pruning are counted: dropping that shape's test must fail
    // here.
    let mut rng = Rng::seeded(66);
    let mut alone = [[0u32; 4]; 9];
    let (mut failing, mut settled, mut pruned_at_eight, mut away) = (0, [0; 9], 0, 0);
    for round in 0..24_000 {
        let k = [4, 5, 5, 6, 6, 6, 7, 7, 7, 8][rng.below(10) as usize];
        let (case, open) = open_unit(&mut rng, k);
        if let Some(open) = &open {
            let looked_for = match k {
                4 => 1,
                5 => 2,
                6 => 3,
                7 => 4,
                _ => 0,
            };
            let shapes = hall_shapes(open);
            let found: Vec<usize> = (0..looked_for).filter(|&i| shapes[i]).collect();
            let prunes = match supports(open) {
                None => {
                    failing += u32::from(k == 6);
                    true
                }
                Some(s) => s != *open,
            };
            if k == 8 {
                pruned_at_eight += u32::from(prunes);
            } else if prunes {
                assert!(
                    !found.is_empty(),
                    "k = {k}, {open:?}: no shape, yet not consistent"
                );
                if let [one] = found[..] {
                    alone[k][one] += 1;
                }
            } else if found.is_empty() {
                settled[k] += 1;
            }
        } else {
            away += 1;
        }
        let base = case.domains.iter().flatten().min().copied().unwrap();
        let masks: Vec<u64> = case
            .domains
            .iter()
            .map(|d| d.iter().fold(0, |m, &v| m | 1 << (v - base)))
            .collect();
        let (mut m, vars) = case.build(Post::Family);
        let result = m.propagate();
        assert_eq!(m.num_propagators(), 3, "a family of the two units");
        match (result, supports_one_by_one(&masks, &case.units)) {
            (Err(_), None) => {}
            (Err(_), Some(_)) => panic!("failed, every unit with a matching: {case:?}"),
            (Ok(()), None) => panic!("no failure, a unit without a matching: {case:?}"),
            (Ok(()), Some(expected)) => {
                for (i, &x) in vars.iter().enumerate() {
                    let want: Vec<i32> = (0..64)
                        .filter(|&b| expected[i] >> b & 1 == 1)
                        .map(|b| base + b)
                        .collect();
                    assert_eq!(m.domain(x).unwrap(), want, "x{i} of {case:?}");
                }
            }
        }
        if round % 200 == 0 {
            audit(&case, 1, 50, Some(&case.enumerate()));
        }
    }
    // The generator must keep reaching every shape alone (seed 66: 200 to 400 each), the
    // failing units, the units the family leaves without a matching, and the rest.
    let counts = format!(
        "alone {alone:?}, failing {failing}, settled {settled:?}, pruned at 8 \
         {pruned_at_eight}, away from the fixpoint {away}"
    );
    for (k, shape) in [
        (4, 0),
        (5, 0),
        (5, 1),
        (6, 0),
        (6, 1),
        (6, 2),
        (7, 0),
        (7, 1),
        (7, 2),
        (7, 3),
    ] {
        assert!(alone[k][shape] >= 50, "k = {k}, shape {shape}: {counts}");
    }
    assert!(
        failing >= 20
            && settled[6] >= 1_000
            && settled[7] >= 500
            && pruned_at_eight >= 100
            && away >= 1_000,
        "{counts}"
    );
}

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
            } else if rng.chance(percent) {
                vec![planted[i]]
            } else if rng.chance(30) {
                subset(rng, 1, size as i32, Some(planted[i]), 3)
            } else {
                (1..=size as i32).collect()
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

impl Case {
    /// [`enumerate`](Case::enumerate) for cases known to have few solutions: panics past
    /// `at_most`.
    fn enumerate_limited(&self, at_most: usize) -> BTreeSet<Vec<i32>> {
        let all = self.enumerate();
        assert!(all.len() <= at_most);
        all
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
