//! The run's scenario tests: the canon's numbers, replay, seeking, refusals, big worlds.

use super::history::{weight, MAX_SAMPLES};
use super::*;
use crate::i18n::Lang;
use outbox_model::preset;
use outbox_model::world::Refusal;

fn canon() -> Scenario {
    preset("canon-dual-write").expect("the lesson's canon preset exists")
}

fn run_to_end(sim: &mut Sim) {
    while sim.tick() {}
}

#[test]
fn running_the_canon_in_the_page_gives_the_models_numbers() {
    let mut sim = Sim::new(canon());
    run_to_end(&mut sim);
    let direct = outbox_model::run(&canon()).counters();
    assert_eq!(sim.world.counters(), direct);
    // The lesson's §2: 100 in the database, 90 in the queue.
    assert_eq!((direct.tasks_in_db, direct.queue_jobs), (100, 90));
}

#[test]
fn replaying_the_log_rebuilds_the_same_world() {
    let mut sim = Sim::new(preset("canon-outbox").unwrap());
    sim.ticks(300);
    sim.act(Action::Kill {
        process: "relay-1".into(),
    })
    .unwrap();
    sim.ticks(500);
    let again = Sim::from_run(&sim.to_run()).unwrap();
    assert_eq!(again.world, sim.world);
    assert_eq!(again.pos(), sim.pos());
}

#[test]
fn stepping_back_and_forward_returns_to_the_same_world() {
    let mut sim = Sim::new(canon());
    sim.ticks(1000);
    let end = sim.world.clone();
    let mut fresh = Sim::new(canon());
    fresh.ticks(700);
    sim.seek(700);
    assert_eq!(sim.world, fresh.world, "seek back by replay");
    sim.back();
    fresh = Sim::new(canon());
    fresh.ticks(699);
    assert_eq!(sim.world, fresh.world, "one step back");
    sim.seek(1000);
    assert_eq!(sim.world, end, "forward again to the end of the log");
    assert_eq!(sim.total(), 1000, "seeking keeps the log");
}

#[test]
fn acting_from_an_earlier_moment_drops_the_later_log() {
    let mut sim = Sim::new(canon());
    sim.ticks(400);
    sim.seek(100);
    sim.act(Action::QueueDown { hang: false }).unwrap();
    assert_eq!(sim.total(), 101);
    let mut fresh = Sim::new(canon());
    fresh.ticks(100);
    fresh.act(Action::QueueDown { hang: false }).unwrap();
    assert_eq!(sim.world, fresh.world);
    assert_eq!(sim.to_run(), fresh.to_run());
}

#[test]
fn a_refused_action_is_not_recorded() {
    let mut sim = Sim::new(canon());
    let err = sim
        .act(Action::Kill {
            process: "nobody".into(),
        })
        .unwrap_err();
    let name = "nobody".to_string();
    assert_eq!(err, ActRefusal::Model(Refusal::NoSuchProcess { name }));
    assert!(err.reason().text(Lang::En).contains("nobody"), "{err}");
    assert_eq!(sim.total(), 0);
}

#[test]
fn bad_runs_are_refused_with_a_reason() {
    let mut run = Sim::new(canon()).to_run();
    run.v = 7;
    assert_eq!(Sim::from_run(&run).unwrap_err(), RunError::Version(7));
    let mut run = Sim::new(canon()).to_run();
    run.scenario.workload.tasks = MAX_PAGE_TASKS + 1;
    assert!(matches!(Sim::from_run(&run), Err(RunError::TooBig { .. })));
    let mut run = Sim::new(canon()).to_run();
    run.inputs = vec![Input::Ticks(MAX_ATOMS + 1)];
    assert_eq!(Sim::from_run(&run).unwrap_err(), RunError::TooLong);
    let mut run = Sim::new(canon()).to_run();
    run.inputs = vec![Input::Act(Action::Restart {
        process: "ghost".into(),
    })];
    assert!(matches!(
        Sim::from_run(&run),
        Err(RunError::Replay { at: 0, .. })
    ));
}

#[test]
fn a_big_world_is_copied_rarely_and_seeking_still_works() {
    let mut s = preset("canon-outbox").unwrap();
    s.workload.tasks = 2_000;
    let mut sim = Sim::new(s.clone());
    while sim.tick() {}
    let end = sim.pos();
    // Rows grow to ~6 000 (tasks, outbox, jobs): copies at least 2 steps per row apart.
    assert!(
        sim.checkpoints.len() <= 1 + (end / 2_000) as usize,
        "{}",
        sim.checkpoints.len()
    );
    sim.seek(end / 2);
    let mut fresh = Sim::new(s);
    fresh.ticks(end / 2);
    assert_eq!(sim.world, fresh.world);
}

#[test]
fn a_deferred_checkpoint_waits_for_its_frame_and_seeking_still_works() {
    let mut s = preset("canon-outbox").unwrap();
    s.workload.tasks = 12_000; // ~36 000 rows: above BIG_WORLD_ROWS before the end
    let mut sim = Sim::new(s.clone());
    sim.defer_big_checkpoints(true);
    let mut deferred = 0;
    while sim.tick() {
        if sim.checkpoint_due() {
            assert!(weight(&sim.world) > BIG_WORLD_ROWS);
            let before = sim.checkpoints.len();
            // More ticks while it waits: nothing is copied.
            sim.ticks(100);
            assert_eq!(sim.checkpoints.len(), before);
            sim.take_due_checkpoint();
            assert!(!sim.checkpoint_due());
            assert_eq!(sim.checkpoints.last().map(|c| c.0), Some(sim.pos()));
            deferred += 1;
        }
    }
    assert!(deferred > 0, "no checkpoint of a big world was deferred");
    let end = sim.pos();
    for at in [end / 3, end - 1] {
        sim.seek(at);
        let mut fresh = Sim::new(s.clone());
        fresh.ticks(at);
        assert_eq!(sim.world, fresh.world, "seek to {at}");
    }
    // Turning deferral off takes a waiting checkpoint at once.
    sim.seek(end);
    sim.due = true;
    sim.defer_big_checkpoints(false);
    assert!(!sim.checkpoint_due());
}

#[test]
fn the_chart_history_stays_small_and_ends_at_the_present() {
    let mut sim = Sim::new(preset("canon-outbox").unwrap());
    run_to_end(&mut sim);
    assert!(sim.samples().len() <= MAX_SAMPLES);
    assert_eq!(sim.samples().last().unwrap().pos, sim.pos());
    assert_eq!(
        sim.samples().last().unwrap().tasks_in_db,
        sim.world.counters().tasks_in_db
    );
}
