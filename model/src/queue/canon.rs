//! The queue's state in canonical form, fed to a hasher: what the explorer merges states
//! by. Kept apart from the queue's operations because it must list every field of the
//! state (a field left out here merges states that differ), as `db/canon.rs` does for the
//! database.

use super::{JobKey, Queue, NO_SLOT};
use crate::ids::ProcId;

impl Queue {
    /// A name for a job that does not depend on how the state was reached: `jobId` jobs by
    /// their event; auto-numbered ones by their event and their rank among that event's
    /// auto-numbered jobs (BullMQ's counter itself is history). `None`: no such job.
    pub fn canonical_key(&self, key: JobKey) -> Option<(u32, u32)> {
        let s = self.slot_of(key)?;
        let j = self.at(s);
        Some(match key {
            JobKey::Event(e) => (e, 0),
            JobKey::Auto(_) => {
                let rank = self
                    .autos
                    .get(&j.event.0)
                    .and_then(|v| v.iter().position(|k| *k == key))
                    .unwrap_or(0);
                (j.event.0, rank as u32 + 1)
            }
        })
    }

    /// Feeds the queue's state, in a canonical form, to `h` (see
    /// [`crate::db::Db::hash_state`]): health, every job by its canonical key with its
    /// state, worker, stall count and deliveries, the lock's remaining time relative to
    /// `tick`, and the wait list's order; a job's worker as `proc_name` names it. Lock tokens, BullMQ's job counter, slot numbers
    /// and the capped creation order are history; the world feeds whether a worker's
    /// token is still the job's. A job's fields share words, five to a job (there were
    /// nine: the explorer's key costs a hash round per word).
    pub fn hash_state<H: std::hash::Hasher>(
        &self,
        h: &mut H,
        tick: u64,
        proc_name: &impl Fn(ProcId) -> u16,
    ) {
        // Health and the number of jobs (below 2^56) share a word.
        h.write_u64(self.health as u64 | self.len() << 8);
        // jobId jobs by event, then auto-numbered ones by event and rank (plain loops: a
        // chain of the two iterators cost more than the jobs' words).
        for (e, &s) in self.by_event.iter().enumerate() {
            if s != NO_SLOT {
                self.hash_job(h, tick, proc_name, (e as u32, 0), s);
            }
        }
        for (&e, keys) in &self.autos {
            for (r, k) in keys.iter().enumerate() {
                if let Some(s) = self.slot_of(*k) {
                    self.hash_job(h, tick, proc_name, (e, r as u32 + 1), s);
                }
            }
        }
        h.write_u64(self.waiting.len() as u64);
        for &s in &self.waiting {
            // A jobId job's canonical key is its event's (`canonical_key`), without the
            // lookup.
            let (e, r) = match self.at(s).key {
                JobKey::Event(e) => (e, 0),
                key => self.canonical_key(key).expect("waiting job"),
            };
            h.write_u64(e as u64 | (r as u64) << 32);
        }
    }

    /// One job for [`Queue::hash_state`], by its canonical key `(e, r)`.
    #[inline(always)]
    fn hash_job<H: std::hash::Hasher>(
        &self,
        h: &mut H,
        tick: u64,
        proc_name: &impl Fn(ProcId) -> u16,
        (e, r): (u32, u32),
        s: u32,
    ) {
        let j = self.at(s);
        h.write_u64(e as u64 | (r as u64) << 32);
        h.write_u64(j.event.0 as u64 | (j.amount as u64) << 32);
        // The state with its deferred-failure mark, the worker and the stalled count.
        let deferred = self.has_deferred_failure(j.key) as u64;
        let worker = j.worker.map_or(u16::MAX, proc_name) as u64;
        h.write_u64(j.state as u64 | deferred << 4 | worker << 8 | (j.stalled_count as u64) << 32);
        h.write_u64(j.deliveries as u64);
        h.write_u64(j.lock_until.map_or(u64::MAX, |t| t.saturating_sub(tick)));
    }
}
