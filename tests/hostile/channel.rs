//! The speaker-notes channel: junk and floods.

use std::time::{Duration, Instant};

use fantoccini::wd::WindowHandle;
use fantoccini::{Client, Locator};
use outbox_model::lesson::STEPS;
use outbox_playground::lesson::presenter::CHANNEL;
use serde_json::{json, Value};

use crate::common::*;
use crate::harness::*;
use crate::payloads::*;

/// Opens a speaker-notes window (watched) next to the main window, and waits until it
/// shows its notes; the notes window is current. Returns the main and the notes window.
async fn open_notes_window(
    client: &Client,
    page: &str,
) -> Result<(WindowHandle, WindowHandle), BoxError> {
    let main = client.window().await?;
    let notes = client.new_window(false).await?.handle;
    client.switch_to_window(notes.clone()).await?;
    install_watch(client).await?;
    client.goto(&format!("{page}?notes")).await?;
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css(&css("speaker-notes")))
        .await?;
    Ok((main, notes))
}

/// The notes window's step, language and amount of text.
async fn notes_state(client: &Client) -> Result<Value, fantoccini::error::CmdError> {
    client
        .execute(
            "const s = document.querySelector('[data-testid=notes-step]');
             return [s ? s.getAttribute('data-step') : 'waiting', document.documentElement.lang,
                     document.body.innerText.length];",
            vec![],
        )
        .await
}

/// Messages the channel must ignore: near misses of its format, out-of-range steps,
/// unknown languages, payloads, and other types.
fn junk() -> Vec<Value> {
    let long = long_payload();
    vec![
        json!(""),
        json!(" "),
        json!("hello "),
        json!(" hello"),
        json!("HELLO"),
        json!("hello\0"),
        json!("hi"),
        json!(format!("{} uz", STEPS.len())),
        json!("99 uz"),
        json!("-1 uz"),
        json!("18446744073709551616 uz"),
        json!("99999999999999999999999999 en"),
        json!("1 xx"),
        json!("1 EN"),
        json!("1 en "),
        json!("1  en"),
        json!("1\ten"),
        json!("1 en\0"),
        json!("\u{202e}1 en"),
        json!("1 en extra"),
        json!("NaN en"),
        json!("1.5 en"),
        json!("0x1 en"),
        json!("<script>window.__pwned=1</script>"),
        json!("1 <img src=x onerror=\"window.__pwned=1\">"),
        json!("<svg onload=\"window.__pwned=1\"> en"),
        json!("javascript:window.__pwned=1"),
        json!(long),
        json!(format!("1 {long}")),
        json!(1),
        json!(null),
        json!(true),
        json!([1, "en"]),
        json!({ "step": 1, "lang": "en" }),
    ]
}

/// Posts the junk (`arguments[1]`) and two binary messages on the channel, counting
/// replies in `window.__junkReplies()`.
const POST_JUNK: &str = "const ch = new BroadcastChannel(arguments[0]);
                 let replies = 0;
                 ch.onmessage = () => { replies += 1; };
                 for (const m of arguments[1]) ch.postMessage(m);
                 ch.postMessage(new ArrayBuffer(16));
                 ch.postMessage(new Blob(['1 en']));
                 window.__junkReplies = () => replies;
                 window.__junkChannel = ch;";

/// The main window after the junk: clean, silent, on the same lesson step, alive.
async fn check_main_after_junk(client: &Client, main_before: Option<String>) -> TestResult {
    let s = seen(client).await?;
    assert_clean(&s, "main window after the junk");
    let replies = client
        .execute("return window.__junkReplies()", vec![])
        .await?;
    assert_eq!(replies.as_u64(), Some(0), "the main window answered junk");
    assert_eq!(
        text_of(client, "lesson-step").await.ok(),
        main_before,
        "the junk moved the main window's lesson"
    );
    assert_alive(client, "main window after the junk").await?;
    Ok(())
}

/// Junk and hostile messages on the speaker-notes channel are ignored by the main window
/// and by a notes window: nothing changes, nothing runs, nothing is answered.
#[test]
fn the_speaker_notes_channel_ignores_junk() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            open_page(&client, &page).await?;
            let (main, notes) = open_notes_window(&client, &page).await?;
            tokio::time::sleep(Duration::from_millis(500)).await;
            let before = notes_state(&client).await?;
            eprintln!("notes window before the junk: {before}");

            let junk = junk();
            // From the notes window (its own channel object does not hear itself; the page's
            // does), then from the main window.
            client
                .execute(POST_JUNK, vec![CHANNEL.into(), Value::Array(junk.clone())])
                .await?;
            client.switch_to_window(main.clone()).await?;
            let main_before = text_of(&client, "lesson-step").await.ok();
            client
                .execute(POST_JUNK, vec![CHANNEL.into(), Value::Array(junk.clone())])
                .await?;
            tokio::time::sleep(Duration::from_millis(1500)).await;
            check_main_after_junk(&client, main_before).await?;
            client.switch_to_window(notes).await?;
            let s = seen(&client).await?;
            assert_clean(&s, "notes window after the junk");
            let after = notes_state(&client).await?;
            eprintln!("notes window after the junk: {after}");
            assert_eq!(after[0], before[0], "the junk moved the notes window");
            assert_eq!(
                after[1], before[1],
                "the junk changed the notes window's language"
            );
            client.close_window().await?;
            client.switch_to_window(main).await?;
            Ok(())
        })
        .await;
    });
}

