//! Random models of the core constraints for the oracle tests (solution sets, optimisation,
//! search control, parallel search): a model is domains and constraints over views, each
//! constraint with its definition written here, independently of the engine, and proptest
//! strategies that draw them.

use super::{ViewSpec, brute, values, views};
use bezzel_core::prelude::*;
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::ops::RangeInclusive;

/// Every variable order, for tests that run under each.
pub(crate) const VAR_ORDERS: [VarOrder; 4] = [
    VarOrder::InputOrder,
    VarOrder::SmallestDomain,
    VarOrder::SmallestDomainMaxDegree,
    VarOrder::DomWDeg,
];
/// Every value order.
pub(crate) const VALUE_ORDERS: [ValueOrder; 3] =
    [ValueOrder::Min, ValueOrder::Max, ValueOrder::Split];

/// The default search configuration under every variable order and value order.
pub(crate) fn every_order() -> impl Iterator<Item = SearchConfig> {
    VAR_ORDERS.into_iter().flat_map(|var_order| {
        VALUE_ORDERS
            .into_iter()
            .map(move |value_order| SearchConfig {
                var_order,
                value_order,
                ..SearchConfig::default()
            })
    })
}

/// One constraint of a random model.
#[derive(Debug, Clone)]
pub(crate) enum ConstraintSpec {
    AllDifferent(Vec<ViewSpec>),
    NotEqual(ViewSpec, ViewSpec),
    Equal(ViewSpec, ViewSpec),
    LessEq(ViewSpec, ViewSpec),
    LessThan(ViewSpec, ViewSpec),
    Linear(Vec<(i32, ViewSpec)>, Relation, i32),
    /// The closure check: the sum of the views' values is divisible by 3.
    SumDivisibleBy3(Vec<ViewSpec>),
}

/// Whether `s (relation) c`.
pub(crate) fn relation_holds(s: i128, relation: Relation, c: i128) -> bool {
    match relation {
        Relation::Eq => s == c,
        Relation::Le => s <= c,
        Relation::Ge => s >= c,
        Relation::Ne => s != c,
        Relation::Lt => s < c,
        Relation::Gt => s > c,
    }
}

impl ConstraintSpec {
    /// The definition.
    pub(crate) fn holds(&self, a: &[i32]) -> bool {
        match self {
            ConstraintSpec::AllDifferent(vs) => {
                values(vs, a).into_iter().collect::<BTreeSet<_>>().len() == vs.len()
            }
            ConstraintSpec::NotEqual(x, y) => x.eval(a) != y.eval(a),
            ConstraintSpec::Equal(x, y) => x.eval(a) == y.eval(a),
            ConstraintSpec::LessEq(x, y) => x.eval(a) <= y.eval(a),
            ConstraintSpec::LessThan(x, y) => x.eval(a) < y.eval(a),
            ConstraintSpec::Linear(terms, rel, c) => {
                let s: i128 = terms
                    .iter()
                    .map(|&(k, v)| i128::from(k) * i128::from(v.eval(a)))
                    .sum();
                relation_holds(s, *rel, i128::from(*c))
            }
            ConstraintSpec::SumDivisibleBy3(vs) => {
                values(vs, a).iter().sum::<i64>().rem_euclid(3) == 0
            }
        }
    }

    /// Posts the constraint with the engine's built-ins.
    pub(crate) fn post(&self, m: &mut Model, vars: &[VarId]) -> Result<(), ModelError> {
        match self {
            ConstraintSpec::AllDifferent(vs) => m.all_different(&views(vs, vars)),
            ConstraintSpec::NotEqual(x, y) => m.not_equal(x.view(vars), y.view(vars)),
            ConstraintSpec::Equal(x, y) => m.equal(x.view(vars), y.view(vars)),
            ConstraintSpec::LessEq(x, y) => m.less_eq(x.view(vars), y.view(vars)),
            ConstraintSpec::LessThan(x, y) => m.less_than(x.view(vars), y.view(vars)),
            ConstraintSpec::Linear(terms, rel, c) => {
                let coefs: Vec<i32> = terms.iter().map(|t| t.0).collect();
                let vs: Vec<ViewSpec> = terms.iter().map(|t| t.1).collect();
                m.linear(&coefs, &views(&vs, vars), *rel, *c)
            }
            ConstraintSpec::SumDivisibleBy3(vs) => m.check(&views(vs, vars), |vals| {
                vals.iter()
                    .map(|&v| i64::from(v))
                    .sum::<i64>()
                    .rem_euclid(3)
                    == 0
            }),
        }
    }
}

/// A random model: one variable per domain, and constraints over views of them.
#[derive(Debug, Clone)]
pub(crate) struct ModelSpec {
    pub(crate) domains: Vec<Vec<i32>>,
    pub(crate) constraints: Vec<ConstraintSpec>,
}

impl ModelSpec {
    /// Whether the assignment `a` satisfies every constraint.
    pub(crate) fn holds(&self, a: &[i32]) -> bool {
        self.constraints.iter().all(|c| c.holds(a))
    }

    /// Every solution, by enumeration.
    pub(crate) fn brute_force(&self) -> BTreeSet<Vec<i32>> {
        brute(&self.domains, &|a| self.holds(a))
    }

