//! A seed's scenario: a random configuration and a random fault schedule, drawn from the
//! model's one PRNG so a seed names the same scenario on every machine. The weights lean
//! towards the lesson's designs but keep every corner (every API, relay and worker mode,
//! every queue and lock option, CDC, the cleaner, 1–3 of each process, now and then a
//! psql session's slow transaction) coming up often
//! enough to be sampled in a CI slice. Schedules stay small (a few tasks, a few hundred
//! ticks): the swarm's strength is their number, not their size.

use crate::action::{Action, ProcKind, Step, When};
use crate::db::LockMode;
use crate::queue::QueueOptions;
use crate::rng::Rng;
use crate::scenario::{
    processes, ApiMode, CleanerConfig, Config, Fault, RelayConfig, RelayMode, Scenario, ScriptStmt,
    Sink, Timed, WorkerMode, Workload,
};
use crate::world::program;

/// The fault phase: scheduled actions fall in `0..HORIZON_TICKS`, and the run is healed
/// after it (see [`super::check`]).
pub const HORIZON_TICKS: u64 = 600;
/// At most this many standing fault rules and timed actions each (16 together, under the
/// scenario's list limits).
const MAX_RULES: u64 = 6;
const MAX_TIMED: u64 = 10;

/// Picks one of `items` with the given weights.
fn pick<T: Copy>(r: &mut Rng, items: &[(u32, T)]) -> T {
    let total: u32 = items.iter().map(|(w, _)| w).sum();
    let mut x = r.below(total as u64) as u32;
    for &(w, t) in items {
        if x < w {
            return t;
        }
        x -= w;
    }
    items[items.len() - 1].1
}

/// 1 most often, 2 and 3 less: the corners with several processes still come up.
fn one_to_three(r: &mut Rng) -> u8 {
    pick(r, &[(5, 1), (3, 2), (2, 3)])
}

/// The scenario of `seed`: its configuration, workload and fault schedule.
pub fn scenario(seed: u64) -> Scenario {
    // Scrambled, so neighbouring seeds start far apart in SplitMix64's sequence.
    let mut r = Rng::new(seed ^ 0x5EED_5A12_0B0C_0DE5);
    let config = config(&mut r);
    let workload = workload(&mut r);
    let mut s = Scenario {
        name: format!("swarm-{seed}"),
        summary: format!("outbox-sim swarm seed {seed}"),
        seed: r.next_u64(),
        config,
        workload,
        max_ticks: HORIZON_TICKS,
        ..Scenario::default()
    };
    faults(&mut r, &mut s);
    timed(&mut r, &mut s);
    if r.chance(1, 10) {
        // The high-water presets' slow transaction: a psql session takes an outbox id,
        // sleeps inside its transaction while others commit later ids, then commits.
        s.script = vec![
            ScriptStmt::Begin,
            ScriptStmt::InsertEvent,
            ScriptStmt::PgSleep,
            ScriptStmt::Commit,
        ];
    }
    s
}

