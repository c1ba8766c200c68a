//! Every failure the swarm kept (`tests/swarm_regressions/*.json`, shrunk scenario files)
//! replays clean now: judged as `outbox-sim swarm --replay FILE` judges it, the design
//! shows only what its expected class allows. A file lands here once what it showed was
//! fixed (in the model, or in the table of `swarm::expect` when the table was wrong); its
//! `summary` says which.

use outbox_model::swarm::check;
use outbox_model::Scenario;
use std::path::PathBuf;

fn kept() -> Vec<(PathBuf, Scenario)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/swarm_regressions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/swarm_regressions")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable");
            let s = Scenario::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, s)
        })
        .collect()
}

#[test]
fn every_kept_failure_replays_clean() {
    let kept = kept();
    assert!(!kept.is_empty(), "the kept failures are read");
    for (path, s) in kept {
        let j = check(&s);
        assert!(
            j.breaches.is_empty(),
            "{}: {:?}",
            path.display(),
            j.breaches
        );
        // Each still shows the outcome it was kept for, now within its design's class.
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        assert!(
            j.allowed.iter().any(|o| name.ends_with(o.name())),
            "{name}: shows {:?}",
            j.allowed
        );
    }
}

#[test]
fn the_replay_command_judges_a_kept_file() {
    let (path, _) = kept().remove(0);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_outbox-sim"))
        .args(["swarm", "--replay", path.to_str().unwrap()])
        .output()
        .expect("run outbox-sim");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("clean: the design's expected class holds"),
        "{text}"
    );
}
