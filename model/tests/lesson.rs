//! The lesson's own numbers (`shared/seed/000_…txt`), reproduced by the model exactly.
//! Each test quotes the line of the lesson its numbers come from.

use outbox_model::action::When;
use outbox_model::db::sqlstate;
use outbox_model::scenario::ScriptStmt;
use outbox_model::world::{CheckLevel, ProcKind};
use outbox_model::{preset, Action, EventId, Step, World};

fn run(name: &str) -> World {
    run_scenario(preset(name).unwrap_or_else(|| panic!("preset {name}")))
}

fn run_scenario(s: outbox_model::scenario::Scenario) -> World {
    let mut w = World::new(&s);
    w.set_check_level(CheckLevel::Full);
    w.run(s.max_ticks);
    assert!(
        w.violations().is_empty(),
        "{}: {:?}",
        s.name,
        w.violations()
    );
    w
}

#[test]
fn canon_dual_write_loses_ten() {
    // Lesson §2: "bazada 100 vazifa, navbatda 90 hodisa — 10 tasi YO'QOLDI".
    let c = run("canon-dual-write").counters();
    assert_eq!((c.tasks_in_db, c.queue_jobs, c.lost), (100, 90, 10));
    assert_eq!(c.phantoms, 0);
}

#[test]
fn canon_outbox_loses_nothing() {
    // Lesson §2: "relay tarqatdi: 100, navbatda: 100 — yo'qotish 0".
    let c = run("canon-outbox").counters();
    assert_eq!(
        (c.tasks_in_db, c.events_in_outbox, c.queue_jobs, c.lost),
        (100, 100, 100, 0)
    );
    assert_eq!(c.events_unpublished, 0);
}

#[test]
fn canon_republish_is_absorbed_by_job_id() {
    // Lesson §2: "o'sha hodisa qayta yuborildi (at-least-once) → navbatda baribir 100
    // (jobId = hodisa_id)", on the canon outbox run: 100 tasks in the database (#43: it
    // read 0 when the preset preloaded events without tasks).
    let c = run("canon-republish").counters();
    assert_eq!(c.tasks_in_db, 100);
    assert_eq!(c.queue_jobs, 100);
    assert_eq!(c.queue_dedup_hits, 1);
    assert_eq!(c.queue_adds, 101);
    assert_eq!(c.lost, 0);
}

#[test]
fn remove_on_complete_lets_the_republish_in() {
    // Lesson §4.2: jobId catches the repeat "faqat ish navbatda turganda" (only while the
    // job is in the queue): with removeOnComplete the first job is done and gone when the
    // relay comes back, so the same jobId is a new job and is delivered again (BullMQ
    // does the same: tests/queue_truth/dedup.rs, remove_on_complete_frees_the_id).
    let c = run("republish-remove-on-complete").counters();
    assert_eq!(
        (c.tasks_in_db, c.queue_adds, c.queue_dedup_hits),
        (100, 101, 0)
    );
    assert_eq!((c.deliveries, c.duplicate_deliveries), (101, 1));
    // The worker's inbox keeps the action at once per event.
    assert_eq!((c.effects, c.duplicate_effects, c.lost), (100, 0, 0));
}

