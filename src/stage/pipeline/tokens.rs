//! The tokens that cross the pipeline's arrows: which log entry sends one (and along
//! which arrow, with what label, marked when it repeats), and how many stay alive. A
//! repeated delivery sends two tokens with the same event id; an event the run loses
//! (the lost counter grew) leaves the pipeline in the LOST colour where the process died.
//! Under `prefers-reduced-motion` the same tokens stand still by their arrow (CSS).

use leptos::prelude::*;
use outbox_model::world::{LogEntry, Note, ProcKind};
use outbox_model::World;

use crate::browser::slices::now_ms;
use crate::ctl::{use_ctl, DEFAULT_SPEED};
use crate::i18n::{use_i18n, Key};
use crate::stage::pipeline::arrow::{Lane, Token};

/// Tokens alive per arrow, and how long one takes to cross.
const PER_LANE: usize = 3;
const TOKEN_MS: f64 = 900.0;

/// Watches the log for movement and sends tokens along the arrows.
pub fn spawn_tokens(tokens: RwSignal<Vec<Token>>) {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let mut seen_tick = 0u64;
    let mut seen_lost = 0u64;
    let mut next_id = 0u64;
    Effect::new(move |_| {
        ctl.frame.track();
        let now = now_ms();
        let fast = ctl.speed.get_untracked() > DEFAULT_SPEED;
        let mut fresh: Vec<Token> = Vec::new();
        let lost = ctl.counters.with_untracked(|c| c.lost);
        let mut push = |lane, label: String, dup, lost, second| {
            next_id += 1;
            fresh.push(Token {
                id: next_id,
                lane,
                label,
                dup,
                lost,
                second,
                born: now,
            });
        };
        ctl.with_world(|w| {
            if w.tick() < seen_tick {
                seen_tick = 0; // the timeline went back
                seen_lost = lost;
            }
            if fast {
                seen_tick = w.tick();
                seen_lost = lost;
                return;
            }
            let mut died_on = Lane::ApiDb;
            for e in w.log_entries().iter().filter(|e| e.tick > seen_tick) {
                if e.note == Note::Killed {
                    died_on = lane_of_death(w, e);
                }
                if let Some((lane, label, dup)) = token_for(w, e) {
                    // A repeated delivery: the first token again beside the repeat.
                    if dup && lane == Lane::QueueWorker {
                        push(lane, label.clone(), true, false, false);
                        push(lane, label, true, false, true);
                    } else {
                        push(lane, label, dup, false, false);
                    }
                }
            }
            for _ in 0..lost.saturating_sub(seen_lost).min(PER_LANE as u64) {
                push(died_on, i18n.t(Key::CLost).to_string(), false, true, false);
            }
            seen_lost = lost;
            seen_tick = w.tick();
        });
        let stale = |t: &Token| now - t.born > TOKEN_MS;
        let any_stale = tokens.with_untracked(|v| v.iter().any(stale));
        if fresh.is_empty() && !any_stale {
            return;
        }
        tokens.update(|v| {
            v.retain(|t| !stale(t));
            v.extend(fresh);
            keep_newest(v);
        });
    });
}

/// The token a log entry sends, if any: its arrow, its label, and whether it repeats an
/// earlier delivery or effect.
fn token_for(w: &World, e: &LogEntry) -> Option<(Lane, String, bool)> {
    let kind = e
        .proc
        .and_then(|p| w.procs().get(p.0 as usize))
        .map(|p| p.kind);
    let again = |ev: outbox_model::EventId, f: fn(&outbox_model::auditor::Life) -> u16| {
        w.auditor().life(ev).is_some_and(|l| f(l) > 1)
    };
    match (kind, e.note) {
        (Some(ProcKind::Client), Note::Ok) => Some((Lane::ClientApi, "POST".to_string(), false)),
        (Some(ProcKind::Api), Note::Committed) => Some((Lane::ApiDb, "COMMIT".to_string(), false)),
        (Some(ProcKind::Relay), Note::Rows { n }) if n > 0 => {
            Some((Lane::DbRelay, format!("{n}×"), false))
        }
        (_, Note::Added { event, created }) => {
            Some((Lane::RelayQueue, event.to_string(), !created))
        }
        (_, Note::Delivered { event }) => Some((
            Lane::QueueWorker,
            event.to_string(),
            again(event, |l| l.deliveries),
        )),
        (_, Note::Effect { event }) => Some((
            Lane::WorkerEffect,
            event.to_string(),
            again(event, |l| l.effects),
        )),
        _ => None,
    }
}

/// The arrow a process's death loses events from: the API between its COMMIT and the
/// queue, a relay between the outbox and the queue, a worker before its effect.
fn lane_of_death(w: &World, e: &LogEntry) -> Lane {
    let kind = e
        .proc
        .and_then(|p| w.procs().get(p.0 as usize))
        .map(|p| p.kind);
    match kind {
        Some(ProcKind::Client) => Lane::ClientApi,
        Some(ProcKind::Relay | ProcKind::Cdc) => Lane::RelayQueue,
        Some(ProcKind::Worker) => Lane::WorkerEffect,
        _ => Lane::ApiDb,
    }
}

/// Keeps the newest few tokens per arrow.
fn keep_newest(v: &mut Vec<Token>) {
    let mut count = std::collections::BTreeMap::new();
    let mut keep = vec![false; v.len()];
    for (i, t) in v.iter().enumerate().rev() {
        let c = count.entry(t.lane.id()).or_insert(0usize);
        if *c < PER_LANE {
            *c += 1;
            keep[i] = true;
        }
    }
    let mut k = keep.into_iter();
    v.retain(|_| k.next().unwrap_or(false));
}
