//! #42, where the eye is: notices and hints float and move nothing (the hint marks and
//! shows the ☠ it names); a run's "what just happened" says, in the step's own words, what
//! the kill did, with its tick, and moves nothing on a tablet either; the LOST counter
//! opens every lost event with the tick of the kill that struck it.
//!
//! Positions are measured in the document (a box's top plus the page's scroll), so a
//! scroll the page makes on purpose (to show the hinted ☠) is not a jump.

use std::time::Duration;

use fantoccini::Client;
use outbox_playground::i18n::{t, Key, Lang};
use serde_json::Value;

use super::common::*;
use super::session;

/// The tops of Play and the pipeline in the document (on the screen for what is fixed: the
/// phone's control bar).
async fn tops(client: &Client) -> Result<Vec<f64>, fantoccini::error::CmdError> {
    let v = client
        .execute(
            "const fixed = el => { for (let e = el; e; e = e.parentElement) if (getComputedStyle(e).position === 'fixed') return true; return false; };
             const top = s => { const el = document.querySelector(s); const r = el.getBoundingClientRect(); return r.top + (fixed(el) ? 0 : window.scrollY); };
             return [top('[data-testid=play]'), top('[data-testid=pipeline]')];",
            vec![],
        )
        .await?;
    Ok(v.as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default())
}

/// Waits for an element drawn through a door (the details' chunk), then its text.
async fn text_when_drawn(
    client: &Client,
    testid: &str,
) -> Result<String, fantoccini::error::CmdError> {
    client
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(fantoccini::Locator::Css(&css(testid)))
        .await?
        .text()
        .await
}

/// Whether the element lies inside the viewport, whole.
async fn on_screen(client: &Client, testid: &str) -> Result<bool, fantoccini::error::CmdError> {
    let v = client
        .execute(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();
             return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight
               && r.left >= 0 && r.right <= window.innerWidth;",
            vec![css(testid).into()],
        )
        .await?;
    Ok(v == Value::Bool(true))
}

/// The boxes of the stage's parts (three levels down): what a failed "moves nothing"
/// names, so the culprit is in the message.
async fn stage_boxes(client: &Client) -> Result<Vec<Value>, fantoccini::error::CmdError> {
    let v = client
        .execute(
            "const out = [];
             const walk = (el, d) => { if (d > 2) return; for (const c of el.children) {
               const r = c.getBoundingClientRect();
               out.push([c.tagName + '.' + c.className + '#' + (c.dataset.testid || ''), Math.round(r.top + scrollY), Math.round(r.height)]);
               walk(c, d + 1); } };
             walk(document.querySelector('.stage-main'), 0); return out;",
            vec![],
        )
        .await?;
    Ok(v.as_array().cloned().unwrap_or_default())
}

/// The boxes that differ.
fn moved(before: &[Value], after: &[Value]) -> Vec<String> {
    before
        .iter()
        .zip(after)
        .filter(|(b, a)| b != a)
        .map(|(b, a)| format!("{b} -> {a}"))
        .collect()
}

fn phone_or_desk(width: u32) -> bool {
    width <= 640
}

async fn client_at(width: u32, height: u32) -> (Client, String) {
    if phone_or_desk(width) {
        let page = env_url("OUTBOX_E2E_URL");
        let webdriver = env_url("OUTBOX_WEBDRIVER_URL");
        (connect_phone(&webdriver, width, height).await, page)
    } else {
        session(width, height).await
    }
}

/// A notice (a broken run link followed while the page is open: an error notice and
/// nothing else) floats: Play and the pipeline stay where they were. On main a notice
/// above the stage pushed both down.
#[tokio::test]
async fn a_notice_moves_nothing() {
    for (w, h) in [(1366, 768), (900, 1000), (412, 915)] {
        let (client, page) = client_at(w, h).await;
        with_session(client, move |client| async move {
            open(&client, &format!("{}/?lang=en", page.trim_end_matches('/'))).await?;
            let before = tops(&client).await?;
            client
                .execute("location.hash = 'run=not-a-run'", vec![])
                .await?;
            client
                .wait()
                .at_most(Duration::from_secs(5))
                .for_element(fantoccini::Locator::Css(&css("notice")))
                .await?;
            tokio::time::sleep(Duration::from_millis(300)).await;
            let after = tops(&client).await?;
            assert_eq!(
                before, after,
                "{w}×{h}: the notice moved Play / the pipeline"
            );
            assert!(
                on_screen(&client, "notice").await?,
                "{w}×{h}: the notice is off the screen"
            );
            screenshot(&client, &format!("eye-notice-{w}x{h}.png")).await?;
            Ok(())
        })
        .await;
    }
}

