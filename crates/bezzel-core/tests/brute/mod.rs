//! What the brute-force tests of the constraint catalogue share: a replayable random
//! generator, random domains and views, the enumeration of every assignment, and the checks of
//! solution sets and of consistency against it.
//!
//! Consistency is checked after every propagation, not only the first: [`walk`] searches
//! with a [`Brancher`] that takes random decisions (`x = v`, `x != v`, `x <= v`, the right
//! branches being their negations) and records the domains it is shown at each node, that is
//! after each fixpoint of incremental propagation, past backtracking. Each recorded node is
//! then judged by brute force over its own domains. That no solution is lost at any node
//! follows from the solution set being complete: the two branches of a node partition its
//! solutions, so a solution pruned anywhere is never found.

// Each test binary uses only some of it.
#![allow(dead_code)]

pub(crate) mod spec;

use bezzel_core::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

/// A small deterministic generator (xorshift), so that failures replay.
#[derive(Debug, Clone)]
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// A generator from any seed, zero included: splitmix64 spreads the seed's bits, so that
    /// nearby seeds start far apart.
    pub(crate) fn seeded(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Rng((z ^ (z >> 31)) | 1)
    }
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub(crate) fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    pub(crate) fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A non-empty random subset of `lo..=hi`.
pub(crate) fn domain(rng: &mut Rng, lo: i32, hi: i32) -> Vec<i32> {
    loop {
        let d: Vec<i32> = (lo..=hi).filter(|_| rng.chance(60)).collect();
        if !d.is_empty() {
            return d;
        }
    }
}

/// A view spec `±x[var] + offset`, described independently of the engine.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ViewSpec {
    pub(crate) var: usize,
    pub(crate) negated: bool,
    pub(crate) offset: i32,
    /// The factor `s >= 1` of `±s·x + offset` (1 for an unscaled view).
    pub(crate) scale: i32,
}

impl ViewSpec {
    pub(crate) fn random(rng: &mut Rng, vars: usize) -> ViewSpec {
        ViewSpec {
            var: rng.below(vars as u64) as usize,
            negated: rng.chance(20),
            offset: if rng.chance(30) {
                rng.range(-1, 1) as i32
            } else {
                0
            },
            scale: 1,
        }
    }
    pub(crate) fn of(var: usize, negated: bool, offset: i32) -> ViewSpec {
        ViewSpec {
            var,
            negated,
            offset,
            scale: 1,
        }
    }
    /// A plain view of variable `var`.
    pub(crate) fn var(var: usize) -> ViewSpec {
        ViewSpec::of(var, false, 0)
    }
    /// The view's value when its variable is `x`.
    pub(crate) fn at(self, x: i32) -> i64 {
        let v = i64::from(x) * i64::from(self.scale);
        (if self.negated { -v } else { v }) + i64::from(self.offset)
    }
    pub(crate) fn eval(self, a: &[i32]) -> i64 {
        self.at(a[self.var])
    }
    /// The view's interval when its variable ranges over `[lo, hi]`.
    pub(crate) fn interval(self, lo: i32, hi: i32) -> (i64, i64) {
        let (a, b) = (self.at(lo), self.at(hi));
        (a.min(b), a.max(b))
    }
    pub(crate) fn view(self, vars: &[VarId]) -> IntView {
        let base: IntView = vars[self.var].into();
        let base = if self.negated { base.minus() } else { base };
        base.scale(self.scale).offset(self.offset)
    }
}

/// The views of `specs` over `vars`.
pub(crate) fn views(specs: &[ViewSpec], vars: &[VarId]) -> Vec<IntView> {
    specs.iter().map(|s| s.view(vars)).collect()
}

/// The values of the views of `specs` under the assignment `a`.
pub(crate) fn values(specs: &[ViewSpec], a: &[i32]) -> Vec<i64> {
    specs.iter().map(|s| s.eval(a)).collect()
}

/// Every assignment of `domains`, the first variable's values varying slowest.
pub(crate) fn assignments(domains: &[Vec<i32>]) -> Vec<Vec<i32>> {
    let mut out = vec![Vec::new()];
    for d in domains {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                d.iter().map(move |&v| {
                    let mut a = prefix.clone();
                    a.push(v);
                    a
                })
            })
            .collect();
    }
    out
}

