//! The `outbox_pool_begin` API (#43): BEGIN / INSERT / INSERT / COMMIT, each statement its
//! own `pool.query` on a node-postgres pool. One request at a time keeps one connection
//! (nothing lost however it dies); more requests than connections split requests over
//! connections and transactions, and a death between the INSERTs loses events.

use outbox_model::scenario::{
    ApiMode, Fault, ScenarioError, When, DEFAULT_POOL_SIZE, MAX_POOL_SIZE,
};
use outbox_model::world::{Action, CheckLevel, ProcKind};
use outbox_model::{Scenario, Step, World};

/// `apis` concurrent requests on a pool of `pool` connections, `tasks` requests in all,
/// every API instance killed between its INSERTs for each task with i % 10 == 3 (the
/// canon's kill), no automatic restart delay beyond the default.
fn scenario(apis: u8, pool: u8, tasks: u32, seed: u64) -> Scenario {
    let mut s = Scenario {
        seed,
        ..Scenario::default()
    };
    s.config.set_api(ApiMode::OutboxPoolBegin);
    s.config.set_apis(apis.into());
    s.config.set_pool_size(pool.into());
    s.workload.tasks = tasks;
    let names: Vec<String> = if apis == 1 {
        vec!["api".into()]
    } else {
        (1..=apis).map(|n| format!("api-{n}")).collect()
    };
    for process in names {
        s.faults.push(Fault::Kill {
            process,
            step: Step::InsertEvent,
            when: When::TaskIndexMod {
                modulus: 10,
                remainder: 3,
            },
            times: None,
            per_task: false,
        });
    }
    s
}

/// Runs to the end with every invariant checked after every step.
fn run(s: &Scenario) -> World {
    s.validate().expect("valid");
    let mut w = World::new(s);
    w.set_check_level(CheckLevel::Full);
    w.run(2_000_000);
    assert!(w.violations().is_empty(), "{:?}", w.violations());
    w
}

/// Requests whose task row and event row went into different transactions.
fn split(w: &World) -> usize {
    let db = w.db();
    w.auditor()
        .events()
        .filter(|(e, l)| match (l.task, db.event_row(*e)) {
            (outbox_model::auditor::TaskRef::Row(t), Some(row)) => {
                db.tasks[t as usize].xmin != row.xmin
            }
            _ => false,
        })
        .count()
}

/// By hand: (step | kill, process) in order.
fn by_hand(apis: u8, pool: u8, actions: &[(&str, &str)]) -> World {
    let mut s = scenario(apis, pool, apis.into(), 1);
    s.faults.clear();
    s.validate().expect("valid");
    let mut w = World::new(&s);
    w.set_check_level(CheckLevel::Full);
    for &(what, process) in actions {
        let process = process.to_string();
        let a = match what {
            "step" => Action::Step { process },
            _ => Action::Kill { process },
        };
        w.apply(&a).unwrap_or_else(|e| panic!("{a:?}: {e:?}"));
    }
    assert!(w.violations().is_empty(), "{:?}", w.violations());
    w
}

/// Two requests on one connection: request 1 arrives after request 0's BEGIN, and every
/// release hands the connection to the other (tests/truth/pool.rs runs the same against
/// node-postgres).
const TWO_ON_ONE: [(&str, &str); 8] = [
    ("step", "client-1"),
    ("step", "api-1"),
    ("step", "client-2"),
    ("step", "api-1"),
    ("step", "api-2"),
    ("step", "api-1"),
    ("step", "api-2"),
    ("step", "api-1"),
];

#[test]
fn one_request_at_a_time_loses_nothing_whatever_the_pool() {
    for pool in [1, 2, 10] {
        for seed in 1..=4 {
            let w = run(&scenario(1, pool, 100, seed));
            let c = w.counters();
            assert_eq!(
                split(&w),
                0,
                "pool {pool} seed {seed}: one connection per request"
            );
            assert_eq!(c.lost, 0, "pool {pool} seed {seed}");
            // The canon's kill (i % 10 == 3) rolls back 10 of the 100 requests whole.
            assert_eq!((c.tasks_in_db, c.events_in_outbox), (90, 90));
            assert!(w.settled());
        }
    }
}

#[test]
fn requests_within_the_pool_keep_their_connection() {
    for (apis, pool) in [(2, 2), (3, 3), (3, 10)] {
        for seed in 1..=3 {
            let w = run(&scenario(apis, pool, 100, seed));
            assert_eq!(split(&w), 0, "{apis} requests, pool {pool}, seed {seed}");
            assert_eq!(w.counters().lost, 0);
            assert_eq!(w.counters().tasks_in_db, w.counters().events_in_outbox);
        }
    }
}

#[test]
fn requests_past_the_pool_share_transactions_and_lose_events() {
    let mut lost = 0;
    for (apis, pool) in [(2, 1), (3, 2), (3, 1)] {
        for seed in 1..=3 {
            let w = run(&scenario(apis, pool, 100, seed));
            assert!(split(&w) > 0, "{apis} requests, pool {pool}, seed {seed}");
            lost += w.counters().lost;
            assert!(
                w.settled(),
                "idle transactions end (the pool's idle timeout)"
            );
        }
    }
    assert!(
        lost > 0,
        "a death between the INSERTs loses events past the pool"
    );
}