/// Step 1's hint: it opens on the screen without moving the stage, and the ☠ it names
/// (after COMMIT, before queue.add) is marked and on the screen. On main the hint grew the
/// lesson's card (above the stage on a tablet, after it on a phone: off the screen) and
/// marked nothing.
#[tokio::test]
async fn a_hint_opens_where_the_eye_is() {
    for (w, h) in [(1366, 768), (900, 1000), (412, 915)] {
        let (client, page) = client_at(w, h).await;
        with_session(client, move |client| async move {
            // A first visit opens the lesson's first step (on a phone its list is under
            // the control bar).
            open(&client, &format!("{}/?lang=en", page.trim_end_matches('/'))).await?;
            wait_attr(&client, "lesson-step", "data-step", "lose-dual", 10).await?;
            let before = tops(&client).await?;
            client
                .execute(
                    "document.querySelector('[data-testid=lesson-hint]').click()",
                    vec![],
                )
                .await?;
            wait_attr(&client, "arm-api-queue_add", "data-hinted", "", 5).await?;
            tokio::time::sleep(Duration::from_millis(800)).await;
            let after = tops(&client).await?;
            assert_eq!(before, after, "{w}×{h}: the hint moved Play / the pipeline");
            assert!(
                on_screen(&client, "lesson-hint-text").await?,
                "{w}×{h}: the hint opened off the screen"
            );
            assert!(
                on_screen(&client, "arm-api-queue_add").await?,
                "{w}×{h}: the ☠ the hint names is off the screen"
            );
            screenshot(&client, &format!("eye-hint-{w}x{h}.png")).await?;
            // Closing the hint unmarks the ☠.
            client
                .execute(
                    "document.querySelector('[data-testid=lesson-hint-close]').click()",
                    vec![],
                )
                .await?;
            tokio::time::sleep(Duration::from_millis(300)).await;
            assert_eq!(
                attr(&client, "arm-api-queue_add", "data-hinted").await?,
                None
            );
            Ok(())
        })
        .await;
    }
}

/// Plays the open step's solution ("show me") to its end.
async fn show_me(client: &Client, step: &str) -> TestResult {
    click(client, &format!("lesson-nav-{step}")).await?;
    wait_attr(client, "lesson-step", "data-step", step, 10).await?;
    set_value(client, "speed", "7").await?;
    click(client, "lesson-show-me").await?;
    wait_attr(client, "lesson-goal", "data-reached", "true", 60).await?;
    wait_finished(client, 60).await
}

/// Each step's own line: its words (the template's text before the first blank), every
/// blank filled, the tick of the kill behind it the kill line's; rollback, relay twice,
/// the phantom besides step 1. On main there was no such line (generic sentences only).
#[tokio::test]
async fn each_step_says_what_its_kill_did() {
    let (client, page) = session(1920, 1080).await;
    with_session(client, move |client| async move {
        open(&client, &format!("{}/?lang=en", page.trim_end_matches('/'))).await?;
        for (step, key, words) in [
            ("lose-dual", Key::LLoseDualHappened, "queue.add never ran"),
            ("rollback", Key::LRollbackHappened, "rolled both back"),
            (
                "relay-twice",
                Key::LRelayTwiceHappened,
                "published it again",
            ),
            ("queue-first", Key::LQueueFirstHappened, "COMMIT never ran"),
        ] {
            show_me(&client, step).await?;
            let line = text_when_drawn(&client, "happened-step").await?;
            assert!(
                t(Lang::En, key).contains(words),
                "the test's words are the key's"
            );
            assert!(line.contains(words), "{step}: {line}");
            assert!(!line.contains('{'), "{step}: a blank left: {line}");
            let tick = attr(&client, "happened-step", "data-tick")
                .await?
                .expect("the line names its tick");
            assert!(line.contains(&format!("tick {tick}")), "{step}: {line}");
            // The same kill's first tick as the kill line below it says.
            let all = text_of(&client, "what-happened").await?;
            assert!(
                all.contains(&format!("first at tick {tick}")),
                "{step}: the kill line's tick differs: {all}"
            );
            screenshot(&client, &format!("eye-happened-{step}-1920.png")).await?;
        }
        Ok(())
    })
    .await;
}

