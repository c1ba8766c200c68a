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

use super::World;
use crate::action::{ProcKind, Step};
use crate::auditor::Class;
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
    fn count(&self, r: Repeat) -> u16 {
        match r {
            Repeat::Add => self.adds,
            Repeat::Delivery => self.deliveries,
            Repeat::Effect => self.effects,
        }
    }
}

impl World {
    /// Notes the event's judgement `c` (before it is kept) and a blow, if one is happening.
    #[inline(always)]
    pub(super) fn note_cause(&mut self, e: EventId, c: Option<Class>) {
        // Most judgements are a process's own step moving an event along: nothing to note.
        let fated = matches!(c, Some(Class::Lost | Class::Aborted));
        if self.history && (fated || self.causes.now.is_blow()) {
            self.note_cause_slow(e, c);
        }
    }

    #[inline(never)]
    fn note_cause_slow(&mut self, e: EventId, c: Option<Class>) {
        let Some(life) = self.auditor.life(e) else {
            return;
        };
        let now = self.causes.now;
        let tick = self.tick;
        let fate = match c {
            Some(Class::Lost) if life.class != Class::Lost => Some(Fate::Lost),
            Some(Class::Aborted) if life.class != Class::Aborted => Some(Fate::Aborted),
            _ => None,
        };
        let blow = now.is_blow().then_some(Blow {
            event: e,
            cause: now,
            adds: life.adds,
            deliveries: life.deliveries,
            effects: life.effects,
            tick,
        });
        let causes = &mut self.causes;
        if let Some(f) = fate.filter(|_| causes.fates.len() < MAX_CAUSES) {
            causes.fates.push((e, f, now, tick));
        }
        if let Some(b) = blow.filter(|_| causes.blows.len() < MAX_CAUSES) {
            causes.blows.push(b);
        }
    }

    /// Whether an event is now `fate` (lost; aborted, or a phantom: aborted with a job)
    /// and got there by a cause `matches` accepts.
    pub fn fate_by(&self, fate: Fate, phantom: bool, matches: impl Fn(Cause) -> bool) -> bool {
        self.causes.fates.iter().any(|&(e, f, c, _)| {
            f == fate
                && matches(c)
                && self.auditor.life(e).is_some_and(|l| {
                    let class = match fate {
                        Fate::Lost => Class::Lost,
                        Fate::Aborted => Class::Aborted,
                    };
                    l.class == class && (!phantom || l.jobs_created > 0)
                })
        })
    }

    /// Whether some event's count `r` repeated after a blow `matches` accepts: the blow is
    /// the first to touch the event since that count last grew, the count had grown at
    /// least once before it (there was something to repeat), and it grew again after.
    pub fn repeat_by(&self, r: Repeat, matches: impl Fn(Cause) -> bool) -> bool {
        let blows = &self.causes.blows;
        blows.iter().enumerate().any(|(i, b)| {
            let n = b.count(r);
            n >= 1
                && matches(b.cause)
                && !blows[..i]
                    .iter()
                    .any(|a| a.event == b.event && a.count(r) == n)
                && self.auditor.life(b.event).is_some_and(|l| {
                    let now = match r {
                        Repeat::Add => l.adds,
                        Repeat::Delivery => l.deliveries,
                        Repeat::Effect => l.effects,
                    };
                    now > n
                })
        })
    }

    /// The causes recorded so far (for the page and the CLI).
    pub fn causes(&self) -> &Causes {
        &self.causes
    }
}
