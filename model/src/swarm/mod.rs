//! The swarm (issue #46): many small random schedules across random configurations, in
//! the manner of TigerBeetle's VOPR. A seed names a configuration and a fault schedule
//! ([`generate`]); the run checks every named invariant after every step and the design's
//! expected class at the end ([`check`], [`expect`]); a failure is shrunk to a small
//! scenario file ([`shrink`]) that `outbox-sim swarm --replay FILE` replays. The library
//! is deterministic over a seed range: threads and the clock live in the `outbox-sim`
//! binary, which splits ranges over cores and stops at a count or a time.

pub mod check;
pub mod expect;
pub mod generate;
pub mod shrink;

pub use check::{check, check_as, own, Breach, Claim, Judged};
pub use expect::{allows, Facts, Outcome};

use crate::action::{ProcKind, Step};
use crate::scenario::{Config, Scenario, Sink};
use std::collections::{BTreeMap, BTreeSet};

/// The CI slice's seeds (`outbox-sim swarm --ci`, `cargo xtask test-layer swarm`): a
/// fixed range, so CI judges the same schedules every time; sized for about a minute on
/// two cores (measured: ~100 µs of CPU per schedule, 20 000 schedules/s on two idle
/// cores, so ~50 s).
pub const CI_SEEDS: std::ops::Range<u64> = 0..1_000_000;

/// A failing seed, its breach, and the shrunk scenario that still shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub seed: u64,
    pub breach: Breach,
    pub shrunk: Scenario,
}

/// What a stretch of seeds did, merged across threads in any order to the same result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub schedules: u64,
    /// Scheduler steps over every schedule (for the per-schedule cost).
    pub steps: u64,
    /// Distinct configurations, by [`config_key`].
    pub configurations: BTreeSet<u64>,
    /// Kills by process kind and the step it was about to run.
    pub coverage: BTreeMap<(ProcKind, Step), u64>,
    /// Outcomes seen that their design allows (a design's expected failures do show up).
    pub allowed: BTreeMap<Outcome, u64>,
    /// Schedules per choice of each configuration dimension (`worker=ActionThenInbox`):
    /// every corner comes up.
    pub corners: BTreeMap<String, u64>,
    pub failures: Vec<Failure>,
}

impl Summary {
    pub fn violations(&self) -> u64 {
        self.failures.len() as u64
    }

    pub fn merge(&mut self, other: Summary) {
        self.schedules += other.schedules;
        self.steps += other.steps;
        self.configurations.extend(other.configurations);
        for (k, n) in other.coverage {
            *self.coverage.entry(k).or_default() += n;
        }
        for (k, n) in other.allowed {
            *self.allowed.entry(k).or_default() += n;
        }
        for (k, n) in other.corners {
            *self.corners.entry(k).or_default() += n;
        }
        self.failures.extend(other.failures);
        self.failures.sort_by_key(|f| f.seed);
    }

    /// The one line a CI log ends with.
    pub fn line(&self, per_second: f64) -> String {
        format!(
            "swarm: {} schedules, {} configurations, {} violations, {:.0} schedules/s",
            self.schedules,
            self.configurations.len(),
            self.violations(),
            per_second
        )
    }

    /// The coverage as tables: schedules per configuration choice, then kills per
    /// (kind, step), with their counts.
    pub fn coverage_table(&self) -> String {
        let mut out = String::from("schedules by configuration choice:\n");
        for (corner, n) in &self.corners {
            out.push_str(&format!("  {corner:<48} {n}\n"));
        }
        out.push_str("kills by process and step:\n");
        for ((kind, step), n) in &self.coverage {
            out.push_str(&format!(
                "  {:<8} {:<14} {n}\n",
                format!("{kind:?}"),
                format!("{step:?}")
            ));
        }
        out
    }
}

