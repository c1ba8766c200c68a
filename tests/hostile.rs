//! Hostile input, end to end (issues #25 and #26): crafted share links, files, saved state
//! and speaker-notes messages against the release build in a real Chromium. Whatever they
//! carry, no script of theirs runs (a payload would set `window.__pwned`; dialogs are
//! watched), the page never shows its panic panel, and each is opened or refused with a
//! notice naming the reason; limits are enforced at once, long replays stay bounded, and
//! what the page exports from such a run carries the texts only as data.
//!
//! Same services as `e2e` (`cargo xtask test`). The tests here run one at a time: several
//! of them measure time, and two Chromiums on two cores would measure each other.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use common::*;
use fantoccini::{Client, Locator};
use outbox_model::lesson::STEPS;
use outbox_model::scenario::{Fault, Timed, MAX_SCHEDULE_TICK};
use outbox_model::{Action, Step};
use outbox_playground::browser::storage::KEY as RUN_KEY;
use outbox_playground::lesson::ctl::PROGRESS_KEY;
use outbox_playground::lesson::presenter::CHANNEL;
use outbox_playground::proof::trace_io::trace_of;
use outbox_playground::run::link::{self, MAX_LINK};
use outbox_playground::run::sim::{Input, Run, Sim, MAX_ATOMS, MAX_PAGE_TASKS};
use serde_json::{json, Value};

/// Returns an error (not a panic) when `cond` does not hold.
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+).into());
        }
    };
}

/// Where unreadable saved state is kept (the contract with the page).
fn corrupt_key() -> String {
    format!("{RUN_KEY}/corrupt")
}
/// The largest file the page imports.
const IMPORT_LIMIT: usize = 5 * 1024 * 1024;
/// The longest a crafted run may take to open or be refused, and the longest the tab may
/// leave a script unanswered meanwhile.
const REPLAY_BOUND: Duration = Duration::from_secs(5);
/// The longest task the main window may run while the speaker-notes channel is flooded.
const FLOOD_TASK_BOUND_MS: f64 = 500.0;
/// Messages in the flood.
const FLOOD: usize = 10_000;

// ---------------------------------------------------------------------------------------
// Set-up: one test at a time, a watch in every document before the page's own scripts.
// ---------------------------------------------------------------------------------------

static SERIAL: Mutex<()> = Mutex::new(());

/// Runs a test's body on its own runtime, one test at a time.
fn serially(body: impl std::future::Future<Output = ()>) {
    let _one: MutexGuard<'static, ()> = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
        .block_on(body);
}

async fn session() -> (Client, String) {
    let page = env_url("OUTBOX_E2E_URL");
    let webdriver = env_url("OUTBOX_WEBDRIVER_URL");
    let page = format!("{}/", page.trim_end_matches('/'));
    (connect(&webdriver, 1920, 1080, &[]).await, page)
}

