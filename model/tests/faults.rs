//! Every row of `shared/FAULTS.md` that the lesson's presets do not already show, as a
//! preset run under full invariant checking. Above each assertion: why the mechanism gives
//! that number.

use outbox_model::queue::JobState;
use outbox_model::scenario::TICKS_PER_DAY;
use outbox_model::world::{CheckLevel, ProcKind, Wait};
use outbox_model::{preset, Action, Counters, Scenario, World};

fn start(s: &Scenario) -> World {
    let mut w = World::new(s);
    w.set_check_level(CheckLevel::Full);
    w
}

fn finish(mut w: World, s: &Scenario) -> World {
    w.run(s.max_ticks);
    assert!(
        w.violations().is_empty(),
        "{}: {:?}",
        s.name,
        w.violations()
    );
    w
}

fn run(name: &str) -> (World, Counters) {
    let s = preset(name).unwrap_or_else(|| panic!("preset {name}"));
    let w = finish(start(&s), &s);
    let c = w.counters();
    (w, c)
}

/// Steps the world until `tick` (or until nothing can happen).
fn run_to(w: &mut World, tick: u64) {
    while w.tick() < tick {
        if !w.step() {
            break;
        }
    }
}

#[test]
fn queue_down_fail_fast_keeps_rows_and_grows_attempts() {
    // Redis refuses from tick 1 to 300: every publish returns an error at once, so the
    // relay's poll ends with MARK_FAILED and COMMIT: no lock stays, no transaction stays
    // open, rows stay unpublished and urinishlar grows by one per poll.
    let s = preset("queue-down").unwrap();
    let mut w = start(&s);
    run_to(&mut w, 299);
    let c = w.counters();
    assert_eq!(c.queue_jobs, 0);
    assert_eq!(c.events_unpublished, c.events_in_outbox);
    assert!(c.events_in_outbox > 0);
    assert!(w.db().outbox.iter().any(|r| r.data.urinishlar >= 2));
    let w = finish(w, &s);
    let c = w.counters();
    assert_eq!((c.queue_jobs, c.effects, c.lost, c.stuck), (10, 10, 0, 0));
}

#[test]
fn queue_hang_keeps_the_relays_locks_and_the_batch_is_stuck() {
    // Redis hangs from tick 1 to 600: the relay's first add never returns, so it waits
    // inside its transaction holding FOR UPDATE locks on its batch. Nothing is marked
    // failed (urinishlar stays 0) and every row is older than stuck_after_ticks (100) by
    // tick 599, because the 10 tasks were written in the first ~100 ticks.
    let s = preset("queue-hang").unwrap();
    let mut w = start(&s);
    w.advance(599);
    let c = w.counters();
    let relay = w
        .procs()
        .iter()
        .find(|p| p.kind == ProcKind::Relay)
        .unwrap();
    assert_eq!(relay.blocked, Some(Wait::Queue));
    let tx = relay.tx.expect("the relay's transaction stays open");
    assert!(!w.db().locked_by(tx).is_empty(), "its row locks stay");
    assert_eq!(c.queue_jobs, 0);
    assert_eq!((c.events_unpublished, c.stuck), (10, 10));
    assert!(w.db().outbox.iter().all(|r| r.data.urinishlar == 0));
    // Redis answers again: the hanging add returns, the batch commits, all flows.
    let w = finish(w, &s);
    let c = w.counters();
    assert_eq!((c.queue_jobs, c.effects, c.lost, c.stuck), (10, 10, 0, 0));
}

#[test]
fn poison_events_at_the_head_stall_everything() {
    // Events 1, 2, 3 always fail and partiya is 3: `ORDER BY id LIMIT 3` returns exactly
    // those three on every poll, they are marked failed (urinishlar + 1) and never
    // published, so rows 4..20 are never selected. After 2 000 ticks all 20 rows are older
    // than stuck_after_ticks (500): stuck 20, nothing published, nothing lost (the rows
    // still carry every event).
    let (w, c) = run("poison-stall");
    assert_eq!((c.queue_adds, c.effects, c.lost), (0, 0, 0));
    assert_eq!((c.events_unpublished, c.stuck), (20, 20));
    // One attempt per poll, a poll every 20 ticks (plus its own few steps): ~2000/20.
    let att: Vec<u32> = w.db().outbox.iter().map(|r| r.data.urinishlar).collect();
    assert!(att[..3].iter().all(|&a| a > 50), "{att:?}");
    assert!(att[3..].iter().all(|&a| a == 0), "{att:?}");
}

