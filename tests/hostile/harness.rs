//! Set-up and the checks every hostile input must pass: one test at a time, a watch in
//! every document before the page's own scripts, what the page shows, and files to import.

use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use outbox_playground::browser::storage::KEY as RUN_KEY;
use serde_json::{json, Value};

use crate::common::*;

/// Where unreadable saved state is kept (the contract with the page).
pub fn corrupt_key() -> String {
    format!("{RUN_KEY}/corrupt")
}
/// The largest file the page imports.
pub const IMPORT_LIMIT: usize = 5 * 1024 * 1024;
/// The longest a crafted run may take to open or be refused, and the longest the tab may
/// leave a script unanswered meanwhile.
pub const REPLAY_BOUND: Duration = Duration::from_secs(5);
/// The longest task the main window may run while the speaker-notes channel is flooded.
pub const FLOOD_TASK_BOUND_MS: f64 = 500.0;
/// Messages in the flood.
pub const FLOOD: usize = 10_000;

// ---------------------------------------------------------------------------------------
// Set-up: one test at a time, a watch in every document before the page's own scripts.
// ---------------------------------------------------------------------------------------

pub static SERIAL: Mutex<()> = Mutex::new(());

/// Runs a test's body on its own runtime, one test at a time.
pub fn serially(body: impl std::future::Future<Output = ()>) {
    let _one: MutexGuard<'static, ()> = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
        .block_on(body);
}

pub async fn session() -> (Client, String) {
    let page = env_url("OUTBOX_E2E_URL");
    let webdriver = env_url("OUTBOX_WEBDRIVER_URL");
    let page = format!("{}/", page.trim_end_matches('/'));
    (connect(&webdriver, 1920, 1080, &[]).await, page)
}

