//! The playground's keys (the lesson's clicker keys are in [`crate::lesson::presenter`]).
//! A presenter drives the stage without the mouse: the arrow keys choose a process, `k`
//! arms a kill at its next step, `+` / `-` change the speed.

use leptos::ev;
use leptos::prelude::*;

use crate::browser::keys::{page_key_target, space_never_presses, KeyTarget};
use crate::ctl::{Ctl, SPEEDS};

/// Space, `.`, `,`, `k`, `?`, the arrows, `+` / `-` and Escape, unless the user is typing
/// in a field; a focused button is not pressed by them. Escape closes the help only: it is the topmost dialog, and leaving presenter
/// mode has its own key (`p`, in [`crate::lesson::presenter`]).
pub fn keyboard(ctl: Ctl) {
    let handle = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        let Some(target) = page_key_target(&e) else {
            return;
        };
        // The page's shortcuts win over the focused button (#42): their default (pressing
        // the button, opening the select) is cancelled.
        let mine = |e: &web_sys::KeyboardEvent| e.prevent_default();
        match e.key().as_str() {
            " " => {
                mine(&e);
                ctl.toggle_play();
            }
            "." => {
                mine(&e);
                ctl.step_once();
            }
            "," => {
                mine(&e);
                ctl.back();
            }
            "k" | "K" => {
                mine(&e);
                ctl.arm_selected();
            }
            "?" => ctl.help_open.update(|o| *o = !*o),
            // Left/Right on a select, a radio, a range or a tab list belong to it (a tab
            // list stops the event).
            "ArrowRight" | "ArrowDown" if target == KeyTarget::Page => {
                mine(&e);
                ctl.select_by(1);
            }
            "ArrowLeft" | "ArrowUp" if target == KeyTarget::Page => {
                mine(&e);
                ctl.select_by(-1);
            }
            "+" | "=" => ctl.speed_by(1, SPEEDS.len() - 1),
            "-" | "_" => ctl.speed_by(-1, SPEEDS.len() - 1),
            "Escape" => ctl.help_open.set(false),
            _ => {}
        }
    });
    let up = window_event_listener(ev::keyup, space_never_presses());
    on_cleanup(move || {
        handle.remove();
        up.remove();
    });
}
