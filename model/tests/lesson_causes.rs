//! The catalogue of wrong causes (#41): for each lesson step, runs that produce the step's
//! symptom (a loss, a phantom, a repeat, a rollback) by another road — a double worker
//! kill at COMMIT on one job, a Redis flush, a relay killed where it does not matter, a
//! kill of the wrong process or at the wrong step, Play alone — none of which reaches the
//! goal; and the step's own solution, which does. A goal judged by its cause is reached
//! only by the act the step teaches.
//!
//! The roads do not rely on a job in BullMQ's failed set counting as lost: where a road's
//! symptom is checked, it is a loss by another cause (a flush), a repeat, or a rollback.

use outbox_model::lesson::{self, Goal, LessonStep, STEPS};
use outbox_model::scenario::{Fault, Timed, When};
use outbox_model::{Action, CheckLevel, Counters, Scenario, Step, World};

fn arm(process: &str, step: Step, n: u32, times: u32) -> Action {
    Action::ArmKill {
        process: process.into(),
        step,
        when: When::Nth { n },
        times: Some(times),
    }
}

/// Runs `s` after applying `acts` (a refused act, as an arm on a process the scenario
/// lacks, changes nothing), to the end.
fn play(s: &Scenario, acts: &[Action]) -> World {
    let mut w = World::new(s);
    w.set_check_level(CheckLevel::Touched);
    for a in acts {
        let _ = w.apply(a);
    }
    w.run(s.max_ticks);
    w
}

/// The scenario without its built-in kills (the predict steps carry the one they teach).
fn without_kills(mut s: Scenario) -> Scenario {
    s.faults.retain(|f| !matches!(f, Fault::Kill { .. }));
    s
}

fn with_schedule(mut s: Scenario, at_tick: u64, action: Action) -> Scenario {
    s.schedule.push(Timed { at_tick, action });
    s.schedule.sort_by_key(|t| t.at_tick);
    s
}

/// The worker killed twice at COMMIT on the job of event 1 (every worker armed for that
/// event: the second delivery may go to another one). With BullMQ's default
/// `maxStalledCount` (1) the job goes to the failed set.
fn double_worker_kill(s: &Scenario) -> Vec<Action> {
    let w = World::new(s);
    (1..=3)
        .map(|n| format!("worker-{n}"))
        .filter(|name| w.find(name).is_some())
        .map(|process| Action::ArmKill {
            process,
            step: Step::Commit,
            when: When::Event { event: 1 },
            times: Some(2),
        })
        .collect()
}

/// The learner's answer the step asks for, when it asks one: given right, so only the
/// run decides.
fn why(st: &LessonStep) -> Option<usize> {
    (st.goal == Goal::PublishOutsideLoses).then_some(lesson::WHY_INSIDE_RIGHT)
}

/// One wrong road: a label, the run, and the symptom it must show (so the road is a real
/// other way to the same symptom, not a run where nothing happened).
struct Road {
    label: String,
    world: World,
    symptom: Option<fn(&Counters) -> bool>,
}

fn road(label: &str, s: &Scenario, acts: &[Action]) -> Road {
    Road {
        label: label.into(),
        world: play(s, acts),
        symptom: None,
    }
}

fn showing(mut r: Road, symptom: fn(&Counters) -> bool) -> Road {
    r.symptom = Some(symptom);
    r
}

/// Redis flushed at each of a few ticks (every fifth up to 100: the small runs end near
/// tick 120, and a flush loses only a job not yet acted on): some of them lose a job.
fn flushes(label: &str, s: &Scenario, acts: &[Action]) -> Vec<Road> {
    (5..=100)
        .step_by(5)
        .map(|t| {
            let s = with_schedule(s.clone(), t, Action::RedisFlush);
            road(&format!("{label}: Redis flushed at tick {t}"), &s, acts)
        })
        .collect()
}

fn lost(c: &Counters) -> bool {
    c.lost >= 1
}

