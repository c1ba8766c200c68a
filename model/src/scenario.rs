//! Scenarios: configuration + workload + fault rules + timed actions + seed. Serialisable
//! as JSON, so a run is reproducible from a link or a file. `model/README.md` documents the
//! format; `presets()` holds the named ones.

pub use crate::action::{Action, ProcKind, Step, When};
use crate::db::LockMode;
use crate::queue::QueueOptions;
use serde::{Deserialize, Serialize};

/// How the API writes a task and its event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApiMode {
    /// INSERT + COMMIT, then `queue.add` (the lesson's §1).
    DualWriteDbFirst,
    /// `queue.add`, then INSERT + COMMIT (the lesson's "swap the order").
    DualWriteQueueFirst,
    /// Task and event in one transaction (the lesson's §3).
    Outbox,
    /// An outbox table, but both INSERTs go through the pool (`pool.query`), each on
    /// whatever connection it gets: two autocommitted transactions. A death between them
    /// leaves the task without its event (the lesson's §7: why `hodisaYoz` takes a
    /// `PoolClient`, not a `Pool`).
    OutboxPool,
}

/// Which relay program runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RelayMode {
    /// The lesson's relay: select, publish each, mark, commit (at-least-once).
    Lesson,
    /// Mark and commit first, publish after (at-most-once).
    MarkFirst,
    /// A high-water mark instead of `tarqatilgan_vaqt IS NULL`: `WHERE id > last_id`. The
    /// mark moves to the last id published in order, saved with the poll's COMMIT.
    HighWater,
}

/// How the consumer guards its business action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkerMode {
    /// No dedup: every delivery acts.
    NoInbox,
    /// The lesson's §6: inbox row and action in one transaction.
    InboxSameTx,
    /// Inbox committed in its own transaction, action in a second one.
    InboxOwnTx,
    /// Check the inbox, act and commit, then record the inbox row.
    ActionThenInbox,
    /// Inbox in a transaction, but the action is a call to an outside service
    /// (email, payment API) made before COMMIT.
    ExternalEffect,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RelayConfig {
    pub mode: RelayMode,
    pub lock: LockMode,
    /// Rows per poll (the lesson's `partiya`, the JSON's name for it).
    #[serde(rename = "partiya")]
    pub batch_size: u32,
    pub poll_interval_ticks: u64,
    /// Publish with `jobId = hodisa_id` (the lesson does).
    pub job_id: bool,
    /// Move a row whose publish failed to the dead-letter table `outbox_olik` once its
    /// `urinishlar` reaches this many (None: retry forever, as the lesson's relay does).
    pub dead_letter_after: Option<u32>,
    /// Where the relay publishes (the lesson's §4.1: the publisher is passed in, the
    /// relay's code does not change).
    #[serde(skip_serializing_if = "Sink::is_queue")]
    pub sink: Sink,
}

/// The relay's publisher.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sink {
    /// `queue.add(…)` into BullMQ (the lesson's).
    #[default]
    Queue,
    /// `POST` to a receiver's webhook endpoint, which acts on it at once. With
    /// `idempotency_key`, the request carries `Idempotency-Key: hodisa_id` and the receiver
    /// acts once per key.
    Webhook { idempotency_key: bool },
}

impl Sink {
    fn is_queue(&self) -> bool {
        *self == Sink::Queue
    }
}