/// A Chrome DevTools command through chromedriver (`goog/cdp/execute`).
#[derive(Debug)]
struct Cdp {
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
const WATCH: &str = r#"
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
async fn install_watch(client: &Client) -> TestResult {
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
const SEEN_JS: &str = r#"
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
struct Seen {
    watch: bool,
    pwned: bool,
    dialog: Option<String>,
    panic: bool,
    injected: Vec<String>,
    notice: Option<String>,
    counters: bool,
    /// The longest busy stretch of the main thread so far (ms).
    gap: f64,
}

async fn seen(client: &Client) -> Result<Seen, fantoccini::error::CmdError> {
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
fn short(text: &str, n: usize) -> String {
    let mut out: String = text.chars().take(n).collect();
    if text.chars().count() > n {
        out.push('…');
    }
    out.escape_debug().to_string()
}

/// No script of the payload ran, no dialog opened, no panic panel, nothing live injected.
fn assert_clean(s: &Seen, what: &str) {
    let p = problems(s, what);
    assert!(p.is_empty(), "{}", p.join("; "));
}

/// What [`assert_clean`] would fail on, as messages.
fn problems(s: &Seen, what: &str) -> Vec<String> {
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
fn untold(s: &Seen, what: &str) -> Option<String> {
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
fn assert_opened_or_told(s: &Seen, what: &str) {
    if let Some(p) = untold(s, what) {
        panic!("{p}");
    }
}

/// Navigates to `url` in a new document and waits until the page has drawn its counters,
/// shown its panic panel or a notice. Returns the time that took and the longest time a
/// script (the poll) waited for an answer.
async fn open_page(client: &Client, url: &str) -> Result<(Duration, Duration), BoxError> {
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

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The page still answers the user: the language switch redraws the tagline.
async fn assert_alive(client: &Client, what: &str) -> TestResult {
    use outbox_playground::i18n::{t, Key, Lang};
    for lang in [Lang::En, Lang::Uz] {
        click(client, &format!("lang-{}", lang.code())).await?;
        wait_for_text(client, "tagline", t(lang, Key::Tagline), 10)
            .await
            .map_err(|e| format!("{what}: the page no longer answers: {e}"))?;
    }
    Ok(())
}

async fn dismiss_notice(client: &Client) -> TestResult {
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
async fn wait_notice(client: &Client, secs: u64) -> Result<Option<Duration>, BoxError> {
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

fn notice_digits(notice: &str) -> String {
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
// Payloads and crafted runs.
// ---------------------------------------------------------------------------------------

/// `<img src=x onerror=…>` over and over, exactly 100 000 characters.
fn long_payload() -> String {
    let unit = r#"<img src=x onerror="window.__pwned=1">"#;
    let mut s = unit.repeat(100_000 / unit.len() + 1);
    s.truncate(100_000);
    s
}

/// Every payload of the issue, with a label for messages.
fn payloads() -> Vec<(&'static str, String)> {
    vec![
        ("script tag", "<script>window.__pwned=1</script>".into()),
        (
            "img onerror",
            r#"<img src=x onerror="window.__pwned=1">"#.into(),
        ),
        ("svg onload", r#"<svg onload="window.__pwned=1">"#.into()),
        (
            "quote then script",
            r#""><script>window.__pwned=1</script>"#.into(),
        ),
        ("attribute break", "' onmouseover='window.__pwned=1".into()),
        ("javascript url", "javascript:window.__pwned=1".into()),
        (
            "rtl override",
            "\u{202e}1=denwp__.wodniw\u{202c} \u{2066}<b>rtl</b>\u{2069}".into(),
        ),
        (
            "control chars",
            "a\u{1}\u{7}\u{8}\u{1b}[31m\r\n\t\u{7f}\u{85}\u{2028}\u{2029}b".into(),
        ),
        (
            "nul",
            "before\0after<script>window.__pwned=1</script>".into(),
        ),
        ("100 000 characters", long_payload()),
    ]
}

/// The run a first visit opens: the lesson's first step.
fn lesson_sim() -> Sim {
    Sim::new(outbox_model::lesson::scenario(STEPS[0].goal))
}

fn url_of(page: &str, run: &Run) -> String {
    format!("{page}#{}", link::fragment(run))
}

fn url_of_json(page: &str, json: &Value) -> String {
    format!(
        "{page}#{}{}",
        link::PREFIX,
        link::base64url_encode(json.to_string().as_bytes())
    )
}

/// A short run of the lesson's first scenario, its name and summary set to `name` and
/// `summary`.
fn named_run(name: &str, summary: &str) -> Run {
    let mut sim = lesson_sim();
    sim.ticks(5);
    let mut run = sim.to_run();
    run.scenario.name = name.to_string();
    run.scenario.summary = summary.to_string();
    run
}

/// The crafted links of one payload: where a link carries text.
fn hostile_links(page: &str, payload: &str) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if payload.len() >= 100_000 {
        // Both at once would be over the link limit: one field each.
        out.push(("name", url_of(page, &named_run(payload, "s"))));
        out.push(("summary", url_of(page, &named_run("n", payload))));
    } else {
        out.push((
            "name and summary",
            url_of(page, &named_run(payload, payload)),
        ));
    }
    // A process name in the run's log (the model knows no such process).
    let mut run = named_run("hostile-process", "");
    run.inputs.push(Input::Act(Action::Kill {
        process: payload.to_string(),
    }));
    run.inputs.push(Input::Ticks(3));
    out.push(("process in the log", url_of(page, &run)));
    // … in a standing fault rule …
    let mut run = named_run("hostile-fault", "");
    run.scenario.faults.push(Fault::Kill {
        process: payload.to_string(),
        step: Step::QueueAdd,
        when: outbox_model::scenario::When::Nth { n: 1 },
        times: Some(1),
    });
    out.push(("process in a fault", url_of(page, &run)));
    // … and in a scheduled action.
    let mut run = named_run("hostile-schedule", "");
    run.scenario.schedule.push(Timed {
        at_tick: 2,
        action: Action::Kill {
            process: payload.to_string(),
        },
    });
    out.push(("process in the schedule", url_of(page, &run)));
    out
}

/// The issue's panic link: the default lesson run, idle ticks far past its end.
fn panic_runs() -> Vec<(&'static str, Run)> {
    let mut run = lesson_sim().to_run();
    run.inputs = vec![Input::Ticks(8000)];
    let mut zero = run.clone();
    zero.scenario.max_ticks = 0;
    vec![
        ("8000 idle ticks", run),
        ("8000 idle ticks, max_ticks 0", zero),
    ]
}

// ---------------------------------------------------------------------------------------
// Files.
// ---------------------------------------------------------------------------------------

struct TempFile(std::path::PathBuf);

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
async fn show_import(client: &Client) -> TestResult {
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
async fn import(
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

// ---------------------------------------------------------------------------------------
// Exports.
// ---------------------------------------------------------------------------------------

/// The text of a `data:` URL, and its media type.
fn data_url_text(url: &str) -> Result<(String, String), BoxError> {
    let rest = url.strip_prefix("data:").ok_or("not a data: URL")?;
    let (mime, body) = rest.split_once(',').ok_or("a data: URL without a comma")?;
    let mut bytes = Vec::with_capacity(body.len());
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3])?;
            bytes.push(u8::from_str_radix(hex, 16)?);
            i += 3;
        } else {
            bytes.push(b[i]);
            i += 1;
        }
    }
    Ok((mime.to_string(), String::from_utf8(bytes)?))
}

/// The JSON text with every string literal's content taken out: what is left is syntax.
fn json_outside_strings(text: &str) -> String {
    let mut out = String::new();
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
                out.push(c);
            }
        } else {
            if c == '"' {
                in_string = true;
            }
            out.push(c);
        }
    }
    out
}

/// A JSON export: served as JSON, parses, and the payloads are only string data in it.
fn check_json_export(what: &str, mime: &str, text: &str) -> Result<Value, BoxError> {
    ensure!(
        mime.starts_with("application/json"),
        "{what}: served as {mime}"
    );
    let value: Value = serde_json::from_str(text).map_err(|e| format!("{what}: not JSON: {e}"))?;
    let syntax = json_outside_strings(text).to_lowercase();
    for bad in [
        "<",
        ">",
        "script",
        "onerror",
        "onload",
        "javascript",
        "__pwned",
    ] {
        ensure!(
            !syntax.contains(bad),
            "{what}: {bad:?} outside a JSON string: {}",
            short(&syntax, 300)
        );
    }
    Ok(value)
}

/// The Rust test export: one `#[test]`, and the payloads only inside literals or
/// comments (no identifier of theirs is code).
fn check_rust_export(what: &str, mime: &str, text: &str) -> TestResult {
    ensure!(mime.starts_with("text/x-rust"), "{what}: served as {mime}");
    let file = syn::parse_file(text).map_err(|e| format!("{what}: does not parse: {e}"))?;
    let tests: Vec<String> = file
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Fn(f) if f.attrs.iter().any(|a| a.path().is_ident("test")) => {
                Some(f.sig.ident.to_string())
            }
            _ => None,
        })
        .collect();
    ensure!(
        tests.len() == 1,
        "{what}: {} #[test] functions: {tests:?}",
        tests.len()
    );
    ensure!(
        text.matches("#[test]").count() == 1,
        "{what}: \"#[test]\" appears more than once in the text"
    );
    let tokens: proc_macro2::TokenStream = text.parse().map_err(|e| format!("{what}: {e}"))?;
    let mut idents = Vec::new();
    collect_idents(tokens, &mut idents);
    for bad in ["__pwned", "window", "onerror", "onload", "onmouseover"] {
        ensure!(
            !idents.iter().any(|i| i == bad),
            "{what}: the payload's {bad:?} is code in the export"
        );
    }
    Ok(())
}

fn collect_idents(tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
    for t in tokens {
        match t {
            proc_macro2::TokenTree::Ident(i) => out.push(i.to_string()),
            proc_macro2::TokenTree::Group(g) => collect_idents(g.stream(), out),
            _ => {}
        }
    }
}

/// An SVG, parsed as the browser would: no parse error, no script, no `on…` attribute,
/// no `javascript:` link, nothing foreign.
const SVG_CHECK_JS: &str = r#"
const doc = new DOMParser().parseFromString(arguments[0], 'image/svg+xml');
const bad = [];
if (doc.querySelector('parsererror')) bad.push('parse error');
for (const el of doc.querySelectorAll('*')) {
  const tag = el.tagName.toLowerCase();
  if (tag === 'script' || tag === 'foreignobject' || tag === 'iframe') bad.push('<' + tag + '>');
  for (const a of el.attributes) {
    const n = a.name.toLowerCase();
    if (n.startsWith('on')) bad.push(tag + ' ' + n);
    if (/(^|:)href$/.test(n) && /^\s*javascript:/i.test(a.value)) bad.push(tag + ' ' + n + '=' + a.value.slice(0, 60));
  }
}
return bad;
"#;

/// Clicks a download link (its download is cancelled: only the file it points at is
/// wanted) and returns that file's media type and text.
async fn export_of(client: &Client, testid: &str) -> Result<(String, String), BoxError> {
    client
        .execute(
            "if (!window.__noDownloads) {
               window.__noDownloads = true;
               window.addEventListener('click', e => {
                 if (e.target.closest && e.target.closest('a[download]')) e.preventDefault();
               });
             }
             const d = document.querySelector('[data-testid=proof]'); if (d) d.open = true;
             document.querySelector(arguments[0]).scrollIntoView({ block: 'center' });",
            vec![css(testid).into()],
        )
        .await?;
    let a = client.find(Locator::Css(&css(testid))).await?;
    a.click().await?;
    let href = a.attr("href").await?.unwrap_or_default();
    data_url_text(&href).map_err(|e| format!("{testid}: {e}: {}", short(&href, 80)).into())
}

// =======================================================================================
// The tests.
// =======================================================================================

/// The checks themselves: the watch sees a payload that does run, a dialog, and live
/// markup; the export checks see code where data should be.
#[test]
fn the_watch_sees_a_payload_that_runs() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            open_page(&client, &page).await?;
            assert_eq!(seen(&client).await?.dialog, None);
            client
                .execute(
                    "const d = document.createElement('div');
                     d.innerHTML = '<img src=x onerror=\"window.__pwned=1\">';
                     document.body.appendChild(d);
                     alert('x');",
                    vec![],
                )
                .await?;
            tokio::time::sleep(Duration::from_millis(500)).await;
            let s = seen(&client).await?;
            assert!(s.watch && s.pwned, "the watch missed a payload that ran: {s:?}");
            assert_eq!(s.dialog.as_deref(), Some("alert;"));
            assert_eq!(s.injected.len(), 1, "{s:?}");
            let svg = "<svg xmlns='http://www.w3.org/2000/svg'><a href='javascript:x'><text onclick='y'>t</text></a></svg>";
            let bad = client.execute(SVG_CHECK_JS, vec![svg.into()]).await?;
            assert_eq!(bad.as_array().map(Vec::len), Some(2), "{bad}");
            Ok(())
        })
        .await;
    });
    let ok = r#"{"name":"<script>x</script>","n":1}"#;
    assert_eq!(json_outside_strings(ok), r#"{"":"","":1}"#);
    assert!(check_json_export("t", "application/json", ok).is_ok());
    assert!(check_json_export("t", "text/html", ok).is_err());
    assert!(check_json_export("t", "application/json", r#"{"a":1}<script>"#).is_err());
    let code = "#[test]\nfn a() { let s = \"<script>\"; }\n#[test]\nfn b() {}\n";
    assert!(check_rust_export("t", "text/x-rust", code).is_err());
    let code = "#[test]\nfn a() { window.__pwned = 1; }\n";
    assert!(check_rust_export("t", "text/x-rust", code).is_err());
    let code = "// <script>window.__pwned=1</script>\n#[test]\nfn a() { let _ = r#\"<img onerror=x>\"#; }\n";
    assert!(check_rust_export("t", "text/x-rust", code).is_ok());
    assert_eq!(
        data_url_text("data:text/plain;charset=utf-8,a%3Cb%25%C3%A9").unwrap(),
        ("text/plain;charset=utf-8".to_string(), "a<b%é".to_string())
    );
}

#[test]
fn hostile_links_run_no_script_and_open_or_say_why() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            let mut slowest = (Duration::ZERO, String::new());
            for (label, payload) in payloads() {
                for (field, url) in hostile_links(&page, &payload) {
                    let what = format!("link, {label} in the {field}");
                    let (took, _) = open_page(&client, &url).await?;
                    let s = seen(&client).await?;
                    assert_clean(&s, &what);
                    assert_opened_or_told(&s, &what);
                    if field.starts_with("process") {
                        assert!(
                            s.notice.is_some(),
                            "{what}: a run naming an unknown process opened without a notice"
                        );
                    }
                    eprintln!(
                        "{what}: {} ms, {}",
                        took.as_millis(),
                        s.notice
                            .as_deref()
                            .map(|n| format!("notice {}", short(n, 140)))
                            .unwrap_or_else(|| "opened".into())
                    );
                    if took > slowest.0 {
                        slowest = (took, what.clone());
                    }
                }
                assert_alive(&client, label).await?;
            }
            eprintln!(
                "slowest hostile link: {} ms ({})",
                slowest.0.as_millis(),
                slowest.1
            );
            Ok(())
        })
        .await;
    });
}

