//! Case 6: order. Waiting jobs go to workers first in, first out; a stalled job goes back
//! to the head of the line. The model has no `priority` and no `delay` (its README says
//! so): what they would change is asserted of BullMQ alone.

use crate::harness::{event_of, job_id, Opts, Twin};
use serde_json::json;

#[test]
fn waiting_jobs_are_fifo() {
    let mut d = Twin::new("order-fifo", Opts::default());
    for e in [3, 1, 2] {
        d.add(&format!("add {e}"), e);
    }
    d.snapshot("three waiting");
    assert_eq!(d.take("w1 takes", 1), Some("3".into()));
    d.add("add 4", 4);
    d.snapshot("state");
    d.take("w2 takes", 2);
    d.take("w3 takes", 3);
    d.take("w4 takes", 4);
    d.take("w5 takes (nothing left)", 5);
}

#[test]
fn priority_and_delay_in_bullmq_alone() {
    let q = "order-priority-delay";
    let mut d = Twin::new(q, Opts::default());
    d.bull
        .call("add", q, json!({ "jobId": job_id(1), "event": 1 }));
    d.bull.call(
        "add",
        q,
        json!({ "jobId": job_id(2), "event": 2, "priority": 5 }),
    );
    d.bull.call(
        "add",
        q,
        json!({ "jobId": job_id(3), "event": 3, "priority": 1 }),
    );
    d.bull.call(
        "add",
        q,
        json!({ "jobId": job_id(4), "event": 4, "delay": 60_000 }),
    );
    d.bull
        .call("add", q, json!({ "jobId": job_id(5), "event": 5 }));
    let (snap, _) = d.bull_snapshot();
    d.bull_only(
        "1, 2 (priority 5), 3 (priority 1), 4 (delay), 5",
        &snap.to_string(),
        "",
    );
    let mut got = Vec::new();
    for w in 1..=5 {
        let v = d.bull.call("take", q, json!({ "token": format!("w{w}") }));
        got.push(v["job"].as_str().map_or("-".into(), event_of));
    }
    d.bull_only(
        "five fetches get",
        &got,
        "the model has no priority or delay",
    );
    // What the model leaves out, pinned: the plain jobs first in, first out; then the
    // prioritized ones, the lower number first; the delayed job not before its delay.
    assert_eq!(
        got,
        ["1", "5", "3", "2", "-"],
        "BullMQ's order with priorities and a delay"
    );
}
