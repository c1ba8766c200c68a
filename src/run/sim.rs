//! The page's hold on the model: a scenario, the world it runs, and the log of everything
//! done to it since the start (scheduler ticks and the user's actions). The model is
//! deterministic, so that log is the run: replaying it from the scenario rebuilds any
//! moment, which is how the page steps back, scrubs its timeline and opens a shared link.
//!
//! Nothing here touches the browser, so it is tested natively.

use outbox_model::scenario::ScenarioError;
use outbox_model::world::Refusal;
use outbox_model::{Action, Scenario, World};

use crate::i18n::{Key, Lang, Reason};
use serde::{Deserialize, Serialize};

/// The largest workload the page accepts (memory on a phone; the model allows more).
pub const MAX_PAGE_TASKS: u32 = 200_000;
/// The longest log a link may carry, and the longest the page records (a run stops
/// there). Opening a link replays its whole log, so this bounds what a link can cost:
/// 20 M atoms of a world that never settles (poison events) took 1.76 s natively in
/// release (more in the page's wasm, all in one frame); the page's largest legitimate
/// workload, 200 000 tasks, stops at the default tick limit (1 M) after ~1.0 M atoms.
/// 4 M leaves that four times over and replays the worst case in 0.38–0.47 s natively
/// (`measure_replay_cost`).
pub const MAX_ATOMS: u64 = 4_000_000;

/// One entry of the run's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Input {
    /// This many scheduler ticks in a row.
    Ticks(u64),
    /// Something the user did.
    Act(Action),
}

/// What a link and the saved state hold: enough to rebuild the run exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// Format version.
    pub v: u32,
    pub scenario: Scenario,
    #[serde(default)]
    pub inputs: Vec<Input>,
}

pub const RUN_VERSION: u32 = 1;

/// Why a run cannot be rebuilt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    Version(u32),
    Scenario(ScenarioError),
    /// `workload.tasks` and `workload.preloaded_events` together: both become rows.
    TooBig {
        tasks: u32,
        preloaded: u32,
    },
    TooLong,
    /// The log ticks past its run's end at `at` (an edited log).
    TicksAfterEnd {
        at: u64,
    },
    /// The model refused the log's action at `at`.
    Replay {
        at: u64,
        message: String,
    },
}

impl RunError {
    /// Why, in the reader's language (the model's own refusal is English: the console
    /// gets it).
    pub fn reason(&self) -> Reason {
        match self {
            RunError::Version(v) => Reason::new(Key::ReasonVersion)
                .arg("v", v)
                .arg("expected", RUN_VERSION),
            RunError::Scenario(e) => Reason::scenario(e),
            RunError::TooBig { tasks, preloaded } => Reason::new(Key::ReasonTooBig)
                .arg("tasks", tasks)
                .arg("preloaded", preloaded)
                .arg("max", MAX_PAGE_TASKS),
            RunError::TooLong => Reason::new(Key::ReasonRunTooLong).arg("max", MAX_ATOMS),
            RunError::TicksAfterEnd { at } => Reason::new(Key::ReasonTicksAfterEnd).arg("at", at),
            RunError::Replay { at, message } => {
                leptos::logging::warn!("replay step {at}: {message}");
                Reason::new(Key::ReasonReplayRefused).arg("at", at)
            }
        }
    }
}

/// In English, for logs and tests.
impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Scenario(e) => write!(f, "scenario: {e}"),
            RunError::Replay { at, message } => write!(f, "replay step {at}: {message}"),
            _ => f.write_str(&self.reason().text(Lang::En)),
        }
    }
}

/// Why [`Sim::act`] did not take an action; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActRefusal {
    /// The run's log is full ([`MAX_ATOMS`]): a longer one could not be opened again.
    LogFull,
    /// The model refused it.
    Model(Refusal),
}

impl ActRefusal {
    /// Why, in the reader's language.
    pub fn reason(&self) -> Reason {
        match self {
            ActRefusal::LogFull => Reason::new(Key::ReasonRunTooLong).arg("max", MAX_ATOMS),
            ActRefusal::Model(r) => Reason::refusal(r),
        }
    }
}

impl From<ActRefusal> for Reason {
    fn from(r: ActRefusal) -> Reason {
        r.reason()
    }
}

/// In English, for logs and tests.
impl std::fmt::Display for ActRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ActRefusal::LogFull => write!(f, "the run's log is full ({MAX_ATOMS} steps)"),
            ActRefusal::Model(r) => write!(f, "{r}"),
        }
    }
}

