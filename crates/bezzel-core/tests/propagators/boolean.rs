//! Booleans, clauses, connectives and reification against brute force, as Gecode's test
//! harness does: for random tiny instances, every assignment is enumerated with the
//! constraint's definition written here independently; the solver's solution set must equal
//! the brute-force one, `Model::check_assignment` (the propagators' `is_satisfied`) must accept
//! exactly the solutions, and after `Model::propagate` the domains must keep every supported
//! value, and lose every unsupported one where domain consistency is claimed (the bounds where
//! bounds consistency is), and so again at every node of searches with random decisions
//! (`brute::walk`).

use bezzel_core::prelude::*;
use proptest::prelude::*;
use std::collections::BTreeSet;

use crate::brute;

use brute::ViewSpec;
use brute::spec::{relation, relation_holds};

/// A literal: a Boolean variable or its negation.
#[derive(Debug, Clone, Copy)]
struct Lit {
    var: usize,
    negated: bool,
}

impl Lit {
    fn eval(self, a: &[i32]) -> bool {
        (a[self.var] == 1) != self.negated
    }

    fn view(self, vars: &[VarId]) -> IntView {
        let v: IntView = vars[self.var].into();
        if self.negated { v.minus().offset(1) } else { v }
    }
}

#[derive(Debug, Clone)]
enum Spec {
    Clause(Vec<Lit>, Vec<Lit>),
    And(Vec<Lit>, Lit),
    Or(Vec<Lit>, Lit),
    Xor(Vec<Lit>, Lit),
    Implies(Lit, Lit),
    Not(Lit, Lit),
    EqValue(ViewSpec, i32, Lit, Reif),
    LeValue(ViewSpec, i32, Lit, Reif),
    Equal(ViewSpec, ViewSpec, Lit, Reif),
    LessEq(ViewSpec, ViewSpec, Lit, Reif),
    Linear(Vec<(i32, ViewSpec)>, Relation, i32, Lit, Reif),
}

/// `b (mode) c`, from the definition of the modes.
fn reif(mode: Reif, b: bool, c: bool) -> bool {
    match mode {
        Reif::Equiv => b == c,
        Reif::Imp => !b || c,
        Reif::Pmi => !c || b,
    }
}

impl Spec {
    fn holds(&self, a: &[i32]) -> bool {
        let all = |ls: &[Lit]| ls.iter().all(|l| l.eval(a));
        let any = |ls: &[Lit]| ls.iter().any(|l| l.eval(a));
        match self {
            Spec::Clause(p, n) => any(p) || n.iter().any(|l| !l.eval(a)),
            Spec::And(bs, r) => r.eval(a) == all(bs),
            Spec::Or(bs, r) => r.eval(a) == any(bs),
            Spec::Xor(bs, r) => r.eval(a) == (bs.iter().filter(|l| l.eval(a)).count() % 2 == 1),
            Spec::Implies(x, y) => !x.eval(a) || y.eval(a),
            Spec::Not(x, y) => x.eval(a) != y.eval(a),
            Spec::EqValue(x, v, b, mode) => reif(*mode, b.eval(a), x.eval(a) == i64::from(*v)),
            Spec::LeValue(x, v, b, mode) => reif(*mode, b.eval(a), x.eval(a) <= i64::from(*v)),
            Spec::Equal(x, y, b, mode) => reif(*mode, b.eval(a), x.eval(a) == y.eval(a)),
            Spec::LessEq(x, y, b, mode) => reif(*mode, b.eval(a), x.eval(a) <= y.eval(a)),
            Spec::Linear(terms, rel, c, b, mode) => {
                let s: i64 = terms.iter().map(|&(k, v)| i64::from(k) * v.eval(a)).sum();
                let holds = relation_holds(i128::from(s), *rel, i128::from(*c));
                reif(*mode, b.eval(a), holds)
            }
        }
    }

