//! The builtins and globals Bezzel translates, as one table: each row a FlatZinc name, the
//! types of its arguments (which give its arity), and the function that posts it.
//!
//! The table is also the list of what is supported ([`BUILTINS`]): a constraint whose name is
//! in no row is an [`UnknownBuiltin`](FznError::UnknownBuiltin), one whose name is but with
//! another number of arguments an [`Arity`](FznError::Arity) error, and an argument of the
//! wrong type (a `var bool` where an integer is expected, a variable where a constant is) a
//! [`Type`](FznError::Type) error, all checked here before a poster runs. Posters live in
//! one module per family; adding a builtin is a row here and a poster there. A global also
//! needs its declaration in `mznlib/fzn_NAME.mzn` (so that MiniZinc hands it over instead of
//! decomposing it), listed in `cli::MZNLIB` (which `--write-msc` copies; a test compares the
//! list with the folder).

pub(crate) mod array;
pub(crate) mod bool;
pub(crate) mod globals;
pub(crate) mod int;
pub(crate) mod linear;
pub(crate) mod scheduling;
pub(crate) mod set;

use crate::FznError;
use crate::builder::{Builder, Value};
use bezzel_core::Reif;
use flatzinc::Expr;
use int::Cmp;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The type of a builtin's argument, as its FlatZinc declaration states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ArgType {
    /// `var int`: an integer variable or constant.
    Int,
    /// `var bool`: a Boolean variable or constant.
    Bool,
    /// `int`: an integer constant.
    ParInt,
    /// `set of int`: a constant set.
    Set,
    /// `array [int] of var int`.
    Ints,
    /// `array [int] of var bool`.
    Bools,
    /// `array [int] of int`.
    ParInts,
    /// `array [int] of bool`.
    ParBools,
}

impl ArgType {
    /// The type as FlatZinc writes it.
    pub fn name(self) -> &'static str {
        match self {
            ArgType::Int => "var int",
            ArgType::Bool => "var bool",
            ArgType::ParInt => "int",
            ArgType::Set => "set of int",
            ArgType::Ints => "array [int] of var int",
            ArgType::Bools => "array [int] of var bool",
            ArgType::ParInts => "array [int] of int",
            ArgType::ParBools => "array [int] of bool",
        }
    }

    /// The type of an array's elements.
    fn element(self) -> Option<ArgType> {
        match self {
            ArgType::Ints => Some(ArgType::Int),
            ArgType::Bools => Some(ArgType::Bool),
            ArgType::ParInts => Some(ArgType::ParInt),
            ArgType::ParBools => Some(ArgType::Bool),
            _ => None,
        }
    }

    /// Whether the type holds constants only.
    fn is_constant(self) -> bool {
        matches!(
            self,
            ArgType::ParInt | ArgType::Set | ArgType::ParInts | ArgType::ParBools
        )
    }
}

/// Posts one call, its arguments' types checked.
type Poster = fn(&mut Builder, &[Value]) -> Result<(), FznError>;

/// A builtin Bezzel translates: a row of [`BUILTINS`].
#[derive(Debug)]
pub struct Builtin {
    /// The FlatZinc name.
    pub name: &'static str,
    /// The arguments' types, in order (their number is the arity).
    pub args: &'static [ArgType],
    post: Poster,
}

const fn row(name: &'static str, args: &'static [ArgType], post: Poster) -> Builtin {
    Builtin { name, args, post }
}

use ArgType::{Bool, Bools, Int, Ints, ParBools, ParInt, ParInts, Set};

/// The arguments of `bezzel_diffn`: origins and sizes box by box, the number of boxes, and
/// 1 for `diffn` or 0 for `diffn_nonstrict`.
const DIFFN_CONSTANT_SIZES: &[ArgType] = &[Ints, ParInts, ParInt, ParInt];
/// The arguments of `bezzel_diffn_vars`: those of `bezzel_diffn`, with variable sizes.
const DIFFN_VARIABLE_SIZES: &[ArgType] = &[Ints, Ints, ParInt, ParInt];

