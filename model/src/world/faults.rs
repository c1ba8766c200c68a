//! Faults and the operator: applying an action (kills, armed kill rules, Redis going
//! away, failing publishes, a flush, the operator's recovery), killing and restarting a
//! process, and deciding whether an armed kill rule fires when a process reaches a step.

use super::armed::ArmedKill;
use super::{FaultNote, Mem, Note, RelayMem, World};
use crate::action::{Action, ProcKind, Step, When};
use crate::db::{Cursor, Exec, Role};
use crate::ids::{EventId, ProcId};
use crate::queue::{Health, Persistence};

impl World {
    /// On a process's first arrival at its step: whether a delay rule stalls it, and for
    /// how many ticks.
    pub(super) fn delay_fires(&mut self, i: usize) -> Option<u64> {
        if self.delays.is_empty() {
            return None;
        }
        let (pid, step) = (ProcId(i as u8), self.procs[i].pc);
        let ctx = self.context(i);
        let mut stall = None;
        for d in self.delays.iter_mut() {
            if d.proc != pid || d.step != step || d.remaining == Some(0) {
                continue;
            }
            d.reached += 1;
            if stall.is_none() && Self::when_holds(&d.when, d.reached, ctx) {
                stall = Some(d.ticks);
                if let Some(r) = d.remaining.as_mut() {
                    *r -= 1;
                }
            }
        }
        stall
    }

    pub(super) fn apply_now(&mut self, a: &Action) {
        self.causes.now = match a {
            Action::RedisFlush => super::Cause::RedisFlush,
            Action::RedisRestart => super::Cause::RedisRestart,
            _ => super::Cause::Operator,
        };
        match a {
            Action::Tick | Action::Step { .. } => {}
            Action::Kill { .. }
            | Action::ArmKill { .. }
            | Action::Disarm { .. }
            | Action::Restart { .. } => self.apply_to_process(a),
            Action::QueueDown { .. }
            | Action::QueueUp
            | Action::FailPublish { .. }
            | Action::RetryFailedJobs
            | Action::RetryJob { .. }
            | Action::RedisFlush
            | Action::RedisRestart => self.apply_to_queue(a),
            Action::UnpublishSince { since_tick } => self.unpublish_since(*since_tick),
        }
        self.mix(0xFA);
    }

    /// Kills, armed kill rules and restarts: actions on one process.
    fn apply_to_process(&mut self, a: &Action) {
        match a {
            Action::Kill { process } => {
                if let Some(p) = self.find(process) {
                    self.kill_if_alive(p.0 as usize);
                }
            }
            Action::ArmKill {
                process,
                step,
                when,
                times,
            } => {
                if let Some(p) = self.find(process) {
                    self.arm_kill(p, *step, when, *times);
                    self.log(
                        Some(p),
                        Some(*step),
                        Note::Fault {
                            fault: FaultNote::KillArmed,
                        },
                    );
                }
            }
            Action::Disarm { process, step } => {
                if let Some(p) = self.find(process) {
                    self.armed
                        .retain(|k| k.proc != p || step.is_some_and(|s| s != k.step));
                }
            }
            Action::Restart { process } => {
                if let Some(p) = self.find(process) {
                    self.restart_if_dead(p.0 as usize);
                }
            }
            _ => unreachable!("not a process action: {a:?}"),
        }
    }

    /// `Action::Kill`'s effect: a dead process is left as it is.
    pub(super) fn kill_if_alive(&mut self, i: usize) {
        if self.procs[i].alive {
            self.kill(i);
        }
    }

    /// `Action::Restart`'s effect: a live process is left as it is.
    pub(super) fn restart_if_dead(&mut self, i: usize) {
        if !self.procs[i].alive {
            self.restart(i);
        }
    }

