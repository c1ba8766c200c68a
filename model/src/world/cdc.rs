//! The CDC relay: reads committed outbox inserts from the replication slot in commit
//! order, adds each to the queue, and saves the slot's offset once the batch is out.

use super::{Mem, Note, Wait, World};
use crate::action::Step;
use crate::ids::ProcId;

impl World {
    pub(super) fn run_cdc(&mut self, i: usize) {
        let step = self.procs[i].pc;
        match step {
            Step::ReadWal => self.cdc_read_wal(i),
            Step::Publish => {
                let Mem::Cdc { batch, pos, .. } = &self.procs[i].mem else {
                    unreachable!()
                };
                let e = batch[*pos];
                let amount = self.db.event_row(e).map_or(0, |r| r.summa);
                match self.publish_event(i, e, amount) {
                    None => self.block(i, Wait::Queue),
                    Some(false) => {
                        // The stream is ordered: retry this event after a pause.
                        self.procs[i].sleep_until = self.tick + self.cfg.relay.poll_interval_ticks;
                    }
                    Some(true) => {
                        let Mem::Cdc { batch, pos, .. } = &mut self.procs[i].mem else {
                            unreachable!()
                        };
                        *pos += 1;
                        if *pos >= batch.len() {
                            self.goto(i, Step::SaveOffset);
                        }
                    }
                }
            }
            Step::SaveOffset => self.cdc_save_offset(i),
            _ => unreachable!("cdc step {step:?}"),
        }
    }

    /// Reads whole transactions from the slot (at most a batch, but never half a transaction).
    fn cdc_read_wal(&mut self, i: usize) {
        let pid = Some(ProcId(i as u8));
        let step = self.procs[i].pc;
        let limit = self.cfg.relay.batch_size as usize;
        // From the slot's confirmed offset: whole transactions, in commit order.
        let mut evs = Vec::new();
        let mut upto = 0;
        for r in self.db.wal.iter() {
            if !evs.is_empty() && evs.len() + r.events.len() > limit {
                break;
            }
            evs.extend(r.events.iter().copied());
            upto = r.lsn;
        }
        self.log(
            pid,
            Some(step),
            Note::Rows {
                n: evs.len() as u32,
            },
        );
        if evs.is_empty() {
            self.procs[i].sleep_until = self.tick + self.cfg.relay.poll_interval_ticks;
            return;
        }
        self.procs[i].mem = Mem::Cdc {
            batch: evs,
            pos: 0,
            upto_lsn: upto,
        };
        self.goto(i, Step::Publish);
    }

    /// Confirms the offset: the slot may drop the log up to it.
    fn cdc_save_offset(&mut self, i: usize) {
        let pid = Some(ProcId(i as u8));
        let step = self.procs[i].pc;
        let Mem::Cdc {
            batch,
            pos,
            upto_lsn,
        } = &mut self.procs[i].mem
        else {
            unreachable!()
        };
        let lsn = *upto_lsn;
        let evs = std::mem::take(batch);
        *pos = 0;
        self.db.wal_confirm(lsn);
        self.log(
            pid,
            Some(step),
            Note::Rows {
                n: evs.len() as u32,
            },
        );
        self.touched.extend(evs);
        self.goto(i, Step::ReadWal);
    }
}
