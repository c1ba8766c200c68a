//! Why an event ended as it did (#41): a goal says "an event was lost *because* the API
//! died after COMMIT and before queue.add", not merely "the API was killed there, and
//! something was lost".
//!
//! The world keeps what is happening now ([`Causes::now`]: a process's own step, a kill of
//! a process at a step, a Redis flush, BullMQ's stalled check, an operator's action) and,
//! for each event it judges again:
//! - a **fate**: the event's class became lost or aborted, with the cause at that moment
//!   (the act that made the judgement change is the one that made the event so);
//! - a **blow**: a kill or a fault touched the event, with the event's counts of adds,
//!   deliveries and effects then. A repeat (a second add, delivery or effect) is caused
//!   by the first blow after the one before it: a worker killed after its COMMIT and
//!   before its ack makes the redelivery, whatever happens to that redelivery later.
//!
//! Both lists are history (kept only with [`super::World::history`], capped like the kill
//! list): nothing the model decides reads them; goals and tests do. Recording costs a store
//! per step and a compare per judged event.

use crate::action::{ProcKind, Step};
use crate::ids::EventId;
use serde::Serialize;

/// What made something happen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// A process of this kind ran this step: its own code did it, no fault.
    Ran { kind: ProcKind, step: Step },
    /// A process of this kind was killed at this step (before the step ran: the ☠ of
    /// "kill after X, before this step"), by the learner, an armed kill or the schedule.
    Kill { kind: ProcKind, step: Step },
    /// Redis lost every job (FLUSHALL).
    RedisFlush,
    /// Redis restarted.
    RedisRestart,
    /// BullMQ's stalled check moved a job (back to wait, or to the failed set).
    Stalled,
    /// An operator's action: retrying failed jobs, unpublishing since a tick, taking Redis
    /// down or up, failing a publish.
    Operator,
}

impl Cause {
    /// Whether the cause is a blow from outside a process's own code (a kill or a fault).
    pub fn is_blow(self) -> bool {
        !matches!(self, Cause::Ran { .. })
    }
}

/// The class an event's judgement moved to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    Lost,
    Aborted,
}

/// A kill or a fault that touched an event, with the event's counts just before.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Blow {
    pub event: EventId,
    pub cause: Cause,
    pub adds: u16,
    pub deliveries: u16,
    pub effects: u16,
    /// The tick the blow struck at (#42: the event's life names the kill's tick).
    pub tick: u64,
}

/// The most fates and blows kept (as the kill list's cap).
pub const MAX_CAUSES: usize = 10_000;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Causes {
    /// What is happening now.
    pub now: Cause,
    /// Every change of an event's class to lost or aborted, with its cause and the tick.
    pub fates: Vec<(EventId, Fate, Cause, u64)>,
    /// Every blow, in order.
    pub blows: Vec<Blow>,
}

impl Default for Causes {
    fn default() -> Self {
        Causes {
            now: Cause::Operator,
            fates: Vec::new(),
            blows: Vec::new(),
        }
    }
}

/// A count of an event's that a blow can make repeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repeat {
    /// A second `queue.add` (a jobId dedup hit or a second job).
    Add,
    Delivery,
    Effect,
}

impl Blow {
    pub(super) fn count(&self, r: Repeat) -> u16 {
        match r {
            Repeat::Add => self.adds,
            Repeat::Delivery => self.deliveries,
            Repeat::Effect => self.effects,
        }
    }
}
