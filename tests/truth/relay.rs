//! The relay on real rows: the lesson's exercise with a failing event, two relays with
//! SKIP LOCKED sharing 200 events, and the move of a row that keeps failing to the
//! dead-letter table.

use crate::harness::{uuid, Answer, Param, Twin};
use outbox_model::db::{Cursor, LockMode};
use outbox_model::ids::EventId;
use outbox_model::sql;

#[test]
fn exercise_2_relay_with_one_failing_event() {
    // Lesson §9 exercise 2 on real rows: five events, publishing event 3 fails once.
    let mut b = Twin::new("exercise-2");
    b.preload(5);
    b.sessions(&["relay"]);
    let mut failed_once = false;
    let mut order = Vec::new();
    let mut polls = Vec::new();
    for round in 1..=3 {
        b.tx(&format!("poll {round}: BEGIN"), "relay", sql::BEGIN);
        let step = format!("poll {round}: SELECT … SKIP LOCKED");
        let ids = b.poll_rows(&step, "relay", LockMode::SkipLocked, 100);
        let (mut ok, mut bad) = (Vec::new(), Vec::new());
        for id in ids {
            if id == 3 && !failed_once {
                failed_once = true;
                bad.push(id);
            } else {
                order.push(id);
                ok.push(id);
            }
        }
        if !ok.is_empty() {
            let step = format!("poll {round}: UPDATE … tarqatilgan_vaqt");
            b.publish(&step, "relay", &ok);
        }
        if !bad.is_empty() {
            b.fail(&format!("poll {round}: UPDATE … urinishlar"), "relay", &bad);
        }
        b.tx(&format!("poll {round}: COMMIT"), "relay", sql::COMMIT);
        polls.push((ok.len(), bad.len()));
    }
    // The lesson's expected output.
    assert_eq!(polls, vec![(4, 1), (1, 0), (0, 0)]);
    assert_eq!(order, vec![1, 2, 4, 5, 3]);
    let attempts =
        b.pg.value("SELECT urinishlar::bigint FROM outbox WHERE id = 3");
    let model = b.m.db.event_row(EventId(3)).unwrap().data.urinishlar as i64;
    b.same(
        "urinishlar of event 3",
        Answer::Rows(vec![attempts]),
        Answer::Rows(vec![model]),
    );
    assert_eq!(attempts, 2);
}

#[test]
fn two_relays_skip_locked_over_200_events() {
    // Lesson §4.1: 200 events, two relays in parallel, each published exactly once.
    let mut b = Twin::new("two-relays-skip-locked");
    b.preload(200);
    b.sessions(&["relay-1", "relay-2"]);
    let mut published = Vec::new();
    for round in 1..=4 {
        // The two hold their batches at once: the second skips what the first locked.
        let mut batches = Vec::new();
        for r in ["relay-1", "relay-2"] {
            b.tx(&format!("{round}: {r} BEGIN"), r, sql::BEGIN);
            let step = format!("{round}: {r} SELECT … SKIP LOCKED LIMIT 30");
            let ids = b.poll_rows(&step, r, LockMode::SkipLocked, 30);
            batches.push((r, ids));
        }
        for (r, ids) in batches {
            published.extend(ids.iter().copied());
            b.publish(&format!("{round}: {r} UPDATE"), r, &ids);
            b.tx(&format!("{round}: {r} COMMIT"), r, sql::COMMIT);
        }
    }
    // Then each relay drains the rest with full batches.
    for r in ["relay-1", "relay-2", "relay-1"] {
        b.tx(&format!("drain: {r} BEGIN"), r, sql::BEGIN);
        let step = format!("drain: {r} SELECT LIMIT 100");
        let ids = b.poll_rows(&step, r, LockMode::SkipLocked, 100);
        published.extend(ids.iter().copied());
        if !ids.is_empty() {
            b.publish(&format!("drain: {r} UPDATE"), r, &ids);
        }
        b.tx(&format!("drain: {r} COMMIT"), r, sql::COMMIT);
    }
    published.sort_unstable();
    assert_eq!(
        published,
        (1..=200).collect::<Vec<i64>>(),
        "each event exactly once"
    );
    b.check(
        "rows published exactly once",
        |pg| {
            let once = pg.value(
                "SELECT count(*) FROM outbox WHERE urinishlar = 1 AND tarqatilgan_vaqt IS NOT NULL",
            );
            Answer::Count(once as u64)
        },
        |m| Answer::Count(200 - m.db.unpublished_len()),
    );
}

/// The dead-letter move's threshold: a row goes to `outbox_olik` after this many attempts.
const AFTER: i32 = 3;

