//! The queue truth suite's harness: real BullMQ (`bull`, through `harness.js`), Redis
//! servers of the test's own (`redis`), and the fixture `Twin`, which applies every step to
//! BullMQ and to the model's `outbox_model::queue::Queue`, prints both answers on one line
//! and insists they agree.

mod bull;
mod redis;

pub use bull::Bull;
pub use outbox_model::queue::Persistence;
pub use redis::RedisServer;

use outbox_model::ids::{EventId, ProcId};
use outbox_model::queue::{AddResult, JobKey, JobState, Queue, QueueOptions, StallOutcome};
use serde_json::{json, Value};
use std::fmt;
use std::time::{Duration, Instant};

/// The test's lock: 1 s (BullMQ's default is 30 s), checked every 100 ms at most. The
/// model's clock moves only by the test's waits while BullMQ's is the wall clock, so the
/// steps between taking a job and finishing it must fit in the lock on a loaded machine:
/// at 200 ms a busy 2-core machine (compiles beside the suite) let a lock run out
/// between "take" and "complete" and the two sides parted. A lock meant to run out is
/// waited for (`Twin::wait_gone`), not slept past.
pub const LOCK_MS: u64 = 1_000;
pub const STALLED_INTERVAL_MS: u64 = 100;

/// How long `Twin::wait_gone` waits for a key that should expire within `LOCK_MS`:
/// generous, for a loaded machine.
pub const GONE_WITHIN: Duration = Duration::from_secs(30);

/// The jobId the relay gives event `e`: its `hodisa_id`, a uuid (BullMQ refuses a custom
/// id that is an integer: "Custom Id cannot be integers").
pub fn job_id(e: u32) -> String {
    format!("00000000-0000-4000-8000-{e:012}")
}

/// The event number of a jobId made by `job_id` (what the printed answers show).
pub fn event_of(id: &str) -> String {
    match id.strip_prefix("00000000-0000-4000-8000-") {
        Some(n) => n.trim_start_matches('0').to_string(),
        None => id.to_string(),
    }
}

/// The shared Redis that `cargo xtask test` starts.
pub fn shared_url() -> String {
    std::env::var("OUTBOX_REDIS_URL").unwrap_or_else(|_| {
        panic!(
            "OUTBOX_REDIS_URL is not set: the queue truth suite needs the redis-server that \
             `cargo xtask test` starts"
        )
    })
}

/// The queue's settings on both sides.
#[derive(Clone, Copy, Debug)]
pub struct Opts {
    pub remove_on_complete: bool,
    pub remove_on_fail: bool,
    /// `removeOnComplete: N` / `removeOnFail: N` (in place of `true`/`false`).
    pub keep_completed: Option<u32>,
    pub keep_failed: Option<u32>,
    pub max_stalled_count: u32,
    /// The producer's client: false is `enableOfflineQueue: false` (fail fast).
    pub offline_queue: bool,
}

impl Default for Opts {
    fn default() -> Self {
        Opts {
            remove_on_complete: false,
            remove_on_fail: false,
            keep_completed: None,
            keep_failed: None,
            max_stalled_count: 1,
            offline_queue: true,
        }
    }
}

/// What `add` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Added {
    /// A new job with this id.
    Created(String),
    /// The id existed: nothing was added, the existing job was handed back.
    Existing(String),
    /// Rejected at once.
    Refused,
    /// No answer while Redis is away.
    Hangs,
}

/// One job as both sides can show it: id, state, attempts started (BullMQ's
/// `attemptsStarted`, the model's `deliveries`), times stalled (`stalledCounter`,
/// `stalled_count`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct JobView {
    pub id: String,
    pub state: String,
    pub started: u64,
    pub stalled: u64,
}

/// The observable state of the queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub jobs: Vec<JobView>,
    /// waiting, active, completed, failed, delayed.
    pub counts: [u64; 5],
    /// Waiting jobs in the order workers will get them.
    pub next: Vec<String>,
}

impl fmt::Display for Snapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [w, a, c, fl, d] = self.counts;
        write!(f, "w{w} a{a} c{c} f{fl} d{d} next={:?} [", self.next)?;
        for (i, j) in self.jobs.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            write!(
                f,
                "{sep}{}:{} started={} stalled={}",
                j.id, j.state, j.started, j.stalled
            )?;
        }
        write!(f, "]")
    }
}

fn key_name(k: JobKey) -> String {
    match k {
        JobKey::Event(e) => e.to_string(),
        JobKey::Auto(n) => format!("auto{n}"),
    }
}

