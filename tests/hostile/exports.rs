//! Exports: what the page exports from a hostile run carries the payloads only as data.

use fantoccini::{Client, Locator};
use outbox_model::lesson::{BLANKS, STEPS};
use outbox_model::Action;
use outbox_playground::lesson::ctl::PROGRESS_KEY;
use outbox_playground::run::sim::Run;
use serde_json::{json, Value};

use crate::common::*;
use crate::harness::*;
use crate::payloads::*;

/// The text of a `data:` URL, and its media type.
pub fn data_url_text(url: &str) -> Result<(String, String), BoxError> {
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
pub fn json_outside_strings(text: &str) -> String {
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
pub fn check_json_export(what: &str, mime: &str, text: &str) -> Result<Value, BoxError> {
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
pub fn check_rust_export(what: &str, mime: &str, text: &str) -> TestResult {
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

pub fn collect_idents(tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
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
pub const SVG_CHECK_JS: &str = r#"
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
pub async fn export_of(client: &Client, testid: &str) -> Result<(String, String), BoxError> {
    reveal(client, testid).await?;
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

/// A run with rows in its sequence diagram (steps, a kill, more steps) whose name and
/// summary are the payloads (all but the longest), joined.
fn hostile_export_run() -> Result<Run, BoxError> {
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
    Ok(run)
}

/// The sequence diagram as shown (covered by `seen`) and as downloaded.
async fn check_sequence_export(client: &Client) -> TestResult {
    let (mime, svg) = export_of(client, "sequence-export").await?;
    assert!(
        mime.starts_with("image/svg+xml"),
        "sequence diagram served as {mime}"
    );
    let bad = client
        .execute(SVG_CHECK_JS, vec![svg.clone().into()])
        .await?;
    assert_eq!(bad, json!([]), "the sequence diagram's SVG: {bad}");
    eprintln!("sequence diagram: {} bytes of SVG, clean", svg.len());
    Ok(())
}

/// The texts come back as data (the page may tidy control characters, not this).
fn carries(v: &Value) -> bool {
    let t = v.as_str().unwrap_or_default();
    t.contains("<script>window.__pwned=1</script>")
        && t.contains(r#"<img src=x onerror="window.__pwned=1">"#)
}

/// The scenario and the trace exports: JSON that gives the run's texts back as data.
/// `refused` is the notice the run was opened with, if any.
async fn check_scenario_and_trace(client: &Client, refused: Option<String>) -> TestResult {
    let (mime, text) = export_of(client, "export-scenario").await?;
    let scenario = check_json_export("scenario", &mime, &text)?;
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

    let (mime, text) = export_of(client, "export-trace").await?;
    let trace = check_json_export("trace", &mime, &text)?;
    assert!(
        carries(&trace["scenario"]["name"]),
        "the trace export lost the name"
    );
    eprintln!(
        "trace: {} bytes, the payload only as string data",
        text.len()
    );
    Ok(())
}

/// The Rust test export: one `#[test]`, the run's texts only in literals and comments.
async fn check_rust_test_export(client: &Client) -> TestResult {
    let (mime, text) = export_of(client, "export-test").await?;
    check_rust_export("Rust test", &mime, &text)?;
    assert!(
        text.contains("__pwned"),
        "the Rust test does not carry the run's texts: the check above proved nothing"
    );
    eprintln!(
        "Rust test: {} bytes, one #[test], the payload only in literals and comments",
        text.len()
    );
    Ok(())
}

/// A saved lesson progress whose typed texts (exercise 1's blanks, the guesses) are the
/// payloads, at the sizes `Progress::check` accepts: the progress export's texts.
fn hostile_progress() -> Value {
    let texts: Vec<String> = payloads()
        .into_iter()
        .filter(|(_, p)| p.len() <= 1000)
        .map(|(_, p)| p)
        .collect();
    let predictions: Vec<Value> = texts
        .iter()
        .take(STEPS.len())
        .map(|t| json!({ "step": t, "guess": t, "actual": t }))
        .collect();
    let blanks: Vec<&String> = texts.iter().take(BLANKS.len()).collect();
    json!({ "step": 0, "blanks": blanks, "predictions": predictions })
}

/// The lesson progress export, its texts from saved state: the hostile progress is saved,
/// the page reloaded, and the export must carry the payloads only as JSON strings.
async fn check_progress_export(client: &Client, page: &str) -> TestResult {
    client
        .execute(
            "localStorage.setItem(arguments[0], arguments[1]);",
            vec![PROGRESS_KEY.into(), hostile_progress().to_string().into()],
        )
        .await?;
    open_page(client, page).await?;
    assert_clean(&seen(client).await?, "hostile progress");
    let (mime, text) = export_of(client, "progress-export").await?;
    check_json_export("progress", &mime, &text)?;
    assert!(
        text.contains("__pwned"),
        "the progress export does not carry the saved texts: the check above proved nothing"
    );
    eprintln!(
        "progress: {} bytes, the payload only as string data",
        text.len()
    );
    Ok(())
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
            let run = hostile_export_run()?;
            // A fresh profile: the link is the first thing this session opens.
            open_page(&client, &url_of(&page, &run)).await?;
            let s = seen(&client).await?;
            assert_clean(&s, "hostile run");
            // Opened: checked below, where the exports give its texts back.
            let refused = s.notice.clone();

            check_sequence_export(&client).await?;
            check_scenario_and_trace(&client, refused).await?;
            check_rust_test_export(&client).await?;
            // The lesson progress export (its texts come from saved state).
            check_progress_export(&client, &page).await?;
            assert_clean(&seen(&client).await?, "after the exports");
            Ok(())
        })
        .await;
    });
}
