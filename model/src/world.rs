//! The world: the database, the queue, the processes, the clock, the PRNG and the auditor.
//! Processes are small programs of labelled steps; every label is a kill point. Faults
//! are actions like any other. Nothing here reads a clock or the OS: a scenario and its
//! seed decide everything.

use crate::auditor::{Auditor, Class, TaskRef};
use crate::db::{Cursor, Db, Exec, OutboxChange, Privilege, Role, SqlError, Table, TxStatus};
use crate::ids::{EventId, EventKind, ProcId, TxId};
use crate::queue::{AddResult, Health, JobKey, Queue, StallOutcome};
use crate::rng::Rng;
use crate::scenario::{ApiMode, Config, Fault, RelayMode, Scenario, ScriptStmt, When, WorkerMode};
use crate::sql;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, VecDeque};

/// A labelled step of some process's program. Every step is a kill point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    // client
    Send,
    Await,
    // API, relay, worker
    Begin,
    InsertTask,
    InsertEvent,
    Commit,
    QueueAdd,
    Respond,
    SelectBatch,
    Publish,
    MarkPublished,
    MarkFailed,
    Rollback,
    Fetch,
    InboxCheck,
    InboxInsert,
    Action,
    ExternalCall,
    BeginSecond,
    CommitSecond,
    Complete,
    /// API: the client's idempotency key, in the request's transaction.
    InsertKey,
    /// Relay: rows that failed too often move to the dead-letter table.
    DeadLetter,
    /// CDC: read committed changes from the slot, after the saved offset.
    ReadWal,
    /// CDC: save (confirm) the offset; the slot may drop the log up to it.
    SaveOffset,
    /// Cleaner: `DELETE FROM outbox …` older than the retention.
    CleanOutbox,
    /// Cleaner: `DELETE FROM inbox …` older than the inbox retention.
    CleanInbox,
    /// A statement of the scripted SQL session, by position.
    Script(u8),
}

