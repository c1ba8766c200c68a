//! The world: the database, the queue, the processes, the clock, the PRNG and the auditor.
//! Processes are small programs of labelled steps; every label is a kill point. Faults
//! are actions like any other. Nothing here reads a clock or the OS: a scenario and its
//! seed decide everything.
//!
//! This module holds the world's state and its main loop (`new`, `step`, `advance`, `run`,
//! `apply`); the rest lives in submodules: which process may run (`gates`), faults, kills
//! and restarts (`faults`), judging events (`judge`), the log and the trace hash (`log`),
//! the explorer's canonical hash (`canon`), what every program shares (`process`), the
//! step lists and their SQL (`program`), and one file per process program.

mod api;
mod canon;
mod cdc;
mod cleaner;
mod client;
mod faults;
mod gates;
mod judge;
mod log;
mod process;
mod program;
mod read;
mod relay;
mod session;
mod tally;
mod worker;

pub use crate::action::{Action, ProcKind, Step, When};
pub use crate::scenario::{proc_index, proc_names, processes};
pub use faults::ArmedKill;
pub use judge::{CheckLevel, Counters};
pub use log::{FaultNote, LogEntry, Note};
pub use program::{program, script_sql, step_before, step_sql};
pub use relay::{Poll, RelayMem};
pub use session::{ScriptResult, PG_SLEEP_TICKS};
pub use tally::{Tally, SQL_ERROR_CODES};

use crate::auditor::{Auditor, TaskRef};
use crate::db::{Cursor, Db, Exec};
use crate::ids::{EventId, EventKind, ProcId, TxId};
use crate::queue::{Health, JobKey, Queue, StallOutcome};
use crate::rng::Rng;
use crate::scenario::{Config, Fault, Scenario, ScriptStmt};
use gates::{Gates, Runnable, GATE_NEVER};
use relay::POLL_HISTORY;
use serde::Serialize;
use std::collections::{BTreeSet, VecDeque};

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

#[derive(Debug, PartialEq, Eq, Hash, Serialize)]
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
    Relay(RelayMem),
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

#[derive(Debug, PartialEq, Eq, Hash, Serialize)]
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

/// By hand for `clone_from`: each field refilled in place (the memory by [`Mem`]'s own),
/// the state by [`Proc::refill_from`].
impl Clone for Proc {
    fn clone(&self) -> Self {
        Proc {
            name: self.name.clone(),
            kind: self.kind,
            program: self.program.clone(),
            alive: self.alive,
            pc: self.pc,
            tx: self.tx,
            blocked: self.blocked,
            sleep_until: self.sleep_until,
            restart_at: self.restart_at,
            mem: self.mem.clone(),
            kills: self.kills,
            arrived: self.arrived,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.name.clone_from(&source.name);
        self.kind = source.kind;
        self.program.clone_from(&source.program);
        self.refill_from(source);
    }
}

impl Proc {
    /// `clone_from` but for what the scenario fixes: the name, kind and program (the
    /// explorer refills a world only from one of the same scenario, see
    /// [`World::refill_from`]).
    fn refill_from(&mut self, source: &Self) {
        // Destructured, so a new field is a compile error here rather than left stale.
        let Proc {
            name,
            kind,
            program,
            alive,
            pc,
            tx,
            blocked,
            sleep_until,
            restart_at,
            mem,
            kills,
            arrived,
        } = self;
        debug_assert!(*name == source.name && *kind == source.kind && *program == source.program);
        *alive = source.alive;
        *pc = source.pc;
        *tx = source.tx;
        *blocked = source.blocked;
        *sleep_until = source.sleep_until;
        *restart_at = source.restart_at;
        mem.clone_from(&source.mem);
        *kills = source.kills;
        *arrived = source.arrived;
    }
}

/// By hand for `clone_from`: the same kind of memory is refilled in place (a relay's lists
/// keep their buffers, see `clone_reusing!`; the others are a few words, where replacing
/// the whole value moved the enum's full size).
impl Clone for Mem {
    fn clone(&self) -> Self {
        match self {
            Mem::Client {
                next,
                waiting,
                reply,
                tries,
            } => Mem::Client {
                next: *next,
                waiting: *waiting,
                reply: *reply,
                tries: *tries,
            },
            Mem::Api { req } => Mem::Api { req: req.clone() },
            Mem::Relay(m) => Mem::Relay(m.clone()),
            Mem::Worker { job } => Mem::Worker { job: job.clone() },
            Mem::Session { pos } => Mem::Session { pos: *pos },
            Mem::Cdc {
                batch,
                pos,
                upto_lsn,
            } => Mem::Cdc {
                batch: batch.clone(),
                pos: *pos,
                upto_lsn: *upto_lsn,
            },
            Mem::Cleaner { cursor } => Mem::Cleaner {
                cursor: cursor.clone(),
            },
        }
    }

