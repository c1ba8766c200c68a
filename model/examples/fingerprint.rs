//! Prints one line per (preset, variant, seed): a hash of everything a run leaves behind
//! (trace hash, counters, log, queue, polls, kills, classes, enabled actions per step, the
//! outbox, task, action and log tables).
//! Run it before and after an internal change and diff the output: any difference is a
//! behaviour change. `cargo run -p outbox-model --release --example fingerprint`.
use outbox_model::scenario::{Timed, When};
use outbox_model::world::CheckLevel;
use outbox_model::{Action, Scenario, World};

fn fnv(h: &mut u64, s: &str) {
    for b in s.bytes() {
        *h = (*h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
    }
}

/// The relays' poll history as `{:?}` printed it when `Poll`'s fields had the lesson's
/// names, so fingerprints stay comparable across the rename.
fn polls_text(w: &World) -> String {
    let history = |h: &Vec<outbox_model::world::Poll>| {
        let polls: Vec<String> = h
            .iter()
            .map(|p| format!("Poll {{ tarqatildi: {}, xato: {} }}", p.published, p.failed))
            .collect();
        format!("[{}]", polls.join(", "))
    };
    let all: Vec<String> = w.polls().iter().map(history).collect();
    format!("[{}]", all.join(", "))
}

/// The processes as `{:?}` printed them when a relay's memory was a struct variant of
/// `Mem` (`Relay { batch, .. }`, not `Relay(RelayMem { batch, .. })`), so fingerprints
/// stay comparable across that change. Only a relay's memory ends in `})` before `kills`.
fn procs_text(w: &World) -> String {
    old_amount(&format!("{:?}", w.procs()))
        .replace("Relay(RelayMem { ", "Relay { ")
        .replace("}), kills: ", "}, kills: ")
}

/// A job's or a held job's `{:?}` as it printed before `summa` was named `amount` (#39),
/// so fingerprints stay comparable across the rename (no other printed field is `amount`).
fn old_amount(text: &str) -> String {
    text.replace("amount: ", "summa: ")
}

fn variants(s: &Scenario) -> Vec<(&'static str, Scenario)> {
    let mut v = vec![("base", s.clone())];
    let mut a = s.clone();
    a.config.relay.job_id = false;
    v.push(("auto-ids", a));
    let mut a = s.clone();
    a.config.relays = 3;
    a.config.workers = 3;
    v.push(("3x3", a));
    let mut a = s.clone();
    a.config.queue.remove_on_complete = true;
    a.config.queue.remove_on_fail = true;
    v.push(("remove", a));
    let mut a = s.clone();
    let t = |at_tick, action| Timed { at_tick, action };
    a.schedule.push(t(40, Action::QueueDown { hang: true }));
    a.schedule.push(t(
        90,
        Action::Kill {
            process: "worker-1".into(),
        },
    ));
    a.schedule.push(t(150, Action::QueueUp));
    a.schedule.push(t(170, Action::QueueDown { hang: false }));
    a.schedule.push(t(260, Action::QueueUp));
    a.schedule.push(t(
        300,
        Action::Kill {
            process: "relay-1".into(),
        },
    ));
    a.schedule.push(t(
        320,
        Action::ArmKill {
            process: "worker-1".into(),
            step: outbox_model::Step::Commit,
            when: When::Always,
            times: Some(2),
        },
    ));
    a.schedule.push(t(600, Action::RetryFailedJobs));
    a.config.relays = a.config.relays.max(1);
    a.config.workers = a.config.workers.max(1);
    v.push(("faults", a));
    let mut a = s.clone();
    a.config.relays = 2;
    a.config.relay.lock = outbox_model::db::LockMode::Wait;
    v.push(("wait", a));
    let mut a = s.clone();
    a.config.relays = 2;
    a.config.relay.lock = outbox_model::db::LockMode::Nowait;
    v.push(("nowait", a));
    v
}

/// Steps `w` until it settles or reaches `max_ticks`, hashing what is enabled before each
/// step and the counters every 97 steps.
fn walk(w: &mut World, max_ticks: u64, h: &mut u64) {
    let mut n = 0;
    while w.tick() < max_ticks && !w.settled() {
        fnv(h, &format!("{:?}", w.enabled()));
        if !w.step() {
            break;
        }
        n += 1;
        if n % 97 == 0 {
            fnv(h, &format!("{:?}", w.counters()));
        }
    }
}

/// Hashes everything the run left behind.
fn hash_remains(w: &World, h: &mut u64) {
    fnv(h, &format!("{:?}", w.counters()));
    fnv(h, &format!("{:?}", w.log_entries()));
    fnv(h, &format!("{:?}", w.violations()));
    fnv(
        h,
        &old_amount(&format!("{:?}", w.queue().jobs().collect::<Vec<_>>())),
    );
    fnv(h, &format!("{:?}", w.queue().created_order));
    fnv(h, &polls_text(w));
    fnv(h, &format!("{:?}", w.kills()));
    fnv(h, &format!("{:?}", w.script_results()));
    fnv(h, &procs_text(w));
    fnv(h, &format!("{:?}", w.db().outbox));
    fnv(h, &format!("{:?}", w.db().tasks));
    fnv(h, &format!("{:?}", w.db().actions));
    fnv(h, &format!("{:?}", w.db().wal));
    fnv(
        h,
        &format!("{:?}", w.db().unpublished_ids().collect::<Vec<_>>()),
    );
    fnv(
        h,
        &format!("{:?}", w.auditor().events().collect::<Vec<_>>()),
    );
    for e in w.auditor().events().map(|(e, _)| e).take(300) {
        fnv(h, &format!("{:?}", w.judge(e)));
    }
}

/// Runs variant `s` with `seed` (capped for the fingerprint) and prints its line.
fn fingerprint(preset: &str, vn: &str, s: &Scenario, seed: u64, full: bool) {
    let mut s = s.clone();
    s.seed = seed;
    s.max_ticks = s.max_ticks.min(20_000);
    s.config.log_cap = 100_000;
    let mut w = World::new(&s);
    w.set_check_level(if full {
        CheckLevel::Full
    } else {
        CheckLevel::Touched
    });
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    walk(&mut w, s.max_ticks, &mut h);
    hash_remains(&w, &mut h);
    println!(
        "{:<28} {:<8} seed {:>3} full {} trace {:016x} steps {:>6} all {:016x}",
        preset,
        vn,
        seed,
        full as u8,
        w.trace_hash(),
        w.steps(),
        h
    );
}

fn main() {
    for p in outbox_model::presets() {
        for (vn, s) in variants(&p) {
            if s.validate().is_err() {
                continue;
            }
            for seed in [p.seed, 1, 2, 3, 4, 5, 99] {
                for full in [false, true] {
                    if full && seed > 2 {
                        continue;
                    }
                    fingerprint(&p.name, vn, &s, seed, full);
                }
            }
        }
    }
}
