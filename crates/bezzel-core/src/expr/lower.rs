//! Lowering: expressions become the model's own constraints.
//!
//! An integer expression is first made linear, `Σ aᵢ·xᵢ + c` over variables with equal
//! variables merged, by giving each non-linear part (a product, `abs`, `min`, `max`, `/`, `%`,
//! an element, a Boolean's truth) an auxiliary variable whose bounds come from its operands'
//! declared bounds, defined by the matching arithmetic or element propagator. A comparison is
//! then one linear constraint with everything on one side, posted as the cheapest propagator
//! that prunes the same: a view relation (`x ≤ y + c`, `x = y + c`, `x ≠ y + c`) for two unit
//! terms, [`Model::linear`] (unit sums included) otherwise. A Boolean expression becomes
//! clauses and reified comparisons. Every auxiliary variable is a function of the others, so
//! counts of solutions are those of the model as the user stated it.

use super::boolean::{Node, negate};
use super::{Atom, BoolExpr, IntExpr};
use crate::constraints::{BoolVar, too_many_linear_terms};
use crate::domain::{MAX_DOMAIN_WIDTH, MAX_VALUE, MIN_VALUE};
use crate::error::ModelError;
use crate::model::Model;
use crate::propagators::{Equal, FixTo, MAX_LINEAR_TERMS, Reif, Reified, Relation};
use crate::var::{IntView, MAX_VIEW_OFFSET, VarId};

/// `Σ aᵢ·xᵢ + c`: distinct variables, nonzero coefficients, in order of first appearance.
struct Linear {
    terms: Vec<(i128, VarId)>,
    constant: i128,
}

/// The terms and right-hand constant of a sum as [`Model::post_linear_terms`] takes them.
type PlainSum = (Vec<(i64, IntView)>, i64);

/// A sum's terms, relation and right-hand constant as its propagators take them.
type SumInI64 = (Vec<(i64, IntView)>, Relation, i64);

/// A value of the expression API as the posting functions take it (`i32`, the API's one
/// integer type): where lowering's arithmetic (`i128`, over an expression's checked `i64`
/// terms, so that merging and bounds cannot overflow) meets a value, an element's array or
/// a reified comparison of one variable. Sums take wider numbers ([`sum_int`]).
fn api_int(v: i128) -> Result<i32, ModelError> {
    i32::try_from(v).map_err(|_| ModelError::InvalidArgument {
        reason: format!("expression: the number {v} is too large for a constraint"),
    })
}

/// A coefficient or constant of a sum, which the sum's propagators take as `i64` (their own
/// arithmetic is `i128`): a sum is not bound to `i32` as values are, so that
/// `(x + y).eq(2 * 2^30)` is the constraint it says.
fn sum_int(v: i128) -> Result<i64, ModelError> {
    i64::try_from(v).map_err(|_| ModelError::InvalidArgument {
        reason: format!("expression: the number {v} is beyond 64 bits, too large for a sum"),
    })
}

/// `Σ aᵢ·xᵢ (relation) c` with its numbers in `i64`, as the sum's propagators take them, or
/// the same sum turned round (`Σ -aᵢ·xᵢ (mirrored) -c`) where only that fits: a constant of
/// `i64::MIN` moved to the right is `2⁶³`, whose negation fits (`x + i64::MIN <= 0` is
/// `-x >= i64::MIN`). The terms are [`Model::linearise`]'s: the model's variables, distinct.
fn sum_in_i64(
    terms: &[(i128, VarId)],
    relation: Relation,
    c: i128,
) -> Result<SumInI64, ModelError> {
    if terms.len() > MAX_LINEAR_TERMS {
        return Err(too_many_linear_terms(terms.len()));
    }
    let convert = |sign: i128| {
        let terms = terms
            .iter()
            .map(|&(a, x)| Ok((sum_int(sign * a)?, IntView::from(x))))
            .collect::<Result<Vec<_>, ModelError>>()?;
        Ok((terms, sum_int(sign * c)?))
    };
    match convert(1) {
        Ok((terms, c)) => Ok((terms, relation, c)),
        Err(e) => match convert(-1) {
            Ok((terms, c)) => Ok((terms, relation.mirrored(), c)),
            Err(_) => Err(e),
        },
    }
}

/// The error of an expression whose arithmetic overflowed.
fn overflow_error() -> ModelError {
    ModelError::InvalidArgument {
        reason: "expression: a coefficient or constant beyond 64 bits on the way (or a view \
                 whose own arithmetic saturated); a sum takes 64-bit numbers, a value 32-bit"
            .into(),
    }
}

/// `v (relation) c` when it is the same for every `i32` value `v`, as a unit view's are:
/// `v >= i32::MIN` is true, `v = 2^31` false. `None` for a relation other than `=`, `<=`,
/// `>=`, or a constant that leaves it open.
fn decided_over_i32(relation: Relation, c: i128) -> Option<bool> {
    let (lo, hi) = (i128::from(i32::MIN), i128::from(i32::MAX));
    match relation {
        Relation::Eq => (c < lo || c > hi).then_some(false),
        Relation::Le if c >= hi || c < lo => Some(c >= hi),
        Relation::Ge if c <= lo || c > hi => Some(c <= lo),
        _ => None,
    }
}

