//! Hostile saved state, links and speaker-notes messages in the page (issues #25, #26),
//! in headless Chromium:
//! `cargo test --target wasm32-unknown-unknown -p outbox-playground --test saved_state`.
//! Every test mounts the whole app into its own host after arranging localStorage, and
//! checks that nothing panics, nothing saved is lost, and the notice names the reason.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use outbox_model::preset;
use outbox_playground::browser::slices::now_ms;
use outbox_playground::browser::storage::{self, before_link_key, corrupt_key, pending_key, KEY};
use outbox_playground::ctl::DEFAULT_PRESET;
use outbox_playground::i18n::{t, Key, Lang};
use outbox_playground::lesson::ctl::PROGRESS_KEY;
use outbox_playground::lesson::presenter::{parse, CHANNEL, HELLO};
use outbox_playground::lesson::speaker_notes::SpeakerNotes;
use outbox_playground::run::link;
use outbox_playground::run::sim::{Input, Sim};
use outbox_playground::App;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

wasm_bindgen_test_configure!(run_in_browser);

/// The app in a fresh host; dropping the handle unmounts it, so its window listeners
/// (`hashchange`) do not outlive the test.
fn mount_app() -> (HtmlElement, impl Drop) {
    let doc = document();
    let host: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&host).unwrap();
    let handle = leptos::mount::mount_to(host.clone(), App);
    (host, handle)
}

fn find(host: &HtmlElement, testid: &str) -> Option<HtmlElement> {
    host.query_selector(&format!("[data-testid=\"{testid}\"]"))
        .unwrap()
        .map(|e| e.unchecked_into())
}

fn notice(host: &HtmlElement) -> String {
    find(host, "notice")
        .and_then(|n| n.text_content())
        .unwrap_or_default()
}

async fn settle() {
    TimeoutFuture::new(0).await;
}

fn start_clean() {
    storage::clear_all();
}

/// The canon run with ticks after its end: the issue #25 link.
fn ticks_past_the_end() -> String {
    let mut run = Sim::new(preset(DEFAULT_PRESET).unwrap()).to_run();
    run.inputs = vec![Input::Ticks(100_000)];
    link::to_json(&run)
}

fn a_run(ticks: u64) -> String {
    let mut sim = Sim::new(preset(DEFAULT_PRESET).unwrap());
    sim.ticks(ticks);
    link::to_json(&sim.to_run())
}

#[wasm_bindgen_test]
async fn a_saved_run_from_a_newer_version_is_kept_under_corrupt_and_reported() {
    start_clean();
    let future = a_run(5).replacen("\"v\":1", "\"v\":99", 1);
    storage::set(KEY, &future).unwrap();
    let (host, _app) = mount_app();
    settle().await;
    let n = notice(&host);
    assert!(n.contains("99"), "{n}");
    assert_eq!(
        storage::get(&corrupt_key(KEY)).as_deref(),
        Some(future.as_str())
    );
    assert_eq!(storage::get(&pending_key(KEY)), None);
}

#[wasm_bindgen_test]
async fn a_saved_run_with_ticks_past_its_end_opens_no_panic() {
    start_clean();
    let bad = ticks_past_the_end();
    storage::set(KEY, &bad).unwrap();
    let (host, _app) = mount_app();
    settle().await;
    // The reason is the page's own words, in the page's language (#21), not the model's
    // English.
    let why = t(Lang::Uz, Key::ReasonTicksAfterEnd);
    let why = why.split(" (").next().unwrap();
    assert!(notice(&host).contains(why), "{}", notice(&host));
    assert_eq!(storage::get(&corrupt_key(KEY)), Some(bad));
    assert!(document().get_element_by_id("panic-panel").is_none());
}

