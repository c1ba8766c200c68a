//! Retention: the outbox's cleanup must delete only rows published long enough ago (by
//! age alone it also deletes an unpublished event), and the inbox's cleanup races with a
//! redelivery and with a second cleaner.

use crate::harness::{uuid, Answer, Model, Param, Twin, DAY};
use outbox_model::db::{Cursor, Exec, Role};
use outbox_model::ids::EventId;
use outbox_model::sql;

#[test]
fn cleanup_with_a_retention_period() {
    let mut b = Twin::new("cleanup");
    b.preload(4);
    // Row 1: published 8 days ago. Row 2: published 1 day ago. Row 3: never published,
    // created 10 days ago. Row 4: new and unpublished. Model time is in seconds here.
    let now = 100 * DAY as u64;
    let backdate: [(i64, Option<i64>); 4] = [(9, Some(8)), (2, Some(1)), (10, None), (0, None)];
    for (i, (created, published)) in backdate.iter().enumerate() {
        let id = i as i64 + 1;
        let text = match published {
            Some(p) => format!("UPDATE outbox SET yaratilgan_vaqt = now() - interval '{created} days', tarqatilgan_vaqt = now() - interval '{p} days' WHERE id = {id}"),
            None => format!("UPDATE outbox SET yaratilgan_vaqt = now() - interval '{created} days' WHERE id = {id}"),
        };
        b.pg.observer.batch_execute(&text).unwrap();
        let days = |d: i64| now - (d * DAY) as u64;
        b.m.db
            .backdate(i as u32, days(*created), published.map(days));
    }
    b.m.tick = now;
    b.sessions(&["cleaner"]);
    for (label, text, only_published) in [
        (
            "DELETE … tarqatilgan_vaqt < now() - 7 days",
            sql::CLEANUP,
            true,
        ),
        (
            "broken: DELETE … yaratilgan_vaqt < now() - 7 days",
            sql::CLEANUP_BY_AGE,
            false,
        ),
    ] {
        cleanup_and_rows_left(&mut b, now, label, text, only_published);
    }
    // The right cleanup removed only row 1; the broken one also removed row 3, an
    // unpublished event: lost.
    assert!(b.m.db.event_row(EventId(3)).unwrap().data.deleted);
    assert!(!b.m.db.event_row(EventId(4)).unwrap().data.deleted);
}

/// One committed outbox cleanup (`label`, `text`; the model deletes only published rows
/// when `only_published`), then the ids left.
fn cleanup_and_rows_left(
    b: &mut Twin,
    now: u64,
    label: &str,
    text: &'static str,
    only_published: bool,
) {
    b.tx("BEGIN", "cleaner", sql::BEGIN);
    b.check(
        label,
        |pg| pg.count("cleaner", text, vec![Param::I32(7)]),
        |m| {
            let t = m.t("cleaner");
            let mut c = Cursor::default();
            let r =
                m.db.cleanup(t, now - 7 * DAY as u64, only_published, &mut c);
            m.conv(r, Answer::Count)
        },
    );
    b.tx("COMMIT", "cleaner", sql::COMMIT);
    b.check(
        "rows left",
        |pg| Answer::Rows(pg.column("SELECT id FROM outbox ORDER BY id")),
        |m| {
            let left = (0..m.db.outbox.len())
                .filter(|&i| !m.db.outbox[i].data.deleted)
                .map(|i| i as i64 + 1);
            Answer::Rows(left.collect())
        },
    );
}

#[test]
fn inbox_cleanup_deletes_only_rows_past_the_retention() {
    // Inbox rows of events 1–4, processed 10, 8 and 1 days ago and now; retention 7 days.
    let mut b = Twin::new("inbox-cleanup");
    let now = 100 * DAY as u64;
    for (e, days) in [(1u32, 10i64), (2, 8), (3, 1), (4, 0)] {
        inbox_row_processed_days_ago(&mut b, now, e, days);
    }
    b.m.tick = now;
    b.sessions(&["cleaner", "cleaner-2", "worker"]);
    a_redelivery_waits_for_a_cleanup_that_rolls_back(&mut b, now);
    a_redelivery_and_a_second_cleaner_wait_for_a_cleanup_that_commits(&mut b, now);
    let mut left = Vec::new();
    for e in 1u32..=4 {
        let n: i64 =
            b.pg.observer
                .query_one(
                    "SELECT count(*) FROM inbox WHERE hodisa_id = $1",
                    &[&uuid(e)],
                )
                .unwrap()
                .get(0);
        if n == 1 {
            left.push(e as i64);
        }
    }
    let model_left: Vec<i64> = (1u32..=4)
        .filter(|&e| b.m.db.inbox_has(EventId(e)))
        .map(|e| e as i64)
        .collect();
    let a = b.same(
        "inbox rows left (events)",
        Answer::Rows(left),
        Answer::Rows(model_left),
    );
    assert_eq!(a, Answer::Rows(vec![1, 3, 4]));
    b.check(
        "inbox row count",
        |pg| Answer::Count(pg.value("SELECT count(*) FROM inbox") as u64),
        |m| Answer::Count(m.db.committed_inbox()),
    );
}

