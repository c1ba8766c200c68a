//! Crafted share links: hostile texts, and the panic link.

use std::time::Duration;

use fantoccini::Locator;
use outbox_model::lesson::STEPS;
use outbox_model::scenario::{Fault, Timed};
use outbox_model::{Action, Step};
use outbox_playground::lesson::ctl::PROGRESS_KEY;
use outbox_playground::run::sim::Input;
use serde_json::json;

use crate::common::*;
use crate::harness::*;
use crate::payloads::*;

/// The crafted links of one payload: where a link carries text.
fn hostile_links(page: &str, payload: &str) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if payload.len() >= 100_000 {
        // Both at once would be over the link limit: one field each.
        out.push(("name", url_of(page, &named_run(payload, "s"))));
        out.push(("summary", url_of(page, &named_run("n", payload))));
    } else {
        out.push((
            "name and summary",
            url_of(page, &named_run(payload, payload)),
        ));
    }
    // A process name in the run's log (the model knows no such process).
    let mut run = named_run("hostile-process", "");
    run.inputs.push(Input::Act(Action::Kill {
        process: payload.to_string(),
    }));
    run.inputs.push(Input::Ticks(3));
    out.push(("process in the log", url_of(page, &run)));
    // … in a standing fault rule …
    let mut run = named_run("hostile-fault", "");
    run.scenario.faults.push(Fault::Kill {
        process: payload.to_string(),
        step: Step::QueueAdd,
        when: outbox_model::scenario::When::Nth { n: 1 },
        times: Some(1),
        per_task: false,
    });
    out.push(("process in a fault", url_of(page, &run)));
    // … and in a scheduled action.
    let mut run = named_run("hostile-schedule", "");
    run.scenario.schedule.push(Timed {
        at_tick: 2,
        action: Action::Kill {
            process: payload.to_string(),
        },
    });
    out.push(("process in the schedule", url_of(page, &run)));
    out
}

#[test]
fn hostile_links_run_no_script_and_open_or_say_why() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            let mut slowest = (Duration::ZERO, String::new());
            for (label, payload) in payloads() {
                for (field, url) in hostile_links(&page, &payload) {
                    let what = format!("link, {label} in the {field}");
                    let (took, _) = open_page(&client, &url).await?;
                    let s = seen(&client).await?;
                    assert_clean(&s, &what);
                    assert_opened_or_told(&s, &what);
                    if field.starts_with("process") {
                        assert!(
                            s.notice.is_some(),
                            "{what}: a run naming an unknown process opened without a notice"
                        );
                    }
                    eprintln!(
                        "{what}: {} ms, {}",
                        took.as_millis(),
                        s.notice
                            .as_deref()
                            .map(|n| format!("notice {}", short(n, 140)))
                            .unwrap_or_else(|| "opened".into())
                    );
                    if took > slowest.0 {
                        slowest = (took, what.clone());
                    }
                }
                assert_alive(&client, label).await?;
            }
            eprintln!(
                "slowest hostile link: {} ms ({})",
                slowest.0.as_millis(),
                slowest.1
            );
            Ok(())
        })
        .await;
    });
}

#[test]
fn the_panic_link_does_not_panic_the_page() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            for (label, run) in panic_runs() {
                let what = format!("panic link ({label})");
                let (took, _) = open_page(&client, &url_of(&page, &run)).await?;
                let s = seen(&client).await?;
                assert_clean(&s, &what);
                assert_opened_or_told(&s, &what);
                eprintln!(
                    "{what}: {} ms, {}",
                    took.as_millis(),
                    s.notice
                        .as_deref()
                        .map(|n| format!("notice {}", short(n, 140)))
                        .unwrap_or_else(|| "opened".into())
                );
                assert_alive(&client, &what).await?;
                // Whatever was saved from it does not panic the next visit either.
                open_page(&client, &page).await?;
                let s = seen(&client).await?;
                assert_clean(&s, &format!("{what}, reloaded"));
            }
            Ok(())
        })
        .await;
    });
}

/// The panic panel and its "reset saved state". No link panics the page any more, so the
/// test causes the panic itself (`window.__outboxPanic`, which the page sets only under
/// WebDriver) after saving progress and opening one of the panic links: the panel
/// shows the panic in its report, its reset forgets the saved state, and the page comes
/// back without a panel.
#[test]
fn the_panic_panel_shows_and_its_reset_forgets_the_saved_state() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            open_page(&client, &page).await?;
            // A step done: the saved state the reset must forget.
            let progress = json!({ "step": 1, "done": [STEPS[0].id] });
            client
                .execute(
                    "localStorage.setItem(arguments[0], arguments[1])",
                    vec![PROGRESS_KEY.into(), progress.to_string().into()],
                )
                .await?;
            let (label, run) = panic_runs().remove(0);
            open_page(&client, &url_of(&page, &run)).await?;
            assert!(!seen(&client).await?.panic, "{label}: the page panicked");
            // In a task of its own: the panic ends the wasm call, not the WebDriver script.
            client
                .execute(
                    "setTimeout(() => window.__outboxPanic('provoked by the test'), 0)",
                    vec![],
                )
                .await?;
            let report = "const a = document.querySelector('[data-testid=panic-panel] textarea');
                          return a ? a.value : null;";
            let report = wait_js_value(&client, report, "the panic panel", 20).await?;
            assert!(
                report.contains("provoked by the test") && report.contains("run: "),
                "the report names the panic and the saved run: {}",
                short(&report, 300)
            );
            client
                .find(Locator::Css(&css("panic-reset")))
                .await?
                .click()
                .await?;
            // The reset is a page load (`?reset-saved-state=1`, dropped once done).
            let fresh = "return !location.search.includes('reset-saved-state')
                          && document.querySelector('[data-testid=panic-panel]') === null
                          && document.querySelector('[data-testid=tagline]') !== null
                          ? 'fresh' : null;";
            wait_js_value(&client, fresh, "the page after the reset", 30).await?;
            let saved = client
                .execute(
                    "return localStorage.getItem(arguments[0])",
                    vec![PROGRESS_KEY.into()],
                )
                .await?;
            let done = saved
                .as_str()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(t).ok())
                .map(|p| p["done"].clone());
            assert!(
                done.as_ref()
                    .is_none_or(|d| d.as_array().is_some_and(Vec::is_empty)),
                "the reset kept the saved progress: {saved}"
            );
            assert!(
                !seen(&client).await?.panic,
                "the page panics after the reset"
            );
            assert_alive(&client, "after the reset").await?;
            Ok(())
        })
        .await;
    });
}

/// Polls `script` until it returns a string (not null); that string.
async fn wait_js_value(
    client: &fantoccini::Client,
    script: &str,
    what: &str,
    secs: u64,
) -> Result<String, BoxError> {
    let deadline = std::time::Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(v) = client.execute(script, vec![]).await?.as_str() {
            return Ok(v.to_string());
        }
        if std::time::Instant::now() > deadline {
            return Err(format!("{what}: not there after {secs} s").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