    fn clone_from(&mut self, source: &Self) {
        match (self, source) {
            (Mem::Relay(a), Mem::Relay(b)) => a.clone_from(b),
            (Mem::Api { req: a }, Mem::Api { req: b }) => a.clone_from(b),
            (Mem::Worker { job: a }, Mem::Worker { job: b }) => a.clone_from(b),
            (m, b) => *m = b.clone(),
        }
    }
}

impl Proc {
    /// Process number `n` of `kind` (see [`processes`]), alive at its program's first step.
    fn new(kind: ProcKind, n: u8, cfg: &Config, script_len: usize) -> Proc {
        let program = program(kind, cfg, script_len);
        let pc = program.first().copied().unwrap_or(Step::Send);
        // The cleaner's first run is one interval in (a scheduled job, not a start-up task).
        let sleep_until = match (&cfg.cleaner, kind) {
            (Some(c), ProcKind::Cleaner) => c.interval_ticks,
            _ => 0,
        };
        Proc {
            name: kind.name(n),
            kind,
            program,
            alive: true,
            pc,
            tx: None,
            blocked: None,
            sleep_until,
            restart_at: None,
            // Client n (of several) sends tasks n-1, n-1+apis, …
            mem: World::fresh_mem(kind, n.saturating_sub(1) as u32),
            kills: 0,
            arrived: false,
        }
    }
}

/// The most processes a world runs: the scheduler keeps one bit per process in its masks
/// and one slot per process in the gates' arrays (`gates.rs`), and the explorer names
/// processes by place in arrays this long. 16 (a power of two, for `gates::bit_place`)
/// is above the most a valid scenario can ask for (`scenario::MAX_PROCESSES` = 15, checked
/// when this crate compiles), so `World::new`'s refusal cannot be reached from a link or
/// a file. It was 64: the world is 864 bytes smaller (3 096 -> 2 232), and the explorer
/// copies a world for every successor.
pub const MAX_PROCS: usize = 16;
const _: () = assert!(MAX_PROCS.is_power_of_two() && MAX_PROCS <= 64);

/// Up to this many events' worth of table space is reserved when a world is made: the
/// canon runs never grow a list, and a big run does not claim its whole size up front.
const RESERVE_EVENTS: usize = 4096;

/// The world. Its fields are the crate's own: code outside reads them through the
/// accessors in `read.rs` and changes the world only through `apply`, `step`, `advance`
/// and `run` (sans-IO, in the manner of str0m: a small public surface over private state).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct World {
    pub(crate) cfg: Config,
    pub(crate) tasks_total: u32,
    pub(crate) summa: u32,
    pub(crate) script: Vec<ScriptStmt>,
    pub(crate) tick: u64,
    pub(crate) rng: Rng,
    pub(crate) db: Db,
    pub(crate) queue: Queue,
    pub(crate) procs: Vec<Proc>,
    pub(crate) auditor: Auditor,
    pub(crate) armed: Vec<ArmedKill>,
    api_errors: Vec<When>,
    /// The scenario's delay rules (`Fault::Delay`).
    pub(crate) delays: Vec<faults::ArmedDelay>,
    publish_failures: Vec<(u32, u32)>,
    /// `Fault::PublishTimesOut`: (event, times left).
    publish_timeouts: Vec<(u32, u32)>,
    /// Events the webhook's receiver has acted on (its idempotency keys).
    webhook_seen: BTreeSet<u32>,
    schedule: VecDeque<(u64, Action)>,
    next_event: u32,
    next_stall_check: u64,
    external_seen: BTreeSet<u32>,
    pub(crate) log: VecDeque<LogEntry>,
    pub(crate) polls: Vec<Vec<Poll>>,
    /// Totals over the whole run (the log and `polls` keep only their newest part).
    pub(crate) tally: tally::Tally,
    pub(crate) script_results: Vec<ScriptResult>,
    /// Every kill: which process, at which step, at which tick (capped).
    pub(crate) kills: Vec<(ProcId, Step, u64)>,
    /// The high-water relay's mark (`last_id`), saved with its poll's COMMIT.
    pub(crate) high_water: u64,
    /// The tick of the last Redis flush, if any (the operator's recovery starts there).
    pub(crate) last_flush: Option<u64>,
    preloaded: u32,
    pub(crate) trace_hash: u64,
    pub(crate) steps: u64,
    pub(crate) check: CheckLevel,
    /// Whether the run's history is kept: each relay's poll history and the kill list.
    /// Nothing the model decides reads them (only the page and the CLI show them), so the
    /// explorer turns them off: copying them into every successor was ~1.5 % of its time.
    pub(crate) history: bool,
    pub(crate) violations: Vec<String>,
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

clone_reusing!(World {
    tasks_total,
    summa,
    tick,
    rng,
    db,
    queue,
    auditor,
    next_event,
    next_stall_check,
    tally,
    high_water,
    last_flush,
    preloaded,
    trace_hash,
    steps,
    check,
    history,
    held,
    dead,
    scratch,
    gates
} refill {
    webhook_seen,
    external_seen,
    armed,
    api_errors,
    delays,
    publish_failures,
    publish_timeouts,
    schedule,
    log,
    script_results,
    kills,
    violations,
    touched
} then clone_fixed_from(cfg, script, procs, polls));

impl World {
    /// `clone_from`'s part for what the scenario fixes (the configuration, the script,
    /// the processes' names, kinds and programs), the processes, and the relays' poll
    /// histories (a list per process, each refilled in place, see `refill_nested`).
    fn clone_fixed_from(&mut self, source: &World) {
        self.cfg.clone_from(&source.cfg);
        self.script.clone_from(&source.script);
        self.procs.clone_from(&source.procs);
        crate::refill_nested(&mut self.polls, &source.polls);
    }