/// `Imp` and `Pmi` swap when the condition is negated (`b -> not C` is `C -> not b`).
fn flipped(mode: Reif) -> Reif {
    match mode {
        Reif::Equiv => Reif::Equiv,
        Reif::Imp => Reif::Pmi,
        Reif::Pmi => Reif::Imp,
    }
}

/// The view `a·x + offset` when the offset is one a view may have and `a` a nonzero `i32`
/// (whether its values fit is [`Model::scaled_view`]'s to check).
fn view(x: VarId, a: i128, offset: i128) -> Option<IntView> {
    let offset = i64::try_from(offset)
        .ok()
        .filter(|o| o.unsigned_abs() <= u64::from(MAX_VIEW_OFFSET.unsigned_abs()))?;
    let a = i32::try_from(a).ok().filter(|&a| a != 0)?;
    let v = IntView::from(x).scale(a);
    Some(IntView {
        offset: v.offset + offset,
        ..v
    })
}

/// Adds up the coefficients of equal variables, keeping each where it first appears, and drops
/// the terms whose coefficients cancel.
fn merge_equal_variables(terms: &mut Vec<(i128, VarId)>) {
    let mut kept = 0;
    if terms.len() <= 32 {
        // Short sums, most of them, find a repeated variable by a scan, which costs less than
        // hashing.
        for i in 0..terms.len() {
            let (a, x) = terms[i];
            match terms[..kept].iter().position(|&(_, y)| y == x) {
                Some(j) => terms[j].0 = terms[j].0.saturating_add(a),
                None => {
                    terms[kept] = (a, x);
                    kept += 1;
                }
            }
        }
    } else {
        // Long ones by a map, so that merging stays linear.
        let mut position = std::collections::HashMap::with_capacity(terms.len());
        for i in 0..terms.len() {
            let (a, x) = terms[i];
            match position.get(&x) {
                Some(&j) => {
                    let (b, _): &mut (i128, VarId) = &mut terms[j];
                    *b = b.saturating_add(a);
                }
                None => {
                    position.insert(x, kept);
                    terms[kept] = (a, x);
                    kept += 1;
                }
            }
        }
    }
    terms.truncate(kept);
    terms.retain(|&(a, _)| a != 0);
}

/// What a non-linear part is stated equal to in `part = value`.
enum Defined {
    Constant(i128),
    /// `a·y + offset`, a view (scaled when `|a| > 1`).
    View(VarId, i128, i128),
}

/// `e = 0` as `part = value`, when `e` is `±part + c` or `±part + r·y + c` for a non-linear
/// part and a variable `y`: the shape of `max(xs).eq(top)`, `(x * y).eq(12)` or
/// `abs(x).eq(2 * y + 1)`, which can define the part onto its value (a view, scaled where
/// `|r| > 1`) rather than through a variable and a sum. Anything else comes back unchanged.
fn definition(mut e: IntExpr) -> Result<(Atom, Defined), IntExpr> {
    let c = i128::from(e.constant);
    let is_definable = !e.overflow
        && match (&e.parts[..], &e.vars[..]) {
            ([(s, part)], []) | ([(s, part)], [(1.., _) | (..=-1, _)]) => {
                s.abs() == 1 && !matches!(part, Atom::Truth(_))
            }
            _ => false,
        };
    if !is_definable {
        return Err(e);
    }
    let (s, atom) = e.parts.pop().expect("one part");
    let s = i128::from(s);
    // s·part + r·y + c = 0, with s = ±1 (so 1/s = s): part = -(r·s)·y - c·s.
    let value = match e.vars.pop() {
        Some((r, y)) => Defined::View(y, -(i128::from(r) * s), -(c * s)),
        None => Defined::Constant(-(c * s)),
    };
    Ok((atom, value))
}

impl Model {
    /// The view `a·x + offset` when a model accepts it: a scaled one only where its values
    /// over `x`'s declared domain fit an `i32` (see [`Model::check_view`]).
    fn scaled_view(&self, x: VarId, a: i128, offset: i128) -> Option<IntView> {
        view(x, a, offset).filter(|&v| self.check_view(v).is_ok())
    }

    /// Bounds of a view, from the domain its variable was declared with.
    fn view_bounds(&self, v: IntView) -> (i128, i128) {
        let (lo, hi) = self.engine().declared_bounds(v.var().index);
        let (a, b) = (v.to_view(lo), v.to_view(hi));
        (a.min(b).into(), a.max(b).into())
    }

