//! The model side: the same sessions as transactions of one `outbox_model::db::Db`.
//!
//! Its answers are turned into the same `Answer` as PostgreSQL's, so that the two can be
//! compared: ids are 1-based like the identity column, a blocked statement waits for the
//! session that holds the transaction which blocks it.

use super::Answer;
use outbox_model::db::{Cursor, Db, Exec, LockMode, OutboxChange, Role};
use outbox_model::ids::{EventId, EventKind, TxId};
use std::collections::BTreeMap;

/// The model side: sessions are transactions of one `Db`.
pub struct Model {
    pub db: Db,
    tx: BTreeMap<String, TxId>,
    cursors: BTreeMap<String, Cursor>,
    pub tick: u64,
}

impl Model {
    pub fn new() -> Model {
        Model {
            db: Db::new(),
            tx: BTreeMap::new(),
            cursors: BTreeMap::new(),
            tick: 1,
        }
    }
    pub fn begin(&mut self, who: &str) -> Answer {
        let t = self.db.begin(Role::Owner, self.tick);
        self.tx.insert(who.into(), t);
        self.cursors.insert(who.into(), Cursor::default());
        Answer::Ok
    }
    pub fn t(&self, who: &str) -> TxId {
        self.tx[who]
    }
    pub fn commit(&mut self, who: &str) -> Answer {
        let t = self.tx.remove(who).expect("open tx");
        self.db.commit(t);
        Answer::Ok
    }
    pub fn rollback(&mut self, who: &str) -> Answer {
        let t = self.tx.remove(who).expect("open tx");
        self.db.rollback(t);
        Answer::Ok
    }
    pub fn conv<T>(&self, r: Exec<T>, f: impl FnOnce(T) -> Answer) -> Answer {
        match r {
            Exec::Done(v) => f(v),
            Exec::Err(e) => Answer::Err(e.code.to_string()),
            Exec::Blocked(t) => {
                let who = self
                    .tx
                    .iter()
                    .find(|(_, v)| **v == t)
                    .map(|(k, _)| k.clone())
                    .unwrap_or_default();
                Answer::Waits(vec![who])
            }
        }
    }
    pub fn ids(rows: Vec<u32>) -> Answer {
        Answer::Rows(rows.into_iter().map(|i| i as i64 + 1).collect())
    }
    pub fn select(&mut self, who: &str, mode: LockMode, limit: usize) -> Answer {
        let t = self.t(who);
        let mut c = self.cursors.remove(who).unwrap_or_default();
        let r = self.db.select_batch(t, mode, limit, &mut c);
        self.cursors.insert(who.into(), c);
        self.conv(r, Self::ids)
    }
    pub fn update(&mut self, who: &str, ids: &[i64], change: OutboxChange) -> Answer {
        let t = self.t(who);
        let rows: Vec<u32> = ids.iter().map(|&i| (i - 1) as u32).collect();
        let mut c = self.cursors.remove(who).unwrap_or_default();
        let r = self.db.update_outbox(t, &rows, change, &mut c);
        let done = !matches!(r, Exec::Blocked(_));
        self.cursors
            .insert(who.into(), if done { Cursor::default() } else { c });
        self.conv(r, Answer::Count)
    }
    pub fn insert_event(&mut self, who: &str, e: u32) -> Answer {
        let t = self.t(who);
        let r = self
            .db
            .insert_event(t, EventId(e), EventKind::Created, 1, e, 0, false);
        self.conv(r, |_| Answer::Count(1))
    }
    pub fn insert_task(&mut self, who: &str) -> Answer {
        let t = self.t(who);
        let r = self.db.insert_task(t, 1, 0);
        self.conv(r, |_| Answer::Count(1))
    }
    /// `INSERT INTO inbox … ON CONFLICT DO NOTHING` of event `e`, processed at `at`.
    pub fn inbox_insert(&mut self, who: &str, e: u32, at: u64) -> Answer {
        let t = self.t(who);
        let r = self.db.inbox_insert(t, EventId(e), at);
        self.conv(r, |ins| Answer::Count(ins as u64))
    }
    pub fn preload(&mut self, n: u32) {
        for e in 1..=n {
            self.preload_event(e);
        }
    }
    pub fn preload_event(&mut self, e: u32) {
        self.db.preload_event(EventId(e), EventKind::Created, e, 0);
    }
}
