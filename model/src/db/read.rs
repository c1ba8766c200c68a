//! Reads for the world, the auditor and the page: committed counters, row lookups by
//! event, the retained commit log. None of them changes what a statement sees.

use super::rows::{OutboxData, OutboxRow};
use super::store::{Db, NONE};
use super::tx_state::TxStatus;
use crate::ids::{EventId, TxId};

impl Db {
    pub fn committed_tasks(&self) -> u64 {
        self.committed_tasks
    }

    pub fn committed_events(&self) -> u64 {
        self.committed_events
    }

    pub fn unpublished_len(&self) -> u64 {
        self.unpublished.len() as u64
    }

    pub fn committed_inbox(&self) -> u64 {
        self.committed_inbox
    }

    pub fn committed_actions(&self) -> u64 {
        self.committed_actions
    }

    pub fn balance(&self) -> u64 {
        self.balance
    }

    pub fn unpublished_ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.unpublished.iter()
    }

    /// Whether a committed, unpublished row's index satisfies `f` (in id order, as
    /// `unpublished_ids().any(f)`).
    pub fn any_unpublished(&self, f: impl FnMut(u32) -> bool) -> bool {
        self.unpublished.any(f)
    }

    /// Whether some committed row is unpublished.
    pub fn has_unpublished(&self) -> bool {
        self.unpublished.len() > 0
    }

    pub fn oldest_unpublished(&self) -> Option<&OutboxRow> {
        self.unpublished
            .iter()
            .next()
            .map(|i| &self.outbox[i as usize])
    }

    pub fn task_committed(&self, task_idx: u32) -> bool {
        self.tasks
            .get(task_idx as usize)
            .is_some_and(|t| self.committed(t.xmin))
    }

    pub fn task_status(&self, task_idx: u32) -> TxStatus {
        self.status(self.tasks[task_idx as usize].xmin)
    }

    /// The event's outbox row, if one was ever inserted.
    pub fn event_row(&self, h: EventId) -> Option<&OutboxRow> {
        let i = *self.by_event.get(h.index())?;
        (i != NONE).then(|| &self.outbox[i as usize])
    }

    /// The event's outbox index, if a row was ever inserted.
    pub fn event_index(&self, h: EventId) -> Option<u32> {
        self.by_event.get(h.index()).copied().filter(|&i| i != NONE)
    }

    /// The event has a committed, undeleted outbox row not yet published.
    pub fn event_unpublished(&self, h: EventId) -> bool {
        self.event_row(h).is_some_and(|r| {
            self.committed(r.xmin) && r.data.tarqatilgan_vaqt.is_none() && !r.data.deleted
        })
    }

    pub fn row_committed(&self, r: &OutboxRow) -> bool {
        self.committed(r.xmin)
    }

    pub fn inbox_has(&self, h: EventId) -> bool {
        self.inbox
            .get(h.index())
            .is_some_and(|s| s.xmin != 0 && self.committed(s.xmin))
    }

    /// Rows (outbox indexes) a transaction holds locked.
    pub fn locked_by(&self, tx: TxId) -> Vec<u32> {
        self.w(tx)
            .map(|w| w.outbox_locked.clone())
            .unwrap_or_default()
    }

    /// Drops the log up to and including `lsn` (a slot confirmed it).
    pub fn wal_confirm(&mut self, lsn: u64) {
        while self.wal.front().is_some_and(|r| r.lsn <= lsn) {
            let r = self.wal.pop_front().expect("front");
            for e in r.events {
                self.wal_events.remove(&e.0);
            }
        }
    }

    /// The event's insert is in the retained log (not yet confirmed by the slot).
    pub fn wal_holds(&self, h: EventId) -> bool {
        self.wal_events.contains(&h.0)
    }

    /// Outbox inserts the slot retains (committed, not yet confirmed).
    pub fn wal_retained_events(&self) -> u64 {
        self.wal_events.len() as u64
    }

    /// Rows moved to the dead-letter table.
    pub fn dead_letters(&self) -> u64 {
        self.dead_letters
    }

    /// The key was committed by an earlier request.
    pub fn key_committed(&self, intent: u32) -> bool {
        self.keys
            .get(intent as usize)
            .is_some_and(|s| s.xmin != 0 && self.committed(s.xmin))
    }
}

// ----- reading for the page ---------------------------------------------------------

impl Db {
    /// Whether the transaction that wrote a row (`xmin`) has committed.
    pub fn xmin_committed(&self, xmin: TxId) -> bool {
        self.committed(xmin)
    }

    /// The inbox rows ever inserted, newest event last: (event, `ishlangan`,
    /// committed). Rows of a rolled-back transaction are not listed.
    pub fn inbox_rows(&self) -> impl DoubleEndedIterator<Item = (EventId, u64, bool)> + '_ {
        self.inbox
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.xmin != 0 && self.status(s.xmin) != TxStatus::Aborted)
            .map(move |(i, s)| (EventId(i as u32), s.ishlangan, self.committed(s.xmin)))
    }

    /// The private version a lock holder has written but not committed, if any.
    pub fn pending_data(&self, idx: u32) -> Option<OutboxData> {
        self.pending.get(&idx).copied()
    }
}
