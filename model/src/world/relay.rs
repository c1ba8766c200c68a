//! The polling relay: in a transaction, selects a batch of unpublished outbox rows, adds
//! each to the queue, marks them published (or failed, or dead-lettered) and commits;
//! or, in the mark-first mode, marks and commits before it publishes. Also the high-water
//! relay's mark and the `queue.add` the CDC relay shares.

use super::{Mem, Note, Wait, World};
use crate::action::Step;
use crate::db::{Cursor, Exec, OutboxChange, Role};
use crate::ids::{EventId, ProcId};
use crate::queue::AddResult;
use crate::scenario::RelayMode;
use serde::{Deserialize, Serialize};

/// One poll of a relay: what the lesson's `relay()` returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Poll {
    pub tarqatildi: u32,
    pub xato: u32,
}

pub(super) const POLL_HISTORY: usize = 64;

impl World {
    pub(super) fn relay_mem(
        &mut self,
        i: usize,
    ) -> (
        &mut Vec<u32>,
        &mut usize,
        &mut Vec<u32>,
        &mut Vec<u32>,
        &mut Cursor,
    ) {
        match &mut self.procs[i].mem {
            Mem::Relay {
                batch,
                pos,
                ok,
                bad,
                cursor,
            } => (batch, pos, ok, bad, cursor),
            _ => unreachable!(),
        }
    }

    pub(super) fn relay_done(&mut self, i: usize) {
        let (batch, pos, ok, bad, cursor) = self.relay_mem(i);
        let poll = Poll {
            tarqatildi: ok.len() as u32,
            xato: bad.len() as u32,
        };
        batch.clear();
        *pos = 0;
        ok.clear();
        bad.clear();
        cursor.reset();
        let h = &mut self.polls[i];
        if h.len() >= POLL_HISTORY {
            h.remove(0);
        }
        h.push(poll);
        self.procs[i].sleep_until = self.tick + self.cfg.relay.poll_interval_ticks;
        self.goto(i, Step::Begin);
    }

    /// Publishing one row; Some(ok) when the call returned, None when it hangs.
    pub(super) fn publish(&mut self, i: usize, row: u32) -> Option<bool> {
        let (e, summa) = {
            let r = &self.db.outbox[row as usize];
            (r.hodisa, r.summa)
        };
        self.publish_event(i, e, summa)
    }