/// A Chrome DevTools command through chromedriver (`goog/cdp/execute`).
#[derive(Debug)]
pub struct Cdp {
    cmd: &'static str,
    params: Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({ "cmd": self.cmd, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// Runs in every new document of the current tab before any of the page's scripts:
/// dialogs are recorded instead of shown, and a timer probe records the longest stretch
/// the main thread was busy (`__gaps.max`, in ms).
pub const WATCH: &str = r#"
(() => {
  window.__watch = true;
  const note = (kind) => function () {
    window.__dialog = (window.__dialog || '') + kind + ';';
    return kind === 'prompt' ? null : (kind === 'confirm' ? false : undefined);
  };
  window.alert = note('alert');
  window.confirm = note('confirm');
  window.prompt = note('prompt');
  window.__gaps = { max: 0, last: performance.now() };
  const probe = () => {
    const now = performance.now();
    const gap = now - window.__gaps.last;
    if (gap > window.__gaps.max) window.__gaps.max = gap;
    window.__gaps.last = now;
    setTimeout(probe, 5);
  };
  setTimeout(probe, 5);
})();
"#;

/// Installs [`WATCH`] for every later document of the current tab.
pub async fn install_watch(client: &Client) -> TestResult {
    client
        .issue_cmd(Cdp {
            cmd: "Page.addScriptToEvaluateOnNewDocument",
            params: json!({ "source": WATCH }),
        })
        .await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------
// What the page shows, and the checks every hostile input must pass.
// ---------------------------------------------------------------------------------------

/// Reads the page's state; `injected` lists elements a payload would have made live: a
/// `<script>` holding the payload's marker, an `on…` attribute holding it, or a
/// `javascript:` URL in a link or source attribute.
pub const SEEN_JS: &str = r#"
const marker = '__pwned';
const bad = [];
for (const el of document.querySelectorAll('*')) {
  if (el.tagName.toLowerCase() === 'script' && el.textContent.includes(marker))
    bad.push('script: ' + el.outerHTML.slice(0, 120));
  for (const a of el.attributes) {
    const n = a.name.toLowerCase();
    if ((n.startsWith('on') && a.value.includes(marker))
        || (/(^|:)(href|src|action|formaction)$/.test(n) && /^\s*javascript:/i.test(a.value)))
      bad.push(el.tagName + ' ' + n + '=' + a.value.slice(0, 80));
  }
}
const notice = document.querySelector('[data-testid=notice]');
return {
  watch: window.__watch === true,
  pwned: typeof window.__pwned !== 'undefined',
  dialog: window.__dialog === undefined ? null : String(window.__dialog),
  panic: document.querySelector('[data-testid=panic-panel]') !== null,
  injected: bad,
  notice: notice ? notice.textContent : null,
  counters: document.querySelector('[data-testid=counters]') !== null,
  gap: window.__gaps ? window.__gaps.max : -1,
};
"#;

#[derive(Debug, Default)]
pub struct Seen {
    pub watch: bool,
    pub pwned: bool,
    pub dialog: Option<String>,
    pub panic: bool,
    pub injected: Vec<String>,
    pub notice: Option<String>,
    pub counters: bool,
    /// The longest busy stretch of the main thread so far (ms).
    pub gap: f64,
}

pub async fn seen(client: &Client) -> Result<Seen, fantoccini::error::CmdError> {
    let v = client.execute(SEEN_JS, vec![]).await?;
    Ok(Seen {
        watch: v["watch"].as_bool().unwrap_or(false),
        pwned: v["pwned"].as_bool().unwrap_or(true),
        dialog: v["dialog"].as_str().map(str::to_string),
        panic: v["panic"].as_bool().unwrap_or(false),
        injected: v["injected"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|s| s.as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default(),
        notice: v["notice"].as_str().map(str::to_string),
        counters: v["counters"].as_bool().unwrap_or(false),
        gap: v["gap"].as_f64().unwrap_or(-1.0),
    })
}

/// The first `n` characters, for messages (a payload can be 100 000 characters long).
pub fn short(text: &str, n: usize) -> String {
    let mut out: String = text.chars().take(n).collect();
    if text.chars().count() > n {
        out.push('…');
    }
    out.escape_debug().to_string()
}

/// No script of the payload ran, no dialog opened, no panic panel, nothing live injected.
pub fn assert_clean(s: &Seen, what: &str) {
    let p = problems(s, what);
    assert!(p.is_empty(), "{}", p.join("; "));
}

/// What [`assert_clean`] would fail on, as messages.
pub fn problems(s: &Seen, what: &str) -> Vec<String> {
    let mut out = Vec::new();
    if !s.watch {
        out.push(format!(
            "{what}: the watch was not installed in the document"
        ));
    }
    if s.pwned {
        out.push(format!("{what}: a payload's script ran (window.__pwned)"));
    }
    if let Some(d) = &s.dialog {
        out.push(format!("{what}: a dialog was opened: {d}"));
    }
    if s.panic {
        out.push(format!("{what}: the panic panel is shown"));
    }
    if !s.injected.is_empty() {
        out.push(format!(
            "{what}: live markup from a payload: {:?}",
            s.injected
        ));
    }
    out
}

/// What [`assert_opened_or_told`] would fail on.
pub fn untold(s: &Seen, what: &str) -> Option<String> {
    if s.panic {
        return None; // reported by `problems`
    }
    match &s.notice {
        Some(n) if n.trim().is_empty() => Some(format!("{what}: an empty notice")),
        None if !s.counters => Some(format!("{what}: neither the run nor a notice is shown")),
        _ => None,
    }
}

/// Opened, or refused with a notice that says something.
pub fn assert_opened_or_told(s: &Seen, what: &str) {
    if let Some(p) = untold(s, what) {
        panic!("{p}");
    }
}

/// Navigates to `url` in a new document and waits until the page has drawn its counters,
/// shown its panic panel or a notice. Returns the time that took and the longest time a
/// script (the poll) waited for an answer.
pub async fn open_page(client: &Client, url: &str) -> Result<(Duration, Duration), BoxError> {
    client.goto("about:blank").await?;
    let start = Instant::now();
    client.goto(url).await?;
    let mut worst_answer = start.elapsed();
    loop {
        let asked = Instant::now();
        let v = client
            .execute(
                "return document.querySelector('[data-testid=counters], [data-testid=panic-panel], [data-testid=notice]') !== null",
                vec![],
            )
            .await?;
        worst_answer = worst_answer.max(asked.elapsed());
        if v.as_bool() == Some(true) {
            // Notices and late effects of the first frame.
            tokio::time::sleep(Duration::from_millis(300)).await;
            return Ok((start.elapsed(), worst_answer));
        }
        if start.elapsed() > Duration::from_secs(60) {
            return Err(format!("{}: nothing drawn after 60 s", short(url, 80)).into());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The page still answers the user: the language switch redraws the tagline.
pub async fn assert_alive(client: &Client, what: &str) -> TestResult {
    use outbox_playground::i18n::{t, Key, Lang};
    for lang in [Lang::En, Lang::Uz] {
        click(client, &format!("lang-{}", lang.code())).await?;
        wait_for_text(client, "tagline", t(lang, Key::Tagline), 10)
            .await
            .map_err(|e| format!("{what}: the page no longer answers: {e}"))?;
    }
    Ok(())
}

pub async fn dismiss_notice(client: &Client) -> TestResult {
    client
        .execute(
            "const b = document.querySelector('[data-testid=notice-dismiss]'); if (b) b.click();",
            vec![],
        )
        .await?;
    let deadline = Instant::now() + Duration::from_secs(5);
    while client
        .execute(
            "return document.querySelector('[data-testid=notice]') !== null",
            vec![],
        )
        .await?
        .as_bool()
        == Some(true)
    {
        if Instant::now() > deadline {
            return Err("the notice does not go away".into());
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    Ok(())
}

/// Waits for a notice (or the panic panel) for up to `secs`; the time it took.
pub async fn wait_notice(client: &Client, secs: u64) -> Result<Option<Duration>, BoxError> {
    let start = Instant::now();
    loop {
        let v = client
            .execute(
                "return document.querySelector('[data-testid=notice], [data-testid=panic-panel]') !== null",
                vec![],
            )
            .await?;
        if v.as_bool() == Some(true) {
            return Ok(Some(start.elapsed()));
        }
        if start.elapsed() > Duration::from_secs(secs) {
            return Ok(None);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub fn notice_digits(notice: &str) -> String {
    notice
        .chars()
        .filter(|c| {
            !matches!(
                c,
                ' ' | '\u{a0}' | '\u{202f}' | '\u{2009}' | ',' | '.' | '_' | '\''
            )
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Files.
// ---------------------------------------------------------------------------------------

pub struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(name: &str, bytes: &[u8]) -> std::io::Result<TempFile> {
        let path =
            std::env::temp_dir().join(format!("outbox-hostile-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes)?;
        Ok(TempFile(path))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Makes the import control reachable (it sits in the closed "Prove it" section).
pub async fn show_import(client: &Client) -> TestResult {
    reveal(client, "import-file").await?;
    client
        .execute(
            "const d = document.querySelector('[data-testid=proof]'); if (d) d.open = true;
             const i = document.querySelector('[data-testid=import-file]');
             if (i) i.scrollIntoView({ block: 'center' });",
            vec![],
        )
        .await?;
    Ok(())
}

/// Imports `bytes` as a file named `name`; waits up to `secs` for the page's notice.
/// Returns the time to the notice (None: no notice came).
pub async fn import(
    client: &Client,
    name: &str,
    bytes: &[u8],
    secs: u64,
) -> Result<Option<Duration>, BoxError> {
    let file = TempFile::new(name, bytes)?;
    dismiss_notice(client).await?;
    show_import(client).await?;
    let input = client.find(Locator::Css(&css("import-file"))).await?;
    let start = Instant::now();
    input
        .send_keys(file.0.to_str().ok_or("temp path is not UTF-8")?)
        .await?;
    let sent = start.elapsed();
    Ok(wait_notice(client, secs).await?.map(|d| d + sent))
}