/// Every builtin and global Bezzel translates. A name may have rows of different arities
/// (`bool_xor` with two arguments or three).
pub static BUILTINS: &[Builtin] = &[
    // ---- integer comparisons (int.rs) ----
    row("int_eq", &[Int, Int], int::eq),
    row("int_ne", &[Int, Int], int::ne),
    row("int_le", &[Int, Int], int::le),
    row("int_lt", &[Int, Int], int::lt),
    row("int_eq_reif", &[Int, Int, Bool], |b, a| {
        int::reif(b, a, Cmp::Eq, Reif::Equiv)
    }),
    row("int_ne_reif", &[Int, Int, Bool], |b, a| {
        int::reif(b, a, Cmp::Ne, Reif::Equiv)
    }),
    row("int_le_reif", &[Int, Int, Bool], |b, a| {
        int::reif(b, a, Cmp::Le, Reif::Equiv)
    }),
    row("int_lt_reif", &[Int, Int, Bool], |b, a| {
        int::reif(b, a, Cmp::Lt, Reif::Equiv)
    }),
    row("int_eq_imp", &[Int, Int, Bool], |b, a| {
        int::reif(b, a, Cmp::Eq, Reif::Imp)
    }),
    row("int_ne_imp", &[Int, Int, Bool], |b, a| {
        int::reif(b, a, Cmp::Ne, Reif::Imp)
    }),
    row("int_le_imp", &[Int, Int, Bool], |b, a| {
        int::reif(b, a, Cmp::Le, Reif::Imp)
    }),
    row("int_lt_imp", &[Int, Int, Bool], |b, a| {
        int::reif(b, a, Cmp::Lt, Reif::Imp)
    }),
    // ---- integer arithmetic (int.rs) ----
    row("int_plus", &[Int, Int, Int], int::plus),
    row("int_times", &[Int, Int, Int], int::times),
    row("int_div", &[Int, Int, Int], int::div),
    row("int_mod", &[Int, Int, Int], int::modulo),
    row("int_abs", &[Int, Int], int::abs),
    row("int_pow", &[Int, Int, Int], int::pow),
    row("int_min", &[Int, Int, Int], int::min),
    row("int_max", &[Int, Int, Int], int::max),
    // ---- linear (linear.rs) ----
    row("int_lin_eq", &[ParInts, Ints, ParInt], |b, a| {
        linear::int(b, a, Cmp::Eq, None)
    }),
    row("int_lin_ne", &[ParInts, Ints, ParInt], |b, a| {
        linear::int(b, a, Cmp::Ne, None)
    }),
    row("int_lin_le", &[ParInts, Ints, ParInt], |b, a| {
        linear::int(b, a, Cmp::Le, None)
    }),
    row("int_lin_eq_reif", &[ParInts, Ints, ParInt, Bool], |b, a| {
        linear::int(b, a, Cmp::Eq, Some(Reif::Equiv))
    }),
    row("int_lin_ne_reif", &[ParInts, Ints, ParInt, Bool], |b, a| {
        linear::int(b, a, Cmp::Ne, Some(Reif::Equiv))
    }),
    row("int_lin_le_reif", &[ParInts, Ints, ParInt, Bool], |b, a| {
        linear::int(b, a, Cmp::Le, Some(Reif::Equiv))
    }),
    row("int_lin_eq_imp", &[ParInts, Ints, ParInt, Bool], |b, a| {
        linear::int(b, a, Cmp::Eq, Some(Reif::Imp))
    }),
    row("int_lin_ne_imp", &[ParInts, Ints, ParInt, Bool], |b, a| {
        linear::int(b, a, Cmp::Ne, Some(Reif::Imp))
    }),
    row("int_lin_le_imp", &[ParInts, Ints, ParInt, Bool], |b, a| {
        linear::int(b, a, Cmp::Le, Some(Reif::Imp))
    }),
    row("bool_lin_eq", &[ParInts, Bools, Int], |b, a| {
        linear::bool(b, a, Cmp::Eq)
    }),
    row("bool_lin_ne", &[ParInts, Bools, Int], |b, a| {
        linear::bool(b, a, Cmp::Ne)
    }),
    row("bool_lin_le", &[ParInts, Bools, Int], |b, a| {
        linear::bool(b, a, Cmp::Le)
    }),
    row("bool_lin_lt", &[ParInts, Bools, Int], |b, a| {
        linear::bool(b, a, Cmp::Lt)
    }),
    row("bool_lin_ge", &[ParInts, Bools, Int], |b, a| {
        linear::bool(b, a, Cmp::Ge)
    }),
    row("bool_lin_gt", &[ParInts, Bools, Int], |b, a| {
        linear::bool(b, a, Cmp::Gt)
    }),
    // ---- arrays (array.rs) ----
    row("array_int_maximum", &[Int, Ints], array::maximum),
    row("array_int_minimum", &[Int, Ints], array::minimum),
    row(
        "array_int_element",
        &[Int, ParInts, Int],
        array::element_const,
    ),
    row(
        "array_bool_element",
        &[Int, ParBools, Bool],
        array::element_const,
    ),
    row("array_var_int_element", &[Int, Ints, Int], array::element),
    row(
        "array_var_bool_element",
        &[Int, Bools, Bool],
        array::element,
    ),
    // ---- Booleans (bool.rs) ----
    row("bool2int", &[Bool, Int], bool::bool2int),
    row("bool_eq", &[Bool, Bool], int::eq),
    row("bool_not", &[Bool, Bool], int::ne),
    row("bool_le", &[Bool, Bool], int::le),
    row("bool_lt", &[Bool, Bool], int::lt),
    row("bool_eq_reif", &[Bool, Bool, Bool], |b, a| {
        int::reif(b, a, Cmp::Eq, Reif::Equiv)
    }),
    row("bool_le_reif", &[Bool, Bool, Bool], |b, a| {
        int::reif(b, a, Cmp::Le, Reif::Equiv)
    }),
    row("bool_lt_reif", &[Bool, Bool, Bool], |b, a| {
        int::reif(b, a, Cmp::Lt, Reif::Equiv)
    }),
    row("bool_eq_imp", &[Bool, Bool, Bool], |b, a| {
        int::reif(b, a, Cmp::Eq, Reif::Imp)
    }),
    row("bool_le_imp", &[Bool, Bool, Bool], |b, a| {
        int::reif(b, a, Cmp::Le, Reif::Imp)
    }),
    row("bool_lt_imp", &[Bool, Bool, Bool], |b, a| {
        int::reif(b, a, Cmp::Lt, Reif::Imp)
    }),
    row("bool_xor_imp", &[Bool, Bool, Bool], |b, a| {
        int::reif(b, a, Cmp::Ne, Reif::Imp)
    }),
    row("bool_and", &[Bool, Bool, Bool], bool::and),
    row("bool_or", &[Bool, Bool, Bool], bool::or),
    row("bool_xor", &[Bool, Bool, Bool], bool::xor),
    row("bool_xor", &[Bool, Bool], int::ne),
    row("bool_and_imp", &[Bool, Bool, Bool], bool::and_imp),
    row("bool_or_imp", &[Bool, Bool, Bool], bool::or_imp),
    row("bool_clause", &[Bools, Bools], bool::clause),
    row("bool_clause_reif", &[Bools, Bools, Bool], bool::clause_reif),
    row("bool_clause_imp", &[Bools, Bools, Bool], bool::clause_imp),
    row("array_bool_and", &[Bools, Bool], bool::array_and),
    row("array_bool_or", &[Bools, Bool], bool::array_or),
    row("array_bool_xor", &[Bools], bool::array_xor),
    row("array_bool_and_imp", &[Bools, Bool], bool::array_and_imp),
    row("array_bool_or_imp", &[Bools, Bool], bool::array_or_imp),
    // ---- sets of constants (set.rs) ----
    row("set_in", &[Int, Set], set::set_in),
    row("set_in_reif", &[Int, Set, Bool], set::set_in_reif),
    row("set_in_imp", &[Int, Set, Bool], set::set_in_imp),
    // ---- globals declared in mznlib (globals.rs) ----
    row("fzn_all_different_int", &[Ints], globals::all_different),
    row("fzn_table_int", &[Ints, ParInts], globals::table),
    row("fzn_table_bool", &[Bools, ParBools], globals::table),
    row(
        "fzn_regular",
        &[Ints, ParInt, ParInt, ParInts, ParInt, Set],
        globals::regular,
    ),
    row("bezzel_circuit", &[Ints, ParInt], globals::circuit),
    row("bezzel_subcircuit", &[Ints, ParInt], globals::subcircuit),
    row(
        "bezzel_inverse",
        &[Ints, Ints, ParInt, ParInt],
        globals::inverse,
    ),
    row(
        "fzn_global_cardinality",
        &[Ints, ParInts, Ints],
        globals::global_cardinality,
    ),
    row("bezzel_count", &[Ints, ParInt, Int], globals::count),
    row("fzn_among", &[Int, Ints, Set], globals::among),
    row("fzn_lex_less_int", &[Ints, Ints], |b, a| {
        globals::lex(b, a, true)
    }),
    row("fzn_lex_lesseq_int", &[Ints, Ints], |b, a| {
        globals::lex(b, a, false)
    }),
    row("fzn_lex_less_bool", &[Bools, Bools], |b, a| {
        globals::lex(b, a, true)
    }),
    row("fzn_lex_lesseq_bool", &[Bools, Bools], |b, a| {
        globals::lex(b, a, false)
    }),
    row(
        "fzn_value_precede_int",
        &[ParInt, ParInt, Ints],
        globals::value_precede,
    ),
    // ---- scheduling (scheduling.rs) ----
    row("bezzel_disjunctive", &[Ints, ParInts], |b, a| {
        scheduling::disjunctive(b, a, false)
    }),
    row("bezzel_disjunctive_strict", &[Ints, ParInts], |b, a| {
        scheduling::disjunctive(b, a, true)
    }),
    row(
        "bezzel_cumulative",
        &[Ints, ParInts, ParInts, Int],
        scheduling::cumulative,
    ),
    row(
        "bezzel_cumulative_vars",
        &[Ints, Ints, Ints, Int],
        scheduling::cumulative_vars,
    ),
    row("bezzel_diffn", DIFFN_CONSTANT_SIZES, scheduling::diffn),
    row(
        "bezzel_diffn_vars",
        DIFFN_VARIABLE_SIZES,
        scheduling::diffn_vars,
    ),
];