    /// `self.clone_from(source)` for two worlds of one scenario, as the explorer's are (it
    /// refills the worlds of merged states with its successors): what the scenario fixes is
    /// left as it is. Copying the processes' names and programs again was two memcpy calls
    /// per process of every recycled world.
    pub(crate) fn refill_from(&mut self, source: &World) {
        debug_assert!(self.cfg == source.cfg && self.script == source.script);
        self.clone_fields_from(source);
        crate::refill_nested(&mut self.polls, &source.polls);
        if self.procs.len() != source.procs.len() {
            self.procs.clone_from(&source.procs);
            return;
        }
        for (a, b) in self.procs.iter_mut().zip(&source.procs) {
            a.refill_from(b);
        }
    }

    /// Keeps no history from here on (see [`World::history`]) and lets go of what was
    /// kept, buffers included: the explorer's worlds, copied into every successor.
    pub(crate) fn drop_history(&mut self) {
        self.history = false;
        self.kills = Vec::new();
        self.polls.iter_mut().for_each(|p| *p = Vec::new());
    }

    /// Asks for the lists an expansion of this world reads (`crate::prefetch`): the
    /// explorer calls it for the world it expands next, whose struct it asked for before.
    pub(crate) fn prefetch_parts(&self) {
        crate::prefetch::slice(&self.procs);
        self.db.prefetch_parts();
        self.queue.prefetch_parts();
        self.auditor.prefetch_parts();
    }

    /// Asks for what the lists of [`World::prefetch_parts`] point to: the open
    /// transactions' records and the relays' lists.
    pub(crate) fn prefetch_deep(&self) {
        self.db.prefetch_deep();
        for p in &self.procs {
            if let Mem::Relay(m) = &p.mem {
                crate::prefetch::slice(&m.batch);
                crate::prefetch::slice(&m.ok);
                crate::prefetch::slice(&m.cursor.candidates);
                crate::prefetch::slice(&m.cursor.got);
            }
        }
    }

    /// Asks for the lists of what [`World::prefetch_deep`] asked for.
    pub(crate) fn prefetch_deeper(&self) {
        self.db.prefetch_deeper();
    }

    /// The world of a scenario at tick 0. The scenario should be valid
    /// ([`Scenario::validate`]); one that asks for more than [`MAX_PROCS`] processes, which
    /// `validate` refuses, panics here.
    pub fn new(s: &Scenario) -> World {
        let cfg = s.config.clone();
        let session = !s.script.is_empty();
        let kinds = processes(&cfg, session);
        assert!(
            kinds.len() <= MAX_PROCS,
            "a world runs at most {MAX_PROCS} processes, this scenario asks for {} \
             (Scenario::validate refuses it)",
            kinds.len()
        );
        let procs = kinds
            .into_iter()
            .map(|(kind, n)| Proc::new(kind, n, &cfg, s.script.len()))
            .collect();
        let mut w = World::empty(s, cfg, procs);
        w.start(s);
        w.load_faults(s);
        w.preload(s);
        w
    }

