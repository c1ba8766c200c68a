//! Shrinking a failing schedule: greedy delta debugging over the scenario. Each pass tries
//! smaller variants (a timed action, a fault rule or the psql script left out, fewer
//! tasks, fewer processes, a simpler configuration, a shorter fault phase) and keeps the
//! first that still breaks the same outcome, until none does. The world's seed stays: a smaller scenario
//! interleaves differently anyway, and whatever still fails is a smaller witness.

use super::check::{check_as, Claim};
use super::expect::Outcome;
use crate::queue::QueueOptions;
use crate::scenario::{proc_index, Config, RelayConfig, Scenario, Sink};

/// Runs a shrink may spend (each is one judged schedule, about a millisecond).
const MAX_RUNS: usize = 3_000;

/// How big a scenario is: the tasks and preloaded events, the fault rules and timed
/// actions, and the processes (an API and its client count once).
pub fn size(s: &Scenario) -> u64 {
    let c = &s.config;
    let procs = c.apis as u64
        + c.relays as u64
        + c.workers as u64
        + c.cdc as u64
        + c.cleaner.is_some() as u64;
    s.workload.tasks as u64
        + s.workload.preloaded_events as u64
        + s.faults.len() as u64
        + s.schedule.len() as u64
        + procs
}

/// The smallest variant of `s` found that still shows `outcome` as a breach of
/// `claim`'s class.
pub fn shrink(s: &Scenario, outcome: Outcome, claim: Claim) -> Scenario {
    let mut best = s.clone();
    let mut runs = 0;
    'pass: while runs < MAX_RUNS {
        for candidate in candidates(&best) {
            if candidate == best || candidate.validate().is_err() {
                continue;
            }
            runs += 1;
            if check_as(&candidate, claim).first() == Some(outcome) {
                best = candidate;
                continue 'pass;
            }
            if runs >= MAX_RUNS {
                break 'pass;
            }
        }
        break;
    }
    best
}

/// Smaller variants of `s`, the likeliest big cuts first.
fn candidates(s: &Scenario) -> Vec<Scenario> {
    let mut v = Vec::new();
    for i in 0..s.schedule.len() {
        let mut c = s.clone();
        c.schedule.remove(i);
        v.push(c);
    }
    for i in 0..s.faults.len() {
        let mut c = s.clone();
        c.faults.remove(i);
        v.push(c);
    }
    let w = &s.workload;
    for tasks in [0, w.tasks / 2, w.tasks.saturating_sub(1)] {
        v.push(edit(s, |c| c.workload.tasks = tasks));
    }
    for pre in [0, w.preloaded_events.saturating_sub(1)] {
        v.push(edit(s, |c| c.workload.preloaded_events = pre));
    }
    v.push(edit(s, |c| c.workload.preloaded_completed = false));
    v.push(edit(s, |c| c.script.clear()));
    let cfg = &s.config;
    v.push(fewer(s, |c| c.apis = c.apis.saturating_sub(1).max(1)));
    v.push(fewer(s, |c| c.relays = c.relays.saturating_sub(1)));
    v.push(fewer(s, |c| c.workers = c.workers.saturating_sub(1)));
    v.push(fewer(s, |c| c.cdc = false));
    v.push(fewer(s, |c| c.cleaner = None));
    v.extend(simpler(s, cfg));
    v.push(edit(s, |c| {
        c.max_ticks /= 2;
        let end = c.max_ticks;
        c.schedule.retain(|t| t.at_tick < end);
    }));
    v
}

/// Configuration fields moved to the lesson's defaults, one at a time.
fn simpler(s: &Scenario, cfg: &Config) -> Vec<Scenario> {
    let r = RelayConfig::default();
    let q = QueueOptions::default();
    let mut v = vec![
        edit(s, |c| c.config.client_retries = 0),
        edit(s, |c| c.config.api_idempotency_key = false),
        edit(s, |c| c.config.relay.dead_letter_after = None),
        edit(s, |c| c.config.relay.sink = Sink::Queue),
        edit(s, |c| c.config.relay.job_id = true),
        edit(s, |c| c.config.relay.lock = r.lock),
        edit(s, |c| c.config.relay.batch_size = 1),
        edit(s, |c| c.config.relay.poll_interval_ticks = 1),
        edit(s, |c| c.config.queue.remove_on_complete = false),
        edit(s, |c| c.config.queue.remove_on_fail = false),
        edit(s, |c| c.config.queue.keep_completed = None),
        edit(s, |c| c.config.queue.keep_failed = None),
        edit(s, |c| {
            c.config.queue.max_stalled_count = q.max_stalled_count
        }),
        edit(s, |c| c.config.restart_after_ticks = Some(5)),
        edit(s, |c| c.config.api_app_role = false),
        edit(s, |c| c.config.external_idempotency_key = false),
    ];
    if cfg.relay.mode != r.mode {
        v.push(edit(s, |c| c.config.relay.mode = r.mode));
    }
    v
}

fn edit(s: &Scenario, f: impl FnOnce(&mut Scenario)) -> Scenario {
    let mut c = s.clone();
    f(&mut c);
    c
}

/// A configuration with fewer processes, and the faults and timed actions that named a
/// process it no longer has left out.
fn fewer(s: &Scenario, f: impl FnOnce(&mut Config)) -> Scenario {
    let mut c = s.clone();
    f(&mut c.config);
    let cfg = c.config.clone();
    let exists = |p: &str| proc_index(&cfg, p, false).is_some();
    c.faults.retain(|f| match f {
        crate::scenario::Fault::Kill { process, .. }
        | crate::scenario::Fault::Delay { process, .. } => exists(process),
        _ => true,
    });
    c.schedule.retain(|t| t.action.process().is_none_or(exists));
    c
}