/// The rows of [`BUILTINS`] by name, built on first use (a model has many calls; the table
/// has a hundred rows).
fn rows(name: &str) -> &'static [&'static Builtin] {
    static INDEX: OnceLock<HashMap<&'static str, Vec<&'static Builtin>>> = OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut index: HashMap<&'static str, Vec<&'static Builtin>> = HashMap::new();
        for builtin in BUILTINS {
            index.entry(builtin.name).or_default().push(builtin);
        }
        index
    });
    index.get(name).map_or(&[], Vec::as_slice)
}

/// Whether some row of [`BUILTINS`] is `name` with `arity` arguments.
pub(crate) fn takes(name: &str, arity: usize) -> bool {
    rows(name).iter().any(|b| b.args.len() == arity)
}

/// Posts the call `name(args)` (`exprs` as written, to name the arguments in errors).
pub(crate) fn post(
    b: &mut Builder,
    name: &str,
    args: &[Value],
    exprs: &[Expr],
) -> Result<(), FznError> {
    let mut arities = Vec::new();
    for builtin in rows(name) {
        if builtin.args.len() != args.len() {
            arities.push(builtin.args.len());
            continue;
        }
        for (i, (&ty, arg)) in builtin.args.iter().zip(args).enumerate() {
            if !b.has_type(arg, ty) {
                return Err(FznError::Type {
                    line: 0,
                    name: name.into(),
                    position: i + 1,
                    expected: ty.name().into(),
                    found: b.describe(arg, ty, exprs.get(i)),
                });
            }
        }
        return (builtin.post)(b, args);
    }
    if arities.is_empty() {
        Err(FznError::UnknownBuiltin {
            line: 0,
            name: name.into(),
        })
    } else {
        arities.sort_unstable();
        Err(FznError::Arity {
            line: 0,
            name: name.into(),
            expected: arities,
            found: args.len(),
        })
    }
}

