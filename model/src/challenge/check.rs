//! The checks an instructor's challenge passes before it is shared: its goal is not
//! already reached when the scenario opens (or there is nothing to do), and its solution,
//! if it has one, reaches the goal. The run is the lesson's own driving (`World::apply`
//! for each action, then `World::step` until the world settles or its `max_ticks`, as
//! `World::run` does), stopped as soon as the goal holds and capped at
//! [`MAX_CHECK_STEPS`] steps, so a hostile scenario cannot hang the page.

use super::format::Challenge;
use crate::world::Refusal;
use crate::World;
use std::fmt;

/// Steps the solution's run may take: over a hundred times the lesson's longest solution
/// run (`canon-outbox`, 1 575 steps to settle; the others 9 to 1 140), and about 16 ms of
/// the native release build (measured at 1 575 steps in 128 µs), so a hostile challenge
/// costs the page a fraction of a second to check.
pub const MAX_CHECK_STEPS: u64 = 200_000;

/// Work the solution's run may do, in units of one step or one unpublished row read to
/// judge the goal. The goal is judged before every step, and a goal that reads `stuck` or
/// `oldest_unpublished_age_ticks` walks every unpublished row each time (#40: a run of
/// 100 000 tasks and 100 000 preloaded events held the page 243 s): this bounds the walk
/// to a fraction of a second of the page's wasm, whatever the world's size.
pub const MAX_CHECK_WORK: u64 = 20_000_000;

/// What the check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    pub solution: SolutionCheck,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolutionCheck {
    /// The challenge has no solution: only its start was checked.
    Unchecked,
    /// The solution reached the goal after `steps` world steps, at `tick`.
    Reached { steps: u64, tick: u64 },
}

/// Why a challenge is not ready to share.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// The goal holds before anything ran.
    GoalAtStart,
    /// The world refused the solution's action `index` (from 0).
    SolutionAction { index: usize, why: Refusal },
    /// The run ended (settled, stuck or at `max_ticks`) after `steps` steps without the
    /// goal.
    SolutionMisses { steps: u64 },
    /// The goal was not reached within `max_steps` steps.
    TooLong { max_steps: u64 },
    /// Judging the goal on a world this big took [`MAX_CHECK_WORK`] before it was reached
    /// (after `steps` steps).
    TooMuchWork { steps: u64 },
}

impl CheckError {
    /// A stable code, for the page's i18n keys.
    pub fn code(&self) -> &'static str {
        match self {
            CheckError::GoalAtStart => "goal_at_start",
            CheckError::SolutionAction { .. } => "solution_action",
            CheckError::SolutionMisses { .. } => "solution_misses",
            CheckError::TooLong { .. } => "too_long",
            CheckError::TooMuchWork { .. } => "too_much_work",
        }
    }
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::GoalAtStart => write!(f, "the goal holds before anything ran"),
            CheckError::SolutionAction { index, why } => {
                write!(f, "solution action {index} refused: {why}")
            }
            CheckError::SolutionMisses { steps } => {
                write!(
                    f,
                    "the solution's run ended after {steps} steps without the goal"
                )
            }
            CheckError::TooLong { max_steps } => {
                write!(f, "the goal was not reached within {max_steps} steps")
            }
            CheckError::TooMuchWork { steps } => {
                write!(
                    f,
                    "the goal was not reached within the check's work limit ({steps} steps)"
                )
            }
        }
    }
}

impl std::error::Error for CheckError {}

/// A solution's run: the world where it stopped and whether the goal held there.
pub struct SolutionRun {
    pub world: World,
    pub reached: bool,
    /// It stopped at [`MAX_CHECK_WORK`].
    pub out_of_work: bool,
}

impl Challenge {
    /// Checks the start and, when there is one, the solution, in one call.
    pub fn check(&self) -> Result<CheckReport, CheckError> {
        match self.start_check()? {
            None => Ok(CheckReport {
                solution: SolutionCheck::Unchecked,
            }),
            Some(mut runner) => {
                while !runner.advance(u64::MAX) {}
                runner.report()
            }
        }
    }

    /// Checks the start and applies the solution's actions; the rest of the solution's run
    /// is a [`SolutionRunner`] the caller advances in slices (the page, to show progress
    /// and stay responsive). None when there is no solution: only the start is checked.
    pub fn start_check(&self) -> Result<Option<SolutionRunner>, CheckError> {
        if self.goal.holds(&World::new(&self.scenario)) {
            return Err(CheckError::GoalAtStart);
        }
        self.solution_runner()
    }

