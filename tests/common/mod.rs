//! What the end-to-end tests and the page benchmark share: a WebDriver session on the
//! Chromium `cargo xtask test` installed, and small helpers to find, read and drive the
//! page by its `data-testid`s.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;

pub type TestResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

pub fn env_url(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| {
        panic!(
            "{name} is not set: this test needs the page and the chromedriver that \
             `cargo xtask test` starts. Run `cargo xtask test`."
        )
    })
}

/// A headless Chromium session; `extra` flags are added to the usual ones.
pub async fn connect(webdriver: &str, width: u32, height: u32, extra: &[&str]) -> Client {
    connect_with(webdriver, width, height, extra, None).await
}

/// A session that emulates a phone's screen (a desktop window cannot be narrower than
/// ~500 px): `width` × `height` CSS pixels, device pixel ratio 1.
pub async fn connect_phone(webdriver: &str, width: u32, height: u32) -> Client {
    let metrics = serde_json::json!({ "deviceMetrics": { "width": width, "height": height, "pixelRatio": 1.0 } });
    connect_with(webdriver, width, height, &[], Some(metrics)).await
}

async fn connect_with(
    webdriver: &str,
    width: u32,
    height: u32,
    extra: &[&str],
    mobile: Option<serde_json::Value>,
) -> Client {
    let mut args = vec![
        "--headless".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-dev-shm-usage".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--disable-quic".into(),
        "--no-first-run".into(),
        format!("--window-size={width},{height}"),
        // Headless Chromium says `navigator.languages` is ["en-US", "en"]; a learner's
        // browser here prefers Uzbek, and the page picks its first language from it.
        // A test that needs another list passes its own `--accept-lang` (the last wins).
        "--accept-lang=uz-UZ,uz".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let mut capabilities = serde_json::json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": std::env::var("OUTBOX_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()),
            "args": args,
        },
    });
    if let Some(m) = mobile {
        capabilities["goog:chromeOptions"]["mobileEmulation"] = m;
    }
    let serde_json::Value::Object(capabilities) = capabilities else {
        unreachable!()
    };
    let client = ClientBuilder::new(HttpConnector::new())
        .capabilities(capabilities)
        .connect(webdriver)
        .await
        .unwrap_or_else(|err| panic!("cannot open a WebDriver session at {webdriver}: {err}"));
    watch_csp(&client).await;
    client
}

// ---- #18 (ship): every session records Content-Security-Policy violations; `open` and
// `with_session` fail the test on any (the policy is strict: no inline script or style).

