//! Snapshots for the page: what each table, the queue and each process look like now,
//! already judged by the model (visibility, locks, who waits for whom), so the page only
//! draws. Every function here reads; none changes the world.

use crate::auditor::Class;
use crate::db::TxStatus;
use crate::ids::{EventId, EventKind, TxId};
use crate::queue::{Health, JobKey, JobState};
use crate::scenario::KillRule;
use crate::world::{
    step_sql, ArmedKill, LogEntry, Mem, Note, ProcKind, RelayMem, Step, Wait, World,
};
use serde::Serialize;

/// A row of `vazifalar` as a snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TaskView {
    pub id: u64,
    pub egasi_id: u32,
    /// The client request (the lesson's loop index `i`) that made it.
    pub intent: u32,
    /// false: written by a transaction still open (invisible to everyone else).
    pub committed: bool,
}

/// An outbox row as a snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutboxView {
    pub id: u64,
    /// `hodisa_id`.
    pub event: EventId,
    pub kind: EventKind,
    pub yaratilgan_vaqt: u64,
    /// Newest committed `tarqatilgan_vaqt`.
    pub tarqatilgan_vaqt: Option<u64>,
    pub urinishlar: u32,
    pub committed: bool,
    /// The process whose transaction holds the row lock.
    pub locked_by: Option<String>,
    /// The lock holder has already written a new version (not yet committed).
    pub changed_in_tx: bool,
}

/// An inbox row as a snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InboxView {
    /// `hodisa_id`.
    pub event: EventId,
    pub ishlangan: u64,
    pub committed: bool,
}

/// The three tables: their committed row counts and a few rows worth looking at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TablesView {
    pub tasks_count: u64,
    pub tasks: Vec<TaskView>,
    pub outbox_count: u64,
    pub outbox_unpublished: u64,
    /// The head of the relay's work (oldest unpublished and locked rows) and the newest
    /// rows, in id order.
    pub outbox: Vec<OutboxView>,
    pub inbox_count: u64,
    pub inbox: Vec<InboxView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JobView {
    pub key: JobKey,
    pub event: EventId,
    pub state: JobState,
    pub deliveries: u32,
    pub worker: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueueView {
    pub health: Health,
    pub waiting: u64,
    pub active: u64,
    pub completed: u64,
    pub failed: u64,
    /// The newest few jobs of each state, in job order.
    pub jobs: Vec<JobView>,
}

/// A process card: its program, where it is, and what it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProcView {
    pub name: String,
    pub kind: ProcKind,
    pub program: Vec<Step>,
    pub pc: Step,
    pub alive: bool,
    pub runnable: bool,
    pub kills: u32,
    /// Whom it waits for: a process name, or "redis".
    pub waiting_for: Option<String>,
    /// Steps with an armed kill.
    pub armed: Vec<Step>,
    /// The rule its armed kills follow (None: none armed; `Other` when they differ).
    pub rule: Option<KillRule>,
    /// The events it holds in memory right now (a relay's batch, a worker's job, an API's
    /// request).
    pub holding: Vec<EventId>,
    /// The statement each step of the program runs.
    pub sql: Vec<&'static str>,
    /// Its latest failed statement: SQLSTATE and text (#42: the card shows 42501 and
    /// 55P03 beside the statement, not only the log).
    pub error: Option<(&'static str, &'static str)>,
}

/// One event's life across the tables, the queue and the inbox.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LifecycleView {
    pub event: EventId,
    pub class: Class,
    pub task_committed: bool,
    pub outbox: Option<OutboxView>,
    pub jobs: Vec<JobView>,
    pub in_inbox: bool,
    pub adds: u32,
    pub dedup_hits: u32,
    pub deliveries: u32,
    pub effects: u32,
    /// The log entries (still kept) that name this event.
    pub log: Vec<LogEntry>,
}

fn tx_owner(w: &World, tx: TxId) -> Option<String> {
    w.procs
        .iter()
        .find(|p| p.tx == Some(tx))
        .map(|p| p.name.clone())
}

fn outbox_view(w: &World, idx: u32) -> OutboxView {
    let r = &w.db.outbox[idx as usize];
    let lock = r.lock();
    OutboxView {
        id: r.id(idx),
        event: r.hodisa,
        kind: r.kind,
        yaratilgan_vaqt: r.yaratilgan_vaqt,
        tarqatilgan_vaqt: r.data.tarqatilgan_vaqt,
        urinishlar: r.data.urinishlar,
        committed: w.db.row_committed(r),
        locked_by: lock.and_then(|t| tx_owner(w, t).or_else(|| Some(format!("tx {t}")))),
        changed_in_tx: lock.is_some() && w.db.pending_data(idx).is_some(),
    }
}

