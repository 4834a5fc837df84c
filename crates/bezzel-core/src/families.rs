//! Family formation: all-differents that share variables, posted one by one, searched as one.
//!
//! A model states Sudoku as 27 all-differents and N-Queens as three; each is posted as a
//! propagator of its own, so that a model needs no special call. When search starts, the units
//! noted here that share variables (connected components) and fit one window of 64 values are
//! handed to one *family* propagator, which reaches the same fixpoint as the units in fewer
//! runs; the units' own propagators are retired. Three kinds of family exist: domain-level
//! units over plain views, domain-level units over offset views (`q`, `q + i`, `q - i`), and
//! value-level units. A unit alone, or a component too large, keeps its own propagator.

use crate::engine::Engine;
use crate::propagator::Propagator;
use crate::var::IntView;
use std::collections::{BTreeMap, HashMap};

/// A posted all-different that may join a family: its propagator's index and its views.
type Unit = (usize, Vec<IntView>);

/// The all-differents noted since families were last formed.
#[derive(Debug, Default)]
pub(crate) struct Families {
    /// Domain-level units over at most 64 distinct plain variables of at most 64 values each
    /// (see [`form_plain`](Families::form_plain)).
    plain_units: Vec<Unit>,
    /// Domain-level units whose views fit one window (see
    /// [`form_offset`](Families::form_offset)).
    offset_units: Vec<Unit>,
    /// Value-level units whose views fit one window (see [`form_value`](Families::form_value)).
    value_units: Vec<Unit>,
}

impl Families {
    /// Notes the domain-level all-different `views`, posted as propagator `p`, as a unit that
    /// may join a family when its views qualify.
    pub(crate) fn note_domain_unit(&mut self, engine: &Engine, p: usize, views: Vec<IntView>) {
        let plain = views.len() <= 64
            && views
                .iter()
                .all(|v| v.offset == 0 && !v.negated && v.is_unit())
            && views.iter().all(|v| {
                let (lo, hi) = engine.declared_bounds(v.var.index);
                i64::from(hi) - i64::from(lo) < 64
            })
            && distinct_vars(&views);
        if fits_one_window(engine, &views) {
            self.offset_units.push((p, views.clone()));
        }
        if plain {
            self.plain_units.push((p, views));
        }
    }

    /// Notes the value-level all-different `views`, posted as propagator `p`, as a unit that
    /// may join a family of value-level units when its views fit one window.
    pub(crate) fn note_value_unit(&mut self, engine: &Engine, p: usize, views: Vec<IntView>) {
        if fits_one_window(engine, &views) {
            self.value_units.push((p, views));
        }
    }

    /// Forms the families of every unit noted since the last call. Called when search or
    /// propagation starts.
    pub(crate) fn form(&mut self, engine: &mut Engine) {
        self.form_value(engine);
        let taken = self.form_offset(engine);
        self.plain_units.retain(|(p, _)| !taken.contains(p));
        self.form_plain(engine);
    }

    /// Domain-level units of plain views that share variables, whose variables' declared
    /// values fit one window of 64, go to one propagator in groups of at most 64 units.
    fn form_plain(&mut self, engine: &mut Engine) {
        let units = std::mem::take(&mut self.plain_units);
        if units.len() < 2 {
            return;
        }
        for group in components(&units).iter().filter(|g| g.len() > 1) {
            let all = vars_of(&units, group);
            let lo = all.iter().map(|&x| engine.declared_bounds(x).0).min();
            let hi = all.iter().map(|&x| engine.declared_bounds(x).1).max();
            if let (Some(lo), Some(hi)) = (lo, hi)
                && i64::from(hi) - i64::from(lo) >= 64
            {
                continue;
            }
            for chunk in group.chunks(64).filter(|c| c.len() > 1) {
                let views: Vec<Vec<IntView>> = chunk.iter().map(|&u| units[u].1.clone()).collect();
                let family = crate::propagators::all_different_family(&views);
                replace_units(engine, &units, chunk, &vars_of(&units, chunk), family);
            }
        }
    }

    /// Domain-level units that share variables and include offset views (N-Queens' `q`,
    /// `q + i`, `q - i`; units of plain views alone are left to
    /// [`form_plain`](Families::form_plain)): at most 64 units over at most 64 variables go
    /// to one propagator, which reaches the same fixpoint with one run per wake-up. Returns
    /// the propagators it retired.
    fn form_offset(&mut self, engine: &mut Engine) -> Vec<usize> {
        let units = std::mem::take(&mut self.offset_units);
        let mut taken = Vec::new();
        for (group, vars) in window_groups(&units) {
            if group
                .iter()
                .all(|&u| units[u].1.iter().all(|v| v.offset == 0))
            {
                continue;
            }
            let views: Vec<Vec<IntView>> = group.iter().map(|&u| units[u].1.clone()).collect();
            let family = crate::propagators::all_different_offset_family(&views);
            replace_units(engine, &units, &group, &vars, family);
            taken.extend(group.iter().map(|&u| units[u].0));
        }
        taken
    }