#[test]
fn one_requests_commit_commits_another_requests_task() {
    let w = by_hand(2, 1, &TWO_ON_ONE);
    let c = w.counters();
    // Request 1 is at its INSERT outbox, yet its task is in the database: request 0's
    // COMMIT took it.
    assert_eq!((c.tasks_in_db, c.events_in_outbox), (2, 1));
    let p = &w.procs()[3];
    assert_eq!((p.name.as_str(), p.pc), ("api-2", Step::InsertEvent));
    // A death now loses request 1's event.
    let mut dead = by_hand(2, 1, &TWO_ON_ONE);
    dead.apply(&Action::Kill {
        process: "api-2".into(),
    })
    .unwrap();
    assert_eq!(dead.counters().lost, 1);
    assert!(
        dead.procs()
            .iter()
            .all(|p| p.kind != ProcKind::Api || !p.alive),
        "the server died"
    );
    // Without it, request 1's event goes in on its own and its COMMIT finds nothing to do.
    let mut actions = TWO_ON_ONE.to_vec();
    actions.extend([("step", "api-2"), ("step", "api-2"), ("step", "api-2")]);
    let w = by_hand(2, 1, &actions);
    assert_eq!((w.counters().events_in_outbox, w.counters().lost), (2, 0));
    assert_eq!(split(&w), 1);
}

#[test]
fn a_waiting_request_cannot_step_and_a_kill_works_at_every_step() {
    let w = by_hand(2, 1, &[("step", "client-1"), ("step", "client-2")]);
    assert!(!w.runnable(3), "api-2 waits for the one connection");
    for (k, at) in [
        Step::Begin,
        Step::InsertTask,
        Step::InsertEvent,
        Step::Commit,
        Step::Respond,
    ]
    .into_iter()
    .enumerate()
    {
        let mut actions = vec![("step", "client")];
        actions.extend(std::iter::repeat_n(("step", "api"), k));
        let mut w = by_hand(1, 1, &actions);
        assert_eq!(w.procs()[1].pc, at);
        w.apply(&Action::Kill {
            process: "api".into(),
        })
        .unwrap();
        let c = w.counters();
        assert_eq!(c.lost, 0, "one request killed at {at:?} loses nothing");
        let committed = at == Step::Respond;
        assert_eq!(
            (c.tasks_in_db, c.events_in_outbox),
            (committed as u64, committed as u64)
        );
    }
}

#[test]
fn the_pool_size_is_read_defaulted_and_refused_out_of_range() {
    let old = r#"{"name":"x","config":{"api":"outbox_pool_begin"}}"#;
    let s = Scenario::from_json(old).expect("a file without pool_size reads");
    assert_eq!(s.config.pool_size, DEFAULT_POOL_SIZE);
    assert!(
        !s.to_json().contains("pool_size"),
        "the default stays out of links"
    );
    let mut s = scenario(3, 2, 10, 1);
    let back = Scenario::from_json(&s.to_json()).unwrap();
    assert_eq!(back.config.pool_size, 2);
    for bad in [0, MAX_POOL_SIZE + 1] {
        s.config.pool_size = bad;
        let e: ScenarioError = s.validate().unwrap_err();
        assert_eq!(e.field, "config.pool_size");
        assert_eq!(e.limit, Some(MAX_POOL_SIZE.into()));
    }
    s.config.set_pool_size(0);
    assert_eq!(s.config.pool_size, 1);
    s.config.set_pool_size(1000);
    assert_eq!(s.config.pool_size, MAX_POOL_SIZE);
    let mut c = outbox_model::scenario::Config {
        relays: 0,
        ..Default::default()
    };
    c.set_api(ApiMode::OutboxPoolBegin);
    assert_eq!(c.relays, 1, "an outbox needs a relay");
}

mod property {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Within the pool (no more requests than connections) no request is ever split and
        /// no kill, at any step, loses an event; past it, every invariant still holds (the
        /// run checks them all after every step).
        #[test]
        fn within_the_pool_nothing_splits_or_is_lost(
            seed in 1u64..10_000,
            apis in 1u8..=3,
            pool in 1u8..=4,
            step in prop::sample::select(vec![
                Step::Begin, Step::InsertTask, Step::InsertEvent, Step::Commit, Step::Respond,
            ]),
            remainder in 0u32..5,
        ) {
            let mut s = scenario(apis, pool, 20, seed);
            for f in &mut s.faults {
                if let Fault::Kill { step: st, when, .. } = f {
                    *st = step;
                    *when = When::TaskIndexMod { modulus: 5, remainder };
                }
            }
            let w = run(&s);
            if apis <= pool {
                prop_assert_eq!(split(&w), 0);
                prop_assert_eq!(w.counters().lost, 0);
            }
            prop_assert!(w.settled());
        }
    }
}