impl Default for RelayConfig {
    fn default() -> Self {
        RelayConfig {
            mode: RelayMode::Lesson,
            lock: LockMode::SkipLocked,
            batch_size: 100,
            poll_interval_ticks: 20,
            job_id: true,
            dead_letter_after: None,
            sink: Sink::Queue,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub api: ApiMode,
    /// API instances taking requests at once (1–3), each with its own client sending
    /// every `apis`-th task: with more than one, transactions commit out of id order (#20).
    #[serde(skip_serializing_if = "is_one")]
    pub apis: u8,
    /// The API connects as `vazifalar_ilova` (INSERT-only on the outbox).
    pub api_app_role: bool,
    /// Number of polling relays (0–3). Dual-write modes usually run none.
    pub relays: u8,
    pub relay: RelayConfig,
    /// Number of workers (0–3).
    pub workers: u8,
    pub worker: WorkerMode,
    /// The outside service dedups on `hodisa_id` (only for `external_effect`).
    pub external_idempotency_key: bool,
    pub queue: QueueOptions,
    /// A killed process comes back by itself after this many ticks (None: only by hand).
    pub restart_after_ticks: Option<u64>,
    /// An unpublished row older than this counts as stuck.
    pub stuck_after_ticks: u64,
    /// Entries kept in the event log.
    pub log_cap: usize,
    /// Run a CDC relay (process `cdc`) reading the commit-ordered log through a slot.
    pub cdc: bool,
    /// Run a cleaner (process `cleaner`), the lesson's `outboxTozala` on a schedule.
    pub cleaner: Option<CleanerConfig>,
    /// How often the client sends a request again after an error answer (the answer may
    /// have been lost after COMMIT).
    pub client_retries: u32,
    /// The API stores the client's idempotency key in the request's transaction
    /// (`sorov_kalitlari`) and answers a repeat with the first result (outbox API only).
    pub api_idempotency_key: bool,
}

/// Model time: one "day" of retention is this many ticks (a relay polls every 20 ticks by
/// default, so a day is five default polls; retention periods are about order, not size).
pub const TICKS_PER_DAY: u64 = 100;

/// The cleaner: `DELETE FROM outbox WHERE tarqatilgan_vaqt < now() - retention`, every
/// `interval_ticks`, in its own transaction.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CleanerConfig {
    /// Outbox retention in days ([`TICKS_PER_DAY`] ticks each); the lesson's default is 7.
    pub retention_days: u32,
    /// The lesson's filter on `tarqatilgan_vaqt`. `false` is the broken variant that
    /// deletes by `yaratilgan_vaqt` alone, published or not.
    pub published_only: bool,
    /// Also delete inbox rows older than this many days (None: keep the inbox forever).
    pub inbox_retention_days: Option<u32>,
    pub interval_ticks: u64,
}

impl Default for CleanerConfig {
    fn default() -> Self {
        CleanerConfig {
            retention_days: 7,
            published_only: true,
            inbox_retention_days: None,
            interval_ticks: TICKS_PER_DAY,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            api: ApiMode::Outbox,
            apis: 1,
            api_app_role: true,
            relays: 1,
            relay: RelayConfig::default(),
            workers: 1,
            worker: WorkerMode::InboxSameTx,
            external_idempotency_key: false,
            queue: QueueOptions::default(),
            restart_after_ticks: Some(5),
            stuck_after_ticks: 500,
            log_cap: 200,
            cdc: false,
            cleaner: None,
            client_retries: 0,
            api_idempotency_key: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Workload {
    /// Client requests, one task each (the lesson's loop `for i in 0..100`).
    pub tasks: u32,
    /// Events already committed in the outbox when the run starts.
    pub preloaded_events: u32,
    /// `malumot.summa` of every event (the payment exercise's 50 000).
    pub summa: u32,
    /// Each preloaded task also has its `vazifa.bajarildi` event, right after its
    /// `vazifa.yaratildi` (ids 2i+1 and 2i+2 for task i).
    pub preloaded_completed: bool,
}

impl Default for Workload {
    fn default() -> Self {
        Workload {
            tasks: 10,
            preloaded_events: 0,
            summa: 0,
            preloaded_completed: false,
        }
    }
}

/// Standing rules of a scenario.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "fault", deny_unknown_fields)]
pub enum Fault {
    /// Kill `process` when it reaches `step` and `when` holds, at most `times` times; with
    /// `per_task`, at most `times` times for each task (e.g. "die at this step once for
    /// every task with i % 10 == 7": the retry of that task then gets through).
    Kill {
        process: String,
        step: Step,
        when: When,
        times: Option<u32>,
        #[serde(default, skip_serializing_if = "is_false")]
        per_task: bool,
    },
    /// Publishing event `h-event` fails this many times (u32::MAX: always, a poison event):
    /// the call is refused before anything happens (Redis down, a webhook's 5xx).
    FailPublish { event: u32, times: u32 },
    /// Publishing event `h-event` times out this many times *after* the other side acted
    /// (the job was added, the webhook's receiver acted): the relay sees a failure and
    /// publishes it again on a later poll.
    PublishTimesOut { event: u32, times: u32 },
    /// The API's business logic throws after its INSERTs: it rolls back instead of COMMIT.
    ApiError { when: When },
    /// `process` stalls `ticks` ticks on reaching `step` when `when` holds (a slow COMMIT,
    /// a GC pause, a slow network), at most `times` times; the step then runs. Whatever
    /// the process holds (its transaction, its locks) stays held meanwhile.
    Delay {
        process: String,
        step: Step,
        when: When,
        ticks: u64,
        times: Option<u32>,
    },
}

/// An action at a given tick.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timed {
    pub at_tick: u64,
    pub action: Action,
}

/// A statement of a scripted SQL session (the lesson's psql blocks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScriptStmt {
    Begin,
    SetRoleApp,
    InsertTask,
    InsertEvent,
    InsertEventReturning,
    SelectCountOutbox,
    /// `SELECT hodisa_id FROM outbox`: needs SELECT on that column ([`crate::sql::GRANT_RETURNING`]).
    SelectEventIds,
    SelectCountTasks,
    UpdateOutbox,
    DeleteOutbox,
    /// `SELECT pg_sleep(…)`: the session is busy for [`crate::world::PG_SLEEP_TICKS`]
    /// ticks (inside a transaction: a slow transaction).
    PgSleep,
    /// [`crate::sql::GRANT_RETURNING`], as the schema owner (the session's own role).
    GrantReturning,
    Commit,
    Rollback,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    #[serde(default)]
    pub summary: String,
    #[serde(default = "default_seed")]
    pub seed: u64,
    #[serde(default)]
    pub config: Config,
    #[serde(default)]
    pub workload: Workload,
    #[serde(default)]
    pub faults: Vec<Fault>,
    #[serde(default)]
    pub schedule: Vec<Timed>,
    /// A scripted SQL session run beside the processes.
    #[serde(default)]
    pub script: Vec<ScriptStmt>,
    /// Run at most this many ticks.
    #[serde(default = "default_max_ticks")]
    pub max_ticks: u64,
}

fn default_max_ticks() -> u64 {
    1_000_000
}

/// The seed of every preset and of a scenario file that leaves `seed` out (#20: one
/// default, the same in the code, the presets, `outbox-sim show` and model/README.md).
pub const DEFAULT_SEED: u64 = 1;

fn default_seed() -> u64 {
    DEFAULT_SEED
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            name: "custom".into(),
            summary: String::new(),
            seed: DEFAULT_SEED,
            config: Config::default(),
            workload: Workload::default(),
            faults: Vec::new(),
            schedule: Vec::new(),
            script: Vec::new(),
            max_ticks: default_max_ticks(),
        }
    }
}

