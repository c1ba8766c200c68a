//! Component tests in headless Chromium: `cargo test --target wasm32-unknown-unknown -p outbox-playground`
//! (run by `cargo xtask test`). Every test in this binary shares one page, so each mounts
//! into its own host element and looks only inside it.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use outbox_model::{preset, Action, Step};
use outbox_playground::browser::storage;
use outbox_playground::ctl::Ctl;
use outbox_playground::i18n::{provide_i18n, t, Key, Lang};
use outbox_playground::lesson::schema_panel::SchemaPanel;
use outbox_playground::run::sim::{Input, Sim};
use outbox_playground::stage::counters::CountersPanel;
use outbox_playground::stage::pipeline::process_card::ProcessCard;
use outbox_playground::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

wasm_bindgen_test_configure!(run_in_browser);

fn new_host() -> HtmlElement {
    let doc = document();
    let host: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&host).unwrap();
    host
}

/// A fresh element appended to `<body>`, with `App` mounted into it (from a clean
/// localStorage, so it opens the default scenario), once the page has built its parts:
/// it builds one per frame after the mount (src/browser/build_in_turns.rs), the details last.
async fn mount_app() -> HtmlElement {
    storage::clear();
    storage::clear_settings();
    let host = new_host();
    leptos::mount::mount_to(host.clone(), App).forget();
    let built = || {
        host.query_selector("[data-testid=\"details\"]")
            .ok()
            .flatten()
            .is_some()
    };
    // 5 s: a part per frame is well under a second even on a busy host.
    for _ in 0..500 {
        if built() {
            break;
        }
        TimeoutFuture::new(10).await;
    }
    assert!(built(), "the page did not build its details in 5 s");
    host
}

/// One component under a controller holding `sim`; returns the host and the controller.
fn mount_with<V: IntoView + 'static>(sim: Sim, f: fn() -> V) -> (HtmlElement, Ctl) {
    let host = new_host();
    let (tx, rx) = std::sync::mpsc::channel();
    leptos::mount::mount_to(host.clone(), move || {
        provide_i18n(Lang::Uz);
        let ctl = Ctl::new(sim);
        provide_context(ctl);
        tx.send(ctl).unwrap();
        f()
    })
    .forget();
    (host, rx.recv().unwrap())
}

fn by_testid(host: &HtmlElement, testid: &str) -> HtmlElement {
    host.query_selector(&format!("[data-testid=\"{testid}\"]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no element with data-testid=\"{testid}\""))
        .unchecked_into()
}

fn text(host: &HtmlElement, testid: &str) -> String {
    by_testid(host, testid).text_content().unwrap_or_default()
}

/// Leptos 0.8 applies DOM updates asynchronously: let them land before reading.
async fn settle() {
    TimeoutFuture::new(0).await;
}

