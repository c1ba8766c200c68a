//! How much a world checks after each step, and the counters it reports.

use serde::{Deserialize, Serialize};

/// How much the world checks after each step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckLevel {
    /// Only classify touched events (what the counters need).
    Off,
    /// Touched events plus O(1) global invariants.
    Touched,
    /// Everything, including a full re-judgement of every event (tests).
    Full,
}

/// The counters, with the JSON names the page and the sim print.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Counters {
    pub tasks_in_db: u64,
    pub events_in_outbox: u64,
    pub events_unpublished: u64,
    pub queue_adds: u64,
    pub queue_dedup_hits: u64,
    pub queue_jobs: u64,
    pub deliveries: u64,
    pub effects: u64,
    /// Committed events never acted on that no retained state will ever deliver (see the
    /// module doc: a failed job is not lost).
    pub lost: u64,
    pub duplicate_deliveries: u64,
    pub duplicate_effects: u64,
    pub phantoms: u64,
    pub reordered: u64,
    pub stuck: u64,
    pub oldest_unpublished_age_ticks: u64,
    pub in_flight: u64,
    pub balance: u64,
    pub tick: u64,
    /// Outbox inserts a replication slot keeps in the log for the CDC relay.
    #[serde(default)]
    pub wal_retained: u64,
    /// Rows moved to the dead-letter table `outbox_olik` (counted in `in_flight`).
    #[serde(default)]
    pub dead_lettered: u64,
    /// Tasks committed for a client request that already had one (a retry without an
    /// idempotency key).
    #[serde(default)]
    pub duplicate_tasks: u64,
    /// Events whose job waits in BullMQ's failed set for a retry (or will be failed at the
    /// next fetch): retained, not lost; not in `in_flight` either, since nothing moves
    /// them on without an operator.
    #[serde(default)]
    pub failed_needs_retry: u64,
}
