//! Layer 3, end to end: the release build in `dist/`, served on 127.0.0.1, driven through
//! chromedriver. `cargo xtask test` builds and serves the page, starts the driver and passes
//! both addresses in `OUTBOX_E2E_URL` and `OUTBOX_WEBDRIVER_URL`.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::time::Duration;

use common::*;
use fantoccini::{Client, Locator};
use outbox_playground::i18n::{t, Key, Lang};
use outbox_playground::run::link;
use outbox_playground::run::sim::Sim;

async fn session(width: u32, height: u32) -> (Client, String) {
    let page = env_url("OUTBOX_E2E_URL");
    let webdriver = env_url("OUTBOX_WEBDRIVER_URL");
    (connect(&webdriver, width, height, &[]).await, page)
}

/// Every process card's status line (alive, dead, waiting for …), in page order.
async fn statuses(client: &Client) -> Result<Vec<String>, fantoccini::error::CmdError> {
    let mut out = Vec::new();
    for el in client
        .find_all(Locator::Css("[data-testid^=\"status-\"]"))
        .await?
    {
        out.push(el.text().await?);
    }
    Ok(out)
}

#[tokio::test]
async fn language_switch_changes_the_page() {
    let (client, page) = session(1920, 1080).await;
    with_session(client, |client| async move {
        open(&client, &page).await?;
        assert_eq!(text_of(&client, "title").await?, t(Lang::Uz, Key::Title));
        wait_for_text(&client, "tagline", t(Lang::Uz, Key::Tagline), 10).await?;
        click(&client, "lang-en").await?;
        wait_for_text(&client, "tagline", t(Lang::En, Key::Tagline), 10).await?;
        let lang = html_lang(&client).await?;
        assert_eq!(
            lang.as_deref(),
            Some("en"),
            "<html lang> did not follow the switch"
        );
        Ok(())
    })
    .await;
}

/// A first visit (no `?lang=`, nothing saved) opens in the first of the browser's
/// languages the page has; `?lang=` still wins over it.
#[tokio::test]
async fn a_first_visit_follows_the_browsers_languages() {
    let page = env_url("OUTBOX_E2E_URL");
    let webdriver = env_url("OUTBOX_WEBDRIVER_URL");
    let client = connect(&webdriver, 1366, 768, &["--accept-lang=de-DE,en-GB,uz"]).await;
    with_session(client, |client| async move {
        open(&client, &page).await?;
        wait_for_text(&client, "tagline", t(Lang::En, Key::Tagline), 10).await?;
        let lang = html_lang(&client).await?;
        assert_eq!(lang.as_deref(), Some("en"));
        let uz = format!("{page}?lang=uz");
        open(&client, &uz).await?;
        wait_for_text(&client, "tagline", t(Lang::Uz, Key::Tagline), 10).await?;
        Ok(())
    })
    .await;
}

/// The page's `<html lang>`: the language it says it speaks.
async fn html_lang(client: &Client) -> Result<Option<String>, fantoccini::error::CmdError> {
    client.find(Locator::Css("html")).await?.attr("lang").await
}

/// #21: a browser that prefers Russian (`navigator.languages` = ["ru-RU", "en"]) opens the
/// page in Russian on a first visit; the texts come from `i18n/ru.json`, fetched.
#[tokio::test]
async fn a_browser_that_prefers_russian_opens_in_russian() {
    let page = env_url("OUTBOX_E2E_URL");
    let webdriver = env_url("OUTBOX_WEBDRIVER_URL");
    let client = connect(&webdriver, 1366, 768, &["--accept-lang=ru-RU,en"]).await;
    with_session(client, |client| async move {
        open(&client, &page).await?;
        wait_for_text(&client, "tagline", t(Lang::Ru, Key::Tagline), 10).await?;
        let lang = html_lang(&client).await?;
        assert_eq!(lang.as_deref(), Some("ru"));
        let pressed = client
            .find(Locator::Css(&css("lang-ru")))
            .await?
            .attr("aria-pressed")
            .await?;
        assert_eq!(pressed.as_deref(), Some("true"));
        Ok(())
    })
    .await;
}

