//! "What just happened" (#42): once a run has finished, one or two lines under the goal
//! name each kill (where it struck, in the card's words, how often, the tick of the first)
//! and each failed statement (its SQLSTATE and text), then the effect: how many events were
//! lost, duplicated or phantom and why that is, with a button per affected event that
//! opens its life. The facts are the model's (`outbox_model::happened`).

use leptos::prelude::*;
use outbox_model::happened::{happened, Happened};
use outbox_model::EventId;

use crate::ctl::Ctl;
use crate::i18n::words::{error_fact_text, kill_fact_text};
use crate::i18n::{use_i18n, I18n, Key};
use crate::lesson::ctl::use_lesson;

/// The effect, and why it is what it is.
fn effect_line(i18n: I18n, h: &Happened) -> String {
    let why = if !h.lost.is_empty() {
        Key::HappenedWhyLost
    } else if !h.phantoms.is_empty() {
        Key::HappenedWhyPhantom
    } else if !h.duplicates.is_empty() {
        Key::HappenedWhyDuplicate
    } else {
        Key::HappenedWhyFine
    };
    format!(
        "{} {}",
        i18n.t(Key::HappenedEffect)
            .replace("{lost}", &h.lost.len().to_string())
            .replace("{dup}", &h.duplicates.len().to_string())
            .replace("{phantoms}", &h.phantoms.len().to_string()),
        i18n.t(why)
    )
}

/// A button per affected event (the first ones of each kind): it opens the event's life.
fn event_buttons(ctl: Ctl, i18n: I18n, h: &Happened) -> impl IntoView {
    let kinds = [
        (Key::CLost, &h.lost),
        (Key::CDupDeliveries, &h.duplicates),
        (Key::CPhantoms, &h.phantoms),
    ];
    let mut buttons = Vec::new();
    for (label, list) in kinds {
        for &EventId(e) in list.iter().take(EVENTS_SHOWN) {
            buttons.push(view! {
                <button type="button" class="lesson__happened-event" data-testid=format!("happened-event-{e}")
                    on:click=move |_| ctl.open_event(e)>
                    {format!("h-{e} · {}", i18n.t(label))}
                </button>
            });
        }
    }
    (!buttons.is_empty()).then(|| {
        view! {
            <p class="lesson__happened-events">{i18n.t(Key::HappenedOpen)} " " {buttons}</p>
        }
    })
}

/// Events of each kind offered as buttons.
const EVENTS_SHOWN: usize = 5;

#[component]
pub fn WhatHappened() -> impl IntoView {
    let lesson = use_lesson();
    let ctl = lesson.ctl;
    let i18n = use_i18n();
    move || {
        // The summaries' beat, not every frame: a finished run bumps it (`tell_panels`).
        ctl.summary_beat.track();
        if !ctl.finished() {
            return None;
        }
        let h = ctl.with_world(happened);
        let mut lines: Vec<String> = h
            .kills
            .iter()
            .map(|k| kill_fact_text(i18n.lang(), k))
            .collect();
        lines.extend(h.errors.iter().map(|x| error_fact_text(i18n.lang(), x)));
        if lines.is_empty() {
            lines.push(i18n.t(Key::HappenedNothing).to_string());
        }
        lines.push(effect_line(i18n, &h));
        Some(view! {
            <section class="lesson__happened" data-testid="what-happened" aria-live="polite">
                <h3 class="lesson__happened-heading">{i18n.t(Key::HappenedHeading)}</h3>
                {lines.into_iter().map(|l| view! { <p>{l}</p> }).collect_view()}
                {event_buttons(ctl, i18n, &h)}
            </section>
        })
    }
}
