//! Branching: which variable to branch on next, and the decision to try on it.
//!
//! At every node search asks for a [`Decision`] on an unfixed variable: the variable comes
//! from a [`VarOrder`], the decision from a [`ValueOrder`]. The left branch applies the
//! decision and the right branch its [`negation`](Decision::negate), so the two branches
//! partition the node's solutions. The branching variables are chosen by the caller (all of
//! them by default, see [`Solver::branch_on`](super::Solver::branch_on)); the others are
//! branched on once those are fixed, so that a solution always fixes every variable.

use super::decision::Decision;
use crate::engine::Engine;
use crate::var::VarId;
use serde::{Deserialize, Serialize};

/// Which unfixed variable to branch on next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum VarOrder {
    /// The first unfixed variable in branching order.
    InputOrder,
    /// The unfixed variable with the fewest values; ties go to the earliest ("first fail").
    #[default]
    SmallestDomain,
    /// Fewest values; ties go to the variable with the most propagators, then the earliest.
    SmallestDomainMaxDegree,
    /// Smallest ratio of domain size to weighted degree ("dom/wdeg", Boussemart et al. 2004):
    /// every propagator's weight is 1 plus the number of times it failed, and a variable's
    /// weighted degree sums the weights of the propagators listening to it. Weights persist
    /// across runs and restarts, so search learns where the model is hard.
    DomWDeg,
    /// The unfixed variable with the smallest least value; ties go to the earliest
    /// (MiniZinc's `smallest`, Gecode's `INT_VAR_MIN_MIN`). On start times it schedules the
    /// task that can start first, the usual schedule-building order.
    Smallest,
    /// The unfixed variable with the largest greatest value; ties go to the earliest
    /// (MiniZinc's `largest`, Gecode's `INT_VAR_MAX_MAX`).
    Largest,
}

impl VarOrder {
    /// Every variable order.
    pub const ALL: [VarOrder; 6] = [
        VarOrder::InputOrder,
        VarOrder::SmallestDomain,
        VarOrder::SmallestDomainMaxDegree,
        VarOrder::DomWDeg,
        VarOrder::Smallest,
        VarOrder::Largest,
    ];

    /// The order's name, the one vocabulary for variable orders: the programs' `--order`
    /// takes it, [`Display`](std::fmt::Display) and [`FromStr`](std::str::FromStr) use it,
    /// and checkpoint identities are spelled with it. Stable: a journal names its run with
    /// it, so a name, once written, is never changed (unlike `Debug` text).
    ///
    /// ```
    /// use bezzel_core::VarOrder;
    /// assert_eq!(VarOrder::DomWDeg.name(), "dom-wdeg");
    /// assert_eq!("first-fail".parse::<VarOrder>()?, VarOrder::SmallestDomain);
    /// # Ok::<(), bezzel_core::ModelError>(())
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            VarOrder::InputOrder => "input-order",
            VarOrder::SmallestDomain => "first-fail",
            VarOrder::SmallestDomainMaxDegree => "most-constrained",
            VarOrder::DomWDeg => "dom-wdeg",
            VarOrder::Smallest => "smallest",
            VarOrder::Largest => "largest",
        }
    }
}

impl std::fmt::Display for VarOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for VarOrder {
    type Err = crate::error::ModelError;

    /// A [`name`](VarOrder::name), in any case, `_` or `-` alike.
    fn from_str(s: &str) -> Result<VarOrder, crate::error::ModelError> {
        let wanted = s.trim().to_ascii_lowercase().replace('_', "-");
        VarOrder::ALL
            .into_iter()
            .find(|o| o.name() == wanted)
            .ok_or_else(|| crate::error::ModelError::InvalidArgument {
                reason: format!(
                    "unknown variable order `{}`: expected one of {}",
                    s.trim(),
                    VarOrder::ALL.map(VarOrder::name).join(", ")
                ),
            })
    }
}

