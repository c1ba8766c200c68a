//! The pipeline, drawn as stages a room can read: client → API → PostgreSQL (tasks ·
//! outbox · inbox) → relay(s) → queue → worker(s) → effect. Tokens cross the arrows as the
//! log reports events moving.

pub mod arrow;
pub mod business_effects;
pub mod db_tables;
pub mod fnv;
pub mod process_card;
pub mod queue_view;
pub mod tokens;

use leptos::prelude::*;
use outbox_model::world::ProcKind;

use crate::ctl::{use_ctl, Ctl};
use crate::i18n::{tr, Key};
use crate::stage::pipeline::arrow::{Arrow, Lane, Token, Tokens};
use crate::stage::pipeline::business_effects::BusinessEffects;
use crate::stage::pipeline::db_tables::DbTables;
use crate::stage::pipeline::fnv::fnv_hash;
use crate::stage::pipeline::process_card::ProcessCard;
use crate::stage::pipeline::queue_view::QueueView;
use crate::stage::pipeline::tokens::spawn_tokens;

#[component]
pub fn Pipeline() -> impl IntoView {
    let ctl = use_ctl();
    let tokens = RwSignal::new(Vec::<Token>::new());
    provide_context(Tokens(tokens));
    spawn_tokens(tokens);

    let names = move |kind: ProcKind| proc_names(ctl, kind);
    let cards = move |kind: ProcKind| view! { <ProcCards kind/> };
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

/// The names of the processes of one kind; the set changes only with the scenario.
fn proc_names(ctl: Ctl, kind: ProcKind) -> Vec<String> {
    ctl.scenario_version.track();
    ctl.with_world(|w| {
        w.procs()
            .iter()
            .filter(|p| p.kind == kind)
            .map(|p| p.name.clone())
            .collect::<Vec<_>>()
    })
}

/// A card for every process of one kind (redrawn when the scenario changes).
#[component]
fn ProcCards(kind: ProcKind) -> impl IntoView {
    let ctl = use_ctl();
    // A reset of the same scenario keeps the cards (the same names) instead of drawing
    // them anew, which held ~10 KB more per reset (tests/memory.rs). The memo holds a
    // hash of the names: a memo of the names themselves cost ~1 KB of the size cap.
    let key = Memo::new(move |_| fnv_hash(&proc_names(ctl, kind)));
    move || {
        // Read, not only tracked: a memo nobody reads is never computed, so it would
        // never learn that the names changed.
        let _ = key.get();
        untrack(|| proc_names(ctl, kind))
            .into_iter()
            .map(|name| view! { <ProcessCard name=name/> })
            .collect_view()
    }
}
