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

// #41: answers count once. The why-question and every predict-then-reveal in the
// visit's order, the first answer scored and kept, the progress line.

/// The lesson's controller with the visit's seed `seed`, open on step `step`, and one of
/// its components under it (from a clean localStorage).
fn mount_lesson<V: IntoView + 'static>(
    seed: u64,
    step: &'static str,
    f: fn() -> V,
) -> (HtmlElement, outbox_playground::lesson::ctl::LessonCtl) {
    use outbox_playground::lesson::ctl::LessonCtl;
    // The lesson's progress too: another test's answers are saved under its key.
    storage::clear_all();
    let host = new_host();
    let (tx, rx) = std::sync::mpsc::channel();
    leptos::mount::mount_to(host.clone(), move || {
        provide_i18n(Lang::Uz);
        let ctl = Ctl::new(Sim::new(outbox_model::Scenario::default()));
        provide_context(ctl);
        let lesson = LessonCtl {
            seed,
            ..LessonCtl::new(ctl)
        };
        provide_context(lesson);
        let at = outbox_model::lesson::STEPS
            .iter()
            .position(|s| s.id == step)
            .expect("a lesson step");
        lesson.go(at);
        tx.send(lesson).unwrap();
        f()
    })
    .forget();
    (host, rx.recv().unwrap())
}

/// The `data-testid`s under `host` that start with `prefix`, in the page's order.
fn testids(host: &HtmlElement, prefix: &str) -> Vec<String> {
    let found = host
        .query_selector_all(&format!("[data-testid^=\"{prefix}\"]"))
        .unwrap();
    (0..found.length())
        .map(|i| {
            let el: HtmlElement = found.get(i).unwrap().unchecked_into();
            el.get_attribute("data-testid").unwrap()
        })
        .collect()
}

/// Clicks the option of `question` whose label says `label` (found by its words, not its
/// place) and returns its place.
fn pick_by_content(host: &HtmlElement, question: &str, label: &str) -> usize {
    let ids = testids(host, &format!("answer-{question}-"));
    let place = ids
        .iter()
        .position(|id| {
            let input = by_testid(host, id);
            let said = input.parent_element().unwrap().text_content().unwrap();
            said.trim() == label
        })
        .unwrap_or_else(|| panic!("no option says {label:?}"));
    by_testid(host, &ids[place]).click();
    place
}

/// Two seeds whose orders for question `n` put option `right` in different places.
fn seeds_apart(n: usize, right: usize) -> (u64, u64) {
    use outbox_playground::lesson::shuffle::option_order;
    let place = |seed| option_order(seed, n).iter().position(|i| *i == right);
    let b = (2..1_000)
        .find(|s| place(*s) != place(1))
        .expect("seeds vary the order");
    (1, b)
}

#[wasm_bindgen_test]
async fn the_why_question_is_shuffled_per_visit_and_its_first_answer_scores() {
    use outbox_playground::i18n::lesson_words::WHY_INSIDE;
    use outbox_playground::lesson::guided_step::why_question::WhyQuestion;
    use outbox_playground::lesson::shuffle::{option_order, WHY_ORDER};
    let right = t(Lang::Uz, WHY_INSIDE.options[WHY_INSIDE.right]);
    let wrong_n = (WHY_INSIDE.right + 1) % 3;
    let wrong = t(Lang::Uz, WHY_INSIDE.options[wrong_n]);
    let (a, b) = seeds_apart(WHY_ORDER, WHY_INSIDE.right);
    let mut places = Vec::new();
    for seed in [a, b] {
        let (host, lesson) = mount_lesson(seed, "why-inside", || view! { <WhyQuestion/> });
        settle().await;
        // The options come in the visit's order, each under its own number.
        let shown = testids(&host, "answer-why-");
        let want: Vec<String> = option_order(seed, WHY_ORDER)
            .iter()
            .map(|i| format!("answer-why-{i}"))
            .collect();
        assert_eq!(shown, want, "seed {seed}");
        // The first answer (wrong) is the one scored; the right one picked after it is
        // explained as right and shown, but does not change the score.
        pick_by_content(&host, "why", wrong);
        settle().await;
        assert_eq!(
            by_testid(&host, "why-why")
                .get_attribute("data-right")
                .as_deref(),
            Some("false")
        );
        places.push(pick_by_content(&host, "why", right));
        settle().await;
        assert_eq!(
            by_testid(&host, "why-why")
                .get_attribute("data-right")
                .as_deref(),
            Some("true")
        );
        let p = lesson.course.progress.get_untracked();
        assert_eq!(
            (p.why, p.why_first),
            (Some(WHY_INSIDE.right), Some(wrong_n))
        );
        assert_eq!(p.predicted_right(), (0, 1));
        assert!(text(&host, "why-first-counted").contains(t(Lang::Uz, Key::FirstAnswerCounted)));
        // Kept in the saved progress.
        let saved = storage::get(outbox_playground::lesson::ctl::PROGRESS_KEY).unwrap();
        assert!(saved.contains("\"why_first\""), "{saved}");
    }
    assert_ne!(places[0], places[1], "the right answer has no fixed place");
}