    /// A new auxiliary variable over `lo..=hi`, or an error naming `what` when no variable can
    /// hold that range.
    fn aux_var(&mut self, lo: i128, hi: i128, what: &str) -> Result<VarId, ModelError> {
        let fits = i128::from(MIN_VALUE) <= lo
            && hi <= i128::from(MAX_VALUE)
            && hi - lo < i128::from(MAX_DOMAIN_WIDTH);
        if !fits {
            return Err(ModelError::InvalidArgument {
                reason: format!(
                    "expression: {what} ranges over {lo}..={hi}, more than a variable holds \
                     (at most {MAX_DOMAIN_WIDTH} values within {MIN_VALUE}..={MAX_VALUE})"
                ),
            });
        }
        let name = format!("_aux{}", self.num_vars());
        let x = self.named_var(name, lo as i32..=hi as i32)?;
        self.mark_auxiliary(x);
        Ok(x)
    }

    fn aux_bool(&mut self) -> Result<IntView, ModelError> {
        Ok(self.aux_var(0, 1, "a truth value")?.into())
    }

    /// The expression as `Σ aᵢ·xᵢ + c` over distinct variables, non-linear parts replaced by
    /// auxiliary variables.
    fn linearise(&mut self, e: IntExpr) -> Result<Linear, ModelError> {
        if e.overflow {
            return Err(overflow_error());
        }
        let mut terms: Vec<(i128, VarId)> = Vec::with_capacity(e.vars.len() + e.parts.len());
        let mut constant = i128::from(e.constant);
        for &(a, x) in &e.vars {
            self.check_var(x)?;
            terms.push((a.into(), x));
        }
        for (a, atom) in e.parts {
            let v = self.atom(atom)?;
            // Both factors fit an i64: the products cannot overflow an i128.
            constant += i128::from(a) * i128::from(v.offset);
            terms.push((i128::from(a) * i128::from(v.factor()), v.var));
        }
        merge_equal_variables(&mut terms);
        Ok(Linear { terms, constant })
    }

    /// `e (relation) 0` for an expression of variable terms alone, as [`Model::post_compare`]'s
    /// general case would post it (the merged terms as `post_linear_terms` takes them, and the
    /// constant moved to the right), without the wide intermediate form: the usual long sum,
    /// which must cost no more than the same call by hand. `None` where `post_compare` decides
    /// otherwise (no term, one unit term in `=`, two unit terms), where the constant is
    /// `i64::MIN` (the general path turns the sum round) or a merged coefficient passes `i64`
    /// on the way, and for sums of more than 32 terms (the general path merges them by a map).
    fn plain_linear(
        &self,
        e: &IntExpr,
        relation: Relation,
    ) -> Result<Option<PlainSum>, ModelError> {
        if e.vars.len() > 32 {
            return Ok(None);
        }
        let mut terms: Vec<(i64, IntView)> = Vec::with_capacity(e.vars.len());
        for &(a, x) in &e.vars {
            self.check_var(x)?;
            match terms.iter_mut().find(|(_, y)| y.var == x) {
                Some((b, _)) => match b.checked_add(a) {
                    Some(sum) => *b = sum,
                    None => return Ok(None),
                },
                None => terms.push((a, IntView::from(x))),
            }
        }
        terms.retain(|&(a, _)| a != 0);
        let unit = |a: i64| a.abs() == 1;
        let taken_elsewhere = match terms[..] {
            [] => true,
            [(a, _)] => unit(a) && relation == Relation::Eq,
            [(a, _), (b, _)] => unit(a) && unit(b),
            _ => false,
        };
        match e.constant.checked_neg() {
            Some(c) if !taken_elsewhere => Ok(Some((terms, c))),
            _ => Ok(None),
        }
    }

    /// Least and greatest values of a linear form over the declared domains.
    fn linear_bounds(&self, lin: &Linear) -> (i128, i128) {
        lin.terms
            .iter()
            .fold((lin.constant, lin.constant), |(lo, hi), &(a, x)| {
                let (min, max) = self.view_bounds(x.into());
                let (p, q) = (a.saturating_mul(min), a.saturating_mul(max));
                (lo.saturating_add(p.min(q)), hi.saturating_add(p.max(q)))
            })
    }

    /// The expression as a view: `a·x + c` as it is (a scaled view where `|a| > 1`), anything
    /// else through an auxiliary variable equal to it.
    fn lower_view(&mut self, e: IntExpr) -> Result<IntView, ModelError> {
        let lin = self.linearise(e)?;
        if let [(a, x)] = lin.terms[..]
            && let Some(v) = self.scaled_view(x, a, lin.constant)
        {
            return Ok(v);
        }
        let (lo, hi) = self.linear_bounds(&lin);
        let z = self.aux_var(lo, hi, "a sum")?;
        if lin.terms.is_empty() {
            return Ok(z.into()); // its domain is the constant
        }
        let mut terms = lin.terms;
        terms.push((-1, z));
        self.post_linear(&terms, Relation::Eq, -lin.constant)?;
        Ok(z.into())
    }

    /// A non-linear part (or a variable) as a view.
    fn atom(&mut self, atom: Atom) -> Result<IntView, ModelError> {
        self.atom_onto(atom, None)
    }

