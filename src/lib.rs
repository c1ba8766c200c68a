//! Outbox Playground: a page that teaches the transactional outbox by letting you break it.
//!
//! `main.rs` mounts [`App`]; every other component lives in its own file.

pub mod browser;
pub mod error_panel;
pub mod header;
pub mod i18n;
pub mod lang_switch;
pub mod lesson;
pub mod playground;
pub mod proof;
pub mod run;

use leptos::either::Either;
use leptos::prelude::*;

use crate::browser::url::url_param;
use crate::header::Header;
use crate::i18n::{provide_i18n, Lang};
use crate::lesson::speaker_notes::SpeakerNotes;
use crate::playground::Playground;

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
