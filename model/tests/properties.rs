//! Property tests over random fault schedules. Every run is checked with every named
//! invariant after every step (CheckLevel::Full).

use outbox_model::db::LockMode;
use outbox_model::queue::JobState;
use outbox_model::scenario::{ApiMode, CleanerConfig, RelayMode, Timed, When, WorkerMode};
use outbox_model::world::{program, CheckLevel, ProcKind};
use outbox_model::{Action, Scenario, Step, World};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum F {
    Kill(u8),
    Arm(u8, u8, u32),
    QueueDown(bool),
    QueueUp,
    FailPublish(u32, u32),
    RedisFlush,
    Unpublish(u64),
}

fn fault() -> impl Strategy<Value = (u64, F)> {
    let f = prop_oneof![
        4 => any::<u8>().prop_map(F::Kill),
        4 => (any::<u8>(), any::<u8>(), 1u32..4).prop_map(|(p, s, n)| F::Arm(p, s, n)),
        1 => any::<bool>().prop_map(F::QueueDown),
        1 => Just(F::QueueUp),
        1 => (1u32..30, 1u32..4).prop_map(|(e, n)| F::FailPublish(e, n)),
        1 => Just(F::RedisFlush),
        1 => (0u64..400).prop_map(F::Unpublish),
    ];
    (0u64..400, f)
}

fn lock() -> impl Strategy<Value = LockMode> {
    prop_oneof![
        Just(LockMode::SkipLocked),
        Just(LockMode::Wait),
        Just(LockMode::Nowait),
        Just(LockMode::None)
    ]
}

/// Turns abstract faults into scenario actions against the configured processes.
fn schedule(s: &mut Scenario, faults: &[(u64, F)], only: Option<&[&str]>) {
    let names = outbox_model::world::proc_names(&s.config, false);
    let pick = |p: u8| -> Option<String> {
        let pool: Vec<&String> = names
            .iter()
            .filter(|n| only.is_none_or(|o| o.contains(&n.as_str())))
            .collect();
        (!pool.is_empty()).then(|| pool[p as usize % pool.len()].clone())
    };
    for (at, f) in faults {
        let action = match f {
            F::Kill(p) => pick(*p).map(|process| Action::Kill { process }),
            F::Arm(p, st, n) => pick(*p).map(|process| {
                let kind = if process == "client" {
                    ProcKind::Client
                } else if process == "api" {
                    ProcKind::Api
                } else if process.starts_with("relay") {
                    ProcKind::Relay
                } else if process == "cdc" {
                    ProcKind::Cdc
                } else if process == "cleaner" {
                    ProcKind::Cleaner
                } else {
                    ProcKind::Worker
                };
                let prog = program(kind, &s.config, 0);
                let step = prog[*st as usize % prog.len()];
                Action::ArmKill {
                    process,
                    step,
                    when: When::Nth { n: *n },
                    times: Some(1),
                }
            }),
            F::QueueDown(hang) if only.is_none() => Some(Action::QueueDown { hang: *hang }),
            F::QueueUp if only.is_none() => Some(Action::QueueUp),
            F::FailPublish(e, n) if only.is_none() => Some(Action::FailPublish {
                event: *e,
                times: *n,
            }),
            F::RedisFlush if only.is_none() => Some(Action::RedisFlush),
            F::Unpublish(t) if only.is_none() => Some(Action::UnpublishSince { since_tick: *t }),
            _ => None,
        };
        if let Some(action) = action {
            s.schedule.push(Timed {
                at_tick: *at,
                action,
            });
        }
    }
}

/// Cases per property: `PROPTEST_CASES`, else 1000.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000)
}