/// A configuration's choices, one `dimension=choice` each, for [`Summary::corners`].
pub fn corners(c: &Config) -> [String; 12] {
    let cleaner = c.cleaner.as_ref().map_or("none".into(), |k| {
        format!(
            "published_only:{},inbox_retention:{}",
            k.published_only,
            k.inbox_retention_days.is_some()
        )
    });
    [
        format!("api={:?}", c.api),
        format!("apis={}", c.apis),
        format!("relays={}", c.relays),
        format!("relay={:?}", c.relay.mode),
        format!("lock={:?}", c.relay.lock),
        format!("sink={:?}", c.relay.sink),
        format!("workers={}", c.workers),
        format!("worker={:?}", c.worker),
        format!(
            "queue=remove_on_complete:{},remove_on_fail:{}",
            c.queue.remove_on_complete, c.queue.remove_on_fail
        ),
        format!("max_stalled_count={}", c.queue.max_stalled_count),
        format!("cdc={}", c.cdc),
        format!("cleaner={cleaner}"),
    ]
}

/// A configuration's discrete choices packed into one number: two configurations with
/// the same key differ only in timings.
pub fn config_key(c: &Config) -> u64 {
    let sink = match c.relay.sink {
        Sink::Queue => 0,
        Sink::Webhook { idempotency_key } => 1 + idempotency_key as u64,
    };
    let cleaner = c.cleaner.as_ref().map_or(0, |k| {
        1 + k.published_only as u64 + 2 * k.inbox_retention_days.is_some() as u64
    });
    let q = &c.queue;
    let digits = [
        (c.api as u64, 4),
        (c.apis as u64, 4),
        (c.relays as u64, 4),
        (c.relay.mode as u64, 3),
        (c.relay.lock as u64, 4),
        (sink, 3),
        (c.relay.job_id as u64, 2),
        (c.relay.dead_letter_after.is_some() as u64, 2),
        (c.workers as u64, 4),
        (c.worker as u64, 5),
        (c.external_idempotency_key as u64, 2),
        (q.remove_on_complete as u64, 2),
        (q.remove_on_fail as u64, 2),
        (q.keep_completed.is_some() as u64, 2),
        (q.keep_failed.is_some() as u64, 2),
        (q.max_stalled_count.min(3) as u64, 4),
        (c.cdc as u64, 2),
        (cleaner, 5),
        (c.client_retries.min(1) as u64, 2),
        (c.api_idempotency_key as u64, 2),
        (c.restart_after_ticks.is_some() as u64, 2),
    ];
    digits.iter().fold(0, |k, &(d, base)| k * base + d)
}

/// Runs seed `seed` (judged as its own design) into `sum`; a failure is shrunk.
pub fn run_seed(seed: u64, sum: &mut Summary) {
    run_seed_as(seed, own, sum);
}

/// Runs seed `seed` against `claim`'s class into `sum`; a failure is shrunk under the
/// same claim.
pub fn run_seed_as(seed: u64, claim: Claim, sum: &mut Summary) {
    let s = generate::scenario(seed);
    let j = check_as(&s, claim);
    sum.schedules += 1;
    sum.steps += j.steps;
    sum.configurations.insert(config_key(&s.config));
    for c in corners(&s.config) {
        *sum.corners.entry(c).or_default() += 1;
    }
    for k in &j.kills {
        *sum.coverage.entry(*k).or_default() += 1;
    }
    for o in &j.allowed {
        *sum.allowed.entry(*o).or_default() += 1;
    }
    if let Some(breach) = j.breaches.first() {
        let mut shrunk = shrink::shrink(&s, breach.outcome, claim);
        shrunk.summary = format!(
            "swarm seed {seed}: {} ({}); replay: outbox-sim swarm --replay FILE",
            breach.outcome.name(),
            breach.detail
        );
        sum.failures.push(Failure {
            seed,
            breach: breach.clone(),
            shrunk,
        });
    }
}

/// Runs every seed of `seeds` into one summary.
pub fn run_seeds(seeds: std::ops::Range<u64>, claim: Claim) -> Summary {
    let mut sum = Summary::default();
    for seed in seeds {
        run_seed_as(seed, claim, &mut sum);
    }
    sum
}
