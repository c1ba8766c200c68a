//! The explorer (issue #8): shortest counterexamples, pinned state counts, replayable
//! traces, the crash-point matrix. Run with `--nocapture` to see the traces.

use outbox_model::explore::{
    crash_cell, departures, explore, matrix_rows, retry_acts_once, to_rust_test, Bounds,
    CellOutcome, Design, Explorer, Property, Trace, Verdict,
};
use outbox_model::swarm::{allows, Facts, Outcome};
use outbox_model::world::ProcKind;
use outbox_model::{Action, Step};

fn step(p: &str) -> Action {
    Action::Step { process: p.into() }
}

fn kill(p: &str) -> Action {
    Action::Kill { process: p.into() }
}

/// The smallest dual-write world: one request, one worker, one kill.
fn dual_write_bounds() -> Bounds {
    Bounds {
        tasks: 1,
        relays: 0,
        workers: 1,
        max_kills: 1,
        max_depth: 200,
    }
}

/// The shortest lost-event schedule of dual write (DB first), over single actions.
fn dual_write_lost_trace() -> Trace {
    let b = dual_write_bounds();
    let s = Design::DualWriteDbFirst.scenario(&b);
    let mut e = Explorer::unreduced(&s, &b);
    e.run();
    e.report()
        .counterexample(Property::Lost)
        .expect("dual write loses events")
        .clone()
}

#[test]
fn dual_write_db_first_has_a_shortest_lost_event_trace() {
    let t = dual_write_lost_trace();
    println!("{}", t.to_text());
    // The lesson's §1 in five actions: the task commits, the API dies before queue.add.
    assert_eq!(
        t.actions,
        vec![
            step("client"),
            step("api"),
            step("api"),
            step("api"),
            kill("api")
        ]
    );
    let w = t.verify().expect("the trace replays to its counters");
    assert_eq!(w.counters().lost, 1);
    assert_eq!(w.counters().tasks_in_db, 1);
    assert_eq!(w.counters().queue_jobs, 0);
    assert_eq!(w.procs()[1].pc, Step::Begin, "the API was killed and reset");
    assert_eq!(w.kills().last().map(|k| k.1), Some(Step::QueueAdd));
}

#[test]
fn no_shorter_dual_write_trace_loses_an_event() {
    let t = dual_write_lost_trace();
    let mut b = dual_write_bounds();
    b.max_depth = t.actions.len() as u32 - 1;
    let s = Design::DualWriteDbFirst.scenario(&b);
    let mut e = Explorer::unreduced(&s, &b);
    e.run();
    let r = e.report();
    // Every schedule of up to four actions was searched (the bound cut the rest) …
    assert!(r.cut > 0, "{r}");
    assert_eq!(r.depth, b.max_depth);
    // … and none loses an event.
    assert!(r.holds(Property::Lost), "{r}");
}

#[test]
fn the_reduced_search_finds_the_same_loss() {
    let b = Bounds::default();
    let r = explore(&Design::DualWriteDbFirst.scenario(&b), &b);
    let Verdict::Counterexample { trace, choices } = r.verdict(Property::Lost) else {
        panic!("{r}");
    };
    println!("{}", trace.to_text());
    // Forced steps come along (the client's send, the API's begin), the kill's restart
    // follows it: three choices, six actions.
    assert_eq!(*choices, 3);
    assert_eq!(trace.actions.len(), 6);
    assert_eq!(trace.actions[4], kill("api"));
    trace.verify().unwrap();
}

/// Pinned on purpose, as model checkers do: a change to the model or to the explorer
/// that changes the state space must show up here (and be explained in its commit).
#[test]
fn outbox_inbox_holds_over_the_whole_bounded_space() {
    let b = Bounds::default();
    assert_eq!((b.tasks, b.relays, b.workers, b.max_kills), (3, 2, 1, 2));
    let r = explore(&Design::OutboxInbox.scenario(&b), &b);
    println!("{r}");
    for p in Property::all() {
        assert!(r.holds(p), "{}: {r}", p.name());
    }
    assert_eq!(r.cut, 0, "the depth bound cut nothing");
    assert_eq!(r.lost_retracted, 0);
    assert_eq!(r.states, 50_736);
    assert_eq!(r.edges, 144_956);
    assert_eq!(r.terminal, 453);
    assert_eq!(r.settled, 453);
    assert_eq!(r.depth, 31);
    assert_eq!(r.schedules, Some(86_320_354_023_652));
    assert_eq!(
        r.verdict(Property::Lost),
        &Verdict::Holds {
            states: 50_736,
            schedules: Some(86_320_354_023_652)
        }
    );
}

