//! Presenter mode's plumbing: the clicker keys (PgDn / PgUp move through the steps, 1 2 3
//! guess, R reveals, Escape leaves), and the BroadcastChannel that keeps a speaker-notes
//! window on the step the room sees.

use leptos::ev;
use leptos::prelude::*;
use outbox_model::lesson::Outcome;

use crate::browser::broadcast::{use_broadcast, Broadcast};
use crate::browser::keys::page_key_target;
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
    let on_message = move |channel: &Broadcast, text: String| {
        if text == "hello" {
            channel.post(&message(lesson.step.get_untracked(), i18n.lang_untracked()));
        }
    };
    let Some(channel) = use_broadcast(CHANNEL, on_message) else {
        return;
    };
    Effect::new(move |_| channel.post(&message(lesson.step.get(), i18n.lang())));
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
