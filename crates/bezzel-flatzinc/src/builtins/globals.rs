//! The globals that `mznlib` declares, so that MiniZinc hands them over instead of
//! decomposing them: all_different, table, regular, circuit, subcircuit, inverse,
//! global_cardinality, count of a fixed value, among, lex_less(eq), value_precede.
//! Circuit, subcircuit and inverse receive the model's first index (`bezzel_circuit` and
//! friends in `mznlib`), since FlatZinc arrays count from 1 whatever the model's index sets.

use crate::FznError;
use crate::builder::{Builder, Value, int32, ints32, set32};
use bezzel_core::prelude::*;
use bezzel_core::{Dfa, MAX_DOMAIN_WIDTH};
use std::collections::HashMap;

pub(crate) fn all_different(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let xs = b.views(&a[0])?;
    // Value consistency unless annotated, as in Gecode.
    Ok(b.model.all_different_with(&xs, b.consistency)?)
}

/// `fzn_table_{int,bool}(xs, flat)`: the tuples are `flat` cut in rows of `xs.len()`.
pub(crate) fn table(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let xs = b.views(&a[0])?;
    let flat = b.pars(&a[1])?;
    if xs.is_empty() {
        return Ok(());
    }
    if flat.len() % xs.len() != 0 {
        return Err(FznError::invalid(format!(
            "the table's {} entries are not rows of {}",
            flat.len(),
            xs.len()
        )));
    }
    let flat = ints32(&flat, "the table")?;
    let tuples: Vec<Vec<i32>> = flat.chunks(xs.len()).map(<[i32]>::to_vec).collect();
    if tuples.is_empty() {
        b.fail() // no tuple: no solution
    } else {
        Ok(b.model.table(&xs, &tuples)?)
    }
}

/// `fzn_regular(xs, Q, S, d, q0, F)`: MiniZinc's states are 1..=Q, 0 the failing one;
/// Bezzel's are 0..Q.
pub(crate) fn regular(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let xs = b.views(&a[0])?;
    let q = b.par(&a[1])?;
    let s = b.par(&a[2])?;
    let d = b.pars(&a[3])?;
    let q0 = b.par(&a[4])?;
    let finals = b.set(&a[5])?;
    if q < 1 || s < 0 || q.checked_mul(s) != Some(d.len() as i64) || !(1..=q).contains(&q0) {
        return Err(FznError::invalid(format!(
            "malformed automaton: {q} states and {s} symbols need a transition table of \
             {q}·{s} entries, not {}, and the start state in 1..{q}",
            d.len()
        )));
    }
    if q > MAX_DOMAIN_WIDTH as i64 {
        return Err(FznError::invalid(format!(
            "an automaton of {q} states is too large"
        )));
    }
    let mut transitions = Vec::new();
    for from in 0..q {
        for sym in 0..s {
            let to = d[(from * s + sym) as usize];
            if to > 0 {
                let symbol = int32(sym + 1, "the automaton's symbols")?;
                transitions.push((from as usize, symbol, (to - 1) as usize));
            }
        }
    }
    let finals: Vec<usize> = finals
        .iter()
        .filter(|&&f| (1..=q).contains(&f))
        .map(|&f| (f - 1) as usize)
        .collect();
    let dfa = Dfa::new(q as usize, (q0 - 1) as usize, &finals, &transitions)?;
    if xs.is_empty() {
        if !finals.contains(&((q0 - 1) as usize)) {
            b.fail()?;
        }
        Ok(())
    } else {
        Ok(b.model.regular(&xs, &dfa)?)
    }
}

/// The view offset that makes indices counted from `base` count from 0.
fn shift(base: i64) -> Result<i32, FznError> {
    i32::try_from(-base)
        .map_err(|_| FznError::invalid(format!("index set starting at {base}: too far")))
}

/// The successor array `a[0]`, its indices counted from `a[1]`, counted from 0.
fn successors(b: &mut Builder, a: &[Value]) -> Result<Vec<IntView>, FznError> {
    let xs = b.views(&a[0])?;
    let base = shift(b.par(&a[1])?)?;
    Ok(xs.into_iter().map(|x| x.offset(base)).collect())
}

/// `bezzel_circuit(xs, base)`.
pub(crate) fn circuit(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let xs = successors(b, a)?;
    Ok(b.model.circuit(&xs)?)
}