/// The processes of a configuration, in world order, as (kind, number): the number counts
/// from 1 among the relays and among the workers, and is 0 for a kind there is one of. The
/// world is built from this list; names are made from it ([`ProcKind::name`]).
pub fn processes(cfg: &Config, session: bool) -> Vec<(ProcKind, u8)> {
    // Each API follows its own client (the world pairs them by place: client, then API).
    let mut v = if cfg.apis <= 1 {
        vec![(ProcKind::Client, 0), (ProcKind::Api, 0)]
    } else {
        (1..=cfg.apis)
            .flat_map(|n| [(ProcKind::Client, n), (ProcKind::Api, n)])
            .collect()
    };
    v.extend((1..=cfg.relays).map(|n| (ProcKind::Relay, n)));
    v.extend((1..=cfg.workers).map(|n| (ProcKind::Worker, n)));
    if cfg.cdc {
        v.push((ProcKind::Cdc, 0));
    }
    if cfg.cleaner.is_some() {
        v.push((ProcKind::Cleaner, 0));
    }
    if session {
        v.push((ProcKind::Session, 0));
    }
    v
}

/// Process names, in world order.
pub fn proc_names(cfg: &Config, session: bool) -> Vec<String> {
    processes(cfg, session)
        .into_iter()
        .map(|(kind, n)| kind.name(n))
        .collect()
}

/// A process's index in world order, by its name.
pub fn proc_index(cfg: &Config, name: &str, session: bool) -> Option<usize> {
    proc_names(cfg, session).iter().position(|n| n == name)
}

/// Limits on what a scenario may ask for, so a hostile link cannot exhaust memory.
pub const MAX_TASKS: u32 = 2_000_000;
pub const MAX_RELAYS: u8 = 3;
pub const MAX_WORKERS: u8 = 3;
/// The most processes a valid scenario asks for (see [`processes`]): a client and an API
/// per API instance, the relays, the workers, and one each of the CDC relay, the cleaner
/// and the psql session. A world runs at most [`crate::world::MAX_PROCS`]; this crate does
/// not compile if these limits outgrow it, so `World::new` never refuses a valid scenario.
pub const MAX_PROCESSES: usize =
    2 * MAX_APIS as usize + MAX_RELAYS as usize + MAX_WORKERS as usize + 3;
const _: () = assert!(MAX_PROCESSES <= crate::world::MAX_PROCS);