    /// The world before anything has run: the processes at their first step, empty
    /// tables and queue, no faults.
    fn empty(s: &Scenario, cfg: Config, procs: Vec<Proc>) -> World {
        World {
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
            delays: Vec::new(),
            publish_failures: Vec::new(),
            publish_timeouts: Vec::new(),
            webhook_seen: BTreeSet::new(),
            schedule: VecDeque::new(),
            next_event: 1,
            next_stall_check: cfg.queue.stalled_interval_ticks,
            external_seen: BTreeSet::new(),
            log: VecDeque::new(),
            tally: Default::default(),
            script_results: Vec::new(),
            kills: Vec::new(),
            high_water: 0,
            last_flush: None,
            preloaded: s.workload.preloaded_events,
            trace_hash: 0xcbf2_9ce4_8422_2325,
            steps: 0,
            check: CheckLevel::Touched,
            history: true,
            violations: Vec::new(),
            touched: Vec::with_capacity(16),
            held: None,
            dead: 0,
            scratch: Default::default(),
            gates: Gates::default(),
            cfg,
        }
    }

    /// The gates of every process, and table space for the workload.
    fn start(&mut self, s: &Scenario) {
        let n = self.procs.len();
        self.gates.by_class[GATE_NEVER as usize] = (1u64 << n) - 1;
        self.gates.dirty = (1u64 << n) - 1;
        self.refresh_gates();
        let hint =
            (s.workload.tasks as usize + s.workload.preloaded_events as usize).min(RESERVE_EVENTS);
        self.auditor.reserve(hint);
        self.db.reserve(hint);
        self.queue.reserve(hint);
        self.log.reserve(self.cfg.log_cap.min(RESERVE_EVENTS));
    }

    /// The scenario's standing fault rules and its timed actions (in tick order).
    fn load_faults(&mut self, s: &Scenario) {
        for f in &s.faults {
            match f {
                Fault::Kill {
                    process,
                    step,
                    when,
                    times,
                    per_task,
                } => {
                    if let Some(p) = self.find(process) {
                        let at = self.arm_kill(p, *step, when, *times);
                        if *per_task {
                            self.armed[at].per_task = Some(Vec::new());
                        }
                    }
                }
                Fault::FailPublish { event, times } => self.publish_failures.push((*event, *times)),
                Fault::PublishTimesOut { event, times } => {
                    self.publish_timeouts.push((*event, *times))
                }
                Fault::ApiError { when } => self.api_errors.push(when.clone()),
                Fault::Delay {
                    process,
                    step,
                    when,
                    ticks,
                    times,
                } => {
                    if let Some(p) = self.find(process) {
                        self.delays.push(faults::ArmedDelay {
                            proc: p,
                            step: *step,
                            when: when.clone(),
                            ticks: *ticks,
                            remaining: *times,
                            reached: 0,
                        });
                    }
                }
            }
        }
        let mut sched: Vec<(u64, Action)> = s
            .schedule
            .iter()
            .map(|t| (t.at_tick, t.action.clone()))
            .collect();
        sched.sort_by_key(|(t, _)| *t);
        self.schedule = sched.into();
    }

