//! Parameters and variables: each declaration names a value, makes a Bezzel variable, or
//! (`var int` without bounds) waits for its bounds; arrays must hold as many elements as their
//! index set says, and output annotations are noted for printing.

use crate::FznError;
use crate::builder::{Builder, Dom, Value, int_of, set_values};
use crate::output::{Output, output_array_dims};
use bezzel_core::VarId;
use flatzinc::{
    Annotation, ArrayOfBoolExpr, ArrayOfIntExpr, ConstraintItem, Expr, ParDeclItem, SetLiteral,
    VarDeclItem,
};

/// What a scalar declaration holds.
enum Kind {
    Bool,
    Int(Dom),
    Set(Vec<i64>),
}

/// An array's declared length, `n` of `array [1..n]`, against its elements.
fn check_length(id: &str, declared: i128, found: usize) -> Result<(), FznError> {
    if declared == found as i128 {
        Ok(())
    } else {
        Err(FznError::invalid(format!(
            "array `{id}` is declared with {declared} elements (`[1..{declared}]`) but is given {found}"
        )))
    }
}

/// The `bool2int(b, x)` of `constraints` between two named variables, as `x -> b`: the
/// candidates for one variable instead of two (see `Builder::bool2int_alias`). An `x` tied to
/// several Booleans keeps the first.
pub(crate) fn bool2int_pairs<'a>(
    constraints: impl IntoIterator<Item = &'a ConstraintItem>,
) -> std::collections::HashMap<String, String> {
    let mut pairs = std::collections::HashMap::new();
    for c in constraints {
        if let ("bool2int", [Expr::VarParIdentifier(b), Expr::VarParIdentifier(x)]) =
            (c.id.as_str(), c.exprs.as_slice())
        {
            pairs.entry(x.clone()).or_insert_with(|| b.clone());
        }
    }
    pairs
}

impl Builder {
    pub(crate) fn parameter(&mut self, p: ParDeclItem) -> Result<(), FznError> {
        let (id, value) = match p {
            ParDeclItem::Bool { id, bool } => (id, Value::Bool(bool)),
            ParDeclItem::Int { id, int } => {
                let v = int_of(int, &id)?;
                (id, Value::Int(v))
            }
            ParDeclItem::SetOfInt { id, set_literal } => {
                (id, Value::Set(set_values(&set_literal)?))
            }
            ParDeclItem::ArrayOfBool { id, v, ix } => {
                check_length(&id, ix.0, v.len())?;
                (id, Value::Array(v.into_iter().map(Value::Bool).collect()))
            }
            ParDeclItem::ArrayOfInt { id, v, ix } => {
                check_length(&id, ix.0, v.len())?;
                let v = v
                    .into_iter()
                    .map(|x| int_of(x, &id).map(Value::Int))
                    .collect::<Result<_, _>>()?;
                (id, Value::Array(v))
            }
            ParDeclItem::ArrayOfSet { id, v, ix } => {
                check_length(&id, ix.0, v.len())?;
                let v = v
                    .iter()
                    .map(|s| set_values(s).map(Value::Set))
                    .collect::<Result<_, _>>()?;
                (id, Value::Array(v))
            }
            ParDeclItem::Float { id, .. } | ParDeclItem::ArrayOfFloat { id, .. } => {
                return Err(FznError::unsupported(format!("float parameters (`{id}`)")));
            }
        };
        self.declare(id, value)
    }

    /// Names a value; a name declared twice is an error.
    fn declare(&mut self, id: String, value: Value) -> Result<(), FznError> {
        if self.env.contains_key(&id) {
            return Err(FznError::Redeclared { line: 0, name: id });
        }
        self.env.insert(id, value);
        Ok(())
    }

    fn new_set_var(&mut self, name: &str, values: &[i64]) -> Result<bezzel_core::VarId, FznError> {
        let v32: Vec<i32> = values
            .iter()
            .map(|&v| {
                i32::try_from(v)
                    .map_err(|_| FznError::invalid(format!("`{name}`: value {v} too large")))
            })
            .collect::<Result<_, _>>()?;
        let x = self
            .model
            .named_var(name, v32.as_slice())
            .map_err(|e| FznError::Model {
                line: 0,
                context: format!("`{name}`"),
                source: e,
            })?;
        let (lo, hi) = (values[0], values[values.len() - 1]);
        self.note(x, lo, hi, false);
        Ok(x)
    }

