//! The vocabulary shared by scenarios and the world: the labelled steps of the process
//! programs, the kinds of process, the actions a user, a schedule or a fault rule can take,
//! and when a rule fires. It sits apart from both so that `scenario` (which names steps and
//! actions) and `world` (which runs them) do not import each other.

use serde::{Deserialize, Serialize};

/// A labelled step of some process's program. Every step is a kill point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    // client
    Send,
    Await,
    // API, relay, worker
    Begin,
    InsertTask,
    InsertEvent,
    Commit,
    QueueAdd,
    Respond,
    SelectBatch,
    Publish,
    MarkPublished,
    MarkFailed,
    Rollback,
    Fetch,
    InboxCheck,
    InboxInsert,
    Action,
    ExternalCall,
    BeginSecond,
    CommitSecond,
    Complete,
    /// API: the client's idempotency key, in the request's transaction.
    InsertKey,
    /// Relay: rows that failed too often move to the dead-letter table.
    DeadLetter,
    /// CDC: read committed changes from the slot, after the saved offset.
    ReadWal,
    /// CDC: save (confirm) the offset; the slot may drop the log up to it.
    SaveOffset,
    /// Cleaner: `DELETE FROM outbox …` older than the retention.
    CleanOutbox,
    /// Cleaner: `DELETE FROM inbox …` older than the inbox retention.
    CleanInbox,
    /// A statement of the scripted SQL session, by position.
    Script(u8),
}

impl Step {
    /// A stable number for the trace hash.
    pub fn code(self) -> u64 {
        use Step::*;
        match self {
            Send => 1,
            Await => 2,
            Begin => 3,
            InsertTask => 4,
            InsertEvent => 5,
            Commit => 6,
            QueueAdd => 7,
            Respond => 8,
            SelectBatch => 9,
            Publish => 10,
            MarkPublished => 11,
            MarkFailed => 12,
            Rollback => 13,
            Fetch => 14,
            InboxCheck => 15,
            InboxInsert => 16,
            Action => 17,
            ExternalCall => 18,
            BeginSecond => 19,
            CommitSecond => 20,
            Complete => 21,
            InsertKey => 22,
            DeadLetter => 23,
            ReadWal => 24,
            SaveOffset => 25,
            CleanOutbox => 26,
            CleanInbox => 27,
            Script(i) => 256 + i as u64,
        }
    }

    /// What the step reaches outside its own process's memory: the page's sequence
    /// diagram draws its arrow there. Every step is listed, so a new one must say.
    pub fn reaches(self) -> Reach {
        use Step::*;
        match self {
            // A webhook's POST (the relay's other sink) is drawn on the queue's lane too.
            QueueAdd | Publish | Fetch | Complete => Reach::Queue,
            Send => Reach::Api,
            Respond => Reach::Client,
            Await => Reach::Own,
            Begin | InsertTask | InsertEvent | Commit | SelectBatch | MarkPublished
            | MarkFailed | Rollback | InboxCheck | InboxInsert | Action | BeginSecond
            | CommitSecond | InsertKey | DeadLetter | ReadWal | SaveOffset | CleanOutbox
            | CleanInbox | Script(_) => Reach::Db,
            // The outside service's effect is recorded beside the database's (its sent
            // count is a table of the model's): there is no lane of its own.
            ExternalCall => Reach::Db,
        }
    }
}

/// Where a step goes (see [`Step::reaches`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reach {
    /// PostgreSQL (and, for the CDC relay, its log).
    Db,
    /// BullMQ on Redis (or the relay's webhook).
    Queue,
    /// The client's request to the API.
    Api,
    /// The API's answer to the client.
    Client,
    /// Nothing outside the process (the client waits for its answer).
    Own,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProcKind {
    Client,
    Api,
    Relay,
    Worker,
    Session,
    /// The CDC relay: reads the commit-ordered log through a replication slot.
    Cdc,
    /// The cleaner (`outboxTozala`).
    Cleaner,
}

impl ProcKind {
    /// The process's name, as the log, the page and scenario files spell it: `n` numbers
    /// the relays and workers (from 1) and is ignored for the kinds there is one of.
    pub fn name(self, n: u8) -> String {
        match self {
            ProcKind::Client if n == 0 => "client".into(),
            ProcKind::Client => format!("client-{n}"),
            ProcKind::Api if n == 0 => "api".into(),
            ProcKind::Api => format!("api-{n}"),
            ProcKind::Relay => format!("relay-{n}"),
            ProcKind::Worker => format!("worker-{n}"),
            ProcKind::Cdc => "cdc".into(),
            ProcKind::Cleaner => "cleaner".into(),
            ProcKind::Session => "psql".into(),
        }
    }
}

/// Actions: what the scheduler, a user or a fault rule can do to the world.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action", deny_unknown_fields)]
pub enum Action {
    /// Let the scheduler pick a runnable process and run one step.
    Tick,
    /// Run one step of this process (must be runnable).
    Step {
        process: String,
    },
    /// Kill the process now, wherever it is.
    Kill {
        process: String,
    },
    /// Kill the process when it next reaches `step` (and `when` holds).
    ArmKill {
        process: String,
        step: Step,
        when: When,
        times: Option<u32>,
    },
    /// Drop the armed kills of a process: all of them, or only those at `step`.
    Disarm {
        process: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step: Option<Step>,
    },
    Restart {
        process: String,
    },
    /// Redis goes away: `add` is refused at once, or (hang) never returns.
    QueueDown {
        hang: bool,
    },
    QueueUp,
    /// Publishing `h-event` fails `times` more times.
    FailPublish {
        event: u32,
        times: u32,
    },
    /// An operator retries BullMQ's failed set (`queue.retryJobs({ state: 'failed' })`).
    RetryFailedJobs,
    /// An operator retries one failed job, the one of event `h-event` (BullMQ's
    /// `job.retry()`): back to wait, to be delivered again. Refused when the job is gone
    /// (`removeOnFail`, a flush) or not failed.
    RetryJob {
        event: u32,
    },
    /// Redis restarts without persistence: every job, and with it every jobId, is gone.
    RedisFlush,
    /// Redis restarts with `appendonly yes`: every acknowledged job, and its jobId, is still
    /// there afterwards (the lesson's warning, answered: persistence is what keeps the events
    /// the outbox already calls published).
    RedisRestart,
    /// The operator's recovery: `UPDATE outbox SET tarqatilgan_vaqt = NULL WHERE
    /// tarqatilgan_vaqt >= since_tick`, in its own transaction with a short lock_timeout (1 ms; PostgreSQL reads 0 as "wait forever")
    /// (refused with 55P03 when a relay holds one of the rows).
    UnpublishSince {
        since_tick: u64,
    },
}

impl Action {
    pub fn process(&self) -> Option<&str> {
        match self {
            Action::Step { process }
            | Action::Kill { process }
            | Action::ArmKill { process, .. }
            | Action::Disarm { process, .. }
            | Action::Restart { process } => Some(process),
            _ => None,
        }
    }
}

/// When a rule fires, judged at the moment the process reaches the step.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum When {
    Always,
    /// The n-th time (from 1) this process reaches the step.
    Nth {
        n: u32,
    },
    /// The task being handled has index `i` with `i % modulus == remainder` (the canon's
    /// `i % 10 == 3`).
    TaskIndexMod {
        modulus: u32,
        remainder: u32,
    },
    /// The event being handled is this one (`h-N`, by N).
    Event {
        event: u32,
    },
}