    /// Value-level units that share variables, over at most 64 variables in all and at most
    /// 64 units, go to one propagator that removes the values fixed in all of them in one run
    /// per wake-up and reaches the same fixpoint.
    fn form_value(&mut self, engine: &mut Engine) {
        let units = std::mem::take(&mut self.value_units);
        for (group, vars) in window_groups(&units) {
            let views: Vec<Vec<IntView>> = group.iter().map(|&u| units[u].1.clone()).collect();
            let family = crate::propagators::all_different_value_family(&views);
            replace_units(engine, &units, &group, &vars, family);
        }
    }
}

/// Whether no variable appears twice among `views`.
fn distinct_vars(views: &[IntView]) -> bool {
    let mut vars: Vec<u32> = views.iter().map(|v| v.var.index).collect();
    vars.sort_unstable();
    vars.windows(2).all(|w| w[0] != w[1])
}

/// Whether a unit may join a family over offset views: at most 64 views `x + c` over
/// distinct variables, whose declared values fit one window of 64.
fn fits_one_window(engine: &Engine, views: &[IntView]) -> bool {
    views.len() <= 64
        && views.iter().all(|v| !v.negated && v.is_unit())
        && {
            let bounds = views.iter().map(|v| {
                let (lo, hi) = engine.declared_bounds(v.var.index);
                (i64::from(lo) + v.offset, i64::from(hi) + v.offset)
            });
            let lo = bounds.clone().map(|b| b.0).min().unwrap_or(0);
            let hi = bounds.map(|b| b.1).max().unwrap_or(0);
            hi - lo < 64
        }
        && distinct_vars(views)
}

/// The connected components of `units` (units sharing a variable are connected), as
/// positions in `units`, each in increasing order, ordered by their first unit.
fn components(units: &[Unit]) -> Vec<Vec<usize>> {
    fn root(parent: &mut [usize], mut u: usize) -> usize {
        while parent[u] != u {
            parent[u] = parent[parent[u]];
            u = parent[u];
        }
        u
    }
    let mut parent: Vec<usize> = (0..units.len()).collect();
    let mut owner = HashMap::new();
    for (u, (_, views)) in units.iter().enumerate() {
        for v in views {
            let first = *owner.entry(v.var.index).or_insert(u);
            let (a, b) = (root(&mut parent, first), root(&mut parent, u));
            parent[a.max(b)] = a.min(b);
        }
    }
    // A component's root is its smallest unit, so ordering by root is ordering by first unit.
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for u in 0..units.len() {
        groups.entry(root(&mut parent, u)).or_default().push(u);
    }
    groups.into_values().collect()
}

/// The sorted, distinct variables of the units `group` of `units`.
fn vars_of(units: &[Unit], group: &[usize]) -> Vec<u32> {
    let mut vars: Vec<u32> = group
        .iter()
        .flat_map(|&u| units[u].1.iter().map(|v| v.var.index))
        .collect();
    vars.sort_unstable();
    vars.dedup();
    vars
}

/// The components of `units` with at least two and at most 64 units over at most 64
/// variables, with their variables.
fn window_groups(units: &[Unit]) -> Vec<(Vec<usize>, Vec<u32>)> {
    components(units)
        .into_iter()
        .filter(|g| g.len() > 1 && g.len() <= 64)
        .filter_map(|group| {
            let vars = vars_of(units, &group);
            (vars.len() <= 64).then_some((group, vars))
        })
        .collect()
}

/// Posts `family` in place of the units `group` of `units`, over the variables `vars`.
fn replace_units(
    engine: &mut Engine,
    units: &[Unit],
    group: &[usize],
    vars: &[u32],
    mut family: Box<dyn Propagator>,
) {
    for &u in group {
        let unit_vars: Vec<u32> = units[u].1.iter().map(|v| v.var.index).collect();
        engine.retire(units[u].0, &unit_vars);
    }
    let subscriptions = engine.setup(family.as_mut());
    engine.add_propagator(family, subscriptions);
    // The family's own subscription stands for one of the units' in the degree.
    for &x in vars {
        engine.forget_ghost(x);
    }
}
