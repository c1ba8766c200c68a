//! The polling relay: in a transaction, selects a batch of unpublished outbox rows, adds
//! each to the queue, marks them published (or failed, or dead-lettered) and commits;
//! or, in the mark-first mode, marks and commits before it publishes. Also the high-water
//! relay's mark and the `queue.add` the CDC relay shares.

use super::relay_mem::{Poll, RelayMem, POLL_HISTORY};
use super::{Mem, Note, Wait, World};
use crate::action::Step;
use crate::db::{Exec, OutboxChange, Role};
use crate::ids::TxId;
use crate::ids::{EventId, ProcId};
use crate::queue::AddResult;
use crate::scenario::{RelayMode, Sink};

impl World {
    pub(super) fn relay_mem(&mut self, i: usize) -> &mut RelayMem {
        match &mut self.procs[i].mem {
            Mem::Relay(m) => m,
            _ => unreachable!(),
        }
    }

    pub(super) fn relay_done(&mut self, i: usize) {
        let m = self.relay_mem(i);
        let poll = Poll {
            published: m.ok.len() as u32,
            failed: m.bad.len() as u32,
        };
        m.batch.clear();
        m.pos = 0;
        m.ok.clear();
        m.bad.clear();
        m.cursor.reset();
        self.tally.poll(i as u8, poll.published, poll.failed);
        if self.history {
            let h = &mut self.polls[i];
            if h.len() >= POLL_HISTORY {
                h.remove(0);
            }
            h.push(poll);
        }
        self.procs[i].sleep_until = self.tick + self.cfg.relay.poll_interval_ticks;
        self.goto(i, Step::Begin);
    }

    /// Publishing one row; Some(ok) when the call returned, None when it hangs.
    pub(super) fn publish(&mut self, i: usize, row: u32) -> Option<bool> {
        let (e, amount) = {
            let r = &self.db.outbox[row as usize];
            (r.hodisa, r.summa)
        };
        self.publish_event(i, e, amount)
    }

    /// `queue.add` of one event by a relay or the CDC relay.
    pub(super) fn publish_event(&mut self, i: usize, e: EventId, amount: u32) -> Option<bool> {
        let pid = Some(ProcId(i as u8));
        if let Some(f) = self
            .publish_failures
            .iter_mut()
            .find(|(ev, n)| *ev == e.0 && *n > 0)
        {
            if f.1 != u32::MAX {
                f.1 -= 1;
            }
            self.log(pid, Some(Step::Publish), Note::PublishFailed { event: e });
            return Some(false);
        }
        let done = match self.cfg.relay.sink {
            Sink::Queue => self.queue_add(i, e, amount),
            Sink::Webhook { idempotency_key } => Some(self.webhook_post(i, e, idempotency_key)),
        };
        if done == Some(true) {
            if let Some(f) = self
                .publish_timeouts
                .iter_mut()
                .find(|(ev, n)| *ev == e.0 && *n > 0)
            {
                f.1 -= 1;
                self.log(pid, Some(Step::Publish), Note::PublishTimedOut { event: e });
                return Some(false);
            }
        }
        done
    }

    /// The webhook's receiver gets `POST` for `e` and acts on it, unless it has acted on
    /// that idempotency key before.
    fn webhook_post(&mut self, i: usize, e: EventId, idempotency_key: bool) -> bool {
        let pid = Some(ProcId(i as u8));
        let first = self.webhook_seen.insert(e.0);
        self.auditor.delivered(e);
        self.touched.push(e);
        if idempotency_key && !first {
            self.log(pid, Some(Step::Publish), Note::Skipped { event: e });
        } else {
            self.auditor.effect(e);
            self.log(pid, Some(Step::Publish), Note::Effect { event: e });
        }
        true
    }

