//! Scenarios edited by hand (a file, a link's scenario): every preset with one to five
//! settings changed to another value of the same kind, often at an edge (0, 1, u32::MAX,
//! the largest interval allowed, another mode's name, a flag flipped). Each is refused
//! with a reason, or runs: no panic (these tests build with overflow checks) and no
//! violation of the model's own invariants under full checking.

use outbox_model::json_edit::{at, places};
use outbox_model::rng::Rng;
use outbox_model::{presets, CheckLevel, Scenario, World};
use serde_json::Value;

const NUMBERS: [u64; 11] = [
    0,
    1,
    2,
    3,
    5,
    7,
    20,
    100,
    10_000,
    outbox_model::scenario::MAX_DURATION_TICKS,
    u32::MAX as u64,
];

/// Names of modes, lock kinds, worker variants and conditions, so an edit can swap one
/// for another (or for one that belongs to another setting).
const NAMES: [&str; 17] = [
    "skip_locked",
    "nowait",
    "wait",
    "none",
    "high_water",
    "lesson",
    "mark_first",
    "inbox_same_tx",
    "inbox_own_tx",
    "no_inbox",
    "action_then_inbox",
    "external",
    "dual_write_db_first",
    "dual_write_queue_first",
    "outbox",
    "always",
    "never",
];

#[test]
fn edited_scenarios_are_refused_or_run_cleanly() {
    let mut rng = Rng::new(5);
    let bases: Vec<Value> = presets()
        .into_iter()
        .map(|mut s| {
            s.workload.tasks = s.workload.tasks.min(8);
            s.workload.preloaded_events = s.workload.preloaded_events.min(8);
            serde_json::to_value(s).expect("a scenario serialises")
        })
        .collect();
    let (mut ran, mut refused) = (0, 0);
    for _ in 0..300 {
        let mut v = bases[rng.below(bases.len() as u64) as usize].clone();
        for _ in 0..=rng.below(5) {
            let mut all = Vec::new();
            places(&v, &mut Vec::new(), &mut all);
            let cur = at(&mut v, &all[rng.below(all.len() as u64) as usize]);
            let new = match cur {
                Value::Number(_) | Value::Null => {
                    Value::from(NUMBERS[rng.below(NUMBERS.len() as u64) as usize])
                }
                Value::Bool(b) => Value::Bool(!*b),
                Value::String(_) => Value::from(NAMES[rng.below(NAMES.len() as u64) as usize]),
                _ => continue,
            };
            *cur = new;
        }
        let text = v.to_string();
        let s = match Scenario::from_json(&text) {
            Ok(s) => s,
            Err(e) => {
                assert!(!e.field.is_empty() || !e.message.is_empty(), "{text}");
                refused += 1;
                continue;
            }
        };
        // Big worlds take long in a debug build; the page's limits are tested elsewhere.
        if s.workload.tasks > 50 || s.workload.preloaded_events > 50 {
            continue;
        }
        ran += 1;
        let mut w = World::new(&s);
        w.set_check_level(CheckLevel::Full);
        let mut steps = 0;
        while steps < 20_000 && w.tick() < s.max_ticks && w.step() {
            steps += 1;
        }
        assert!(
            w.violations().is_empty(),
            "{:?}\nin {text}",
            &w.violations()[..w.violations().len().min(3)]
        );
    }
    // Both ways are taken (measured: 149 ran, 149 refused).
    assert!(ran > 100 && refused > 100, "ran {ran}, refused {refused}");
}
