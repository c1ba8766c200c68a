//! The cleaner (`outboxTozala`): a scheduled job that deletes old outbox rows (and, if
//! configured, old inbox rows) in its own transaction.

use super::{Mem, Note, Wait, World};
use crate::action::Step;
use crate::db::{Cursor, Exec, Role};
use crate::ids::ProcId;

impl World {
    pub(super) fn run_cleaner(&mut self, i: usize) {
        let step = self.procs[i].pc;
        let cfg = self.cfg.cleaner.clone().unwrap_or_default();
        let done = |w: &mut World| {
            w.procs[i].mem = Mem::Cleaner {
                cursor: Cursor::default(),
            };
            w.procs[i].sleep_until = w.tick + cfg.interval_ticks;
            w.goto(i, Step::Begin);
        };
        match step {
            Step::Begin => {
                self.begin(i, Role::Owner);
                self.goto(i, Step::CleanOutbox);
            }
            Step::CleanOutbox => self.cleaner_outbox(i),
            Step::CleanInbox => self.cleaner_inbox(i),
            Step::Commit => {
                self.end_tx(i, true, false);
                done(self);
            }
            Step::Rollback => {
                if self.procs[i].tx.is_some() {
                    self.end_tx(i, false, false);
                }
                done(self);
            }
            _ => unreachable!("cleaner step {step:?}"),
        }
    }

    /// `DELETE FROM outbox …` older than the retention (only published rows, unless configured otherwise).
    fn cleaner_outbox(&mut self, i: usize) {
        let pid = Some(ProcId(i as u8));
        let step = self.procs[i].pc;
        let cfg = self.cfg.cleaner.clone().unwrap_or_default();
        let day = crate::scenario::TICKS_PER_DAY;
        let tx = self.procs[i].tx.expect("tx");
        let cutoff = self
            .db
            .now(tx)
            .saturating_sub(cfg.retention_days as u64 * day);
        let Mem::Cleaner { cursor } = &mut self.procs[i].mem else {
            unreachable!()
        };
        let mut c = std::mem::take(cursor);
        let r = self.db.cleanup(tx, cutoff, cfg.published_only, &mut c);
        match r {
            Exec::Done(n) => {
                self.log(pid, Some(step), Note::Rows { n: n as u32 });
                let n = if cfg.inbox_retention_days.is_some() {
                    Step::CleanInbox
                } else {
                    Step::Commit
                };
                self.goto(i, n);
            }
            Exec::Blocked(t) => {
                self.procs[i].mem = Mem::Cleaner { cursor: c };
                self.block(i, Wait::Tx(t));
            }
            Exec::Err(e) => self.sql_error(i, e),
        }
    }

    /// `DELETE FROM inbox …` older than the inbox retention.
    fn cleaner_inbox(&mut self, i: usize) {
        let pid = Some(ProcId(i as u8));
        let step = self.procs[i].pc;
        let cfg = self.cfg.cleaner.clone().unwrap_or_default();
        let day = crate::scenario::TICKS_PER_DAY;
        let tx = self.procs[i].tx.expect("tx");
        let days = cfg.inbox_retention_days.unwrap_or(u32::MAX) as u64;
        let cutoff = self.db.now(tx).saturating_sub(days.saturating_mul(day));
        match self.db.inbox_cleanup(tx, cutoff) {
            Exec::Done(n) => {
                self.log(pid, Some(step), Note::Rows { n: n as u32 });
                self.goto(i, Step::Commit);
            }
            Exec::Blocked(t) => self.block(i, Wait::Tx(t)),
            Exec::Err(e) => self.sql_error(i, e),
        }
    }
}
