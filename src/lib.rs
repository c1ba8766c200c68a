//! Outbox Playground: a page that teaches the transactional outbox by letting you break it.
//!
//! `main.rs` mounts [`App`]; every other component lives in its own file.

pub mod arrow;
pub mod chart;
pub mod controls;
pub mod counters;
pub mod ctl;
pub mod db_tables;
pub mod effects;
pub mod error_panel;
pub mod event_log;
pub mod faults;
pub mod header;
pub mod help;
pub mod i18n;
pub mod lang_switch;
pub mod lifecycle;
pub mod link;
pub mod modes;
pub mod notice_bar;
pub mod pipeline;
pub mod playground;
pub mod process_card;
pub mod queue_view;
pub mod sim;
pub mod sql_panel;
pub mod storage;
pub mod words;

use leptos::prelude::*;

use crate::header::Header;
use crate::i18n::{provide_i18n, Lang};
use crate::playground::Playground;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let i18n = provide_i18n(Lang::default());

    // Keep `<html lang>` in step with the switch (screen readers, hyphenation).
    Effect::new(move |_| {
        let code = i18n.lang().code();
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("lang", code);
        }
    });

    view! {
        <div class="app">
            <Header/>
            <main class="stage" data-testid="stage">
                <Playground/>
            </main>
        </div>
    }
}
