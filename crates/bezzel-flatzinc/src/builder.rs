//! The translation's state and its order of passes.
//!
//! [`Builder::build`] walks the statements: declarations make Bezzel variables (except
//! `var int` without bounds, which wait in `pending`: see `bounds`), constraints are kept;
//! then the bounds of the pending variables are inferred and they are made, the constraints
//! are posted through the builtin table (`builtins`), and the solve item gives the goal and
//! the branch groups (`search`). Constants in argument positions that need a variable become
//! fixed variables, one per value.

use crate::FznError;
use crate::output::Output;
pub(crate) use crate::value::Value;
use bezzel_core::prelude::*;
use bezzel_core::{MAX_DOMAIN_WIDTH, MAX_VALUE, MIN_VALUE};
use flatzinc::{BoolExpr, Expr, IntExpr, SetExpr, SetLiteral, SetLiteralExpr};
use std::collections::{HashMap, HashSet};

/// A declared domain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dom {
    Range(i64, i64),
    Unbounded,
}

/// A side of a pending variable's window: a bound implied by an inequality (or, with several
/// unknowns in it, its share of the inequality), so that the window holds the values the
/// constraint needs.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Hint {
    AtLeast(i64),
    AtMost(i64),
}

/// The model being built and the names, bounds and outputs met so far.
#[derive(Default)]
pub(crate) struct Builder {
    pub(crate) model: Model,
    pub(crate) env: HashMap<String, Value>,
    /// Bounds of every variable made so far, by index (kept here so that reading them does
    /// not copy a wide domain).
    pub(crate) bounds: Vec<(i64, i64)>,
    /// Unbounded variables: name, inferred bounds.
    pub(crate) pending: Vec<(String, Option<(i64, i64)>)>,
    pub(crate) made: Vec<VarId>,
    constants: HashMap<i64, VarId>,
    /// Whether each variable (by index) is a `var bool`.
    pub(crate) bools: Vec<bool>,
    /// Declared domains of aliases (`var 1..3: y = x;`), applied once every variable exists.
    pub(crate) restrictions: Vec<(Value, Vec<i64>, Dom)>,
    pub(crate) outputs: Vec<Output>,
    /// The consistency a constraint's annotation asks for (`:: domain`, `:: bounds`).
    pub(crate) consistency: Consistency,
    /// Where to put the window of a pending variable whose bounds were not found, by index
    /// into `pending`.
    pub(crate) hints: HashMap<usize, Hint>,
    /// The windows assumed for unbounded variables, as `Program::assumptions` says them.
    pub(crate) assumptions: Vec<String>,
    /// A variable declared equal to a constant outside its domain: no solution.
    pub(crate) contradiction: bool,
    /// The variables made with an assumed window.
    pub(crate) assumed_vars: Vec<VarId>,
    /// For each `var int` named by a `bool2int(b, x)` as `x`: the name of `b`, so that `x`
    /// becomes `b`'s variable when it is declared (see `declarations`).
    pub(crate) bool2int: HashMap<String, String>,
    /// The Booleans that stand for a 0/1 integer too (one variable for both, by `bool2int`):
    /// integer arguments accept them.
    pub(crate) int_aliases: HashSet<VarId>,
}

/// The integer of a FlatZinc literal, which the parser reads as `i128`.
pub(crate) fn int_of(x: i128, what: &str) -> Result<i64, FznError> {
    i64::try_from(x).map_err(|_| FznError::invalid(format!("{what}: the integer {x} is too large")))
}

/// A FlatZinc integer (read as `i64`) as the `i32` that Bezzel's models take for every
/// value, or an [`Invalid`](FznError::Invalid) error that names it: never a wrapped value.
pub(crate) fn int32(x: i64, what: &str) -> Result<i32, FznError> {
    i32::try_from(x).map_err(|_| {
        FznError::invalid(format!(
            "{what}: the integer {x} is outside {}..={}, the values Bezzel's models take",
            i32::MIN,
            i32::MAX
        ))
    })
}

