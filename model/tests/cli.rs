//! `outbox-sim`: the command instructors and tests use.

use std::process::Command;

fn sim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_outbox-sim"))
        .args(args)
        .output()
        .expect("run outbox-sim");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn list_names_every_preset_with_a_summary() {
    let (code, out, _) = sim(&["list"]);
    assert_eq!(code, 0);
    for p in outbox_model::presets() {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(p.name.as_str()));
        let line = line.unwrap_or_else(|| panic!("{} missing from list", p.name));
        assert!(line.len() > p.name.len() + 10, "{line:?} has no summary");
    }
}

#[test]
fn run_prints_the_counters_as_one_json_object() {
    let (code, out, _) = sim(&["run", "canon-dual-write"]);
    assert_eq!(code, 0);
    let c: outbox_model::Counters = serde_json::from_str(out.trim()).expect("one JSON object");
    // Lesson §2: "bazada 100 vazifa, navbatda 90 hodisa — 10 tasi YO'QOLDI".
    assert_eq!((c.tasks_in_db, c.queue_jobs, c.lost), (100, 90, 10));
}

#[test]
fn a_scenario_file_runs_and_a_bad_one_exits_2_naming_the_field() {
    let dir = std::env::temp_dir().join(format!("outbox-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.json");
    std::fs::write(&good, r#"{"name":"mine","seed":3,"workload":{"tasks":7}}"#).unwrap();
    let (code, out, _) = sim(&["run", good.to_str().unwrap()]);
    assert_eq!(code, 0);
    let c: outbox_model::Counters = serde_json::from_str(out.trim()).unwrap();
    assert_eq!((c.tasks_in_db, c.effects, c.lost), (7, 7, 0));

    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"name":"mine","config":{"relays":"two"}}"#).unwrap();
    let (code, out, err) = sim(&["run", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    // The whole path (serde_path_to_error, #39).
    assert!(err.contains("`config.relays`"), "{err}");

    let (code, _, err) = sim(&["run", "no-such-preset-or-file"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("neither a preset nor a readable file"),
        "{err}"
    );
    let (code, _, _) = sim(&[]);
    assert_eq!(code, 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue #26: a non-ASCII value where JSON expects one (`{"name": é}`) panicked while the
/// error's field was looked up (a slice through the middle of `é`); a scenario asking for
/// u64::MAX ticks with a poison event (the relay retries it forever) never ended.
#[test]
fn hostile_files_end_with_a_message() {
    let dir = std::env::temp_dir().join(format!("outbox-sim-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, text) in [
        r#"{"name": é}"#,
        "{\"name\": \"x\", \"seed\": ё}",
        "{\"é\": 1}",
        "\u{feff}{}",
    ]
    .iter()
    .enumerate()
    {
        let f = dir.join(format!("bad{i}.json"));
        std::fs::write(&f, text).unwrap();
        let (code, _, err) = sim(&["run", f.to_str().unwrap()]);
        assert_eq!(code, 2, "{text}: {err}");
        assert!(err.starts_with("outbox-sim: bad scenario"), "{text}: {err}");
    }
    let f = dir.join("forever.json");
    let forever = r#"{"name":"forever","max_ticks":18446744073709551615,
        "workload":{"tasks":3},"faults":[{"fault":"fail_publish","event":1,"times":4294967295}]}"#;
    std::fs::write(&f, forever).unwrap();
    let started = std::time::Instant::now();
    let (code, out, err) = sim(&["run", f.to_str().unwrap(), "--max-ticks", "100000"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("stopped at tick"), "{err}");
    let c: outbox_model::Counters = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(c.tasks_in_db, 3);
    assert!(started.elapsed().as_secs() < 30);
    let (code, _, _) = sim(&["run", f.to_str().unwrap(), "--max-ticks", "lots"]);
    assert_eq!(code, 2);
}

#[test]
fn show_prints_a_preset_that_reads_back_as_the_same_scenario() {
    for name in ["canon-dual-write", "app-role", "exercise-3"] {
        let (code, out, _) = sim(&["show", name]);
        assert_eq!(code, 0, "{name}");
        let back = outbox_model::Scenario::from_json(&out).expect("show prints a scenario");
        assert_eq!(Some(back), outbox_model::preset(name), "{name}");
    }
    let (code, _, err) = sim(&["show", "no-such-preset"]);
    assert_eq!(code, 2);
    assert!(err.contains("outbox-sim list"), "{err}");
}

#[test]
fn a_scenario_left_without_a_seed_gets_the_presets_seed() {
    let s = outbox_model::Scenario::from_json(r#"{"name":"mine"}"#).unwrap();
    assert_eq!(s.seed, outbox_model::scenario::DEFAULT_SEED);
    assert_eq!(outbox_model::preset("canon-outbox").unwrap().seed, s.seed);
}

fn report(preset: &str) -> serde_json::Value {
    let (code, out, err) = sim(&["run", preset]);
    assert_eq!(code, 0, "{preset}: {err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    v["report"].clone()
}

#[test]
fn run_reports_deliveries_inbox_conflicts_errors_and_polls() {
    // Lesson exercise 3: one event delivered three times, the inbox absorbs the repeats
    // (one effect; the third delivery is skipped by the inbox check, the second conflicts).
    let r = report("exercise-3");
    assert_eq!(r["deliveries_per_event"]["max"], 3);
    assert_eq!(r["jobs_created"], 1);
    assert!(r["inbox_conflicts"].as_u64().unwrap() >= 1, "{r}");
    // Lesson exercise 2: five events, publishing event 3 fails once: the first poll
    // publishes 4 and fails 1 ({ tarqatildi: 4, xato: 1 }), the next publishes the last one.
    let r = report("exercise-2");
    let polls = &r["polls"]["newest"]["relay-1"];
    assert_eq!(polls[0], serde_json::json!({"tarqatildi": 4, "xato": 1}));
    assert_eq!(polls[1], serde_json::json!({"tarqatildi": 1, "xato": 0}));
    assert_eq!(
        (
            r["polls"]["tarqatildi"].as_u64(),
            r["polls"]["xato"].as_u64()
        ),
        (Some(5), Some(1))
    );
    // Two relays with plain FOR UPDATE wait on each other's locks; with SKIP LOCKED they
    // never do (#43); both publish the lesson's 200 between them.
    for (name, waits) in [("two-relays-wait", true), ("two-relays-skip-locked", false)] {
        let r = report(name);
        let relays = r["relays"].as_object().unwrap();
        assert_eq!(relays.len(), 2, "{r}");
        let waited = relays
            .values()
            .map(|v| v["lock_wait_ticks"].as_u64().unwrap());
        let published: u64 = relays
            .values()
            .map(|v| v["tarqatildi"].as_u64().unwrap())
            .sum();
        assert_eq!(waited.clone().all(|n| n > 0), waits, "{name}: {r}");
        assert_eq!(waited.sum::<u64>() > 0, waits, "{name}: {r}");
        assert_eq!(published, 200, "{name}: {r}");
        assert!(r["published_per_100_ticks"].as_u64().unwrap() > 0, "{r}");
    }
    // Two NOWAIT relays: the one that finds the rows locked gets 55P03.
    let r = report("two-relays-nowait");
    assert!(r["sql_errors"]["55P03"].as_u64().unwrap() > 0, "{r}");
    // The app role: SELECT, UPDATE, DELETE, RETURNING refused, then UPDATE again after
    // the grant: five 42501s and nothing else.
    let r = report("app-role");
    assert_eq!(r["sql_errors"], serde_json::json!({"42501": 5}));
}

/// A scenario file past the page's import limit (5 MB) is refused before it is read whole,
/// naming the limit (#40: a 14.5 MB file ran 47 s past `--max-ticks`).
#[test]
fn a_file_over_the_import_limit_is_refused_unread() {
    let dir = std::env::temp_dir().join(format!("outbox-sim-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.json");
    let padding = " ".repeat(5_000_001);
    std::fs::write(
        &big,
        format!(r#"{{"name":"big","workload":{{"tasks":1}}}}{padding}"#),
    )
    .unwrap();
    let (code, out, err) = sim(&["run", big.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("at most 5000000 bytes"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A file saved with a UTF-8 byte-order mark (as some Windows editors save) runs.
#[test]
fn a_file_with_a_byte_order_mark_runs() {
    let dir = std::env::temp_dir().join(format!("outbox-sim-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bom.json");
    std::fs::write(
        &file,
        "\u{feff}{\"name\":\"mine\",\"seed\":3,\"workload\":{\"tasks\":7}}",
    )
    .unwrap();
    let (code, out, err) = sim(&["run", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let c: outbox_model::Counters = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(c.tasks_in_db, 7);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Thousands of fault rules are refused naming the list and its limit, at once (#40: 100 000
/// rules ran 47 s past `--max-ticks`).
#[test]
fn a_scenario_with_too_many_fault_rules_is_refused_at_once() {
    let dir = std::env::temp_dir().join(format!("outbox-sim-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rules.json");
    let rule =
        r#"{"fault":"kill","process":"api","step":"respond","when":{"nth":{"n":4000000000}}}"#;
    let rules = vec![rule; 20_000].join(",");
    std::fs::write(
        &file,
        format!(r#"{{"name":"rules","workload":{{"tasks":10}},"faults":[{rules}]}}"#),
    )
    .unwrap();
    let started = std::time::Instant::now();
    let (code, _, err) = sim(&["run", file.to_str().unwrap(), "--max-ticks", "1000"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("`faults`") && err.contains("at most 48"),
        "{err}"
    );
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    std::fs::remove_dir_all(dir).unwrap();
}