#[wasm_bindgen_test]
async fn a_run_left_pending_by_a_crash_is_set_aside_not_replayed() {
    start_clean();
    let crashed = a_run(7);
    storage::set(&pending_key(KEY), &crashed).unwrap();
    let (host, _app) = mount_app();
    settle().await;
    let n = notice(&host);
    assert!(n.contains(&corrupt_key(KEY)), "{n}");
    assert_eq!(storage::get(&corrupt_key(KEY)), Some(crashed));
    assert_eq!(storage::get(&pending_key(KEY)), None);
}

#[wasm_bindgen_test]
async fn a_good_saved_run_is_put_back_after_its_replay() {
    start_clean();
    let good = a_run(40);
    storage::set(KEY, &good).unwrap();
    let (host, _app) = mount_app();
    settle().await;
    assert_eq!(notice(&host), "");
    assert_eq!(storage::get(KEY), Some(good));
    assert_eq!(storage::get(&pending_key(KEY)), None);
}

#[wasm_bindgen_test]
async fn progress_with_out_of_range_answers_is_kept_under_corrupt_no_panic() {
    for bad in [
        r#"{"step":9,"why":7}"#,
        r#"{"step":0,"quiz":[9]}"#,
        r#"{"step":0,"quiz":[null,null,null,null,null,1]}"#,
        r#"{"step":99999999999}"#,
        r#"{"step":0,"future_field":1}"#,
    ] {
        start_clean();
        storage::set(PROGRESS_KEY, bad).unwrap();
        let (host, _app) = mount_app();
        settle().await;
        assert!(
            notice(&host).contains("corrupt"),
            "{bad}: {}",
            notice(&host)
        );
        assert_eq!(
            storage::get(&corrupt_key(PROGRESS_KEY)).as_deref(),
            Some(bad)
        );
        assert!(document().get_element_by_id("panic-panel").is_none());
    }
}

/// #41: the lesson's progress saved by the release before (one course controller and
/// first answers came after it) loads as it is: no notice, the steps done kept, its one
/// why-answer and its guesses counted as first in the progress line, and saved back
/// with nothing lost.
#[wasm_bindgen_test]
async fn progress_saved_by_the_release_before_loads_and_counts_as_first() {
    start_clean();
    let before = r#"{"step":11,"done":["lose-dual","queue-first"],"blanks":["relay"],"quiz":[1,null,null,null],
        "quiz_first":[1,null,null,null],"why":0,"predictions":[{"step":"at-most-once","guess":"lost","actual":"lost"}]}"#;
    storage::set(PROGRESS_KEY, before).unwrap();
    let (host, _app) = mount_app();
    for _ in 0..100 {
        if find(&host, "progress-predicted").is_some() {
            break;
        }
        TimeoutFuture::new(10).await;
    }
    settle().await;
    assert_eq!(notice(&host), "");
    assert_eq!(storage::get(&corrupt_key(PROGRESS_KEY)), None);
    let line = find(&host, "progress-predicted")
        .unwrap()
        .text_content()
        .unwrap();
    // The guess was right, the why-answer (option 0) was not.
    let want = t(Lang::Uz, Key::ProgressPredicted)
        .replace("{n}", "1")
        .replace("{m}", "2");
    assert_eq!(line, want);
    let saved: serde_json::Value =
        serde_json::from_str(&storage::get(PROGRESS_KEY).unwrap()).unwrap();
    let was: serde_json::Value = serde_json::from_str(before).unwrap();
    // The open step was saved by its place before #43 (11: why-inside in that order); it
    // is kept by id now, and its place is the one it has in today's order.
    let now_at = outbox_model::lesson::STEPS
        .iter()
        .position(|st| st.id == "why-inside")
        .expect("why-inside is a step");
    assert_eq!(saved["step"], serde_json::json!(now_at));
    assert_eq!(saved["step_id"], serde_json::json!("why-inside"));
    for field in ["done", "blanks", "quiz", "quiz_first", "why", "predictions"] {
        assert_eq!(saved[field], was[field], "{field}");
    }
    start_clean();
}

