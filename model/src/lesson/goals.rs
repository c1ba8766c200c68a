//! Whether a step's goal is reached, judged from the world alone: its counters, its
//! configuration, the kills it saw and its script's results.

use super::Goal;
use crate::db::LockMode;
use crate::scenario::{ApiMode, RelayMode, WorkerMode};
use crate::world::{ProcKind, Step, World};

fn killed_at(w: &World, kind: ProcKind, step: Step) -> bool {
    w.kills
        .iter()
        .any(|(p, s, _)| *s == step && w.procs[p.0 as usize].kind == kind)
}

/// How many different steps the API was killed at.
fn api_kill_steps(w: &World) -> usize {
    let mut steps: Vec<Step> = w
        .kills
        .iter()
        .filter(|(p, _, _)| w.procs[p.0 as usize].kind == ProcKind::Api)
        .map(|(_, s, _)| *s)
        .collect();
    steps.sort();
    steps.dedup();
    steps.len()
}

/// The place of the right option of the §4.2 question "why does the relay publish inside
/// its transaction?" (the page words its three options in this order).
pub const WHY_INSIDE_RIGHT: usize = 1;

/// Whether a step's goal is reached, with the learner's answer to the question the step
/// asks, if any: the §4.2 step (a relay that marks first loses an event) counts only once
/// the learner has also chosen the right reason.
pub fn step_reached(goal: Goal, w: &World, why: Option<usize>) -> bool {
    let answered = goal != Goal::PublishOutsideLoses || why == Some(WHY_INSIDE_RIGHT);
    answered && reached(goal, w)
}

/// The canon's numbers under `api`: 100 tasks in the database and `jobs` jobs.
fn canon(w: &World, api: ApiMode, jobs: u64) -> bool {
    let c = w.counters();
    w.cfg.api == api && c.tasks_in_db == 100 && c.queue_jobs == jobs
}

/// The lesson's canon test of SKIP LOCKED: two relays or more, 200 events, each added once.
fn two_relays_once(w: &World) -> bool {
    let c = w.counters();
    w.cfg.relays >= 2
        && w.cfg.relay.lock == LockMode::SkipLocked
        && c.events_in_outbox == 200
        && c.queue_adds == 200
        && c.queue_jobs == 200
}

/// Whether the world shows the goal reached.
pub fn reached(goal: Goal, w: &World) -> bool {
    let c = w.counters();
    let done = w.settled();
    match goal {
        Goal::LoseAnEvent => {
            matches!(
                w.cfg.api,
                ApiMode::DualWriteDbFirst | ApiMode::DualWriteQueueFirst
            ) && c.lost >= 1
        }
        Goal::PhantomEvent => w.cfg.api == ApiMode::DualWriteQueueFirst && c.phantoms >= 1,
        Goal::PoolLosesEvent => w.cfg.api == ApiMode::OutboxPool && c.lost >= 1,
        Goal::CanonDualWrite => done && canon(w, ApiMode::DualWriteDbFirst, 90),
        Goal::CanonOutbox => done && canon(w, ApiMode::Outbox, 100) && c.lost == 0,
        Goal::OutboxKeepsEvents => {
            done && w.cfg.api == ApiMode::Outbox && api_kill_steps(w) >= 3 && c.lost == 0
        }
        Goal::RolledBackTogether => {
            done && w.tasks_total > 0 && c.tasks_in_db == 0 && c.events_in_outbox == 0
        }
        Goal::RoleDenied => w.script_results.iter().any(|r| {
            r.stmt == crate::scenario::ScriptStmt::SelectCountOutbox
                && matches!(&r.result, Err(e) if e.code == "42501")
        }),
        Goal::RelaySendsTwice => c.queue_dedup_hits >= 1 || c.duplicate_deliveries >= 1,
        Goal::TwoRelaysOnce => done && two_relays_once(w),
        Goal::SkipLockedOff => {
            done && w.cfg.relays >= 2 && w.cfg.relay.lock != LockMode::SkipLocked
        }
        Goal::PublishOutsideLoses => {
            done && w.cfg.relay.mode == RelayMode::MarkFirst && c.lost >= 1
        }
        Goal::CdcSurvivesKill => {
            done && w.cfg.cdc && killed_at(w, ProcKind::Cdc, Step::SaveOffset) && c.lost == 0
        }
        Goal::CleanerKeepsUnpublished => {
            done && w.cfg.cleaner.as_ref().is_some_and(|k| k.published_only)
                && c.events_in_outbox > 0
                && c.lost == 0
        }
        Goal::AtMostOnceLoses => done && w.cfg.relay.mode == RelayMode::MarkFirst && c.lost >= 1,
        Goal::AtLeastOnceDuplicates => {
            done && w.cfg.worker == WorkerMode::NoInbox && c.duplicate_effects >= 1
        }
        Goal::EffectivelyOnce => {
            done && w.cfg.worker == WorkerMode::InboxSameTx
                && c.duplicate_deliveries >= 1
                && c.lost == 0
                && c.duplicate_effects == 0
        }
        Goal::OneEffectOfThree => {
            done && c.deliveries >= 3 && c.effects == 1 && c.balance == 50_000
        }
        Goal::InboxOwnTxBreaks => done && w.cfg.worker == WorkerMode::InboxOwnTx && c.lost >= 1,
    }
}
