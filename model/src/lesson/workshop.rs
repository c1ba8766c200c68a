//! The lesson's built-in steps written as challenges: the proof that the format can say
//! each of them, and the page's way to open a step the same way it opens an instructor's
//! challenge.
//!
//! The start is always the step's own scenario (`lesson::scenario`): a challenge is what
//! the learner sees when the step opens. Three steps' "show me" loads another scenario
//! instead (`no-skip-locked`, `cleanup`, `inbox-own-tx`: the learner has to change the
//! configuration, which no action can do). Their solution is left out (`None`, checked
//! as "unchecked solution") rather than given on a start that is not theirs: with the
//! solution's scenario as the start, `no-skip-locked` and `cleanup` would be won by
//! pressing play.

use super::goals::goal;
use super::steps::{scenario, solution, STEPS};
use crate::challenge::{Challenge, FORMAT_VERSION};
use std::collections::BTreeMap;

/// One challenge per lesson step, in the lesson's order.
pub fn lesson_challenges() -> Vec<Challenge> {
    STEPS
        .iter()
        .map(|step| {
            let scenario = scenario(step.goal);
            let (solved_on, actions) = solution(step.goal);
            Challenge {
                v: FORMAT_VERSION,
                id: step.id.to_string(),
                lesson: Some(step.id.to_string()),
                texts: BTreeMap::new(),
                predict: step.predict,
                // The lesson's goal texts are canonical goals (tests/challenge_goal.rs).
                goal: goal(step.goal).clone(),
                solution: (solved_on == scenario).then_some(actions),
                scenario,
            }
        })
        .collect()
}
