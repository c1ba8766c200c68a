//! The lesson's summary (the seed's «Xulosa»), from the model's own runs: the canon's
//! dual write and outbox lines, the republish jobId absorbs, and the inbox's three
//! deliveries with one action. The page sets these numbers beside the guarantees; none
//! of them is typed in.

use super::steps::from_preset;
use crate::world::{Counters, World};

/// The numbers the summary shows, each from a run of the preset named beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// `canon-dual-write`: tasks in the database, jobs in the queue, events lost.
    pub dual: Line,
    /// `canon-outbox`.
    pub outbox: Line,
    /// `canon-republish`: the same run with the relay's repeat; `again` the repeats the
    /// queue absorbed by jobId.
    pub republish: Line,
    pub again: u64,
    /// `exercise-3`: deliveries of the one payment, and the actions they made.
    pub deliveries: u64,
    pub effects: u64,
}

/// One run's canon line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub db: u64,
    pub queue: u64,
    pub lost: u64,
}

fn ended(name: &str) -> Counters {
    let s = from_preset(name);
    let mut w = World::new(&s);
    w.run(s.max_ticks);
    w.counters()
}

fn line(c: &Counters) -> Line {
    Line {
        db: c.tasks_in_db,
        queue: c.queue_jobs,
        lost: c.lost,
    }
}

/// Runs the four presets to their end (a few thousand steps together).
pub fn summary() -> Summary {
    let republish = ended("canon-republish");
    let inbox = ended("exercise-3");
    Summary {
        dual: line(&ended("canon-dual-write")),
        outbox: line(&ended("canon-outbox")),
        republish: line(&republish),
        again: republish.queue_dedup_hits,
        deliveries: inbox.deliveries,
        effects: inbox.effects,
    }
}