/// Every assignment from `domains` that `holds` accepts.
pub(crate) fn brute(domains: &[Vec<i32>], holds: &dyn Fn(&[i32]) -> bool) -> BTreeSet<Vec<i32>> {
    fn go(
        d: &[Vec<i32>],
        i: usize,
        a: &mut Vec<i32>,
        holds: &dyn Fn(&[i32]) -> bool,
        out: &mut BTreeSet<Vec<i32>>,
    ) {
        if i == d.len() {
            if holds(a) {
                out.insert(a.clone());
            }
            return;
        }
        for &v in &d[i] {
            a[i] = v;
            go(d, i + 1, a, holds, out);
        }
    }
    let mut out = BTreeSet::new();
    go(domains, 0, &mut vec![0; domains.len()], holds, &mut out);
    out
}

/// A model with one variable per domain.
pub(crate) fn model(domains: &[Vec<i32>]) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let vars = domains
        .iter()
        .map(|d| m.int_var(d.as_slice()).unwrap())
        .collect();
    (m, vars)
}

/// Every assignment of `domains` whose `units` (positions) take pairwise distinct values, by
/// backtracking in input order with each unit checked as soon as its cells are set: the
/// ground truth of the family's tests, written without the solver.
pub(crate) fn enumerate_units(domains: &[Vec<i32>], units: &[Vec<usize>]) -> BTreeSet<Vec<i32>> {
    let n = domains.len();
    // Per position, the earlier positions it shares a unit with.
    let mut before: Vec<Vec<usize>> = vec![Vec::new(); n];
    for unit in units {
        for &i in unit {
            for &j in unit {
                if j < i && !before[i].contains(&j) {
                    before[i].push(j);
                }
            }
        }
    }
    fn go(
        domains: &[Vec<i32>],
        before: &[Vec<usize>],
        a: &mut Vec<i32>,
        out: &mut BTreeSet<Vec<i32>>,
    ) {
        let i = a.len();
        if i == domains.len() {
            out.insert(a.clone());
            return;
        }
        for &v in &domains[i] {
            if before[i].iter().all(|&j| a[j] != v) {
                a.push(v);
                go(domains, before, a, out);
                a.pop();
            }
        }
    }
    let mut out = BTreeSet::new();
    go(domains, &before, &mut Vec::with_capacity(n), &mut out);
    out
}

/// The values a unit (positions in `domains`) must use, if its cells' declared ranges (least
/// to greatest value) cover exactly as many values as it has cells.
pub(crate) fn exact_values(domains: &[Vec<i32>], unit: &[usize]) -> Option<BTreeSet<i32>> {
    let all: BTreeSet<i32> = unit
        .iter()
        .flat_map(|&i| {
            let d = &domains[i];
            *d.iter().min().unwrap()..=*d.iter().max().unwrap()
        })
        .collect();
    (all.len() == unit.len()).then_some(all)
}