impl Step {
    /// A stable number for the trace hash.
    pub fn code(self) -> u64 {
        use Step::*;
        match self {
            Send => 1,
            Await => 2,
            Begin => 3,
            InsertTask => 4,
            InsertEvent => 5,
            Commit => 6,
            QueueAdd => 7,
            Respond => 8,
            SelectBatch => 9,
            Publish => 10,
            MarkPublished => 11,
            MarkFailed => 12,
            Rollback => 13,
            Fetch => 14,
            InboxCheck => 15,
            InboxInsert => 16,
            Action => 17,
            ExternalCall => 18,
            BeginSecond => 19,
            CommitSecond => 20,
            Complete => 21,
            InsertKey => 22,
            DeadLetter => 23,
            ReadWal => 24,
            SaveOffset => 25,
            CleanOutbox => 26,
            CleanInbox => 27,
            Script(i) => 256 + i as u64,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProcKind {
    Client,
    Api,
    Relay,
    Worker,
    Session,
    /// The CDC relay: reads the commit-ordered log through a replication slot.
    Cdc,
    /// The cleaner (`outboxTozala`).
    Cleaner,
}

/// Actions: what the scheduler, a user or a fault rule can do to the world.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action", deny_unknown_fields)]
pub enum Action {
    /// Let the scheduler pick a runnable process and run one step.
    Tick,
    /// Run one step of this process (must be runnable).
    Step {
        process: String,
    },
    /// Kill the process now, wherever it is.
    Kill {
        process: String,
    },
    /// Kill the process when it next reaches `step` (and `when` holds).
    ArmKill {
        process: String,
        step: Step,
        when: When,
        times: Option<u32>,
    },
    /// Drop the armed kills of a process: all of them, or only those at `step`.
    Disarm {
        process: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step: Option<Step>,
    },
    Restart {
        process: String,
    },
    /// Redis goes away: `add` is refused at once, or (hang) never returns.
    QueueDown {
        hang: bool,
    },
    QueueUp,
    /// Publishing `h-event` fails `times` more times.
    FailPublish {
        event: u32,
        times: u32,
    },
    /// An operator retries BullMQ's failed set.
    RetryFailedJobs,
    /// Redis restarts without persistence: every job, and with it every jobId, is gone.
    RedisFlush,
    /// The operator's recovery: `UPDATE outbox SET tarqatilgan_vaqt = NULL WHERE
    /// tarqatilgan_vaqt >= since_tick`, in its own transaction with a short lock_timeout (1 ms; PostgreSQL reads 0 as "wait forever")
    /// (refused with 55P03 when a relay holds one of the rows).
    UnpublishSince {
        since_tick: u64,
    },
}

impl Action {
    pub fn process(&self) -> Option<&str> {
        match self {
            Action::Step { process }
            | Action::Kill { process }
            | Action::ArmKill { process, .. }
            | Action::Disarm { process, .. }
            | Action::Restart { process } => Some(process),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "on", content = "id")]
pub enum Wait {
    /// Waiting for this transaction's row lock to go.
    Tx(TxId),
    /// Waiting for a Redis that does not answer.
    Queue,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Request {
    pub intent: u32,
    pub event: EventId,
    /// The event reached the queue (dual write) — after that the API holds nothing.
    pub added: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct HeldJob {
    pub key: JobKey,
    pub token: u64,
    pub event: EventId,
    pub summa: u32,
    /// The inbox said "new" (None: not asked yet).
    pub fresh: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Mem {
    Client {
        next: u32,
        waiting: Option<u32>,
        reply: Option<bool>,
        /// Retries already made for the request `next`.
        tries: u32,
    },
    Api {
        req: Option<Request>,
    },
    Relay {
        batch: Vec<u32>,
        pos: usize,
        ok: Vec<u32>,
        bad: Vec<u32>,
        cursor: Cursor,
    },
    Worker {
        job: Option<HeldJob>,
    },
    Session {
        pos: usize,
    },
    Cdc {
        /// Events read from the log, in commit order.
        batch: Vec<EventId>,
        pos: usize,
        /// The offset to save once the batch is published.
        upto_lsn: u64,
    },
    Cleaner {
        cursor: Cursor,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Proc {
    pub name: String,
    pub kind: ProcKind,
    pub program: Vec<Step>,
    pub alive: bool,
    pub pc: Step,
    pub tx: Option<TxId>,
    pub blocked: Option<Wait>,
    pub sleep_until: u64,
    pub restart_at: Option<u64>,
    pub mem: Mem,
    pub kills: u32,
    /// Armed kill rules have already counted this arrival at `pc`.
    arrived: bool,
}

/// One poll of a relay: what the lesson's `relay()` returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Poll {
    pub tarqatildi: u32,
    pub xato: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ArmedKill {
    pub proc: ProcId,
    pub step: Step,
    pub when: When,
    pub remaining: Option<u32>,
    pub reached: u32,
}

/// What a step did, for the log, the trace and the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "what")]
pub enum Note {
    Ok,
    Rows { n: u32 },
    Inserted { inserted: bool },
    Committed,
    RolledBack,
    Added { event: EventId, created: bool },
    AddRefused { event: EventId },
    PublishFailed { event: EventId },
    Delivered { event: EventId },
    Effect { event: EventId },
    Skipped { event: EventId },
    Completed { event: EventId, ok: bool },
    Blocked { on: Wait },
    Error { code: &'static str },
    Killed,
    Restarted,
    Stalled { event: EventId, failed: bool },
    Reply { ok: bool },
    Fault { fault: FaultNote },
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
    /// Redis came back empty; this many jobs were in it.
    RedisFlushed {
        jobs: u32,
    },
    /// The operator's UPDATE un-marked this many rows.
    Unpublished {
        rows: u32,
    },
    /// The operator's UPDATE hit a locked row and gave up (lock_timeout).
    UnpublishRefused,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct LogEntry {
    pub tick: u64,
    pub proc: Option<ProcId>,
    pub step: Option<Step>,
    pub note: Note,
}

/// A scripted statement's outcome, as psql would print it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ScriptResult {
    pub stmt: ScriptStmt,
    pub sql: &'static str,
    pub result: Result<u64, SqlError>,
}

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
}

/// How long `SELECT pg_sleep(…)` keeps a scripted session busy.
pub const PG_SLEEP_TICKS: u64 = 100;

/// Process names, in world order.
pub fn proc_names(cfg: &Config, session: bool) -> Vec<String> {
    let mut v = vec!["client".to_string(), "api".to_string()];
    for i in 1..=cfg.relays {
        v.push(format!("relay-{i}"));
    }
    for i in 1..=cfg.workers {
        v.push(format!("worker-{i}"));
    }
    if cfg.cdc {
        v.push("cdc".to_string());
    }
    if cfg.cleaner.is_some() {
        v.push("cleaner".to_string());
    }
    if session {
        v.push("psql".to_string());
    }
    v
}

pub fn proc_index(cfg: &Config, name: &str, session: bool) -> Option<usize> {
    proc_names(cfg, session).iter().position(|n| n == name)
}

/// The program (its labelled steps, error path last) of a process.
pub fn program(kind: ProcKind, cfg: &Config, script_len: usize) -> Vec<Step> {
    use Step::*;
    match kind {
        ProcKind::Client => vec![Send, Await],
        ProcKind::Api => match cfg.api {
            ApiMode::DualWriteDbFirst => {
                vec![Begin, InsertTask, Commit, QueueAdd, Respond, Rollback]
            }
            ApiMode::DualWriteQueueFirst => {
                vec![QueueAdd, Begin, InsertTask, Commit, Respond, Rollback]
            }
            ApiMode::Outbox if cfg.api_idempotency_key => vec![
                Begin,
                InsertKey,
                InsertTask,
                InsertEvent,
                Commit,
                Respond,
                Rollback,
            ],
            ApiMode::Outbox => vec![Begin, InsertTask, InsertEvent, Commit, Respond, Rollback],
        },
        ProcKind::Relay => match cfg.relay.mode {
            RelayMode::Lesson | RelayMode::HighWater => {
                let mut v = vec![Begin, SelectBatch, Publish, MarkPublished, MarkFailed];
                if cfg.relay.dead_letter_after.is_some() {
                    v.push(DeadLetter);
                }
                v.extend([Commit, Rollback]);
                v
            }
            RelayMode::MarkFirst => {
                vec![Begin, SelectBatch, MarkPublished, Commit, Publish, Rollback]
            }
        },
        ProcKind::Worker => match cfg.worker {
            WorkerMode::NoInbox => vec![Fetch, Begin, Action, Commit, Complete, Rollback],
            WorkerMode::InboxSameTx => vec![
                Fetch,
                Begin,
                InboxInsert,
                Action,
                Commit,
                Complete,
                Rollback,
            ],
            WorkerMode::InboxOwnTx => {
                vec![
                    Fetch,
                    Begin,
                    InboxInsert,
                    Commit,
                    BeginSecond,
                    Action,
                    CommitSecond,
                    Complete,
                    Rollback,
                ]
            }
            WorkerMode::ActionThenInbox => {
                vec![
                    Fetch,
                    InboxCheck,
                    Begin,
                    Action,
                    Commit,
                    BeginSecond,
                    InboxInsert,
                    CommitSecond,
                    Complete,
                    Rollback,
                ]
            }
            WorkerMode::ExternalEffect => vec![
                Fetch,
                Begin,
                InboxInsert,
                ExternalCall,
                Commit,
                Complete,
                Rollback,
            ],
        },
        ProcKind::Session => (0..script_len.min(255)).map(|i| Script(i as u8)).collect(),
        ProcKind::Cdc => vec![ReadWal, Publish, SaveOffset],
        ProcKind::Cleaner => {
            let mut v = vec![Begin, CleanOutbox];
            if cfg
                .cleaner
                .as_ref()
                .is_some_and(|c| c.inbox_retention_days.is_some())
            {
                v.push(CleanInbox);
            }
            v.extend([Commit, Rollback]);
            v
        }
    }
}

/// The statement (or call) a step runs, from the one SQL source.
pub fn step_sql(kind: ProcKind, cfg: &Config, step: Step, script: &[ScriptStmt]) -> &'static str {
    use Step::*;
    match (kind, step) {
        (_, Begin) | (_, BeginSecond) => sql::BEGIN,
        (_, Commit) | (_, CommitSecond) => sql::COMMIT,
        (_, Rollback) => sql::ROLLBACK,
        (ProcKind::Client, Send) => sql::HTTP_POST,
        (ProcKind::Client, _) => "201 Created / 500",
        (_, InsertTask) => sql::INSERT_TASK,
        (_, InsertEvent) => sql::INSERT_EVENT,
        (ProcKind::Api, QueueAdd) => sql::QUEUE_ADD_NO_ID,
        (_, Respond) => "201 Created",
        (_, InsertKey) => sql::KEY_INSERT,
        (_, SelectBatch) if cfg.relay.mode == RelayMode::HighWater => sql::SELECT_AFTER,
        (_, SelectBatch) => cfg.relay.lock.poll_sql(),
        (_, DeadLetter) => sql::DEAD_LETTER,
        (_, ReadWal) => sql::CDC_READ,
        (_, SaveOffset) => sql::CDC_CONFIRM,
        (_, CleanOutbox) => {
            if cfg.cleaner.as_ref().is_none_or(|c| c.published_only) {
                sql::CLEANUP
            } else {
                sql::CLEANUP_BY_AGE
            }
        }
        (_, CleanInbox) => sql::INBOX_CLEANUP,
        (_, Publish) => {
            if cfg.relay.job_id {
                sql::QUEUE_ADD
            } else {
                sql::QUEUE_ADD_NO_ID
            }
        }
        (_, MarkPublished) => sql::MARK_PUBLISHED,
        (_, MarkFailed) => sql::MARK_FAILED,
        (_, Fetch) => sql::QUEUE_GET,
        (_, InboxCheck) => sql::INBOX_CHECK,
        (_, InboxInsert) => sql::INBOX_INSERT,
        (_, Action) => sql::ACTION_INSERT,
        (_, ExternalCall) => sql::EXTERNAL_CALL,
        (_, Complete) => sql::QUEUE_COMPLETE,
        (_, Script(i)) => script.get(i as usize).map(|s| script_sql(*s)).unwrap_or(""),
        _ => "",
    }
}

pub fn script_sql(s: ScriptStmt) -> &'static str {
    match s {
        ScriptStmt::Begin => sql::BEGIN,
        ScriptStmt::SetRoleApp => sql::SET_ROLE_APP,
        ScriptStmt::InsertTask => sql::INSERT_TASK,
        ScriptStmt::InsertEvent => sql::INSERT_EVENT,
        ScriptStmt::InsertEventReturning => sql::INSERT_EVENT_RETURNING,
        ScriptStmt::SelectCountOutbox => sql::COUNT_OUTBOX,
        ScriptStmt::SelectCountTasks => sql::COUNT_TASKS,
        ScriptStmt::UpdateOutbox => sql::UPDATE_ALL_PUBLISHED,
        ScriptStmt::DeleteOutbox => sql::DELETE_ALL,
        ScriptStmt::PgSleep => sql::PG_SLEEP,
        ScriptStmt::Commit => sql::COMMIT,
        ScriptStmt::Rollback => sql::ROLLBACK,
    }
}

const FNV_PRIME: u64 = 0x0000_0100_0000_01B3;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct World {
    pub cfg: Config,
    pub tasks_total: u32,
    pub summa: u32,
    pub script: Vec<ScriptStmt>,
    pub tick: u64,
    pub rng: Rng,
    pub db: Db,
    pub queue: Queue,
    pub procs: Vec<Proc>,
    pub auditor: Auditor,
    pub armed: Vec<ArmedKill>,
    api_errors: Vec<When>,
    publish_failures: Vec<(u32, u32)>,
    schedule: VecDeque<(u64, Action)>,
    next_event: u32,
    next_stall_check: u64,
    external_seen: BTreeSet<u32>,
    pub log: VecDeque<LogEntry>,
    pub polls: Vec<Vec<Poll>>,
    pub script_results: Vec<ScriptResult>,
    /// Every kill: which process, at which step, at which tick (capped).
    pub kills: Vec<(ProcId, Step, u64)>,
    /// The high-water relay's mark (`last_id`), saved with its poll's COMMIT.
    pub high_water: u64,
    /// The tick of the last Redis flush, if any (the operator's recovery starts there).
    pub last_flush: Option<u64>,
    preloaded: u32,
    pub trace_hash: u64,
    pub steps: u64,
    pub check: CheckLevel,
    pub violations: Vec<String>,
    touched: Vec<EventId>,
    /// The event a worker or the API held during a step that cannot change its class:
    /// checked with the touched ones, not judged again.
    held: Option<EventId>,
    /// Processes not alive (the restart check is skipped while there are none).
    dead: u32,
    /// Reused for every COMMIT / ROLLBACK (always empty between steps).
    scratch: crate::db::CommitOutcome,
    /// Each process's runnable condition as far as its own state says, kept up to date
    /// for the processes marked `dirty` (see [`Gates`]).
    gates: Gates,
}

/// When each process can take a step, as far as its own state says: what
/// [`World::runnable_in`] reads from the process, with the world facts (the tick, the
/// API's readiness, Redis, open transactions) left to read at each tick. A process's gate
/// changes only when its own state does, so it is made again only for the processes whose
/// state changed (`dirty`). Bit `i` of every mask is process `i`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Gates {
    /// Processes whose state changed since their gate was made.
    dirty: u64,
    /// The processes by condition: `by_class[c]` for the `GATE_*` class `c`.
    by_class: [u64; 6],
    /// Each process's class (arrays as long as a mask, indexed by bit: no bounds checks).
    class: [u8; 64],
    /// A sleeping (`GATE_AT`) process's wake-up tick.
    at: [u64; 64],
    /// Blocked on a transaction's lock (not runnable while it is open).
    tx: [Option<TxId>; 64],
    /// Each process's bits in `tx_mask`, `queue`, `holds` and `orphan` (`FLAG_*`), so the
    /// masks are written only when one of them changes.
    flags: [u8; 64],
    tx_mask: u64,
    /// Blocked on a Redis that may hang.
    queue: u64,
    /// Holding a transaction; dead and holding one (the no-orphan-transaction check).
    holds: u64,
    orphan: u64,
}

impl Default for Gates {
    fn default() -> Self {
        Gates {
            dirty: 0,
            by_class: [0; 6],
            class: [GATE_NEVER; 64],
            at: [0; 64],
            tx: [None; 64],
            tx_mask: 0,
            queue: 0,
            holds: 0,
            orphan: 0,
            flags: [0; 64],
        }
    }
}

const GATE_NEVER: u8 = 0;
const GATE_ALWAYS: u8 = 1;
/// From the process's `sleep_until` on.
const GATE_AT: u8 = 2;
/// While the API is ready for a request.
const GATE_API: u8 = 3;
/// While a job waits in a healthy Redis.
const GATE_WAITING: u8 = 4;
/// While Redis is up.
const GATE_UP: u8 = 5;

const FLAG_TX: u8 = 1;
const FLAG_QUEUE: u8 = 2;
const FLAG_HOLDS: u8 = 4;
const FLAG_ORPHAN: u8 = 8;

const POLL_HISTORY: usize = 64;
/// Up to this many events' worth of table space is reserved when a world is made: the
/// canon runs never grow a list, and a big run does not claim its whole size up front.
const RESERVE_EVENTS: usize = 4096;

/// The runnable processes of one tick, without an allocation: bit `i` is process `i`.
#[derive(Default)]
struct Runnable {
    mask: u64,
    len: usize,
}

impl Runnable {
    /// The `k`-th runnable process in world order.
    fn nth(&self, k: usize) -> usize {
        let mut m = self.mask;
        for _ in 0..k {
            m &= m - 1;
        }
        m.trailing_zeros() as usize
    }
}
const MAX_VIOLATIONS: usize = 16;

/// The number of set bits of a mask with few of them (one per process): a loop over the
/// set bits is cheaper than the portable `count_ones` on a target without `popcnt`.
#[inline(always)]
fn bits(mut m: u64) -> usize {
    let mut n = 0;
    while m != 0 {
        m &= m - 1;
        n += 1;
    }
    n
}

/// What every process's runnable check reads from the world, read once per tick.
struct Facts {
    api_ready: bool,
    has_waiting: bool,
    up: bool,
    hang: bool,
}

impl Facts {
    #[inline(always)]
    fn of(w: &World) -> Facts {
        Facts {
            api_ready: w.api_ready(),
            has_waiting: w.queue.has_waiting(),
            up: w.queue.health == Health::Up,
            hang: w.queue.health == Health::DownHang,
        }
    }
}

impl World {
    pub fn new(s: &Scenario) -> World {
        let cfg = s.config.clone();
        let session = !s.script.is_empty();
        let mut procs = Vec::new();
        for name in proc_names(&cfg, session) {
            let kind = if name == "client" {
                ProcKind::Client
            } else if name == "api" {
                ProcKind::Api
            } else if name.starts_with("relay") {
                ProcKind::Relay
            } else if name.starts_with("worker") {
                ProcKind::Worker
            } else if name == "cdc" {
                ProcKind::Cdc
            } else if name == "cleaner" {
                ProcKind::Cleaner
            } else {
                ProcKind::Session
            };
            let program = program(kind, &cfg, s.script.len());
            let pc = program.first().copied().unwrap_or(Step::Send);
            let mem = Self::fresh_mem(kind, 0);
            // The cleaner's first run is one interval in (a scheduled job, not a start-up task).
            let sleep_until = match (&cfg.cleaner, kind) {
                (Some(c), ProcKind::Cleaner) => c.interval_ticks,
                _ => 0,
            };
            procs.push(Proc {
                name,
                kind,
                program,
                alive: true,
                pc,
                tx: None,
                blocked: None,
                sleep_until,
                restart_at: None,
                mem,
                kills: 0,
                arrived: false,
            });
        }
        let mut w = World {
            tasks_total: s.workload.tasks,
            summa: s.workload.summa,
            script: s.script.clone(),
            tick: 0,
            rng: Rng::new(s.seed),
            db: Db::new(),
            queue: Queue::new(cfg.queue.clone()),
            // A relay's poll history is capped at POLL_HISTORY: room for it at once.
            polls: procs
                .iter()
                .map(|p| match p.kind {
                    ProcKind::Relay => Vec::with_capacity(POLL_HISTORY),
                    _ => Vec::new(),
                })
                .collect(),
            procs,
            auditor: Auditor::new(),
            armed: Vec::new(),
            api_errors: Vec::new(),
            publish_failures: Vec::new(),
            schedule: VecDeque::new(),
            next_event: 1,
            next_stall_check: cfg.queue.stalled_interval_ticks,
            external_seen: BTreeSet::new(),
            log: VecDeque::new(),
            script_results: Vec::new(),
            kills: Vec::new(),
            high_water: 0,
            last_flush: None,
            preloaded: s.workload.preloaded_events,
            trace_hash: 0xcbf2_9ce4_8422_2325,
            steps: 0,
            check: CheckLevel::Touched,
            violations: Vec::new(),
            touched: Vec::with_capacity(16),
            held: None,
            dead: 0,
            scratch: Default::default(),
            gates: Gates::default(),
            cfg,
        };
        let n = w.procs.len();
        w.gates.by_class[GATE_NEVER as usize] = (1u64 << n) - 1;
        w.gates.dirty = (1u64 << n) - 1;
        w.refresh_gates();
        let hint =
            (s.workload.tasks as usize + s.workload.preloaded_events as usize).min(RESERVE_EVENTS);
        w.auditor.reserve(hint);
        w.db.reserve(hint);
        w.queue.reserve(hint);
        w.log.reserve(w.cfg.log_cap.min(RESERVE_EVENTS));
        for f in &s.faults {
            match f {
                Fault::Kill {
                    process,
                    step,
                    when,
                    times,
                } => {
                    if let Some(p) = w.find(process) {
                        w.armed.push(ArmedKill {
                            proc: p,
                            step: *step,
                            when: when.clone(),
                            remaining: *times,
                            reached: 0,
                        });
                    }
                }
                Fault::FailPublish { event, times } => w.publish_failures.push((*event, *times)),
                Fault::ApiError { when } => w.api_errors.push(when.clone()),
            }
        }
        let mut sched: Vec<(u64, Action)> = s
            .schedule
            .iter()
            .map(|t| (t.at_tick, t.action.clone()))
            .collect();
        sched.sort_by_key(|(t, _)| *t);
        w.schedule = sched.into();
        w.db.wal_retain = w.cfg.cdc;
        let kinds: &[EventKind] = if s.workload.preloaded_completed {
            &[EventKind::Created, EventKind::Completed]
        } else {
            &[EventKind::Created]
        };
        // Preloaded tasks come after the client's requests (intents of their own, so a
        // preloaded event and a request never count as the same business action).
        for k in 0..s.workload.preloaded_events {
            let intent = s.workload.tasks + k;
            for &kind in kinds {
                let e = w.mint(intent, kind, TaskRef::Given);
                w.db.preload_event(e, kind, intent, s.workload.summa);
                w.auditor.committed(e);
                w.touched.push(e);
            }
        }
        w.reclassify_touched();
        w
    }

    fn fresh_mem(kind: ProcKind, next: u32) -> Mem {
        match kind {
            ProcKind::Client => Mem::Client {
                next,
                waiting: None,
                reply: None,
                tries: 0,
            },
            ProcKind::Api => Mem::Api { req: None },
            ProcKind::Relay => Mem::Relay {
                batch: Vec::new(),
                pos: 0,
                ok: Vec::new(),
                bad: Vec::new(),
                cursor: Cursor::default(),
            },
            ProcKind::Worker => Mem::Worker { job: None },
            ProcKind::Session => Mem::Session { pos: 0 },
            ProcKind::Cdc => Mem::Cdc {
                batch: Vec::new(),
                pos: 0,
                upto_lsn: 0,
            },
            ProcKind::Cleaner => Mem::Cleaner {
                cursor: Cursor::default(),
            },
        }
    }

    pub fn find(&self, name: &str) -> Option<ProcId> {
        self.procs
            .iter()
            .position(|p| p.name == name)
            .map(|i| ProcId(i as u8))
    }

    fn mint(&mut self, intent: u32, kind: EventKind, task: TaskRef) -> EventId {
        let e = EventId(self.next_event);
        self.next_event += 1;
        self.auditor.minted(e, intent, kind, task);
        e
    }

    fn log(&mut self, proc: Option<ProcId>, step: Option<Step>, note: Note) {
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

    fn mix(&mut self, v: u64) {
        // FNV-style, a word at a time.
        self.trace_hash = (self.trace_hash ^ v)
            .wrapping_mul(FNV_PRIME)
            .rotate_left(29);
    }

    // ----- runnable? ------------------------------------------------------------------

    fn api_index(&self) -> usize {
        1
    }

    fn api_ready(&self) -> bool {
        let a = &self.procs[self.api_index()];
        a.alive && matches!(&a.mem, Mem::Api { req: None })
    }

    pub fn runnable(&self, i: usize) -> bool {
        self.runnable_in(&self.procs[i], &Facts::of(self))
    }

    /// Whether `p` can take a step, given the world facts every process reads.
    #[inline(always)]
    fn runnable_in(&self, p: &Proc, f: &Facts) -> bool {
        if !p.alive {
            return false;
        }
        match p.blocked {
            Some(Wait::Tx(t)) if self.db.is_open(t) => return false,
            Some(Wait::Queue) if f.hang => return false,
            _ => {}
        }
        match (&p.mem, p.pc) {
            (Mem::Client { next, .. }, Step::Send) => *next < self.tasks_total && f.api_ready,
            (Mem::Client { reply, .. }, _) => reply.is_some(),
            (Mem::Api { req }, _) => req.is_some(),
            (Mem::Relay { .. }, Step::Begin) => self.tick >= p.sleep_until,
            (Mem::Relay { .. }, _) => true,
            (Mem::Worker { job: None }, _) => f.has_waiting,
            (Mem::Worker { .. }, Step::Complete) => f.up,
            (Mem::Worker { .. }, _) => true,
            (Mem::Session { pos }, _) => *pos < self.script.len() && self.tick >= p.sleep_until,
            (Mem::Cdc { .. }, _) => self.tick >= p.sleep_until,
            (Mem::Cleaner { .. }, Step::Begin) => self.tick >= p.sleep_until,
            (Mem::Cleaner { .. }, _) => true,
        }
    }

    /// The gate of a process (class, blocking transaction, blocked on Redis, holds a
    /// transaction, holds one while dead): [`World::runnable_in`] with the facts left open.
    #[inline(always)]
    fn gate_of(&self, p: &Proc) -> (u8, Option<TxId>, bool, bool, bool) {
        let holds = p.tx.is_some();
        let (tx, queue) = match p.blocked {
            Some(Wait::Tx(t)) => (Some(t), false),
            Some(Wait::Queue) => (None, true),
            None => (None, false),
        };
        let class = if !p.alive {
            GATE_NEVER
        } else {
            match (&p.mem, p.pc) {
                (Mem::Client { next, .. }, Step::Send) => {
                    [GATE_NEVER, GATE_API][(*next < self.tasks_total) as usize]
                }
                (Mem::Client { reply, .. }, _) => {
                    [GATE_NEVER, GATE_ALWAYS][reply.is_some() as usize]
                }
                (Mem::Api { req }, _) => [GATE_NEVER, GATE_ALWAYS][req.is_some() as usize],
                (Mem::Relay { .. }, Step::Begin) => GATE_AT,
                (Mem::Relay { .. }, _) => GATE_ALWAYS,
                (Mem::Worker { job: None }, _) => GATE_WAITING,
                (Mem::Worker { .. }, Step::Complete) => GATE_UP,
                (Mem::Worker { .. }, _) => GATE_ALWAYS,
                (Mem::Session { pos }, _) => {
                    [GATE_NEVER, GATE_AT][(*pos < self.script.len()) as usize]
                }
                (Mem::Cdc { .. }, _) => GATE_AT,
                (Mem::Cleaner { .. }, Step::Begin) => GATE_AT,
                (Mem::Cleaner { .. }, _) => GATE_ALWAYS,
            }
        };
        (class, tx, queue, holds, holds && !p.alive)
    }

    /// Process `i`'s state changed: its gate is made again before it is next read.
    #[inline(always)]
    fn touch_proc(&mut self, i: usize) {
        self.gates.dirty |= 1 << i;
    }

    /// Makes the gates of the dirty processes again.
    #[inline(always)]
    fn refresh_gates(&mut self) {
        while self.gates.dirty != 0 {
            let i = (self.gates.dirty.trailing_zeros() & 63) as usize;
            self.gates.dirty &= self.gates.dirty - 1;
            let p = &self.procs[i];
            let (class, tx, queue, holds, orphan) = self.gate_of(p);
            let at = p.sleep_until;
            let g = &mut self.gates;
            let b = 1u64 << i;
            let k = !b;
            let old = g.class[i];
            if old != class {
                g.by_class[old as usize] &= k;
                g.by_class[class as usize] |= b;
                g.class[i] = class;
            }
            g.at[i] = at;
            g.tx[i] = tx;
            let flags = (tx.is_some() as u8 * FLAG_TX)
                | (queue as u8 * FLAG_QUEUE)
                | (holds as u8 * FLAG_HOLDS)
                | (orphan as u8 * FLAG_ORPHAN);
            if g.flags[i] != flags {
                g.flags[i] = flags;
                let bit = |f: u8| b * (flags & f != 0) as u64;
                g.tx_mask = g.tx_mask & k | bit(FLAG_TX);
                g.queue = g.queue & k | bit(FLAG_QUEUE);
                g.holds = g.holds & k | bit(FLAG_HOLDS);
                g.orphan = g.orphan & k | bit(FLAG_ORPHAN);
            }
        }
    }

    fn runnable_list(&mut self, out: &mut Runnable) {
        self.refresh_gates();
        let g = &self.gates;
        let mut mask = g.by_class[GATE_ALWAYS as usize];
        let mut t = g.by_class[GATE_AT as usize];
        while t != 0 {
            let i = (t.trailing_zeros() & 63) as usize;
            mask |= ((self.tick >= g.at[i]) as u64) << i;
            t &= t - 1;
        }
        let api = g.by_class[GATE_API as usize];
        if api != 0 && self.api_ready() {
            mask |= api;
        }
        let waiting = g.by_class[GATE_WAITING as usize];
        if waiting != 0 && self.queue.has_waiting() {
            mask |= waiting;
        }
        if self.queue.health == Health::Up {
            mask |= g.by_class[GATE_UP as usize];
        } else if self.queue.health == Health::DownHang {
            mask &= !g.queue;
        }
        let mut b = g.tx_mask & mask;
        while b != 0 {
            let i = (b.trailing_zeros() & 63) as usize;
            if g.tx[i].is_some_and(|t| self.db.is_open(t)) {
                mask &= !(1 << i);
            }
            b &= b - 1;
        }
        if cfg!(debug_assertions) || self.check == CheckLevel::Full {
            self.check_gates(Some(mask));
        }
        out.mask = mask;
        out.len = bits(mask);
    }

    /// The kept gates agree with the processes (Full checks and debug builds).
    #[cold]
    fn check_gates(&self, mask: Option<u64>) {
        let f = Facts::of(self);
        for (i, p) in self.procs.iter().enumerate() {
            let (class, tx, queue, holds, orphan) = self.gate_of(p);
            let b = 1u64 << i;
            let g = &self.gates;
            assert!(
                g.class[i] == class
                    && g.by_class[class as usize] & b != 0
                    && g.tx[i] == tx
                    && (g.tx_mask & b != 0) == tx.is_some()
                    && (g.queue & b != 0) == queue
                    && (g.holds & b != 0) == holds
                    && (g.orphan & b != 0) == orphan
                    && (class != GATE_AT || g.at[i] == p.sleep_until),
                "runnable-gate: the kept gate of {} disagrees with its state",
                p.name
            );
            if let Some(mask) = mask {
                assert_eq!(
                    self.runnable_in(p, &f),
                    mask & b != 0,
                    "runnable-gate: {} at tick {}",
                    p.name,
                    self.tick
                );
            }
        }
        let all: u64 = self.gates.by_class.iter().fold(0, |a, m| a | m);
        let sum: u32 = self.gates.by_class.iter().map(|m| m.count_ones()).sum();
        assert!(sum == self.procs.len() as u32 && all.count_ones() == sum);
    }

    /// Nothing is left to do: the client is done, nobody is mid-program, no row waits to be
    /// published and (with workers) no job waits to be worked.
    pub fn settled(&self) -> bool {
        if !self.schedule.is_empty() || self.db.open_transactions() > 0 {
            return false;
        }
        if self.cfg.relays > 0 && self.relay_has_work() {
            return false;
        }
        if self.cfg.cdc && self.db.wal_retained_events() > 0 {
            return false;
        }
        if self.cfg.workers > 0
            && (self.queue.count(crate::queue::JobState::Waiting) > 0
                || self.queue.count(crate::queue::JobState::Active) > 0)
        {
            return false;
        }
        self.procs.iter().all(|p| match &p.mem {
            Mem::Client { next, waiting, .. } => *next >= self.tasks_total && waiting.is_none(),
            Mem::Api { req } => req.is_none(),
            Mem::Relay { batch, .. } => !p.alive || (p.pc == Step::Begin && batch.is_empty()),
            Mem::Worker { job } => job.is_none(),
            Mem::Session { pos } => *pos >= self.script.len() || !p.alive,
            Mem::Cdc { batch, .. } => !p.alive || batch.is_empty(),
            // The cleaner is a scheduled job: it never keeps the world busy.
            Mem::Cleaner { .. } => true,
        })
    }

    /// Rows the polling relays can still read: unpublished ones, or for the high-water
    /// relay, committed rows above its mark.
    fn relay_has_work(&self) -> bool {
        if self.cfg.relay.mode == RelayMode::HighWater {
            (self.high_water as usize..self.db.outbox.len()).any(|i| {
                self.db.row_committed(&self.db.outbox[i]) && !self.db.outbox[i].data.deleted
            })
        } else {
            self.db.unpublished_len() > 0
        }
    }

    /// The next tick at which something sleeping wakes, if any (a relay between polls, a
    /// restart, a scheduled action, a dead worker's lock running out).
    #[inline(never)]
    pub fn next_wake(&self) -> Option<u64> {
        let mut t: Option<u64> = None;
        let mut consider = |v: u64| t = Some(t.map_or(v, |x: u64| x.min(v)));
        for p in &self.procs {
            // Relays between polls, a CDC backing off, the cleaner's schedule, pg_sleep.
            if p.alive && p.sleep_until > self.tick {
                consider(p.sleep_until);
            }
            if let (false, Some(r)) = (p.alive, p.restart_at) {
                consider(r.max(self.tick + 1));
            }
        }
        if let Some((at, _)) = self.schedule.front() {
            consider((*at).max(self.tick + 1));
        }
        // The stalled checker only changes something when a dead worker's lock can run out.
        if self.queue.health == Health::Up && self.queue.has_orphaned_active() {
            consider(self.next_stall_check.max(self.tick + 1));
        }
        t
    }

    // ----- the main loop --------------------------------------------------------------

    /// One scheduler step: housekeeping, then one step of a runnable process chosen by the
    /// PRNG. Returns false when nothing can ever happen again.
    pub fn step(&mut self) -> bool {
        let mut runnable = Runnable::default();
        loop {
            self.tick += 1;
            self.housekeeping();
            self.runnable_list(&mut runnable);
            if runnable.len > 0 {
                break;
            }
            match self.next_wake() {
                Some(t) => self.tick = t.max(self.tick + 1) - 1,
                None => {
                    self.after_step();
                    return false;
                }
            }
        }
        let pick = runnable.nth(self.rng.below(runnable.len as u64) as usize);
        self.run_proc(pick);
        self.after_step();
        true
    }

    /// Lets the clock run to `to` one tick at a time, running a step whenever a process
    /// is runnable. Unlike [`World::step`] it never jumps over idle ticks, so a world that
    /// waits (a hanging Redis, a dead relay) still ages: what the page's clock shows.
    pub fn advance(&mut self, to: u64) {
        let mut runnable = Runnable::default();
        while self.tick < to {
            self.tick += 1;
            self.housekeeping();
            self.runnable_list(&mut runnable);
            if runnable.len > 0 {
                let pick = runnable.nth(self.rng.below(runnable.len as u64) as usize);
                self.run_proc(pick);
            }
            self.after_step();
        }
    }

    /// Runs until settled, stuck, or `max_ticks`.
    pub fn run(&mut self, max_ticks: u64) {
        while self.tick < max_ticks && !self.settled() {
            if !self.step() {
                break;
            }
        }
    }

    /// The per-tick checks are inline; what they find to do runs out of line, so the
    /// step loop stays small.
    #[inline(always)]
    fn housekeeping(&mut self) {
        if self.schedule.front().is_some_and(|(t, _)| *t <= self.tick) {
            self.run_schedule();
        }
        if self.dead > 0 {
            self.restart_due();
        }
        if self.tick >= self.next_stall_check {
            self.stall_check();
        }
    }

    #[inline(never)]
    fn run_schedule(&mut self) {
        while self.schedule.front().is_some_and(|(t, _)| *t <= self.tick) {
            let (_, a) = self.schedule.pop_front().expect("front");
            self.apply_now(&a);
        }
    }

    #[inline(never)]
    fn restart_due(&mut self) {
        for i in 0..self.procs.len() {
            let p = &self.procs[i];
            if !p.alive && p.restart_at.is_some_and(|t| t <= self.tick) {
                self.restart(i);
            }
        }
    }

    #[inline(never)]
    fn stall_check(&mut self) {
        {
            self.next_stall_check = self.tick + self.cfg.queue.stalled_interval_ticks;
            for o in self.queue.check_stalled(self.tick) {
                let (event, failed) = match o {
                    StallOutcome::BackToWait(e) => (e, false),
                    StallOutcome::Failed(e) => (e, true),
                };
                self.touched.push(event);
                self.log(None, None, Note::Stalled { event, failed });
            }
        }
    }

    /// Applies a user's or a schedule's action. Errors are messages for the page.
    pub fn apply(&mut self, a: &Action) -> Result<(), String> {
        if let Some(name) = a.process() {
            if self.find(name).is_none() {
                return Err(format!("no process named {name:?}"));
            }
        }
        match a {
            Action::Tick => {
                self.step();
                return Ok(());
            }
            Action::Step { process } => {
                let i = self.find(process).expect("checked").0 as usize;
                if !self.runnable(i) {
                    return Err(format!("{process} cannot run a step now"));
                }
                self.tick += 1;
                self.housekeeping();
                if self.runnable(i) {
                    self.run_proc(i);
                }
                self.after_step();
                return Ok(());
            }
            _ => {}
        }
        self.apply_now(a);
        self.after_step();
        Ok(())
    }

    fn apply_now(&mut self, a: &Action) {
        match a {
            Action::Tick | Action::Step { .. } => {}
            Action::Kill { process } => {
                if let Some(p) = self.find(process) {
                    if self.procs[p.0 as usize].alive {
                        self.kill(p.0 as usize);
                    }
                }
            }
            Action::ArmKill {
                process,
                step,
                when,
                times,
            } => {
                if let Some(p) = self.find(process) {
                    self.armed.push(ArmedKill {
                        proc: p,
                        step: *step,
                        when: when.clone(),
                        remaining: *times,
                        reached: 0,
                    });
                    self.log(
                        Some(p),
                        Some(*step),
                        Note::Fault {
                            fault: FaultNote::KillArmed,
                        },
                    );
                }
            }
            Action::Disarm { process, step } => {
                if let Some(p) = self.find(process) {
                    self.armed
                        .retain(|k| k.proc != p || step.is_some_and(|s| s != k.step));
                }
            }
            Action::Restart { process } => {
                if let Some(p) = self.find(process) {
                    if !self.procs[p.0 as usize].alive {
                        self.restart(p.0 as usize);
                    }
                }
            }
            Action::QueueDown { hang } => {
                self.queue.health = if *hang {
                    Health::DownHang
                } else {
                    Health::DownFailFast
                };
                self.log(
                    None,
                    None,
                    Note::Fault {
                        fault: if *hang {
                            FaultNote::QueueHangs
                        } else {
                            FaultNote::QueueDown
                        },
                    },
                );
            }
            Action::QueueUp => {
                self.queue.health = Health::Up;
                self.log(
                    None,
                    None,
                    Note::Fault {
                        fault: FaultNote::QueueUp,
                    },
                );
            }
            Action::FailPublish { event, times } => {
                self.publish_failures.retain(|(e, _)| e != event);
                self.publish_failures.push((*event, *times));
                self.log(
                    None,
                    None,
                    Note::Fault {
                        fault: FaultNote::PublishFails {
                            event: *event,
                            times: *times,
                        },
                    },
                );
            }
            Action::RetryFailedJobs => {
                let evs = self.queue.retry_failed();
                self.touched.extend(evs);
                self.log(
                    None,
                    None,
                    Note::Fault {
                        fault: FaultNote::FailedJobsRetried,
                    },
                );
            }
            Action::RedisFlush => {
                let evs = self.queue.lose_everything();
                let jobs = evs.len() as u32;
                self.touched.extend(evs);
                self.last_flush = Some(self.tick);
                self.log(
                    None,
                    None,
                    Note::Fault {
                        fault: FaultNote::RedisFlushed { jobs },
                    },
                );
            }
            Action::UnpublishSince { since_tick } => self.unpublish_since(*since_tick),
        }
        self.mix(0xFA);
    }

    /// The operator's UPDATE, run as its own autocommit statement. With a short lock
    /// timeout (1 ms) it gives up (55P03) rather than wait for a relay's transaction.
    fn unpublish_since(&mut self, since: u64) {
        let tx = self.db.begin(Role::Owner, self.tick);
        let mut c = Cursor::default();
        let r = self.db.unpublish_since(tx, since, &mut c);
        let mut out = std::mem::take(&mut self.scratch);
        let fault = match r {
            Exec::Done(n) => {
                self.db.commit_into(tx, &mut out);
                FaultNote::Unpublished { rows: n as u32 }
            }
            Exec::Blocked(_) | Exec::Err(_) => {
                self.db.rollback_into(tx, &mut out);
                FaultNote::UnpublishRefused
            }
        };
        self.touched.extend(out.touched_events.iter().copied());
        out.clear();
        self.scratch = out;
        self.log(None, None, Note::Fault { fault });
    }

    /// Heals every fault: Redis up, every process restarted, armed kills and publish
    /// failures dropped, failed jobs retried. What a team does after an incident.
    pub fn heal(&mut self) {
        self.queue.health = Health::Up;
        self.armed.clear();
        self.publish_failures.clear();
        self.api_errors.clear();
        for i in 0..self.procs.len() {
            if !self.procs[i].alive {
                self.restart(i);
            }
        }
        let evs = self.queue.retry_failed();
        self.touched.extend(evs);
        self.after_step();
    }

    // ----- kills and restarts ---------------------------------------------------------

    pub fn kill(&mut self, i: usize) {
        self.touch_proc(i);
        let pid = ProcId(i as u8);
        let tick = self.tick;
        if let Some(tx) = self.procs[i].tx.take() {
            // The connection is gone: PostgreSQL rolls the transaction back.
            let out = self.db.rollback(tx);
            self.touched.extend(out.touched_events);
        }
        let p = &mut self.procs[i];
        if p.alive {
            self.dead += 1;
        }
        p.alive = false;
        p.blocked = None;
        p.kills += 1;
        p.arrived = false;
        p.restart_at = self.cfg.restart_after_ticks.map(|d| tick + d.max(1));
        let step = p.pc;
        let kind = p.kind;
        let old = std::mem::replace(&mut p.mem, Self::fresh_mem(kind, 0));
        match old {
            Mem::Client { next, waiting, .. } => {
                // The workload's position is the client's durable state.
                self.procs[i].mem = Mem::Client {
                    next: next + waiting.map_or(0, |_| 1),
                    waiting: None,
                    reply: None,
                    tries: 0,
                };
            }
            Mem::Cdc { batch, .. } => {
                // Its offset is saved in the slot; what it read since is read again.
                self.touched.extend(batch);
            }
            Mem::Cleaner { .. } => {}
            Mem::Api { req: Some(r) } => {
                self.touched.push(r.event);
                self.reply_client(false);
            }
            Mem::Relay { batch, .. } => {
                for r in batch {
                    self.touched.push(self.db.outbox[r as usize].hodisa);
                }
            }
            Mem::Worker { job } => {
                self.queue.worker_died(pid, tick);
                if let Some(j) = job {
                    self.touched.push(j.event);
                }
            }
            Mem::Session { pos } => {
                self.procs[i].mem = Mem::Session { pos };
            }
            Mem::Api { req: None } => {}
        }
        if self.kills.len() < 10_000 {
            self.kills.push((pid, step, tick));
        }
        let first = self.procs[i].program.first().copied().unwrap_or(step);
        self.procs[i].pc = if kind == ProcKind::Session {
            step
        } else {
            first
        };
        self.log(Some(pid), Some(step), Note::Killed);
        self.mix(0xDEAD ^ i as u64);
    }

    fn restart(&mut self, i: usize) {
        self.touch_proc(i);
        let p = &mut self.procs[i];
        if !p.alive {
            self.dead -= 1;
        }
        p.alive = true;
        p.restart_at = None;
        p.blocked = None;
        p.arrived = false;
        p.sleep_until = self.tick;
        if p.kind == ProcKind::Session {
            // The session's script goes on with its next statement, outside any transaction.
            if let Mem::Session { pos } = &mut p.mem {
                *pos += 1;
                p.pc = Step::Script((*pos).min(255) as u8);
            }
        }
        self.log(Some(ProcId(i as u8)), None, Note::Restarted);
    }

    fn reply_client(&mut self, ok: bool) {
        self.touch_proc(0);
        if let Mem::Client {
            reply,
            waiting: Some(_),
            ..
        } = &mut self.procs[0].mem
        {
            *reply = Some(ok);
        }
    }

    // ----- rules ----------------------------------------------------------------------

    /// The task index and event the process is handling now.
    fn context(&self, i: usize) -> (Option<u32>, Option<EventId>) {
        let p = &self.procs[i];
        match &p.mem {
            Mem::Client { next, waiting, .. } => (Some(waiting.unwrap_or(*next)), None),
            Mem::Api { req } => (
                req.as_ref().map(|r| r.intent),
                req.as_ref().map(|r| r.event),
            ),
            Mem::Relay { batch, pos, .. } => {
                let r = batch.get(*pos).or(batch.first());
                match r {
                    Some(&r) => {
                        let row = &self.db.outbox[r as usize];
                        (Some(row.task_intent), Some(row.hodisa))
                    }
                    None => (None, None),
                }
            }
            Mem::Worker { job: Some(j) } => {
                (self.auditor.life(j.event).map(|l| l.intent), Some(j.event))
            }
            Mem::Cdc { batch, pos, .. } => match batch.get(*pos) {
                Some(&e) => (self.auditor.life(e).map(|l| l.intent), Some(e)),
                None => (None, None),
            },
            Mem::Worker { job: None } | Mem::Session { .. } | Mem::Cleaner { .. } => (None, None),
        }
    }

    fn when_holds(when: &When, reached: u32, ctx: (Option<u32>, Option<EventId>)) -> bool {
        match when {
            When::Always => true,
            When::Nth { n } => reached == *n,
            When::TaskIndexMod { modulus, remainder } => ctx
                .0
                .is_some_and(|i| *modulus > 0 && i % modulus == *remainder),
            When::Event { event } => ctx.1.is_some_and(|e| e.0 == *event),
        }
    }

    /// Counts this arrival for the armed kills and reports whether one fires.
    fn kill_fires(&mut self, i: usize) -> bool {
        if self.procs[i].arrived || self.armed.is_empty() {
            return false;
        }
        self.procs[i].arrived = true;
        let pid = ProcId(i as u8);
        let step = self.procs[i].pc;
        // The context is read only when some rule is armed for this process and step.
        let mut ctx = None;
        let mut fire = false;
        for n in 0..self.armed.len() {
            let k = &self.armed[n];
            if k.proc != pid || k.step != step || k.remaining == Some(0) {
                continue;
            }
            let reached = k.reached + 1;
            self.armed[n].reached = reached;
            if fire {
                continue;
            }
            let c = *ctx.get_or_insert_with(|| self.context(i));
            let k = &mut self.armed[n];
            if Self::when_holds(&k.when, reached, c) {
                fire = true;
                if let Some(r) = k.remaining.as_mut() {
                    *r -= 1;
                }
            }
        }
        fire
    }

    // ----- running one step -----------------------------------------------------------

    fn run_proc(&mut self, i: usize) {
        self.touch_proc(i);
        self.steps += 1;
        self.mix(self.tick ^ ((i as u64) << 56));
        if self.kill_fires(i) {
            self.kill(i);
            return;
        }
        let before = self.procs[i].pc;
        self.procs[i].blocked = None;
        // What a worker or the API holds is checked after each of its steps. Its class
        // changes only at the steps that say so (they push it to `touched`): the API's
        // INSERT of the task, COMMIT, queue.add, answer and ROLLBACK; the worker's inbox
        // check or insert (`fresh`), effect, COMMIT, complete and fail.
        match &self.procs[i].mem {
            Mem::Worker { job: Some(j) } => self.held = Some(j.event),
            Mem::Api { req: Some(r) } => self.held = Some(r.event),
            _ => {}
        }
        match self.procs[i].kind {
            ProcKind::Client => self.run_client(i),
            ProcKind::Api => self.run_api(i),
            ProcKind::Relay => self.run_relay(i),
            ProcKind::Worker => self.run_worker(i),
            ProcKind::Session => self.run_session(i),
            ProcKind::Cdc => self.run_cdc(i),
            ProcKind::Cleaner => self.run_cleaner(i),
        }
        let p = &mut self.procs[i];
        if p.blocked.is_none() {
            p.arrived = false;
        }
        let (b, s) = (before.code(), p.pc.code());
        self.mix(b << 16 | s);
    }

    fn goto(&mut self, i: usize, s: Step) {
        self.procs[i].pc = s;
    }

    fn block(&mut self, i: usize, w: Wait) {
        // A wait that closes a cycle is a deadlock: PostgreSQL aborts a statement in it.
        if let (Wait::Tx(mut t), Some(me)) = (w, self.procs[i].tx) {
            let mut hops = 0;
            loop {
                if t == me {
                    let e =
                        SqlError::new(crate::db::sqlstate::DEADLOCK_DETECTED, "deadlock detected");
                    self.db.mark_failed(me);
                    self.log(
                        Some(ProcId(i as u8)),
                        Some(self.procs[i].pc),
                        Note::Error { code: e.code },
                    );
                    self.goto(i, Step::Rollback);
                    return;
                }
                let holder = self.procs.iter().find(|p| p.tx == Some(t));
                match holder.and_then(|p| p.blocked) {
                    Some(Wait::Tx(next)) if hops < 16 => {
                        t = next;
                        hops += 1;
                    }
                    _ => break,
                }
            }
        }
        self.procs[i].blocked = Some(w);
        let step = self.procs[i].pc;
        self.log(Some(ProcId(i as u8)), Some(step), Note::Blocked { on: w });
    }

    /// Ends process `i`'s transaction; returns whether it committed. `own_events`: the
    /// events the transaction inserted are judged by their own rows (a scripted session).
    fn end_tx(&mut self, i: usize, commit: bool, own_events: bool) -> bool {
        let tx = self.procs[i].tx.take().expect("open transaction");
        let out = &mut self.scratch;
        if commit {
            self.db.commit_into(tx, out);
        } else {
            self.db.rollback_into(tx, out);
        }
        // A few events per list: pushes, not a memcpy call per list.
        for &e in out.touched_events.iter().chain(&out.events) {
            self.touched.push(e);
        }
        if own_events && out.committed {
            for &e in &out.events {
                self.auditor.committed(e);
            }
        }
        for &(e, _) in &out.actions {
            self.auditor.effect(e);
            self.touched.push(e);
        }
        for &e in &out.inbox {
            self.touched.push(e);
        }
        let committed = out.committed;
        out.clear();
        let note = if committed {
            Note::Committed
        } else {
            Note::RolledBack
        };
        let step = self.procs[i].pc;
        self.log(Some(ProcId(i as u8)), Some(step), note);
        committed
    }

    fn begin(&mut self, i: usize, role: Role) {
        let tx = self.db.begin(role, self.tick);
        self.procs[i].tx = Some(tx);
    }

    fn sql_error(&mut self, i: usize, e: SqlError) {
        let step = self.procs[i].pc;
        self.log(
            Some(ProcId(i as u8)),
            Some(step),
            Note::Error { code: e.code },
        );
        self.goto(i, Step::Rollback);
    }

    fn run_client(&mut self, i: usize) {
        let Mem::Client {
            next,
            waiting,
            reply,
            tries,
        } = self.procs[i].mem
        else {
            unreachable!()
        };
        match self.procs[i].pc {
            Step::Send => {
                let e = self.mint(next, EventKind::Created, TaskRef::NotYet);
                let a = self.api_index();
                self.touch_proc(a);
                self.set_api_req(
                    a,
                    Some(Request {
                        intent: next,
                        event: e,
                        added: false,
                    }),
                );
                self.procs[a].pc = self.procs[a].program[0];
                self.procs[a].arrived = false;
                // In place: the memory is the client's (no drop of the old value).
                if let Mem::Client { waiting, reply, .. } = &mut self.procs[i].mem {
                    *waiting = Some(next);
                    *reply = None;
                }
                self.touched.push(e);
                self.goto(i, Step::Await);
                self.log(Some(ProcId(i as u8)), Some(Step::Send), Note::Ok);
            }
            _ => {
                let ok = reply.unwrap_or(false);
                // An error answer (perhaps lost after COMMIT): send the same request again
                // while retries are left.
                let retry = !ok && tries < self.cfg.client_retries && waiting.is_some();
                let (n, t) = if retry {
                    (waiting.unwrap_or(next), tries + 1)
                } else {
                    (waiting.map_or(next, |w| w + 1), 0)
                };
                if let Mem::Client {
                    next,
                    waiting,
                    reply,
                    tries,
                } = &mut self.procs[i].mem
                {
                    (*next, *waiting, *reply, *tries) = (n, None, None, t);
                }
                self.goto(i, Step::Send);
                self.log(Some(ProcId(i as u8)), Some(Step::Await), Note::Reply { ok });
            }
        }
    }

    fn api_req(&self, i: usize) -> Request {
        match &self.procs[i].mem {
            Mem::Api { req: Some(r) } => r.clone(),
            _ => unreachable!("runnable API has a request"),
        }
    }

    /// The API's request, written in place (no drop of the old memory).
    fn set_api_req(&mut self, i: usize, r: Option<Request>) {
        match &mut self.procs[i].mem {
            Mem::Api { req } => *req = r,
            m => *m = Mem::Api { req: r },
        }
    }

    /// The worker's job, written in place (no drop of the old memory).
    fn set_job(&mut self, i: usize, j: Option<HeldJob>) {
        match &mut self.procs[i].mem {
            Mem::Worker { job } => *job = j,
            m => *m = Mem::Worker { job: j },
        }
    }

    fn api_finish(&mut self, i: usize, ok: bool) {
        let r = self.api_req(i);
        self.touched.push(r.event);
        self.set_api_req(i, None);
        self.reply_client(ok);
        let first = self.procs[i].program[0];
        self.goto(i, first);
    }

    fn run_api(&mut self, i: usize) {
        let pid = Some(ProcId(i as u8));
        let step = self.procs[i].pc;
        let mut r = self.api_req(i);
        let mode = self.cfg.api;
        // The step after `s` in the API's program.
        let next_after = |s: Step| -> Step {
            match (mode, s) {
                (ApiMode::DualWriteDbFirst, Step::Commit) => Step::QueueAdd,
                (ApiMode::DualWriteQueueFirst, Step::QueueAdd) => Step::Begin,
                _ => Step::Respond,
            }
        };
        match step {
            Step::Begin => {
                let role = if self.cfg.api_app_role {
                    Role::App
                } else {
                    Role::Owner
                };
                self.begin(i, role);
                self.log(pid, Some(step), Note::Ok);
                let n = if self.procs[i].program.contains(&Step::InsertKey) {
                    Step::InsertKey
                } else {
                    Step::InsertTask
                };
                self.goto(i, n);
            }
            Step::InsertKey => {
                let tx = self.procs[i].tx.expect("tx");
                match self.db.key_insert(tx, r.intent, self.tick) {
                    Exec::Done(true) => {
                        self.log(pid, Some(step), Note::Inserted { inserted: true });
                        self.goto(i, Step::InsertTask);
                    }
                    Exec::Done(false) => {
                        // A repeat: an earlier request with this key committed. Nothing new
                        // is written; the API answers with the first result.
                        self.log(pid, Some(step), Note::Inserted { inserted: false });
                        self.end_tx(i, false, false);
                        self.goto(i, Step::Respond);
                    }
                    Exec::Err(e) => self.sql_error(i, e),
                    Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
                }
            }
            Step::InsertTask => {
                let tx = self.procs[i].tx.expect("tx");
                match self.db.insert_task(tx, 1, r.intent) {
                    Exec::Done(id) => {
                        self.auditor.task_inserted(r.event, (id - 1) as u32);
                        self.touched.push(r.event);
                        self.log(pid, Some(step), Note::Rows { n: 1 });
                        let n = if mode == ApiMode::Outbox {
                            Step::InsertEvent
                        } else {
                            Step::Commit
                        };
                        self.goto(i, n);
                    }
                    Exec::Err(e) => self.sql_error(i, e),
                    Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
                }
            }
            Step::InsertEvent => {
                let tx = self.procs[i].tx.expect("tx");
                match self.db.insert_event(
                    tx,
                    r.event,
                    EventKind::Created,
                    1,
                    r.intent,
                    self.summa,
                    false,
                ) {
                    Exec::Done(_) => {
                        self.log(pid, Some(step), Note::Rows { n: 1 });
                        self.goto(i, Step::Commit);
                    }
                    Exec::Err(e) => self.sql_error(i, e),
                    Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
                }
            }
            Step::Commit => {
                let ctx = (Some(r.intent), Some(r.event));
                let throws = self.api_errors.iter().any(|w| Self::when_holds(w, 0, ctx));
                if throws {
                    // The handler throws after its INSERTs: the catch block rolls back.
                    self.goto(i, Step::Rollback);
                    self.run_api(i);
                    return;
                }
                let committed = self.end_tx(i, true, false);
                self.touched.push(r.event);
                if committed {
                    self.auditor.committed(r.event);
                    if self.cfg.client_retries > 0 {
                        self.auditor.task_committed(r.intent);
                    }
                    self.goto(i, next_after(Step::Commit));
                } else {
                    self.api_finish(i, false);
                }
            }
            Step::QueueAdd => match self.queue.add(r.event, self.summa, false) {
                res @ (AddResult::Created(_) | AddResult::Duplicate(_)) => {
                    let created = matches!(res, AddResult::Created(_));
                    self.auditor.queue_add(r.event, created);
                    self.touched.push(r.event);
                    r.added = true;
                    self.set_api_req(i, Some(r.clone()));
                    self.log(
                        pid,
                        Some(step),
                        Note::Added {
                            event: r.event,
                            created,
                        },
                    );
                    self.goto(i, next_after(Step::QueueAdd));
                }
                AddResult::Refused => {
                    self.log(pid, Some(step), Note::AddRefused { event: r.event });
                    // The error propagates: a DB-first API has committed already; a
                    // queue-first one has written nothing.
                    self.api_finish(i, false);
                }
                AddResult::Hangs => self.block(i, Wait::Queue),
            },
            Step::Respond => {
                self.log(pid, Some(step), Note::Reply { ok: true });
                self.api_finish(i, true);
            }
            Step::Rollback => {
                if self.procs[i].tx.is_some() {
                    self.end_tx(i, false, false);
                }
                self.api_finish(i, false);
            }
            _ => unreachable!("API step {step:?}"),
        }
    }

    fn relay_mem(
        &mut self,
        i: usize,
    ) -> (
        &mut Vec<u32>,
        &mut usize,
        &mut Vec<u32>,
        &mut Vec<u32>,
        &mut Cursor,
    ) {
        match &mut self.procs[i].mem {
            Mem::Relay {
                batch,
                pos,
                ok,
                bad,
                cursor,
            } => (batch, pos, ok, bad, cursor),
            _ => unreachable!(),
        }
    }

    fn relay_done(&mut self, i: usize) {
        let (batch, pos, ok, bad, cursor) = self.relay_mem(i);
        let poll = Poll {
            tarqatildi: ok.len() as u32,
            xato: bad.len() as u32,
        };
        batch.clear();
        *pos = 0;
        ok.clear();
        bad.clear();
        cursor.reset();
        let h = &mut self.polls[i];
        if h.len() >= POLL_HISTORY {
            h.remove(0);
        }
        h.push(poll);
        self.procs[i].sleep_until = self.tick + self.cfg.relay.poll_interval_ticks;
        self.goto(i, Step::Begin);
    }

    /// Publishing one row; Some(ok) when the call returned, None when it hangs.
    fn publish(&mut self, i: usize, row: u32) -> Option<bool> {
        let (e, summa) = {
            let r = &self.db.outbox[row as usize];
            (r.hodisa, r.summa)
        };
        self.publish_event(i, e, summa)
    }

    /// `queue.add` of one event by a relay or the CDC relay.
    fn publish_event(&mut self, i: usize, e: EventId, summa: u32) -> Option<bool> {
        let pid = Some(ProcId(i as u8));
        if let Some(f) = self
            .publish_failures
            .iter_mut()
            .find(|(ev, n)| *ev == e.0 && *n > 0)
        {
            if f.1 != u32::MAX {
                f.1 -= 1;
            }
            self.log(pid, Some(Step::Publish), Note::PublishFailed { event: e });
            return Some(false);
        }
        match self.queue.add(e, summa, self.cfg.relay.job_id) {
            AddResult::Created(_) => {
                self.auditor.queue_add(e, true);
                self.touched.push(e);
                self.log(
                    pid,
                    Some(Step::Publish),
                    Note::Added {
                        event: e,
                        created: true,
                    },
                );
                Some(true)
            }
            AddResult::Duplicate(_) => {
                self.auditor.queue_add(e, false);
                self.touched.push(e);
                self.log(
                    pid,
                    Some(Step::Publish),
                    Note::Added {
                        event: e,
                        created: false,
                    },
                );
                Some(true)
            }
            AddResult::Refused => {
                self.log(pid, Some(Step::Publish), Note::AddRefused { event: e });
                Some(false)
            }
            AddResult::Hangs => None,
        }
    }

    fn run_relay(&mut self, i: usize) {
        let pid = Some(ProcId(i as u8));
        let step = self.procs[i].pc;
        let mark_first = self.cfg.relay.mode == RelayMode::MarkFirst;
        match step {
            Step::Begin => {
                self.begin(i, Role::Owner);
                self.goto(i, Step::SelectBatch);
            }
            Step::SelectBatch => {
                let tx = self.procs[i].tx.expect("tx");
                // The batch is empty here (a poll starts after `relay_done` or a restart);
                // its list is lent to the SELECT so that polls reuse one allocation.
                let (batch, _, _, _, cursor) = self.relay_mem(i);
                debug_assert!(batch.is_empty());
                let mut rows = std::mem::take(batch);
                let mut cursor = std::mem::take(cursor);
                let r = if self.cfg.relay.mode == RelayMode::HighWater {
                    self.db
                        .select_after(tx, self.high_water, self.cfg.relay.partiya as usize)
                        .map(|v| rows = v)
                } else {
                    self.db.select_batch_into(
                        tx,
                        self.cfg.relay.lock,
                        self.cfg.relay.partiya as usize,
                        &mut cursor,
                        &mut rows,
                    )
                };
                let (batch, _, _, _, c) = self.relay_mem(i);
                *batch = rows;
                *c = cursor;
                match r {
                    Exec::Done(()) => {
                        let (batch, pos, _, _, c) = self.relay_mem(i);
                        let n = batch.len() as u32;
                        *pos = 0;
                        c.reset();
                        self.log(pid, Some(step), Note::Rows { n });
                        let empty = n == 0;
                        let n = match (empty, mark_first) {
                            (true, _) => Step::Commit,
                            (false, false) => Step::Publish,
                            (false, true) => Step::MarkPublished,
                        };
                        self.goto(i, n);
                    }
                    Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
                    Exec::Err(e) => self.sql_error(i, e),
                }
            }
            Step::Publish => {
                let (batch, pos, ..) = self.relay_mem(i);
                let row = batch[*pos];
                match self.publish(i, row) {
                    None => self.block(i, Wait::Queue),
                    Some(ok) => {
                        let (batch, pos, oks, bad, _) = self.relay_mem(i);
                        if ok {
                            oks.push(row)
                        } else {
                            bad.push(row)
                        }
                        *pos += 1;
                        let done = *pos >= batch.len();
                        let (has_ok, has_bad) = (!oks.is_empty(), !bad.is_empty());
                        if mark_first {
                            // The row is gone from memory now, published or not.
                            let e = self.db.outbox[row as usize].hodisa;
                            self.touched.push(e);
                            if done {
                                self.relay_done(i);
                            }
                        } else if done {
                            let n = if has_ok {
                                Step::MarkPublished
                            } else if has_bad {
                                Step::MarkFailed
                            } else {
                                Step::Commit
                            };
                            self.goto(i, n);
                        }
                    }
                }
            }
            Step::MarkPublished | Step::MarkFailed => {
                let tx = self.procs[i].tx.expect("tx");
                let change = if step == Step::MarkPublished {
                    OutboxChange::Published
                } else {
                    OutboxChange::Attempt
                };
                // The rows and the cursor are the relay's own memory: no copies.
                let Mem::Relay {
                    batch,
                    ok,
                    bad,
                    cursor,
                    ..
                } = &mut self.procs[i].mem
                else {
                    unreachable!()
                };
                let rows: &[u32] = if mark_first {
                    batch
                } else if step == Step::MarkPublished {
                    ok
                } else {
                    bad
                };
                let has_bad = !bad.is_empty();
                let r = self.db.update_outbox(tx, rows, change, cursor);
                match r {
                    Exec::Done(n) => {
                        self.log(pid, Some(step), Note::Rows { n: n as u32 });
                        self.relay_mem(i).4.reset();
                        let dead_letter = self.cfg.relay.dead_letter_after.is_some();
                        let n = if step == Step::MarkPublished && has_bad && !mark_first {
                            Step::MarkFailed
                        } else if step == Step::MarkFailed && dead_letter && !mark_first {
                            Step::DeadLetter
                        } else {
                            Step::Commit
                        };
                        self.goto(i, n);
                    }
                    Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
                    Exec::Err(e) => self.sql_error(i, e),
                }
            }
            Step::DeadLetter => {
                let tx = self.procs[i].tx.expect("tx");
                let after = self.cfg.relay.dead_letter_after.unwrap_or(u32::MAX);
                let (_, _, _, bad, cursor) = self.relay_mem(i);
                let rows = bad.clone();
                let mut c = std::mem::take(cursor);
                let r = self.db.dead_letter(tx, &rows, after, &mut c);
                *self.relay_mem(i).4 = c;
                match r {
                    Exec::Done(n) => {
                        self.log(pid, Some(step), Note::Rows { n: n as u32 });
                        self.relay_mem(i).4.reset();
                        self.goto(i, Step::Commit);
                    }
                    Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
                    Exec::Err(e) => self.sql_error(i, e),
                }
            }
            Step::Commit => {
                let committed = self.end_tx(i, true, false);
                if committed && self.cfg.relay.mode == RelayMode::HighWater {
                    self.advance_high_water(i);
                }
                let nonempty = !self.relay_mem(i).0.is_empty();
                if mark_first && committed && nonempty {
                    // From here the rows say "published" and only this memory holds them.
                    let (batch, pos, ..) = self.relay_mem(i);
                    *pos = 0;
                    let rows = batch.clone();
                    let evs: Vec<EventId> = rows
                        .iter()
                        .map(|&r| self.db.outbox[r as usize].hodisa)
                        .collect();
                    self.touched.extend(evs);
                    self.goto(i, Step::Publish);
                } else {
                    self.relay_done(i);
                }
            }
            Step::Rollback => {
                if self.procs[i].tx.is_some() {
                    self.end_tx(i, false, false);
                }
                let (_, _, ok, bad, _) = self.relay_mem(i);
                // The poll failed as a whole: nothing it did counts.
                ok.clear();
                bad.clear();
                self.relay_done(i);
            }
            _ => unreachable!("relay step {step:?}"),
        }
    }

    /// The high-water relay saved its poll: the mark moves over the rows published in id
    /// order, up to the first that failed. Every row it passes is judged again: one that
    /// committed below the mark after the poll's SELECT is now out of reach.
    fn advance_high_water(&mut self, i: usize) {
        let (batch, _, ok, _, _) = self.relay_mem(i);
        let mut mark = None;
        for &r in batch.iter() {
            if !ok.contains(&r) {
                break;
            }
            mark = Some(r as u64 + 1);
        }
        let Some(mark) = mark else { return };
        let old = self.high_water;
        if mark <= old {
            return;
        }
        self.high_water = mark;
        for idx in old..mark {
            let e = self.db.outbox[idx as usize].hodisa;
            self.touched.push(e);
        }
    }

    fn run_cdc(&mut self, i: usize) {
        let pid = Some(ProcId(i as u8));
        let step = self.procs[i].pc;
        let limit = self.cfg.relay.partiya as usize;
        match step {
            Step::ReadWal => {
                // From the slot's confirmed offset: whole transactions, in commit order.
                let mut evs = Vec::new();
                let mut upto = 0;
                for r in self.db.wal.iter() {
                    if !evs.is_empty() && evs.len() + r.events.len() > limit {
                        break;
                    }
                    evs.extend(r.events.iter().copied());
                    upto = r.lsn;
                }
                self.log(
                    pid,
                    Some(step),
                    Note::Rows {
                        n: evs.len() as u32,
                    },
                );
                if evs.is_empty() {
                    self.procs[i].sleep_until = self.tick + self.cfg.relay.poll_interval_ticks;
                    return;
                }
                self.procs[i].mem = Mem::Cdc {
                    batch: evs,
                    pos: 0,
                    upto_lsn: upto,
                };
                self.goto(i, Step::Publish);
            }
            Step::Publish => {
                let Mem::Cdc { batch, pos, .. } = &self.procs[i].mem else {
                    unreachable!()
                };
                let e = batch[*pos];
                let summa = self.db.event_row(e).map_or(0, |r| r.summa);
                match self.publish_event(i, e, summa) {
                    None => self.block(i, Wait::Queue),
                    Some(false) => {
                        // The stream is ordered: retry this event after a pause.
                        self.procs[i].sleep_until = self.tick + self.cfg.relay.poll_interval_ticks;
                    }
                    Some(true) => {
                        let Mem::Cdc { batch, pos, .. } = &mut self.procs[i].mem else {
                            unreachable!()
                        };
                        *pos += 1;
                        if *pos >= batch.len() {
                            self.goto(i, Step::SaveOffset);
                        }
                    }
                }
            }
            Step::SaveOffset => {
                let Mem::Cdc {
                    batch,
                    pos,
                    upto_lsn,
                } = &mut self.procs[i].mem
                else {
                    unreachable!()
                };
                let lsn = *upto_lsn;
                let evs = std::mem::take(batch);
                *pos = 0;
                self.db.wal_confirm(lsn);
                self.log(
                    pid,
                    Some(step),
                    Note::Rows {
                        n: evs.len() as u32,
                    },
                );
                self.touched.extend(evs);
                self.goto(i, Step::ReadWal);
            }
            _ => unreachable!("cdc step {step:?}"),
        }
    }

    fn run_cleaner(&mut self, i: usize) {
        let pid = Some(ProcId(i as u8));
        let step = self.procs[i].pc;
        let cfg = self.cfg.cleaner.clone().unwrap_or_default();
        let day = crate::scenario::TICKS_PER_DAY;
        let done = |w: &mut World| {
            w.procs[i].mem = Mem::Cleaner {
                cursor: Cursor::default(),
            };
            w.procs[i].sleep_until = w.tick + cfg.interval_ticks;
            w.goto(i, Step::Begin);
        };
        match step {
            Step::Begin => {
                self.begin(i, Role::Owner);
                self.goto(i, Step::CleanOutbox);
            }
            Step::CleanOutbox => {
                let tx = self.procs[i].tx.expect("tx");
                let cutoff = self
                    .db
                    .now(tx)
                    .saturating_sub(cfg.retention_days as u64 * day);
                let Mem::Cleaner { cursor } = &mut self.procs[i].mem else {
                    unreachable!()
                };
                let mut c = std::mem::take(cursor);
                let r = self.db.cleanup(tx, cutoff, cfg.published_only, &mut c);
                match r {
                    Exec::Done(n) => {
                        self.log(pid, Some(step), Note::Rows { n: n as u32 });
                        let n = if cfg.inbox_retention_days.is_some() {
                            Step::CleanInbox
                        } else {
                            Step::Commit
                        };
                        self.goto(i, n);
                    }
                    Exec::Blocked(t) => {
                        self.procs[i].mem = Mem::Cleaner { cursor: c };
                        self.block(i, Wait::Tx(t));
                    }
                    Exec::Err(e) => self.sql_error(i, e),
                }
            }
            Step::CleanInbox => {
                let tx = self.procs[i].tx.expect("tx");
                let days = cfg.inbox_retention_days.unwrap_or(u32::MAX) as u64;
                let cutoff = self.db.now(tx).saturating_sub(days.saturating_mul(day));
                match self.db.inbox_cleanup(tx, cutoff) {
                    Exec::Done(n) => {
                        self.log(pid, Some(step), Note::Rows { n: n as u32 });
                        self.goto(i, Step::Commit);
                    }
                    Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
                    Exec::Err(e) => self.sql_error(i, e),
                }
            }
            Step::Commit => {
                self.end_tx(i, true, false);
                done(self);
            }
            Step::Rollback => {
                if self.procs[i].tx.is_some() {
                    self.end_tx(i, false, false);
                }
                done(self);
            }
            _ => unreachable!("cleaner step {step:?}"),
        }
    }

    fn job(&self, i: usize) -> HeldJob {
        match &self.procs[i].mem {
            Mem::Worker { job: Some(j) } => j.clone(),
            _ => unreachable!("worker holds a job"),
        }
    }

    fn set_fresh(&mut self, i: usize, v: bool) {
        if let Mem::Worker { job: Some(j) } = &mut self.procs[i].mem {
            j.fresh = Some(v);
            // Whether the worker still carries the event can change with it.
            self.touched.push(j.event);
        }
    }

    fn run_worker(&mut self, i: usize) {
        use WorkerMode::*;
        let pid = ProcId(i as u8);
        let step = self.procs[i].pc;
        let mode = self.cfg.worker;
        match step {
            Step::Fetch => {
                let Some((key, token)) = self.queue.take(pid) else {
                    return;
                };
                let (event, summa) = {
                    let j = self.queue.job(key).expect("taken job");
                    (j.event, j.summa)
                };
                self.auditor.delivered(event);
                self.touched.push(event);
                self.set_job(
                    i,
                    Some(HeldJob {
                        key,
                        token,
                        event,
                        summa,
                        fresh: None,
                    }),
                );
                self.log(Some(pid), Some(step), Note::Delivered { event });
                let n = if mode == ActionThenInbox {
                    Step::InboxCheck
                } else {
                    Step::Begin
                };
                self.goto(i, n);
            }
            Step::InboxCheck => {
                let j = self.job(i);
                let seen = self.db.inbox_has(j.event);
                self.set_fresh(i, !seen);
                if seen {
                    self.log(Some(pid), Some(step), Note::Skipped { event: j.event });
                    self.goto(i, Step::Complete);
                } else {
                    self.log(Some(pid), Some(step), Note::Rows { n: 0 });
                    self.goto(i, Step::Begin);
                }
            }
            Step::Begin | Step::BeginSecond => {
                self.begin(i, Role::Owner);
                let n = match (mode, step) {
                    (NoInbox, _)
                    | (ActionThenInbox, Step::Begin)
                    | (InboxOwnTx, Step::BeginSecond) => Step::Action,
                    (ActionThenInbox, _) => Step::InboxInsert,
                    _ => Step::InboxInsert,
                };
                self.goto(i, n);
            }
            Step::InboxInsert => {
                let j = self.job(i);
                let tx = self.procs[i].tx.expect("tx");
                match self.db.inbox_insert(tx, j.event, self.tick) {
                    Exec::Done(inserted) => {
                        self.log(Some(pid), Some(step), Note::Inserted { inserted });
                        if mode != ActionThenInbox {
                            self.set_fresh(i, inserted);
                        }
                        let n = match (mode, inserted) {
                            (InboxSameTx, true) => Step::Action,
                            (ExternalEffect, true) => Step::ExternalCall,
                            (ActionThenInbox, _) => Step::CommitSecond,
                            _ => Step::Commit,
                        };
                        if !inserted && mode != ActionThenInbox {
                            self.log(Some(pid), Some(step), Note::Skipped { event: j.event });
                        }
                        self.goto(i, n);
                    }
                    Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
                    Exec::Err(e) => self.sql_error(i, e),
                }
            }
            Step::Action => {
                let j = self.job(i);
                let tx = self.procs[i].tx.expect("tx");
                match self.db.action_insert(tx, j.event, j.summa) {
                    Exec::Done(()) => {
                        self.log(Some(pid), Some(step), Note::Rows { n: 1 });
                        let n = if mode == InboxOwnTx {
                            Step::CommitSecond
                        } else {
                            Step::Commit
                        };
                        self.goto(i, n);
                    }
                    Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
                    Exec::Err(e) => self.sql_error(i, e),
                }
            }
            Step::ExternalCall => {
                let j = self.job(i);
                let dedup =
                    self.cfg.external_idempotency_key && !self.external_seen.insert(j.event.0);
                if !self.cfg.external_idempotency_key {
                    self.external_seen.insert(j.event.0);
                }
                if dedup {
                    self.log(Some(pid), Some(step), Note::Skipped { event: j.event });
                } else {
                    self.auditor.effect(j.event);
                    self.touched.push(j.event);
                    self.log(Some(pid), Some(step), Note::Effect { event: j.event });
                }
                self.goto(i, Step::Commit);
            }
            Step::Commit | Step::CommitSecond => {
                let committed = self.end_tx(i, true, false);
                if !committed {
                    self.goto(i, Step::Rollback);
                    return;
                }
                let j = self.job(i);
                let n = match (mode, step) {
                    (InboxOwnTx, Step::Commit) if j.fresh == Some(true) => Step::BeginSecond,
                    (ActionThenInbox, Step::Commit) => Step::BeginSecond,
                    _ => Step::Complete,
                };
                self.goto(i, n);
            }
            Step::Complete => {
                let j = self.job(i);
                let ok = self.queue.complete(j.key, j.token);
                self.touched.push(j.event);
                self.log(
                    Some(pid),
                    Some(step),
                    Note::Completed { event: j.event, ok },
                );
                self.set_job(i, None);
                self.goto(i, Step::Fetch);
            }
            Step::Rollback => {
                if self.procs[i].tx.is_some() {
                    self.end_tx(i, false, false);
                }
                // The processor threw: BullMQ moves the job to failed (attempts: 1).
                let j = self.job(i);
                self.queue.fail(j.key, j.token);
                self.touched.push(j.event);
                self.set_job(i, None);
                self.goto(i, Step::Fetch);
            }
            _ => unreachable!("worker step {step:?}"),
        }
    }

    fn run_session(&mut self, i: usize) {
        let Mem::Session { pos } = self.procs[i].mem else {
            unreachable!()
        };
        let stmt = self.script[pos];
        let pid = Some(ProcId(i as u8));
        let result: Result<u64, SqlError> = match stmt {
            ScriptStmt::Begin => {
                if self.procs[i].tx.is_none() {
                    self.begin(i, Role::Owner);
                }
                Ok(0)
            }
            ScriptStmt::Commit | ScriptStmt::Rollback => {
                if self.procs[i].tx.is_some() {
                    self.end_tx(i, stmt == ScriptStmt::Commit, true);
                }
                Ok(0)
            }
            _ => {
                let tx = match self.procs[i].tx {
                    Some(t) => t,
                    None => {
                        // Autocommit: a one-statement transaction.
                        self.begin(i, Role::Owner);
                        self.procs[i].tx.expect("tx")
                    }
                };
                let r = match stmt {
                    ScriptStmt::SetRoleApp => self.db.set_local_role(tx, Role::App).map(|_| 0),
                    ScriptStmt::InsertTask => self.db.insert_task(tx, 1, 0).map(|_| 1),
                    ScriptStmt::PgSleep => {
                        self.procs[i].sleep_until = self.tick + PG_SLEEP_TICKS;
                        Exec::Done(0)
                    }
                    ScriptStmt::InsertEvent | ScriptStmt::InsertEventReturning => {
                        // An intent of its own, past the workload's: no client request
                        // shares it (so no false reordering or duplicate effect).
                        let intent = self.tasks_total + self.preloaded + pos as u32;
                        let e = self.mint(intent, EventKind::Completed, TaskRef::OwnRow);
                        self.touched.push(e);
                        self.db
                            .insert_event(
                                tx,
                                e,
                                EventKind::Completed,
                                1,
                                0,
                                0,
                                stmt == ScriptStmt::InsertEventReturning,
                            )
                            .map(|_| 1)
                    }
                    ScriptStmt::SelectCountOutbox => {
                        self.db.probe(tx, Table::Outbox, Privilege::Select)
                    }
                    ScriptStmt::SelectCountTasks => {
                        self.db.probe(tx, Table::Vazifalar, Privilege::Select)
                    }
                    ScriptStmt::UpdateOutbox => self.db.probe(tx, Table::Outbox, Privilege::Update),
                    ScriptStmt::DeleteOutbox => self.db.probe(tx, Table::Outbox, Privilege::Delete),
                    _ => unreachable!(),
                };
                match r {
                    Exec::Done(n) => Ok(n),
                    Exec::Err(e) => Err(e),
                    Exec::Blocked(t) => {
                        self.block(i, Wait::Tx(t));
                        return;
                    }
                }
            }
        };
        let note = match &result {
            Ok(n) => Note::Rows { n: *n as u32 },
            Err(e) => Note::Error { code: e.code },
        };
        self.log(pid, Some(Step::Script(pos as u8)), note);
        self.script_results.push(ScriptResult {
            stmt,
            sql: script_sql(stmt),
            result,
        });
        let np = pos + 1;
        self.procs[i].mem = Mem::Session { pos: np };
        self.procs[i].pc = Step::Script(np.min(255) as u8);
    }

    // ----- judging events -------------------------------------------------------------

    /// The class of an event, judged only from durable state and live process memory.
    pub fn judge(&self, e: EventId) -> Class {
        let Some(life) = self.auditor.life(e) else {
            return Class::Pending;
        };
        let api = &self.procs[self.api_index()];
        let api_req = match &api.mem {
            Mem::Api { req: Some(r) } if api.alive && r.event == e => Some(r),
            _ => None,
        };
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
        } else {
            Class::Lost
        }
    }

    /// Is there something durable, or a live process, that can still bring this event to
    /// an effect?
    fn carried(&self, e: EventId, api_still_adds: bool) -> bool {
        if api_still_adds || self.outbox_carries(e) {
            return true;
        }
        let inbox_blocks = self.cfg.worker != WorkerMode::NoInbox && self.db.inbox_has(e);
        if !inbox_blocks && self.queue.can_deliver(e) {
            return true;
        }
        self.procs.iter().any(|p| {
            p.alive
                && match &p.mem {
                    Mem::Relay { batch, pos, .. } => {
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
    fn outbox_carries(&self, e: EventId) -> bool {
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
    fn reclassify_touched(&mut self) {
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

    /// Inbox rows that expire no longer promise once (see the inbox-retention preset).
    #[inline(always)]
    fn inbox_once(&self) -> bool {
        self.cfg.worker == WorkerMode::InboxSameTx
            && self
                .cfg
                .cleaner
                .as_ref()
                .is_none_or(|c| c.inbox_retention_days.is_none())
    }

    fn reclassify(&mut self) {
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
                self.auditor.classify(e, c);
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
    fn check_held(&mut self, h: EventId, once: bool) {
        if let Err(v) = self.auditor.check_event(h, once) {
            self.violation(v);
        }
    }

    /// The event's kept class can no longer change: it was acted on (effects only grow)
    /// and its task is committed (a committed transaction stays committed, and the task
    /// reference of an event with a task row never changes again).
    fn final_class(&self, e: EventId) -> bool {
        self.auditor.life(e).is_some_and(|l| {
            l.class == Class::Effected && matches!(l.task, TaskRef::Row(_) | TaskRef::Given)
        })
    }

    fn violation(&mut self, v: String) {
        if self.violations.len() < MAX_VIOLATIONS {
            self.violations.push(format!("tick {}: {v}", self.tick));
        }
    }

    fn after_step(&mut self) {
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
        let (held, orphaned) = (bits(g.holds), g.orphan != 0);
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

    // ----- reading ----------------------------------------------------------------------

    pub fn counters(&self) -> Counters {
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
        let a = &self.auditor;
        Counters {
            tasks_in_db: self.db.committed_tasks(),
            events_in_outbox: self.db.committed_events(),
            events_unpublished: self.db.unpublished_len(),
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
            stuck,
            oldest_unpublished_age_ticks: oldest.unwrap_or(0),
            in_flight: a.count(Class::InFlight),
            balance: self.db.balance(),
            tick: self.tick,
            wal_retained: self.db.wal_retained_events(),
            dead_lettered: self.db.dead_letters(),
            duplicate_tasks: a.duplicate_tasks,
        }
    }

    /// The process actions enabled now (what the page may offer).
    pub fn enabled(&self) -> Vec<Action> {
        let mut v = Vec::new();
        for (i, p) in self.procs.iter().enumerate() {
            let process = p.name.clone();
            if self.runnable(i) {
                v.push(Action::Step {
                    process: process.clone(),
                });
            }
            if p.alive {
                v.push(Action::Kill {
                    process: process.clone(),
                });
            } else {
                v.push(Action::Restart {
                    process: process.clone(),
                });
            }
        }
        v.push(if self.queue.health == Health::Up {
            Action::QueueDown { hang: false }
        } else {
            Action::QueueUp
        });
        if self.queue.count(crate::queue::JobState::Failed) > 0 {
            v.push(Action::RetryFailedJobs);
        }
        if self.queue.health == Health::Up {
            v.push(Action::RedisFlush);
        }
        if let Some(t) = self.last_flush {
            v.push(Action::UnpublishSince { since_tick: t });
        }
        v
    }
}

impl World {
    /// Feeds the world's state to `h` in a canonical form, for the explorer
    /// (`crate::explore`) to merge equal states of one scenario. Left out, as history or
    /// as names that only depend on the path taken: the log, the poll history, the script's
    /// results, the kill list and per-process kill counts, the trace hash, the step count,
    /// the violations, the scheduler's caches (gates), transaction ids (a transaction is
    /// named by its fate or by the process holding it), BullMQ's lock tokens and job
    /// counter (a worker's token is fed as "still the job's"), and the tick itself: every
    /// timer is fed relative to it (a process's wake-up and restart time, the stalled
    /// checker's next run, a job's lock), and the times stored in rows only as ages, and
    /// only when something reads them (a cleaner, an operator's un-mark, a schedule; see
    /// [`Db::hash_state`]). The auditor is fed whole: its counters are part of the state,
    /// so two merged states always show the same counters (but for `tick`, `stuck` and
    /// `oldest_unpublished_age_ticks`, which are about time).
    pub fn hash_state<H: std::hash::Hasher>(&self, h: &mut H) {
        let order: Vec<usize> = (0..self.procs.len()).collect();
        self.hash_state_as(h, &order);
    }

    /// [`World::hash_state`] with the processes fed in `order` (a permutation of the
    /// process indexes) and named by their place in it: for symmetric processes (relays
    /// with one configuration), the explorer takes the least key over their permutations.
    pub fn hash_state_as<H: std::hash::Hasher>(&self, h: &mut H, order: &[usize]) {
        use std::hash::Hash;
        debug_assert_eq!(order.len(), self.procs.len());
        let mut place = [0usize; 64];
        for (k, &i) in order.iter().enumerate() {
            place[i] = k;
        }
        let tick = self.tick;
        let rel = |t: u64| t.saturating_sub(tick);
        let ages =
            (self.cfg.cleaner.is_some() || self.last_flush.is_some() || !self.schedule.is_empty())
                .then_some(tick);
        let holder = |t: TxId| self.procs.iter().position(|p| p.tx == Some(t));
        let tx_name = |t: TxId| -> u64 {
            match self.db.status(t) {
                TxStatus::Committed => 0,
                TxStatus::Aborted => 1,
                // Open: by its holder (an orphan, which the invariants forbid, by its id).
                TxStatus::Active | TxStatus::Failed => {
                    holder(t).map_or(1 << 32 | t as u64, |i| 2 + place[i] as u64)
                }
            }
        };
        h.write_u64(self.procs.len() as u64);
        for &i in order {
            let p = &self.procs[i];
            h.write_u8(p.alive as u8 | (p.arrived as u8) << 1 | (p.tx.is_some() as u8) << 2);
            h.write_u64(p.pc.code());
            match p.blocked {
                None => h.write_u64(0),
                Some(Wait::Queue) => h.write_u64(1),
                Some(Wait::Tx(t)) => {
                    h.write_u64(2);
                    h.write_u64(tx_name(t));
                }
            }
            h.write_u64(rel(p.sleep_until));
            h.write_u64(p.restart_at.map_or(u64::MAX, rel));
            match &p.mem {
                Mem::Worker { job } => {
                    h.write_u8(0xA0);
                    match job {
                        None => h.write_u8(0),
                        Some(j) => {
                            h.write_u8(1);
                            let key = self.queue.canonical_key(j.key);
                            key.hash(h);
                            let mine = self.queue.job(j.key).is_some_and(|q| {
                                q.state == crate::queue::JobState::Active && q.token == j.token
                            });
                            h.write_u8(mine as u8);
                            h.write_u32(j.event.0);
                            h.write_u32(j.summa);
                            j.fresh.hash(h);
                        }
                    }
                }
                other => other.hash(h),
            }
        }
        let mut open = order.iter().filter_map(|&i| self.procs[i].tx);
        self.db.hash_state(h, &tx_name, &mut open, ages);
        self.queue
            .hash_state(h, tick, &|p| place[p.0 as usize] as u16);
        self.auditor.hash(h);
        self.armed.hash(h);
        self.api_errors.hash(h);
        self.publish_failures.hash(h);
        h.write_u64(self.schedule.len() as u64);
        for (t, a) in &self.schedule {
            h.write_u64(rel(*t));
            a.hash(h);
        }
        h.write_u32(self.next_event);
        h.write_u64(rel(self.next_stall_check));
        self.external_seen.hash(h);
        h.write_u64(self.high_water);
        h.write_u64(self.last_flush.map_or(u64::MAX, |t| tick - t.min(tick)));
        self.rng.hash(h);
    }
}

impl<T> Exec<T> {
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Exec<U> {
        match self {
            Exec::Done(t) => Exec::Done(f(t)),
            Exec::Blocked(t) => Exec::Blocked(t),
            Exec::Err(e) => Exec::Err(e),
        }
    }
}