#[test]
fn dead_letter_clears_the_head() {
    // The same poison, but a row leaves for outbox_olik once urinishlar reaches 5: after
    // five polls the three poison rows are gone from the outbox (17 left), and the next
    // polls publish the other 17. The three are parked, not lost: in_flight 3.
    let (w, c) = run("poison-dead-letter");
    assert_eq!(c.dead_lettered, 3);
    assert_eq!((c.events_in_outbox, c.events_unpublished), (17, 0));
    assert_eq!((c.queue_jobs, c.effects, c.lost, c.stuck), (17, 17, 0, 0));
    assert_eq!(c.in_flight, 3);
    assert!(w.db().outbox[..3]
        .iter()
        .all(|r| r.data.dead_letter && r.data.urinishlar == 5));
}

#[test]
fn redis_flush_loses_published_events_and_the_unmark_recovers_them() {
    let s = preset("redis-flush").unwrap();
    let mut w = start(&s);
    // Just before the flush at tick 150: the jobs waiting in Redis are the only copy of
    // their events once their rows are marked.
    run_to(&mut w, 149);
    let waiting = w.queue().count(JobState::Waiting);
    assert!(waiting > 0, "the preset must flush with jobs waiting");
    let evs: Vec<_> = w
        .queue()
        .jobs()
        .filter(|j| j.state == JobState::Waiting)
        .map(|j| j.event)
        .collect();
    run_to(&mut w, 399);
    let c = w.counters();
    // Redis came back empty: each waiting job's row says "published", no job exists, no
    // process holds it → lost, exactly the jobs that were waiting (an active one stays in
    // its worker's hands and commits its action).
    assert_eq!(c.lost, waiting, "{c:?}");
    for e in evs {
        let row = w.db().event_row(e).unwrap();
        assert!(
            row.data.tarqatilgan_vaqt.is_some(),
            "the outbox says {e} was published"
        );
    }
    // At 400 the operator un-marks everything published since tick 0; the relay
    // republishes 30 rows, the inbox skips those already acted on.
    let w = finish(w, &s);
    let c = w.counters();
    assert_eq!((c.lost, c.effects, c.duplicate_effects), (0, 30, 0));
    assert!(c.duplicate_deliveries > 0);
    assert_eq!(c.effects + c.duplicate_deliveries, c.deliveries);
}

#[test]
fn unmarking_only_since_the_crash_misses_what_waited_before_it() {
    // The same crash, but the operator un-marks only rows with tarqatilgan_vaqt >= the
    // crash tick. The jobs waiting at the crash were published (and marked) before it, so
    // they stay lost: tarqatilgan_vaqt is now() of the relay's transaction, its start.
    let mut s = preset("redis-flush").unwrap();
    s.schedule[1].action = Action::UnpublishSince { since_tick: 150 };
    let mut w = start(&s);
    run_to(&mut w, 149);
    let waiting = w.queue().count(JobState::Waiting);
    let w = finish(w, &s);
    let c = w.counters();
    assert!(waiting > 0);
    assert_eq!(c.lost, waiting, "{c:?}");
}

#[test]
fn cdc_relay_republishes_after_dying_before_its_offset_and_retains_the_log() {
    let s = preset("cdc-relay").unwrap();
    let mut w = start(&s);
    w.advance(299);
    let c = w.counters();
    // The 20 preloaded events are the log at start; the CDC reads them all (partiya 100),
    // publishes 20, and dies at its first SaveOffset. It is down until tick 300, so the
    // slot retains those 20 plus every outbox insert the API committed meanwhile.
    assert_eq!(w.kills().len(), 1);
    assert_eq!(c.queue_adds, 20);
    assert_eq!(c.wal_retained, 20 + c.tasks_in_db, "{c:?}");
    // Requests with i % 10 == 3 roll back: never in the log, never published, no phantom.
    assert_eq!(c.tasks_in_db, 9);
    let w = finish(w, &s);
    let c = w.counters();
    // After the restart it reads from the saved offset (none): the 20 again (jobId dedup:
    // 20 hits), then the 9 new ones. 29 jobs, nothing lost, nothing retained.
    assert_eq!(
        (c.queue_adds, c.queue_dedup_hits, c.queue_jobs),
        (49, 20, 29)
    );
    assert_eq!(
        (c.effects, c.lost, c.phantoms, c.wal_retained),
        (29, 0, 0, 0)
    );
    assert_eq!(c.duplicate_deliveries, 0);
}

