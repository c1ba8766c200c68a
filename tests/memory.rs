//! What a reset leaves behind, in headless Chromium under the page's counting allocator
//! (`cargo test --target wasm32-unknown-unknown -p outbox-playground --test memory`).
//!
//! Why: the page bench's soak (#17) saw the wasm's held bytes grow ~16 KB per reset and
//! play of a 200 000-task world (9.8 % over 90 s, limit 10 %), while the model alone
//! holds a constant amount run after run (native: 22.5 MB peak, 867 KB after each
//! reset). Resetting each part of the pipeline found it: a process card drew its step
//! list anew on every move (+6.9 KB per reset), and the cards were drawn anew on every
//! reset (+10 KB); both are memos now. Every part below must hold, after many resets,
//! what it held after the first few.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use outbox_model::preset;
use outbox_playground::browser::peak_bytes::{live_bytes, Counting};
use outbox_playground::ctl::Ctl;
use outbox_playground::i18n::{provide_i18n, Lang};
use outbox_playground::run::sim::Sim;
use outbox_playground::stage::counters::CountersPanel;
use outbox_playground::stage::pipeline::business_effects::BusinessEffects;
use outbox_playground::stage::pipeline::db_tables::DbTables;
use outbox_playground::stage::pipeline::process_card::ProcessCard;
use outbox_playground::stage::pipeline::queue_view::QueueView;
use outbox_playground::stage::pipeline::Pipeline;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

wasm_bindgen_test_configure!(run_in_browser);

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Resets before the first measurement (caches, arenas and pools reach their size).
const WARM_RESETS: usize = 20;
/// Resets between the two measurements.
const RESETS: usize = 200;
/// Bytes per reset allowed: slack for a slot map or a Vec that doubles once more
/// (12.8 KB over 200 resets); the leaks found were 6 900 and 10 000.
const SLACK_BYTES: usize = 64;

async fn settle() {
    TimeoutFuture::new(0).await;
}

/// Runs the world a little and resets it, `n` times; returns the bytes held after.
async fn reset_times(ctl: Ctl, n: usize) -> usize {
    for _ in 0..n {
        ctl.run_ticks(200);
        ctl.changed(true);
        settle().await;
        ctl.reset();
        settle().await;
    }
    live_bytes()
}

/// Mounts `f` under a controller of the canon outbox run, resets it many times, and
/// returns the bytes held per reset after the warm-up.
async fn held_per_reset<V: IntoView + 'static>(what: &str, f: fn() -> V) -> usize {
    let doc = document();
    let host: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&host).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let sim = Sim::new(preset("canon-outbox").unwrap());
    let handle = leptos::mount::mount_to(host.clone(), move || {
        provide_i18n(Lang::Uz);
        let ctl = Ctl::new(sim);
        provide_context(ctl);
        tx.send(ctl).unwrap();
        f()
    });
    let ctl = rx.recv().unwrap();
    // Full speed, as the soak plays: no tokens on the arrows (each lives for its
    // animation's time, which would count as held here).
    ctl.speed.set(7);
    let before = reset_times(ctl, WARM_RESETS).await;
    let after = reset_times(ctl, RESETS).await;
    let per_reset = after.saturating_sub(before) / RESETS;
    web_sys::console::log_1(
        &format!("memory: {what}: {before} B, then {after} B after {RESETS} resets ({per_reset} B per reset)")
            .into(),
    );
    drop(handle);
    host.remove();
    per_reset
}

#[wasm_bindgen_test]
async fn resets_leave_nothing_behind() {
    let mut held = vec![
        (
            "counters",
            held_per_reset("counters", || view! { <CountersPanel/> }).await,
        ),
        (
            "tables",
            held_per_reset("tables", || view! { <DbTables/> }).await,
        ),
        (
            "queue",
            held_per_reset("queue", || view! { <QueueView/> }).await,
        ),
        (
            "effects",
            held_per_reset("effects", || view! { <BusinessEffects/> }).await,
        ),
    ];
    let card = || view! { <ProcessCard name="api".to_string()/> };
    held.push(("api card", held_per_reset("api card", card).await));
    held.push((
        "pipeline",
        held_per_reset("pipeline", || view! { <Pipeline/> }).await,
    ));
    let leaks: Vec<_> = held.iter().filter(|(_, b)| *b >= SLACK_BYTES).collect();
    assert!(leaks.is_empty(), "bytes held per reset: {leaks:?}");
}
