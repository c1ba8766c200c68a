//! Lock clauses of the relay's poll: plain FOR UPDATE waits and re-checks, NOWAIT fails
//! with 55P03, no lock at all lets two relays publish the same rows, and a transaction
//! that sleeps keeps its locks and hides its uncommitted row.

use crate::harness::{limit, Answer, Twin};
use outbox_model::db::{LockMode, OutboxChange};
use outbox_model::sql;

#[test]
fn plain_for_update_waits_then_rechecks() {
    let mut b = Twin::new("two-relays-for-update");
    b.preload(200);
    b.sessions(&["relay-1", "relay-2"]);
    b.tx("relay-1 BEGIN", "relay-1", sql::BEGIN);
    let step = "relay-1 SELECT … FOR UPDATE LIMIT 100";
    let first = b.poll_rows(step, "relay-1", LockMode::Wait, 100);
    b.tx("relay-2 BEGIN", "relay-2", sql::BEGIN);
    let step = "relay-2 SELECT … FOR UPDATE LIMIT 100";
    b.poll(step, "relay-2", LockMode::Wait, 100);
    b.publish("relay-1 UPDATE … tarqatilgan_vaqt", "relay-1", &first);
    b.tx("relay-1 COMMIT", "relay-1", sql::COMMIT);
    // relay-2 wakes, re-checks rows 1–100 (now published), drops them, takes 101–200.
    let second = b.check(
        "relay-2 SELECT answers after the wait",
        |pg| pg.finish("relay-2"),
        |m| m.select("relay-2", LockMode::Wait, 100),
    );
    assert_eq!(second, Answer::Rows((101..=200).collect()));
    b.tx("relay-2 COMMIT", "relay-2", sql::COMMIT);
}

#[test]
fn nowait_fails_with_55p03() {
    let mut b = Twin::new("nowait");
    b.preload(10);
    b.sessions(&["relay-1", "relay-2"]);
    b.tx("relay-1 BEGIN", "relay-1", sql::BEGIN);
    let step = "relay-1 SELECT … NOWAIT LIMIT 5";
    b.poll(step, "relay-1", LockMode::Nowait, 5);
    b.tx("relay-2 BEGIN", "relay-2", sql::BEGIN);
    let step = "relay-2 SELECT … NOWAIT LIMIT 5";
    let e = b.poll(step, "relay-2", LockMode::Nowait, 5);
    assert_eq!(e, Answer::Err("55P03".into()));
    // The failed transaction refuses everything until ROLLBACK.
    let step = "relay-2 SELECT in the failed tx";
    b.poll(step, "relay-2", LockMode::Nowait, 5);
    b.tx("relay-2 ROLLBACK", "relay-2", sql::ROLLBACK);
    b.tx("relay-1 COMMIT", "relay-1", sql::COMMIT);
}

#[test]
fn no_lock_both_relays_publish_the_same_rows() {
    let mut b = Twin::new("no-lock");
    b.preload(10);
    b.sessions(&["relay-1", "relay-2"]);
    let mut got = Vec::new();
    for r in ["relay-1", "relay-2"] {
        b.tx(&format!("{r} BEGIN"), r, sql::BEGIN);
        let a = b.check(
            &format!("{r} SELECT (no lock) LIMIT 10"),
            |pg| pg.ids(r, sql::SELECT_BATCH_HEAD, limit(10)),
            |m| m.select(r, LockMode::None, 10),
        );
        let Answer::Rows(ids) = a else { panic!() };
        got.push(ids);
    }
    assert_eq!(got[0], got[1], "both relays hold the same rows");
    let ids = got[0].clone();
    b.publish("relay-1 UPDATE", "relay-1", &ids);
    let w = b.publish("relay-2 UPDATE (the same rows)", "relay-2", &ids);
    assert_eq!(w, Answer::Waits(vec!["relay-1".into()]));
    b.tx("relay-1 COMMIT", "relay-1", sql::COMMIT);
    b.check(
        "relay-2 UPDATE after the wait",
        |pg| pg.finish("relay-2"),
        |m| m.update("relay-2", &ids, OutboxChange::Published),
    );
    b.tx("relay-2 COMMIT", "relay-2", sql::COMMIT);
    b.check(
        "rows marked twice (urinishlar = 2)",
        |pg| Answer::Count(pg.value("SELECT count(*) FROM outbox WHERE urinishlar = 2") as u64),
        |m| {
            let twice = m.db.outbox.iter().filter(|r| r.data.urinishlar == 2);
            Answer::Count(twice.count() as u64)
        },
    );
}