/// #43: a browser that prefers Uzbek in Cyrillic opens the page in it; since this stop
/// its texts are `i18n/uz-Cyrl.json`, written by `cargo xtask css` with the page's own
/// converter and fetched like Russian: the page's texts equal the converter's (natively,
/// `t` makes them from uz.json), and the switch back to Latin needs no fetch.
#[tokio::test]
async fn a_browser_that_prefers_uzbek_in_cyrillic_opens_in_cyrillic() {
    let page = env_url("OUTBOX_E2E_URL");
    let webdriver = env_url("OUTBOX_WEBDRIVER_URL");
    let client = connect(&webdriver, 1366, 768, &["--accept-lang=uz-Cyrl-UZ,ru"]).await;
    with_session(client, |client| async move {
        open(&client, &page).await?;
        let cyrillic = t(Lang::UzCyrl, Key::Tagline);
        assert_ne!(
            cyrillic,
            t(Lang::Uz, Key::Tagline),
            "the converter changed nothing"
        );
        wait_for_text(&client, "tagline", cyrillic, 10).await?;
        assert_eq!(html_lang(&client).await?.as_deref(), Some("uz-Cyrl"));
        click(&client, "lang-uz").await?;
        wait_for_text(&client, "tagline", t(Lang::Uz, Key::Tagline), 10).await?;
        Ok(())
    })
    .await;
}

