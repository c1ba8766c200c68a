//! The one BroadcastChannel set-up, shared by the presenter's page and its speaker-notes
//! window: open a channel for as long as a component lives, hear its text messages, post
//! text on it. The channel and its listener are closed in `on_cleanup`.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// An open channel (cheap to clone: the browser's object is shared).
#[derive(Clone)]
pub struct Broadcast(web_sys::BroadcastChannel);

impl Broadcast {
    /// Posts `text` to every other window on this origin that listens on the channel.
    pub fn post(&self, text: &str) {
        let _ = self.0.post_message(&JsValue::from_str(text));
    }
}

/// Opens channel `name` until the calling component is cleaned up; `on_message` gets the
/// channel (to answer on it) and each message that is text (anything else is ignored).
/// None when the browser has no BroadcastChannel.
pub fn use_broadcast(
    name: &str,
    on_message: impl Fn(&Broadcast, String) + 'static,
) -> Option<Broadcast> {
    let channel = Broadcast(web_sys::BroadcastChannel::new(name).ok()?);
    let answer = channel.clone();
    let listener =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |m: web_sys::MessageEvent| {
            if let Some(text) = m.data().as_string() {
                on_message(&answer, text);
            }
        });
    channel
        .0
        .set_onmessage(Some(listener.as_ref().unchecked_ref()));
    // Kept (not forgotten) until the cleanup, which unhooks and frees it.
    let parts = StoredValue::new_local((channel.clone(), listener));
    on_cleanup(move || {
        parts.with_value(|(channel, _)| {
            channel.0.set_onmessage(None);
            channel.0.close();
        })
    });
    Some(channel)
}