#[test]
fn hostile_files_run_no_script_and_are_imported_or_refused_with_a_reason() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            open_page(&client, &page).await?;
            for (n, (label, payload)) in payloads().into_iter().enumerate() {
                // A trace whose texts are the payload (a property only a trace carries).
                let mut sim = lesson_sim();
                sim.ticks(6);
                let mut trace = trace_of(&sim).expect("a short run is a trace");
                trace.scenario.name = payload.clone();
                trace.scenario.summary = payload.clone();
                trace.property = Some(payload.clone());
                let mut files = vec![("trace", trace.to_json())];
                // A trace that names a process the scenario does not have.
                let mut bad = trace.clone();
                bad.scenario.name = "hostile-process".into();
                bad.actions.push(Action::Kill {
                    process: payload.clone(),
                });
                files.push(("trace with the process", bad.to_json()));
                // A saved run, and a bare scenario.
                let mut run = sim.to_run();
                run.scenario.name = payload.clone();
                run.scenario.summary = payload.clone();
                files.push(("saved run", link::to_json(&run)));
                files.push(("scenario", run.scenario.to_json()));
                for (kind, text) in files {
                    let what = format!("file, {label} in a {kind}");
                    let took = import(
                        &client,
                        &format!("{n}-{}.json", kind.replace(' ', "-")),
                        text.as_bytes(),
                        10,
                    )
                    .await?
                    .ok_or_else(|| format!("{what}: no notice after 10 s"))?;
                    let s = seen(&client).await?;
                    assert_clean(&s, &what);
                    assert_opened_or_told(&s, &what);
                    eprintln!(
                        "{what}: {} ms, notice {}",
                        took.as_millis(),
                        short(s.notice.as_deref().unwrap_or_default(), 140)
                    );
                }
                assert_alive(&client, label).await?;
            }
            Ok(())
        })
        .await;
    });
}

