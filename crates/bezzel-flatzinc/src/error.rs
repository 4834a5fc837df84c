//! Why a FlatZinc input cannot run: one variant per kind of problem, each with the fields a
//! user needs to find it (the line and column, the builtin, the argument, the expected and the
//! found). Errors are made where the problem is seen, often without the statement's line,
//! which the translation adds on its way out ([`FznError::at`]); a line of 0 means unknown.

use bezzel_core::ModelError;
use std::fmt;

/// A FlatZinc input Bezzel cannot run, or a failure to read or write.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FznError {
    /// Text that is not FlatZinc.
    Parse {
        /// The line, counted from 1.
        line: usize,
        /// The column (in characters), counted from 1.
        column: usize,
        /// What is wrong there.
        message: String,
    },
    /// A FlatZinc feature Bezzel lacks: float and set variables, float parameters...
    Unsupported {
        /// The statement's line.
        line: usize,
        /// The feature, and the name it was met on (`float variables (`f`)`).
        feature: String,
    },
    /// A name used but never declared.
    UnknownIdentifier {
        /// The statement's line.
        line: usize,
        /// The name.
        name: String,
    },
    /// A name declared twice.
    Redeclared {
        /// The line of the second declaration.
        line: usize,
        /// The name.
        name: String,
    },
    /// A constraint that is no builtin Bezzel knows (nor a global of its `mznlib`).
    UnknownBuiltin {
        /// The constraint's line.
        line: usize,
        /// The builtin's name.
        name: String,
    },
    /// A known builtin called with the wrong number of arguments.
    Arity {
        /// The constraint's line.
        line: usize,
        /// The builtin's name.
        name: String,
        /// The numbers of arguments it takes (a few builtins have two forms).
        expected: Vec<usize>,
        /// The number it was given.
        found: usize,
    },
    /// An argument of the wrong type: a `var bool` where an integer is expected, a variable
    /// where a constant is.
    Type {
        /// The constraint's line.
        line: usize,
        /// The builtin's name.
        name: String,
        /// The argument's position, counted from 1.
        position: usize,
        /// The type the builtin takes there, as FlatZinc writes it (`var int`).
        expected: String,
        /// What was given.
        found: String,
    },
    /// A declaration or an argument of the right type whose value cannot be used: an array
    /// whose elements do not fill its index sets, a malformed automaton, a set too large.
    Invalid {
        /// The statement's line.
        line: usize,
        /// Where: the declaration or the builtin.
        context: String,
        /// What is wrong.
        reason: String,
    },
    /// A model Bezzel's engine refuses (a domain too wide, a value out of range).
    Model {
        /// The statement's line.
        line: usize,
        /// Where: the declaration or the builtin.
        context: String,
        /// The engine's reason.
        source: ModelError,
    },
    /// The FlatZinc has no `solve` item.
    NoSolveItem,
    /// Input that cannot be read or output that cannot be written.
    Io {
        /// What was being done (`read model.fzn`).
        action: String,
        /// The system's reason.
        reason: String,
    },
    /// The search itself failed (a thread of a parallel search).
    Search {
        /// Why.
        reason: String,
    },
}

impl FznError {
    /// An [`Invalid`](FznError::Invalid) value, its line and context filled in later by
    /// [`at`](FznError::at).
    pub(crate) fn invalid(reason: impl Into<String>) -> FznError {
        FznError::Invalid {
            line: 0,
            context: String::new(),
            reason: reason.into(),
        }
    }

    /// An [`Unsupported`](FznError::Unsupported) feature, its line filled in later.
    pub(crate) fn unsupported(feature: impl Into<String>) -> FznError {
        FznError::Unsupported {
            line: 0,
            feature: feature.into(),
        }
    }