    /// `queue.add` of one event: Some(added), None when Redis hangs.
    fn queue_add(&mut self, i: usize, e: EventId, amount: u32) -> Option<bool> {
        let pid = Some(ProcId(i as u8));
        match self.queue.add(e, amount, self.cfg.relay.job_id) {
            AddResult::Created(_) => {
                self.auditor.queue_add(e, true);
                self.touched.push(e);
                self.log(
                    pid,
                    Some(Step::Publish),
                    Note::Added {
                        event: e,
                        created: true,
                    },
                );
                Some(true)
            }
            AddResult::Duplicate(_) => {
                self.auditor.queue_add(e, false);
                self.touched.push(e);
                self.log(
                    pid,
                    Some(Step::Publish),
                    Note::Added {
                        event: e,
                        created: false,
                    },
                );
                Some(true)
            }
            AddResult::Refused => {
                self.log(pid, Some(Step::Publish), Note::AddRefused { event: e });
                Some(false)
            }
            AddResult::Hangs => None,
        }
    }

    pub(super) fn run_relay(&mut self, i: usize) {
        let step = self.procs[i].pc;
        match step {
            Step::Begin => {
                self.begin(i, Role::Owner);
                self.goto(i, Step::SelectBatch);
            }
            Step::SelectBatch => self.relay_select(i),
            Step::Publish => self.relay_publish(i),
            Step::MarkPublished | Step::MarkFailed => self.relay_mark(i, step),
            Step::DeadLetter => self.relay_dead_letter(i),
            Step::Commit => self.relay_commit(i),
            Step::Rollback => {
                if self.procs[i].tx.is_some() {
                    self.end_tx(i, false, false);
                }
                let m = self.relay_mem(i);
                // The poll failed as a whole: nothing it did counts.
                m.ok.clear();
                m.bad.clear();
                self.relay_done(i);
            }
            _ => unreachable!("relay step {step:?}"),
        }
    }

    fn relay_mark_first(&self) -> bool {
        self.cfg.relay.mode == RelayMode::MarkFirst
    }

    /// The poll's SELECT (or the high-water relay's read above its mark).
    fn relay_select(&mut self, i: usize) {
        let tx = self.procs[i].tx.expect("tx");
        // The batch is empty here (a poll starts after `relay_done` or a restart);
        // its list is lent to the SELECT so that polls reuse one allocation.
        let m = self.relay_mem(i);
        debug_assert!(m.batch.is_empty());
        let mut rows = std::mem::take(&mut m.batch);
        let mut cursor = std::mem::take(&mut m.cursor);
        let r = if self.cfg.relay.mode == RelayMode::HighWater {
            self.db
                .select_after(tx, self.high_water, self.cfg.relay.batch_size as usize)
                .map(|v| rows = v)
        } else {
            self.db.select_batch_into(
                tx,
                self.cfg.relay.lock,
                self.cfg.relay.batch_size as usize,
                &mut cursor,
                &mut rows,
            )
        };
        let m = self.relay_mem(i);
        m.batch = rows;
        m.cursor = cursor;
        match r {
            Exec::Done(()) => {
                let m = self.relay_mem(i);
                let n = m.batch.len() as u32;
                m.pos = 0;
                m.cursor.reset();
                self.log(
                    Some(ProcId(i as u8)),
                    Some(Step::SelectBatch),
                    Note::Rows { n },
                );
                let next = match (n == 0, self.relay_mark_first()) {
                    (true, _) => Step::Commit,
                    (false, false) => Step::Publish,
                    (false, true) => Step::MarkPublished,
                };
                self.goto(i, next);
            }
            Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
            Exec::Err(e) => self.sql_error(i, e),
        }
    }

    /// `queue.add` of the next row of the batch.
    fn relay_publish(&mut self, i: usize) {
        let m = self.relay_mem(i);
        let row = m.batch[m.pos];
        let Some(ok) = self.publish(i, row) else {
            self.block(i, Wait::Queue);
            return;
        };
        let m = self.relay_mem(i);
        if ok {
            m.ok.push(row)
        } else {
            m.bad.push(row)
        }
        m.pos += 1;
        let done = m.pos >= m.batch.len();
        let (has_ok, has_bad) = (!m.ok.is_empty(), !m.bad.is_empty());
        if self.relay_mark_first() {
            // The row is gone from memory now, published or not.
            let e = self.db.outbox[row as usize].hodisa;
            self.touched.push(e);
            if done {
                self.relay_done(i);
            }
        } else if done {
            let n = if has_ok {
                Step::MarkPublished
            } else if has_bad {
                Step::MarkFailed
            } else {
                Step::Commit
            };
            self.goto(i, n);
        }
    }