#[wasm_bindgen_test]
async fn a_guess_is_shuffled_per_visit_and_only_its_first_counts_in_the_progress_line() {
    use outbox_model::lesson::Outcome;
    use outbox_playground::lesson::ctl::Predict as State;
    use outbox_playground::lesson::panel::LessonPanel;
    use outbox_playground::lesson::shuffle::{option_order, PREDICT_ORDER};
    let step = outbox_model::lesson::STEPS
        .iter()
        .position(|s| s.id == "at-most-once")
        .unwrap();
    let n = PREDICT_ORDER + step;
    let (a, b) = (
        1,
        (2..1_000)
            .find(|s| option_order(*s, n) != option_order(1, n))
            .unwrap(),
    );
    let mut orders = Vec::new();
    for seed in [a, b] {
        let (host, lesson) = mount_lesson(seed, "at-most-once", || {
            view! { <LessonPanel workshop_open=Signal::derive(|| false) workshop_card=|| () side_tab=Callback::new(|_| ().into_any())/> }
        });
        settle().await;
        let shown = testids(&host, "guess-");
        let want: Vec<String> = option_order(seed, n)
            .iter()
            .map(|i| {
                format!(
                    "guess-{}",
                    outbox_model::challenge::outcome_name(Outcome::ALL[*i])
                )
            })
            .collect();
        assert_eq!(shown, want, "seed {seed}");
        orders.push(shown);
        // No answer yet: no line.
        assert_eq!(text(&host, "progress-predicted"), "");
        // A first guess (wrong), revealed; then a second (right) on the same step.
        lesson.predict.set(State::Revealed {
            guess: Outcome::Fine,
            actual: Outcome::Lost,
        });
        lesson.course.record_guess(Outcome::Fine, Outcome::Lost);
        lesson.course.record_guess(Outcome::Lost, Outcome::Lost);
        lesson.predict.set(State::Revealed {
            guess: Outcome::Lost,
            actual: Outcome::Lost,
        });
        settle().await;
        let line = t(Lang::Uz, Key::ProgressPredicted)
            .replace("{n}", "0")
            .replace("{m}", "1");
        assert_eq!(text(&host, "progress-predicted"), line);
        assert_eq!(
            by_testid(&host, "predict-counted")
                .get_attribute("data-first")
                .as_deref(),
            Some("fine"),
            "the reveal says which guess was counted"
        );
        // The why-question's first answer (right) joins the line.
        lesson
            .course
            .progress
            .update(|p| p.answer_why(outbox_playground::i18n::lesson_words::WHY_INSIDE.right));
        settle().await;
        let line = t(Lang::Uz, Key::ProgressPredicted)
            .replace("{n}", "1")
            .replace("{m}", "2");
        assert_eq!(text(&host, "progress-predicted"), line);
    }
    assert_ne!(orders[0], orders[1], "two visits, two orders");
}

