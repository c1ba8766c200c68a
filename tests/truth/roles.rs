//! Roles: the app role (`vazifalar_ilova`) may INSERT into the outbox and nothing else;
//! `RETURNING hodisa_id` needs SELECT on that column; a serial column (unlike the
//! identity column) would need a grant on its sequence.

use crate::harness::{Answer, Model, Param, Pg, Twin, S};
use outbox_model::db::{LockMode, Privilege, Role, Table};
use outbox_model::ids::{EventId, EventKind};
use outbox_model::sql;

#[test]
fn insert_only_app_role() {
    let mut b = Twin::new("app-role");
    b.sessions(&[S]);
    let probes: [(&str, &'static str, Table, Privilege); 3] = [
        (
            "SELECT count(*) FROM outbox",
            sql::COUNT_OUTBOX,
            Table::Outbox,
            Privilege::Select,
        ),
        (
            "UPDATE outbox SET tarqatilgan_vaqt",
            sql::UPDATE_ALL_PUBLISHED,
            Table::Outbox,
            Privilege::Update,
        ),
        (
            "DELETE FROM outbox",
            sql::DELETE_ALL,
            Table::Outbox,
            Privilege::Delete,
        ),
    ];
    for (label, text, table, p) in probes {
        begin_as_app(&mut b);
        b.insert_event("INSERT INTO outbox as the app", S, 1);
        let e = b.check(
            label,
            |pg| pg.count(S, text, vec![]),
            |m| {
                let t = m.t(S);
                let r = m.db.probe(t, table, p);
                m.conv(r, Answer::Count)
            },
        );
        assert_eq!(e, Answer::Err("42501".into()));
        b.tx("ROLLBACK", S, sql::ROLLBACK);
    }
    // What RETURNING hodisa_id needs: SELECT on that column.
    begin_as_app(&mut b);
    let e = b.check("INSERT … RETURNING hodisa_id", returning, model_returning);
    assert_eq!(e, Answer::Err("42501".into()));
    b.tx("ROLLBACK", S, sql::ROLLBACK);
    a_rolled_back_grant_grants_nothing(&mut b);
    b.pg.observer.batch_execute(sql::GRANT_RETURNING).unwrap();
    b.m.db.app_can_read_hodisa_id = true;
    begin_as_app(&mut b);
    let step = "after GRANT SELECT (hodisa_id): RETURNING";
    b.check(step, returning, model_returning);
    b.tx("ROLLBACK", S, sql::ROLLBACK);
    what_the_column_grant_also_allows(&mut b);
    a_serial_column_needs_a_sequence_grant(&mut b);
}

/// BEGIN; GRANT …; ROLLBACK: PostgreSQL's GRANT is transactional, and so is the model's
/// (`ScriptStmt::GrantReturning` takes effect at COMMIT).
fn a_rolled_back_grant_grants_nothing(b: &mut Twin) {
    b.tx("BEGIN", S, sql::BEGIN);
    b.check(
        "GRANT SELECT (hodisa_id) as the owner, in a transaction",
        |pg| pg.exec(S, sql::GRANT_RETURNING),
        |m| {
            let t = m.t(S);
            let r = m.db.grant_returning(t);
            m.conv(r, |_| Answer::Ok)
        },
    );
    b.tx("ROLLBACK", S, sql::ROLLBACK);
    begin_as_app(b);
    let e = b.check(
        "after the rolled-back grant: SELECT hodisa_id FROM outbox",
        |pg| pg.rows(S, sql::SELECT_EVENT_IDS),
        |m| model_probe(m, Privilege::SelectHodisaId, Answer::Count),
    );
    assert_eq!(e, Answer::Err("42501".into()));
    b.tx("ROLLBACK", S, sql::ROLLBACK);
}

/// #20 (audit item 1): SELECT on one column is enough for `count(*)` and for reading that
/// column of every row; the relay's poll (other columns, FOR UPDATE) and UPDATE stay refused.
fn what_the_column_grant_also_allows(b: &mut Twin) {
    begin_as_app(b);
    b.insert_event("INSERT INTO outbox as the app (granted)", S, 2);
    let n = b.check(
        "after the grant: SELECT count(*) FROM outbox",
        |pg| pg.ids(S, sql::COUNT_OUTBOX, vec![]),
        |m| {
            model_probe(m, Privilege::SelectHodisaId, |n| {
                Answer::Rows(vec![n as i64])
            })
        },
    );
    assert_eq!(
        n,
        Answer::Rows(vec![1]),
        "the row this transaction inserted"
    );
    let ids = b.check(
        "after the grant: SELECT hodisa_id FROM outbox",
        |pg| pg.rows(S, sql::SELECT_EVENT_IDS),
        |m| model_probe(m, Privilege::SelectHodisaId, Answer::Count),
    );
    assert_eq!(ids, Answer::Count(1));
    let e = b.check(
        "after the grant: UPDATE outbox is still refused",
        |pg| pg.count(S, sql::UPDATE_ALL_PUBLISHED, vec![]),
        |m| model_probe(m, Privilege::Update, Answer::Count),
    );
    assert_eq!(e, Answer::Err("42501".into()));
    b.tx("ROLLBACK", S, sql::ROLLBACK);
    begin_as_app(b);
    let e = b.poll(
        "after the grant: the relay's poll as the app is still refused",
        S,
        LockMode::SkipLocked,
        10,
    );
    assert_eq!(e, Answer::Err("42501".into()));
    b.tx("ROLLBACK", S, sql::ROLLBACK);
}

/// The model's probe of the outbox with privilege `p` in session S, as an answer.
fn model_probe(m: &mut Model, p: Privilege, answer: impl FnOnce(u64) -> Answer) -> Answer {
    let t = m.t(S);
    let r = m.db.probe(t, Table::Outbox, p);
    m.conv(r, answer)
}

/// BEGIN, then `SET LOCAL ROLE vazifalar_ilova`, compared as one step: PostgreSQL's BEGIN
/// is not compared on its own, the model begins inside the role step.
fn begin_as_app(b: &mut Twin) {
    b.pg.exec(S, sql::BEGIN);
    b.check(
        "SET LOCAL ROLE vazifalar_ilova",
        |pg| pg.exec(S, sql::SET_ROLE_APP),
        |m| {
            m.begin(S);
            let t = m.t(S);
            m.db.set_local_role(t, Role::App);
            Answer::Ok
        },
    );
}

/// `INSERT … RETURNING hodisa_id` on PostgreSQL: the rows returned.
fn returning(pg: &mut Pg) -> Answer {
    let p = vec![
        Param::T("vazifa.bajarildi".into()),
        Param::I(1),
        Param::J(serde_json::json!({})),
    ];
    pg.returning(S, p)
}

/// The model's `INSERT … RETURNING hodisa_id`.
fn model_returning(m: &mut Model) -> Answer {
    let t = m.t(S);
    let r =
        m.db.insert_event(t, EventId(9), EventKind::Completed, 1, 0, 0, true);
    m.conv(r, |_| Answer::Count(1))
}

fn a_serial_column_needs_a_sequence_grant(b: &mut Twin) {
    // The identity column needed no sequence grant (every INSERT above worked); a serial
    // column does. This is PostgreSQL's fact alone: the model has no serial columns.
    b.pg.observer
        .batch_execute("CREATE TABLE serial_demo (id serial PRIMARY KEY, x int); GRANT INSERT ON serial_demo TO vazifalar_ilova")
        .unwrap();
    b.pg.exec(S, sql::BEGIN);
    b.pg.exec(S, sql::SET_ROLE_APP);
    let a =
        b.pg.count(S, "INSERT INTO serial_demo (x) VALUES (1)", vec![]);
    b.pg_only(
        "INSERT into a serial table as the app",
        &a,
        "a serial column needs USAGE on its sequence",
    );
    assert_eq!(a, Answer::Err("42501".into()));
    b.pg.exec(S, sql::ROLLBACK);
}
