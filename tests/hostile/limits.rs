//! Limits enforced at once, and long replays that stay bounded.

use std::time::{Duration, Instant};

use fantoccini::Client;
use outbox_model::scenario::{Scenario, Timed, MAX_SCHEDULE_TICK};
use outbox_model::Action;
use outbox_playground::proof::trace_io::trace_of;
use outbox_playground::run::link::{self, MAX_LINK};
use outbox_playground::run::sim::{Input, Run, Sim, MAX_ATOMS, MAX_PAGE_TASKS};
use serde_json::{json, Value};

use crate::common::*;
use crate::harness::*;
use crate::payloads::*;

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

/// The crafted runs of [`long_and_far_future_runs_open_or_are_refused_in_bounded_time`]:
/// the links to open, and the runs the files are made of.
struct Costly {
    links: Vec<(String, String)>,
    /// The biggest world the page takes.
    big: Scenario,
    /// That world, with the longest log a link may carry.
    run: Run,
    /// A far-future schedule.
    far: Run,
}

/// The links: the panic link, the biggest world, many preloaded events, a
/// far-future schedule and a log of many short entries.
fn costly_links(page: &str) -> Result<Costly, BoxError> {
    let mut links: Vec<(String, String)> = Vec::new();
    // The panic link.
    for (label, run) in panic_runs() {
        links.push((format!("link: {label}"), url_of(page, &run)));
    }
    // The biggest world the page takes, and the longest log a link may carry.
    let mut big = outbox_model::preset("canon-outbox").unwrap();
    big.workload.tasks = MAX_PAGE_TASKS;
    let mut run = Sim::new(big.clone()).to_run();
    run.inputs = vec![Input::Ticks(MAX_ATOMS)];
    links.push((
        format!("link: {MAX_PAGE_TASKS} tasks, {MAX_ATOMS} ticks"),
        url_of(page, &run),
    ));
    // 2 000 000 preloaded events (the model's cap, ten times the page's task cap).
    let mut pre = Sim::new(outbox_model::preset("canon-outbox").unwrap()).to_run();
    pre.scenario.workload.preloaded_events = 2_000_000;
    pre.inputs = vec![Input::Ticks(1000)];
    links.push((
        "link: 2 000 000 preloaded events".into(),
        url_of(page, &pre),
    ));
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
        url_of(page, &far),
    ));
    // The same through the JSON, with a log of many short entries (the link's length
    // is the limit).
    let mut many =
        serde_json::to_value(Sim::new(outbox_model::preset("canon-outbox").unwrap()).to_run())?;
    let entries: Vec<Value> = (0..12_000)
        .map(|_| json!({ "ticks": MAX_ATOMS / 12_000 }))
        .collect();
    many["inputs"] = Value::Array(entries);
    links.push(("link: 12 000 log entries".into(), url_of_json(page, &many)));
    Ok(Costly {
        links,
        big,
        run,
        far,
    })
}

/// The files: a trace with a long action list (under the size limit), and a saved run
/// with the longest log.
fn costly_files(c: &Costly) -> Result<Vec<(String, String)>, BoxError> {
    let mut files: Vec<(String, String)> = Vec::new();
    // Compact JSON, 18 bytes a tick: the longest list under the size limit.
    let n_ticks = 270_000u64;
    let mut s = c.big.clone();
    s.workload.tasks = 20_000;
    let mut sim = Sim::new(s);
    let mut trace = trace_of(&sim).expect("an empty run is a trace");
    for _ in 0..n_ticks {
        if sim.act(Action::Tick).is_err() {
            break;
        }
    }
    trace.actions = vec![Action::Tick; sim.inputs().len()];
    trace.final_counters = sim.world().counters();
    let text = serde_json::to_string(&trace)?;
    eprintln!(
        "trace of {} ticks: {} bytes",
        trace.actions.len(),
        text.len()
    );
    assert!(
        text.len() < IMPORT_LIMIT,
        "the long trace is meant to be under the size limit"
    );
    files.push((
        format!("file: trace of {} ticks", trace.actions.len()),
        text,
    ));
    files.push((
        format!("file: saved run, {MAX_PAGE_TASKS} tasks, {MAX_ATOMS} ticks"),
        link::to_json(&c.run),
    ));
    files.push(("file: far-future schedule".into(), link::to_json(&c.far)));
    Ok(files)
}

/// The worst case so far, and every failure: each case is measured, and the failures are
/// reported together at the end.
#[derive(Default)]
struct Tally {
    worst: (Duration, String),
    failures: Vec<String>,
}

impl Tally {
    /// Records one case's cost (to open or refuse it, to answer a script, the longest
    /// busy stretch) against the worst case and [`over_bound`].
    fn cost(&mut self, what: &str, took: Duration, answer: Duration, s: &Seen) {
        let busy = Duration::from_secs_f64(s.gap.max(0.0) / 1000.0);
        let cost = took.max(busy).max(answer);
        if cost > self.worst.0 {
            self.worst = (cost, what.to_string());
        }
        self.failures.extend(over_bound(what, took, answer, busy));
    }
}

/// Opens each link in turn, measuring it.
async fn measure_links(
    client: &Client,
    links: &[(String, String)],
    tally: &mut Tally,
) -> TestResult {
    for (what, url) in links {
        eprintln!("{what}: {} characters", url.len());
        let (took, answer) = open_page(client, url).await?;
        let s = seen(client).await?;
        tally.failures.extend(problems(&s, what));
        tally.failures.extend(untold(&s, what));
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
        tally.cost(what, took, answer, &s);
    }
    Ok(())
}

