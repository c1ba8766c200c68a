//! The canonical hash of a world's state, for the explorer to merge equal states.

use super::{Mem, Proc, Wait, World};
use crate::db::TxStatus;
use crate::ids::TxId;

impl World {
    /// Feeds the world's state to `h` in a canonical form, for the explorer
    /// (`crate::explore`) to merge equal states of one scenario. Left out, as history or
    /// as names that only depend on the path taken: the log, the poll history, the script's
    /// results, the kill list and per-process kill counts, the trace hash, the step count,
    /// the violations, the scheduler's caches (gates), transaction ids (a transaction is
    /// named by its fate or by the process holding it), BullMQ's lock tokens and job
    /// counter (a worker's token is fed as "still the job's"), and the tick itself: every
    /// timer is fed relative to it (a process's wake-up and restart time, the stalled
    /// checker's next run, a job's lock), and the times stored in rows only as ages, and
    /// only when something reads them (a cleaner, an operator's un-mark, a schedule; see
    /// [`Db::hash_state`]). The auditor is fed whole: its counters are part of the state,
    /// so two merged states always show the same counters (but for `tick`, `stuck` and
    /// `oldest_unpublished_age_ticks`, which are about time).
    pub fn hash_state<H: std::hash::Hasher>(&self, h: &mut H) {
        let order: Vec<usize> = (0..self.procs.len()).collect();
        self.hash_state_as(h, &order);
    }

    /// [`World::hash_state`] with the processes fed in `order` (a permutation of the
    /// process indexes) and named by their place in it: for symmetric processes (relays
    /// with one configuration), the explorer takes the least key over their permutations.
    pub fn hash_state_as<H: std::hash::Hasher>(&self, h: &mut H, order: &[usize]) {
        use std::hash::Hash;
        debug_assert_eq!(order.len(), self.procs.len());
        let mut place = [0usize; 64];
        for (k, &i) in order.iter().enumerate() {
            place[i] = k;
        }
        let tick = self.tick;
        let rel = |t: u64| t.saturating_sub(tick);
        let ages =
            (self.cfg.cleaner.is_some() || self.last_flush.is_some() || !self.schedule.is_empty())
                .then_some(tick);
        let holder = |t: TxId| self.procs.iter().position(|p| p.tx == Some(t));
        let tx_name = |t: TxId| -> u64 {
            match self.db.status(t) {
                TxStatus::Committed => 0,
                TxStatus::Aborted => 1,
                // Open: by its holder (an orphan, which the invariants forbid, by its id).
                TxStatus::Active | TxStatus::Failed => {
                    holder(t).map_or(1 << 32 | t as u64, |i| 2 + place[i] as u64)
                }
            }
        };
        h.write_u64(self.procs.len() as u64);
        for &i in order {
            self.hash_proc(h, &self.procs[i], &tx_name);
        }
        let mut open = order.iter().filter_map(|&i| self.procs[i].tx);
        self.db.hash_state(h, &tx_name, &mut open, ages);
        self.queue
            .hash_state(h, tick, &|p| place[p.0 as usize] as u16);
        self.auditor.hash(h);
        self.armed.hash(h);
        self.api_errors.hash(h);
        self.publish_failures.hash(h);
        h.write_u64(self.schedule.len() as u64);
        for (t, a) in &self.schedule {
            h.write_u64(rel(*t));
            a.hash(h);
        }
        h.write_u32(self.next_event);
        h.write_u64(rel(self.next_stall_check));
        self.external_seen.hash(h);
        h.write_u64(self.high_water);
        h.write_u64(self.last_flush.map_or(u64::MAX, |t| tick - t.min(tick)));
        self.rng.hash(h);
    }

    /// One process, for [`World::hash_state_as`]: its timers relative to the tick, the
    /// transaction it waits for by `tx_name`, a worker's job by its canonical key.
    fn hash_proc<H: std::hash::Hasher>(&self, h: &mut H, p: &Proc, tx_name: &impl Fn(TxId) -> u64) {
        use std::hash::Hash;
        let tick = self.tick;
        let rel = |t: u64| t.saturating_sub(tick);
        h.write_u8(p.alive as u8 | (p.arrived as u8) << 1 | (p.tx.is_some() as u8) << 2);
        h.write_u64(p.pc.code());
        match p.blocked {
            None => h.write_u64(0),
            Some(Wait::Queue) => h.write_u64(1),
            Some(Wait::Tx(t)) => {
                h.write_u64(2);
                h.write_u64(tx_name(t));
            }
        }
        h.write_u64(rel(p.sleep_until));
        h.write_u64(p.restart_at.map_or(u64::MAX, rel));
        match &p.mem {
            Mem::Worker { job } => {
                h.write_u8(0xA0);
                match job {
                    None => h.write_u8(0),
                    Some(j) => {
                        h.write_u8(1);
                        let key = self.queue.canonical_key(j.key);
                        key.hash(h);
                        let mine = self.queue.job(j.key).is_some_and(|q| {
                            q.state == crate::queue::JobState::Active && q.token == j.token
                        });
                        h.write_u8(mine as u8);
                        h.write_u32(j.event.0);
                        h.write_u32(j.summa);
                        j.fresh.hash(h);
                    }
                }
            }
            other => other.hash(h),
        }
    }
}