/// The roads that must not reach the step's goal.
fn wrong_roads(st: &LessonStep) -> Vec<Road> {
    let own = lesson::scenario(st.goal);
    let (solved_on, acts) = lesson::solution(st.goal);
    // Where the step's solution loads another scenario (a mode switch), the roads are
    // taken there too: the switch is made, the cause is wrong. (Where the switch is the
    // whole act — SKIP LOCKED off, the lesson's cleaner — it is the step's own road.)
    let switch_only = own != solved_on && acts.is_empty();
    let bare = without_kills(if switch_only {
        own.clone()
    } else {
        solved_on.clone()
    });
    let mut v = vec![road("play alone", &own, &[])];
    if own != solved_on && !switch_only {
        v.push(road("play alone after the switch", &bare, &[]));
    }
    v.push(road(
        "double worker kill at COMMIT",
        &bare,
        &double_worker_kill(&bare),
    ));
    v.push(road(
        "relay killed before its SELECT",
        &bare,
        &[arm("relay-1", Step::SelectBatch, 1, 1)],
    ));
    v.push(road(
        "client killed",
        &bare,
        &[arm("client", Step::Await, 1, 1)],
    ));
    let mut flushed = flushes("flush", &bare, &[]);
    // Where the step's symptom is a loss, a flush is a road to it (it loses the jobs the
    // queue holds when it comes).
    let loss = matches!(
        st.goal,
        Goal::LoseAnEvent
            | Goal::PoolLosesEvent
            | Goal::PoolUnderLoad
            | Goal::InboxOwnTxBreaks
            | Goal::PublishOutsideLoses
            | Goal::AtMostOnceLoses
    );
    if loss {
        let any_lost = flushed.iter().any(|r| lost(&r.world.counters()));
        assert!(any_lost, "{}: no flush lost anything", st.id);
    }
    v.append(&mut flushed);
    v.extend(own_wrong_roads(st.goal, &bare));
    v
}

/// The roads each step's own lesson invites: the right process at the wrong step, the
/// wrong process at the right step, the symptom by a flush or an operator.
fn own_wrong_roads(goal: Goal, bare: &Scenario) -> Vec<Road> {
    match goal {
        Goal::LoseAnEvent
        | Goal::PoolLosesEvent
        | Goal::PoolUnderLoad
        | Goal::PhantomEvent
        | Goal::RolledBackTogether
        | Goal::RoleDenied
        | Goal::OutboxKeepsEvents => api_roads(goal, bare),
        Goal::RelaySendsTwice | Goal::TwoRelaysOnce => relay_roads(bare),
        _ => delivery_roads(goal, bare),
    }
}

/// One road per kill: (label, process, step), each armed for its first arrival.
fn kills(bare: &Scenario, list: &[(&str, &str, Step)]) -> Vec<Road> {
    list.iter()
        .map(|&(label, process, step)| road(label, bare, &[arm(process, step, 1, 1)]))
        .collect()
}

/// The API's steps (and the psql session's).
fn api_roads(goal: Goal, bare: &Scenario) -> Vec<Road> {
    match goal {
        // Queue first: every kill between queue.add and COMMIT is the step's cause; before
        // the add there is no job, after COMMIT the task exists.
        Goal::PhantomEvent => kills(
            bare,
            &[
                ("API killed before queue.add", "api", Step::QueueAdd),
                ("API killed at its answer", "api", Step::Respond),
                ("worker killed at COMMIT", "worker-1", Step::Commit),
            ],
        ),
        Goal::LoseAnEvent | Goal::PoolLosesEvent => kills(
            bare,
            &[
                ("API killed before BEGIN", "api", Step::Begin),
                ("API killed at its answer", "api", Step::Respond),
                ("API killed at the task's INSERT", "api", Step::InsertTask),
                ("worker killed at COMMIT", "worker-1", Step::Commit),
            ],
        ),
        Goal::RolledBackTogether => {
            let only_task = (
                "API killed after the task's INSERT only",
                "api",
                Step::InsertEvent,
            );
            let mut v = kills(
                bare,
                &[only_task, ("API killed after COMMIT", "api", Step::Respond)],
            );
            v[0].symptom = Some(|c| c.tasks_in_db == 0);
            let old = road(
                "a failing step rolls back (the old preset)",
                &preset("rollback"),
                &[],
            );
            v.push(showing(old, |c| {
                c.tasks_in_db == 0 && c.events_in_outbox == 0
            }));
            v
        }
        Goal::PoolUnderLoad => pool_roads(goal, bare),
        Goal::RoleDenied => {
            let by_hand = Action::Step {
                process: "psql".into(),
            };
            vec![road(
                "stepped by hand up to the INSERT, then played",
                bare,
                &[by_hand.clone(), by_hand.clone(), by_hand],
            )]
        }
        Goal::OutboxKeepsEvents => vec![road(
            "the worker killed at three steps",
            bare,
            &[
                arm("worker-1", Step::Begin, 1, 1),
                arm("worker-1", Step::Commit, 1, 1),
                arm("worker-1", Step::Complete, 1, 1),
            ],
        )],
        _ => Vec::new(),
    }
}

