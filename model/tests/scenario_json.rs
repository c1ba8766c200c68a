//! Scenario files: errors name the field; nothing a user can type makes the model panic.

use outbox_model::Scenario;

#[test]
fn unknown_field_is_named() {
    let e = Scenario::from_json(r#"{"name":"x","config":{"relayz":2}}"#).unwrap_err();
    assert_eq!(e.field, "relayz");
}

#[test]
fn wrong_type_names_the_key() {
    let e =
        Scenario::from_json("{\"name\":\"x\",\n\"workload\":{\"tasks\":\"many\"}}").unwrap_err();
    assert_eq!(e.field, "tasks");
}

#[test]
fn out_of_range_values_are_refused() {
    let e = Scenario::from_json(r#"{"name":"x","config":{"relays":9}}"#).unwrap_err();
    assert_eq!(e.field, "config.relays");
    let e = Scenario::from_json(r#"{"name":"x","faults":[{"fault":"kill","process":"relay-7","step":"commit","when":"always","times":null}]}"#).unwrap_err();
    assert_eq!(e.field, "faults[0].process");
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
