//! The postMessage API's moving part (the protocol is `messages.rs`'s): the page tells its
//! host (the parent frame, or the opener of a page opened with `?embed`) when it is
//! ready, when a step's goal is reached, exercise 1's and the quiz's results and the
//! course's completion; it answers a request for the progress and opens a step or a
//! workshop when asked. Loaded only in embed mode (`src/app/lazy.rs`'s `embed` door).
//!
//! A host's message is heard only from the host's window; with `?embed=<origin>` only
//! from that origin, and the page's messages go only there. Without it they go to any
//! origin ("*": a course's progress, nothing private), and an answer goes to the origin
//! that asked, which is recorded on every request (`last_origin`).

use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::js_sys::{Object, JSON};

use crate::lesson::ctl::{LessonCtl, Tab};
use crate::lms::detect;
use crate::lms::messages::{self, Asked, Request};
use crate::lms::report::{blanks_right, quiz_counts, steps_done};
use outbox_model::lesson::{BLANKS, STEPS};

/// The host's window: the parent when framed, else the opener (a host that opened the
/// page in a window of its own with `?embed`).
fn host_window() -> Option<web_sys::Window> {
    let w = web_sys::window()?;
    if detect::framed() {
        return w.parent().ok().flatten();
    }
    let opener = w.opener().ok()?;
    (!opener.is_null() && !opener.is_undefined()).then(|| opener.unchecked_into())
}

/// The origin of the last request heard (what [`start`] records of every message).
#[derive(Clone, Copy)]
pub struct Host {
    target: StoredValue<String>,
    pub last_origin: RwSignal<Option<String>>,
}

impl Host {
    fn post(&self, msg: &Value, to: Option<&str>) {
        let Some(host) = host_window() else { return };
        let Ok(js) = JSON::parse(&msg.to_string()) else {
            return;
        };
        let target = to.map_or_else(|| self.target.get_value(), str::to_string);
        let _ = host.post_message(&js, &target);
    }
}

/// Starts the API: listens for the host's requests, posts the page's events, says ready.
/// `open_workshop` opens a `#workshop=`/`#challenge=` link (the challenge code is
/// another feature's: `app/` hands it in).
pub fn start(lesson: LessonCtl, open_workshop: Callback<String>, owner: Owner) -> Host {
    let fixed = detect::host_origin();
    let host = Host {
        target: StoredValue::new(fixed.clone().unwrap_or_else(|| "*".into())),
        last_origin: RwSignal::new(None),
    };
    owner.with(|| {
        let handle = window_event_listener(leptos::ev::message, move |e: web_sys::MessageEvent| {
            let from_host = match (e.source(), host_window()) {
                (Some(s), Some(h)) => Object::is(&s, &h),
                _ => false,
            };
            if !from_host || fixed.as_ref().is_some_and(|o| *o != e.origin()) {
                return;
            }
            let Some(asked) = text_of(&e.data()).and_then(|t| messages::read(&t)) else {
                return;
            };
            let origin = e.origin();
            host.last_origin.set(Some(origin.clone()));
            // An opaque origin ("null") cannot be named as a target: any is the only way.
            let to = if origin == "null" {
                "*".to_string()
            } else {
                origin
            };
            answer(lesson, host, open_workshop, asked, &to);
        });
        on_cleanup(move || handle.remove());
        post_events(lesson, host);
    });
    host.post(&messages::ready(), None);
    host
}

/// A message's data as text: a string as it is, an object as its JSON (bounded by
/// `messages::read`). Anything else (a number, a transferred port) is not ours.
fn text_of(data: &JsValue) -> Option<String> {
    if let Some(s) = data.as_string() {
        return Some(s);
    }
    if !data.is_object() {
        return None;
    }
    JSON::stringify(data).ok()?.as_string()
}

fn answer(lesson: LessonCtl, host: Host, open_workshop: Callback<String>, asked: Asked, to: &str) {
    let id = asked.id.as_ref();
    match asked.request {
        Ok(Request::GetProgress) => {
            let p = lesson
                .course
                .progress
                .with_untracked(|p| serde_json::to_value(p).unwrap_or_default());
            host.post(
                &messages::message("progress", json!({ "progress": p }), id),
                Some(to),
            );
        }
        Ok(Request::OpenStep(i)) => {
            lesson.tab.set(Tab::Path);
            lesson.go(i);
        }
        Ok(Request::OpenWorkshop(link)) => open_workshop.run(link),
        Err(r) => host.post(&messages::refused(&r, id), Some(to)),
    }
}

/// What the host is told as the progress changes: each goal reached (once), exercise 1's
/// and the quiz's results when they change, the course's completion when it comes.
/// What was there at start is the baseline, not news.
fn post_events(lesson: LessonCtl, host: Host) {
    let seen = StoredValue::new(None::<(Vec<bool>, usize, (usize, usize))>);
    Effect::new(move |_| {
        let now = lesson.course.progress.with(|p| {
            let done: Vec<bool> = STEPS.iter().map(|s| p.is_done(s.id)).collect();
            (done, blanks_right(p), quiz_counts(p), steps_done(p))
        });
        let (done, blanks, quiz, count) = now;
        let before = seen.get_value();
        seen.set_value(Some((done.clone(), blanks, quiz)));
        let Some((was_done, was_blanks, was_quiz)) = before else {
            return;
        };
        let total = STEPS.len();
        for (i, st) in STEPS.iter().enumerate() {
            if done[i] && !was_done[i] {
                let f = json!({ "step": st.id, "index": i, "done": count, "total": total });
                host.post(&messages::message("goal-reached", f, None), None);
            }
        }
        if blanks != was_blanks {
            let f = json!({ "right": blanks, "total": BLANKS.len() });
            host.post(&messages::message("exercises", f, None), None);
        }
        if quiz != was_quiz {
            let q = crate::i18n::lesson_words::QUIZ.len();
            let f = json!({ "answered": quiz.0, "right": quiz.1, "total": q, "score": quiz.1 * 100 / q });
            host.post(&messages::message("quiz", f, None), None);
        }
        if count == total && was_done.iter().filter(|d| **d).count() < total {
            let f = json!({ "done": count, "total": total });
            host.post(&messages::message("completed", f, None), None);
        }
    });
}
