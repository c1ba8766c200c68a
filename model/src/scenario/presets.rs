//! The named presets, in teaching order: one per lesson section or failure the page
//! shows, each a few settings over the default scenario. `model/tests/presets.rs` runs
//! every one.

use super::kill_rule::CANON_KILL;
use super::{
    Action, ApiMode, CleanerConfig, Fault, RelayMode, Scenario, ScriptStmt, Sink, Step, Timed,
    When, WorkerMode, TICKS_PER_DAY,
};
use crate::db::LockMode;

fn kill(process: &str, step: Step, when: When, times: Option<u32>) -> Fault {
    Fault::Kill {
        process: process.into(),
        step,
        when,
        times,
        per_task: false,
    }
}

/// Schedules `action` at `tick`.
fn at(s: &mut Scenario, tick: u64, action: Action) {
    s.schedule.push(Timed {
        at_tick: tick,
        action,
    });
}

fn base(name: &str, summary: &str) -> Scenario {
    Scenario {
        name: name.into(),
        summary: summary.into(),
        ..Scenario::default()
    }
}

/// The canon outbox run with the relay's republish (`canon-republish` and its worker
/// variant).
fn canon_republish() -> Scenario {
    let mut s = base("canon-republish", "The canon outbox run; the relay dies after its first queue.add, the next poll republishes that event and jobId = hodisa_id absorbs it → 100 in the database, still 100 jobs, 1 dedup hit");
    s.workload.tasks = 100;
    s.config.workers = 0;
    s.faults.push(kill("api", Step::Respond, CANON_KILL, None));
    s.faults
        .push(kill("relay-1", Step::Publish, When::Nth { n: 2 }, Some(1)));
    s
}

