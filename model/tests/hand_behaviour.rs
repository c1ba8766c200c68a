//! #42 in the model: the kill rule a card shows is its armed kills' own; kills and SQL
//! errors stay pinned past the log's cap; "what just happened" names them and the events
//! that ended badly; the CDC step's counts add up and its "unpublished" is its offset's.

use outbox_model::happened::happened;
use outbox_model::lesson::{self, Goal};
use outbox_model::scenario::KillRule;
use outbox_model::view::{self, Trouble};
use outbox_model::world::CheckLevel;
use outbox_model::{preset, Action, Step, World};

fn run_to_end(s: &outbox_model::Scenario, actions: &[Action]) -> World {
    let mut w = World::new(s);
    w.set_check_level(CheckLevel::Full);
    for a in actions {
        w.apply(a).expect("the action applies");
    }
    w.run(s.max_ticks);
    assert!(w.violations().is_empty(), "{:?}", w.violations());
    w
}

fn api_rule(w: &World) -> Option<KillRule> {
    view::procs(w)
        .into_iter()
        .find(|p| p.name == "api")
        .and_then(|p| p.rule)
}

#[test]
fn a_preset_s_armed_kill_shows_its_own_rule() {
    // The canon's kill (i % 10 == 3, lesson §2) is not "next time (once)".
    let w = World::new(&preset("canon-dual-write").unwrap());
    assert_eq!(api_rule(&w), Some(KillRule::CanonMod));
    let w = World::new(&preset("dual-write-queue-first").unwrap());
    assert_eq!(api_rule(&w), Some(KillRule::CanonMod));
}

#[test]
fn re_arming_under_every_time_kills_every_request() {
    // Step 1's sandbox (10 requests): arm "next time", then choose "every time" — the page
    // disarms and re-arms the step under the new rule, and every request dies.
    let s = lesson::scenario(Goal::LoseAnEvent);
    let arm = |rule: KillRule| {
        let (when, times) = rule.when();
        Action::ArmKill {
            process: "api".into(),
            step: Step::QueueAdd,
            when,
            times,
        }
    };
    let disarm = Action::Disarm {
        process: "api".into(),
        step: Some(Step::QueueAdd),
    };
    let w = run_to_end(&s, &[arm(KillRule::Next), disarm, arm(KillRule::Always)]);
    let c = w.counters();
    assert_eq!((c.tasks_in_db, c.lost), (10, 10));
    let h = happened(&w);
    assert_eq!(h.kills.len(), 1, "one place: {:?}", h.kills);
    assert_eq!(h.kills[0].times, 10);
    assert_eq!(h.kills[0].prev, Some(Step::Commit));
    assert_eq!(h.lost.len(), 10);
    assert_eq!(h.events(Trouble::Lost).len(), 10);
}

#[test]
fn kills_stay_pinned_after_the_log_drops_them() {
    // The canon dual write: 100 requests, 10 kills; the log keeps far fewer entries than
    // the run writes, the pinned list keeps every kill.
    let w = run_to_end(&preset("canon-dual-write").unwrap(), &[]);
    let log_kills = w
        .log_entries()
        .iter()
        .filter(|e| matches!(e.note, outbox_model::world::Note::Killed))
        .count();
    let h = happened(&w);
    assert_eq!(h.kills.iter().map(|k| k.times).sum::<u32>(), 10);
    assert!(log_kills < 10, "the log still held every kill: {log_kills}");
}

#[test]
fn the_app_role_step_names_its_error_and_statement() {
    // Lesson §3.1: the app role may only INSERT into outbox: SELECT is refused with 42501.
    let (s, actions) = lesson::solution(Goal::RoleDenied);
    let w = run_to_end(&s, &actions);
    let h = happened(&w);
    let e = h
        .errors
        .iter()
        .find(|e| e.code == "42501")
        .expect("a 42501");
    assert!(!e.sql.is_empty());
    let card = view::procs(&w).into_iter().find(|p| p.error.is_some());
    assert_eq!(card.and_then(|p| p.error).map(|e| e.0), Some("42501"));
}

#[test]
fn the_cdc_step_adds_up() {
    // Its scenario: 10 requests, i % 10 == 3 fails (9 tasks); no preloaded rows, so every
    // outbox row is a request's, and once all are delivered none is "unpublished".
    let (s, actions) = lesson::solution(Goal::CdcSurvivesKill);
    assert_eq!(s.workload.preloaded_events, 0);
    let w = run_to_end(&s, &actions);
    let c = w.counters();
    assert_eq!((c.tasks_in_db, c.events_in_outbox, c.queue_jobs), (9, 9, 9));
    assert_eq!((c.events_unpublished, c.lost), (0, 0));
    assert_eq!(view::tables(&w, 4, 5).outbox_unpublished, 0);
    assert!(lesson::step_reached(Goal::CdcSurvivesKill, &w, None));
}
