//! The actions the page dispatches: they are checked, never panic, and faults do what
//! they say.

use outbox_model::scenario::When;
use outbox_model::world::CheckLevel;
use outbox_model::{preset, Action, Step, World};

fn world(name: &str) -> World {
    let mut w = World::new(&preset(name).unwrap());
    w.set_check_level(CheckLevel::Full);
    w
}

#[test]
fn unknown_process_is_an_error_not_a_panic() {
    let mut w = world("canon-outbox");
    assert!(w
        .apply(&Action::Kill {
            process: "relay-9".into()
        })
        .is_err());
    assert!(w
        .apply(&Action::Step {
            process: "nobody".into()
        })
        .is_err());
    // A process that cannot run now refuses a step instead of doing something half-way.
    assert!(w
        .apply(&Action::Step {
            process: "worker-1".into()
        })
        .is_err());
}

#[test]
fn enabled_actions_follow_the_state() {
    let mut w = world("canon-outbox");
    let enabled = w.enabled();
    assert!(enabled.contains(&Action::Kill {
        process: "relay-1".into()
    }));
    assert!(enabled.contains(&Action::QueueDown { hang: false }));
    w.apply(&Action::Kill {
        process: "relay-1".into(),
    })
    .unwrap();
    let enabled = w.enabled();
    assert!(enabled.contains(&Action::Restart {
        process: "relay-1".into()
    }));
    assert!(!enabled.contains(&Action::Kill {
        process: "relay-1".into()
    }));
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

#[test]
fn armed_kill_fires_at_its_step_and_the_relay_republishes() {
    // Kill the relay when it reaches COMMIT: its adds happened, its marks roll back, the
    // next poll adds the same events again and jobId = hodisa_id absorbs every one.
    let mut s = preset("canon-outbox").unwrap();
    s.faults.clear();
    s.config.restart_after_ticks = Some(3);
    let mut w = World::new(&s);
    w.set_check_level(CheckLevel::Full);
    w.apply(&Action::ArmKill {
        process: "relay-1".into(),
        step: Step::Commit,
        when: outbox_model::scenario::When::Nth { n: 3 },
        times: Some(1),
    })
    .unwrap();
    w.run(s.max_ticks);
    let c = w.counters();
    let relay = w.find("relay-1").unwrap();
    assert_eq!(
        w.kills()
            .iter()
            .filter(|(p, st, _)| *p == relay && *st == Step::Commit)
            .count(),
        1
    );
    assert!(c.queue_dedup_hits > 0, "{c:?}");
    assert_eq!(
        (c.queue_jobs, c.effects, c.lost, c.duplicate_effects),
        (100, 100, 0, 0)
    );
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

#[test]
fn queue_hang_holds_the_relays_locks_until_redis_returns() {
    let mut s = preset("canon-outbox").unwrap();
    s.faults.clear();
    let mut w = World::new(&s);
    w.set_check_level(CheckLevel::Full);
    w.apply(&Action::QueueDown { hang: true }).unwrap();
    w.run(400);
    // The relay is stuck inside queue.add with its transaction (and row locks) open.
    let relay = &w.procs()[w.find("relay-1").unwrap().0 as usize];
    assert_eq!(relay.pc, Step::Publish);
    assert!(relay.tx.is_some());
    assert!(w.db().open_transactions() >= 1);
    w.apply(&Action::QueueUp).unwrap();
    w.run(s.max_ticks);
    let c = w.counters();
    assert_eq!((c.queue_jobs, c.lost), (100, 0));
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

#[test]
fn disarming_one_step_keeps_the_other_kill_rules() {
    // The canon preset arms the API's standing rule (i % 10 == 3); a user arms one more.
    let mut w = World::new(&preset("canon-dual-write").unwrap());
    let before = w.armed().len();
    assert!(before >= 1, "the canon preset arms its kill rule");
    w.apply(&Action::ArmKill {
        process: "api".into(),
        step: Step::Begin,
        when: When::Always,
        times: None,
    })
    .unwrap();
    assert_eq!(w.armed().len(), before + 1);
    w.apply(&Action::Disarm {
        process: "api".into(),
        step: Some(Step::Begin),
    })
    .unwrap();
    assert_eq!(w.armed().len(), before, "only the kill at BEGIN went");
    assert!(w.armed().iter().all(|k| k.step != Step::Begin));
    w.apply(&Action::Disarm {
        process: "api".into(),
        step: None,
    })
    .unwrap();
    assert!(
        w.armed().is_empty(),
        "without a step, every kill of the process goes"
    );
}

/// #24: what a ☠ kills after. The lesson's "dies after COMMIT" is the kill before queue.add.
#[test]
fn a_kill_knows_the_step_it_comes_after() {
    use outbox_model::scenario::ApiMode;
    use outbox_model::world::{program, step_before, ProcKind};
    use outbox_model::Step;
    let cfg = outbox_model::scenario::Config {
        api: ApiMode::DualWriteDbFirst,
        ..Default::default()
    };
    let api = program(ProcKind::Api, &cfg, 0);
    assert_eq!(step_before(&api, Step::QueueAdd), Some(Step::Commit));
    assert_eq!(step_before(&api, Step::Begin), None, "the first step");
    assert_eq!(step_before(&api, Step::Rollback), None, "a branch");
    let relay = program(ProcKind::Relay, &cfg, 0);
    assert_eq!(
        step_before(&relay, Step::MarkPublished),
        Some(Step::Publish)
    );
    assert_eq!(
        step_before(&relay, Step::MarkFailed),
        None,
        "a failed publish's branch"
    );
    assert_eq!(
        step_before(&relay, Step::Commit),
        None,
        "reached from either mark"
    );
}
