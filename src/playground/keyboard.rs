//! The playground's keys (the lesson's clicker keys are in [`crate::lesson::presenter`]).

use leptos::ev;
use leptos::prelude::*;

use crate::browser::keys::page_key_target;
use crate::playground::ctl::Ctl;

/// Space, `.`, `,`, `k`, `?` and Escape, unless the user is typing in a field.
pub fn keyboard(ctl: Ctl) {
    let handle = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        let Some(tag) = page_key_target(&e) else {
            return;
        };
        match e.key().as_str() {
            " " if tag != "BUTTON" => {
                e.prevent_default();
                ctl.toggle_play();
            }
            "." => ctl.step_once(),
            "," => ctl.back(),
            "k" | "K" => ctl.arm_selected(),
            "?" => ctl.help_open.update(|o| *o = !*o),
            "Escape" => ctl.help_open.set(false),
            _ => {}
        }
    });
    on_cleanup(move || handle.remove());
}
