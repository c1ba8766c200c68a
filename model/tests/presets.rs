//! Every preset runs clean under full invariant checking, and each failure preset shows
//! the outcome its mechanism predicts. The reasoning is written beside each number.

use outbox_model::world::CheckLevel;
use outbox_model::{preset, presets, Scenario, World};

fn run_checked(s: &Scenario) -> World {
    let mut w = World::new(s);
    w.set_check_level(CheckLevel::Full);
    w.run(s.max_ticks);
    assert!(
        w.violations().is_empty(),
        "{}: {:?}",
        s.name,
        w.violations()
    );
    w
}

fn run(name: &str) -> World {
    run_checked(&preset(name).unwrap())
}

#[test]
fn every_preset_runs_clean_and_has_a_summary() {
    let all = presets();
    assert!(all.len() >= 8);
    // The presets for FAULTS.md's rows (tests/faults.rs) are among them, so each of them
    // runs here under full checking too.
    for name in [
        "queue-down",
        "queue-hang",
        "poison-stall",
        "poison-dead-letter",
        "redis-flush",
        "cdc-relay",
        "high-water-relay",
        "high-water-lesson-poll",
        "cleaner-by-age",
        "cleaner-published-only",
        "inbox-retention",
        "client-retry",
        "client-retry-idempotency-key",
        "ordering-retry",
        "relay-lag",
        "two-copies-at-once",
    ] {
        assert!(all.iter().any(|s| s.name == name), "{name} missing");
    }
    for s in &all {
        assert!(!s.summary.is_empty(), "{} has no summary", s.name);
        s.validate().unwrap();
        run_checked(s);
        // And it survives a JSON round trip unchanged.
        assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), *s);
    }
}

#[test]
fn queue_first_dual_write_makes_phantoms() {
    // Kills at COMMIT for i % 10 == 3 (10 of 100 requests): the job was already added, the
    // transaction dies with the connection → 10 events for tasks that never exist.
    let c = run("dual-write-queue-first").counters();
    assert_eq!(c.tasks_in_db, 90);
    assert_eq!(c.phantoms, 10);
    assert_eq!(c.queue_jobs, 100);
    assert_eq!(c.lost, 0);
}

#[test]
fn at_most_once_relay_loses_its_batch() {
    // The relay dies at its first publish after committing the "published" mark: every
    // row of that first batch (1..=partiya of them) is marked but never added.
    let w = run("at-most-once-relay");
    let c = w.counters();
    assert!(c.lost >= 1 && c.lost <= 5, "{c:?}");
    assert_eq!(
        c.events_unpublished, 0,
        "the outbox says everything was published"
    );
    assert_eq!(c.queue_jobs + c.lost, 20);
}

#[test]
fn worker_without_inbox_acts_twice() {
    // One kill after COMMIT, before moveToCompleted: the lock runs out, the job stalls
    // back to wait, and the second delivery acts again.
    let c = run("worker-no-inbox").counters();
    assert_eq!((c.deliveries, c.effects), (11, 11));
    assert_eq!(
        (c.duplicate_deliveries, c.duplicate_effects, c.lost),
        (1, 1, 0)
    );
}

#[test]
fn inbox_in_its_own_transaction_loses_the_action() {
    // The inbox row commits, the worker dies before the action's transaction: the
    // redelivery finds the inbox row, skips, and the action never happens.
    let c = run("worker-inbox-own-tx").counters();
    assert_eq!((c.deliveries, c.effects, c.lost), (11, 9, 1));
    assert_eq!(c.duplicate_effects, 0);
}

#[test]
fn action_before_inbox_acts_twice() {
    // The action commits, the worker dies before the inbox row: the redelivery's check
    // finds nothing and acts again.
    let c = run("worker-action-then-inbox").counters();
    assert_eq!((c.effects, c.duplicate_effects, c.lost), (11, 1, 0));
}

#[test]
fn external_side_effect_twice_without_key_once_with_it() {
    // The email is sent, then the worker dies before COMMIT: the inbox row rolls back,
    // the redelivery sends again — unless the service dedups on hodisa_id.
    let c = run("worker-external-effect").counters();
    assert_eq!((c.effects, c.duplicate_effects), (11, 1));
    let c = run("worker-external-idempotency-key").counters();
    assert_eq!((c.effects, c.duplicate_effects, c.deliveries), (10, 0, 11));
}

#[test]
fn queue_down_grows_attempts_then_recovers() {
    let s = preset("queue-down").unwrap();
    let mut w = World::new(&s);
    w.set_check_level(CheckLevel::Full);
    w.run(299);
    // Redis is down: nothing reached the queue, the rows wait with urinishlar > 0.
    let c = w.counters();
    assert_eq!(c.queue_jobs, 0);
    assert!(c.events_unpublished > 0);
    assert!(w.db().outbox.iter().any(|r| r.data.urinishlar > 1));
    w.run(s.max_ticks);
    let c = w.counters();
    assert_eq!(
        (c.tasks_in_db, c.queue_jobs, c.effects, c.lost),
        (10, 10, 10, 0)
    );
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

#[test]
fn two_relays_plain_for_update_wait_and_recheck() {
    // The second relay blocks on the first's rows, re-checks them after COMMIT, skips the
    // published ones: each event published once, no dedup needed.
    let w = run("two-relays-wait");
    let c = w.counters();
    assert_eq!(
        (c.queue_adds, c.queue_dedup_hits, c.queue_jobs),
        (200, 0, 200)
    );
    assert!(w.db().outbox.iter().all(|r| r.data.urinishlar == 1));
}

#[test]
fn two_relays_nowait_collide_and_retry() {
    let w = run("two-relays-nowait");
    let c = w.counters();
    assert_eq!(
        (c.queue_adds, c.queue_dedup_hits, c.queue_jobs),
        (200, 0, 200)
    );
}

#[test]
fn two_relays_without_locks_publish_twice() {
    // A plain SELECT hands both relays the same rows: every event is added twice, the
    // second add is a dedup hit, and both UPDATEs land (urinishlar = 2).
    let w = run("two-relays-no-lock");
    let c = w.counters();
    assert_eq!(c.queue_jobs, 200);
    assert!(c.queue_dedup_hits > 0);
    assert_eq!(c.queue_adds, 200 + c.queue_dedup_hits);
    let twice = w
        .db()
        .outbox
        .iter()
        .filter(|r| r.data.urinishlar == 2)
        .count() as u64;
    assert_eq!(twice, c.queue_dedup_hits);
}
