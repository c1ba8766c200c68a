//! What a step did, as the log keeps it: a note, a fault note, and the log entry that
//! dates them; and how many kills and SQL errors a run keeps pinned.

use super::procs::Wait;
use crate::action::Step;
use crate::ids::{EventId, ProcId};
use serde::Serialize;

/// What a step did, for the log, the trace and the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "what")]
pub enum Note {
    Ok,
    Rows {
        n: u32,
    },
    Inserted {
        inserted: bool,
    },
    Committed,
    RolledBack,
    Added {
        event: EventId,
        created: bool,
    },
    AddRefused {
        event: EventId,
    },
    PublishFailed {
        event: EventId,
    },
    /// The publish timed out after the other side acted (the relay counts it failed).
    PublishTimedOut {
        event: EventId,
    },
    Delivered {
        event: EventId,
    },
    Effect {
        event: EventId,
    },
    Skipped {
        event: EventId,
    },
    Completed {
        event: EventId,
        ok: bool,
    },
    Blocked {
        on: Wait,
    },
    Error {
        code: &'static str,
    },
    Killed,
    /// A delay rule stalls the process this many ticks before its step.
    Delayed {
        ticks: u64,
    },
    Restarted,
    Stalled {
        event: EventId,
        failed: bool,
    },
    Reply {
        ok: bool,
    },
    Fault {
        fault: FaultNote,
    },
}

/// A fault or an operator's action, as the log records it (the page words it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "fault")]
pub enum FaultNote {
    KillArmed,
    QueueDown,
    QueueHangs,
    QueueUp,
    PublishFails {
        event: u32,
        times: u32,
    },
    FailedJobsRetried,
    /// An operator retried one failed job (`job.retry()`).
    JobRetried {
        event: u32,
    },
    /// Redis came back empty; this many jobs were in it.
    RedisFlushed {
        jobs: u32,
    },
    /// Redis restarted with its append-only file: this many jobs came back.
    RedisRestarted {
        jobs: u32,
    },
    /// The operator's UPDATE un-marked this many rows.
    Unpublished {
        rows: u32,
    },
    /// The operator's UPDATE hit a locked row and gave up (lock_timeout).
    UnpublishRefused,
}

/// The kills and SQL errors a run keeps pinned (the first ones: what a lesson step shows).
pub const PINNED_CAP: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct LogEntry {
    pub tick: u64,
    pub proc: Option<ProcId>,
    pub step: Option<Step>,
    pub note: Note,
}
