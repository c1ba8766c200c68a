//! The guided lesson, as data the model can check: each step loads a scenario and has a
//! goal that is judged from the world (its counters, its configuration, the kills it saw),
//! never from what the page thinks happened. A step also carries the solution the page's
//! "show me" plays, and, where the room is asked to guess first, the outcome to predict.
//!
//! The exercises' outputs are computed here too, from a run of their presets, in the
//! lesson's own console format, so the page can set them beside the lesson's expected
//! lines.
//!
//! The parts: the path and what each step opens with and how "show me" solves it
//! (`steps.rs`), whether a step's goal is reached (`goals.rs`), and the exercises'
//! checks and outputs (`exercises.rs`).

mod exercises;
mod goals;
mod steps;

pub use exercises::{
    answer_matches, blank_verdicts, check_blanks, exercise_2_output, exercise_3_output,
    exercise_3_skipped, is_answered, normalise, Blank, Verdict, BLANKS, EXERCISE_2_EXPECTED,
    EXERCISE_3_EXPECTED,
};
pub use goals::{reached, step_reached, WHY_INSIDE_RIGHT};
pub use steps::{scenario, solution, step, STEPS};

use crate::world::World;

/// What a learner is asked to make happen (or to fail to make happen).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Under dual write, at least one event is lost.
    LoseAnEvent,
    /// The canon measurement ran to the end: 100 tasks in the database, 90 jobs.
    CanonDualWrite,
    /// The outbox canon ran to the end: 100 tasks, 100 jobs, nothing lost.
    CanonOutbox,
    /// The API was killed at three or more different steps, the run ended, nothing lost.
    OutboxKeepsEvents,
    /// The task and its event were written and rolled back: neither row exists.
    RolledBackTogether,
    /// The app role's read of the outbox was refused with 42501.
    RoleDenied,
    /// The relay published one event twice (a jobId dedup hit or a second delivery).
    RelaySendsTwice,
    /// Two relays, 200 events, no crash: every event added once (the lesson's canon test).
    TwoRelaysOnce,
    /// Two relays ran to the end with a lock mode other than SKIP LOCKED.
    SkipLockedOff,
    /// A relay that marks before it publishes lost an event (the "try it yourself" answer).
    PublishOutsideLoses,
    /// The CDC relay was killed after publishing, before saving its offset; nothing lost.
    CdcSurvivesKill,
    /// The lesson's cleaner (published rows only) ran while the relay was down; nothing lost.
    CleanerKeepsUnpublished,
    /// At-most-once: the run ended with a lost event.
    AtMostOnceLoses,
    /// At-least-once without an inbox: the run ended with an action done twice.
    AtLeastOnceDuplicates,
    /// Effectively once: a redelivery happened and still nothing was lost or done twice.
    EffectivelyOnce,
    /// Three deliveries of one payment, one effect, balance 50 000.
    OneEffectOfThree,
    /// The inbox in its own transaction lost an action (a redelivery skipped as done).
    InboxOwnTxBreaks,
    /// Dual write with the queue first: an event exists for a task that never committed.
    PhantomEvent,
    /// An outbox table written through the pool (two transactions) still lost an event.
    PoolLosesEvent,
}

/// What a kill leads to, as the room guesses it before the reveal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Lost,
    Duplicate,
    Fine,
}

impl Outcome {
    pub const ALL: [Outcome; 3] = [Outcome::Lost, Outcome::Duplicate, Outcome::Fine];

    /// The outcome a finished run shows, from its counters.
    pub fn of(w: &World) -> Outcome {
        let c = w.counters();
        if c.lost > 0 {
            Outcome::Lost
        } else if c.duplicate_effects > 0 || c.phantoms > 0 {
            Outcome::Duplicate
        } else {
            Outcome::Fine
        }
    }
}

/// One step of the guided path.
#[derive(Clone, Debug)]
pub struct LessonStep {
    /// Stable id: progress is saved under it, the page keys its texts by it.
    pub id: &'static str,
    /// The lesson's section number(s) the step teaches.
    pub section: &'static str,
    pub goal: Goal,
    /// The guess the page asks for before the run, when the step is a prediction.
    pub predict: Option<Outcome>,
    /// Other scenarios the step offers as switches (preset names).
    pub variants: &'static [&'static str],
}