    fn post(&self, m: &mut Model, vars: &[VarId]) -> Result<(), ModelError> {
        let lits = |ls: &[Lit]| ls.iter().map(|l| l.view(vars)).collect::<Vec<_>>();
        match self {
            Spec::Clause(p, n) => m.clause(&lits(p), &lits(n)),
            Spec::And(bs, r) => m.and(&lits(bs), r.view(vars)),
            Spec::Or(bs, r) => m.or(&lits(bs), r.view(vars)),
            Spec::Xor(bs, r) => m.xor(&lits(bs), r.view(vars)),
            Spec::Implies(x, y) => m.implies(x.view(vars), y.view(vars)),
            Spec::Not(x, y) => m.not(x.view(vars), y.view(vars)),
            Spec::EqValue(x, v, b, mode) => m.eq_value_reif(x.view(vars), *v, b.view(vars), *mode),
            Spec::LeValue(x, v, b, mode) => m.le_value_reif(x.view(vars), *v, b.view(vars), *mode),
            Spec::Equal(x, y, b, mode) => {
                m.equal_reif(x.view(vars), y.view(vars), b.view(vars), *mode)
            }
            Spec::LessEq(x, y, b, mode) => {
                m.less_eq_reif(x.view(vars), y.view(vars), b.view(vars), *mode)
            }
            Spec::Linear(terms, rel, c, b, mode) => {
                let coefs: Vec<i32> = terms.iter().map(|t| t.0).collect();
                let views: Vec<IntView> = terms.iter().map(|t| t.1.view(vars)).collect();
                m.linear_reif(&coefs, &views, *rel, *c, b.view(vars), *mode)
            }
        }
    }

    /// The variables the constraint reads, in order, repeats included.
    fn vars(&self) -> Vec<usize> {
        let l = |ls: &[Lit]| ls.iter().map(|l| l.var).collect::<Vec<_>>();
        match self {
            Spec::Clause(p, n) => [l(p), l(n)].concat(),
            Spec::And(bs, r) | Spec::Or(bs, r) | Spec::Xor(bs, r) => [l(bs), vec![r.var]].concat(),
            Spec::Implies(x, y) | Spec::Not(x, y) => vec![x.var, y.var],
            Spec::EqValue(x, _, b, _) | Spec::LeValue(x, _, b, _) => vec![x.var, b.var],
            Spec::Equal(x, y, b, _) | Spec::LessEq(x, y, b, _) => vec![x.var, y.var, b.var],
            Spec::Linear(terms, _, _, b, _) => {
                let mut v: Vec<usize> = terms.iter().map(|t| t.1.var).collect();
                v.push(b.var);
                v
            }
        }
    }

