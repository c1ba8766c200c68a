//! Outbox Playground: a page that teaches the transactional outbox by letting you break it.
//!
//! `main.rs` mounts [`App`]; every other component lives in its own file.

pub mod arrow;
pub mod chart;
pub mod controls;
pub mod counters;
pub mod course;
pub mod course_panel;
pub mod ctl;
pub mod db_tables;
pub mod effects;
pub mod error_panel;
pub mod event_log;
pub mod exercises;
pub mod faults;
pub mod header;
pub mod help;
pub mod i18n;
pub mod jobs;
pub mod lang_switch;
pub mod lesson;
pub mod lesson_words;
pub mod lifecycle;
pub mod link;
pub mod lockstep;
pub mod modes;
pub mod notice_bar;
pub mod pipeline;
pub mod playground;
pub mod predict;
pub mod presenter;
pub mod process_card;
pub mod proof;
pub mod queue_view;
pub mod quiz;
pub mod sequence;
pub mod sim;
pub mod speaker_notes;
pub mod sql_panel;
pub mod storage;
pub mod trace_io;
pub mod words;

use leptos::either::Either;
use leptos::prelude::*;

use crate::header::Header;
use crate::i18n::{provide_i18n, Lang};
use crate::playground::Playground;
use crate::presenter::url_param;
use crate::speaker_notes::SpeakerNotes;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    // `?lang=en` chooses the language (over the saved one).
    let lang = url_param("lang")
        .and_then(|c| Lang::from_code(&c))
        .unwrap_or_default();
    let i18n = provide_i18n(lang);

    // Keep `<html lang>` in step with the switch (screen readers, hyphenation).
    Effect::new(move |_| {
        let code = i18n.lang().code();
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("lang", code);
        }
    });

    // `?notes`: the speaker-notes window, nothing else.
    if url_param("notes").is_some() {
        return Either::Left(view! { <SpeakerNotes/> });
    }

    // Either, not `into_any()`: erasing the whole page's view type made fat LTO fail on
    // wasm32 ("failed to get bitcode from object file for LTO").
    Either::Right(view! {
        <div class="app">
            <Header/>
            <main class="stage" data-testid="stage">
                <Playground/>
            </main>
        </div>
    })
}
