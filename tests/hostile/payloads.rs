//! Payloads and crafted runs.

use outbox_model::lesson::STEPS;
use outbox_playground::run::link;
use outbox_playground::run::sim::{Input, Run, Sim};
use serde_json::Value;

/// `<img src=x onerror=…>` over and over, exactly 100 000 characters.
pub fn long_payload() -> String {
    let unit = r#"<img src=x onerror="window.__pwned=1">"#;
    let mut s = unit.repeat(100_000 / unit.len() + 1);
    s.truncate(100_000);
    s
}

/// Every payload of the issue, with a label for messages.
pub fn payloads() -> Vec<(&'static str, String)> {
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
pub fn lesson_sim() -> Sim {
    Sim::new(outbox_model::lesson::scenario(STEPS[0].goal))
}

pub fn url_of(page: &str, run: &Run) -> String {
    format!("{page}#{}", link::fragment(run))
}

pub fn url_of_json(page: &str, json: &Value) -> String {
    format!(
        "{page}#{}{}",
        link::PREFIX,
        link::base64url_encode(json.to_string().as_bytes())
    )
}

/// A short run of the lesson's first scenario, its name and summary set to `name` and
/// `summary`.
pub fn named_run(name: &str, summary: &str) -> Run {
    let mut sim = lesson_sim();
    sim.ticks(5);
    let mut run = sim.to_run();
    run.scenario.name = name.to_string();
    run.scenario.summary = summary.to_string();
    run
}

/// The issue's panic link: the default lesson run, idle ticks far past its end.
pub fn panic_runs() -> Vec<(&'static str, Run)> {
    let mut run = lesson_sim().to_run();
    run.inputs = vec![Input::Ticks(8000)];
    let mut zero = run.clone();
    zero.scenario.max_ticks = 0;
    vec![
        ("8000 idle ticks", run),
        ("8000 idle ticks, max_ticks 0", zero),
    ]
}
