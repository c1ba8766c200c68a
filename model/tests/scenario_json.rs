//! Scenario files: errors name the field; nothing a user can type makes the model panic.

use outbox_model::Scenario;

#[test]
fn unknown_field_is_named() {
    let e = Scenario::from_json(r#"{"name":"x","config":{"relayz":2}}"#).unwrap_err();
    // The whole path since #39 (serde_path_to_error), as `validate`'s refusals name theirs.
    assert_eq!(e.field, "config.relayz");
}

#[test]
fn wrong_type_names_the_key() {
    let e =
        Scenario::from_json("{\"name\":\"x\",\n\"workload\":{\"tasks\":\"many\"}}").unwrap_err();
    assert_eq!(e.field, "workload.tasks");
}

#[test]
fn out_of_range_values_are_refused() {
    let e = Scenario::from_json(r#"{"name":"x","config":{"relays":9}}"#).unwrap_err();
    assert_eq!(e.field, "config.relays");
    let e = Scenario::from_json(r#"{"name":"x","faults":[{"fault":"kill","process":"relay-7","step":"commit","when":"always","times":null}]}"#).unwrap_err();
    assert_eq!(e.field, "faults[0].process");
}

/// The biggest configuration `validate` lets through (every limit at its top, CDC,
/// cleaner and a psql session) runs `MAX_PROCESSES` processes, within the world's
/// `MAX_PROCS`: a link or a file cannot reach `World::new`'s refusal. One more relay,
/// worker or API is refused by `validate`, not by a panic.
#[test]
fn the_most_processes_a_scenario_can_ask_for_fit_in_a_world() {
    use outbox_model::scenario::{
        processes, CleanerConfig, ScriptStmt, MAX_APIS, MAX_PROCESSES, MAX_RELAYS, MAX_WORKERS,
    };
    use outbox_model::world::MAX_PROCS;
    let mut s = Scenario {
        name: "most-processes".into(),
        ..Scenario::default()
    };
    s.config.apis = MAX_APIS;
    s.config.relays = MAX_RELAYS;
    s.config.workers = MAX_WORKERS;
    s.config.cdc = true;
    s.config.cleaner = Some(CleanerConfig::default());
    s.script = vec![ScriptStmt::Begin];
    s.workload.tasks = 10;
    let s = Scenario::from_json(&s.to_json()).expect("the biggest valid scenario");
    assert_eq!(processes(&s.config, true).len(), MAX_PROCESSES);
    const { assert!(MAX_PROCESSES <= MAX_PROCS) };
    let w = outbox_model::run(&s);
    assert_eq!(w.procs().len(), MAX_PROCESSES);
    let one_more = |key: &str, max: u8| format!(r#"{{"{key}":{}}}"#, max + 1);
    for (field, json) in [
        ("config.apis", one_more("apis", MAX_APIS)),
        ("config.relays", one_more("relays", MAX_RELAYS)),
        ("config.workers", one_more("workers", MAX_WORKERS)),
        ("config.relays", r#"{"relays":255,"apis":255}"#.into()),
    ] {
        let e = Scenario::from_json(&format!(r#"{{"name":"x","config":{json}}}"#)).unwrap_err();
        assert_eq!(e.field, field, "{json}");
    }
}

/// A scenario built in code that skips `validate` and asks for more: a clear refusal.
#[test]
#[should_panic(expected = "a world runs at most 16 processes, this scenario asks for 22")]
fn a_world_refuses_more_processes_than_it_can_run() {
    let mut s = Scenario::default();
    s.config.relays = 20;
    s.config.workers = 0;
    outbox_model::World::new(&s);
}

/// Found by the page's edited-link test: a poll interval of u64::MAX overflowed
/// `tick + interval` in the relay. Every duration that is added to the tick is bounded.
#[test]
fn durations_that_would_overflow_the_clock_are_refused() {
    use outbox_model::scenario::MAX_DURATION_TICKS;
    for (json, field) in [
        (
            r#"{"relay":{"poll_interval_ticks":N}}"#,
            "config.relay.poll_interval_ticks",
        ),
        (r#"{"restart_after_ticks":N}"#, "config.restart_after_ticks"),
        (r#"{"stuck_after_ticks":N}"#, "config.stuck_after_ticks"),
        (
            r#"{"queue":{"lock_duration_ticks":N}}"#,
            "config.queue.lock_duration_ticks",
        ),
        (
            r#"{"queue":{"stalled_interval_ticks":N}}"#,
            "config.queue.stalled_interval_ticks",
        ),
        (
            r#"{"cleaner":{"interval_ticks":N}}"#,
            "config.cleaner.interval_ticks",
        ),
    ] {
        let at = |n: u64| {
            format!(
                r#"{{"name":"x","config":{}}}"#,
                json.replace('N', &n.to_string())
            )
        };
        let e = Scenario::from_json(&at(u64::MAX)).unwrap_err();
        assert_eq!(e.field, field);
        let e = Scenario::from_json(&at(MAX_DURATION_TICKS + 1)).unwrap_err();
        assert_eq!(e.field, field);
        // The bound itself is allowed, and runs.
        let s =
            Scenario::from_json(&at(MAX_DURATION_TICKS)).unwrap_or_else(|e| panic!("{field}: {e}"));
        let mut w = outbox_model::World::new(&s);
        for _ in 0..2_000 {
            w.step();
        }
    }
}

/// The same test found a second one: a scheduled action at u64::MAX. When nothing can
/// run, the clock jumps to the next scheduled action, and the queue's stalled check then
/// added its interval to that tick.
#[test]
fn a_scheduled_action_beyond_the_clock_is_refused() {
    use outbox_model::scenario::MAX_SCHEDULE_TICK;
    let at = |n: u64| {
        format!(
            r#"{{"name":"x","config":{{"relays":0,"workers":0}},"workload":{{"tasks":0}},"schedule":[{{"at_tick":{n},"action":{{"action":"queue_up"}}}}]}}"#
        )
    };
    let e = Scenario::from_json(&at(u64::MAX)).unwrap_err();
    assert_eq!(e.field, "schedule[0].at_tick");
    let s = Scenario::from_json(&at(MAX_SCHEDULE_TICK)).unwrap();
    // Nothing else is alive: the clock jumps to the action and adds to it without overflow.
    let mut w = outbox_model::World::new(&s);
    for _ in 0..100 {
        w.step();
    }
    assert!(
        w.tick() >= MAX_SCHEDULE_TICK,
        "the clock jumped to the action: {}",
        w.tick()
    );
}

#[test]
fn garbage_is_an_error_not_a_panic() {
    for text in [
        "",
        "{",
        "[]",
        "null",
        "{\"name\":1}",
        "\u{0}",
        "{\"name\":\"x\",\"seed\":-1}",
    ] {
        assert!(Scenario::from_json(text).is_err(), "{text:?}");
    }
}

#[test]
fn minimal_scenario_uses_defaults() {
    let s = Scenario::from_json(r#"{"name":"mine","seed":9}"#).unwrap();
    assert_eq!(s.seed, 9);
    assert_eq!(s.config, outbox_model::scenario::Config::default());
}

/// Issue #26: inside a fault or an action (internally tagged, read whole before its
/// fields), serde's error points after the object's last key: the message named `when`
/// for a bad `step`, and `times` for a bad `event`. The field is now the key of the value
/// the error names, after the path serde_path_to_error keeps to the object (#39).
#[test]
fn errors_inside_tagged_objects_name_their_own_field() {
    let cases = [
        (
            r#"{"name":"x","faults":[{"fault":"kill","process":"api","step":"nope","when":"always"}]}"#,
            "faults[0].step",
        ),
        (
            r#"{"name":"x","faults":[{"fault":"fail_publish","event":"x","times":1}]}"#,
            "faults[0].event",
        ),
        (
            r#"{"name":"x","faults":[{"fault":"fail_publish","event":-3,"times":1}]}"#,
            "faults[0].event",
        ),
        (r#"{"name":"x","workload":{"tasks":-1}}"#, "workload.tasks"),
        (
            r#"{"name":"x","config":{"relays":2,"relay":{"lock":"bad"}}}"#,
            "config.relay.lock",
        ),
        (r#"{"name": é}"#, "name"),
    ];
    for (text, field) in cases {
        let e = outbox_model::Scenario::from_json(text).unwrap_err();
        assert_eq!(e.field, field, "{text}: {e}");
    }
}
