//! The tokens that cross the pipeline's arrows: which log entry sends one (and along
//! which arrow, with what label, marked when it repeats), and how many stay alive.

use leptos::prelude::*;
use outbox_model::world::{LogEntry, Note, ProcKind};
use outbox_model::World;

use crate::browser::frames::now_ms;
use crate::playground::ctl::{use_ctl, DEFAULT_SPEED};
use crate::playground::pipeline::arrow::{Lane, Token};

/// Tokens alive per arrow, and how long one takes to cross.
const PER_LANE: usize = 3;
const TOKEN_MS: f64 = 900.0;

fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// Watches the log for movement and sends tokens along the arrows.
pub fn spawn_tokens(tokens: RwSignal<Vec<Token>>) {
    let ctl = use_ctl();
    let still = reduced_motion();
    let mut seen_tick = 0u64;
    let mut next_id = 0u64;
    Effect::new(move |_| {
        ctl.frame.track();
        let now = now_ms();
        let fast = ctl.speed.get_untracked() > DEFAULT_SPEED;
        let mut fresh: Vec<Token> = Vec::new();
        ctl.sim.with_value(|sim| {
            let w = &sim.world;
            if w.tick() < seen_tick {
                seen_tick = 0; // the timeline went back
            }
            if still || fast {
                seen_tick = w.tick();
                return;
            }
            for e in w.log_entries().iter().filter(|e| e.tick > seen_tick) {
                let t = token_for(w, e);
                if let Some((lane, label, dup)) = t {
                    next_id += 1;
                    fresh.push(Token {
                        id: next_id,
                        lane,
                        label,
                        dup,
                        born: now,
                    });
                }
            }
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
