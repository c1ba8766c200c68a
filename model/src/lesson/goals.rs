//! Whether a step's goal is reached: its goal text in the challenge goal language (the
//! one source, `steps.rs`), judged against the world (its counters, its configuration and
//! the causes it recorded: what made each event lost, a phantom or a repeat, #41).

use super::step_kinds::Goal;
use super::steps::STEPS;
use crate::challenge;
use crate::world::World;
use std::sync::OnceLock;

/// The place of the right option of the §4.2 question "why does the relay publish inside
/// its transaction?" (the page words its three options in this order).
pub const WHY_INSIDE_RIGHT: usize = 1;

/// Whether a step's goal is reached, with the learner's answer to the question the step
/// asks, if any: the §4.2 step (a relay that marks first loses an event) counts only once
/// the learner has also chosen the right reason.
pub fn step_reached(goal: Goal, w: &World, why: Option<usize>) -> bool {
    let answered = goal != Goal::PublishOutsideLoses || why == Some(WHY_INSIDE_RIGHT);
    answered && reached(goal, w)
}

/// The step's goal text, in the challenge goal language.
pub fn goal_text(goal: Goal) -> &'static str {
    STEPS
        .iter()
        .find(|s| s.goal == goal)
        .map_or("settled", |s| s.goal_text)
}

/// Every step's goal, parsed once (in the order of [`STEPS`]): the texts are the lesson's
/// own, checked to parse by the tests.
fn parsed() -> &'static [challenge::Goal] {
    static GOALS: OnceLock<Vec<challenge::Goal>> = OnceLock::new();
    GOALS.get_or_init(|| {
        STEPS
            .iter()
            .map(|s| challenge::Goal::parse(s.goal_text).expect("a lesson goal parses"))
            .collect()
    })
}

/// The step's goal, parsed.
pub fn goal(goal: Goal) -> &'static challenge::Goal {
    let i = STEPS.iter().position(|s| s.goal == goal).unwrap_or(0);
    &parsed()[i]
}

/// Whether the world shows the goal reached.
pub fn reached(g: Goal, w: &World) -> bool {
    goal(g).holds(w)
}
