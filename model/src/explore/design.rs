//! The five designs the lesson walks through, each as a small scenario the explorer can
//! cover, and the bounds of a search (tasks, relays, workers, kills).

use crate::scenario::{ApiMode, RelayMode, Scenario, WorkerMode};
use serde::{Deserialize, Serialize};

/// The five designs the lesson walks through; each differs from the next in one thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Design {
    /// INSERT + COMMIT, then `queue.add` (the lesson's §1); a consumer without an inbox.
    DualWriteDbFirst,
    /// `queue.add`, then INSERT + COMMIT; a consumer without an inbox.
    DualWriteQueueFirst,
    /// Outbox, but the relay marks and commits first, then publishes (at-most-once).
    OutboxAtMostOnce,
    /// The lesson's outbox and relay (at-least-once); a consumer without an inbox.
    Outbox,
    /// The lesson's outbox and relay, and the inbox in the action's transaction (§6).
    OutboxInbox,
}

impl Design {
    pub fn all() -> [Design; 5] {
        [
            Design::DualWriteDbFirst,
            Design::DualWriteQueueFirst,
            Design::OutboxAtMostOnce,
            Design::Outbox,
            Design::OutboxInbox,
        ]
    }

    /// A stable snake_case name (for links, JSON and test names).
    pub fn name(self) -> &'static str {
        match self {
            Design::DualWriteDbFirst => "dual_write_db_first",
            Design::DualWriteQueueFirst => "dual_write_queue_first",
            Design::OutboxAtMostOnce => "outbox_at_most_once",
            Design::Outbox => "outbox",
            Design::OutboxInbox => "outbox_inbox",
        }
    }

    pub fn from_name(name: &str) -> Option<Design> {
        Design::all().into_iter().find(|d| d.name() == name)
    }

    /// The small world the explorer searches for this design:
    /// - `b.tasks` client requests; `b.relays` polling relays (none for dual write, which
    ///   has no outbox) with the lesson's `FOR UPDATE SKIP LOCKED` and `jobId =
    ///   hodisa_id`; `b.workers` workers;
    /// - no automatic restart (`restart_after_ticks: None`): the explorer restarts a
    ///   killed process by an explicit `Restart` right after the kill (module doc); an
    ///   automatic restart after N ticks would make the tick part of the state;
    /// - `poll_interval_ticks: 0`, BullMQ's lock and stalled-check interval 1 tick (see the
    ///   module doc: timers then say nothing about order);
    /// - `max_stalled_count` = `max(1, b.max_kills)`: a job fails only after stalling
    ///   more often than that, so no crash budget can move a job to BullMQ's failed set
    ///   (with BullMQ's default of 1, two crashes of the worker holding the same job put
    ///   it there, and only an operator's retry brings it back: the explorer finds that
    ///   loss too, see the tests);
    /// - `log_cap: 0`: the log is history, not state; set it before replaying a trace to
    ///   show one (the counters do not depend on it).
    pub fn scenario(self, b: &Bounds) -> Scenario {
        let mut s = Scenario {
            name: format!("explore-{}", self.name().replace('_', "-")),
            summary: format!(
                "Explorer: {} with {} task(s), {} relay(s), {} worker(s), up to {} kill(s)",
                self.name(),
                b.tasks,
                b.relays,
                b.workers,
                b.max_kills
            ),
            seed: 1,
            ..Scenario::default()
        };
        let c = &mut s.config;
        let dual = matches!(self, Design::DualWriteDbFirst | Design::DualWriteQueueFirst);
        c.api = match self {
            Design::DualWriteDbFirst => ApiMode::DualWriteDbFirst,
            Design::DualWriteQueueFirst => ApiMode::DualWriteQueueFirst,
            _ => ApiMode::Outbox,
        };
        c.relays = if dual { 0 } else { b.relays };
        c.relay.mode = if self == Design::OutboxAtMostOnce {
            RelayMode::MarkFirst
        } else {
            RelayMode::Lesson
        };
        c.relay.poll_interval_ticks = 0;
        c.workers = b.workers;
        c.worker = if self == Design::OutboxInbox {
            WorkerMode::InboxSameTx
        } else {
            WorkerMode::NoInbox
        };
        c.restart_after_ticks = None;
        c.queue.lock_duration_ticks = 1;
        c.queue.stalled_interval_ticks = 1;
        c.queue.max_stalled_count = b.max_kills.max(1);
        c.log_cap = 0;
        s.workload.tasks = b.tasks;
        s
    }
}

/// How far the search goes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bounds {
    /// Client requests (one task and one event each).
    pub tasks: u32,
    /// Polling relays (outbox designs).
    pub relays: u8,
    pub workers: u8,
    /// Kills per schedule (of any process but the client).
    pub max_kills: u32,
    /// Actions per schedule; a state this deep with choices left is counted as cut.
    pub max_depth: u32,
}

impl Default for Bounds {
    /// The case: 3 tasks × 2 relays × 1 worker, up to 2 kills. No schedule of it
    /// is longer than 80 actions; the depth bound is a guard, not a cut.
    fn default() -> Self {
        Bounds {
            tasks: 3,
            relays: 2,
            workers: 1,
            max_kills: 2,
            max_depth: 200,
        }
    }
}

impl Bounds {
    /// The crash-point matrix's world: 2 tasks, 1 relay, 1 worker, one kill.
    pub fn matrix() -> Bounds {
        Bounds {
            tasks: 2,
            relays: 1,
            workers: 1,
            max_kills: 1,
            max_depth: 200,
        }
    }
}
