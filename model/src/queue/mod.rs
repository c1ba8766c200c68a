//! A BullMQ queue on Redis, as its semantics matter to the outbox:
//! - `add` with a `jobId` that exists in any state (waiting, active, completed, failed) is
//!   ignored: BullMQ hands back the existing job. That is the relay's first line of
//!   defence against its own republishes.
//! - `removeOnComplete` / `removeOnFail` delete the job, and with it the id: a republish
//!   after that makes a new job. With a count N, the newest N finished jobs are kept and
//!   older ones deleted as others finish.
//! - An active job whose worker died keeps its lock until the lock expires; the stalled
//!   checker then moves it back to the head of wait (`stalledCount + 1`). Once it has
//!   stalled more than `maxStalledCount` times it still goes back to wait, marked with a
//!   deferred failure ("job stalled more than allowable limit"), and fails when a worker
//!   next picks it up, without being processed (BullMQ 6.3.16).
//! - A job in the failed set is kept (unless `removeOnFail` deleted it) and waits for an
//!   operator: `job.retry()` (`retry_job`) or `queue.retryJobs` (`retry_failed`) moves it
//!   to the back of wait. BullMQ 6.3.16 (`reprocessJob-9.lua`, `moveJobsToWait-8.lua`)
//!   clears only `finishedOn`, `processedOn` and `failedReason`: the job keeps its
//!   `stalledCounter` (`stc`) and its attempts (`atm`/`ats`, unless the caller asks
//!   `resetAttemptsMade` / `resetAttemptsStarted`), so a retried job that stalled twice
//!   fails again at its next stall.
//! - Redis can be down: `add` fails fast, or hangs until Redis is back.
//! - Redis can restart: without persistence every job and id is gone; with
//!   `appendonly yes` every job survives as it was.
//!
//! The queue's state in canonical form, for the explorer's merging, is in `canon.rs`.

mod canon;