    /// Redis going away and coming back, failing publishes, the failed set retried, a flush.
    fn apply_to_queue(&mut self, a: &Action) {
        match a {
            Action::QueueDown { hang } => {
                self.queue.health = if *hang {
                    Health::DownHang
                } else {
                    Health::DownFailFast
                };
                self.log_fault(if *hang {
                    FaultNote::QueueHangs
                } else {
                    FaultNote::QueueDown
                });
            }
            Action::QueueUp => {
                self.queue.health = Health::Up;
                self.log_fault(FaultNote::QueueUp);
            }
            Action::FailPublish { event, times } => {
                self.publish_failures.retain(|(e, _)| e != event);
                self.publish_failures.push((*event, *times));
                self.log_fault(FaultNote::PublishFails {
                    event: *event,
                    times: *times,
                });
            }
            Action::RetryFailedJobs => {
                let evs = self.queue.retry_failed();
                self.touched.extend(evs);
                self.log_fault(FaultNote::FailedJobsRetried);
            }
            Action::RetryJob { event } => {
                // A schedule's retry of a job that is not failed does nothing (as
                // BullMQ's refusal changes nothing); `World::apply` refuses it first.
                let ev = EventId(*event);
                let key = self.queue.retry_key(ev);
                if let Some(Ok(e)) = key.map(|k| self.queue.retry_job(k)) {
                    self.touched.push(e);
                    self.log_fault(FaultNote::JobRetried { event: *event });
                }
            }
            Action::RedisFlush => {
                let evs = self.queue.lose_everything();
                let jobs = evs.len() as u32;
                self.touched.extend(evs);
                self.last_flush = Some(self.tick);
                self.log_fault(FaultNote::RedisFlushed { jobs });
            }
            Action::RedisRestart => {
                let lost = self.queue.restart(Persistence::AppendOnly);
                debug_assert!(lost.is_empty(), "an append-only restart keeps every job");
                let jobs = self.queue.len() as u32;
                self.log_fault(FaultNote::RedisRestarted { jobs });
            }
            _ => unreachable!("not a queue action: {a:?}"),
        }
    }

    /// Arms a kill of `p` at `step` when `when` holds, at most `times` times: a scenario's
    /// standing rule and the user's ☠ both come here. The rules are kept sorted by
    /// (process, step), each after those armed before it for the same place, so a step
    /// finds its own rules by binary search ([`Self::armed_at`]) instead of scanning every
    /// rule (#40). Returns where the rule went.
    pub(super) fn arm_kill(
        &mut self,
        p: ProcId,
        step: Step,
        when: &When,
        times: Option<u32>,
    ) -> usize {
        let at = self
            .armed
            .partition_point(|k| (k.proc, k.step) <= (p, step));
        self.armed.insert(
            at,
            ArmedKill {
                proc: p,
                step,
                when: when.clone(),
                remaining: times,
                reached: 0,
                per_task: None,
            },
        );
        at
    }

    /// The positions in `armed` of the rules for `p` at `step`.
    fn armed_at(&self, p: ProcId, step: Step) -> std::ops::Range<usize> {
        let start = self.armed.partition_point(|k| (k.proc, k.step) < (p, step));
        let end = self
            .armed
            .partition_point(|k| (k.proc, k.step) <= (p, step));
        start..end
    }

    /// The operator's UPDATE, run as its own autocommit statement. With a short lock
    /// timeout (1 ms) it gives up (55P03) rather than wait for a relay's transaction.
    pub(super) fn unpublish_since(&mut self, since: u64) {
        let tx = self.db.begin(Role::Owner, self.tick);
        let mut c = Cursor::default();
        let r = self.db.unpublish_since(tx, since, &mut c);
        let mut out = std::mem::take(&mut self.scratch);
        let fault = match r {
            Exec::Done(n) => {
                self.db.commit_into(tx, &mut out);
                FaultNote::Unpublished { rows: n as u32 }
            }
            Exec::Blocked(_) | Exec::Err(_) => {
                self.db.rollback_into(tx, &mut out);
                FaultNote::UnpublishRefused
            }
        };
        self.touched.extend(out.touched_events.iter().copied());
        out.clear();
        self.scratch = out;
        self.log_fault(fault);
    }

    /// Heals every fault: Redis up, every process restarted, armed kills and publish
    /// failures dropped, failed jobs retried. What a team does after an incident.
    pub fn heal(&mut self) {
        self.causes.now = super::Cause::Operator;
        self.queue.health = Health::Up;
        self.armed.clear();
        self.publish_failures.clear();
        self.api_errors.clear();
        for i in 0..self.procs.len() {
            if !self.procs[i].alive {
                self.restart(i);
            }
        }
        let evs = self.queue.retry_failed();
        self.touched.extend(evs);
        self.after_step();
    }

