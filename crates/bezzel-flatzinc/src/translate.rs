//! From FlatZinc text to a Bezzel model.
//!
//! The statements are read first, then translated in two passes: declarations make Bezzel
//! variables, except those declared `var int` without bounds, which Bezzel's bitset domains
//! cannot hold; their bounds are inferred from the constraints that define them (a linear
//! equation, a product, an element...) by interval arithmetic, repeated until nothing
//! changes, before the constraints are posted. Constants in argument positions that need a
//! variable become fixed variables, one per value.

use bezzel_core::prelude::*;
use bezzel_core::search::BranchGroup;
use bezzel_core::{Dfa, MAX_DOMAIN_WIDTH, MAX_VALUE, MIN_VALUE};
use flatzinc::{
    AnnExpr, Annotation, ArrayOfBoolExpr, ArrayOfIntExpr, BoolExpr, ConstraintItem, Expr, IntExpr,
    OptimizationType, ParDeclItem, SetExpr, SetLiteral, SetLiteralExpr, Stmt, VarDeclItem,
};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// A FlatZinc input Bezzel cannot run: a syntax error, an unsupported feature or builtin, or
/// a model Bezzel refuses (a domain too wide). The message names the culprit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FznError(pub String);

impl fmt::Display for FznError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FznError {}

impl From<ModelError> for FznError {
    fn from(e: ModelError) -> FznError {
        FznError(e.to_string())
    }
}

fn err<T>(message: impl Into<String>) -> Result<T, FznError> {
    Err(FznError(message.into()))
}

/// The builtins and globals this front end translates (FlatZinc names).
pub const SUPPORTED: &[&str] = &[
    "int_eq",
    "int_ne",
    "int_le",
    "int_lt",
    "int_eq_reif",
    "int_ne_reif",
    "int_le_reif",
    "int_lt_reif",
    "int_eq_imp",
    "int_ne_imp",
    "int_le_imp",
    "int_lt_imp",
    "int_lin_eq",
    "int_lin_ne",
    "int_lin_le",
    "int_lin_eq_reif",
    "int_lin_ne_reif",
    "int_lin_le_reif",
    "int_lin_eq_imp",
    "int_lin_ne_imp",
    "int_lin_le_imp",
    "int_plus",
    "int_times",
    "int_div",
    "int_mod",
    "int_abs",
    "int_min",
    "int_max",
    "array_int_maximum",
    "array_int_minimum",
    "array_int_element",
    "array_bool_element",
    "array_var_int_element",
    "array_var_bool_element",
    "bool2int",
    "bool_eq",
    "bool_not",
    "bool_le",
    "bool_lt",
    "bool_eq_reif",
    "bool_le_reif",
    "bool_lt_reif",
    "bool_eq_imp",
    "bool_le_imp",
    "bool_lt_imp",
    "bool_and",
    "bool_or",
    "bool_xor",
    "bool_and_imp",
    "bool_or_imp",
    "bool_xor_imp",
    "bool_clause",
    "bool_clause_reif",
    "bool_clause_imp",
    "array_bool_and",
    "array_bool_or",
    "array_bool_xor",
    "array_bool_and_imp",
    "array_bool_or_imp",
    "bool_lin_eq",
    "bool_lin_ne",
    "bool_lin_le",
    "bool_lin_lt",
    "bool_lin_ge",
    "bool_lin_gt",
    "set_in",
    "set_in_reif",
    "set_in_imp",
    "fzn_all_different_int",
    "fzn_table_int",
    "fzn_table_bool",
    "fzn_regular",
    "bezzel_circuit",
    "bezzel_subcircuit",
    "bezzel_inverse",
    "fzn_global_cardinality",
    "bezzel_count",
    "fzn_among",
    "fzn_lex_less_int",
    "fzn_lex_lesseq_int",
    "fzn_lex_less_bool",
    "fzn_lex_lesseq_bool",
    "fzn_value_precede_int",
];

/// A resolved argument or declaration.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Int(i64),
    Bool(bool),
    Set(Vec<i64>),
    Var(VarId),
    /// A `var int` declared without bounds, made once its bounds are known (index into
    /// `Builder::pending`).
    Pending(usize),
    Array(Vec<Value>),
}

/// What a solve item asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// Any solution.
    Satisfy,
    /// The smallest value of the view.
    Minimize(IntView),
    /// The largest value of the view.
    Maximize(IntView),
}

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

/// A translated FlatZinc model: the Bezzel model, what to print, the goal and the search
/// annotations (as branch groups).
#[derive(Debug)]
pub struct Program {
    /// The model.
    pub model: Model,
    /// What a solution prints, in order.
    pub outputs: Vec<Output>,
    /// Satisfy, minimize or maximize.
    pub goal: Goal,
    /// The solve item's search annotations, in order; empty when it has none.
    pub groups: Vec<BranchGroup>,
    /// The scale of a `restart_luby(scale)` annotation (Bezzel restarts on the Luby sequence
    /// only, and only when searching for one solution).
    pub restart_scale: Option<u64>,
}