#[wasm_bindgen_test]
async fn app_renders_title_and_uzbek_tagline() {
    let host = mount_app().await;
    settle().await;
    assert_eq!(text(&host, "title"), t(Lang::Uz, Key::Title));
    assert_eq!(text(&host, "tagline"), t(Lang::Uz, Key::Tagline));
    assert_eq!(
        by_testid(&host, "lang-uz")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    assert_eq!(by_testid(&host, "lang-en").tag_name(), "BUTTON");
}

#[wasm_bindgen_test]
async fn language_switch_changes_the_text() {
    let host = mount_app().await;
    settle().await;
    let before = text(&host, "tagline");
    assert_eq!(before, t(Lang::Uz, Key::Tagline));

    by_testid(&host, "lang-en").click();
    settle().await;
    let after = text(&host, "tagline");
    assert_ne!(
        after, before,
        "the tagline did not change after clicking EN"
    );
    assert_eq!(after, t(Lang::En, Key::Tagline));
    assert_eq!(
        by_testid(&host, "lang-en")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    assert_eq!(
        by_testid(&host, "lang-switch")
            .get_attribute("aria-label")
            .as_deref(),
        Some(t(Lang::En, Key::LangSwitchLabel))
    );

    by_testid(&host, "lang-uz").click();
    settle().await;
    assert_eq!(text(&host, "tagline"), t(Lang::Uz, Key::Tagline));
}

#[wasm_bindgen_test]
async fn counters_render_the_models_snapshot() {
    let mut sim = Sim::new(preset("canon-dual-write").unwrap());
    while sim.tick() {}
    let want = sim.world().counters();
    let (host, _) = mount_with(sim, || view! { <CountersPanel/> });
    settle().await;
    // Every counter the panel shows is the model's number, under the model's JSON name.
    let json = serde_json::to_value(&want).unwrap();
    let tiles = host
        .query_selector_all("[data-testid^=\"count-\"]")
        .unwrap();
    assert!(
        tiles.length() >= 12,
        "only {} counters rendered",
        tiles.length()
    );
    for i in 0..tiles.length() {
        let el: HtmlElement = tiles.get(i).unwrap().unchecked_into();
        let id = el.get_attribute("data-testid").unwrap();
        let name = id.trim_start_matches("count-");
        let model = json[name]
            .as_u64()
            .unwrap_or_else(|| panic!("{name} is not a model counter"));
        assert_eq!(el.text_content().unwrap(), model.to_string(), "{name}");
    }
    // The lesson's canon: 100 tasks in the database, 90 in the queue, 10 lost.
    assert_eq!(text(&host, "count-tasks_in_db"), "100");
    assert_eq!(text(&host, "count-queue_jobs"), "90");
    assert_eq!(text(&host, "count-lost"), "10");
    assert_eq!(text(&host, "canon-line"), "bazada 100, navbatda 90");
}

#[wasm_bindgen_test]
async fn a_kill_control_dispatches_the_right_action() {
    // The default scenario (outbox API) has no standing kill rules.
    let sim = Sim::new(outbox_model::Scenario::default());
    let (host, ctl) = mount_with(sim, || view! { <ProcessCard name="api".to_string()/> });
    settle().await;

    // Arm: "die when you next reach COMMIT".
    let arm = by_testid(&host, "arm-api-commit");
    assert_eq!(arm.get_attribute("aria-pressed").as_deref(), Some("false"));
    arm.click();
    settle().await;
    let last = ctl.with_inputs(|i| i.last().cloned());
    assert_eq!(
        last,
        Some(Input::Act(Action::ArmKill {
            process: "api".into(),
            step: Step::Commit,
            when: outbox_model::scenario::When::Nth { n: 1 },
            times: Some(1),
        }))
    );
    let armed = ctl.with_world(|w| {
        w.armed()
            .iter()
            .map(|k| (k.proc.0, k.step))
            .collect::<Vec<_>>()
    });
    assert_eq!(armed, vec![(1, Step::Commit)], "the api is process 1");
    assert_eq!(
        by_testid(&host, "arm-api-commit")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );

    // Pressing it again disarms.
    by_testid(&host, "arm-api-commit").click();
    settle().await;
    assert!(ctl.with_world(|w| w.armed().is_empty()));

    // Kill now: the process is dead and the card offers a restart instead.
    by_testid(&host, "kill-api").click();
    settle().await;
    assert_eq!(
        ctl.with_inputs(|i| i.last().cloned()),
        Some(Input::Act(Action::Kill {
            process: "api".into()
        }))
    );
    assert!(!ctl.with_world(|w| w.procs()[1].alive));
    assert_eq!(text(&host, "status-api"), t(Lang::Uz, Key::ProcDead));
    by_testid(&host, "restart-api").click();
    settle().await;
    assert!(ctl.with_world(|w| w.procs()[1].alive));
}

/// The Uzbek labels on the page that cannot be part of an English or Russian text: each
/// must be gone after a switch to English or Russian (the presets' titles are keys too).
fn distinct_uzbek_labels() -> Vec<&'static str> {
    let others: Vec<&str> = Key::ALL
        .iter()
        .flat_map(|k| [t(Lang::En, *k), t(Lang::Ru, *k)])
        .collect();
    Key::ALL
        .iter()
        .map(|k| t(Lang::Uz, *k))
        .filter(|uz| uz.chars().count() >= 4 && !uz.contains('{'))
        .filter(|uz| !others.iter().any(|o| o.contains(uz)))
        .collect()
}

#[wasm_bindgen_test]
async fn the_language_switch_changes_every_label() {
    let host = mount_app().await;
    settle().await;
    let uz_text = host.text_content().unwrap();
    let shown: Vec<&str> = distinct_uzbek_labels()
        .into_iter()
        .filter(|l| uz_text.contains(l))
        .collect();
    assert!(
        shown.len() >= 40,
        "only {} Uzbek labels on the page",
        shown.len()
    );
    // The `embed-langs` feature compiles English and Russian in, so a switch is at once.
    for lang in [Lang::En, Lang::Ru] {
        by_testid(&host, &format!("lang-{}", lang.code())).click();
        settle().await;
        let text = host.text_content().unwrap();
        let left: Vec<&str> = shown.iter().copied().filter(|l| text.contains(l)).collect();
        assert!(
            left.is_empty(),
            "still in Uzbek after switching to {}: {left:?}",
            lang.code()
        );
        assert!(
            text.contains(t(lang, Key::Tagline)),
            "{} tagline",
            lang.code()
        );
        assert_eq!(
            document()
                .document_element()
                .unwrap()
                .get_attribute("lang")
                .as_deref(),
            Some(lang.code())
        );
    }
    by_testid(&host, "lang-uz").click();
    settle().await;
}

/// The schema tab (§3.1): the lesson's tables and index, and the live row counts of the
/// outbox table beside its partial index, both read from the model.
#[wasm_bindgen_test]
async fn schema_panel_counts_the_table_and_its_partial_index() {
    let mut sim = Sim::new(preset("canon-outbox").unwrap());
    // Stop while some committed events still wait for the relay (they are in the index).
    while sim.world().db().unpublished_len() == 0 || sim.world().db().committed_events() < 20 {
        assert!(
            sim.tick(),
            "the run ended before events waited for the relay"
        );
    }
    let (table_rows, index_rows) = (
        sim.world().db().committed_events(),
        sim.world().db().unpublished_len(),
    );
    let (host, ctl) = mount_with(sim, || view! { <SchemaPanel/> });
    settle().await;
    let create = text(&host, "schema-create");
    assert!(
        create.contains("CREATE INDEX outbox_navbat_idx"),
        "{create}"
    );
    assert!(create.contains("CREATE TABLE inbox"), "{create}");
    assert!(
        !create.contains("amallar"),
        "only the lesson's tables: {create}"
    );
    let want = t(Lang::Uz, Key::SchemaIndexCount)
        .replace("{t}", &table_rows.to_string())
        .replace("{i}", &index_rows.to_string());
    assert_eq!(text(&host, "schema-index-count"), want);
    // Played to the end, every event is published: the index is empty, the table is not
    // (the lesson's canon: 100 tasks, relay publishes 100).
    while ctl.run_ticks(10_000) {}
    ctl.changed(true);
    settle().await;
    let done = t(Lang::Uz, Key::SchemaIndexCount)
        .replace("{t}", "100")
        .replace("{i}", "0");
    assert_eq!(text(&host, "schema-index-count"), done);
    let rights = by_testid(&host, "schema-privileges");
    assert_eq!(rights.query_selector_all("tr").unwrap().length(), 8);
}

/// Outbox + inbox, one task, the worker killed twice at COMMIT (BullMQ's default
/// `maxStalledCount` 1): the job ends in the failed set, or with `removeOnFail` deleted.
fn failed_job_sim(remove_on_fail: bool) -> Sim {
    use outbox_model::scenario::{ApiMode, Timed, When, WorkerMode};
    let mut s = outbox_model::Scenario::default();
    s.workload.tasks = 1;
    s.config.api = ApiMode::Outbox;
    s.config.worker = WorkerMode::InboxSameTx;
    s.config.relays = 1;
    s.config.workers = 1;
    s.config.queue.remove_on_fail = remove_on_fail;
    s.schedule.push(Timed {
        at_tick: 0,
        action: Action::ArmKill {
            process: "worker-1".into(),
            step: Step::Commit,
            when: When::Always,
            times: Some(2),
        },
    });
    let mut sim = Sim::new(s);
    sim.ticks(5_000);
    sim
}

/// #41: a failed job is not lost. The counters show it beside LOST, the queue card's
/// failed job has BullMQ's `job.retry()`, and the retry acts on it once.
#[wasm_bindgen_test]
async fn a_failed_job_is_counted_apart_from_lost_and_retried_from_the_queue_card() {
    use outbox_playground::stage::pipeline::queue_view::QueueView;
    let (host, ctl) = mount_with(failed_job_sim(false), || {
        view! { <CountersPanel/><QueueView/> }
    });
    settle().await;
    assert_eq!(text(&host, "count-lost"), "0");
    assert_eq!(text(&host, "count-failed_needs_retry"), "1");
    let tile = by_testid(&host, "counter-failed_needs_retry");
    assert_eq!(
        tile.query_selector(".counter__label")
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap(),
        t(Lang::Uz, Key::CFailedRetry)
    );
    by_testid(&host, "retry-job-1").click();
    settle().await;
    let last = ctl.with_inputs(|i| i.last().cloned());
    assert_eq!(last, Some(Input::Act(Action::RetryJob { event: 1 })));
    ctl.with_world(|w| assert_eq!(w.counters().failed_needs_retry, 0));
    // Run on: the retried job is acted on once.
    ctl.run_ticks(5_000);
    ctl.with_world(|w| {
        let c = w.counters();
        assert_eq!(
            (c.lost, c.failed_needs_retry, c.effects),
            (0, 0, 1),
            "{c:?}"
        );
    });
}

/// With `removeOnFail` the failed job is gone: the event is lost, and the retry the
/// event's card offers is refused in the reader's language.
#[wasm_bindgen_test]
async fn a_retry_after_remove_on_fail_is_refused_in_the_readers_language() {
    use outbox_playground::stage::lifecycle::Lifecycle;
    let (host, ctl) = mount_with(failed_job_sim(true), || view! { <Lifecycle/> });
    ctl.selected_event.set(Some(1));
    settle().await;
    ctl.with_world(|w| assert_eq!(w.counters().lost, 1));
    by_testid(&host, "life-retry").click();
    settle().await;
    let notice = ctl.notice.get_untracked().expect("the refusal is shown");
    assert!(notice.error);
    let said = notice.why.text(Lang::Uz);
    assert_eq!(
        said,
        t(Lang::Uz, Key::ReasonNoJobToRetry).replace("{event}", "1")
    );
    assert!(said.contains("removeOnFail"), "{said}");
}
