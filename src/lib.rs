//! Outbox Playground: a page that teaches the transactional outbox by letting you break it.
//!
//! `main.rs` mounts [`App`]; every other component lives in its own file.

pub mod app;
pub mod browser;
pub mod challenge;
pub mod ctl;
pub mod error_panel;
pub mod i18n;
pub mod lesson;
pub mod lms;
pub mod proof;
pub mod run;
pub mod stage;
pub mod update_offer;

use leptos::either::Either;
use leptos::prelude::*;

use crate::app::header::Header;
use crate::app::page::Playground;
use crate::browser::languages;
use crate::browser::url::url_param;
use crate::i18n::{provide_i18n, Lang};
use crate::lesson::speaker_notes::SpeakerNotes;
use crate::update_offer::UpdateOffer;

/// The language the page opens in: `?lang=ru` first, then the saved choice (which
/// `restore_settings` keeps in step), then the browser's preferred languages, Uzbek
/// otherwise. main.rs fetches its texts before mounting, so the first paint is in it.
pub fn start_lang() -> Lang {
    // Read, not loaded: corrupt settings are reported and set aside by `restore_settings`.
    let saved = || {
        let text = crate::browser::storage::get(crate::browser::storage::SETTINGS_KEY)?;
        let settings: crate::browser::storage::Settings = serde_json::from_str(&text).ok()?;
        Lang::from_code(&settings.lang)
    };
    url_param("lang")
        .and_then(|c| Lang::from_code(&c))
        .or_else(saved)
        .or_else(languages::preferred)
        .unwrap_or_default()
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let i18n = provide_i18n(start_lang());

    // Keep `<html lang>` in step with the switch (screen readers, hyphenation).
    Effect::new(move |_| {
        let code = i18n.lang().code();
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("lang", code);
        }
    });

    // `?notes`: the speaker-notes window, nothing else.
    if url_param("notes").is_some() {
        // Opened by an embedded page, whose channel cannot reach this window (#45).
        crate::app::embed::notes();
        return Either::Left(view! { <SpeakerNotes/> });
    }

    // Either, not `into_any()`: erasing the whole page's view type made fat LTO fail on
    // wasm32 ("failed to get bitcode from object file for LTO").
    Either::Right(view! {
        <div class="app">
            <UpdateOffer/>
            <Header/>
            <main class="stage" data-testid="stage">
                <Playground/>
            </main>
        </div>
    })
}
