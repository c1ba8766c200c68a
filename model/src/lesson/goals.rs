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
        Goal::CanonDualWrite => {
            done && w.cfg.api == ApiMode::DualWriteDbFirst
                && c.tasks_in_db == 100
                && c.queue_jobs == 90
        }
        Goal::CanonOutbox => {
            done && w.cfg.api == ApiMode::Outbox
                && c.tasks_in_db == 100
                && c.queue_jobs == 100
                && c.lost == 0
        }
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
        Goal::TwoRelaysOnce => {
            done && w.cfg.relays >= 2
                && w.cfg.relay.lock == LockMode::SkipLocked
                && c.events_in_outbox == 200
                && c.queue_adds == 200
                && c.queue_jobs == 200
        }
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
