//! Inserts and deletes other than the outbox's locked UPDATEs: tasks, outbox rows (with
//! their identity ids), the inbox and the idempotency keys (`ON CONFLICT DO NOTHING`),
//! action rows, the inbox retention, and the test set-ups that preload or backdate rows.

use super::error::{sqlstate, Exec, SqlError};
use super::grants::{Privilege, Role, Table};
use super::rows::{ActionRow, InboxSlot, OutboxData, OutboxRow, TaskRow};
use super::store::{Db, NONE};
use super::tx_state::TxStatus;
use crate::ids::{EventId, EventKind, TxId};

impl Db {
    pub fn insert_task(&mut self, tx: TxId, egasi_id: u32, intent: u32) -> Exec<u64> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Vazifalar, Privilege::Insert))
        {
            return self.fail(tx, e);
        }
        // Identity: the id is taken now, whether or not the row ever commits.
        let id = self.tasks.len() as u64 + 1;
        self.tasks.push(TaskRow {
            egasi_id,
            intent,
            xmin: tx,
        });
        self.wm(tx).expect("open tx").tasks.push((id - 1) as u32);
        Exec::Done(id)
    }

    /// INSERT into the outbox. `returning` asks for `hodisa_id` back, which needs SELECT
    /// on that column.
    #[allow(clippy::too_many_arguments)]
    pub fn insert_event(
        &mut self,
        tx: TxId,
        hodisa: EventId,
        kind: EventKind,
        foydalanuvchi_id: u32,
        task_intent: u32,
        summa: u32,
        returning: bool,
    ) -> Exec<u64> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Outbox, Privilege::Insert))
        {
            return self.fail(tx, e);
        }
        if returning && self.role(tx) == Role::App && !self.can_read_hodisa_id(tx) {
            let e = SqlError::new(
                sqlstate::INSUFFICIENT_PRIVILEGE,
                "permission denied for table outbox",
            );
            return self.fail(tx, e);
        }
        let now = self.now(tx);
        let idx = self.outbox.len() as u32;
        self.outbox.push(OutboxRow {
            hodisa,
            kind,
            foydalanuvchi_id,
            task_intent,
            summa,
            yaratilgan_vaqt: now,
            xmin: tx,
            data: OutboxData {
                tarqatilgan_vaqt: None,
                urinishlar: 0,
                deleted: false,
                dead_letter: false,
            },
            lock: 0,
        });
        let e = hodisa.index();
        if self.by_event.len() <= e {
            self.by_event.resize(e + 1, NONE);
        }
        self.by_event[e] = idx;
        self.wm(tx).expect("open tx").outbox_inserted.push(idx);
        Exec::Done(idx as u64 + 1)
    }

    /// Rows committed before the world starts (the exercises' given outbox).
    pub fn preload_event(
        &mut self,
        hodisa: EventId,
        kind: EventKind,
        task_intent: u32,
        summa: u32,
    ) {
        let tx = self.begin(Role::Owner, 0);
        let r = self.insert_event(tx, hodisa, kind, 1, task_intent, summa, false);
        debug_assert!(matches!(r, Exec::Done(_)));
        self.commit(tx);
    }

    pub fn preload_task(&mut self, intent: u32) {
        let tx = self.begin(Role::Owner, 0);
        let _ = self.insert_task(tx, 1, intent);
        self.commit(tx);
    }

    /// Test set-up: backdates a committed row's publish and creation times.
    pub fn backdate(&mut self, idx: u32, yaratilgan_vaqt: u64, tarqatilgan_vaqt: Option<u64>) {
        let live = {
            let r = &self.outbox[idx as usize];
            self.committed(r.xmin) && !r.data.deleted
        };
        let r = &mut self.outbox[idx as usize];
        r.yaratilgan_vaqt = yaratilgan_vaqt;
        let was = r.data.tarqatilgan_vaqt.is_none();
        r.data.tarqatilgan_vaqt = tarqatilgan_vaqt;
        if live {
            if tarqatilgan_vaqt.is_none() {
                self.unpublished.insert(idx);
            } else if was {
                self.unpublished.remove(&idx);
            }
        }
    }

    /// `INSERT INTO inbox … ON CONFLICT DO NOTHING`. Waits for an uncommitted insert (or
    /// delete) of the same key; returns whether a row was inserted.
    pub fn inbox_insert(&mut self, tx: TxId, hodisa: EventId, tick: u64) -> Exec<bool> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Inbox, Privilege::Insert))
        {
            return self.fail(tx, e);
        }
        match slot_insert(&self.txs, &mut self.inbox, hodisa.index(), tx, tick) {
            Exec::Done(true) => {
                self.wm(tx).expect("open tx").inbox.push(hodisa);
                Exec::Done(true)
            }
            other => other,
        }
    }

    /// `INSERT INTO sorov_kalitlari (kalit) VALUES ($1) ON CONFLICT DO NOTHING`: the API's
    /// idempotency key, in the request's own transaction. Returns whether it was new.
    pub fn key_insert(&mut self, tx: TxId, intent: u32, tick: u64) -> Exec<bool> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::SorovKalitlari, Privilege::Insert))
        {
            return self.fail(tx, e);
        }
        match slot_insert(&self.txs, &mut self.keys, intent as usize, tx, tick) {
            Exec::Done(true) => {
                self.wm(tx).expect("open tx").keys.push(intent);
                Exec::Done(true)
            }
            other => other,
        }
    }

    /// `DELETE FROM inbox WHERE ishlangan < $cutoff`: the consumer's retention. Rows
    /// another open transaction is deleting make it wait, as any DELETE does.
    pub fn inbox_cleanup(&mut self, tx: TxId, cutoff: u64) -> Exec<u64> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Inbox, Privilege::Delete))
        {
            return self.fail(tx, e);
        }
        // First wait for anyone else holding a qualifying row, then take them all.
        for s in &self.inbox {
            if s.xmin != 0
                && self.committed(s.xmin)
                && s.ishlangan < cutoff
                && s.xmax != 0
                && s.xmax != tx
                && self.is_open(s.xmax)
            {
                return Exec::Blocked(s.xmax);
            }
        }
        let mut n = 0;
        let mut gone = Vec::new();
        for (i, s) in self.inbox.iter_mut().enumerate() {
            let live = s.xmin != 0 && self.txs[s.xmin as usize] == TxStatus::Committed;
            if live && s.ishlangan < cutoff && s.xmax != tx {
                s.xmax = tx;
                gone.push(EventId(i as u32));
                n += 1;
            }
        }
        self.wm(tx).expect("open tx").inbox_deleted.extend(gone);
        Exec::Done(n)
    }

    pub fn action_insert(&mut self, tx: TxId, hodisa: EventId, summa: u32) -> Exec<()> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Amallar, Privilege::Insert))
        {
            return self.fail(tx, e);
        }
        let idx = self.actions.len() as u32;
        self.actions.push(ActionRow {
            hodisa,
            summa,
            xmin: tx,
        });
        self.wm(tx).expect("open tx").actions.push(idx);
        Exec::Done(())
    }
}

/// `INSERT … ON CONFLICT DO NOTHING` on a one-column primary key kept as slots: waits for
/// an uncommitted insert or delete of the same key, then inserts or does nothing.
fn slot_insert(
    txs: &[TxStatus],
    slots: &mut Vec<InboxSlot>,
    key: usize,
    tx: TxId,
    tick: u64,
) -> Exec<bool> {
    if slots.len() <= key {
        slots.resize(key + 1, InboxSlot::default());
    }
    let slot = slots[key];
    let open = |t: TxId| matches!(txs[t as usize], TxStatus::Active | TxStatus::Failed);
    if slot.xmin != 0 {
        if slot.xmax != 0 && slot.xmax != tx && open(slot.xmax) {
            // A DELETE of this key is in flight: wait for it to end.
            return Exec::Blocked(slot.xmax);
        }
        if slot.xmin == tx || txs[slot.xmin as usize] == TxStatus::Committed {
            return Exec::Done(false);
        }
        if open(slot.xmin) {
            return Exec::Blocked(slot.xmin);
        }
    }
    slots[key] = InboxSlot {
        xmin: tx,
        xmax: 0,
        ishlangan: tick,
    };
    Exec::Done(true)
}
