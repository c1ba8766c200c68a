//! Row locks and the statements that take them: the relay's poll with its lock clause
//! (`SKIP LOCKED`, `NOWAIT`, plain waiting with the re-check of the newest version, or
//! none), and the UPDATEs and DELETEs of outbox rows. A statement that must wait keeps its
//! progress in a [`Cursor`] the caller owns.

use super::error::{sqlstate, Exec, SqlError};
use super::grants::{Privilege, Table};
use super::lock_kinds::{Cursor, LockMode, OutboxChange};
use super::rows::OutboxData;
use super::store::Db;
use crate::ids::TxId;

impl Db {
    /// The relay's poll: `… WHERE tarqatilgan_vaqt IS NULL ORDER BY id LIMIT n` with the
    /// given lock clause. Returns outbox indexes.
    pub fn select_batch(
        &mut self,
        tx: TxId,
        mode: LockMode,
        limit: usize,
        c: &mut Cursor,
    ) -> Exec<Vec<u32>> {
        let mut rows = Vec::new();
        match self.select_batch_into(tx, mode, limit, c, &mut rows) {
            Exec::Done(()) => Exec::Done(rows),
            Exec::Blocked(t) => Exec::Blocked(t),
            Exec::Err(e) => Exec::Err(e),
        }
    }

