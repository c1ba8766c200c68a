//! Challenges of an instructor's own (issue #23): a starting scenario, a goal the model
//! judges, and texts. This module holds the goal: a small text language ([`goal`]) and
//! the lesson's built-in goals written in it ([`lesson_goal_text`]), which the tests hold
//! against `lesson::reached` so the language is known to say what the lesson means.

pub mod goal;
mod lessons;

pub use goal::{Goal, GoalError, GoalErrorKind, MAX_CONDITIONS, MAX_DEPTH, MAX_TEXT_BYTES};
pub use lessons::lesson_goal_text;
