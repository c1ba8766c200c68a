//! Judging events: each event's class (pending, aborted, in flight, effected, failed,
//! lost) is worked out from durable state and live process memory only, after every step
//! for the events the step touched; the invariants are checked at the level the world asks
//! for; the counters the page shows are read from the auditor and the tables.
//!
//! Lost is not failed. An event whose job BullMQ moved to the failed set (a processor
//! that threw, a job stalled more than `maxStalledCount` times) is retained: it waits for
//! an operator's `job.retry()`, which delivers it (`failed_needs_retry`). Lost means no
//! retained state will ever deliver it: never published, its job removed
//! (`removeOnFail`, or `removeOnComplete` and then lost), flushed with a Redis that keeps
//! nothing, its row cleaned. A dead-lettered outbox row (`dead_lettered`) is neither: the
//! database still holds it, it is counted in flight, and the counter says how many of the
//! in-flight events sit in `outbox_olik`.
//!
//! The named invariants, in these terms:
//! - conservation: every committed event is effected, in flight, failed or lost, exactly
//!   once (the auditor's tally of commits heard equals the sum of those classes);
//! - classification-current: every kept class equals a fresh judgement (Full);
//! - effects-follow-deliveries, inbox-once, queue-adds: per event (the auditor);
//! - queue-jobs-accounted, effects-accounted, no-orphan-transaction, the queue's and the
//!   database's own: over the whole world.

use super::gate_state::bits;
use super::{CheckLevel, Counters, Mem, RelayMem, World};
use crate::action::Step;
use crate::auditor::{Class, TaskRef};
use crate::db::TxStatus;
use crate::ids::EventId;
use crate::scenario::{RelayMode, WorkerMode};

pub(super) const MAX_VIOLATIONS: usize = 16;

impl World {
    /// The class of an event, judged only from durable state and live process memory.
    pub fn judge(&self, e: EventId) -> Class {
        let Some(life) = self.auditor.life(e) else {
            return Class::Pending;
        };
        let api_req = self.api_indices().find_map(|a| match &self.procs[a].mem {
            Mem::Api { req: Some(r) } if self.procs[a].alive && r.event == e => Some(r),
            _ => None,
        });
        let api_holds = api_req.is_some();
        let task = match life.task {
            TaskRef::Given => TxStatus::Committed,
            TaskRef::NotYet => {
                if api_holds {
                    TxStatus::Active
                } else {
                    TxStatus::Aborted
                }
            }
            TaskRef::Row(t) => self.db.task_status(t),
            TaskRef::OwnRow => self
                .db
                .event_row(e)
                .map_or(TxStatus::Aborted, |r| self.db.status(r.xmin)),
        };
        match task {
            TxStatus::Active | TxStatus::Failed => return Class::Pending,
            TxStatus::Aborted => return Class::Aborted,
            TxStatus::Committed => {}
        }
        if life.effects > 0 {
            return Class::Effected;
        }
        if self.carried(e, api_req.is_some_and(|r| !r.added)) {
            Class::InFlight
        } else if self.waits_for_retry(e) {
            Class::Failed
        } else {
            Class::Lost
        }
    }

    /// The event's job is retained in (or on its way to) the failed set, and a retry
    /// would act on it: the consumer's inbox does not already hold it (an inbox row
    /// without the action, the worker's own-transaction inbox, makes the retry a no-op).
    fn waits_for_retry(&self, e: EventId) -> bool {
        let inbox_blocks = self.cfg.worker != WorkerMode::NoInbox && self.db.inbox_has(e);
        !inbox_blocks && self.queue.waits_for_retry(e)
    }

    /// Is there something durable, or a live process, that can still bring this event to
    /// an effect?
    pub(super) fn carried(&self, e: EventId, api_still_adds: bool) -> bool {
        if api_still_adds || self.outbox_carries(e) {
            return true;
        }
        // Through the pool, an event's row may sit in a transaction another request
        // began, on a connection that is still open: its COMMIT may yet come.
        if self.cfg.api == crate::scenario::ApiMode::OutboxPoolBegin
            && self
                .db
                .event_row(e)
                .is_some_and(|r| self.db.is_open(r.xmin))
        {
            return true;
        }
        let inbox_blocks = self.cfg.worker != WorkerMode::NoInbox && self.db.inbox_has(e);
        if !inbox_blocks && self.queue.can_deliver(e) {
            return true;
        }
        self.procs.iter().any(|p| {
            p.alive
                && match &p.mem {
                    Mem::Relay(RelayMem { batch, pos, .. }) => {
                        self.cfg.relay.mode == RelayMode::MarkFirst
                            && p.pc == Step::Publish
                            && batch[*pos..]
                                .iter()
                                .any(|&r| self.db.outbox[r as usize].hodisa == e)
                    }
                    Mem::Worker { job: Some(j) } => j.event == e && j.fresh != Some(false),
                    _ => false,
                }
        })
    }

