//! What the goal language accepts and how it refuses: its limits, and why a text is not
//! a goal, with where.

use std::fmt;

/// The longest goal text accepted, in bytes (the input's, and its canonical text's).
pub const MAX_TEXT_BYTES: usize = 500;
/// The most conditions (comparisons, `settled`, `killed(…)`, `refused(…)`, `lost_by(…)`,
/// …) in one goal.
pub const MAX_CONDITIONS: usize = 16;
/// The deepest nesting of parentheses.
pub const MAX_DEPTH: usize = 8;

/// Why a text is not a goal, and where: `at` is a byte offset into the text (at most its
/// length; the text's length when the text ended too early).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalError {
    pub at: usize,
    pub kind: GoalErrorKind,
}

/// What is wrong, as data: the page words it through [`GoalErrorKind::code`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoalErrorKind {
    /// Nothing but white space.
    Empty,
    /// Longer than `max` bytes (the text, or its canonical form).
    TooLong { max: usize },
    /// More than `max` conditions.
    TooManyConditions { max: usize },
    /// Parentheses nested deeper than `max`.
    TooDeep { max: usize },
    /// A character that starts no token (a lone `=`, `&` or `|`, `!` without `=`, any
    /// character outside ASCII letters, digits, `_`, operators, `(`, `)`, `,`).
    BadChar,
    /// A name that is no subject (counter, config key, `settled`, `killed`, …).
    UnknownName { name: String },
    /// A name or code that is not a value of `key` (`api`, `kind`, `step`, `stmt`,
    /// `sqlstate`, …).
    UnknownValue { key: &'static str, value: String },
    /// `key` takes only `==` and `!=`.
    OpNotAllowed { key: &'static str, op: &'static str },
    /// Something else was needed here: `what` is one of `condition`, `operator`,
    /// `value`, `number`, `kind`, `step`, `stmt`, `sqlstate`, `(`, `)`, `,`.
    Expected { what: &'static str },
    /// A number above `u64::MAX`.
    NumberTooLarge,
    /// A whole goal was read and text is left (an unmatched `)`, a missing `&&`).
    Trailing,
}

impl GoalErrorKind {
    /// A stable code, for the page's i18n keys.
    pub fn code(&self) -> &'static str {
        match self {
            GoalErrorKind::Empty => "empty",
            GoalErrorKind::TooLong { .. } => "too_long",
            GoalErrorKind::TooManyConditions { .. } => "too_many_conditions",
            GoalErrorKind::TooDeep { .. } => "too_deep",
            GoalErrorKind::BadChar => "bad_char",
            GoalErrorKind::UnknownName { .. } => "unknown_name",
            GoalErrorKind::UnknownValue { .. } => "unknown_value",
            GoalErrorKind::OpNotAllowed { .. } => "op_not_allowed",
            GoalErrorKind::Expected { .. } => "expected",
            GoalErrorKind::NumberTooLarge => "number_too_large",
            GoalErrorKind::Trailing => "trailing",
        }
    }
}

impl fmt::Display for GoalErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoalErrorKind::Empty => write!(f, "the goal is empty"),
            GoalErrorKind::TooLong { max } => write!(f, "longer than {max} bytes"),
            GoalErrorKind::TooManyConditions { max } => {
                write!(f, "more than {max} conditions")
            }
            GoalErrorKind::TooDeep { max } => {
                write!(f, "parentheses nested deeper than {max}")
            }
            GoalErrorKind::BadChar => write!(f, "unexpected character"),
            GoalErrorKind::UnknownName { name } => write!(f, "unknown name `{name}`"),
            GoalErrorKind::UnknownValue { key, value } => {
                write!(f, "`{value}` is not a value of {key}")
            }
            GoalErrorKind::OpNotAllowed { key, op } => {
                write!(f, "{key} takes == or !=, not {op}")
            }
            GoalErrorKind::Expected { what } => write!(f, "expected {what}"),
            GoalErrorKind::NumberTooLarge => write!(f, "number too large"),
            GoalErrorKind::Trailing => write!(f, "unexpected text after the goal"),
        }
    }
}

impl fmt::Display for GoalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.at, self.kind)
    }
}

impl std::error::Error for GoalError {}

/// A refusal at byte `at`.
pub(super) fn err(at: usize, kind: GoalErrorKind) -> GoalError {
    GoalError { at, kind }
}
