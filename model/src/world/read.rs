//! What code outside the model may read of a [`World`]: one accessor per field it needs,
//! none that writes. The page draws from these (and from `view`), the tests assert on
//! them; the world changes only through `apply`, `step`, `advance` and `run`.

use super::{ArmedKill, CheckLevel, LogEntry, Poll, Proc, ScriptResult, Step, World};
use crate::auditor::Auditor;
use crate::db::Db;
use crate::ids::ProcId;
use crate::queue::Queue;
use crate::scenario::Config;
use std::collections::VecDeque;

impl World {
    /// The configuration the world was built from.
    pub fn cfg(&self) -> &Config {
        &self.cfg
    }
    /// Tasks the client will send in all.
    pub fn tasks_total(&self) -> u32 {
        self.tasks_total
    }
    /// The clock: one tick per scheduler step (idle ticks are jumped over by `run`).
    pub fn tick(&self) -> u64 {
        self.tick
    }
    /// PostgreSQL: the tables, transactions, locks and the WAL.
    pub fn db(&self) -> &Db {
        &self.db
    }
    /// The queue (BullMQ on Redis).
    pub fn queue(&self) -> &Queue {
        &self.queue
    }
    /// Every process, in the order the scenario builds them.
    pub fn procs(&self) -> &[Proc] {
        &self.procs
    }
    /// Each event's life as the auditor keeps it.
    pub fn auditor(&self) -> &Auditor {
        &self.auditor
    }
    /// Kills armed to fire when a process reaches a step.
    pub fn armed(&self) -> &[ArmedKill] {
        &self.armed
    }
    /// The newest log entries (capped).
    pub fn log_entries(&self) -> &VecDeque<LogEntry> {
        &self.log
    }
    /// Each relay's recent polls (`{ tarqatildi, xato }` in the lesson's words).
    pub fn polls(&self) -> &[Vec<Poll>] {
        &self.polls
    }
    /// The psql session's statements and what each answered.
    /// Totals over the whole run: SQL errors by code, inbox conflicts, relay polls.
    pub fn tally(&self) -> &super::Tally {
        &self.tally
    }

    pub fn script_results(&self) -> &[ScriptResult] {
        &self.script_results
    }
    /// Every kill: which process, at which step, at which tick (capped).
    pub fn kills(&self) -> &[(ProcId, Step, u64)] {
        &self.kills
    }
    /// The run's first kills and SQL errors, kept whatever the log's cap (`PINNED_CAP`).
    pub fn pinned(&self) -> &[LogEntry] {
        &self.pinned
    }
    /// The tick of the last Redis flush, if any.
    pub fn last_flush(&self) -> Option<u64> {
        self.last_flush
    }
    /// A hash of every step taken so far (the determinism tests compare it).
    pub fn trace_hash(&self) -> u64 {
        self.trace_hash
    }
    /// Scheduler steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }
    /// How thoroughly invariants are checked after each step.
    pub fn check_level(&self) -> CheckLevel {
        self.check
    }
    /// Sets how thoroughly invariants are checked from the next step on (tests use
    /// `Full`; the page runs `Light`).
    pub fn set_check_level(&mut self, level: CheckLevel) {
        self.check = level;
    }
    /// Invariants broken so far, in words (empty in every correct run).
    pub fn violations(&self) -> &[String] {
        &self.violations
    }
}
