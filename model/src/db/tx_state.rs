//! A transaction's records: its status, its private work list (recycled through a pool,
//! so a steady run allocates nothing) and what its COMMIT changed.

use super::grants::Role;
use crate::ids::{EventId, TxId};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TxStatus {
    Active,
    /// A statement failed; everything but ROLLBACK now fails with 25P02.
    Failed,
    Committed,
    Aborted,
}

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct TxWork {
    pub(super) tx: TxId,
    pub(super) role: Option<Role>,
    pub(super) session_role: Option<Role>,
    pub(super) start_tick: u64,
    pub(super) tasks: Vec<u32>,
    pub(super) outbox_inserted: Vec<u32>,
    pub(super) outbox_locked: Vec<u32>,
    pub(super) inbox: Vec<EventId>,
    pub(super) inbox_deleted: Vec<EventId>,
    pub(super) keys: Vec<u32>,
    pub(super) actions: Vec<u32>,
    /// `GRANT SELECT (hodisa_id) …` ran in this transaction: it takes effect for others at
    /// COMMIT (a GRANT is transactional in PostgreSQL; ROLLBACK takes it back).
    pub(super) grant_returning: bool,
}

clone_reusing!(TxWork {
    tx,
    role,
    session_role,
    start_tick,
    grant_returning
} refill {
    tasks,
    outbox_inserted,
    outbox_locked,
    inbox,
    inbox_deleted,
    keys,
    actions
});

impl TxWork {
    /// Asks for the record's lists (see `Db::prefetch_deeper`).
    pub(super) fn prefetch_lists(&self) {
        use crate::prefetch::slice;
        slice(&self.tasks);
        slice(&self.outbox_inserted);
        slice(&self.outbox_locked);
        slice(&self.inbox);
        slice(&self.keys);
        slice(&self.actions);
    }
}

/// A pool that every Db compares and hashes as equal: it holds no state.
#[derive(Debug, Default)]
// Boxed on purpose: records move between `work` and the pool as pointers.
#[allow(clippy::vec_box)]
pub(super) struct Pool(pub(super) Vec<Box<TxWork>>);

/// The pool holds no state, only memory: a clone starts with an empty pool (copying up to
/// 8 emptied records, each a box and seven lists, was most of a new world's allocations),
/// and `clone_from` keeps this pool's own records, so a recycled world (see
/// `clone_reusing!`) keeps its spare memory.
impl Clone for Pool {
    fn clone(&self) -> Self {
        Pool(Vec::new())
    }
    fn clone_from(&mut self, _: &Self) {}
}

impl PartialEq for Pool {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Pool {}

impl std::hash::Hash for Pool {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// What a COMMIT made durable, for the world's auditor.
#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct CommitOutcome {
    pub committed: bool,
    pub tasks: Vec<u32>,
    pub events: Vec<EventId>,
    pub touched_events: Vec<EventId>,
    pub inbox: Vec<EventId>,
    pub actions: Vec<(EventId, u32)>,
}

// The world's scratch outcome (empty between steps) keeps its lists' memory when the
// explorer recycles a world: the derived `clone_from` replaced them with empty ones, and
// the next COMMIT grew them again (~70 000 reallocations in the pinned search).
clone_reusing!(CommitOutcome { committed } refill {
    tasks,
    events,
    touched_events,
    inbox,
    actions
});

impl CommitOutcome {
    /// Empties every list, keeping the memory.
    pub fn clear(&mut self) {
        self.committed = false;
        self.tasks.clear();
        self.events.clear();
        self.touched_events.clear();
        self.inbox.clear();
        self.actions.clear();
    }
}