    /// The view that holds a part's value: `target` when there is one and it is none of the
    /// part's operands (a propagator's output aliasing its input is left to [`Equal`]),
    /// otherwise a new auxiliary variable over `lo..=hi`.
    fn part_result(
        &mut self,
        target: Option<IntView>,
        operands: &[IntView],
        (lo, hi): (i128, i128),
        what: &str,
    ) -> Result<IntView, ModelError> {
        match target {
            Some(t) if operands.iter().all(|o| o.var != t.var) => Ok(t),
            _ => Ok(self.aux_var(lo, hi, what)?.into()),
        }
    }

    /// A non-linear part as a view, defined onto `target` where one is given: `max(xs) = top`
    /// posts the maximum's propagator on `top` itself, as `m.max(&xs, top)` would, rather
    /// than on a new variable equal to it. The view returned is the part's value (`target`,
    /// or the variable the part was defined on).
    fn atom_onto(&mut self, atom: Atom, target: Option<IntView>) -> Result<IntView, ModelError> {
        match atom {
            Atom::Truth(b) => self.literal_of(*b),
            Atom::Times(a, b) => {
                let (x, y) = (self.lower_view(*a)?, self.lower_view(*b)?);
                let ((xl, xh), (yl, yh)) = (self.view_bounds(x), self.view_bounds(y));
                let corners = [xl * yl, xl * yh, xh * yl, xh * yh];
                let bounds = (
                    *corners.iter().min().unwrap(),
                    *corners.iter().max().unwrap(),
                );
                let z = self.part_result(target, &[x, y], bounds, "a product")?;
                self.times(x, y, z)?;
                Ok(z)
            }
            Atom::Div(a, b) => {
                let (x, y) = (self.lower_view(*a)?, self.lower_view(*b)?);
                let ((xl, xh), (yl, yh)) = (self.view_bounds(x), self.view_bounds(y));
                // For a fixed dividend the quotient is extreme at the divisor's ends or at
                // ±1, and for a fixed divisor it is monotone in the dividend.
                let divisors = [yl, yh, -1, 1]
                    .into_iter()
                    .filter(|&d| d != 0 && yl <= d && d <= yh);
                let quotients: Vec<i128> = divisors.flat_map(|d| [xl / d, xh / d]).collect();
                let (lo, hi) = match (quotients.iter().min(), quotients.iter().max()) {
                    (Some(&lo), Some(&hi)) => (lo, hi),
                    _ => (0, 0), // the divisor is 0: no solution, which `div` finds
                };
                let z = self.part_result(target, &[x, y], (lo, hi), "a quotient")?;
                self.div(x, y, z)?;
                Ok(z)
            }
            Atom::Mod(a, b) => {
                let (x, y) = (self.lower_view(*a)?, self.lower_view(*b)?);
                let ((xl, xh), (yl, yh)) = (self.view_bounds(x), self.view_bounds(y));
                // |x % y| < |y| and |x % y| <= |x|, with the sign of x.
                let reach = (yl.abs().max(yh.abs()) - 1).max(0);
                let (lo, hi) = (xl.max(-reach).min(0), xh.min(reach).max(0));
                let z = self.part_result(target, &[x, y], (lo, hi), "a remainder")?;
                self.modulo(x, y, z)?;
                Ok(z)
            }
            Atom::Abs(a) => {
                let x = self.lower_view(*a)?;
                let (xl, xh) = self.view_bounds(x);
                let lo = if xl <= 0 && 0 <= xh {
                    0
                } else {
                    xl.abs().min(xh.abs())
                };
                let bounds = (lo, xl.abs().max(xh.abs()));
                let z = self.part_result(target, &[x], bounds, "an absolute value")?;
                self.abs(x, z)?;
                Ok(z)
            }
            Atom::Min(es) | Atom::Max(es) if es.is_empty() => Err(ModelError::TooFewVariables {
                constraint: "min/max expression",
                min: 1,
                found: 0,
            }),
            Atom::Min(es) => {
                let xs = self.lower_views(es)?;
                let bounds: Vec<_> = xs.iter().map(|&x| self.view_bounds(x)).collect();
                let lo = bounds.iter().map(|b| b.0).min().unwrap_or(0);
                let hi = bounds.iter().map(|b| b.1).min().unwrap_or(0);
                let z = self.part_result(target, &xs, (lo, hi), "a minimum")?;
                self.min(&xs, z)?;
                Ok(z)
            }
            Atom::Max(es) => {
                let xs = self.lower_views(es)?;
                let bounds: Vec<_> = xs.iter().map(|&x| self.view_bounds(x)).collect();
                let lo = bounds.iter().map(|b| b.0).max().unwrap_or(0);
                let hi = bounds.iter().map(|b| b.1).max().unwrap_or(0);
                let z = self.part_result(target, &xs, (lo, hi), "a maximum")?;
                self.max(&xs, z)?;
                Ok(z)
            }
            Atom::Element(array, index) => {
                let index = self.lower_view(*index)?;
                if array.is_empty() || !self.has_position(index, array.len())? {
                    // Out of range is no solution here, as a division by zero is, rather than
                    // the error `element` gives: the index may be a nested expression.
                    self.lower_views(array)?;
                    self.post_false()?;
                    return Ok(self.aux_var(0, 0, "an element")?.into());
                }
                let constants: Option<Vec<i128>> = array
                    .iter()
                    .map(|e| e.as_constant().map(i128::from))
                    .collect();
                if let Some(values) = constants {
                    let (lo, hi) = (values.iter().min(), values.iter().max());
                    let (lo, hi) = (lo.copied().unwrap_or(0), hi.copied().unwrap_or(0));
                    let z = self.part_result(target, &[index], (lo, hi), "an element")?;
                    let values = values
                        .into_iter()
                        .map(api_int)
                        .collect::<Result<Vec<_>, _>>()?;
                    self.element_const(&values, index, z)?;
                    return Ok(z);
                }
                let xs = self.lower_views(array)?;
                let bounds: Vec<_> = xs.iter().map(|&x| self.view_bounds(x)).collect();
                let lo = bounds.iter().map(|b| b.0).min().unwrap_or(0);
                let hi = bounds.iter().map(|b| b.1).max().unwrap_or(0);
                let mut operands = xs.clone();
                operands.push(index);
                let z = self.part_result(target, &operands, (lo, hi), "an element")?;
                self.element(&xs, index, z)?;
                Ok(z)
            }
        }
    }