/// Imports each file in turn into a clean page, measuring it.
async fn measure_files(
    client: &Client,
    page: &str,
    files: &[(String, String)],
    tally: &mut Tally,
) -> TestResult {
    // A clean page (what the links saved could panic it on every load).
    open_page(client, page).await?;
    client.execute("localStorage.clear()", vec![]).await?;
    open_page(client, page).await?;
    for (n, (what, text)) in files.iter().enumerate() {
        if seen(client).await?.panic {
            client.execute("localStorage.clear()", vec![]).await?;
            open_page(client, page).await?;
        }
        client.execute("window.__gaps.max = 0", vec![]).await?;
        let Some(took) = import(client, &format!("long-{n}.json"), text.as_bytes(), 60).await?
        else {
            tally.failures.push(format!("{what}: no notice after 60 s"));
            continue;
        };
        let answered = Instant::now();
        let s = seen(client).await?;
        let answer = answered.elapsed();
        tally.failures.extend(problems(&s, what));
        tally.failures.extend(untold(&s, what));
        eprintln!(
            "{what}: {} ms to import or refuse, longest busy stretch {:.0} ms, {}",
            took.as_millis(),
            s.gap,
            short(s.notice.as_deref().unwrap_or_default(), 140)
        );
        tally.cost(what, took, answer, &s);
    }
    Ok(())
}

/// Crafted runs that cost the page the most: the worst case is printed, and each must be
/// opened or refused within [`REPLAY_BOUND`] while the tab still answers a script.
#[test]
fn long_and_far_future_runs_open_or_are_refused_in_bounded_time() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            let costly = costly_links(&page)?;
            // Every case is measured; the failures are reported together at the end.
            let mut tally = Tally::default();
            measure_links(&client, &costly.links, &mut tally).await?;
            // Files: a trace with a long action list (under the size limit), and a saved run
            // with the longest log, imported into an open page.
            let files = costly_files(&costly)?;
            measure_files(&client, &page, &files, &mut tally).await?;
            let Tally { worst, failures } = tally;
            eprintln!("worst case: {} ms ({})", worst.0.as_millis(), worst.1);
            assert!(failures.is_empty(), "{}", failures.join("\n"));
            assert_alive(&client, "after the long runs").await?;
            Ok(())
        })
        .await;
    });
}

/// Presses "Check", then "Stop" in the first animation frame that shows it; answers
/// whether it did (false after 5 s without it).
const STOP_IN_THE_FIRST_FRAME: &str = "
const done = arguments[arguments.length - 1];
document.querySelector('[data-testid=builder-check]').click();
const started = performance.now();
(function look() {
  const stop = document.querySelector('[data-testid=builder-check-stop]');
  if (stop) { stop.click(); done(true); return; }
  if (performance.now() - started > 5000) { done(false); return; }
  requestAnimationFrame(look);
})();
";

/// Waits up to `secs` for an element, or for it to be gone (`present` false).
async fn wait_presence(client: &Client, testid: &str, present: bool, secs: u64) -> TestResult {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let found = client
            .find(fantoccini::Locator::Css(&css(testid)))
            .await
            .is_ok();
        if found == present {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!("{testid}: present={found} after {secs} s").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// "Check" in the builder on the biggest shared run of #40 (100 000 tasks and 100 000
/// preloaded events, within the page's cap) with a goal that reads the rows' ages, so the
/// check spends its whole work budget (`MAX_CHECK_WORK`): it runs in slices, shows its
/// bar, keeps the page answering (the main thread never busy for a second), ends with
/// the refusal, and prints its time in the release page. A second check is stopped.
#[test]
fn a_long_check_shows_its_progress_and_can_be_stopped() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            let mut scenario = outbox_model::preset("canon-outbox").expect("the canon preset");
            scenario.workload.tasks = 100_000;
            scenario.workload.preloaded_events = 100_000;
            let url = format!("{page}#{}", link::fragment(&Sim::new(scenario).to_run()));
            open_page(&client, &url).await?;
            reveal(&client, "builder-check").await?;
            set_value(&client, "builder-title", "Katta").await?;
            set_value(&client, "builder-goal", "stuck >= 1000000000").await?;
            click(&client, "builder-record").await?;
            client.execute("window.__gaps.max = 0", vec![]).await?;
            let started = Instant::now();
            click(&client, "builder-check").await?;
            wait_presence(&client, "builder-checking", true, 10).await?;
            wait_presence(&client, "builder-refused", true, 300).await?;
            let took = started.elapsed();
            let busy = client.execute("return window.__gaps.max", vec![]).await?;
            let busy_ms = busy.as_f64().unwrap_or(f64::MAX);
            let why = text_of(&client, "builder-refused").await?;
            eprintln!(
                "long check: refused after {:.1} s, main thread busy at most {busy_ms:.0} ms: {}",
                took.as_secs_f64(),
                short(&why, 120)
            );
            assert!(busy_ms < 1000.0, "the check held the page {busy_ms} ms");
            wait_presence(&client, "builder-checking", false, 5).await?;
            // Again, stopped: the bar goes and no verdict is shown. The whole check takes
            // well under a second here, too short for WebDriver's round trips: the page's
            // own script presses Stop in the first frame that shows it.
            let stopped = client
                .execute_async(STOP_IN_THE_FIRST_FRAME, vec![])
                .await?;
            assert_eq!(stopped.as_bool(), Some(true), "no Stop button appeared");
            wait_presence(&client, "builder-checking", false, 5).await?;
            for verdict in ["builder-refused", "builder-found"] {
                let shown = client
                    .find(fantoccini::Locator::Css(&css(verdict)))
                    .await
                    .is_ok();
                assert!(!shown, "{verdict} shown after Stop");
            }
            Ok(())
        })
        .await;
    });
}
