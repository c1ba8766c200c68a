//! The state of the API's node-postgres pool (`outbox_pool_begin`, #43): its connections,
//! idle stack and waiting queue, and what a request holds of it. What the pool does with
//! them is `pool.rs`; the types live apart so the world's own module can hold them
//! without importing the code that runs on the world.

use crate::ids::{EventId, TxId};
use serde::Serialize;

/// How long a connection stays idle, with a transaction open, before the pool closes it
/// (pg-pool's `idleTimeoutMillis`, 10 s; a relay polls every 20 ticks).
pub const POOL_IDLE_TIMEOUT_TICKS: u64 = 200;

/// What a request holds of the pool between its steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "pool", content = "conn")]
pub enum Hold {
    /// Nothing (every API but `outbox_pool_begin`, and between requests).
    #[default]
    Nothing,
    /// The connection its next statement runs on.
    Conn(u8),
    /// Its next statement waits for a connection (pg-pool's pending queue).
    Waits,
}

impl Hold {
    pub(crate) fn code(self) -> u64 {
        match self {
            Hold::Nothing => 0,
            Hold::Conn(c) => 2 | (c as u64) << 2,
            Hold::Waits => 1,
        }
    }
}

/// The pool's own state (see the module doc).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct PgPool {
    /// Each opened connection's transaction while it is idle (a held connection's is its
    /// holder's `tx`); connections are opened lazily, up to the pool's size.
    pub conns: Vec<Option<TxId>>,
    /// When each connection was last released.
    pub since: Vec<u64>,
    /// Idle connections, the most recently released last.
    pub idle: Vec<u8>,
    /// API processes (by place) whose statement waits for a connection, first first.
    pub waiting: Vec<u8>,
    /// Tasks inserted through the pool whose transaction has not ended: (task row, its
    /// event), so the COMMIT that makes one durable, whoever sends it, tells the auditor.
    #[serde(skip)]
    pub(crate) tasks: Vec<(u32, EventId)>,
}

impl PgPool {
    /// Idle connections with a transaction open (the no-orphan-transaction check counts
    /// them beside the processes' own).
    pub(crate) fn idle_txs(&self) -> usize {
        self.idle
            .iter()
            .filter(|&&c| self.conns[c as usize].is_some())
            .count()
    }

    /// The tick at which the pool closes an idle connection that holds a transaction.
    pub(crate) fn next_close(&self) -> Option<u64> {
        (self.idle.iter())
            .filter(|&&c| self.conns[c as usize].is_some())
            .map(|&c| self.since[c as usize] + POOL_IDLE_TIMEOUT_TICKS)
            .min()
    }

    /// The state for the explorer's key, idle transactions named by `tx_name`.
    pub(crate) fn hash_state<H: std::hash::Hasher>(
        &self,
        h: &mut H,
        tick: u64,
        tx_name: &impl Fn(TxId) -> u64,
        place: &impl Fn(usize) -> u64,
    ) {
        h.write_u64(self.conns.len() as u64 | (self.idle.len() as u64) << 16);
        for &c in &self.idle {
            let tx = self.conns[c as usize].map_or(0, |t| 1 + tx_name(t));
            h.write_u64(c as u64 | tx << 8);
            h.write_u64(self.since[c as usize].saturating_sub(tick));
        }
        h.write_u64(self.waiting.len() as u64);
        for &w in &self.waiting {
            h.write_u64(place(w as usize));
        }
    }
}
