//! The API: writes a task and its event, in one of the lesson's ways (dual write, DB
//! first or queue first, or the outbox), and answers the client.

use super::{Mem, Note, Request, Wait, World};
use crate::action::Step;
use crate::db::{Exec, Role};
use crate::ids::{EventKind, ProcId};
use crate::queue::AddResult;
use crate::scenario::ApiMode;

impl World {
    pub(super) fn api_req(&self, i: usize) -> Request {
        match &self.procs[i].mem {
            Mem::Api { req: Some(r) } => r.clone(),
            _ => unreachable!("runnable API has a request"),
        }
    }

    /// The API's request, written in place (no drop of the old memory).
    pub(super) fn set_api_req(&mut self, i: usize, r: Option<Request>) {
        match &mut self.procs[i].mem {
            Mem::Api { req } => *req = r,
            m => *m = Mem::Api { req: r },
        }
    }

    pub(super) fn api_finish(&mut self, i: usize, ok: bool) {
        let r = self.api_req(i);
        self.touched.push(r.event);
        self.set_api_req(i, None);
        self.reply_client(i, ok);
        let first = self.procs[i].program[0];
        self.goto(i, first);
    }

    /// The step after `s` in the API's program.
    fn api_next_after(&self, s: Step) -> Step {
        match (self.cfg.api, s) {
            (ApiMode::DualWriteDbFirst, Step::Commit) => Step::QueueAdd,
            (ApiMode::DualWriteQueueFirst, Step::QueueAdd) => Step::Begin,
            _ => Step::Respond,
        }
    }

    pub(super) fn run_api(&mut self, i: usize) {
        let pid = Some(ProcId(i as u8));
        let step = self.procs[i].pc;
        match step {
            Step::Begin | Step::InsertTask | Step::InsertEvent | Step::Commit
                if self.cfg.api == ApiMode::OutboxPoolBegin =>
            {
                self.run_pool_statement(i)
            }
            Step::Rollback if matches!(self.api_req(i).pool, super::Hold::Conn(_)) => {
                self.run_pool_statement(i)
            }
            Step::Begin => {
                let role = if self.cfg.api_app_role {
                    Role::App
                } else {
                    Role::Owner
                };
                self.begin(i, role);
                self.log(pid, Some(step), Note::Ok);
                let n = if self.procs[i].program.contains(&Step::InsertKey) {
                    Step::InsertKey
                } else {
                    Step::InsertTask
                };
                self.goto(i, n);
            }
            Step::InsertKey => self.api_insert_key(i),
            Step::InsertTask | Step::InsertEvent if self.cfg.api == ApiMode::OutboxPool => {
                self.api_pool_insert(i)
            }
            Step::InsertTask => self.api_insert_task(i),
            Step::InsertEvent => self.api_insert_event(i),
            Step::Commit => self.api_commit(i),
            Step::QueueAdd => self.api_queue_add(i),
            Step::Respond => {
                self.log(pid, Some(step), Note::Reply { ok: true });
                self.api_finish(i, true);
            }
            Step::Rollback => {
                if self.procs[i].tx.is_some() {
                    self.end_tx(i, false, false);
                }
                self.api_finish(i, false);
            }
            _ => unreachable!("API step {step:?}"),
        }
    }

    /// `pool.query(INSERT …)`: the statement runs in its own transaction on some pooled
    /// connection and is committed at once. The task's INSERT then goes on to the event's,
    /// the event's to the answer.
    fn api_pool_insert(&mut self, i: usize) {
        let step = self.procs[i].pc;
        if self.procs[i].tx.is_none() {
            let role = if self.cfg.api_app_role {
                Role::App
            } else {
                Role::Owner
            };
            self.begin(i, role);
        }
        if step == Step::InsertTask {
            self.api_insert_task(i);
        } else {
            self.api_insert_event(i);
        }
        // Done: the INSERT moved on to the next step; an error went to Rollback, a wait
        // stays at this step (its transaction open, as the connection's would be).
        if self.procs[i].pc == step || self.procs[i].pc == Step::Rollback {
            return;
        }
        let r = self.api_req(i);
        let committed = self.end_tx(i, true, false);
        self.touched.push(r.event);
        if !committed {
            self.api_finish(i, false);
            return;
        }
        if step == Step::InsertTask {
            // The task is durable: from now on its event is owed (as after a dual
            // write's COMMIT), whether or not its own INSERT ever commits.
            self.auditor.committed(r.event);
            if self.cfg.client_retries > 0 {
                self.auditor.task_committed(r.intent);
            }
            self.goto(i, Step::InsertEvent);
        } else {
            self.goto(i, Step::Respond);
        }
    }

