//! What breaks and how it is put right: a relay killed before COMMIT (PostgreSQL rolls
//! its transaction back), and an operator who un-marks what was published since Redis
//! lost it, refused by the lock timeout while a relay holds one of those rows.

use crate::harness::{Answer, Model, Param, Twin, DAY};
use outbox_model::db::{Cursor, Exec, LockMode};
use outbox_model::sql;
use std::time::{Duration, SystemTime};

#[test]
fn relay_killed_before_commit_leaves_rows_for_the_next_poll() {
    // The relay published and marked its batch, then died before COMMIT: the connection
    // closes, PostgreSQL rolls back, the rows are unlocked and unpublished again.
    let mut b = Twin::new("kill-relay");
    b.preload(8);
    b.sessions(&["relay-1", "relay-2"]);
    b.tx("relay-1 BEGIN", "relay-1", sql::BEGIN);
    let step = "relay-1 SELECT … SKIP LOCKED LIMIT 5";
    let ids = b.poll_rows(step, "relay-1", LockMode::SkipLocked, 5);
    b.publish("relay-1 UPDATE … tarqatilgan_vaqt", "relay-1", &ids);
    b.tx("relay-2 BEGIN", "relay-2", sql::BEGIN);
    let step = "relay-2 SELECT while relay-1 holds 1–5";
    b.poll(step, "relay-2", LockMode::SkipLocked, 5);
    b.tx("relay-2 COMMIT", "relay-2", sql::COMMIT);
    b.check(
        "kill relay-1 (connection closed)",
        |pg| pg.kill("relay-1"),
        |m| m.rollback("relay-1"),
    );
    b.tx("relay-2 BEGIN", "relay-2", sql::BEGIN);
    let step = "relay-2 SELECT after the kill";
    let a = b.poll(step, "relay-2", LockMode::SkipLocked, 5);
    assert_eq!(a, Answer::Rows(ids), "the killed relay's rows come back");
    b.tx("relay-2 ROLLBACK", "relay-2", sql::ROLLBACK);
    b.check(
        "unpublished rows, urinishlar 0",
        |pg| {
            let unpublished = pg.value(
                "SELECT count(*) FROM outbox WHERE tarqatilgan_vaqt IS NULL AND urinishlar = 0",
            );
            Answer::Count(unpublished as u64)
        },
        |m| Answer::Count(m.db.unpublished_len()),
    );
}

/// The operator's lock timeout. The model's operator gives up at once on a locked row; in
/// PostgreSQL `lock_timeout = 0` means "no timeout" (it waits forever, shown below), so the
/// nearest real setting is the smallest positive one.
const SET_LOCK_TIMEOUT_1MS: &str = "SET LOCAL lock_timeout = '1ms'";
const SET_LOCK_TIMEOUT_0: &str = "SET LOCAL lock_timeout = 0";

const OP: &str = "operator";

/// The moment Redis came back empty, on each side's clock.
struct Since {
    pg: SystemTime,
    model_secs: u64,
}

impl Since {
    fn params(&self) -> Vec<Param> {
        vec![Param::Ts(self.pg)]
    }
}

#[test]
fn unpublish_since_refused_while_a_relay_holds_a_row() {
    // Redis came back empty two days ago. Row 1 was published 3 days ago, rows 2 and 3 one
    // day ago, row 4 never. The operator un-marks everything published since the crash.
    let mut b = Twin::new("unpublish-since");
    b.preload(4);
    let now = 100 * DAY as u64;
    published_days_ago(&mut b, now, [Some(3), Some(1), Some(1), None]);
    b.m.tick = now;
    let since = Since {
        pg: SystemTime::now() - Duration::from_secs(2 * DAY as u64),
        model_secs: now - 2 * DAY as u64,
    };
    b.sessions(&["relay-1", "relay-2", OP]);
    // relay-1 holds row 4 (unpublished: the operator's WHERE never matches it).
    b.tx("relay-1 BEGIN", "relay-1", sql::BEGIN);
    let step = "relay-1 SELECT … SKIP LOCKED";
    let a = b.poll(step, "relay-1", LockMode::SkipLocked, 10);
    assert_eq!(a, Answer::Rows(vec![4]));
    // relay-2 (a relay without row locks) marks row 3 again and has not committed.
    b.tx("relay-2 BEGIN", "relay-2", sql::BEGIN);
    b.publish("relay-2 UPDATE … tarqatilgan_vaqt [3]", "relay-2", &[3]);
    // The operator, with the lock timeout: refused on row 3.
    let e = operator_unmarks(&mut b, &since);
    assert_eq!(e, Answer::Err("55P03".into()));
    b.tx("operator ROLLBACK", OP, sql::ROLLBACK);
    without_a_lock_timeout_the_operator_waits(&mut b, &since);
    // Now no relay holds a published row: the operator un-marks rows 2 and 3 while
    // relay-1 still holds row 4.
    let n = operator_unmarks(&mut b, &since);
    assert_eq!(n, Answer::Count(2));
    b.tx("operator COMMIT", OP, sql::COMMIT);
    // relay-1's next poll in the same transaction sees them again, with its own row 4.
    let step = "relay-1 SELECT … SKIP LOCKED again";
    let a = b.poll(step, "relay-1", LockMode::SkipLocked, 10);
    assert_eq!(a, Answer::Rows(vec![2, 3, 4]));
    let step = "relay-1 UPDATE … tarqatilgan_vaqt [2, 3, 4]";
    b.publish(step, "relay-1", &[2, 3, 4]);
    b.tx("relay-1 COMMIT", "relay-1", sql::COMMIT);
    attempts_and_unpublished_rows(&mut b);
}

