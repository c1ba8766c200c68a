//! The database's own tests: visibility, grants, the lock clauses and waits.

use super::*;
use crate::ids::{EventId, EventKind, TxId};

fn ev(db: &mut Db, tx: TxId, n: u32) -> u64 {
    match db.insert_event(tx, EventId(n), EventKind::Created, 1, n, 0, false) {
        Exec::Done(id) => id,
        other => panic!("{other:?}"),
    }
}

#[test]
fn rollback_hides_both_rows_commit_shows_both() {
    let mut db = Db::new();
    let t = db.begin(Role::App, 1);
    assert_eq!(db.insert_task(t, 1, 0), Exec::Done(1));
    ev(&mut db, t, 1);
    db.rollback(t);
    assert_eq!((db.committed_tasks(), db.committed_events()), (0, 0));
    let t = db.begin(Role::App, 2);
    // Identity values are not given back on rollback: the next id is 2.
    assert_eq!(db.insert_task(t, 1, 0), Exec::Done(2));
    ev(&mut db, t, 2);
    db.commit(t);
    assert_eq!(
        (
            db.committed_tasks(),
            db.committed_events(),
            db.unpublished_len()
        ),
        (1, 1, 1)
    );
}

#[test]
fn app_role_may_insert_but_not_read() {
    let mut db = Db::new();
    let t = db.begin(Role::Owner, 1);
    assert_eq!(db.set_local_role(t, Role::App), Exec::Done(()));
    ev(&mut db, t, 1);
    match db.probe(t, Table::Outbox, Privilege::Select) {
        Exec::Err(e) => assert_eq!(e.code, sqlstate::INSUFFICIENT_PRIVILEGE),
        other => panic!("{other:?}"),
    }
    // The transaction is now aborted.
    assert!(
        matches!(db.insert_task(t, 1, 0), Exec::Err(e) if e.code == sqlstate::IN_FAILED_TRANSACTION)
    );
    assert!(!db.commit(t).committed);
}

#[test]
fn skip_locked_hands_out_disjoint_rows() {
    let mut db = Db::new();
    for n in 1..=5 {
        db.preload_event(EventId(n), EventKind::Created, n, 0);
    }
    let a = db.begin(Role::Owner, 1);
    let b = db.begin(Role::Owner, 1);
    let mut c = Cursor::default();
    let ra = match db.select_batch(a, LockMode::SkipLocked, 3, &mut c) {
        Exec::Done(v) => v,
        o => panic!("{o:?}"),
    };
    let rb = match db.select_batch(b, LockMode::SkipLocked, 3, &mut Cursor::default()) {
        Exec::Done(v) => v,
        o => panic!("{o:?}"),
    };
    assert_eq!(ra, vec![0, 1, 2]);
    assert_eq!(rb, vec![3, 4]);
}

#[test]
fn plain_for_update_waits_then_rechecks() {
    let mut db = Db::new();
    for n in 1..=4 {
        db.preload_event(EventId(n), EventKind::Created, n, 0);
    }
    let a = db.begin(Role::Owner, 1);
    let rows = match db.select_batch(a, LockMode::Wait, 2, &mut Cursor::default()) {
        Exec::Done(v) => v,
        o => panic!("{o:?}"),
    };
    let b = db.begin(Role::Owner, 1);
    let mut cb = Cursor::default();
    assert_eq!(
        db.select_batch(b, LockMode::Wait, 2, &mut cb),
        Exec::Blocked(a)
    );
    let mut cu = Cursor::default();
    assert_eq!(
        db.update_outbox(a, &rows, OutboxChange::Published, &mut cu),
        Exec::Done(2)
    );
    db.commit(a);
    // b re-checks rows 1 and 2 (now published), drops them and takes 3 and 4.
    assert_eq!(
        db.select_batch(b, LockMode::Wait, 2, &mut cb),
        Exec::Done(vec![2, 3])
    );
}

#[test]
fn nowait_errors_on_a_locked_row() {
    let mut db = Db::new();
    db.preload_event(EventId(1), EventKind::Created, 1, 0);
    let a = db.begin(Role::Owner, 1);
    let _ = db.select_batch(a, LockMode::SkipLocked, 10, &mut Cursor::default());
    let b = db.begin(Role::Owner, 1);
    match db.select_batch(b, LockMode::Nowait, 10, &mut Cursor::default()) {
        Exec::Err(e) => assert_eq!(e.code, sqlstate::LOCK_NOT_AVAILABLE),
        o => panic!("{o:?}"),
    }
}

#[test]
fn concurrent_inbox_insert_waits_then_does_nothing() {
    let mut db = Db::new();
    let a = db.begin(Role::Owner, 1);
    let b = db.begin(Role::Owner, 1);
    assert_eq!(db.inbox_insert(a, EventId(7), 1), Exec::Done(true));
    assert_eq!(db.inbox_insert(b, EventId(7), 1), Exec::Blocked(a));
    db.commit(a);
    assert_eq!(db.inbox_insert(b, EventId(7), 1), Exec::Done(false));
}

#[test]
fn inbox_insert_proceeds_when_the_other_rolls_back() {
    let mut db = Db::new();
    let a = db.begin(Role::Owner, 1);
    let b = db.begin(Role::Owner, 1);
    assert_eq!(db.inbox_insert(a, EventId(7), 1), Exec::Done(true));
    db.rollback(a);
    assert_eq!(db.inbox_insert(b, EventId(7), 1), Exec::Done(true));
}

#[test]
fn ids_commit_out_of_order() {
    let mut db = Db::new();
    let slow = db.begin(Role::Owner, 1);
    let fast = db.begin(Role::Owner, 1);
    assert_eq!(
        db.insert_event(slow, EventId(1), EventKind::Created, 1, 0, 0, false),
        Exec::Done(1)
    );
    assert_eq!(
        db.insert_event(fast, EventId(2), EventKind::Created, 1, 1, 0, false),
        Exec::Done(2)
    );
    db.commit(fast);
    let visible: Vec<u32> = db.unpublished_ids().collect();
    assert_eq!(visible, vec![1]); // only id 2 (index 1) is visible so far
    db.commit(slow);
    assert_eq!(db.unpublished_ids().collect::<Vec<_>>(), vec![0, 1]);
}
