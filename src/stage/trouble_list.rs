//! The events a run left in trouble (#42), in the "One event's life" tab: LOST,
//! duplicated and phantom events, each a button with the tick of the blow behind it (the
//! model's cause records, `outbox_model::happened::struck`); pressing one shows its life.
//! A counter's click opens the first of its kind; this list opens every other.

use leptos::prelude::*;
use outbox_model::happened::{happened, struck};

use crate::ctl::use_ctl;
use crate::i18n::{use_i18n, Key};

/// One kind of trouble: its counter's label and its events with the blow's tick.
type Row = (Key, Vec<(u32, Option<u64>)>);

#[component]
pub fn TroubledEvents() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let rows = move || -> Vec<Row> {
        ctl.history_beat.track();
        ctl.with_world(|w| {
            let h = happened(w);
            [
                (Key::CLost, &h.lost),
                (Key::CDupDeliveries, &h.duplicates),
                (Key::CPhantoms, &h.phantoms),
            ]
            .into_iter()
            .filter(|(_, list)| !list.is_empty())
            .map(|(key, list)| {
                let ticks = list.iter().map(|&e| (e.0, struck(w, e).map(|s| s.tick)));
                (key, ticks.collect())
            })
            .collect()
        })
    };
    let button = move |(e, tick): (u32, Option<u64>)| {
        view! {
            <button
                type="button"
                class="life__troubled-event"
                data-testid=format!("life-troubled-{e}")
                data-tick=tick.map(|t| t.to_string())
                aria-pressed=move || (ctl.selected_event.get() == Some(e)).to_string()
                on:click=move |_| ctl.selected_event.set(Some(e))
            >
                {format!("h-{e}")}
                {tick.map(|t| format!(" · t{t}"))}
            </button>
        }
    };
    move || {
        let rows = rows();
        (!rows.is_empty()).then(|| {
            view! {
                <div class="life__troubled" data-testid="life-troubled">
                    <p class="life__troubled-heading">{i18n.t(Key::LifeTroubled)}</p>
                    {rows.into_iter().map(|(key, list)| view! {
                        <p class="life__troubled-row">
                            <span>{i18n.t(key)} ": "</span>
                            {list.into_iter().map(button).collect_view()}
                        </p>
                    }).collect_view()}
                </div>
            }
        })
    }
}