    /// Whether some value of the view `index` is a position of an array of length `n`.
    fn has_position(&self, index: IntView, n: usize) -> Result<bool, ModelError> {
        let values = self.domain(index.var())?;
        Ok(values
            .iter()
            .any(|&v| usize::try_from(index.to_view(v)).is_ok_and(|i| i < n)))
    }

    fn lower_views(&mut self, es: Vec<IntExpr>) -> Result<Vec<IntView>, ModelError> {
        es.into_iter().map(|e| self.lower_view(e)).collect()
    }

    /// Posts `Σ aᵢ·xᵢ (relation) c` as [`Model::linear`] does. The terms come from
    /// [`Model::linearise`]: their variables are the model's and distinct.
    fn post_linear(
        &mut self,
        terms: &[(i128, VarId)],
        relation: Relation,
        constant: i128,
    ) -> Result<(), ModelError> {
        let (terms, relation, constant) = sum_in_i64(terms, relation, constant)?;
        self.post_linear_terms(terms, relation, constant)
    }

    /// A constraint that always fails: the model has no solution.
    fn post_false(&mut self) -> Result<(), ModelError> {
        self.clause::<IntView, IntView>(&[], &[])
    }

    /// Posts `lin (relation) 0`.
    fn post_compare(&mut self, lin: Linear, relation: Relation) -> Result<(), ModelError> {
        let c = -lin.constant;
        match lin.terms[..] {
            [] if relation.holds(0, c) => Ok(()),
            [] => self.post_false(),
            // `±x = c` is what `fix` posts.
            [(a, x)] if a.abs() == 1 && relation == Relation::Eq => match i64::try_from(c) {
                Ok(c) => self.post(FixTo::new(view(x, a, 0).expect("no offset"), c)),
                Err(_) => self.post_false(),
            },
            // x (rel) y + c between two unit terms: a view relation, which `linear` would
            // only reach for some relations.
            [(a, x), (b, y)] if a.abs() == 1 && b.abs() == 1 => {
                let lhs = view(x, a, 0).expect("no offset");
                // x < y + c is x <= y + c - 1, and x > y + c is y + c + 1 <= x: the view of y
                // takes the shift, within what a view's offset may be.
                let shift = match relation {
                    Relation::Lt => -1,
                    Relation::Gt => 1,
                    _ => 0,
                };
                match view(y, -b, c + shift) {
                    Some(rhs) => match relation {
                        Relation::Eq => self.equal(lhs, rhs),
                        Relation::Le | Relation::Lt => self.less_eq(lhs, rhs),
                        Relation::Ge | Relation::Gt => self.less_eq(rhs, lhs),
                        Relation::Ne => self.not_equal(lhs, rhs),
                    },
                    None => self.post_linear(&lin.terms, relation, c),
                }
            }
            _ => self.post_linear(&lin.terms, relation, c),
        }
    }

    /// `b (mode) lin (relation) 0`.
    fn reify_compare(
        &mut self,
        lin: Linear,
        relation: Relation,
        b: IntView,
        mode: Reif,
    ) -> Result<(), ModelError> {
        let c = -lin.constant;
        // Negated relations through the negated literal, so that each case below has two.
        if matches!(relation, Relation::Ne | Relation::Lt | Relation::Gt) && lin.terms.len() <= 2 {
            return self.reify_compare(lin, relation.negation(), negate(b), flipped(mode));
        }
        match lin.terms[..] {
            [] => self.reify_truth(relation.holds(0, c), b, mode),
            [(a, _)] if a.abs() == 1 && decided_over_i32(relation, c).is_some() => {
                let holds = decided_over_i32(relation, c).expect("checked");
                self.reify_truth(holds, b, mode)
            }
            [(a, x)] if a.abs() == 1 => {
                let v = view(x, a, 0).expect("no offset");
                let k = api_int(c)?;
                match relation {
                    Relation::Eq => self.eq_value_reif(v, k, b, mode),
                    Relation::Le => self.le_value_reif(v, k, b, mode),
                    // v >= k is not (v <= k - 1).
                    _ => self.le_value_reif(v, api_int(c - 1)?, negate(b), flipped(mode)),
                }
            }
            [(a, x), (bb, y)] if a.abs() == 1 && bb.abs() == 1 && view(y, -bb, c).is_some() => {
                let lhs = view(x, a, 0).expect("no offset");
                let rhs = view(y, -bb, c).expect("checked");
                match relation {
                    Relation::Eq => self.equal_reif(lhs, rhs, b, mode),
                    Relation::Le => self.less_eq_reif(lhs, rhs, b, mode),
                    _ => self.less_eq_reif(rhs, lhs, b, mode),
                }
            }
            _ => {
                // As `linear_reif` posts it, with the sum's numbers in `i64`: `b` is a
                // checked literal and the variables the model's.
                let (terms, relation, c) = sum_in_i64(&lin.terms, relation, c)?;
                self.post(Reified::linear(b, mode, terms, relation, c))
            }
        }
    }