#[test]
fn exercise_2_relay_model() {
    // Lesson §9, exercise 2, expected output:
    //   { tarqatildi: 4, xato: 1 } / { tarqatildi: 1, xato: 0 } / { tarqatildi: 0, xato: 0 }
    //   navbat: 1, 2, 4, 5, 3
    //   3-hodisa urinishlari: 2
    let s = preset("exercise-2").unwrap();
    let mut w = World::new(&s);
    w.set_check_level(CheckLevel::Full);
    let relay = w
        .procs()
        .iter()
        .position(|p| p.kind == ProcKind::Relay)
        .unwrap();
    while w.polls()[relay].len() < 3 {
        assert!(w.step(), "the relay keeps polling");
    }
    let polls: Vec<(u32, u32)> = w.polls()[relay]
        .iter()
        .map(|p| (p.published, p.failed))
        .collect();
    assert_eq!(polls, vec![(4, 1), (1, 0), (0, 0)]);
    let order: Vec<u32> = w.queue().created_order.iter().map(|e| e.0).collect();
    assert_eq!(order, vec![1, 2, 4, 5, 3]);
    let row3 = w.db().event_row(EventId(3)).unwrap();
    assert_eq!(row3.data.urinishlar, 2);
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

#[test]
fn exercise_2_preset_shows_all_three_polls() {
    // Lesson §9, exercise 2: the relay is called three times and the third prints
    // "{ tarqatildi: 0, xato: 0 }" (#43: the preset's run settled after two). Pressing
    // play alone (run to settled) shows all three, and no fourth.
    let w = run("exercise-2");
    let relay = w
        .procs()
        .iter()
        .position(|p| p.kind == ProcKind::Relay)
        .unwrap();
    let polls: Vec<(u32, u32)> = w.polls()[relay]
        .iter()
        .map(|p| (p.published, p.failed))
        .collect();
    assert_eq!(polls, vec![(4, 1), (1, 0), (0, 0)]);
    assert!(w.settled());
}

#[test]
fn exercise_3_payment_inbox() {
    // Lesson §9, exercise 3: three deliveries, the first dies mid-action:
    //   "t-1: jarayon o'ldi — ROLLBACK, balans 0" / "t-1: balans 50000" / "t-1: balans 50000".
    let c = run("exercise-3").counters();
    assert_eq!(c.deliveries, 3);
    assert_eq!(c.balance, 50_000);
    assert_eq!(c.effects, 1);
    assert_eq!(c.duplicate_effects, 0);
    assert_eq!(c.duplicate_deliveries, 2);
}

#[test]
fn two_relays_skip_locked_publish_each_once() {
    // Lesson §4.1: "Kanon testi: 200 hodisa, ikki relay — har biri aynan bir marta".
    let w = run("two-relays-skip-locked");
    let c = w.counters();
    assert_eq!(c.queue_adds, 200);
    assert_eq!(c.queue_dedup_hits, 0);
    assert_eq!(c.queue_jobs, 200);
    assert_eq!(c.events_unpublished, 0);
    // Both relays really worked, side by side.
    let published: Vec<u32> = w
        .procs()
        .iter()
        .enumerate()
        .filter(|(_, p)| p.kind == ProcKind::Relay)
        .map(|(i, _)| w.polls()[i].iter().map(|p| p.published).sum())
        .collect();
    assert_eq!(published.iter().sum::<u32>(), 200);
    assert!(published.iter().all(|&n| n > 0), "{published:?}");
    // Every row was marked once: urinishlar = 1 everywhere.
    assert!(w.db().outbox.iter().all(|r| r.data.urinishlar == 1));
}

/// What "two SKIP LOCKED relays never take the same row" really means: never *at the same
/// time*. A relay that dies after publishing and before marking releases its locks with
/// its rolled-back transaction, and the other relay takes those rows later and publishes
/// them again (absorbed by jobId or delivered twice, but not lost).
#[test]
fn a_dead_skip_locked_relay_hands_its_rows_to_the_other_later() {
    let s = preset("two-relays-skip-locked").unwrap();
    let mut w = World::new(&s);
    w.set_check_level(CheckLevel::Full);
    let relay = ProcKind::Relay.name(1);
    w.apply(&Action::ArmKill {
        process: relay.clone(),
        step: Step::MarkPublished,
        when: When::Always,
        times: Some(1),
    })
    .unwrap();
    w.run(s.max_ticks);
    assert!(w.violations().is_empty(), "{:?}", w.violations());
    let c = w.counters();
    assert_eq!(w.kills().len(), 1, "one kill, at the relay's mark");
    assert_eq!(w.kills()[0].1, Step::MarkPublished);
    // Nothing lost, every row published, but more adds than events: the dead relay's
    // batch went to the queue twice.
    assert_eq!((c.lost, c.events_unpublished), (0, 0));
    assert!(c.queue_adds > 200, "adds {}", c.queue_adds);
    let idx = w.procs().iter().position(|p| p.name == relay).unwrap();
    let other: u32 = w
        .procs()
        .iter()
        .enumerate()
        .filter(|(i, p)| p.kind == ProcKind::Relay && *i != idx)
        .map(|(i, _)| w.polls()[i].iter().map(|p| p.published).sum::<u32>())
        .sum();
    let dead: u32 = w.polls()[idx].iter().map(|p| p.published).sum();
    // Marks that committed: every event once (the dead relay's poll never committed, so
    // the other relay marked that batch besides its own share), and the rolled-back
    // attempt left no trace in urinishlar.
    assert_eq!(dead + other, 200);
    assert!(w.db().outbox.iter().all(|r| r.data.urinishlar == 1));
}

#[test]
fn rollback_leaves_neither_row() {
    // Lesson §3.2: after ROLLBACK "vazifa | hodisa — 0 | 0".
    let c = run("rollback").counters();
    assert_eq!((c.tasks_in_db, c.events_in_outbox), (0, 0));
    assert_eq!((c.queue_adds, c.lost), (0, 0));
}

#[test]
fn app_role_cannot_read_the_outbox() {
    // Lesson §3.2: "INSERT 0 1" then "ERROR: permission denied for table outbox".
    let w = run("app-role");
    let r = &w.script_results();
    let insert = r
        .iter()
        .find(|x| x.stmt == ScriptStmt::InsertEvent)
        .unwrap();
    assert_eq!(insert.result, Ok(1));
    let select = r
        .iter()
        .find(|x| x.stmt == ScriptStmt::SelectCountOutbox)
        .unwrap();
    let e = select.result.as_ref().unwrap_err();
    assert_eq!(e.code, sqlstate::INSUFFICIENT_PRIVILEGE);
    assert_eq!(e.message, "permission denied for table outbox");
    for stmt in [
        ScriptStmt::UpdateOutbox,
        ScriptStmt::DeleteOutbox,
        ScriptStmt::InsertEventReturning,
    ] {
        let x = r.iter().find(|x| x.stmt == stmt).unwrap();
        assert_eq!(
            x.result.as_ref().unwrap_err().code,
            sqlstate::INSUFFICIENT_PRIVILEGE,
            "{stmt:?}"
        );
    }
    // Everything was rolled back.
    assert_eq!(w.counters().events_in_outbox, 0);
}

#[test]
fn the_returning_grant_also_lets_the_app_count_and_read_event_ids() {
    // Lesson §3.2 revokes SELECT; RETURNING hodisa_id then needs SELECT on that column.
    // PostgreSQL (tests/truth/roles.rs checks it) lets one column's SELECT also answer
    // count(*) and `SELECT hodisa_id`, while UPDATE stays refused.
    let w = run("app-role");
    let r = w.script_results();
    let grant = r
        .iter()
        .position(|x| x.stmt == ScriptStmt::GrantReturning)
        .expect("the preset grants");
    assert_eq!(r[grant].result, Ok(0));
    let before = |s: ScriptStmt| r[..grant].iter().find(|x| x.stmt == s).unwrap();
    let after = |s: ScriptStmt| r[grant..].iter().find(|x| x.stmt == s).unwrap();
    let denied = |x: &outbox_model::world::ScriptResult| {
        x.result.as_ref().err().map(|e| e.code) == Some(sqlstate::INSUFFICIENT_PRIVILEGE)
    };
    assert!(denied(before(ScriptStmt::InsertEventReturning)));
    assert!(denied(before(ScriptStmt::SelectCountOutbox)));
    assert_eq!(after(ScriptStmt::InsertEventReturning).result, Ok(1));
    // The one row this transaction inserted: the others were rolled back.
    assert_eq!(after(ScriptStmt::SelectCountOutbox).result, Ok(1));
    assert_eq!(after(ScriptStmt::SelectEventIds).result, Ok(1));
    assert!(denied(after(ScriptStmt::UpdateOutbox)));
    assert_eq!(w.counters().events_in_outbox, 0);
}

#[test]
fn a_grant_rolled_back_grants_nothing_and_autocommit_commits() {
    use outbox_model::scenario::ScriptStmt as S;
    let mut s = preset("app-role").unwrap();
    // BEGIN; GRANT; ROLLBACK takes the grant back, as PostgreSQL's transactional DDL does.
    s.script = vec![
        S::Begin,
        S::GrantReturning,
        S::Rollback,
        S::Begin,
        S::SetRoleApp,
        S::SelectEventIds,
        S::Rollback,
        // psql's autocommit: this INSERT is its own committed transaction.
        S::InsertEvent,
        S::SelectCountOutbox,
    ];
    let w = run_scenario(s);
    let r = w.script_results();
    let ids = r.iter().find(|x| x.stmt == S::SelectEventIds).unwrap();
    assert_eq!(
        ids.result.as_ref().unwrap_err().code,
        sqlstate::INSUFFICIENT_PRIVILEGE
    );
    assert_eq!(
        r.last().unwrap().result,
        Ok(1),
        "the autocommitted row is visible"
    );
    assert_eq!(w.counters().events_in_outbox, 1);
}

#[test]
fn the_cleanup_is_the_lessons_outbox_tozala_word_for_word() {
    // Lesson §7, outboxTozala: "DELETE FROM outbox WHERE tarqatilgan_vaqt < " +
    // "now() - make_interval(days => $1)" with saqlashKun = 7.
    let lesson = "DELETE FROM outbox WHERE tarqatilgan_vaqt < now() - make_interval(days => $1)";
    assert_eq!(outbox_model::sql::CLEANUP, lesson);
    // The model's cleaner keeps the lesson's default, counted in model days.
    let cfg = outbox_model::scenario::CleanerConfig::default();
    assert_eq!(cfg.retention_days, 7);
}

#[test]
fn through_the_pool_the_outbox_loses_what_dual_write_loses() {
    // Lesson §7: "pool.query har safar boshqa ulanishni olishi mumkin, demak boshqa
    // tranzaksiyani". The canon's deaths (i % 10 == 3), now between the task's INSERT
    // and the event's: the same 100 / 90 as dual write (lesson §2), despite the table.
    let w = run("outbox-pool");
    let c = w.counters();
    assert_eq!(
        (c.tasks_in_db, c.events_in_outbox, c.queue_jobs, c.lost),
        (100, 90, 90, 10)
    );
    // With one transaction (the lesson's PoolClient) the same deaths lose nothing: the
    // task rolls back with its event and the client's request simply failed.
    let mut s = preset("outbox-pool").unwrap();
    s.config.api = outbox_model::scenario::ApiMode::Outbox;
    let w = run_scenario(s);
    let c = w.counters();
    assert_eq!((c.tasks_in_db, c.queue_jobs, c.lost), (90, 90, 0));
}