    /// The UPDATE that marks rows published (`MarkPublished`) or counts a failed attempt
    /// (`MarkFailed`).
    fn relay_mark(&mut self, i: usize, step: Step) {
        let tx = self.procs[i].tx.expect("tx");
        let mark_first = self.relay_mark_first();
        let change = if step == Step::MarkPublished {
            OutboxChange::Published
        } else {
            OutboxChange::Attempt
        };
        // The rows and the cursor are the relay's own memory: no copies.
        let Mem::Relay(m) = &mut self.procs[i].mem else {
            unreachable!()
        };
        let rows: &[u32] = if mark_first {
            &m.batch
        } else if step == Step::MarkPublished {
            &m.ok
        } else {
            &m.bad
        };
        let has_bad = !m.bad.is_empty();
        let r = self.db.update_outbox(tx, rows, change, &mut m.cursor);
        match r {
            Exec::Done(n) => {
                self.log(
                    Some(ProcId(i as u8)),
                    Some(step),
                    Note::Rows { n: n as u32 },
                );
                self.relay_mem(i).cursor.reset();
                let dead_letter = self.cfg.relay.dead_letter_after.is_some();
                let n = if step == Step::MarkPublished && has_bad && !mark_first {
                    Step::MarkFailed
                } else if step == Step::MarkFailed && dead_letter && !mark_first {
                    Step::DeadLetter
                } else {
                    Step::Commit
                };
                self.goto(i, n);
            }
            Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
            Exec::Err(e) => self.sql_error(i, e),
        }
    }

    /// Rows that failed too often move to the dead-letter table.
    fn relay_dead_letter(&mut self, i: usize) {
        let tx: TxId = self.procs[i].tx.expect("tx");
        let after = self.cfg.relay.dead_letter_after.unwrap_or(u32::MAX);
        let m = self.relay_mem(i);
        let rows = m.bad.clone();
        let mut c = std::mem::take(&mut m.cursor);
        let r = self.db.dead_letter(tx, &rows, after, &mut c);
        self.relay_mem(i).cursor = c;
        match r {
            Exec::Done(n) => {
                self.log(
                    Some(ProcId(i as u8)),
                    Some(Step::DeadLetter),
                    Note::Rows { n: n as u32 },
                );
                self.relay_mem(i).cursor.reset();
                self.goto(i, Step::Commit);
            }
            Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
            Exec::Err(e) => self.sql_error(i, e),
        }
    }

    /// The poll's COMMIT; a mark-first relay publishes only after it.
    fn relay_commit(&mut self, i: usize) {
        let committed = self.end_tx(i, true, false);
        if committed && self.cfg.relay.mode == RelayMode::HighWater {
            self.advance_high_water(i);
        }
        let nonempty = !self.relay_mem(i).batch.is_empty();
        if self.relay_mark_first() && committed && nonempty {
            // From here the rows say "published" and only this memory holds them.
            let m = self.relay_mem(i);
            m.pos = 0;
            let rows = m.batch.clone();
            let evs: Vec<EventId> = rows
                .iter()
                .map(|&r| self.db.outbox[r as usize].hodisa)
                .collect();
            self.touched.extend(evs);
            self.goto(i, Step::Publish);
        } else {
            self.relay_done(i);
        }
    }

    /// The high-water relay saved its poll: the mark moves over the rows published in id
    /// order, up to the first that failed. Every row it passes is judged again: one that
    /// committed below the mark after the poll's SELECT is now out of reach.
    pub(super) fn advance_high_water(&mut self, i: usize) {
        let m = self.relay_mem(i);
        let mut mark = None;
        for &r in m.batch.iter() {
            if !m.ok.contains(&r) {
                break;
            }
            mark = Some(r as u64 + 1);
        }
        let Some(mark) = mark else { return };
        let old = self.high_water;
        if mark <= old {
            return;
        }
        self.high_water = mark;
        for idx in old..mark {
            let e = self.db.outbox[idx as usize].hodisa;
            self.touched.push(e);
        }
    }
}
