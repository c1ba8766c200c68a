//! The rules the page asks the model for instead of keeping its own copies (#39): what an
//! API design needs, the limits a form clamps to, the canon's kills, the automatic
//! restart, which scenarios are measurements, and the lesson's question.

use outbox_model::action::Reach;
use outbox_model::lesson::{self, Goal, WHY_INSIDE_RIGHT};
use outbox_model::scenario::{
    ApiMode, Config, Fault, CANON_KILL, DEFAULT_RESTART_AFTER_TICKS, MAX_APIS, MAX_BATCH_SIZE,
};
use outbox_model::{preset, presets, Scenario, Step};

#[test]
fn an_outbox_api_gets_a_relay_and_a_dual_write_none() {
    let mut c = Config {
        relays: 2,
        ..Config::default()
    };
    c.set_api(ApiMode::DualWriteDbFirst);
    assert_eq!((c.api, c.relays), (ApiMode::DualWriteDbFirst, 0));
    c.set_api(ApiMode::OutboxPool);
    assert_eq!(c.relays, 1, "an outbox needs a relay");
    c.relays = 3;
    c.set_api(ApiMode::Outbox);
    assert_eq!(c.relays, 3, "the relays there are stay");
    c.set_api(ApiMode::DualWriteQueueFirst);
    assert_eq!(c.relays, 0);
}

#[test]
fn the_form_setters_clamp_to_what_validate_accepts() {
    let mut s = Scenario::default();
    for (n, want) in [
        (0, 1),
        (1, 1),
        (MAX_BATCH_SIZE, MAX_BATCH_SIZE),
        (u32::MAX, MAX_BATCH_SIZE),
    ] {
        s.config.set_batch_size(n);
        assert_eq!(s.config.relay.batch_size, want);
        assert!(s.validate().is_ok());
    }
    s.config.relay.batch_size = MAX_BATCH_SIZE + 1;
    assert_eq!(s.validate().unwrap_err().field, "config.relay.batch_size");
    s.config.set_batch_size(MAX_BATCH_SIZE);
    for (n, want) in [(0, 1), (2, 2), (99, MAX_APIS)] {
        s.config.set_apis(n);
        assert_eq!(s.config.apis, want);
        assert!(s.validate().is_ok());
    }
}

#[test]
fn the_automatic_restart_is_the_default_one() {
    let mut c = Config::default();
    assert_eq!(c.restart_after_ticks, Some(DEFAULT_RESTART_AFTER_TICKS));
    c.set_auto_restart(false);
    assert_eq!(c.restart_after_ticks, None);
    c.set_auto_restart(true);
    assert_eq!(c.restart_after_ticks, Config::default().restart_after_ticks);
}

/// The canon presets kill the API where `add_canon_kills` does: the step right after its
/// COMMIT in their design, at every `i % 10 == 3`.
#[test]
fn the_canon_kills_are_the_canon_presets_kills() {
    for name in ["canon-dual-write", "canon-outbox"] {
        let p = preset(name).unwrap();
        let mut s = p.clone();
        s.faults.clear();
        s.add_canon_kills(true, false);
        assert_eq!(s.faults, p.faults, "{name}");
    }
    let mut s = Scenario::default();
    s.add_canon_kills(false, true);
    let want = Fault::Kill {
        process: "worker-1".into(),
        step: Step::Complete,
        when: CANON_KILL,
        times: None,
        per_task: false,
    };
    assert_eq!(s.faults, vec![want]);
    assert_eq!(
        ApiMode::DualWriteQueueFirst.step_after_commit(),
        Step::Respond
    );
}

#[test]
fn measurements_are_the_canon_presets_and_an_edit_makes_a_scenario_custom() {
    for p in presets() {
        assert_eq!(p.measurement, p.name.starts_with("canon-"), "{}", p.name);
        let back = Scenario::from_json(&p.to_json()).unwrap();
        assert_eq!(back, p, "{} round-trips", p.name);
    }
    // Files and links from before the field read as what they were: not measurements.
    let old = Scenario::from_json(r#"{"name":"canon-outbox"}"#).unwrap();
    assert!(!old.measurement);
    // A scenario that is not a measurement writes no such key (older pages read it).
    assert!(!Scenario::default().to_json().contains("measurement"));
    let mut s = preset("canon-outbox").unwrap();
    s.make_custom();
    assert_eq!(
        (s.name.as_str(), s.summary.as_str(), s.measurement),
        ("custom", "", false)
    );
    // A lesson step made from a canon preset under its own name is not its measurement.
    assert!(!lesson::scenario(Goal::RelaySendsTwice).measurement);
    assert!(lesson::scenario(Goal::CanonOutbox).measurement);
}

#[test]
fn the_why_step_counts_only_with_the_right_answer() {
    let (s, actions) = lesson::solution(Goal::PublishOutsideLoses);
    let mut w = outbox_model::World::new(&s);
    for a in &actions {
        w.apply(a).unwrap();
    }
    w.run(s.max_ticks);
    assert!(lesson::reached(Goal::PublishOutsideLoses, &w));
    assert!(lesson::step_reached(
        Goal::PublishOutsideLoses,
        &w,
        Some(WHY_INSIDE_RIGHT)
    ));
    assert!(!lesson::step_reached(Goal::PublishOutsideLoses, &w, None));
    let wrong = (WHY_INSIDE_RIGHT + 1) % 3;
    assert!(!lesson::step_reached(
        Goal::PublishOutsideLoses,
        &w,
        Some(wrong)
    ));
    // Other steps ask no question.
    let s = preset("canon-outbox").unwrap();
    let w = outbox_model::run(&s);
    assert!(lesson::step_reached(Goal::CanonOutbox, &w, None));
}

#[test]
fn every_step_reaches_somewhere() {
    assert_eq!(Step::QueueAdd.reaches(), Reach::Queue);
    assert_eq!(Step::Send.reaches(), Reach::Api);
    assert_eq!(Step::Respond.reaches(), Reach::Client);
    assert_eq!(Step::Await.reaches(), Reach::Own);
    assert_eq!(Step::Commit.reaches(), Reach::Db);
    assert_eq!(Step::Script(3).reaches(), Reach::Db);
}

/// #39: the scenario format's English names are written; the lesson's names from before
/// the rename still read, and a file cannot give both.
#[test]
fn the_old_names_still_read() {
    let old = r#"{"name":"x","config":{"relay":{"partiya":7}},"workload":{"summa":50000}}"#;
    let s = Scenario::from_json(old).unwrap();
    assert_eq!((s.config.relay.batch_size, s.workload.amount), (7, 50_000));
    let new = s.to_json();
    assert!(new.contains(r#""batch_size":7"#) && new.contains(r#""amount":50000"#));
    assert!(!new.contains("partiya") && !new.contains(r#""summa""#));
    assert_eq!(Scenario::from_json(&new).unwrap(), s);
    let both = r#"{"name":"x","config":{"relay":{"partiya":7,"batch_size":8}}}"#;
    assert!(Scenario::from_json(both).is_err());
}
