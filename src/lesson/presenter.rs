//! Presenter mode's plumbing: the clicker keys (PgDn / PgUp move through the steps, 1 2 3
//! guess, R reveals, Escape leaves), and the BroadcastChannel that keeps a speaker-notes
//! window on the step the room sees.

use leptos::ev;
use leptos::prelude::*;
use outbox_model::lesson::Outcome;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::i18n::{I18n, Lang};
use crate::lesson::ctl::LessonCtl;

/// The channel's name: one per origin, shared by the page and its notes window.
pub const CHANNEL: &str = "outbox-playground/presenter";

/// What the main window says: the step it shows and its language (`"3 uz"`); the notes
/// window says `"hello"` when it opens.
pub fn message(step: usize, lang: Lang) -> String {
    format!("{step} {}", lang.code())
}

/// The inverse of [`message`]; anything else is ignored.
pub fn parse(msg: &str) -> Option<(usize, Lang)> {
    let (step, lang) = msg.split_once(' ')?;
    Some((step.parse().ok()?, Lang::from_code(lang)?))
}

/// Whether the page address asks for something (`?present`, `?notes`, `?lang=en`).
pub fn url_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(name)
}

/// The tag of the element a key went to, when the key is one for the page: no modifier,
/// and not typed into a field. None otherwise.
pub fn page_key_target(e: &web_sys::KeyboardEvent) -> Option<String> {
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    let tag = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|el| el.tag_name())
        .unwrap_or_default();
    (!matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA")).then_some(tag)
}

/// The keys of the lesson: PgDn/PgUp always, the guess and reveal keys while a guess is
/// asked for, Escape to leave presenter mode.
pub fn keys(lesson: LessonCtl) {
    let handle = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        if page_key_target(&e).is_none() {
            return;
        }
        let guessing = lesson.predict.get_untracked() != crate::lesson::ctl::Predict::Off;
        match e.key().as_str() {
            "PageDown" => {
                e.prevent_default();
                lesson.next();
            }
            "PageUp" => {
                e.prevent_default();
                lesson.prev();
            }
            "1" if guessing => lesson.guess(Outcome::Lost),
            "2" if guessing => lesson.guess(Outcome::Duplicate),
            "3" if guessing => lesson.guess(Outcome::Fine),
            "r" | "R" if guessing => lesson.reveal(),
            "Escape" => lesson.presenter.set(false),
            _ => {}
        }
    });
    on_cleanup(move || handle.remove());
}

/// Posts the step and the language whenever either changes, and again when a notes
/// window says hello.
pub fn broadcast(lesson: LessonCtl, i18n: I18n) {
    let Ok(channel) = web_sys::BroadcastChannel::new(CHANNEL) else {
        return;
    };
    let post = {
        let channel = channel.clone();
        move |step: usize, lang: Lang| {
            let _ = channel.post_message(&JsValue::from_str(&message(step, lang)));
        }
    };
    let post2 = post.clone();
    Effect::new(move |_| post(lesson.step.get(), i18n.lang()));
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |m: web_sys::MessageEvent| {
            if m.data().as_string().as_deref() == Some("hello") {
                post2(lesson.step.get_untracked(), i18n.lang_untracked());
            }
        });
    channel.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    let parts = StoredValue::new_local((channel, on_message));
    on_cleanup(move || {
        parts.with_value(|(channel, _)| {
            channel.set_onmessage(None);
            channel.close();
        })
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_and_junk_is_ignored() {
        assert_eq!(parse(&message(7, Lang::En)), Some((7, Lang::En)));
        assert_eq!(parse("hello"), None);
        assert_eq!(parse("x uz"), None);
        assert_eq!(parse("3 ru"), None);
    }
}
