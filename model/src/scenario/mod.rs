//! Scenarios: configuration + workload + fault rules + timed actions + seed. Serialisable
//! as JSON, so a run is reproducible from a link or a file. `model/README.md` documents the
//! format. This file holds the types, their defaults, the limits and the process list a
//! configuration makes; the checks of a read scenario are in `validate.rs`, naming the
//! field serde stopped at in `json_error.rs`, and the named presets in `presets.rs`.

mod error;
mod json_error;
mod kill_rule;
pub mod presets;
mod validate;

pub use error::ScenarioError;
pub(crate) use json_error::parse_naming_the_field;
pub use kill_rule::{KillRule, CANON_KILL};

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
    /// An outbox table and BEGIN / INSERT task / INSERT outbox / COMMIT, but every
    /// statement is its own `pool.query` (issue #43): node-postgres hands each one an idle
    /// connection of a pool of [`Config::pool_size`]. One request at a time gets the
    /// connection it just released back, so its four statements share one transaction
    /// ("it works on my laptop"); with more requests than connections a released one goes
    /// to the first waiting statement, so requests share transactions: one request's
    /// COMMIT commits another's row, and a death between the INSERTs loses an event. Here
    /// the API instances are the concurrent requests of one Node server and its one pool:
    /// killing any of them is the server's death (every connection closes).
    OutboxPoolBegin,
}

impl ApiMode {
    /// Whether the API writes its events into the outbox table, so that a relay has work.
    pub fn uses_outbox(self) -> bool {
        matches!(
            self,
            ApiMode::Outbox | ApiMode::OutboxPool | ApiMode::OutboxPoolBegin
        )
    }

    /// The API's step right after its (last) COMMIT: where the canon kills it. In the
    /// lesson's dual write that is `queue.add`; in every other design, the answer.
    pub fn step_after_commit(self) -> Step {
        match self {
            ApiMode::DualWriteDbFirst => Step::QueueAdd,
            ApiMode::DualWriteQueueFirst
            | ApiMode::Outbox
            | ApiMode::OutboxPool
            | ApiMode::OutboxPoolBegin => Step::Respond,
        }
    }
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
    /// Rows per poll (the lesson's `partiya`). Written as `batch_size`; files and links
    /// from before the rename say `partiya`, which still reads.
    #[serde(alias = "partiya")]
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
    /// Connections in the API's node-postgres pool (`new Pool({ max })`, 1..=
    /// [`MAX_POOL_SIZE`]; node-postgres's default is 10). Only `outbox_pool_begin` reads
    /// it; left out of the JSON at its default, so files from before it read as before.
    #[serde(skip_serializing_if = "is_default_pool_size")]
    pub pool_size: u8,
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
            pool_size: DEFAULT_POOL_SIZE,
            api_app_role: true,
            relays: 1,
            relay: RelayConfig::default(),
            workers: 1,
            worker: WorkerMode::InboxSameTx,
            external_idempotency_key: false,
            queue: QueueOptions::default(),
            restart_after_ticks: Some(DEFAULT_RESTART_AFTER_TICKS),
            stuck_after_ticks: 500,
            log_cap: 200,
            cdc: false,
            cleaner: None,
            client_retries: 0,
            api_idempotency_key: false,
        }
    }
}

/// How long a killed process stays down before it comes back by itself, by default.
pub const DEFAULT_RESTART_AFTER_TICKS: u64 = 5;

impl Config {
    /// Sets the API's design with what it needs: a relay when events go through the
    /// outbox (one at least, the ones there are kept), none for a dual write, which has
    /// nothing for a relay to read.
    pub fn set_api(&mut self, api: ApiMode) {
        self.api = api;
        self.relays = if api.uses_outbox() {
            self.relays.max(1)
        } else {
            0
        };
    }

    /// Sets the API pool's connections (`outbox_pool_begin`), held to 1..=[`MAX_POOL_SIZE`].
    pub fn set_pool_size(&mut self, n: u32) {
        self.pool_size = n.clamp(1, u32::from(MAX_POOL_SIZE)) as u8;
    }

    /// Sets the number of API instances, held to 1..=[`MAX_APIS`].
    pub fn set_apis(&mut self, n: u32) {
        self.apis = n.clamp(1, u32::from(MAX_APIS)) as u8;
    }

    /// Sets the relay's batch (`partiya`), held to 1..=[`MAX_BATCH_SIZE`].
    pub fn set_batch_size(&mut self, n: u32) {
        self.relay.batch_size = n.clamp(1, MAX_BATCH_SIZE);
    }

