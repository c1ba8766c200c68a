//! Layer 3, "Prove it" end to end: the bounded claims (dual write breaks, outbox + inbox
//! holds), the crash-point matrix (a "lost" cell loads a run whose counters say lost = 1),
//! lockstep counters that part ways, and the sequence diagram of the loaded run.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::time::{Duration, Instant};

use common::*;
use fantoccini::{Client, Locator};
use outbox_playground::i18n::words::{proc_name, step_name};
use outbox_playground::i18n::{t, Key, Lang};

async fn session(width: u32, height: u32) -> (Client, String) {
    let page = env_url("OUTBOX_E2E_URL");
    let webdriver = env_url("OUTBOX_WEBDRIVER_URL");
    (connect(&webdriver, width, height, &[]).await, page)
}

async fn attr(client: &Client, testid: &str, name: &str) -> Option<String> {
    client
        .find(Locator::Css(&css(testid)))
        .await
        .ok()?
        .attr(name)
        .await
        .ok()
        .flatten()
}

async fn wait_attr_some(
    client: &Client,
    testid: &str,
    name: &str,
    secs: u64,
) -> Result<String, String> {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(v) = attr(client, testid, name).await.filter(|v| !v.is_empty()) {
            return Ok(v);
        }
        if Instant::now() > deadline {
            return Err(format!("{testid}[{name}] never set"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// #41: run with BullMQ's defaults (maxStalledCount 1), a job failed by two kills of its
/// worker is not lost, and retried it is acted on once; the bounds line names every
/// setting that is not a BullMQ/PostgreSQL default.
async fn retried_once_at_the_defaults(client: &Client) -> TestResult {
    let retried =
        wait_attr_some(client, "claim-outbox_inbox-retried_once", "data-holds", 5).await?;
    assert_eq!(retried, "true", "a failed job, retried, is acted on once");
    let bounds = text_of(client, "proof-bounds").await?;
    assert!(
        bounds.contains("lockDuration 1 s (30 s)")
            && bounds.contains("stalledInterval 1 s (30 s)")
            && bounds.contains("maxStalledCount 1"),
        "{bounds}"
    );
    Ok(())
}

#[tokio::test]
async fn the_explorer_proves_the_lessons_claims_in_the_page() {
    let (client, page) = session(1920, 1080).await;
    with_session(client, |client| async move {
        open(&client, &page).await?;
        open_tab(&client, "proof").await?;
        reveal(&client, "proof").await?;

        // The bounded search: dual write loses an event, outbox + inbox loses none.
        click(&client, "proof-run").await?;
        let dual = wait_attr_some(&client, "claim-dual_write_db_first-lost", "data-holds", 60).await?;
        let inbox = wait_attr_some(&client, "claim-outbox_inbox-lost", "data-holds", 60).await?;
        assert_eq!(dual, "false", "dual write must have a counterexample");
        assert_eq!(inbox, "true", "outbox + inbox must hold");
        let dup = wait_attr_some(&client, "claim-outbox_inbox-duplicate_effects", "data-holds", 5).await?;
        assert_eq!(dup, "true");
        retried_once_at_the_defaults(&client).await?;
        let progress = text_of(&client, "proof-progress").await?;
        eprintln!("explorer in the page: {progress}");

        // The counterexample loads into the playground.
        click(&client, "claim-load-dual_write_db_first-lost").await?;
        assert_eq!(counter(&client, "lost").await?, "1");

        // The crash-point matrix: the API killed before its queue.add under dual write.
        click(&client, "matrix-run").await?;
        let cell = "cell-api-queue_add-dual_write_db_first";
        let outcome = wait_attr_some(&client, cell, "data-outcome", 120).await?;
        assert_eq!(outcome, "lost");
        // Outbox + inbox: the same API kill at COMMIT is fine.
        let fine = wait_attr_some(&client, "cell-api-commit-outbox_inbox", "data-outcome", 120).await?;
        assert_eq!(fine, "fine");
        click(&client, cell).await?;
        assert_eq!(counter(&client, "lost").await?, "1", "the lost cell's run shows lost = 1");
        // #24: the page says what it loaded: the design, the kill point, the steps.
        // #42: named as the page names designs and steps, not by internal ids.
        let notice = text_of(&client, "notice").await?;
        let design = t(Lang::Uz, Key::DesignDualDbFirst);
        let point = format!(
            "{} · {}",
            proc_name(Lang::Uz, "api"),
            step_name(Lang::Uz, outbox_model::Step::QueueAdd)
        );
        assert!(
            notice.contains(design) && notice.contains(&point) && !notice.contains("dual_write_db_first"),
            "{notice}"
        );
        // A loaded counterexample is the explorer's run: it ticks no lesson step (#42).
        assert_eq!(
            attr(&client, "lesson-goal", "data-reached").await.as_deref(),
            Some("false"),
            "a loaded counterexample reached the lesson's goal"
        );
        let svg = client.find(Locator::Css(&css("sequence-svg"))).await?.html(true).await?;
        assert!(svg.contains("class=\"kill\""), "the diagram marks the kill");
        set_viewport(&client, 1920, 1080).await?;
        client.execute("document.querySelector('[data-testid=matrix]').scrollIntoView()", vec![]).await?;
        screenshot(&client, "matrix-1920x1080.png").await?;

        // Lockstep: the same kills, dual write loses, outbox + inbox does not.
        click(&client, "ls-run").await?;
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let lost_dual = text_of(&client, "ls-dual_write_db_first-lost").await.unwrap_or_default();
            let lost_inbox = text_of(&client, "ls-outbox_inbox-lost").await.unwrap_or_default();
            let dup_outbox = text_of(&client, "ls-outbox-duplicate_effects").await.unwrap_or_default();
            // 20 tasks, the API killed at i % 10 == 3 → tasks 3 and 13 lose their events
            // under dual write (the lesson's rule at a smaller size).
            if lost_dual == "2" && lost_inbox == "0" && dup_outbox != "0" && !dup_outbox.is_empty() {
                break;
            }
            if Instant::now() > deadline {
                return Err(format!("lockstep: dual lost {lost_dual}, inbox lost {lost_inbox}, outbox dup {dup_outbox}").into());
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        Ok(())
    })
    .await;
}

/// Clicks `testid` from the page's own script (no WebDriver round trip in between, so two
/// clicks land in the same task).
async fn click_now(client: &Client, testids: &[&str]) -> TestResult {
    let sels: Vec<serde_json::Value> = testids.iter().map(|t| css(t).into()).collect();
    client
        .execute(
            "for (const s of arguments[0]) document.querySelector(s).click();",
            vec![serde_json::Value::Array(sels)],
        )
        .await?;
    Ok(())
}

/// Notes in the page (`window.__readyDipped`) when the pool's count of loaded workers goes
/// below their number: a worker was terminated. In the page, because the dip lasts only
/// until the new worker has loaded, which a poll over WebDriver may miss.
async fn watch_ready_dip(client: &Client) -> TestResult {
    client
        .execute(
            "window.__readyDipped = false;
             const note = document.querySelector('[data-testid=proof-workers]');
             const all = Number(note.dataset.workers);
             new MutationObserver((records) => {
               if (Number(note.dataset.ready) < all
                   || records.some((r) => Number(r.oldValue) < all)) {
                 window.__readyDipped = true;
               }
             }).observe(note, { attributes: true, attributeFilter: ['data-ready'],
                                attributeOldValue: true });",
            vec![],
        )
        .await?;
    Ok(())
}

/// Polls until `script` returns `true`.
async fn wait_js_true(client: &Client, script: &str, secs: u64) -> TestResult {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while client.execute(script, vec![]).await?.as_bool() != Some(true) {
        if Instant::now() > deadline {
            return Err(format!("never true in {secs} s: {script}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(())
}

/// #22: the searches run in Web Workers (the page says how many), the search's wasm never
/// loads on the page's thread, and Stop ends a search at once; the next run finishes.
#[tokio::test]
async fn the_searches_run_in_web_workers_and_stop_at_once() {
    let (client, page) = session(1280, 720).await;
    with_session(client, |client| async move {
        open(&client, &format!("{page}?tab=proof")).await?;
        let workers = wait_attr_some(&client, "proof-workers", "data-workers", 30).await?;
        assert!(workers.parse::<u32>()? >= 1, "workers: {workers}");
        // Every worker loaded: Run hands them the searches at once (not into a queue).
        wait_attr(&client, "proof-workers", "data-ready", &workers, 60).await?;
        watch_ready_dip(&client).await?;

        // Run and stop in one task: the outbox + inbox search (~51 000 states) is cut.
        click_now(&client, &["proof-run", "proof-stop"]).await?;
        assert_eq!(
            attr(&client, "proof-run", "disabled").await,
            None,
            "Run is offered again"
        );
        // Stop ends a running search by terminating its worker and loading a new one: once
        // the pool's ready count has dipped and come back, nothing of the cut search can
        // answer any more.
        wait_js_true(&client, "return window.__readyDipped === true", 30).await?;
        wait_attr(&client, "proof-workers", "data-ready", &workers, 60).await?;
        let cut = attr(&client, "claim-outbox_inbox-lost", "data-holds")
            .await
            .unwrap_or_default();
        assert_eq!(cut, "", "a stopped search gives no verdict");

        click(&client, "proof-run").await?;
        let inbox = wait_attr_some(&client, "claim-outbox_inbox-lost", "data-holds", 60).await?;
        assert_eq!(inbox, "true");
        let ms = wait_attr_some(&client, "claim-outbox_inbox", "data-search-ms", 5).await?;
        eprintln!(
            "outbox + inbox in the worker: {ms} ms ({})",
            text_of(&client, "proof-progress").await?
        );
        let here = client
            .execute("return typeof window.__outboxProve", vec![])
            .await?;
        assert_eq!(
            here, "undefined",
            "the search wasm stays off the page's thread"
        );
        Ok(())
    })
    .await;
}

/// #22: a browser without Web Workers is told so in "Prove it", and the same searches run
/// on the page's own thread when asked; nothing else breaks.
#[tokio::test]
async fn without_web_workers_the_page_says_so_and_searches_on_its_own_thread() {
    let (client, page) = session(1280, 720).await;
    with_session(client, |client| async move {
        let no_workers = DevTools {
            cmd: "Page.addScriptToEvaluateOnNewDocument",
            params: serde_json::json!({ "source": "delete window.Worker;" }),
        };
        client.issue_cmd(no_workers).await?;
        open(&client, &format!("{page}?tab=proof")).await?;
        client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css(&css("proof-workers-failed")))
            .await?;
        // Asked before the fallback is chosen: the search waits for it, then runs.
        click(&client, "proof-run").await?;
        click(&client, "proof-run-here").await?;
        let dual =
            wait_attr_some(&client, "claim-dual_write_db_first-lost", "data-holds", 60).await?;
        let inbox = wait_attr_some(&client, "claim-outbox_inbox-lost", "data-holds", 60).await?;
        assert_eq!((dual.as_str(), inbox.as_str()), ("false", "true"));
        assert!(
            text_of(&client, "proof-here").await?.len() > 10,
            "the page says where it searches"
        );
        click(&client, "matrix-run").await?;
        let cell = wait_attr_some(
            &client,
            "cell-api-queue_add-dual_write_db_first",
            "data-outcome",
            60,
        )
        .await?;
        assert_eq!(cell, "lost");
        // The playground still plays.
        click(&client, "claim-load-dual_write_db_first-lost").await?;
        assert_eq!(counter(&client, "lost").await?, "1");
        Ok(())
    })
    .await;
}

/// #22: a worker that cannot start (here its script is missing, as after a broken upload)
/// is said in "Prove it" with the browser's reason, and the searches run on the page's own
/// thread when asked. (DevTools' URL blocking does not reach a worker's script, so the
/// page's `Worker` is given a wrong address instead.)
#[tokio::test]
async fn a_worker_that_cannot_start_is_said_and_the_page_offers_its_own_thread() {
    let (client, page) = session(1280, 720).await;
    with_session(client, |client| async move {
        let missing = DevTools {
            cmd: "Page.addScriptToEvaluateOnNewDocument",
            params: serde_json::json!({ "source": "{ const W = window.Worker; \
                window.Worker = function (url, o) { return new W(url + '.missing', o); }; }" }),
        };
        client.issue_cmd(missing).await?;
        open(&client, &format!("{page}?tab=proof")).await?;
        client
            .wait()
            .at_most(Duration::from_secs(20))
            .for_element(Locator::Css(&css("proof-workers-failed")))
            .await?;
        let said = text_of(&client, "proof-workers-failed").await?;
        assert!(
            said.contains("prove-loader.js"),
            "the reason names the file: {said}"
        );
        click(&client, "proof-run-here").await?;
        click(&client, "proof-run").await?;
        let dual =
            wait_attr_some(&client, "claim-dual_write_db_first-lost", "data-holds", 60).await?;
        assert_eq!(
            dual, "false",
            "dual write loses an event, found on the page's thread"
        );
        Ok(())
    })
    .await;
}