use crate::ids::{EventId, ProcId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "by", content = "n")]
pub enum JobKey {
    /// `jobId = hodisa_id`.
    Event(u32),
    /// No jobId given: BullMQ numbers the job itself.
    Auto(u64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    Waiting,
    Active,
    Completed,
    Failed,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Job {
    pub key: JobKey,
    pub event: EventId,
    /// The event's `malumot.summa` (the payment exercise's amount).
    pub amount: u32,
    pub state: JobState,
    pub worker: Option<ProcId>,
    /// Lock token of the current delivery: a worker whose job was taken away can no
    /// longer complete it.
    pub token: u64,
    /// When the lock of a dead worker runs out (None while its worker is alive).
    pub lock_until: Option<u64>,
    pub stalled_count: u32,
    /// Times a worker took the job (BullMQ's `attemptsStarted`), the pickup that fails a
    /// deferred failure included.
    pub deliveries: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Health {
    Up,
    /// Connection refused, and the relay's client fails fast (ioredis
    /// `enableOfflineQueue: false`): `add` rejects at once ("Stream isn't writeable and
    /// enableOfflineQueue options is false").
    DownFailFast,
    /// `add` does not return until Redis answers again: Redis down with the default
    /// client (ioredis queues the command and sends it on reconnect, so the job is added
    /// then), or Redis accepting connections but not answering, whatever the client.
    DownHang,
}

/// How Redis keeps its data across a restart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Persistence {
    /// `--save '' --appendonly no` (the lesson's Redis): a restart starts empty.
    Off,
    /// `--appendonly yes --appendfsync always`: every acknowledged write survives.
    AppendOnly,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QueueOptions {
    pub remove_on_complete: bool,
    pub remove_on_fail: bool,
    /// `removeOnComplete: N` (with `remove_on_complete` false): keep the newest N
    /// completed jobs; the older ones, and their ids, go as others complete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keep_completed: Option<u32>,
    /// `removeOnFail: N` (with `remove_on_fail` false): the same for failed jobs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keep_failed: Option<u32>,
    /// BullMQ's default is 1.
    pub max_stalled_count: u32,
    pub lock_duration_ticks: u64,
    pub stalled_interval_ticks: u64,
}

impl Default for QueueOptions {
    fn default() -> Self {
        QueueOptions {
            remove_on_complete: false,
            remove_on_fail: false,
            keep_completed: None,
            keep_failed: None,
            max_stalled_count: 1,
            lock_duration_ticks: 30,
            stalled_interval_ticks: 30,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddResult {
    Created(JobKey),
    /// A job with that id already existed; nothing was added.
    Duplicate(JobKey),
    Refused,
    Hangs,
}

/// Why `job.retry()` moved nothing (BullMQ's `reprocessJob` codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetryRefused {
    /// `-1`, "Missing key for job": no such job (never added, or removed by
    /// `removeOnFail` / `removeOnComplete` / a count, or flushed).
    NoJob,
    /// `-3`, "Job … is not in the failed state": the job is waiting, active or completed.
    NotFailed(JobState),
    /// Redis is down: the command does not reach it.
    QueueDown,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StallOutcome {
    BackToWait(EventId),
    Failed(EventId),
}

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Queue {
    pub opts: QueueOptions,
    pub health: Health,
    /// Jobs by slot; a removed job frees its slot for the next one (`free`).
    slots: Vec<Option<Job>>,
    free: Vec<u32>,
    /// Slot of the job whose jobId is the event id, by event id (`NO_SLOT`: none), so the
    /// hot path (add, take, complete, can_deliver) never searches.
    by_event: Vec<u32>,
    /// Slots of auto-numbered jobs, by number.
    auto_slots: BTreeMap<u64, u32>,
    /// Waiting jobs, by slot, oldest first.
    waiting: VecDeque<u32>,
    next_auto: u64,
    next_token: u64,
    /// Auto-numbered jobs by event, so lookups never scan.
    autos: BTreeMap<u32, Vec<JobKey>>,
    /// Order in which jobs were created, capped (the exercise's "navbat: 1, 2, 4, 5, 3").
    pub created_order: Vec<EventId>,
    pub created_order_cap: usize,
    counts: [u64; 4],
    /// Jobs whose lock runs out (`lock_until` set): the stalled checker has work only then.
    lock_timers: u64,
    /// Slots of the waiting jobs that stalled more than `max_stalled_count` times: the
    /// next worker that takes one fails it, unprocessed (BullMQ's deferred failure,
    /// `defa`). Kept here, not in `Job`, so a job's printed form is as before.
    deferred: Vec<u32>,
    /// Completed and failed jobs' slots, oldest finish first, while `keep_completed` /
    /// `keep_failed` count them.
    finished: [VecDeque<u32>; 2],
    /// Events whose job the queue removed or failed on its own (a count's eviction, a
    /// deferred failure at a fetch) since the world last read them: their class may have
    /// changed (a failed job deleted is lost), so the world judges them again. Empty
    /// between steps.
    pub(crate) evicted: Vec<EventId>,
}

clone_reusing!(Queue {
    opts,
    health,
    next_auto,
    next_token,
    created_order_cap,
    counts,
    lock_timers
} refill {
    auto_slots,
    autos,
    slots,
    free,
    by_event,
    waiting,
    created_order,
    deferred,
    finished,
    evicted
});

const NO_SLOT: u32 = u32::MAX;

impl Queue {
    pub fn new(opts: QueueOptions) -> Self {
        Queue {
            opts,
            health: Health::Up,
            slots: Vec::new(),
            free: Vec::new(),
            by_event: Vec::new(),
            auto_slots: BTreeMap::new(),
            waiting: VecDeque::new(),
            next_auto: 1,
            next_token: 1,
            autos: BTreeMap::new(),
            created_order: Vec::new(),
            created_order_cap: 1000,
            counts: [0; 4],
            lock_timers: 0,
            deferred: Vec::new(),
            finished: Default::default(),
            evicted: Vec::new(),
        }
    }

    fn slot(s: JobState) -> usize {
        match s {
            JobState::Waiting => 0,
            JobState::Active => 1,
            JobState::Completed => 2,
            JobState::Failed => 3,
        }
    }

    /// Room for about this many jobs up front (a hint: the lists still grow).
    pub(crate) fn reserve(&mut self, jobs: usize) {
        self.slots.reserve(jobs);
        self.by_event.reserve(jobs + 1);
        self.created_order.reserve(jobs.min(self.created_order_cap));
    }

    /// The slot holding the job with this key.
    #[inline]
    fn slot_of(&self, key: JobKey) -> Option<u32> {
        match key {
            JobKey::Event(e) => self
                .by_event
                .get(e as usize)
                .copied()
                .filter(|&s| s != NO_SLOT),
            JobKey::Auto(n) => self.auto_slots.get(&n).copied(),
        }
    }

    fn at(&self, slot: u32) -> &Job {
        self.slots[slot as usize].as_ref().expect("job")
    }

    fn at_mut(&mut self, slot: u32) -> &mut Job {
        self.slots[slot as usize].as_mut().expect("job")
    }

    /// Slots of the jobs `keep` selects, in key order (the order BullMQ's scans use here).
    fn slots_where(&self, keep: impl Fn(&Job) -> bool) -> Vec<u32> {
        let mut v: Vec<(JobKey, u32)> = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, j)| j.as_ref().filter(|j| keep(j)).map(|j| (j.key, i as u32)))
            .collect();
        v.sort_unstable_by_key(|(k, _)| *k);
        v.into_iter().map(|(_, s)| s).collect()
    }

    fn set_state_at(&mut self, slot: u32, s: JobState) {
        let j = self.slots[slot as usize].as_mut().expect("job");
        self.counts[Self::slot(j.state)] -= 1;
        j.state = s;
        self.counts[Self::slot(s)] += 1;
    }

    fn remove_at(&mut self, slot: u32) {
        let Some(j) = self.slots[slot as usize].take() else {
            return;
        };
        self.free.push(slot);
        self.deferred.retain(|&d| d != slot);
        for f in &mut self.finished {
            if !f.is_empty() {
                f.retain(|&d| d != slot);
            }
        }
        self.counts[Self::slot(j.state)] -= 1;
        if j.lock_until.is_some() {
            self.lock_timers -= 1;
        }
        match j.key {
            JobKey::Event(e) => self.by_event[e as usize] = NO_SLOT,
            JobKey::Auto(n) => {
                self.auto_slots.remove(&n);
                if let Some(v) = self.autos.get_mut(&j.event.0) {
                    v.retain(|k| *k != j.key);
                    if v.is_empty() {
                        self.autos.remove(&j.event.0);
                    }
                }
            }
        }
    }

    /// `queue.add`. `job_id` is `Some(hodisa_id)` when the caller sets `jobId`.
    pub fn add(&mut self, event: EventId, amount: u32, with_job_id: bool) -> AddResult {
        match self.health {
            Health::DownFailFast => return AddResult::Refused,
            Health::DownHang => return AddResult::Hangs,
            Health::Up => {}
        }
        let key = if with_job_id {
            JobKey::Event(event.0)
        } else {
            self.next_auto += 1;
            JobKey::Auto(self.next_auto - 1)
        };
        if self.slot_of(key).is_some() {
            return AddResult::Duplicate(key);
        }
        let job = Job {
            key,
            event,
            amount,
            state: JobState::Waiting,
            worker: None,
            token: 0,
            lock_until: None,
            stalled_count: 0,
            deliveries: 0,
        };
        let slot = match self.free.pop() {
            Some(s) => {
                self.slots[s as usize] = Some(job);
                s
            }
            None => {
                self.slots.push(Some(job));
                (self.slots.len() - 1) as u32
            }
        };
        match key {
            JobKey::Event(e) => {
                let e = e as usize;
                if self.by_event.len() <= e {
                    self.by_event.resize(e + 1, NO_SLOT);
                }
                self.by_event[e] = slot;
            }
            JobKey::Auto(n) => {
                self.auto_slots.insert(n, slot);
                self.autos.entry(event.0).or_default().push(key);
            }
        }
        self.counts[0] += 1;
        self.waiting.push_back(slot);
        if self.created_order.len() < self.created_order_cap {
            self.created_order.push(event);
        }
        AddResult::Created(key)
    }

    pub fn has_waiting(&self) -> bool {
        self.health == Health::Up && !self.waiting.is_empty()
    }

    /// The worker's blocking fetch: the oldest waiting job becomes active, locked to it.
    /// A job with a deferred failure on the way is failed, not handed over (BullMQ's
    /// worker fails it without calling the processor and fetches the next one).
    pub fn take(&mut self, worker: ProcId) -> Option<(JobKey, u64)> {
        if self.health != Health::Up {
            return None;
        }
        let mut slot = self.waiting.pop_front()?;
        while let Some(i) = self.deferred.iter().position(|&d| d == slot) {
            self.deferred.swap_remove(i);
            self.at_mut(slot).deliveries += 1;
            let ev = self.at(slot).event;
            self.evicted.push(ev);
            if self.opts.remove_on_fail {
                self.remove_at(slot);
            } else {
                self.set_state_at(slot, JobState::Failed);
                self.keep_newest(1, slot);
            }
            slot = self.waiting.pop_front()?;
        }
        self.set_state_at(slot, JobState::Active);
        let token = self.next_token;
        self.next_token += 1;
        let j = self.slots[slot as usize].as_mut().expect("job");
        j.worker = Some(worker);
        j.token = token;
        let had_timer = j.lock_until.take().is_some();
        j.deliveries += 1;
        let key = j.key;
        if had_timer {
            self.lock_timers -= 1;
        }
        Some((key, token))
    }

    #[inline]
    pub fn job(&self, key: JobKey) -> Option<&Job> {
        self.slot_of(key).map(|s| self.at(s))
    }

    /// The slot of an active job held with this lock token.
    fn locked_slot(&self, key: JobKey, token: u64) -> Option<u32> {
        let s = self.slot_of(key)?;
        let j = self.at(s);
        (j.state == JobState::Active && j.token == token).then_some(s)
    }

    /// `locked_slot`, and at `now` the lock has not run out yet.
    fn held_slot(&self, key: JobKey, token: u64, now: Option<u64>) -> Option<u32> {
        let s = self.locked_slot(key, token)?;
        let expired = matches!((now, self.at(s).lock_until), (Some(now), Some(t)) if t <= now);
        (!expired).then_some(s)
    }

    /// `moveToCompleted` by a worker that still renews its lock (every worker in a
    /// `World`: a dead one never completes). Fails ("Missing lock for job") when the lock
    /// was lost.
    pub fn complete(&mut self, key: JobKey, token: u64) -> bool {
        self.complete_at(key, token, None)
    }

    /// `moveToCompleted` at `now` (`Some`), by a worker whose lock may have run out: once
    /// it has, BullMQ refuses ("Missing lock for job … moveToFinished") even before the
    /// stalled check moves the job back, and the job stays active until then.
    pub fn complete_at(&mut self, key: JobKey, token: u64, now: Option<u64>) -> bool {
        if self.health != Health::Up {
            return false;
        }
        let Some(s) = self.held_slot(key, token, now) else {
            return false;
        };
        if self.opts.remove_on_complete {
            self.remove_at(s);
        } else {
            self.set_state_at(s, JobState::Completed);
            self.at_mut(s).worker = None;
            self.keep_newest(0, s);
        }
        true
    }

    /// `removeOnComplete` / `removeOnFail` with a count: `s` just finished; the oldest
    /// finished jobs past the count are deleted (set 0 completed, 1 failed).
    fn keep_newest(&mut self, set: usize, s: u32) {
        let Some(n) = [self.opts.keep_completed, self.opts.keep_failed][set] else {
            return;
        };
        self.finished[set].push_back(s);
        while self.finished[set].len() > n as usize {
            let old = self.finished[set].pop_front().expect("finished job");
            let ev = self.at(old).event;
            self.evicted.push(ev);
            self.remove_at(old);
        }
    }

    /// `moveToFailed` after the processor threw (attempts: 1).
    pub fn fail(&mut self, key: JobKey, token: u64) -> bool {
        self.fail_at(key, token, None)
    }

    /// `moveToFailed` at `now`: refused, like `complete_at`, once the lock ran out.
    pub fn fail_at(&mut self, key: JobKey, token: u64, now: Option<u64>) -> bool {
        let Some(s) = self.held_slot(key, token, now) else {
            return false;
        };
        if self.opts.remove_on_fail {
            self.remove_at(s);
        } else {
            self.set_state_at(s, JobState::Failed);
            self.at_mut(s).worker = None;
            self.keep_newest(1, s);
        }
        true
    }

    /// The worker holding these jobs died: their locks run out after `lock_duration`.
    pub fn worker_died(&mut self, worker: ProcId, now: u64) {
        if self.count(JobState::Active) == 0 {
            return;
        }
        let until = now + self.opts.lock_duration_ticks;
        for j in self.slots.iter_mut().flatten() {
            if j.state == JobState::Active && j.worker == Some(worker) && j.lock_until.is_none() {
                j.lock_until = Some(until);
                self.lock_timers += 1;
            }
        }
    }

    /// Some active job belongs to a dead worker (its lock will run out).
    pub fn has_orphaned_active(&self) -> bool {
        self.lock_timers > 0
            && self.count(JobState::Active) > 0
            && self
                .slots
                .iter()
                .flatten()
                .any(|j| j.state == JobState::Active && j.lock_until.is_some())
    }

    /// The stalled-jobs checker.
    pub fn check_stalled(&mut self, now: u64) -> Vec<StallOutcome> {
        if self.health != Health::Up || self.lock_timers == 0 {
            return Vec::new();
        }
        let expired = self
            .slots_where(|j| j.state == JobState::Active && j.lock_until.is_some_and(|t| t <= now));
        let mut out = Vec::new();
        for s in expired {
            let j = self.at_mut(s);
            j.stalled_count += 1;
            j.worker = None;
            j.lock_until = None;
            let ev = j.event;
            let stalled_count = j.stalled_count;
            self.lock_timers -= 1;
            if stalled_count > self.opts.max_stalled_count {
                // Failed, but only when a worker next takes it (`take`).
                out.push(StallOutcome::Failed(ev));
                self.deferred.push(s);
            } else {
                out.push(StallOutcome::BackToWait(ev));
            }
            self.set_state_at(s, JobState::Waiting);
            // Stalled jobs go back to the head of the line.
            self.waiting.push_front(s);
        }
        out
    }

    /// `queue.retryJobs({ state: 'failed' })`: an operator's way back from the failed set.
    /// Every failed job goes to the back of wait, its stall count and attempts kept (see
    /// the module doc).
    pub fn retry_failed(&mut self) -> Vec<EventId> {
        if self.count(JobState::Failed) == 0 {
            return Vec::new();
        }
        let failed = self.slots_where(|j| j.state == JobState::Failed);
        let mut out = Vec::new();
        self.finished[1].clear();
        for s in failed {
            self.set_state_at(s, JobState::Waiting);
            out.push(self.at(s).event);
            self.waiting.push_back(s);
        }
        out
    }

    /// `job.retry()` (BullMQ 6.3.16's `reprocessJob`, default options) on the job with
    /// this key: a failed job leaves the failed set for the back of wait, its stall count
    /// and attempts kept; anything else is refused and nothing changes.
    pub fn retry_job(&mut self, key: JobKey) -> Result<EventId, RetryRefused> {
        if self.health != Health::Up {
            return Err(RetryRefused::QueueDown);
        }
        let s = self.slot_of(key).ok_or(RetryRefused::NoJob)?;
        let state = self.at(s).state;
        if state != JobState::Failed {
            return Err(RetryRefused::NotFailed(state));
        }
        self.finished[1].retain(|&d| d != s);
        self.set_state_at(s, JobState::Waiting);
        self.waiting.push_back(s);
        Ok(self.at(s).event)
    }

    /// The job `job.retry()` would act on for this event: its `jobId` job, or else its
    /// first failed auto-numbered one (None: the event has no job at all).
    pub fn retry_key(&self, ev: EventId) -> Option<JobKey> {
        let failed = self.jobs_for(ev).find(|j| j.state == JobState::Failed);
        failed.or_else(|| self.jobs_for(ev).next()).map(|j| j.key)
    }

    /// Some job of this event sits in the failed set, or waits with a deferred failure
    /// that will put it there: retained, and a retry would deliver it.
    pub fn waits_for_retry(&self, ev: EventId) -> bool {
        if self.count(JobState::Failed) == 0 && self.deferred.is_empty() {
            return false;
        }
        self.jobs_for(ev).any(|j| {
            j.state == JobState::Failed
                || (j.state == JobState::Waiting && self.has_deferred_failure(j.key))
        })
    }

    /// Redis restarted: without persistence everything is gone (`lose_everything`); with
    /// `appendonly yes` every job, id, state and wait position survives, and a lock's
    /// expiry is absolute, so nothing else changes. The events whose jobs were lost.
    pub fn restart(&mut self, persistence: Persistence) -> Vec<EventId> {
        match persistence {
            Persistence::Off => self.lose_everything(),
            Persistence::AppendOnly => Vec::new(),
        }
    }

    /// Redis restarted without persistence: everything is gone.
    pub fn lose_everything(&mut self) -> Vec<EventId> {
        let evs = self.jobs().map(|j| j.event).collect();
        self.slots.clear();
        self.free.clear();
        self.by_event.clear();
        self.auto_slots.clear();
        self.waiting.clear();
        self.autos.clear();
        self.counts = [0; 4];
        self.lock_timers = 0;
        self.deferred.clear();
        self.finished = Default::default();
        self.evicted.clear();
        evs
    }

    pub fn len(&self) -> u64 {
        self.counts.iter().sum()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn count(&self, s: JobState) -> u64 {
        self.counts[Self::slot(s)]
    }

    /// Jobs for an event, in key order (one unless jobs were added without a jobId).
    pub fn jobs_for(&self, ev: EventId) -> impl Iterator<Item = &Job> {
        let direct = self.job(JobKey::Event(ev.0));
        let autos = self
            .autos
            .get(&ev.0)
            .into_iter()
            .flatten()
            .filter_map(|k| self.job(*k));
        direct.into_iter().chain(autos)
    }

    /// Whether some job can still hand this event to a worker (waiting or active).
    #[inline]
    pub fn can_deliver(&self, ev: EventId) -> bool {
        let live = |j: &Job| match j.state {
            JobState::Waiting => !self.has_deferred_failure(j.key),
            JobState::Active => true,
            _ => false,
        };
        if self.job(JobKey::Event(ev.0)).is_some_and(live) {
            return true;
        }
        !self.autos.is_empty() && self.jobs_for(ev).any(live)
    }

    /// The wait list in the order workers will take it, deferred failures included.
    pub fn wait_list(&self) -> impl Iterator<Item = JobKey> + '_ {
        self.waiting.iter().map(|&s| self.at(s).key)
    }

    /// The job waits with a deferred failure: the next worker to take it fails it.
    pub fn has_deferred_failure(&self, key: JobKey) -> bool {
        !self.deferred.is_empty()
            && self
                .slot_of(key)
                .is_some_and(|s| self.deferred.contains(&s))
    }

    /// Every job, in key order.
    pub fn jobs(&self) -> impl Iterator<Item = &Job> {
        self.slots_where(|_| true).into_iter().map(|s| self.at(s))
    }

    pub fn check_invariants(&self) -> Result<(), String> {
        let mut c = [0u64; 4];
        let mut timers = 0;
        for j in self.slots.iter().flatten() {
            c[Self::slot(j.state)] += 1;
            timers += j.lock_until.is_some() as u64;
            if self.slot_of(j.key).map(|s| self.at(s).key) != Some(j.key) {
                return Err(format!("queue-counts: {:?} not found by its key", j.key));
            }
        }
        if c != self.counts {
            return Err(format!(
                "queue-counts: counted {:?}, kept {:?}",
                c, self.counts
            ));
        }
        if timers != self.lock_timers {
            return Err(format!(
                "queue-counts: {timers} lock timers, kept {}",
                self.lock_timers
            ));
        }
        if self.waiting.len() as u64 != c[0] {
            return Err(format!(
                "queue-wait-list: list {} vs waiting jobs {}",
                self.waiting.len(),
                c[0]
            ));
        }
        for &s in &self.waiting {
            let j = self.slots.get(s as usize).and_then(|j| j.as_ref());
            if j.map(|j| j.state) != Some(JobState::Waiting) {
                return Err(format!(
                    "queue-wait-list: {:?} listed but not waiting",
                    j.map(|j| j.key)
                ));
            }
        }
        Ok(())
    }
}

impl Queue {
    /// Asks for the jobs and the lists that order them (see `World::prefetch_parts`).
    pub(crate) fn prefetch_parts(&self) {
        use crate::prefetch::slice;
        slice(&self.slots);
        slice(&self.by_event);
        let (a, b) = self.waiting.as_slices();
        slice(a);
        slice(b);
        slice(&self.deferred);
        slice(&self.created_order);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_id_dedup_holds_in_every_state_until_removed() {
        let mut q = Queue::new(QueueOptions::default());
        assert!(matches!(q.add(EventId(1), 0, true), AddResult::Created(_)));
        assert!(matches!(
            q.add(EventId(1), 0, true),
            AddResult::Duplicate(_)
        ));
        let (k, t) = q.take(ProcId(0)).unwrap();
        assert!(matches!(
            q.add(EventId(1), 0, true),
            AddResult::Duplicate(_)
        ));
        assert!(q.complete(k, t));
        assert!(matches!(
            q.add(EventId(1), 0, true),
            AddResult::Duplicate(_)
        ));
        let mut q = Queue::new(QueueOptions {
            remove_on_complete: true,
            ..QueueOptions::default()
        });
        q.add(EventId(1), 0, true);
        let (k, t) = q.take(ProcId(0)).unwrap();
        q.complete(k, t);
        assert!(matches!(q.add(EventId(1), 0, true), AddResult::Created(_)));
    }

    #[test]
    fn dead_worker_job_stalls_back_then_fails() {
        let mut q = Queue::new(QueueOptions::default());
        q.add(EventId(1), 0, true);
        q.take(ProcId(0)).unwrap();
        q.worker_died(ProcId(0), 0);
        assert!(q.check_stalled(10).is_empty(), "lock still held");
        assert_eq!(
            q.check_stalled(30),
            vec![StallOutcome::BackToWait(EventId(1))]
        );
        q.take(ProcId(0)).unwrap();
        q.worker_died(ProcId(0), 30);
        assert_eq!(q.check_stalled(60), vec![StallOutcome::Failed(EventId(1))]);
        // Back in wait with a deferred failure: the next fetch fails it and gets nothing.
        assert_eq!(q.job(JobKey::Event(1)).unwrap().state, JobState::Waiting);
        assert!(!q.can_deliver(EventId(1)));
        assert_eq!(q.take(ProcId(1)), None);
        let j = q.job(JobKey::Event(1)).unwrap();
        assert_eq!((j.state, j.deliveries), (JobState::Failed, 3));
        // The failed set keeps the id: a republish is swallowed.
        assert!(matches!(
            q.add(EventId(1), 0, true),
            AddResult::Duplicate(_)
        ));
        q.check_invariants().unwrap();
    }

    #[test]
    fn complete_after_the_lock_ran_out_is_refused_before_the_check() {
        let mut q = Queue::new(QueueOptions::default());
        q.add(EventId(1), 0, true);
        let (k, t) = q.take(ProcId(0)).unwrap();
        q.worker_died(ProcId(0), 0);
        assert!(!q.complete_at(k, t, Some(30)));
        assert_eq!(q.job(k).unwrap().state, JobState::Active);
        assert_eq!(
            q.check_stalled(30),
            vec![StallOutcome::BackToWait(EventId(1))]
        );
    }

    #[test]
    fn a_restart_loses_jobs_only_without_persistence() {
        let mut q = Queue::new(QueueOptions::default());
        q.add(EventId(1), 0, true);
        assert!(q.restart(Persistence::AppendOnly).is_empty());
        assert!(matches!(
            q.add(EventId(1), 0, true),
            AddResult::Duplicate(_)
        ));
        assert_eq!(q.restart(Persistence::Off), vec![EventId(1)]);
        assert!(matches!(q.add(EventId(1), 0, true), AddResult::Created(_)));
    }

    #[test]
    fn remove_on_complete_with_a_count_keeps_the_newest() {
        let mut q = Queue::new(QueueOptions {
            keep_completed: Some(2),
            ..QueueOptions::default()
        });
        for e in 1..=3 {
            q.add(EventId(e), 0, true);
            let (k, t) = q.take(ProcId(0)).unwrap();
            assert!(q.complete(k, t));
        }
        assert!(q.job(JobKey::Event(1)).is_none());
        assert_eq!(q.count(JobState::Completed), 2);
        assert!(matches!(q.add(EventId(1), 0, true), AddResult::Created(_)));
        assert!(matches!(
            q.add(EventId(2), 0, true),
            AddResult::Duplicate(_)
        ));
        q.check_invariants().unwrap();
    }

    #[test]
    fn late_complete_after_stall_is_refused() {
        let mut q = Queue::new(QueueOptions::default());
        q.add(EventId(1), 0, true);
        let (k, t) = q.take(ProcId(0)).unwrap();
        q.worker_died(ProcId(0), 0);
        q.check_stalled(30);
        assert!(!q.complete(k, t));
    }
}
