//! What the world records: the log of notes (what each step did, for the page and the
//! trace) and the trace hash that every step, kill and fault is mixed into.

use super::{Wait, World};
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

pub(super) const FNV_PRIME: u64 = 0x0000_0100_0000_01B3;

impl World {
    pub(super) fn log(&mut self, proc: Option<ProcId>, step: Option<Step>, note: Note) {
        self.tally.note(step, &note);
        if self.history
            && matches!(note, Note::Killed | Note::Error { .. })
            && self.pinned.len() < PINNED_CAP
        {
            self.pinned.push(LogEntry {
                tick: self.tick,
                proc,
                step,
                note,
            });
        }
        if self.cfg.log_cap == 0 {
            return;
        }
        if self.log.len() >= self.cfg.log_cap {
            self.log.pop_front();
        }
        self.log.push_back(LogEntry {
            tick: self.tick,
            proc,
            step,
            note,
        });
    }

    pub(super) fn mix(&mut self, v: u64) {
        // FNV-style, a word at a time.
        self.trace_hash = (self.trace_hash ^ v)
            .wrapping_mul(FNV_PRIME)
            .rotate_left(29);
    }
}
