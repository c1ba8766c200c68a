//! The process programs as data: each kind's labelled steps (error path last) under a
//! configuration, and the statement (or call) each step runs, from the one SQL source.

use crate::action::{ProcKind, Step};
use crate::scenario::{ApiMode, Config, RelayMode, ScriptStmt, WorkerMode};
use crate::sql;

/// The program (its labelled steps, error path last) of a process.
pub fn program(kind: ProcKind, cfg: &Config, script_len: usize) -> Vec<Step> {
    use Step::*;
    match kind {
        ProcKind::Client => vec![Send, Await],
        ProcKind::Api => api_program(cfg),
        ProcKind::Relay => relay_program(cfg),
        ProcKind::Worker => worker_program(cfg),
        ProcKind::Session => (0..script_len.min(255)).map(|i| Script(i as u8)).collect(),
        ProcKind::Cdc => vec![ReadWal, Publish, SaveOffset],
        ProcKind::Cleaner => cleaner_program(cfg),
    }
}

/// The API's steps: the two dual writes, or the outbox (with or without the key).
fn api_program(cfg: &Config) -> Vec<Step> {
    use Step::*;
    match cfg.api {
        ApiMode::DualWriteDbFirst => {
            vec![Begin, InsertTask, Commit, QueueAdd, Respond, Rollback]
        }
        ApiMode::DualWriteQueueFirst => {
            vec![QueueAdd, Begin, InsertTask, Commit, Respond, Rollback]
        }
        ApiMode::Outbox if cfg.api_idempotency_key => vec![
            Begin,
            InsertKey,
            InsertTask,
            InsertEvent,
            Commit,
            Respond,
            Rollback,
        ],
        ApiMode::Outbox => vec![Begin, InsertTask, InsertEvent, Commit, Respond, Rollback],
        // Each INSERT is its own autocommitted transaction (BEGIN and COMMIT inside it).
        ApiMode::OutboxPool => vec![InsertTask, InsertEvent, Respond, Rollback],
        // Each statement its own `pool.query` (`world/pool.rs`).
        ApiMode::OutboxPoolBegin => {
            vec![Begin, InsertTask, InsertEvent, Commit, Respond, Rollback]
        }
    }
}

/// The polling relay's steps: publish then mark (the lesson, the high-water mark), or mark
/// first.
fn relay_program(cfg: &Config) -> Vec<Step> {
    use Step::*;
    match cfg.relay.mode {
        RelayMode::Lesson | RelayMode::HighWater => {
            let mut v = vec![Begin, SelectBatch, Publish, MarkPublished, MarkFailed];
            if cfg.relay.dead_letter_after.is_some() {
                v.push(DeadLetter);
            }
            v.extend([Commit, Rollback]);
            v
        }
        RelayMode::MarkFirst => {
            vec![Begin, SelectBatch, MarkPublished, Commit, Publish, Rollback]
        }
    }
}

/// The step a process has just done when it reaches `step` of `program`, where that is one
/// step: a kill armed at `step` dies *after* it and *before* `step` runs (#24: a ☠ says
/// so). None for the first step, for a branch (ROLLBACK, marking a failed publish, the
/// dead letter) and for a step after a branch, which more than one step can lead to.
pub fn step_before(program: &[Step], step: Step) -> Option<Step> {
    use Step::*;
    let i = program.iter().position(|&s| s == step)?;
    let prev = *program.get(i.checked_sub(1)?)?;
    let branch = |s: Step| matches!(s, Rollback | MarkFailed | DeadLetter);
    (!branch(step) && !branch(prev)).then_some(prev)
}

/// The worker's steps, one list per way of guarding the business action.
fn worker_program(cfg: &Config) -> Vec<Step> {
    use Step::*;
    match cfg.worker {
        WorkerMode::NoInbox => vec![Fetch, Begin, Action, Commit, Complete, Rollback],
        WorkerMode::InboxSameTx => vec![
            Fetch,
            Begin,
            InboxInsert,
            Action,
            Commit,
            Complete,
            Rollback,
        ],
        WorkerMode::InboxOwnTx => {
            vec![
                Fetch,
                Begin,
                InboxInsert,
                Commit,
                BeginSecond,
                Action,
                CommitSecond,
                Complete,
                Rollback,
            ]
        }
        WorkerMode::ActionThenInbox => {
            vec![
                Fetch,
                InboxCheck,
                Begin,
                Action,
                Commit,
                BeginSecond,
                InboxInsert,
                CommitSecond,
                Complete,
                Rollback,
            ]
        }
        WorkerMode::ExternalEffect => vec![
            Fetch,
            Begin,
            InboxInsert,
            ExternalCall,
            Commit,
            Complete,
            Rollback,
        ],
    }
}