    /// The outbox (or the log behind it) still holds the event for a reader that will get
    /// to it: an unpublished row for the polling relays (for the high-water relay only
    /// above its mark), the retained log for the CDC relay, or the dead-letter table
    /// (parked for an operator).
    pub(super) fn outbox_carries(&self, e: EventId) -> bool {
        if self.cfg.cdc && self.db.wal_holds(e) {
            return true;
        }
        let Some(idx) = self.db.event_index(e) else {
            return false;
        };
        let row = &self.db.outbox[idx as usize];
        if !self.db.row_committed(row) {
            return false;
        }
        if row.data.dead_letter {
            return true;
        }
        if row.data.deleted || row.data.tarqatilgan_vaqt.is_some() {
            return false;
        }
        if self.cfg.relays == 0 {
            // No polling relay: with a CDC relay the row itself carries nothing; with no
            // reader at all, the row waits for one (as before).
            return !self.cfg.cdc;
        }
        self.cfg.relay.mode != RelayMode::HighWater || idx as u64 >= self.high_water
    }

    /// Judges the touched events again and checks them together with the held one, in
    /// event order, each once.
    #[inline(always)]
    pub(super) fn reclassify_touched(&mut self) {
        if !self.touched.is_empty() {
            self.reclassify();
        } else if let Some(h) = self.held.take() {
            // Nothing touched: the held event is only checked (what `reclassify` does
            // with it when the touched list is empty).
            if self.check != CheckLevel::Off && !self.auditor.event_ok(h, self.inbox_once()) {
                self.check_held(h, self.inbox_once());
            }
        }
    }

    /// Inbox rows that expire no longer promise once (see the inbox-retention preset); a
    /// webhook's receiver acts without the worker's inbox.
    #[inline(always)]
    pub(super) fn inbox_once(&self) -> bool {
        self.cfg.worker == WorkerMode::InboxSameTx
            && self.cfg.relay.sink == crate::scenario::Sink::Queue
            && self
                .cfg
                .cleaner
                .as_ref()
                .is_none_or(|c| c.inbox_retention_days.is_none())
    }

    pub(super) fn reclassify(&mut self) {
        let held = self.held.take();
        match self.touched.len() {
            0 | 1 => {}
            2 => {
                // The common pair (sort_unstable + dedup without the call).
                let (a, b) = (self.touched[0], self.touched[1]);
                if a > b {
                    self.touched.swap(0, 1);
                } else if a == b {
                    self.touched.truncate(1);
                }
            }
            _ => {
                self.touched.sort_unstable();
                self.touched.dedup();
            }
        }
        let checked = self.check != CheckLevel::Off;
        let once = self.inbox_once();
        // The held event, when not touched too, is only checked. Where it goes among the
        // touched ones matters only for the order of violations, so only when it fails.
        let mut held_fails = held.filter(|h| {
            checked && !self.auditor.event_ok(*h, once) && self.touched.binary_search(h).is_err()
        });
        for k in 0..self.touched.len() {
            let e = self.touched[k];
            if let Some(h) = held_fails.filter(|&h| h < e) {
                self.check_held(h, once);
                held_fails = None;
            }
            if !self.final_class(e) {
                let c = self.judge(e);
                self.note_cause(e, Some(c));
                self.auditor.classify(e, c);
            } else {
                self.note_cause(e, None);
            }
            if checked && !self.auditor.event_ok(e, once) {
                self.check_held(e, once);
            }
        }
        if let Some(h) = held_fails {
            self.check_held(h, once);
        }
        self.touched.clear();
    }

    /// Records the event's violations, if any.
    #[cold]
    pub(super) fn check_held(&mut self, h: EventId, once: bool) {
        if let Err(v) = self.auditor.check_event(h, once) {
            self.violation(v);
        }
    }

    /// The event's kept class can no longer change: it was acted on (effects only grow)
    /// and its task is committed (a committed transaction stays committed, and the task
    /// reference of an event with a task row never changes again).
    pub(super) fn final_class(&self, e: EventId) -> bool {
        self.auditor.life(e).is_some_and(|l| {
            l.class == Class::Effected && matches!(l.task, TaskRef::Row(_) | TaskRef::Given)
        })
    }

    pub(super) fn violation(&mut self, v: String) {
        if self.violations.len() < MAX_VIOLATIONS {
            self.violations.push(format!("tick {}: {v}", self.tick));
        }
    }