    /// `queue.add` of one event by a relay or the CDC relay.
    pub(super) fn publish_event(&mut self, i: usize, e: EventId, summa: u32) -> Option<bool> {
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
        match self.queue.add(e, summa, self.cfg.relay.job_id) {
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
        let pid = Some(ProcId(i as u8));
        let step = self.procs[i].pc;
        let mark_first = self.cfg.relay.mode == RelayMode::MarkFirst;
        match step {
            Step::Begin => {
                self.begin(i, Role::Owner);
                self.goto(i, Step::SelectBatch);
            }
            Step::SelectBatch => {
                let tx = self.procs[i].tx.expect("tx");
                // The batch is empty here (a poll starts after `relay_done` or a restart);
                // its list is lent to the SELECT so that polls reuse one allocation.
                let (batch, _, _, _, cursor) = self.relay_mem(i);
                debug_assert!(batch.is_empty());
                let mut rows = std::mem::take(batch);
                let mut cursor = std::mem::take(cursor);
                let r = if self.cfg.relay.mode == RelayMode::HighWater {
                    self.db
                        .select_after(tx, self.high_water, self.cfg.relay.partiya as usize)
                        .map(|v| rows = v)
                } else {
                    self.db.select_batch_into(
                        tx,
                        self.cfg.relay.lock,
                        self.cfg.relay.partiya as usize,
                        &mut cursor,
                        &mut rows,
                    )
                };
                let (batch, _, _, _, c) = self.relay_mem(i);
                *batch = rows;
                *c = cursor;
                match r {
                    Exec::Done(()) => {
                        let (batch, pos, _, _, c) = self.relay_mem(i);
                        let n = batch.len() as u32;
                        *pos = 0;
                        c.reset();
                        self.log(pid, Some(step), Note::Rows { n });
                        let empty = n == 0;
                        let n = match (empty, mark_first) {
                            (true, _) => Step::Commit,
                            (false, false) => Step::Publish,
                            (false, true) => Step::MarkPublished,
                        };
                        self.goto(i, n);
                    }
                    Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
                    Exec::Err(e) => self.sql_error(i, e),
                }
            }
            Step::Publish => {
                let (batch, pos, ..) = self.relay_mem(i);
                let row = batch[*pos];
                match self.publish(i, row) {
                    None => self.block(i, Wait::Queue),
                    Some(ok) => {
                        let (batch, pos, oks, bad, _) = self.relay_mem(i);
                        if ok {
                            oks.push(row)
                        } else {
                            bad.push(row)
                        }
                        *pos += 1;
                        let done = *pos >= batch.len();
                        let (has_ok, has_bad) = (!oks.is_empty(), !bad.is_empty());
                        if mark_first {
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
                }
            }
            Step::MarkPublished | Step::MarkFailed => {
                let tx = self.procs[i].tx.expect("tx");
                let change = if step == Step::MarkPublished {
                    OutboxChange::Published
                } else {
                    OutboxChange::Attempt
                };
                // The rows and the cursor are the relay's own memory: no copies.
                let Mem::Relay {
                    batch,
                    ok,
                    bad,
                    cursor,
                    ..
                } = &mut self.procs[i].mem
                else {
                    unreachable!()
                };
                let rows: &[u32] = if mark_first {
                    batch
                } else if step == Step::MarkPublished {
                    ok
                } else {
                    bad
                };
                let has_bad = !bad.is_empty();
                let r = self.db.update_outbox(tx, rows, change, cursor);
                match r {
                    Exec::Done(n) => {
                        self.log(pid, Some(step), Note::Rows { n: n as u32 });
                        self.relay_mem(i).4.reset();
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
            Step::DeadLetter => {
                let tx = self.procs[i].tx.expect("tx");
                let after = self.cfg.relay.dead_letter_after.unwrap_or(u32::MAX);
                let (_, _, _, bad, cursor) = self.relay_mem(i);
                let rows = bad.clone();
                let mut c = std::mem::take(cursor);
                let r = self.db.dead_letter(tx, &rows, after, &mut c);
                *self.relay_mem(i).4 = c;
                match r {
                    Exec::Done(n) => {
                        self.log(pid, Some(step), Note::Rows { n: n as u32 });
                        self.relay_mem(i).4.reset();
                        self.goto(i, Step::Commit);
                    }
                    Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
                    Exec::Err(e) => self.sql_error(i, e),
                }
            }
            Step::Commit => {
                let committed = self.end_tx(i, true, false);
                if committed && self.cfg.relay.mode == RelayMode::HighWater {
                    self.advance_high_water(i);
                }
                let nonempty = !self.relay_mem(i).0.is_empty();
                if mark_first && committed && nonempty {
                    // From here the rows say "published" and only this memory holds them.
                    let (batch, pos, ..) = self.relay_mem(i);
                    *pos = 0;
                    let rows = batch.clone();
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
            Step::Rollback => {
                if self.procs[i].tx.is_some() {
                    self.end_tx(i, false, false);
                }
                let (_, _, ok, bad, _) = self.relay_mem(i);
                // The poll failed as a whole: nothing it did counts.
                ok.clear();
                bad.clear();
                self.relay_done(i);
            }
            _ => unreachable!("relay step {step:?}"),
        }
    }

    /// The high-water relay saved its poll: the mark moves over the rows published in id
    /// order, up to the first that failed. Every row it passes is judged again: one that
    /// committed below the mark after the poll's SELECT is now out of reach.
    pub(super) fn advance_high_water(&mut self, i: usize) {
        let (batch, _, ok, _, _) = self.relay_mem(i);
        let mut mark = None;
        for &r in batch.iter() {
            if !ok.contains(&r) {
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