/// A point of the counters' history, for the chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub pos: u64,
    pub lost: u64,
    pub duplicate_deliveries: u64,
    pub duplicate_effects: u64,
    pub deliveries: u64,
    pub tasks_in_db: u64,
    /// Ticks the relays waited on row locks, together; and the events they published
    /// per 100 ticks so far (#43: charted when a run has two relays).
    pub lock_wait_ticks: u64,
    pub published_per_100_ticks: u64,
}

impl Sample {
    fn of(pos: u64, w: &World) -> Sample {
        let c = w.counters();
        let t = w.tally();
        Sample {
            pos,
            lost: c.lost,
            duplicate_deliveries: c.duplicate_deliveries,
            duplicate_effects: c.duplicate_effects,
            deliveries: c.deliveries,
            tasks_in_db: c.tasks_in_db,
            lock_wait_ticks: t.lock_wait_ticks(),
            published_per_100_ticks: t.published_per_100_ticks(c.tick),
        }
    }
}

const MAX_SAMPLES: usize = 120;
/// Rows kept across all checkpoints (a checkpoint is a whole world).
const CHECKPOINT_ROWS: usize = 400_000;
const MAX_CHECKPOINTS: usize = 24;
/// The cap of the sampling and checkpoint intervals, which double as a run grows: far
/// above any position a run reaches ([`MAX_ATOMS`]), so it never changes what is kept,
/// but it keeps a doubling from ever wrapping to 0.
const MAX_EVERY: u64 = 1 << 62;
/// A world with more rows than this takes milliseconds to copy (about 10 ms at 100 000
/// tasks in the page): while [`Sim::defer_big_checkpoints`] is on, its checkpoint waits
/// for [`Sim::take_due_checkpoint`], so the page can give the copy a frame of its own.
pub const BIG_WORLD_ROWS: usize = 20_000;

/// A scenario, its world now, and the log that got it there.
#[derive(Clone, Debug)]
pub struct Sim {
    scenario: Scenario,
    /// Private: the world changes only through [`Sim::tick`], [`Sim::act`], [`Sim::seek`]
    /// and [`Sim::back`], so every change is in the log. Read it with [`Sim::world`].
    world: World,
    inputs: Vec<Input>,
    /// Log entries (ticks count one each) applied to `world`.
    pos: u64,
    /// Log entries recorded.
    total: u64,
    checkpoints: Vec<(u64, World)>,
    checkpoint_every: u64,
    samples: Vec<Sample>,
    sample_every: u64,
    /// The last tick found nothing left to do.
    finished: bool,
    /// Leave big worlds' checkpoints to the caller (see [`BIG_WORLD_ROWS`]).
    defer_big: bool,
    /// A deferred checkpoint is waiting.
    due: bool,
}

/// What copying the world costs, in rows: its tables and jobs, and the per-request
/// bookkeeping the model sizes by the scenario's task count from the first tick.
fn weight(w: &World) -> usize {
    w.db().tasks.len()
        + w.db().outbox.len()
        + w.queue().len() as usize
        + w.tasks_total() as usize
        + 1
}

impl Sim {
    /// A fresh run of a scenario. The scenario must be valid ([`Sim::check`]).
    pub fn new(scenario: Scenario) -> Sim {
        let world = World::new(&scenario);
        let first = Sample::of(0, &world);
        Sim {
            checkpoints: vec![(0, world.clone())],
            scenario,
            world,
            inputs: Vec::new(),
            pos: 0,
            total: 0,
            checkpoint_every: 256,
            samples: vec![first],
            sample_every: 4,
            finished: false,
            defer_big: false,
            due: false,
        }
    }

    /// Whether the page can run this scenario.
    pub fn check(s: &Scenario) -> Result<(), RunError> {
        s.validate().map_err(RunError::Scenario)?;
        // Preloaded events are rows and jobs like a task's (2 000 000 of them froze the
        // page for seconds, issue #26), so they count toward the same cap.
        let (tasks, preloaded) = (s.workload.tasks, s.workload.preloaded_events);
        if u64::from(tasks) + u64::from(preloaded) > u64::from(MAX_PAGE_TASKS) {
            return Err(RunError::TooBig { tasks, preloaded });
        }
        Ok(())
    }

