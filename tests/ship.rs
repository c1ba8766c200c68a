//! "Ship it" (#18) end to end, on the release build: the page's head, manifest and the
//! speaker-notes window at whatever path it is served under (the e2e layer runs
//! `any_path_…` at `/` and under `/outbox/`), and the page offline after a first visit,
//! then updated by a new build.
//!
//! The offline test runs its own server (the static-server crate, as xtask does) so it
//! can stop it: the browser then really has no network for the page, the service
//! worker's own fetches included. It needs `OUTBOX_DIST` and `OUTBOX_DIST_NEXT` (the same build with one
//! change and its own service worker), which `cargo xtask test-layer e2e` prepares.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::*;
use fantoccini::{Client, Locator};
use outbox_playground::i18n::{t, Key, Lang};
use static_server::{Options, StaticServer};

async fn js(
    client: &Client,
    script: &str,
) -> Result<serde_json::Value, fantoccini::error::CmdError> {
    client.execute(script, vec![]).await
}

/// Polls a script until it returns `true`.
async fn wait_js(client: &Client, script: &str, what: &str, secs: u64) -> TestResult {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < deadline {
        if js(client, script).await.ok().and_then(|v| v.as_bool()) == Some(true) {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    Err(format!("timed out waiting for {what}").into())
}

const DESCRIPTION: &str = "return document.querySelector('meta[name=description]').content";

#[tokio::test]
async fn any_path_head_manifest_and_notes_window_work() {
    let page = env_url("OUTBOX_E2E_URL");
    let client = connect(&env_url("OUTBOX_WEBDRIVER_URL"), 1280, 900, &[]).await;
    with_session(client, move |client| async move {
        open(&client, &page).await?;
        assert_eq!(
            js(&client, DESCRIPTION).await?,
            t(Lang::Uz, Key::HeadDescription)
        );
        // The manifest and its icons load from the page's own folder (relative URLs).
        let manifest = "return fetch(document.querySelector('link[rel=manifest]').href)\
            .then(r => r.json()).then(m => fetch(new URL(m.icons[2].src, location.href))\
            .then(i => [m.name, m.icons[2].purpose, i.status, i.headers.get('content-type')]))";
        let got = js(&client, manifest).await?;
        assert_eq!(
            got,
            serde_json::json!(["Outbox Playground", "maskable", 200, "image/png"])
        );
        // The speaker-notes button opens the notes at this page's path, whatever it is.
        let main = client.window().await?;
        click(&client, "notes-open").await?;
        let deadline = Instant::now() + Duration::from_secs(10);
        let notes = loop {
            let handles = client.windows().await?;
            if let Some(h) = handles.into_iter().find(|h| *h != main) {
                break h;
            }
            assert!(Instant::now() < deadline, "no speaker-notes window opened");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        client.switch_to_window(notes).await?;
        client
            .wait()
            .at_most(Duration::from_secs(30))
            .for_element(Locator::Css(&css("speaker-notes")))
            .await?;
        let url = client.current_url().await?;
        let page_url = url::Url::parse(&page)?;
        assert_eq!(
            url.path(),
            page_url.path(),
            "the notes window stays under the page's path"
        );
        assert!(url.query().unwrap_or("").contains("notes"), "{url}");
        client.close_window().await?;
        client.switch_to_window(main).await?;
        // ?lang=en: the head speaks English too.
        let en = format!("{page}?lang=en");
        open(&client, &en).await?;
        assert_eq!(
            js(&client, DESCRIPTION).await?,
            t(Lang::En, Key::HeadDescription)
        );
        Ok(())
    })
    .await;
}

/// Waits for «Yangilash»; on a timeout, says what the service worker was doing.
async fn wait_for_offer(client: &Client) -> TestResult {
    let offered = "return !!document.querySelector('[data-testid=update-apply]')";
    let Err(err) = wait_js(client, offered, "the update offer", 60).await else {
        return Ok(());
    };
    let state = "navigator.serviceWorker.getRegistration().then((r) => arguments[0]([\
        document.documentElement.getAttribute('data-outbox-update'),\
        !!navigator.serviceWorker.controller, !!(r && r.waiting), !!(r && r.installing),\
        r && r.active && r.active.state, !!document.querySelector('meta[name=outbox-build]')]))";
    let seen = client.execute_async(state, vec![]).await;
    let _ = screenshot(client, "ship-update-timeout.png").await;
    let body = js(client, "return document.body.innerText.slice(0, 400)").await;
    eprintln!("page text: {body:?}");
    Err(
        format!("{err}; [attr, controlled, waiting, installing, active, next build]: {seen:?}")
            .into(),
    )
}

/// Replaces `dir`'s files with `from`'s (the served folder becomes another build).
fn fill(dir: &Path, from: &Path) {
    if dir.exists() {
        std::fs::remove_dir_all(dir).expect("clear the served folder");
    }
    copy_tree(from, dir);
}

/// Copies a build with its folders (the language files are in `i18n/`: a worker whose
/// precache list names a missing file never installs).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create the served folder");
    for entry in std::fs::read_dir(from).expect("read a build") {
        let path = entry.expect("read a build").path();
        let name = path.file_name().expect("an entry has a name");
        if path.is_dir() {
            copy_tree(&path, &to.join(name));
        } else if path.is_file() {
            std::fs::copy(&path, to.join(name)).expect("copy a file");
        }
    }
}

fn serve(dir: &Path, bind: &str) -> StaticServer {
    let options = Options {
        bind: bind.into(),
        prefix: "/".into(),
        precompressed: false,
    };
    StaticServer::start_with(dir.to_path_buf(), options).expect("start the test's server")
}

#[tokio::test]
async fn offline_after_the_first_visit_then_a_new_build_is_taken() {
    let dist = PathBuf::from(env_url("OUTBOX_DIST"));
    let next = PathBuf::from(env_url("OUTBOX_DIST_NEXT"));
    let served = std::env::temp_dir().join(format!("outbox-offline-{}", std::process::id()));
    fill(&served, &dist);
    let server = serve(&served, "127.0.0.1:0");
    let (addr, page) = (server.addr, server.url());
    let client = connect(&env_url("OUTBOX_WEBDRIVER_URL"), 1280, 900, &[]).await;
    let dir = served.clone();
    with_session(client, move |client| async move {
        let (link, want) = first_visit(&client, &page).await?;
        drop(server);
        assert!(
            std::net::TcpStream::connect(addr).is_err(),
            "the server is down"
        );
        offline_visit(&client, &page, &link, &want).await?;
        // A new deployment on the same address: offered, taken, and the old cache gone.
        fill(&dir, &next);
        let server = serve(&dir, &addr.to_string());
        open(&client, &page).await?;
        wait_for_offer(&client).await?;
        let offer = text_of(&client, "update-offer").await?;
        assert!(offer.contains(t(Lang::Uz, Key::UpdateButton)), "{offer}");
        click(&client, "update-apply").await?;
        let new_build =
            "return document.querySelector('meta[name=outbox-build]')?.content === 'next' \
                         && !!document.querySelector('[data-testid=counters]')";
        wait_js(&client, new_build, "the new build after «Yangilash»", 30).await?;
        let caches = client
            .execute_async(
                "caches.keys().then(arguments[arguments.length - 1])",
                vec![],
            )
            .await?;
        assert_eq!(
            caches.as_array().map(Vec::len),
            Some(1),
            "old caches deleted: {caches}"
        );
        drop(server);
        Ok(())
    })
    .await;
    let _ = std::fs::remove_dir_all(&served);
}

/// What a played run shows: the timeline and every counter.
type Seen = (String, Vec<(String, String)>);

async fn seen(client: &Client) -> Result<Seen, Box<dyn std::error::Error + Send + Sync>> {
    Ok((
        text_of(client, "timeline-value").await?,
        counters(client).await?,
    ))
}

/// Online: the page loads, the service worker takes control, a canon run with a killed
/// relay is played and shared. Returns the link and what the run showed.
async fn first_visit(
    client: &Client,
    page: &str,
) -> Result<(String, Seen), Box<dyn std::error::Error + Send + Sync>> {
    open(client, page).await?;
    let controlled = "return !!navigator.serviceWorker.controller";
    wait_js(client, controlled, "the service worker to take control", 60).await?;
    set_value(client, "preset", "canon-outbox").await?;
    for _ in 0..40 {
        click(client, "step").await?;
    }
    click(client, "kill-relay-1").await?;
    for _ in 0..20 {
        click(client, "step").await?;
    }
    click(client, "share").await?;
    let url = client
        .find(Locator::Css(&css("share-url")))
        .await?
        .prop("value")
        .await?;
    let url = url.unwrap_or_default();
    assert!(url.contains("#run="), "{url}");
    Ok((url, seen(client).await?))
}

/// Offline: a reload draws the page; after another scenario has replaced the saved one,
/// the shared link replays its run (the same timeline and counters).
async fn offline_visit(client: &Client, page: &str, link: &str, want: &Seen) -> TestResult {
    open(client, page).await?;
    run_preset(client, "canon-dual-write").await?;
    assert_ne!(
        &seen(client).await?,
        want,
        "another run replaced the shared one"
    );
    open(client, link).await?;
    wait_for_text(client, "timeline-value", &want.0, 20).await?;
    assert_eq!(counters(client).await?, want.1);
    Ok(())
}

/// A broken download (the wasm is not wasm): the shell says so in both languages, naming
/// the browser versions, instead of staying a blank or half-drawn page.
#[tokio::test]
async fn a_broken_download_becomes_a_message_in_both_languages() {
    let dist = PathBuf::from(env_url("OUTBOX_DIST"));
    let served = std::env::temp_dir().join(format!("outbox-broken-{}", std::process::id()));
    fill(&served, &dist);
    for entry in std::fs::read_dir(&served).expect("read the copy") {
        let path = entry.expect("read the copy").path();
        if path.extension().is_some_and(|e| e == "wasm") {
            std::fs::write(&path, b"not a wasm module").expect("break the wasm");
        }
    }
    let server = serve(&served, "127.0.0.1:0");
    let page = server.url();
    let client = connect(&env_url("OUTBOX_WEBDRIVER_URL"), 1280, 900, &[]).await;
    with_session(client, move |client| async move {
        client.goto(&page).await?;
        let shown = "return !document.getElementById('boot-failed').hidden";
        wait_js(&client, shown, "the failure message", 30).await?;
        let text = text_of(&client, "boot").await?;
        for lang in Lang::ALL {
            assert!(
                text.contains(t(lang, Key::BootFailed)),
                "{lang:?} missing: {text}"
            );
        }
        screenshot(&client, "ship-broken-download.png").await?;
        drop(server);
        Ok(())
    })
    .await;
    let _ = std::fs::remove_dir_all(&served);
}

/// Two deployments on one origin (`/a/` and `/b/`, as project sites on one Pages domain
/// are), of two builds: visiting `/b/` leaves `/a/`'s offline copy alone, and the other
/// way round (#40: every `outbox-` cache but its own was deleted).
#[tokio::test]
async fn two_deployments_on_one_origin_keep_each_others_offline_copy() {
    let dist = PathBuf::from(env_url("OUTBOX_DIST"));
    let next = PathBuf::from(env_url("OUTBOX_DIST_NEXT"));
    let served = std::env::temp_dir().join(format!("outbox-two-sites-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&served);
    copy_tree(&dist, &served.join("a"));
    copy_tree(&next, &served.join("b"));
    let server = serve(&served, "127.0.0.1:0");
    let (addr, root) = (server.addr, server.url());
    let sites = [format!("{root}a/"), format!("{root}b/")];
    let client = connect(&env_url("OUTBOX_WEBDRIVER_URL"), 1280, 900, &[]).await;
    with_session(client, move |client| async move {
        let controlled = "return !!navigator.serviceWorker.controller";
        for site in &sites {
            open(&client, site).await?;
            wait_js(
                &client,
                controlled,
                "the service worker to take control",
                60,
            )
            .await?;
        }
        let caches = client
            .execute_async(
                "caches.keys().then(arguments[arguments.length - 1])",
                vec![],
            )
            .await?;
        eprintln!("caches with both sites visited: {caches}");
        drop(server);
        assert!(
            std::net::TcpStream::connect(addr).is_err(),
            "the server is down"
        );
        for site in &sites {
            open(&client, site)
                .await
                .map_err(|e| format!("{site} offline after both were visited: {e}"))?;
            wait_js(
                &client,
                "return !!document.querySelector('[data-testid=counters]')",
                &format!("{site}'s page offline"),
                30,
            )
            .await?;
        }
        Ok(())
    })
    .await;
    let _ = std::fs::remove_dir_all(&served);
}

/// A tab of the old build, open while the update is taken in another tab, is told that
/// the page was updated and offered a reload (#40: its build's cache is gone with the old
/// worker, so its lazily loaded parts would fail).
#[tokio::test]
async fn a_tab_of_the_old_build_is_told_when_another_takes_the_update() {
    let dist = PathBuf::from(env_url("OUTBOX_DIST"));
    let next = PathBuf::from(env_url("OUTBOX_DIST_NEXT"));
    let served = std::env::temp_dir().join(format!("outbox-old-tab-{}", std::process::id()));
    fill(&served, &dist);
    let server = serve(&served, "127.0.0.1:0");
    let (addr, page) = (server.addr, server.url());
    let client = connect(&env_url("OUTBOX_WEBDRIVER_URL"), 1280, 900, &[]).await;
    let dir = served.clone();
    with_session(client, move |client| async move {
        open(&client, &page).await?;
        let controlled = "return !!navigator.serviceWorker.controller";
        wait_js(
            &client,
            controlled,
            "the service worker to take control",
            60,
        )
        .await?;
        let old_tab = client.window().await?;
        // A new deployment; a second tab takes it.
        drop(server);
        fill(&dir, &next);
        let server = serve(&dir, &addr.to_string());
        let new_tab = client.new_window(true).await?.handle;
        client.switch_to_window(new_tab).await?;
        open(&client, &page).await?;
        wait_for_offer(&client).await?;
        click(&client, "update-apply").await?;
        let new_build =
            "return document.querySelector('meta[name=outbox-build]')?.content === 'next' \
                         && !!document.querySelector('[data-testid=counters]')";
        wait_js(&client, new_build, "the new build after «Yangilash»", 30).await?;
        // The first tab still runs the old build: it says so, and its button reloads it.
        client.switch_to_window(old_tab).await?;
        let told = "return !!document.querySelector('[data-testid=update-reload]')";
        wait_js(&client, told, "the old tab told of the update", 20).await?;
        let text = text_of(&client, "update-taken").await?;
        assert!(
            text.contains(t(Lang::Uz, Key::UpdateTakenElsewhere)),
            "{text}"
        );
        click(&client, "update-reload").await?;
        wait_js(
            &client,
            new_build,
            "the old tab reloaded into the new build",
            30,
        )
        .await?;
        drop(server);
        Ok(())
    })
    .await;
    let _ = std::fs::remove_dir_all(&served);
}
