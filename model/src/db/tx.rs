//! Transactions: BEGIN, their private work lists, status, `now()`, and how COMMIT makes
//! their writes visible (or ROLLBACK drops them). Work records are recycled, so a steady
//! run allocates nothing.

use super::error::{sqlstate, Exec, SqlError};
use super::grants::Role;
use super::rows::{InboxSlot, WalRecord};
use super::store::Db;
use super::tx_state::{CommitOutcome, TxStatus, TxWork};
use crate::ids::TxId;

impl Db {
    pub fn begin(&mut self, role: Role, tick: u64) -> TxId {
        let tx = self.txs.len() as TxId;
        self.txs.push(TxStatus::Active);
        let mut w = self.spare.0.pop().unwrap_or_default();
        w.tx = tx;
        w.role = None;
        w.session_role = Some(role);
        w.start_tick = tick;
        self.work.push(w);
        tx
    }

    pub(super) fn w(&self, tx: TxId) -> Option<&TxWork> {
        self.work.iter().find(|w| w.tx == tx).map(|w| &**w)
    }

    pub(super) fn wm(&mut self, tx: TxId) -> Option<&mut TxWork> {
        self.work.iter_mut().find(|w| w.tx == tx).map(|w| &mut **w)
    }

    pub(super) fn take_work(&mut self, tx: TxId) -> Option<Box<TxWork>> {
        let i = self.work.iter().position(|w| w.tx == tx)?;
        Some(self.work.swap_remove(i))
    }

    /// The transaction `w` ended and its rows are unlocked: their private versions go
    /// (every pending version belongs to a locked row).
    pub(super) fn drop_unlocked_pending(&mut self, w: &TxWork) {
        if !w.outbox_locked.is_empty() && !self.pending.is_empty() {
            let outbox = &self.outbox;
            self.pending.0.retain(|e| outbox[e.0 as usize].lock != 0);
        }
    }

    /// `work` for `clone_from` (see `clone_reusing!`): this Db's records are refilled,
    /// extra ones go to its pool and missing ones come from it, so a recycled world
    /// allocates no record. The pool itself is not copied: it holds no state.
    pub(super) fn clone_work_from(&mut self, source: &Db) {
        while self.work.len() > source.work.len() {
            let w = self.work.pop().expect("longer than the source");
            self.recycle(w);
        }
        for (a, b) in self.work.iter_mut().zip(&source.work) {
            a.clone_from(b);
        }
        for b in &source.work[self.work.len()..] {
            let mut w = self.spare.0.pop().unwrap_or_default();
            w.clone_from(b);
            self.work.push(w);
        }
    }

    pub(super) fn recycle(&mut self, mut w: Box<TxWork>) {
        w.tasks.clear();
        w.outbox_inserted.clear();
        w.outbox_locked.clear();
        w.inbox.clear();
        w.inbox_deleted.clear();
        w.keys.clear();
        w.actions.clear();
        w.grant_returning = false;
        if self.spare.0.len() < 8 {
            self.spare.0.push(w);
        }
    }

    pub fn status(&self, tx: TxId) -> TxStatus {
        self.txs[tx as usize]
    }

    pub fn is_open(&self, tx: TxId) -> bool {
        matches!(self.status(tx), TxStatus::Active | TxStatus::Failed)
    }

    pub fn open_transactions(&self) -> usize {
        self.work.len()
    }

    /// `now()`: the transaction's start time, as in PostgreSQL.
    pub fn now(&self, tx: TxId) -> u64 {
        self.w(tx).map(|w| w.start_tick).unwrap_or(0)
    }

    pub(super) fn usable(&self, tx: TxId) -> Result<(), SqlError> {
        match self.status(tx) {
            TxStatus::Active => Ok(()),
            TxStatus::Failed => Err(SqlError::new(
                sqlstate::IN_FAILED_TRANSACTION,
                "current transaction is aborted, commands ignored until end of transaction block",
            )),
            _ => Err(SqlError::new("25000", "no transaction in progress")),
        }
    }

    /// A statement failed outside the database's own checks (a deadlock victim).
    pub fn mark_failed(&mut self, tx: TxId) {
        if self.status(tx) == TxStatus::Active {
            self.txs[tx as usize] = TxStatus::Failed;
        }
    }

    pub(super) fn fail<T>(&mut self, tx: TxId, e: SqlError) -> Exec<T> {
        if self.status(tx) == TxStatus::Active {
            self.txs[tx as usize] = TxStatus::Failed;
        }
        Exec::Err(e)
    }

    pub(super) fn committed(&self, xmin: TxId) -> bool {
        self.txs[xmin as usize] == TxStatus::Committed
    }

