//! Saved state the page cannot read, hostile saved state, and a full storage quota.

use std::time::Duration;

use fantoccini::{Client, Locator};
use outbox_model::lesson::STEPS;
use outbox_playground::browser::storage::KEY as RUN_KEY;
use outbox_playground::lesson::ctl::PROGRESS_KEY;
use outbox_playground::run::link;
use outbox_playground::run::sim::Sim;
use serde_json::{json, Value};

use crate::common::*;
use crate::harness::*;
use crate::payloads::*;

/// The unreadable saved states of one distinctive run: a future version, an unknown
/// field, broken JSON.
fn unreadable_cases() -> Result<[(&'static str, String); 3], BoxError> {
    // A distinctive run: a preset of its own and seven steps into it.
    let mut sim = Sim::new(outbox_model::preset("exercise-3").unwrap());
    sim.ticks(7);
    let mut v99 = serde_json::to_value(sim.to_run())?;
    v99["v"] = json!(99);
    let mut unknown = serde_json::to_value(sim.to_run())?;
    unknown["from_the_future"] = json!({ "x": 1 });
    let good = link::to_json(&sim.to_run());
    let mut cut = good.len() / 2;
    while !good.is_char_boundary(cut) {
        cut -= 1;
    }
    Ok([
        ("a saved run of version 99", v99.to_string()),
        ("a saved run with an unknown field", unknown.to_string()),
        ("broken JSON", good[..cut].to_string()),
    ])
}

/// The unreadable `text` is still saved, under the run key or under `corrupt`.
async fn assert_kept(
    client: &Client,
    what: &str,
    text: &str,
    corrupt: &str,
    when: &str,
) -> TestResult {
    let v = client
        .execute(
            "return [localStorage.getItem(arguments[0]), localStorage.getItem(arguments[1])]",
            vec![RUN_KEY.into(), corrupt.into()],
        )
        .await?;
    let found = (v[0].as_str() == Some(text)) || (v[1].as_str() == Some(text));
    assert!(
        found,
        "{what}: the saved text is lost {when} (run: {:?}, corrupt: {:?})",
        v[0].as_str().map(|t| short(t, 60)),
        v[1].as_str().map(|t| short(t, 60))
    );
    Ok(())
}

/// Saved state the page cannot read (a future version, broken JSON, an unknown field) is
/// refused with a notice, not half-read, and kept (under the run key or `…/corrupt`).
#[test]
fn unreadable_saved_state_is_reported_and_kept() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            let cases = unreadable_cases()?;
            let corrupt = corrupt_key();
            open_page(&client, &page).await?;
            for (what, text) in cases {
                client
                    .execute(
                        "localStorage.removeItem(arguments[2]); localStorage.setItem(arguments[0], arguments[1]);",
                        vec![RUN_KEY.into(), text.clone().into(), corrupt.clone().into()],
                    )
                    .await?;
                open_page(&client, &page).await?;
                let s = seen(&client).await?;
                assert_clean(&s, what);
                let notice = s
                    .notice
                    .clone()
                    .ok_or_else(|| format!("{what}: refused without a notice"))?;
                eprintln!("{what}: notice {}", short(&notice, 160));
                let preset = client
                    .find(Locator::Css(&css("preset")))
                    .await?
                    .prop("value")
                    .await?;
                assert_ne!(preset.as_deref(), Some("exercise-3"), "{what}: half-read");
                assert_kept(&client, what, &text, &corrupt, "after the page opened").await?;
                // A step saves the page's run: the unreadable text must survive it.
                click(&client, "step").await?;
                tokio::time::sleep(Duration::from_millis(300)).await;
                assert_kept(&client, what, &text, &corrupt, "after a step").await?;
                open_page(&client, &page).await?;
                assert_clean(&seen(&client).await?, &format!("{what}, reloaded"));
                assert_kept(&client, what, &text, &corrupt, "after a reload").await?;
                assert_alive(&client, what).await?;
            }
            Ok(())
        })
        .await;
    });
}

/// Saved state with hostile texts and out-of-range answers (issue #26's panic loop: the
/// answer 7 of a question with three, quiz answers 9) neither panics nor runs script.
#[test]
fn hostile_saved_state_neither_panics_nor_runs_script() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            open_page(&client, &page).await?;
            let why_step = STEPS.iter().position(|s| s.id == "why-inside").unwrap_or(9);
            let texts: Vec<String> = payloads()
                .into_iter()
                .filter(|(_, p)| p.len() < 1000)
                .map(|(_, p)| p)
                .collect();
            let joined = texts.join(" | ");
            let predictions: Vec<Value> = texts
                .iter()
                .map(|t| json!({ "step": t, "guess": t, "actual": t }))
                .collect();
            let mut run = named_run(&joined, &joined);
            run.scenario.name = joined.clone();
            let progress = [
                ("progress: why 7", json!({ "step": why_step, "why": 7 })),
                ("progress: quiz answers 9", json!({ "step": 0, "quiz": [9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9] })),
                (
                    "progress: hostile texts",
                    json!({ "step": 1, "done": texts, "blanks": texts, "predictions": predictions }),
                ),
                ("progress: step past the end", json!({ "step": 10_000, "why": usize::MAX })),
            ];
            for (what, value) in progress {
                client
                    .execute(
                        "localStorage.setItem(arguments[0], arguments[1]); localStorage.setItem(arguments[2], arguments[3]);",
                        vec![PROGRESS_KEY.into(), value.to_string().into(), RUN_KEY.into(), link::to_json(&run).into()],
                    )
                    .await?;
                open_page(&client, &page).await?;
                let s = seen(&client).await?;
                assert_clean(&s, what);
                // The quiz and the exercises are drawn when their tabs open.
                for tab in ["tab-quiz", "tab-exercises"] {
                    client
                        .execute(
                            "const t = document.querySelector(arguments[0]); if (t) t.click();",
                            vec![css(tab).into()],
                        )
                        .await?;
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    assert_clean(&seen(&client).await?, &format!("{what}, {tab}"));
                }
                eprintln!("{what}: notice {:?}", seen(&client).await?.notice.map(|n| short(&n, 120)));
                assert_alive(&client, what).await?;
            }
            Ok(())
        })
        .await;
    });
}

/// A save that fails because the quota is full is reported (the run goes on, and its link
/// can still be shared).
#[test]
fn a_full_storage_quota_is_reported() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            open_page(&client, &page).await?;
            set_value(&client, "preset", "canon-outbox").await?;
            dismiss_notice(&client).await?;
            client
                .execute(
                    "Storage.prototype.setItem = function () {
                       throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
                     };",
                    vec![],
                )
                .await?;
            let before = text_of(&client, "timeline-value").await?;
            click(&client, "step").await?;
            let took = wait_notice(&client, 5).await?;
            let s = seen(&client).await?;
            assert_clean(&s, "full quota");
            let after = text_of(&client, "timeline-value").await?;
            assert_ne!(after, before, "the step did not run");
            let took = took.ok_or("a save refused by a full quota is not reported")?;
            eprintln!(
                "full quota: notice after {} ms: {}",
                took.as_millis(),
                short(s.notice.as_deref().unwrap_or_default(), 160)
            );
            // The run is still in its link.
            click(&client, "share").await?;
            let url = client
                .find(Locator::Css(&css("share-url")))
                .await?
                .prop("value")
                .await?
                .unwrap_or_default();
            assert!(url.contains("#run="), "no share link: {url:?}");
            assert_alive(&client, "full quota").await?;
            Ok(())
        })
        .await;
    });
}
