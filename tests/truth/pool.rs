//! The pooled BEGIN API (`outbox_pool_begin`, #43) against real node-postgres: requests
//! that send BEGIN, INSERT task, INSERT outbox and COMMIT each with `pool.query`, run by
//! `pool_harness.js` on a real `pg` Pool (the version `cargo xtask setup` pins) against
//! this suite's PostgreSQL, and by the model with the same schedule. What committed —
//! which requests' tasks and events, and which rows shared a transaction — must agree.
//!
//! The schedules are deterministic on both sides: on one connection pg-pool runs every
//! statement in its queue's order (see the harness's comment), and the model's steps are
//! given by hand. The concurrency sweep launches its requests at once, so the real order
//! is the network's; only what does not depend on it is compared: within the pool no
//! request is ever split, past it some are.

use super::harness::Pg;
use outbox_model::scenario::ApiMode;
use outbox_model::world::{Action, CheckLevel};
use outbox_model::{Scenario, World};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// What committed: each request's task and event rows, by the transaction that wrote them
/// (numbered in order of first appearance, so the two sides' numbers compare).
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    /// Request → the transaction of its committed task row.
    tasks: BTreeMap<u32, u32>,
    /// Request → the transaction of its committed event row.
    events: BTreeMap<u32, u32>,
}

impl Outcome {
    /// Requests whose task and event both committed, in different transactions.
    fn split(&self) -> usize {
        (self.tasks.iter())
            .filter(|(r, t)| self.events.get(r).is_some_and(|e| e != *t))
            .count()
    }

    /// Requests whose task committed without its event (the lost events).
    fn lost(&self) -> usize {
        self.tasks
            .keys()
            .filter(|r| !self.events.contains_key(r))
            .count()
    }

    /// Renumbers transactions by first appearance (tasks by request, then events).
    fn from_rows(tasks: Vec<(u32, u64)>, events: Vec<(u32, u64)>) -> Outcome {
        let mut names = BTreeMap::new();
        let mut name = |x: u64| {
            let n = names.len() as u32;
            *names.entry(x).or_insert(n)
        };
        let tasks: BTreeMap<u32, u64> = tasks.into_iter().collect();
        let events: BTreeMap<u32, u64> = events.into_iter().collect();
        let mut out = Outcome {
            tasks: BTreeMap::new(),
            events: BTreeMap::new(),
        };
        let all: BTreeSet<u32> = tasks.keys().chain(events.keys()).copied().collect();
        for r in all {
            if let Some(&x) = tasks.get(&r) {
                out.tasks.insert(r, name(x));
            }
            if let Some(&x) = events.get(&r) {
                out.events.insert(r, name(x));
            }
        }
        out
    }
}

/// Runs the harness on a scratch database; returns what committed there and the
/// harness's lines.
fn real(name: &str, pool: u32, requests: Value) -> (Outcome, Vec<Value>) {
    let mut pg = Pg::new(name);
    let modules = std::env::var("OUTBOX_NODE_MODULES").unwrap_or_else(|_| {
        panic!("OUTBOX_NODE_MODULES is not set: `cargo xtask test-layer postgres` names .tools/node_modules (with pg)")
    });
    let case = json!({ "url": pg.url(), "pool": pool, "requests": requests });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/truth/pool_harness.js");
    let out = Command::new("node")
        .arg(script)
        .arg(case.to_string())
        .env("NODE_PATH", &modules)
        .output()
        .expect("run node");
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let dying = lines.iter().any(|l| l["dying"] == true);
    assert!(
        out.status.success() || dying,
        "harness failed: {lines:?} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut rows = |q: &str| -> Vec<(u32, u64)> {
        (pg.observer.query(q, &[]).expect(q).iter())
            .map(|r| {
                let req: String = r.get(0);
                let xmin: String = r.get(1);
                (req.parse().unwrap(), xmin.parse().unwrap())
            })
            .collect()
    };
    let tasks = rows("SELECT substr(matn, 2), xmin::text FROM vazifalar");
    let events = rows("SELECT malumot->>'r', xmin::text FROM outbox");
    (Outcome::from_rows(tasks, events), lines)
}

/// The model's `apis` requests (one per API instance: request r is client r+1's task r)
/// on a pool of `pool`, after `actions` by hand.
fn model(apis: u8, pool: u8, actions: &[(&str, &str)]) -> (Outcome, World) {
    let mut s = Scenario::default();
    s.config.set_api(ApiMode::OutboxPoolBegin);
    s.config.set_apis(apis.into());
    s.config.set_pool_size(pool.into());
    s.workload.tasks = apis.into();
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
    let db = w.db();
    let committed = |x| db.status(x) == outbox_model::db::TxStatus::Committed;
    let tasks = (db.tasks.iter())
        .filter(|t| committed(t.xmin))
        .map(|t| (t.intent, t.xmin as u64))
        .collect();
    let events = (db.outbox.iter())
        .filter(|o| committed(o.xmin))
        .map(|o| (o.task_intent, o.xmin as u64))
        .collect();
    (Outcome::from_rows(tasks, events), w)
}

