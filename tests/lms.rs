//! #45 end to end: the page in a learning platform.
//!
//! - A SCORM 1.2 run-time: a harness page plays the platform's side with npm
//!   `scorm-again` (a run-time learning platforms use) as `window.API`, frames the SCORM
//!   package (`cargo xtask scorm`'s, unpacked by the e2e layer into `OUTBOX_SCORM12`) at
//!   its manifest's launch address, walks two guided steps and the quiz, and checks what
//!   the run-time recorded; a second launch with that record resumes the step and the
//!   progress from `suspend_data`.
//! - The postMessage API from a host on another origin: the page (127.0.0.1) framed by a
//!   host page on `localhost`, sandboxed as platforms do (`allow-scripts
//!   allow-same-origin allow-popups`): ready, a goal reached, the progress asked for, a
//!   step opened, junk ignored and a bad request refused; the tabs leave no history
//!   entries; the speaker-notes window follows the framed page although its
//!   BroadcastChannel (partitioned by the top-level site) cannot reach it.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::*;
use fantoccini::{Client, Locator};
use outbox_model::lesson::STEPS;
use outbox_playground::i18n::lesson_words::QUIZ;
use serde_json::{json, Value};
use static_server::{Options, StaticServer};

/// The platform's side: scorm-again's run-time (SCORM 1.2 as `window.API`, 2004 as
/// `window.API_1484_11`), the package framed at its launch address, and what the run-time
/// holds, read by the test.
const SCORM_HARNESS_JS: &str = r#"
window.__commits = 0;
window.__finished = false;
window.launch = function (version, href, saved) {
  const v12 = version === "1.2";
  const api = v12 ? new Scorm12API({ logLevel: 5 }) : new Scorm2004API({ logLevel: 5 });
  api.loadFromJSON(saved);
  api.on(v12 ? "LMSCommit" : "Commit", function () { window.__commits += 1; });
  api.on(v12 ? "LMSFinish" : "Terminate", function () { window.__finished = true; });
  // What the SCO set, element by element (`exit` is write-only in the data model).
  window.__set = {};
  api.on((v12 ? "LMSSetValue" : "SetValue") + ".cmi.*", function (element, value) {
    window.__set[element] = value;
  });
  window.API = v12 ? api : undefined;
  window.API_1484_11 = v12 ? undefined : api;
  window.__api = api;
  window.__v12 = v12;
  window.__commits = 0;
  window.__finished = false;
  const old = document.getElementById("sco");
  if (old) old.remove();
  const frame = document.createElement("iframe");
  frame.id = "sco";
  frame.src = href;
  frame.width = "1280";
  frame.height = "900";
  document.body.appendChild(frame);
};
// The learner leaves: the frame navigates away (the page's pagehide finishes the session).
window.unload = function () {
  const frame = document.getElementById("sco");
  frame.src = "about:blank";
};
window.record = function () {
  const c = window.__api.cmi;
  const r = window.__v12
    ? { status: c.core.lesson_status, location: c.core.lesson_location, raw: c.core.score.raw,
        min: c.core.score.min, max: c.core.score.max, exit: window.__set["cmi.core.exit"] }
    : { status: c.completion_status + " " + c.success_status, location: c.location,
        raw: c.score.raw, min: c.score.min, max: c.score.max, scaled: c.score.scaled,
        exit: window.__set["cmi.exit"] };
  r.suspend = c.suspend_data;
  r.commits = window.__commits;
  r.finished = window.__finished;
  return r;
};
"#;

const SCORM_HARNESS_HTML: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A learning platform</title>
<script src="scorm12.js"></script><script src="scorm2004.js"></script>
<script src="harness.js"></script></head>
<body><h1>A learning platform</h1></body></html>
"#;