/// The laptop: one request at a time on the same pool, the API killed between
/// its INSERTs every time (and at its COMMIT): each death rolls its request back
/// whole, nothing is lost. And three requests with the worker killed instead.
fn pool_roads(goal: Goal, bare: &Scenario) -> Vec<Road> {
    let laptop = lesson::scenario(goal);
    let every = |step| Action::ArmKill {
        process: "api".into(),
        step,
        when: When::Always,
        times: None,
    };
    let mut v = vec![
        showing(
            road(
                "one request at a time, killed between its INSERTs",
                &laptop,
                &[every(Step::InsertEvent)],
            ),
            |c| c.tasks_in_db < 30 && c.lost == 0,
        ),
        showing(
            road(
                "one request at a time, killed at COMMIT",
                &laptop,
                &[every(Step::Commit)],
            ),
            |c| c.tasks_in_db < 30 && c.lost == 0,
        ),
    ];
    v.extend(kills(
        bare,
        &[("worker killed at COMMIT", "worker-1", Step::Commit)],
    ));
    v
}

/// The relay's, the worker's, the CDC relay's steps, and the switch-only steps.
fn delivery_roads(goal: Goal, bare: &Scenario) -> Vec<Road> {
    match goal {
        Goal::PublishOutsideLoses | Goal::AtMostOnceLoses => kills(
            bare,
            &[
                ("relay killed before its COMMIT", "relay-1", Step::Commit),
                ("relay killed at its mark", "relay-1", Step::MarkPublished),
                ("worker killed at its ack", "worker-1", Step::Complete),
            ],
        ),
        Goal::CdcSurvivesKill => {
            let mut v = kills(
                bare,
                &[("CDC killed before publishing", "cdc", Step::Publish)],
            );
            v.push(road(
                "CDC killed before its second read",
                bare,
                &[arm("cdc", Step::ReadWal, 2, 1)],
            ));
            v
        }
        Goal::AtLeastOnceDuplicates | Goal::EffectivelyOnce | Goal::OneEffectOfThree => kills(
            bare,
            &[
                ("worker killed at COMMIT", "worker-1", Step::Commit),
                ("worker killed at its action", "worker-1", Step::Action),
                (
                    "relay killed after its add, before its mark",
                    "relay-1",
                    Step::MarkPublished,
                ),
            ],
        ),
        Goal::InboxOwnTxBreaks => kills(
            bare,
            &[
                (
                    "worker killed at the first COMMIT",
                    "worker-1",
                    Step::Commit,
                ),
                ("worker killed at its ack", "worker-1", Step::Complete),
                ("worker killed at its action", "worker-1", Step::Action),
            ],
        ),
        Goal::CanonDualWrite | Goal::CanonOutbox => vec![road("no deaths", bare, &[])],
        Goal::SkipLockedOff | Goal::CleanerKeepsUnpublished => kills(
            &lesson::scenario(goal),
            &[("relay killed at its mark", "relay-1", Step::MarkPublished)],
        ),
        _ => Vec::new(),
    }
}

/// A relay killed where a repeat does not follow, or a repeat by an operator's hand.
fn relay_roads(bare: &Scenario) -> Vec<Road> {
    // The operator's recovery, tried a few times (it is refused while a relay holds a lock).
    let recover = [31, 33, 37, 45, 60, 90].into_iter().fold(
        with_schedule(bare.clone(), 30, Action::RedisFlush),
        |s, t| with_schedule(s, t, Action::UnpublishSince { since_tick: 0 }),
    );
    vec![
        road(
            "relay killed before its add",
            bare,
            &[arm("relay-1", Step::Publish, 1, 1)],
        ),
        road(
            "relay killed before its COMMIT",
            bare,
            &[arm("relay-1", Step::Commit, 1, 1)],
        ),
        road("flushed, then the operator unpublishes", &recover, &[]),
    ]
}

fn preset(name: &str) -> Scenario {
    outbox_model::preset(name).expect("preset")
}

