//! What every process program shares: running one step of a process (the kill check,
//! the dispatch to its program, the trace), moving to a step, blocking (with deadlock
//! detection), and opening, ending and failing a transaction.

use super::{Mem, Note, Wait, World};
use crate::action::{ProcKind, Step};
use crate::db::{Role, SqlError};
use crate::ids::ProcId;

impl World {
    pub(super) fn run_proc(&mut self, i: usize) {
        self.touch_proc(i);
        self.steps += 1;
        self.mix(self.tick ^ ((i as u64) << 56));
        let (kind, step) = (self.procs[i].kind, self.procs[i].pc);
        self.causes.now = super::Cause::Ran { kind, step };
        let first_arrival = !self.procs[i].arrived;
        if self.kill_fires(i) {
            self.kill(i);
            return;
        }
        if first_arrival {
            if let Some(ticks) = self.delay_fires(i) {
                // The step runs when the process wakes; this arrival is counted.
                let p = &mut self.procs[i];
                p.arrived = true;
                p.sleep_until = self.tick + ticks.max(1);
                let step = p.pc;
                self.log(Some(ProcId(i as u8)), Some(step), Note::Delayed { ticks });
                return;
            }
        }
        let before = self.procs[i].pc;
        if self.procs[i].blocked.take().is_some() && self.procs[i].kind == ProcKind::Relay {
            self.tally.lock_wait_ended(i as u8, self.tick);
        }
        // What a worker or the API holds is checked after each of its steps. Its class
        // changes only at the steps that say so (they push it to `touched`): the API's
        // INSERT of the task, COMMIT, queue.add, answer and ROLLBACK; the worker's inbox
        // check or insert (`fresh`), effect, COMMIT, complete and fail.
        match &self.procs[i].mem {
            Mem::Worker { job: Some(j) } => self.held = Some(j.event),
            Mem::Api { req: Some(r) } => self.held = Some(r.event),
            _ => {}
        }
        match self.procs[i].kind {
            ProcKind::Client => self.run_client(i),
            ProcKind::Api => self.run_api(i),
            ProcKind::Relay => self.run_relay(i),
            ProcKind::Worker => self.run_worker(i),
            ProcKind::Session => self.run_session(i),
            ProcKind::Cdc => self.run_cdc(i),
            ProcKind::Cleaner => self.run_cleaner(i),
        }
        let p = &mut self.procs[i];
        if p.blocked.is_none() {
            p.arrived = false;
        }
        let (b, s) = (before.code(), p.pc.code());
        self.mix(b << 16 | s);
    }

    pub(super) fn goto(&mut self, i: usize, s: Step) {
        self.procs[i].pc = s;
    }

    pub(super) fn block(&mut self, i: usize, w: Wait) {
        // A wait that closes a cycle is a deadlock: PostgreSQL aborts a statement in it.
        if let (Wait::Tx(mut t), Some(me)) = (w, self.procs[i].tx) {
            let mut hops = 0;
            loop {
                if t == me {
                    let e =
                        SqlError::new(crate::db::sqlstate::DEADLOCK_DETECTED, "deadlock detected");
                    self.db.mark_failed(me);
                    self.log(
                        Some(ProcId(i as u8)),
                        Some(self.procs[i].pc),
                        Note::Error { code: e.code },
                    );
                    self.goto(i, Step::Rollback);
                    return;
                }
                let holder = self.procs.iter().find(|p| p.tx == Some(t));
                match holder.and_then(|p| p.blocked) {
                    Some(Wait::Tx(next)) if hops < 16 => {
                        t = next;
                        hops += 1;
                    }
                    _ => break,
                }
            }
        }
        self.procs[i].blocked = Some(w);
        if matches!(w, Wait::Tx(_)) && self.procs[i].kind == ProcKind::Relay {
            self.tally.lock_wait_began(i as u8, self.tick);
        }
        let step = self.procs[i].pc;
        self.log(Some(ProcId(i as u8)), Some(step), Note::Blocked { on: w });
    }

    /// Ends process `i`'s transaction; returns whether it committed. `own_events`: the
    /// events the transaction inserted are judged by their own rows (a scripted session).
    pub(super) fn end_tx(&mut self, i: usize, commit: bool, own_events: bool) -> bool {
        let tx = self.procs[i].tx.take().expect("open transaction");
        let out = &mut self.scratch;
        if commit {
            self.db.commit_into(tx, out);
        } else {
            self.db.rollback_into(tx, out);
        }
        // A few events per list: pushes, not a memcpy call per list.
        for &e in out.touched_events.iter().chain(&out.events) {
            self.touched.push(e);
        }
        if out.committed && !self.pool.tasks.is_empty() {
            // Tasks sent through the pool: any request's COMMIT may make one durable.
            let tasks = std::mem::take(&mut out.tasks);
            self.pool_tasks_committed(&tasks);
            self.scratch.tasks = tasks;
        }
        let out = &mut self.scratch;
        if own_events && out.committed {
            for &e in &out.events {
                self.auditor.committed(e);
            }
        }
        for &(e, _) in &out.actions {
            self.auditor.effect(e);
            self.touched.push(e);
        }
        for &e in &out.inbox {
            self.touched.push(e);
        }
        let committed = out.committed;
        out.clear();
        let note = if committed {
            Note::Committed
        } else {
            Note::RolledBack
        };
        let step = self.procs[i].pc;
        self.log(Some(ProcId(i as u8)), Some(step), note);
        committed
    }

    pub(super) fn begin(&mut self, i: usize, role: Role) {
        let tx = self.db.begin(role, self.tick);
        self.procs[i].tx = Some(tx);
    }

    pub(super) fn sql_error(&mut self, i: usize, e: SqlError) {
        let step = self.procs[i].pc;
        self.log(
            Some(ProcId(i as u8)),
            Some(step),
            Note::Error { code: e.code },
        );
        self.goto(i, Step::Rollback);
    }
}