    /// The elements of an array of variables: a literal list, or another array's name.
    fn int_array(&self, id: &str, e: Option<ArrayOfIntExpr>) -> Result<Value, FznError> {
        match e {
            Some(ArrayOfIntExpr::Array(items)) => Ok(Value::Array(
                items
                    .iter()
                    .map(|b| self.int_expr(b))
                    .collect::<Result<_, _>>()?,
            )),
            Some(ArrayOfIntExpr::VarParIdentifier(name)) => self.lookup(&name),
            None => Err(FznError::invalid(format!("array `{id}` has no elements"))),
        }
    }

    pub(crate) fn variable(&mut self, v: VarDeclItem) -> Result<(), FznError> {
        // The element domain of an array of variables: a constant element outside it makes
        // the model unsatisfiable (the scalar case is below).
        let element_dom: Option<(i128, i128, Option<Vec<i128>>)> = match &v {
            VarDeclItem::ArrayOfIntInRange { lb, ub, .. } => Some((*lb, *ub, None)),
            VarDeclItem::ArrayOfIntInSet { set, .. } => Some((0, 0, Some(set.clone()))),
            _ => None,
        };
        let (id, kind, expr, annos, array) = match v {
            VarDeclItem::Bool { id, expr, annos } => {
                let e = expr.map(|e| self.bool_expr(&e)).transpose()?;
                (id, Kind::Bool, e, annos, None)
            }
            VarDeclItem::Int { id, expr, annos } => {
                let e = expr.map(|e| self.int_expr(&e)).transpose()?;
                (id, Kind::Int(Dom::Unbounded), e, annos, None)
            }
            VarDeclItem::IntInRange {
                id,
                lb,
                ub,
                expr,
                annos,
            } => {
                let e = expr.map(|e| self.int_expr(&e)).transpose()?;
                let dom = Dom::Range(int_of(lb, &id)?, int_of(ub, &id)?);
                (id, Kind::Int(dom), e, annos, None)
            }
            VarDeclItem::IntInSet {
                id,
                set,
                expr,
                annos,
            } => {
                let e = expr.map(|e| self.int_expr(&e)).transpose()?;
                let values = set_values(&SetLiteral::SetInts(set))?;
                (id, Kind::Set(values), e, annos, None)
            }
            VarDeclItem::ArrayOfBool {
                id,
                annos,
                array_expr,
                ix,
            } => {
                let e = match array_expr {
                    Some(ArrayOfBoolExpr::Array(items)) => Value::Array(
                        items
                            .iter()
                            .map(|b| self.bool_expr(b))
                            .collect::<Result<_, _>>()?,
                    ),
                    Some(ArrayOfBoolExpr::VarParIdentifier(name)) => self.lookup(&name)?,
                    None => return Err(FznError::invalid(format!("array `{id}` has no elements"))),
                };
                (id, Kind::Bool, None, annos, Some((ix.0, e)))
            }
            VarDeclItem::ArrayOfInt {
                id,
                annos,
                array_expr,
                ix,
            }
            | VarDeclItem::ArrayOfIntInRange {
                id,
                annos,
                array_expr,
                ix,
                ..
            }
            | VarDeclItem::ArrayOfIntInSet {
                id,
                annos,
                array_expr,
                ix,
                ..
            } => {
                let e = self.int_array(&id, array_expr)?;
                (id, Kind::Int(Dom::Unbounded), None, annos, Some((ix.0, e)))
            }
            VarDeclItem::Float { id, .. }
            | VarDeclItem::BoundedFloat { id, .. }
            | VarDeclItem::ArrayOfFloat { id, .. }
            | VarDeclItem::ArrayOfBoundedFloat { id, .. } => {
                return Err(FznError::unsupported(format!("float variables (`{id}`)")));
            }
            VarDeclItem::SetOfInt { id, .. }
            | VarDeclItem::SubSetOfIntSet { id, .. }
            | VarDeclItem::SubSetOfIntRange { id, .. }
            | VarDeclItem::ArrayOfSet { id, .. }
            | VarDeclItem::ArrayOfSubSetOfIntRange { id, .. }
            | VarDeclItem::ArrayOfSubSetOfIntSet { id, .. } => {
                return Err(FznError::unsupported(format!("set variables (`{id}`)")));
            }
        };
        let is_bool = matches!(kind, Kind::Bool);
        if let Some((declared, array)) = array {
            return self.array(id, declared, array, &annos, is_bool, element_dom);
        }
        let alias = match kind {
            Kind::Int(dom) if expr.is_none() => self.bool2int_alias(&id, dom),
            _ => None,
        };
        let value = if let Some(b) = alias {
            Value::Var(b)
        } else {
            self.scalar(&id, expr, kind)?
        };
        if annos.iter().any(|a| a.id == "output_var") {
            self.outputs
                .push(Output::scalar(id.clone(), is_bool, value.clone()));
        }
        self.declare(id, value)
    }

