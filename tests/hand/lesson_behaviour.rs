//! #42, the lesson's behaviour: a variant says which ☠ it armed, the card's rule shows
//! that kill's rule, and the hint no longer asks for the ☠ the variant armed (pressing it
//! disarmed it: LOST 0, goal not reached); the step's answers and Reset have keys.

use std::time::Duration;

use fantoccini::Client;
use outbox_playground::i18n::{t, Key, Lang};

use super::common::*;
use super::session;

async fn press_body(client: &Client, key: &str) -> TestResult {
    client
        .find(fantoccini::Locator::Css("body"))
        .await?
        .send_keys(key)
        .await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    Ok(())
}

/// Steps 2 and 6: the variant's armed ☠ is named, the card's rule is the canon's, the
/// hint says to press ▶ only, and the run reaches the goal.
#[tokio::test]
async fn a_variant_says_what_it_armed() {
    let (client, page) = session(1920, 1080).await;
    with_session(client, |client| async move {
        open(&client, &format!("{}/?lang=en", page.trim_end_matches('/'))).await?;
        for (step, variant, hint) in [
            (
                "queue-first",
                "dual-write-queue-first",
                Key::LQueueFirstHint,
            ),
            ("pool", "outbox-pool", Key::LPoolHint),
        ] {
            click(&client, &format!("lesson-nav-{step}")).await?;
            wait_attr(&client, "lesson-step", "data-step", step, 10).await?;
            click(&client, &format!("variant-{variant}")).await?;
            let armed = text_of(&client, "variant-armed").await?;
            assert!(
                armed.contains("API"),
                "{step}: the variant names its ☠: {armed}"
            );
            wait_attr(&client, "rule-api", "data-rule", "mod", 5).await?;
            if attr(&client, "lesson-hint", "aria-expanded")
                .await?
                .as_deref()
                != Some("true")
            {
                click(&client, "lesson-hint").await?;
            }
            let said = text_of(&client, "lesson-hint-text").await?;
            assert_ne!(
                said,
                t(Lang::En, hint),
                "{step}: the hint asks for the armed ☠"
            );
            assert_eq!(said, t(Lang::En, Key::VariantHint));
            run_to_end(&client).await?;
            wait_attr(&client, "lesson-goal", "data-reached", "true", 20).await?;
            // The card said "killed 10×" beside "next time (once)" on main.
            wait_attr(&client, "rule-api", "data-rule", "mod", 5).await?;
        }
        Ok(())
    })
    .await;
}

/// Presenter mode: A, B, C answer the step's question in the order shown; 0 resets the
/// run (the timeline back at its start).
#[tokio::test]
async fn answers_and_reset_have_keys() {
    let (client, page) = session(1280, 720).await;
    with_session(client, |client| async move {
        // The step list is folded away in presenter mode: choose the step first, then P.
        open(&client, &format!("{}/?lang=en", page.trim_end_matches('/'))).await?;
        click(&client, "lesson-nav-why-inside").await?;
        wait_attr(&client, "lesson-step", "data-step", "why-inside", 10).await?;
        press_body(&client, "p").await?;
        press_body(&client, "b").await?;
        let second = client
            .execute(
                "const r = document.querySelectorAll('[data-testid=lesson-step] .quiz__options input[type=radio]');
                 return r.length === 3 && r[1].checked;",
                vec![],
            )
            .await?;
        assert_eq!(second, serde_json::Value::Bool(true), "B chose the second answer");
        wait_attr(&client, "why-why", "aria-live", "polite", 5).await?;
        set_value(&client, "speed", "3").await?;
        press_body(&client, ".").await?;
        press_body(&client, ".").await?;
        let moved = text_of(&client, "timeline-value").await?;
        press_body(&client, "0").await?;
        let reset = text_of(&client, "timeline-value").await?;
        assert_ne!(moved, reset, "0 did not reset the run");
        Ok(())
    })
    .await;
}

/// After a run the card says what happened in the cards' words; the LOST counter opens the
/// lost event's life; the kill stays pinned in the log; the app role's 42501 is on its
/// card with the statement; the CDC step's counts add up and say why the column is empty.
#[tokio::test]
async fn a_run_says_what_just_happened() {
    use outbox_playground::i18n::words::{class_name, step_name};
    let (client, page) = session(1920, 1080).await;
    with_session(client, |client| async move {
        lose_dual_run_in_english(&client, &page).await?;
        // Drawn through a door (the details' chunk) once the run has finished.
        client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(fantoccini::Locator::Css(&css("what-happened")))
            .await?;
        let said = text_of(&client, "what-happened").await?;
        let queue_add = step_name(Lang::En, outbox_model::Step::QueueAdd);
        assert!(said.contains('☠') && said.contains(&queue_add), "{said}");
        assert!(said.contains(t(Lang::En, Key::HappenedWhyLost)), "{said}");

        // The LOST counter opens the lost event's life.
        click(&client, "counter-lost").await?;
        wait_attr(&client, "details-tab-life", "aria-selected", "true", 5).await?;
        wait_for_text(
            &client,
            "life-class",
            class_name(Lang::En, outbox_model::Class::Lost),
            5,
        )
        .await?;

        // The kill is pinned above the log.
        open_tab(&client, "log").await?;
        let pinned = text_of(&client, "log-pinned").await?;
        assert!(pinned.contains(&queue_add), "{pinned}");

        // §3.1: the app role's refused statement, on its card.
        click(&client, "lesson-nav-app-role").await?;
        wait_attr(&client, "lesson-step", "data-step", "app-role", 10).await?;
        run_to_end(&client).await?;
        let error = client
            .find(fantoccini::Locator::Css("[data-testid^=error-]"))
            .await?
            .text()
            .await?;
        assert!(error.contains("42501"), "{error}");

        // §4.3: CDC, no preloaded rows: as many outbox rows as tasks, none unpublished at
        // the end, and the note on tarqatilgan_vaqt.
        click(&client, "lesson-nav-cdc").await?;
        wait_attr(&client, "lesson-step", "data-step", "cdc", 10).await?;
        click(&client, "arm-cdc-save_offset").await?;
        run_to_end(&client).await?;
        let tasks = number(&counter(&client, "tasks_in_db").await?);
        let rows = number(&text_of(&client, "db-outbox-count").await?);
        assert_eq!(rows, tasks, "outbox rows vs tasks");
        assert_eq!(number(&text_of(&client, "db-outbox-unpublished").await?), 0);
        text_of(&client, "cdc-note").await?;
        Ok(())
    })
    .await;
}

/// Exercise 1 in Russian: «релей» is right; a wrong word shows the expected one; the
/// consoles' Uzbek words are glossed.
#[tokio::test]
async fn exercise_words_follow_the_language() {
    let (client, page) = session(1920, 1080).await;
    with_session(client, |client| async move {
        open(&client, &format!("{}/?lang=ru", page.trim_end_matches('/'))).await?;
        click(&client, "tab-exercises").await?;
        set_value(&client, "blank-2", "Релей").await?;
        set_value(&client, "blank-4", "очередь").await?;
        click(&client, "blanks-check").await?;
        wait_attr(&client, "blank-2-result", "data-right", "true", 5).await?;
        let expected = text_of(&client, "blank-4-expected").await?;
        assert!(expected.contains("inbox"), "{expected}");
        set_value(&client, "ex2-guess", "1, 2, 4, 5, 3").await?;
        click(&client, "ex2-run").await?;
        let gloss = text_of(&client, "ex2-gloss").await?;
        assert!(gloss.contains("tarqatildi"), "{gloss}");
        Ok(())
    })
    .await;
}