/// Marks the rows published this many days before `now` (once each), on both sides.
fn published_days_ago(b: &mut Twin, now: u64, published: [Option<i64>; 4]) {
    for (i, p) in published.iter().enumerate() {
        if let Some(p) = p {
            let id = i + 1;
            b.pg.observer
                .batch_execute(&format!("UPDATE outbox SET tarqatilgan_vaqt = now() - interval '{p} days', urinishlar = 1 WHERE id = {id}"))
                .unwrap();
            let m = &mut b.m;
            let r = &m.db.outbox[i];
            let created = r.yaratilgan_vaqt;
            m.db.backdate(i as u32, created, Some(now - (p * DAY) as u64));
            m.db.outbox[i].data.urinishlar = 1;
        }
    }
}

/// The operator's BEGIN, `lock_timeout = '1ms'` and `UPDATE … SET tarqatilgan_vaqt =
/// NULL` of everything published since the crash; returns the UPDATE's agreed answer.
fn operator_unmarks(b: &mut Twin, since: &Since) -> Answer {
    b.tx("operator BEGIN", OP, sql::BEGIN);
    b.check(
        "operator SET LOCAL lock_timeout = '1ms'",
        |pg| pg.exec(OP, SET_LOCK_TIMEOUT_1MS),
        |_| Answer::Ok,
    );
    b.check(
        "operator UPDATE … SET tarqatilgan_vaqt = NULL",
        |pg| pg.count(OP, sql::UNPUBLISH_SINCE, since.params()),
        |m| model_unmark(m, since.model_secs),
    )
}

/// The model's operator UPDATE.
fn model_unmark(m: &mut Model, since_secs: u64) -> Answer {
    let t = m.t(OP);
    let r = m.db.unpublish_since(t, since_secs, &mut Cursor::default());
    match r {
        // The world's operator gives up on the first locked row: the lock timeout.
        Exec::Blocked(h) => {
            assert_eq!(h, m.t("relay-2"), "blocked by relay-2");
            Answer::Err(outbox_model::db::sqlstate::LOCK_NOT_AVAILABLE.into())
        }
        r => m.conv(r, Answer::Count),
    }
}

/// PostgreSQL alone (the model's operator has no such setting): with `lock_timeout = 0`
/// the operator's UPDATE waits for relay-2. relay-2 then rolls back on both sides, and
/// the UPDATE, which the operator rolls back as well, took rows 2 and 3.
fn without_a_lock_timeout_the_operator_waits(b: &mut Twin, since: &Since) {
    // PostgreSQL's fact alone: a zero lock_timeout is no timeout, the UPDATE waits.
    b.pg.exec(OP, sql::BEGIN);
    b.pg.exec(OP, SET_LOCK_TIMEOUT_0);
    let a = b.pg.count(OP, sql::UNPUBLISH_SINCE, since.params());
    b.pg_only(
        "operator with lock_timeout = 0",
        &a,
        "0 disables lock_timeout: it waits",
    );
    assert_eq!(a, Answer::Waits(vec!["relay-2".into()]));
    // relay-2 gives up; the waiting UPDATE then takes rows 2 and 3 (rolled back: PG only).
    b.tx("relay-2 ROLLBACK", "relay-2", sql::ROLLBACK);
    let a = b.pg.finish(OP);
    assert_eq!(a, Answer::Count(2));
    b.pg.exec(OP, sql::ROLLBACK);
}

/// After the relay's commit: every row's attempts, and the rows left unpublished.
fn attempts_and_unpublished_rows(b: &mut Twin) {
    b.check(
        "urinishlar of rows 1–4",
        |pg| Answer::Rows(pg.column("SELECT urinishlar::bigint FROM outbox ORDER BY id")),
        |m| {
            Answer::Rows(
                m.db.outbox
                    .iter()
                    .map(|r| r.data.urinishlar as i64)
                    .collect(),
            )
        },
    );
    b.check(
        "unpublished rows",
        |pg| {
            let n = pg.value("SELECT count(*) FROM outbox WHERE tarqatilgan_vaqt IS NULL");
            Answer::Count(n as u64)
        },
        |m| Answer::Count(m.db.unpublished_len()),
    );
}
