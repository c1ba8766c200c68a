//! The worker: takes a job from the queue and performs the business action, guarded by
//! the inbox in one of the lesson's ways, then completes (or fails) the job.

use super::{HeldJob, Mem, Note, Wait, World};
use crate::action::Step;
use crate::db::{Exec, Role};
use crate::ids::ProcId;
use crate::scenario::WorkerMode;

impl World {
    /// The worker's job, written in place (no drop of the old memory).
    pub(super) fn set_job(&mut self, i: usize, j: Option<HeldJob>) {
        match &mut self.procs[i].mem {
            Mem::Worker { job } => *job = j,
            m => *m = Mem::Worker { job: j },
        }
    }

    pub(super) fn job(&self, i: usize) -> HeldJob {
        match &self.procs[i].mem {
            Mem::Worker { job: Some(j) } => j.clone(),
            _ => unreachable!("worker holds a job"),
        }
    }

    pub(super) fn set_fresh(&mut self, i: usize, v: bool) {
        if let Mem::Worker { job: Some(j) } = &mut self.procs[i].mem {
            j.fresh = Some(v);
            // Whether the worker still carries the event can change with it.
            self.touched.push(j.event);
        }
    }

    pub(super) fn run_worker(&mut self, i: usize) {
        use WorkerMode::*;
        let pid = ProcId(i as u8);
        let step = self.procs[i].pc;
        let mode = self.cfg.worker;
        match step {
            Step::Fetch => self.worker_fetch(i),
            Step::InboxCheck => self.worker_inbox_check(i),
            Step::Begin | Step::BeginSecond => {
                self.begin(i, Role::Owner);
                let n = match (mode, step) {
                    (NoInbox, _)
                    | (ActionThenInbox, Step::Begin)
                    | (InboxOwnTx, Step::BeginSecond) => Step::Action,
                    (ActionThenInbox, _) => Step::InboxInsert,
                    _ => Step::InboxInsert,
                };
                self.goto(i, n);
            }
            Step::InboxInsert => self.worker_inbox_insert(i),
            Step::Action => self.worker_action(i),
            Step::ExternalCall => self.worker_external_call(i),
            Step::Commit | Step::CommitSecond => self.worker_commit(i),
            Step::Complete => {
                let j = self.job(i);
                let ok = self.queue.complete(j.key, j.token);
                self.touched.push(j.event);
                self.log(
                    Some(pid),
                    Some(step),
                    Note::Completed { event: j.event, ok },
                );
                self.set_job(i, None);
                self.goto(i, Step::Fetch);
            }
            Step::Rollback => {
                if self.procs[i].tx.is_some() {
                    self.end_tx(i, false, false);
                }
                // The processor threw: BullMQ moves the job to failed (attempts: 1).
                let j = self.job(i);
                self.queue.fail(j.key, j.token);
                self.touched.push(j.event);
                self.set_job(i, None);
                self.goto(i, Step::Fetch);
            }
            _ => unreachable!("worker step {step:?}"),
        }
    }

    /// Takes a job from the queue (BullMQ's `getNextJob`), if one waits.
    fn worker_fetch(&mut self, i: usize) {
        use WorkerMode::*;
        let pid = ProcId(i as u8);
        let step = self.procs[i].pc;
        let mode = self.cfg.worker;
        let Some((key, token)) = self.queue.take(pid) else {
            return;
        };
        let (event, amount) = {
            let j = self.queue.job(key).expect("taken job");
            (j.event, j.amount)
        };
        self.auditor.delivered(event);
        self.touched.push(event);
        self.set_job(
            i,
            Some(HeldJob {
                key,
                token,
                event,
                amount,
                fresh: None,
            }),
        );
        self.log(Some(pid), Some(step), Note::Delivered { event });
        let n = if mode == ActionThenInbox {
            Step::InboxCheck
        } else {
            Step::Begin
        };
        self.goto(i, n);
    }

