//! A branching decision: what search tries at a node, and what the other branch tries.
//!
//! The left branch of a node applies a [`Decision`] and the right branch its
//! [`negation`](Decision::negate), so the two partition the node's solutions. Decisions are
//! plain data, so that [`Solver::split`](super::Solver::split) can hand prefixes of them to
//! other copies of the model, other threads or other machines.

use crate::var::{UNBOUND, VarId};
use serde::{Deserialize, Serialize};

/// A branching decision on one variable.
///
/// Decisions are plain data: serialized, the variable is its index (`{"Assign":[3,5]}`), and
/// one read back names the variable of that index in whichever copy of the model it is used
/// with (an unbound [`VarId`]). [`Solver::split`](super::Solver::split) makes its prefixes of
/// such decisions, so that they can be solved on other copies of the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Decision {
    /// `x = v`
    Assign(VarId, i32),
    /// `x != v`
    Exclude(VarId, i32),
    /// `x <= v`
    AtMost(VarId, i32),
    /// `x > v`
    Above(VarId, i32),
}

impl Decision {
    /// The decision of the other branch.
    pub fn negate(self) -> Decision {
        match self {
            Decision::Assign(x, v) => Decision::Exclude(x, v),
            Decision::Exclude(x, v) => Decision::Assign(x, v),
            Decision::AtMost(x, v) => Decision::Above(x, v),
            Decision::Above(x, v) => Decision::AtMost(x, v),
        }
    }

    /// The variable the decision is about.
    #[inline]
    pub fn var(self) -> VarId {
        match self {
            Decision::Assign(x, _)
            | Decision::Exclude(x, _)
            | Decision::AtMost(x, _)
            | Decision::Above(x, _) => x,
        }
    }

    /// The same decision on the variable of the same index of model number `model`.
    pub(super) fn bound_to(self, model: u32) -> Decision {
        let x = VarId {
            model,
            index: self.var().index,
        };
        match self {
            Decision::Assign(_, v) => Decision::Assign(x, v),
            Decision::Exclude(_, v) => Decision::Exclude(x, v),
            Decision::AtMost(_, v) => Decision::AtMost(x, v),
            Decision::Above(_, v) => Decision::Above(x, v),
        }
    }

    /// The same decision on the unbound variable of the same index (see [`VarId`]): what
    /// reads back from its serialized form.
    pub(super) fn unbound(self) -> Decision {
        self.bound_to(UNBOUND)
    }
}
