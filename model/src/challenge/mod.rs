//! Challenges of an instructor's own (issue #23): a starting scenario, a goal the model
//! judges, and texts. This module holds the goal: a small text language ([`goal`]) and
//! the lesson's built-in goals are written in it ([`lesson_goal_text`], from the steps
//! themselves: `lesson::reached` evaluates them); the
//! file format of challenges and workshops with its limits ([`format`], read by `read`,
//! refusals in [`error`]); the checks before sharing ([`check`]); and the lesson's own
//! steps written as challenges ([`lesson_challenges`]).

pub mod check;
pub mod error;
pub mod format;
pub mod goal;
pub mod outcome;
mod read;

/// The lesson's goal texts live with its steps (`lesson::STEPS`), the one source.
pub use check::{
    CheckError, CheckReport, SolutionCheck, SolutionRun, SolutionRunner, MAX_CHECK_STEPS,
    MAX_CHECK_WORK,
};
pub use error::{FormatError, FormatErrorKind};
pub use format::{
    outcome_name, outcome_of_name, Challenge, Texts, Workshop, FORMAT_VERSION, LANGUAGES,
    MAX_BODY_CHARS, MAX_CHALLENGES, MAX_HINT_CHARS, MAX_ID_CHARS, MAX_JSON_BYTES,
    MAX_SOLUTION_ACTIONS, MAX_TITLE_CHARS,
};
pub use goal::{Goal, GoalError, GoalErrorKind, MAX_CONDITIONS, MAX_DEPTH, MAX_TEXT_BYTES};
pub use outcome::Outcome;
pub use read::ChallengeFile;
