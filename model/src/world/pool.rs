//! node-postgres's `Pool` (pg-pool 3) under the `outbox_pool_begin` API (#43): BEGIN,
//! INSERT task, INSERT outbox and COMMIT each sent with `pool.query`, which checks a
//! connection out for the one statement and releases it when the answer comes.
//!
//! pg-pool keeps its idle clients in a stack (`_idle`: released ones pushed, checkouts
//! pop the last) and its waiting checkouts in a FIFO (`_pendingQueue`); a release hands
//! the client to the first waiter, if any, before anything else runs. A request's next
//! `pool.query` is made in the same turn of Node's event loop as the release of the one
//! before, so here both happen in one step: while nobody waits, a request gets back the
//! connection it just released and its four statements share one transaction, as they
//! would on a client from `pool.connect()`. With more requests than connections someone
//! always waits: the released connection, its transaction still open, goes to another
//! request's statement and the releasing request queues behind it. Requests then share
//! transactions: a BEGIN on a connection already in one is PostgreSQL's "there is already
//! a transaction in progress" (nothing happens), a COMMIT on one without is "there is no
//! transaction in progress", and one request's COMMIT commits whatever other requests'
//! INSERTs ran on that connection.
//!
//! While a process holds a connection its transaction is the process's `tx` (so locks,
//! waits, kills and the gates work as for any process); an idle connection keeps its
//! transaction here. pg-pool closes a client idle for `idleTimeoutMillis` (10 s by
//! default): PostgreSQL rolls its transaction back. The API instances are one Node
//! server's concurrent requests: killing one is the server's death, every connection
//! closes and every transaction on them rolls back (`faults.rs` calls [`World::pool_down`]).

use super::pool_state::{Hold, PgPool, POOL_IDLE_TIMEOUT_TICKS};
use super::{Mem, Note, World};
use crate::action::Step;
use crate::db::{Exec, Role};
use crate::ids::{EventKind, ProcId};

impl World {
    fn req_hold(&self, i: usize) -> Hold {
        match &self.procs[i].mem {
            Mem::Api { req: Some(r) } => r.pool,
            _ => Hold::Nothing,
        }
    }

    fn set_hold(&mut self, i: usize, hold: Hold) {
        self.touch_proc(i);
        if let Mem::Api { req: Some(r) } = &mut self.procs[i].mem {
            r.pool = hold;
        }
    }

    /// `pool.query`'s checkout for the API at `i`: the last idle connection while nobody
    /// waits, else a new one while the pool is not full, else a place in the queue.
    pub(super) fn pool_checkout(&mut self, i: usize) {
        let p = &mut self.pool;
        let hold = if p.waiting.is_empty() && !p.idle.is_empty() {
            let c = p.idle.pop().expect("idle");
            self.procs[i].tx = p.conns[c as usize].take();
            Hold::Conn(c)
        } else if p.conns.len() < self.cfg.pool_size as usize {
            p.conns.push(None);
            p.since.push(self.tick);
            Hold::Conn((p.conns.len() - 1) as u8)
        } else {
            p.waiting.push(i as u8);
            Hold::Waits
        };
        self.set_hold(i, hold);
    }

    /// The statement's answer came: the connection goes to the first waiting statement,
    /// its transaction with it, or back to the idle stack.
    fn pool_release(&mut self, i: usize, c: u8) {
        self.set_hold(i, Hold::Nothing);
        let tx = self.procs[i].tx.take();
        if self.pool.waiting.is_empty() {
            self.pool.conns[c as usize] = tx;
            self.pool.since[c as usize] = self.tick;
            self.pool.idle.push(c);
            return;
        }
        let w = self.pool.waiting.remove(0) as usize;
        self.procs[w].tx = tx;
        self.set_hold(w, Hold::Conn(c));
    }