/// `bezzel_subcircuit(xs, base)`.
pub(crate) fn subcircuit(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let xs = successors(b, a)?;
    Ok(b.model.subcircuit(&xs)?)
}

/// `bezzel_inverse(f, g, f_base, g_base)`.
pub(crate) fn inverse(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let f = b.views(&a[0])?;
    let g = b.views(&a[1])?;
    let (f_shift, g_shift) = (shift(b.par(&a[2])?)?, shift(b.par(&a[3])?)?);
    // f's values index g and the other way round.
    let f: Vec<IntView> = f.into_iter().map(|x| x.offset(g_shift)).collect();
    let g: Vec<IntView> = g.into_iter().map(|x| x.offset(f_shift)).collect();
    // Bezzel's inverse checks the all-different it implies only once fixed; MiniZinc users
    // expect the pruning of a channelling permutation. (MiniZinc drops a `:: domain` on
    // inverse on its way here: always domain.)
    b.model.all_different_with(&f, Consistency::Domain)?;
    b.model.all_different_with(&g, Consistency::Domain)?;
    Ok(b.model.inverse(&f, &g)?)
}

/// `fzn_global_cardinality(xs, cover, counts)`.
pub(crate) fn global_cardinality(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let xs = b.views(&a[0])?;
    let cover = b.pars(&a[1])?;
    let counts = b.views(&a[2])?;
    if cover.len() != counts.len() {
        return Err(FznError::invalid(format!(
            "{} cover values for {} counts",
            cover.len(),
            counts.len()
        )));
    }
    // A value repeated in cover: every count of it is the same count.
    let mut first: HashMap<i64, IntView> = HashMap::new();
    let (mut values, mut kept) = (Vec::new(), Vec::new());
    for (&v, &c) in cover.iter().zip(&counts) {
        if let Some(&d) = first.get(&v) {
            b.model.equal(c, d)?;
        } else {
            first.insert(v, c);
            values.push(v);
            kept.push(c);
        }
    }
    let values = ints32(&values, "the cover")?;
    Ok(b.model.global_cardinality(&xs, &values, &kept)?)
}

/// `bezzel_count(xs, y, c)`: `c` of the `xs` equal the constant `y`.
pub(crate) fn count(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let xs = b.views(&a[0])?;
    let y = int32(b.par(&a[1])?, "the counted value")?;
    let c = b.view(&a[2])?;
    Ok(b.model.count(&xs, y, c)?)
}

/// `fzn_among(n, xs, s)`.
pub(crate) fn among(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let n = b.view(&a[0])?;
    let xs = b.views(&a[1])?;
    let s = set32(&b.set(&a[2])?);
    Ok(b.model.among(&xs, &s, n)?)
}

/// `fzn_lex_less(eq)_{int,bool}(xs, ys)`. Arrays of different lengths compare on the
/// common prefix, the shorter first when that prefix is equal (MiniZinc's standard
/// definition).
pub(crate) fn lex(b: &mut Builder, a: &[Value], strict: bool) -> Result<(), FznError> {
    let mut xs = b.views(&a[0])?;
    let mut ys = b.views(&a[1])?;
    let n = xs.len().min(ys.len());
    let equal_prefix_ok = if strict {
        xs.len() < ys.len()
    } else {
        xs.len() <= ys.len()
    };
    xs.truncate(n);
    ys.truncate(n);
    if n == 0 {
        if !equal_prefix_ok {
            b.fail()?;
        }
        Ok(())
    } else if equal_prefix_ok {
        Ok(b.model.lex_less_eq(&xs, &ys)?)
    } else {
        Ok(b.model.lex_less(&xs, &ys)?)
    }
}

/// `fzn_value_precede_int(s, t, xs)`.
pub(crate) fn value_precede(b: &mut Builder, a: &[Value]) -> Result<(), FznError> {
    let s = int32(b.par(&a[0])?, "s")?;
    let t = int32(b.par(&a[1])?, "t")?;
    let xs = b.views(&a[2])?;
    if s == t {
        // MiniZinc's definition: the first s would have to follow an earlier s, so s does
        // not occur at all.
        let zero = b.constant(0)?;
        Ok(b.model.among(&xs, &[s], zero)?)
    } else {
        Ok(b.model.value_precede(s, t, &xs)?)
    }
}