/// The named presets, in teaching order.
///
/// This is a table, and longer than a function should be on purpose: one entry per
/// preset, each a few lines of settings under the lesson section it illustrates, read top
/// to bottom in the order the page lists them. Splitting it would only scatter the list.
#[allow(clippy::too_many_lines)] // the preset table (see above)
pub fn presets() -> Vec<Scenario> {
    let mut v = Vec::new();

    // Lesson §2: "100 tasks, every i % 10 == 3 the process dies after COMMIT, before the
    // queue write" → "bazada 100 vazifa, navbatda 90 hodisa".
    let mut s = base("canon-dual-write", "Dual write, DB first: the API dies after COMMIT for every i % 10 == 3 → DB 100, queue 90, lost 10");
    s.measurement = true;
    s.config.api = ApiMode::DualWriteDbFirst;
    s.config.api_app_role = false;
    s.config.relays = 0;
    s.config.worker = WorkerMode::NoInbox;
    s.workload.tasks = 100;
    s.faults.push(kill("api", Step::QueueAdd, CANON_KILL, None));
    v.push(s);

    // Lesson §2: the same with the outbox → "relay tarqatdi: 100, navbatda: 100".
    let mut s = base("canon-outbox", "Outbox: the same kills, but the event commits with the task; the relay publishes all → 100 and 100, lost 0");
    s.measurement = true;
    s.workload.tasks = 100;
    s.faults.push(kill("api", Step::Respond, CANON_KILL, None));
    v.push(s);

    // Lesson §7: `hodisaYoz` takes a PoolClient, not a Pool. With the pool, the task and
    // its event are two transactions: the canon's deaths between them lose the event
    // although there is an outbox table.
    let mut s = base("outbox-pool", "Outbox table, but both INSERTs through the pool (two transactions): the API dies between them for every i % 10 == 3 → 100 tasks, 90 events, lost 10");
    s.workload.tasks = 100;
    s.config.api = ApiMode::OutboxPool;
    s.faults
        .push(kill("api", Step::InsertEvent, CANON_KILL, None));
    v.push(s);

    // Lesson §2: "o'sha hodisa qayta yuborildi → navbatda baribir 100". The canon outbox
    // run (#43: it preloaded events without tasks, so its canon line read "0 in the
    // database"); its relay dies after adding its batch's first event, before COMMIT; its
    // next poll adds that event again and BullMQ ignores the known jobId. No worker: the
    // jobs stay in the queue, where jobId can see them.
    let mut s = canon_republish();
    s.measurement = true;
    v.push(s);

    // The same with a worker and removeOnComplete (the lesson's §4.2 caveat): the first
    // job is done and removed before the relay is back, so the republish with the same
    // jobId is a new job, delivered again; the inbox keeps the action at once.
    let mut s = canon_republish();
    s.name = "republish-remove-on-complete".into();
    s.summary = "The same republish with a worker and removeOnComplete: the completed job is gone, so the same jobId is added again → 101 jobs made, a duplicate delivery the inbox absorbs".into();
    s.config.workers = 1;
    s.config.queue.remove_on_complete = true;
    v.push(s);

    // Lesson §9, exercise 2: five events, the publish of event 3 fails the first time.
    let mut s = base("exercise-2", "Exercise 2: five events, publishing event 3 fails once; three polls return 4/1, 1/0, 0/0 and the queue order is 1, 2, 4, 5, 3");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 5;
    s.config.workers = 0;
    s.faults.push(Fault::FailPublish { event: 3, times: 1 });
    // The exercise calls the relay three times; the third poll finds nothing ({ 0, 0 }).
    // The run is settled after the second (tick 34), so a no-op scheduled while the relay
    // sleeps before the third keeps it going: the clock jumps to the relay's wake, the
    // no-op and the third poll's BEGIN run in one step, and the run settles when that
    // poll commits, before a fourth (#43; tests/lesson.rs counts the polls).
    let before_third_poll = 2 * s.config.relay.poll_interval_ticks;
    at(&mut s, before_third_poll, Action::Tick);
    v.push(s);

    // Lesson §9, exercise 3: a 50 000 payment delivered three times, the first delivery
    // dies in the middle of its transaction.
    let mut s = base("exercise-3", "Exercise 3: a 50 000 payment delivered three times, the first dies mid-transaction; the inbox keeps the balance at 50 000");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 1;
    s.workload.amount = 50_000;
    // BullMQ fails a job that stalls more than maxStalledCount times; two stalls are needed
    // for a third delivery.
    s.config.queue.max_stalled_count = 2;
    s.faults
        .push(kill("worker-1", Step::Commit, When::Nth { n: 1 }, Some(1)));
    s.faults.push(kill(
        "worker-1",
        Step::Complete,
        When::Nth { n: 1 },
        Some(1),
    ));
    v.push(s);

    // Lesson §4.1: "200 hodisa, ikki relay — har biri aynan bir marta".
    let mut s = base(
        "two-relays-skip-locked",
        "Two relays with FOR UPDATE SKIP LOCKED over 200 events: no row is held by both at once; in this crash-free run each event is published once",
    );
    s.workload.tasks = 0;
    s.workload.preloaded_events = 200;
    s.config.relays = 2;
    s.config.relay.poll_interval_ticks = 1;
    s.config.workers = 0;
    v.push(s);

    let mut s = base("two-relays-wait", "Two relays with plain FOR UPDATE: the second waits for the first to commit, re-checks, and skips rows already published");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 200;
    s.config.relays = 2;
    s.config.relay.lock = LockMode::Wait;
    s.config.relay.poll_interval_ticks = 1;
    s.config.workers = 0;
    v.push(s);

    let mut s = base(
        "two-relays-nowait",
        "Two relays with FOR UPDATE NOWAIT: a collision is error 55P03 and a rolled-back poll",
    );
    s.workload.tasks = 0;
    s.workload.preloaded_events = 200;
    s.config.relays = 2;
    s.config.relay.lock = LockMode::Nowait;
    s.config.relay.poll_interval_ticks = 1;
    s.config.workers = 0;
    v.push(s);

    let mut s = base("two-relays-no-lock", "Two relays with a plain SELECT: both publish the same rows; jobId absorbs the second add while the job exists");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 200;
    s.config.relays = 2;
    s.config.relay.lock = LockMode::None;
    s.config.relay.poll_interval_ticks = 1;
    s.config.workers = 0;
    v.push(s);

    // Lesson §3.2: the task and its event are written, then ROLLBACK → both gone.
    let mut s = base(
        "rollback",
        "Task and event written in one transaction, then ROLLBACK: 0 tasks, 0 events",
    );
    s.workload.tasks = 1;
    s.faults.push(Fault::ApiError { when: When::Always });
    v.push(s);

    // Lesson §3.2: the app role may INSERT into the outbox but not read it.
    let mut s = base("app-role", "The INSERT-only app role: INSERT works, SELECT / UPDATE / DELETE on the outbox are denied (42501); after GRANT SELECT (hodisa_id) RETURNING works, and so do count(*) and SELECT hodisa_id");
    s.workload.tasks = 0;
    s.config.relays = 0;
    s.config.workers = 0;
    s.script = vec![
        ScriptStmt::Begin,
        ScriptStmt::SetRoleApp,
        ScriptStmt::InsertEvent,
        ScriptStmt::SelectCountOutbox,
        ScriptStmt::Rollback,
        ScriptStmt::Begin,
        ScriptStmt::SetRoleApp,
        ScriptStmt::UpdateOutbox,
        ScriptStmt::Rollback,
        ScriptStmt::Begin,
        ScriptStmt::SetRoleApp,
        ScriptStmt::DeleteOutbox,
        ScriptStmt::Rollback,
        ScriptStmt::Begin,
        ScriptStmt::SetRoleApp,
        ScriptStmt::InsertEventReturning,
        ScriptStmt::Rollback,
        // The grant RETURNING needs (autocommit, as the owner): it makes RETURNING work,
        // and it also lets the app role count the outbox and read every hodisa_id, as
        // PostgreSQL allows with SELECT on one column; UPDATE stays refused.
        ScriptStmt::GrantReturning,
        ScriptStmt::Begin,
        ScriptStmt::SetRoleApp,
        ScriptStmt::InsertEventReturning,
        ScriptStmt::SelectCountOutbox,
        ScriptStmt::SelectEventIds,
        ScriptStmt::UpdateOutbox,
        ScriptStmt::Rollback,
    ];
    v.push(s);

    let mut s = base("dual-write-queue-first", "Dual write, queue first: the API adds the event, then dies before COMMIT for every i % 10 == 3 → 10 phantom events for tasks that never existed");
    s.config.api = ApiMode::DualWriteQueueFirst;
    s.config.api_app_role = false;
    s.config.relays = 0;
    s.config.worker = WorkerMode::NoInbox;
    s.workload.tasks = 100;
    s.faults.push(kill("api", Step::Commit, CANON_KILL, None));
    v.push(s);

    let mut s = base("at-most-once-relay", "Relay marks and commits first, publishes after: it dies between COMMIT and queue.add → those events are lost");
    s.workload.tasks = 20;
    s.config.relay.mode = RelayMode::MarkFirst;
    s.config.relay.batch_size = 5;
    s.faults
        .push(kill("relay-1", Step::Publish, When::Nth { n: 1 }, Some(1)));
    v.push(s);

    let mut s = base("worker-no-inbox", "No inbox: the worker dies after its COMMIT, before acknowledging; the job is delivered again and the action runs twice");
    s.workload.tasks = 10;
    s.config.worker = WorkerMode::NoInbox;
    s.faults
        .push(kill("worker-1", Step::Complete, CANON_KILL, Some(1)));
    v.push(s);

    let mut s = base("worker-inbox-own-tx", "Inbox committed in its own transaction: the worker dies before the action; the redelivery is skipped as a duplicate and the action never happens");
    s.workload.tasks = 10;
    s.config.worker = WorkerMode::InboxOwnTx;
    s.faults
        .push(kill("worker-1", Step::BeginSecond, CANON_KILL, Some(1)));
    v.push(s);

    let mut s = base(
        "worker-action-then-inbox",
        "Action committed first, inbox after: the worker dies between; the redelivery acts again",
    );
    s.workload.tasks = 10;
    s.config.worker = WorkerMode::ActionThenInbox;
    s.faults
        .push(kill("worker-1", Step::BeginSecond, CANON_KILL, Some(1)));
    v.push(s);

    let mut s = base("worker-external-effect", "Side effect outside the transaction (an email): the worker dies after sending, before COMMIT; the email goes out twice");
    s.workload.tasks = 10;
    s.config.worker = WorkerMode::ExternalEffect;
    s.faults
        .push(kill("worker-1", Step::Commit, CANON_KILL, Some(1)));
    v.push(s);

    let mut s = base(
        "worker-external-idempotency-key",
        "The same email, but the service takes hodisa_id as its Idempotency-Key: it sends once",
    );
    s.workload.tasks = 10;
    s.config.worker = WorkerMode::ExternalEffect;
    s.config.external_idempotency_key = true;
    s.faults
        .push(kill("worker-1", Step::Commit, CANON_KILL, Some(1)));
    v.push(s);

    let mut s = base("queue-down", "Redis refuses connections for a while: the relay's adds fail, urinishlar grows, nothing is lost; after Redis is back everything is published");
    s.workload.tasks = 10;
    at(&mut s, 1, Action::QueueDown { hang: false });
    at(&mut s, 300, Action::QueueUp);
    v.push(s);

    let mut s = base("queue-hang", "Redis accepts connections but never answers: the relay's add hangs inside its transaction, its row locks stay and the batch is stuck; when Redis answers again everything flows");
    s.workload.tasks = 10;
    s.config.stuck_after_ticks = 100;
    at(&mut s, 1, Action::QueueDown { hang: true });
    at(&mut s, 600, Action::QueueUp);
    v.push(s);

    let mut s = base("poison-stall", "Three poison events (publish always fails) at the head of the order with partiya 3: every poll takes the same three, urinishlar grows without end and the other 17 are stuck");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 20;
    s.config.relay.batch_size = 3;
    for event in 1..=3 {
        s.faults.push(Fault::FailPublish {
            event,
            times: u32::MAX,
        });
    }
    s.max_ticks = 2_000;
    v.push(s);

    let mut s = base("poison-dead-letter", "The same poison events, but the relay moves a row to outbox_olik after 5 attempts: the head clears and the other 17 are published");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 20;
    s.config.relay.batch_size = 3;
    s.config.relay.dead_letter_after = Some(5);
    for event in 1..=3 {
        s.faults.push(Fault::FailPublish {
            event,
            times: u32::MAX,
        });
    }
    s.max_ticks = 2_000;
    v.push(s);

    let mut s = base("redis-flush", "Redis restarts without persistence after the relay marked rows published: their jobs are gone though the outbox says published; the operator un-marks rows published since before the crash, the relay republishes and the inbox absorbs the overlap");
    s.workload.tasks = 30;
    s.config.relay.poll_interval_ticks = 5;
    at(&mut s, 150, Action::RedisFlush);
    at(&mut s, 400, Action::UnpublishSince { since_tick: 0 });
    v.push(s);

    let mut s = base("cdc-relay", "CDC relay: reads committed changes in commit order (rolled-back ones never appear), dies after publishing before saving its offset, and is down a while: the slot retains the log, the restart republishes and jobId absorbs it");
    s.workload.tasks = 10;
    s.workload.preloaded_events = 20;
    s.config.relays = 0;
    s.config.cdc = true;
    s.config.restart_after_ticks = None;
    s.faults.push(Fault::ApiError { when: CANON_KILL });
    s.faults
        .push(kill("cdc", Step::SaveOffset, When::Nth { n: 1 }, Some(1)));
    at(
        &mut s,
        300,
        Action::Restart {
            process: "cdc".into(),
        },
    );
    v.push(s);

    // The same schedule for both high-water presets: a psql session takes an id, sleeps
    // inside its transaction while the API commits later ids, then commits.
    let slow_tx = vec![
        ScriptStmt::Begin,
        ScriptStmt::InsertEvent,
        ScriptStmt::PgSleep,
        ScriptStmt::Commit,
    ];
    let mut s = base("high-water-relay", "High-water-mark relay (WHERE id > last_id): a slow transaction takes its id early and commits after the mark has passed it → its event is never read, lost for good");
    s.workload.tasks = 20;
    s.config.relay.mode = RelayMode::HighWater;
    s.config.relay.poll_interval_ticks = 5;
    s.script = slow_tx.clone();
    v.push(s);

    let mut s = base("high-water-lesson-poll", "The same slow transaction with the lesson's poll (WHERE tarqatilgan_vaqt IS NULL): the late row is picked up by the next poll, later than higher ids but not lost");
    s.workload.tasks = 20;
    s.config.relay.poll_interval_ticks = 5;
    s.script = slow_tx;
    v.push(s);

    // Lesson §4.1, the third decision: the publisher is passed in, so the same relay feeds
    // a webhook. Event 3's POST times out after the receiver acted (retried: acted twice);
    // event 5 gets a 5xx twice (not acted; retried until it lands).
    let webhook = |name: &str, summary: &str, key: bool| {
        let mut s = base(name, summary);
        s.workload.tasks = 10;
        s.config.workers = 0;
        s.config.relay.sink = Sink::Webhook {
            idempotency_key: key,
        };
        s.faults.push(Fault::PublishTimesOut { event: 3, times: 1 });
        s.faults.push(Fault::FailPublish { event: 5, times: 2 });
        s
    };
    v.push(webhook("webhook", "The relay feeds a webhook instead of the queue: event 3's POST times out after the receiver acted and is sent again → acted twice (DUP-E 1); event 5's 5xx twice → retried, acted once", false));
    v.push(webhook("webhook-idempotency-key", "The same webhook with Idempotency-Key: hodisa_id: the receiver acts once per key → the timed-out event 3 is acted on once (DUP-E 0)", true));

    // #20: the same loss without a scripted session: two API instances, api-1's COMMIT
    // slow for every task with i % 10 == 4 (it takes the even tasks: 4 and 14).
    let mut s = base("high-water-two-apis", "Two API instances and a slow COMMIT on api-1: its row takes its id early and commits late; the high-water relay's mark passes it → lost, with no scripted psql session");
    s.workload.tasks = 20;
    s.config.apis = 2;
    s.config.relay.mode = RelayMode::HighWater;
    s.config.relay.poll_interval_ticks = 5;
    s.faults.push(Fault::Delay {
        process: "api-1".into(),
        step: Step::Commit,
        when: When::TaskIndexMod {
            modulus: 10,
            remainder: 4,
        },
        ticks: 40,
        times: None,
    });
    v.push(s);

    // Relay down for 4 days (killed at tick 1, restarted at tick 400), retention 1 day.
    let relay_down = |s: &mut Scenario| {
        s.config.restart_after_ticks = None;
        at(
            s,
            1,
            Action::Kill {
                process: "relay-1".into(),
            },
        );
        at(
            s,
            4 * TICKS_PER_DAY,
            Action::Restart {
                process: "relay-1".into(),
            },
        );
    };
    let mut s = base("cleaner-by-age", "A cleaner without the tarqatilgan_vaqt filter (retention 1 day) while the relay is down for 4 days: it deletes unpublished rows → every event lost");
    s.workload.tasks = 10;
    s.config.cleaner = Some(CleanerConfig {
        retention_days: 1,
        published_only: false,
        ..CleanerConfig::default()
    });
    relay_down(&mut s);
    v.push(s);

    let mut s = base("cleaner-published-only", "The lesson's outboxTozala (retention 1 day, only published rows) with the relay down for 4 days: nothing unpublished is touched, nothing is lost");
    s.workload.tasks = 10;
    s.config.cleaner = Some(CleanerConfig {
        retention_days: 1,
        ..CleanerConfig::default()
    });
    relay_down(&mut s);
    v.push(s);

    let mut s = base("inbox-retention", "Inbox rows kept 1 day, but the relay dies after publishing, before COMMIT, and is down for 5 days: its republish makes new jobs (removeOnComplete) and the inbox no longer knows them → every action runs twice");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 5;
    s.config.queue.remove_on_complete = true;
    s.config.restart_after_ticks = None;
    s.config.cleaner = Some(CleanerConfig {
        inbox_retention_days: Some(1),
        ..CleanerConfig::default()
    });
    s.faults.push(kill(
        "relay-1",
        Step::MarkPublished,
        When::Nth { n: 1 },
        Some(1),
    ));
    at(
        &mut s,
        5 * TICKS_PER_DAY,
        Action::Restart {
            process: "relay-1".into(),
        },
    );
    v.push(s);

    let mut s = base("client-retry", "The API commits, then dies before answering (i % 10 == 3, once); the client retries without an idempotency key → a second task and a second event with a new hodisa_id, acted on twice");
    s.workload.tasks = 10;
    s.config.client_retries = 1;
    s.faults
        .push(kill("api", Step::Respond, CANON_KILL, Some(1)));
    v.push(s);

    let mut s = base("client-retry-idempotency-key", "The same lost answer and retry, but the API stores the client's key in the request's transaction: the retry writes nothing and gets the first result");
    s.workload.tasks = 10;
    s.config.client_retries = 1;
    s.config.api_idempotency_key = true;
    s.faults
        .push(kill("api", Step::Respond, CANON_KILL, Some(1)));
    v.push(s);

    let mut s = base("ordering-retry", "Each task has two events, created then completed; publishing task 0's created event fails once, so its retry reaches the queue after completed → the consumer sees them out of order");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 5;
    s.workload.preloaded_completed = true;
    s.faults.push(Fault::FailPublish { event: 1, times: 1 });
    v.push(s);

    let mut s = base("relay-lag", "A relay that publishes one row per poll (partiya 1, every 20 ticks) behind a client writing faster: the age of the oldest unpublished row grows as long as the writers keep on");
    s.workload.tasks = 150;
    s.config.relay.batch_size = 1;
    v.push(s);

    let mut s = base("two-copies-at-once", "Two relays without locks and without jobId put two jobs per event in the queue; two workers take both copies at once: the second INSERT … ON CONFLICT waits for the first transaction, then does nothing");
    s.workload.tasks = 0;
    s.workload.preloaded_events = 20;
    s.config.relays = 2;
    s.config.relay.lock = LockMode::None;
    s.config.relay.job_id = false;
    s.config.relay.poll_interval_ticks = 1;
    s.config.workers = 2;
    v.push(s);

    v
}

pub fn preset(name: &str) -> Option<Scenario> {
    presets().into_iter().find(|s| s.name == name)
}