/// The longest interval or timeout a scenario may set, in ticks (a run of the page's
/// biggest world lasts a few million ticks).
pub const MAX_DURATION_TICKS: u64 = 1_000_000_000;
/// The latest tick a scheduled action may name: the clock jumps to it when the world is
/// idle, and durations are then added to it.
pub const MAX_SCHEDULE_TICK: u64 = 1_000_000_000_000;
/// The most fault rules, scheduled actions and script statements a scenario may carry
/// (the presets use at most a dozen of each). Every step of a run looks at the rules
/// armed for it, and a link of thousands (#40: 1 600 rules that never fire) held the page
/// for seconds before its first frame.
pub const MAX_FAULTS: usize = 48;
pub const MAX_SCHEDULE: usize = 48;
pub const MAX_SCRIPT: usize = 48;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The JSON path of the offending field (e.g. `config.relays`).
    pub field: String,
    pub message: String,
    /// The limit the field went past, when that is why (`faults`: at most
    /// [`MAX_FAULTS`]): the page says the number in the reader's language.
    pub limit: Option<u64>,
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl Scenario {
    /// Parses and validates a scenario; errors name the field.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let s: Scenario = serde_json::from_str(text).map_err(|e| ScenarioError {
            field: json_error_field(text, &e),
            message: e.to_string(),
            limit: None,
        })?;
        s.validate()?;
        Ok(s)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("scenario serialises")
    }

    pub fn validate(&self) -> Result<(), ScenarioError> {
        // The checks run in this order, and the first failure is the one reported.
        self.check_sizes()?;
        self.check_durations()?;
        self.check_faults()?;
        self.check_schedule()
    }

    /// Counts and sizes: tasks, processes, the batch, the queue's timers, the cleaner.
    fn check_sizes(&self) -> Result<(), ScenarioError> {
        let lists = [
            ("faults", self.faults.len(), MAX_FAULTS),
            ("schedule", self.schedule.len(), MAX_SCHEDULE),
            ("script", self.script.len(), MAX_SCRIPT),
        ];
        for (field, n, max) in lists {
            if n > max {
                return Err(ScenarioError {
                    field: field.into(),
                    message: format!("at most {max} (found {n})"),
                    limit: Some(max as u64),
                });
            }
        }
        if self.workload.tasks > MAX_TASKS {
            return invalid("workload.tasks", format!("at most {MAX_TASKS}"));
        }
        if self.workload.preloaded_events > MAX_TASKS {
            return invalid("workload.preloaded_events", format!("at most {MAX_TASKS}"));
        }
        if self.config.relays > MAX_RELAYS {
            return invalid("config.relays", format!("at most {MAX_RELAYS}"));
        }
        if self.config.workers > MAX_WORKERS {
            return invalid("config.workers", format!("at most {MAX_WORKERS}"));
        }
        if self.config.relay.batch_size == 0 || self.config.relay.batch_size > 10_000 {
            return invalid("config.relay.partiya", "must be 1..=10000".into());
        }
        if self.config.queue.lock_duration_ticks == 0
            || self.config.queue.stalled_interval_ticks == 0
        {
            return invalid(
                "config.queue",
                "lock_duration_ticks and stalled_interval_ticks must be > 0".into(),
            );
        }
        if let Some(c) = &self.config.cleaner {
            if c.interval_ticks == 0 {
                return invalid("config.cleaner.interval_ticks", "must be > 0".into());
            }
        }
        Ok(())
    }

    /// Durations (added to the current tick: bounded, so no sum can overflow) and the
    /// small counts that go with them.
    fn check_durations(&self) -> Result<(), ScenarioError> {
        let c = &self.config;
        let durations = [
            (
                "config.relay.poll_interval_ticks",
                Some(c.relay.poll_interval_ticks),
            ),
            ("config.restart_after_ticks", c.restart_after_ticks),
            ("config.stuck_after_ticks", Some(c.stuck_after_ticks)),
            (
                "config.queue.lock_duration_ticks",
                Some(c.queue.lock_duration_ticks),
            ),
            (
                "config.queue.stalled_interval_ticks",
                Some(c.queue.stalled_interval_ticks),
            ),
            (
                "config.cleaner.interval_ticks",
                c.cleaner.as_ref().map(|c| c.interval_ticks),
            ),
        ];
        for (field, d) in durations {
            if d.is_some_and(|d| d > MAX_DURATION_TICKS) {
                return invalid(field, format!("at most {MAX_DURATION_TICKS}"));
            }
        }
        if !(1..=MAX_APIS).contains(&c.apis) {
            return invalid("config.apis", format!("1 to {MAX_APIS}"));
        }
        if c.client_retries > 10 {
            return invalid("config.client_retries", "at most 10".into());
        }
        if c.relay.dead_letter_after == Some(0) {
            return invalid("config.relay.dead_letter_after", "must be > 0".into());
        }
        if c.log_cap > 10_000 {
            return invalid("config.log_cap", "at most 10000".into());
        }
        Ok(())
    }

    /// Every fault rule names a process of this configuration and a usable condition.
    fn check_faults(&self) -> Result<(), ScenarioError> {
        for (i, f) in self.faults.iter().enumerate() {
            let when = match f {
                Fault::Kill { process, when, .. } | Fault::Delay { process, when, .. } => {
                    if proc_index(&self.config, process, !self.script.is_empty()).is_none() {
                        return invalid(
                            &format!("faults[{i}].process"),
                            format!("no process named {process:?} in this configuration"),
                        );
                    }
                    when
                }
                Fault::ApiError { when } => when,
                Fault::FailPublish { .. } | Fault::PublishTimesOut { .. } => continue,
            };
            if let When::TaskIndexMod { modulus: 0, .. } = when {
                return invalid(&format!("faults[{i}].when.modulus"), "must be > 0".into());
            }
        }
        Ok(())
    }

    /// Every scheduled action is in reach of the clock and names a process that exists.
    fn check_schedule(&self) -> Result<(), ScenarioError> {
        for (i, t) in self.schedule.iter().enumerate() {
            // The clock jumps to a scheduled action when nothing else can run.
            if t.at_tick > MAX_SCHEDULE_TICK {
                return invalid(
                    &format!("schedule[{i}].at_tick"),
                    format!("at most {MAX_SCHEDULE_TICK}"),
                );
            }
            if let Some(p) = t.action.process() {
                if proc_index(&self.config, p, !self.script.is_empty()).is_none() {
                    return invalid(
                        &format!("schedule[{i}].action"),
                        format!("no process named {p:?} in this configuration"),
                    );
                }
            }
        }
        Ok(())
    }
}

/// A refusal of `validate`, naming the field.
fn invalid(field: &str, message: String) -> Result<(), ScenarioError> {
    Err(ScenarioError {
        field: field.into(),
        message,
        limit: None,
    })
}

/// Finds the key being parsed where serde stopped, to name the field in the message.
pub(crate) fn json_error_field(text: &str, e: &serde_json::Error) -> String {
    let msg = e.to_string();
    for marker in ["unknown field `", "missing field `"] {
        if let Some(rest) = msg.split(marker).nth(1) {
            return rest.split('`').next().unwrap_or("?").to_string();
        }
    }
    let head = &text[..error_offset(text, e)];
    // Serde reads an internally tagged object (a fault, an action) whole before it looks
    // at its fields, so its errors point at the object's end, after its last key. The
    // value serde names is the better guide: the key written right before that value.
    if let Some(key) = offending_value(&msg).and_then(|v| key_before_value(head, &v)) {
        return key;
    }
    last_key(head).unwrap_or_else(|| "(document)".into())
}

/// The byte offset of serde's line and column, on a character boundary.
fn error_offset(text: &str, e: &serde_json::Error) -> usize {
    let line = e.line().saturating_sub(1);
    let offset: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let mut upto = (offset + e.column()).min(text.len());
    // The position can fall inside a multi-byte character (`{"name": é}`): slice at the
    // character's start, never through it.
    while !text.is_char_boundary(upto) {
        upto -= 1;
    }
    upto
}