#[test]
fn cdc_republish_after_remove_on_complete_is_a_duplicate_delivery() {
    // Switch: removeOnComplete. By tick 300 the worker has completed the first 20 and
    // BullMQ removed them, so the republish creates 20 new jobs: 20 duplicate deliveries,
    // which the inbox (same transaction as the action) absorbs.
    let mut s = preset("cdc-relay").unwrap();
    s.config.queue.remove_on_complete = true;
    let w = finish(start(&s), &s);
    let c = w.counters();
    assert_eq!((c.queue_dedup_hits, c.duplicate_deliveries), (0, 20));
    assert_eq!((c.effects, c.duplicate_effects, c.lost), (29, 0, 0));
}

#[test]
fn high_water_mark_loses_the_slow_transaction_lesson_poll_does_not() {
    // The psql session takes an id at INSERT, then sleeps 100 ticks before COMMIT. The
    // API commits later ids meanwhile and the relay (polling every 5 ticks) moves its mark
    // past the session's id. When the session commits, its row is below the mark:
    // `WHERE id > last_id` never returns it → lost 1, and it stays unpublished forever.
    let (_, hw) = run("high-water-relay");
    assert_eq!((hw.lost, hw.events_unpublished, hw.effects), (1, 1, 20));
    // The same schedule with `WHERE tarqatilgan_vaqt IS NULL`: the late row is simply
    // unpublished, the next poll takes it → lost 0, all 21 acted on.
    let (_, lp) = run("high-water-lesson-poll");
    assert_eq!((lp.lost, lp.events_unpublished, lp.effects), (0, 0, 21));
}

#[test]
fn cleaner_without_the_published_filter_deletes_unpublished_rows() {
    // The relay is down from tick 1 to 400; the 10 tasks commit in the first ~100 ticks.
    // The cleaner runs every day (100 ticks) with a 1-day retention; by its run at tick
    // 200 every row is older than a day and, without the tarqatilgan_vaqt filter, gets
    // deleted. The restarted relay finds nothing: 10 lost.
    let (_, c) = run("cleaner-by-age");
    assert_eq!(
        (c.tasks_in_db, c.events_in_outbox, c.queue_jobs, c.lost),
        (10, 0, 0, 10)
    );
}