#[test]
fn outbox_inbox_small_space_pinned() {
    let b = Bounds {
        tasks: 2,
        relays: 1,
        workers: 1,
        max_kills: 1,
        max_depth: 200,
    };
    let r = explore(&Design::OutboxInbox.scenario(&b), &b);
    println!("{r}");
    assert!(Property::all().into_iter().all(|p| r.holds(p)), "{r}");
    assert_eq!((r.states, r.edges, r.terminal, r.depth), (382, 719, 14, 19));
    assert_eq!(r.schedules, Some(35_525));
}

/// What each design breaks, and that every counterexample replays to what it claims.
#[test]
fn every_design_breaks_what_the_lesson_says_and_every_trace_replays() {
    let b = Bounds {
        tasks: 2,
        relays: 2,
        workers: 1,
        max_kills: 2,
        max_depth: 200,
    };
    // lost, duplicate_effects, phantoms, conservation, invariants: does it hold? Read
    // from the swarm's expected class (`swarm::expect`, the one statement of what each
    // design may do) under every kill the explorer can make: what a design may show, the
    // exhaustive search must find, and nothing else.
    let every_kill = Facts {
        kills: matrix_rows(),
        ..Facts::default()
    };
    let expect = |d: Design| -> [bool; 6] {
        let cfg = d.scenario(&b).config;
        let holds = |o| allows(&cfg, &every_kill, o).is_none();
        [
            holds(Outcome::Lost),
            holds(Outcome::DuplicateEffect),
            holds(Outcome::Phantom),
            true,
            true,
            // A failed job (BullMQ's default maxStalledCount 1: two kills of its worker),
            // retried, is acted on once in every design.
            true,
        ]
    };
    for d in Design::all() {
        let r = explore(&d.scenario(&b), &b);
        println!("{r}");
        assert_eq!(r.cut, 0);
        assert_eq!(r.lost_retracted, 0, "{}", d.name());
        assert_eq!(r.terminal, r.settled, "{}: every end is settled", d.name());
        for (k, p) in Property::all().into_iter().enumerate() {
            assert_eq!(r.holds(p), expect(d)[k], "{} {}: {r}", d.name(), p.name());
            if let Some(t) = r.counterexample(p) {
                let w = t.verify().expect("replays");
                let c = w.counters();
                let broken = match p {
                    Property::Lost => c.lost > 0,
                    Property::DuplicateEffects => c.duplicate_effects > 0,
                    Property::Phantoms => c.phantoms > 0,
                    Property::Conservation => w.auditor().check_conservation().is_err(),
                    Property::Invariants => !w.violations().is_empty(),
                    Property::RetriedOnce => !retry_acts_once(&w),
                };
                assert!(broken, "{} {}: {}", d.name(), p.name(), t.to_text());
                // Through JSON and back, the same trace.
                assert_eq!(&Trace::from_json(&t.to_json()).unwrap(), t);
            }
        }
    }
}

/// With BullMQ's default `maxStalledCount` of 1 (what `Design::scenario` keeps), two
/// crashes of the worker holding the same job move it to the failed set. That event waits
/// for a retry (`failed_needs_retry`), it is not lost: `lost` holds over the space, some
/// terminal state has a failed event, and retrying it acts on it once (`retried_once`).
/// With `removeOnFail` the same crashes delete the job: that is a loss.
#[test]
fn bullmq_default_stall_count_fails_a_job_after_two_crashes_and_a_retry_acts_once() {
    let b = Bounds {
        tasks: 1,
        relays: 1,
        workers: 1,
        max_kills: 2,
        max_depth: 200,
    };
    let mut s = Design::OutboxInbox.scenario(&b);
    assert_eq!(s.config.queue.max_stalled_count, 1, "BullMQ's default");
    let mut e = Explorer::new(&s, &b);
    e.collect_outcomes();
    e.run();
    let r = e.report();
    println!("{r}");
    assert!(r.holds(Property::Lost), "{r}");
    assert!(r.holds(Property::RetriedOnce), "{r}");
    let failed_ends = e
        .outcomes()
        .expect("collected")
        .iter()
        .map(|o| serde_json::from_str::<outbox_model::Counters>(o).expect("counters"))
        .filter(|c| c.failed_needs_retry == 1)
        .count();
    assert!(failed_ends > 0, "some end has the job in the failed set");
    // removeOnFail: the failed job is deleted, and the event is lost after two crashes.
    s.config.queue.remove_on_fail = true;
    let r = explore(&s, &b);
    let t = r
        .counterexample(Property::Lost)
        .expect("lost after two stalls with removeOnFail");
    println!("{}", t.to_text());
    let kills: Vec<_> = t
        .actions
        .iter()
        .filter(|a| matches!(a, Action::Kill { .. }))
        .collect();
    assert_eq!(kills, vec![&kill("worker-1"), &kill("worker-1")]);
    let w = t.verify().unwrap();
    assert_eq!(w.queue().count(outbox_model::queue::JobState::Failed), 0);
}

