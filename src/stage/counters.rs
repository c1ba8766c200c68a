//! The live counters: large, colour-coded numbers a room can read, the lesson's line when a
//! canon scenario runs, and a polite live region that speaks when a loss or a duplicate
//! counter changes.

use leptos::prelude::*;
use outbox_model::Counters;

use crate::ctl::use_ctl;
use crate::i18n::{tr, use_i18n, Key};
use crate::stage::relay_locks::RelayLocks;

/// One counter tile: its JSON name (for tests), label, tone, and how to read it.
struct Tile {
    name: &'static str,
    label: Key,
    tone: &'static str,
    get: fn(&Counters) -> u64,
}

const FLOW: &[Tile] = &[
    Tile {
        name: "tasks_in_db",
        label: Key::CInDb,
        tone: "neutral",
        get: |c| c.tasks_in_db,
    },
    Tile {
        name: "events_in_outbox",
        label: Key::COutbox,
        tone: "neutral",
        get: |c| c.events_in_outbox,
    },
    Tile {
        name: "queue_jobs",
        label: Key::CQueue,
        tone: "neutral",
        get: |c| c.queue_jobs,
    },
    Tile {
        name: "deliveries",
        label: Key::CDelivered,
        tone: "ok",
        get: |c| c.deliveries,
    },
    Tile {
        name: "effects",
        label: Key::CEffects,
        tone: "ok",
        get: |c| c.effects,
    },
];

const HARM: &[Tile] = &[
    Tile {
        name: "lost",
        label: Key::CLost,
        tone: "lost",
        get: |c| c.lost,
    },
    // Beside LOST, and apart from it: a job in BullMQ's failed set is kept and waits for
    // a retry; lost events have nothing left that could deliver them.
    Tile {
        name: "failed_needs_retry",
        label: Key::CFailedRetry,
        tone: "failed",
        get: |c| c.failed_needs_retry,
    },
    Tile {
        name: "duplicate_deliveries",
        label: Key::CDupDeliveries,
        tone: "dup",
        get: |c| c.duplicate_deliveries,
    },
    Tile {
        name: "duplicate_effects",
        label: Key::CDupEffects,
        tone: "dup",
        get: |c| c.duplicate_effects,
    },
    Tile {
        name: "phantoms",
        label: Key::CPhantoms,
        tone: "phantom",
        get: |c| c.phantoms,
    },
];

const SMALL: &[Tile] = &[
    Tile {
        name: "events_unpublished",
        label: Key::CUnpublished,
        tone: "neutral",
        get: |c| c.events_unpublished,
    },
    Tile {
        name: "queue_dedup_hits",
        label: Key::CDedup,
        tone: "neutral",
        get: |c| c.queue_dedup_hits,
    },
    Tile {
        name: "reordered",
        label: Key::CReordered,
        tone: "neutral",
        get: |c| c.reordered,
    },
    Tile {
        name: "stuck",
        label: Key::CStuck,
        tone: "neutral",
        get: |c| c.stuck,
    },
    Tile {
        name: "oldest_unpublished_age_ticks",
        label: Key::CLag,
        tone: "neutral",
        get: |c| c.oldest_unpublished_age_ticks,
    },
    Tile {
        name: "balance",
        label: Key::CBalance,
        tone: "neutral",
        get: |c| c.balance,
    },
    Tile {
        name: "tick",
        label: Key::CTick,
        tone: "neutral",
        get: |c| c.tick,
    },
];

/// A counter's label as the stage shows it, by its model name (the challenge builder
/// names counters so, #42); None for a counter the stage has no tile for.
pub fn counter_label(name: &str) -> Option<Key> {
    [FLOW, HARM, SMALL]
        .iter()
        .flat_map(|l| l.iter())
        .find(|t| t.name == name)
        .map(|t| t.label)
}

