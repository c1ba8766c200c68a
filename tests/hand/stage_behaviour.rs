//! #42, the stage's behaviour: the kill rule a card shows is the armed kill's and a new
//! rule applies to the ☠ already armed; the page's keys never press the focused button;
//! every panel is drawn from the tick the counters show when the run is paused.

use std::time::Duration;

use fantoccini::Client;

use super::common::*;
use super::session;

/// The element that has the focus receives the key (as a user's key press would).
async fn press_focused(client: &Client, key: &str) -> TestResult {
    client.active_element().await?.send_keys(key).await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    Ok(())
}

/// Arm first, then choose "every time": the armed ☠ follows the new rule, so every one of
/// the ten requests dies after COMMIT, before queue.add (on main it killed once: LOST 1).
/// A preset's standing rule shows as it is (the canon's `i % 10 == 3`, not "next time").
#[tokio::test]
async fn a_new_kill_rule_applies_to_the_armed_kill() {
    let (client, page) = session(1920, 1080).await;
    with_session(client, |client| async move {
        open(&client, &page).await?;
        click(&client, "lesson-nav-lose-dual").await?;
        wait_attr(&client, "lesson-step", "data-step", "lose-dual", 10).await?;
        click(&client, "arm-api-queue_add").await?;
        wait_attr(&client, "arm-api-queue_add", "aria-pressed", "true", 5).await?;
        wait_attr(&client, "rule-api", "data-rule", "next", 5).await?;
        set_value(&client, "rule-api", "always").await?;
        wait_attr(&client, "rule-api", "data-rule", "always", 5).await?;
        // Still armed, now under the new rule.
        wait_attr(&client, "arm-api-queue_add", "aria-pressed", "true", 5).await?;
        run_to_end(&client).await?;
        let lost = number(&counter(&client, "lost").await?);
        let tasks = number(&counter(&client, "tasks_in_db").await?);
        // The lesson's first step runs 10 requests (model/src/lesson/steps.rs).
        assert_eq!(tasks, 10, "tasks in the database");
        assert_eq!(
            lost, tasks,
            "every request died before queue.add: every event lost"
        );

        // A preset whose kill is the canon's rule shows it, not the card's default.
        set_value(&client, "preset", "canon-dual-write").await?;
        wait_attr(&client, "rule-api", "data-rule", "mod", 5).await?;
        Ok(())
    })
    .await;
}

/// After a click on "Next →", Space plays (the step stays); after a ☠, Space does not
/// disarm it; "." and "," step, not press.
#[tokio::test]
async fn keys_never_press_the_focused_button() {
    let (client, page) = session(1920, 1080).await;
    with_session(client, |client| async move {
        open(&client, &page).await?;
        click(&client, "lesson-nav-lose-dual").await?;
        wait_attr(&client, "lesson-step", "data-step", "lose-dual", 10).await?;
        click(&client, "lesson-next").await?;
        wait_attr(&client, "lesson-step", "data-step", "queue-first", 10).await?;
        press_focused(&client, " ").await?;
        assert_eq!(
            attr(&client, "lesson-step", "data-step").await?.as_deref(),
            Some("queue-first"),
            "Space pressed the focused \"Next\" button"
        );
        wait_attr(&client, "play", "aria-pressed", "true", 5).await?;
        press_focused(&client, " ").await?;
        wait_attr(&client, "play", "aria-pressed", "false", 5).await?;

        click(&client, "reset").await?;
        click(&client, "arm-api-commit").await?;
        wait_attr(&client, "arm-api-commit", "aria-pressed", "true", 5).await?;
        set_value(&client, "speed", "0").await?;
        press_focused(&client, " ").await?;
        assert_eq!(
            attr(&client, "arm-api-commit", "aria-pressed")
                .await?
                .as_deref(),
            Some("true"),
            "Space disarmed the focused ☠"
        );
        wait_attr(&client, "play", "aria-pressed", "true", 5).await?;
        press_focused(&client, " ").await?;
        wait_attr(&client, "play", "aria-pressed", "false", 5).await?;
        let before = text_of(&client, "timeline-value").await?;
        press_focused(&client, ".").await?;
        assert_ne!(
            text_of(&client, "timeline-value").await?,
            before,
            "\".\" took no step"
        );
        Ok(())
    })
    .await;
}