/// Unreadable progress found on several loads is kept each time, newest under
/// `…/corrupt`, the older ones after it, a bounded few (#40: each overwrote the last).
#[wasm_bindgen_test]
async fn unreadable_copies_are_kept_newest_first_not_overwritten() {
    start_clean();
    let bad: Vec<String> = (0..7)
        .map(|n| format!(r#"{{"step":{n},"why":7}}"#))
        .collect();
    for text in &bad {
        storage::set(PROGRESS_KEY, text).unwrap();
        let (_host, _app) = mount_app();
        settle().await;
    }
    let corrupt = corrupt_key(PROGRESS_KEY);
    assert_eq!(storage::get(&corrupt).as_deref(), Some(bad[6].as_str()));
    for (n, text) in bad.iter().rev().enumerate().skip(1).take(4) {
        let older = format!("{corrupt}/{}", n + 1);
        assert_eq!(
            storage::get(&older).as_deref(),
            Some(text.as_str()),
            "{older}"
        );
    }
    // Bounded: the two oldest went.
    assert_eq!(storage::get(&format!("{corrupt}/6")), None);
    assert_eq!(storage::CORRUPT_COPIES, 5);
    start_clean();
}

#[wasm_bindgen_test]
async fn corrupt_settings_are_kept_under_corrupt() {
    start_clean();
    storage::set(storage::SETTINGS_KEY, r#"{"lang":"uz","speed":999}"#).unwrap();
    let (host, _app) = mount_app();
    settle().await;
    assert!(notice(&host).contains("999"), "{}", notice(&host));
    assert!(storage::get(&corrupt_key(storage::SETTINGS_KEY)).is_some());
}

/// A link pasted into the open tab opens (hashchange), and the different saved run it
/// replaces is kept and offered back by the notice's button.
#[wasm_bindgen_test]
async fn a_pasted_link_opens_and_the_replaced_run_can_be_restored() {
    start_clean();
    let mine = a_run(30);
    storage::set(KEY, &mine).unwrap();
    let (host, _app) = mount_app();
    settle().await;
    let mut other = Sim::new(preset("canon-outbox").unwrap());
    other.ticks(12);
    let hash = format!("#{}", link::fragment(&other.to_run()));
    window().location().set_hash(&hash).unwrap();
    // Wait for the page's hashchange handler, not for a fixed time (a busy host took
    // longer than 50 ms).
    until("the pasted link opened", || {
        storage::get(KEY).is_some_and(|saved| saved.contains("canon-outbox"))
    })
    .await;
    assert_eq!(storage::get(&before_link_key(KEY)), Some(mine.clone()));
    let saved = storage::get(KEY).unwrap();
    assert!(saved.contains("canon-outbox"), "{saved}");
    let n = notice(&host);
    assert!(n.contains(&before_link_key(KEY)), "{n}");
    find(&host, "notice-restore")
        .expect("restore button")
        .click();
    settle().await;
    assert_eq!(storage::get(KEY), Some(mine));
    assert_eq!(storage::get(&before_link_key(KEY)), None);
    assert!(notice(&host).contains(t(Lang::Uz, Key::NoticeRestoredRun)));
}

/// Everything said on the speaker-notes channel from now on.
fn listen() -> (web_sys::BroadcastChannel, Rc<RefCell<Vec<String>>>) {
    let heard = Rc::new(RefCell::new(Vec::new()));
    let channel = web_sys::BroadcastChannel::new(CHANNEL).unwrap();
    let sink = heard.clone();
    let on = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |m: web_sys::MessageEvent| {
        if let Some(t) = m.data().as_string() {
            sink.borrow_mut().push(t);
        }
    });
    channel.set_onmessage(Some(on.as_ref().unchecked_ref()));
    on.forget();
    (channel, heard)
}

/// Polls `cond` every 10 ms (the page's tasks run meanwhile) until it holds; fails with
/// `what` after 20 s, generous for a loaded machine.
async fn until(what: &str, cond: impl Fn() -> bool) {
    let started = now_ms();
    while !cond() {
        assert!(now_ms() - started < 20_000.0, "{what}: not within 20 s");
        TimeoutFuture::new(10).await;
    }
}

/// Posts `texts` on the notes channel and waits until `heard` (a listener made after the
/// page's channel) has heard the last: a channel's message reaches a document's channels
/// in the order they were made, so by then the page has handled every one of them, and
/// anything it posted in answer was posted before the next message the test sends.
async fn post_and_wait_handled(
    sender: &web_sys::BroadcastChannel,
    heard: &RefCell<Vec<String>>,
    texts: &[&str],
) {
    for text in texts {
        sender.post_message(&JsValue::from_str(text)).unwrap();
    }
    let last = texts.last().copied().unwrap_or_default();
    until("the messages handled", || {
        heard.borrow().last().map(String::as_str) == Some(last)
    })
    .await;
}

#[wasm_bindgen_test]
async fn a_flood_of_hellos_gets_a_few_replies_and_junk_none() {
    start_clean();
    let (_host, _app) = mount_app();
    settle().await;
    let (listener, heard) = listen();
    let sender = web_sys::BroadcastChannel::new(CHANNEL).unwrap();
    let junk = [
        "hello ",
        "HELLO",
        "<script>alert(1)</script>",
        "3 uz",
        "\u{0}",
    ];
    post_and_wait_handled(&sender, &heard, &junk).await;
    // A hello now: the page's answer to it comes after anything it said to the junk.
    sender.post_message(&JsValue::from_str(HELLO)).unwrap();
    let replies = |h: &[String]| h.iter().filter(|m| parse(m).is_some()).count();
    until("the page's answer to a hello", || {
        let h = heard.borrow();
        h.iter()
            .position(|m| m == HELLO)
            .is_some_and(|at| replies(&h[at + 1..]) > 0)
    })
    .await;
    let before_hello = {
        let h = heard.borrow();
        let at = h.iter().position(|m| m == HELLO).expect("the hello heard");
        replies(&h[..at])
    };
    // "3 uz" itself is heard by the listener; the page answered none of the junk.
    assert_eq!(before_hello, 1, "{:?}", heard.borrow());
    heard.borrow_mut().clear();
    let started = now_ms();
    const FLOOD: usize = 20_000;
    for _ in 0..FLOOD {
        sender.post_message(&JsValue::from_str(HELLO)).unwrap();
    }
    // The whole flood handled, and answered (at once, or at the end of a reply's window).
    until("the flood handled and answered", || {
        let h = heard.borrow();
        h.iter().filter(|m| *m == HELLO).count() == FLOOD && replies(&h) > 0
    })
    .await;
    let elapsed = now_ms() - started;
    let n = replies(&heard.borrow());
    // One reply per 250 ms window at most (plus the first at once).
    let bound = 2 + (elapsed / 250.0) as usize;
    assert!((1..=bound).contains(&n), "{n} replies in {elapsed} ms");
    listener.close();
    sender.close();
}

#[wasm_bindgen_test]
async fn the_notes_window_ignores_everything_but_the_exact_form() {
    let doc = document();
    let host: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&host).unwrap();
    let _app = leptos::mount::mount_to(host.clone(), || {
        outbox_playground::i18n::provide_i18n(Lang::Uz);
        view! { <SpeakerNotes/> }
    });
    settle().await;
    let (listener, heard) = listen();
    let sender = web_sys::BroadcastChannel::new(CHANNEL).unwrap();
    // Not a string: the listener does not hear it, the junk after it tells it was handled.
    sender.post_message(&JsValue::from_f64(1.0)).unwrap();
    let long = format!("{} uz", "1".repeat(100_000));
    let junk = [
        "999 uz",
        "+1 uz",
        "1 de",
        "1 uz ",
        "<img src=x onerror=alert(1)>",
        "\u{202e}1 uz",
        long.as_str(),
    ];
    post_and_wait_handled(&sender, &heard, &junk).await;
    assert!(
        find(&host, "notes-waiting").is_some(),
        "junk moved the notes"
    );
    sender.post_message(&JsValue::from_str("2 en")).unwrap();
    until("the notes at a step", || {
        find(&host, "notes-step").is_some()
    })
    .await;
    let step = find(&host, "notes-step").expect("the exact form is heard");
    assert_eq!(
        step.get_attribute("data-step").as_deref(),
        Some(outbox_model::lesson::STEPS[2].id)
    );
    let notes_text = || {
        find(&host, "notes-text")
            .and_then(|n| n.text_content())
            .unwrap_or_default()
    };
    // #21: the notes follow the main window into Russian.
    let english = notes_text();
    sender.post_message(&JsValue::from_str("2 ru")).unwrap();
    until("the notes' text changed", || notes_text() != english).await;
    let words =
        outbox_playground::i18n::lesson_words::step_words(outbox_model::lesson::STEPS[2].id)
            .expect("the step has its words");
    assert_eq!(notes_text(), t(Lang::Ru, words.notes));
    listener.close();
    sender.close();
}

/// Fills localStorage to its quota with keys that are not the page's; returns them.
fn fill_storage() -> Vec<String> {
    let s = storage::storage().unwrap();
    let mut keys = Vec::new();
    for size in [1 << 20, 1 << 16, 1 << 12, 1 << 8, 16] {
        let chunk = "x".repeat(size);
        loop {
            let k = format!("filler/{}", keys.len());
            if s.set_item(&k, &chunk).is_err() {
                break;
            }
            keys.push(k);
        }
    }
    keys
}

#[wasm_bindgen_test]
async fn a_full_quota_is_reported_once_with_the_link_as_the_way_out() {
    start_clean();
    let fillers = fill_storage();
    let (host, _app) = mount_app();
    settle().await;
    let n = notice(&host);
    for k in &fillers {
        storage::remove(k);
    }
    let said = t(Lang::Uz, Key::NoticeSaveFailed);
    let start = said.split(" (").next().unwrap();
    assert!(n.contains(start), "{n}");
    // The browser's QuotaExceededError, said in the page's language (#21).
    assert!(
        n.contains(t(Lang::Uz, Key::ReasonStorageFull)),
        "the reason: {n}"
    );
}

/// Sets the address's query as a submitted form would, runs the start-up step, and puts
/// the address back (a real reload would end the test page).
fn start_with_query(query: &str) {
    let before = window().location().href().unwrap();
    let history = window().history().unwrap();
    history
        .replace_state_with_url(&JsValue::NULL, "", Some(query))
        .unwrap();
    outbox_playground::browser::saved_reset::reset_if_asked();
    assert_eq!(
        window().location().search().unwrap(),
        "",
        "the parameter is dropped"
    );
    history
        .replace_state_with_url(&JsValue::NULL, "", Some(&before))
        .unwrap();
}

/// Every key of the page that a reset may set aside, and one of someone else's.
fn arrange_saved_keys() {
    start_clean();
    storage::set(KEY, "{\"saved\": 1}").unwrap();
    storage::set(&corrupt_key(PROGRESS_KEY), "{}").unwrap();
    storage::storage()
        .unwrap()
        .set_item("someone-else", "kept")
        .unwrap();
}

/// The keys a reset set aside (`outbox-playground-reset/…`), removed.
fn take_set_aside() -> Vec<(String, String)> {
    let s = storage::storage().unwrap();
    let keys: Vec<String> = (0..s.length().unwrap())
        .filter_map(|i| s.key(i).unwrap())
        .filter(|k| k.starts_with(outbox_playground::browser::saved_reset::RESET_KEPT_PREFIX))
        .collect();
    let mut out = Vec::new();
    for k in keys {
        out.push((k.clone(), s.get_item(&k).unwrap().unwrap_or_default()));
        s.remove_item(&k).unwrap();
    }
    out.sort();
    out
}

#[wasm_bindgen_test]
async fn the_panic_panel_offers_a_reset_that_sets_aside_only_the_pages_keys() {
    arrange_saved_keys();
    outbox_playground::error_panel::show("a test panic");
    let panel = document()
        .query_selector("[data-testid=panic-panel]")
        .unwrap()
        .expect("the panel");
    let reset = panel.query_selector("[data-testid=panic-reset]").unwrap();
    assert!(reset.is_some(), "the reset button");
    assert_eq!(
        reset.unwrap().text_content().as_deref(),
        Some(t(Lang::Uz, Key::ErrorReset))
    );
    // Its click submits `?reset-saved-state=<the panel's token>`.
    let form = panel
        .query_selector("form")
        .unwrap()
        .expect("the reset form");
    let hidden = form.query_selector("input[type=hidden]").unwrap().unwrap();
    assert_eq!(
        hidden.get_attribute("name").as_deref(),
        Some(outbox_playground::browser::saved_reset::RESET_PARAM)
    );
    let token = hidden.get_attribute("value").unwrap_or_default();
    assert!(token.len() >= 16, "a one-time token: {token:?}");
    panel.remove();
    start_with_query(&format!("?reset-saved-state={token}"));
    assert_eq!(storage::get(KEY), None);
    assert_eq!(storage::get(&corrupt_key(PROGRESS_KEY)), None);
    // Set aside, not deleted (#40).
    let kept = take_set_aside();
    let values: Vec<&str> = kept.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(kept.len(), 2, "{kept:?}");
    assert!(values.contains(&"{\"saved\": 1}"), "{kept:?}");
    assert!(
        kept.iter()
            .all(|(k, _)| k.starts_with("outbox-playground-reset/1/")),
        "{kept:?}"
    );
    // The notice says so, once.
    let (host, _app) = mount_app();
    settle().await;
    let n = notice(&host);
    let said = t(Lang::Uz, Key::NoticeSavedReset);
    assert!(n.contains(said.split(" (").next().unwrap()), "{n}");
    assert!(n.contains("outbox-playground-reset/1/"), "{n}");
    let other = storage::storage()
        .unwrap()
        .get_item("someone-else")
        .unwrap();
    assert_eq!(other.as_deref(), Some("kept"));
    storage::storage()
        .unwrap()
        .remove_item("someone-else")
        .unwrap();
}

/// `?reset-saved-state=1` in a link (it can ride on a challenge link) is not the panel's
/// token: nothing saved is touched (#40), also when the panel has armed a token.
#[wasm_bindgen_test]
async fn a_reset_link_not_armed_by_the_panel_resets_nothing() {
    for armed in [false, true] {
        arrange_saved_keys();
        if armed {
            outbox_playground::error_panel::show("a test panic");
            if let Some(p) = document()
                .query_selector("[data-testid=panic-panel]")
                .unwrap()
            {
                p.remove();
            }
        }
        for query in [
            "?reset-saved-state=1",
            "?reset-saved-state=",
            "?reset-saved-state",
        ] {
            start_with_query(query);
            assert_eq!(
                storage::get(KEY).as_deref(),
                Some("{\"saved\": 1}"),
                "{query}"
            );
            assert_eq!(
                storage::get(&corrupt_key(PROGRESS_KEY)).as_deref(),
                Some("{}")
            );
            assert!(take_set_aside().is_empty(), "{query}: nothing set aside");
        }
        assert!(outbox_playground::browser::saved_reset::take_reset_notice().is_none());
    }
    storage::storage()
        .unwrap()
        .remove_item("someone-else")
        .unwrap();
}
