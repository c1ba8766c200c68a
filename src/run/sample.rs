//! A point of a run's counters over time, for the chart.

use outbox_model::World;

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
    pub(crate) fn of(pos: u64, w: &World) -> Sample {
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
