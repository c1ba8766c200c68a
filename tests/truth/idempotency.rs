//! Idempotency keys: two copies of one request race to insert the same key into
//! `sorov_kalitlari`; the app role may insert keys but not read them.

use crate::harness::{Answer, Model, Param, Twin};
use outbox_model::db::{Privilege, Role, Table};
use outbox_model::sql;

#[test]
fn two_requests_with_one_idempotency_key() {
    // The client sends the same request twice (a retry after a timeout); both reach the
    // API at once, each in its own transaction as the app role. The key's unique index
    // makes the second wait for the first; then it does nothing (first committed) or
    // inserts (first rolled back). ON CONFLICT DO NOTHING: no 23505 either way.
    let mut b = Twin::new("idempotency-key");
    b.sessions(&["api-1", "api-2"]);
    for (intent, first_ends) in [(1u32, sql::COMMIT), (2, sql::ROLLBACK)] {
        two_requests_race(&mut b, intent, first_ends);
    }
    // A later retry of either request finds its key committed: nothing, and no wait.
    for intent in [1u32, 2] {
        let step = format!("retry sorov-{intent}");
        begin_as_app(&mut b, "api-1", &step);
        let n = insert_key(
            &mut b,
            &format!("{step}: INSERT INTO sorov_kalitlari"),
            "api-1",
            intent,
        );
        assert_eq!(n, Answer::Count(0));
        b.tx(&format!("{step}: ROLLBACK"), "api-1", sql::ROLLBACK);
    }
    // The grant is INSERT alone: the app role may not read the keys.
    begin_as_app(&mut b, "api-1", "read");
    let e = b.check(
        "read: SELECT count(*) FROM sorov_kalitlari",
        |pg| pg.count("api-1", "SELECT count(*) FROM sorov_kalitlari", vec![]),
        |m| {
            let t = m.t("api-1");
            let r = m.db.probe(t, Table::SorovKalitlari, Privilege::Select);
            m.conv(r, Answer::Count)
        },
    );
    assert_eq!(e, Answer::Err("42501".into()));
    b.tx("read: ROLLBACK", "api-1", sql::ROLLBACK);
    b.check(
        "committed keys",
        |pg| Answer::Rows(vec![pg.value("SELECT count(*) FROM sorov_kalitlari")]),
        |m| {
            let keys = [1u32, 2].iter().filter(|&&i| m.db.key_committed(i)).count();
            Answer::Rows(vec![keys as i64])
        },
    );
}

/// api-1 and api-2 insert the key of request `intent`; api-1 ends with `first_ends`.
fn two_requests_race(b: &mut Twin, intent: u32, first_ends: &'static str) {
    let step = format!("sorov-{intent}");
    for w in ["api-1", "api-2"] {
        begin_as_app(b, w, &step);
    }
    let insert = format!("{step}: api-1 INSERT INTO sorov_kalitlari");
    let first = insert_key(b, &insert, "api-1", intent);
    assert_eq!(first, Answer::Count(1));
    let insert = format!("{step}: api-2 INSERT INTO sorov_kalitlari");
    let w = insert_key(b, &insert, "api-2", intent);
    assert_eq!(w, Answer::Waits(vec!["api-1".into()]));
    b.tx(&format!("{step}: api-1 {first_ends}"), "api-1", first_ends);
    let after = b.check(
        &format!("{step}: api-2 INSERT after the wait"),
        |pg| pg.finish("api-2"),
        |m| model_key(m, "api-2", intent),
    );
    assert_eq!(
        after,
        Answer::Count(if first_ends == sql::COMMIT { 0 } else { 1 })
    );
    b.tx(&format!("{step}: api-2 COMMIT"), "api-2", sql::COMMIT);
}

/// BEGIN and `SET LOCAL ROLE vazifalar_ilova`, each compared.
fn begin_as_app(b: &mut Twin, who: &str, step: &str) {
    b.tx(&format!("{step}: {who} BEGIN"), who, sql::BEGIN);
    b.check(
        &format!("{step}: {who} SET LOCAL ROLE vazifalar_ilova"),
        |pg| pg.exec(who, sql::SET_ROLE_APP),
        |m| {
            let t = m.t(who);
            let r = m.db.set_local_role(t, Role::App);
            m.conv(r, |_| Answer::Ok)
        },
    );
}

/// `INSERT INTO sorov_kalitlari … ON CONFLICT DO NOTHING` of request `intent`'s key.
fn insert_key(b: &mut Twin, step: &str, who: &str, intent: u32) -> Answer {
    b.check(
        step,
        |pg| {
            pg.count(
                who,
                sql::KEY_INSERT,
                vec![Param::T(format!("sorov-{intent}"))],
            )
        },
        |m| model_key(m, who, intent),
    )
}

fn model_key(m: &mut Model, who: &str, intent: u32) -> Answer {
    let t = m.t(who);
    let r = m.db.key_insert(t, intent, 1);
    m.conv(r, |ins| Answer::Count(ins as u64))
}
