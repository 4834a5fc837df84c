//! The solve item: its goal, and its search annotations as Bezzel branch groups.
//!
//! `int_search` and `bool_search` become one group each, in order (`seq_search` and
//! `warm_start_array` are walked into); variable and value selections map to Bezzel's nearest
//! order (`first_fail` and the others without an exact match to the smallest domain).
//! `restart_luby(scale)` gives the restart scale. An objective in an assumed window is
//! branched on last, best value first.

use crate::FznError;
use crate::builder::{Builder, Value};
use bezzel_core::prelude::*;
use bezzel_core::search::BranchGroup;
use flatzinc::{AnnExpr, Annotation, Expr, OptimizationType, SolveItem};

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

impl Builder {
    /// The solve item's goal.
    pub(crate) fn goal(&mut self, solve: &SolveItem) -> Result<Goal, FznError> {
        let (kind, v) = match &solve.goal {
            flatzinc::Goal::Satisfy => return Ok(Goal::Satisfy),
            flatzinc::Goal::OptimizeInt(kind, e) => (kind, self.int_expr(e)?),
            flatzinc::Goal::OptimizeBool(kind, e) => (kind, self.bool_expr(e)?),
            _ => return Err(FznError::unsupported("float and set objectives")),
        };
        let v = self.view(&v)?;
        Ok(match kind {
            OptimizationType::Minimize => Goal::Minimize(v),
            OptimizationType::Maximize => Goal::Maximize(v),
        })
    }

    /// The branch groups and the restart scale the solve item's annotations ask for.
    pub(crate) fn search(
        &mut self,
        solve: &SolveItem,
        goal: Goal,
    ) -> Result<(Vec<BranchGroup>, Option<u64>), FznError> {
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
        // An objective in an assumed window: improving it one value at a time from the far
        // end of the window takes as many solutions as the window is wide, so it is branched
        // on, best value first, once the annotated variables are fixed.
        if let Goal::Minimize(v) | Goal::Maximize(v) = goal
            && self.assumed_vars.contains(&v.var())
        {
            groups.push(BranchGroup {
                vars: vec![v.var()],
                var_order: VarOrder::InputOrder,
                value_order: if matches!(goal, Goal::Maximize(_)) {
                    ValueOrder::Max
                } else {
                    ValueOrder::Min
                },
            });
        }
        Ok((groups, restart_scale))
    }

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
                    "smallest" => VarOrder::Smallest,
                    "largest" => VarOrder::Largest,
                    // first_fail, and anti_first_fail and max_regret, which Bezzel has no
                    // exact match for: the smallest domain is the usual fallback.
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
}