/// What to try first on the chosen variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum ValueOrder {
    /// `x = min`, then `x != min`.
    #[default]
    Min,
    /// `x = max`, then `x != max`.
    Max,
    /// Bisect: `x <= mid`, then `x > mid`.
    Split,
}

/// A group of variables that search branches on before the others, with its own variable and
/// value orders: see [`Solver::branch_groups`](super::Solver::branch_groups).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BranchGroup {
    /// The variables of the group, in order (for [`VarOrder::InputOrder`], and to break ties).
    pub vars: Vec<VarId>,
    /// Which unfixed variable of the group to branch on next.
    pub var_order: VarOrder,
    /// What to try first on it.
    pub value_order: ValueOrder,
}

/// A [`BranchGroup`] as the solver keeps it: variable indices.
#[derive(Debug, Clone)]
struct Group {
    vars: Vec<u32>,
    var_order: VarOrder,
    value_order: ValueOrder,
}

/// The variables a solver branches on, and what the heuristics know about them.
#[derive(Debug, Clone)]
pub(super) struct Branching {
    /// Groups to branch on before `branch_vars`, each once the ones before it are fixed, with
    /// its own orders; empty unless [`Solver::branch_groups`](super::Solver::branch_groups)
    /// set them.
    groups: Vec<Group>,
    /// The variables to branch on first, in order.
    branch_vars: Vec<u32>,
    /// The variables outside `branch_vars`, branched on (with the same heuristics) once every
    /// branching variable is fixed, so that a solution always fixes every variable.
    other_vars: Vec<u32>,
    /// Each variable's degree, for [`VarOrder::SmallestDomainMaxDegree`]: it never changes,
    /// so it is read once rather than at every node.
    degree: Vec<usize>,
    /// The model the variables belong to, to name them in decisions.
    model: u32,
}

impl Branching {
    /// Whether a search with `var_order` (and the groups' own orders) reads dom/wdeg's
    /// weights.
    pub(super) fn weighs(&self, var_order: VarOrder) -> bool {
        var_order == VarOrder::DomWDeg
            || self.groups.iter().any(|g| g.var_order == VarOrder::DomWDeg)
    }

    /// Branching on every variable of a model (number `model`, with `n` variables and its
    /// engine), in creation order.
    pub(super) fn new(engine: &Engine, model: u32, n: u32) -> Branching {
        Branching {
            model,
            groups: Vec::new(),
            branch_vars: (0..n).collect(),
            other_vars: Vec::new(),
            degree: (0..n).map(|x| engine.degree(x)).collect(),
        }
    }

    /// The variables search decides on: the groups', then the branching variables (all of
    /// them unless told otherwise), each once; all variables if that leaves none.
    pub(super) fn decision_vars(&self) -> Vec<u32> {
        let n = self.degree.len();
        let mut seen = vec![false; n];
        let vars: Vec<u32> = self
            .groups
            .iter()
            .flat_map(|g| g.vars.iter().copied())
            .chain(self.branch_vars.iter().copied())
            .filter(|&x| !std::mem::replace(&mut seen[x as usize], true))
            .collect();
        if vars.is_empty() {
            (0..n as u32).collect()
        } else {
            vars
        }
    }

    /// Branching on `vars` first (indices of `n` variables, each below `n`), then on the rest.
    pub(super) fn branch_on(&mut self, vars: &[u32], n: u32) {
        let mut chosen = vec![false; n as usize];
        for &x in vars {
            chosen[x as usize] = true;
        }
        self.groups.clear();
        self.branch_vars = vars.to_vec();
        self.other_vars = (0..n).filter(|&x| !chosen[x as usize]).collect();
    }

    /// Branching on `groups` in order (variables below `n`), then on the variables that none
    /// of them names, with the configuration's orders.
    pub(super) fn branch_groups(&mut self, groups: &[BranchGroup], n: u32) {
        self.branch_on(&[], n);
        let mut chosen = vec![false; n as usize];
        for g in groups {
            for x in &g.vars {
                chosen[x.index()] = true;
            }
            self.groups.push(Group {
                vars: g.vars.iter().map(|x| x.index).collect(),
                var_order: g.var_order,
                value_order: g.value_order,
            });
        }
        self.other_vars = (0..n).filter(|&x| !chosen[x as usize]).collect();
    }