    /// The workload's preloaded events, committed before the first tick.
    fn preload(&mut self, s: &Scenario) {
        self.db.wal_retain = self.cfg.cdc;
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
                let e = self.mint(intent, kind, TaskRef::Given);
                self.db.preload_event(e, kind, intent, s.workload.summa);
                self.auditor.committed(e);
                self.touched.push(e);
            }
        }
        self.reclassify_touched();
    }

    pub(super) fn fresh_mem(kind: ProcKind, next: u32) -> Mem {
        match kind {
            ProcKind::Client => Mem::Client {
                next,
                waiting: None,
                reply: None,
                tries: 0,
            },
            ProcKind::Api => Mem::Api { req: None },
            ProcKind::Relay => Mem::Relay(RelayMem::default()),
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

    pub(super) fn mint(&mut self, intent: u32, kind: EventKind, task: TaskRef) -> EventId {
        let e = EventId(self.next_event);
        self.next_event += 1;
        self.auditor.minted(e, intent, kind, task);
        e
    }

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
    /// Returns whether it did anything but move the clock on (a scheduled action, a
    /// restart, a stalled job), which may change who can run: the clock alone only wakes
    /// processes, it never stops one.
    pub(super) fn housekeeping(&mut self) -> bool {
        let mut acted = false;
        if self.schedule.front().is_some_and(|(t, _)| *t <= self.tick) {
            self.run_schedule();
            acted = true;
        }
        if self.dead > 0 {
            acted |= self.restart_due();
        }
        if self.tick >= self.next_stall_check {
            acted |= self.stall_check();
        }
        acted
    }

    #[inline(never)]
    pub(super) fn run_schedule(&mut self) {
        while self.schedule.front().is_some_and(|(t, _)| *t <= self.tick) {
            let (_, a) = self.schedule.pop_front().expect("front");
            self.apply_now(&a);
        }
    }

    /// Restarts the processes whose time has come; whether there were any.
    #[inline(never)]
    pub(super) fn restart_due(&mut self) -> bool {
        let mut any = false;
        for i in 0..self.procs.len() {
            let p = &self.procs[i];
            if !p.alive && p.restart_at.is_some_and(|t| t <= self.tick) {
                self.restart(i);
                any = true;
            }
        }
        any
    }

    /// BullMQ's stalled check; whether it moved a job.
    #[inline(never)]
    pub(super) fn stall_check(&mut self) -> bool {
        self.next_stall_check = self.tick + self.cfg.queue.stalled_interval_ticks;
        let moved = self.queue.check_stalled(self.tick);
        for o in &moved {
            let (event, failed) = match *o {
                StallOutcome::BackToWait(e) => (e, false),
                StallOutcome::Failed(e) => (e, true),
            };
            self.touched.push(event);
            self.log(None, None, Note::Stalled { event, failed });
        }
        !moved.is_empty()
    }

    /// Applies a user's or a schedule's action. Errors are messages for the page.
    pub fn apply(&mut self, a: &Action) -> Result<(), String> {
        let place = match a.process() {
            Some(name) => match self.find(name) {
                Some(p) => p.0 as usize,
                None => return Err(format!("no process named {name:?}")),
            },
            None => 0,
        };
        match a {
            Action::Tick => {
                self.step();
                return Ok(());
            }
            Action::Step { process } => {
                if !self.step_at(place) {
                    return Err(format!("{process} cannot run a step now"));
                }
                return Ok(());
            }
            _ => {}
        }
        self.apply_now(a);
        self.after_step();
        Ok(())
    }

    /// [`World::apply`] of `Action::Step` for the process at place `i`, without looking
    /// its name up (the explorer takes a few steps per state it reaches, and the name
    /// lookups were a tenth of its time). False, with nothing done, when it cannot run.
    pub(crate) fn step_at(&mut self, i: usize) -> bool {
        if !self.runnable(i) {
            return false;
        }
        self.step_runnable(i);
        true
    }

    /// [`World::step_at`] of a process the caller knows is runnable (the explorer reads
    /// its choices and forced steps from [`World::runnable_mask`]): the check `step_at`
    /// starts with asked again, for every step, what the explorer had just read (1.6 % of
    /// its instructions). Whether it is still runnable once the clock has moved is
    /// checked here, when housekeeping did more than move the clock (which only wakes
    /// processes).
    pub(crate) fn step_runnable(&mut self, i: usize) {
        debug_assert!(self.runnable(i), "step of {i}, which cannot run");
        self.tick += 1;
        let acted = self.housekeeping();
        debug_assert!(acted || self.runnable(i), "the clock alone stopped {i}");
        if !acted || self.runnable(i) {
            self.run_proc(i);
        }
        self.after_step();
    }

    /// [`World::apply`] of `Action::Kill` for the process at place `i` (see
    /// [`World::step_at`]).
    pub(crate) fn kill_at(&mut self, i: usize) {
        self.kill_if_alive(i);
        self.mix(0xFA);
        self.after_step();
    }

    /// [`World::apply`] of `Action::Restart` for the process at place `i` (see
    /// [`World::step_at`]).
    pub(crate) fn restart_at(&mut self, i: usize) {
        self.restart_if_dead(i);
        self.mix(0xFA);
        self.after_step();
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
            v.push(Action::RedisRestart);
        }
        if let Some(t) = self.last_flush {
            v.push(Action::UnpublishSince { since_tick: t });
        }
        v
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