/// Posts `arguments[2]` copies of `arguments[1]` on the channel and answers the longest
/// posting slice (ms); replies are counted in `window.__floodReplies()`.
const FLOOD_JS: &str = "const [name, message, total, done] = arguments;
                         const ch = new BroadcastChannel(name);
                         let replies = 0;
                         ch.onmessage = () => { replies += 1; };
                         window.__floodReplies = () => replies;
                         window.__floodChannel = ch;
                         window.__gaps.max = 0;
                         let sent = 0, longest = 0;
                         const slice = () => {
                           const t0 = performance.now();
                           for (let i = 0; i < 500 && sent < total; i++, sent++) ch.postMessage(message);
                           longest = Math.max(longest, performance.now() - t0);
                           if (sent < total) setTimeout(slice, 0); else done(longest);
                         };
                         slice();";

/// One flood of [`FLOOD`] copies of `message` on the main window, measured and checked.
async fn flood(client: &Client, kind: &str, message: Value) -> TestResult {
    // Posted in slices of 500 per task, so that the test's own tasks stay short.
    let posted = client
        .execute_async(FLOOD_JS, vec![CHANNEL.into(), message, FLOOD.into()])
        .await?;
    let posting = posted.as_f64().unwrap_or(-1.0);
    // Let the page work through the messages, asking it something meanwhile.
    let start = Instant::now();
    let mut worst_answer = Duration::ZERO;
    while start.elapsed() < Duration::from_secs(4) {
        let asked = Instant::now();
        client.execute("return 1", vec![]).await?;
        worst_answer = worst_answer.max(asked.elapsed());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let s = seen(client).await?;
    let replies = client
        .execute("return window.__floodReplies()", vec![])
        .await?;
    eprintln!(
        "flood of {FLOOD} {kind:?}: longest task {:.0} ms (the test's own posting slices: {posting:.0} ms), \
         longest unanswered script {} ms, {} replies",
        s.gap,
        worst_answer.as_millis(),
        replies
    );
    assert_clean(&s, &format!("flood of {kind}"));
    assert!(
        s.gap < FLOOD_TASK_BOUND_MS,
        "a flood of {FLOOD} {kind:?} blocked the main window for {:.0} ms",
        s.gap
    );
    assert!(
        worst_answer < Duration::from_millis(FLOOD_TASK_BOUND_MS as u64 + 500),
        "a script waited {worst_answer:?} during the flood"
    );
    assert_alive(client, &format!("flood of {kind}")).await?;
    Ok(())
}

/// The notes window (current) came through the floods: it answers, and shows a step.
async fn check_notes_after_floods(client: &Client) -> TestResult {
    let asked = Instant::now();
    let s = seen(client).await?;
    let answer = asked.elapsed();
    assert_clean(&s, "notes window after the floods");
    let step = client
        .execute(
            "const s = document.querySelector('[data-testid=notes-step]'); return s ? s.getAttribute('data-step') : null;",
            vec![],
        )
        .await?;
    eprintln!(
        "notes window after the floods: answered in {} ms, on step {step}",
        answer.as_millis()
    );
    assert!(
        answer < REPLAY_BOUND,
        "the notes window took {answer:?} to answer after the floods"
    );
    Ok(())
}

/// 10 000 messages on the speaker-notes channel do not block the main window: no task
/// there runs longer than [`FLOOD_TASK_BOUND_MS`], and the page still answers.
#[test]
fn a_flood_on_the_speaker_notes_channel_does_not_block_the_page() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            open_page(&client, &page).await?;
            // A speaker-notes window hears every answer of the main window.
            let (main, notes) = open_notes_window(&client, &page).await?;
            client.switch_to_window(main.clone()).await?;
            tokio::time::sleep(Duration::from_millis(1000)).await;
            for (kind, message) in [("hello", json!("hello")), ("junk", json!("99 uz <b>x</b>"))] {
                flood(&client, kind, message).await?;
            }
            // The notes window came through too: it answers, and shows a step.
            client.switch_to_window(notes).await?;
            check_notes_after_floods(&client).await?;
            client.close_window().await?;
            client.switch_to_window(main).await?;
            Ok(())
        })
        .await;
    });
}
