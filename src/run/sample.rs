//! A point of a run's counters over time, for the chart.

use outbox_model::Counters;

/// A point of the counters' history, for the chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub pos: u64,
    pub lost: u64,
    pub duplicate_deliveries: u64,
    pub duplicate_effects: u64,
    pub deliveries: u64,
    pub tasks_in_db: u64,
}

impl Sample {
    pub(crate) fn of(pos: u64, c: &Counters) -> Sample {
        Sample {
            pos,
            lost: c.lost,
            duplicate_deliveries: c.duplicate_deliveries,
            duplicate_effects: c.duplicate_effects,
            deliveries: c.deliveries,
            tasks_in_db: c.tasks_in_db,
        }
    }
}
