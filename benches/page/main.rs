//! The page benchmark (run by `cargo xtask test` after the end-to-end tests, against the
//! same release build, server and chromedriver). It measures what issue #6 budgets:
//! - first contentful paint of a cold load on localhost (≤ 500 ms);
//! - frame time while the model runs 100 000 tasks at full speed (p95 ≤ 16 ms): the
//!   intervals between requestAnimationFrame timestamps, recorded only while the model
//!   runs, with Chromium's frame-rate limit off (`--disable-frame-rate-limit`), so an
//!   interval is how long the frame really took. A frame that changes nothing on screen
//!   is not drawn and waits for the display's 16.7 ms tick, so the page makes every frame
//!   move. The idle frames before WebDriver's click reaches the page are left out. A
//!   histogram of the intervals is printed with the percentiles;
//! - the DOM's node count, sampled every 10 frames through the run (< 3 000);
//! - and for issue #22, "Prove it" in Web Workers: both claims from the click to their
//!   verdicts (≤ 500 ms) with the frame time meanwhile (p95 ≤ 10 ms), the worker's wasm
//!   (under Node, benches/prove_node.mjs; the page's worker figure is printed beside it)
//!   against the same search natively (examples/explore, ≤ 1.5×), the whole crash-point
//!   matrix (≤ 1 s);
//! - and for issue #17, a soak: the largest world the page takes (200 000 tasks; the
//!   issue asked for 1 000 000, over the page's limit) played at full speed, again and
//!   again, for two minutes, the JS heap (after a forced GC) and the wasm memory sampled every 10 s;
//!   from the 30 s sample on neither may grow by 10 % or more (the wasm memory as the peak
//!   of the bytes the page's allocator held in each 10 s window; the memory's own size, a
//!   high-water mark, is printed beside it), and the frame time's p95
//!   over the last 10 s must be within the budget as over the first 10 s.
//!
//! The 100 000-task run is measured three times, each in a fresh browser, and the
//! frame-time budget holds the median run's p95: on these 2-core machines with software
//! rendering one run's p95 moves by a few ms with the machine's load.
//! It prints every figure, and fails when any budget is broken.

#[path = "../../tests/common/mod.rs"]
mod common;
mod frames;
mod proof;
mod soak;

use std::time::Duration;

use common::*;
use fantoccini::Client;
use frames::*;
use outbox_playground::run::link;
use outbox_playground::run::sim::Sim;
use proof::*;
use soak::*;

const FCP_BUDGET_MS: f64 = 500.0;
const P95_BUDGET_MS: f64 = 16.0;
const DOM_BUDGET: u64 = 3000;
const TASKS: u32 = 100_000;
const WINDOW: Duration = Duration::from_secs(12);
/// Measured runs of the 100 000 tasks; the frame-time budget holds the median one.
const RUNS: usize = 3;

/// Chromium without its frame-rate limit: a frame interval is how long the frame took.
const UNLIMITED_FRAMES: [&str; 2] = ["--disable-gpu-vsync", "--disable-frame-rate-limit"];

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn first_contentful_paint(page: &str, webdriver: &str) -> f64 {
    let client = connect(webdriver, 1920, 1080, &[]).await;
    let fcp = std::sync::Arc::new(std::sync::Mutex::new(0.0));
    let out = fcp.clone();
    let page = page.to_string();
    with_session(client, move |client| async move {
        open(&client, &page).await?;
        for _ in 0..50 {
            let v = client
                .execute(
                    "const e = performance.getEntriesByName('first-contentful-paint')[0];
                     return e ? e.startTime : null;",
                    vec![],
                )
                .await?;
            if let Some(ms) = v.as_f64() {
                *out.lock().unwrap() = ms;
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Err("no first-contentful-paint entry".into())
    })
    .await;
    let v = *fcp.lock().unwrap();
    v
}

#[tokio::main]
async fn main() {
    let page = env_url("OUTBOX_E2E_URL");
    let webdriver = env_url("OUTBOX_WEBDRIVER_URL");

    // `OUTBOX_BENCH_SOAK_ONLY=1`: only the soak (two minutes), while working on it.
    if std::env::var_os("OUTBOX_BENCH_SOAK_ONLY").is_some() {
        let broken = soak_report(&soak(&page, &webdriver).await);
        if !broken.is_empty() {
            eprintln!("page bench: budget broken: {}", broken.join("; "));
            std::process::exit(1);
        }
        return;
    }
    let fcp = first_contentful_paint(&page, &webdriver).await;
    let proved = proof_in_the_page(&page, &webdriver).await;
    // Three runs, each in a fresh browser: the budget is held by the median run's p95, so
    // one run disturbed by the machine (2 cores, software rendering) neither fails nor
    // passes the page on its own.
    let mut runs = Vec::new();
    for run in 1..=RUNS {
        let f = frames_at_full_speed(&page, &webdriver).await;
        let (p50, p95, max) = stats(&f.intervals);
        let dropped = f.intervals.iter().filter(|&&d| d > 20.0).count();
        println!(
            "page bench: run {run}/{RUNS}: {TASKS} tasks at full speed, {} frames while the model ran: frame time p50 {p50:.1} ms, p95 {p95:.1} ms, max {max:.1} ms; {dropped} frames over 20 ms",
            f.intervals.len()
        );
        println!(
            "page bench: run {run}/{RUNS}: frame intervals: {}",
            histogram(&f.intervals)
        );
        println!(
            "page bench: run {run}/{RUNS}: DOM at most {} nodes (budget < {DOM_BUDGET}); the model reached tick {} in {:.1} s of frames",
            f.dom_max,
            f.ticks,
            f.intervals.iter().sum::<f64>() / 1000.0
        );
        runs.push((p95, f.dom_max));
    }
    let mut p95s: Vec<f64> = runs.iter().map(|r| r.0).collect();
    p95s.sort_by(|a, b| a.total_cmp(b));
    let p95 = p95s[p95s.len() / 2];
    let dom_max = runs.iter().map(|r| r.1).max().unwrap_or(0);
    println!("page bench: first contentful paint {fcp:.0} ms (budget {FCP_BUDGET_MS:.0})");
    println!(
        "page bench: frame time p95, median of {RUNS} runs: {p95:.1} ms (budget {P95_BUDGET_MS:.0}; runs {})",
        runs.iter().map(|r| format!("{:.1}", r.0)).collect::<Vec<_>>().join(", ")
    );
    let soaked = soak(&page, &webdriver).await;
    let mut broken = soak_report(&soaked);
    if fcp > FCP_BUDGET_MS {
        broken.push(format!(
            "first contentful paint {fcp:.0} ms > {FCP_BUDGET_MS:.0} ms"
        ));
    }
    if p95 > P95_BUDGET_MS {
        broken.push(format!(
            "p95 frame time {p95:.1} ms (median of {RUNS} runs) > {P95_BUDGET_MS:.0} ms"
        ));
    }
    broken.extend(proof_report(&proved));
    if dom_max >= DOM_BUDGET {
        broken.push(format!("{dom_max} DOM nodes >= {DOM_BUDGET}"));
    }
    if !broken.is_empty() {
        eprintln!("page bench: budget broken: {}", broken.join("; "));
        std::process::exit(1);
    }
    println!("page bench: first paint, frame time, DOM and prove-it budgets met");
}