/// The JSON text of the value an error names: `unknown variant `x``, `invalid type:
/// string "x"`, `invalid value: integer `-1``, …
fn offending_value(msg: &str) -> Option<String> {
    if let Some(rest) = msg.split("unknown variant `").nth(1) {
        return rest.split('`').next().map(|v| format!("\"{v}\""));
    }
    if let Some(rest) = msg.split("string \"").nth(1) {
        return rest.split('"').next().map(|v| format!("\"{v}\""));
    }
    for kind in ["integer `", "floating point `", "boolean `"] {
        if let Some(rest) = msg.split(kind).nth(1) {
            return rest.split('`').next().map(str::to_string);
        }
    }
    None
}

/// The key of the last `"key": value` in `head` whose value is `value`.
fn key_before_value(head: &str, value: &str) -> Option<String> {
    head.rmatch_indices(value).find_map(|(at, _)| {
        let before = head[..at].trim_end().strip_suffix(':')?.trim_end();
        let before = before.strip_suffix('"')?;
        let start = before.rfind('"')?;
        Some(before[start + 1..].to_string())
    })
}

/// The last key in `head`.
fn last_key(head: &str) -> Option<String> {
    let end = head.rfind("\":")?;
    let start = head[..end].rfind('"')?;
    Some(head[start + 1..end].to_string())
}

/// The canon's kill rule: every task whose index `i % 10 == 3`.
const CANON_KILL: When = When::TaskIndexMod {
    modulus: 10,
    remainder: 3,
};

// ----- presets -----------------------------------------------------------------------