/// The trouble a counter counts, for the ones that open an event's life.
fn trouble_of(name: &str) -> Option<outbox_model::view::Trouble> {
    use outbox_model::view::Trouble;
    match name {
        "lost" => Some(Trouble::Lost),
        "duplicate_deliveries" => Some(Trouble::Duplicate),
        "duplicate_effects" => Some(Trouble::DuplicateEffect),
        "phantoms" => Some(Trouble::Phantom),
        _ => None,
    }
}

fn tiles(list: &'static [Tile], class: &'static str) -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    list.iter()
        .map(|tile| {
            let value = move || ctl.counters.with(|c| (tile.get)(c));
            // LOST, duplicates and phantoms open their first event's life (#42).
            let trouble = trouble_of(tile.name);
            let open = move || {
                if let Some(t) = trouble.filter(|_| value() > 0) {
                    ctl.open_trouble(t);
                }
            };
            view! {
                <div
                    role=trouble.map(|_| "button")
                    tabindex=trouble.map(|_| "0")
                    title=move || trouble.map(|_| i18n.t(Key::CounterOpensLife))
                    on:click=move |_| open()
                    on:keydown=move |e| if e.key() == "Enter" { open() }
                    class=move || {
                        let hot = if value() > 0 { " counter--hot" } else { "" };
                        format!("counter {class} counter--{}{hot}", tile.tone)
                    }
                    data-testid=format!("counter-{}", tile.name)
                >
                    <span class="counter__value" data-testid=format!("count-{}", tile.name)>
                        {move || value().to_string()}
                    </span>
                    <span class="counter__label">{move || i18n.t(tile.label)}</span>
                </div>
            }
        })
        .collect_view()
}

#[component]
pub fn CountersPanel() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let canon = move || {
        ctl.scenario_version.track();
        ctl.with_scenario(|s| s.measurement)
    };
    let line = move || {
        canon().then(|| {
            let c = ctl.counters.get();
            // The republish run's line says the repeat changed nothing (#43: "o'sha hodisa
            // qayta yuborildi → navbatda baribir 100").
            let key = if c.queue_dedup_hits > 0 {
                Key::CanonLineRepublish
            } else {
                Key::CanonLine
            };
            i18n.t(key)
                .replace("{db}", &c.tasks_in_db.to_string())
                .replace("{q}", &c.queue_jobs.to_string())
        })
    };
    // Spoken only when a harm counter changes, and at the summaries' beat.
    let announce = Memo::new(move |_| {
        ctl.summary_beat.track();
        let c = ctl.counters.get_untracked();
        (
            c.lost,
            c.duplicate_deliveries,
            c.duplicate_effects,
            c.phantoms,
        )
    });
    let spoken = move || {
        let (lost, dd, de, ph) = announce.get();
        i18n.t(Key::Announce)
            .replace("{lost}", &lost.to_string())
            .replace("{dd}", &dd.to_string())
            .replace("{de}", &de.to_string())
            .replace("{ph}", &ph.to_string())
    };
    // A phone shows the four counters that matter in a strip; the rest on a tap (#42).
    let more = RwSignal::new(false);
    view! {
        <div class="counters" class:counters--more=move || more.get() data-testid="counters">
            <h2 class="visually-hidden">{tr(Key::CountersHeading)}</h2>
            <div class="counters__row counters__row--flow">{tiles(FLOW, "counter--big")}</div>
            <div class="counters__row counters__row--harm">{tiles(HARM, "counter--big")}</div>
            <div class="counters__row counters__row--small">{tiles(SMALL, "counter--small")}<RelayLocks/></div>
            <p class="counters__canon" data-testid="canon-line" hidden=move || !canon()>{line}</p>
            <button
                type="button"
                class="counters__more"
                data-testid="counters-more"
                aria-expanded=move || more.get().to_string()
                on:click=move |_| more.update(|m| *m = !*m)
            >
                {move || i18n.t(if more.get() { Key::CountersFewer } else { Key::CountersMore })}
            </button>
            <p class="visually-hidden" aria-live="polite" data-testid="live-region">{spoken}</p>
        </div>
    }
}
