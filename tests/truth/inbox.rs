//! The inbox: two workers handle the same event at once. The unique hodisa_id makes the
//! second INSERT wait for the first; then it does nothing (the first committed) or
//! inserts (the first rolled back).

use crate::harness::{Answer, Twin};
use outbox_model::sql;

#[test]
fn two_deliveries_to_the_inbox() {
    let mut b = Twin::new("inbox");
    b.sessions(&["worker-1", "worker-2"]);
    for (event, first_ends) in [(1u32, sql::COMMIT), (2, sql::ROLLBACK)] {
        two_workers_insert(&mut b, event, first_ends);
    }
}

/// The two workers insert event `event`'s inbox row; worker-1 ends with `first_ends`.
fn two_workers_insert(b: &mut Twin, event: u32, first_ends: &'static str) {
    for w in ["worker-1", "worker-2"] {
        b.tx(&format!("h-{event}: {w} BEGIN"), w, sql::BEGIN);
    }
    let step = format!("h-{event}: worker-1 INSERT INTO inbox");
    b.inbox_insert(&step, "worker-1", event, 1);
    let step = format!("h-{event}: worker-2 INSERT INTO inbox");
    let w = b.inbox_insert(&step, "worker-2", event, 1);
    assert_eq!(w, Answer::Waits(vec!["worker-1".into()]));
    b.tx(
        &format!("h-{event}: worker-1 {first_ends}"),
        "worker-1",
        first_ends,
    );
    let after = b.check(
        &format!("h-{event}: worker-2 INSERT after the wait"),
        |pg| pg.finish("worker-2"),
        |m| m.inbox_insert("worker-2", event, 1),
    );
    // Committed first: the second does nothing. Rolled back first: the second inserts.
    assert_eq!(
        after,
        Answer::Count(if first_ends == sql::COMMIT { 0 } else { 1 })
    );
    b.tx(
        &format!("h-{event}: worker-2 COMMIT"),
        "worker-2",
        sql::COMMIT,
    );
}