    pub fn kill(&mut self, i: usize) {
        self.touch_proc(i);
        let (kind, step) = (self.procs[i].kind, self.procs[i].pc);
        self.causes.now = super::Cause::Kill { kind, step };
        let pid = ProcId(i as u8);
        let tick = self.tick;
        if let Some(tx) = self.procs[i].tx.take() {
            // The connection is gone: PostgreSQL rolls the transaction back (into the
            // reused outcome, as `end_tx` does: a kill allocates nothing).
            let mut out = std::mem::take(&mut self.scratch);
            self.db.rollback_into(tx, &mut out);
            self.touched.extend(out.touched_events.iter().copied());
            out.clear();
            self.scratch = out;
        }
        if self.procs[i].kind == ProcKind::Relay {
            self.tally.lock_wait_ended(i as u8, tick);
        }
        let p = &mut self.procs[i];
        if p.alive {
            self.dead += 1;
        }
        p.alive = false;
        p.blocked = None;
        p.kills += 1;
        p.arrived = false;
        p.restart_at = self.cfg.restart_after_ticks.map(|d| tick + d.max(1));
        let step = p.pc;
        let kind = p.kind;
        let old = std::mem::replace(&mut p.mem, Mem::fresh(kind, 0));
        self.after_kill_memory(i, old);
        if self.history && self.kills.len() < 10_000 {
            self.kills.push((pid, step, tick));
        }
        let first = self.procs[i].program.first().copied().unwrap_or(step);
        self.procs[i].pc = if kind == ProcKind::Session {
            step
        } else {
            first
        };
        self.log(Some(pid), Some(step), Note::Killed);
        self.mix(0xDEAD ^ i as u64);
        if kind == ProcKind::Api && self.cfg.api == crate::scenario::ApiMode::OutboxPoolBegin {
            // The requests share one server and its pool: it dies with all of them.
            self.pool_down();
        }
    }

    /// What a killed process's memory leaves behind (`old`, its memory before the kill;
    /// it holds a fresh one now): what outlives the process is put back (the client's
    /// place in the workload, a relay's buffers, a session's position), and every event it
    /// held is judged again.
    fn after_kill_memory(&mut self, i: usize, old: Mem) {
        let pid = ProcId(i as u8);
        let tick = self.tick;
        match old {
            Mem::Client { next, waiting, .. } => {
                // The workload's position is the client's durable state.
                self.procs[i].mem = Mem::Client {
                    next: next + waiting.map_or(0, |_| self.cfg.apis.max(1) as u32),
                    waiting: None,
                    reply: None,
                    tries: 0,
                };
            }
            Mem::Cdc { batch, .. } => {
                // Its offset is saved in the slot; what it read since is read again.
                self.touched.extend(batch);
            }
            Mem::Cleaner { .. } => {}
            Mem::Api { req: Some(r) } => {
                self.touched.push(r.event);
                self.reply_client(i, false);
            }
            Mem::Relay(mut m) => {
                for &r in &m.batch {
                    self.touched.push(self.db.outbox[r as usize].hodisa);
                }
                // Its memory is lost; the lists' buffers are kept for its next polls.
                m.reset();
                self.procs[i].mem = Mem::Relay(m);
            }
            Mem::Worker { job } => {
                self.queue.worker_died(pid, tick);
                if let Some(j) = job {
                    self.touched.push(j.event);
                }
            }
            Mem::Session { pos } => {
                self.procs[i].mem = Mem::Session { pos };
            }
            Mem::Api { req: None } => {}
        }
    }

    pub(super) fn restart(&mut self, i: usize) {
        self.touch_proc(i);
        let p = &mut self.procs[i];
        if !p.alive {
            self.dead -= 1;
        }
        p.alive = true;
        p.restart_at = None;
        p.blocked = None;
        p.arrived = false;
        p.sleep_until = self.tick;
        if p.kind == ProcKind::Session {
            // The session's script goes on with its next statement, outside any transaction.
            if let Mem::Session { pos } = &mut p.mem {
                *pos += 1;
                p.pc = Step::Script((*pos).min(255) as u8);
            }
        }
        self.log(Some(ProcId(i as u8)), None, Note::Restarted);
    }