    /// Turns the automatic restart of killed processes on (after
    /// [`DEFAULT_RESTART_AFTER_TICKS`]) or off.
    pub fn set_auto_restart(&mut self, on: bool) {
        self.restart_after_ticks = on.then_some(DEFAULT_RESTART_AFTER_TICKS);
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Workload {
    /// Client requests, one task each (the lesson's loop `for i in 0..100`).
    pub tasks: u32,
    /// Events already committed in the outbox when the run starts.
    pub preloaded_events: u32,
    /// `malumot.summa` of every event (the payment exercise's 50 000). Written as
    /// `amount`; files and links from before the rename say `summa`, which still reads.
    #[serde(alias = "summa")]
    pub amount: u32,
    /// Each preloaded task also has its `vazifa.bajarildi` event, right after its
    /// `vazifa.yaratildi` (ids 2i+1 and 2i+2 for task i).
    pub preloaded_completed: bool,
}

impl Default for Workload {
    fn default() -> Self {
        Workload {
            tasks: 10,
            preloaded_events: 0,
            amount: 0,
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
    /// The run measures what the lesson states (the canon's numbers), rather than being a
    /// scenario to break: the page shows the lesson's line of numbers beside it. Presets
    /// set it; a file that leaves it out is not one.
    #[serde(default, skip_serializing_if = "is_false")]
    pub measurement: bool,
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
            measurement: false,
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
/// and the psql session. A world runs at most [`MAX_PROCS`]; this crate does
/// not compile if these limits outgrow it, so `World::new` never refuses a valid scenario.
pub const MAX_PROCESSES: usize =
    2 * MAX_APIS as usize + MAX_RELAYS as usize + MAX_WORKERS as usize + 3;
const _: () = assert!(MAX_PROCESSES <= MAX_PROCS);

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

/// The most processes a world runs: the scheduler keeps one bit per process in its masks
/// and one slot per process in the gates' arrays (`world/gates.rs`), and the explorer names
/// processes by place in arrays this long. 16 (a power of two, for `gates::bit_place`)
/// is above the most a valid scenario can ask for ([`MAX_PROCESSES`] = 15, checked
/// when this crate compiles), so `World::new`'s refusal cannot be reached from a link or
/// a file. It was 64: the world is 864 bytes smaller (3 096 -> 2 232), and the explorer
/// copies a world for every successor. It lives here, beside the limits it bounds, so the
/// scenario does not import the world.
pub const MAX_PROCS: usize = 16;
const _: () = assert!(MAX_PROCS.is_power_of_two() && MAX_PROCS <= 64);

/// node-postgres's `Pool` default `max` (the real runs used it).
pub const DEFAULT_POOL_SIZE: u8 = 10;
/// The most connections a scenario's API pool may have.
pub const MAX_POOL_SIZE: u8 = 100;

/// The most API instances a configuration may run.
pub const MAX_APIS: u8 = 3;
/// The most rows a relay's poll may take (`partiya`).
pub const MAX_BATCH_SIZE: u32 = 10_000;

impl Scenario {
    /// Parses and validates a scenario; errors name the field.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let s: Scenario = json_error::parse_naming_the_field(text)?;
        s.validate()?;
        Ok(s)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("scenario serialises")
    }

    /// Makes this scenario the learner's own after an edit by hand: named `custom`,
    /// without the summary that described the original, and no longer a measurement.
    pub fn make_custom(&mut self) {
        self.name = Scenario::default().name;
        self.summary.clear();
        self.measurement = false;
    }

    /// Adds the canon's kills ([`CANON_KILL`], every time): the API at the step right
    /// after its COMMIT in its design ([`ApiMode::step_after_commit`]), and the first
    /// worker after its COMMIT, before it acknowledges the job.
    pub fn add_canon_kills(&mut self, api: bool, worker: bool) {
        let step = self.config.api.step_after_commit();
        let kills = [
            (api, ProcKind::Api.name(0), step),
            (worker, ProcKind::Worker.name(1), Step::Complete),
        ];
        for (on, process, step) in kills {
            if on {
                self.faults.push(Fault::Kill {
                    process,
                    step,
                    when: CANON_KILL,
                    times: None,
                    per_task: false,
                });
            }
        }
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_default_pool_size(n: &u8) -> bool {
    *n == DEFAULT_POOL_SIZE
}

fn is_one(n: &u8) -> bool {
    *n == 1
}
