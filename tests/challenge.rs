//! Layer 3, instructors' challenges end to end (#23): a challenge built in the page (a
//! kill, the goal `lost >= 1`, a hint, the run's actions recorded as its solution),
//! checked, shared as a link, opened in a fresh browser, failed, hinted, solved; a
//! three-challenge workshop opened from a file, its progress exported, then imported in
//! another fresh browser; the QR code of a link.
//!
//! The builder's tab loads its code when first chosen (src/app/lazy.rs), so each
//! test opens it as a user would before using it.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::time::{Duration, Instant};

use common::*;
use fantoccini::{Client, Locator};
use outbox_model::challenge::Workshop;
use outbox_model::lesson::lesson_challenges;

async fn session() -> (Client, String) {
    let page = env_url("OUTBOX_E2E_URL");
    let webdriver = env_url("OUTBOX_WEBDRIVER_URL");
    (connect(&webdriver, 1366, 768, &[]).await, page)
}

type Res<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

async fn prop(client: &Client, testid: &str, name: &str) -> Res<String> {
    let el = client.find(Locator::Css(&css(testid))).await?;
    Ok(el.prop(name).await?.unwrap_or_default())
}

/// Waits for an element to exist (a panel is built a task or two after the page).
async fn wait_for(client: &Client, testid: &str) -> TestResult {
    client
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css(&css(testid)))
        .await?;
    Ok(())
}

/// Chooses a file in a file input, as a user's file dialog would.
async fn choose_file(client: &Client, testid: &str, path: &std::path::Path) -> TestResult {
    wait_for(client, testid).await?;
    reveal(client, testid).await?;
    let input = client.find(Locator::Css(&css(testid))).await?;
    input.send_keys(&path.display().to_string()).await?;
    Ok(())
}

/// Clicks a download link (the page makes its file on the click) and reads the file
/// back from the `data:` URL it pointed the link at.
async fn download(client: &Client, testid: &str) -> Res<String> {
    click(client, testid).await?;
    let href = attr(client, testid, "href").await?.unwrap_or_default();
    let data = href
        .split_once(',')
        .ok_or_else(|| format!("{testid}: not a data URL: {href:?}"))?
        .1;
    percent_decoded(data)
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("outbox-challenge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a temp file");
    path
}

/// The instructor's side: a kill, `lost >= 1`, a hint, the run recorded as the solution;
/// the check passes; the link the builder offers.
async fn build_challenge(client: &Client, page: &str) -> Res<String> {
    open(client, page).await?;
    // The first visit opens the lesson's first step: a dual write without kills.
    click(client, "arm-api-queue_add").await?;
    run_to_end(client).await?;
    open_tab(client, "builder").await?;
    wait_for(client, "builder-title").await?;
    reveal(client, "builder-title").await?;
    set_value(client, "builder-title", "Yo'qotib ko'ring").await?;
    set_value(client, "builder-body", "API COMMIT dan keyin o'lsin.").await?;
    set_value(
        client,
        "builder-hint",
        "API kartasidagi queue.add qadamining ☠ tugmasi",
    )
    .await?;
    // The form's own default is `lost >= 1`.
    click(client, "builder-add").await?;
    wait_attr(client, "builder-goal-verdict", "data-ok", "true", 5).await?;
    assert_eq!(text_of(client, "builder-goal-verdict").await?, "lost >= 1");
    // Before the solution is recorded, the check passes too (no solution to check).
    click(client, "builder-record").await?;
    click(client, "builder-check").await?;
    wait_for(client, "builder-found").await?;
    let found = text_of(client, "builder-found").await?;
    assert!(
        found.contains("qadamda"),
        "the solution was checked: {found}"
    );
    let link = prop(client, "builder-link", "value").await?;
    // #23: a typical challenge's link stays short (measured here, printed).
    eprintln!("challenge link: {} characters", link.chars().count());
    assert!(
        link.contains("#challenge=") && link.chars().count() <= 1_500,
        "{link}"
    );
    // The QR code of the link is drawn.
    click(client, "builder-qr").await?;
    wait_for(client, "qr-code").await?;
    click(client, "qr-close").await?;
    Ok(link)
}

/// A goal that holds at the start is refused before anything is shared.
async fn goal_at_start_is_refused(client: &Client) -> TestResult {
    set_value(client, "builder-goal", "lost == 0").await?;
    click(client, "builder-check").await?;
    wait_for(client, "builder-refused").await?;
    let why = text_of(client, "builder-refused").await?;
    assert!(
        why.contains("maqsad ssenariy ochilgandayoq bajarilgan"),
        "{why}"
    );
    Ok(())
}