/// #21: a language file that cannot be fetched leaves the page in its language and says
/// so, in that language (the page's `fetch` is replaced for the language file only, so
/// the server stays as it is).
#[tokio::test]
async fn a_language_file_that_fails_to_load_keeps_the_page_and_says_so() {
    let (client, page) = session(1366, 768).await;
    with_session(client, |client| async move {
        open(&client, &page).await?;
        // Replace fetch for the language file only: the request fails like a dropped
        // network would.
        client
            .execute(
                "const real = window.fetch;
                 window.fetch = (url, ...rest) => String(url).includes('i18n/')
                     ? Promise.reject(new TypeError('offline'))
                     : real(url, ...rest);",
                vec![],
            )
            .await?;
        click(&client, "lang-ru").await?;
        let want =
            t(Lang::Uz, Key::NoticeLangLoadFailed).replace("{lang}", t(Lang::Uz, Key::LangRuName));
        wait_for_text(&client, "lang-load-failed", &want, 10).await?;
        assert_eq!(
            text_of(&client, "tagline").await?,
            t(Lang::Uz, Key::Tagline)
        );
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn canon_runs_give_the_lessons_numbers() {
    let (client, page) = session(1920, 1080).await;
    with_session(client, |client| async move {
        open(&client, &page).await?;
        // The lesson's §2: 100 tasks, the API dies after COMMIT at every i % 10 == 3 →
        // "bazada 100, navbatda 90": 10 events lost.
        run_preset(&client, "canon-dual-write").await?;
        assert_eq!(counter(&client, "tasks_in_db").await?, "100");
        assert_eq!(counter(&client, "queue_jobs").await?, "90");
        assert_eq!(counter(&client, "lost").await?, "10");
        assert_eq!(
            text_of(&client, "canon-line").await?,
            "bazada 100, navbatda 90"
        );
        set_viewport(&client, 1920, 1080).await?;
        screenshot(&client, "playground-1920x1080.png").await?;
        client
            .execute(
                "document.querySelector('[data-testid=pipeline]').scrollIntoView()",
                vec![],
            )
            .await?;
        screenshot(&client, "playground-1920x1080-pipeline.png").await?;

        // The lesson's §3: the same kills with the outbox → 100 and 100, nothing lost.
        run_preset(&client, "canon-outbox").await?;
        assert_eq!(counter(&client, "tasks_in_db").await?, "100");
        assert_eq!(counter(&client, "queue_jobs").await?, "100");
        assert_eq!(counter(&client, "lost").await?, "0");
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_phone_gets_the_whole_page_without_sideways_scrolling() {
    let page = env_url("OUTBOX_E2E_URL");
    let client = connect_phone(&env_url("OUTBOX_WEBDRIVER_URL"), 390, 844).await;
    with_session(client, |client| async move {
        open(&client, &page).await?;
        run_preset(&client, "canon-dual-write").await?;
        assert_eq!(counter(&client, "lost").await?, "10");
        let widths = client
            .execute(
                "return [window.innerWidth, document.documentElement.scrollWidth]",
                vec![],
            )
            .await?;
        let (inner, scroll) = (
            widths[0].as_u64().unwrap_or(0),
            widths[1].as_u64().unwrap_or(0),
        );
        assert_eq!(inner, 390, "the emulated phone is 390 px wide");
        assert!(
            scroll <= inner,
            "the page is {scroll} px wide on a {inner} px screen"
        );
        screenshot(&client, "playground-390x844.png").await?;
        client
            .execute(
                "document.querySelector('[data-testid=pipeline]').scrollIntoView()",
                vec![],
            )
            .await?;
        screenshot(&client, "playground-390x844-pipeline.png").await?;
        Ok(())
    })
    .await;
}

/// #21: Russian on a phone: the longer words wrap inside their cards (no sideways
/// scrolling), and axe finds no serious or critical violation.
#[tokio::test]
async fn russian_on_a_phone_fits_and_passes_axe() {
    let axe = std::fs::read_to_string(env_url("OUTBOX_AXE_JS")).expect("read axe.min.js");
    let page = env_url("OUTBOX_E2E_URL");
    let client = connect_phone(&env_url("OUTBOX_WEBDRIVER_URL"), 390, 844).await;
    with_session(client, move |client| async move {
        open(&client, &format!("{page}?lang=ru")).await?;
        wait_for_text(&client, "tagline", t(Lang::Ru, Key::Tagline), 10).await?;
        run_preset(&client, "canon-dual-write").await?;
        client
            .execute(
                "document.querySelector('[data-testid=modes]').open = true",
                vec![],
            )
            .await?;
        let widths = client
            .execute(
                "return [window.innerWidth, document.documentElement.scrollWidth]",
                vec![],
            )
            .await?;
        let (inner, scroll) = (
            widths[0].as_u64().unwrap_or(0),
            widths[1].as_u64().unwrap_or(0),
        );
        assert!(
            scroll <= inner,
            "in Russian the page is {scroll} px wide on a {inner} px screen"
        );
        screenshot(&client, "playground-ru-390x844.png").await?;
        client
            .execute(
                "document.querySelector('[data-testid=pipeline]').scrollIntoView()",
                vec![],
            )
            .await?;
        screenshot(&client, "playground-ru-390x844-pipeline.png").await?;
        client.execute(&axe, vec![]).await?;
        let result = client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 axe.run(document, { resultTypes: ['violations'] })
                    .then(r => done(JSON.stringify(r.violations
                        .filter(v => v.impact === 'serious' || v.impact === 'critical')
                        .map(v => ({ id: v.id, target: v.nodes.slice(0, 3).map(n => n.target.join(' ')) })))))
                    .catch(e => done('error: ' + e));",
                vec![],
            )
            .await?;
        let text = result.as_str().unwrap_or_default().to_string();
        assert_eq!(text, "[]", "axe in Russian at 390 px");
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_relay_killed_after_its_queue_add_is_absorbed_by_the_job_id() {
    let (client, page) = session(1920, 1080).await;
    with_session(client, |client| async move {
        open(&client, &page).await?;
        set_value(&client, "preset", "canon-outbox").await?;
        // Ten tasks, one row per poll, so the kill catches exactly one published event.
        set_value(&client, "mode-tasks", "10").await?;
        set_value(&client, "mode-batch", "1").await?;
        // Kill the relay when it next reaches "UPDATE published", i.e. after its queue.add
        // and before its COMMIT.
        click(&client, "arm-relay-1-mark_published").await?;
        run_to_end(&client).await?;
        // The row stayed unpublished, the restarted relay added it again, and
        // jobId = hodisa_id absorbed the second add: one dedup hit, no duplicate delivery.
        assert_eq!(counter(&client, "queue_dedup_hits").await?, "1");
        assert_eq!(counter(&client, "duplicate_deliveries").await?, "0");
        assert_eq!(counter(&client, "queue_jobs").await?, "10");
        assert_eq!(counter(&client, "effects").await?, "10");
        assert_eq!(counter(&client, "lost").await?, "0");
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_shared_link_replays_the_same_run() {
    let (client, page) = session(1920, 1080).await;
    let (url, seen) = {
        let page = page.clone();
        let result = std::sync::Arc::new(std::sync::Mutex::new(None));
        let out = result.clone();
        with_session(client, move |client| async move {
            open(&client, &page).await?;
            set_value(&client, "preset", "canon-outbox").await?;
            for _ in 0..40 {
                click(&client, "step").await?;
            }
            click(&client, "kill-relay-1").await?;
            for _ in 0..20 {
                click(&client, "step").await?;
            }
            let url = share_url(&client).await?;
            assert!(url.contains("#run="), "{url}");
            let seen = (
                counters(&client).await?,
                text_of(&client, "timeline-value").await?,
                statuses(&client).await?,
            );
            *out.lock().unwrap() = Some((url, seen));
            Ok(())
        })
        .await;
        let got = result.lock().unwrap().take().unwrap();
        got
    };
    // A new session (its own profile, so no saved state) opens the link.
    let (client, _) = session(1920, 1080).await;
    with_session(client, move |client| async move {
        open(&client, &url).await?;
        wait_for_text(&client, "timeline-value", &seen.1, 20).await?;
        assert_eq!(counters(&client).await?, seen.0);
        assert_eq!(statuses(&client).await?, seen.2);
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_broken_link_gets_a_message_and_a_fresh_scenario() {
    let (client, page) = session(1920, 1080).await;
    with_session(client, |client| async move {
        // Not base64 at all.
        open(&client, &format!("{page}#run=%%%not-a-run")).await?;
        let notice = text_of(&client, "notice").await?;
        let start = t(Lang::Uz, Key::NoticeBadLink).split(" (").next().unwrap();
        assert!(notice.contains(start), "{notice}");
        assert_eq!(counter(&client, "tick").await?, "0");
        assert_eq!(counter(&client, "tasks_in_db").await?, "0");

        // Well-formed, but tampered: four relays is more than the model allows.
        let mut run = Sim::new(outbox_model::preset("canon-outbox").unwrap()).to_run();
        run.scenario.config.relays = 4;
        // A new document (a fragment change alone would not reload the page).
        client.goto("about:blank").await?;
        open(&client, &format!("{page}#{}", link::fragment(&run))).await?;
        let notice = text_of(&client, "notice").await?;
        assert!(notice.contains("relays"), "{notice}");
        // The page still works: it runs the default scenario.
        run_to_end(&client).await?;
        assert_eq!(counter(&client, "tasks_in_db").await?, "100");
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn reloading_brings_the_saved_scenario_back() {
    let (client, page) = session(1920, 1080).await;
    with_session(client, |client| async move {
        open(&client, &page).await?;
        set_value(&client, "preset", "exercise-3").await?;
        for _ in 0..7 {
            click(&client, "step").await?;
        }
        let before = (
            text_of(&client, "timeline-value").await?,
            counters(&client).await?,
        );
        client.refresh().await?;
        open(&client, &page).await?;
        let preset = client
            .find(Locator::Css(&css("preset")))
            .await?
            .prop("value")
            .await?;
        assert_eq!(preset.as_deref(), Some("exercise-3"));
        wait_for_text(&client, "timeline-value", &before.0, 10).await?;
        assert_eq!(counters(&client).await?, before.1);
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn axe_finds_no_serious_or_critical_violations() {
    let axe = std::fs::read_to_string(env_url("OUTBOX_AXE_JS")).expect("read axe.min.js");
    let (client, page) = session(1920, 1080).await;
    with_session(client, move |client| async move {
        open(&client, &page).await?;
        // Populate every panel: part of a run, an event's lifecycle, the modes open.
        set_value(&client, "speed", "5").await?;
        click(&client, "play").await?;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        click(&client, "play").await?;
        client
            .execute(
                "document.querySelector('[data-testid=modes]').open = true",
                vec![],
            )
            .await?;
        set_value(&client, "life-event", "1").await?;
        for lang in ["uz", "en", "ru"] {
            click(&client, &format!("lang-{lang}")).await?;
            // Russian is fetched on demand: wait until the page has switched.
            let code = Lang::from_code(lang).expect("a language of the page");
            wait_for_text(&client, "tagline", t(code, Key::Tagline), 10).await?;
            tokio::time::sleep(Duration::from_millis(200)).await;
            if lang == "ru" {
                // #21: long Russian words must stay inside their cards.
                screenshot(&client, "playground-ru-1920x1080.png").await?;
            }
            client.execute(&axe, vec![]).await?;
            let result = client
                .execute_async(
                    "const done = arguments[arguments.length - 1];
                     axe.run(document, { resultTypes: ['violations'] })
                        .then(r => done(JSON.stringify(r.violations.map(v => ({
                            id: v.id, impact: v.impact, nodes: v.nodes.length,
                            target: v.nodes.slice(0, 3).map(n => n.target.join(' ')),
                            why: v.nodes.slice(0, 2).map(n => (n.any[0] || n.all[0] || n.none[0] || {}).message) })))))
                        .catch(e => done('error: ' + e));",
                    vec![],
                )
                .await?;
            let text = result.as_str().unwrap_or_default().to_string();
            assert!(!text.starts_with("error"), "axe failed: {text}");
            let violations: Vec<serde_json::Value> = serde_json::from_str(&text)?;
            eprintln!("axe ({lang}): {} violation kinds: {text}", violations.len());
            let bad: Vec<_> = violations
                .iter()
                .filter(|v| matches!(v["impact"].as_str(), Some("serious" | "critical")))
                .collect();
            assert!(
                bad.is_empty(),
                "serious or critical violations ({lang}): {bad:?}"
            );
        }
        Ok(())
    })
    .await;
}

/// #24: opening someone's run leaves the opener's lesson progress alone, and the page says
/// it is a shared run, with its scenario and its number of steps.
#[tokio::test]
async fn a_shared_run_does_not_mark_the_openers_progress() {
    let (client, page) = session(1366, 768).await;
    let url = {
        let page = page.clone();
        let result = std::sync::Arc::new(std::sync::Mutex::new(None));
        let out = result.clone();
        with_session(client, move |client| async move {
            open(&client, &page).await?;
            // The first step's goal, reached here: the API dies after COMMIT.
            click(&client, "arm-api-queue_add").await?;
            run_to_end(&client).await?;
            assert_eq!(goal_reached(&client).await?.as_deref(), Some("true"));
            let url = share_url(&client).await?;
            *out.lock().unwrap() = Some(url);
            Ok(())
        })
        .await;
        let got = result.lock().unwrap().take().unwrap();
        got
    };
    let (client, _) = session(1366, 768).await;
    with_session(client, move |client| async move {
        open(&client, &url).await?;
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let mut notice = String::new();
        while !notice.contains("Ulashilgan yugurish: lesson-lose-dual") {
            assert!(std::time::Instant::now() < deadline, "notice: {notice:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
            notice = text_of(&client, "notice").await.unwrap_or_default();
        }
        assert_eq!(
            goal_reached(&client).await?.as_deref(),
            Some("false"),
            "someone else's run reaches no goal for the opener"
        );
        let done = text_of(&client, "progress-done").await?;
        assert!(done.starts_with("0 "), "progress: {done}");
        Ok(())
    })
    .await;
}

/// The current lesson step's goal: "true" once reached.
async fn goal_reached(client: &Client) -> Result<Option<String>, fantoccini::error::CmdError> {
    client
        .find(Locator::Css(&css("lesson-goal")))
        .await?
        .attr("data-reached")
        .await
}

/// Presses «Havolani ulashish» and reads the link the page offers.
async fn share_url(client: &Client) -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
    click(client, "share").await?;
    Ok(client
        .find(Locator::Css(&css("share-url")))
        .await?
        .prop("value")
        .await?
        .unwrap_or_default())
}
