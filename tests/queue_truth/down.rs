//! Case 4: Redis refusing connections. What `add` does depends on the producer's client:
//! with `enableOfflineQueue: false` it rejects at once (the model's `DownFailFast`,
//! "refuses"); with the default (ioredis' offline queue) it waits for Redis and adds the
//! job once Redis is back (the model's `DownHang`, "hangs"). Redis runs with
//! `appendonly yes` here, so the outage itself loses nothing, as in the model's fault.
//! A Redis that accepts connections but does not answer (`CLIENT PAUSE`) hangs even the
//! fail-fast client: `DownHang` too.

use crate::harness::{job_id, timed, Added, Opts, Persistence, RedisServer, Twin};
use outbox_model::queue::Health;
use serde_json::json;
use std::time::{Duration, Instant};

#[test]
fn fail_fast_client_is_refused_at_once() {
    let mut redis = RedisServer::start(Persistence::AppendOnly);
    let opts = Opts {
        offline_queue: false,
        ..Opts::default()
    };
    let mut d = Twin::on("down-fail-fast", &redis.url(), opts);
    d.add("add 1", 1);
    redis.down();
    d.m.health = Health::DownFailFast;
    let (bull, took) = timed(|| {
        let v = d.bull.call(
            "add",
            "down-fail-fast",
            json!({ "jobId": job_id(2), "event": 2 }),
        );
        d.bull_only("add 2: BullMQ says", &v["refused"], "");
        Twin::bull_added(&v)
    });
    let model = d.model_add(2);
    d.same("add 2 while Redis refuses connections", bull, model);
    d.print(format!(
        "queue-truth: {:<22} {:<46} rejected in {} ms",
        "down-fail-fast",
        "",
        took.as_millis()
    ));
    assert!(took < Duration::from_secs(1), "fail fast took {took:?}");
    redis.up();
    d.m.health = Health::Up;
    // The client reconnects on its own (BullMQ's retry strategy: a second or so); until
    // then a fail-fast add is still refused, as it would be for the relay.
    let deadline = Instant::now() + Duration::from_secs(10);
    let bull = loop {
        let v = d.bull.call(
            "add",
            "down-fail-fast",
            json!({ "jobId": job_id(2), "event": 2 }),
        );
        let a = Twin::bull_added(&v);
        if a != Added::Refused || Instant::now() > deadline {
            break a;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let model = d.model_add(2);
    d.same("add 2 again once the client reconnected", bull, model);
    d.snapshot("state");
}

#[test]
fn default_client_waits_for_redis() {
    let mut redis = RedisServer::start(Persistence::AppendOnly);
    let mut d = Twin::on("down-hang", &redis.url(), Opts::default());
    d.add("add 1", 1);
    redis.down();
    d.m.health = Health::DownHang;
    let id = d.bull.send(
        "add",
        "down-hang",
        json!({ "jobId": job_id(2), "event": 2 }),
    );
    let bull = match d.bull.wait(id, Duration::from_millis(1500)) {
        None => Added::Hangs,
        Some(v) => Twin::bull_added(&v),
    };
    let model = d.model_add(2);
    d.same("add 2 while Redis is down (1.5 s)", bull, model);
    redis.up();
    d.m.health = Health::Up;
    let (v, took) = timed(|| d.bull.wait(id, Duration::from_secs(15)));
    let bull = v.map_or(Added::Hangs, |v| Twin::bull_added(&v));
    // The model's relay runs its add again once Redis is up; BullMQ's waiting add goes
    // through by itself.
    let model = d.model_add(2);
    d.same("the waiting add returns once Redis is back", bull, model);
    d.print(format!(
        "queue-truth: {:<22} {:<46} returned {} ms after Redis came back",
        "down-hang",
        "",
        took.as_millis()
    ));
    d.snapshot("state");
}

#[test]
fn silent_redis_hangs_even_the_fail_fast_client() {
    let q = "down-silent";
    let opts = Opts {
        offline_queue: false,
        ..Opts::default()
    };
    // A server of its own: a pause stops every client of the server.
    let redis = RedisServer::start(Persistence::AppendOnly);
    let mut d = Twin::on(q, &redis.url(), opts);
    d.add("add 1", 1);
    d.bull.call("pause", q, json!({ "ms": 2500 }));
    d.m.health = Health::DownHang;
    let id = d
        .bull
        .send("add", q, json!({ "jobId": job_id(2), "event": 2 }));
    let bull = match d.bull.wait(id, Duration::from_millis(1500)) {
        None => Added::Hangs,
        Some(v) => Twin::bull_added(&v),
    };
    let model = d.model_add(2);
    d.same("add 2 while Redis is silent (1.5 s)", bull, model);
    d.m.health = Health::Up;
    let v = d.bull.wait(id, Duration::from_secs(10));
    let bull = v.map_or(Added::Hangs, |v| Twin::bull_added(&v));
    let model = d.model_add(2);
    d.same("the add returns once Redis answers again", bull, model);
    d.snapshot("state");
}