fn state_name(s: JobState) -> &'static str {
    match s {
        JobState::Waiting => "waiting",
        JobState::Active => "active",
        JobState::Completed => "completed",
        JobState::Failed => "failed",
    }
}

/// One scenario: a queue in BullMQ and the model's queue, the model's clock in ms.
pub struct Twin {
    pub bull: Bull,
    pub m: Queue,
    name: &'static str,
    /// The model's clock: milliseconds since the scenario began.
    pub now: u64,
    /// The lock token each model worker holds, by worker.
    held: Vec<(u8, JobKey, u64)>,
    /// The printed table, kept until the scenario ends (or fails) and printed in one
    /// piece, so scenarios running in parallel do not interleave.
    lines: std::cell::RefCell<Vec<String>>,
}

impl Twin {
    /// A fresh queue named after the scenario on the shared Redis.
    pub fn new(name: &'static str, opts: Opts) -> Twin {
        Twin::on(name, &shared_url(), opts)
    }

    /// A fresh queue on the Redis at `url`.
    pub fn on(name: &'static str, url: &str, opts: Opts) -> Twin {
        let mut bull = Bull::start();
        bull.call(
            "open",
            name,
            json!({
                "url": url,
                "opts": {
                    "lockDuration": LOCK_MS,
                    "stalledInterval": STALLED_INTERVAL_MS,
                    "maxStalledCount": opts.max_stalled_count,
                    "removeOnComplete": opts.keep_completed.map_or(json!(opts.remove_on_complete), |n| json!(n)),
                    "removeOnFail": opts.keep_failed.map_or(json!(opts.remove_on_fail), |n| json!(n)),
                    "offlineQueue": opts.offline_queue,
                }
            }),
        );
        let m = Queue::new(QueueOptions {
            remove_on_complete: opts.remove_on_complete,
            remove_on_fail: opts.remove_on_fail,
            keep_completed: opts.keep_completed,
            keep_failed: opts.keep_failed,
            max_stalled_count: opts.max_stalled_count,
            lock_duration_ticks: LOCK_MS,
            stalled_interval_ticks: STALLED_INTERVAL_MS,
        });
        Twin {
            bull,
            m,
            name,
            now: 0,
            held: Vec::new(),
            lines: Default::default(),
        }
    }

    /// Adds a line to the scenario's printed table.
    pub fn print(&self, line: String) {
        self.lines.borrow_mut().push(line);
    }

    /// Prints one step's two answers and insists they agree.
    pub fn same<T: fmt::Debug + PartialEq>(&self, step: &str, bull: T, model: T) -> T {
        let name = self.name;
        self.print(format!(
            "queue-truth: {name:<22} {step:<46} bullmq={bull:?} model={model:?}"
        ));
        assert_eq!(bull, model, "{name}: {step}: BullMQ and the model disagree");
        bull
    }

    /// Prints a step only BullMQ answers (the model has no such thing), with why.
    pub fn bull_only(&self, step: &str, bull: &dyn fmt::Debug, why: &str) {
        let name = self.name;
        self.print(format!(
            "queue-truth: {name:<22} {step:<46} bullmq={bull:?} ({why})"
        ));
    }

    fn model_added(r: AddResult) -> Added {
        match r {
            AddResult::Created(k) => Added::Created(key_name(k)),
            AddResult::Duplicate(k) => Added::Existing(key_name(k)),
            AddResult::Refused => Added::Refused,
            AddResult::Hangs => Added::Hangs,
        }
    }

    /// Reads an `add` answer from harness.js.
    pub fn bull_added(v: &Value) -> Added {
        assert_eq!(v["ok"], true, "harness.js: add failed: {v}");
        if v["refused"].is_string() {
            return Added::Refused;
        }
        let id = event_of(v["job"].as_str().expect("job id"));
        if v["created"] == true {
            Added::Created(id)
        } else {
            Added::Existing(id)
        }
    }

    /// `queue.add` with `jobId` = the event id, on both sides.
    pub fn add(&mut self, step: &str, event: u32) -> Added {
        let q = self.name;
        let v = self
            .bull
            .call("add", q, json!({ "jobId": job_id(event), "event": event }));
        let bull = Self::bull_added(&v);
        let model = Self::model_added(self.m.add(EventId(event), event, true));
        let agreed = self.same(step, bull, model);
        self.same_state(step);
        agreed
    }

    /// The model's half of an `add` (for steps whose BullMQ half is driven by hand).
    pub fn model_add(&mut self, event: u32) -> Added {
        Self::model_added(self.m.add(EventId(event), event, true))
    }