#[test]
fn the_panic_link_does_not_panic_the_page() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            for (label, run) in panic_runs() {
                let what = format!("panic link ({label})");
                let (took, _) = open_page(&client, &url_of(&page, &run)).await?;
                let s = seen(&client).await?;
                assert_clean(&s, &what);
                assert_opened_or_told(&s, &what);
                eprintln!(
                    "{what}: {} ms, {}",
                    took.as_millis(),
                    s.notice
                        .as_deref()
                        .map(|n| format!("notice {}", short(n, 140)))
                        .unwrap_or_else(|| "opened".into())
                );
                assert_alive(&client, &what).await?;
                // Whatever was saved from it does not panic the next visit either.
                open_page(&client, &page).await?;
                let s = seen(&client).await?;
                assert_clean(&s, &format!("{what}, reloaded"));
            }
            Ok(())
        })
        .await;
    });
}

/// The panic panel's "reset saved state": provoked with the issue's panic link and saved
/// progress. After the page's fixes neither panics, and the check is skipped (printed).
#[test]
fn a_panic_panel_if_one_shows_resets_the_saved_state() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            let mut provoked = 0;
            for (label, run) in panic_runs() {
                open_page(&client, &url_of(&page, &run)).await?;
                if !seen(&client).await?.panic {
                    eprintln!("{label}: no panic provoked");
                    continue;
                }
                provoked += 1;
                // A panic saved with the run would show again on every reload until reset.
                let reset = client
                    .find(Locator::Css(&css("panic-reset")))
                    .await
                    .map_err(|e| format!("{label}: the panic panel has no reset button: {e}"))?;
                reset.click().await?;
                tokio::time::sleep(Duration::from_millis(500)).await;
                open_page(&client, &page).await?;
                let s = seen(&client).await?;
                assert!(!s.panic, "{label}: the page panics again after the reset");
                assert_alive(&client, label).await?;
            }
            if provoked == 0 {
                eprintln!("no panic could be provoked: the reset button was not exercised");
            }
            Ok(())
        })
        .await;
    });
}