/// Let the faults play out, then heal (Redis up, everyone restarted, failed jobs retried)
/// until the world is quiet with nothing left in BullMQ's failed set: a job whose dead
/// worker's lock runs out after the first heal may still stall into `failed`.
fn heal_and_settle(w: &mut World) {
    w.run(450);
    let mut recovered = false;
    for _ in 0..6 {
        w.heal();
        w.run(w.tick() + 20_000);
        // After a Redis flush the operator un-marks everything published (from tick 0),
        // once the world is quiet (no relay holds a row, so the UPDATE is not refused).
        if w.settled() && w.last_flush().is_some() && !recovered {
            recovered = true;
            w.apply(&Action::UnpublishSince { since_tick: 0 }).unwrap();
            continue;
        }
        if w.settled() && w.queue().count(JobState::Failed) == 0 {
            break;
        }
    }
    assert!(w.settled(), "settles after healing");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), max_shrink_iters: 2000, .. ProptestConfig::default() })]

    /// Outbox + inbox (one transaction): whatever dies, whenever, once the faults are
    /// healed and the world is quiet, nothing is lost and nothing acted on twice.
    #[test]
    fn outbox_with_inbox_loses_nothing_and_acts_once(
        seed in any::<u64>(),
        tasks in 1u32..25,
        relays in 1u8..=2,
        workers in 1u8..=2,
        lock in lock(),
        partiya in 1u32..8,
        poll in 1u64..30,
        remove_on_complete in any::<bool>(),
        key in any::<bool>(),
        faults in prop::collection::vec(fault(), 0..12),
    ) {
        let mut s = Scenario { seed, ..Scenario::default() };
        s.workload.tasks = tasks;
        s.config.api = ApiMode::Outbox;
        s.config.worker = WorkerMode::InboxSameTx;
        s.config.relays = relays;
        s.config.workers = workers;
        s.config.relay.lock = lock;
        s.config.relay.batch_size = partiya;
        s.config.relay.poll_interval_ticks = poll;
        s.config.queue.remove_on_complete = remove_on_complete;
        // A client that retries is safe only behind the API's idempotency key.
        if key {
            s.config.client_retries = 2;
            s.config.api_idempotency_key = true;
        }
        schedule(&mut s, &faults, None);
        let mut w = World::new(&s);
        w.set_check_level(CheckLevel::Full);
        heal_and_settle(&mut w);
        let c = w.counters();
        prop_assert!(w.violations().is_empty(), "{:?}", w.violations());
        prop_assert_eq!(c.lost, 0, "{:?}", c);
        prop_assert_eq!(c.duplicate_tasks, 0);
        prop_assert_eq!(c.duplicate_effects, 0, "{:?}", c);
        prop_assert_eq!(c.phantoms, 0);
        // Every committed task's event was acted on exactly once.
        prop_assert_eq!(c.effects, c.tasks_in_db);
        prop_assert_eq!(w.db().committed_actions(), c.tasks_in_db);
    }

    /// The CDC relay with an inbox: whatever dies (the CDC itself included) and however
    /// long Redis is away, once healed nothing is lost and nothing acted on twice; the
    /// slot's log is drained.
    #[test]
    fn cdc_with_inbox_loses_nothing_and_acts_once(
        seed in any::<u64>(),
        tasks in 1u32..25,
        pre in 0u32..10,
        workers in 1u8..=2,
        partiya in 1u32..8,
        remove_on_complete in any::<bool>(),
        faults in prop::collection::vec(fault(), 0..12),
    ) {
        let mut s = Scenario { seed, ..Scenario::default() };
        s.workload.tasks = tasks;
        s.workload.preloaded_events = pre;
        s.config.relays = 0;
        s.config.cdc = true;
        s.config.workers = workers;
        s.config.relay.batch_size = partiya;
        s.config.queue.remove_on_complete = remove_on_complete;
        // No flush here: the CDC relay keeps no published mark to un-mark.
        let faults: Vec<_> = faults.into_iter().filter(|(_, f)| !matches!(f, F::RedisFlush | F::Unpublish(_))).collect();
        schedule(&mut s, &faults, None);
        let mut w = World::new(&s);
        w.set_check_level(CheckLevel::Full);
        heal_and_settle(&mut w);
        let c = w.counters();
        prop_assert!(w.violations().is_empty(), "{:?}", w.violations());
        prop_assert_eq!((c.lost, c.duplicate_effects, c.phantoms, c.wal_retained), (0, 0, 0, 0), "{:?}", c);
        prop_assert_eq!(c.effects, c.tasks_in_db + pre as u64);
    }

    /// Dual write, DB first: the only way to lose an event is a kill between COMMIT and
    /// queue.add; every such kill loses exactly one.
    #[test]
    fn dual_write_loses_exactly_the_kills_between_commit_and_add(
        seed in any::<u64>(),
        tasks in 1u32..40,
        workers in 0u8..=2,
        faults in prop::collection::vec(fault(), 0..15),
    ) {
        let mut s = Scenario { seed, ..Scenario::default() };
        s.workload.tasks = tasks;
        s.config.api = ApiMode::DualWriteDbFirst;
        s.config.api_app_role = false;
        s.config.relays = 0;
        s.config.workers = workers;
        s.config.worker = WorkerMode::InboxSameTx;
        schedule(&mut s, &faults, Some(&["api", "worker-1", "worker-2", "client"]));
        let mut w = World::new(&s);
        w.set_check_level(CheckLevel::Full);
        heal_and_settle(&mut w);
        let api = w.find("api").unwrap();
        let between = w.kills().iter().filter(|(p, st, _)| *p == api && *st == Step::QueueAdd).count() as u64;
        let c = w.counters();
        prop_assert!(w.violations().is_empty(), "{:?}", w.violations());
        prop_assert_eq!(c.lost, between, "{:?}", c);
        prop_assert_eq!(c.queue_jobs + between, c.tasks_in_db);
    }

    /// Any configuration, any faults: the invariants hold after every step.
    #[test]
    fn invariants_hold_under_any_faults(
        seed in any::<u64>(),
        tasks in 0u32..20,
        pre in 0u32..10,
        api in prop_oneof![Just(ApiMode::Outbox), Just(ApiMode::DualWriteDbFirst), Just(ApiMode::DualWriteQueueFirst)],
        worker in prop_oneof![Just(WorkerMode::NoInbox), Just(WorkerMode::InboxSameTx), Just(WorkerMode::InboxOwnTx), Just(WorkerMode::ActionThenInbox), Just(WorkerMode::ExternalEffect)],
        mode in prop_oneof![Just(RelayMode::Lesson), Just(RelayMode::MarkFirst), Just(RelayMode::HighWater)],
        lock in lock(),
        relays in 0u8..=3,
        workers in 0u8..=3,
        faults in prop::collection::vec(fault(), 0..15),
        extra in (prop::option::of(1u32..4), any::<bool>(), prop::option::of((any::<bool>(), prop::option::of(0u32..3))), 0u32..3, any::<bool>(), any::<bool>()),
    ) {
        let (dead_letter_after, cdc, cleaner, retries, key, pairs) = extra;
        let mut s = Scenario { seed, ..Scenario::default() };
        s.workload.tasks = tasks;
        s.workload.preloaded_events = pre;
        s.config.api = api;
        s.config.worker = worker;
        s.config.relays = relays;
        s.config.workers = workers;
        s.config.relay.lock = lock;
        s.config.relay.batch_size = 3;
        s.config.relay.mode = mode;
        s.config.relay.dead_letter_after = dead_letter_after;
        s.config.cdc = cdc;
        s.config.cleaner = cleaner.map(|(published_only, inbox)| CleanerConfig {
            retention_days: 1,
            published_only,
            inbox_retention_days: inbox,
            interval_ticks: 50,
        });
        s.config.client_retries = retries;
        s.config.api_idempotency_key = key;
        s.workload.preloaded_completed = pairs;
        schedule(&mut s, &faults, None);
        let mut w = World::new(&s);
        w.set_check_level(CheckLevel::Full);
        w.run(3_000);
        w.heal();
        w.run(20_000);
        prop_assert!(w.violations().is_empty(), "{:?}", w.violations());
    }
}
