//! The speaker-notes view (`?notes`), for a second window: it follows the main window's
//! step over the BroadcastChannel and shows the notes, the goal, the answer to the room's
//! guess and what comes next.

use leptos::prelude::*;
use outbox_model::lesson::STEPS;

use crate::browser::broadcast::{use_broadcast, Broadcast};
use crate::i18n::lesson_words::step_words;
use crate::i18n::{tr, use_i18n, Key};
use crate::lesson::ctl::outcome_key;
use crate::lesson::presenter::{parse, CHANNEL, HELLO};

#[component]
pub fn SpeakerNotes() -> impl IntoView {
    let i18n = use_i18n();
    let step = RwSignal::new(None::<usize>);
    let on_message = move |_: &Broadcast, text: String| {
        // `parse` accepts only the main window's exact form with a step that exists.
        if let Some((s, lang)) = parse(&text) {
            step.set(Some(s));
            i18n.set_lang(lang);
        }
    };
    if let Some(channel) = use_broadcast(CHANNEL, on_message) {
        channel.post(HELLO);
    }
    view! {
        <main class="notes" data-testid="speaker-notes">
            <h1 class="notes__heading">{tr(Key::NotesHeading)}</h1>
            {move || match step.get() {
                None => view! { <p data-testid="notes-waiting">{tr(Key::NotesWaiting)}</p> }.into_any(),
                Some(i) => {
                    let Some((st, w)) = STEPS.get(i).and_then(|st| Some((st, step_words(st.id)?))) else {
                        return view! { <p data-testid="notes-waiting">{tr(Key::NotesWaiting)}</p> }.into_any();
                    };
                    let next = STEPS.get(i + 1).and_then(|n| step_words(n.id));
                    view! {
                        <p class="notes__step" data-testid="notes-step" data-step=st.id>
                            {i + 1} ". " {move || i18n.t(w.title)}
                        </p>
                        <p class="notes__text" data-testid="notes-text">{move || i18n.t(w.notes)}</p>
                        <p class="notes__goal">{move || i18n.t(w.goal)}</p>
                        {st.predict.map(|o| view! {
                            <p class="notes__answer">{tr(Key::NotesAnswer)} " " <strong>{move || i18n.t(outcome_key(o))}</strong></p>
                        })}
                        {next.map(|n| view! {
                            <p class="notes__next">{tr(Key::NotesNext)} " " {move || i18n.t(n.title)}</p>
                        })}
                    }.into_any()
                }
            }}
        </main>
    }
}