impl Builder {
    /// Whether a (resolved) argument has the type.
    fn has_type(&self, v: &Value, ty: ArgType) -> bool {
        match (ty, v) {
            (ArgType::Int, Value::Int(_)) | (ArgType::Bool, Value::Bool(_)) => true,
            (ArgType::Int, Value::Var(x)) => self.is_int(*x),
            (ArgType::Bool, Value::Var(x)) => self.is_bool(*x),
            (ArgType::ParInt, Value::Int(_)) | (ArgType::Set, Value::Set(_)) => true,
            (_, Value::Array(items)) => items.iter().all(|x| self.has_element_type(x, ty)),
            _ => false,
        }
    }

    /// Whether a value is an element of an array of type `ty`.
    fn has_element_type(&self, x: &Value, ty: ArgType) -> bool {
        ty.element().is_some_and(|e| {
            self.has_type(x, e) && !(ty.is_constant() && matches!(x, Value::Var(_)))
        })
    }

    /// What an argument is, for a type error: its name as written, and its type.
    fn describe(&self, v: &Value, ty: ArgType, written: Option<&Expr>) -> String {
        let kind = |v: &Value| match v {
            Value::Int(_) => "an integer constant",
            Value::Bool(_) => "a Boolean constant",
            Value::Set(_) => "a set",
            Value::Var(x) if self.is_bool(*x) => "a `var bool`",
            Value::Var(_) | Value::Pending(_) => "a `var int`",
            Value::Array(_) => "an array",
        };
        let what = match v {
            Value::Array(items) if ty.element().is_some() => {
                match items.iter().find(|x| !self.has_element_type(x, ty)) {
                    Some(x) => format!("an array holding {}", kind(x)),
                    None => "an array".into(),
                }
            }
            v => kind(v).into(),
        };
        match written {
            Some(Expr::VarParIdentifier(name)) => format!("`{name}` ({what})"),
            _ => what,
        }
    }
}