    /// Plays the solution (None without one): its actions in order, then steps until the
    /// goal holds, the world settles or stops, `max_ticks` or [`MAX_CHECK_STEPS`].
    pub fn run_solution(&self) -> Result<Option<SolutionRun>, CheckError> {
        let Some(mut runner) = self.solution_runner()? else {
            return Ok(None);
        };
        while !runner.advance(u64::MAX) {}
        Ok(Some(runner.finish()))
    }

    /// The solution's actions applied to the start, its run not begun.
    fn solution_runner(&self) -> Result<Option<SolutionRunner>, CheckError> {
        let Some(actions) = &self.solution else {
            return Ok(None);
        };
        let mut world = World::new(&self.scenario);
        for (index, a) in actions.iter().enumerate() {
            world
                .apply(a)
                .map_err(|why| CheckError::SolutionAction { index, why })?;
        }
        Ok(Some(SolutionRunner {
            goal: self.goal.clone(),
            max_ticks: self.scenario.max_ticks,
            world,
            work: 0,
            out_of_work: false,
            ended: false,
        }))
    }
}

/// A solution's run after its actions, played in slices of work: the same loop in one
/// call ([`Challenge::check`]) or across the page's turns, with its progress readable in
/// between.
pub struct SolutionRunner {
    goal: super::goal::Goal,
    max_ticks: u64,
    world: World,
    work: u64,
    out_of_work: bool,
    ended: bool,
}

impl SolutionRunner {
    /// Steps until `budget` more units of work are spent or the run ends (the goal holds,
    /// the world settles or stops, `max_ticks`, [`MAX_CHECK_STEPS`], [`MAX_CHECK_WORK`]);
    /// true once it has ended.
    pub fn advance(&mut self, budget: u64) -> bool {
        let until = self.work.saturating_add(budget);
        while !self.ended && self.work < until {
            let w = &self.world;
            if self.goal.holds(w)
                || w.tick() >= self.max_ticks
                || w.settled()
                || w.steps() >= MAX_CHECK_STEPS
            {
                self.ended = true;
                break;
            }
            self.work = self.work.saturating_add(judging_work(&self.goal, w));
            if self.work >= MAX_CHECK_WORK {
                self.out_of_work = true;
                self.ended = true;
                break;
            }
            if !self.world.step() {
                self.ended = true;
            }
        }
        self.ended
    }

    /// How far the run is, as the larger of its two limits' fractions, in per mille:
    /// steps of [`MAX_CHECK_STEPS`] and work of [`MAX_CHECK_WORK`] (the run may end
    /// sooner, when the goal holds or the world settles).
    pub fn progress_per_mille(&self) -> u64 {
        let steps = self.world.steps().saturating_mul(1000) / MAX_CHECK_STEPS;
        let work = self.work.saturating_mul(1000) / MAX_CHECK_WORK;
        steps.max(work).min(1000)
    }

    /// The world's steps so far.
    pub fn steps(&self) -> u64 {
        self.world.steps()
    }

    /// The run where it stopped.
    pub fn finish(self) -> SolutionRun {
        let reached = self.goal.holds(&self.world);
        SolutionRun {
            reached,
            out_of_work: self.out_of_work && !reached,
            world: self.world,
        }
    }

    /// The check's verdict on the ended run.
    pub fn report(self) -> Result<CheckReport, CheckError> {
        let run = self.finish();
        let steps = run.world.steps();
        if run.reached {
            let tick = run.world.tick();
            let solution = SolutionCheck::Reached { steps, tick };
            return Ok(CheckReport { solution });
        }
        if run.out_of_work {
            return Err(CheckError::TooMuchWork { steps });
        }
        if steps >= MAX_CHECK_STEPS {
            return Err(CheckError::TooLong {
                max_steps: MAX_CHECK_STEPS,
            });
        }
        Err(CheckError::SolutionMisses { steps })
    }
}

/// The work of one step and of judging the goal once on `w`: the rows `World::counters`
/// walks, when the goal reads them.
fn judging_work(goal: &super::goal::Goal, w: &World) -> u64 {
    if !goal.reads_ages() {
        return 1;
    }
    let c = w.counters_without_ages();
    1 + c.events_unpublished + c.wal_retained
}
