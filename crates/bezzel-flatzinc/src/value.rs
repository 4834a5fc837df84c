//! The value of a FlatZinc argument or declaration once its names are resolved: what every
//! pass reads and the output prints.

use bezzel_core::VarId;

/// A resolved argument or declaration.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Int(i64),
    Bool(bool),
    Set(Vec<i64>),
    Var(VarId),
    /// A `var int` declared without bounds, made once its bounds are known (index into
    /// `Builder::pending`).
    Pending(usize),
    Array(Vec<Value>),
}
