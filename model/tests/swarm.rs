//! The swarm (#46): a seed names one scenario everywhere, every generated scenario is
//! valid and replays from its file, the expected-class table agrees with the explorer, a
//! short stretch of the CI slice is clean, and a broken design is caught and shrunk.

use outbox_model::explore::{explore, Bounds, Design, Property};
use outbox_model::scenario::{Config, WorkerMode};
use outbox_model::swarm::{self, allows, check, check_as, generate, shrink, Facts, Outcome};
use outbox_model::Scenario;

use outbox_model::swarm::CI_SEEDS;

#[test]
fn a_seed_names_one_valid_scenario_that_replays_from_its_file() {
    for seed in 0..2_000 {
        let s = generate::scenario(seed);
        assert_eq!(s, generate::scenario(seed), "seed {seed} is deterministic");
        s.validate()
            .unwrap_or_else(|e| panic!("seed {seed}: {e}: {}", s.to_json()));
        // Under the scenario list limits, whatever they become (a few dozen).
        assert!(s.faults.len() + s.schedule.len() <= 24, "seed {seed}");
        let back = Scenario::from_json(&s.to_json()).expect("its file reads back");
        assert_eq!(back, s);
        if seed % 20 == 0 {
            assert_eq!(check(&back), check(&s), "seed {seed} replays from its file");
        }
    }
}

#[test]
fn the_start_of_the_ci_slice_is_clean_and_covers_every_kind_of_death() {
    let sum = swarm::run_seeds(CI_SEEDS.start..CI_SEEDS.start + 3_000, swarm::own);
    for f in &sum.failures {
        eprintln!("seed {}: {:?}\n{}", f.seed, f.breach, f.shrunk.to_json());
    }
    assert_eq!(sum.violations(), 0);
    assert_eq!(sum.schedules, 3_000);
    assert!(
        sum.configurations.len() > 2_500,
        "{}",
        sum.configurations.len()
    );
    use outbox_model::world::ProcKind::*;
    for kind in [Client, Api, Relay, Worker, Cdc, Cleaner] {
        assert!(
            sum.coverage.keys().any(|(k, _)| *k == kind),
            "no {kind:?} died:\n{}",
            sum.coverage_table()
        );
    }
    // The rare corners come up too.
    for corner in [
        "api=OutboxPool",
        "apis=3",
        "relays=3",
        "relay=HighWater",
        "lock=None",
        "sink=Webhook { idempotency_key: true }",
        "workers=3",
        "worker=ActionThenInbox",
        "worker=InboxOwnTx",
        "max_stalled_count=0",
        "queue=remove_on_complete:true,remove_on_fail:true",
        "cdc=true",
        "cleaner=published_only:false,inbox_retention:true",
    ] {
        assert!(
            sum.corners.get(corner).is_some_and(|&n| n >= 20),
            "{corner}: {:?}",
            sum.corners.get(corner)
        );
    }
    // The designs' expected failures do show: the table is not judging empty runs.
    for o in [
        Outcome::Lost,
        Outcome::DuplicateEffect,
        Outcome::Phantom,
        Outcome::DuplicateTask,
    ] {
        assert!(sum.allowed.get(&o).is_some_and(|&n| n > 10), "{o:?}");
    }
}

/// Every outcome the explorer finds for the lesson's five designs (every interleaving,
/// with kills anywhere) is one the swarm's table allows for that design, with the facts
/// of the explorer's own counterexample; and the lesson's design is allowed none.
#[test]
fn the_expected_class_agrees_with_the_explorer() {
    let b = Bounds::matrix();
    for d in Design::all() {
        let s = d.scenario(&b);
        let r = explore(&s, &b);
        for (p, o) in [
            (Property::Lost, Outcome::Lost),
            (Property::DuplicateEffects, Outcome::DuplicateEffect),
            (Property::Phantoms, Outcome::Phantom),
        ] {
            if let Some(t) = r.counterexample(p) {
                let w = t.verify().expect("the counterexample replays");
                let facts = Facts::of(&t.scenario, &w);
                assert!(
                    allows(&s.config, &facts, o).is_some(),
                    "{}: the explorer shows {o:?} ({facts:?}), the table forbids it",
                    d.name()
                );
            }
        }
    }
    let lesson = Design::OutboxInbox.scenario(&b).config;
    let every_kill = Facts {
        kills: outbox_model::explore::matrix_rows(),
        ..Facts::default()
    };
    for o in Outcome::all() {
        assert_eq!(allows(&lesson, &every_kill, o), None, "{o:?}");
    }
}