    /// `b (mode) holds`, for a comparison that is decided.
    fn reify_truth(&mut self, holds: bool, b: IntView, mode: Reif) -> Result<(), ModelError> {
        match mode {
            Reif::Equiv => self.post(FixTo::new(b, holds.into())),
            Reif::Imp if !holds => self.post(FixTo::new(b, 0)),
            Reif::Pmi if holds => self.post(FixTo::new(b, 1)),
            _ => Ok(()),
        }
    }

    /// The view, checked to be a literal of this model (values 0 and 1 only).
    fn checked_literal(&mut self, l: IntView) -> Result<IntView, ModelError> {
        self.literal("expression", l)
    }

    /// A literal equal to the expression's truth: the literal itself, or an auxiliary
    /// Boolean tied to the expression.
    pub(crate) fn literal_of(&mut self, e: BoolExpr) -> Result<IntView, ModelError> {
        match e.0 {
            Node::Lit(l) => self.checked_literal(l),
            _ => {
                let r = self.aux_bool()?;
                self.reify_into(e, r)?;
                Ok(r)
            }
        }
    }

    fn literals_of(&mut self, es: Vec<BoolExpr>) -> Result<Vec<IntView>, ModelError> {
        es.into_iter().map(|e| self.literal_of(e)).collect()
    }

    /// `r <-> e`, for a literal `r`.
    fn reify_into(&mut self, e: BoolExpr, r: IntView) -> Result<(), ModelError> {
        match e.0 {
            Node::Const(t) => self.post(FixTo::new(r, t.into())),
            Node::Lit(l) => {
                let l = self.checked_literal(l)?;
                self.post(Equal::new(r, l))
            }
            Node::And(es) => {
                let ls = self.literals_of(es)?;
                self.and(&ls, r)
            }
            Node::Or(es) => {
                let ls = self.literals_of(es)?;
                self.or(&ls, r)
            }
            Node::Xor(a, b) => {
                let ls = self.literals_of(vec![*a, *b])?;
                self.xor(&ls, r)
            }
            Node::Iff(a, b) => {
                let ls = self.literals_of(vec![*a, *b])?;
                self.xor(&ls, negate(r))
            }
            Node::Implies(a, b) => self.reify_into(!*a | *b, r),
            Node::Cmp(e, relation) => {
                let lin = self.linearise(e)?;
                self.reify_compare(lin, relation, r, Reif::Equiv)
            }
        }
    }

    /// `l -> e`, for a literal `l`: `e` is enforced while `l` is true.
    fn enforce(&mut self, e: BoolExpr, l: IntView) -> Result<(), ModelError> {
        match e.0 {
            Node::Const(true) => Ok(()),
            Node::Const(false) => self.post(FixTo::new(l, 0)),
            Node::And(es) => es.into_iter().try_for_each(|e| self.enforce(e, l)),
            Node::Or(es) => {
                let mut ls = self.literals_of(es)?;
                ls.push(negate(l));
                self.clause::<IntView, IntView>(&ls, &[])
            }
            Node::Implies(a, b) => self.enforce(!*a | *b, l),
            Node::Cmp(e, relation) => {
                let lin = self.linearise(e)?;
                self.reify_compare(lin, relation, l, Reif::Imp)
            }
            _ => {
                let m = self.literal_of(e)?;
                self.clause(&[m], &[l])
            }
        }
    }

    /// The errors an expression can be found to have before anything is posted: a variable
    /// of another model, a view that is not 0/1 used as a literal, an arithmetic overflow,
    /// a minimum or maximum of nothing. Checked first, so that these leave the model as it
    /// was (errors found while lowering, such as a part too wide for a variable, may leave
    /// some of the expression posted).
    pub(crate) fn validate(&self, e: &BoolExpr) -> Result<(), ModelError> {
        self.validate_below(e, true)
    }

