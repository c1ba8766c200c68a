//! Links and trace files someone edited by hand, opened by the page: each opens or is
//! refused with a reason, none panics. A test of `run/link.rs` and `trace_io.rs` together,
//! so it lives on the floor that sees both.

use crate::i18n::Lang;
use crate::run::link::from_json;
use crate::run::sim::Input;
use crate::run::sim::{Run, Sim};
use outbox_model::json_edit::edit;
use outbox_model::rng::Rng;
use outbox_model::{presets, Action};
use serde_json::Value;

/// The runs of every preset (a few tasks, 40 steps in), as a link's JSON and as a
/// trace.
fn preset_runs(rng: &mut Rng) -> Vec<(Value, Value)> {
    presets()
        .into_iter()
        .map(|mut s| {
            s.workload.tasks = s.workload.tasks.min(6);
            let mut sim = Sim::new(s);
            for k in 0..40 {
                // Every tenth step a user's action, so the log holds actions to edit.
                let mut acts = if k % 10 == 5 {
                    sim.world().enabled()
                } else {
                    Vec::new()
                };
                acts.retain(|a| *a != Action::Tick);
                if acts.is_empty() {
                    sim.tick();
                } else {
                    let a = acts[rng.below(acts.len() as u64) as usize].clone();
                    sim.act(a).expect("an enabled action");
                }
            }
            let trace = crate::proof::trace_io::trace_of(&sim).expect("a short run");
            (
                serde_json::to_value(sim.to_run()).expect("a run serialises"),
                serde_json::to_value(trace).expect("a trace serialises"),
            )
        })
        .collect()
}

/// Replays longer than 100 000 steps (or of over 1 000 tasks) are left out to keep the
/// test short (the page bounds them at MAX_ATOMS).
fn too_big(v: &Value) -> bool {
    if let Ok(run) = serde_json::from_value::<Run>(v.clone()) {
        let steps = run.inputs.iter().fold(0u64, |n, i| match i {
            Input::Ticks(t) => n.saturating_add(*t),
            Input::Act(_) => n.saturating_add(1),
        });
        if steps > 100_000 || run.scenario.workload.tasks > 1_000 {
            return true;
        }
    }
    if let Ok(t) = serde_json::from_value::<outbox_model::explore::Trace>(v.clone()) {
        if t.scenario.workload.tasks > 1_000 {
            return true;
        }
    }
    false
}

/// A link or a trace file someone edited by hand: the runs of every preset (a few
/// tasks, 40 steps in), as a link's JSON and as a trace, with one to three places set to
/// a value of another kind or at an edge (0, −1, u32::MAX, u64::MAX, a fraction,
/// another process's name, null, …) or removed. Each opens or is refused with a reason;
/// none panics. Replays longer than 100 000 steps are left out to keep the test short
/// (the page bounds them at MAX_ATOMS).
#[test]
fn edited_links_and_traces_open_or_are_refused_never_panic() {
    let mut rng = Rng::new(11);
    let runs = preset_runs(&mut rng);
    let edges: Vec<Value> = serde_json::from_str(
        r#"[0, 1, 2, 3, 7, 64, 4294967295, 18446744073709551615, -1, 1.5, "", "x",
            "relay-1", "relay-3", "worker-1", "api-1", "client", null, true, [], {}]"#,
    )
    .expect("edge values");
    let (mut opened, mut refused) = (0, 0);
    for k in 0..4000 {
        let (run, trace) = &runs[rng.below(runs.len() as u64) as usize];
        let is_trace = k % 3 == 0;
        let mut v = if is_trace { trace } else { run }.clone();
        edit(&mut v, &mut rng, &edges);
        if too_big(&v) {
            continue;
        }
        let text = v.to_string();
        let open = || match is_trace {
            true => crate::proof::trace_io::import(&text).map(|_| ()),
            false => from_json(&text).map(|_| ()).map_err(|e| e.reason()),
        };
        match std::panic::catch_unwind(open) {
            Ok(Ok(())) => opened += 1,
            Ok(Err(e)) => {
                assert!(!e.is_empty(), "an empty reason for {text}");
                assert!(
                    !e.text(Lang::Ru).contains('{'),
                    "an unfilled reason for {text}"
                );
                refused += 1;
            }
            Err(_) => panic!("opening this run panicked: {text}"),
        }
    }
    // Both ways are taken (measured: 231 opened, 3 762 refused).
    assert!(
        opened > 100 && refused > 1000,
        "opened {opened}, refused {refused}"
    );
}
