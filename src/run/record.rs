//! What a run is on the wire (a link, the saved state): its log entries, the format,
//! the limits a run may reach, and why a run or an action is refused.

use crate::i18n::{Key, Lang, Reason};
use outbox_model::scenario::ScenarioError;
use outbox_model::world::Refusal;
use outbox_model::{Action, Scenario};
use serde::{Deserialize, Serialize};

/// The largest workload the page accepts (memory on a phone; the model allows more).
pub const MAX_PAGE_TASKS: u32 = 200_000;
/// The longest log a link may carry, and the longest the page records (a run stops
/// there). Opening a link replays its whole log, so this bounds what a link can cost:
/// 20 M atoms of a world that never settles (poison events) took 1.76 s natively in
/// release (more in the page's wasm, all in one frame); the page's largest legitimate
/// workload, 200 000 tasks, stops at the default tick limit (1 M) after ~1.0 M atoms.
/// 4 M leaves that four times over and replays the worst case in 0.38–0.47 s natively
/// (`measure_replay_cost`).
pub const MAX_ATOMS: u64 = 4_000_000;

/// One entry of the run's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Input {
    /// This many scheduler ticks in a row.
    Ticks(u64),
    /// Something the user did.
    Act(Action),
}

/// What a link and the saved state hold: enough to rebuild the run exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// Format version.
    pub v: u32,
    pub scenario: Scenario,
    #[serde(default)]
    pub inputs: Vec<Input>,
}

pub const RUN_VERSION: u32 = 1;

/// Why a run cannot be rebuilt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    Version(u32),
    Scenario(ScenarioError),
    /// `workload.tasks` and `workload.preloaded_events` together: both become rows.
    TooBig {
        tasks: u32,
        preloaded: u32,
    },
    TooLong,
    /// The log ticks past its run's end at `at` (an edited log).
    TicksAfterEnd {
        at: u64,
    },
    /// The model refused the log's action at `at`.
    Replay {
        at: u64,
        message: String,
    },
}

impl RunError {
    /// Why, in the reader's language (the model's own refusal is English: the console
    /// gets it).
    pub fn reason(&self) -> Reason {
        match self {
            RunError::Version(v) => Reason::new(Key::ReasonVersion)
                .arg("v", v)
                .arg("expected", RUN_VERSION),
            RunError::Scenario(e) => Reason::scenario(e),
            RunError::TooBig { tasks, preloaded } => Reason::new(Key::ReasonTooBig)
                .arg("tasks", tasks)
                .arg("preloaded", preloaded)
                .arg("max", MAX_PAGE_TASKS),
            RunError::TooLong => Reason::new(Key::ReasonRunTooLong).arg("max", MAX_ATOMS),
            RunError::TicksAfterEnd { at } => Reason::new(Key::ReasonTicksAfterEnd).arg("at", at),
            RunError::Replay { at, message } => {
                leptos::logging::warn!("replay step {at}: {message}");
                Reason::new(Key::ReasonReplayRefused).arg("at", at)
            }
        }
    }
}

/// In English, for logs and tests.
impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Scenario(e) => write!(f, "scenario: {e}"),
            RunError::Replay { at, message } => write!(f, "replay step {at}: {message}"),
            _ => f.write_str(&self.reason().text(Lang::En)),
        }
    }
}

/// Why [`Sim::act`] did not take an action; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActRefusal {
    /// The run's log is full ([`MAX_ATOMS`]): a longer one could not be opened again.
    LogFull,
    /// The model refused it.
    Model(Refusal),
}

impl ActRefusal {
    /// Why, in the reader's language.
    pub fn reason(&self) -> Reason {
        match self {
            ActRefusal::LogFull => Reason::new(Key::ReasonRunTooLong).arg("max", MAX_ATOMS),
            ActRefusal::Model(r) => Reason::refusal(r),
        }
    }
}

impl From<ActRefusal> for Reason {
    fn from(r: ActRefusal) -> Reason {
        r.reason()
    }
}

/// In English, for logs and tests.
impl std::fmt::Display for ActRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ActRefusal::LogFull => write!(f, "the run's log is full ({MAX_ATOMS} steps)"),
            ActRefusal::Model(r) => write!(f, "{r}"),
        }
    }
}