    /// COMMIT. On a failed transaction PostgreSQL answers COMMIT with ROLLBACK.
    pub fn commit(&mut self, tx: TxId) -> CommitOutcome {
        let mut out = CommitOutcome::default();
        self.commit_into(tx, &mut out);
        out
    }

    /// COMMIT, reporting into a reused outcome (the world's hot path allocates nothing).
    pub fn commit_into(&mut self, tx: TxId, out: &mut CommitOutcome) {
        if self.status(tx) != TxStatus::Active {
            self.rollback_into(tx, out);
            out.committed = false;
            return;
        }
        let w = self.take_work(tx).expect("open tx");
        self.txs[tx as usize] = TxStatus::Committed;
        out.clear();
        out.committed = true;
        for &t in &w.tasks {
            self.committed_tasks += 1;
            out.tasks.push(t);
        }
        self.commit_outbox(&w, out);
        self.drop_unlocked_pending(&w);
        for &h in &w.inbox {
            self.committed_inbox += 1;
            out.inbox.push(h);
        }
        for &h in &w.inbox_deleted {
            self.inbox[h.index()] = InboxSlot::default();
            self.committed_inbox -= 1;
            out.touched_events.push(h);
        }
        if w.grant_returning {
            self.app_can_read_hodisa_id = true;
        }
        for &a in &w.actions {
            let row = &self.actions[a as usize];
            self.committed_actions += 1;
            self.balance += row.summa as u64;
            out.actions.push((row.hodisa, row.summa));
        }
        self.commit_log(tx, &w, out);
        self.recycle(w);
    }

    /// COMMIT's outbox part: inserted rows become visible (and join the unpublished
    /// index), locked rows take their private versions and are unlocked.
    fn commit_outbox(&mut self, w: &TxWork, out: &mut CommitOutcome) {
        for &i in &w.outbox_inserted {
            let row = &self.outbox[i as usize];
            self.committed_events += 1;
            out.events.push(row.hodisa);
            if row.data.tarqatilgan_vaqt.is_none() && !row.data.deleted && row.lock == 0 {
                self.unpublished.insert(i);
            }
        }
        for &i in &w.outbox_locked {
            let pending = self.pending.get(&i).copied();
            let row = &mut self.outbox[i as usize];
            row.lock = 0;
            out.touched_events.push(row.hodisa);
            if let Some(d) = pending {
                if d.deleted && !row.data.deleted {
                    self.committed_events -= 1;
                }
                if d.dead_letter && !row.data.dead_letter {
                    self.dead_letters += 1;
                }
                row.data = d;
            }
            if row.data.tarqatilgan_vaqt.is_none() && !row.data.deleted {
                self.unpublished.insert(i);
            } else {
                self.unpublished.remove(&i);
            }
        }
    }

    /// COMMIT's entry in the commit-ordered log, kept only while a slot retains it (the
    /// sequence number advances either way, as PostgreSQL's LSN does).
    fn commit_log(&mut self, tx: TxId, w: &TxWork, out: &CommitOutcome) {
        if !w.outbox_inserted.is_empty() {
            if self.wal_retain {
                let lsn = self.next_lsn;
                self.wal_events.extend(out.events.iter().map(|e| e.0));
                self.wal.push_back(WalRecord {
                    lsn,
                    tx,
                    events: out.events.clone(),
                });
            }
            self.next_lsn += 1;
        }
    }

    /// ROLLBACK, also what happens when a connection dies with a transaction open.
    pub fn rollback(&mut self, tx: TxId) -> CommitOutcome {
        let mut out = CommitOutcome::default();
        self.rollback_into(tx, &mut out);
        out
    }

    /// ROLLBACK into a reused outcome.
    pub fn rollback_into(&mut self, tx: TxId, out: &mut CommitOutcome) {
        out.clear();
        let Some(w) = self.take_work(tx) else {
            return;
        };
        self.txs[tx as usize] = TxStatus::Aborted;
        for &i in &w.outbox_locked {
            let row = &mut self.outbox[i as usize];
            row.lock = 0;
            out.touched_events.push(row.hodisa);
        }
        self.drop_unlocked_pending(&w);
        for &i in &w.outbox_inserted {
            out.touched_events.push(self.outbox[i as usize].hodisa);
        }
        for &h in &w.inbox {
            self.inbox[h.index()] = InboxSlot::default();
            out.touched_events.push(h);
        }
        for &h in &w.inbox_deleted {
            self.inbox[h.index()].xmax = 0;
        }
        for &k in &w.keys {
            self.keys[k as usize] = InboxSlot::default();
        }
        self.recycle(w);
    }
}