#[test]
fn slices_give_the_same_report_as_one_run() {
    let b = Bounds {
        tasks: 2,
        relays: 2,
        workers: 1,
        max_kills: 1,
        max_depth: 200,
    };
    let s = Design::Outbox.scenario(&b);
    let whole = explore(&s, &b);
    let mut e = Explorer::new(&s, &b);
    let mut slices = 0;
    while !e.run_slice(50) {
        slices += 1;
        assert!(e.states() > 0 && e.pending() > 0);
    }
    assert!(slices > 5);
    let r = e.report();
    assert_eq!(
        (r.states, r.edges, r.schedules),
        (whole.states, whole.edges, whole.schedules)
    );
    assert_eq!(
        r.counterexample(Property::DuplicateEffects),
        whole.counterexample(Property::DuplicateEffects)
    );
}

// ----- exported traces ------------------------------------------------------------------

const GENERATED: &str = "tests/dual_write_counterexample.rs";

#[test]
fn the_exported_rust_test_is_the_checked_in_one() {
    let text = to_rust_test(
        &dual_write_lost_trace(),
        "dual_write_db_first_loses_an_event",
    );
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::write(GENERATED, &text).unwrap();
    }
    // tests/dual_write_counterexample.rs is compiled and run as a test of its own: the
    // exported text compiles and passes.
    assert_eq!(
        text,
        include_str!("dual_write_counterexample.rs"),
        "regenerate with UPDATE_GENERATED=1"
    );
}

#[test]
fn trace_json_errors_name_the_field() {
    let t = dual_write_lost_trace();
    let good = t.to_json();
    assert_eq!(Trace::from_json(&good).unwrap(), t);
    let e = Trace::from_json("{\"scenario\": {\"name\": \"x\"}, \"actions\": [], \"final\": 1}")
        .unwrap_err();
    assert_eq!(e.field, "final");
    let bad_proc = good.replacen("\"process\": \"api\"", "\"process\": \"apx\"", 1);
    let e = Trace::from_json(&bad_proc).unwrap_err();
    assert_eq!(e.field, "actions[1].process", "{e}");
    let bad_cfg = good.replacen("\"workers\": 1", "\"workers\": 9", 1);
    let e = Trace::from_json(&bad_cfg).unwrap_err();
    assert_eq!(e.field, "scenario.config.workers", "{e}");
    let e = Trace::from_json("[1, 2]").unwrap_err();
    assert!(!e.message.is_empty());
}

// ----- the crash-point matrix -----------------------------------------------------------

#[test]
fn the_matrix_covers_every_step_of_every_design() {
    let rows = matrix_rows();
    let has = |k: ProcKind, s: Step| rows.contains(&(k, s));
    for (k, s) in [
        (ProcKind::Client, Step::Send),
        (ProcKind::Api, Step::QueueAdd),
        (ProcKind::Api, Step::InsertEvent),
        (ProcKind::Relay, Step::SelectBatch),
        (ProcKind::Relay, Step::MarkPublished),
        (ProcKind::Worker, Step::InboxInsert),
        (ProcKind::Worker, Step::Complete),
    ] {
        assert!(has(k, s), "{k:?} {s:?}");
    }
    // The API's row keeps each program's order: begin, insert_task, insert_event, commit,
    // queue_add, respond, rollback.
    let api: Vec<Step> = rows
        .iter()
        .filter(|r| r.0 == ProcKind::Api)
        .map(|r| r.1)
        .collect();
    use Step::*;
    assert_eq!(
        api,
        vec![
            Begin,
            InsertTask,
            InsertEvent,
            Commit,
            QueueAdd,
            Respond,
            Rollback
        ]
    );
    let t = std::time::Instant::now();
    let mut states = 0;
    let mut cells = 0;
    for d in Design::all() {
        for &row in &rows {
            let c = crash_cell(d, row);
            states += c.states;
            cells += 1;
            if let Some(t) = &c.trace {
                let w = t.verify().expect("cell traces replay");
                assert_eq!(w.kills().len(), 1, "one kill");
                assert_eq!(w.kills()[0].1, row.1, "at the row's step");
            }
        }
    }
    println!(
        "matrix: {cells} cells, {states} states, {:.3} s",
        t.elapsed().as_secs_f64()
    );
}

