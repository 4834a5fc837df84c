//! What a solution prints: the variables and arrays annotated `output_var` and
//! `output_array`, as `name = value;` lines in the FlatZinc specification's format
//! (`array2d(1..2, 1..4, [...])` for an array, Booleans as `true`/`false`).

use crate::FznError;
use crate::value::Value;
use bezzel_core::prelude::*;
use flatzinc::{AnnExpr, Annotation, Expr, IntExpr, SetExpr, SetLiteralExpr};

/// An output variable or array (`output_var`, `output_array` annotations).
#[derive(Debug, Clone)]
pub struct Output {
    /// Its FlatZinc name.
    pub name: String,
    /// The index ranges of an array; `None` for a scalar.
    pub dims: Option<Vec<(i64, i64)>>,
    /// Whether it is Boolean (printed `true`/`false`).
    pub is_bool: bool,
    values: Vec<Value>,
}

impl Output {
    /// A scalar output.
    pub(crate) fn scalar(name: String, is_bool: bool, value: Value) -> Output {
        Output {
            name,
            dims: None,
            is_bool,
            values: vec![value],
        }
    }

    /// An array output, whose index ranges must hold exactly its elements (else the printed
    /// array would be ill-formed).
    pub(crate) fn array(
        name: String,
        dims: Vec<(i64, i64)>,
        is_bool: bool,
        values: Vec<Value>,
    ) -> Result<Output, FznError> {
        let size = dims.iter().try_fold(1u128, |size, &(lo, hi)| {
            let width = u128::try_from(i128::from(hi) - i128::from(lo) + 1).unwrap_or(0);
            size.checked_mul(width)
        });
        if size != Some(values.len() as u128) {
            let ranges: Vec<String> = dims.iter().map(|(lo, hi)| format!("{lo}..{hi}")).collect();
            return Err(FznError::invalid(format!(
                "output_array([{}]) of `{name}` needs {} elements, but the array has {}",
                ranges.join(", "),
                size.map_or_else(|| "too many".to_string(), |s| s.to_string()),
                values.len()
            )));
        }
        Ok(Output {
            name,
            dims: Some(dims),
            is_bool,
            values,
        })
    }

    /// Replaces each value by `resolve(value)` (pending variables by the variables made).
    pub(crate) fn resolve(&mut self, resolve: impl Fn(Value) -> Value) {
        for v in &mut self.values {
            *v = resolve(v.clone());
        }
    }
}

/// A solution as FlatZinc prints it: one `name = value;` line per output, without the
/// `----------` separator.
pub(crate) fn format(outputs: &[Output], solution: &Solution) -> String {
    let show = |v: &Value, is_bool: bool| -> String {
        let n = match v {
            Value::Int(n) => *n,
            Value::Bool(b) => i64::from(*b),
            Value::Var(x) => i64::from(solution[*x]),
            _ => 0, // arrays of arrays and pending variables do not reach output
        };
        match (is_bool, n) {
            (true, 0) => "false".into(),
            (true, _) => "true".into(),
            (false, n) => n.to_string(),
        }
    };
    let mut out = String::new();
    for o in outputs {
        let items: Vec<String> = o.values.iter().map(|v| show(v, o.is_bool)).collect();
        match &o.dims {
            None => out.push_str(&format!("{} = {};\n", o.name, items.join(""))),
            Some(dims) => {
                let ranges: Vec<String> = dims
                    .iter()
                    .map(|(lo, hi)| format!("{lo}..{hi}, "))
                    .collect();
                out.push_str(&format!(
                    "{} = array{}d({}[{}]);\n",
                    o.name,
                    dims.len(),
                    ranges.concat(),
                    items.join(", ")
                ));
            }
        }
    }
    out
}

/// The index ranges of an `output_array` annotation, `None` without one.
pub(crate) fn output_array_dims(annos: &[Annotation]) -> Result<Option<Vec<(i64, i64)>>, FznError> {
    let Some(a) = annos.iter().find(|a| a.id == "output_array") else {
        return Ok(None);
    };
    let bad = || FznError::invalid("output_array: bad index set");
    let range = |s: &SetLiteralExpr| -> Option<(i64, i64)> {
        match s {
            SetLiteralExpr::IntInRange(IntExpr::Int(lo), IntExpr::Int(hi)) => {
                Some((i64::try_from(*lo).ok()?, i64::try_from(*hi).ok()?))
            }
            SetLiteralExpr::SetInts(v) if v.is_empty() => Some((1, 0)),
            _ => None,
        }
    };
    let mut dims = Vec::new();
    match a.expressions.first() {
        Some(AnnExpr::Expr(Expr::ArrayOfSet(sets))) => {
            for s in sets {
                match s {
                    SetExpr::Set(s) => dims.push(range(s).ok_or_else(bad)?),
                    SetExpr::VarParIdentifier(_) => {
                        return Err(FznError::unsupported("named index sets in output_array"));
                    }
                }
            }
        }
        Some(AnnExpr::Expr(Expr::Set(s))) => dims.push(range(s).ok_or_else(bad)?),
        _ => {
            return Err(FznError::invalid(
                "output_array: expected a list of index ranges",
            ));
        }
    }
    Ok(Some(dims))
}