#[test]
fn a_link_one_character_over_the_limit_is_refused_at_once() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            // A real run padded (in its summary) to exactly the limit, then one more character.
            let mut run = named_run("at-the-limit", "");
            let bare = link::fragment(&run).len() - link::PREFIX.len();
            // Each 3 bytes of JSON are 4 characters of link.
            run.scenario.summary = "x".repeat((MAX_LINK - bare) / 4 * 3);
            while link::fragment(&run).len() - link::PREFIX.len() < MAX_LINK {
                run.scenario.summary.push('x');
            }
            let body_len = link::fragment(&run).len() - link::PREFIX.len();
            eprintln!("padded link: {body_len} characters after #run= (limit {MAX_LINK})");
            let at_limit = url_of(&page, &run);
            if body_len == MAX_LINK {
                // At the limit: opened (or refused for another reason, with a notice).
                let (took, _) = open_page(&client, &at_limit).await?;
                let s = seen(&client).await?;
                assert_clean(&s, "link at the limit");
                assert_opened_or_told(&s, "link at the limit");
                if let Some(n) = &s.notice {
                    assert!(
                        !notice_digits(n).contains(&MAX_LINK.to_string()),
                        "a link of exactly {MAX_LINK} characters is refused for its length: {n}"
                    );
                }
                eprintln!(
                    "link at the limit: {} ms, notice {:?}",
                    took.as_millis(),
                    s.notice.as_deref().map(|n| short(n, 100))
                );
            }
            let body = link::fragment(&run)[link::PREFIX.len()..][..MAX_LINK].to_string();
            let over = format!("{page}#{}{body}A", link::PREFIX);
            assert_eq!(
                over.len() - page.len() - 1 - link::PREFIX.len(),
                MAX_LINK + 1
            );
            let (took, worst) = open_page(&client, &over).await?;
            let s = seen(&client).await?;
            assert_clean(&s, "link one over the limit");
            let notice = s
                .notice
                .clone()
                .ok_or("a link one character over the limit opened without a notice")?;
            assert!(
                notice_digits(&notice).contains(&MAX_LINK.to_string()),
                "the notice does not name the limit ({MAX_LINK}): {notice}"
            );
            eprintln!(
                "link one over the limit: notice after {} ms (longest unanswered script {} ms): {}",
                took.as_millis(),
                worst.as_millis(),
                short(&notice, 160)
            );
            assert!(
                took < REPLAY_BOUND,
                "the over-long link took {took:?} to be refused"
            );
            assert_alive(&client, "link over the limit").await?;
            Ok(())
        })
        .await;
    });
}

#[test]
fn an_import_over_five_megabytes_is_refused_naming_the_limit() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            open_page(&client, &page).await?;
            // A well-formed trace, 6 MB of it in its summary: only its size is wrong.
            let mut sim = lesson_sim();
            sim.ticks(4);
            let mut trace = trace_of(&sim).expect("a short run is a trace");
            trace.scenario.summary = "x".repeat(6 * 1024 * 1024);
            let text = trace.to_json();
            assert!(text.len() > IMPORT_LIMIT);
            let took = import(&client, "six-megabytes.json", text.as_bytes(), 10)
                .await?
                .ok_or("a 6 MB import gave no notice within 10 s")?;
            let s = seen(&client).await?;
            assert_clean(&s, "6 MB import");
            let notice = s.notice.clone().unwrap_or_default();
            let digits = notice_digits(&notice);
            let names_limit = ["5MB", "5MiB", "5Mo", "5МБ", &IMPORT_LIMIT.to_string()]
                .iter()
                .any(|l| digits.contains(l));
            eprintln!(
                "6 MB import: notice after {} ms: {}",
                took.as_millis(),
                short(&notice, 200)
            );
            assert!(
                names_limit,
                "the notice does not name the 5 MB limit: {notice}"
            );
            assert!(
                took < REPLAY_BOUND,
                "the 6 MB file took {took:?} to be refused"
            );
            assert_alive(&client, "6 MB import").await?;
            Ok(())
        })
        .await;
    });
}

/// The bound of a crafted run's cost: to open or refuse it, to answer a script meanwhile,
/// the longest stretch the main thread was busy.
fn over_bound(what: &str, took: Duration, answer: Duration, busy: Duration) -> Vec<String> {
    let mut out = Vec::new();
    if took > REPLAY_BOUND {
        out.push(format!(
            "{what}: {took:?} to open or refuse (bound {REPLAY_BOUND:?})"
        ));
    }
    if answer > REPLAY_BOUND {
        out.push(format!("{what}: a script waited {answer:?} for an answer"));
    }
    if busy > REPLAY_BOUND {
        out.push(format!(
            "{what}: the main thread was busy for {busy:?} at a stretch"
        ));
    }
    out
}

