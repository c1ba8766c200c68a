//! The pipeline, drawn as stages a room can read: client → API → PostgreSQL (tasks ·
//! outbox · inbox) → relay(s) → queue → worker(s) → effect. Tokens cross the arrows as the
//! log reports events moving.

pub mod arrow;
pub mod business_effects;
pub mod db_tables;
pub mod process_card;
pub mod queue_view;

use leptos::prelude::*;
use outbox_model::world::{Note, ProcKind};

use crate::browser::frames::now_ms;
use crate::i18n::{tr, Key};
use crate::playground::ctl::{use_ctl, DEFAULT_SPEED};
use crate::playground::pipeline::arrow::{Arrow, Lane, Token, Tokens};
use crate::playground::pipeline::business_effects::BusinessEffects;
use crate::playground::pipeline::db_tables::DbTables;
use crate::playground::pipeline::process_card::ProcessCard;
use crate::playground::pipeline::queue_view::QueueView;

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
fn spawn_tokens(tokens: RwSignal<Vec<Token>>) {
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
            if w.tick < seen_tick {
                seen_tick = 0; // the timeline went back
            }
            if still || fast {
                seen_tick = w.tick;
                return;
            }
            for e in w.log.iter().filter(|e| e.tick > seen_tick) {
                let kind = e
                    .proc
                    .and_then(|p| w.procs.get(p.0 as usize))
                    .map(|p| p.kind);
                let again =
                    |ev: outbox_model::EventId, f: fn(&outbox_model::auditor::Life) -> u16| {
                        w.auditor.life(ev).is_some_and(|l| f(l) > 1)
                    };
                let t = match (kind, e.note) {
                    (Some(ProcKind::Client), Note::Ok) => {
                        Some((Lane::ClientApi, "POST".to_string(), false))
                    }
                    (Some(ProcKind::Api), Note::Committed) => {
                        Some((Lane::ApiDb, "COMMIT".to_string(), false))
                    }
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
                };
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
            seen_tick = w.tick;
        });
        let stale = |t: &Token| now - t.born > TOKEN_MS;
        let any_stale = tokens.with_untracked(|v| v.iter().any(stale));
        if fresh.is_empty() && !any_stale {
            return;
        }
        tokens.update(|v| {
            v.retain(|t| !stale(t));
            v.extend(fresh);
            // Keep the newest few per arrow.
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
        });
    });
}

#[component]
pub fn Pipeline() -> impl IntoView {
    let ctl = use_ctl();
    let tokens = RwSignal::new(Vec::<Token>::new());
    provide_context(Tokens(tokens));
    spawn_tokens(tokens);

    // Process names by kind; the set changes only with the scenario.
    let names = move |kind: ProcKind| {
        ctl.scenario_version.track();
        ctl.sim.with_value(|s| {
            s.world
                .procs
                .iter()
                .filter(|p| p.kind == kind)
                .map(|p| p.name.clone())
                .collect::<Vec<_>>()
        })
    };
    let cards = move |kind: ProcKind| {
        move || {
            names(kind)
                .into_iter()
                .map(|name| view! { <ProcessCard name=name/> })
                .collect_view()
        }
    };
    let no_relay = move || names(ProcKind::Relay).is_empty() && names(ProcKind::Cdc).is_empty();
    let no_worker = move || names(ProcKind::Worker).is_empty();
    let has_session = move || !names(ProcKind::Session).is_empty();

    view! {
        <section class="pipeline" data-testid="pipeline" aria-labelledby="pipeline-heading">
            <h2 id="pipeline-heading" class="pipeline__heading">{tr(Key::PipelineHeading)}</h2>
            <div class="pipeline__flow">
                <div class="stage-col" data-stage="client">
                    <h3 class="stage-col__title">{tr(Key::ColClient)}</h3>
                    {cards(ProcKind::Client)}
                    <Show when=has_session>{cards(ProcKind::Session)}</Show>
                </div>
                <Arrow lane=Lane::ClientApi/>
                <div class="stage-col" data-stage="api">
                    <h3 class="stage-col__title">{tr(Key::ColApi)}</h3>
                    {cards(ProcKind::Api)}
                </div>
                <Arrow lane=Lane::ApiDb/>
                <div class="stage-col stage-col--wide" data-stage="db">
                    <h3 class="stage-col__title">{tr(Key::ColPostgres)}</h3>
                    <DbTables/>
                    {cards(ProcKind::Cleaner)}
                </div>
                <Arrow lane=Lane::DbRelay/>
                <div class="stage-col" data-stage="relay">
                    <h3 class="stage-col__title">{tr(Key::ColRelays)}</h3>
                    <Show when=no_relay>
                        <p class="stage-col__note">{tr(Key::NoRelays)}</p>
                    </Show>
                    {cards(ProcKind::Relay)}
                    {cards(ProcKind::Cdc)}
                </div>
                <Arrow lane=Lane::RelayQueue/>
                <div class="stage-col" data-stage="queue">
                    <h3 class="stage-col__title">{tr(Key::ColQueue)}</h3>
                    <QueueView/>
                </div>
                <Arrow lane=Lane::QueueWorker/>
                <div class="stage-col" data-stage="worker">
                    <h3 class="stage-col__title">{tr(Key::ColWorkers)}</h3>
                    <Show when=no_worker>
                        <p class="stage-col__note">{tr(Key::NoWorkers)}</p>
                    </Show>
                    {cards(ProcKind::Worker)}
                </div>
                <Arrow lane=Lane::WorkerEffect/>
                <div class="stage-col" data-stage="effect">
                    <h3 class="stage-col__title">{tr(Key::ColEffect)}</h3>
                    <BusinessEffects/>
                </div>
            </div>
        </section>
    }
}
