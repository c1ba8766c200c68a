//! Identity values: what ROLLBACK does to them, and why a relay that remembers the
//! highest id it has seen (a high-water mark) loses an event that commits late.

use crate::harness::{limit, Answer, Model, Param, Twin, S};
use outbox_model::db::LockMode;
use outbox_model::sql;

#[test]
fn rollback_then_commit_of_task_and_event() {
    let mut b = Twin::new("rollback-commit");
    b.sessions(&[S]);
    for (round, end) in [(1u32, sql::ROLLBACK), (2, sql::COMMIT)] {
        b.tx("BEGIN", S, sql::BEGIN);
        b.check(
            "INSERT INTO vazifalar",
            |pg| {
                let task = vec![Param::I(1), Param::T("Hisobot tayyorlash".into())];
                pg.count(S, sql::INSERT_TASK, task)
            },
            |m| m.insert_task(S),
        );
        b.insert_event("INSERT INTO outbox", S, round);
        b.tx(end, S, end);
        b.check(
            &format!("after {end}: tasks, events"),
            |pg| {
                Answer::Rows(vec![
                    pg.value("SELECT count(*) FROM vazifalar"),
                    pg.value("SELECT count(*) FROM outbox"),
                ])
            },
            |m| {
                Answer::Rows(vec![
                    m.db.committed_tasks() as i64,
                    m.db.committed_events() as i64,
                ])
            },
        );
    }
    // Identity values are not handed back by ROLLBACK: the committed task has id 2.
    b.check(
        "ids of the committed rows",
        |pg| {
            Answer::Rows(vec![
                pg.value("SELECT max(id) FROM vazifalar"),
                pg.value("SELECT max(id) FROM outbox"),
            ])
        },
        |m| Answer::Rows(vec![m.db.tasks.len() as i64, m.db.outbox.len() as i64]),
    );
    b.check(
        "the event waits, urinishlar 0",
        |pg| {
            let waiting = pg.value(
                "SELECT count(*) FROM outbox WHERE tarqatilgan_vaqt IS NULL AND urinishlar = 0",
            );
            Answer::Count(waiting as u64)
        },
        |m| Answer::Count(m.db.unpublished_len()),
    );
}

#[test]
fn identity_commits_out_of_order_and_a_high_water_mark_misses_one() {
    let mut b = Twin::new("high-water-mark");
    b.sessions(&["slow", "fast", "relay"]);
    b.tx("slow BEGIN", "slow", sql::BEGIN);
    b.tx("fast BEGIN", "fast", sql::BEGIN);
    b.insert_event("slow INSERT (takes id 1)", "slow", 1);
    b.insert_event("fast INSERT (takes id 2)", "fast", 2);
    b.tx("fast COMMIT", "fast", sql::COMMIT);
    let a = poll_after(&mut b, "relay: WHERE id > 0", 0);
    assert_eq!(a, Answer::Rows(vec![2]));
    b.tx("slow COMMIT (id 1, below the mark)", "slow", sql::COMMIT);
    let a = poll_after(&mut b, "relay: WHERE id > 2", 2);
    assert_eq!(a, Answer::Rows(vec![]), "event 1 is never seen: lost");
    // The lesson's poll cannot skip it.
    let a = b.check(
        "relay: WHERE tarqatilgan_vaqt IS NULL",
        |pg| pg.ids("relay", sql::SELECT_BATCH_HEAD, limit(100)),
        |m| {
            m.begin("relay");
            let rows = m.select("relay", LockMode::None, 100);
            m.commit("relay");
            rows
        },
    );
    assert_eq!(a, Answer::Rows(vec![1, 2]));
}

/// The high-water-mark relay's poll (`WHERE id > last`), in a transaction of its own.
fn poll_after(b: &mut Twin, step: &str, last: i64) -> Answer {
    b.check(
        step,
        |pg| {
            let p = vec![Param::I(last), Param::I(100)];
            pg.ids("relay", sql::SELECT_AFTER, p)
        },
        |m| {
            m.begin("relay");
            let t = m.t("relay");
            let r = m.db.select_after(t, last as u64, 100);
            let a = m.conv(r, Model::ids);
            m.commit("relay");
            a
        },
    )
}