/// Request 0 alone, killed between its INSERTs: its one transaction rolls back, nothing is
/// lost (the seed's §7: it works on the laptop).
#[test]
fn pool_one_request_dying_between_its_inserts_loses_nothing() {
    for pool in [1, 10] {
        let (real, lines) = real(
            &format!("pool_alone_{pool}"),
            pool,
            json!([{ "after": null, "dies": true }]),
        );
        let (model, _) = model(
            1,
            pool as u8,
            &[
                ("step", "client"),
                ("step", "api"),
                ("step", "api"),
                ("kill", "api"),
            ],
        );
        println!("pool {pool}, one request dying: real {real:?}, model {model:?}, {lines:?}");
        assert_eq!(real, model);
        assert_eq!((real.tasks.len(), real.lost()), (0, 0));
    }
}

/// The model's schedule of two requests on one connection: request 1 arrives after request
/// 0's BEGIN, and every release hands the connection to the other.
const TWO_ON_ONE: [(&str, &str); 8] = [
    ("step", "client-1"),
    ("step", "api-1"), // 0: BEGIN
    ("step", "client-2"),
    ("step", "api-1"), // 0: INSERT task
    ("step", "api-2"), // 1: BEGIN (already in a transaction: nothing)
    ("step", "api-1"), // 0: INSERT outbox
    ("step", "api-2"), // 1: INSERT task, in 0's transaction
    ("step", "api-1"), // 0: COMMIT, of 1's task too
];

/// Two requests on a pool of one: request 0's COMMIT commits request 1's task; request
/// 1's event goes in on its own (autocommit) and its COMMIT finds no transaction.
#[test]
fn pool_one_requests_commit_commits_another_requests_task() {
    let requests = json!([{ "after": null }, { "after": [0, "begin"] }]);
    let (real, lines) = real("pool_two_on_one", 1, requests);
    let mut actions = TWO_ON_ONE.to_vec();
    actions.extend([("step", "api-2"), ("step", "api-2")]);
    let (model, w) = model(2, 1, &actions);
    println!("pool 1, two requests: real {real:?}, model {model:?}, {lines:?}");
    assert_eq!(real, model);
    // 0's task, 0's event and 1's task in one transaction; 1's event in another.
    assert_eq!(real.tasks.values().collect::<BTreeSet<_>>().len(), 1);
    assert_eq!(real.split(), 1);
    assert_eq!(w.counters().lost, 0);
}

/// The same, and the server dies between request 1's INSERTs: its task is committed (by
/// request 0's COMMIT) and its event never written: lost, here and in the model.
#[test]
fn pool_a_death_between_the_inserts_loses_an_event_past_the_pool() {
    let requests = json!([{ "after": null }, { "after": [0, "begin"], "dies": true }]);
    let (real, lines) = real("pool_two_dying", 1, requests);
    let mut actions = TWO_ON_ONE.to_vec();
    actions.push(("kill", "api-2"));
    let (model, w) = model(2, 1, &actions);
    println!("pool 1, two requests, 1 dying: real {real:?}, model {model:?}, {lines:?}");
    assert_eq!(real, model);
    assert_eq!(real.lost(), 1);
    assert_eq!(w.counters().lost, 1, "the model counts it lost");
}

/// Concurrent requests launched at once: within the pool none is split (each keeps the
/// connection it released), past it some are. The model runs the same (at most 3 API
/// instances, so its pool is 2 for the past-it case) with its seeded scheduler.
#[test]
fn pool_requests_split_only_past_the_pool() {
    let at_once = |k: usize| Value::Array(vec![json!({ "after": null }); k]);
    for (pool, k) in [
        (10, 1),
        (10, 4),
        (10, 10),
        (10, 11),
        (10, 16),
        (2, 2),
        (2, 3),
    ] {
        let (real, _) = real(&format!("pool_sweep_{pool}_{k}"), pool, at_once(k));
        println!(
            "pool {pool}, {k} at once: real split {} of {k}",
            real.split()
        );
        assert_eq!(real.tasks.len(), k, "every task committed");
        assert_eq!(real.lost(), 0, "no death, nothing lost");
        if k <= pool as usize {
            assert_eq!(
                real.split(),
                0,
                "within the pool every request keeps one connection"
            );
        } else {
            assert!(
                real.split() > 0,
                "past the pool requests share transactions"
            );
        }
    }
    for (pool, apis) in [(10, 3), (2, 2), (2, 3)] {
        let mut s = Scenario::default();
        s.config.set_api(ApiMode::OutboxPoolBegin);
        s.config.set_apis(apis);
        s.config.set_pool_size(pool);
        s.workload.tasks = 30;
        let mut w = World::new(&s);
        w.run(1_000_000);
        let db = w.db();
        let split = (db.tasks.iter())
            .filter(|t| (db.outbox.iter()).any(|o| o.task_intent == t.intent && o.xmin != t.xmin))
            .count();
        println!("model: pool {pool}, {apis} API instances, 30 tasks: split {split}");
        assert_eq!(
            split > 0,
            apis > pool,
            "the model splits only past the pool"
        );
    }
}