/// The model side of `pg_sleep`: the Db has no such statement; the world's session is busy
/// for `PG_SLEEP_TICKS` with its transaction open, blocked by no transaction.
fn model_sleeping() -> Answer {
    Answer::Waits(vec![])
}

#[test]
fn a_slow_transaction_hides_its_row_and_keeps_its_locks() {
    let mut b = Twin::new("pg-sleep");
    b.preload(3);
    b.sessions(&["psql", "relay-1", "relay-2"]);
    // psql inserts event 4 and then sleeps inside its transaction.
    b.tx("psql BEGIN", "psql", sql::BEGIN);
    b.insert_event("psql INSERT INTO outbox (id 4)", "psql", 4);
    // relay-1 takes rows 1–3, then its publish is slow: it sleeps holding them.
    b.tx("relay-1 BEGIN", "relay-1", sql::BEGIN);
    let step = "relay-1 SELECT … SKIP LOCKED";
    let a = b.poll(step, "relay-1", LockMode::SkipLocked, 10);
    assert_eq!(a, Answer::Rows(vec![1, 2, 3]));
    for who in ["psql", "relay-1"] {
        b.check(
            &format!("{who} SELECT pg_sleep(1) (busy)"),
            |pg| pg.sleep(who, 1.0),
            |_| model_sleeping(),
        );
    }
    // relay-2 neither sees the sleeping insert nor waits for it; relay-1's rows stay
    // locked through its sleep.
    b.tx("relay-2 BEGIN", "relay-2", sql::BEGIN);
    let step = "relay-2 SELECT … SKIP LOCKED";
    let a = b.poll(step, "relay-2", LockMode::SkipLocked, 10);
    assert_eq!(a, Answer::Rows(vec![]));
    let a = b.poll("relay-2 SELECT … FOR UPDATE", "relay-2", LockMode::Wait, 10);
    assert_eq!(a, Answer::Waits(vec!["relay-1".into()]));
    the_sleepers_wake_and_commit(&mut b);
    // relay-2's FOR UPDATE re-checks 1–3 (published now, dropped). Its snapshot was
    // taken before psql committed: row 4 is not in it.
    let a = b.check(
        "relay-2 SELECT answers after the wait",
        |pg| pg.finish("relay-2"),
        |m| m.select("relay-2", LockMode::Wait, 10),
    );
    assert_eq!(a, Answer::Rows(vec![]));
    let step = "relay-2 SELECT … FOR UPDATE again";
    let a = b.poll(step, "relay-2", LockMode::Wait, 10);
    assert_eq!(a, Answer::Rows(vec![4]));
    b.tx("relay-2 ROLLBACK", "relay-2", sql::ROLLBACK);
}

/// psql's sleep ends and it commits event 4; relay-1's ends and it publishes 1–3.
fn the_sleepers_wake_and_commit(b: &mut Twin) {
    b.check(
        "psql pg_sleep answers",
        |pg| pg.finish("psql"),
        |_| Answer::Ok,
    );
    b.tx("psql COMMIT", "psql", sql::COMMIT);
    b.check(
        "relay-1 pg_sleep answers",
        |pg| pg.finish("relay-1"),
        |_| Answer::Ok,
    );
    b.publish(
        "relay-1 UPDATE … tarqatilgan_vaqt [1, 2, 3]",
        "relay-1",
        &[1, 2, 3],
    );
    b.tx("relay-1 COMMIT", "relay-1", sql::COMMIT);
}
