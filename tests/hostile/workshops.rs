//! Issue #40's data loss and wrong state around challenge and workshop links and files: a
//! reset parameter riding on a challenge link, workshops that share an id, a bad link
//! pasted while a workshop is open, a challenge over the page's cap, an error notice
//! replaced by an info one, a file said to come "from the link", and a run link carrying
//! thousands of fault rules.

use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use outbox_model::challenge::{Challenge, Workshop};
use outbox_model::lesson::lesson_challenges;
use outbox_model::scenario::{Fault, When, MAX_FAULTS};
use outbox_model::Step;
use outbox_playground::browser::storage::KEY as RUN_KEY;
use outbox_playground::challenge::link::{challenge_fragment, workshop_fragment};
use outbox_playground::i18n::{t, Key, Lang};
use outbox_playground::lesson::ctl::PROGRESS_KEY;
use serde_json::Value;

use crate::common::*;
use crate::harness::*;
use crate::payloads::*;

/// The page's saved state as (key, value) pairs, sorted.
async fn saved(client: &Client) -> Result<Vec<(String, String)>, BoxError> {
    let v = client
        .execute(
            "return Object.keys(localStorage).sort().map((k) => [k, localStorage.getItem(k)]);",
            vec![],
        )
        .await?;
    let pairs = v.as_array().cloned().unwrap_or_default();
    Ok(pairs
        .iter()
        .map(|p| {
            let s = |i: usize| p[i].as_str().unwrap_or_default().to_string();
            (s(0), s(1))
        })
        .collect())
}

async fn set_item(client: &Client, key: &str, value: &str) -> TestResult {
    client
        .execute(
            "localStorage.setItem(arguments[0], arguments[1]);",
            vec![key.into(), value.into()],
        )
        .await?;
    Ok(())
}

fn workshop(id: &str, challenges: Vec<Challenge>) -> Workshop {
    Workshop {
        v: 1,
        id: id.into(),
        title: [("uz".to_string(), format!("{id} seminari"))].into(),
        challenges,
    }
}

/// The first words of a notice's text (before its `{why}` or a parenthesis), to find it
/// on the page.
fn said(key: Key) -> &'static str {
    let text = t(Lang::Uz, key);
    text.split(['(', '{']).next().unwrap_or(text).trim_end()
}

/// `?reset-saved-state=1` riding on a challenge link resets nothing (#40: it wiped the
/// course's progress, every workshop's, the saved run and the safety copies).
#[test]
fn a_reset_parameter_on_a_challenge_link_loses_nothing() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            open_page(&client, &page).await?;
            let run = outbox_playground::run::link::to_json(&named_run("mine", "my own run"));
            set_item(&client, RUN_KEY, &run).await?;
            set_item(&client, "outbox-playground/v1/run/corrupt", "a kept copy").await?;
            set_item(&client, "outbox-playground/v1/workshop/x/progress", "{}").await?;
            let before = saved(&client).await?;
            let link = challenge_fragment(&lesson_challenges()[0]);
            let url = format!("{page}?reset-saved-state=1{link}");
            open_page(&client, &url).await?;
            assert_clean(&seen(&client).await?, "reset on a link");
            let after = saved(&client).await?;
            for (k, v) in &before {
                let kept = after.iter().any(|(_, w)| w == v);
                assert!(kept, "{k} lost after the link: {:?}", short(v, 60));
            }
            assert!(
                after
                    .iter()
                    .all(|(k, _)| !k.starts_with("outbox-playground-reset/")),
                "a link set the state aside: {after:?}"
            );
            Ok(())
        })
        .await;
    });
}

/// Three workshops that share an id (a stranger's link may take any) keep their own
/// progress (#40: each opened set the other's aside as corrupt, over the last copy).
#[test]
fn workshops_sharing_an_id_keep_their_own_progress() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            let cs = lesson_challenges();
            let a = workshop("friday", cs[..3].to_vec());
            let b = workshop("friday", cs[3..5].to_vec());
            let c = workshop("friday", cs[5..6].to_vec());
            open_page(&client, &page).await?;
            // A's progress, as a page before #40 saved it: on its third challenge.
            let mine = format!(
                "{{\"workshop\":\"friday\",\"step\":2,\"done\":[\"{}\"],\"predictions\":[]}}",
                cs[0].id
            );
            set_item(
                &client,
                "outbox-playground/v1/workshop/friday/progress",
                &mine,
            )
            .await?;
            for w in [&a, &b, &c, &a] {
                open_page(&client, &format!("{page}{}", workshop_fragment(w))).await?;
                assert_clean(&seen(&client).await?, "a workshop link");
            }
            let open = client
                .find(Locator::Css(&css("challenge")))
                .await?
                .attr("data-challenge")
                .await?;
            assert_eq!(
                open.as_deref(),
                Some(cs[2].id.as_str()),
                "A reopened without its progress; saved: {:?}",
                saved(&client).await?
            );
            Ok(())
        })
        .await;
    });
}

