//! The world: the database, the queue, the processes, the clock, the PRNG and the auditor.
//! Processes are small programs of labelled steps; every label is a kill point. Faults
//! are actions like any other. Nothing here reads a clock or the OS: a scenario and its
//! seed decide everything.
//!
//! This module holds the world's state and its main loop (`step`, `advance`, `run`,
//! `apply`); the rest lives in submodules: building a world from a scenario (`build`),
//! the processes and their memory (`procs`), what the explorer needs to recycle and
//! prefetch worlds (`recycle`), which process may run (`gates`), faults, kills
//! and restarts (`faults`), judging events (`judge`), the log and the trace hash (`log`),
//! the explorer's canonical hash (`canon`), what every program shares (`process`), the
//! step lists and their SQL (`program`), and one file per process program.

mod api;
mod build;
mod canon;
mod cause;
mod cdc;
mod cleaner;
mod client;
mod faults;
mod gates;
mod judge;
mod log;
mod process;
mod procs;
mod program;
mod read;
mod recycle;
mod refusal;
mod relay;
mod session;
mod tally;
mod worker;

pub use crate::action::{Action, ProcKind, Step, When};
pub use crate::scenario::{proc_index, proc_names, processes, MAX_PROCS};
pub use cause::{Blow, Cause, Causes, Fate, Repeat, MAX_CAUSES};
pub use faults::ArmedKill;
pub use judge::{CheckLevel, Counters};
pub use log::{FaultNote, LogEntry, Note, PINNED_CAP};
pub use procs::{HeldJob, Mem, Proc, Request, Wait};
pub use program::{program, script_sql, step_before, step_sql};
pub use refusal::Refusal;
pub use relay::{Poll, RelayMem};
pub use session::{ScriptResult, PG_SLEEP_TICKS};
pub use tally::{RelayTally, Tally, SQL_ERROR_CODES};

use crate::auditor::{Auditor, TaskRef};
use crate::db::Db;
use crate::ids::{EventId, EventKind, ProcId};
use crate::queue::{Health, Queue, StallOutcome};
use crate::rng::Rng;
use crate::scenario::{Config, ScriptStmt};
use gates::{Gates, Runnable};
use std::collections::{BTreeSet, VecDeque};

/// The world. Its fields are the crate's own: code outside reads them through the
/// accessors in `read.rs` and changes the world only through `apply`, `step`, `advance`
/// and `run` (sans-IO, in the manner of str0m: a small public surface over private state).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct World {
    pub(crate) cfg: Config,
    pub(crate) tasks_total: u32,
    /// Every event's `malumot.summa` ([`crate::scenario::Workload::amount`]).
    pub(crate) amount: u32,
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
    /// The kills and SQL errors of the run, kept apart from the capped log so the page can
    /// pin them (#42: a 10-task run's kill had scrolled out of the log by its end); at most
    /// [`PINNED_CAP`], history only.
    pub(crate) pinned: Vec<LogEntry>,
    /// What caused each event's fate and repeats (history, see `cause.rs`).
    pub(crate) causes: Causes,
    /// Whether the step running now was asked for by hand (`Action::Step`), not by the
    /// scheduler: a scripted statement's result says so.
    pub(crate) by_hand: bool,
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
    amount,
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
    by_hand,
    causes,
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
    pinned,
    violations,
    touched
} then clone_fixed_from(cfg, script, procs, polls));

impl World {
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
        if acted && self.history && !self.touched.is_empty() {
            // Judged now, while the cause is the scheduled action or the stalled check,
            // not the process step that runs next (what `cause.rs` records).
            self.reclassify();
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
        self.causes.now = cause::Cause::Stalled;
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

    /// Applies a user's or a schedule's action; a refusal changes nothing.
    pub fn apply(&mut self, a: &Action) -> Result<(), Refusal> {
        let place = match a.process() {
            Some(name) => match self.find(name) {
                Some(p) => p.0 as usize,
                None => {
                    let name = name.to_string();
                    return Err(Refusal::NoSuchProcess { name });
                }
            },
            None => 0,
        };
        match a {
            Action::Tick => {
                self.step();
                return Ok(());
            }
            Action::Step { process } => {
                self.by_hand = true;
                let stepped = self.step_at(place);
                self.by_hand = false;
                if !stepped {
                    let process = process.clone();
                    return Err(Refusal::CannotStep { process });
                }
                return Ok(());
            }
            Action::RetryJob { event } => self.retry_refusal(*event)?,
            _ => {}
        }
        self.apply_now(a);
        self.after_step();
        Ok(())
    }

    /// Why `job.retry()` of event `h-event`'s job would change nothing, if it would (the
    /// conditions of `Queue::retry_job`, asked without changing the queue).
    fn retry_refusal(&self, event: u32) -> Result<(), Refusal> {
        if self.queue.health != Health::Up {
            return Err(Refusal::RetryWhileRedisDown { event });
        }
        let key = self.queue.retry_key(EventId(event));
        match key.and_then(|k| self.queue.job(k)) {
            None => Err(Refusal::NoJobToRetry { event }),
            Some(j) if j.state == crate::queue::JobState::Failed => Ok(()),
            Some(_) => Err(Refusal::JobNotFailed { event }),
        }
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
            for j in self.queue.jobs() {
                if j.state == crate::queue::JobState::Failed {
                    v.push(Action::RetryJob { event: j.event.0 });
                }
            }
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