    /// [`Model::validate`]; at the `top` of an expression, a comparison of linear terms is
    /// left to its lowering, which checks every term before it posts anything.
    fn validate_below(&self, e: &BoolExpr, top: bool) -> Result<(), ModelError> {
        match &e.0 {
            Node::Cmp(e, _) if top && e.parts.is_empty() => Ok(()),
            Node::Const(_) => Ok(()),
            Node::Lit(l) => self.literal("expression", *l).map(|_| ()),
            Node::And(es) | Node::Or(es) => {
                es.iter().try_for_each(|e| self.validate_below(e, false))
            }
            Node::Xor(a, b) | Node::Iff(a, b) | Node::Implies(a, b) => {
                self.validate_below(a, false)?;
                self.validate_below(b, false)
            }
            Node::Cmp(e, _) => self.validate_int(e),
        }
    }

    /// [`Model::validate`] for an integer expression.
    pub(crate) fn validate_int(&self, e: &IntExpr) -> Result<(), ModelError> {
        if e.overflow {
            return Err(overflow_error());
        }
        e.vars.iter().try_for_each(|&(_, x)| self.check_var(x))?;
        e.parts.iter().try_for_each(|(_, part)| match part {
            Atom::Times(a, b) | Atom::Div(a, b) | Atom::Mod(a, b) => {
                self.validate_int(a)?;
                self.validate_int(b)
            }
            Atom::Abs(a) => self.validate_int(a),
            Atom::Min(es) | Atom::Max(es) if es.is_empty() => Err(ModelError::TooFewVariables {
                constraint: "min/max expression",
                min: 1,
                found: 0,
            }),
            Atom::Min(es) | Atom::Max(es) => es.iter().try_for_each(|e| self.validate_int(e)),
            Atom::Element(array, index) => {
                array.iter().try_for_each(|e| self.validate_int(e))?;
                self.validate_int(index)
            }
            Atom::Truth(b) => self.validate_below(b, false),
        })
    }

    /// Posts `e`: it holds in every solution.
    pub(crate) fn post_expr(&mut self, e: BoolExpr) -> Result<(), ModelError> {
        match e.0 {
            Node::Const(true) => Ok(()),
            Node::Const(false) => self.post_false(),
            Node::Lit(l) => {
                let l = self.checked_literal(l)?;
                self.post(FixTo::new(l, 1))
            }
            Node::And(es) => es.into_iter().try_for_each(|e| self.post_expr(e)),
            Node::Or(es) => {
                let ls = self.literals_of(es)?;
                self.clause::<IntView, IntView>(&ls, &[])
            }
            Node::Xor(a, b) => match (a.0, b.0) {
                (Node::Lit(l), other) | (other, Node::Lit(l)) => {
                    let l = self.checked_literal(l)?;
                    self.reify_into(BoolExpr(other), negate(l))
                }
                (a, b) => {
                    let ls = self.literals_of(vec![BoolExpr(a), BoolExpr(b)])?;
                    self.post(Equal::new(ls[0], negate(ls[1])))
                }
            },
            Node::Iff(a, b) => match (a.0, b.0) {
                (Node::Lit(l), other) | (other, Node::Lit(l)) => {
                    let l = self.checked_literal(l)?;
                    self.reify_into(BoolExpr(other), l)
                }
                (a, b) => {
                    let ls = self.literals_of(vec![BoolExpr(a), BoolExpr(b)])?;
                    self.post(Equal::new(ls[0], ls[1]))
                }
            },
            Node::Implies(a, b) => match a.0 {
                Node::Lit(l) => {
                    let l = self.checked_literal(l)?;
                    self.enforce(*b, l)
                }
                a => self.post_expr(!BoolExpr(a) | *b),
            },
            Node::Cmp(e, relation) if e.parts.is_empty() && !e.overflow => {
                match self.plain_linear(&e, relation)? {
                    Some((terms, c)) => self.post_linear_terms(terms, relation, c),
                    None => {
                        let lin = self.linearise(e)?;
                        self.post_compare(lin, relation)
                    }
                }
            }
            Node::Cmp(e, Relation::Eq) => match definition(e) {
                Ok((atom, value)) => self.post_definition(atom, value),
                Err(e) => {
                    let lin = self.linearise(e)?;
                    self.post_compare(lin, Relation::Eq)
                }
            },
            Node::Cmp(e, relation) => {
                let lin = self.linearise(e)?;
                self.post_compare(lin, relation)
            }
        }
    }

    /// Posts `atom = value`: the part's propagator defined onto the value's view (or onto a
    /// variable fixed to the constant), with no variable in between where that is possible.
    fn post_definition(&mut self, atom: Atom, value: Defined) -> Result<(), ModelError> {
        let target = match value {
            Defined::Constant(c) if i128::from(MIN_VALUE) <= c && c <= i128::from(MAX_VALUE) => {
                self.aux_var(c, c, "a constant")?.into()
            }
            Defined::View(y, a, offset) => {
                self.check_var(y)?;
                match self.scaled_view(y, a, offset) {
                    Some(v) => v,
                    None => return self.post_defined_by_sum(atom, value),
                }
            }
            Defined::Constant(_) => return self.post_defined_by_sum(atom, value),
        };
        let z = self.atom_onto(atom, Some(target))?;
        if z == target {
            Ok(())
        } else {
            self.post(Equal::new(target, z))
        }
    }