/// A host page: frames the playground sandboxed as platforms do, keeps every message
/// the page posts (with its origin), and posts the test's requests to the page's origin.
const HOST_JS: &str = r#"
window.__got = [];
const page = new URLSearchParams(location.search).get("page");
window.addEventListener("message", function (e) {
  if (e.source === document.getElementById("page").contentWindow) {
    window.__got.push({ origin: e.origin, data: e.data });
  }
});
window.ask = function (msg) {
  document.getElementById("page").contentWindow.postMessage(msg, new URL(page).origin);
};
const frame = document.createElement("iframe");
frame.id = "page";
frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-popups");
frame.src = page;
frame.width = "1280";
frame.height = "900";
document.body.appendChild(frame);
"#;

const HOST_HTML: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A host page</title></head>
<body><h1>A host page</h1><script src="host.js"></script></body></html>
"#;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A fresh folder for a harness's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("outbox-lms-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Polls a script until it returns something truthy; its value.
async fn wait_js(client: &Client, script: &str, secs: u64) -> Result<Value, String> {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let v = client
            .execute(script, vec![])
            .await
            .map_err(|e| e.to_string())?;
        if !(v.is_null() || v == json!(false)) {
            return Ok(v);
        }
        if Instant::now() > deadline {
            return Err(format!("still nothing after {secs} s: {script}"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Enters the framed page and waits until it is drawn.
async fn enter_page(client: &Client, frame_id: &str) -> TestResult {
    client.enter_parent_frame().await?;
    let frame = client.find(Locator::Id(frame_id)).await?;
    frame.enter_frame().await?;
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css(&css("details")))
        .await?;
    Ok(())
}

/// The launch address the manifest names for its SCO.
fn launch_href(manifest: &str) -> String {
    let needle = "adlcp:scormtype=\"sco\" href=\"";
    let at = manifest.to_lowercase().find(needle).expect("a SCO") + needle.len();
    let end = manifest[at..].find('"').unwrap();
    manifest[at..at + end].replace("&amp;", "&")
}

/// Walks a step by its own controls: arm the kill the lesson asks for, run to the end.
async fn walk(client: &Client, id: &str, arm: &str) -> TestResult {
    click(client, &format!("lesson-nav-{id}")).await?;
    wait_attr(client, "lesson-step", "data-step", id, 10).await?;
    click(client, arm).await?;
    run_to_end(client).await?;
    wait_attr(client, "lesson-goal", "data-reached", "true", 20).await
}

/// The quiz, every question answered; question 0 first wrongly (its first answer counts:
/// 3 of 4 right, 75 %).
async fn answer_quiz(client: &Client) -> TestResult {
    click(client, "tab-quiz").await?;
    let wrong = (QUIZ[0].right + 1) % 3;
    click(client, &format!("answer-q0-{wrong}")).await?;
    for (n, q) in QUIZ.iter().enumerate() {
        click(client, &format!("answer-q{n}-{}", q.right)).await?;
    }
    Ok(())
}

/// The platform: the package `env` names unpacked under `sco/`, scorm-again's run-times
/// and the harness, in a fresh folder; the SCO's launch address (the manifest's) and the
/// manifest.
fn platform(name: &str, env: &str) -> (PathBuf, String, String) {
    let dir = folder(name);
    copy_dir(Path::new(&env_url(env)), &dir.join("sco"));
    let again = PathBuf::from(env_url("OUTBOX_SCORM_AGAIN"));
    for file in ["scorm12.js", "scorm2004.js"] {
        std::fs::copy(again.with_file_name(file), dir.join(file)).unwrap();
    }
    std::fs::write(dir.join("harness.js"), SCORM_HARNESS_JS).unwrap();
    std::fs::write(dir.join("index.html"), SCORM_HARNESS_HTML).unwrap();
    let manifest = std::fs::read_to_string(dir.join("sco/imsmanifest.xml")).unwrap();
    let href = format!("sco/{}", launch_href(&manifest));
    (dir, href, manifest)
}

#[tokio::test]
async fn a_scorm_runtime_records_the_course_and_a_second_launch_resumes() {
    let (dir, href, manifest) = platform("scorm12", "OUTBOX_SCORM12");
    assert_eq!(
        href, "sco/index.html?embed",
        "the manifest's launch address"
    );
    // The platform gives the SCO the mastery score its manifest names.
    assert!(manifest.contains("<adlcp:masteryscore>75</adlcp:masteryscore>"));
    let server = StaticServer::start_with(dir.clone(), Options::default()).unwrap();
    let harness = server.url();
    let webdriver = env_url("OUTBOX_WEBDRIVER_URL");
    let client = connect(&webdriver, 1400, 1000, &[]).await;
    with_session(client, move |client| async move {
        client.goto(&harness).await?;
        let first = json!({ "student_data": { "mastery_score": "75" } });
        client.execute("launch('1.2', arguments[0], arguments[1])", vec![json!(href), first]).await?;
        enter_page(&client, "sco").await?;
        walk(&client, STEPS[0].id, "arm-api-queue_add").await?;
        walk(&client, STEPS[1].id, "arm-api-commit").await?;
        client.enter_parent_frame().await?;
        let r = wait_js(&client, "const r = record(); return r.suspend.includes('queue-first') && r", 10).await?;
        assert_eq!(r["status"], "incomplete", "{r}");
        assert_eq!(r["location"], STEPS[1].id, "{r}");
        assert!(r["commits"].as_u64().unwrap() >= 2, "a commit at each goal: {r}");
        assert_eq!(r["raw"], "", "no score before the quiz: {r}");

        enter_page(&client, "sco").await?;
        answer_quiz(&client).await?;
        client.enter_parent_frame().await?;
        client.execute("unload()", vec![]).await?;
        let r = wait_js(&client, "const r = record(); return r.finished && r", 10).await?;
        assert_eq!(r["status"], "passed", "75 % against a mastery score of 75: {r}");
        assert_eq!((r["raw"].as_str(), r["min"].as_str(), r["max"].as_str()), (Some("75"), Some("0"), Some("100")), "{r}");
        assert_eq!(r["exit"], "suspend", "{r}");
        let suspend = r["suspend"].as_str().unwrap().to_string();
        println!("suspend_data after two steps and the quiz: {} characters", suspend.chars().count());
        assert!(suspend.chars().count() <= 4096, "SCORM 1.2's CMIString4096");
        let kept: Value = serde_json::from_str(&suspend)?;
        assert_eq!(kept["done"], json!([STEPS[0].id, STEPS[1].id]), "{kept}");

        // The second launch: the platform hands back what it kept.
        let saved = json!({
            "core": { "entry": "resume", "lesson_location": r["location"], "lesson_status": r["status"] },
            "student_data": { "mastery_score": "75" },
            "suspend_data": suspend,
        });
        client.execute("launch('1.2', arguments[0], arguments[1])", vec![json!(href), saved]).await?;
        enter_page(&client, "sco").await?;
        wait_attr(&client, "lesson-step", "data-step", STEPS[1].id, 10).await?;
        for st in &STEPS[..2] {
            let class = attr(&client, &format!("lesson-nav-{}", st.id), "class").await?.unwrap_or_default();
            assert!(class.contains("lesson__nav-item--done"), "{}: {class}", st.id);
        }
        click(&client, "tab-quiz").await?;
        // The quiz tab's code loads on use (a door): wait for its score line.
        client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css(&css("quiz-score")))
            .await?;
        assert!(text_of(&client, "quiz-score").await?.starts_with("3 "), "the quiz's first answers came back");
        client.enter_parent_frame().await?;
        let r = wait_js(&client, "const r = record(); return r.commits > 0 && r", 10).await?;
        assert_eq!(r["status"], "passed", "the resumed attempt keeps its standing: {r}");
        Ok(())
    })
    .await;
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The messages of `type` the host got from the page so far.
async fn got(client: &Client, kind: &str) -> Result<Vec<Value>, fantoccini::error::CmdError> {
    let v = client
        .execute(
            "return window.__got.filter(m => m.data && m.data.type === arguments[0])",
            vec![json!(kind)],
        )
        .await?;
    Ok(v.as_array().cloned().unwrap_or_default())
}

async fn wait_got(client: &Client, kind: &str, secs: u64) -> Result<Vec<Value>, String> {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let all = got(client, kind).await.map_err(|e| e.to_string())?;
        if !all.is_empty() {
            return Ok(all);
        }
        if Instant::now() > deadline {
            return Err(format!("no {kind} message after {secs} s"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Asks the page something as the host.
async fn ask(client: &Client, msg: Value) -> TestResult {
    client.enter_parent_frame().await?;
    client.execute("ask(arguments[0])", vec![msg]).await?;
    Ok(())
}

fn request(kind: &str, fields: Value) -> Value {
    let mut m = json!({ "protocol": "outbox-playground", "version": 1, "type": kind });
    if let (Value::Object(m), Value::Object(f)) = (&mut m, fields) {
        m.extend(f);
    }
    m
}

/// The host page's address on `localhost`: another origin and another site than the
/// page's 127.0.0.1.
fn host_url(server: &StaticServer, page_origin: &str) -> String {
    let page: String =
        url::form_urlencoded::byte_serialize(format!("{page_origin}/").as_bytes()).collect();
    format!("http://localhost:{}/?page={page}", server.addr.port())
}

#[tokio::test]
async fn a_host_on_another_origin_talks_to_the_embedded_page() {
    let page = env_url("OUTBOX_E2E_URL");
    let page_origin = page.trim_end_matches('/').to_string();
    let dir = folder("host");
    std::fs::write(dir.join("host.js"), HOST_JS).unwrap();
    std::fs::write(dir.join("index.html"), HOST_HTML).unwrap();
    let server = StaticServer::start_with(dir.clone(), Options::default()).unwrap();
    let host = host_url(&server, &page_origin);
    let webdriver = env_url("OUTBOX_WEBDRIVER_URL");
    let client = connect(&webdriver, 1400, 1000, &[]).await;
    with_session(client, move |client| async move {
        client.goto(&host).await?;
        let ready = wait_got(&client, "ready", 30).await?;
        assert_eq!(ready[0]["origin"], page_origin, "the host records the page's origin");
        assert_eq!(ready[0]["data"]["version"], 1);
        assert_eq!(ready[0]["data"]["steps"].as_array().map(Vec::len), Some(STEPS.len()));

        // Junk is ignored; a bad request of a known type is refused with its reason.
        for junk in [json!("hello"), json!(42), request("delete-everything", json!({})), json!({"protocol": "outbox-playground", "version": 2, "type": "get-progress"}), json!("x".repeat(100_000))] {
            ask(&client, junk).await?;
        }
        ask(&client, request("open-step", json!({ "step": "nope", "id": "a" }))).await?;
        let refused = wait_got(&client, "refused", 10).await?;
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert_eq!(refused[0]["data"]["reason"], "unknown-step");
        assert_eq!(refused[0]["data"]["id"], "a");
        assert!(got(&client, "progress").await?.is_empty(), "junk got no answer");

        // The host opens a step; the learner reaches its goal; the host hears of it.
        ask(&client, request("open-step", json!({ "step": STEPS[0].id }))).await?;
        enter_page(&client, "page").await?;
        wait_attr(&client, "lesson-step", "data-step", STEPS[0].id, 10).await?;
        let embedded = client.execute("return document.documentElement.hasAttribute('data-embed') && getComputedStyle(document.querySelector('[data-testid=tagline]')).display", vec![]).await?;
        assert_eq!(embedded, "none", "embed mode: a compact header");
        click(&client, "arm-api-queue_add").await?;
        run_to_end(&client).await?;
        wait_attr(&client, "lesson-goal", "data-reached", "true", 20).await?;
        client.enter_parent_frame().await?;
        screenshot(&client, "lms-embedded.png").await?;
        let goal = wait_got(&client, "goal-reached", 10).await?;
        assert_eq!(goal[0]["data"]["step"], STEPS[0].id);
        assert_eq!(goal[0]["data"]["done"], 1);

        ask(&client, request("get-progress", json!({ "id": 7 }))).await?;
        let progress = wait_got(&client, "progress", 10).await?;
        assert_eq!(progress[0]["data"]["id"], 7);
        assert_eq!(progress[0]["data"]["progress"]["done"], json!([STEPS[0].id]));
        tabs_leave_no_history(&client).await?;
        notes_follow_the_framed_page(&client).await
    })
    .await;
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Embedded, a details tab replaces the address instead of adding a history entry (the
/// platform's Back button is the platform's).
async fn tabs_leave_no_history(client: &Client) -> TestResult {
    enter_page(client, "page").await?;
    let before = client.execute("return history.length", vec![]).await?;
    for tab in ["details-tab-sql", "details-tab-log", "details-tab-faults"] {
        // The frame is shorter than the page: the tab is scrolled to first.
        let button = client.find(Locator::Css(&css(tab))).await?;
        client
            .execute(
                "arguments[0].scrollIntoView({block: 'center'})",
                vec![serde_json::to_value(&button)?],
            )
            .await?;
        button.click().await?;
    }
    let search = client.execute("return location.search", vec![]).await?;
    assert!(
        search.as_str().unwrap_or_default().contains("tab="),
        "{search}"
    );
    let after = client.execute("return history.length", vec![]).await?;
    assert_eq!(before, after, "tabs pushed history entries");
    Ok(())
}

/// The speaker-notes window opened from the framed page follows its step.
async fn notes_follow_the_framed_page(client: &Client) -> TestResult {
    enter_page(client, "page").await?;
    let main = client.window().await?;
    click(client, "notes-open").await?;
    let deadline = Instant::now() + Duration::from_secs(10);
    let notes = loop {
        let all = client.windows().await?;
        if let Some(w) = all.into_iter().find(|w| *w != main) {
            break w;
        }
        if Instant::now() > deadline {
            return Err("no notes window".into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    client.switch_to_window(notes.clone()).await?;
    wait_attr(client, "notes-step", "data-step", STEPS[0].id, 15).await?;
    // The host opens another step: the notes follow.
    client.switch_to_window(main.clone()).await?;
    ask(client, request("open-step", json!({ "step": STEPS[2].id }))).await?;
    client.switch_to_window(notes.clone()).await?;
    wait_attr(client, "notes-step", "data-step", STEPS[2].id, 15).await?;
    client.close_window().await?;
    client.switch_to_window(main).await?;
    Ok(())
}

/// A session whose browser refuses every site's storage (cookies and site data blocked,
/// as a strict browser or a school's policy does): what a platform's frame may face.
async fn connect_without_storage(webdriver: &str) -> Client {
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": std::env::var("OUTBOX_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()),
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--no-first-run", "--window-size=1400,1000",
                     "--accept-lang=uz-UZ,uz"],
            "prefs": { "profile.default_content_setting_values.cookies": 2 },
        },
    });
    let Value::Object(caps) = caps else {
        unreachable!()
    };
    fantoccini::ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(webdriver)
        .await
        .unwrap_or_else(|err| panic!("cannot open a WebDriver session at {webdriver}: {err}"))
}

/// Storage refused in a sandboxed frame: the page says so in a notice and works on (the
/// host still hears from it); no panic.
#[tokio::test]
async fn storage_refused_in_a_frame_is_a_notice_not_a_panic() {
    let page = env_url("OUTBOX_E2E_URL");
    let page_origin = page.trim_end_matches('/').to_string();
    let dir = folder("nostorage");
    std::fs::write(dir.join("host.js"), HOST_JS).unwrap();
    std::fs::write(dir.join("index.html"), HOST_HTML).unwrap();
    let server = StaticServer::start_with(dir.clone(), Options::default()).unwrap();
    let host = host_url(&server, &page_origin);
    let client = connect_without_storage(&env_url("OUTBOX_WEBDRIVER_URL")).await;
    let outcome = tokio::spawn({
        let client = client.clone();
        async move {
            client.goto(&host).await?;
            let refused = client
                .execute(
                    "try { window.localStorage.length; return false } catch (e) { return e.name }",
                    vec![],
                )
                .await?;
            assert_eq!(refused, "SecurityError", "the browser refuses storage");
            wait_got(&client, "ready", 30).await?;
            enter_page(&client, "page").await?;
            let notice = client
                .wait()
                .at_most(Duration::from_secs(10))
                .for_element(Locator::Css(&css("notice")))
                .await?
                .text()
                .await?;
            assert!(!notice.is_empty(), "a notice says progress is not kept");
            assert!(
                client
                    .find(Locator::Css(&css("panic-panel")))
                    .await
                    .is_err(),
                "no panic"
            );
            // The page still works: a step's goal is reached and the host hears of it.
            click(&client, "arm-api-queue_add").await?;
            run_to_end(&client).await?;
            wait_attr(&client, "lesson-goal", "data-reached", "true", 20).await?;
            client.enter_parent_frame().await?;
            wait_got(&client, "goal-reached", 10).await?;
            TestResult::Ok(())
        }
    })
    .await;
    let _ = client.close().await;
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    match outcome {
        Ok(result) => result.unwrap(),
        Err(e) => std::panic::resume_unwind(e.into_panic()),
    }
}

/// SCORM 2004 (the second package): the same page reports in 2004's data model.
#[tokio::test]
async fn a_scorm_2004_runtime_records_completion_success_and_the_scaled_score() {
    let (dir, href, manifest) = platform("scorm2004", "OUTBOX_SCORM2004");
    assert_eq!(
        href, "sco/index.html?embed&scorm=2004",
        "the manifest's launch address"
    );
    assert!(manifest.contains("<imsss:minNormalizedMeasure>0.75<"));
    let server = StaticServer::start_with(dir.clone(), Options::default()).unwrap();
    let harness = server.url();
    let client = connect(&env_url("OUTBOX_WEBDRIVER_URL"), 1400, 1000, &[]).await;
    with_session(client, move |client| async move {
        client.goto(&harness).await?;
        let first = json!({ "scaled_passing_score": "0.75" });
        client
            .execute(
                "launch('2004', arguments[0], arguments[1])",
                vec![json!(href), first],
            )
            .await?;
        enter_page(&client, "sco").await?;
        walk(&client, STEPS[0].id, "arm-api-queue_add").await?;
        client.enter_parent_frame().await?;
        let r = wait_js(
            &client,
            "const r = record(); return r.suspend.includes('lose-dual') && r",
            10,
        )
        .await?;
        assert_eq!(r["status"], "incomplete unknown", "{r}");
        assert_eq!(r["location"], STEPS[0].id, "{r}");
        enter_page(&client, "sco").await?;
        answer_quiz(&client).await?;
        client.enter_parent_frame().await?;
        client.execute("unload()", vec![]).await?;
        let r = wait_js(&client, "const r = record(); return r.finished && r", 10).await?;
        assert_eq!(r["status"], "completed passed", "{r}");
        assert_eq!(
            (r["raw"].as_str(), r["scaled"].as_str()),
            (Some("75"), Some("0.75")),
            "{r}"
        );
        assert_eq!(r["exit"], "suspend", "{r}");
        Ok(())
    })
    .await;
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
