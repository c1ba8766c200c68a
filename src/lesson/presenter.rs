//! Presenter mode's plumbing: the clicker keys (PgDn / PgUp move through the steps, 1 2 3
//! guess, R reveals, the number keys otherwise choose a process, A B C answer the step's
//! question, 0 resets the run, P enters and leaves), the
//! address that follows the mode (`?present`, so a reload keeps it), and the
//! BroadcastChannel that keeps a speaker-notes window on the step the room sees.

use leptos::ev;
use leptos::prelude::*;
use outbox_model::lesson::STEPS;

use crate::browser::broadcast::{use_broadcast, Broadcast};
use crate::browser::keys::page_key_target;
use crate::browser::slices::now_ms;
use crate::i18n::{I18n, Lang};
use crate::lesson::ctl::LessonCtl;

/// The channel's name: one per origin, shared by the page and its notes window.
pub const CHANNEL: &str = "outbox-playground/presenter";

/// What the notes window says when it opens, asking for the step.
pub const HELLO: &str = "hello";

/// What the main window says: the step it shows and its language (`"3 uz"`); the notes
/// window says [`HELLO`] when it opens.
pub fn message(step: usize, lang: Lang) -> String {
    format!("{step} {}", lang.code())
}

/// The inverse of [`message`], strictly: one to three ASCII digits naming a step that
/// exists, one space, a language code; anything else (any other window on this origin
/// may post on the channel) is ignored. `usize::from_str` alone would take `+3`.
pub fn parse(msg: &str) -> Option<(usize, Lang)> {
    let (step, lang) = msg.split_once(' ')?;
    if step.is_empty() || step.len() > 3 || !step.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let step: usize = step.parse().ok()?;
    let lang = Lang::from_code(lang).filter(|l| l.code() == lang)?;
    (step < STEPS.len()).then_some((step, lang))
}

/// The shortest time between two replies to [`HELLO`]: a flood of hellos (from any page
/// of the origin) once kept the main window busy for seconds; now it costs a comparison.
pub const REPLY_EVERY_MS: f64 = 250.0;

/// What to do with a hello at a given time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reply {
    Now,
    /// Reply once after this many milliseconds (a later hello is already covered by it).
    After(f64),
    Drop,
}

/// At most one reply per [`REPLY_EVERY_MS`]; a hello inside the window is answered once
/// at its end, so a notes window opened just after another still gets the step.
#[derive(Clone, Copy, Debug, Default)]
pub struct RateLimit {
    last_ms: Option<f64>,
    deferred: bool,
}

impl RateLimit {
    pub fn hello(&mut self, now_ms: f64) -> Reply {
        match self.last_ms {
            Some(last) if now_ms - last < REPLY_EVERY_MS => {
                if std::mem::replace(&mut self.deferred, true) {
                    Reply::Drop
                } else {
                    Reply::After(last + REPLY_EVERY_MS - now_ms)
                }
            }
            _ => {
                self.last_ms = Some(now_ms);
                Reply::Now
            }
        }
    }

    /// The deferred reply was sent at `now_ms`.
    pub fn sent(&mut self, now_ms: f64) {
        self.deferred = false;
        self.last_ms = Some(now_ms);
    }
}

/// The keys of the lesson: PgDn/PgUp always, the guess and reveal keys while a guess is
/// asked for (otherwise 1…9 choose a process), P to enter or leave presenter mode. Escape
/// is not one of them: it closes the topmost dialog only (the help), never the mode.
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
            // The keys follow the order the choices are shown in this visit (#41).
            d @ ("1" | "2" | "3") if guessing => {
                let n = d.parse::<usize>().unwrap_or(1);
                lesson.guess(lesson.guess_order()[n - 1]);
            }
            "r" | "R" if guessing => lesson.reveal(),
            "p" | "P" => {
                e.prevent_default();
                lesson.presenter.update(|p| *p = !*p);
            }
            // The step's question answered from the clicker (#42): A, B, C are its answers
            // in the order shown; 0 starts the run again.
            k @ ("a" | "A" | "b" | "B" | "c" | "C") => {
                let at = match k {
                    "a" | "A" => 0,
                    "b" | "B" => 1,
                    _ => 2,
                };
                if choose_answer(at) {
                    e.prevent_default();
                }
            }
            "0" => {
                e.prevent_default();
                lesson.ctl.reset();
            }
            d @ ("1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9") => {
                let n = d.parse::<usize>().unwrap_or(1);
                lesson.ctl.select_nth(n - 1);
            }
            _ => {}
        }
    });
    on_cleanup(move || handle.remove());
}