#[tokio::test]
async fn a_challenge_built_here_is_failed_hinted_and_solved_from_its_link() {
    let (client, page) = session().await;
    let out = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let keep = out.clone();
    with_session(client, move |client| async move {
        let link = build_challenge(&client, &page).await?;
        goal_at_start_is_refused(&client).await?;
        *keep.lock().unwrap() = link;
        Ok(())
    })
    .await;
    let link = out.lock().unwrap().clone();
    let (client, _) = session().await;
    with_session(client, move |client| async move {
        open(&client, &link).await?;
        wait_for(&client, "workshop").await?;
        assert_eq!(
            text_of(&client, "challenge-title").await?,
            "Yo'qotib ko'ring"
        );
        wait_attr(&client, "challenge-goal", "data-reached", "false", 5).await?;
        // Failed: the run ends without a kill, nothing is lost.
        run_to_end(&client).await?;
        wait_for(&client, "challenge-failed").await?;
        click(&client, "challenge-hint").await?;
        let hint = text_of(&client, "challenge-hint-text").await?;
        assert!(hint.contains("queue.add"), "{hint}");
        // Solved: from the start again, with the kill.
        click(&client, "challenge-retry").await?;
        click(&client, "arm-api-queue_add").await?;
        run_to_end(&client).await?;
        wait_attr(&client, "challenge-goal", "data-reached", "true", 10).await?;
        wait_attr(&client, "challenge-item-0", "data-done", "true", 5).await?;
        screenshot(&client, "challenge-solved.png").await?;
        Ok(())
    })
    .await;
}

/// Three of the lesson's steps as a workshop file.
fn workshop_file() -> std::path::PathBuf {
    let all = lesson_challenges();
    let w = Workshop {
        v: 1,
        id: "juma".into(),
        title: [("uz".to_string(), "Juma seminari".to_string())].into(),
        challenges: all[..3].to_vec(),
    };
    temp_file("juma.json", &w.to_json())
}

#[tokio::test]
async fn a_workshop_from_a_file_and_its_progress_move_to_another_browser() {
    let file = workshop_file();
    let (client, page) = session().await;
    let out = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let keep = out.clone();
    let (f, p) = (file.clone(), page.clone());
    with_session(client, move |client| async move {
        open(&client, &p).await?;
        open_tab(&client, "builder").await?;
        choose_file(&client, "builder-open-file", &f).await?;
        wait_for(&client, "workshop").await?;
        assert_eq!(text_of(&client, "workshop-title").await?, "Juma seminari");
        for i in 0..3 {
            wait_for(&client, &format!("challenge-item-{i}")).await?;
        }
        set_value(&client, "speed", "7").await?;
        click(&client, "challenge-solution").await?;
        wait_attr(&client, "challenge-goal", "data-reached", "true", 30).await?;
        wait_attr(&client, "challenge-item-0", "data-done", "true", 5).await?;
        let progress = download(&client, "workshop-progress-export").await?;
        assert!(progress.contains("\"juma\""), "{progress}");
        *keep.lock().unwrap() = progress;
        Ok(())
    })
    .await;
    let progress = out.lock().unwrap().clone();
    let progress_file = temp_file("progress.json", &progress);
    let bad_file = temp_file("bad.json", "{\"workshop\":\"another\"}");
    let (client, _) = session().await;
    with_session(client, move |client| async move {
        open(&client, &page).await?;
        open_tab(&client, "builder").await?;
        choose_file(&client, "builder-open-file", &file).await?;
        wait_for(&client, "workshop").await?;
        wait_attr(&client, "challenge-item-0", "data-done", "false", 5).await?;
        // Another workshop's progress is refused and changes nothing.
        choose_file(&client, "workshop-progress-import", &bad_file).await?;
        wait_for_text_contains(&client, "notice", "boshqa seminarniki").await?;
        choose_file(&client, "workshop-progress-import", &progress_file).await?;
        wait_attr(&client, "challenge-item-0", "data-done", "true", 10).await?;
        Ok(())
    })
    .await;
}

