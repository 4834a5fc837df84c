//! Built-in filtering algorithms, one idea per file, each written once against [`IntView`]s.
//!
//! These are the algorithms; the modelling functions that pick and post them live in
//! [`constraints`](crate::constraints). A user normally never names these types, but they are
//! public so that they can be composed or posted directly.
//!
//! [`IntView`]: crate::IntView

mod all_different;
mod all_different_bounds;
mod all_different_domain;
mod all_different_value_family;
mod binary;
mod boolean;
mod check;
mod circuit;
mod cumulative;
mod diffn;
mod disjunctive;
mod linear;
mod ordering;
mod regular;
mod table;
mod value_pass;

pub use all_different::AllDifferentValue;
pub use all_different_bounds::AllDifferentBounds;
pub use all_different_domain::AllDifferentDomain;
pub use binary::{Equal, LessEq, NotEqual};
pub use boolean::{Clause, FixTo, Parity, Reif, Reified};
pub use check::{Check, Predicate};
pub use circuit::NoSubtour;
pub use cumulative::{Cumulative, CumulativeEnergy, CumulativeRule, ENERGETIC_MAX_TASKS};
pub use diffn::{Diffn, DiffnEnergy, DiffnStacks, DiffnTimeTable};
pub use disjunctive::Disjunctive;
pub use linear::{LONG_SUM_TERMS, Linear, MAX_LINEAR_TERMS, Relation, UnitSum};
pub use ordering::{Lex, ValuePrecede};
pub use regular::{Dfa, Regular};
pub use table::Table;

/// The propagator of a family of domain-level all-differents (the `units`, at most 64, each
/// of at most 64 variables whose declared values all fit one window of 64), for the model to
/// post in place of the units' own propagators: see `all_different_domain/family.rs`.
pub(crate) fn all_different_family(units: &[Vec<crate::IntView>]) -> Box<dyn crate::Propagator> {
    Box::new(all_different_domain::AllDifferentFamily::new(units))
}

/// The propagator of a family of domain-level all-differents over offset views (the `units`,
/// at most 64, over at most 64 variables, each unit's views `x + c` over distinct variables
/// with values in one window of 64), for the model to post in place of the units' own
/// propagators: see `all_different_domain/offset_family.rs`.
pub(crate) fn all_different_offset_family(
    units: &[Vec<crate::IntView>],
) -> Box<dyn crate::Propagator> {
    Box::new(all_different_domain::OffsetFamily::new(units))
}

/// The propagator of a family of value-level all-differents (the `units`, at most 64, over
/// at most 64 variables, each unit's views `x + c` over distinct variables with values in one
/// window of 64), for the model to post in place of the units' own propagators: see
/// `all_different_value_family.rs`.
pub(crate) fn all_different_value_family(
    units: &[Vec<crate::IntView>],
) -> Box<dyn crate::Propagator> {
    Box::new(all_different_value_family::AllDifferentValueFamily::new(
        units,
    ))
}

/// Whether the views take pairwise different values: the plain definition of all-different,
/// for [`Propagator::is_satisfied`](crate::Propagator::is_satisfied).
fn pairwise_different(views: &[crate::IntView], a: &crate::Assignment<'_>) -> bool {
    // Comparing every pair allocates nothing, which keeps checked searches allocation-free
    // for the sizes puzzles have; longer lists are sorted.
    if views.len() <= 32 {
        (0..views.len()).all(|i| {
            let v = a.value(views[i]);
            views[i + 1..].iter().all(|&w| a.value(w) != v)
        })
    } else {
        let mut values = a.values_of(views);
        values.sort_unstable();
        values.windows(2).all(|w| w[0] != w[1])
    }
}

/// The views as [`WordView`]s over one window, and the window's first value: the smallest
/// value any of them can take (whatever the current bounds, which a `Model::propagate` may
/// have narrowed and the search undoes). `None` when there are no views or one does not fit
/// (it is negated, or the values span more than 64).
///
/// [`WordView`]: crate::WordView
fn word_views(
    s: &crate::Setup<'_>,
    views: &[crate::IntView],
) -> Option<(i64, Vec<crate::WordView>)> {
    let lo = views.iter().map(|&v| s.declared_min(v)).min()?;
    let mut words = Vec::with_capacity(views.len());
    for &v in views {
        words.push(s.word_view(v, lo)?);
    }
    Some((lo, words))
}

/// Iterates the set bits of a word, lowest first.
#[inline(always)]
fn bits(mut word: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if word == 0 {
            None
        } else {
            let b = word.trailing_zeros() as usize;
            word &= word - 1;
            Some(b)
        }
    })
}

mod arith;
pub use arith::{Abs, Div, MinArray, Mod, Times};
mod element;
pub use element::{ElementConst, ElementVar};
mod counting;
pub use counting::{Among, Inverse};

#[cfg(test)]
mod tests {
    /// The built-in propagators use only what a propagator outside the crate can: the public
    /// API of `Context`, `Setup` and the views (`tests/propagators/public_propagator.rs`
    /// shows that this is enough to match them). None reaches into the store, the queue, a
    /// view's fields or the private fields of `Context`.
    #[test]
    fn built_ins_use_only_the_public_propagator_api() {
        // Every file below this folder, so that a new propagator is checked without being
        // listed; not this file, which wires the module (and spells the forbidden strings).
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/propagators");
        let mut sources = Vec::new();
        let mut folders = vec![dir.clone()];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).expect("the propagators folder is readable") {
                let path = entry.expect("a readable folder entry").path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") && path != dir.join("mod.rs")
                {
                    let text = std::fs::read_to_string(&path).expect("a readable source file");
                    sources.push((path.display().to_string(), text));
                }
            }
        }
        assert!(sources.len() > 20, "found only {} sources", sources.len());
        let forbidden = [
            "ctx.store",
            "ctx.queue",
            "s.store",
            "store::Store",
            "queue::Queue",
            ".negated",
            ".var.index",
            "pub(crate)",
            "ctx.advice ",
            "ctx.stage ",
            "ctx.requeue =",
        ];
        for (file, text) in &sources {
            for f in forbidden {
                assert!(!text.contains(f), "{file} uses `{f}`");
            }
        }
    }
}