fn kill(process: &str, step: Step, when: When, times: Option<u32>) -> Fault {
    Fault::Kill {
        process: process.into(),
        step,
        when,
        times,
        per_task: false,
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_one(n: &u8) -> bool {
    *n == 1
}

/// The most API instances a configuration may run.
pub const MAX_APIS: u8 = 3;

/// Schedules `action` at `tick`.
fn at(s: &mut Scenario, tick: u64, action: Action) {
    s.schedule.push(Timed {
        at_tick: tick,
        action,
    });
}

fn base(name: &str, summary: &str) -> Scenario {
    Scenario {
        name: name.into(),
        summary: summary.into(),
        ..Scenario::default()
    }
}

/// The named presets, in teaching order.
///
/// This is a table, and longer than a function should be on purpose: one entry per
/// preset, each a few lines of settings under the lesson section it illustrates, read top
/// to bottom in the order the page lists them. Splitting it would only scatter the list.
pub fn presets() -> Vec<Scenario> {
    let mut v = Vec::new();

    // Lesson §2: "100 tasks, every i % 10 == 3 the process dies after COMMIT, before the
    // queue write" → "bazada 100 vazifa, navbatda 90 hodisa".
    let mut s = base("canon-dual-write", "Dual write, DB first: the API dies after COMMIT for every i % 10 == 3 → DB 100, queue 90, lost 10");
    s.config.api = ApiMode::DualWriteDbFirst;
    s.config.api_app_role = false;
    s.config.relays = 0;
    s.config.worker = WorkerMode::NoInbox;
    s.workload.tasks = 100;
    s.faults.push(kill("api", Step::QueueAdd, CANON_KILL, None));
    v.push(s);

    // Lesson §2: the same with the outbox → "relay tarqatdi: 100, navbatda: 100".
    let mut s = base("canon-outbox", "Outbox: the same kills, but the event commits with the task; the relay publishes all → 100 and 100, lost 0");
    s.workload.tasks = 100;
    s.faults.push(kill("api", Step::Respond, CANON_KILL, None));
    v.push(s);

    // Lesson §7: `hodisaYoz` takes a PoolClient, not a Pool. With the pool, the task and
    // its event are two transactions: the canon's deaths between them lose the event
    // although there is an outbox table.
    let mut s = base("outbox-pool", "Outbox table, but both INSERTs through the pool (two transactions): the API dies between them for every i % 10 == 3 → 100 tasks, 90 events, lost 10");
    s.workload.tasks = 100;
    s.config.api = ApiMode::OutboxPool;
    s.faults
        .push(kill("api", Step::InsertEvent, CANON_KILL, None));
    v.push(s);

    // Lesson §2: "o'sha hodisa qayta yuborildi → navbatda baribir 100 (jobId = hodisa_id)".
    // The relay dies after adding its batch's first event, before COMMIT; its next poll
    // adds that event again and BullMQ ignores the known jobId.
    let mut s = base("canon-republish", "The relay dies after its first queue.add; the next poll republishes that event and jobId = hodisa_id absorbs it → still 100 jobs, 1 dedup hit");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 100;
    s.config.workers = 0;
    s.faults
        .push(kill("relay-1", Step::Publish, When::Nth { n: 2 }, Some(1)));
    v.push(s);

    // Lesson §9, exercise 2: five events, the publish of event 3 fails the first time.
    let mut s = base("exercise-2", "Exercise 2: five events, publishing event 3 fails once; three polls return 4/1, 1/0, 0/0 and the queue order is 1, 2, 4, 5, 3");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 5;
    s.config.workers = 0;
    s.faults.push(Fault::FailPublish { event: 3, times: 1 });
    v.push(s);

    // Lesson §9, exercise 3: a 50 000 payment delivered three times, the first delivery
    // dies in the middle of its transaction.
    let mut s = base("exercise-3", "Exercise 3: a 50 000 payment delivered three times, the first dies mid-transaction; the inbox keeps the balance at 50 000");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 1;
    s.workload.summa = 50_000;
    // BullMQ fails a job that stalls more than maxStalledCount times; two stalls are needed
    // for a third delivery.
    s.config.queue.max_stalled_count = 2;
    s.faults
        .push(kill("worker-1", Step::Commit, When::Nth { n: 1 }, Some(1)));
    s.faults.push(kill(
        "worker-1",
        Step::Complete,
        When::Nth { n: 1 },
        Some(1),
    ));
    v.push(s);

    // Lesson §4.1: "200 hodisa, ikki relay — har biri aynan bir marta".
    let mut s = base(
        "two-relays-skip-locked",
        "Two relays with FOR UPDATE SKIP LOCKED over 200 events: no row is held by both at once; in this crash-free run each event is published once",
    );
    s.workload.tasks = 0;
    s.workload.preloaded_events = 200;
    s.config.relays = 2;
    s.config.relay.poll_interval_ticks = 1;
    s.config.workers = 0;
    v.push(s);

    let mut s = base("two-relays-wait", "Two relays with plain FOR UPDATE: the second waits for the first to commit, re-checks, and skips rows already published");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 200;
    s.config.relays = 2;
    s.config.relay.lock = LockMode::Wait;
    s.config.relay.poll_interval_ticks = 1;
    s.config.workers = 0;
    v.push(s);

    let mut s = base(
        "two-relays-nowait",
        "Two relays with FOR UPDATE NOWAIT: a collision is error 55P03 and a rolled-back poll",
    );
    s.workload.tasks = 0;
    s.workload.preloaded_events = 200;
    s.config.relays = 2;
    s.config.relay.lock = LockMode::Nowait;
    s.config.relay.poll_interval_ticks = 1;
    s.config.workers = 0;
    v.push(s);

    let mut s = base("two-relays-no-lock", "Two relays with a plain SELECT: both publish the same rows; jobId absorbs the second add while the job exists");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 200;
    s.config.relays = 2;
    s.config.relay.lock = LockMode::None;
    s.config.relay.poll_interval_ticks = 1;
    s.config.workers = 0;
    v.push(s);

    // Lesson §3.2: the task and its event are written, then ROLLBACK → both gone.
    let mut s = base(
        "rollback",
        "Task and event written in one transaction, then ROLLBACK: 0 tasks, 0 events",
    );
    s.workload.tasks = 1;
    s.faults.push(Fault::ApiError { when: When::Always });
    v.push(s);

    // Lesson §3.2: the app role may INSERT into the outbox but not read it.
    let mut s = base("app-role", "The INSERT-only app role: INSERT works, SELECT / UPDATE / DELETE on the outbox are denied (42501); after GRANT SELECT (hodisa_id) RETURNING works, and so do count(*) and SELECT hodisa_id");
    s.workload.tasks = 0;
    s.config.relays = 0;
    s.config.workers = 0;
    s.script = vec![
        ScriptStmt::Begin,
        ScriptStmt::SetRoleApp,
        ScriptStmt::InsertEvent,
        ScriptStmt::SelectCountOutbox,
        ScriptStmt::Rollback,
        ScriptStmt::Begin,
        ScriptStmt::SetRoleApp,
        ScriptStmt::UpdateOutbox,
        ScriptStmt::Rollback,
        ScriptStmt::Begin,
        ScriptStmt::SetRoleApp,
        ScriptStmt::DeleteOutbox,
        ScriptStmt::Rollback,
        ScriptStmt::Begin,
        ScriptStmt::SetRoleApp,
        ScriptStmt::InsertEventReturning,
        ScriptStmt::Rollback,
        // The grant RETURNING needs (autocommit, as the owner): it makes RETURNING work,
        // and it also lets the app role count the outbox and read every hodisa_id, as
        // PostgreSQL allows with SELECT on one column; UPDATE stays refused.
        ScriptStmt::GrantReturning,
        ScriptStmt::Begin,
        ScriptStmt::SetRoleApp,
        ScriptStmt::InsertEventReturning,
        ScriptStmt::SelectCountOutbox,
        ScriptStmt::SelectEventIds,
        ScriptStmt::UpdateOutbox,
        ScriptStmt::Rollback,
    ];
    v.push(s);

    let mut s = base("dual-write-queue-first", "Dual write, queue first: the API adds the event, then dies before COMMIT for every i % 10 == 3 → 10 phantom events for tasks that never existed");
    s.config.api = ApiMode::DualWriteQueueFirst;
    s.config.api_app_role = false;
    s.config.relays = 0;
    s.config.worker = WorkerMode::NoInbox;
    s.workload.tasks = 100;
    s.faults.push(kill("api", Step::Commit, CANON_KILL, None));
    v.push(s);

    let mut s = base("at-most-once-relay", "Relay marks and commits first, publishes after: it dies between COMMIT and queue.add → those events are lost");
    s.workload.tasks = 20;
    s.config.relay.mode = RelayMode::MarkFirst;
    s.config.relay.batch_size = 5;
    s.faults
        .push(kill("relay-1", Step::Publish, When::Nth { n: 1 }, Some(1)));
    v.push(s);

    let mut s = base("worker-no-inbox", "No inbox: the worker dies after its COMMIT, before acknowledging; the job is delivered again and the action runs twice");
    s.workload.tasks = 10;
    s.config.worker = WorkerMode::NoInbox;
    s.faults
        .push(kill("worker-1", Step::Complete, CANON_KILL, Some(1)));
    v.push(s);

    let mut s = base("worker-inbox-own-tx", "Inbox committed in its own transaction: the worker dies before the action; the redelivery is skipped as a duplicate and the action never happens");
    s.workload.tasks = 10;
    s.config.worker = WorkerMode::InboxOwnTx;
    s.faults
        .push(kill("worker-1", Step::BeginSecond, CANON_KILL, Some(1)));
    v.push(s);

    let mut s = base(
        "worker-action-then-inbox",
        "Action committed first, inbox after: the worker dies between; the redelivery acts again",
    );
    s.workload.tasks = 10;
    s.config.worker = WorkerMode::ActionThenInbox;
    s.faults
        .push(kill("worker-1", Step::BeginSecond, CANON_KILL, Some(1)));
    v.push(s);

    let mut s = base("worker-external-effect", "Side effect outside the transaction (an email): the worker dies after sending, before COMMIT; the email goes out twice");
    s.workload.tasks = 10;
    s.config.worker = WorkerMode::ExternalEffect;
    s.faults
        .push(kill("worker-1", Step::Commit, CANON_KILL, Some(1)));
    v.push(s);

    let mut s = base(
        "worker-external-idempotency-key",
        "The same email, but the service takes hodisa_id as its Idempotency-Key: it sends once",
    );
    s.workload.tasks = 10;
    s.config.worker = WorkerMode::ExternalEffect;
    s.config.external_idempotency_key = true;
    s.faults
        .push(kill("worker-1", Step::Commit, CANON_KILL, Some(1)));
    v.push(s);

    let mut s = base("queue-down", "Redis refuses connections for a while: the relay's adds fail, urinishlar grows, nothing is lost; after Redis is back everything is published");
    s.workload.tasks = 10;
    at(&mut s, 1, Action::QueueDown { hang: false });
    at(&mut s, 300, Action::QueueUp);
    v.push(s);

    let mut s = base("queue-hang", "Redis accepts connections but never answers: the relay's add hangs inside its transaction, its row locks stay and the batch is stuck; when Redis answers again everything flows");
    s.workload.tasks = 10;
    s.config.stuck_after_ticks = 100;
    at(&mut s, 1, Action::QueueDown { hang: true });
    at(&mut s, 600, Action::QueueUp);
    v.push(s);

    let mut s = base("poison-stall", "Three poison events (publish always fails) at the head of the order with partiya 3: every poll takes the same three, urinishlar grows without end and the other 17 are stuck");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 20;
    s.config.relay.batch_size = 3;
    for event in 1..=3 {
        s.faults.push(Fault::FailPublish {
            event,
            times: u32::MAX,
        });
    }
    s.max_ticks = 2_000;
    v.push(s);

    let mut s = base("poison-dead-letter", "The same poison events, but the relay moves a row to outbox_olik after 5 attempts: the head clears and the other 17 are published");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 20;
    s.config.relay.batch_size = 3;
    s.config.relay.dead_letter_after = Some(5);
    for event in 1..=3 {
        s.faults.push(Fault::FailPublish {
            event,
            times: u32::MAX,
        });
    }
    s.max_ticks = 2_000;
    v.push(s);

    let mut s = base("redis-flush", "Redis restarts without persistence after the relay marked rows published: their jobs are gone though the outbox says published; the operator un-marks rows published since before the crash, the relay republishes and the inbox absorbs the overlap");
    s.workload.tasks = 30;
    s.config.relay.poll_interval_ticks = 5;
    at(&mut s, 150, Action::RedisFlush);
    at(&mut s, 400, Action::UnpublishSince { since_tick: 0 });
    v.push(s);

    let mut s = base("cdc-relay", "CDC relay: reads committed changes in commit order (rolled-back ones never appear), dies after publishing before saving its offset, and is down a while: the slot retains the log, the restart republishes and jobId absorbs it");
    s.workload.tasks = 10;
    s.workload.preloaded_events = 20;
    s.config.relays = 0;
    s.config.cdc = true;
    s.config.restart_after_ticks = None;
    s.faults.push(Fault::ApiError { when: CANON_KILL });
    s.faults
        .push(kill("cdc", Step::SaveOffset, When::Nth { n: 1 }, Some(1)));
    at(
        &mut s,
        300,
        Action::Restart {
            process: "cdc".into(),
        },
    );
    v.push(s);

    // The same schedule for both high-water presets: a psql session takes an id, sleeps
    // inside its transaction while the API commits later ids, then commits.
    let slow_tx = vec![
        ScriptStmt::Begin,
        ScriptStmt::InsertEvent,
        ScriptStmt::PgSleep,
        ScriptStmt::Commit,
    ];
    let mut s = base("high-water-relay", "High-water-mark relay (WHERE id > last_id): a slow transaction takes its id early and commits after the mark has passed it → its event is never read, lost for good");
    s.workload.tasks = 20;
    s.config.relay.mode = RelayMode::HighWater;
    s.config.relay.poll_interval_ticks = 5;
    s.script = slow_tx.clone();
    v.push(s);

    let mut s = base("high-water-lesson-poll", "The same slow transaction with the lesson's poll (WHERE tarqatilgan_vaqt IS NULL): the late row is picked up by the next poll, later than higher ids but not lost");
    s.workload.tasks = 20;
    s.config.relay.poll_interval_ticks = 5;
    s.script = slow_tx;
    v.push(s);

    // Lesson §4.1, the third decision: the publisher is passed in, so the same relay feeds
    // a webhook. Event 3's POST times out after the receiver acted (retried: acted twice);
    // event 5 gets a 5xx twice (not acted; retried until it lands).
    let webhook = |name: &str, summary: &str, key: bool| {
        let mut s = base(name, summary);
        s.workload.tasks = 10;
        s.config.workers = 0;
        s.config.relay.sink = Sink::Webhook {
            idempotency_key: key,
        };
        s.faults.push(Fault::PublishTimesOut { event: 3, times: 1 });
        s.faults.push(Fault::FailPublish { event: 5, times: 2 });
        s
    };
    v.push(webhook("webhook", "The relay feeds a webhook instead of the queue: event 3's POST times out after the receiver acted and is sent again → acted twice (DUP-E 1); event 5's 5xx twice → retried, acted once", false));
    v.push(webhook("webhook-idempotency-key", "The same webhook with Idempotency-Key: hodisa_id: the receiver acts once per key → the timed-out event 3 is acted on once (DUP-E 0)", true));

    // #20: the same loss without a scripted session: two API instances, api-1's COMMIT
    // slow for every task with i % 10 == 4 (it takes the even tasks: 4 and 14).
    let mut s = base("high-water-two-apis", "Two API instances and a slow COMMIT on api-1: its row takes its id early and commits late; the high-water relay's mark passes it → lost, with no scripted psql session");
    s.workload.tasks = 20;
    s.config.apis = 2;
    s.config.relay.mode = RelayMode::HighWater;
    s.config.relay.poll_interval_ticks = 5;
    s.faults.push(Fault::Delay {
        process: "api-1".into(),
        step: Step::Commit,
        when: When::TaskIndexMod {
            modulus: 10,
            remainder: 4,
        },
        ticks: 40,
        times: None,
    });
    v.push(s);

    // Relay down for 4 days (killed at tick 1, restarted at tick 400), retention 1 day.
    let relay_down = |s: &mut Scenario| {
        s.config.restart_after_ticks = None;
        at(
            s,
            1,
            Action::Kill {
                process: "relay-1".into(),
            },
        );
        at(
            s,
            4 * TICKS_PER_DAY,
            Action::Restart {
                process: "relay-1".into(),
            },
        );
    };
    let mut s = base("cleaner-by-age", "A cleaner without the tarqatilgan_vaqt filter (retention 1 day) while the relay is down for 4 days: it deletes unpublished rows → every event lost");
    s.workload.tasks = 10;
    s.config.cleaner = Some(CleanerConfig {
        retention_days: 1,
        published_only: false,
        ..CleanerConfig::default()
    });
    relay_down(&mut s);
    v.push(s);

    let mut s = base("cleaner-published-only", "The lesson's outboxTozala (retention 1 day, only published rows) with the relay down for 4 days: nothing unpublished is touched, nothing is lost");
    s.workload.tasks = 10;
    s.config.cleaner = Some(CleanerConfig {
        retention_days: 1,
        ..CleanerConfig::default()
    });
    relay_down(&mut s);
    v.push(s);

    let mut s = base("inbox-retention", "Inbox rows kept 1 day, but the relay dies after publishing, before COMMIT, and is down for 5 days: its republish makes new jobs (removeOnComplete) and the inbox no longer knows them → every action runs twice");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 5;
    s.config.queue.remove_on_complete = true;
    s.config.restart_after_ticks = None;
    s.config.cleaner = Some(CleanerConfig {
        inbox_retention_days: Some(1),
        ..CleanerConfig::default()
    });
    s.faults.push(kill(
        "relay-1",
        Step::MarkPublished,
        When::Nth { n: 1 },
        Some(1),
    ));
    at(
        &mut s,
        5 * TICKS_PER_DAY,
        Action::Restart {
            process: "relay-1".into(),
        },
    );
    v.push(s);

    let mut s = base("client-retry", "The API commits, then dies before answering (i % 10 == 3, once); the client retries without an idempotency key → a second task and a second event with a new hodisa_id, acted on twice");
    s.workload.tasks = 10;
    s.config.client_retries = 1;
    s.faults
        .push(kill("api", Step::Respond, CANON_KILL, Some(1)));
    v.push(s);

    let mut s = base("client-retry-idempotency-key", "The same lost answer and retry, but the API stores the client's key in the request's transaction: the retry writes nothing and gets the first result");
    s.workload.tasks = 10;
    s.config.client_retries = 1;
    s.config.api_idempotency_key = true;
    s.faults
        .push(kill("api", Step::Respond, CANON_KILL, Some(1)));
    v.push(s);

    let mut s = base("ordering-retry", "Each task has two events, created then completed; publishing task 0's created event fails once, so its retry reaches the queue after completed → the consumer sees them out of order");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 5;
    s.workload.preloaded_completed = true;
    s.faults.push(Fault::FailPublish { event: 1, times: 1 });
    v.push(s);

    let mut s = base("relay-lag", "A relay that publishes one row per poll (partiya 1, every 20 ticks) behind a client writing faster: the age of the oldest unpublished row grows as long as the writers keep on");
    s.workload.tasks = 150;
    s.config.relay.batch_size = 1;
    v.push(s);

    let mut s = base("two-copies-at-once", "Two relays without locks and without jobId put two jobs per event in the queue; two workers take both copies at once: the second INSERT … ON CONFLICT waits for the first transaction, then does nothing");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 20;
    s.config.relays = 2;
    s.config.relay.lock = LockMode::None;
    s.config.relay.job_id = false;
    s.config.relay.poll_interval_ticks = 1;
    s.config.workers = 2;
    v.push(s);

    v
}

pub fn preset(name: &str) -> Option<Scenario> {
    presets().into_iter().find(|s| s.name == name)
}