    /// Rebuilds a saved or shared run, replaying its whole log.
    pub fn from_run(run: &Run) -> Result<Sim, RunError> {
        if run.v != RUN_VERSION {
            return Err(RunError::Version(run.v));
        }
        Self::check(&run.scenario)?;
        let mut atoms = 0u64;
        for i in &run.inputs {
            atoms = atoms.saturating_add(match i {
                Input::Ticks(n) => *n,
                Input::Act(_) => 1,
            });
        }
        if atoms > MAX_ATOMS {
            return Err(RunError::TooLong);
        }
        let mut sim = Sim::new(run.scenario.clone());
        for input in &run.inputs {
            match input {
                Input::Ticks(n) => {
                    for _ in 0..*n {
                        // `tick` records nothing once the run is finished, so a recorded
                        // log never ticks past its end: a log that does was edited. Such
                        // idle ticks used to be replayed one by one (20 M of them froze
                        // the page, issue #26) and broke the chart's sampling (#25).
                        if sim.finished() {
                            return Err(RunError::TicksAfterEnd { at: sim.pos });
                        }
                        sim.tick_unchecked();
                    }
                }
                Input::Act(a) => sim.act(a.clone()).map_err(|e| RunError::Replay {
                    at: sim.pos,
                    message: e.to_string(),
                })?,
            }
        }
        Ok(sim)
    }

    /// The run as a link or the saved state holds it.
    pub fn to_run(&self) -> Run {
        Run {
            v: RUN_VERSION,
            scenario: self.scenario.clone(),
            inputs: self.inputs.clone(),
        }
    }