fn cell(d: Design, k: ProcKind, s: Step) -> CellOutcome {
    let c = crash_cell(d, (k, s));
    if let Some(t) = &c.trace {
        println!(
            "{} {k:?} {s:?} → {:?}\n{}",
            d.name(),
            c.outcome,
            t.to_text()
        );
    }
    c.outcome
}

#[test]
fn matrix_cells_follow_from_the_mechanisms() {
    use CellOutcome::*;
    use ProcKind::*;
    // Dual write, DB first: the task is committed, the add never happens (the canon).
    assert_eq!(cell(Design::DualWriteDbFirst, Api, Step::QueueAdd), Lost);
    // Killed before COMMIT: no task, no event; nothing to lose.
    assert_eq!(cell(Design::DualWriteDbFirst, Api, Step::Commit), Fine);
    // Queue first, killed after the add, before COMMIT: the job is for a task that never
    // commits.
    assert_eq!(
        cell(Design::DualWriteQueueFirst, Api, Step::Commit),
        Phantom
    );
    // Outbox: before COMMIT nothing exists; at respond the event is committed with its
    // task and the relay delivers it although the client saw an error.
    assert_eq!(cell(Design::Outbox, Api, Step::Commit), Fine);
    assert_eq!(cell(Design::Outbox, Api, Step::Respond), Fine);
    // The lesson's relay killed after publishing, before its COMMIT: the row stays
    // unpublished and is published again, but jobId = hodisa_id absorbs the republish (the
    // job still exists: removeOnComplete is off), so nobody receives it twice.
    assert_eq!(cell(Design::Outbox, Relay, Step::MarkPublished), Fine);
    assert_eq!(cell(Design::Outbox, Relay, Step::Commit), Fine);
    // Mark first: committed as published, killed before publishing: lost.
    assert_eq!(cell(Design::OutboxAtMostOnce, Relay, Step::Publish), Lost);
    // A worker killed after its COMMIT, before completing: the job stalls and is
    // delivered again; without an inbox the action runs twice, with one it is absorbed.
    assert_eq!(
        cell(Design::Outbox, Worker, Step::Complete),
        DuplicateEffect
    );
    assert_eq!(
        cell(Design::OutboxInbox, Worker, Step::Complete),
        DuplicateDelivery
    );
    // Killed before its COMMIT: the action rolls back; the redelivery acts once.
    assert_eq!(
        cell(Design::Outbox, Worker, Step::Commit),
        DuplicateDelivery
    );
    // Dual write has no relay; the outbox API has no queue_add; no publish ever fails.
    assert_eq!(
        cell(Design::DualWriteDbFirst, Relay, Step::Publish),
        NotApplicable
    );
    assert_eq!(cell(Design::Outbox, Api, Step::QueueAdd), NotApplicable);
    assert_eq!(cell(Design::Outbox, Relay, Step::MarkFailed), NotApplicable);
}

#[test]
fn cell_outcomes_are_ordered_worst_first() {
    use CellOutcome::*;
    let mut v = vec![Fine, DuplicateDelivery, Lost, Phantom, DuplicateEffect];
    v.sort();
    assert_eq!(
        v,
        vec![Lost, DuplicateEffect, Phantom, DuplicateDelivery, Fine]
    );
}

/// The proof page's bounds line names every setting that is not a BullMQ or PostgreSQL
/// default: for the designs, only the timers (a tick stands for a second; the explorer
/// makes them say nothing about order); `maxStalledCount` is BullMQ's 1. A raised count
/// would be named.
#[test]
fn the_designs_depart_from_the_defaults_only_in_their_timers() {
    let b = Bounds::default();
    for d in Design::all() {
        let named: Vec<_> = d
            .departures(&b)
            .into_iter()
            .map(|x| (x.name, x.value, x.default))
            .collect();
        assert_eq!(
            named,
            vec![
                ("lockDuration", "1 s".to_string(), "30 s".to_string()),
                ("stalledInterval", "1 s".to_string(), "30 s".to_string()),
            ],
            "{}",
            d.name()
        );
    }
    let mut s = Design::OutboxInbox.scenario(&b);
    s.config.queue.max_stalled_count = 2;
    s.config.queue.remove_on_fail = true;
    let names: Vec<_> = departures(&s).into_iter().map(|d| d.name).collect();
    assert_eq!(
        names,
        [
            "removeOnFail",
            "maxStalledCount",
            "lockDuration",
            "stalledInterval"
        ]
    );
}