impl Program {
    /// A solution as FlatZinc prints it: one `name = value;` line per output, without the
    /// `----------` separator.
    pub fn format(&self, solution: &Solution) -> String {
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
        for o in &self.outputs {
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
}

/// Reads FlatZinc text and translates it into a [`Program`].
pub fn parse(text: &str) -> Result<Program, FznError> {
    let mut statements = Vec::new();
    let mut pending = String::new();
    let mut first_line = 1;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        // Predicate declarations only name the globals used; the parser does not know the
        // two-dimensional array types some of them have, and they carry nothing to translate.
        if pending.is_empty()
            && (trimmed.is_empty() || trimmed.starts_with('%') || trimmed.starts_with("predicate "))
        {
            continue;
        }
        if pending.is_empty() {
            first_line = i + 1;
        }
        pending.push_str(line);
        pending.push('\n');
        // MiniZinc writes one statement a line; a statement may still span lines elsewhere.
        if trimmed.ends_with(';') {
            let stmt = Stmt::from_str(&pending).map_err(|e| {
                // The parser does not know every type; name what Bezzel lacks anyway.
                if pending.contains("var set of") {
                    FznError(format!(
                        "set variables are not supported (line {first_line})"
                    ))
                } else if pending.contains("float") {
                    FznError(format!("floats are not supported (line {first_line})"))
                } else {
                    FznError(format!("syntax error on line {first_line}: {e}"))
                }
            })?;
            statements.push(stmt);
            pending.clear();
        }
    }
    if !pending.trim().is_empty() {
        return err(format!(
            "syntax error on line {first_line}: a statement without `;`"
        ));
    }
    Builder::default().build(statements)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dom {
    Range(i64, i64),
    Unbounded,
}

#[derive(Default)]
struct Builder {
    model: Model,
    env: HashMap<String, Value>,
    /// Bounds of every variable made so far, by index (kept here so that reading them does
    /// not copy a wide domain).
    bounds: Vec<(i64, i64)>,
    /// Unbounded variables: name, inferred bounds.
    pending: Vec<(String, Option<(i64, i64)>)>,
    made: Vec<VarId>,
    constants: HashMap<i64, VarId>,
    bools: Vec<bool>,
    /// Declared domains of aliases (`var 1..3: y = x;`), applied once every variable exists.
    restrictions: Vec<(Value, Vec<i64>, Dom)>,
    outputs: Vec<Output>,
    /// The consistency a constraint's annotation asks for (`:: domain`, `:: bounds`).
    consistency: Consistency,
}

fn int_of(x: i128, what: &str) -> Result<i64, FznError> {
    i64::try_from(x).map_err(|_| FznError(format!("{what}: the integer {x} is too large")))
}

fn set_values(s: &SetLiteral) -> Result<Vec<i64>, FznError> {
    match s {
        SetLiteral::IntRange(lo, hi) => {
            let (lo, hi) = (int_of(*lo, "set")?, int_of(*hi, "set")?);
            if hi.saturating_sub(lo) > MAX_DOMAIN_WIDTH as i64 {
                return err(format!("the set {lo}..{hi} is too large"));
            }
            Ok((lo..=hi).collect())
        }
        SetLiteral::SetInts(v) => {
            let mut v = v
                .iter()
                .map(|&x| int_of(x, "set"))
                .collect::<Result<Vec<_>, _>>()?;
            v.sort_unstable();
            v.dedup();
            Ok(v)
        }
        _ => err("float sets are not supported"),
    }
}

impl Builder {
    fn build(mut self, statements: Vec<Stmt>) -> Result<Program, FznError> {
        let mut constraints = Vec::new();
        let mut solve = None;
        for stmt in statements {
            match stmt {
                Stmt::Comment(_) | Stmt::Predicate(_) => {}
                Stmt::Parameter(p) => self.parameter(p)?,
                Stmt::Variable(v) => self.variable(v)?,
                Stmt::Constraint(c) => constraints.push(c),
                Stmt::SolveItem(s) => solve = Some(s),
            }
        }
        let Some(solve) = solve else {
            return err("the FlatZinc has no solve item");
        };
        self.infer_bounds(&constraints)?;
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
                    let (lo, hi) = (-(1 << 20), 1 << 20);
                    eprintln!("% fzn-bezzel: no bounds found for `{name}`; assuming {lo}..{hi}");
                    (lo, hi)
                }
            };
            if (hi - lo) as u64 >= MAX_DOMAIN_WIDTH
                || lo < i64::from(MIN_VALUE)
                || hi > i64::from(MAX_VALUE)
            {
                return err(format!(
                    "`{name}` (declared `var int`) may take the values {lo}..{hi}: too wide for \
                     a Bezzel domain (at most {MAX_DOMAIN_WIDTH} values)"
                ));
            }
            let x = self.new_var(&name, Dom::Range(lo, hi), false)?;
            self.made.push(x);
        }
        if infeasible {
            let (zero, one) = (self.constant(0)?, self.constant(1)?);
            self.model.equal(zero, one)?;
        }
        for (v, values, dom) in std::mem::take(&mut self.restrictions) {
            let x = self.view(&v, "alias")?;
            match dom {
                Dom::Range(lo, hi) => {
                    self.model.linear(&[1], &[x], Relation::Ge, lo)?;
                    self.model.linear(&[1], &[x], Relation::Le, hi)?;
                }
                Dom::Unbounded => {
                    let one = self.constant(1)?;
                    self.model.among(&[x], &values, one)?;
                }
            }
        }
        for c in &constraints {
            self.constraint(c)?;
        }
        let goal = match &solve.goal {
            flatzinc::Goal::Satisfy => Goal::Satisfy,
            flatzinc::Goal::OptimizeInt(kind, e) => {
                let v = self.int_expr(e)?;
                let v = self.view(&v, "objective")?;
                match kind {
                    OptimizationType::Minimize => Goal::Minimize(v),
                    OptimizationType::Maximize => Goal::Maximize(v),
                }
            }
            flatzinc::Goal::OptimizeBool(kind, e) => {
                let v = self.bool_expr(e)?;
                let v = self.view(&v, "objective")?;
                match kind {
                    OptimizationType::Minimize => Goal::Minimize(v),
                    OptimizationType::Maximize => Goal::Maximize(v),
                }
            }
            _ => return err("float and set objectives are not supported"),
        };
        let mut groups = Vec::new();
        let mut restart_scale = None;
        for a in &solve.annotations {
            if a.id == "restart_luby"
                && let Some(AnnExpr::Expr(Expr::Int(scale))) = a.expressions.first()
            {
                restart_scale = u64::try_from(*scale).ok();
            }
            self.search_annotation(a, &mut groups)?;
        }
        let mut outputs = std::mem::take(&mut self.outputs);
        for o in &mut outputs {
            for v in &mut o.values {
                *v = self.resolve(v.clone());
            }
        }
        Ok(Program {
            model: self.model,
            outputs,
            goal,
            groups,
            restart_scale,
        })
    }

    // ----- declarations -----

    fn parameter(&mut self, p: ParDeclItem) -> Result<(), FznError> {
        let (id, value) = match p {
            ParDeclItem::Bool { id, bool } => (id, Value::Bool(bool)),
            ParDeclItem::Int { id, int } => {
                let v = int_of(int, &id)?;
                (id, Value::Int(v))
            }
            ParDeclItem::SetOfInt { id, set_literal } => {
                (id, Value::Set(set_values(&set_literal)?))
            }
            ParDeclItem::ArrayOfBool { id, v, .. } => {
                (id, Value::Array(v.into_iter().map(Value::Bool).collect()))
            }
            ParDeclItem::ArrayOfInt { id, v, .. } => {
                let v = v
                    .into_iter()
                    .map(|x| int_of(x, &id).map(Value::Int))
                    .collect::<Result<_, _>>()?;
                (id, Value::Array(v))
            }
            ParDeclItem::ArrayOfSet { id, v, .. } => {
                let v = v
                    .iter()
                    .map(|s| set_values(s).map(Value::Set))
                    .collect::<Result<_, _>>()?;
                (id, Value::Array(v))
            }
            ParDeclItem::Float { id, .. } | ParDeclItem::ArrayOfFloat { id, .. } => {
                return err(format!("float parameters are not supported (`{id}`)"));
            }
        };
        self.env.insert(id, value);
        Ok(())
    }

    fn new_var(&mut self, name: &str, dom: Dom, is_bool: bool) -> Result<VarId, FznError> {
        let Dom::Range(lo, hi) = dom else {
            unreachable!("unbounded variables are pending")
        };
        let x = self
            .model
            .named_var(name, lo..=hi)
            .map_err(|e| FznError(format!("`{name}`: {e}")))?;
        self.note(x, lo, hi, is_bool);
        Ok(x)
    }

    fn note(&mut self, x: VarId, lo: i64, hi: i64, is_bool: bool) {
        let i = x.index();
        if self.bounds.len() <= i {
            self.bounds.resize(i + 1, (0, 0));
            self.bools.resize(i + 1, false);
        }
        self.bounds[i] = (lo, hi);
        self.bools[i] = is_bool;
    }

    fn new_set_var(&mut self, name: &str, values: &[i64]) -> Result<VarId, FznError> {
        let v32: Vec<i32> = values
            .iter()
            .map(|&v| {
                i32::try_from(v).map_err(|_| FznError(format!("`{name}`: value {v} too large")))
            })
            .collect::<Result<_, _>>()?;
        let x = self
            .model
            .named_var(name, v32.as_slice())
            .map_err(|e| FznError(format!("`{name}`: {e}")))?;
        let (lo, hi) = (values[0], values[values.len() - 1]);
        self.note(x, lo, hi, false);
        Ok(x)
    }

    fn variable(&mut self, v: VarDeclItem) -> Result<(), FznError> {
        enum Kind {
            Bool,
            Int(Dom),
            Set(Vec<i64>),
        }
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
                ..
            } => {
                let e = match array_expr {
                    Some(ArrayOfBoolExpr::Array(items)) => Value::Array(
                        items
                            .iter()
                            .map(|b| self.bool_expr(b))
                            .collect::<Result<_, _>>()?,
                    ),
                    Some(ArrayOfBoolExpr::VarParIdentifier(name)) => self.lookup(&name)?,
                    None => return err(format!("array `{id}` has no elements")),
                };
                (id, Kind::Bool, None, annos, Some(e))
            }
            VarDeclItem::ArrayOfInt {
                id,
                annos,
                array_expr,
                ..
            }
            | VarDeclItem::ArrayOfIntInRange {
                id,
                annos,
                array_expr,
                ..
            }
            | VarDeclItem::ArrayOfIntInSet {
                id,
                annos,
                array_expr,
                ..
            } => {
                let e = match array_expr {
                    Some(ArrayOfIntExpr::Array(items)) => Value::Array(
                        items
                            .iter()
                            .map(|b| self.int_expr(b))
                            .collect::<Result<_, _>>()?,
                    ),
                    Some(ArrayOfIntExpr::VarParIdentifier(name)) => self.lookup(&name)?,
                    None => return err(format!("array `{id}` has no elements")),
                };
                (id, Kind::Int(Dom::Unbounded), None, annos, Some(e))
            }
            VarDeclItem::Float { id, .. }
            | VarDeclItem::BoundedFloat { id, .. }
            | VarDeclItem::ArrayOfFloat { id, .. }
            | VarDeclItem::ArrayOfBoundedFloat { id, .. } => {
                return err(format!("float variables are not supported (`{id}`)"));
            }
            VarDeclItem::SetOfInt { id, .. }
            | VarDeclItem::SubSetOfIntSet { id, .. }
            | VarDeclItem::SubSetOfIntRange { id, .. }
            | VarDeclItem::ArrayOfSet { id, .. }
            | VarDeclItem::ArrayOfSubSetOfIntRange { id, .. }
            | VarDeclItem::ArrayOfSubSetOfIntSet { id, .. } => {
                return err(format!("set variables are not supported (`{id}`)"));
            }
        };
        let is_bool = matches!(kind, Kind::Bool);
        if let Some(array) = array {
            if let Some(dims) = output_array_dims(&annos)? {
                let Value::Array(values) = array.clone() else {
                    unreachable!()
                };
                self.outputs.push(Output {
                    name: id.clone(),
                    dims: Some(dims),
                    is_bool,
                    values,
                });
            }
            self.env.insert(id, array);
            return Ok(());
        }
        let value = match (expr, kind) {
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
            (None, Kind::Bool) => Value::Var(self.new_var(&id, Dom::Range(0, 1), true)?),
            (None, Kind::Int(Dom::Unbounded)) => {
                self.pending.push((id.clone(), None));
                Value::Pending(self.pending.len() - 1)
            }
            (None, Kind::Int(dom)) => Value::Var(self.new_var(&id, dom, false)?),
            (None, Kind::Set(values)) => {
                if values.is_empty() {
                    return err(format!("`{id}` has an empty domain"));
                }
                Value::Var(self.new_set_var(&id, &values)?)
            }
        };
        if annos.iter().any(|a| a.id == "output_var") {
            self.outputs.push(Output {
                name: id.clone(),
                dims: None,
                is_bool,
                values: vec![value.clone()],
            });
        }
        self.env.insert(id, value);
        Ok(())
    }

    // ----- expressions -----

    fn lookup(&self, name: &str) -> Result<Value, FznError> {
        self.env
            .get(name)
            .cloned()
            .ok_or_else(|| FznError(format!("unknown identifier `{name}`")))
    }

    fn int_expr(&self, e: &IntExpr) -> Result<Value, FznError> {
        match e {
            IntExpr::Int(n) => Ok(Value::Int(int_of(*n, "literal")?)),
            IntExpr::VarParIdentifier(name) => self.lookup(name),
        }
    }

    fn bool_expr(&self, e: &BoolExpr) -> Result<Value, FznError> {
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
                _ => err("a set literal of variables"),
            }
        };
        match s {
            SetLiteralExpr::IntInRange(lo, hi) => {
                let (lo, hi) = (int(lo)?, int(hi)?);
                if hi.saturating_sub(lo) > MAX_DOMAIN_WIDTH as i64 {
                    return err(format!("the set {lo}..{hi} is too large"));
                }
                Ok(Value::Set((lo..=hi).collect()))
            }
            SetLiteralExpr::SetInts(v) => {
                let mut v = v.iter().map(int).collect::<Result<Vec<_>, _>>()?;
                v.sort_unstable();
                v.dedup();
                Ok(Value::Set(v))
            }
            _ => err("float sets are not supported"),
        }
    }

    fn expr(&self, e: &Expr) -> Result<Value, FznError> {
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
                return err("float arguments are not supported");
            }
        })
    }

    fn resolve(&self, v: Value) -> Value {
        match v {
            Value::Pending(k) => Value::Var(self.made[k]),
            Value::Array(items) => {
                Value::Array(items.into_iter().map(|v| self.resolve(v)).collect())
            }
            v => v,
        }
    }

    fn constant(&mut self, c: i64) -> Result<VarId, FznError> {
        if let Some(&x) = self.constants.get(&c) {
            return Ok(x);
        }
        let x = self.new_var(&format!("_const{c}"), Dom::Range(c, c), false)?;
        self.constants.insert(c, x);
        Ok(x)
    }

    fn view(&mut self, v: &Value, what: &str) -> Result<IntView, FznError> {
        match self.resolve(v.clone()) {
            Value::Int(c) => Ok(self.constant(c)?.into()),
            Value::Bool(b) => Ok(self.constant(i64::from(b))?.into()),
            Value::Var(x) => Ok(x.into()),
            _ => err(format!("{what}: expected an integer or a Boolean")),
        }
    }

    fn views(&mut self, v: &Value, what: &str) -> Result<Vec<IntView>, FznError> {
        match v {
            Value::Array(items) => items.iter().map(|x| self.view(x, what)).collect(),
            _ => err(format!("{what}: expected an array")),
        }
    }

    fn par(&self, v: &Value, what: &str) -> Result<i64, FznError> {
        match v {
            Value::Int(c) => Ok(*c),
            Value::Bool(b) => Ok(i64::from(*b)),
            _ => err(format!("{what}: expected a constant")),
        }
    }

    fn pars(&self, v: &Value, what: &str) -> Result<Vec<i64>, FznError> {
        match v {
            Value::Array(items) => items.iter().map(|x| self.par(x, what)).collect(),
            _ => err(format!("{what}: expected an array of constants")),
        }
    }

    fn set(&self, v: &Value, what: &str) -> Result<Vec<i64>, FznError> {
        match v {
            Value::Set(s) => Ok(s.clone()),
            _ => err(format!("{what}: expected a constant set")),
        }
    }

    /// Bounds of a value, if known yet.
    fn interval(&self, v: &Value) -> Option<(i64, i64)> {
        match v {
            Value::Int(c) => Some((*c, *c)),
            Value::Bool(b) => Some((i64::from(*b), i64::from(*b))),
            Value::Var(x) => Some(self.bounds[x.index()]),
            Value::Pending(k) => self.pending[*k].1,
            _ => None,
        }
    }

    fn hull(&self, v: &Value) -> Option<(i64, i64)> {
        let Value::Array(items) = v else { return None };
        let mut out: Option<(i64, i64)> = None;
        for i in items {
            let (lo, hi) = self.interval(i)?;
            out = Some(out.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
        }
        out
    }

    // ----- bounds of `var int` -----

    fn infer_bounds(&mut self, constraints: &[ConstraintItem]) -> Result<(), FznError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let clamp = |lo: i128, hi: i128| -> (i64, i64) {
            let c = |x: i128| x.clamp(i128::from(i64::MIN / 4), i128::from(i64::MAX / 4)) as i64;
            (c(lo), c(hi))
        };
        for _pass in 0..16 {
            let mut changed = false;
            for c in constraints {
                let Ok(args) = c
                    .exprs
                    .iter()
                    .map(|e| self.expr(e))
                    .collect::<Result<Vec<_>, _>>()
                else {
                    continue;
                };
                let target = |i: usize| -> Option<usize> {
                    match args.get(i) {
                        Some(Value::Pending(k)) if self.pending[*k].1.is_none() => Some(*k),
                        _ => None,
                    }
                };
                let iv = |i: usize| self.interval(&args[i]);
                let found: Option<(usize, (i64, i64))> = match c.id.as_str() {
                    "int_lin_eq" => (|| {
                        let coeffs = self.pars(&args[0], "").ok()?;
                        let Value::Array(xs) = &args[1] else {
                            return None;
                        };
                        let rhs = self.par(&args[2], "").ok()?;
                        let mut unknown = None;
                        let (mut lo, mut hi) = (i128::from(rhs), i128::from(rhs));
                        for (a, x) in coeffs.iter().zip(xs) {
                            match (self.interval(x), x) {
                                (Some((l, h)), _) => {
                                    let (p, q) = (
                                        i128::from(*a) * i128::from(l),
                                        i128::from(*a) * i128::from(h),
                                    );
                                    lo -= p.max(q);
                                    hi -= p.min(q);
                                }
                                (None, Value::Pending(k)) if unknown.is_none() => {
                                    unknown = Some((*k, *a))
                                }
                                _ => return None,
                            }
                        }
                        let (k, a) = unknown?;
                        let a = i128::from(a);
                        let (l, h) = if a > 0 { (lo, hi) } else { (-hi, -lo) };
                        let a = a.abs();
                        Some((k, clamp(l.div_euclid(a), h.div_euclid(a) + 1)))
                    })(),
                    "int_plus" => target(2)
                        .zip(iv(0).zip(iv(1)))
                        .map(|(k, ((a, b), (c, d)))| {
                            (
                                k,
                                clamp(i128::from(a) + i128::from(c), i128::from(b) + i128::from(d)),
                            )
                        }),
                    "int_times" => target(2)
                        .zip(iv(0).zip(iv(1)))
                        .map(|(k, ((a, b), (c, d)))| {
                            let p = [
                                i128::from(a) * i128::from(c),
                                i128::from(a) * i128::from(d),
                                i128::from(b) * i128::from(c),
                                i128::from(b) * i128::from(d),
                            ];
                            (k, clamp(*p.iter().min().unwrap(), *p.iter().max().unwrap()))
                        }),
                    "int_div" => target(2).zip(iv(0)).map(|(k, (a, b))| {
                        let m = a.abs().max(b.abs());
                        (k, (-m, m))
                    }),
                    "int_mod" => target(2).zip(iv(1)).map(|(k, (a, b))| {
                        let m = a.abs().max(b.abs());
                        (k, (-m, m))
                    }),
                    "int_abs" => target(1)
                        .zip(iv(0))
                        .map(|(k, (a, b))| (k, (0, a.abs().max(b.abs())))),
                    "int_min" | "int_max" => target(2)
                        .zip(iv(0).zip(iv(1)))
                        .map(|(k, ((a, b), (c, d)))| (k, (a.min(c), b.max(d)))),
                    "array_int_maximum" | "array_int_minimum" => target(0).zip(self.hull(&args[1])),
                    "array_int_element" | "array_var_int_element" => {
                        target(2).zip(self.hull(&args[1]))
                    }
                    "int_eq" => target(0).zip(iv(1)).or_else(|| target(1).zip(iv(0))),
                    "bool2int" => target(1).map(|k| (k, (0, 1))),
                    "bool_lin_eq" => target(2).zip(self.pars(&args[0], "").ok()).map(|(k, a)| {
                        let lo = a.iter().filter(|&&c| c < 0).sum();
                        let hi = a.iter().filter(|&&c| c > 0).sum();
                        (k, (lo, hi))
                    }),
                    _ => None,
                };
                if let Some((k, b)) = found {
                    self.pending[k].1 = Some(b);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        Ok(())
    }

    // ----- search annotations -----

    fn search_annotation(
        &mut self,
        a: &Annotation,
        groups: &mut Vec<BranchGroup>,
    ) -> Result<(), FznError> {
        match a.id.as_str() {
            "seq_search" | "warm_start_array" => {
                for e in &a.expressions {
                    if let AnnExpr::Annotations(list) = e {
                        for inner in list {
                            self.search_annotation(inner, groups)?;
                        }
                    }
                }
            }
            "int_search" | "bool_search" => {
                let [AnnExpr::Expr(vars), var_sel, val_sel, ..] = a.expressions.as_slice() else {
                    return Ok(()); // malformed: ignored, as an annotation may be
                };
                let name = |e: &AnnExpr| match e {
                    AnnExpr::Expr(Expr::VarParIdentifier(s)) => s.clone(),
                    AnnExpr::Annotations(l) if l.len() == 1 => l[0].id.clone(),
                    _ => String::new(),
                };
                let var_order = match name(var_sel).as_str() {
                    "input_order" => VarOrder::InputOrder,
                    "dom_w_deg" => VarOrder::DomWDeg,
                    "most_constrained" | "occurrence" => VarOrder::SmallestDomainMaxDegree,
                    // first_fail, anti_first_fail, smallest, largest, max_regret: Bezzel has
                    // no exact match; the smallest domain is the usual fallback.
                    _ => VarOrder::SmallestDomain,
                };
                let value_order = match name(val_sel).as_str() {
                    "indomain_max" | "indomain_reverse_split" => ValueOrder::Max,
                    "indomain_split" | "indomain_median" | "indomain_middle"
                    | "indomain_interval" => ValueOrder::Split,
                    _ => ValueOrder::Min,
                };
                let vars = match self.expr(vars)? {
                    Value::Array(items) => items,
                    v => vec![v],
                };
                let vars: Vec<VarId> = vars
                    .into_iter()
                    .filter_map(|v| match self.resolve(v) {
                        Value::Var(x) => Some(x),
                        _ => None, // constants need no branching
                    })
                    .collect();
                if !vars.is_empty() {
                    groups.push(BranchGroup {
                        vars,
                        var_order,
                        value_order,
                    });
                }
            }
            _ => {} // other annotations (restarts, set_search, float_search) are hints
        }
        Ok(())
    }

    // ----- constraints -----

    fn constraint(&mut self, c: &ConstraintItem) -> Result<(), FznError> {
        let args: Vec<Value> = c
            .exprs
            .iter()
            .map(|e| self.expr(e))
            .collect::<Result<_, _>>()?;
        let args: Vec<Value> = args.into_iter().map(|v| self.resolve(v)).collect();
        self.consistency = c
            .annos
            .iter()
            .find_map(|a| match a.id.as_str() {
                "domain" | "domain_propagation" => Some(Consistency::Domain),
                "bounds" | "bounds_propagation" => Some(Consistency::Bounds),
                _ => None,
            })
            .unwrap_or(Consistency::Value);
        self.post(&c.id, &args)
            .map_err(|e| FznError(format!("constraint {}: {}", c.id, e.0)))
    }

    fn post(&mut self, name: &str, a: &[Value]) -> Result<(), FznError> {
        if !SUPPORTED.contains(&name) {
            return err("unsupported constraint (not a builtin Bezzel knows)");
        }
        let arity = |n: usize| -> Result<(), FznError> {
            if a.len() == n {
                Ok(())
            } else {
                err(format!("expected {n} arguments, found {}", a.len()))
            }
        };
        let not = |v: IntView| v.minus().offset(1);
        match name {
            // ---- integer comparisons ----
            "int_eq" | "bool_eq" => {
                arity(2)?;
                let (x, y) = (self.view(&a[0], name)?, self.view(&a[1], name)?);
                self.model.equal(x, y)?;
            }
            "int_ne" | "bool_not" => {
                arity(2)?;
                let (x, y) = (self.view(&a[0], name)?, self.view(&a[1], name)?);
                self.model.not_equal(x, y)?;
            }
            "int_le" | "bool_le" => {
                arity(2)?;
                let (x, y) = (self.view(&a[0], name)?, self.view(&a[1], name)?);
                self.model.less_eq(x, y)?;
            }
            "int_lt" | "bool_lt" => {
                arity(2)?;
                let (x, y) = (self.view(&a[0], name)?, self.view(&a[1], name)?);
                self.model.less_than(x, y)?;
            }
            "int_eq_reif" | "int_ne_reif" | "int_le_reif" | "int_lt_reif" | "int_eq_imp"
            | "int_ne_imp" | "int_le_imp" | "int_lt_imp" | "bool_eq_reif" | "bool_le_reif"
            | "bool_lt_reif" | "bool_eq_imp" | "bool_le_imp" | "bool_lt_imp" | "bool_xor_imp" => {
                arity(3)?;
                let mode = if name.ends_with("_imp") {
                    Reif::Imp
                } else {
                    Reif::Equiv
                };
                let op = name.split('_').nth(1).unwrap_or("");
                let op = if op == "xor" { "ne" } else { op };
                let r = self.view(&a[2], name)?;
                self.compare_reif(op, &a[0], &a[1], r, mode)?;
            }
            // ---- linear ----
            n if n.starts_with("int_lin_") || n.starts_with("bool_lin_") => {
                let parts: Vec<&str> = n.split('_').collect();
                let op = parts[2];
                let mode = match parts.get(3) {
                    None => None,
                    Some(&"reif") => Some(Reif::Equiv),
                    Some(&"imp") => Some(Reif::Imp),
                    _ => return err("unknown builtin"),
                };
                arity(if mode.is_some() { 4 } else { 3 })?;
                let mut coeffs = self.pars(&a[0], name)?;
                let mut xs = self.views(&a[1], name)?;
                if coeffs.len() != xs.len() {
                    return err("coefficients and variables differ in length");
                }
                let mut rhs = 0;
                match &a[2] {
                    Value::Int(c) => rhs = *c,
                    v => {
                        // bool_lin_*: the right-hand side may be a variable.
                        let c = self.view(v, name)?;
                        coeffs.push(-1);
                        xs.push(c);
                    }
                }
                let r = match mode {
                    Some(_) => Some(self.view(&a[3], name)?),
                    None => None,
                };
                self.linear(op, &coeffs, &xs, rhs, r, mode.unwrap_or(Reif::Equiv))?;
            }
            // ---- arithmetic ----
            "int_plus" => {
                arity(3)?;
                let xs = [
                    self.view(&a[0], name)?,
                    self.view(&a[1], name)?,
                    self.view(&a[2], name)?,
                ];
                self.model.linear(&[1, 1, -1], &xs, Relation::Eq, 0)?;
            }
            "int_times" | "int_div" | "int_mod" | "int_min" | "int_max" => {
                arity(3)?;
                let (x, y, z) = (
                    self.view(&a[0], name)?,
                    self.view(&a[1], name)?,
                    self.view(&a[2], name)?,
                );
                match name {
                    "int_times" => self.model.times(x, y, z)?,
                    "int_div" => self.model.div(x, y, z)?,
                    "int_mod" => self.model.modulo(x, y, z)?,
                    "int_min" => self.model.min(&[x, y], z)?,
                    _ => self.model.max(&[x, y], z)?,
                }
            }
            "int_abs" => {
                arity(2)?;
                let (x, y) = (self.view(&a[0], name)?, self.view(&a[1], name)?);
                self.model.abs(x, y)?;
            }
            "array_int_maximum" | "array_int_minimum" => {
                arity(2)?;
                let m = self.view(&a[0], name)?;
                let xs = self.views(&a[1], name)?;
                if name == "array_int_maximum" {
                    self.model.max(&xs, m)?;
                } else {
                    self.model.min(&xs, m)?;
                }
            }
            // ---- element ----
            "array_int_element" | "array_bool_element" => {
                arity(3)?;
                let i = self.view(&a[0], name)?;
                let values = self.pars(&a[1], name)?;
                let v = self.view(&a[2], name)?;
                self.model.element_const(&values, i.offset(-1), v)?;
            }
            "array_var_int_element" | "array_var_bool_element" => {
                arity(3)?;
                let i = self.view(&a[0], name)?;
                let xs = self.views(&a[1], name)?;
                let v = self.view(&a[2], name)?;
                self.model.element(&xs, i.offset(-1), v)?;
            }
            // ---- Booleans ----
            "bool2int" => {
                arity(2)?;
                let (x, y) = (self.view(&a[0], name)?, self.view(&a[1], name)?);
                self.model.equal(x, y)?;
            }
            "bool_and" | "bool_or" | "bool_xor" if a.len() == 3 => {
                let (x, y, r) = (
                    self.view(&a[0], name)?,
                    self.view(&a[1], name)?,
                    self.view(&a[2], name)?,
                );
                match name {
                    "bool_and" => self.model.and(&[x, y], r)?,
                    "bool_or" => self.model.or(&[x, y], r)?,
                    _ => self.model.xor(&[x, y], r)?,
                }
            }
            "bool_xor" => {
                arity(2)?;
                let (x, y) = (self.view(&a[0], name)?, self.view(&a[1], name)?);
                self.model.not_equal(x, y)?;
            }
            "bool_and_imp" | "bool_or_imp" => {
                arity(3)?;
                let (x, y, r) = (
                    self.view(&a[0], name)?,
                    self.view(&a[1], name)?,
                    self.view(&a[2], name)?,
                );
                if name == "bool_and_imp" {
                    self.model.clause(&[x], &[r])?;
                    self.model.clause(&[y], &[r])?;
                } else {
                    self.model.clause(&[x, y], &[r])?;
                }
            }
            "array_bool_and" | "array_bool_or" => {
                arity(2)?;
                let xs = self.views(&a[0], name)?;
                let r = self.view(&a[1], name)?;
                if name == "array_bool_and" {
                    self.model.and(&xs, r)?;
                } else {
                    self.model.or(&xs, r)?;
                }
            }
            "array_bool_and_imp" | "array_bool_or_imp" => {
                arity(2)?;
                let xs = self.views(&a[0], name)?;
                let r = self.view(&a[1], name)?;
                if name == "array_bool_and_imp" {
                    for x in xs {
                        self.model.clause(&[x], &[r])?;
                    }
                } else {
                    self.model.clause(&xs, &[r])?;
                }
            }
            "array_bool_xor" => {
                arity(1)?;
                let xs = self.views(&a[0], name)?;
                let one = self.constant(1)?;
                self.model.xor(&xs, one)?;
            }
            "bool_clause" => {
                arity(2)?;
                let (p, n) = (self.views(&a[0], name)?, self.views(&a[1], name)?);
                self.model.clause(&p, &n)?;
            }
            "bool_clause_reif" | "bool_clause_imp" => {
                arity(3)?;
                let (p, n) = (self.views(&a[0], name)?, self.views(&a[1], name)?);
                let r = self.view(&a[2], name)?;
                if name == "bool_clause_imp" {
                    let mut n = n;
                    n.push(r);
                    self.model.clause(&p, &n)?;
                } else {
                    let mut lits = p;
                    lits.extend(n.into_iter().map(not));
                    self.model.or(&lits, r)?;
                }
            }
            // ---- sets of constants ----
            "set_in" => {
                arity(2)?;
                let x = self.view(&a[0], name)?;
                let s = self.set(&a[1], name)?;
                let one = self.constant(1)?;
                self.model.among(&[x], &s, one)?;
            }
            "set_in_reif" | "set_in_imp" => {
                arity(3)?;
                let x = self.view(&a[0], name)?;
                let s = self.set(&a[1], name)?;
                let r = self.view(&a[2], name)?;
                if name == "set_in_reif" {
                    self.model.among(&[x], &s, r)?;
                } else {
                    let c = self.model.int_var(0..=1)?;
                    self.note(c, 0, 1, true);
                    self.model.among(&[x], &s, c)?;
                    self.model.implies(r, c)?;
                }
            }
            // ---- globals (declared in mznlib) ----
            "fzn_all_different_int" => {
                arity(1)?;
                let xs = self.views(&a[0], name)?;
                // Value consistency unless annotated, as in Gecode.
                self.model.all_different_with(&xs, self.consistency)?;
            }
            "fzn_table_int" | "fzn_table_bool" => {
                arity(2)?;
                let xs = self.views(&a[0], name)?;
                let flat = self.pars(&a[1], name)?;
                if xs.is_empty() {
                    return Ok(());
                }
                if flat.len() % xs.len() != 0 {
                    return err("the table's length is not a multiple of the arity");
                }
                let tuples: Vec<Vec<i64>> = flat.chunks(xs.len()).map(<[i64]>::to_vec).collect();
                if tuples.is_empty() {
                    let zero = self.constant(0)?;
                    let one = self.constant(1)?;
                    self.model.equal(zero, one)?; // no tuple: no solution
                } else {
                    self.model.table(&xs, &tuples)?;
                }
            }
            "fzn_regular" => {
                arity(6)?;
                let xs = self.views(&a[0], name)?;
                let q = self.par(&a[1], name)?;
                let s = self.par(&a[2], name)?;
                let d = self.pars(&a[3], name)?;
                let q0 = self.par(&a[4], name)?;
                let finals = self.set(&a[5], name)?;
                if q < 1 || s < 0 || d.len() as i64 != q * s || !(1..=q).contains(&q0) {
                    return err("malformed automaton");
                }
                // MiniZinc's states are 1..=Q, 0 the failing one; Bezzel's are 0..Q.
                let mut transitions = Vec::new();
                for from in 0..q {
                    for sym in 0..s {
                        let to = d[(from * s + sym) as usize];
                        if to > 0 {
                            transitions.push((from as usize, sym + 1, (to - 1) as usize));
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
                        let zero = self.constant(0)?;
                        let one = self.constant(1)?;
                        self.model.equal(zero, one)?;
                    }
                } else {
                    self.model.regular(&xs, &dfa)?;
                }
            }
            "bezzel_circuit" | "bezzel_subcircuit" => {
                arity(2)?;
                let xs = self.views(&a[0], name)?;
                let base = self.par(&a[1], name)?;
                let base = shift(base)?;
                let xs: Vec<IntView> = xs.into_iter().map(|x| x.offset(base)).collect();
                if name == "bezzel_circuit" {
                    self.model.circuit(&xs)?;
                } else {
                    self.model.subcircuit(&xs)?;
                }
            }
            "bezzel_inverse" => {
                arity(4)?;
                let f = self.views(&a[0], name)?;
                let g = self.views(&a[1], name)?;
                let (f_base, g_base) = (self.par(&a[2], name)?, self.par(&a[3], name)?);
                // f's values index g and the other way round.
                let (f_shift, g_shift) = (shift(f_base)?, shift(g_base)?);
                let f: Vec<IntView> = f.into_iter().map(|x| x.offset(g_shift)).collect();
                let g: Vec<IntView> = g.into_iter().map(|x| x.offset(f_shift)).collect();
                // Bezzel's inverse checks the all-different it implies only once fixed;
                // MiniZinc users expect the pruning of a channelling permutation.
                // (MiniZinc drops a `:: domain` on inverse on its way here: always domain.)
                self.model.all_different_with(&f, Consistency::Domain)?;
                self.model.all_different_with(&g, Consistency::Domain)?;
                self.model.inverse(&f, &g)?;
            }
            "fzn_global_cardinality" => {
                arity(3)?;
                let xs = self.views(&a[0], name)?;
                let cover = self.pars(&a[1], name)?;
                let counts = self.views(&a[2], name)?;
                self.model.global_cardinality(&xs, &cover, &counts)?;
            }
            "bezzel_count" => {
                arity(3)?;
                let xs = self.views(&a[0], name)?;
                let y = self.par(&a[1], name)?;
                let c = self.view(&a[2], name)?;
                self.model.count(&xs, y, c)?;
            }
            "fzn_among" => {
                arity(3)?;
                let n = self.view(&a[0], name)?;
                let xs = self.views(&a[1], name)?;
                let s = self.set(&a[2], name)?;
                self.model.among(&xs, &s, n)?;
            }
            "fzn_lex_less_int"
            | "fzn_lex_lesseq_int"
            | "fzn_lex_less_bool"
            | "fzn_lex_lesseq_bool" => {
                arity(2)?;
                let xs = self.views(&a[0], name)?;
                let ys = self.views(&a[1], name)?;
                if name.contains("lesseq") {
                    self.model.lex_less_eq(&xs, &ys)?;
                } else {
                    self.model.lex_less(&xs, &ys)?;
                }
            }
            "fzn_value_precede_int" => {
                arity(3)?;
                let s = self.par(&a[0], name)?;
                let t = self.par(&a[1], name)?;
                let xs = self.views(&a[2], name)?;
                self.model.value_precede(s, t, &xs)?;
            }
            _ => return err("unsupported constraint (not a builtin Bezzel knows)"),
        }
        Ok(())
    }

    /// `r (mode) x op y`, with `op` one of eq, ne, le, lt, ge, gt.
    fn compare_reif(
        &mut self,
        op: &str,
        x: &Value,
        y: &Value,
        r: IntView,
        mode: Reif,
    ) -> Result<(), FznError> {
        // ne is eq of the negated literal; Imp on the negation is Pmi (r -> C  ==  not C -> not r).
        let not = |v: IntView| v.minus().offset(1);
        let (op, r, mode) = match op {
            "ne" => (
                "eq",
                not(r),
                if mode == Reif::Imp { Reif::Pmi } else { mode },
            ),
            _ => (op, r, mode),
        };
        // ge, gt: swap the sides.
        let (op, x, y) = match op {
            "ge" => ("le", y, x),
            "gt" => ("lt", y, x),
            _ => (op, x, y),
        };
        match (op, x, y) {
            ("eq", v, Value::Int(c)) | ("eq", Value::Int(c), v) => {
                let v = self.view(v, "reif")?;
                self.model.eq_value_reif(v, *c, r, mode)?;
            }
            ("le", v, Value::Int(c)) => {
                let v = self.view(v, "reif")?;
                self.model.le_value_reif(v, *c, r, mode)?;
            }
            ("lt", v, Value::Int(c)) => {
                let v = self.view(v, "reif")?;
                self.model.le_value_reif(v, *c - 1, r, mode)?;
            }
            ("le", Value::Int(c), v) => {
                let v = self.view(v, "reif")?;
                self.model.le_value_reif(v.minus(), -*c, r, mode)?;
            }
            ("lt", Value::Int(c), v) => {
                let v = self.view(v, "reif")?;
                self.model.le_value_reif(v.minus(), -*c - 1, r, mode)?;
            }
            (op, x, y) => {
                let (x, y) = (self.view(x, "reif")?, self.view(y, "reif")?);
                match op {
                    "eq" => self.model.equal_reif(x, y, r, mode)?,
                    "le" => self.model.less_eq_reif(x, y, r, mode)?,
                    "lt" => self.model.less_eq_reif(x.offset(1), y, r, mode)?,
                    _ => return err("unknown comparison"),
                }
            }
        }
        Ok(())
    }

    /// `Σ coeffs · xs (op) rhs`, reified by `r` when given.
    fn linear(
        &mut self,
        op: &str,
        coeffs: &[i64],
        xs: &[IntView],
        rhs: i64,
        r: Option<IntView>,
        mode: Reif,
    ) -> Result<(), FznError> {
        let neg: Vec<i64> = coeffs.iter().map(|c| -c).collect();
        // lt and gt on integers: le and ge with the constant moved by one.
        let (rel, coeffs, rhs, negate) = match op {
            "eq" => (Relation::Eq, coeffs, rhs, false),
            "ne" => (Relation::Eq, coeffs, rhs, true),
            "le" => (Relation::Le, coeffs, rhs, false),
            "lt" => (Relation::Le, coeffs, rhs - 1, false),
            "ge" => (Relation::Le, &neg[..], -rhs, false),
            "gt" => (Relation::Le, &neg[..], -rhs - 1, false),
            _ => return err("unknown linear relation"),
        };
        let not = |v: IntView| v.minus().offset(1);
        match (r, negate) {
            (None, false) => self.model.linear(coeffs, xs, rel, rhs)?,
            (None, true) => {
                let zero = self.constant(0)?;
                self.model
                    .linear_reif(coeffs, xs, rel, rhs, zero, Reif::Equiv)?;
            }
            (Some(r), false) => self.model.linear_reif(coeffs, xs, rel, rhs, r, mode)?,
            (Some(r), true) => {
                let mode = if mode == Reif::Imp { Reif::Pmi } else { mode };
                self.model.linear_reif(coeffs, xs, rel, rhs, not(r), mode)?;
            }
        }
        Ok(())
    }
}

/// The view offset that makes indices counted from `base` count from 0.
fn shift(base: i64) -> Result<i32, FznError> {
    i32::try_from(-base).map_err(|_| FznError(format!("index set starting at {base}: too far")))
}

fn output_array_dims(annos: &[Annotation]) -> Result<Option<Vec<(i64, i64)>>, FznError> {
    let Some(a) = annos.iter().find(|a| a.id == "output_array") else {
        return Ok(None);
    };
    let mut dims = Vec::new();
    let range = |s: &SetLiteralExpr| -> Option<(i64, i64)> {
        match s {
            SetLiteralExpr::IntInRange(IntExpr::Int(lo), IntExpr::Int(hi)) => {
                Some((i64::try_from(*lo).ok()?, i64::try_from(*hi).ok()?))
            }
            SetLiteralExpr::SetInts(v) if v.is_empty() => Some((1, 0)),
            _ => None,
        }
    };
    match a.expressions.first() {
        Some(AnnExpr::Expr(Expr::ArrayOfSet(sets))) => {
            for s in sets {
                match s {
                    SetExpr::Set(s) => dims.push(
                        range(s).ok_or_else(|| FznError("output_array: bad index set".into()))?,
                    ),
                    SetExpr::VarParIdentifier(_) => {
                        return err("output_array: named index sets are not supported");
                    }
                }
            }
        }
        Some(AnnExpr::Expr(Expr::Set(s))) => {
            dims.push(range(s).ok_or_else(|| FznError("output_array: bad index set".into()))?)
        }
        _ => return err("output_array: expected a list of index ranges"),
    }
    Ok(Some(dims))
}
