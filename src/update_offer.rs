//! «Yangilash» / "Update": offered when a new deployment's service worker is installed
//! and waiting (web/boot.js marks `<html data-outbox-update="ready">` and fires
//! `outbox-update-ready`). The button fires `outbox-update-apply`; boot.js tells the
//! worker to take over and reloads the page once. Ignored, the update is taken on the
//! next load after every tab of the page is closed.
//!
//! When the update is taken in another tab, this tab is of the older build and its
//! build's cache is gone (#40): boot.js marks `data-outbox-update="updated"` and fires
//! `outbox-updated`, and the offer becomes "the page was updated: reload".

use leptos::prelude::*;

use crate::i18n::{tr, Key};

/// The attribute boot.js sets when an update waits (an event fired before the app
/// mounted would be missed, the attribute is not).
const READY_ATTR: &str = "data-outbox-update";

/// What boot.js has said: nothing, an update waits, or another tab took it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Update {
    None,
    Ready,
    TakenElsewhere,
}

fn marked() -> Update {
    let value = document()
        .document_element()
        .and_then(|root| root.get_attribute(READY_ATTR));
    match value.as_deref() {
        Some("ready") => Update::Ready,
        Some("updated") => Update::TakenElsewhere,
        _ => Update::None,
    }
}

#[component]
pub fn UpdateOffer() -> impl IntoView {
    let state = RwSignal::new(marked());
    let ready = window_event_listener_untyped("outbox-update-ready", move |_| {
        if state.get_untracked() == Update::None {
            state.set(Update::Ready);
        }
    });
    let updated =
        window_event_listener_untyped("outbox-updated", move |_| state.set(Update::TakenElsewhere));
    on_cleanup(move || {
        ready.remove();
        updated.remove();
    });
    let apply = move |_| {
        if let Ok(event) = web_sys::Event::new("outbox-update-apply") {
            let _ = window().dispatch_event(&event);
        }
    };
    let reload = move |_| {
        let _ = window().location().reload();
    };
    view! {
        <Show when=move || state.get() == Update::Ready>
            <div class="update-offer" role="status" data-testid="update-offer">
                <span class="update-offer__text">{tr(Key::UpdateReady)}</span>
                <button type="button" class="update-offer__button" data-testid="update-apply" on:click=apply>
                    {tr(Key::UpdateButton)}
                </button>
            </div>
        </Show>
        <Show when=move || state.get() == Update::TakenElsewhere>
            <div class="update-offer" role="status" data-testid="update-taken">
                <span class="update-offer__text">{tr(Key::UpdateTakenElsewhere)}</span>
                <button type="button" class="update-offer__button" data-testid="update-reload" on:click=reload>
                    {tr(Key::UpdateReload)}
                </button>
            </div>
        </Show>
    }
}