    /// The world now, to read (views, counters, goals).
    pub fn world(&self) -> &World {
        &self.world
    }
    /// The scenario the run was built from.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }
    pub fn pos(&self) -> u64 {
        self.pos
    }
    pub fn total(&self) -> u64 {
        self.total
    }
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }

    /// Nothing is left to run: the world settled, reached its tick limit, can never move,
    /// or the log is full ([`MAX_ATOMS`]).
    pub fn finished(&self) -> bool {
        self.finished
            || self.world.tick() >= self.scenario.max_ticks
            || self.pos >= MAX_ATOMS
            || self.world.settled()
    }

    /// One scheduler tick, recorded. Returns false (and records nothing) when the run is
    /// finished. Acting from an earlier moment of the timeline drops the later log.
    pub fn tick(&mut self) -> bool {
        self.truncate_future();
        if self.finished() {
            return false;
        }
        self.tick_unchecked();
        true
    }

    fn tick_unchecked(&mut self) {
        if !self.world.step() {
            self.finished = true;
        }
        match self.inputs.last_mut() {
            Some(Input::Ticks(n)) => *n += 1,
            _ => self.inputs.push(Input::Ticks(1)),
        }
        self.advanced();
    }

    /// Whether the next tick would kill a process (tried on a copy of the world).
    pub fn next_tick_kills(&self) -> bool {
        if self.finished() {
            return false;
        }
        let kills = |w: &World| w.procs().iter().map(|p| p.kills).sum::<u32>();
        let mut w = self.world.clone();
        let before = kills(&w);
        w.step();
        kills(&w) > before
    }

    /// Up to `n` ticks; returns how many ran.
    pub fn ticks(&mut self, n: u64) -> u64 {
        let mut done = 0;
        while done < n && self.tick() {
            done += 1;
        }
        done
    }

    /// A user's action, recorded when the model accepts it.
    pub fn act(&mut self, a: Action) -> Result<(), ActRefusal> {
        self.truncate_future();
        // A longer log could not be opened again (see MAX_ATOMS).
        if self.pos >= MAX_ATOMS {
            return Err(ActRefusal::LogFull);
        }
        self.world.apply(&a).map_err(ActRefusal::Model)?;
        self.finished = false;
        self.inputs.push(Input::Act(a));
        self.advanced();
        Ok(())
    }

    fn advanced(&mut self) {
        self.pos += 1;
        self.total = self.pos;
        self.after_move();
    }

    /// Bookkeeping after the world reached position `pos` (recording or replaying).
    fn after_move(&mut self) {
        if self.pos.is_multiple_of(self.sample_every) || self.finished() {
            self.push_sample();
        }
        // A checkpoint copies the whole world, so a big world is copied less often: at
        // least two steps per row since the last one keeps the copying a small, constant
        // share of the stepping however large the run grows.
        if self.pos.is_multiple_of(self.checkpoint_every)
            && self.checkpoints.last().is_some_and(|(p, _)| {
                *p < self.pos && self.pos - *p >= 2 * weight(&self.world) as u64
            })
        {
            if self.defer_big && weight(&self.world) > BIG_WORLD_ROWS {
                self.due = true;
            } else {
                self.push_checkpoint();
            }
        }
    }

    /// Records the counters at `pos`. The samples are the grid points (multiples of
    /// `sample_every`) plus at most one off-grid sample, the newest: an off-grid sample
    /// stands for "now" and is dropped when the present moves on. Without that, every
    /// idle move past the end added an off-grid sample, the thinning below could never
    /// bring the count under [`MAX_SAMPLES`], and `sample_every` doubled until it wrapped
    /// to 0 (issue #25: a remainder by zero).
    fn push_sample(&mut self) {
        let every = self.sample_every;
        while self
            .samples
            .last()
            .is_some_and(|s| s.pos >= self.pos || !s.pos.is_multiple_of(every))
        {
            self.samples.pop();
        }
        self.samples.push(Sample::of(self.pos, &self.world));
        // Grid points from 0 to pos number pos / every + 1, so once over the limit one
        // doubling roughly halves them; `every` stays below pos, far from overflowing,
        // and the cap only guards that reasoning.
        while self.samples.len() > MAX_SAMPLES && self.sample_every < MAX_EVERY {
            self.sample_every = self.sample_every.saturating_mul(2).min(MAX_EVERY);
            let every = self.sample_every;
            let last = *self.samples.last().expect("just pushed");
            self.samples.retain(|s| s.pos.is_multiple_of(every));
            if self.samples.last() != Some(&last) {
                self.samples.push(last);
            }
        }
    }

    /// Big worlds' checkpoints wait for [`Sim::take_due_checkpoint`] while this is on;
    /// turning it off takes a waiting one now.
    pub fn defer_big_checkpoints(&mut self, on: bool) {
        self.defer_big = on;
        if !on {
            self.take_due_checkpoint();
        }
    }

    /// A deferred checkpoint is waiting to be taken.
    pub fn checkpoint_due(&self) -> bool {
        self.due
    }

    /// Takes the waiting checkpoint, if any (a copy of the whole world).
    pub fn take_due_checkpoint(&mut self) {
        if std::mem::take(&mut self.due)
            && self.checkpoints.last().is_some_and(|(p, _)| *p < self.pos)
        {
            self.push_checkpoint();
        }
    }

    fn push_checkpoint(&mut self) {
        self.checkpoints.push((self.pos, self.world.clone()));
        // Thin until both limits hold: each doubling keeps the start, the grid points of
        // the new interval and the newest (off-grid when it was deferred), so the loop
        // ends at the latest when only the start and the newest are left, and the count
        // never exceeds MAX_CHECKPOINTS + 1 (the +1 is the newest, just pushed).
        while self.checkpoints.len() > 2 && self.checkpoints_too_heavy() {
            if self.checkpoint_every >= MAX_EVERY {
                // Nothing finer is left to drop: keep the start and the newest only.
                let last = self.checkpoints.pop().expect("more than two");
                self.checkpoints.truncate(1);
                self.checkpoints.push(last);
                break;
            }
            self.checkpoint_every = self.checkpoint_every.saturating_mul(2).min(MAX_EVERY);
            let every = self.checkpoint_every;
            let newest = self.checkpoints.len() - 1;
            let mut k = 0;
            self.checkpoints.retain(|(p, _)| {
                k += 1;
                *p == 0 || p.is_multiple_of(every) || k - 1 == newest
            });
            // Still too heavy (a huge world): keep the start and the newest only.
            let rows: usize = self.checkpoints.iter().map(|(_, w)| weight(w)).sum();
            if rows > CHECKPOINT_ROWS && self.checkpoints.len() > 2 {
                let last = self.checkpoints.pop().expect("more than two");
                self.checkpoints.truncate(1);
                self.checkpoints.push(last);
            }
        }
    }

    fn checkpoints_too_heavy(&self) -> bool {
        let rows: usize = self.checkpoints.iter().map(|(_, w)| weight(w)).sum();
        self.checkpoints.len() > MAX_CHECKPOINTS || rows > CHECKPOINT_ROWS
    }

    /// Moves the world to position `p` of the recorded log (clamped), replaying from the
    /// nearest checkpoint. The log itself is kept until the user acts.
    pub fn seek(&mut self, p: u64) {
        let p = p.min(self.total);
        if p == self.pos {
            return;
        }
        let (cp_pos, cp) = self
            .checkpoints
            .iter()
            .rev()
            .find(|(q, _)| *q <= p)
            .map(|(q, w)| (*q, w))
            .expect("checkpoint 0 is always kept");
        if !(p > self.pos && self.pos >= cp_pos) {
            self.world = cp.clone();
            self.pos = cp_pos;
        }
        self.samples.retain(|s| s.pos <= self.pos);
        self.finished = false;
        // Walk the log from the current position to p.
        let mut at = 0u64;
        let inputs = std::mem::take(&mut self.inputs);
        for input in &inputs {
            let len = match input {
                Input::Ticks(n) => *n,
                Input::Act(_) => 1,
            };
            if at + len <= self.pos {
                at += len;
                continue;
            }
            if at >= p {
                break;
            }
            match input {
                Input::Ticks(_) => {
                    let from = self.pos.max(at);
                    let to = p.min(at + len);
                    for _ in from..to {
                        if !self.world.step() {
                            self.finished = true;
                        }
                        self.pos += 1;
                        self.after_move();
                    }
                }
                Input::Act(a) => {
                    // It was accepted when recorded; the same world accepts it again.
                    let _ = self.world.apply(a);
                    self.finished = false;
                    self.pos += 1;
                    self.after_move();
                }
            }
            at += len;
        }
        self.inputs = inputs;
    }

    /// One log entry back.
    pub fn back(&mut self) {
        self.seek(self.pos.saturating_sub(1));
    }

    /// Drops the log after the current position (the user acts from an earlier moment).
    fn truncate_future(&mut self) {
        if self.pos == self.total {
            return;
        }
        let mut at = 0u64;
        let mut keep = Vec::new();
        for input in self.inputs.drain(..) {
            if at >= self.pos {
                break;
            }
            match input {
                Input::Ticks(n) => {
                    let n = n.min(self.pos - at);
                    at += n;
                    keep.push(Input::Ticks(n));
                }
                a => {
                    at += 1;
                    keep.push(a);
                }
            }
        }
        self.inputs = keep;
        self.total = self.pos;
        let pos = self.pos;
        self.checkpoints.retain(|(p, _)| *p <= pos);
        self.samples.retain(|s| s.pos <= pos);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use outbox_model::preset;

    fn canon() -> Scenario {
        preset("canon-dual-write").expect("the lesson's canon preset exists")
    }

    fn run_to_end(sim: &mut Sim) {
        while sim.tick() {}
    }

    #[test]
    fn running_the_canon_in_the_page_gives_the_models_numbers() {
        let mut sim = Sim::new(canon());
        run_to_end(&mut sim);
        let direct = outbox_model::run(&canon()).counters();
        assert_eq!(sim.world.counters(), direct);
        // The lesson's §2: 100 in the database, 90 in the queue.
        assert_eq!((direct.tasks_in_db, direct.queue_jobs), (100, 90));
    }

    #[test]
    fn replaying_the_log_rebuilds_the_same_world() {
        let mut sim = Sim::new(preset("canon-outbox").unwrap());
        sim.ticks(300);
        sim.act(Action::Kill {
            process: "relay-1".into(),
        })
        .unwrap();
        sim.ticks(500);
        let again = Sim::from_run(&sim.to_run()).unwrap();
        assert_eq!(again.world, sim.world);
        assert_eq!(again.pos(), sim.pos());
    }

    #[test]
    fn stepping_back_and_forward_returns_to_the_same_world() {
        let mut sim = Sim::new(canon());
        sim.ticks(1000);
        let end = sim.world.clone();
        let mut fresh = Sim::new(canon());
        fresh.ticks(700);
        sim.seek(700);
        assert_eq!(sim.world, fresh.world, "seek back by replay");
        sim.back();
        fresh = Sim::new(canon());
        fresh.ticks(699);
        assert_eq!(sim.world, fresh.world, "one step back");
        sim.seek(1000);
        assert_eq!(sim.world, end, "forward again to the end of the log");
        assert_eq!(sim.total(), 1000, "seeking keeps the log");
    }

    #[test]
    fn acting_from_an_earlier_moment_drops_the_later_log() {
        let mut sim = Sim::new(canon());
        sim.ticks(400);
        sim.seek(100);
        sim.act(Action::QueueDown { hang: false }).unwrap();
        assert_eq!(sim.total(), 101);
        let mut fresh = Sim::new(canon());
        fresh.ticks(100);
        fresh.act(Action::QueueDown { hang: false }).unwrap();
        assert_eq!(sim.world, fresh.world);
        assert_eq!(sim.to_run(), fresh.to_run());
    }

    #[test]
    fn a_refused_action_is_not_recorded() {
        let mut sim = Sim::new(canon());
        let err = sim
            .act(Action::Kill {
                process: "nobody".into(),
            })
            .unwrap_err();
        let name = "nobody".to_string();
        assert_eq!(err, ActRefusal::Model(Refusal::NoSuchProcess { name }));
        assert!(err.reason().text(Lang::En).contains("nobody"), "{err}");
        assert_eq!(sim.total(), 0);
    }

    #[test]
    fn bad_runs_are_refused_with_a_reason() {
        let mut run = Sim::new(canon()).to_run();
        run.v = 7;
        assert_eq!(Sim::from_run(&run).unwrap_err(), RunError::Version(7));
        let mut run = Sim::new(canon()).to_run();
        run.scenario.workload.tasks = MAX_PAGE_TASKS + 1;
        assert!(matches!(Sim::from_run(&run), Err(RunError::TooBig { .. })));
        let mut run = Sim::new(canon()).to_run();
        run.inputs = vec![Input::Ticks(MAX_ATOMS + 1)];
        assert_eq!(Sim::from_run(&run).unwrap_err(), RunError::TooLong);
        let mut run = Sim::new(canon()).to_run();
        run.inputs = vec![Input::Act(Action::Restart {
            process: "ghost".into(),
        })];
        assert!(matches!(
            Sim::from_run(&run),
            Err(RunError::Replay { at: 0, .. })
        ));
    }

    #[test]
    fn a_big_world_is_copied_rarely_and_seeking_still_works() {
        let mut s = preset("canon-outbox").unwrap();
        s.workload.tasks = 2_000;
        let mut sim = Sim::new(s.clone());
        while sim.tick() {}
        let end = sim.pos();
        // Rows grow to ~6 000 (tasks, outbox, jobs): copies at least 2 steps per row apart.
        assert!(
            sim.checkpoints.len() <= 1 + (end / 2_000) as usize,
            "{}",
            sim.checkpoints.len()
        );
        sim.seek(end / 2);
        let mut fresh = Sim::new(s);
        fresh.ticks(end / 2);
        assert_eq!(sim.world, fresh.world);
    }

    #[test]
    fn a_deferred_checkpoint_waits_for_its_frame_and_seeking_still_works() {
        let mut s = preset("canon-outbox").unwrap();
        s.workload.tasks = 12_000; // ~36 000 rows: above BIG_WORLD_ROWS before the end
        let mut sim = Sim::new(s.clone());
        sim.defer_big_checkpoints(true);
        let mut deferred = 0;
        while sim.tick() {
            if sim.checkpoint_due() {
                assert!(weight(&sim.world) > BIG_WORLD_ROWS);
                let before = sim.checkpoints.len();
                // More ticks while it waits: nothing is copied.
                sim.ticks(100);
                assert_eq!(sim.checkpoints.len(), before);
                sim.take_due_checkpoint();
                assert!(!sim.checkpoint_due());
                assert_eq!(sim.checkpoints.last().map(|c| c.0), Some(sim.pos()));
                deferred += 1;
            }
        }
        assert!(deferred > 0, "no checkpoint of a big world was deferred");
        let end = sim.pos();
        for at in [end / 3, end - 1] {
            sim.seek(at);
            let mut fresh = Sim::new(s.clone());
            fresh.ticks(at);
            assert_eq!(sim.world, fresh.world, "seek to {at}");
        }
        // Turning deferral off takes a waiting checkpoint at once.
        sim.seek(end);
        sim.due = true;
        sim.defer_big_checkpoints(false);
        assert!(!sim.checkpoint_due());
    }

    #[test]
    fn the_chart_history_stays_small_and_ends_at_the_present() {
        let mut sim = Sim::new(preset("canon-outbox").unwrap());
        run_to_end(&mut sim);
        assert!(sim.samples().len() <= MAX_SAMPLES);
        assert_eq!(sim.samples().last().unwrap().pos, sim.pos());
        assert_eq!(
            sim.samples().last().unwrap().tasks_in_db,
            sim.world.counters().tasks_in_db
        );
    }
}

// Arbitrary sequences of everything the page can do to a run (issue #25).
#[cfg(test)]
mod props;