#[wasm_bindgen_test]
async fn the_quiz_says_its_score_counts_first_answers() {
    use outbox_playground::i18n::lesson_words::QUIZ;
    use outbox_playground::lesson::quiz::Quiz;
    let (host, lesson) = mount_lesson(7, "lose-dual", || view! { <Quiz/> });
    settle().await;
    assert!(host
        .query_selector("[data-testid=\"quiz-first-counts\"]")
        .unwrap()
        .is_none());
    let q = QUIZ[0];
    pick_by_content(&host, "q0", t(Lang::Uz, q.options[(q.right + 1) % 3]));
    settle().await;
    // One answer, the first: nothing to explain yet.
    assert!(host
        .query_selector("[data-testid=\"quiz-first-counts\"]")
        .unwrap()
        .is_none());
    pick_by_content(&host, "q0", t(Lang::Uz, q.options[q.right]));
    settle().await;
    let score = t(Lang::Uz, Key::QuizScore)
        .replace("{n}", "0")
        .replace("{m}", &QUIZ.len().to_string());
    assert_eq!(
        text(&host, "quiz-score"),
        score,
        "the right answer picked second does not score"
    );
    assert_eq!(
        text(&host, "quiz-first-counts"),
        t(Lang::Uz, Key::QuizFirstCounts)
    );
    assert_eq!(
        lesson.course.progress.get_untracked().first_answer(0),
        Some((q.right + 1) % 3)
    );
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

// #43: SKIP LOCKED's reason on screen, the republish's canon line, the summary step.

/// Two relays with plain FOR UPDATE: each relay's lock waits and the published per 100
/// ticks are the model's numbers; a run with one relay shows none of them.
#[wasm_bindgen_test]
async fn two_relays_show_their_lock_waits_and_throughput() {
    let mut sim = Sim::new(preset("two-relays-wait").unwrap());
    while sim.tick() {}
    let (tally, tick, names) = {
        let w = sim.world();
        let relays: Vec<String> = w
            .procs()
            .iter()
            .filter(|p| p.kind == outbox_model::world::ProcKind::Relay)
            .map(|p| p.name.clone())
            .collect();
        (w.tally().clone(), w.counters().tick, relays)
    };
    let (host, _) = mount_with(sim, || view! { <CountersPanel/> });
    settle().await;
    assert_eq!(names, ["relay-1", "relay-2"]);
    let waits: Vec<u64> = tally.relays.iter().map(|r| r.lock_wait_ticks).collect();
    for (name, ticks) in names.iter().zip(&waits) {
        assert!(*ticks > 0, "{name} never waited under plain FOR UPDATE");
        assert_eq!(text(&host, &format!("lock-wait-{name}")), ticks.to_string());
    }
    assert_eq!(
        text(&host, "throughput"),
        tally.published_per_100_ticks(tick).to_string()
    );
    // The label names the relay, in the page's language.
    let label = t(Lang::Uz, Key::CRelayLockWait).replace("{relay}", "relay-1");
    assert!(text(&host, "relay-locks").contains(&label));

    let mut one = Sim::new(preset("canon-outbox").unwrap());
    while one.tick() {}
    let (host, _) = mount_with(one, || view! { <CountersPanel/> });
    settle().await;
    assert!(host
        .query_selector("[data-testid=\"relay-locks\"]")
        .unwrap()
        .is_none());
}

/// The canon republish run reads as the lesson's §2 line: "o'sha hodisa qayta yuborildi
/// → navbatda baribir 100", with the 100 tasks of the canon run.
#[wasm_bindgen_test]
async fn the_republish_canon_line_says_still_100() {
    let mut sim = Sim::new(preset("canon-republish").unwrap());
    while sim.tick() {}
    let (host, _) = mount_with(sim, || view! { <CountersPanel/> });
    settle().await;
    assert_eq!(
        text(&host, "canon-line"),
        "bazada 100; hodisa qayta yuborildi → navbatda baribir 100"
    );
}

/// The summary step: its section is the seed's «Xulosa», its results are the model's runs
/// (the lesson's 100/90, 100/100 and 3 → 1), and its sources button opens the sources.
#[wasm_bindgen_test]
async fn the_summary_step_shows_the_models_results_and_opens_the_sources() {
    use outbox_playground::lesson::ctl::Tab;
    use outbox_playground::lesson::guided_step::summary::LessonSummary;
    use outbox_playground::lesson::panel::LessonPanel;
    // The page hands in the side tabs' door (app/lazy.rs); here the panel itself.
    let (host, lesson) = mount_lesson(1, "summary", || {
        let side_tab = Callback::new(|tab| match tab {
            Tab::Summary => view! { <LessonSummary/> }.into_any(),
            _ => ().into_any(),
        });
        view! { <LessonPanel workshop_open=Signal::derive(|| false) workshop_card=|| () side_tab/> }
    });
    settle().await;
    assert!(text(&host, "lesson-step").contains(t(Lang::Uz, Key::SummarySection)));
    let n = outbox_model::lesson::summary();
    // The seed: "bazada 100 vazifa, navbatda 90 hodisa — 10 tasi YO'QOLDI".
    assert_eq!((n.dual.db, n.dual.queue, n.dual.lost), (100, 90, 10));
    let dual = t(Lang::Uz, Key::SummaryDual)
        .replace("{db}", "100")
        .replace("{q}", "90")
        .replace("{lost}", "10");
    assert_eq!(text(&host, "summary-dual"), dual);
    // "3 marta yetkazildi → biznes amali 1 marta".
    let inbox = t(Lang::Uz, Key::SummaryInbox)
        .replace("{n}", &n.deliveries.to_string())
        .replace("{e}", &n.effects.to_string());
    assert_eq!(text(&host, "summary-inbox"), inbox);
    assert!(text(&host, "summary-inbox").contains('3'));
    assert_eq!(
        testids(&host, "summary-").len(),
        6,
        "four results, guarantees, sources"
    );
    by_testid(&host, "summary-sources").click();
    settle().await;
    assert_eq!(lesson.tab.get_untracked(), Tab::RealWork);
}
