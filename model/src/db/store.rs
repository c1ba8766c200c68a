//! The database's state: its tables, the open transactions' private work and the
//! indexes kept for lookups. The statements are `impl Db` blocks in the sibling files,
//! by concern.

use super::rows::{ActionRow, InboxSlot, OutboxRow, PendingRows, RowSet, TaskRow, WalRecord};
use super::tx_state::{Pool, TxStatus, TxWork};
use std::collections::{BTreeSet, VecDeque};

/// The database: its tables, the open transactions' private work and the indexes kept
/// for lookups. Statements are methods, spread over this module's files by concern.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Db {
    pub(super) txs: Vec<TxStatus>,
    /// Open transactions (few at a time: a linear list beats a map). Boxed, so taking one
    /// out at COMMIT and keeping it for reuse moves a pointer, not the record.
    #[allow(clippy::vec_box)]
    pub(super) work: Vec<Box<TxWork>>,
    /// Emptied TxWork records kept for reuse, so a steady run does not allocate.
    pub(super) spare: Pool,
    pub tasks: Vec<TaskRow>,
    pub outbox: Vec<OutboxRow>,
    /// Private versions of locked rows, by outbox index.
    pub(super) pending: PendingRows,
    /// The partial index `outbox_navbat_idx`: committed rows not yet published.
    pub(super) unpublished: RowSet,
    /// Outbox index by event, for lookups (u32::MAX: none).
    pub(super) by_event: Vec<u32>,
    pub(super) inbox: Vec<InboxSlot>,
    /// `sorov_kalitlari`, by the client request's index.
    pub(super) keys: Vec<InboxSlot>,
    pub actions: Vec<ActionRow>,
    /// Committed counters kept as rows commit, so a snapshot never scans a table.
    pub(super) committed_tasks: u64,
    pub(super) committed_events: u64,
    pub(super) committed_inbox: u64,
    pub(super) committed_actions: u64,
    pub(super) balance: u64,
    /// `GRANT SELECT (hodisa_id) ON outbox TO vazifalar_ilova` has been run.
    pub app_can_read_hodisa_id: bool,
    /// Retain the commit log (a replication slot exists).
    pub wal_retain: bool,
    pub wal: VecDeque<WalRecord>,
    /// Events in the retained log, for O(log n) lookups.
    pub(super) wal_events: BTreeSet<u32>,
    pub(super) next_lsn: u64,
    /// Rows moved to `outbox_olik` (committed).
    pub(super) dead_letters: u64,
}

clone_reusing!(Db { pending, unpublished, committed_tasks, committed_events, committed_inbox, committed_actions, balance, app_can_read_hodisa_id, wal_retain, next_lsn, dead_letters } refill { wal_events, txs, tasks, outbox, by_event, inbox, keys, actions, wal } then clone_work_from(work, spare));

pub(super) const NONE: u32 = u32::MAX;

impl Default for Db {
    fn default() -> Self {
        Db {
            // Tx 0 is a sentinel: committed, so it can own preloaded rows.
            txs: vec![TxStatus::Committed],
            work: Vec::new(),
            spare: Pool::default(),
            tasks: Vec::new(),
            outbox: Vec::new(),
            pending: PendingRows::default(),
            unpublished: RowSet::default(),
            by_event: Vec::new(),
            inbox: Vec::new(),
            keys: Vec::new(),
            actions: Vec::new(),
            committed_tasks: 0,
            committed_events: 0,
            committed_inbox: 0,
            committed_actions: 0,
            balance: 0,
            app_can_read_hodisa_id: false,
            wal_retain: false,
            wal: VecDeque::new(),
            wal_events: BTreeSet::new(),
            next_lsn: 1,
            dead_letters: 0,
        }
    }
}

impl Db {
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks for the tables' rows and the transaction lists (see `World::prefetch_parts`).
    pub(crate) fn prefetch_parts(&self) {
        use crate::prefetch::slice;
        slice(&self.txs);
        slice(&self.work);
        slice(&self.tasks);
        slice(&self.outbox);
        slice(&self.pending.0);
        slice(&self.by_event);
        slice(&self.inbox);
        slice(&self.keys);
        slice(&self.actions);
        self.unpublished.prefetch_parts();
    }

    /// Asks for the open transactions' records (see `World::prefetch_deep`).
    pub(crate) fn prefetch_deep(&self) {
        for w in &self.work {
            crate::prefetch::value::<TxWork>(w);
        }
    }

    /// Asks for the open transactions' lists (see `World::prefetch_deeper`).
    pub(crate) fn prefetch_deeper(&self) {
        for w in &self.work {
            w.prefetch_lists();
        }
    }

    /// Room for about this many tasks and events up front (a hint: tables still grow).
    pub(crate) fn reserve(&mut self, events: usize) {
        self.txs.reserve(3 * events + 1);
        self.tasks.reserve(events);
        self.outbox.reserve(events);
        self.by_event.reserve(events + 1);
        self.inbox.reserve(events + 1);
        self.actions.reserve(events);
    }

    /// Checks the database's own invariants; returns a description of the first broken one.
    pub fn check_invariants(&self) -> Result<(), String> {
        // partial-index: the index holds exactly the committed, unpublished, live rows.
        for (i, r) in self.outbox.iter().enumerate() {
            let should =
                self.committed(r.xmin) && r.data.tarqatilgan_vaqt.is_none() && !r.data.deleted;
            let id = i + 1;
            if should != self.unpublished.contains(&(i as u32)) {
                return Err(format!(
                    "partial-index: row {id} indexed={} should={should}",
                    !should
                ));
            }
            if let Some(h) = r.lock() {
                if !self.is_open(h) {
                    return Err(format!(
                        "locks-held-by-open-tx: row {id} locked by ended tx {h}"
                    ));
                }
            }
        }
        for i in self.pending.keys() {
            if self.outbox[*i as usize].lock == 0 {
                return Err(format!(
                    "private-writes: row {} has a pending version without a lock",
                    i + 1
                ));
            }
        }
        Ok(())
    }
}
