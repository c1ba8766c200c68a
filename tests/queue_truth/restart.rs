//! Case 5: Redis restarted. Without persistence (`--save '' --appendonly no`, the
//! lesson's Redis) every job is gone and every id is free again, although the outbox says
//! published; with `appendonly yes` the jobs survive and a republish is still a dedup hit.

use crate::harness::{job_id, Added, Opts, Persistence, RedisServer, Twin, LOCK_MS};

fn restart(name: &'static str, persistence: Persistence) {
    let mut redis = RedisServer::start(persistence);
    let mut d = Twin::on(name, &redis.url(), Opts::default());
    for e in 1..=3 {
        d.add(&format!("add {e}"), e);
    }
    d.take("w1 takes 1", 1);
    d.complete("w1 completes 1", 1);
    d.take("w2 takes 2, then is killed", 2);
    d.stall_check("stalled check, lock held");
    d.snapshot("before the restart");
    redis.restart();
    let lost = d.m.restart(persistence);
    d.bull_only(
        "the model's lost events",
        &lost,
        "BullMQ's are the jobs the snapshot no longer shows",
    );
    d.snapshot("after the restart");
    // With appendonly the dead worker's lock still runs out, and the job stalls (without,
    // the lock went with everything else).
    d.wait_gone("w2's lock", &format!("{}:lock", job_id(2)), LOCK_MS);
    d.stall_check("stalled check, lock ran out");
    let again = d.add("republish of 1", 1);
    let expected = match persistence {
        Persistence::Off => Added::Created("1".into()),
        Persistence::AppendOnly => Added::Existing("1".into()),
    };
    assert_eq!(again, expected);
    d.snapshot("state");
}

#[test]
fn restart_without_persistence_loses_every_job() {
    restart("restart-no-persistence", Persistence::Off);
}

#[test]
fn restart_with_appendonly_keeps_the_jobs() {
    restart("restart-appendonly", Persistence::AppendOnly);
}
