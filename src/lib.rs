//! Outbox Playground: a page that teaches the transactional outbox by letting you break it.
//!
//! `main.rs` mounts [`App`]; every other component lives in its own file.

pub mod canon;
pub mod header;
pub mod i18n;
pub mod lang_switch;
pub mod link;
pub mod sim;

use leptos::prelude::*;

use crate::canon::Canon;
use crate::header::Header;
use crate::i18n::{provide_i18n, Lang};

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
                <Canon/>
            </main>
        </div>
    }
}