    /// The server died (a kill of any API instance): every connection closes, so every
    /// transaction on them rolls back, and the other requests die with it.
    pub(super) fn pool_down(&mut self) {
        let mut out = std::mem::take(&mut self.scratch);
        for c in 0..self.pool.conns.len() {
            if let Some(tx) = self.pool.conns[c].take() {
                self.db.rollback_into(tx, &mut out);
                self.touched
                    .extend(out.touched_events.iter().chain(&out.events).copied());
                out.clear();
            }
        }
        self.scratch = out;
        let tasks = std::mem::take(&mut self.pool.tasks);
        self.pool = PgPool {
            tasks,
            ..PgPool::default()
        };
        // What it loses is the first kill's doing, not the last request's it took along.
        let cause = self.causes.now;
        for a in self.api_indices().collect::<Vec<_>>() {
            if self.procs[a].alive {
                self.kill(a);
            }
        }
        self.causes.now = cause;
        self.pool_forget_aborted();
    }

    /// pg-pool's idle timeout: idle connections holding a transaction past it close, and
    /// PostgreSQL rolls their transactions back. The slot stays on the idle stack as a
    /// fresh connection (what pg-pool would open in its place on the next checkout: only
    /// the transaction is observable). Whether it closed any.
    pub(super) fn pool_close_idle(&mut self) -> bool {
        let mut any = false;
        for k in 0..self.pool.idle.len() {
            let c = self.pool.idle[k] as usize;
            if self.pool.since[c] + POOL_IDLE_TIMEOUT_TICKS > self.tick {
                continue;
            }
            if let Some(tx) = self.pool.conns[c].take() {
                let mut out = std::mem::take(&mut self.scratch);
                self.db.rollback_into(tx, &mut out);
                self.touched
                    .extend(out.touched_events.iter().chain(&out.events).copied());
                out.clear();
                self.scratch = out;
                self.log(None, None, Note::RolledBack);
                any = true;
            }
        }
        if any {
            self.pool_forget_aborted();
        }
        any
    }

    /// Drops the tasks of rolled-back transactions from the pool's list; their events
    /// are judged again (their request may be long answered: nothing else holds them).
    fn pool_forget_aborted(&mut self) {
        let (db, touched) = (&self.db, &mut self.touched);
        self.pool.tasks.retain(|&(t, e)| {
            let open = matches!(
                db.task_status(t),
                crate::db::TxStatus::Active | crate::db::TxStatus::Failed
            );
            if !open {
                touched.push(e);
            }
            open
        });
    }

    /// A COMMIT made these tasks durable: their events are owed from now on, whichever
    /// request's COMMIT it was (called by `end_tx`).
    pub(super) fn pool_tasks_committed(&mut self, tasks: &[u32]) {
        for &t in tasks {
            let Some(k) = self.pool.tasks.iter().position(|&(x, _)| x == t) else {
                continue;
            };
            let (_, e) = self.pool.tasks.swap_remove(k);
            self.auditor.committed(e);
            self.touched.push(e);
            if self.cfg.client_retries > 0 {
                if let Some(intent) = self.auditor.life(e).map(|l| l.intent) {
                    self.auditor.task_committed(intent);
                }
            }
        }
    }

    /// One `pool.query` of the `outbox_pool_begin` API: the statement runs on the
    /// connection the request holds, the connection is released, and the next statement
    /// is checked out at once (see the module doc).
    pub(super) fn run_pool_statement(&mut self, i: usize) {
        let step = self.procs[i].pc;
        let Hold::Conn(c) = self.req_hold(i) else {
            unreachable!("a runnable pooled API holds a connection")
        };
        let next = match step {
            Step::Begin => self.pool_begin(i),
            Step::InsertTask | Step::InsertEvent => self.pool_insert(i, step),
            Step::Commit => self.pool_commit(i),
            _ => self.pool_rollback(i),
        };
        let Some(next) = next else {
            return; // waiting for a lock: the connection stays held
        };
        self.pool_release(i, c);
        self.goto(i, next);
        // The answer and the catch's ROLLBACK step hold no connection.
        if !matches!(next, Step::Respond | Step::Rollback) {
            self.pool_checkout(i);
        }
    }