/// [`int32`] of every integer of `xs`.
pub(crate) fn ints32(xs: &[i64], what: &str) -> Result<Vec<i32>, FznError> {
    xs.iter().map(|&x| int32(x, what)).collect()
}

/// The values of a constant set that fit an `i32`: the only ones a view of a model can take,
/// so membership in them is membership in the whole set.
pub(crate) fn set32(values: &[i64]) -> Vec<i32> {
    values
        .iter()
        .filter_map(|&v| i32::try_from(v).ok())
        .collect()
}

/// The values of a constant set, sorted, without repeats.
pub(crate) fn set_values(s: &SetLiteral) -> Result<Vec<i64>, FznError> {
    match s {
        SetLiteral::IntRange(lo, hi) => range_values(int_of(*lo, "set")?, int_of(*hi, "set")?),
        SetLiteral::SetInts(v) => {
            let mut v = v
                .iter()
                .map(|&x| int_of(x, "set"))
                .collect::<Result<Vec<_>, _>>()?;
            v.sort_unstable();
            v.dedup();
            Ok(v)
        }
        _ => Err(FznError::unsupported("float sets")),
    }
}

/// `lo..hi` as values, refused when wider than a Bezzel domain may be.
fn range_values(lo: i64, hi: i64) -> Result<Vec<i64>, FznError> {
    if hi.saturating_sub(lo) > MAX_DOMAIN_WIDTH as i64 {
        return Err(FznError::invalid(format!(
            "the set {lo}..{hi} is too large"
        )));
    }
    Ok((lo..=hi).collect())
}

impl Builder {
    /// Makes the `var int` variables declared without bounds, in the bounds inferred for
    /// them or in an assumed window.
    pub(crate) fn make_pending(&mut self) -> Result<(), FznError> {
        let mut infeasible = false;
        for k in 0..self.pending.len() {
            let (name, bounds) = self.pending[k].clone();
            let (lo, hi) = match bounds {
                // Inferred bounds that cross: the defining constraint cannot hold.
                Some((lo, hi)) if lo > hi => {
                    infeasible = true;
                    (lo, lo)
                }
                Some(b) => b,
                None => {
                    // An assumed window: around a one-sided bound (or a hint from an
                    // inequality), else around 0. Answers found in it are not claimed
                    // complete (see `Program::assumptions`).
                    const WIDTH: i64 = 1 << 21;
                    let (lo, hi) = match self.hints.get(&k) {
                        Some(&Hint::AtLeast(l)) => (l, l.saturating_add(WIDTH)),
                        Some(&Hint::AtMost(h)) => (h.saturating_sub(WIDTH), h),
                        None => (-WIDTH / 2, WIDTH / 2),
                    };
                    let (min, max) = (i64::from(MIN_VALUE), i64::from(MAX_VALUE));
                    let (lo, hi) = if lo < min {
                        (min, min + WIDTH)
                    } else if hi > max {
                        (max - WIDTH, max)
                    } else {
                        (lo, hi)
                    };
                    self.assumptions.push(format!("`{name}` in {lo}..{hi}"));
                    (lo, hi)
                }
            };
            if (hi - lo) as u64 >= MAX_DOMAIN_WIDTH
                || lo < i64::from(MIN_VALUE)
                || hi > i64::from(MAX_VALUE)
            {
                return Err(FznError::invalid(format!(
                    "`{name}` (declared `var int`) may take the values {lo}..{hi}: too wide for \
                     a Bezzel domain (at most {MAX_DOMAIN_WIDTH} values)"
                )));
            }
            let x = self.new_var(&name, Dom::Range(lo, hi), false)?;
            if bounds.is_none() {
                self.assumed_vars.push(x);
            }
            self.made.push(x);
        }
        if infeasible || self.contradiction {
            self.fail()?;
        }
        Ok(())
    }

    // ----- variables -----