#[test]
fn no_wrong_road_reaches_a_step_and_its_solution_does() {
    let mut roads = 0;
    for st in STEPS {
        for r in wrong_roads(st) {
            roads += 1;
            let w = &r.world;
            if st.measurement && r.label.starts_with("play alone") {
                // A measurement is reached by Play alone: that road is its own.
                assert!(lesson::step_reached(st.goal, w, why(st)), "{}", st.id);
                continue;
            }
            if st.predict.is_some() && r.label.starts_with("play alone") && r.label.len() == 10 {
                // The act of a prediction step is the guess the page asks before the kill
                // its scenario carries (`lesson_play_alone_reaches_only_measurements`).
                continue;
            }
            assert!(
                !lesson::step_reached(st.goal, w, why(st)),
                "{}: reached by a wrong road: {} ({:?}); goal {}",
                st.id,
                r.label,
                w.counters(),
                st.goal_text
            );
            if let Some(symptom) = r.symptom {
                assert!(
                    symptom(&w.counters()),
                    "{}: {}: the road does not show the symptom: {:?}",
                    st.id,
                    r.label,
                    w.counters()
                );
            }
        }
        let (s, actions) = lesson::solution(st.goal);
        let w = play(&s, &actions);
        assert!(
            lesson::step_reached(st.goal, &w, why(st)),
            "{}: its own solution does not reach {}: {:?}",
            st.id,
            st.goal_text,
            w.counters()
        );
    }
    // 20 steps, at least six roads each.
    assert!(roads >= 6 * STEPS.len(), "{roads} roads");
}

/// The step teaches a cause, and the catalogue holds a road to its symptom by another:
/// a loss by a flush where the step's loss is by a kill.
#[test]
fn a_flush_loses_an_event_without_reaching_a_loss_step() {
    for goal in [
        Goal::LoseAnEvent,
        Goal::PoolLosesEvent,
        Goal::PoolUnderLoad,
        Goal::InboxOwnTxBreaks,
    ] {
        let (s, _) = lesson::solution(goal);
        let s = without_kills(s);
        let roads = flushes("flush", &s, &[]);
        assert!(
            roads.iter().any(|r| r.world.counters().lost >= 1),
            "{goal:?}"
        );
        assert!(
            roads.iter().all(|r| !lesson::reached(goal, &r.world)),
            "{goal:?}"
        );
    }
}

/// Pressing ▶ alone reaches exactly the measurement steps; a prediction step's scenario
/// carries the kill its guess is about (the page stops before it and asks: the guess is
/// the learner's act, checked end to end in `tests/lesson.rs`).
#[test]
fn play_alone_reaches_exactly_the_measurement_steps() {
    let measured: Vec<&str> = STEPS
        .iter()
        .filter(|s| s.measurement)
        .map(|s| s.id)
        .collect();
    // The lesson's two canon runs (§2): 100 tasks, 90 jobs; 100 tasks, 100 jobs; and the
    // summary's (#43): the canon outbox run with its republish, still 100 jobs.
    assert_eq!(measured, ["canon-dual", "canon-outbox", "summary"]);
    for st in STEPS {
        let s = lesson::scenario(st.goal);
        let w = play(&s, &[]);
        let reached = lesson::step_reached(st.goal, &w, why(st));
        if st.predict.is_some() {
            let kills = s.faults.iter().any(|f| matches!(f, Fault::Kill { .. }));
            assert!(kills, "{}: a prediction without a kill to stop at", st.id);
        } else {
            assert_eq!(reached, st.measurement, "{}: Play alone", st.id);
        }
    }
}

/// The cause is what the goal reads: the same loss under dual write is reached when the
/// API died after COMMIT and not when it died before.
#[test]
fn the_cause_decides_lose_dual() {
    let s = lesson::scenario(Goal::LoseAnEvent);
    let after = play(&s, &[arm("api", Step::QueueAdd, 1, 1)]);
    let before = play(&s, &[arm("api", Step::Commit, 1, 1)]);
    assert!(after.counters().lost >= 1 && lesson::reached(Goal::LoseAnEvent, &after));
    assert_eq!(before.counters().lost, 0);
    assert!(!lesson::reached(Goal::LoseAnEvent, &before));
    // The record says why: the loss, with its cause.
    let causes = after.causes();
    assert!(causes.fates.iter().any(|(_, f, c, _)| {
        *f == outbox_model::world::Fate::Lost
            && *c
                == outbox_model::world::Cause::Kill {
                    kind: outbox_model::world::ProcKind::Api,
                    step: Step::QueueAdd,
                }
    }));
}
