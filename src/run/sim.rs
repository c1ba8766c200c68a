//! The page's hold on the model: a scenario, the world it runs, and the log of everything
//! done to it since the start (scheduler ticks and the user's actions). The model is
//! deterministic, so that log is the run: replaying it from the scenario rebuilds any
//! moment, which is how the page steps back, scrubs its timeline and opens a shared link.
//!
//! Nothing here touches the browser, so it is tested natively.

use outbox_model::{Action, Scenario, World};

pub use super::record::{ActRefusal, Input, Run, RunError, MAX_ATOMS, MAX_PAGE_TASKS, RUN_VERSION};
pub use super::sample::Sample;

// Sampling, checkpoints and seeking (`history.rs`); the tests, and arbitrary sequences of
// everything the page can do to a run (issue #25, `props.rs`).
mod history;
#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;

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

    pub(super) fn tick_unchecked(&mut self) {
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
}
