//! #42: the blow behind an event's trouble, with the tick it struck at, read from the
//! world's cause records (`happened::struck`, `happened::behind`): what the lesson's
//! "what just happened" line and the event-life panel name.

use outbox_model::happened::{behind, happened, struck};
use outbox_model::lesson::{self, Goal};
use outbox_model::world::{Cause, CheckLevel};
use outbox_model::world::{ProcKind, When};
use outbox_model::{Action, Step, World};

fn solved(goal: Goal) -> World {
    let (s, actions) = lesson::solution(goal);
    let mut w = World::new(&s);
    w.set_check_level(CheckLevel::Full);
    for a in &actions {
        w.apply(a).expect("the solution's action applies");
    }
    w.run(s.max_ticks);
    w
}

#[test]
fn a_lost_event_names_the_kill_and_its_tick() {
    // Step 1: the API dies after COMMIT, before queue.add (one kill, lesson §1).
    let w = solved(Goal::LoseAnEvent);
    let h = happened(&w);
    assert_eq!(h.lost.len(), 1, "one kill, one lost event");
    let kill = &h.kills[0];
    assert_eq!((kill.step, kill.times), (Step::QueueAdd, 1));
    let s = struck(&w, h.lost[0]).expect("the lost event has a blow");
    assert_eq!(
        s.cause,
        Cause::Kill {
            kind: ProcKind::Api,
            step: Step::QueueAdd
        }
    );
    assert_eq!(s.tick, kill.tick, "the blow's tick is the kill's");
    assert_eq!(behind(&w, &h), Some(s));
}

#[test]
fn a_rolled_back_event_names_its_kill_though_nothing_is_lost() {
    // Step 7: the kill before COMMIT aborts the one request; no lost, phantom or
    // duplicate event: the story falls back to the first blow recorded.
    let w = solved(Goal::RolledBackTogether);
    let h = happened(&w);
    assert!(h.lost.is_empty() && h.phantoms.is_empty() && h.duplicates.is_empty());
    let s = behind(&w, &h).expect("the kill before COMMIT is recorded");
    assert!(matches!(
        s.cause,
        Cause::Kill {
            step: Step::Commit,
            ..
        }
    ));
    assert_eq!(s.tick, h.kills[0].tick);
}

#[test]
fn every_lost_event_of_many_kills_has_its_own_tick() {
    // "Every time" on step 1's ten requests: ten kills at ten ticks, ten lost events,
    // each naming the kill that struck it (not all the first one's tick).
    let s = lesson::scenario(Goal::LoseAnEvent);
    let mut w = World::new(&s);
    w.apply(&Action::ArmKill {
        process: "api".into(),
        step: Step::QueueAdd,
        when: When::Always,
        times: None,
    })
    .expect("arms");
    w.run(s.max_ticks);
    let h = happened(&w);
    assert_eq!(h.lost.len(), 10);
    let mut ticks: Vec<u64> = h
        .lost
        .iter()
        .map(|&e| struck(&w, e).unwrap().tick)
        .collect();
    ticks.dedup();
    assert_eq!(ticks.len(), 10, "ten kills at ten ticks: {ticks:?}");
    assert_eq!(ticks[0], h.kills[0].tick);
}

#[test]
fn each_killing_step_s_story_names_its_first_kill_s_tick() {
    // The lesson's "what just happened" line names the blow behind the trouble and its
    // tick; for these steps (one kill each in "show me") that is the kill line's tick.
    for goal in [
        Goal::LoseAnEvent,
        Goal::PhantomEvent,
        Goal::PoolLosesEvent,
        Goal::RolledBackTogether,
        Goal::RelaySendsTwice,
        Goal::CdcSurvivesKill,
    ] {
        let w = solved(goal);
        let h = happened(&w);
        let s = behind(&w, &h).unwrap_or_else(|| panic!("{goal:?}: no blow recorded"));
        assert!(matches!(s.cause, Cause::Kill { .. }), "{goal:?}: {s:?}");
        assert_eq!(s.tick, h.kills[0].tick, "{goal:?}");
    }
}
