//! The guided lesson, as data the model can check: each step loads a scenario and has a
//! goal, written in the challenge goal language, that is judged from the world (its
//! counters, its configuration, the causes it recorded), never from what the page thinks
//! happened. A goal says what must have happened and why (#41): `lose-dual` is an event
//! lost *because* the API died after COMMIT and before queue.add, not any loss. A step also carries the solution the page's
//! "show me" plays, and, where the room is asked to guess first, the outcome to predict.
//!
//! The exercises' outputs are computed here too, from a run of their presets, in the
//! lesson's own console format, so the page can set them beside the lesson's expected
//! lines.
//!
//! The parts: the path and what each step opens with and how "show me" solves it
//! (`steps.rs`, its kinds in `step_kinds.rs`), whether a step's goal is reached
//! (`goals.rs`), the summary's numbers (`summary.rs`), the lesson as a workshop of challenges (`workshop.rs`), and the
//! exercises' checks and outputs (`exercises.rs`). This file only declares and re-exports.

mod exercises;
mod goals;
mod step_kinds;
mod steps;
mod summary;
mod workshop;

pub use crate::challenge::Outcome;
pub use exercises::{
    answer_matches, blank_verdicts, check_blanks, exercise_2_output, exercise_3_output,
    exercise_3_skipped, is_answered, normalise, Blank, Verdict, BLANKS, EXERCISE_2_EXPECTED,
    EXERCISE_3_EXPECTED,
};
pub use goals::{goal, goal_text, reached, step_reached, WHY_INSIDE_RIGHT};
pub use step_kinds::{Goal, LessonStep};
pub use steps::{scenario, solution, step, STEPS};
pub use summary::{summary, Line, Summary};
pub use workshop::lesson_challenges;