    /// Worker `w` fetches the next job, on both sides; the id it got, if any. Workers here
    /// never renew their lock: in the model the worker "dies" as it takes the job, so its
    /// lock runs out `LOCK_MS` later, as BullMQ's does.
    pub fn take(&mut self, step: &str, w: u8) -> Option<String> {
        let q = self.name;
        let v = self
            .bull
            .call("take", q, json!({ "token": format!("w{w}") }));
        let bull = v["job"].as_str().map(event_of);
        for f in v["failedOnPickup"].as_array().into_iter().flatten() {
            let id = event_of(f["id"].as_str().unwrap_or("?"));
            let reason = f["reason"].as_str().unwrap_or("?");
            self.bull_only(
                &format!("{step}: fails {id} on pickup"),
                &reason,
                "a deferred failure: not processed",
            );
        }
        let got = self.m.take(ProcId(w));
        let model = got.map(|(k, _)| key_name(k));
        if let Some((k, t)) = got {
            self.held.retain(|h| h.0 != w);
            self.held.push((w, k, t));
            self.m.worker_died(ProcId(w), self.now);
        }
        let agreed = self.same(step, bull, model);
        self.same_state(step);
        agreed
    }

    fn held(&mut self, w: u8) -> (JobKey, u64) {
        let i = self
            .held
            .iter()
            .position(|h| h.0 == w)
            .unwrap_or_else(|| panic!("worker {w} holds no job"));
        let (_, k, t) = self.held.remove(i);
        (k, t)
    }

    /// Worker `w` completes (`ok`) or fails its job; None when done, else BullMQ's error
    /// (the model's refusal shows as "refused").
    fn finish(&mut self, step: &str, w: u8, complete: bool) -> Option<String> {
        let q = self.name;
        let op = if complete { "complete" } else { "fail" };
        let v = self.bull.call(op, q, json!({ "token": format!("w{w}") }));
        let message = v["refused"].as_str().map(str::to_string);
        let (k, t) = self.held(w);
        let done = if complete {
            self.m.complete_at(k, t, Some(self.now))
        } else {
            self.m.fail_at(k, t, Some(self.now))
        };
        if let Some(m) = &message {
            self.bull_only(&format!("{step}: BullMQ says"), m, "its error, verbatim");
        }
        let bull = if message.is_some() { "refused" } else { "done" };
        let model = if done { "done" } else { "refused" };
        self.same(step, bull, model);
        self.same_state(step);
        message
    }

    pub fn complete(&mut self, step: &str, w: u8) -> Option<String> {
        self.finish(step, w, true)
    }

    pub fn fail(&mut self, step: &str, w: u8) -> Option<String> {
        self.finish(step, w, false)
    }

    /// `job.retry()` of event `event`'s job, on both sides; None when it moved, else
    /// BullMQ's error (the model's refusal shows as "refused").
    pub fn retry(&mut self, step: &str, event: u32) -> Option<String> {
        let q = self.name;
        let v = self
            .bull
            .call("retry", q, json!({ "jobId": job_id(event) }));
        let message = v["refused"].as_str().map(str::to_string);
        let done = self.m.retry_job(JobKey::Event(event)).is_ok();
        if let Some(m) = &message {
            self.bull_only(&format!("{step}: BullMQ says"), m, "its error, verbatim");
        }
        let bull = if message.is_some() { "refused" } else { "done" };
        let model = if done { "done" } else { "refused" };
        self.same(step, bull, model);
        self.same_state(step);
        message
    }

    /// One run of the stalled-jobs check, on both sides: the ids it moved (back to wait,
    /// or towards failed).
    pub fn stall_check(&mut self, step: &str) -> Vec<String> {
        let q = self.name;
        let v = self.bull.call("stalled", q, json!({}));
        let mut bull: Vec<String> = v["stalled"]
            .as_array()
            .expect("stalled ids")
            .iter()
            .map(|i| event_of(i.as_str().expect("id")))
            .collect();
        bull.sort();
        let mut model: Vec<String> = self
            .m
            .check_stalled(self.now)
            .into_iter()
            .map(|o| match o {
                StallOutcome::BackToWait(e) | StallOutcome::Failed(e) => e.0.to_string(),
            })
            .collect();
        model.sort();
        let agreed = self.same(step, bull, model);
        self.same_state(step);
        agreed
    }

    /// Lets `ms` pass on both sides.
    pub fn sleep(&mut self, ms: u64) {
        std::thread::sleep(Duration::from_millis(ms));
        self.now += ms;
    }