/// The pairs of `units` (positions in `domains`) that locked candidates apply to, from the
/// definition: both exact over the same values ([`exact_values`]), sharing two cells or more,
/// neither inside the other.
pub(crate) fn locked_pairs(domains: &[Vec<i32>], units: &[Vec<usize>]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for a in 0..units.len() {
        for b in a + 1..units.len() {
            let (ua, ub) = (&units[a], &units[b]);
            let shared = ua.iter().filter(|i| ub.contains(i)).count();
            let va = exact_values(domains, ua);
            if va.is_some()
                && va == exact_values(domains, ub)
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

/// [`model`] with `units` (positions in `domains`) all different at the domain level: through
/// `all_different_with` (a family forms) if `family`, else as one `AllDifferentDomain` each.
pub(crate) fn units_model(
    domains: &[Vec<i32>],
    units: &[Vec<usize>],
    family: bool,
) -> (Model, Vec<VarId>) {
    let (mut m, vars) = model(domains);
    for unit in units {
        let views: Vec<IntView> = unit.iter().map(|&i| vars[i].into()).collect();
        if family {
            m.all_different_with(&views, Consistency::Domain).unwrap();
        } else {
            m.post(bezzel_core::propagators::AllDifferentDomain::new(views))
                .unwrap();
        }
    }
    (m, vars)
}

/// The first of `pairs` (positions in `units`) whose units can take different values
/// outside the cells they share, given `domains`: locked candidates not applied.
pub(crate) fn unlocked_pair(
    units: &[Vec<usize>],
    pairs: &[(usize, usize)],
    domains: &[Vec<i32>],
) -> Option<(usize, usize)> {
    let outside = |one: &[usize], other: &[usize]| -> BTreeSet<i32> {
        one.iter()
            .filter(|i| !other.contains(i))
            .flat_map(|&i| domains[i].iter().copied())
            .collect()
    };
    pairs
        .iter()
        .copied()
        .find(|&(p, q)| outside(&units[p], &units[q]) != outside(&units[q], &units[p]))
}

/// Every solution, with each one checked against the posted definitions.
pub(crate) fn solve(m: Model) -> BTreeSet<Vec<i32>> {
    let config = SearchConfig {
        check_solutions: true,
        ..SearchConfig::default()
    };
    let mut s = Solver::with_config(m, config);
    s.solution_set().iter().map(|r| r.to_vec()).collect()
}

/// After one propagation each domain is exactly the values that solutions take.
pub(crate) fn assert_domain_consistent(
    mut m: Model,
    vars: &[VarId],
    solutions: &BTreeSet<Vec<i32>>,
    case: &dyn std::fmt::Debug,
) {
    match m.propagate() {
        Err(_) => assert!(solutions.is_empty(), "failed with solutions: {case:?}"),
        Ok(()) => {
            for (i, &x) in vars.iter().enumerate() {
                let supported: Vec<i32> = solutions
                    .iter()
                    .map(|s| s[i])
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect();
                if solutions.is_empty() {
                    continue; // a consistent propagator may leave an unsatisfiable model unfailed
                }
                assert_eq!(m.domain(x).unwrap(), supported, "var {i} of {case:?}");
            }
        }
    }
}

/// The whole check of one instance: the solution set is exactly the brute-force set and,
/// where `domain_consistent`, every domain is exactly the supported values after the first
/// propagation ([`assert_domain_consistent`]) and at every node of random searches
/// ([`walk`]).
pub(crate) fn check_instance(
    domains: &[Vec<i32>],
    build: &dyn Fn() -> (Model, Vec<VarId>),
    holds: &dyn Fn(&[i32]) -> bool,
    domain_consistent: bool,
    case: &dyn std::fmt::Debug,
) {
    let expected = brute(domains, holds);
    assert_eq!(solve(build().0), expected, "{case:?}");
    if domain_consistent {
        let (m, vars) = build();
        assert_domain_consistent(m, &vars, &expected, case);
        let claims = domain_everywhere(domains.len());
        walk(domains, build, holds, &claims, 2, case);
    }
}

/// A random instance of one constraint: its variables' domains, its definition written in
/// the test, and its model.
pub(crate) trait Instance: std::fmt::Debug {
    fn domains(&self) -> &[Vec<i32>];
    /// Whether an assignment of every variable satisfies the definition.
    fn holds(&self, a: &[i32]) -> bool;
    /// The model, and its variables in the order of [`domains`](Instance::domains).
    fn model(&self) -> (Model, Vec<VarId>);
    /// Whether the propagator claims domain consistency on this instance.
    fn domain_consistent(&self) -> bool;
}

/// [`check_instance`] on `rounds` instances that `random` makes from the random numbers of
/// `seed` and the round.
pub(crate) fn check_random<C: Instance>(
    seed: u64,
    rounds: u64,
    random: impl Fn(&mut Rng, u64) -> C,
) {
    let mut rng = Rng(seed);
    for round in 0..rounds {
        let case = random(&mut rng, round);
        check_instance(
            case.domains(),
            &|| case.model(),
            &|a| case.holds(a),
            case.domain_consistent(),
            &case,
        );
    }
}

/// The consistency that a propagator claims on one variable, checked at every node by
/// [`walk`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    /// The domain is exactly the values that solutions within the node's domains take (and a
    /// node without such solutions fails).
    Domain,
    /// The smallest and the largest value each belong to a solution within the node's
    /// domains: bounds(D) consistency.
    Bounds,
    /// The smallest and the largest value each belong to a solution within the intervals
    /// spanned by the node's domains, holes filled: bounds(Z) consistency.
    BoundsZ,
}

/// Domain consistency claimed on each of `n` variables.
pub(crate) fn domain_everywhere(n: usize) -> Vec<(usize, Level)> {
    (0..n).map(|i| (i, Level::Domain)).collect()
}

/// The domains of every variable at one node of search, in variable order.
pub(crate) type Node = Vec<Vec<i32>>;

/// How a [`Recorder`] picks a decision: from its random numbers, the node's domains and the
/// unfixed variables.
pub(crate) type Decide = fn(&mut Rng, &Domains<'_>, &[VarId]) -> Option<Decision>;

/// Takes random decisions and records the domains it is shown at each node (after each
/// fixpoint of propagation).
#[derive(Debug)]
struct Recorder {
    rng: Rng,
    decide: Decide,
    nodes: Arc<Mutex<Vec<Node>>>,
}

impl Brancher for Recorder {
    fn decide(&mut self, d: &Domains<'_>) -> Option<Decision> {
        let node: Node = d.vars().map(|x| d.values(x).collect()).collect();
        self.nodes.lock().unwrap().push(node);
        let open: Vec<VarId> = d.vars().filter(|&x| !d.is_fixed(x)).collect();
        (self.decide)(&mut self.rng, d, &open)
    }
}

/// What one search with random decisions saw: see [`record_search`].
#[derive(Debug)]
pub(crate) struct Recorded {
    /// The domains of every variable of the model at each node, in the order visited.
    pub(crate) nodes: Vec<Node>,
    /// The solutions found, as the values of the variables asked for.
    pub(crate) solutions: BTreeSet<Vec<i32>>,
    /// Whether the search went through the whole tree (no limit stopped it).
    pub(crate) complete: bool,
}

/// Searches `m` under `config` with the decisions `decide` takes from `rng`, recording every
/// node's domains and the solutions as the values of `vars`.
pub(crate) fn record_search(
    m: Model,
    vars: &[VarId],
    config: SearchConfig,
    rng: Rng,
    decide: Decide,
) -> Recorded {
    let nodes = Arc::new(Mutex::new(Vec::new()));
    let recorder = Recorder {
        rng,
        decide,
        nodes: Arc::clone(&nodes),
    };
    let mut solver = Solver::with_config(m, config).brancher(recorder);
    let solutions = solver.solutions().map(|s| s.values_of(vars)).collect();
    let complete = solver.stats().stopped.is_none();
    drop(solver);
    let nodes = std::mem::take(&mut *nodes.lock().unwrap());
    Recorded {
        nodes,
        solutions,
        complete,
    }
}

/// The domains of `vars`, in that order, at a node recorded over all of a model's variables.
pub(crate) fn project(node: &Node, vars: &[VarId]) -> Node {
    vars.iter().map(|x| node[x.index()].clone()).collect()
}

/// The default search with every solution checked against the constraints as posted.
pub(crate) fn checked() -> SearchConfig {
    SearchConfig {
        check_solutions: true,
        ..SearchConfig::default()
    }
}

/// One of `open` (unfixed variables) and one of its values, at random, if any is open.
fn pick(rng: &mut Rng, d: &Domains<'_>, open: &[VarId]) -> Option<(VarId, i32)> {
    if open.is_empty() {
        return None;
    }
    let x = open[rng.below(open.len() as u64) as usize];
    let values: Vec<i32> = d.values(x).collect();
    Some((x, values[rng.below(values.len() as u64) as usize]))
}

/// A random point to split `x`'s domain at: any value from its least to one below its
/// greatest, holes included.
fn split(rng: &mut Rng, d: &Domains<'_>, x: VarId) -> i32 {
    rng.range(i64::from(d.min(x)), i64::from(d.max(x)) - 1) as i32
}

/// A random decision of three kinds (`x = v`, `x != v`, `x <= v`) on one of `open`, if any.
pub(crate) fn three_kinds(rng: &mut Rng, d: &Domains<'_>, open: &[VarId]) -> Option<Decision> {
    let (x, v) = pick(rng, d, open)?;
    Some(match rng.below(3) {
        0 => Decision::Assign(x, v),
        1 => Decision::Exclude(x, v),
        _ => Decision::AtMost(x, split(rng, d, x)),
    })
}

/// Nodes judged per walk at the most, so that a large tree keeps the test short.
const NODES_JUDGED: usize = 400;

/// Walks search `walks` times with random decisions over the model that `build` makes (its
/// variables, in order, those of `domains`) and checks that the solutions found are exactly
/// those of `holds` among `domains`, and that at every node each `(variable, level)` of
/// `claims` holds of the domains left by propagation, judged by brute force. `case` names the
/// instance in failures.
pub(crate) fn walk(
    domains: &[Vec<i32>],
    build: &dyn Fn() -> (Model, Vec<VarId>),
    holds: &dyn Fn(&[i32]) -> bool,
    claims: &[(usize, Level)],
    walks: u64,
    case: &dyn std::fmt::Debug,
) {
    let expected = brute(domains, holds);
    // Each instance walks its own paths, and replays them.
    let instance = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        format!("{case:?}").hash(&mut h);
        h.finish()
    };
    for seed in 1..=walks {
        let (m, vars) = build();
        let walked = record_search(
            m,
            &vars,
            checked(),
            Rng::seeded(seed ^ instance),
            three_kinds,
        );
        assert_eq!(
            walked.solutions, expected,
            "walk {seed}: solution sets differ on {case:?}"
        );
        for node in walked.nodes.iter().take(NODES_JUDGED) {
            judge(&project(node, &vars), holds, claims, case);
        }
    }
}

/// Checks the claims at one node (see [`walk`]).
fn judge(
    node: &Node,
    holds: &dyn Fn(&[i32]) -> bool,
    claims: &[(usize, Level)],
    case: &dyn std::fmt::Debug,
) {
    let supports = brute(node, holds);
    let used = |sols: &BTreeSet<Vec<i32>>, i: usize| -> Vec<i32> {
        sols.iter()
            .map(|s| s[i])
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    };
    let hull: Option<BTreeSet<Vec<i32>>> =
        claims.iter().any(|c| c.1 == Level::BoundsZ).then(|| {
            let spans: Node = node
                .iter()
                .map(|d| (d[0]..=d[d.len() - 1]).collect())
                .collect();
            brute(&spans, holds)
        });
    for &(i, level) in claims {
        let d = &node[i];
        match level {
            Level::Domain => assert_eq!(
                d,
                &used(&supports, i),
                "x{i} is not domain consistent at node {node:?} of {case:?}"
            ),
            Level::Bounds | Level::BoundsZ => {
                let sols = if level == Level::Bounds {
                    &supports
                } else {
                    hull.as_ref().unwrap()
                };
                let u = used(sols, i);
                assert!(
                    u.contains(&d[0]) && u.contains(&d[d.len() - 1]),
                    "x{i}: bounds unsupported ({level:?}) at node {node:?} of {case:?}"
                );
            }
        }
    }
}

/// Takes random decisions of all four kinds (`x = v`, `x != v`, `x <= v`, `x > v`) and records
/// nothing: the solution set it reaches is compared with brute force or another model's.
#[derive(Debug)]
pub(crate) struct RandomDecisions(pub(crate) Rng);

impl Brancher for RandomDecisions {
    fn decide(&mut self, d: &Domains<'_>) -> Option<Decision> {
        let open: Vec<VarId> = d.vars().filter(|&x| !d.is_fixed(x)).collect();
        random_decision(&mut self.0, d, &open)
    }
}

/// A random decision of any of the four kinds on one of `open` (unfixed variables), if any.
pub(crate) fn random_decision(rng: &mut Rng, d: &Domains<'_>, open: &[VarId]) -> Option<Decision> {
    let (x, v) = pick(rng, d, open)?;
    let at = split(rng, d, x);
    Some(match rng.below(4) {
        0 => Decision::Assign(x, v),
        1 => Decision::Exclude(x, v),
        2 => Decision::AtMost(x, at),
        _ => Decision::Above(x, at),
    })
}

/// Every solution of `s`, as the values of `vars`.
pub(crate) fn set_of(s: &mut Solver, vars: &[VarId]) -> BTreeSet<Vec<i32>> {
    s.solutions().map(|sol| sol.values_of(vars)).collect()
}

/// Whether every set can take a value of its own, all different: a matching by augmenting
/// paths (Kuhn's), independent of the propagators under test.
pub(crate) fn has_matching<T: Ord + Copy, S: AsRef<[T]>>(sets: &[S]) -> bool {
    fn augment<T: Ord + Copy, S: AsRef<[T]>>(
        i: usize,
        sets: &[S],
        owner: &mut BTreeMap<T, usize>,
        seen: &mut BTreeSet<T>,
    ) -> bool {
        for &v in sets[i].as_ref() {
            if seen.insert(v) {
                let free = match owner.get(&v) {
                    None => true,
                    Some(&j) => augment(j, sets, owner, seen),
                };
                if free {
                    owner.insert(v, i);
                    return true;
                }
            }
        }
        false
    }
    let mut owner = BTreeMap::new();
    (0..sets.len()).all(|i| augment(i, sets, &mut owner, &mut BTreeSet::new()))
}

/// The values each cell of one unit takes in some assignment of the unit's cells to pairwise
/// distinct values, as masks (bit `v - base`), by enumerating every such assignment: domain
/// consistency by its definition, with no matching and no Hall set. `None` when there is no
/// such assignment.
pub(crate) fn supports(masks: &[u64]) -> Option<Vec<u64>> {
    fn go(masks: &[u64], used: u64, path: &mut Vec<u64>, out: &mut [u64]) {
        let Some(&mask) = masks.get(path.len()) else {
            for (o, &bit) in out.iter_mut().zip(path.iter()) {
                *o |= bit;
            }
            return;
        };
        let mut free = mask & !used;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free &= free - 1;
            path.push(bit);
            go(masks, used | bit, path, out);
            path.pop();
        }
    }
    let mut out = vec![0; masks.len()];
    go(masks, 0, &mut Vec::with_capacity(masks.len()), &mut out);
    out.iter().all(|&m| m != 0).then_some(out)
}
