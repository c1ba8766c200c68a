//! The five designs the lesson walks through, each as a small scenario the explorer can
//! cover, and the bounds of a search (tasks, relays, workers, kills).

use crate::queue::QueueOptions;
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
    /// - every other BullMQ option at its default, `maxStalledCount` 1 among them: two
    ///   crashes of the worker holding the same job put it in the failed set, where it
    ///   waits for a retry (class `Failed`, not lost; the property `retried_once` checks
    ///   that the retry acts on it once). [`Design::departures`] lists what differs;
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
        c.log_cap = 0;
        s.workload.tasks = b.tasks;
        s
    }
}

/// A setting of a search's world that is not BullMQ's (6.3.16) or PostgreSQL's default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Departure {
    /// As BullMQ or PostgreSQL spells it (`lockDuration`).
    pub name: &'static str,
    /// Its value here, and the default, in the model's units (a tick stands for a second:
    /// BullMQ's 30 000 ms are 30 ticks).
    pub value: String,
    pub default: String,
}

impl Design {
    /// Every setting of [`Design::scenario`] that differs from a BullMQ or PostgreSQL
    /// default, read off the scenario itself (so a change there shows up on the page's
    /// bounds line). PostgreSQL runs as installed (READ COMMITTED, no lock or statement
    /// timeout): the model has no PostgreSQL setting to differ.
    pub fn departures(self, b: &Bounds) -> Vec<Departure> {
        departures(&self.scenario(b))
    }
}

/// Every setting of `s` that differs from a BullMQ or PostgreSQL default (see
/// [`Design::departures`]).
pub fn departures(s: &Scenario) -> Vec<Departure> {
    let q = &s.config.queue;
    let d = QueueOptions::default();
    let rows: [(&'static str, String, String); 5] = [
        (
            "removeOnComplete",
            keep_text(q.remove_on_complete, q.keep_completed),
            keep_text(d.remove_on_complete, d.keep_completed),
        ),
        (
            "removeOnFail",
            keep_text(q.remove_on_fail, q.keep_failed),
            keep_text(d.remove_on_fail, d.keep_failed),
        ),
        (
            "maxStalledCount",
            q.max_stalled_count.to_string(),
            d.max_stalled_count.to_string(),
        ),
        (
            "lockDuration",
            ticks_text(q.lock_duration_ticks),
            ticks_text(d.lock_duration_ticks),
        ),
        (
            "stalledInterval",
            ticks_text(q.stalled_interval_ticks),
            ticks_text(d.stalled_interval_ticks),
        ),
    ];
    rows.into_iter()
        .filter(|(_, v, d)| v != d)
        .map(|(name, value, default)| Departure {
            name,
            value,
            default,
        })
        .collect()
}

/// `removeOnComplete` / `removeOnFail` as BullMQ takes it: true, false, or a count.
fn keep_text(remove: bool, keep: Option<u32>) -> String {
    keep.map_or_else(|| remove.to_string(), |n| n.to_string())
}

fn ticks_text(t: u64) -> String {
    format!("{t} s")
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