/// A bad challenge link pasted while a workshop is open leaves the workshop's run out of
/// the course: reaching its goal ticks no course step (#40).
#[test]
fn a_bad_link_pasted_in_an_open_workshop_ticks_no_course_step() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            let step = lesson_challenges().remove(0);
            open_page(&client, &format!("{page}{}", challenge_fragment(&step))).await?;
            wait_attr(&client, "challenge", "data-challenge", &step.id, 20).await?;
            dismiss_notice(&client).await?;
            client
                .execute("location.hash = '#challenge=***';", vec![])
                .await?;
            wait_notice(&client, 10)
                .await?
                .ok_or("the bad link is not reported")?;
            set_value(&client, "speed", "7").await?;
            click(&client, "challenge-solution").await?;
            wait_attr(&client, "challenge-goal", "data-reached", "true", 30).await?;
            tokio::time::sleep(Duration::from_millis(1000)).await;
            let course = saved(&client)
                .await?
                .into_iter()
                .find(|(k, _)| k == PROGRESS_KEY)
                .map(|(_, v)| v)
                .unwrap_or_default();
            let done: Vec<String> = serde_json::from_str::<Value>(&course)
                .ok()
                .and_then(|v| serde_json::from_value(v["done"].clone()).ok())
                .unwrap_or_default();
            assert!(
                !done.contains(&step.id),
                "the workshop's run ticked the course's step: {course}"
            );
            Ok(())
        })
        .await;
    });
}

/// A challenge over the page's cap (tasks and preloaded events) is refused when its link
/// opens, naming the cap; no workshop opens whose "Show me" would act on another run.
#[test]
fn a_challenge_over_the_pages_cap_is_refused_at_once() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            let mut big = lesson_challenges().remove(0);
            big.scenario.workload.tasks = 100_000;
            big.scenario.workload.preloaded_events = 100_001;
            let started = Instant::now();
            open_page(&client, &format!("{page}{}", challenge_fragment(&big))).await?;
            let notice = wait_notice(&client, 10).await?;
            let s = seen(&client).await?;
            assert_clean(&s, "a challenge over the cap");
            let text = s.notice.unwrap_or_default();
            eprintln!(
                "over the cap: {:?} {}",
                started.elapsed(),
                short(&text, 200)
            );
            assert!(
                notice.is_some() && text.contains(said(Key::NoticeBadChallenge)),
                "{text}"
            );
            assert!(notice_digits(&text).contains("200000"), "{text}");
            let open = client.find(Locator::Css(&css("workshop"))).await.is_ok();
            assert!(!open, "the workshop opened");
            Ok(())
        })
        .await;
    });
}

/// An error said at start (an unreadable saved run) is not replaced by "the challenge is
/// open" when a challenge link opens with it (#40).
#[test]
fn an_error_notice_is_not_replaced_by_an_info_notice() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            open_page(&client, &page).await?;
            set_item(&client, RUN_KEY, "{\"v\": 1, \"cut short").await?;
            let link = challenge_fragment(&lesson_challenges()[1]);
            open_page(&client, &format!("{page}{link}")).await?;
            wait_attr(
                &client,
                "challenge",
                "data-challenge",
                &lesson_challenges()[1].id,
                20,
            )
            .await?;
            let text = seen(&client).await?.notice.unwrap_or_default();
            assert!(text.contains(said(Key::NoticeBadSaved)), "replaced: {text}");
            Ok(())
        })
        .await;
    });
}

/// A workshop opened from a file says so, not "from the link" (#40).
#[test]
fn a_workshop_from_a_file_says_it_came_from_the_file() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            open_page(&client, &page).await?;
            let w = workshop("juma", lesson_challenges()[..2].to_vec());
            let path = std::env::temp_dir()
                .join(format!("outbox-hostile-{}-juma.json", std::process::id()));
            std::fs::write(&path, w.to_json())?;
            dismiss_notice(&client).await?;
            open_tab(&client, "builder").await?;
            reveal(&client, "builder-open-file").await?;
            let input = client.find(Locator::Css(&css("builder-open-file"))).await?;
            input.send_keys(&path.display().to_string()).await?;
            wait_attr(
                &client,
                "challenge",
                "data-challenge",
                &w.challenges[0].id,
                20,
            )
            .await?;
            let _ = std::fs::remove_file(&path);
            let text = seen(&client).await?.notice.unwrap_or_default();
            assert!(text.contains(said(Key::NoticeWorkshopOpenedFile)), "{text}");
            Ok(())
        })
        .await;
    });
}

/// A run link with thousands of fault rules that never fire is refused at once, naming
/// the list and its limit (#40: 1 600 of them held the page 4.3 s on opening).
#[test]
fn a_run_link_with_thousands_of_fault_rules_is_refused_at_once() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            let mut run = named_run("rules", "");
            let rule = Fault::Kill {
                process: "api".into(),
                step: Step::Respond,
                when: When::Nth { n: u32::MAX },
                times: Some(1),
                per_task: false,
            };
            run.scenario.faults = vec![rule; 1_400];
            let (took, _) = open_page(&client, &url_of(&page, &run)).await?;
            let s = seen(&client).await?;
            assert_clean(&s, "1 400 fault rules");
            let text = s.notice.unwrap_or_default();
            eprintln!("1 400 rules: refused in {took:?}: {}", short(&text, 200));
            assert!(
                text.contains("faults") && text.contains(&MAX_FAULTS.to_string()),
                "{text}"
            );
            eprintln!("longest busy stretch of the tab: {} ms", s.gap);
            assert!(took < REPLAY_BOUND, "refused after {took:?}");
            Ok(())
        })
        .await;
    });
}
