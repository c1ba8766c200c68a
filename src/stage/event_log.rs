//! The event log: the newest entries of the model's capped log, newest first. An event id
//! opens that event's lifecycle.

use leptos::prelude::*;
use outbox_model::view::note_event;
use outbox_model::world::Wait;
use outbox_model::{EventId, World};

use crate::ctl::{use_ctl, Ctl};
use crate::i18n::words::{actor, error_fact_text, kill_fact_text, note_text, proc_name, step_name};
use crate::i18n::{tr, use_i18n, Key, Lang};

/// Entries shown (the model keeps more).
const SHOWN: usize = 30;

#[component]
pub fn EventLog() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let entries = move || {
        ctl.history_beat.track();
        let lang = i18n.lang();
        ctl.with_world(|w| entries_of(lang, w))
    };
    let rows = move || {
        let v = entries();
        if v.is_empty() {
            return view! { <li class="log__empty">{i18n.t(Key::LogEmpty)}</li> }.into_any();
        }
        v.into_iter()
            .map(|entry| log_entry(ctl, entry))
            .collect_view()
            .into_any()
    };
    // The run's kills and failed statements stay on top: the capped log drops them (#42).
    let pinned = move || {
        ctl.history_beat.track();
        let lang = i18n.lang();
        let h = ctl.with_world(outbox_model::happened::pinned_facts);
        let mut lines: Vec<String> = h.kills.iter().map(|k| kill_fact_text(lang, k)).collect();
        lines.extend(h.errors.iter().map(|x| error_fact_text(lang, x)));
        (!lines.is_empty()).then(|| view! {
            <div class="log__pinned" data-testid="log-pinned">
                <h3 class="log__pinned-heading">{i18n.t(Key::LogPinned)}</h3>
                <ul>{lines.into_iter().map(|l| view! { <li class="log__entry log__entry--killed">{l}</li> }).collect_view()}</ul>
            </div>
        })
    };
    view! {
        <section class="log panel" data-testid="event-log" aria-labelledby="log-heading">
            <h2 id="log-heading" class="panel__heading">{tr(Key::LogHeading)}</h2>
            {pinned}
            <ol class="log__list" tabindex="0" aria-labelledby="log-heading">{rows}</ol>
        </section>
    }
}

/// A shown entry: tick, who, step, what happened, its event, whether it was a kill.
type Entry = (u64, String, Option<String>, String, Option<EventId>, bool);

/// The newest [`SHOWN`] entries of the log, newest first, in words.
fn entries_of(lang: Lang, w: &World) -> Vec<Entry> {
    let names: Vec<String> = w.procs().iter().map(|p| p.name.clone()).collect();
    let who = |wait: Wait| match wait {
        Wait::Tx(t) => w
            .procs()
            .iter()
            .find(|p| p.tx == Some(t))
            .map(|p| proc_name(lang, &p.name))
            .unwrap_or_else(|| format!("tx {t}")),
        Wait::Queue => proc_name(lang, "redis"),
    };
    w.log_entries()
        .iter()
        .rev()
        .take(SHOWN)
        .map(|e| {
            (
                e.tick,
                actor(lang, e, &names),
                e.step.map(|s| step_name(lang, s)),
                note_text(lang, &e.note, who),
                note_event(&e.note),
                matches!(e.note, outbox_model::world::Note::Killed),
            )
        })
        .collect::<Vec<_>>()
}

/// One entry's line; its event, if any, opens that event's lifecycle.
fn log_entry(ctl: Ctl, (tick, who, step, text, ev, killed): Entry) -> impl IntoView {
    let ev_button = ev.map(|e| {
        view! {
            <button
                type="button"
                class="log__event"
                data-testid="log-event"
                on:click=move |_| ctl.open_event(e.0)
            >
                {e.to_string()}
            </button>
        }
    });
    view! {
        <li class="log__entry" class:log__entry--killed=killed>
            <span class="log__tick">{format!("t{tick}")}</span>
            <span class="log__who">{who}</span>
            <span class="log__step">{step}</span>
            <span class="log__text">{text}</span>
            {ev_button}
        </li>
    }
}