fn config(r: &mut Rng) -> Config {
    use ApiMode::*;
    let api = pick(
        r,
        &[
            (6, Outbox),
            (2, DualWriteDbFirst),
            (2, DualWriteQueueFirst),
            (1, OutboxPool),
        ],
    );
    let dual = matches!(api, DualWriteDbFirst | DualWriteQueueFirst);
    let retries = pick(r, &[(6, 0), (2, 1), (1, 2)]);
    Config {
        api,
        apis: one_to_three(r),
        // The pooled BEGIN API is not drawn (it would change every drawn world): its
        // pool keeps the default.
        pool_size: crate::scenario::DEFAULT_POOL_SIZE,
        api_app_role: !dual && r.chance(1, 2),
        relays: if r.chance(if dual { 4 } else { 1 }, 10) {
            0
        } else {
            one_to_three(r)
        },
        relay: relay(r),
        workers: if r.chance(1, 12) { 0 } else { one_to_three(r) },
        worker: pick(
            r,
            &[
                (5, WorkerMode::InboxSameTx),
                (2, WorkerMode::NoInbox),
                (1, WorkerMode::InboxOwnTx),
                (1, WorkerMode::ActionThenInbox),
                (2, WorkerMode::ExternalEffect),
            ],
        ),
        external_idempotency_key: r.chance(1, 2),
        queue: queue(r),
        restart_after_ticks: pick(r, &[(2, None), (3, Some(1)), (4, Some(5)), (2, Some(30))]),
        stuck_after_ticks: 500,
        log_cap: 0,
        cdc: r.chance(1, 6),
        cleaner: r.chance(1, 6).then(|| CleanerConfig {
            retention_days: r.below(3) as u32,
            published_only: r.chance(3, 4),
            inbox_retention_days: r.chance(1, 3).then(|| r.below(2) as u32),
            interval_ticks: pick(r, &[(1, 10), (1, 50), (1, 100)]),
        }),
        client_retries: retries,
        api_idempotency_key: r.chance(1, 2),
    }
}

fn relay(r: &mut Rng) -> RelayConfig {
    RelayConfig {
        mode: pick(
            r,
            &[
                (5, RelayMode::Lesson),
                (2, RelayMode::MarkFirst),
                (2, RelayMode::HighWater),
            ],
        ),
        lock: pick(
            r,
            &[
                (4, LockMode::SkipLocked),
                (2, LockMode::Wait),
                (2, LockMode::Nowait),
                (2, LockMode::None),
            ],
        ),
        batch_size: pick(r, &[(3, 1), (3, 2), (2, 3), (1, 5), (1, 100)]),
        poll_interval_ticks: pick(r, &[(1, 0), (2, 1), (2, 3), (2, 10), (1, 20)]),
        job_id: r.chance(5, 6),
        dead_letter_after: r.chance(1, 5).then(|| 1 + r.below(3) as u32),
        sink: if r.chance(1, 10) {
            Sink::Webhook {
                idempotency_key: r.chance(1, 2),
            }
        } else {
            Sink::Queue
        },
    }
}

fn queue(r: &mut Rng) -> QueueOptions {
    let remove_on_complete = r.chance(1, 3);
    let remove_on_fail = r.chance(1, 4);
    QueueOptions {
        remove_on_complete,
        remove_on_fail,
        keep_completed: (!remove_on_complete && r.chance(1, 6)).then(|| r.below(3) as u32),
        keep_failed: (!remove_on_fail && r.chance(1, 6)).then(|| r.below(3) as u32),
        max_stalled_count: pick(r, &[(1, 0), (4, 1), (2, 2), (1, 3)]),
        lock_duration_ticks: pick(r, &[(1, 1), (2, 3), (2, 10), (2, 30)]),
        stalled_interval_ticks: pick(r, &[(1, 1), (2, 5), (2, 30)]),
    }
}

fn workload(r: &mut Rng) -> Workload {
    Workload {
        tasks: pick(
            r,
            &[
                (1, 0),
                (3, 1),
                (3, 2),
                (3, 3),
                (3, 5),
                (2, 8),
                (2, 12),
                (1, 20),
            ],
        ),
        preloaded_events: if r.chance(1, 4) {
            1 + r.below(3) as u32
        } else {
            0
        },
        preloaded_completed: r.chance(1, 10),
        ..Workload::default()
    }
}

/// The processes a fault may name: every one but the psql session (when there is one,
/// its slow transaction is the fault).
fn names(cfg: &Config) -> Vec<(ProcKind, String)> {
    processes(cfg, false)
        .into_iter()
        .map(|(k, n)| (k, k.name(n)))
        .collect()
}