/// "Every time" on step 1: ten kills, ten lost events. The LOST counter opens the life
/// tab, which lists all ten with the tick of the kill that struck each; choosing the
/// third shows its life with that tick. On main the counter opened the first only, and
/// the life said nothing of the kill.
#[tokio::test]
async fn lost_opens_every_lost_event_with_its_kill_tick() {
    let (client, page) = session(1920, 1080).await;
    with_session(client, move |client| async move {
        open(&client, &format!("{}/?lang=en", page.trim_end_matches('/'))).await?;
        click(&client, "lesson-nav-lose-dual").await?;
        wait_attr(&client, "lesson-step", "data-step", "lose-dual", 10).await?;
        click(&client, "arm-api-queue_add").await?;
        set_value(&client, "rule-api", "always").await?;
        wait_attr(&client, "rule-api", "data-rule", "always", 5).await?;
        run_to_end(&client).await?;
        // Step 1's sandbox has 10 requests (model/src/lesson/steps.rs): all ten lost.
        assert_eq!(number(&counter(&client, "lost").await?), 10);
        click(&client, "counter-lost").await?;
        wait_attr(&client, "details-tab-life", "aria-selected", "true", 5).await?;
        let listed = client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(fantoccini::Locator::Css("[data-testid=life-troubled]"))
            .await?
            .find_all(fantoccini::Locator::Css("[data-testid^=life-troubled-]"))
            .await?;
        assert_eq!(listed.len(), 10, "every lost event is listed");
        let mut ticks = Vec::new();
        for b in &listed {
            ticks.push(
                b.attr("data-tick")
                    .await?
                    .expect("each names its kill's tick"),
            );
        }
        let mut distinct = ticks.clone();
        distinct.dedup();
        assert_eq!(distinct.len(), 10, "ten kills, ten ticks: {ticks:?}");
        // The first is open (the counter's click), with its kill's tick.
        wait_attr(&client, "life-kill", "data-tick", &ticks[0], 5).await?;
        listed[2].click().await?;
        wait_attr(&client, "life-kill", "data-tick", &ticks[2], 5).await?;
        let kill = text_of(&client, "life-kill").await?;
        assert!(kill.contains(&format!("tick {}", ticks[2])), "{kill}");
        screenshot(&client, "eye-life-1920.png").await?;
        Ok(())
    })
    .await;
}

/// A tablet (56rem): the lesson's card is above the stage; a finished run writes "what
/// just happened" into it. Play and the pipeline stay put, and the line is in the card's
/// view. On main the card grew and pushed the stage down.
#[tokio::test]
async fn a_tablet_run_moves_nothing() {
    for (w, h) in [(900, 1000), (1024, 768)] {
        let (client, page) = session(w, h).await;
        with_session(client, move |client| async move {
            open(&client, &format!("{}/?lang=en", page.trim_end_matches('/'))).await?;
            click(&client, "lesson-nav-lose-dual").await?;
            wait_attr(&client, "lesson-step", "data-step", "lose-dual", 10).await?;
            click(&client, "arm-api-queue_add").await?;
            let before = tops(&client).await?;
            let boxes = stage_boxes(&client).await?;
            run_to_end(&client).await?;
            text_when_drawn(&client, "happened-step").await?;
            tokio::time::sleep(Duration::from_millis(300)).await;
            let after = tops(&client).await?;
            let changed = moved(&boxes, &stage_boxes(&client).await?);
            assert_eq!(
                before, after,
                "{w}×{h}: the run moved the stage: {changed:#?}"
            );
            let seen = client
                .execute(
                    "const el = document.querySelector('[data-testid=what-happened]');
                     const card = el.closest('.stage-side').getBoundingClientRect();
                     const r = el.getBoundingClientRect();
                     return r.top >= card.top && r.top < card.bottom;",
                    vec![],
                )
                .await?;
            assert_eq!(
                seen,
                Value::Bool(true),
                "{w}×{h}: the lines are out of the card's view"
            );
            screenshot(&client, &format!("eye-tablet-{w}x{h}.png")).await?;
            Ok(())
        })
        .await;
    }
}

/// Presenter at 1280×720 and 1920×1080: the step's own line is what the room reads after
/// a run (the general lines give way to it), in text of 18 px at least.
#[tokio::test]
async fn the_presenter_reads_the_step_s_line() {
    for (w, h) in [(1280, 720), (1920, 1080)] {
        let (client, page) = session(w, h).await;
        with_session(client, move |client| async move {
            open(&client, &format!("{}/?lang=en", page.trim_end_matches('/'))).await?;
            click(&client, "lesson-nav-lose-dual").await?;
            wait_attr(&client, "lesson-step", "data-step", "lose-dual", 10).await?;
            client
                .find(fantoccini::Locator::Css("body"))
                .await?
                .send_keys("p")
                .await?;
            client
                .wait()
                .at_most(Duration::from_secs(5))
                .for_element(fantoccini::Locator::Css("html[data-presenter]"))
                .await?;
            click(&client, "arm-api-queue_add").await?;
            run_to_end(&client).await?;
            text_when_drawn(&client, "happened-step").await?;
            let px = client
                .execute(
                    "return parseFloat(getComputedStyle(document.querySelector('[data-testid=happened-step]')).fontSize);",
                    vec![],
                )
                .await?
                .as_f64()
                .unwrap_or(0.0);
            assert!(px >= 18.0, "{w}×{h}: the line's text is {px} px");
            screenshot(&client, &format!("eye-presenter-{w}x{h}.png")).await?;
            Ok(())
        })
        .await;
    }
}
