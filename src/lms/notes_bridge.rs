//! The speaker-notes window of an embedded page. A BroadcastChannel is partitioned by
//! the top-level site: the framed page's channel and the notes window's (a top-level
//! window of its own) never meet. So the step goes over `postMessage` on the
//! `window.open` handle instead, in the channel's own words (`presenter::message`,
//! `HELLO`):
//!
//! - the notes window (`notes_side`: on `?notes` with an opener) says hello
//!   to its opener, and re-posts each step message its opener sends onto its own
//!   channel, where the notes view hears it (and checks it, `presenter::parse`);
//! - the embedded page (`page_side`, loaded with the embed code) learns the notes
//!   window from its hello and posts it the step and the language on each change.
//!
//! Only same-origin messages are heard on both sides; the notes view ignores anything
//! that is not a step message. A page that is not embedded never listens.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys::Object;

use crate::i18n::I18n;
use crate::lesson::ctl::LessonCtl;
use crate::lesson::presenter::{message, parse, CHANNEL, HELLO};

fn own_origin() -> Option<String> {
    web_sys::window()?.location().origin().ok()
}

/// The notes window's side: hello to the opener, its step messages onto the channel.
/// Nothing when there is no opener (a notes window opened by hand).
pub fn notes_side() {
    let Some(w) = web_sys::window() else { return };
    let Some(opener) = w
        .opener()
        .ok()
        .filter(|o| !o.is_null() && !o.is_undefined())
    else {
        return;
    };
    let (Some(origin), Ok(channel)) = (own_origin(), web_sys::BroadcastChannel::new(CHANNEL))
    else {
        return;
    };
    let from = opener.clone();
    let own = origin.clone();
    let listener =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let from_opener = e.source().is_some_and(|s| Object::is(&s, &from));
            if !from_opener || e.origin() != own {
                return;
            }
            if let Some(text) = e.data().as_string().filter(|t| parse(t).is_some()) {
                let _ = channel.post_message(&JsValue::from_str(&text));
            }
        });
    let _ = w.add_event_listener_with_callback("message", listener.as_ref().unchecked_ref());
    // The notes window's lifetime: the window keeps the listener.
    listener.forget();
    let opener: web_sys::Window = opener.unchecked_into();
    let _ = opener.post_message(&JsValue::from_str(HELLO), &origin);
}

/// The embedded page's side: a same-origin window that says hello is the notes window;
/// it gets the step and the language now and on every change.
pub fn page_side(lesson: LessonCtl, i18n: I18n) {
    let Some(origin) = own_origin() else { return };
    let notes = StoredValue::new_local(None::<web_sys::Window>);
    let own = origin.clone();
    let post = move |to: &web_sys::Window| {
        let text = message(lesson.course.step.get_untracked(), i18n.lang_untracked());
        let _ = to.post_message(&JsValue::from_str(&text), &own);
    };
    let answer = post.clone();
    let handle = window_event_listener(leptos::ev::message, move |e: web_sys::MessageEvent| {
        if e.origin() != origin || e.data().as_string().as_deref() != Some(HELLO) {
            return;
        }
        if let Some(win) = e.source().map(|s| s.unchecked_into::<web_sys::Window>()) {
            answer(&win);
            notes.set_value(Some(win));
        }
    });
    on_cleanup(move || handle.remove());
    Effect::new(move |_| {
        lesson.course.step.track();
        i18n.lang();
        notes.with_value(|n| {
            if let Some(win) = n {
                post(win);
            }
        });
    });
}