    /// `atom = value` as any comparison is posted, for a value no view can hold.
    fn post_defined_by_sum(&mut self, atom: Atom, value: Defined) -> Result<(), ModelError> {
        // part - value = 0.
        let v = self.atom(atom)?;
        let mut terms = vec![(i128::from(v.factor()), v.var)];
        let mut constant = i128::from(v.offset);
        match value {
            Defined::Constant(c) => constant -= c,
            Defined::View(y, a, offset) => {
                terms.push((-a, y));
                constant -= offset;
            }
        }
        merge_equal_variables(&mut terms);
        self.post_compare(Linear { terms, constant }, Relation::Eq)
    }

    /// Posts `e` only where `condition` holds: `condition -> e` (see
    /// [`BoolExpr::only_if`]). A literal condition costs no variable.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let late = m.named_bool("late")?;
    /// let start = m.named_var("start", 0..=9)?;
    /// m.post_if(late, start.ge(8))?;
    /// m.post_if(!late, start.le(1))?;
    /// assert_eq!(Solver::new(m).count(), 4);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn post_if(
        &mut self,
        condition: impl Into<BoolExpr>,
        e: impl Into<BoolExpr>,
    ) -> Result<(), ModelError> {
        let e = condition.into().implies(e);
        self.validate(&e)?;
        self.post_expr(e)
    }

    /// The truth of `e` as a Boolean variable: 1 exactly when `e` holds. A literal is
    /// returned as it is when it is a variable; otherwise the variable is auxiliary (out of
    /// [`Solver::solution_set`](crate::Solver::solution_set) and printed solutions, see
    /// [`Model::is_auxiliary`]).
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// use bezzel_core::expr::sum;
    /// let mut m = Model::new();
    /// let xs = m.int_vars(3, 0..=3)?;
    /// let big: Vec<BoolVar> = xs.iter().map(|&x| m.reify(x.ge(2))).collect::<Result<_, _>>()?;
    /// m.post(sum(&big).eq(1))?; // exactly one is 2 or more
    /// assert_eq!(Solver::new(m).count(), 3 * 2 * 2 * 2);
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn reify(&mut self, e: impl Into<BoolExpr>) -> Result<BoolVar, ModelError> {
        let e = e.into();
        // In full: the auxiliary Boolean comes before the comparison's own checks.
        self.validate_below(&e, false)?;
        let l = self.literal_of(e)?;
        if !l.is_negated() && l.constant() == 0 {
            return self.as_bool(l.var());
        }
        let r = self.aux_bool()?;
        self.post(Equal::new(r, l))?;
        self.as_bool(r.var())
    }

    /// The expression as a view, for the constraints that take views: `x`, `-x`, `x + c` and
    /// `a·x + c` (a scaled view, [`IntView::scale`]) as they are, anything else through an
    /// auxiliary variable equal to it.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let q = m.int_vars(4, 0..=3)?;
    /// let up: Vec<IntView> = (0..4).map(|i| m.view_of(q[i] + i as i32)).collect::<Result<_, _>>()?;
    /// m.all_different(&q)?;
    /// m.all_different(&up)?;
    /// let down: Vec<IntView> = (0..4).map(|i| m.view_of(q[i] - i as i32)).collect::<Result<_, _>>()?;
    /// m.all_different(&down)?;
    /// // Scales too: 2q + 1 all different (as q is already), with no variable for them.
    /// let odd: Vec<IntView> = q.iter().map(|&x| m.view_of(2 * x + 1)).collect::<Result<_, _>>()?;
    /// m.all_different(&odd)?;
    /// assert_eq!(m.num_vars(), 4); // offsets and scales are views
    /// assert_eq!(Solver::new(m).count(), 2); // four queens
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn view_of(&mut self, e: impl Into<IntExpr>) -> Result<IntView, ModelError> {
        let e = e.into();
        self.validate_int(&e)?;
        self.lower_view(e)
    }

    /// A variable equal to the expression: the variable itself if it is one, otherwise an
    /// auxiliary one (see [`Model::is_auxiliary`]), e.g. for an objective.
    ///
    /// ```
    /// use bezzel_core::prelude::*;
    /// let mut m = Model::new();
    /// let x = m.int_vars(2, 0..=5)?;
    /// let cost = m.var_of(3 * x[0] - x[1])?;
    /// m.post((x[0] + x[1]).ge(4))?;
    /// let best = Solver::new(m).minimize(cost)?.finish();
    /// assert_eq!(best.value, Some(-5)); // x0 = 0, x1 = 5
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn var_of(&mut self, e: impl Into<IntExpr>) -> Result<VarId, ModelError> {
        let e = e.into();
        self.validate_int(&e)?;
        let v = self.lower_view(e)?;
        if v.factor() == 1 && v.constant() == 0 {
            return Ok(v.var());
        }
        let (lo, hi) = self.view_bounds(v);
        let z = self.aux_var(lo, hi, "the expression")?;
        self.post(Equal::new(z.into(), v))?;
        Ok(z)
    }
}
