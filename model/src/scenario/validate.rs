//! The checks a scenario passes before a world is built from it: counts and sizes,
//! durations, fault rules and the schedule. A scenario comes from a link or a file, so
//! every bound here is what keeps a hostile one from exhausting memory or overflowing the
//! clock; the first failure is reported, naming its JSON field.

use super::{
    proc_index, Fault, Scenario, ScenarioError, When, MAX_APIS, MAX_BATCH_SIZE, MAX_DURATION_TICKS,
    MAX_FAULTS, MAX_POOL_SIZE, MAX_RELAYS, MAX_SCHEDULE, MAX_SCHEDULE_TICK, MAX_SCRIPT, MAX_TASKS,
    MAX_WORKERS,
};

impl Scenario {
    pub fn validate(&self) -> Result<(), ScenarioError> {
        // The checks run in this order, and the first failure is the one reported.
        self.check_sizes()?;
        self.check_durations()?;
        self.check_faults()?;
        self.check_schedule()
    }

    /// Counts and sizes: tasks, processes, the batch, the queue's timers, the cleaner.
    fn check_sizes(&self) -> Result<(), ScenarioError> {
        let lists = [
            ("faults", self.faults.len(), MAX_FAULTS),
            ("schedule", self.schedule.len(), MAX_SCHEDULE),
            ("script", self.script.len(), MAX_SCRIPT),
        ];
        for (field, n, max) in lists {
            if n > max {
                return Err(ScenarioError {
                    field: field.into(),
                    message: format!("at most {max} (found {n})"),
                    limit: Some(max as u64),
                });
            }
        }
        if self.workload.tasks > MAX_TASKS {
            return invalid("workload.tasks", format!("at most {MAX_TASKS}"));
        }
        if self.workload.preloaded_events > MAX_TASKS {
            return invalid("workload.preloaded_events", format!("at most {MAX_TASKS}"));
        }
        if self.config.relays > MAX_RELAYS {
            return invalid("config.relays", format!("at most {MAX_RELAYS}"));
        }
        if !(1..=MAX_POOL_SIZE).contains(&self.config.pool_size) {
            return Err(ScenarioError {
                field: "config.pool_size".into(),
                message: format!("must be 1..={MAX_POOL_SIZE}"),
                limit: Some(u64::from(MAX_POOL_SIZE)),
            });
        }
        if self.config.workers > MAX_WORKERS {
            return invalid("config.workers", format!("at most {MAX_WORKERS}"));
        }
        if !(1..=MAX_BATCH_SIZE).contains(&self.config.relay.batch_size) {
            return invalid(
                "config.relay.batch_size",
                format!("must be 1..={MAX_BATCH_SIZE}"),
            );
        }
        if self.config.queue.lock_duration_ticks == 0
            || self.config.queue.stalled_interval_ticks == 0
        {
            return invalid(
                "config.queue",
                "lock_duration_ticks and stalled_interval_ticks must be > 0".into(),
            );
        }
        if let Some(c) = &self.config.cleaner {
            if c.interval_ticks == 0 {
                return invalid("config.cleaner.interval_ticks", "must be > 0".into());
            }
        }
        Ok(())
    }

    /// Durations (added to the current tick: bounded, so no sum can overflow) and the
    /// small counts that go with them.
    fn check_durations(&self) -> Result<(), ScenarioError> {
        let c = &self.config;
        let durations = [
            (
                "config.relay.poll_interval_ticks",
                Some(c.relay.poll_interval_ticks),
            ),
            ("config.restart_after_ticks", c.restart_after_ticks),
            ("config.stuck_after_ticks", Some(c.stuck_after_ticks)),
            (
                "config.queue.lock_duration_ticks",
                Some(c.queue.lock_duration_ticks),
            ),
            (
                "config.queue.stalled_interval_ticks",
                Some(c.queue.stalled_interval_ticks),
            ),
            (
                "config.cleaner.interval_ticks",
                c.cleaner.as_ref().map(|c| c.interval_ticks),
            ),
        ];
        for (field, d) in durations {
            if d.is_some_and(|d| d > MAX_DURATION_TICKS) {
                return invalid(field, format!("at most {MAX_DURATION_TICKS}"));
            }
        }
        if !(1..=MAX_APIS).contains(&c.apis) {
            return invalid("config.apis", format!("1 to {MAX_APIS}"));
        }
        if c.client_retries > 10 {
            return invalid("config.client_retries", "at most 10".into());
        }
        if c.relay.dead_letter_after == Some(0) {
            return invalid("config.relay.dead_letter_after", "must be > 0".into());
        }
        if c.log_cap > 10_000 {
            return invalid("config.log_cap", "at most 10000".into());
        }
        Ok(())
    }

    /// Every fault rule names a process of this configuration and a usable condition.
    fn check_faults(&self) -> Result<(), ScenarioError> {
        for (i, f) in self.faults.iter().enumerate() {
            let when = match f {
                Fault::Kill { process, when, .. } | Fault::Delay { process, when, .. } => {
                    if proc_index(&self.config, process, !self.script.is_empty()).is_none() {
                        return invalid(
                            &format!("faults[{i}].process"),
                            format!("no process named {process:?} in this configuration"),
                        );
                    }
                    when
                }
                Fault::ApiError { when } => when,
                Fault::FailPublish { .. } | Fault::PublishTimesOut { .. } => continue,
            };
            if let When::TaskIndexMod { modulus: 0, .. } = when {
                return invalid(&format!("faults[{i}].when.modulus"), "must be > 0".into());
            }
        }
        Ok(())
    }

    /// Every scheduled action is in reach of the clock and names a process that exists.
    fn check_schedule(&self) -> Result<(), ScenarioError> {
        for (i, t) in self.schedule.iter().enumerate() {
            // The clock jumps to a scheduled action when nothing else can run.
            if t.at_tick > MAX_SCHEDULE_TICK {
                return invalid(
                    &format!("schedule[{i}].at_tick"),
                    format!("at most {MAX_SCHEDULE_TICK}"),
                );
            }
            if let Some(p) = t.action.process() {
                if proc_index(&self.config, p, !self.script.is_empty()).is_none() {
                    return invalid(
                        &format!("schedule[{i}].action"),
                        format!("no process named {p:?} in this configuration"),
                    );
                }
            }
        }
        Ok(())
    }
}

/// A refusal of `validate`, naming the field.
fn invalid(field: &str, message: String) -> Result<(), ScenarioError> {
    Err(ScenarioError {
        field: field.into(),
        message,
        limit: None,
    })
}
