//! Case 7: `job.retry()` (BullMQ 6.3.16, default options) on a job BullMQ failed because
//! its worker was killed twice (stalled more than `maxStalledCount` = 1 times): the job
//! goes back to wait, keeps its stall count and attempts, and completes once; retried
//! again once completed, it is refused. With `removeOnFail` the failed job is deleted and
//! a retry finds no job. These are what the model's `Action::RetryJob` rests on (#41:
//! a failed job waits for a retry, it is not lost).

use crate::harness::{Opts, Twin};
use crate::stalled::stall;

/// Job 1 stalls twice (worker killed twice) and is failed at w2's fetch, which gets job 2
/// and completes it in time.
fn fail_job_1_by_stalling(d: &mut Twin) {
    d.add("add 1", 1);
    d.add("add 2", 2);
    for round in 1..=2 {
        let moved = stall(d, &format!("stall {round}"), 1);
        assert_eq!(moved, vec!["1".to_string()], "stall {round}");
    }
    assert_eq!(d.take("w2 fetches: fails 1, gets 2", 2), Some("2".into()));
    assert_eq!(d.complete("w2 completes 2 in time", 2), None);
}

#[test]
fn a_job_failed_by_stalling_retried_completes_once() {
    let mut d = Twin::new("retry-after-stalls", Opts::default());
    fail_job_1_by_stalling(&mut d);
    d.snapshot("job 1 failed, job 2 completed");
    assert_eq!(d.retry("retry job 1", 1), None);
    let raw = d.snapshot("job 1 back in wait, its stall count kept");
    let job = Twin::bull_job(&raw, 1);
    d.bull_only(
        "job 1's failedReason after retry",
        &job["failedReason"],
        "cleared",
    );
    assert_eq!(job["stalledCounter"], 2, "reprocessJob keeps stc");
    assert_eq!(d.take("w3 takes job 1", 3), Some("1".into()));
    assert_eq!(d.complete("w3 completes job 1 in time", 3), None);
    let raw = d.snapshot("both completed");
    assert_eq!(raw["counts"]["completed"], 2);
    // Completed now: a second retry is refused (not in the failed set).
    let said = d.retry("retry job 1 again (completed)", 1);
    assert!(said.is_some(), "BullMQ refuses a retry of a completed job");
    d.snapshot("nothing moved");
}

#[test]
fn a_retry_after_remove_on_fail_finds_no_job() {
    let opts = Opts {
        remove_on_fail: true,
        ..Opts::default()
    };
    let mut d = Twin::new("retry-removed", opts);
    fail_job_1_by_stalling(&mut d);
    d.snapshot("job 1 failed and deleted");
    let said = d.retry("retry job 1 (deleted)", 1);
    assert!(said.is_some(), "BullMQ refuses: no job");
    d.snapshot("still no job 1");
}

#[test]
fn a_retried_job_that_stalls_again_fails_at_once() {
    let mut d = Twin::new("retry-stalls-again", Opts::default());
    fail_job_1_by_stalling(&mut d);
    assert_eq!(d.retry("retry job 1", 1), None);
    // Its stall count (2) is kept: one more stall is past maxStalledCount at once.
    let moved = stall(&mut d, "stall 3", 3);
    assert_eq!(moved, vec!["1".to_string()]);
    d.snapshot("job 1 waits with a deferred failure");
    assert_eq!(d.take("w4 fetches: fails 1", 4), None);
    d.snapshot("job 1 failed again");
}
