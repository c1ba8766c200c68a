//! One schedule, judged: the scenario runs with every named invariant checked after every
//! step (`CheckLevel::Full`, as the property tests do), then every fault is healed as a
//! team would after an incident (Redis up, everyone restarted, kill rules and failing
//! publishes dropped, BullMQ's failed set retried, and after a flush the operator's
//! un-mark once the world is quiet), the world settles, and what it shows is held against
//! the design's expected class ([`super::expect`]). The fault phase is the scenario's
//! `max_ticks`, so `outbox-sim run FILE` shows it alone; `outbox-sim swarm --replay FILE`
//! replays all of this.

use super::expect::{allows, Facts, Outcome};
use crate::action::{ProcKind, Step};
use crate::auditor::Class;
use crate::queue::JobState;
use crate::scenario::{Config, Scenario};
use crate::world::{Action, CheckLevel, World};
use serde::Serialize;

/// Ticks each healing round may take to settle (a healed small world settles in a few
/// hundred; a run that does not is reported as unsettled).
const SETTLE_TICKS: u64 = 20_000;
/// Healing rounds: a job whose dead worker's lock runs out after one heal may stall into
/// the failed set, which the next round retries.
const HEAL_ROUNDS: usize = 6;

/// What the design under test claims to be: the configuration its expected class is read
/// from. The swarm judges a scenario by its own configuration ([`own`]); a test may run a
/// broken program under a sound design's claim.
pub type Claim = fn(&Config) -> Config;

/// The claim of a scenario judged as what it is.
pub fn own(cfg: &Config) -> Config {
    cfg.clone()
}

/// An outcome the design may not show, with what was seen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Breach {
    pub outcome: Outcome,
    pub detail: String,
}

/// A judged schedule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Judged {
    /// Outcomes the design may not show, in [`Outcome::all`]'s order (empty: clean).
    pub breaches: Vec<Breach>,
    /// Outcomes it showed that its class allows.
    pub allowed: Vec<Outcome>,
    /// Every kill of the fault phase, as (kind, step).
    pub kills: Vec<(ProcKind, Step)>,
    /// Scheduler steps the whole run took.
    pub steps: u64,
}

impl Judged {
    pub fn first(&self) -> Option<Outcome> {
        self.breaches.first().map(|b| b.outcome)
    }
}

/// Runs, heals and judges `s` against its own configuration's class.
pub fn check(s: &Scenario) -> Judged {
    check_as(s, own)
}

/// Runs, heals and judges `s` against the class of `claim(&s.config)`.
pub fn check_as(s: &Scenario, claim: Claim) -> Judged {
    let mut w = World::new(s);
    w.set_check_level(CheckLevel::Full);
    w.run(s.max_ticks);
    let facts = Facts::of(s, &w);
    heal_and_settle(&mut w);
    let seen = seen(&w);
    let claimed = claim(&s.config);
    let mut j = Judged {
        kills: facts.kills.clone(),
        steps: w.steps(),
        ..Judged::default()
    };
    for (outcome, detail) in seen {
        if allows(&claimed, &facts, outcome).is_some() {
            j.allowed.push(outcome);
        } else {
            j.breaches.push(Breach { outcome, detail });
        }
    }
    j
}

/// Heals, lets the world settle, and repeats while BullMQ's failed set is not empty; after
/// a flush, the operator un-marks every published row once, when no relay holds one.
fn heal_and_settle(w: &mut World) {
    let mut recovered = false;
    for _ in 0..HEAL_ROUNDS {
        w.heal();
        w.run(w.tick() + SETTLE_TICKS);
        if w.settled() && w.last_flush().is_some() && !recovered {
            recovered = true;
            // Refused only while a relay holds a row; the world is settled, none does.
            let _ = w.apply(&Action::UnpublishSince { since_tick: 0 });
            continue;
        }
        if w.settled() && w.queue().count(JobState::Failed) == 0 {
            break;
        }
    }
}

/// The bad outcomes the settled world shows, each with its numbers.
fn seen(w: &World) -> Vec<(Outcome, String)> {
    let c = w.counters();
    let mut v = Vec::new();
    // A failed job waits for a retry (class Failed, never Lost); the heal retried the
    // failed set until it was empty, so what is lost here has nothing left to retry.
    let lost: Vec<String> = w
        .auditor()
        .events()
        .filter(|(_, l)| l.class == Class::Lost)
        .map(|(e, _)| e.to_string())
        .collect();
    if !lost.is_empty() {
        v.push((Outcome::Lost, format!("lost {}", lost.join(", "))));
    }
    let counts = [
        (Outcome::DuplicateEffect, c.duplicate_effects),
        (Outcome::Phantom, c.phantoms),
        (Outcome::DuplicateTask, c.duplicate_tasks),
    ];
    for (o, n) in counts {
        if n > 0 {
            v.push((o, format!("{}: {n}", o.name())));
        }
    }
    if !w.settled() {
        v.push((
            Outcome::Unsettled,
            format!("not settled at tick {}", w.tick()),
        ));
    } else if c.in_flight + c.failed_needs_retry > c.dead_lettered {
        // Dead-lettered rows are counted in flight and wait for an operator by design;
        // anything else still carried (or failed and not retried) in a settled world is
        // stranded.
        let n = c.in_flight + c.failed_needs_retry - c.dead_lettered;
        v.push((
            Outcome::Stranded,
            format!("{n} in flight in a settled world"),
        ));
    }
    if let Some(first) = w.violations().first() {
        v.push((Outcome::Invariant, first.clone()));
    }
    v
}
