//! Cases 2 and 3: a worker that takes a job and stops renewing its lock (killed), the
//! stalled check, maxStalledCount, and a completion that comes after the lock was lost.

use crate::harness::{job_id, Opts, Twin, LOCK_MS, STALLED_INTERVAL_MS};

/// Worker `w` takes the next job and lets its lock run out, with the stalled check
/// running as BullMQ's timer would: once while the lock still holds (it notes the job as
/// active), once after (the job has stalled). BullMQ runs the check at most once per
/// `stalledInterval` (a sooner call is a no-op), so a round starts once the last check's
/// marker has expired.
pub fn stall(d: &mut Twin, round: &str, w: u8) -> Vec<String> {
    stall_until_expired(d, round, w);
    d.stall_check(&format!("{round}: stalled check, lock ran out"))
}

/// `stall` up to the lock running out, before the check that would notice. Both waits
/// end when Redis has let the key go (`Twin::wait_gone`), not after a guessed time.
fn stall_until_expired(d: &mut Twin, round: &str, w: u8) -> Vec<String> {
    d.wait_gone(
        "the last stalled check's interval",
        "stalled-check",
        STALLED_INTERVAL_MS,
    );
    let taken = d.take(&format!("{round}: w{w} takes, then is killed"), w);
    let event: u32 = taken
        .as_deref()
        .and_then(|e| e.parse().ok())
        .unwrap_or_else(|| panic!("{round}: w{w} took no job ({taken:?})"));
    let moved = d.stall_check(&format!("{round}: stalled check, lock held"));
    d.wait_gone(
        &format!("w{w}'s lock"),
        &format!("{}:lock", job_id(event)),
        LOCK_MS,
    );
    moved
}

fn stalls_then_fails(name: &'static str, max_stalled_count: u32) {
    let opts = Opts {
        max_stalled_count,
        ..Opts::default()
    };
    let mut d = Twin::new(name, opts);
    d.add("add 1", 1);
    d.add("add 2", 2);
    for round in 1..=max_stalled_count {
        let moved = stall(&mut d, &format!("stall {round}"), 1);
        assert_eq!(moved, vec!["1".to_string()]);
        d.snapshot(&format!("stall {round}: back to wait, at the head"));
    }
    let over = format!("stall {}", max_stalled_count + 1);
    stall(&mut d, &over, 1);
    let raw = d.snapshot(&format!("{over}: past maxStalledCount"));
    d.bull_only(
        "job 1's failedReason",
        &Twin::bull_job(&raw, 1)["failedReason"],
        "",
    );
    // A worker's next fetch: job 1 is failed on pickup, the worker gets job 2.
    assert_eq!(d.take("w2 fetches", 2), Some("2".into()));
    let raw = d.snapshot("after w2's fetch");
    let job = Twin::bull_job(&raw, 1);
    d.bull_only("job 1's failedReason", &job["failedReason"], "");
    d.bull_only("job 1's attemptsMade", &job["attemptsMade"], "");
    assert_eq!(
        job["failedReason"], "job stalled more than allowable limit",
        "BullMQ's reason"
    );
}

#[test]
fn killed_worker_default_max_stalled_count() {
    stalls_then_fails("stalled-max-1", 1);
}

#[test]
fn killed_worker_raised_max_stalled_count() {
    stalls_then_fails("stalled-max-3", 3);
}

#[test]
fn late_completion_after_the_lock_was_lost() {
    let mut d = Twin::new("late-completion", Opts::default());
    d.add("add 1", 1);
    d.add("add 2", 2);
    // Lost lock, job moved back to wait: the late ack is refused.
    stall(&mut d, "w1", 1);
    d.complete("w1 completes late (job waiting)", 1);
    d.snapshot("job 1 waits for a redelivery");
    // Redelivered to w2, which completes in time.
    d.take("w2 takes (redelivery)", 2);
    d.snapshot("job 1 active with w2");
    d.complete("w2 completes in time", 2);
    // w3's lock runs out, and no stalled check has run since: the job is still active,
    // and BullMQ refuses the completion all the same.
    let moved = stall_until_expired(&mut d, "w3", 3);
    assert!(moved.is_empty());
    d.complete("w3 completes after its lock ran out", 3);
    d.snapshot("job 2 still active, its lock gone");
    d.stall_check("stalled check");
    d.snapshot("state");
}