    pub(super) fn after_step(&mut self) {
        if !self.queue.evicted.is_empty() {
            self.touched.append(&mut self.queue.evicted);
        }
        self.reclassify_touched();
        if self.check == CheckLevel::Off {
            return;
        }
        if let Err(v) = self.auditor.check_conservation() {
            self.violation(v);
        }
        // no-orphan-transaction: every open transaction belongs to a live process (the sums
        // are kept with the gates; Full checks them against the processes).
        self.refresh_gates();
        if self.check == CheckLevel::Full {
            self.check_gates(None);
        }
        let g = &self.gates;
        // Idle pooled connections keep theirs (`world/pool.rs`).
        let (held, orphaned) = (bits(g.holds) + self.pool.idle_txs(), g.orphan != 0);
        if held != self.db.open_transactions() || orphaned {
            self.violation(format!(
                "no-orphan-transaction: {} open, {} held by processes",
                self.db.open_transactions(),
                held
            ));
        }
        if self.check == CheckLevel::Full {
            self.check_full();
        }
    }

    /// Every named invariant, over the whole world.
    pub fn check_full(&mut self) {
        let mut found = Vec::new();
        if let Err(v) = self.db.check_invariants() {
            found.push(v);
        }
        if let Err(v) = self.queue.check_invariants() {
            found.push(v);
        }
        let evs: Vec<(EventId, Class)> = self.auditor.events().map(|(e, l)| (e, l.class)).collect();
        for (e, kept) in evs {
            let now = self.judge(e);
            if now != kept {
                found.push(format!(
                    "classification-current: {e} kept as {kept:?}, judged {now:?}"
                ));
                break;
            }
        }
        if self.auditor.jobs_created < self.queue.len() {
            found.push(format!(
                "queue-jobs-accounted: {} jobs in Redis, {} ever created",
                self.queue.len(),
                self.auditor.jobs_created
            ));
        }
        if self.db.committed_actions() > self.auditor.effects {
            found.push("effects-accounted: more committed actions than effects heard".into());
        }
        for v in found {
            self.violation(v);
        }
    }

    pub fn counters(&self) -> Counters {
        let (stuck, oldest) = self.ages();
        Counters {
            stuck,
            oldest_unpublished_age_ticks: oldest,
            ..self.counters_without_ages()
        }
    }

    /// Events not yet published, as the run's relay knows them: rows with
    /// `tarqatilgan_vaqt IS NULL` for a polling relay; for a CDC relay alone, which never
    /// writes that column (it reads the WAL, as Debezium does, lesson §4.3), the outbox
    /// inserts past its saved offset (#42: the CDC step showed every delivered row as
    /// unpublished).
    pub fn unpublished_events(&self) -> u64 {
        if self.cfg.cdc && self.cfg.relays == 0 {
            self.db.wal_retained_events()
        } else {
            self.db.unpublished_len()
        }
    }

    /// [`World::counters`] without `stuck` and `oldest_unpublished_age_ticks` (left 0):
    /// every other counter is kept as the world runs, those two walk every unpublished row
    /// (a goal that reads none of them is judged without the walk, #40).
    pub fn counters_without_ages(&self) -> Counters {
        let a = &self.auditor;
        Counters {
            tasks_in_db: self.db.committed_tasks(),
            events_in_outbox: self.db.committed_events(),
            events_unpublished: self.unpublished_events(),
            queue_adds: a.queue_adds,
            queue_dedup_hits: a.queue_dedup_hits,
            queue_jobs: self.queue.len(),
            deliveries: a.deliveries,
            effects: a.effects,
            lost: a.count(Class::Lost),
            duplicate_deliveries: a.duplicate_deliveries,
            duplicate_effects: a.duplicate_effects,
            phantoms: a.phantoms,
            reordered: a.reordered,
            stuck: 0,
            oldest_unpublished_age_ticks: 0,
            in_flight: a.count(Class::InFlight),
            balance: self.db.balance(),
            tick: self.tick,
            wal_retained: self.db.wal_retained_events(),
            dead_lettered: self.db.dead_letters(),
            duplicate_tasks: a.duplicate_tasks,
            failed_needs_retry: a.count(Class::Failed),
        }
    }

    /// Unpublished events past `stuck_after_ticks`, and the oldest one's age.
    fn ages(&self) -> (u64, u64) {
        let mut stuck = 0;
        let mut oldest = None::<u64>;
        let mut age_of = |created: u64| {
            let age = self.tick.saturating_sub(created);
            if age > self.cfg.stuck_after_ticks {
                stuck += 1;
            }
            oldest = Some(oldest.map_or(age, |o: u64| o.max(age)));
        };
        if self.cfg.cdc && self.cfg.relays == 0 {
            // The CDC relay marks nothing: what waits is what the slot retains.
            for r in &self.db.wal {
                for &e in &r.events {
                    if let Some(row) = self.db.event_row(e) {
                        age_of(row.yaratilgan_vaqt);
                    }
                }
            }
        } else {
            for i in self.db.unpublished_ids() {
                age_of(self.db.outbox[i as usize].yaratilgan_vaqt);
            }
        }
        (stuck, oldest.unwrap_or(0))
    }
}