/// Crafted runs that cost the page the most: the worst case is printed, and each must be
/// opened or refused within [`REPLAY_BOUND`] while the tab still answers a script.
#[test]
fn long_and_far_future_runs_open_or_are_refused_in_bounded_time() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            let mut links: Vec<(String, String)> = Vec::new();
            // The issue's panic link.
            for (label, run) in panic_runs() {
                links.push((format!("link: {label}"), url_of(&page, &run)));
            }
            // The biggest world the page takes, and the longest log a link may carry.
            let mut big = outbox_model::preset("canon-outbox").unwrap();
            big.workload.tasks = MAX_PAGE_TASKS;
            let mut run = Sim::new(big.clone()).to_run();
            run.inputs = vec![Input::Ticks(MAX_ATOMS)];
            links.push((
                format!("link: {MAX_PAGE_TASKS} tasks, {MAX_ATOMS} ticks"),
                url_of(&page, &run),
            ));
            // 2 000 000 preloaded events (the model's cap, ten times the page's task cap).
            let mut pre = Sim::new(outbox_model::preset("canon-outbox").unwrap()).to_run();
            pre.scenario.workload.preloaded_events = 2_000_000;
            pre.inputs = vec![Input::Ticks(1000)];
            links.push(("link: 2 000 000 preloaded events".into(), url_of(&page, &pre)));
            // A far-future schedule: the clock jumps to it when the world is idle.
            let mut far = Sim::new(outbox_model::preset("canon-outbox").unwrap()).to_run();
            far.scenario.schedule.push(Timed {
                at_tick: MAX_SCHEDULE_TICK,
                action: Action::Kill {
                    process: "relay-1".into(),
                },
            });
            far.scenario.config.restart_after_ticks = Some(1);
            far.scenario.max_ticks = u64::MAX;
            far.inputs = vec![Input::Ticks(MAX_ATOMS)];
            links.push((
                format!("link: kill scheduled at tick {MAX_SCHEDULE_TICK}, {MAX_ATOMS} ticks"),
                url_of(&page, &far),
            ));
            // The same through the JSON, with a log of many short entries (the link's length
            // is the limit).
            let mut many = serde_json::to_value(Sim::new(outbox_model::preset("canon-outbox").unwrap()).to_run())?;
            let entries: Vec<Value> = (0..12_000).map(|_| json!({ "ticks": MAX_ATOMS / 12_000 })).collect();
            many["inputs"] = Value::Array(entries);
            links.push(("link: 12 000 log entries".into(), url_of_json(&page, &many)));

            let mut worst = (Duration::ZERO, String::new());
            // Every case is measured; the failures are reported together at the end.
            let mut failures: Vec<String> = Vec::new();
            for (what, url) in &links {
                eprintln!("{what}: {} characters", url.len());
                let (took, answer) = open_page(&client, url).await?;
                let s = seen(&client).await?;
                failures.extend(problems(&s, what));
                failures.extend(untold(&s, what));
                eprintln!(
                    "{what}: {} ms to open or refuse, longest busy stretch {:.0} ms, longest unanswered script {} ms, {}",
                    took.as_millis(),
                    s.gap,
                    answer.as_millis(),
                    s.notice
                        .as_deref()
                        .map(|n| format!("notice {}", short(n, 140)))
                        .unwrap_or_else(|| "opened".into())
                );
                let busy = Duration::from_secs_f64(s.gap.max(0.0) / 1000.0);
                let cost = took.max(busy).max(answer);
                if cost > worst.0 {
                    worst = (cost, what.clone());
                }
                failures.extend(over_bound(what, took, answer, busy));
            }

            // Files: a trace with a long action list (under the size limit), and a saved run
            // with the longest log, imported into an open page.
            let mut files: Vec<(String, String)> = Vec::new();
            // Compact JSON, 18 bytes a tick: the longest list under the size limit.
            let n_ticks = 270_000u64;
            let mut s = big.clone();
            s.workload.tasks = 20_000;
            let mut sim = Sim::new(s);
            let mut trace = trace_of(&sim).expect("an empty run is a trace");
            for _ in 0..n_ticks {
                if sim.act(Action::Tick).is_err() {
                    break;
                }
            }
            trace.actions = vec![Action::Tick; sim.inputs().len()];
            trace.final_counters = sim.world.counters();
            let text = serde_json::to_string(&trace)?;
            eprintln!("trace of {} ticks: {} bytes", trace.actions.len(), text.len());
            assert!(text.len() < IMPORT_LIMIT, "the long trace is meant to be under the size limit");
            files.push((format!("file: trace of {} ticks", trace.actions.len()), text));
            files.push((
                format!("file: saved run, {MAX_PAGE_TASKS} tasks, {MAX_ATOMS} ticks"),
                link::to_json(&run),
            ));
            files.push(("file: far-future schedule".into(), link::to_json(&far)));
            // A clean page (what the links saved could panic it on every load).
            open_page(&client, &page).await?;
            client.execute("localStorage.clear()", vec![]).await?;
            open_page(&client, &page).await?;
            for (n, (what, text)) in files.iter().enumerate() {
                if seen(&client).await?.panic {
                    client.execute("localStorage.clear()", vec![]).await?;
                    open_page(&client, &page).await?;
                }
                client.execute("window.__gaps.max = 0", vec![]).await?;
                let Some(took) = import(&client, &format!("long-{n}.json"), text.as_bytes(), 60).await? else {
                    failures.push(format!("{what}: no notice after 60 s"));
                    continue;
                };
                let answered = Instant::now();
                let s = seen(&client).await?;
                let answer = answered.elapsed();
                failures.extend(problems(&s, what));
                failures.extend(untold(&s, what));
                eprintln!(
                    "{what}: {} ms to import or refuse, longest busy stretch {:.0} ms, {}",
                    took.as_millis(),
                    s.gap,
                    short(s.notice.as_deref().unwrap_or_default(), 140)
                );
                let busy = Duration::from_secs_f64(s.gap.max(0.0) / 1000.0);
                let cost = took.max(busy).max(answer);
                if cost > worst.0 {
                    worst = (cost, what.clone());
                }
                failures.extend(over_bound(what, took, answer, busy));
            }
            eprintln!("worst case: {} ms ({})", worst.0.as_millis(), worst.1);
            assert!(failures.is_empty(), "{}", failures.join("\n"));
            assert_alive(&client, "after the long runs").await?;
            Ok(())
        })
        .await;
    });
}

/// Saved state the page cannot read (a future version, broken JSON, an unknown field) is
/// refused with a notice, not half-read, and kept (under the run key or `…/corrupt`).
#[test]
fn unreadable_saved_state_is_reported_and_kept() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
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
            let cases = [
                ("a saved run of version 99", v99.to_string()),
                ("a saved run with an unknown field", unknown.to_string()),
                ("broken JSON", good[..cut].to_string()),
            ];
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
                let kept = |client: Client, when: &'static str| {
                    let (text, corrupt) = (text.clone(), corrupt.clone());
                    async move {
                        let v = client
                            .execute(
                                "return [localStorage.getItem(arguments[0]), localStorage.getItem(arguments[1])]",
                                vec![RUN_KEY.into(), corrupt.into()],
                            )
                            .await?;
                        let found = (v[0].as_str() == Some(&text)) || (v[1].as_str() == Some(&text));
                        assert!(found, "{what}: the saved text is lost {when} (run: {:?}, corrupt: {:?})",
                            v[0].as_str().map(|t| short(t, 60)), v[1].as_str().map(|t| short(t, 60)));
                        Ok::<(), BoxError>(())
                    }
                };
                kept(client.clone(), "after the page opened").await?;
                // A step saves the page's run: the unreadable text must survive it.
                click(&client, "step").await?;
                tokio::time::sleep(Duration::from_millis(300)).await;
                kept(client.clone(), "after a step").await?;
                open_page(&client, &page).await?;
                assert_clean(&seen(&client).await?, &format!("{what}, reloaded"));
                kept(client.clone(), "after a reload").await?;
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