/// The deliberately broken design: the worker records the inbox row *after* its action
/// (`ActionThenInbox`, a real program of the model) while claiming to be the lesson's
/// inbox-in-the-action's-transaction. The swarm must catch it within the CI slice's seed
/// range and shrink it to a small scenario.
fn inbox_after_the_action(cfg: &Config) -> Config {
    let mut claimed = cfg.clone();
    if claimed.worker == WorkerMode::ActionThenInbox {
        claimed.worker = WorkerMode::InboxSameTx;
    }
    claimed
}

#[test]
fn a_broken_inbox_is_caught_within_the_ci_slice_and_shrunk() {
    let (seed, breach) = CI_SEEDS
        .clone()
        .find_map(|seed| {
            let s = generate::scenario(seed);
            if s.config.worker != WorkerMode::ActionThenInbox {
                return None;
            }
            let j = check_as(&s, inbox_after_the_action);
            j.breaches.first().map(|b| (seed, b.clone()))
        })
        .expect("the broken inbox is caught in the CI slice");
    assert_eq!(breach.outcome, Outcome::DuplicateEffect, "seed {seed}");
    let s = generate::scenario(seed);
    let small = shrink::shrink(&s, breach.outcome, inbox_after_the_action);
    println!(
        "seed {seed}: size {} -> {}\n{}",
        shrink::size(&s),
        shrink::size(&small),
        small.to_json()
    );
    assert_eq!(
        check_as(&small, inbox_after_the_action).first(),
        Some(Outcome::DuplicateEffect)
    );
    assert!(shrink::size(&small) <= 6, "{}", small.to_json());
    assert!(shrink::size(&small) < shrink::size(&s));
    // Judged as what it really is, the same run is within its class.
    assert!(check(&small).breaches.is_empty());
}

/// The command's run ends with the one line CI reads, and is the same on any number of
/// threads for a seed range.
#[test]
fn the_command_ends_with_one_summary_line() {
    let run = |threads: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_outbox-sim"))
            .args(["swarm", "--seeds", "0..400", "--threads", threads])
            .output()
            .expect("run outbox-sim");
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).expect("utf-8")
    };
    let (one, two) = (run("1"), run("2"));
    let last = two.lines().last().expect("a line");
    assert!(
        last.starts_with("swarm: 400 schedules, ") && last.contains(" 0 violations, "),
        "{last}"
    );
    assert!(last.ends_with(" schedules/s"), "{last}");
    // Everything but the timings agrees.
    fn kills(s: &str) -> Vec<&str> {
        s.lines().filter(|l| l.starts_with("  ")).collect()
    }
    assert_eq!(kills(&one), kills(&two));
}

/// A second broken design, for losses: a high-water relay judged as the lesson's poll
/// (`WHERE tarqatilgan_vaqt IS NULL`). With several APIs committing out of id order it
/// loses events, and the swarm says so.
#[test]
fn a_high_water_relay_judged_as_the_lessons_poll_is_caught() {
    fn as_lesson(cfg: &Config) -> Config {
        let mut c = cfg.clone();
        c.relay.mode = outbox_model::scenario::RelayMode::Lesson;
        c
    }
    let caught = CI_SEEDS.clone().find_map(|seed| {
        let s = generate::scenario(seed);
        (s.config.relay.mode == outbox_model::scenario::RelayMode::HighWater)
            .then(|| check_as(&s, as_lesson).first())
            .flatten()
            .map(|o| (seed, o))
    });
    let (seed, outcome) = caught.expect("caught in the CI slice");
    assert_eq!(outcome, Outcome::Lost, "seed {seed}");
}