    /// Action-then-inbox: has the inbox seen this event already?
    fn worker_inbox_check(&mut self, i: usize) {
        let pid = ProcId(i as u8);
        let step = self.procs[i].pc;
        let j = self.job(i);
        let seen = self.db.inbox_has(j.event);
        self.set_fresh(i, !seen);
        if seen {
            self.log(Some(pid), Some(step), Note::Skipped { event: j.event });
            self.goto(i, Step::Complete);
        } else {
            self.log(Some(pid), Some(step), Note::Rows { n: 0 });
            self.goto(i, Step::Begin);
        }
    }

    /// `INSERT INTO inbox … ON CONFLICT DO NOTHING`: whether the event is new here.
    fn worker_inbox_insert(&mut self, i: usize) {
        use WorkerMode::*;
        let pid = ProcId(i as u8);
        let step = self.procs[i].pc;
        let mode = self.cfg.worker;
        let j = self.job(i);
        let tx = self.procs[i].tx.expect("tx");
        match self.db.inbox_insert(tx, j.event, self.tick) {
            Exec::Done(inserted) => {
                self.log(Some(pid), Some(step), Note::Inserted { inserted });
                if mode != ActionThenInbox {
                    self.set_fresh(i, inserted);
                }
                let n = match (mode, inserted) {
                    (InboxSameTx, true) => Step::Action,
                    (ExternalEffect, true) => Step::ExternalCall,
                    (ActionThenInbox, _) => Step::CommitSecond,
                    _ => Step::Commit,
                };
                if !inserted && mode != ActionThenInbox {
                    self.log(Some(pid), Some(step), Note::Skipped { event: j.event });
                }
                self.goto(i, n);
            }
            Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
            Exec::Err(e) => self.sql_error(i, e),
        }
    }

    /// The business action, in the worker's transaction.
    fn worker_action(&mut self, i: usize) {
        use WorkerMode::*;
        let pid = ProcId(i as u8);
        let step = self.procs[i].pc;
        let mode = self.cfg.worker;
        let j = self.job(i);
        let tx = self.procs[i].tx.expect("tx");
        match self.db.action_insert(tx, j.event, j.amount) {
            Exec::Done(()) => {
                self.log(Some(pid), Some(step), Note::Rows { n: 1 });
                let n = if mode == InboxOwnTx {
                    Step::CommitSecond
                } else {
                    Step::Commit
                };
                self.goto(i, n);
            }
            Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
            Exec::Err(e) => self.sql_error(i, e),
        }
    }

    /// A call to an outside service: its effect happens at once, outside any transaction.
    fn worker_external_call(&mut self, i: usize) {
        let pid = ProcId(i as u8);
        let step = self.procs[i].pc;
        let j = self.job(i);
        let dedup = self.cfg.external_idempotency_key && !self.external_seen.insert(j.event.0);
        if !self.cfg.external_idempotency_key {
            self.external_seen.insert(j.event.0);
        }
        if dedup {
            self.log(Some(pid), Some(step), Note::Skipped { event: j.event });
        } else {
            self.auditor.effect(j.event);
            self.touched.push(j.event);
            self.log(Some(pid), Some(step), Note::Effect { event: j.event });
        }
        self.goto(i, Step::Commit);
    }

    /// COMMIT of the worker's first or second transaction.
    fn worker_commit(&mut self, i: usize) {
        use WorkerMode::*;
        let step = self.procs[i].pc;
        let mode = self.cfg.worker;
        let committed = self.end_tx(i, true, false);
        if !committed {
            self.goto(i, Step::Rollback);
            return;
        }
        let j = self.job(i);
        let n = match (mode, step) {
            (InboxOwnTx, Step::Commit) if j.fresh == Some(true) => Step::BeginSecond,
            (ActionThenInbox, Step::Commit) => Step::BeginSecond,
            _ => Step::Complete,
        };
        self.goto(i, n);
    }
}