fn job_view(w: &World, j: &crate::queue::Job) -> JobView {
    JobView {
        key: j.key,
        event: j.event,
        state: j.state,
        deliveries: j.deliveries,
        worker: j
            .worker
            .and_then(|p| w.procs.get(p.0 as usize))
            .map(|p| p.name.clone()),
    }
}

/// The tables, with at most `head` rows from the relay's end and `recent` newest rows.
pub fn tables(w: &World, head: usize, recent: usize) -> TablesView {
    let db = &w.db;
    let n = db.tasks.len();
    let tasks = db.tasks[n.saturating_sub(recent)..]
        .iter()
        .enumerate()
        .filter(|(_, t)| db.status(t.xmin) != TxStatus::Aborted)
        .map(|(k, t)| TaskView {
            id: (n.saturating_sub(recent) + k) as u64 + 1,
            egasi_id: t.egasi_id,
            intent: t.intent,
            committed: db.xmin_committed(t.xmin),
        })
        .collect();
    // Rows worth looking at: the ones a relay holds, the oldest unpublished, the newest.
    let mut idx: Vec<u32> = Vec::new();
    for p in &w.procs {
        if let Some(tx) = p.tx {
            idx.extend(db.locked_by(tx).into_iter().take(head));
        }
    }
    idx.extend(db.unpublished_ids().take(head));
    let len = db.outbox.len() as u32;
    idx.extend(len.saturating_sub(recent as u32)..len);
    idx.sort_unstable();
    idx.dedup();
    let outbox = idx
        .into_iter()
        .filter(|&i| {
            let r = &db.outbox[i as usize];
            !r.data.deleted && db.status(r.xmin) != TxStatus::Aborted
        })
        .map(|i| outbox_view(w, i))
        .collect();
    let mut inbox: Vec<InboxView> = db
        .inbox_rows()
        .rev()
        .take(recent)
        .map(|(event, ishlangan, committed)| InboxView {
            event,
            ishlangan,
            committed,
        })
        .collect();
    inbox.reverse();
    TablesView {
        tasks_count: db.committed_tasks(),
        tasks,
        outbox_count: db.committed_events(),
        outbox_unpublished: w.unpublished_events(),
        outbox,
        inbox_count: db.committed_inbox(),
        inbox,
    }
}

/// How many of the newest events the queue view looks at for its job list (the counts
/// cover every job; the list stays cheap however long the run).
const QUEUE_SCAN: u32 = 512;

/// The queue: counts by state and up to `per_state` jobs of each state among the newest
/// events' jobs.
pub fn queue(w: &World, per_state: usize) -> QueueView {
    let q = &w.queue;
    let mut keep: [Vec<JobView>; 4] = Default::default();
    let newest = w.auditor.events_len() as u32;
    for e in (newest.saturating_sub(QUEUE_SCAN) + 1..=newest).rev() {
        for j in q.jobs_for(EventId(e)) {
            let slot = match j.state {
                JobState::Waiting => 0,
                JobState::Active => 1,
                JobState::Completed => 2,
                JobState::Failed => 3,
            };
            if keep[slot].len() < per_state {
                keep[slot].push(job_view(w, j));
            }
        }
        if keep.iter().all(|v| v.len() >= per_state) {
            break;
        }
    }
    let mut jobs: Vec<JobView> = keep.into_iter().flatten().collect();
    jobs.sort_by_key(|j| j.key);
    QueueView {
        health: q.health,
        waiting: q.count(JobState::Waiting),
        active: q.count(JobState::Active),
        completed: q.count(JobState::Completed),
        failed: q.count(JobState::Failed),
        jobs,
    }
}

