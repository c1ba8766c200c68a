//! "What just happened" (#42): once a run has finished, one or two lines under the goal
//! name each kill (where it struck, in the card's words, how often, the tick of the first)
//! and each failed statement (its SQLSTATE and text), then the effect: how many events were
//! lost, duplicated or phantom and why that is, with a button per affected event that
//! opens its life. The facts are the model's (`outbox_model::happened`).
//!
//! Once the model has judged the step's goal reached, a line in the step's own words
//! comes first (as the ROLLBACK step's notice does): what the kill did here, its tick,
//! the event it struck and the counts. Its words are true of the run because the goal
//! says so; its numbers come from the world's cause records and counters.

use leptos::prelude::*;
use outbox_model::happened::{behind, happened, Happened};
use outbox_model::lesson::STEPS;
use outbox_model::world::Cause;
use outbox_model::EventId;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use crate::ctl::Ctl;
use crate::i18n::lesson_words::step_words;
use crate::i18n::words::{error_fact_text, kill_fact_text, kill_place, proc_name};
use crate::i18n::{t, use_i18n, I18n, Key, Lang};
use crate::lesson::ctl::use_lesson;

/// The step's own line: its text (`L…Happened`) with the kill behind the trouble (or the
/// first blow), its tick, the event it struck, and the counts filled in.
fn step_line(ctl: Ctl, lang: Lang, h: &Happened, key: Key) -> (String, Option<u64>) {
    let struck = ctl.with_world(|w| behind(w, h));
    let c = ctl.counters.get_untracked();
    let fact = struck
        .and_then(|s| match s.cause {
            Cause::Kill { step, .. } => h.kills.iter().find(|k| k.step == step),
            _ => None,
        })
        .or(h.kills.first());
    let kill = fact.map_or_else(String::new, |k| {
        format!("{} ({})", proc_name(lang, &k.process), kill_place(lang, k))
    });
    let tick = struck.map(|s| s.tick).or(fact.map(|k| k.tick));
    let event = struck.map_or_else(String::new, |s| format!("h-{}", s.event.0));
    let kills: u32 = h.kills.iter().map(|k| k.times).sum();
    let fills = [
        ("{kill}", kill),
        ("{tick}", tick.unwrap_or(0).to_string()),
        ("{e}", event),
        ("{kills}", kills.to_string()),
        ("{lost}", c.lost.to_string()),
        ("{phantoms}", c.phantoms.to_string()),
        ("{dupfx}", c.duplicate_effects.to_string()),
        ("{dedup}", c.queue_dedup_hits.to_string()),
        ("{tasks}", c.tasks_in_db.to_string()),
        ("{outbox}", c.events_in_outbox.to_string()),
        ("{jobs}", c.queue_jobs.to_string()),
        ("{deliveries}", c.deliveries.to_string()),
        ("{effects}", c.effects.to_string()),
        ("{balance}", c.balance.to_string()),
    ];
    let line = fills
        .iter()
        .fold(t(lang, key).to_string(), |s, (k, v)| s.replace(k, v));
    (line, tick)
}

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

/// Scrolls the lesson's card (not the page) to "what just happened" when it is out of the
/// card's view: on a tablet the card is above the stage at a fixed height and scrolls
/// inside, and moving the page would move the stage.
fn show_in_card() {
    // Tablets only (40–80rem; CSS media queries count 16 px a rem): beside the stage the
    // card keeps its goal in view, as the learner's first screen asks.
    let width = window()
        .inner_width()
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0);
    if !(640.0..1280.0).contains(&width) {
        return;
    }
    let Some(el) = document()
        .query_selector("[data-testid=what-happened]")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
    else {
        return;
    };
    let Some(card) = el.closest(".stage-side").ok().flatten() else {
        return;
    };
    let top = el.offset_top();
    let seen = card.scroll_top()..card.scroll_top() + card.client_height();
    if !seen.contains(&top)
        || !seen.contains(&(top + el.offset_height().min(card.client_height()) - 1))
    {
        card.set_scroll_top(top - 8);
    }
}

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
        request_animation_frame(show_in_card);
        let h = ctl.with_world(happened);
        // The step's own line, once its goal is reached (a workshop's run is not the step's).
        let own = (lesson.course.reached.get() && !lesson.away.get())
            .then(|| step_words(STEPS[lesson.course.step.get()].id))
            .flatten()
            .map(|w| {
                let (line, tick) = step_line(ctl, i18n.lang(), &h, w.happened);
                view! {
                    <p class="lesson__happened-step" data-testid="happened-step"
                        data-tick=tick.map(|t| t.to_string())>{line}</p>
                }
            });
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
                {own}
                {lines.into_iter().map(|l| view! { <p>{l}</p> }).collect_view()}
                {event_buttons(ctl, i18n, &h)}
            </section>
        })
    }
}