/// The cleaner's steps (the inbox's DELETE only with an inbox retention).
fn cleaner_program(cfg: &Config) -> Vec<Step> {
    use Step::*;
    let mut v = vec![Begin, CleanOutbox];
    if cfg
        .cleaner
        .as_ref()
        .is_some_and(|c| c.inbox_retention_days.is_some())
    {
        v.push(CleanInbox);
    }
    v.extend([Commit, Rollback]);
    v
}

/// The statement (or call) a step runs, from the one SQL source.
pub fn step_sql(kind: ProcKind, cfg: &Config, step: Step, script: &[ScriptStmt]) -> &'static str {
    use Step::*;
    match (kind, step) {
        (_, Begin) | (_, BeginSecond) => sql::BEGIN,
        (_, Commit) | (_, CommitSecond) => sql::COMMIT,
        (_, Rollback) => sql::ROLLBACK,
        (ProcKind::Client, Send) => sql::HTTP_POST,
        (ProcKind::Client, _) => "201 Created / 500",
        (_, InsertTask) => sql::INSERT_TASK,
        (_, InsertEvent) => sql::INSERT_EVENT,
        (ProcKind::Api, QueueAdd) => sql::QUEUE_ADD_NO_ID,
        (_, Respond) => "201 Created",
        (_, InsertKey) => sql::KEY_INSERT,
        (_, SelectBatch) if cfg.relay.mode == RelayMode::HighWater => sql::SELECT_AFTER,
        (_, SelectBatch) => cfg.relay.lock.poll_sql(),
        (_, DeadLetter) => sql::DEAD_LETTER,
        (_, ReadWal) => sql::CDC_READ,
        (_, SaveOffset) => sql::CDC_CONFIRM,
        (_, CleanOutbox) => {
            if cfg.cleaner.as_ref().is_none_or(|c| c.published_only) {
                sql::CLEANUP
            } else {
                sql::CLEANUP_BY_AGE
            }
        }
        (_, CleanInbox) => sql::INBOX_CLEANUP,
        (_, Publish) => {
            if let crate::scenario::Sink::Webhook { idempotency_key } = cfg.relay.sink {
                if idempotency_key {
                    sql::WEBHOOK_POST_KEY
                } else {
                    sql::WEBHOOK_POST
                }
            } else if cfg.relay.job_id {
                sql::QUEUE_ADD
            } else {
                sql::QUEUE_ADD_NO_ID
            }
        }
        (_, MarkPublished) => sql::MARK_PUBLISHED,
        (_, MarkFailed) => sql::MARK_FAILED,
        (_, Fetch) => sql::QUEUE_GET,
        (_, InboxCheck) => sql::INBOX_CHECK,
        (_, InboxInsert) => sql::INBOX_INSERT,
        (_, Action) => sql::ACTION_INSERT,
        (_, ExternalCall) => sql::EXTERNAL_CALL,
        (_, Complete) => sql::QUEUE_COMPLETE,
        (_, Script(i)) => script.get(i as usize).map(|s| script_sql(*s)).unwrap_or(""),
        _ => "",
    }
}

pub fn script_sql(s: ScriptStmt) -> &'static str {
    match s {
        ScriptStmt::Begin => sql::BEGIN,
        ScriptStmt::SetRoleApp => sql::SET_ROLE_APP,
        ScriptStmt::InsertTask => sql::INSERT_TASK,
        ScriptStmt::InsertEvent => sql::INSERT_EVENT,
        ScriptStmt::InsertEventReturning => sql::INSERT_EVENT_RETURNING,
        ScriptStmt::SelectCountOutbox => sql::COUNT_OUTBOX,
        ScriptStmt::SelectEventIds => sql::SELECT_EVENT_IDS,
        ScriptStmt::GrantReturning => sql::GRANT_RETURNING,
        ScriptStmt::SelectCountTasks => sql::COUNT_TASKS,
        ScriptStmt::UpdateOutbox => sql::UPDATE_ALL_PUBLISHED,
        ScriptStmt::DeleteOutbox => sql::DELETE_ALL,
        ScriptStmt::PgSleep => sql::PG_SLEEP,
        ScriptStmt::Commit => sql::COMMIT,
        ScriptStmt::Rollback => sql::ROLLBACK,
    }
}