    /// The error, with the statement's `line` and `context` (a builtin's or a declaration's
    /// name) where it was made without them.
    pub(crate) fn at(mut self, at_line: usize, at_context: &str) -> FznError {
        match &mut self {
            FznError::Invalid { line, context, .. } | FznError::Model { line, context, .. } => {
                if *line == 0 {
                    *line = at_line;
                }
                if context.is_empty() {
                    *context = at_context.to_string();
                }
            }
            FznError::Unsupported { line, .. }
            | FznError::UnknownIdentifier { line, .. }
            | FznError::Redeclared { line, .. }
            | FznError::UnknownBuiltin { line, .. }
            | FznError::Arity { line, .. }
            | FznError::Type { line, .. }
            | FznError::Parse { line, .. } => {
                if *line == 0 {
                    *line = at_line;
                }
            }
            FznError::NoSolveItem | FznError::Io { .. } | FznError::Search { .. } => {}
        }
        self
    }

    /// The statement's line, when the error has one.
    pub fn line(&self) -> Option<usize> {
        match self {
            FznError::Parse { line, .. }
            | FznError::Unsupported { line, .. }
            | FznError::UnknownIdentifier { line, .. }
            | FznError::Redeclared { line, .. }
            | FznError::UnknownBuiltin { line, .. }
            | FznError::Arity { line, .. }
            | FznError::Type { line, .. }
            | FznError::Invalid { line, .. }
            | FznError::Model { line, .. } => Some(*line).filter(|&l| l > 0),
            FznError::NoSolveItem | FznError::Io { .. } | FznError::Search { .. } => None,
        }
    }
}

/// `1`, `1 or 2`, `1, 2 or 3`.
fn alternatives(counts: &[usize]) -> String {
    match counts {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(usize::to_string).collect();
            format!("{} or {last}", rest.join(", "))
        }
    }
}

impl fmt::Display for FznError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let FznError::Parse { line, column, .. } = self {
            write!(f, "line {line}, column {column}: ")?;
        } else if let Some(line) = self.line() {
            write!(f, "line {line}: ")?;
        }
        let context = |f: &mut fmt::Formatter<'_>, context: &str| {
            if context.is_empty() {
                Ok(())
            } else {
                write!(f, "{context}: ")
            }
        };
        match self {
            FznError::Parse { message, .. } => f.write_str(message),
            FznError::Unsupported { feature, .. } => {
                write!(f, "not supported by Bezzel: {feature}")
            }
            FznError::UnknownIdentifier { name, .. } => write!(f, "unknown identifier `{name}`"),
            FznError::Redeclared { name, .. } => write!(f, "`{name}` is declared twice"),
            FznError::UnknownBuiltin { name, .. } => write!(
                f,
                "constraint `{name}` is not a builtin Bezzel knows (nor a global of its mznlib)"
            ),
            FznError::Arity {
                name,
                expected,
                found,
                ..
            } => {
                let plural = if expected == &[1] { "" } else { "s" };
                write!(
                    f,
                    "`{name}` takes {} argument{plural}, not {found}",
                    alternatives(expected)
                )
            }
            FznError::Type {
                name,
                position,
                expected,
                found,
                ..
            } => write!(
                f,
                "argument {position} of `{name}` must be a `{expected}`, not {found}"
            ),
            FznError::Invalid {
                context: c, reason, ..
            } => {
                context(f, c)?;
                f.write_str(reason)
            }
            FznError::Model {
                context: c, source, ..
            } => {
                context(f, c)?;
                write!(f, "{source}")
            }
            FznError::NoSolveItem => f.write_str("the FlatZinc has no solve item"),
            FznError::Io { action, reason } => write!(f, "cannot {action}: {reason}"),
            FznError::Search { reason } => write!(f, "the search failed: {reason}"),
        }
    }
}

impl std::error::Error for FznError {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for FznError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FznError: {self}")
    }
}

impl From<ModelError> for FznError {
    /// The engine's refusal, without the line and context, which the translation adds.
    fn from(source: ModelError) -> FznError {
        FznError::Model {
            line: 0,
            context: String::new(),
            source,
        }
    }
}