#[test]
fn cleaner_with_the_published_filter_is_safe() {
    // The lesson's filter: unpublished rows are never old enough to delete (tarqatilgan_vaqt
    // IS NULL fails `<`), so the restarted relay publishes all 10.
    let s = preset("cleaner-published-only").unwrap();
    let w = finish(start(&s), &s);
    let c = w.counters();
    assert_eq!((c.queue_jobs, c.effects, c.lost), (10, 10, 0));
    // Keep going: rows published at ~tick 400 are deleted once a day older than that
    // (by the cleaner's run at tick 600), and still nothing is lost.
    let mut w = w;
    w.advance(7 * TICKS_PER_DAY);
    let c = w.counters();
    assert_eq!((c.events_in_outbox, c.lost, c.effects), (0, 0, 10));
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

#[test]
fn inbox_retention_shorter_than_redelivery_lets_duplicates_through() {
    // The relay publishes all 5 preloaded events, then dies before COMMIT; the worker acts
    // on all 5 and writes 5 inbox rows within the first ~50 ticks. The cleaner deletes
    // inbox rows older than a day (its run at tick 200). The relay comes back at tick 500,
    // its rows are still unpublished, it republishes 5; removeOnComplete freed the jobIds,
    // so 5 new jobs; the inbox no longer knows them → 5 more actions.
    let (_, c) = run("inbox-retention");
    assert_eq!((c.deliveries, c.duplicate_deliveries), (10, 5));
    assert_eq!((c.effects, c.duplicate_effects, c.lost), (10, 5, 0));
    // Switch: keep the inbox forever and the same republish is absorbed.
    let mut s = preset("inbox-retention").unwrap();
    s.config.cleaner.as_mut().unwrap().inbox_retention_days = None;
    let c = finish(start(&s), &s).counters();
    assert_eq!(
        (c.duplicate_deliveries, c.effects, c.duplicate_effects),
        (5, 5, 0)
    );
}

#[test]
fn retry_without_key_makes_a_second_task_with_key_returns_the_first() {
    // Request 3 commits its task and event, then the API dies before answering; the
    // client retries once. Without a key the retry is a new request to the API: a second
    // task and a second event (new hodisa_id), both acted on. The inbox cannot see it (two
    // ids), so the business action happens twice for one request.
    let (_, c) = run("client-retry");
    assert_eq!(
        (c.tasks_in_db, c.events_in_outbox, c.duplicate_tasks),
        (11, 11, 1)
    );
    assert_eq!(
        (c.effects, c.duplicate_effects, c.duplicate_deliveries),
        (11, 1, 0)
    );
    // With the key in the same transaction, the retry's INSERT finds the committed key,
    // writes nothing, and answers with the first result.
    let (_, c) = run("client-retry-idempotency-key");
    assert_eq!(
        (c.tasks_in_db, c.events_in_outbox, c.duplicate_tasks),
        (10, 10, 0)
    );
    assert_eq!((c.effects, c.duplicate_effects, c.lost), (10, 0, 0));
}

#[test]
fn a_retried_created_event_arrives_after_completed() {
    // Events come in pairs (1: created, 2: completed for task 0; …). The first poll
    // publishes 2..10 and fails 1; the retry publishes 1 on the next poll, behind 2 in the
    // queue. The single worker takes jobs in queue order: completed before created for
    // task 0 → exactly one reordering; every other pair arrives in order.
    let (w, c) = run("ordering-retry");
    assert_eq!(c.reordered, 1);
    assert_eq!((c.effects, c.lost), (10, 0));
    let order: Vec<u32> = w.queue().created_order.iter().map(|e| e.0).collect();
    assert_eq!(order, vec![2, 3, 4, 5, 6, 7, 8, 9, 10, 1]);
}

#[test]
fn relay_slower_than_writers_lag_grows() {
    // The relay publishes one row per poll every 20 ticks (0.05 rows/tick); the client and
    // API write a task every ~8 ticks (~0.12 rows/tick). While the writers run (~1200
    // ticks), the backlog and the age of the oldest unpublished row grow.
    let s = preset("relay-lag").unwrap();
    let mut w = start(&s);
    let mut samples = Vec::new();
    for t in [300, 600, 900] {
        run_to(&mut w, t);
        let c = w.counters();
        samples.push((c.events_unpublished, c.oldest_unpublished_age_ticks));
    }
    for pair in samples.windows(2) {
        assert!(pair[1].0 > pair[0].0, "backlog grows: {samples:?}");
        assert!(pair[1].1 > pair[0].1, "lag grows: {samples:?}");
    }
    // It still catches up once the writers stop: nothing is lost.
    let w = finish(w, &s);
    let c = w.counters();
    assert_eq!(
        (c.effects, c.lost, c.oldest_unpublished_age_ticks),
        (150, 0, 0)
    );
}

#[test]
fn two_copies_at_once_second_inbox_insert_does_nothing() {
    // No locks and no jobId: both relays publish all 20 → 40 jobs, 20 duplicate
    // deliveries; the inbox turns the second copy of each into a no-op → 20 effects.
    let (w, c) = run("two-copies-at-once");
    assert_eq!(
        (c.queue_jobs, c.deliveries, c.duplicate_deliveries),
        (40, 40, 20)
    );
    assert_eq!((c.effects, c.duplicate_effects, c.lost), (20, 0, 0));
    assert_eq!(w.db().committed_actions(), 20);
}

#[test]
fn new_actions_are_offered_and_round_trip() {
    let s = preset("redis-flush").unwrap();
    let mut w = start(&s);
    assert!(w.enabled().contains(&Action::RedisFlush));
    w.apply(&Action::RedisFlush).unwrap();
    assert!(w.enabled().contains(&Action::UnpublishSince {
        since_tick: w.tick()
    }));
    for a in [Action::RedisFlush, Action::UnpublishSince { since_tick: 3 }] {
        let j = serde_json::to_string(&a).unwrap();
        assert_eq!(serde_json::from_str::<Action>(&j).unwrap(), a);
    }
    assert_eq!(
        serde_json::to_string(&Action::UnpublishSince { since_tick: 3 }).unwrap(),
        r#"{"action":"unpublish_since","since_tick":3}"#
    );
}

/// FAULTS.md's Redis row, both ways: a restart without persistence loses every job the
/// outbox already calls published (the lesson's warning); with `appendonly yes` (issue
/// #19, checked against real Redis in tests/queue_truth) every job and jobId comes back,
/// so a republish is a dedup hit and nothing is lost.
#[test]
fn redis_restart_with_appendonly_keeps_every_job() {
    let s = preset("canon-outbox").unwrap();
    let mut w = start(&s);
    while w.queue().len() < 10 {
        assert!(w.step(), "the relay publishes before the run ends");
    }
    assert!(w.enabled().contains(&Action::RedisRestart));
    let jobs_before = w.queue().len();
    w.apply(&Action::RedisRestart).unwrap();
    assert_eq!(w.queue().len(), jobs_before);
    w.run(s.max_ticks);
    assert!(w.violations().is_empty(), "{:?}", w.violations());
    assert_eq!(w.counters().lost, 0);
    let j = serde_json::to_string(&Action::RedisRestart).unwrap();
    assert_eq!(j, r#"{"action":"redis_restart"}"#);
}

/// #20: a kill rule per task. "Die before COMMIT once for every task with i % 10 == 7",
/// and the client retries: every such task dies once, its retry gets through, all 100
/// land. The same rule as one global budget (`times: 1`) kills only task 7; without a
/// budget it kills every retry too, and those ten tasks never land.
#[test]
fn a_kill_rule_can_fire_once_per_task() {
    use outbox_model::action::{Step, When};
    use outbox_model::scenario::{ApiMode, Fault};
    let run_with = |times: Option<u32>, per_task: bool| {
        let mut s = preset("canon-outbox").unwrap();
        s.config.api = ApiMode::Outbox;
        s.config.client_retries = 2;
        s.faults = vec![Fault::Kill {
            process: "api".into(),
            step: Step::Commit,
            when: When::TaskIndexMod {
                modulus: 10,
                remainder: 7,
            },
            times,
            per_task,
        }];
        let w = finish(start(&s), &s);
        (w.counters(), w.kills().len())
    };
    let (c, kills) = run_with(Some(1), true);
    assert_eq!(
        (c.tasks_in_db, c.queue_jobs, c.lost, kills),
        (100, 100, 0, 10)
    );
    let (c, kills) = run_with(Some(1), false);
    assert_eq!((c.tasks_in_db, kills), (100, 1));
    // Unlimited, not per task: each of the ten tasks dies on its try and both retries.
    let (c, kills) = run_with(None, false);
    assert_eq!((c.tasks_in_db, kills), (90, 30));
    // Per task with a budget of two: the second retry gets through.
    let (c, kills) = run_with(Some(2), true);
    assert_eq!((c.tasks_in_db, kills), (100, 20));
}

#[test]
fn a_per_task_rule_reads_and_writes_as_json() {
    let text = r#"{"name":"per-task","config":{"api":"outbox","client_retries":1},
        "workload":{"tasks":100},"faults":[
        {"fault":"kill","process":"api","step":"commit",
         "when":{"task_index_mod":{"modulus":10,"remainder":7}},"times":1,"per_task":true}]}"#;
    let s = Scenario::from_json(text).expect("a per-task rule parses");
    let back = Scenario::from_json(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back, s);
    let w = finish(start(&s), &s);
    assert_eq!((w.counters().tasks_in_db, w.kills().len()), (100, 10));
}

/// #20: a delay on a step, with two API instances. A slow COMMIT on api-1 lets api-2's
/// later row commit first; the high-water relay moves its mark past api-1's row before
/// that row is visible, and never reads it: lost, the way it happens in production (the
/// lesson's §5 warning about `WHERE id > last_id`). The lesson's poll (SKIP LOCKED on
/// `tarqatilgan_vaqt IS NULL`) loses nothing under the same faults.
#[test]
fn a_slow_commit_on_one_of_two_apis_makes_the_high_water_relay_lose_a_row() {
    use outbox_model::scenario::RelayMode;
    let run_with = |mode: RelayMode| {
        let mut s = preset("high-water-two-apis").unwrap();
        s.config.relay.mode = mode;
        s.config.log_cap = 10_000;
        let w = finish(start(&s), &s);
        let delayed = w
            .log_entries()
            .iter()
            .filter(|e| matches!(e.note, outbox_model::world::Note::Delayed { .. }))
            .count();
        (w.counters(), delayed)
    };
    let (c, _) = run_with(RelayMode::Lesson);
    assert_eq!((c.tasks_in_db, c.queue_jobs, c.lost), (20, 20, 0));
    let (c, delayed) = run_with(RelayMode::HighWater);
    assert_eq!(
        delayed, 2,
        "tasks 4 and 14 go through api-1 (it takes the even ones)"
    );
    assert_eq!(c.tasks_in_db, 20);
    // One of api-1's two slow rows commits after api-2's later rows were polled and the
    // mark moved past it: that event is lost (never published; the relay no longer looks
    // below its mark).
    assert_eq!(
        (c.queue_jobs, c.lost, c.events_unpublished),
        (19, 1, 1),
        "{c:?}"
    );
}

#[test]
fn two_apis_share_the_workload_and_names_follow() {
    let mut s = preset("canon-outbox").unwrap();
    s.config.apis = 3;
    let w = finish(start(&s), &s);
    let names: Vec<&str> = w.procs().iter().map(|p| p.name.as_str()).take(6).collect();
    assert_eq!(
        names,
        ["client-1", "api-1", "client-2", "api-2", "client-3", "api-3"]
    );
    let c = w.counters();
    // Lesson §3: the outbox keeps every event, however many API instances write.
    assert_eq!(
        (c.tasks_in_db, c.queue_jobs, c.lost, c.duplicate_effects),
        (100, 100, 0, 0)
    );
    let bad = Scenario::from_json(r#"{"name":"x","config":{"apis":4}}"#).unwrap_err();
    assert_eq!(bad.field, "config.apis");
}

/// Lesson §4.1, the third decision: the publisher is passed in. The same relay feeding a
/// webhook is still at-least-once: a POST that times out after the receiver acted is sent
/// again and acted on twice, unless the receiver keys on hodisa_id; a 5xx is retried.
#[test]
fn a_webhook_sink_is_at_least_once_and_a_key_makes_it_once() {
    let (w, c) = run("webhook");
    // 10 events; event 3 acted twice (timeout after acting), event 5 refused twice.
    assert_eq!(
        (c.effects, c.duplicate_effects, c.lost, c.queue_jobs),
        (11, 1, 0, 0)
    );
    assert_eq!((w.tally().polls_failed, w.tally().polls_published), (3, 10));
    let (_, c) = run("webhook-idempotency-key");
    assert_eq!(
        (c.effects, c.deliveries, c.duplicate_effects, c.lost),
        (10, 11, 0, 0)
    );
}

/// The same timeout on the lesson's queue: the job was added, the relay saw a failure
/// and adds it again on its next poll; jobId = hodisa_id absorbs the second add.
#[test]
fn a_publish_timeout_on_the_queue_is_absorbed_by_the_job_id() {
    let mut s = preset("canon-outbox").unwrap();
    s.faults = vec![outbox_model::scenario::Fault::PublishTimesOut { event: 3, times: 1 }];
    let w = finish(start(&s), &s);
    let c = w.counters();
    assert_eq!(
        (c.queue_adds, c.queue_dedup_hits, c.queue_jobs, c.lost),
        (101, 1, 100, 0)
    );
    s.config.relay.job_id = false;
    let w = finish(start(&s), &s);
    let c = w.counters();
    // Without the jobId the second add is a second job: delivered twice, the inbox
    // (the preset's worker keeps one) absorbs the effect.
    assert_eq!(
        (c.queue_jobs, c.duplicate_deliveries, c.duplicate_effects),
        (101, 1, 0)
    );
}