    /// The variable and value order of the first group with an unfixed variable, if any:
    /// out of line, so that searches without groups pay one test of an empty vector.
    #[inline(never)]
    fn choose_in_groups(&self, engine: &Engine) -> Option<(u32, ValueOrder)> {
        self.groups.iter().find_map(|g| {
            let x = self.choose_var(engine, g.var_order, &g.vars)?;
            Some((x, g.value_order))
        })
    }

    /// The decision to branch on at the current node, `None` when every variable is fixed.
    #[inline]
    pub(super) fn choose(
        &self,
        engine: &Engine,
        var_order: VarOrder,
        value_order: ValueOrder,
    ) -> Option<Decision> {
        let grouped = if self.groups.is_empty() {
            None
        } else {
            self.choose_in_groups(engine)
        };
        let (x, value_order) = match grouped {
            Some(chosen) => chosen,
            None => (
                self.choose_var(engine, var_order, &self.branch_vars)
                    .or_else(|| self.choose_var(engine, var_order, &self.other_vars))?,
                value_order,
            ),
        };
        let (min, max) = (engine.min(x), engine.max(x));
        let x = VarId {
            model: self.model,
            index: x,
        };
        Some(match value_order {
            ValueOrder::Min => Decision::Assign(x, min),
            ValueOrder::Max => Decision::Assign(x, max),
            ValueOrder::Split => {
                Decision::AtMost(x, ((i64::from(min) + i64::from(max)).div_euclid(2)) as i32)
            }
        })
    }

    /// The unfixed variable of `vars` that the variable order picks, if any.
    #[inline]
    fn choose_var(&self, engine: &Engine, var_order: VarOrder, vars: &[u32]) -> Option<u32> {
        let unfixed = vars.iter().copied().filter(|&x| !engine.is_fixed(x));
        match var_order {
            VarOrder::InputOrder => unfixed.into_iter().next(),
            VarOrder::SmallestDomain => {
                // One key per variable, (size, position), and a plain minimum: comparisons
                // that select rather than branch, and the earliest of equal sizes wins.
                // Fixed variables get the largest key.
                let key = |(i, &x): (usize, &u32)| {
                    let size = u64::from(engine.size(x));
                    let key = size << 32 | i as u64;
                    if size == 1 { u64::MAX } else { key }
                };
                let best = vars.iter().enumerate().map(key).min();
                best.filter(|&k| k != u64::MAX)
                    .map(|k| vars[(k & u64::from(u32::MAX)) as usize])
            }
            // `min_by_key` keeps the first of equal keys: ties go to the earliest.
            VarOrder::Smallest => unfixed.min_by_key(|&x| engine.min(x)),
            VarOrder::Largest => unfixed.min_by_key(|&x| std::cmp::Reverse(engine.max(x))),
            VarOrder::SmallestDomainMaxDegree => unfixed
                .min_by_key(|&x| (engine.size(x), std::cmp::Reverse(self.degree[x as usize]))),
            VarOrder::DomWDeg => {
                let mut best: Option<(u32, u64, u64)> = None;
                for x in unfixed {
                    let weight = engine.weighted_degree(x);
                    let size = u64::from(engine.size(x));
                    // size/weight < best_size/best_weight, without division; in 64 bits
                    // while both weights fit 32 (sizes always do), as they all but always do.
                    if best.is_none_or(|(_, s, w)| {
                        if (w | weight) >> 32 == 0 {
                            size * w < s * weight
                        } else {
                            u128::from(size) * u128::from(w) < u128::from(s) * u128::from(weight)
                        }
                    }) {
                        best = Some((x, size, weight));
                    }
                }
                best.map(|(x, _, _)| x)
            }
        }
    }
}