    /// The idempotency key's INSERT: a repeat of a committed request writes nothing new.
    fn api_insert_key(&mut self, i: usize) {
        let pid = Some(ProcId(i as u8));
        let step = self.procs[i].pc;
        let r = self.api_req(i);
        let tx = self.procs[i].tx.expect("tx");
        match self.db.key_insert(tx, r.intent, self.tick) {
            Exec::Done(true) => {
                self.log(pid, Some(step), Note::Inserted { inserted: true });
                self.goto(i, Step::InsertTask);
            }
            Exec::Done(false) => {
                // A repeat: an earlier request with this key committed. Nothing new
                // is written; the API answers with the first result.
                self.log(pid, Some(step), Note::Inserted { inserted: false });
                self.end_tx(i, false, false);
                self.goto(i, Step::Respond);
            }
            Exec::Err(e) => self.sql_error(i, e),
            Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
        }
    }

    /// `INSERT INTO vazifalar …` (the task).
    fn api_insert_task(&mut self, i: usize) {
        let pid = Some(ProcId(i as u8));
        let step = self.procs[i].pc;
        let r = self.api_req(i);
        let mode = self.cfg.api;
        let tx = self.procs[i].tx.expect("tx");
        match self.db.insert_task(tx, 1, r.intent) {
            Exec::Done(id) => {
                self.auditor.task_inserted(r.event, (id - 1) as u32);
                self.touched.push(r.event);
                self.log(pid, Some(step), Note::Rows { n: 1 });
                let n = if mode == ApiMode::Outbox {
                    Step::InsertEvent
                } else {
                    Step::Commit
                };
                self.goto(i, n);
            }
            Exec::Err(e) => self.sql_error(i, e),
            Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
        }
    }

    /// `INSERT INTO outbox …` (the event), in the task's transaction.
    fn api_insert_event(&mut self, i: usize) {
        let pid = Some(ProcId(i as u8));
        let step = self.procs[i].pc;
        let r = self.api_req(i);
        let tx = self.procs[i].tx.expect("tx");
        match self.db.insert_event(
            tx,
            r.event,
            EventKind::Created,
            1,
            r.intent,
            self.amount,
            false,
        ) {
            Exec::Done(_) => {
                self.log(pid, Some(step), Note::Rows { n: 1 });
                self.goto(i, Step::Commit);
            }
            Exec::Err(e) => self.sql_error(i, e),
            Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
        }
    }

    /// COMMIT, unless a fault rule makes the handler throw first.
    fn api_commit(&mut self, i: usize) {
        let r = self.api_req(i);
        let ctx = (Some(r.intent), Some(r.event));
        let throws = self.api_errors.iter().any(|w| Self::when_holds(w, 0, ctx));
        if throws {
            // The handler throws after its INSERTs: the catch block rolls back.
            self.goto(i, Step::Rollback);
            self.run_api(i);
            return;
        }
        let committed = self.end_tx(i, true, false);
        self.touched.push(r.event);
        if committed {
            self.auditor.committed(r.event);
            if self.cfg.client_retries > 0 {
                self.auditor.task_committed(r.intent);
            }
            self.goto(i, self.api_next_after(Step::Commit));
        } else {
            self.api_finish(i, false);
        }
    }

    /// The dual write's `queue.add`, outside any transaction.
    fn api_queue_add(&mut self, i: usize) {
        let pid = Some(ProcId(i as u8));
        let step = self.procs[i].pc;
        let mut r = self.api_req(i);
        match self.queue.add(r.event, self.amount, false) {
            res @ (AddResult::Created(_) | AddResult::Duplicate(_)) => {
                let created = matches!(res, AddResult::Created(_));
                self.auditor.queue_add(r.event, created);
                self.touched.push(r.event);
                r.added = true;
                self.set_api_req(i, Some(r.clone()));
                self.log(
                    pid,
                    Some(step),
                    Note::Added {
                        event: r.event,
                        created,
                    },
                );
                self.goto(i, self.api_next_after(Step::QueueAdd));
            }
            AddResult::Refused => {
                self.log(pid, Some(step), Note::AddRefused { event: r.event });
                // The error propagates: a DB-first API has committed already; a
                // queue-first one has written nothing.
                self.api_finish(i, false);
            }
            AddResult::Hangs => self.block(i, Wait::Queue),
        }
    }
}
