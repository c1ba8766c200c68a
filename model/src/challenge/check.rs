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
    /// Checks the start and, when there is one, the solution.
    pub fn check(&self) -> Result<CheckReport, CheckError> {
        if self.goal.holds(&World::new(&self.scenario)) {
            return Err(CheckError::GoalAtStart);
        }
        let Some(run) = self.run_solution()? else {
            let solution = SolutionCheck::Unchecked;
            return Ok(CheckReport { solution });
        };
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

    /// Plays the solution (None without one): its actions in order, then steps until the
    /// goal holds, the world settles or stops, `max_ticks` or [`MAX_CHECK_STEPS`].
    pub fn run_solution(&self) -> Result<Option<SolutionRun>, CheckError> {
        let Some(actions) = &self.solution else {
            return Ok(None);
        };
        let s = &self.scenario;
        let mut w = World::new(s);
        for (index, a) in actions.iter().enumerate() {
            w.apply(a)
                .map_err(|why| CheckError::SolutionAction { index, why })?;
        }
        let mut work = 0u64;
        let mut out_of_work = false;
        while !self.goal.holds(&w)
            && w.tick() < s.max_ticks
            && !w.settled()
            && w.steps() < MAX_CHECK_STEPS
        {
            work = work.saturating_add(self.judging_work(&w));
            if work >= MAX_CHECK_WORK {
                out_of_work = true;
                break;
            }
            if !w.step() {
                break;
            }
        }
        let reached = self.goal.holds(&w);
        Ok(Some(SolutionRun {
            world: w,
            reached,
            out_of_work: out_of_work && !reached,
        }))
    }

    /// The work of one step and of judging the goal once on `w`: the rows
    /// `World::counters` walks, when the goal reads them.
    fn judging_work(&self, w: &World) -> u64 {
        if !self.goal.reads_ages() {
            return 1;
        }
        let c = w.counters_without_ages();
        1 + c.events_unpublished + c.wal_retained
    }
}
