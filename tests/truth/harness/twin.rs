//! The fixture: one scenario's PostgreSQL and model side, its name and its printed log.
//!
//! A step runs on both sides and goes through `same`, which prints the two answers on one
//! line and insists they agree; the scenario never passes its name or log by hand.

use super::{event_params, limit, uuid, Answer, Model, Param, Pg};
use outbox_model::db::{LockMode, OutboxChange};
use outbox_model::sql;

/// One scenario run twice, side by side: on PostgreSQL and on the model (the queue truth
/// suite's `Twin` is the same idea for BullMQ).
pub struct Twin {
    pub pg: Pg,
    pub m: Model,
    name: &'static str,
    log: Vec<String>,
}

impl Twin {
    /// A fresh scratch database (named after the scenario) and a fresh model.
    pub fn new(name: &'static str) -> Twin {
        Twin {
            pg: Pg::new(name),
            m: Model::new(),
            name,
            log: Vec::new(),
        }
    }

    /// Opens these PostgreSQL sessions; the model opens its transactions at `BEGIN`.
    pub fn sessions(&mut self, names: &[&str]) {
        for name in names {
            self.pg.session(name);
        }
    }

    /// Events 1..=n, committed on both sides before the scenario starts.
    pub fn preload(&mut self, n: u32) {
        self.pg.preload(n);
        self.m.preload(n);
    }

    /// Records one step's two answers and insists they agree; returns the agreed answer.
    pub fn same(&mut self, step: &str, pg: Answer, model: Answer) -> Answer {
        let scenario = self.name;
        let line = format!("truth: {scenario:<24} {step:<44} postgres={pg:?} model={model:?}");
        println!("{line}");
        self.log.push(line);
        assert_eq!(
            pg, model,
            "{scenario}: {step}: PostgreSQL and the model disagree"
        );
        pg
    }

    /// Runs one step on PostgreSQL, then on the model, and compares (`same`).
    pub fn check(
        &mut self,
        step: &str,
        pg: impl FnOnce(&mut Pg) -> Answer,
        model: impl FnOnce(&mut Model) -> Answer,
    ) -> Answer {
        let pg = pg(&mut self.pg);
        let model = model(&mut self.m);
        self.same(step, pg, model)
    }

    /// Prints a step that only PostgreSQL can answer (the model has no such thing), with
    /// why; the scenario asserts on the answer itself.
    pub fn pg_only(&self, step: &str, pg: &Answer, why: &str) {
        let name = self.name;
        println!("truth: {name:<24} {step:<44} postgres={pg:?} ({why})");
    }

    /// BEGIN / COMMIT / ROLLBACK of one session on both sides.
    pub fn tx(&mut self, step: &str, who: &str, kw: &'static str) {
        let model = match kw {
            sql::BEGIN => self.m.begin(who),
            sql::COMMIT => self.m.commit(who),
            _ => self.m.rollback(who),
        };
        let pg = self.pg.exec(who, kw);
        self.same(step, pg, model);
    }

    /// The relay's poll with a lock clause, on both sides; returns the agreed answer.
    pub fn poll(&mut self, step: &str, who: &str, mode: LockMode, n: i64) -> Answer {
        self.check(
            step,
            |pg| pg.ids(who, mode.poll_sql(), limit(n)),
            |m| m.select(who, mode, n as usize),
        )
    }

    /// `poll` for a step that must return rows: the ids.
    pub fn poll_rows(&mut self, step: &str, who: &str, mode: LockMode, n: i64) -> Vec<i64> {
        match self.poll(step, who, mode, n) {
            Answer::Rows(ids) => ids,
            other => panic!("{step}: rows expected, got {other:?}"),
        }
    }

    /// `INSERT INTO outbox` of event `e` in `who`'s transaction.
    pub fn insert_event(&mut self, step: &str, who: &str, e: u32) -> Answer {
        self.check(
            step,
            |pg| pg.count(who, sql::INSERT_EVENT, event_params(e)),
            |m| m.insert_event(who, e),
        )
    }

    /// The relay marks `ids` published (`UPDATE … tarqatilgan_vaqt`).
    pub fn publish(&mut self, step: &str, who: &str, ids: &[i64]) -> Answer {
        self.check(
            step,
            |pg| pg.count(who, sql::MARK_PUBLISHED, vec![Param::A(ids.to_vec())]),
            |m| m.update(who, ids, OutboxChange::Published),
        )
    }

    /// The relay counts a failed publish of `ids` (`UPDATE … urinishlar`).
    pub fn fail(&mut self, step: &str, who: &str, ids: &[i64]) -> Answer {
        self.check(
            step,
            |pg| pg.count(who, sql::MARK_FAILED, vec![Param::A(ids.to_vec())]),
            |m| m.update(who, ids, OutboxChange::Attempt),
        )
    }

    /// A worker's `INSERT INTO inbox … ON CONFLICT DO NOTHING` of event `e`; the model
    /// stamps the row with `at`.
    pub fn inbox_insert(&mut self, step: &str, who: &str, e: u32, at: u64) -> Answer {
        self.check(
            step,
            |pg| pg.count(who, sql::INBOX_INSERT, vec![Param::U(uuid(e))]),
            |m| m.inbox_insert(who, e, at),
        )
    }
}
