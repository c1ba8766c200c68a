//! Why a challenge or workshop file was refused, as data: the JSON path of the field and
//! a kind with a stable [`FormatErrorKind::code`], which the page turns into its own words
//! through its i18n (the English `Display` is for logs and the console only).

use super::goal::GoalError;
use std::fmt;

/// A refusal of [`super::Challenge::from_json`] or [`super::Workshop::from_json`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// The JSON path of the offending field: keys joined by `.`, array indexes in
    /// brackets (`challenges[2].goal`, `scenario.config.relays`); empty for the document
    /// itself.
    pub field: String,
    pub kind: FormatErrorKind,
}

/// What is wrong, with the numbers the page shows beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatErrorKind {
    /// The text is longer than `max_bytes`.
    TooLarge { max_bytes: usize },
    /// Not JSON at all: serde's line and column (from 1).
    NotJson { line: usize, col: usize },
    /// JSON, but not of this shape (a missing or unknown field, a wrong type). The
    /// message is serde's, for the console only.
    Shape { message: String },
    /// Written by a newer version of the page than this one.
    FutureVersion { found: u64, supported: u32 },
    /// `v` is missing, zero or not a number.
    BadVersion,
    /// More than `max` of `what` (`challenges`, `solution`).
    TooMany { what: &'static str, max: usize },
    /// A text longer than `max_chars` characters.
    TextTooLong { max_chars: usize },
    /// A text that must say something is empty (a title).
    EmptyText,
    /// A language key other than the page's (`uz`, `en`, `ru`).
    BadLanguage { lang: String },
    /// Neither texts nor a lesson step to take them from.
    NoTexts,
    /// An id that is not a slug of `a-z`, `0-9` and `-`, 1 to 40 long.
    BadId,
    /// Two challenges of a workshop with the same id.
    DuplicateId { id: String },
    /// A workshop without challenges.
    NoChallenges,
    /// `lesson` names no built-in lesson step.
    UnknownLesson { id: String },
    /// The goal does not parse.
    Goal(GoalError),
    /// The scenario parses but breaks one of the model's limits (`Scenario::validate`).
    Scenario { message: String },
    /// A solution action names a process the scenario does not have.
    ActionProcess { index: usize, process: String },
}

impl FormatErrorKind {
    /// A stable code, for the page's i18n keys.
    pub fn code(&self) -> &'static str {
        use FormatErrorKind::*;
        match self {
            TooLarge { .. } => "too_large",
            NotJson { .. } => "not_json",
            Shape { .. } => "shape",
            FutureVersion { .. } => "future_version",
            BadVersion => "bad_version",
            TooMany { .. } => "too_many",
            TextTooLong { .. } => "text_too_long",
            EmptyText => "empty_text",
            BadLanguage { .. } => "bad_language",
            NoTexts => "no_texts",
            BadId => "bad_id",
            DuplicateId { .. } => "duplicate_id",
            NoChallenges => "no_challenges",
            UnknownLesson { .. } => "unknown_lesson",
            Goal(_) => "goal",
            Scenario { .. } => "scenario",
            ActionProcess { .. } => "action_process",
        }
    }
}

impl fmt::Display for FormatErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FormatErrorKind::*;
        match self {
            TooLarge { max_bytes } => write!(f, "larger than {max_bytes} bytes"),
            NotJson { line, col } => write!(f, "not JSON (line {line}, column {col})"),
            Shape { message } => write!(f, "unexpected shape: {message}"),
            FutureVersion { found, supported } => {
                write!(f, "format version {found} is newer than {supported}")
            }
            BadVersion => write!(f, "missing or invalid format version"),
            TooMany { what, max } => write!(f, "more than {max} {what}"),
            TextTooLong { max_chars } => write!(f, "longer than {max_chars} characters"),
            EmptyText => write!(f, "empty"),
            BadLanguage { lang } => write!(f, "unknown language {lang:?}"),
            NoTexts => write!(f, "no texts and no lesson step"),
            BadId => write!(f, "not a slug of a-z, 0-9 and -, 1 to 40 long"),
            DuplicateId { id } => write!(f, "id {id:?} used twice"),
            NoChallenges => write!(f, "no challenges"),
            UnknownLesson { id } => write!(f, "no lesson step {id:?}"),
            Goal(e) => write!(f, "goal {e}"),
            Scenario { message } => write!(f, "scenario: {message}"),
            ActionProcess { index, process } => {
                write!(f, "action {index} names no process {process:?}")
            }
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "{}: {}", self.field, self.kind)
        }
    }
}

impl std::error::Error for FormatError {}

impl FormatError {
    pub(crate) fn new(field: impl Into<String>, kind: FormatErrorKind) -> FormatError {
        FormatError {
            field: field.into(),
            kind,
        }
    }
}

/// A path one key deeper. A key that could not be read back as a path segment (dots,
/// brackets, odd characters, very long) is left out: the error names its parent.
pub(crate) fn child(path: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key.len() <= 40
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    match (plain, path.is_empty()) {
        (false, _) => path.to_string(),
        (true, true) => key.to_string(),
        (true, false) => format!("{path}.{key}"),
    }
}

/// A path one array index deeper.
pub(crate) fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}
