//! The playground's keys (the lesson's clicker keys are in [`crate::lesson::presenter`]).
//! A presenter drives the stage without the mouse: the arrow keys choose a process, `k`
//! arms a kill at its next step, `+` / `-` change the speed.

use leptos::ev;
use leptos::prelude::*;

use crate::browser::keys::page_key_target;
use crate::ctl::{Ctl, SPEEDS};

/// Space, `.`, `,`, `k`, `?`, the arrows, `+` / `-` and Escape, unless the user is typing
/// in a field. Escape closes the help only: it is the topmost dialog, and leaving presenter
/// mode has its own key (`p`, in [`crate::lesson::presenter`]).
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
            // Left/Right on a range or a tab list belong to it (those stop the event or
            // are inputs, which `page_key_target` leaves out).
            "ArrowRight" | "ArrowDown" => {
                e.prevent_default();
                ctl.select_by(1);
            }
            "ArrowLeft" | "ArrowUp" => {
                e.prevent_default();
                ctl.select_by(-1);
            }
            "+" | "=" => ctl.speed_by(1, SPEEDS.len() - 1),
            "-" | "_" => ctl.speed_by(-1, SPEEDS.len() - 1),
            "Escape" => ctl.help_open.set(false),
            _ => {}
        }
    });
    on_cleanup(move || handle.remove());
}
