//! Why SKIP LOCKED (#43): with plain FOR UPDATE the two relays end with the same counts
//! as with SKIP LOCKED (200 published, 200 jobs), so the page also shows what differs:
//! the ticks each relay waited on a row lock, and the events published per 100 ticks.
//! The counts only watch: the runs are the same as before they were counted.

use outbox_model::world::CheckLevel;
use outbox_model::{preset, World};

fn run(name: &str) -> World {
    let s = preset(name).unwrap();
    let mut w = World::new(&s);
    w.set_check_level(CheckLevel::Full);
    w.run(s.max_ticks);
    assert!(w.violations().is_empty(), "{name}: {:?}", w.violations());
    w
}

/// Each relay's lock waits, in the order the relays first counted.
fn waits(w: &World) -> Vec<u64> {
    w.tally().relays.iter().map(|r| r.lock_wait_ticks).collect()
}

#[test]
fn skip_locked_never_waits_and_for_update_does() {
    // Lesson §4.1: "200 hodisa, ikki relay — har biri aynan bir marta": both modes end
    // with 200 jobs; only the waits tell them apart.
    let skip = run("two-relays-skip-locked");
    let wait = run("two-relays-wait");
    for w in [&skip, &wait] {
        let c = w.counters();
        assert_eq!((c.queue_jobs, w.tally().polls_published), (200, 200));
    }
    assert_eq!(waits(&skip), vec![0, 0]);
    let plain = waits(&wait);
    assert_eq!(plain.len(), 2);
    // Each relay waited for the other's batch, a large part of the run.
    let tick = wait.counters().tick;
    assert!(plain.iter().all(|&t| t * 4 > tick), "{plain:?} of {tick}");
}

#[test]
fn throughput_counts_the_published_per_hundred_ticks() {
    let skip = run("two-relays-skip-locked");
    let t = skip.tally();
    let tick = skip.counters().tick;
    assert_eq!(
        t.published_per_100_ticks(tick),
        t.polls_published * 100 / tick
    );
    assert_eq!(t.published_per_100_ticks(0), 0);
    // NOWAIT's collisions roll polls back: fewer published per 100 ticks than SKIP
    // LOCKED, which never collides.
    let nowait = run("two-relays-nowait");
    let n = nowait
        .tally()
        .published_per_100_ticks(nowait.counters().tick);
    assert!(n < t.published_per_100_ticks(tick), "{n}");
    // Per relay, the published rows add up to the total.
    let per: u64 = t.relays.iter().map(|r| r.published).sum();
    assert_eq!(per, t.polls_published);
}
