//! The page's snapshots agree with the world they are taken from.

use outbox_model::queue::JobState;
use outbox_model::{preset, run, view};

#[test]
fn snapshots_agree_with_the_counters() {
    let w = run(&preset("canon-outbox").unwrap());
    let c = w.counters();
    let t = view::tables(&w, 4, 5);
    assert_eq!(t.tasks_count, c.tasks_in_db);
    assert_eq!(t.outbox_count, c.events_in_outbox);
    assert_eq!(t.outbox_unpublished, c.events_unpublished);
    assert!(t.tasks.len() <= 5 && t.inbox.len() <= 5);
    // Every row shown is committed and published at the end of the canon run.
    assert!(t
        .outbox
        .iter()
        .all(|r| r.committed && r.tarqatilgan_vaqt.is_some()));
    let q = view::queue(&w, 3);
    assert_eq!(q.waiting + q.active + q.completed + q.failed, c.queue_jobs);
    assert_eq!(q.completed, w.queue().count(JobState::Completed));
    // The list holds at most 3 jobs of a state, the newest events' first.
    assert_eq!(q.jobs.len(), 3.min(q.completed as usize));
    assert!(q.jobs.iter().all(|j| j.event.0 > 90), "{:?}", q.jobs);
    let procs = view::procs(&w);
    assert_eq!(procs.len(), w.procs().len());
    assert!(procs.iter().all(|p| p.program.len() == p.sql.len()));
}

#[test]
fn a_lifecycle_follows_one_event() {
    // The canon's dual write loses the events of i % 10 == 3: event 4 is task i = 3.
    let w = run(&preset("canon-dual-write").unwrap());
    let lost: Vec<_> = w
        .auditor()
        .events()
        .filter(|(_, l)| l.class == outbox_model::Class::Lost)
        .map(|(e, _)| e)
        .collect();
    assert_eq!(lost.len(), 10);
    let life = view::lifecycle(&w, lost[0]).unwrap();
    assert_eq!(life.class, outbox_model::Class::Lost);
    assert!(life.task_committed && life.jobs.is_empty() && life.deliveries == 0);
    assert!(view::lifecycle(&w, outbox_model::EventId(10_000)).is_none());
}