/// A condition for a rule: always, the n-th arrival, a task index class, or one event.
fn when(r: &mut Rng, events: u32) -> When {
    match r.below(4) {
        0 => When::Always,
        1 => When::Nth {
            n: 1 + r.below(3) as u32,
        },
        2 => {
            let modulus = 2 + r.below(3) as u32;
            When::TaskIndexMod {
                modulus,
                remainder: r.below(modulus as u64) as u32,
            }
        }
        _ => When::Event {
            event: 1 + r.below(events.max(1) as u64) as u32,
        },
    }
}

/// A process and one of its program's steps (every step is a kill point).
fn process_step(r: &mut Rng, cfg: &Config) -> (String, Step) {
    let all = names(cfg);
    let (kind, name) = all[r.below(all.len() as u64) as usize].clone();
    let prog = program(kind, cfg, 0);
    (name, prog[r.below(prog.len() as u64) as usize])
}

/// Events the run may mint: one per task and retry, plus the preloaded ones (a rough
/// bound; an event rule naming one that never exists just never fires).
fn events(s: &Scenario) -> u32 {
    let per = if s.workload.preloaded_completed { 2 } else { 1 };
    s.workload.tasks * (1 + s.config.client_retries) + s.workload.preloaded_events * per
}

/// Standing rules: kills and delays at any step of any process, failing and timing-out
/// publishes (poison events among them), the API's business error.
fn faults(r: &mut Rng, s: &mut Scenario) {
    let ev = events(s);
    for _ in 0..r.below(MAX_RULES + 1) {
        let f = match pick(r, &[(5, 0), (2, 1), (2, 2), (1, 3), (1, 4)]) {
            0 => {
                let (process, step) = process_step(r, &s.config);
                Fault::Kill {
                    process,
                    step,
                    when: when(r, ev),
                    times: Some(1 + r.below(2) as u32),
                    per_task: r.chance(1, 5),
                }
            }
            1 => {
                let (process, step) = process_step(r, &s.config);
                Fault::Delay {
                    process,
                    step,
                    when: when(r, ev),
                    ticks: pick(r, &[(1, 1), (1, 5), (1, 40)]),
                    times: Some(1 + r.below(2) as u32),
                }
            }
            2 => Fault::FailPublish {
                event: 1 + r.below(ev.max(1) as u64) as u32,
                times: pick(r, &[(2, 1), (1, 2), (1, u32::MAX)]),
            },
            3 => Fault::PublishTimesOut {
                event: 1 + r.below(ev.max(1) as u64) as u32,
                times: 1,
            },
            _ => Fault::ApiError { when: when(r, ev) },
        };
        s.faults.push(f);
    }
}

/// Timed actions: kills, armed kills, restarts, Redis down (refusing or hanging), up,
/// flushed and restarted, the operator's retry and un-mark, a failing publish.
fn timed(r: &mut Rng, s: &mut Scenario) {
    let ev = events(s);
    let n = r.below(MAX_TIMED + 1);
    for _ in 0..n {
        let at_tick = r.below(HORIZON_TICKS);
        let action = match pick(r, &[(4, 0), (3, 1), (2, 2), (2, 3), (2, 4), (1, 5), (1, 6)]) {
            0 => Action::Kill {
                process: process_step(r, &s.config).0,
            },
            1 => {
                let (process, step) = process_step(r, &s.config);
                Action::ArmKill {
                    process,
                    step,
                    when: when(r, ev),
                    times: Some(1),
                }
            }
            2 => Action::Restart {
                process: process_step(r, &s.config).0,
            },
            3 => Action::QueueDown {
                hang: r.chance(1, 2),
            },
            4 => Action::QueueUp,
            5 => match pick(r, &[(2, 0), (2, 1), (1, 2)]) {
                0 => Action::RedisFlush,
                1 => Action::RedisRestart,
                _ => Action::RetryFailedJobs,
            },
            _ => Action::UnpublishSince {
                since_tick: r.below(HORIZON_TICKS),
            },
        };
        s.schedule.push(Timed { at_tick, action });
    }
    s.schedule.sort_by_key(|t| t.at_tick);
}