    /// [`Db::select_batch`] into the caller's list (emptied first; written only when the
    /// statement is done), so a relay's polls reuse one allocation.
    pub fn select_batch_into(
        &mut self,
        tx: TxId,
        mode: LockMode,
        limit: usize,
        c: &mut Cursor,
        got: &mut Vec<u32>,
    ) -> Exec<()> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Outbox, Privilege::Select))
        {
            return self.fail(tx, e);
        }
        if mode != LockMode::None {
            if let Err(e) = self.check(tx, Table::Outbox, Privilege::Update) {
                return self.fail(tx, e);
            }
        }
        match mode {
            LockMode::None => {
                got.clear();
                got.extend(self.unpublished.iter().take(limit));
                Exec::Done(())
            }
            LockMode::SkipLocked => {
                self.select_skip_locked(tx, limit, got);
                Exec::Done(())
            }
            LockMode::Nowait | LockMode::Wait => self.select_waiting(tx, mode, limit, c, got),
        }
    }

    /// `FOR UPDATE SKIP LOCKED`: the first `limit` unpublished rows nobody else holds,
    /// locked. Never waits, so it needs no cursor.
    fn select_skip_locked(&mut self, tx: TxId, limit: usize, got: &mut Vec<u32>) {
        got.clear();
        for i in self.unpublished.iter() {
            if got.len() >= limit {
                break;
            }
            let row = &self.outbox[i as usize];
            match row.lock() {
                Some(h) if h != tx => continue,
                _ => got.push(i),
            }
        }
        for &i in got.iter() {
            self.lock_row(tx, i);
        }
    }

    /// `FOR UPDATE NOWAIT` or plain `FOR UPDATE`: walks the statement's snapshot in id
    /// order; a row another transaction holds is an error (NOWAIT) or a wait, after which
    /// the row's WHERE clause is re-checked on its newest version.
    fn select_waiting(
        &mut self,
        tx: TxId,
        mode: LockMode,
        limit: usize,
        c: &mut Cursor,
        got: &mut Vec<u32>,
    ) -> Exec<()> {
        if !c.started {
            // The statement's snapshot: committed unpublished rows, in id order.
            c.started = true;
            c.candidates.clear();
            c.candidates.extend(self.unpublished.iter());
            c.pos = 0;
            c.got.clear();
        }
        while c.got.len() < limit && c.pos < c.candidates.len() {
            let i = c.candidates[c.pos];
            let row = &self.outbox[i as usize];
            if let Some(h) = row.lock() {
                if h != tx {
                    if mode == LockMode::Nowait {
                        let e = SqlError::new(
                            sqlstate::LOCK_NOT_AVAILABLE,
                            "could not obtain lock on row in relation \"outbox\"",
                        );
                        return self.fail(tx, e);
                    }
                    return Exec::Blocked(h);
                }
            }
            // Re-check the WHERE clause on the newest committed version.
            let d = row.data;
            c.pos += 1;
            if d.deleted || d.tarqatilgan_vaqt.is_some() {
                continue;
            }
            self.lock_row(tx, i);
            c.got.push(i);
        }
        got.clear();
        got.extend_from_slice(&c.got);
        // The statement is over: the cursor is ready for the next one.
        c.reset();
        Exec::Done(())
    }

    /// A high-water-mark poll: `SELECT … FROM outbox WHERE id > $1 ORDER BY id LIMIT $2`.
    /// Sees only committed rows, so a row whose id was taken earlier but committed later
    /// falls below the mark.
    pub fn select_after(&mut self, tx: TxId, last_id: u64, limit: usize) -> Exec<Vec<u32>> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Outbox, Privilege::Select))
        {
            return self.fail(tx, e);
        }
        let rows = (last_id as usize..self.outbox.len())
            .filter(|&i| {
                let r = &self.outbox[i];
                (self.committed(r.xmin) || r.xmin == tx) && !r.data.deleted
            })
            .take(limit)
            .map(|i| i as u32)
            .collect();
        Exec::Done(rows)
    }

    pub(super) fn lock_row(&mut self, tx: TxId, i: u32) {
        let row = &mut self.outbox[i as usize];
        if row.lock != tx {
            debug_assert!(row.lock == 0);
            row.lock = tx;
            self.wm(tx).expect("open tx").outbox_locked.push(i);
        }
    }

    /// `UPDATE outbox SET … WHERE id = ANY($1)` (or DELETE), as `change` says. Rows are taken
    /// in id order; a row another transaction holds makes the statement wait (then the newest
    /// version is changed). Returns the number of rows changed.
    pub fn update_outbox(
        &mut self,
        tx: TxId,
        rows: &[u32],
        change: OutboxChange,
        c: &mut Cursor,
    ) -> Exec<u64> {
        if !c.started {
            c.started = true;
            // The cursor's lists keep their memory from the last statement.
            c.candidates.clear();
            c.candidates.extend_from_slice(rows);
            c.candidates.sort_unstable();
            c.candidates.dedup();
            c.pos = 0;
            c.got.clear();
        }
        self.update_outbox_checked(tx, c, change, |_| true)
    }

    /// The body of UPDATE/DELETE: `recheck` is the statement's own condition on the newest
    /// version (beyond `id = ANY(...)`).
    pub(super) fn update_outbox_checked(
        &mut self,
        tx: TxId,
        c: &mut Cursor,
        change: OutboxChange,
        recheck: impl Fn(&OutboxData) -> bool,
    ) -> Exec<u64> {
        let p = if matches!(change, OutboxChange::Delete | OutboxChange::DeadLetter) {
            Privilege::Delete
        } else {
            Privilege::Update
        };
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Outbox, p))
        {
            return self.fail(tx, e);
        }
        let now = self.now(tx);
        while c.pos < c.candidates.len() {
            let i = c.candidates[c.pos];
            let row = &self.outbox[i as usize];
            if !self.committed(row.xmin) && row.xmin != tx {
                c.pos += 1;
                continue;
            }
            if let Some(h) = row.lock() {
                if h != tx {
                    return Exec::Blocked(h);
                }
            }
            let base = self.pending.get(&i).copied().unwrap_or(row.data);
            c.pos += 1;
            if base.deleted || !recheck(&base) {
                continue;
            }
            self.lock_row(tx, i);
            let mut d = base;
            match change {
                OutboxChange::Published => {
                    d.tarqatilgan_vaqt = Some(now);
                    d.urinishlar += 1;
                }
                OutboxChange::Attempt => d.urinishlar += 1,
                OutboxChange::SetPublished => d.tarqatilgan_vaqt = Some(now),
                OutboxChange::Unpublish => d.tarqatilgan_vaqt = None,
                OutboxChange::Delete => d.deleted = true,
                OutboxChange::DeadLetter => {
                    d.deleted = true;
                    d.dead_letter = true;
                }
            }
            self.pending.insert(i, d);
            c.got.push(i);
        }
        let n = c.got.len() as u64;
        c.reset();
        Exec::Done(n)
    }

    /// The cleanup: `DELETE FROM outbox WHERE tarqatilgan_vaqt < $cutoff` (with
    /// `only_published: false`, the broken variant that also deletes by age alone:
    /// `yaratilgan_vaqt < $cutoff`). Waits on locked rows like any DELETE.
    pub fn cleanup(
        &mut self,
        tx: TxId,
        cutoff: u64,
        only_published: bool,
        c: &mut Cursor,
    ) -> Exec<u64> {
        if !c.started {
            let rows: Vec<u32> = (0..self.outbox.len() as u32)
                .filter(|&i| {
                    let r = &self.outbox[i as usize];
                    self.committed(r.xmin) && !r.data.deleted && {
                        if only_published {
                            r.data.tarqatilgan_vaqt.is_some_and(|t| t < cutoff)
                        } else {
                            r.yaratilgan_vaqt < cutoff
                        }
                    }
                })
                .collect();
            c.started = true;
            c.candidates = rows;
            c.pos = 0;
        }
        // Re-checked on the newest version after a wait, as PostgreSQL does.
        self.update_outbox_checked(tx, c, OutboxChange::Delete, |d| {
            !only_published || d.tarqatilgan_vaqt.is_some_and(|t| t < cutoff)
        })
    }

    /// The dead-letter move: `DELETE FROM outbox WHERE id = ANY($1) AND urinishlar >= $2`
    /// into `outbox_olik`. Sees the transaction's own `urinishlar + 1`.
    pub fn dead_letter(
        &mut self,
        tx: TxId,
        rows: &[u32],
        min_attempts: u32,
        c: &mut Cursor,
    ) -> Exec<u64> {
        if !c.started {
            c.started = true;
            let mut v = rows.to_vec();
            v.sort_unstable();
            v.dedup();
            c.candidates = v;
            c.pos = 0;
            c.got.clear();
        }
        self.update_outbox_checked(tx, c, OutboxChange::DeadLetter, |d| {
            d.urinishlar >= min_attempts
        })
    }

    /// The operator's recovery after Redis lost its data:
    /// `UPDATE outbox SET tarqatilgan_vaqt = NULL WHERE tarqatilgan_vaqt >= $1`.
    pub fn unpublish_since(&mut self, tx: TxId, since: u64, c: &mut Cursor) -> Exec<u64> {
        if !c.started {
            let rows: Vec<u32> = (0..self.outbox.len() as u32)
                .filter(|&i| {
                    let r = &self.outbox[i as usize];
                    self.committed(r.xmin)
                        && !r.data.deleted
                        && r.data.tarqatilgan_vaqt.is_some_and(|t| t >= since)
                })
                .collect();
            c.started = true;
            c.candidates = rows;
            c.pos = 0;
            c.got.clear();
        }
        self.update_outbox_checked(tx, c, OutboxChange::Unpublish, |d| {
            d.tarqatilgan_vaqt.is_some_and(|t| t >= since)
        })
    }
}