    /// Waits until BullMQ's key `bull:QUEUE:key` has expired on Redis' own clock (a
    /// job's lock, `ID:lock`, or the stalled check's interval marker, `stalled-check`),
    /// polling for at most `GONE_WITHIN`; then lets the time waited pass on the model's
    /// clock too, and at least `model_ms`: the model's timer of the same length has run
    /// out with it. A fixed sleep would only hope Redis had let the key go.
    pub fn wait_gone(&mut self, what: &str, key: &str, model_ms: u64) {
        let q = self.name;
        let started = Instant::now();
        while self.bull.call("exists", q, json!({ "key": key }))["exists"] == true {
            assert!(
                started.elapsed() < GONE_WITHIN,
                "{q}: {what} ({key}) still there after {GONE_WITHIN:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let waited_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.now += waited_ms.max(model_ms);
    }

    /// BullMQ's state as harness.js reads it.
    pub fn bull_snapshot(&mut self) -> (Snapshot, Value) {
        let q = self.name;
        let v = self.bull.call("state", q, json!({}));
        let c = &v["counts"];
        let n = |s: &str| c[s].as_u64().unwrap_or(0);
        let mut jobs: Vec<JobView> = v["jobs"]
            .as_array()
            .expect("jobs")
            .iter()
            .map(|j| JobView {
                id: event_of(j["id"].as_str().expect("id")),
                state: j["state"].as_str().expect("state").to_string(),
                started: j["attemptsStarted"].as_u64().unwrap_or(0),
                stalled: j["stalledCounter"].as_u64().unwrap_or(0),
            })
            .collect();
        jobs.sort();
        let next = v["wait"]
            .as_array()
            .expect("wait")
            .iter()
            .map(|i| event_of(i.as_str().expect("id")))
            .collect();
        let snap = Snapshot {
            jobs,
            counts: [
                n("waiting") + n("prioritized"),
                n("active"),
                n("completed"),
                n("failed"),
                n("delayed"),
            ],
            next,
        };
        (snap, v)
    }

    /// The model's state.
    pub fn model_snapshot(&self) -> Snapshot {
        let mut jobs: Vec<JobView> = self
            .m
            .jobs()
            .map(|j| JobView {
                id: key_name(j.key),
                state: state_name(j.state).to_string(),
                started: j.deliveries as u64,
                stalled: j.stalled_count as u64,
            })
            .collect();
        jobs.sort();
        let next = self.m.wait_list().map(key_name).collect();
        Snapshot {
            jobs,
            counts: [
                self.m.count(JobState::Waiting),
                self.m.count(JobState::Active),
                self.m.count(JobState::Completed),
                self.m.count(JobState::Failed),
                0,
            ],
            next,
        }
    }

    /// After every operation: both states compared, printed only when they disagree
    /// (`snapshot` prints them).
    fn same_state(&mut self, step: &str) {
        let (bull, _) = self.bull_snapshot();
        let model = self.model_snapshot();
        if bull != model {
            let name = self.name;
            self.print(format!("queue-truth: {name:<22} {step:<46} bullmq: {bull}"));
            self.print(format!(
                "queue-truth: {name:<22} {:<46} model:  {model}",
                ""
            ));
        }
        assert_eq!(
            bull, model,
            "{}: state after {step}: BullMQ and the model disagree",
            self.name
        );
    }

    /// Both states, compared; BullMQ's raw answer is returned for BullMQ-only details.
    pub fn snapshot(&mut self, step: &str) -> Value {
        let (bull, raw) = self.bull_snapshot();
        let model = self.model_snapshot();
        let name = self.name;
        self.print(format!("queue-truth: {name:<22} {step:<46} bullmq: {bull}"));
        self.print(format!(
            "queue-truth: {name:<22} {:<46} model:  {model}",
            ""
        ));
        assert_eq!(bull, model, "{name}: {step}: BullMQ and the model disagree");
        raw
    }

    /// Event `e`'s job's fields as BullMQ stores them (failedReason, attemptsMade, …).
    pub fn bull_job(raw: &Value, e: u32) -> Value {
        raw["jobs"]
            .as_array()
            .expect("jobs")
            .iter()
            .find(|j| j["id"] == job_id(e).as_str())
            .cloned()
            .unwrap_or(Value::Null)
    }
}

impl Drop for Twin {
    fn drop(&mut self) {
        let mut table = self.lines.take().join("\n");
        table.push('\n');
        print!("{table}");
    }
}

/// Times a step, for the printed answers.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed())
}
