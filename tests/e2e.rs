//! Layer 3, end to end: the release build in `dist/`, served on 127.0.0.1, driven through
//! chromedriver. `cargo xtask test` builds and serves the page, starts the driver and passes
//! both addresses in `OUTBOX_E2E_URL` and `OUTBOX_WEBDRIVER_URL`.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use outbox_playground::i18n::{t, Key, Lang};

type TestResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

fn env_url(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| {
        panic!(
            "{name} is not set: the end-to-end test needs the page and the chromedriver that \
             `cargo xtask test` starts. Run `cargo xtask test`."
        )
    })
}

async fn connect(webdriver: &str) -> Client {
    let capabilities = serde_json::json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": std::env::var("OUTBOX_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()),
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-quic", "--no-first-run", "--window-size=1920,1080",
            ],
        },
    });
    let serde_json::Value::Object(capabilities) = capabilities else {
        unreachable!()
    };
    ClientBuilder::new(HttpConnector::new())
        .capabilities(capabilities)
        .connect(webdriver)
        .await
        .unwrap_or_else(|err| panic!("cannot open a WebDriver session at {webdriver}: {err}"))
}

fn screenshot_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/screenshots");
    std::fs::create_dir_all(&dir).expect("create tests/screenshots");
    dir.join(name)
}

async fn text_of(client: &Client, testid: &str) -> Result<String, fantoccini::error::CmdError> {
    client
        .find(Locator::Css(&format!("[data-testid=\"{testid}\"]")))
        .await?
        .text()
        .await
}

/// Polls until the element's text equals `want` (the page updates asynchronously).
async fn wait_for_text(client: &Client, testid: &str, want: &str) -> TestResult {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let got = text_of(client, testid).await?;
        if got == want {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!("{testid}: expected {want:?}, still {got:?}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn language_switch_scenario(client: &Client, page: &str) -> TestResult {
    client.goto(page).await?;
    client
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css("[data-testid=\"lang-switch\"]"))
        .await?;

    assert_eq!(text_of(client, "title").await?, t(Lang::Uz, Key::Title));
    wait_for_text(client, "tagline", t(Lang::Uz, Key::Tagline)).await?;
    std::fs::write(screenshot_path("e2e-uz.png"), client.screenshot().await?)?;

    client
        .find(Locator::Css("[data-testid=\"lang-en\"]"))
        .await?
        .click()
        .await?;
    wait_for_text(client, "tagline", t(Lang::En, Key::Tagline)).await?;
    let lang = client
        .find(Locator::Css("html"))
        .await?
        .attr("lang")
        .await?;
    assert_eq!(
        lang.as_deref(),
        Some("en"),
        "<html lang> did not follow the switch"
    );
    let shot = screenshot_path("e2e-en.png");
    std::fs::write(&shot, client.screenshot().await?)?;
    eprintln!("screenshot: {}", shot.display());
    Ok(())
}

#[tokio::test]
async fn language_switch_changes_the_page() {
    let page = env_url("OUTBOX_E2E_URL");
    let webdriver = env_url("OUTBOX_WEBDRIVER_URL");
    let client = connect(&webdriver).await;
    // Run the scenario in its own task so that a panic in it is caught; close the
    // session whatever happened (the browser must not outlive the test); then report.
    let scenario = {
        let client = client.clone();
        tokio::spawn(async move { language_switch_scenario(&client, &page).await })
    };
    let outcome = scenario.await;
    let closed = client.close().await;
    match outcome {
        Ok(result) => result.unwrap(),
        Err(join_error) => std::panic::resume_unwind(join_error.into_panic()),
    }
    closed.expect("close the WebDriver session");
}