/// A Chrome DevTools command through chromedriver (`goog/cdp/execute`).
#[derive(Debug)]
pub struct DevTools {
    pub cmd: &'static str,
    pub params: serde_json::Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for DevTools {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/goog/cdp/execute",
            session.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = serde_json::json!({ "cmd": self.cmd, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// Runs in every document of the tab before the page's scripts: keeps each violation.
const CSP_WATCH: &str = "window.__csp = []; document.addEventListener('securitypolicyviolation', \
    (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || '')));";

async fn watch_csp(client: &Client) {
    let cmd = DevTools {
        cmd: "Page.addScriptToEvaluateOnNewDocument",
        params: serde_json::json!({ "source": CSP_WATCH }),
    };
    client
        .issue_cmd(cmd)
        .await
        .expect("install the CSP watch (DevTools)");
}

/// The policy violations the current document has seen (none on a page without the watch).
pub async fn csp_violations(client: &Client) -> Vec<String> {
    let seen = client.execute("return window.__csp || []", vec![]).await;
    let list = seen
        .ok()
        .and_then(|v| v.as_array().cloned())
        .unwrap_or_default();
    list.iter()
        .map(|v| v.as_str().unwrap_or("?").to_string())
        .collect()
}

async fn assert_no_csp_violations(client: &Client) {
    let seen = csp_violations(client).await;
    assert!(
        seen.is_empty(),
        "Content-Security-Policy violations: {seen:?}"
    );
}

/// Runs `scenario` in its own task so a panic in it is caught, always closes the session
/// (the browser must not outlive the test), then reports.
pub async fn with_session<F, Fut>(client: Client, scenario: F)
where
    F: FnOnce(Client) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = TestResult> + Send + 'static,
{
    let outcome = tokio::spawn(scenario(client.clone())).await;
    let seen = csp_violations(&client).await;
    let closed = client.close().await;
    assert!(
        seen.is_empty(),
        "Content-Security-Policy violations: {seen:?}"
    );
    match outcome {
        Ok(result) => result.unwrap(),
        Err(join_error) => std::panic::resume_unwind(join_error.into_panic()),
    }
    closed.expect("close the WebDriver session");
}

pub fn screenshot_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/screenshots");
    std::fs::create_dir_all(&dir).expect("create tests/screenshots");
    dir.join(name)
}

/// Sizes the window so that the page's viewport is exactly `width` × `height`.
pub async fn set_viewport(client: &Client, width: u32, height: u32) -> TestResult {
    client.set_window_size(width, height).await?;
    let v = client
        .execute("return [window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight]", vec![])
        .await?;
    let dw = v[0].as_u64().unwrap_or(0) as u32;
    let dh = v[1].as_u64().unwrap_or(0) as u32;
    client.set_window_size(width + dw, height + dh).await?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    Ok(())
}

pub async fn screenshot(client: &Client, name: &str) -> TestResult {
    let path = screenshot_path(name);
    std::fs::write(&path, client.screenshot().await?)?;
    eprintln!("screenshot: {}", path.display());
    Ok(())
}

pub fn css(testid: &str) -> String {
    format!("[data-testid=\"{testid}\"]")
}

pub async fn text_of(client: &Client, testid: &str) -> Result<String, fantoccini::error::CmdError> {
    client.find(Locator::Css(&css(testid))).await?.text().await
}

pub async fn click(client: &Client, testid: &str) -> TestResult {
    // Panels whose code loads on use (the lesson's side tabs, the details tabs) draw a
    // moment after their tab is chosen: wait for the element rather than fail at once.
    let element = client
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css(&css(testid)))
        .await?;
    match element.clone().click().await {
        // A floating notice (#42: bottom left, it moves nothing) may lie over a control
        // near the bottom of the window: a reader scrolls it into view, so does the test.
        Err(fantoccini::error::CmdError::Standard(e))
            if e.error == fantoccini::error::ErrorStatus::ElementClickIntercepted =>
        {
            let arg = serde_json::to_value(&element)?;
            client
                .execute("arguments[0].scrollIntoView({block: 'center'})", vec![arg])
                .await?;
            element.click().await?;
        }
        other => other?,
    }
    Ok(())
}

/// Opens the page and waits for the playground to be drawn: the page builds its parts a
/// frame apart (src/browser/build_in_turns.rs), the details tabs last.
pub async fn open(client: &Client, url: &str) -> TestResult {
    assert_no_csp_violations(client).await;
    client.goto(url).await?;
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css(&css("details")))
        .await?;
    // The details' panels load once the user shows up (src/browser/first_touch.rs): a
    // scroll says so, and the tests start from the page a reader has in front of them.
    client
        .execute("window.dispatchEvent(new Event('scroll'))", vec![])
        .await?;
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css(
            "[data-testid=details-panel-faults] > :not(.door__loading)",
        ))
        .await?;
    Ok(())
}