/// Junk and hostile messages on the speaker-notes channel are ignored by the main window
/// and by a notes window: nothing changes, nothing runs, nothing is answered.
#[test]
fn the_speaker_notes_channel_ignores_junk() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            open_page(&client, &page).await?;
            let main = client.window().await?;
            let notes = client.new_window(false).await?.handle;
            client.switch_to_window(notes.clone()).await?;
            install_watch(&client).await?;
            client.goto(&format!("{page}?notes")).await?;
            client
                .wait()
                .at_most(Duration::from_secs(30))
                .for_element(Locator::Css(&css("speaker-notes")))
                .await?;
            tokio::time::sleep(Duration::from_millis(500)).await;
            let notes_state = |client: Client| async move {
                client
                    .execute(
                        "const s = document.querySelector('[data-testid=notes-step]');
                         return [s ? s.getAttribute('data-step') : 'waiting', document.documentElement.lang,
                                 document.body.innerText.length];",
                        vec![],
                    )
                    .await
            };
            let before = notes_state(client.clone()).await?;
            eprintln!("notes window before the junk: {before}");

            let long = long_payload();
            let junk: Vec<Value> = vec![
                json!(""),
                json!(" "),
                json!("hello "),
                json!(" hello"),
                json!("HELLO"),
                json!("hello\0"),
                json!("hi"),
                json!(format!("{} uz", STEPS.len())),
                json!("99 uz"),
                json!("-1 uz"),
                json!("18446744073709551616 uz"),
                json!("99999999999999999999999999 en"),
                json!("1 xx"),
                json!("1 EN"),
                json!("1 en "),
                json!("1  en"),
                json!("1\ten"),
                json!("1 en\0"),
                json!("\u{202e}1 en"),
                json!("1 en extra"),
                json!("NaN en"),
                json!("1.5 en"),
                json!("0x1 en"),
                json!("<script>window.__pwned=1</script>"),
                json!("1 <img src=x onerror=\"window.__pwned=1\">"),
                json!("<svg onload=\"window.__pwned=1\"> en"),
                json!("javascript:window.__pwned=1"),
                json!(long),
                json!(format!("1 {long}")),
                json!(1),
                json!(null),
                json!(true),
                json!([1, "en"]),
                json!({ "step": 1, "lang": "en" }),
            ];
            let post_junk = "const ch = new BroadcastChannel(arguments[0]);
                 let replies = 0;
                 ch.onmessage = () => { replies += 1; };
                 for (const m of arguments[1]) ch.postMessage(m);
                 ch.postMessage(new ArrayBuffer(16));
                 ch.postMessage(new Blob(['1 en']));
                 window.__junkReplies = () => replies;
                 window.__junkChannel = ch;";
            // From the notes window (its own channel object does not hear itself; the page's
            // does), then from the main window.
            client
                .execute(post_junk, vec![CHANNEL.into(), Value::Array(junk.clone())])
                .await?;
            client.switch_to_window(main.clone()).await?;
            let main_before = text_of(&client, "lesson-step").await.ok();
            client
                .execute(post_junk, vec![CHANNEL.into(), Value::Array(junk.clone())])
                .await?;
            tokio::time::sleep(Duration::from_millis(1500)).await;
            let s = seen(&client).await?;
            assert_clean(&s, "main window after the junk");
            let replies = client
                .execute("return window.__junkReplies()", vec![])
                .await?;
            assert_eq!(
                replies.as_u64(),
                Some(0),
                "the main window answered junk"
            );
            assert_eq!(
                text_of(&client, "lesson-step").await.ok(),
                main_before,
                "the junk moved the main window's lesson"
            );
            assert_alive(&client, "main window after the junk").await?;
            client.switch_to_window(notes).await?;
            let s = seen(&client).await?;
            assert_clean(&s, "notes window after the junk");
            let after = notes_state(client.clone()).await?;
            eprintln!("notes window after the junk: {after}");
            assert_eq!(after[0], before[0], "the junk moved the notes window");
            assert_eq!(after[1], before[1], "the junk changed the notes window's language");
            client.close_window().await?;
            client.switch_to_window(main).await?;
            Ok(())
        })
        .await;
    });
}