    pub(crate) fn new_var(
        &mut self,
        name: &str,
        dom: Dom,
        is_bool: bool,
    ) -> Result<VarId, FznError> {
        let Dom::Range(lo, hi) = dom else {
            unreachable!("unbounded variables are pending")
        };
        let x = self
            .model
            .named_var(name, lo..=hi)
            .map_err(|e| FznError::Model {
                line: 0,
                context: format!("`{name}`"),
                source: e,
            })?;
        self.note(x, lo, hi, is_bool);
        Ok(x)
    }

    /// Records a new variable's bounds and whether it is a Boolean.
    pub(crate) fn note(&mut self, x: VarId, lo: i64, hi: i64, is_bool: bool) {
        let i = x.index();
        if self.bounds.len() <= i {
            self.bounds.resize(i + 1, (0, 0));
            self.bools.resize(i + 1, false);
        }
        self.bounds[i] = (lo, hi);
        self.bools[i] = is_bool;
    }

    /// A fresh `var bool` without a name.
    pub(crate) fn new_bool(&mut self) -> Result<IntView, FznError> {
        let c = self.model.int_var(0..=1)?;
        self.note(c, 0, 1, true);
        Ok(c.into())
    }

    /// Whether the variable is a `var bool`.
    pub(crate) fn is_bool(&self, x: VarId) -> bool {
        self.bools.get(x.index()).copied().unwrap_or(false)
    }

    /// Whether the variable may stand where a `var int` is expected: not a Boolean, or a
    /// Boolean that a `bool2int` made an integer too.
    pub(crate) fn is_int(&self, x: VarId) -> bool {
        !self.is_bool(x) || self.int_aliases.contains(&x)
    }

    /// The fixed variable of a constant (one per value).
    pub(crate) fn constant(&mut self, c: i64) -> Result<VarId, FznError> {
        if let Some(&x) = self.constants.get(&c) {
            return Ok(x);
        }
        let x = self.new_var(&format!("_const{c}"), Dom::Range(c, c), false)?;
        self.constants.insert(c, x);
        Ok(x)
    }

    /// Posts a constraint that cannot hold.
    pub(crate) fn fail(&mut self) -> Result<(), FznError> {
        let (zero, one) = (self.constant(0)?, self.constant(1)?);
        self.model.equal(zero, one)?;
        Ok(())
    }

    // ----- expressions -----

    pub(crate) fn lookup(&self, name: &str) -> Result<Value, FznError> {
        self.env
            .get(name)
            .cloned()
            .ok_or_else(|| FznError::UnknownIdentifier {
                line: 0,
                name: name.into(),
            })
    }

    pub(crate) fn int_expr(&self, e: &IntExpr) -> Result<Value, FznError> {
        match e {
            IntExpr::Int(n) => Ok(Value::Int(int_of(*n, "literal")?)),
            IntExpr::VarParIdentifier(name) => self.lookup(name),
        }
    }

    pub(crate) fn bool_expr(&self, e: &BoolExpr) -> Result<Value, FznError> {
        match e {
            BoolExpr::Bool(b) => Ok(Value::Bool(*b)),
            BoolExpr::VarParIdentifier(name) => self.lookup(name),
        }
    }

    fn set_expr(&self, e: &SetExpr) -> Result<Value, FznError> {
        match e {
            SetExpr::VarParIdentifier(name) => self.lookup(name),
            SetExpr::Set(s) => self.set_literal_expr(s),
        }
    }

    fn set_literal_expr(&self, s: &SetLiteralExpr) -> Result<Value, FznError> {
        let int = |e: &IntExpr| -> Result<i64, FznError> {
            match self.int_expr(e)? {
                Value::Int(n) => Ok(n),
                _ => Err(FznError::invalid("a set literal of variables")),
            }
        };
        match s {
            SetLiteralExpr::IntInRange(lo, hi) => Ok(Value::Set(range_values(int(lo)?, int(hi)?)?)),
            SetLiteralExpr::SetInts(v) => {
                let mut v = v.iter().map(int).collect::<Result<Vec<_>, _>>()?;
                v.sort_unstable();
                v.dedup();
                Ok(Value::Set(v))
            }
            _ => Err(FznError::unsupported("float sets")),
        }
    }