#[test]
fn dead_letter_after_three_attempts_moves_only_that_row() {
    // Publishing event 2 always fails; event 6 (added later) fails twice. With the move
    // after 3 attempts, round 3 moves row 2 (3 attempts) but not row 6 (2 attempts): the
    // next poll skips 2, gets 6, and the order flows on.
    let mut b = Twin::new("dead-letter");
    b.preload(5);
    b.sessions(&["relay"]);
    let mut fails_of_6 = 0;
    for round in 1..=5 {
        if round == 2 {
            b.pg.preload_event(6);
            b.m.preload_event(6);
        }
        dead_letter_round(&mut b, round, &mut fails_of_6);
    }
    // outbox_olik holds exactly row 2, with its id, hodisa_id and 3 attempts.
    b.check(
        "outbox_olik ids",
        |pg| Answer::Rows(pg.column("SELECT id FROM outbox_olik ORDER BY id")),
        |m| {
            let olik = (0..m.db.outbox.len())
                .filter(|&i| m.db.outbox[i].data.dead_letter)
                .map(|i| i as i64 + 1);
            Answer::Rows(olik.collect())
        },
    );
    b.check(
        "outbox_olik: event 2, urinishlar 3",
        |pg| {
            let moved = pg
                .observer
                .query_one(
                    "SELECT count(*) FROM outbox_olik WHERE hodisa_id = $1 AND urinishlar = 3",
                    &[&uuid(2)],
                )
                .unwrap()
                .get::<_, i64>(0);
            Answer::Count(moved as u64)
        },
        |m| {
            let row2 = m.db.event_row(EventId(2)).unwrap().data;
            Answer::Count((row2.dead_letter && row2.urinishlar == 3) as u64)
        },
    );
    what_the_outbox_keeps(&mut b);
}

/// One poll of the dead-letter scenario: publish, count the failures, move what failed
/// `AFTER` times.
fn dead_letter_round(b: &mut Twin, round: i32, fails_of_6: &mut i32) {
    let r = "relay";
    b.tx(&format!("{round}: BEGIN"), r, sql::BEGIN);
    let step = format!("{round}: SELECT … SKIP LOCKED");
    let ids = b.poll_rows(&step, r, LockMode::SkipLocked, 100);
    let expected: &[i64] = match round {
        1 => &[1, 2, 3, 4, 5],
        2 | 3 => &[2, 6],
        4 => &[6],
        _ => &[],
    };
    assert_eq!(ids, expected, "round {round}");
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    for id in ids {
        if id == 2 || (id == 6 && *fails_of_6 < 2) {
            *fails_of_6 += (id == 6) as i32;
            bad.push(id);
        } else {
            ok.push(id);
        }
    }
    if !ok.is_empty() {
        b.publish(
            &format!("{round}: UPDATE … tarqatilgan_vaqt {ok:?}"),
            r,
            &ok,
        );
    }
    if !bad.is_empty() {
        b.fail(&format!("{round}: UPDATE … urinishlar {bad:?}"), r, &bad);
        // The move sees this transaction's own urinishlar + 1.
        let moved = b.check(
            &format!("{round}: WITH olik AS (DELETE …) INSERT {bad:?}"),
            |pg| {
                let p = vec![Param::A(bad.clone()), Param::I32(AFTER)];
                pg.count(r, sql::DEAD_LETTER, p)
            },
            |m| {
                let t = m.t(r);
                let rows: Vec<u32> = bad.iter().map(|&i| (i - 1) as u32).collect();
                let res =
                    m.db.dead_letter(t, &rows, AFTER as u32, &mut Cursor::default());
                m.conv(res, Answer::Count)
            },
        );
        assert_eq!(moved, Answer::Count((round == 3) as u64), "round {round}");
    }
    b.tx(&format!("{round}: COMMIT"), r, sql::COMMIT);
}

/// After the moves: the rows the outbox keeps, and event 6's attempts.
fn what_the_outbox_keeps(b: &mut Twin) {
    b.check(
        "outbox rows left, of them unpublished",
        |pg| {
            Answer::Rows(vec![
                pg.value("SELECT count(*) FROM outbox"),
                pg.value("SELECT count(*) FROM outbox WHERE tarqatilgan_vaqt IS NULL"),
            ])
        },
        |m| {
            Answer::Rows(vec![
                m.db.committed_events() as i64,
                m.db.unpublished_len() as i64,
            ])
        },
    );
    assert_eq!(b.m.db.dead_letters(), 1);
    b.check(
        "urinishlar of event 6 (2 fails, 1 publish)",
        |pg| {
            Answer::Rows(vec![
                pg.value("SELECT urinishlar::bigint FROM outbox WHERE id = 6")
            ])
        },
        |m| {
            Answer::Rows(vec![
                m.db.event_row(EventId(6)).unwrap().data.urinishlar as i64,
            ])
        },
    );
}
