//! «Yangilash» / "Update": offered when a new deployment's service worker is installed
//! and waiting (web/boot.js marks `<html data-outbox-update="ready">` and fires
//! `outbox-update-ready`). The button fires `outbox-update-apply`; boot.js tells the
//! worker to take over and reloads the page once. Ignored, the update is taken on the
//! next load after every tab of the page is closed.

use leptos::prelude::*;

use crate::i18n::{tr, Key};

/// The attribute boot.js sets when an update waits (an event fired before the app
/// mounted would be missed, the attribute is not).
const READY_ATTR: &str = "data-outbox-update";

fn waiting() -> bool {
    document()
        .document_element()
        .and_then(|root| root.get_attribute(READY_ATTR))
        .is_some_and(|v| v == "ready")
}

#[component]
pub fn UpdateOffer() -> impl IntoView {
    let ready = RwSignal::new(waiting());
    let handle = window_event_listener_untyped("outbox-update-ready", move |_| ready.set(true));
    on_cleanup(move || handle.remove());
    let apply = move |_| {
        if let Ok(event) = web_sys::Event::new("outbox-update-apply") {
            let _ = window().dispatch_event(&event);
        }
    };
    view! {
        <Show when=move || ready.get()>
            <div class="update-offer" role="status" data-testid="update-offer">
                <span class="update-offer__text">{tr(Key::UpdateReady)}</span>
                <button type="button" class="update-offer__button" data-testid="update-apply" on:click=apply>
                    {tr(Key::UpdateButton)}
                </button>
            </div>
        </Show>
    }
}
