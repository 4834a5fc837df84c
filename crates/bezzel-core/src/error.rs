//! Modelling errors.
//!
//! Everything a user can get wrong while stating a model is reported as a [`ModelError`] with
//! the offending values in its fields and a readable message. "No solution" is *not* an error:
//! it is an ordinary search answer (an empty iterator, a count of zero).

use std::fmt;

/// A mistake in a model: a bad domain, mismatched lengths, a variable from another model.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ModelError {
    /// A domain was given with no values at all.
    EmptyDomain {
        /// Name of the variable being created, if it had one.
        name: Option<String>,
    },
    /// A range whose lower end lies above its upper end, e.g. `5..=1`.
    InvalidRange {
        /// Lower end as given (wide enough for any integer type's value).
        lo: i128,
        /// Upper end as given.
        hi: i128,
    },
    /// A domain value outside the supported range `[MIN_VALUE, MAX_VALUE]`.
    ValueOutOfRange {
        /// The value as given (wide enough for any integer type's value, so a `usize` near
        /// its maximum is reported as it was, not wrapped).
        value: i128,
    },
    /// A domain spanning more values than a bitset domain may hold.
    DomainTooWide {
        /// Number of values between the smallest and largest value (inclusive).
        width: u64,
        /// The largest width allowed.
        max: u64,
    },
    /// Two sequences that must have the same length do not.
    LengthMismatch {
        /// What the lengths describe, e.g. "coefficients and variables".
        what: &'static str,
        /// The length that was expected.
        expected: usize,
        /// The length that was found.
        found: usize,
    },
    /// A variable (or a view on one) created by a different model was used in this model.
    ForeignVariable {
        /// Index of the variable inside the model that created it.
        index: u32,
    },
    /// A constraint needs at least a certain number of variables.
    TooFewVariables {
        /// The constraint being posted.
        constraint: &'static str,
        /// Minimum number of variables.
        min: usize,
        /// Number given.
        found: usize,
    },
    /// An assignment gives a variable a value outside the domain it was declared with (see
    /// [`Model::check_assignment`](crate::Model::check_assignment)).
    NotInDomain {
        /// The variable's name.
        name: String,
        /// The value it was given.
        value: i32,
    },
    /// An assignment breaks a posted constraint (see [`Model::check_assignment`](crate::Model::check_assignment)).
    ConstraintViolated {
        /// Position of the propagator in posting order (from 0).
        propagator: usize,
        /// Its [`name`](crate::Propagator::name).
        name: &'static str,
    },
    /// A parameter of a constraint or helper is invalid (the message says which and why).
    InvalidArgument {
        /// Explanation of what is wrong.
        reason: String,
    },
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::EmptyDomain { name: Some(name) } => {
                write!(f, "variable `{name}` has an empty domain")
            }
            ModelError::EmptyDomain { name: None } => write!(f, "a variable has an empty domain"),
            ModelError::InvalidRange { lo, hi } => {
                write!(
                    f,
                    "invalid range {lo}..={hi}: the lower end is above the upper end"
                )
            }
            ModelError::ValueOutOfRange { value } => write!(
                f,
                "value {value} is outside the supported range {}..={}",
                crate::MIN_VALUE,
                crate::MAX_VALUE
            ),
            ModelError::DomainTooWide { width, max } => write!(
                f,
                "domain spans {width} values; at most {max} are supported per variable"
            ),
            ModelError::LengthMismatch {
                what,
                expected,
                found,
            } => write!(
                f,
                "length mismatch in {what}: expected {expected}, found {found}"
            ),
            ModelError::ForeignVariable { index } => write!(
                f,
                "variable #{index} belongs to a different model than the one it was used in"
            ),
            ModelError::TooFewVariables {
                constraint,
                min,
                found,
            } => write!(
                f,
                "{constraint} needs at least {min} variable(s), got {found}"
            ),
            ModelError::NotInDomain { name, value } => {
                write!(f, "value {value} is not in the domain of `{name}`")
            }
            ModelError::ConstraintViolated { propagator, name } => write!(
                f,
                "the assignment violates constraint #{propagator} ({name})"
            ),
            ModelError::InvalidArgument { reason } => f.write_str(reason),
        }
    }
}

impl std::error::Error for ModelError {}

/// The readable message, as [`Display`](std::fmt::Display) gives it, after the type's name:
/// what `main` returning `Result<(), Box<dyn Error>>` prints.
impl std::fmt::Debug for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ModelError: {self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_offending_values() {
        let e = ModelError::InvalidRange { lo: 5, hi: 1 };
        assert_eq!(
            e.to_string(),
            "invalid range 5..=1: the lower end is above the upper end"
        );
        let e = ModelError::LengthMismatch {
            what: "coefficients and variables",
            expected: 3,
            found: 2,
        };
        assert!(e.to_string().contains("expected 3, found 2"));
        let e = ModelError::EmptyDomain {
            name: Some("x".into()),
        };
        assert_eq!(e.to_string(), "variable `x` has an empty domain");
    }

    #[test]
    fn a_boxed_error_prints_its_message_where_main_shows_it() {
        // What `fn main() -> Result<(), Box<dyn Error>>` prints on an error is its `Debug`.
        let e = ModelError::ForeignVariable { index: 9 };
        let message = e.to_string();
        let shown = format!("{:?}", Box::<dyn std::error::Error>::from(e));
        assert_eq!(shown, format!("ModelError: {message}"));
        assert!(
            shown.contains("variable #9 belongs to a different model"),
            "{shown}"
        );
        let conflict = format!("{:?}", Box::<dyn std::error::Error>::from(crate::Conflict));
        assert_eq!(conflict, "Conflict: a domain became empty");
        let parallel = crate::parallel::ParallelError::ZeroThreads;
        let message = parallel.to_string();
        let shown = format!("{:?}", Box::<dyn std::error::Error>::from(parallel));
        assert_eq!(shown, format!("ParallelError: {message}"));
    }
}