    /// The consistency claimed for this constraint when its variables are distinct.
    fn claimed(&self) -> Level {
        match self {
            Spec::LessEq(..) => Level::Bounds,
            // Two unit terms compared with a constant: a difference or a sum against a
            // bound, pruned as `x <= y` is.
            Spec::Linear(terms, Relation::Le | Relation::Ge, ..)
                if terms.len() == 2 && terms.iter().all(|t| t.0.abs() == 1) =>
            {
                Level::Bounds
            }
            Spec::Linear(..) => Level::Sound,
            _ => Level::Domain,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Level {
    /// Every value left has a support and every value removed has none.
    Domain,
    /// Every value removed has no support and the bounds left have one.
    Bounds,
    /// Every value removed has no support.
    Sound,
}

#[derive(Debug, Clone)]
struct Instance {
    domains: Vec<Vec<i32>>,
    /// Which variables are made with `named_bool` (the others with `int_var`).
    as_bool: Vec<bool>,
    spec: Spec,
    /// `Model::fix` calls: (variable, value).
    fixes: Vec<(usize, i32)>,
}

impl Instance {
    fn build(&self) -> (Model, Vec<VarId>) {
        let mut m = Model::new();
        let vars: Vec<VarId> = self
            .domains
            .iter()
            .zip(&self.as_bool)
            .enumerate()
            .map(|(i, (d, &b))| {
                if b && d == &[0, 1] {
                    m.named_bool(format!("b{i}")).unwrap().var()
                } else {
                    m.int_var(d.as_slice()).unwrap()
                }
            })
            .collect();
        self.spec.post(&mut m, &vars).unwrap();
        for &(x, v) in &self.fixes {
            m.fix(vars[x], v).unwrap();
        }
        (m, vars)
    }

    /// The definition, with the fixes.
    fn holds(&self, a: &[i32]) -> bool {
        self.spec.holds(a) && self.fixes.iter().all(|&(x, v)| a[x] == v)
    }

    fn brute_force(&self) -> BTreeSet<Vec<i32>> {
        brute::brute(&self.domains, &|a| self.holds(a))
    }

    fn check(&self) {
        let expected = self.brute_force();
        // The definitions: `is_satisfied` accepts exactly the solutions.
        let (m, _) = self.build();
        for a in brute::assignments(&self.domains) {
            assert_eq!(
                m.check_assignment(&a).is_ok(),
                expected.contains(&a),
                "check_assignment({a:?}) on {self:#?}"
            );
        }
        // Search, under several orders, finds exactly the solutions.
        for (var_order, value_order) in [
            (VarOrder::InputOrder, ValueOrder::Min),
            (VarOrder::SmallestDomain, ValueOrder::Max),
            (VarOrder::DomWDeg, ValueOrder::Split),
        ] {
            let (m, vars) = self.build();
            let config = SearchConfig {
                var_order,
                value_order,
                check_solutions: true,
                ..SearchConfig::default()
            };
            let mut solver = Solver::with_config(m, config);
            let found: BTreeSet<Vec<i32>> =
                solver.solutions().map(|s| s.values_of(&vars)).collect();
            assert_eq!(
                found, expected,
                "{var_order:?}/{value_order:?} on {self:#?}"
            );
        }
        // Propagation: no support lost, and the claimed consistency.
        let (mut m, vars) = self.build();
        let distinct = {
            let v = self.spec.vars();
            v.iter().collect::<BTreeSet<_>>().len() == v.len()
        };
        let level = if distinct {
            self.spec.claimed()
        } else {
            Level::Sound
        };
        match m.propagate() {
            Err(_) => assert!(expected.is_empty(), "propagation failed on {self:#?}"),
            Ok(()) => {
                for (i, &x) in vars.iter().enumerate() {
                    let domain = m.domain(x).unwrap();
                    let support: BTreeSet<i32> = expected.iter().map(|a| a[i]).collect();
                    for v in &support {
                        assert!(domain.contains(v), "x{i} lost supported {v} on {self:#?}");
                    }
                    match level {
                        Level::Domain => assert_eq!(
                            domain,
                            support.iter().copied().collect::<Vec<_>>(),
                            "x{i} not domain consistent on {self:#?}"
                        ),
                        Level::Bounds => {
                            let (lo, hi) = (domain[0], domain[domain.len() - 1]);
                            assert!(
                                support.contains(&lo) && support.contains(&hi),
                                "x{i}: bounds {lo}..{hi} unsupported on {self:#?}"
                            );
                        }
                        Level::Sound => {}
                    }
                }
            }
        }
        // The same claims at every node of searches with random decisions.
        let claim = match level {
            Level::Domain => Some(brute::Level::Domain),
            Level::Bounds => Some(brute::Level::Bounds),
            Level::Sound => None,
        };
        let claims: Vec<(usize, brute::Level)> = claim
            .map(|l| (0..self.domains.len()).map(|i| (i, l)).collect())
            .unwrap_or_default();
        brute::walk(
            &self.domains,
            &|| self.build(),
            &|a| self.holds(a),
            &claims,
            2,
            self,
        );
    }
}

fn lit(n: usize) -> impl Strategy<Value = Lit> {
    (0..n, any::<bool>()).prop_map(|(var, negated)| Lit { var, negated })
}

fn lits(n: usize, max: usize) -> impl Strategy<Value = Vec<Lit>> {
    prop::collection::vec(lit(n), 0..=max)
}

fn mode() -> impl Strategy<Value = Reif> {
    prop_oneof![Just(Reif::Equiv), Just(Reif::Imp), Just(Reif::Pmi)]
}

/// Fixes for some of the variables, each to a value of its domain (or none): a reified
/// constraint's Boolean then gets tried at 0, at 1 and free.
fn with_fixes(domains: Vec<Vec<i32>>, spec: Spec) -> impl Strategy<Value = Instance> {
    let n = domains.len();
    (
        prop::collection::vec(prop::option::weighted(0.5, 0..8usize), n),
        prop::collection::vec(any::<bool>(), n),
    )
        .prop_map(move |(fix, as_bool)| {
            let fixes = fix
                .iter()
                .enumerate()
                .filter_map(|(x, f)| f.map(|k| (x, domains[x][k % domains[x].len()])))
                .collect();
            Instance {
                domains: domains.clone(),
                as_bool,
                spec: spec.clone(),
                fixes,
            }
        })
}

/// Boolean instances: 1 to 5 variables over 0..=1.
fn boolean_instance() -> impl Strategy<Value = Instance> {
    (1..=5usize)
        .prop_flat_map(|n| {
            let spec = prop_oneof![
                (lits(n, 4), lits(n, 3)).prop_map(|(p, q)| Spec::Clause(p, q)),
                (lits(n, 4), lit(n)).prop_map(|(b, r)| Spec::And(b, r)),
                (lits(n, 4), lit(n)).prop_map(|(b, r)| Spec::Or(b, r)),
                (lits(n, 4), lit(n)).prop_map(|(b, r)| Spec::Xor(b, r)),
                (lit(n), lit(n)).prop_map(|(a, b)| Spec::Implies(a, b)),
                (lit(n), lit(n)).prop_map(|(a, b)| Spec::Not(a, b)),
            ];
            (Just(vec![vec![0, 1]; n]), spec)
        })
        .prop_flat_map(|(domains, spec)| with_fixes(domains, spec))
}

fn view(n: usize) -> impl Strategy<Value = ViewSpec> {
    (0..n, prop::bool::weighted(0.3), -2..=2i32).prop_map(|(var, negated, offset)| ViewSpec {
        var,
        negated,
        offset,
        scale: 1,
    })
}

fn small_domain() -> impl Strategy<Value = Vec<i32>> {
    prop::collection::btree_set(-3..=3i32, 1..=4).prop_map(|s| s.into_iter().collect())
}

/// Reified instances: variables 0 and 1 are integers (views of them are the condition's
/// arguments, sometimes both of one variable), variable 2 is the Boolean; the condition may
/// also read the Boolean (aliasing).
fn reified_instance() -> impl Strategy<Value = Instance> {
    let b = || lit(3).prop_map(|l| Lit { var: 2, ..l });
    // Mostly the integers, sometimes the Boolean.
    let v = || prop_oneof![4 => view(2), 1 => view(3)];
    let spec = prop_oneof![
        (v(), -4..=4i32, b(), mode()).prop_map(|(x, c, b, m)| Spec::EqValue(x, c, b, m)),
        (v(), -4..=4i32, b(), mode()).prop_map(|(x, c, b, m)| Spec::LeValue(x, c, b, m)),
        (v(), v(), b(), mode()).prop_map(|(x, y, b, m)| Spec::Equal(x, y, b, m)),
        (v(), v(), b(), mode()).prop_map(|(x, y, b, m)| Spec::LessEq(x, y, b, m)),
        (
            prop::collection::vec((-3..=3i32, v()), 0..=3),
            relation(),
            -6..=6i32,
            b(),
            mode()
        )
            .prop_map(|(t, r, c, b, m)| Spec::Linear(t, r, c, b, m)),
    ];
    (small_domain(), small_domain(), spec)
        .prop_flat_map(|(d0, d1, spec)| with_fixes(vec![d0, d1, vec![0, 1]], spec))
}

/// Reified `±x ± y <= c` and `>= c` (precedences and disjunctions of scheduling models), over
/// views of the two integers or of the Boolean, with constants up to the domains' spread.
fn unit_pair_instance() -> impl Strategy<Value = Instance> {
    let b = || lit(3).prop_map(|l| Lit { var: 2, ..l });
    let v = || prop_oneof![4 => view(2), 1 => view(3)];
    let unit = || prop_oneof![Just(1i32), Just(-1i32)];
    let rel = prop_oneof![Just(Relation::Le), Just(Relation::Ge)];
    let spec = ((unit(), v()), (unit(), v()), rel, -8..=8i32, b(), mode())
        .prop_map(|(t1, t2, r, c, b, m)| Spec::Linear(vec![t1, t2], r, c, b, m));
    (small_domain(), small_domain(), spec)
        .prop_flat_map(|(d0, d1, spec)| with_fixes(vec![d0, d1, vec![0, 1]], spec))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn boolean_constraints_match_brute_force(inst in boolean_instance()) {
        inst.check();
    }

    #[test]
    fn reified_constraints_match_brute_force(inst in reified_instance()) {
        inst.check();
    }

    #[test]
    fn reified_unit_pairs_are_bounds_consistent(inst in unit_pair_instance()) {
        inst.check();
    }
}

#[test]
fn a_bool_var_is_a_zero_one_integer_and_its_negation_a_view() {
    let mut m = Model::new();
    let b = m.named_bool("b").unwrap();
    let c = m.named_bools("c", 2).unwrap();
    assert_eq!(m.domain(b.var()).unwrap(), vec![0, 1]);
    assert_eq!(m.name(c[1].var()).unwrap(), "c[1]");
    // Every integer constraint takes Booleans: b + c0 + c1 = 2, and b = not c0.
    m.sum(&[b, c[0], c[1]], Relation::Eq, 2).unwrap();
    m.equal(b, !c[0]).unwrap();
    let mut solver = Solver::new(m);
    let mut found: Vec<[i32; 3]> = solver
        .solutions()
        .map(|s| [s[b], s[c[0]], s[c[1]]])
        .collect();
    found.sort();
    assert_eq!(found, vec![[0, 1, 1], [1, 0, 1]]);
}

#[test]
fn as_bool_accepts_zero_one_variables_only() {
    let mut m = Model::new();
    let x = m.int_var(0..=1).unwrap();
    let y = m.int_var(0..=2).unwrap();
    assert_eq!(m.as_bool(x).unwrap().var(), x);
    let e = m.as_bool(y).unwrap_err();
    assert!(e.to_string().contains("takes only 0 and 1"), "{e}");
}

#[test]
fn bad_models_are_errors_with_readable_messages() {
    let mut m = Model::new();
    let x = m.named_var("x", 0..=2).unwrap();
    let b = m.named_bool("b").unwrap();
    let e = m.clause(&[x], &[b]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "clause: x0 (variable `x`) can take the value 2; a Boolean literal takes only 0 and 1"
    );
    // A Boolean seen through an offset is no literal either.
    assert!(m.and(&[b.var().offset(1)], b).is_err());
    assert!(m.eq_value_reif(b, 1, x, Reif::Equiv).is_err());
    assert!(m.implies(x, b).is_err());
    // Variables of another model.
    let mut other = Model::new();
    let f = other.named_bool("f").unwrap();
    assert!(matches!(
        m.or(&[f], b),
        Err(ModelError::ForeignVariable { .. })
    ));
    assert!(matches!(
        m.fix(f, 0),
        Err(ModelError::ForeignVariable { .. })
    ));
    assert!(matches!(
        m.equal_reif(x, f.var(), b, Reif::Imp),
        Err(ModelError::ForeignVariable { .. })
    ));
    // Fixing outside the domain.
    assert_eq!(
        m.fix(x, 3).unwrap_err(),
        ModelError::NotInDomain {
            name: "x".into(),
            value: 3
        }
    );
    // Linear: lengths.
    assert!(matches!(
        m.linear_reif(&[1, 2], &[x], Relation::Le, 0, b, Reif::Equiv),
        Err(ModelError::LengthMismatch { .. })
    ));
    // Nothing was posted by the failed calls.
    assert_eq!(m.num_propagators(), 0);
    // Literals are judged by the declared domain, which search starts from, not by what
    // `propagate` narrowed since.
    let y = m.named_var("y", 0..=2).unwrap();
    m.less_eq(y, b).unwrap();
    m.propagate().unwrap();
    assert_eq!(m.domain(y).unwrap(), vec![0, 1]);
    assert!(m.clause(&[y], &[b]).is_err());
    assert!(m.as_bool(y).is_err());
    // Fixing to a value that only propagation removed is allowed: no solution then.
    let z = m.int_var(0..=3).unwrap();
    let w = m.int_var(0..=1).unwrap();
    m.less_eq(z, w).unwrap();
    m.propagate().unwrap();
    assert_eq!(m.domain(z).unwrap(), vec![0, 1]);
    m.fix(z, 3).unwrap();
    assert_eq!(Solver::new(m).count(), 0);
}

#[test]
fn empty_connectives_take_their_neutral_values() {
    let none: [BoolVar; 0] = [];
    for (post, expected) in [
        (0, vec![1]), // and of nothing is true
        (1, vec![0]), // or of nothing is false
        (2, vec![0]), // xor of nothing is false
    ] {
        let mut m = Model::new();
        let r = m.named_bool("r").unwrap();
        match post {
            0 => m.and(&none, r).unwrap(),
            1 => m.or(&none, r).unwrap(),
            _ => m.xor(&none, r).unwrap(),
        }
        m.propagate().unwrap();
        assert_eq!(m.domain(r.var()).unwrap(), expected);
    }
    // The empty clause is false.
    let mut m = Model::new();
    m.clause(&none, &none).unwrap();
    assert_eq!(Solver::new(m).count(), 0);
}

#[test]
fn long_clauses_and_parities_propagate_through_search() {
    // 12 Booleans, at least one of every window of 3 true, and an odd number true overall:
    // counted against brute force over 4096 assignments.
    let n = 12;
    let mut m = Model::new();
    let b = m.named_bools("b", n).unwrap();
    for w in b.windows(3) {
        m.clause(w, &[] as &[BoolVar]).unwrap();
    }
    let one = m.named_bool("one").unwrap();
    m.fix(one, 1).unwrap();
    m.xor(&b, one).unwrap();
    let expected = (0u32..1 << n)
        .filter(|s| s.count_ones() % 2 == 1)
        .filter(|s| (0..n - 2).all(|i| s >> i & 0b111 != 0))
        .count() as u64;
    assert_eq!(Solver::new(m).count(), expected);
}

#[test]
fn reified_booleans_count_occurrences() {
    // Exactly two of four variables over 0..=2 take the value 1: C(4, 2) · 2² = 24 ways.
    let mut m = Model::new();
    let x = m.int_vars(4, 0..=2).unwrap();
    let b = m.named_bools("is_one", 4).unwrap();
    for (&xi, &bi) in x.iter().zip(&b) {
        m.eq_value_reif(xi, 1, bi, Reif::Equiv).unwrap();
    }
    m.sum(&b, Relation::Eq, 2).unwrap();
    assert_eq!(Solver::new(m).count(), 24);
}

/// `b ⇔ Σ kᵢ·xᵢ rel c` (in `mode`) on random domains in -3..=3 for the `xᵢ`, against brute
/// force in `i128`, at every node of random searches; posted through the propagator layer,
/// which takes `i64`.
fn walk_linear_reif(rng: &mut brute::Rng, linear: (&[i64], Relation, i64), mode: Reif) {
    let (coefficients, relation, constant) = linear;
    let post = |m: &mut Model, x: &[VarId], b: VarId| {
        post_wide_linear_reif(m, coefficients, x, relation, constant, b, mode);
    };
    walk_linear_reif_posted(rng, linear, mode, &post);
}

/// [`walk_linear_reif`] with the constraint posted by `post` (the model, the `xᵢ`, `b`).
fn walk_linear_reif_posted(
    rng: &mut brute::Rng,
    linear: (&[i64], Relation, i64),
    mode: Reif,
    post: &dyn Fn(&mut Model, &[VarId], VarId),
) {
    let (coefficients, relation, constant) = linear;
    let n = coefficients.len();
    let mut domains: Vec<Vec<i32>> = (0..n).map(|_| brute::domain(rng, -3, 3)).collect();
    domains.push(vec![0, 1]);
    let build = || {
        let (mut m, x) = brute::model(&domains);
        post(&mut m, &x[..n], x[n]);
        (m, x)
    };
    let holds = |a: &[i32]| {
        let sum: i128 = coefficients
            .iter()
            .zip(a)
            .map(|(&k, &v)| i128::from(k) * i128::from(v))
            .sum();
        let c = i128::from(constant);
        let condition = match relation {
            Relation::Le => sum <= c,
            Relation::Ge => sum >= c,
            Relation::Eq => sum == c,
            Relation::Ne => sum != c,
            Relation::Lt => sum < c,
            Relation::Gt => sum > c,
        };
        reif(mode, a[n] == 1, condition)
    };
    let case = (coefficients, relation, constant, mode, &domains);
    brute::walk(&domains, &build, &holds, &[], 3, &case);
}

/// `b (mode) Σ coefficients · xs (relation) constant` through the propagator layer, which
/// takes the `i64` coefficients and constants that the model's `i32` API cannot give, so that
/// the extremes of `i64` reach the propagator's arithmetic.
fn post_wide_linear_reif(
    m: &mut Model,
    coefficients: &[i64],
    xs: &[VarId],
    relation: Relation,
    constant: i64,
    b: VarId,
    mode: Reif,
) {
    let terms = coefficients
        .iter()
        .zip(xs)
        .map(|(&k, &x)| (k, IntView::from(x)))
        .collect();
    m.post(bezzel_core::propagators::Reified::linear(
        b.into(),
        mode,
        terms,
        relation,
        constant,
    ))
    .unwrap();
}

/// `<= i64::MAX` and `>= i64::MIN` (whose negations need a constant outside `i64`) are
/// accepted by the propagator, and are real conditions: the exact sum of large coefficients
/// passes them. Every mode, against brute force in `i128`, at every node of random searches.
#[test]
fn linear_reif_at_the_ends_of_i64_matches_brute_force() {
    const BIG: i64 = 1 << 62;
    let coefficient_sets: [&[i64]; 5] = [
        &[1, 1],
        &[i64::MAX, 1],
        &[BIG, BIG],
        &[i64::MIN, -1],
        &[-BIG, BIG, i64::MAX],
    ];
    let mut rng = brute::Rng(0x1ea5_7c0d_e5ee_d5ed);
    for coefficients in coefficient_sets {
        for (relation, constant) in [(Relation::Le, i64::MAX), (Relation::Ge, i64::MIN)] {
            for mode in [Reif::Equiv, Reif::Imp, Reif::Pmi] {
                for _ in 0..6 {
                    let linear = (coefficients, relation, constant);
                    walk_linear_reif(&mut rng, linear, mode);
                }
            }
        }
    }
}

/// `=` with a constant or coefficients at the ends of `i64`: the value the condition or its
/// negation removes lies far outside every domain, which must mean "nothing to remove" (it
/// once overflowed an `i64` subtraction in the store, a panic in debug builds). Every mode,
/// against brute force in `i128`, at every node of random searches.
#[test]
fn linear_reif_equal_at_the_ends_of_i64_matches_brute_force() {
    const BIG: i64 = 1 << 62;
    let coefficient_sets: [&[i64]; 6] = [
        &[1],
        &[-1],
        &[1, 1],
        &[i64::MAX, 1],
        &[BIG, -1],
        &[i64::MIN, 1],
    ];
    let constants = [i64::MAX, i64::MIN, i64::MAX - 1, i64::MIN + 1, BIG, -BIG, 0];
    let mut rng = brute::Rng(0x5eed_e9ea_1e5d_0001);
    for coefficients in coefficient_sets {
        for constant in constants {
            for mode in [Reif::Equiv, Reif::Imp, Reif::Pmi] {
                for _ in 0..3 {
                    let linear = (coefficients, Relation::Eq, constant);
                    walk_linear_reif(&mut rng, linear, mode);
                }
            }
        }
    }
}

/// The tester's case: `x = i64::MAX` over `x` in `-3..=3`, reified; seven solutions (b false).
#[test]
fn linear_reif_equal_to_i64_max_counts_every_value() {
    let mut m = Model::new();
    let x = m.int_var(-3..=3).unwrap();
    let b = m.named_bool("b").unwrap();
    post_wide_linear_reif(
        &mut m,
        &[1],
        &[x],
        Relation::Eq,
        i64::MAX,
        b.var(),
        Reif::Equiv,
    );
    assert_eq!(Solver::new(m).count(), 7);
}

/// The model's `linear_reif` at the ends of its `i32` coefficients and constants: the sums
/// are exact (computed wide inside), against brute force in `i128`, at every node of random
/// searches.
#[test]
fn linear_reif_at_the_ends_of_i32_matches_brute_force() {
    let coefficient_sets: [&[i32]; 4] = [
        &[i32::MAX, 1],
        &[i32::MIN, -1],
        &[i32::MAX, i32::MAX, i32::MIN],
        &[1, -1],
    ];
    let constants = [i32::MAX, i32::MIN, i32::MAX - 1, i32::MIN + 1, 0];
    let mut rng = brute::Rng(0x1e32_7c0d_e5ee_d5ed);
    for coefficients in coefficient_sets {
        for constant in constants {
            for relation in [Relation::Eq, Relation::Le, Relation::Ge] {
                let post = |m: &mut Model, x: &[VarId], b: VarId| {
                    m.linear_reif(coefficients, x, relation, constant, b, Reif::Equiv)
                        .unwrap();
                };
                let wide: Vec<i64> = coefficients.iter().map(|&k| i64::from(k)).collect();
                let linear = (&wide[..], relation, i64::from(constant));
                walk_linear_reif_posted(&mut rng, linear, Reif::Equiv, &post);
            }
        }
    }
}