/// Chooses the `at`-th answer (in the order shown) of the open step's question, as a
/// click on it would. False when the step asks none.
fn choose_answer(at: usize) -> bool {
    use wasm_bindgen::JsCast;
    let input = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector_all("[data-testid=lesson-step] .quiz__options input[type=radio]")
                .ok()
        })
        .and_then(|list| list.item(at as u32))
        .and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok());
    input.map(|i| i.click()).is_some()
}

/// Keeps `?present` in the address while presenter mode is on (replaced, not pushed: Back
/// leaves the page rather than toggling the mode).
pub fn follow_in_url(lesson: LessonCtl) {
    Effect::new(move |_| {
        let on = lesson.presenter.get();
        crate::browser::url::set_url_param("present", on.then_some(""), false);
    });
}

/// Posts the step and the language whenever either changes, and again when a notes
/// window says hello (rate-limited, see [`RateLimit`]). Only the exact [`HELLO`] is heard.
pub fn broadcast(lesson: LessonCtl, i18n: I18n) {
    let limit = StoredValue::new(RateLimit::default());
    let timer = StoredValue::new(None::<TimeoutHandle>);
    let on_message = move |channel: &Broadcast, text: String| {
        if text != HELLO {
            return;
        }
        let post = {
            let channel = channel.clone();
            move || {
                channel.post(&message(
                    lesson.course.step.get_untracked(),
                    i18n.lang_untracked(),
                ))
            }
        };
        match limit.try_update_value(|l| l.hello(now_ms())) {
            Some(Reply::Now) => post(),
            Some(Reply::After(ms)) => {
                let later = move || {
                    let _ = limit.try_update_value(|l| l.sent(now_ms()));
                    post();
                };
                let delay = std::time::Duration::from_millis(ms.max(0.0) as u64);
                if let Ok(h) = set_timeout_with_handle(later, delay) {
                    timer.set_value(Some(h));
                }
            }
            _ => {}
        }
    };
    let Some(channel) = use_broadcast(CHANNEL, on_message) else {
        return;
    };
    on_cleanup(move || {
        if let Some(h) = timer.try_update_value(Option::take).flatten() {
            h.clear();
        }
    });
    Effect::new(move |_| channel.post(&message(lesson.course.step.get(), i18n.lang())));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_and_junk_is_ignored() {
        assert_eq!(parse(&message(7, Lang::En)), Some((7, Lang::En)));
        let long = "9".repeat(100_000);
        let junk = [
            "hello",
            "x uz",
            "3 de",
            "",
            " ",
            "3",
            "3 ",
            " 3 uz",
            "3 uz ",
            "3  uz",
            "+3 uz",
            "-1 uz",
            "0003 uz",
            "3 UZ",
            "3 uz\n",
            "3 uz\u{0}",
            "3\tuz",
            "３ uz",
            "999 uz",
            "<script>alert(1)</script>",
            "3 <img src=x onerror=alert(1)>",
            "\u{202e}3 uz",
            "javascript:alert(1)",
            "18446744073709551616 uz",
        ];
        for j in junk {
            assert_eq!(parse(j), None, "{j:?}");
        }
        assert_eq!(parse(&format!("{long} uz")), None);
        assert_eq!(parse(&format!("{} uz", STEPS.len())), None, "out of range");
        assert_eq!(
            parse("0 ru"),
            Some((0, Lang::Ru)),
            "the notes window follows Russian too"
        );
        assert_eq!(
            parse(&format!("{} en", STEPS.len() - 1)),
            Some((STEPS.len() - 1, Lang::En))
        );
    }

    #[test]
    fn a_flood_of_hellos_gets_at_most_one_reply_per_window() {
        let mut l = RateLimit::default();
        let mut posted = 0;
        let mut timer: Option<f64> = None;
        // 100 000 hellos over one second; the deferred reply fires at its time.
        for i in 0..100_000u32 {
            let t = f64::from(i) / 100.0;
            if let Some(at) = timer.filter(|at| *at <= t) {
                l.sent(at);
                posted += 1;
                timer = None;
            }
            match l.hello(t) {
                Reply::Now => posted += 1,
                Reply::After(ms) => {
                    assert!(ms > 0.0 && ms <= REPLY_EVERY_MS, "{ms}");
                    assert!(timer.is_none(), "one deferred reply at a time");
                    timer = Some(t + ms);
                }
                Reply::Drop => {}
            }
        }
        // One reply per window: 1 000 ms / 250 ms, and the first at once.
        assert!((4..=5).contains(&posted), "{posted} replies");
    }
}
