//! Case 1: `add` with a jobId that exists is ignored in every state; removeOnComplete and
//! removeOnFail free the id, at once (`true`) or once newer jobs push it out (a count).

use crate::harness::{Added, Opts, Twin};
use serde_json::json;

fn created(e: u32) -> Added {
    Added::Created(e.to_string())
}
fn existing(e: u32) -> Added {
    Added::Existing(e.to_string())
}

#[test]
fn job_id_is_kept_in_every_state() {
    let mut d = Twin::new("dedup-every-state", Opts::default());
    assert_eq!(d.add("add 1", 1), created(1));
    assert_eq!(d.add("add 1 again (waiting)", 1), existing(1));
    assert_eq!(d.take("w1 takes", 1), Some("1".into()));
    assert_eq!(d.add("add 1 again (active)", 1), existing(1));
    assert_eq!(d.complete("w1 completes", 1), None);
    assert_eq!(d.add("add 1 again (completed)", 1), existing(1));
    assert_eq!(d.add("add 2", 2), created(2));
    d.take("w1 takes", 1);
    assert_eq!(d.fail("w1's processor throws", 1), None);
    assert_eq!(d.add("add 2 again (failed)", 2), existing(2));
    d.snapshot("state");
    let v = d.bull.call(
        "add",
        "dedup-every-state",
        json!({ "jobId": "7", "event": 7 }),
    );
    d.bull_only(
        "add with jobId \"7\"",
        &v["refused"],
        "why the jobIds here are uuids, as hodisa_id is",
    );
}

#[test]
fn remove_on_complete_frees_the_id() {
    let opts = Opts {
        remove_on_complete: true,
        ..Opts::default()
    };
    let mut d = Twin::new("dedup-remove-on-complete", opts);
    assert_eq!(d.add("add 1", 1), created(1));
    d.take("w1 takes", 1);
    d.complete("w1 completes", 1);
    d.snapshot("after complete (removed)");
    assert_eq!(d.add("late republish of 1", 1), created(1));
    d.snapshot("state");
}

#[test]
fn remove_on_fail_frees_the_id() {
    let opts = Opts {
        remove_on_fail: true,
        ..Opts::default()
    };
    let mut d = Twin::new("dedup-remove-on-fail", opts);
    assert_eq!(d.add("add 1", 1), created(1));
    d.take("w1 takes", 1);
    d.fail("w1's processor throws", 1);
    d.snapshot("after fail (removed)");
    assert_eq!(d.add("republish of 1", 1), created(1));
    d.snapshot("state");
}

/// Finishes jobs 1..=n one by one with worker 1 (completes, or fails), a few ms apart:
/// BullMQ orders finished jobs by their finish time in ms (ties by id).
fn finish_each(d: &mut Twin, n: u32, complete: bool) {
    for e in 1..=n {
        d.add(&format!("add {e}"), e);
        d.take(&format!("w1 takes {e}"), 1);
        if complete {
            d.complete(&format!("w1 completes {e}"), 1);
        } else {
            d.fail(&format!("w1's processor throws on {e}"), 1);
        }
        d.sleep(5);
    }
}

#[test]
fn remove_on_complete_count_keeps_the_newest() {
    let opts = Opts {
        keep_completed: Some(2),
        ..Opts::default()
    };
    let mut d = Twin::new("dedup-keep-2-completed", opts);
    finish_each(&mut d, 3, true);
    d.snapshot("removeOnComplete: 2, three completed");
    assert_eq!(d.add("republish of 1 (pushed out)", 1), created(1));
    assert_eq!(d.add("republish of 2 (kept)", 2), existing(2));
    d.snapshot("state");
}

#[test]
fn remove_on_fail_count_keeps_the_newest() {
    let opts = Opts {
        keep_failed: Some(1),
        ..Opts::default()
    };
    let mut d = Twin::new("dedup-keep-1-failed", opts);
    finish_each(&mut d, 2, false);
    d.snapshot("removeOnFail: 1, two failed");
    assert_eq!(d.add("republish of 1 (pushed out)", 1), created(1));
    assert_eq!(d.add("republish of 2 (kept)", 2), existing(2));
    d.snapshot("state");
}