/// Every table, the queue and the counters read the same tick when paused: the run is
/// paused at pseudo-random moments (a fixed sequence, so a failure repeats) and each
/// panel's count is compared with its counter at once.
#[tokio::test]
async fn paused_panels_agree_with_the_counters() {
    let (client, page) = session(1920, 1080).await;
    with_session(client, |client| async move {
        open(&client, &page).await?;
        set_value(&client, "preset", "canon-outbox").await?;
        set_value(&client, "speed", "4").await?;
        // A linear congruential sequence of pauses between 120 and 520 ms.
        let mut x: u64 = 42;
        for round in 0..12 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let wait_ms = 120 + (x >> 33) % 400;
            click(&client, "play").await?;
            tokio::time::sleep(Duration::from_millis(wait_ms)).await;
            click(&client, "play").await?;
            // Two frames for the pause to be drawn, then everything read in one script.
            tokio::time::sleep(Duration::from_millis(120)).await;
            let got = client
                .execute(
                    "const n = id => { const e = document.querySelector(`[data-testid=\"${id}\"]`);
                       return e ? Number(e.textContent.replace(/[^0-9]/g, '')) : -1; };
                     const q = ['waiting','active','completed','failed']
                       .map(s => n('queue-' + s)).reduce((a, b) => a + b, 0);
                     return [n('count-tasks_in_db'), n('db-tasks-count'),
                             n('count-events_in_outbox'), n('db-outbox-count'),
                             n('count-queue_jobs'), q, n('count-tick')];",
                    vec![],
                )
                .await?;
            let v: Vec<i64> = serde_json::from_value(got)?;
            eprintln!("pause {round} after {wait_ms} ms: {v:?}");
            assert_eq!(
                v[0], v[1],
                "pause {round}: tasks counter vs tasks table {v:?}"
            );
            assert_eq!(
                v[2], v[3],
                "pause {round}: outbox counter vs outbox table {v:?}"
            );
            assert_eq!(
                v[4], v[5],
                "pause {round}: queue counter vs the queue's states {v:?}"
            );
            if attr(&client, "finished", "hidden").await?.is_none() {
                break;
            }
        }
        Ok(())
    })
    .await;
}

/// The builder in a learner's words: the scenario by its title, counters by their stage
/// labels, the goal in words, a missing title refused in words; its room link carries no
/// fixed language.
#[tokio::test]
async fn the_builder_speaks_a_learners_words() {
    use outbox_playground::i18n::{t, Key, Lang};
    let (client, page) = session(1920, 1080).await;
    with_session(client, |client| async move {
        lose_dual_run_in_english(&client, &page).await?;
        open_tab(&client, "builder").await?;
        reveal(&client, "builder-title").await?;
        let start = text_of(&client, "builder-start").await?;
        assert!(!start.contains("lesson-lose-dual"), "{start}");
        assert!(start.contains(t(Lang::En, Key::LLoseDualTitle)), "{start}");
        click(&client, "builder-add").await?;
        let words = text_of(&client, "builder-goal-words").await?;
        assert!(words.contains(t(Lang::En, Key::CLost)), "{words}");
        click(&client, "builder-record").await?;
        click(&client, "builder-check").await?;
        let why = text_of(&client, "builder-refused").await?;
        assert!(why.contains(t(Lang::En, Key::BuilderNeedTitle)), "{why}");
        assert!(!why.contains("title.en"), "{why}");
        set_value(&client, "builder-title", "Lose one").await?;
        click(&client, "builder-check").await?;
        let link = client
            .wait()
            .at_most(Duration::from_secs(20))
            .for_element(fantoccini::Locator::Css("[data-testid=builder-link]"))
            .await?
            .prop("value")
            .await?
            .unwrap_or_default();
        assert!(
            link.contains("#challenge=") && !link.contains("lang="),
            "{link}"
        );
        Ok(())
    })
    .await;
}