/// 10 000 messages on the speaker-notes channel do not block the main window: no task
/// there runs longer than [`FLOOD_TASK_BOUND_MS`], and the page still answers.
#[test]
fn a_flood_on_the_speaker_notes_channel_does_not_block_the_page() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            open_page(&client, &page).await?;
            // A speaker-notes window hears every answer of the main window.
            let main = client.window().await?;
            let notes = client.new_window(false).await?.handle;
            client.switch_to_window(notes.clone()).await?;
            install_watch(&client).await?;
            client.goto(&format!("{page}?notes")).await?;
            client
                .wait()
                .at_most(Duration::from_secs(30))
                .for_element(Locator::Css(&css("speaker-notes")))
                .await?;
            client.switch_to_window(main.clone()).await?;
            tokio::time::sleep(Duration::from_millis(1000)).await;
            for (kind, message) in [("hello", json!("hello")), ("junk", json!("99 uz <b>x</b>"))] {
                // Posted in slices of 500 per task, so that the test's own tasks stay short.
                let posted = client
                    .execute_async(
                        "const [name, message, total, done] = arguments;
                         const ch = new BroadcastChannel(name);
                         let replies = 0;
                         ch.onmessage = () => { replies += 1; };
                         window.__floodReplies = () => replies;
                         window.__floodChannel = ch;
                         window.__gaps.max = 0;
                         let sent = 0, longest = 0;
                         const slice = () => {
                           const t0 = performance.now();
                           for (let i = 0; i < 500 && sent < total; i++, sent++) ch.postMessage(message);
                           longest = Math.max(longest, performance.now() - t0);
                           if (sent < total) setTimeout(slice, 0); else done(longest);
                         };
                         slice();",
                        vec![CHANNEL.into(), message, FLOOD.into()],
                    )
                    .await?;
                let posting = posted.as_f64().unwrap_or(-1.0);
                // Let the page work through the messages, asking it something meanwhile.
                let start = Instant::now();
                let mut worst_answer = Duration::ZERO;
                while start.elapsed() < Duration::from_secs(4) {
                    let asked = Instant::now();
                    client.execute("return 1", vec![]).await?;
                    worst_answer = worst_answer.max(asked.elapsed());
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                let s = seen(&client).await?;
                let replies = client
                    .execute("return window.__floodReplies()", vec![])
                    .await?;
                eprintln!(
                    "flood of {FLOOD} {kind:?}: longest task {:.0} ms (the test's own posting slices: {posting:.0} ms), \
                     longest unanswered script {} ms, {} replies",
                    s.gap,
                    worst_answer.as_millis(),
                    replies
                );
                assert_clean(&s, &format!("flood of {kind}"));
                assert!(
                    s.gap < FLOOD_TASK_BOUND_MS,
                    "a flood of {FLOOD} {kind:?} blocked the main window for {:.0} ms",
                    s.gap
                );
                assert!(
                    worst_answer < Duration::from_millis(FLOOD_TASK_BOUND_MS as u64 + 500),
                    "a script waited {worst_answer:?} during the flood"
                );
                assert_alive(&client, &format!("flood of {kind}")).await?;
            }
            // The notes window came through too: it answers, and shows a step.
            client.switch_to_window(notes).await?;
            let asked = Instant::now();
            let s = seen(&client).await?;
            let answer = asked.elapsed();
            assert_clean(&s, "notes window after the floods");
            let step = client
                .execute(
                    "const s = document.querySelector('[data-testid=notes-step]'); return s ? s.getAttribute('data-step') : null;",
                    vec![],
                )
                .await?;
            eprintln!(
                "notes window after the floods: answered in {} ms, on step {step}",
                answer.as_millis()
            );
            assert!(
                answer < REPLAY_BOUND,
                "the notes window took {answer:?} to answer after the floods"
            );
            client.close_window().await?;
            client.switch_to_window(main).await?;
            Ok(())
        })
        .await;
    });
}

/// What the page exports from a run whose texts are payloads carries them only as data:
/// the sequence diagram (shown and downloaded), the trace, the scenario, the Rust test
/// and the lesson progress.
#[test]
fn exports_of_a_hostile_run_carry_the_payloads_only_as_data() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            let texts: Vec<String> = payloads()
                .into_iter()
                .filter(|(_, p)| p.len() < 1000)
                .map(|(_, p)| p)
                .collect();
            let payload = texts.join(" | ");
            // A run with rows in its sequence diagram: steps, a kill, more steps.
            let mut sim = lesson_sim();
            sim.ticks(25);
            sim.act(Action::Kill {
                process: "api".into(),
            })
            .map_err(|e| format!("kill the api: {e}"))?;
            sim.ticks(25);
            let mut run = sim.to_run();
            run.scenario.name = payload.clone();
            run.scenario.summary = payload.clone();
            // A fresh profile: the link is the first thing this session opens.
            open_page(&client, &url_of(&page, &run)).await?;
            let s = seen(&client).await?;
            assert_clean(&s, "hostile run");
            // Opened: checked below, where the exports give its texts back.
            let refused = s.notice.clone();

            // The sequence diagram as shown (covered by `seen`) and as downloaded.
            let (mime, svg) = export_of(&client, "sequence-export").await?;
            assert!(
                mime.starts_with("image/svg+xml"),
                "sequence diagram served as {mime}"
            );
            let bad = client
                .execute(SVG_CHECK_JS, vec![svg.clone().into()])
                .await?;
            assert_eq!(bad, json!([]), "the sequence diagram's SVG: {bad}");
            eprintln!("sequence diagram: {} bytes of SVG, clean", svg.len());

            let (mime, text) = export_of(&client, "export-scenario").await?;
            let scenario = check_json_export("scenario", &mime, &text)?;
            // The texts come back as data (the page may tidy control characters, not this).
            let carries = |v: &Value| {
                let t = v.as_str().unwrap_or_default();
                t.contains("<script>window.__pwned=1</script>")
                    && t.contains(r#"<img src=x onerror="window.__pwned=1">"#)
            };
            assert!(
                carries(&scenario["name"]),
                "the hostile run did not open (notice: {:?})",
                refused.as_deref().map(|n| short(n, 200))
            );
            assert!(
                carries(&scenario["summary"]),
                "the scenario export lost the summary"
            );
            eprintln!(
                "scenario: {} bytes, the payload only as string data",
                text.len()
            );

            let (mime, text) = export_of(&client, "export-trace").await?;
            let trace = check_json_export("trace", &mime, &text)?;
            assert!(
                carries(&trace["scenario"]["name"]),
                "the trace export lost the name"
            );
            eprintln!(
                "trace: {} bytes, the payload only as string data",
                text.len()
            );

            let (mime, text) = export_of(&client, "export-test").await?;
            check_rust_export("Rust test", &mime, &text)?;
            assert!(
                text.contains("__pwned"),
                "the Rust test does not carry the run's texts: the check above proved nothing"
            );
            eprintln!(
                "Rust test: {} bytes, one #[test], the payload only in literals and comments",
                text.len()
            );

            // The lesson progress export (its texts come from saved state).
            if client
                .find_all(Locator::Css(&css("progress-export")))
                .await?
                .is_empty()
            {
                eprintln!("no progress export on this page state: skipped");
            } else {
                let (mime, text) = export_of(&client, "progress-export").await?;
                check_json_export("progress", &mime, &text)?;
                eprintln!("progress: {} bytes, clean", text.len());
            }
            assert_clean(&seen(&client).await?, "after the exports");
            Ok(())
        })
        .await;
    });
}