    /// The variable of a `var int` named `id` of domain `dom` that a `bool2int(b, id)` ties
    /// to a Boolean `b` declared before it: `b`'s own, when `dom` holds 0 and 1 (so that
    /// `b`'s domain is the pair's), which the `bool2int` then leaves alone. One variable
    /// instead of two and an equality between them, which the propagation of every change
    /// would copy over.
    fn bool2int_alias(&mut self, id: &str, dom: Dom) -> Option<VarId> {
        let b = self.bool2int.get(id)?;
        let Ok(Value::Var(b)) = self.lookup(b) else {
            return None;
        };
        let holds_both = match dom {
            Dom::Range(lo, hi) => lo <= 0 && hi >= 1,
            Dom::Unbounded => true,
        };
        if !self.is_bool(b) || !holds_both {
            return None;
        }
        self.int_aliases.insert(b);
        Some(b)
    }

    /// The value of a scalar declaration that is no `bool2int` alias: a constant, an alias
    /// (with the declared domain posted later when narrower), or a new variable.
    fn scalar(&mut self, id: &str, expr: Option<Value>, kind: Kind) -> Result<Value, FznError> {
        Ok(match (expr, kind) {
            (Some(Value::Int(c)), Kind::Int(Dom::Range(lo, hi))) if !(lo..=hi).contains(&c) => {
                self.contradiction = true;
                Value::Int(c)
            }
            (Some(Value::Int(c)), Kind::Set(values)) if !values.contains(&c) => {
                self.contradiction = true;
                Value::Int(c)
            }
            (Some(e), kind) => {
                // An alias or a constant; a declared domain narrower than the aliased
                // variable's is posted once all variables exist.
                match kind {
                    Kind::Int(Dom::Range(lo, hi)) if !matches!(e, Value::Int(_)) => {
                        self.restrictions
                            .push((e.clone(), Vec::new(), Dom::Range(lo, hi)));
                    }
                    Kind::Set(values) if !matches!(e, Value::Int(_)) => {
                        self.restrictions.push((e.clone(), values, Dom::Unbounded));
                    }
                    _ => {}
                }
                e
            }
            (None, Kind::Bool) => Value::Var(self.new_var(id, Dom::Range(0, 1), true)?),
            (None, Kind::Int(Dom::Unbounded)) => {
                self.pending.push((id.to_string(), None));
                Value::Pending(self.pending.len() - 1)
            }
            (None, Kind::Int(dom)) => Value::Var(self.new_var(id, dom, false)?),
            (None, Kind::Set(values)) => {
                if values.is_empty() {
                    return Err(FznError::invalid(format!("`{id}` has an empty domain")));
                }
                Value::Var(self.new_set_var(id, &values)?)
            }
        })
    }

    /// An array of variables: its length checked against its index set and its output
    /// dimensions, its constants against its element domain.
    fn array(
        &mut self,
        id: String,
        declared: i128,
        array: Value,
        annos: &[Annotation],
        is_bool: bool,
        element_dom: Option<(i128, i128, Option<Vec<i128>>)>,
    ) -> Result<(), FznError> {
        let Value::Array(items) = &array else {
            return Err(FznError::invalid(format!("`{id}` is not an array")));
        };
        check_length(&id, declared, items.len())?;
        let outside = |c: i64| match &element_dom {
            Some((_, _, Some(set))) => !set.contains(&i128::from(c)),
            Some((lo, hi, None)) => !(*lo..=*hi).contains(&i128::from(c)),
            None => false,
        };
        if items
            .iter()
            .any(|x| matches!(x, Value::Int(c) if outside(*c)))
        {
            self.contradiction = true;
        }
        if let Some(dims) = output_array_dims(annos)? {
            self.outputs
                .push(Output::array(id.clone(), dims, is_bool, items.clone())?);
        }
        self.declare(id, array)
    }
}
