//! Why a challenge, a workshop or a goal was refused, in the reader's language: the
//! model's refusals carry a JSON path and a kind with a stable code
//! (`FormatErrorKind`, `GoalErrorKind`, `CheckError`); each kind is a key of the page,
//! with the field and the numbers filled in. The model's English `Display` goes to the
//! console only.

use outbox_model::challenge::GoalErrorKind as G;
use outbox_model::challenge::{CheckError, FormatError, FormatErrorKind as F, GoalError};

use crate::i18n::{Key, Reason};

/// The JSON path a reason names; `$` (JSONPath's root) for the whole document.
fn path(field: &str) -> &str {
    if field.is_empty() {
        "$"
    } else {
        field
    }
}

/// A file's or link's refusal.
pub fn format_reason(e: &FormatError) -> Reason {
    leptos::logging::warn!("challenge refused: {e}");
    let at = |key| Reason::new(key).arg("field", path(&e.field));
    match &e.kind {
        F::TooLarge { max_bytes } => at(Key::ReasonChTooLarge).arg("max", max_bytes),
        F::NotJson { line, col } => Reason::new(Key::ReasonJsonSyntax)
            .arg("line", line)
            .arg("col", col),
        F::Shape { .. } => at(Key::ReasonChShape),
        F::FutureVersion { found, supported } => Reason::new(Key::ReasonChFutureVersion)
            .arg("found", found)
            .arg("supported", supported),
        F::BadVersion => at(Key::ReasonChBadVersion),
        F::TooMany { max, .. } => at(Key::ReasonChTooMany).arg("max", max),
        F::TextTooLong { max_chars } => at(Key::ReasonChTextTooLong).arg("max", max_chars),
        F::EmptyText => at(Key::ReasonChEmptyText),
        F::BadLanguage { lang } => at(Key::ReasonChBadLanguage).arg("lang", lang),
        F::NoTexts => at(Key::ReasonChNoTexts),
        F::BadId => at(Key::ReasonChBadId),
        F::DuplicateId { id } => at(Key::ReasonChDuplicateId).arg("id", id),
        F::NoChallenges => at(Key::ReasonChNoChallenges),
        F::UnknownLesson { id } => at(Key::ReasonChUnknownLesson).arg("id", id),
        F::Goal(g) => goal_reason(g, &e.field),
        F::Scenario { .. } => at(Key::ReasonScenarioField),
        F::ActionProcess { index, process } => at(Key::ReasonChActionProcess)
            .arg("n", index + 1)
            .arg("process", process),
    }
}

/// A goal text's refusal; `field` names where the text was (`goal`, `challenges[1].goal`).
pub fn goal_reason(e: &GoalError, field: &str) -> Reason {
    let at = |key| {
        Reason::new(key)
            .arg("field", path(field))
            .arg("at", e.at + 1)
    };
    match &e.kind {
        G::Empty => at(Key::ReasonGoalEmpty),
        G::TooLong { max } => at(Key::ReasonChTooLarge).arg("max", max),
        G::TooManyConditions { max } => at(Key::ReasonGoalTooMany).arg("max", max),
        G::TooDeep { max } => at(Key::ReasonGoalTooDeep).arg("max", max),
        G::BadChar => at(Key::ReasonGoalBadChar),
        G::UnknownName { name } => at(Key::ReasonGoalUnknownName).arg("name", name),
        G::UnknownValue { key, value } => at(Key::ReasonGoalUnknownValue)
            .arg("key", key)
            .arg("value", value),
        G::OpNotAllowed { key, op } => at(Key::ReasonGoalOp).arg("key", key).arg("op", op),
        G::Expected { what } => match *what {
            "condition" => at(Key::ReasonGoalExpectedCondition),
            "operator" => at(Key::ReasonGoalExpectedOperator),
            "value" | "number" => at(Key::ReasonGoalExpectedValue),
            // A model name (`kind`, `step`, …) or a sign: the same in every language.
            other => at(Key::ReasonGoalExpected).arg("what", other),
        },
        G::NumberTooLarge => at(Key::ReasonGoalNumber),
        G::Trailing => at(Key::ReasonGoalTrailing),
    }
}

/// Why the builder's check failed.
pub fn check_reason(e: &CheckError) -> Reason {
    match e {
        CheckError::GoalAtStart => Reason::new(Key::ReasonCheckAtStart),
        CheckError::SolutionAction { index, why } => {
            leptos::logging::warn!("solution action {index}: {why}");
            Reason::new(Key::ReasonCheckAction).arg("n", index + 1)
        }
        CheckError::SolutionMisses { steps } => {
            Reason::new(Key::ReasonCheckMisses).arg("steps", steps)
        }
        CheckError::TooLong { max_steps } => {
            Reason::new(Key::ReasonCheckTooLong).arg("max", max_steps)
        }
        CheckError::TooMuchWork { steps } => {
            Reason::new(Key::ReasonCheckTooMuchWork).arg("steps", steps)
        }
    }
}