    /// The model and its variables, or the error of the first constraint refused.
    pub(crate) fn try_build(&self) -> Result<(Model, Vec<VarId>), ModelError> {
        let mut m = Model::new();
        let vars: Vec<VarId> = self
            .domains
            .iter()
            .map(|d| m.int_var(d.as_slice()))
            .collect::<Result<_, _>>()?;
        for c in &self.constraints {
            c.post(&mut m, &vars)?;
        }
        Ok((m, vars))
    }

    /// The model and its variables.
    pub(crate) fn build(&self) -> (Model, Vec<VarId>) {
        self.try_build().unwrap()
    }
}

/// A view of one of `nvars` variables, negated a quarter of the time, scaled by 2 or 3 a
/// fifth of the time, shifted by -3..=3.
pub(crate) fn view_spec(nvars: usize) -> impl Strategy<Value = ViewSpec> {
    let scale = prop_oneof![4 => Just(1), 1 => 2..=3i32];
    (0..nvars, prop::bool::weighted(0.25), -3..=3i32, scale).prop_map(
        |(var, negated, offset, scale)| ViewSpec {
            scale,
            ..ViewSpec::of(var, negated, offset)
        },
    )
}

/// Any of the six relations.
pub(crate) fn relation() -> impl Strategy<Value = Relation> {
    prop_oneof![
        Just(Relation::Eq),
        Just(Relation::Le),
        Just(Relation::Ge),
        Just(Relation::Ne),
        Just(Relation::Lt),
        Just(Relation::Gt)
    ]
}

/// Every relation.
pub(crate) const RELATIONS: [Relation; 6] = [
    Relation::Eq,
    Relation::Le,
    Relation::Ge,
    Relation::Ne,
    Relation::Lt,
    Relation::Gt,
];

/// Which constraints a random model draws from.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kinds {
    /// All-different, `<` and linear.
    Core,
    /// Every kind of [`ConstraintSpec`].
    All,
}

/// A random constraint over `nvars` variables.
pub(crate) fn constraint_spec(nvars: usize, kinds: Kinds) -> BoxedStrategy<ConstraintSpec> {
    let v = move || view_spec(nvars);
    let all_different =
        prop::collection::vec(v(), 2..=nvars.max(2)).prop_map(ConstraintSpec::AllDifferent);
    let less_than = (v(), v()).prop_map(|(x, y)| ConstraintSpec::LessThan(x, y));
    let linear = (
        prop::collection::vec((-3..=3i32, v()), 1..=4),
        relation(),
        -6..=6i32,
    )
        .prop_map(|(t, r, c)| ConstraintSpec::Linear(t, r, c));
    match kinds {
        Kinds::Core => prop_oneof![all_different, less_than, linear].boxed(),
        Kinds::All => prop_oneof![
            all_different,
            (v(), v()).prop_map(|(x, y)| ConstraintSpec::NotEqual(x, y)),
            (v(), v()).prop_map(|(x, y)| ConstraintSpec::Equal(x, y)),
            (v(), v()).prop_map(|(x, y)| ConstraintSpec::LessEq(x, y)),
            less_than,
            linear,
            prop::collection::vec(v(), 1..=3).prop_map(ConstraintSpec::SumDivisibleBy3),
        ]
        .boxed(),
    }
}

/// What a random model looks like.
#[derive(Debug, Clone)]
pub(crate) struct Shape {
    /// How many variables.
    pub(crate) vars: RangeInclusive<usize>,
    /// The values a domain draws from.
    pub(crate) values: BoxedStrategy<i32>,
    /// At most how many values a domain draws (at least one).
    pub(crate) max_values: usize,
    /// How many constraints.
    pub(crate) constraints: RangeInclusive<usize>,
    /// Of which kinds.
    pub(crate) kinds: Kinds,
}

/// A random model of the core constraints only: `vars` variables whose domains draw up to
/// `max_values` values from `values`, and `constraints` constraints.
pub(crate) fn core_model_spec(
    vars: RangeInclusive<usize>,
    values: RangeInclusive<i32>,
    max_values: usize,
    constraints: RangeInclusive<usize>,
) -> impl Strategy<Value = ModelSpec> {
    model_spec(Shape {
        vars,
        values: values.boxed(),
        max_values,
        constraints,
        kinds: Kinds::Core,
    })
}

/// A random model of the given shape.
pub(crate) fn model_spec(shape: Shape) -> impl Strategy<Value = ModelSpec> {
    shape.vars.clone().prop_flat_map(move |nvars| {
        (
            prop::collection::vec(
                prop::collection::btree_set(shape.values.clone(), 1..=shape.max_values),
                nvars,
            ),
            prop::collection::vec(
                constraint_spec(nvars, shape.kinds),
                shape.constraints.clone(),
            ),
        )
            .prop_map(|(domains, constraints)| ModelSpec {
                domains: domains
                    .into_iter()
                    .map(|d| d.into_iter().collect())
                    .collect(),
                constraints,
            })
    })
}

/// `n` domains, each a non-empty random subset of `lo..=hi` (holes included).
pub(crate) fn domains(n: usize, lo: i32, hi: i32) -> impl Strategy<Value = Vec<Vec<i32>>> {
    let width = (hi - lo + 1) as usize;
    prop::collection::vec(
        prop::collection::btree_set(lo..=hi, 1..=width).prop_map(|s| s.into_iter().collect()),
        n,
    )
}

/// A proptest configuration of `cases` cases that saves failing cases to `file` (a path
/// relative to the crate), so that they replay first on the next run.
pub(crate) fn persisted(cases: u32, file: &'static str) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::Direct(file),
        )),
        ..ProptestConfig::default()
    }
}
