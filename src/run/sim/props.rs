//! A property test of the page's run bookkeeping: arbitrary sequences of ticks (idle
//! runs far past the end included), kills and restarts of every process, seeks anywhere,
//! steps back at 0, plays past the end; then the run is opened again from its log.
//! Driven by the model's own deterministic generator, so a failure names its seed.

use super::history::{MAX_CHECKPOINTS, MAX_SAMPLES};
use super::*;
use outbox_model::preset;
use outbox_model::rng::Rng;

/// Small scenarios that end, and one that never settles (poison events), with tick
/// limits from 0 (finished before the first tick) to the preset's own.
fn scenario(rng: &mut Rng) -> Scenario {
    let names = [
        "canon-dual-write",
        "canon-outbox",
        "poison-stall",
        "queue-down",
    ];
    let mut s = preset(names[rng.below(names.len() as u64) as usize]).expect("preset exists");
    s.max_ticks = match rng.below(4) {
        0 => 0,
        1 => 1 + rng.below(300),
        // The poison world never settles: its limit bounds the test's time.
        _ => s.max_ticks.min(6_000),
    };
    s
}

fn random_action(rng: &mut Rng, sim: &Sim) -> Action {
    let names: Vec<String> = sim.world.procs().iter().map(|p| p.name.clone()).collect();
    let mut process = names
        .get(rng.below(names.len() as u64 + 1) as usize)
        .cloned()
        .unwrap_or_else(|| "nobody".into());
    if rng.chance(1, 20) {
        process = "<script>\u{0}".into();
    }
    match rng.below(6) {
        0 | 1 => Action::Kill { process },
        2 | 3 => Action::Restart { process },
        4 => Action::QueueDown {
            hang: rng.chance(1, 2),
        },
        _ => Action::QueueUp,
    }
}

/// One random move of the page's controls.
fn random_move(rng: &mut Rng, sim: &mut Sim) {
    match rng.below(10) {
        0 => {
            sim.ticks(u64::MAX); // play past the end
        }
        1 | 2 => {
            sim.ticks(rng.below(400));
        }
        3 | 4 => {
            let a = random_action(rng, sim);
            let _ = sim.act(a);
        }
        5 => sim.seek(rng.below(sim.total() + 10)),
        6 => sim.seek(if rng.chance(1, 2) { 0 } else { u64::MAX }),
        7 => {
            for _ in 0..rng.below(5) {
                sim.back();
            }
        }
        8 => sim.defer_big_checkpoints(rng.chance(1, 2)),
        _ => sim.take_due_checkpoint(),
    }
}

fn assert_bounded(sim: &Sim, seed: u64) {
    assert!(
        sim.samples.len() <= MAX_SAMPLES,
        "seed {seed}: {} samples",
        sim.samples.len()
    );
    assert!(
        sim.checkpoints.len() <= MAX_CHECKPOINTS + 1,
        "seed {seed}: {} checkpoints",
        sim.checkpoints.len()
    );
    assert!(
        sim.sample_every > 0 && sim.checkpoint_every > 0,
        "seed {seed}"
    );
    assert!(sim.pos <= sim.total, "seed {seed}");
    assert!(
        sim.samples.windows(2).all(|w| w[0].pos < w[1].pos),
        "seed {seed}: samples out of order"
    );
    assert_eq!(sim.checkpoints.first().map(|c| c.0), Some(0), "seed {seed}");
}

#[test]
fn arbitrary_sequences_never_panic_stay_bounded_and_reopen_equal() {
    for seed in 0..48u64 {
        let mut rng = Rng::new(seed);
        let mut sim = Sim::new(scenario(&mut rng));
        for _ in 0..40 {
            random_move(&mut rng, &mut sim);
            assert_bounded(&sim, seed);
        }
        let run = sim.to_run();
        let again = Sim::from_run(&run).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(again.to_run(), run, "seed {seed}");
        assert_bounded(&again, seed);
        sim.seek(u64::MAX);
        assert_eq!(again.world, sim.world, "seed {seed}");
        assert_eq!(again.total(), sim.total(), "seed {seed}");
    }
}

/// Actions after the end each move the present: the chart's sampling used to add an
/// off-grid sample per move and double its interval until it wrapped to 0.
#[test]
fn many_moves_after_the_end_keep_the_sampling_interval_sane() {
    let mut sim = Sim::new(preset("canon-dual-write").unwrap());
    sim.ticks(u64::MAX);
    let worker = sim.world.procs()[0].name.clone();
    let start = sim.pos();
    for _ in 0..20_000 {
        let _ = sim.act(Action::QueueDown { hang: false });
        let _ = sim.act(Action::Kill {
            process: worker.clone(),
        });
        assert!(sim.samples.len() <= MAX_SAMPLES);
    }
    assert!(sim.pos() >= start + 20_000, "the moves were accepted");
    assert!(sim.finished(), "the moves were past the end");
    assert!(sim.sample_every > 0 && sim.sample_every <= sim.pos);
    assert_eq!(sim.samples.last().map(|s| s.pos), Some(sim.pos));
}

/// The issue #25 link: the lesson's run with 8 000 idle ticks past its end (and the same
/// with `max_ticks: 0`) is refused, naming the step, instead of panicking.
#[test]
fn idle_ticks_past_the_end_are_refused_naming_the_step() {
    let mut sim = Sim::new(preset("canon-dual-write").unwrap());
    sim.ticks(u64::MAX);
    let end = sim.pos();
    let mut run = Sim::new(preset("canon-dual-write").unwrap()).to_run();
    run.inputs = vec![Input::Ticks(end + 8_000)];
    match Sim::from_run(&run) {
        Err(RunError::TicksAfterEnd { at }) => assert_eq!(at, end),
        other => panic!("{other:?}"),
    }
    run.scenario.max_ticks = 0;
    run.inputs = vec![Input::Ticks(8_000)];
    assert!(matches!(
        Sim::from_run(&run),
        Err(RunError::TicksAfterEnd { at: 0 })
    ));
    // The recorded run itself opens.
    assert_eq!(Sim::from_run(&sim.to_run()).unwrap().world, sim.world);
}

#[test]
fn preloaded_events_count_toward_the_pages_task_cap() {
    let mut run = Sim::new(preset("canon-outbox").unwrap()).to_run();
    run.scenario.workload.tasks = 10;
    run.scenario.workload.preloaded_events = MAX_PAGE_TASKS;
    let e = Sim::from_run(&run).unwrap_err();
    assert!(matches!(e, RunError::TooBig { .. }));
    assert!(e.to_string().contains("preloaded_events"), "{e}");
    run.scenario.workload.preloaded_events = MAX_PAGE_TASKS - 10;
    assert!(Sim::check(&run.scenario).is_ok());
}
