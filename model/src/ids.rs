//! Small identifiers shared by every part of the world.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A logical event (`hodisa_id`). Numbered from 1 in the order the world mints them;
/// shown as `h-N`, and as a deterministic UUID where SQL needs one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct EventId(pub u32);

impl EventId {
    pub fn uuid(self) -> String {
        format!("00000000-0000-4000-8000-{:012x}", self.0)
    }
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "h-{}", self.0)
    }
}

/// A process in the world, by its index in `World::procs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ProcId(pub u8);

/// A database transaction. 0 is never handed out.
pub type TxId = u32;

/// The kind of an event: one per task in the lesson; the ordering scenario adds a second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// `vazifa.yaratildi`
    Created,
    /// `vazifa.bajarildi`
    Completed,
}

impl EventKind {
    pub fn tur(self) -> &'static str {
        match self {
            EventKind::Created => "vazifa.yaratildi",
            EventKind::Completed => "vazifa.bajarildi",
        }
    }
    pub fn rank(self) -> u8 {
        match self {
            EventKind::Created => 0,
            EventKind::Completed => 1,
        }
    }
}

/// The lesson's step ids, in its order: what a challenge's `lesson` field may name. Kept
/// here, below both, so the challenge reader need not import the lesson (which builds
/// on the challenge format); `lesson::steps`' tests hold it equal to `STEPS`.
pub const LESSON_STEP_IDS: [&str; 21] = [
    "lose-dual",
    "queue-first",
    "canon-dual",
    "canon-outbox",
    "rollback",
    "app-role",
    "outbox-try",
    "pool",
    "pool-load",
    "relay-twice",
    "two-relays",
    "no-skip-locked",
    "why-inside",
    "cdc",
    "at-most-once",
    "at-least-once",
    "effectively-once",
    "inbox-three",
    "inbox-own-tx",
    "cleanup",
    "summary",
];