    /// The answer of the API at `api` to its client (the process just before it).
    pub(super) fn reply_client(&mut self, api: usize, ok: bool) {
        let c = api - 1;
        self.touch_proc(c);
        if let Mem::Client {
            reply,
            waiting: Some(_),
            ..
        } = &mut self.procs[c].mem
        {
            *reply = Some(ok);
        }
    }

    /// The task index and event the process is handling now.
    pub(super) fn context(&self, i: usize) -> (Option<u32>, Option<EventId>) {
        let p = &self.procs[i];
        match &p.mem {
            Mem::Client { next, waiting, .. } => (Some(waiting.unwrap_or(*next)), None),
            Mem::Api { req } => (
                req.as_ref().map(|r| r.intent),
                req.as_ref().map(|r| r.event),
            ),
            Mem::Relay(RelayMem { batch, pos, .. }) => {
                let r = batch.get(*pos).or(batch.first());
                match r {
                    Some(&r) => {
                        let row = &self.db.outbox[r as usize];
                        (Some(row.task_intent), Some(row.hodisa))
                    }
                    None => (None, None),
                }
            }
            Mem::Worker { job: Some(j) } => {
                (self.auditor.life(j.event).map(|l| l.intent), Some(j.event))
            }
            Mem::Cdc { batch, pos, .. } => match batch.get(*pos) {
                Some(&e) => (self.auditor.life(e).map(|l| l.intent), Some(e)),
                None => (None, None),
            },
            Mem::Worker { job: None } | Mem::Session { .. } | Mem::Cleaner { .. } => (None, None),
        }
    }

    pub(super) fn when_holds(
        when: &When,
        reached: u32,
        ctx: (Option<u32>, Option<EventId>),
    ) -> bool {
        match when {
            When::Always => true,
            When::Nth { n } => reached == *n,
            When::TaskIndexMod { modulus, remainder } => ctx
                .0
                .is_some_and(|i| *modulus > 0 && i % modulus == *remainder),
            When::Event { event } => ctx.1.is_some_and(|e| e.0 == *event),
        }
    }

    /// Counts this arrival for the armed kills and reports whether one fires.
    pub(super) fn kill_fires(&mut self, i: usize) -> bool {
        if self.procs[i].arrived || self.armed.is_empty() {
            return false;
        }
        self.procs[i].arrived = true;
        let pid = ProcId(i as u8);
        let step = self.procs[i].pc;
        // The context is read only when some rule is armed for this process and step.
        let mut ctx = None;
        let mut fire = false;
        for n in self.armed_at(pid, step) {
            let k = &self.armed[n];
            if k.remaining == Some(0) {
                continue;
            }
            let reached = k.reached + 1;
            self.armed[n].reached = reached;
            if fire {
                continue;
            }
            let c = *ctx.get_or_insert_with(|| self.context(i));
            let k = &mut self.armed[n];
            if !Self::when_holds(&k.when, reached, c) {
                continue;
            }
            match (k.per_task.as_mut(), c.0) {
                (None, _) => {
                    fire = true;
                    if let Some(r) = k.remaining.as_mut() {
                        *r -= 1;
                    }
                }
                // A per-task rule needs a task in hand, and fires within its budget.
                (Some(_), None) => {}
                (Some(fired), Some(task)) => {
                    let at = match fired.binary_search_by_key(&task, |&(t, _)| t) {
                        Ok(at) => at,
                        Err(at) => {
                            fired.insert(at, (task, 0));
                            at
                        }
                    };
                    if k.remaining.is_none_or(|r| fired[at].1 < r) {
                        fired[at].1 += 1;
                        fire = true;
                    }
                }
            }
        }
        fire
    }

    /// A fault or an operator's action that no process took, for the log.
    fn log_fault(&mut self, fault: FaultNote) {
        self.log(None, None, Note::Fault { fault });
    }
}