/// Every process card, in world order.
pub fn procs(w: &World) -> Vec<ProcView> {
    w.procs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let waiting_for = match p.blocked {
                Some(Wait::Tx(t)) if w.db.is_open(t) => {
                    Some(tx_owner(w, t).unwrap_or_else(|| format!("tx {t}")))
                }
                Some(Wait::Queue) if w.queue.health == Health::DownHang => {
                    Some("redis".to_string())
                }
                _ => None,
            };
            let armed = armed_steps(&w.armed, i);
            let rule = KillRule::common(
                w.armed
                    .iter()
                    .filter(|k| k.proc.0 as usize == i && k.remaining != Some(0))
                    .map(|k| KillRule::of(&k.when, k.remaining)),
            );
            let holding = match &p.mem {
                Mem::Api { req: Some(r) } if !r.added => vec![r.event],
                Mem::Relay(RelayMem { batch, .. }) => batch
                    .iter()
                    .filter_map(|&i| w.db.outbox.get(i as usize).map(|r| r.hodisa))
                    .collect(),
                Mem::Worker { job: Some(j) } => vec![j.event],
                _ => Vec::new(),
            };
            let sql = p
                .program
                .iter()
                .map(|&s| step_sql(p.kind, &w.cfg, s, &w.script))
                .collect();
            let error = w
                .pinned()
                .iter()
                .rev()
                .find_map(|e| match (e.proc, e.step, e.note) {
                    (Some(q), Some(s), Note::Error { code }) if q.0 as usize == i => {
                        Some((code, step_sql(p.kind, &w.cfg, s, &w.script)))
                    }
                    _ => None,
                });
            ProcView {
                name: p.name.clone(),
                kind: p.kind,
                program: p.program.clone(),
                pc: p.pc,
                alive: p.alive,
                runnable: w.runnable(i),
                kills: p.kills,
                waiting_for,
                armed,
                rule,
                holding,
                sql,
                error,
            }
        })
        .collect()
}

fn armed_steps(armed: &[ArmedKill], proc: usize) -> Vec<Step> {
    let mut v: Vec<Step> = armed
        .iter()
        .filter(|k| k.proc.0 as usize == proc && k.remaining != Some(0))
        .map(|k| k.step)
        .collect();
    v.sort();
    v.dedup();
    v
}

/// The event a log entry is about, if any.
pub fn note_event(n: &Note) -> Option<EventId> {
    match *n {
        Note::Added { event, .. }
        | Note::AddRefused { event }
        | Note::PublishFailed { event }
        | Note::Delivered { event }
        | Note::Effect { event }
        | Note::Skipped { event }
        | Note::Completed { event, .. }
        | Note::Stalled { event, .. } => Some(event),
        _ => None,
    }
}

/// One event's lifecycle, or None for an event the world never minted.
pub fn lifecycle(w: &World, e: EventId) -> Option<LifecycleView> {
    let life = w.auditor.life(e)?;
    let row = w.db.event_index(e).map(|idx| outbox_view(w, idx));
    let task_committed = match life.task {
        crate::auditor::TaskRef::Row(t) => w.db.task_committed(t),
        crate::auditor::TaskRef::Given => true,
        crate::auditor::TaskRef::OwnRow => row.as_ref().is_some_and(|r| r.committed),
        crate::auditor::TaskRef::NotYet => false,
    };
    Some(LifecycleView {
        event: e,
        class: life.class,
        task_committed,
        outbox: row,
        jobs: w.queue.jobs_for(e).map(|j| job_view(w, j)).collect(),
        in_inbox: w.db.inbox_has(e),
        adds: life.adds as u32,
        dedup_hits: life.dedup_hits as u32,
        deliveries: life.deliveries as u32,
        effects: life.effects as u32,
        log: w
            .log
            .iter()
            .filter(|l| note_event(&l.note) == Some(e))
            .copied()
            .collect(),
    })
}

/// The highest event id minted so far (0: none).
pub fn events_minted(w: &World) -> u32 {
    w.auditor.events_len() as u32
}

/// What went wrong with one event, for a drawing that colours it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Trouble {
    /// Committed, never acted on, and nothing can deliver it any more.
    Lost,
    /// Delivered for a task that never existed (or does not exist yet).
    Phantom,
    /// Its business action ran more than once.
    DuplicateEffect,
    /// Added or delivered more than once, acted on at most once.
    Duplicate,
}

/// How an event ended, if badly (None: fine, or still on its way).
pub fn event_trouble(w: &World, e: EventId) -> Option<Trouble> {
    let life = w.auditor.life(e)?;
    if life.class == Class::Lost {
        Some(Trouble::Lost)
    } else if life.class == Class::Aborted && life.deliveries > 0 {
        Some(Trouble::Phantom)
    } else if life.effects > 1 {
        Some(Trouble::DuplicateEffect)
    } else if life.deliveries > 1 || life.adds > 1 {
        Some(Trouble::Duplicate)
    } else if matches!(life.task, crate::auditor::TaskRef::NotYet) && life.deliveries > 0 {
        Some(Trouble::Phantom)
    } else {
        None
    }
}
