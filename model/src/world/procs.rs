//! A process: its name, kind, program and place in it, what it holds (a transaction, a
//! wait), its memory between steps (`Mem`, one variant per program) and its kills. The
//! `Clone` impls are written by hand so the explorer's recycled worlds refill each process
//! in place.

use super::program::program;
use super::relay_mem::RelayMem;
use crate::action::{ProcKind, Step};
use crate::db::Cursor;
use crate::ids::{EventId, TxId};
use crate::queue::JobKey;
use crate::scenario::Config;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "on", content = "id")]
pub enum Wait {
    /// Waiting for this transaction's row lock to go.
    Tx(TxId),
    /// Waiting for a Redis that does not answer.
    Queue,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Request {
    pub intent: u32,
    pub event: EventId,
    /// The event reached the queue (dual write) — after that the API holds nothing.
    pub added: bool,
    /// What it holds of the node-postgres pool (`outbox_pool_begin`).
    pub pool: super::pool_state::Hold,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct HeldJob {
    pub key: JobKey,
    pub token: u64,
    pub event: EventId,
    /// The event's `malumot.summa` (the payment exercise's amount).
    pub amount: u32,
    /// The inbox said "new" (None: not asked yet).
    pub fresh: Option<bool>,
}

#[derive(Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Mem {
    Client {
        next: u32,
        waiting: Option<u32>,
        reply: Option<bool>,
        /// Retries already made for the request `next`.
        tries: u32,
    },
    Api {
        req: Option<Request>,
    },
    Relay(RelayMem),
    Worker {
        job: Option<HeldJob>,
    },
    Session {
        pos: usize,
    },
    Cdc {
        /// Events read from the log, in commit order.
        batch: Vec<EventId>,
        pos: usize,
        /// The offset to save once the batch is published.
        upto_lsn: u64,
    },
    Cleaner {
        cursor: Cursor,
    },
}

#[derive(Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Proc {
    pub name: String,
    pub kind: ProcKind,
    pub program: Vec<Step>,
    pub alive: bool,
    pub pc: Step,
    pub tx: Option<TxId>,
    pub blocked: Option<Wait>,
    pub sleep_until: u64,
    pub restart_at: Option<u64>,
    pub mem: Mem,
    pub kills: u32,
    /// Armed kill rules have already counted this arrival at `pc`.
    pub(super) arrived: bool,
}

/// By hand for `clone_from`: each field refilled in place (the memory by [`Mem`]'s own),
/// the state by [`Proc::refill_from`].
impl Clone for Proc {
    fn clone(&self) -> Self {
        Proc {
            name: self.name.clone(),
            kind: self.kind,
            program: self.program.clone(),
            alive: self.alive,
            pc: self.pc,
            tx: self.tx,
            blocked: self.blocked,
            sleep_until: self.sleep_until,
            restart_at: self.restart_at,
            mem: self.mem.clone(),
            kills: self.kills,
            arrived: self.arrived,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.name.clone_from(&source.name);
        self.kind = source.kind;
        self.program.clone_from(&source.program);
        self.refill_from(source);
    }
}

impl Proc {
    /// `clone_from` but for what the scenario fixes: the name, kind and program (the
    /// explorer refills a world only from one of the same scenario, see
    /// [`World::refill_from`]).
    pub(super) fn refill_from(&mut self, source: &Self) {
        // Destructured, so a new field is a compile error here rather than left stale.
        let Proc {
            name,
            kind,
            program,
            alive,
            pc,
            tx,
            blocked,
            sleep_until,
            restart_at,
            mem,
            kills,
            arrived,
        } = self;
        debug_assert!(*name == source.name && *kind == source.kind && *program == source.program);
        *alive = source.alive;
        *pc = source.pc;
        *tx = source.tx;
        *blocked = source.blocked;
        *sleep_until = source.sleep_until;
        *restart_at = source.restart_at;
        mem.clone_from(&source.mem);
        *kills = source.kills;
        *arrived = source.arrived;
    }
}

/// By hand for `clone_from`: the same kind of memory is refilled in place (a relay's lists
/// keep their buffers, see `clone_reusing!`; the others are a few words, where replacing
/// the whole value moved the enum's full size).
impl Clone for Mem {
    fn clone(&self) -> Self {
        match self {
            Mem::Client {
                next,
                waiting,
                reply,
                tries,
            } => Mem::Client {
                next: *next,
                waiting: *waiting,
                reply: *reply,
                tries: *tries,
            },
            Mem::Api { req } => Mem::Api { req: req.clone() },
            Mem::Relay(m) => Mem::Relay(m.clone()),
            Mem::Worker { job } => Mem::Worker { job: job.clone() },
            Mem::Session { pos } => Mem::Session { pos: *pos },
            Mem::Cdc {
                batch,
                pos,
                upto_lsn,
            } => Mem::Cdc {
                batch: batch.clone(),
                pos: *pos,
                upto_lsn: *upto_lsn,
            },
            Mem::Cleaner { cursor } => Mem::Cleaner {
                cursor: cursor.clone(),
            },
        }
    }

    fn clone_from(&mut self, source: &Self) {
        match (self, source) {
            (Mem::Relay(a), Mem::Relay(b)) => a.clone_from(b),
            (Mem::Api { req: a }, Mem::Api { req: b }) => a.clone_from(b),
            (Mem::Worker { job: a }, Mem::Worker { job: b }) => a.clone_from(b),
            (m, b) => *m = b.clone(),
        }
    }
}

impl Proc {
    /// Process number `n` of `kind` (see [`processes`]), alive at its program's first step.
    pub(super) fn new(kind: ProcKind, n: u8, cfg: &Config, script_len: usize) -> Proc {
        let program = program(kind, cfg, script_len);
        let pc = program.first().copied().unwrap_or(Step::Send);
        // The cleaner's first run is one interval in (a scheduled job, not a start-up task).
        let sleep_until = match (&cfg.cleaner, kind) {
            (Some(c), ProcKind::Cleaner) => c.interval_ticks,
            _ => 0,
        };
        Proc {
            name: kind.name(n),
            kind,
            program,
            alive: true,
            pc,
            tx: None,
            blocked: None,
            sleep_until,
            restart_at: None,
            // Client n (of several) sends tasks n-1, n-1+apis, …
            mem: Mem::fresh(kind, n.saturating_sub(1) as u32),
            kills: 0,
            arrived: false,
        }
    }
}

impl Mem {
    /// A process's memory at its program's start (the next task `next` for a client).
    pub(super) fn fresh(kind: ProcKind, next: u32) -> Mem {
        match kind {
            ProcKind::Client => Mem::Client {
                next,
                waiting: None,
                reply: None,
                tries: 0,
            },
            ProcKind::Api => Mem::Api { req: None },
            ProcKind::Relay => Mem::Relay(RelayMem::default()),
            ProcKind::Worker => Mem::Worker { job: None },
            ProcKind::Session => Mem::Session { pos: 0 },
            ProcKind::Cdc => Mem::Cdc {
                batch: Vec::new(),
                pos: 0,
                upto_lsn: 0,
            },
            ProcKind::Cleaner => Mem::Cleaner {
                cursor: Cursor::default(),
            },
        }
    }
}