    fn pool_role(&self) -> Role {
        if self.cfg.api_app_role {
            Role::App
        } else {
            Role::Owner
        }
    }

    /// BEGIN: a transaction, unless the connection is in one already (PostgreSQL's
    /// warning "there is already a transaction in progress": nothing happens).
    fn pool_begin(&mut self, i: usize) -> Option<Step> {
        let opened = self.procs[i].tx.is_none();
        if opened {
            self.begin(i, self.pool_role());
        }
        let note = if opened {
            Note::Ok
        } else {
            Note::Rows { n: 0 }
        };
        self.log(Some(ProcId(i as u8)), Some(Step::Begin), note);
        Some(Step::InsertTask)
    }

    /// An INSERT in the connection's transaction, or in one of its own (autocommit) on a
    /// connection in none. None while it waits for a lock.
    fn pool_insert(&mut self, i: usize, step: Step) -> Option<Step> {
        let pid = Some(ProcId(i as u8));
        let autocommit = self.procs[i].tx.is_none();
        if autocommit {
            self.begin(i, self.pool_role());
        }
        let r = self.api_req(i);
        let tx = self.procs[i].tx.expect("tx");
        let done = if step == Step::InsertTask {
            self.db.insert_task(tx, 1, r.intent).map(|id| {
                let t = (id - 1) as u32;
                self.auditor.task_inserted(r.event, t);
                self.pool.tasks.push((t, r.event));
            })
        } else {
            let kind = EventKind::Created;
            (self.db)
                .insert_event(tx, r.event, kind, 1, r.intent, self.amount, false)
                .map(|_| ())
        };
        self.touched.push(r.event);
        match done {
            Exec::Done(()) => {
                self.log(pid, Some(step), Note::Rows { n: 1 });
                if autocommit {
                    self.end_tx(i, true, false);
                }
                Some(if step == Step::InsertTask {
                    Step::InsertEvent
                } else {
                    Step::Commit
                })
            }
            Exec::Err(e) => {
                self.log(pid, Some(step), Note::Error { code: e.code });
                if autocommit {
                    self.end_tx(i, false, false);
                    self.pool_forget_aborted();
                }
                // The handler's catch: ROLLBACK on the connection it holds.
                self.pool_rollback(i)
            }
            Exec::Blocked(t) => {
                self.block(i, super::Wait::Tx(t));
                None
            }
        }
    }

    /// COMMIT of the connection's transaction, whoever began it and whatever rows other
    /// requests put in it; on a connection in none, nothing ("there is no transaction in
    /// progress"). A fault rule that makes the handler throw first rolls back instead.
    fn pool_commit(&mut self, i: usize) -> Option<Step> {
        let r = self.api_req(i);
        let ctx = (Some(r.intent), Some(r.event));
        if self.api_errors.iter().any(|w| Self::when_holds(w, 0, ctx)) {
            return self.pool_rollback(i);
        }
        self.touched.push(r.event);
        if self.procs[i].tx.is_none() {
            self.log(
                Some(ProcId(i as u8)),
                Some(Step::Commit),
                Note::Rows { n: 0 },
            );
            return Some(Step::Respond);
        }
        let ok = self.end_tx(i, true, false);
        if !ok {
            self.pool_forget_aborted();
        }
        Some(if ok { Step::Respond } else { Step::Rollback })
    }

    /// ROLLBACK of the connection's transaction, if it is in one; the request fails.
    fn pool_rollback(&mut self, i: usize) -> Option<Step> {
        if self.procs[i].tx.is_some() {
            self.end_tx(i, false, false);
            self.pool_forget_aborted();
        }
        Some(Step::Rollback)
    }
}
