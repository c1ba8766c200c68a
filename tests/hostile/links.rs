//! Crafted share links: hostile texts, and the panic link.

use std::time::Duration;

use fantoccini::Locator;
use outbox_model::scenario::{Fault, Timed};
use outbox_model::{Action, Step};
use outbox_playground::run::sim::Input;

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

/// The panic panel's "reset saved state": provoked with the panic link and saved
/// progress. After the page's fixes neither panics, and the check is skipped (printed).
#[test]
fn a_panic_panel_if_one_shows_resets_the_saved_state() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            let mut provoked = 0;
            for (label, run) in panic_runs() {
                open_page(&client, &url_of(&page, &run)).await?;
                if !seen(&client).await?.panic {
                    eprintln!("{label}: no panic provoked");
                    continue;
                }
                provoked += 1;
                // A panic saved with the run would show again on every reload until reset.
                let reset = client
                    .find(Locator::Css(&css("panic-reset")))
                    .await
                    .map_err(|e| format!("{label}: the panic panel has no reset button: {e}"))?;
                reset.click().await?;
                tokio::time::sleep(Duration::from_millis(500)).await;
                open_page(&client, &page).await?;
                let s = seen(&client).await?;
                assert!(!s.panic, "{label}: the page panics again after the reset");
                assert_alive(&client, label).await?;
            }
            if provoked == 0 {
                eprintln!("no panic could be provoked: the reset button was not exercised");
            }
            Ok(())
        })
        .await;
    });
}
