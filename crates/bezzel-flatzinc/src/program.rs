//! The result of a translation, and the entry point that runs the passes.

use crate::FznError;
use crate::builder::{Builder, Dom, Value};
use crate::output::Output;
use crate::parse::Statement;
use crate::search::Goal;
use bezzel_core::prelude::*;
use bezzel_core::search::BranchGroup;
use flatzinc::{ConstraintItem, Stmt};

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
    /// The windows assumed for `var int` variables whose bounds could not be inferred (each
    /// `` `name` in lo..hi ``). When there are any, the search covered only part of the
    /// space: no solution means "unknown", and an optimum or a complete enumeration is not
    /// proven.
    pub assumptions: Vec<String>,
    /// How many `disjunctive` constraints were posted beside pairs of reified precedences
    /// that keep tasks apart (see the crate docs): implied, so they change no answer.
    pub implied_disjunctives: usize,
}

impl Program {
    /// A solution as FlatZinc prints it: one `name = value;` line per output, without the
    /// `----------` separator.
    pub fn format(&self, solution: &Solution) -> String {
        crate::output::format(&self.outputs, solution)
    }
}

/// Reads FlatZinc text and translates it into a [`Program`]: the statements are parsed, the
/// bounds of unbounded `var int` inferred, the constraints posted through
/// [`BUILTINS`](crate::BUILTINS), and the solve item's goal and annotations read.
pub fn parse(text: &str) -> Result<Program, FznError> {
    parse_with(text, true)
}

/// [`parse`], posting the implied `disjunctive` constraints only when `implied_disjunctives`
/// (without them the pairs of reified precedences are searched alone: the same answers, to
/// measure what the implied constraints bring).
pub fn parse_with(text: &str, implied_disjunctives: bool) -> Result<Program, FznError> {
    build(
        Builder::default(),
        crate::parse::statements(text)?,
        implied_disjunctives,
    )
}

/// The translation of every statement, in the order of passes the crate docs give.
fn build(mut b: Builder, statements: Vec<Statement>, implied: bool) -> Result<Program, FznError> {
    let mut constraints = Vec::new();
    let mut solve = None;
    b.bool2int =
        crate::declarations::bool2int_pairs(statements.iter().filter_map(|s| match &s.stmt {
            Stmt::Constraint(c) => Some(c),
            _ => None,
        }));
    for Statement { line, stmt } in statements {
        match stmt {
            Stmt::Comment(_) | Stmt::Predicate(_) => {}
            Stmt::Parameter(p) => b.parameter(p).map_err(|e| e.at(line, ""))?,
            Stmt::Variable(v) => b.variable(v).map_err(|e| e.at(line, ""))?,
            Stmt::Constraint(c) => constraints.push((line, c)),
            Stmt::SolveItem(s) => solve = Some((line, s)),
        }
    }
    let Some((solve_line, solve)) = solve else {
        return Err(FznError::NoSolveItem);
    };
    b.infer_bounds(&constraints);
    b.make_pending()?;
    for (v, values, dom) in std::mem::take(&mut b.restrictions) {
        let x = b.view(&v)?;
        match dom {
            // Every value of a view fits an `i32`: bounds past it are met by all values or
            // by none, and set values past it by none.
            Dom::Range(lo, hi) if lo > i64::from(i32::MAX) || hi < i64::from(i32::MIN) => {
                b.fail()?;
            }
            Dom::Range(lo, hi) => {
                let lo = lo.max(i64::from(i32::MIN)) as i32;
                let hi = hi.min(i64::from(i32::MAX)) as i32;
                b.model.linear(&[1], &[x], Relation::Ge, lo)?;
                b.model.linear(&[1], &[x], Relation::Le, hi)?;
            }
            Dom::Unbounded => {
                let one = b.constant(1)?;
                b.model.among(&[x], &crate::builder::set32(&values), one)?;
            }
        }
    }
    for (line, c) in &constraints {
        constraint(&mut b, c).map_err(|e| e.at(*line, &c.id))?;
    }
    let implied_disjunctives = if implied {
        crate::disjunctions::post_implied(&mut b, &constraints)?
    } else {
        0
    };
    let goal = b.goal(&solve).map_err(|e| e.at(solve_line, "solve"))?;
    let (groups, restart_scale) = b
        .search(&solve, goal)
        .map_err(|e| e.at(solve_line, "solve"))?;
    let mut outputs = std::mem::take(&mut b.outputs);
    for o in &mut outputs {
        o.resolve(|v| b.resolve(v));
    }
    Ok(Program {
        model: b.model,
        outputs,
        goal,
        groups,
        restart_scale,
        assumptions: b.assumptions,
        implied_disjunctives,
    })
}

/// Posts one constraint item through the builtin table.
fn constraint(b: &mut Builder, c: &ConstraintItem) -> Result<(), FznError> {
    let args: Vec<Value> = c
        .exprs
        .iter()
        .map(|e| b.expr(e).map(|v| b.resolve(v)))
        .collect::<Result<_, _>>()?;
    b.consistency = c
        .annos
        .iter()
        .find_map(|a| match a.id.as_str() {
            "domain" | "domain_propagation" => Some(Consistency::Domain),
            "bounds" | "bounds_propagation" => Some(Consistency::Bounds),
            _ => None,
        })
        .unwrap_or(Consistency::Value);
    crate::builtins::post(b, &c.id, &args, &c.exprs)
}