async fn wait_for_text_contains(client: &Client, testid: &str, want: &str) -> TestResult {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let got = text_of(client, testid).await.unwrap_or_default();
        if got.contains(want) {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!("{testid}: expected {want:?} in {got:?}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The challenge code is fetched when first used (src/app/lazy.rs): when it cannot
/// be (offline before it was ever loaded, a broken upload), the builder's tab says so and
/// the rest of the page works on.
#[tokio::test]
async fn challenge_code_that_cannot_load_is_said_and_the_stage_works_on() {
    let (client, page) = session().await;
    with_session(client, move |client| async move {
        client
            .issue_cmd(DevTools {
                cmd: "Network.enable",
                params: serde_json::json!({}),
            })
            .await?;
        // sw.js blocked too: an installed worker would answer from its cache.
        let blocked = serde_json::json!({ "urls": ["*split_challenge-*", "*sw.js"] });
        client
            .issue_cmd(DevTools {
                cmd: "Network.setBlockedURLs",
                params: blocked,
            })
            .await?;
        open(&client, &page).await?;
        open_tab(&client, "builder").await?;
        wait_for(&client, "challenge-unloaded").await?;
        let said = text_of(&client, "challenge-unloaded").await?;
        assert!(said.contains("yuklanmadi"), "{said}");
        // The stage is untouched: the lesson's first step runs to its end.
        run_to_end(&client).await?;
        assert_eq!(counter(&client, "lost").await?, "0");
        Ok(())
    })
    .await;
}

/// Waits until the draft's first goal reads `changed` and no refusal is shown.
async fn wait_goal_taken(client: &Client, changed: &str) -> TestResult {
    let deadline = Instant::now() + Duration::from_secs(20);
    while prop(client, "draft-goal-0", "value").await? != changed
        || client
            .find(Locator::Css(&css("draft-goal-refused-0")))
            .await
            .is_ok()
    {
        assert!(Instant::now() < deadline, "the changed goal was not taken");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}

/// Copies the draft's workshop link; the link the address bar then holds.
async fn copied_workshop_link(
    client: &Client,
) -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
    reveal(client, "draft-copy").await?;
    click(client, "draft-copy").await?;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let url = client.current_url().await?.to_string();
        if url.contains("#workshop=") {
            return Ok(url);
        }
        assert!(Instant::now() < deadline, "no workshop link in the address");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// #41: the built-in lesson is a workshop an instructor can take, change and share. Its
/// file, downloaded from the builder, reads back to the lesson's own steps; taken into
/// the builder's draft, one goal changed, shared: the link opens the changed workshop in
/// another browser.
#[tokio::test]
async fn the_lesson_exported_edited_and_shared_opens_changed() {
    let (client, page) = session().await;
    let out = std::sync::Arc::new(std::sync::Mutex::new((String::new(), String::new())));
    let keep = out.clone();
    with_session(client, move |client| async move {
        open(&client, &page).await?;
        open_tab(&client, "builder").await?;
        wait_for(&client, "builder-lesson-json").await?;
        reveal(&client, "builder-lesson-json").await?;
        // Export → parse → the lesson's steps, identical.
        let file = download(&client, "builder-lesson-json").await?;
        let read = Workshop::from_json(&file).map_err(|e| format!("{e:?}"))?;
        assert_eq!(read.challenges, lesson_challenges(), "the exported steps");
        // Into the draft; the first step's goal changed in place.
        reveal(&client, "draft-lesson").await?;
        click(&client, "draft-lesson").await?;
        wait_for(&client, "draft-goal-0").await?;
        let before = prop(&client, "draft-goal-0", "value").await?;
        assert_eq!(before, lesson_challenges()[0].goal.to_string());
        // A goal that holds at the start is refused and changes nothing.
        set_value(&client, "draft-goal-0", "lost == 0").await?;
        wait_for(&client, "draft-goal-refused-0").await?;
        // Shown and shared as the model writes it (its canonical text).
        let changed = outbox_model::challenge::Goal::parse(&format!("{before} && settled"))
            .map_err(|e| format!("{e:?}"))?
            .to_string();
        set_value(&client, "draft-goal-0", &changed).await?;
        wait_goal_taken(&client, &changed).await?;
        let link = copied_workshop_link(&client).await?;
        eprintln!(
            "the lesson as a workshop link: {} characters",
            link.chars().count()
        );
        *keep.lock().unwrap() = (link, changed);
        Ok(())
    })
    .await;
    let (link, changed) = out.lock().unwrap().clone();
    let (client, _) = session().await;
    with_session(client, move |client| async move {
        open(&client, &link).await?;
        wait_for(&client, "workshop").await?;
        wait_for(
            &client,
            &format!("challenge-item-{}", lesson_challenges().len() - 1),
        )
        .await?;
        let goal = text_of(&client, "challenge-goal").await?;
        assert!(goal.contains(&changed), "the shared goal: {goal}");
        assert_eq!(
            attr(&client, "challenge", "data-challenge")
                .await?
                .as_deref(),
            Some(lesson_challenges()[0].id.as_str())
        );
        Ok(())
    })
    .await;
}