    pub(crate) fn expr(&self, e: &Expr) -> Result<Value, FznError> {
        Ok(match e {
            Expr::VarParIdentifier(name) => self.lookup(name)?,
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Int(n) => Value::Int(int_of(*n, "literal")?),
            Expr::Set(s) => self.set_literal_expr(s)?,
            Expr::ArrayOfBool(v) => Value::Array(
                v.iter()
                    .map(|b| self.bool_expr(b))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::ArrayOfInt(v) => Value::Array(
                v.iter()
                    .map(|b| self.int_expr(b))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::ArrayOfSet(v) => Value::Array(
                v.iter()
                    .map(|b| self.set_expr(b))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::Float(_) | Expr::ArrayOfFloat(_) => {
                return Err(FznError::unsupported("float arguments"));
            }
        })
    }

    /// The value with its pending variables replaced by the variables made for them.
    pub(crate) fn resolve(&self, v: Value) -> Value {
        match v {
            Value::Pending(k) => Value::Var(self.made[k]),
            Value::Array(items) => {
                Value::Array(items.into_iter().map(|v| self.resolve(v)).collect())
            }
            v => v,
        }
    }

    // ----- arguments (their types were checked against the builtin's signature) -----

    /// An integer or Boolean argument as a view (a constant as a fixed variable).
    pub(crate) fn view(&mut self, v: &Value) -> Result<IntView, FznError> {
        match self.resolve(v.clone()) {
            Value::Int(c) => Ok(self.constant(c)?.into()),
            Value::Bool(b) => Ok(self.constant(i64::from(b))?.into()),
            Value::Var(x) => Ok(x.into()),
            _ => Err(FznError::invalid("expected an integer or a Boolean")),
        }
    }

    /// An array argument as views.
    pub(crate) fn views(&mut self, v: &Value) -> Result<Vec<IntView>, FznError> {
        match v {
            Value::Array(items) => items.iter().map(|x| self.view(x)).collect(),
            _ => Err(FznError::invalid("expected an array")),
        }
    }

    /// A constant argument (a Boolean as 0 or 1).
    pub(crate) fn par(&self, v: &Value) -> Result<i64, FznError> {
        match v {
            Value::Int(c) => Ok(*c),
            Value::Bool(b) => Ok(i64::from(*b)),
            _ => Err(FznError::invalid("expected a constant")),
        }
    }

    /// An array of constants.
    pub(crate) fn pars(&self, v: &Value) -> Result<Vec<i64>, FznError> {
        match v {
            Value::Array(items) => items.iter().map(|x| self.par(x)).collect(),
            _ => Err(FznError::invalid("expected an array of constants")),
        }
    }

    /// A constant set.
    pub(crate) fn set(&self, v: &Value) -> Result<Vec<i64>, FznError> {
        match v {
            Value::Set(s) => Ok(s.clone()),
            _ => Err(FznError::invalid("expected a constant set")),
        }
    }

    /// Bounds of a value, if known yet.
    pub(crate) fn interval(&self, v: &Value) -> Option<(i64, i64)> {
        match v {
            Value::Int(c) => Some((*c, *c)),
            Value::Bool(b) => Some((i64::from(*b), i64::from(*b))),
            Value::Var(x) => Some(self.bounds[x.index()]),
            Value::Pending(k) => self.pending[*k].1,
            _ => None,
        }
    }

    /// The smallest interval holding every element of an array, if all are known.
    pub(crate) fn hull(&self, v: &Value) -> Option<(i64, i64)> {
        let Value::Array(items) = v else { return None };
        let mut out: Option<(i64, i64)> = None;
        for i in items {
            let (lo, hi) = self.interval(i)?;
            out = Some(out.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
        }
        out
    }
}
