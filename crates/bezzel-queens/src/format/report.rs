//! What `queens check` says: of one placement, whether it is a solution and which pairs
//! attack each other, as text or JSON; of a stream of placements, the same for each read and
//! a summary line.

use std::io;

use super::error::ParseError;
use super::read::Placements;
use crate::check;

/// Writes what `queens check` says of a placement, and returns whether it is a solution:
/// as text, `solution: ...` or `not a solution: K attacking pair(s)` and at most `shown` of
/// the pairs, one per line (for placement `index` of several, prefixed with `placement
/// <index>: `, and nothing for a solution); or as one JSON object,
/// `{"index":..,"n":..,"solution":..,"attacking_pairs":..,"attacks":[..]}` (`index` only for
/// one of several). The pairs are written as they are found, in memory for the placement,
/// however many there are.
pub fn write_check(
    w: &mut impl io::Write,
    index: Option<u64>,
    placement: &[usize],
    shown: u64,
    form_json: bool,
) -> io::Result<bool> {
    let attacks = check::attacks(placement);
    let total = attacks.total();
    let listed = attacks.take(usize::try_from(shown).unwrap_or(usize::MAX));
    let n = placement.len();
    let solution = total == 0;
    if form_json {
        write!(w, "{{")?;
        if let Some(i) = index {
            write!(w, "\"index\":{i},")?;
        }
        write!(
            w,
            "\"n\":{n},\"solution\":{solution},\"attacking_pairs\":{total},\"attacks\":["
        )?;
        for (i, a) in listed.enumerate() {
            let a = serde_json::to_string(&a).expect("plain data");
            write!(w, "{}{a}", if i == 0 { "" } else { "," })?;
        }
        writeln!(w, "]}}")?;
        return Ok(solution);
    }
    if solution {
        if index.is_none() {
            writeln!(w, "solution: no two of the {n} queens attack each other")?;
        }
        return Ok(true);
    }
    if let Some(i) = index {
        write!(w, "placement {i}: ")?;
    }
    writeln!(w, "not a solution: {total} attacking pair(s)")?;
    let mut count = 0u64;
    for a in listed {
        let line = match a.kind {
            check::AttackKind::Column => "a column",
            check::AttackKind::Diagonal => "a diagonal",
            check::AttackKind::AntiDiagonal => "an anti-diagonal",
        };
        writeln!(
            w,
            "  rows {} and {} (columns {} and {}) share {line}",
            a.a, a.b, placement[a.a], placement[a.b]
        )?;
        count += 1;
    }
    if total > count {
        writeln!(w, "  ... and {} more (--limit shows more)", total - count)?;
    }
    Ok(false)
}

/// What [`check_placements`] found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Checked {
    /// Placements read (the malformed ones included).
    pub checked: u64,
    /// Placements read well that are not solutions.
    pub not_solutions: u64,
    /// Placements that could not be read.
    pub malformed: u64,
}

/// Checks every placement in `input` (any printed form, read by [`Placements`] in memory for
/// one) and writes what `queens check` says to `w` ([`write_check`], at most `shown` attacking
/// pairs each). One placement is answered as such; of several, each that is not a solution is
/// named by its number, and a summary line follows: `92 placements checked: all are
/// solutions`, or in JSON `{"checked":92,"not_solutions":0,"malformed":0}`. A placement that
/// cannot be read is handed to `malformed` with its number (`None` when it is the only one),
/// after `w` is flushed, so that a message on another stream comes in order.
///
/// Input without any placement is [`ParseError::Empty`], handed to `malformed`, unless it is
/// what the program prints for a board without solutions (`queens 3` prints `0 solutions`,
/// `queens first 3` nothing; see [`Placements::said_none`]): that is a list of none, all of
/// them solutions, answered `0 placements checked` (JSON:
/// `{"checked":0,"not_solutions":0,"malformed":0}`).
pub fn check_placements(
    input: impl io::BufRead,
    w: &mut impl io::Write,
    shown: u64,
    json: bool,
    mut malformed: impl FnMut(Option<u64>, ParseError),
) -> io::Result<Checked> {
    let mut placements = Placements::new(input);
    let first = placements.next();
    if first.is_none() && placements.said_none() {
        if json {
            writeln!(w, "{{\"checked\":0,\"not_solutions\":0,\"malformed\":0}}")?;
        } else {
            writeln!(w, "0 placements checked")?;
        }
        return Ok(Checked::default());
    }
    let first = first.unwrap_or(Err(ParseError::Empty));
    let second = placements.next();
    let several = second.is_some();
    let mut found = Checked::default();
    for read in std::iter::once(first).chain(second).chain(placements) {
        found.checked += 1;
        let number = several.then_some(found.checked);
        match read {
            Ok(p) => found.not_solutions += u64::from(!write_check(w, number, &p, shown, json)?),
            Err(e) => {
                w.flush()?;
                malformed(number, e);
                found.malformed += 1;
            }
        }
    }
    if !several {
        return Ok(found);
    }
    let Checked {
        checked,
        not_solutions: bad,
        malformed,
    } = found;
    if json {
        writeln!(
            w,
            "{{\"checked\":{checked},\"not_solutions\":{bad},\"malformed\":{malformed}}}"
        )?;
    } else if bad + malformed == 0 {
        writeln!(w, "{checked} placements checked: all are solutions")?;
    } else {
        let verb = if bad == 1 {
            "is not a solution"
        } else {
            "are not solutions"
        };
        write!(w, "{checked} placements checked: {bad} {verb}")?;
        if malformed > 0 {
            write!(w, ", {malformed} malformed")?;
        }
        writeln!(w)?;
    }
    Ok(found)
}