/// Polls until the element's text equals `want` (the page updates asynchronously).
pub async fn wait_for_text(client: &Client, testid: &str, want: &str, secs: u64) -> TestResult {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let got = text_of(client, testid).await.unwrap_or_default();
        if got == want {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!("{testid}: expected {want:?}, still {got:?}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Sets a form control's value the way a user's input would (fires input and change).
pub async fn set_value(client: &Client, testid: &str, value: &str) -> TestResult {
    // The page is built a part per frame (src/browser/build_in_turns.rs): `open` waits for the
    // details, but a field in a panel built after them may not be there yet.
    client
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css(&css(testid)))
        .await?;
    client
        .execute(
            "const el = document.querySelector(arguments[0]);
             el.value = arguments[1];
             el.dispatchEvent(new Event('input', { bubbles: true }));
             el.dispatchEvent(new Event('change', { bubbles: true }));",
            vec![css(testid).into(), value.into()],
        )
        .await?;
    Ok(())
}

/// Chooses a scenario preset, sets the fastest speed and plays it to its end.
pub async fn run_preset(client: &Client, name: &str) -> TestResult {
    set_value(client, "preset", name).await?;
    run_to_end(client).await
}

pub async fn run_to_end(client: &Client) -> TestResult {
    set_value(client, "speed", "7").await?;
    click(client, "play").await?;
    wait_finished(client, 60).await
}

pub async fn wait_finished(client: &Client, secs: u64) -> TestResult {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let hidden = client
            .find(Locator::Css(&css("finished")))
            .await?
            .attr("hidden")
            .await?;
        if hidden.is_none() {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err("the run did not finish in time".into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Every counter on the page, by its model name.
pub async fn counters(
    client: &Client,
) -> Result<Vec<(String, String)>, fantoccini::error::CmdError> {
    let mut out = Vec::new();
    for el in client
        .find_all(Locator::Css("[data-testid^=\"count-\"]"))
        .await?
    {
        let id = el.attr("data-testid").await?.unwrap_or_default();
        out.push((
            id.trim_start_matches("count-").to_string(),
            el.text().await?,
        ));
    }
    Ok(out)
}

pub async fn counter(client: &Client, name: &str) -> Result<String, fantoccini::error::CmdError> {
    text_of(client, &format!("count-{name}")).await
}

/// Shows the details tab that holds the element (the stage keeps faults, SQL, the log, the
/// sequence diagram, "Prove it"… in tabs under it; a hidden one cannot be clicked), once
/// the element exists.
/// Chooses a details tab by its name in the address (`proof`, `builder`, …). The tabs
/// whose code loads on use (src/app/details.rs's `ON_USE`) are built only then.
#[allow(dead_code)]
pub async fn open_tab(client: &Client, name: &str) -> TestResult {
    let tab = format!("details-tab-{name}");
    client
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css(&css(&tab)))
        .await?;
    client.find(Locator::Css(&css(&tab))).await?.click().await?;
    Ok(())
}

/// The details tab that holds `testid` when that tab's code loads on use (its panel is
/// built only when the tab is chosen): "Prove it" and the challenge builder.
fn on_use_tab(testid: &str) -> Option<&'static str> {
    const PROOF: [&str; 5] = [
        "proof",
        "trace-io",
        "import-file",
        "export-scenario",
        "export-test",
    ];
    if testid.starts_with("builder-") {
        Some("builder")
    } else if PROOF.contains(&testid)
        || ["proof-", "matrix", "claim-", "lockstep", "export-trace"]
            .iter()
            .any(|p| testid.starts_with(p))
    {
        Some("proof")
    } else {
        None
    }
}

pub async fn reveal(client: &Client, testid: &str) -> TestResult {
    if let Some(tab) = on_use_tab(testid) {
        if client.find(Locator::Css(&css(testid))).await.is_err() {
            open_tab(client, tab).await?;
        }
    }
    // The hidden panels are built one per browser task after the page (#18): wait until
    // this one exists before showing its tab.
    client
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css(&css(testid)))
        .await?;
    client
        .execute(
            "const el = document.querySelector(arguments[0]);
             const panel = el && el.closest('[role=tabpanel]');
             if (panel && panel.hidden) {
               document.getElementById(panel.getAttribute('aria-labelledby')).click();
             }",
            vec![css(testid).into()],
        )
        .await?;
    tokio::time::sleep(Duration::from_millis(100)).await;
    Ok(())
}

/// The 1-minute load average and the number of cores (Linux; None elsewhere): a timing
/// that shares the cores with the page is judged only on a quiet host.
#[allow(dead_code)]
pub fn host_load() -> Option<(f64, usize)> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let one: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some((one, std::thread::available_parallelism().ok()?.get()))
}

/// A `data:` URL's text (`%XX` escapes decoded).
#[allow(dead_code)]
pub fn percent_decoded(data: &str) -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
    let mut bytes = Vec::new();
    let mut it = data.bytes();
    while let Some(b) = it.next() {
        if b == b'%' {
            let hex: String = [it.next(), it.next()]
                .iter()
                .flatten()
                .map(|&c| c as char)
                .collect();
            bytes.push(u8::from_str_radix(&hex, 16)?);
        } else {
            bytes.push(b);
        }
    }
    Ok(String::from_utf8(bytes)?)
}

/// An element's attribute (None: the element has no such attribute).
#[allow(dead_code)]
pub async fn attr(
    client: &Client,
    testid: &str,
    name: &str,
) -> Result<Option<String>, fantoccini::error::CmdError> {
    client
        .find(Locator::Css(&css(testid)))
        .await?
        .attr(name)
        .await
}

/// Polls until the element's attribute is `want`.
#[allow(dead_code)]
pub async fn wait_attr(
    client: &Client,
    testid: &str,
    name: &str,
    want: &str,
    secs: u64,
) -> TestResult {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let got = attr(client, testid, name).await.ok().flatten();
        if got.as_deref() == Some(want) {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!("{testid}[{name}]: expected {want:?}, still {got:?}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The number a counter or a table's count shows, from its digits (u64::MAX when it shows
/// none, so a comparison fails loudly).
pub fn number(text: &str) -> u64 {
    text.chars()
        .filter(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap_or(u64::MAX)
}

/// The page in English at the lesson's first step, the API armed to die after COMMIT and
/// before queue.add, the run played to its end (#42's tests start from it).
pub async fn lose_dual_run_in_english(client: &Client, page: &str) -> TestResult {
    open(client, &format!("{}/?lang=en", page.trim_end_matches('/'))).await?;
    click(client, "lesson-nav-lose-dual").await?;
    wait_attr(client, "lesson-step", "data-step", "lose-dual", 10).await?;
    click(client, "arm-api-queue_add").await?;
    run_to_end(client).await
}