/// Event `e`'s inbox row, processed `days` before `now`, committed on both sides.
fn inbox_row_processed_days_ago(b: &mut Twin, now: u64, e: u32, days: i64) {
    b.pg.observer
        .execute(sql::INBOX_INSERT, &[&uuid(e)])
        .unwrap();
    b.pg.observer
        .execute(
            &format!(
                "UPDATE inbox SET ishlangan = now() - interval '{days} days' WHERE hodisa_id = $1"
            ),
            &[&uuid(e)],
        )
        .unwrap();
    let db = &mut b.m.db;
    let t = db.begin(Role::Owner, now);
    assert_eq!(
        db.inbox_insert(t, EventId(e), now - (days * DAY) as u64),
        Exec::Done(true)
    );
    db.commit(t);
}

/// `who`'s inbox cleanup (`DELETE … < now() - 7 days`) on both sides.
fn inbox_cleanup(b: &mut Twin, step: &str, who: &str) -> Answer {
    b.check(
        step,
        |pg| pg.count(who, sql::INBOX_CLEANUP, vec![Param::I32(7)]),
        |m| model_inbox_cleanup(m, who),
    )
}

fn model_inbox_cleanup(m: &mut Model, who: &str) -> Answer {
    let t = m.t(who);
    let cutoff = m.db.now(t) - 7 * DAY as u64;
    let r = m.db.inbox_cleanup(t, cutoff);
    m.conv(r, Answer::Count)
}

fn a_redelivery_waits_for_a_cleanup_that_rolls_back(b: &mut Twin, now: u64) {
    // A redelivery of event 2 meets the cleaner's uncommitted DELETE and waits; the
    // cleaner rolls back, so the dedup row stays and the insert does nothing.
    b.tx("A: cleaner BEGIN", "cleaner", sql::BEGIN);
    let n = inbox_cleanup(b, "A: cleaner DELETE … < now() - 7 days", "cleaner");
    assert_eq!(n, Answer::Count(2));
    b.tx("A: worker BEGIN", "worker", sql::BEGIN);
    let step = "A: worker INSERT INTO inbox (event 2)";
    let w = b.inbox_insert(step, "worker", 2, now);
    assert_eq!(w, Answer::Waits(vec!["cleaner".into()]));
    b.tx("A: cleaner ROLLBACK", "cleaner", sql::ROLLBACK);
    let n = b.check(
        "A: worker INSERT after the wait",
        |pg| pg.finish("worker"),
        |m| m.inbox_insert("worker", 2, now),
    );
    assert_eq!(n, Answer::Count(0));
    b.tx("A: worker COMMIT", "worker", sql::COMMIT);
}

fn a_redelivery_and_a_second_cleaner_wait_for_a_cleanup_that_commits(b: &mut Twin, now: u64) {
    // Again, committed this time: a redelivery of event 1 and a second cleaner both wait.
    b.tx("B: cleaner BEGIN", "cleaner", sql::BEGIN);
    let n = inbox_cleanup(b, "B: cleaner DELETE … < now() - 7 days", "cleaner");
    assert_eq!(n, Answer::Count(2));
    b.tx("B: worker BEGIN", "worker", sql::BEGIN);
    let step = "B: worker INSERT INTO inbox (event 1)";
    let w = b.inbox_insert(step, "worker", 1, now);
    assert_eq!(w, Answer::Waits(vec!["cleaner".into()]));
    b.tx("B: cleaner-2 BEGIN", "cleaner-2", sql::BEGIN);
    let step = "B: cleaner-2 DELETE … < now() - 7 days";
    let w = inbox_cleanup(b, step, "cleaner-2");
    assert_eq!(w, Answer::Waits(vec!["cleaner".into()]));
    b.tx("B: cleaner COMMIT", "cleaner", sql::COMMIT);
    // The dedup row of event 1 is gone: its redelivery is processed again.
    let n = b.check(
        "B: worker INSERT after the wait",
        |pg| pg.finish("worker"),
        |m| m.inbox_insert("worker", 1, now),
    );
    assert_eq!(n, Answer::Count(1));
    let n = b.check(
        "B: cleaner-2 DELETE after the wait",
        |pg| pg.finish("cleaner-2"),
        |m| model_inbox_cleanup(m, "cleaner-2"),
    );
    assert_eq!(n, Answer::Count(0));
    b.tx("B: cleaner-2 COMMIT", "cleaner-2", sql::COMMIT);
    b.tx("B: worker COMMIT", "worker", sql::COMMIT);
}
