//! The canonical hash of a world's state, for the explorer to merge equal states.

use super::{Mem, Proc, RelayMem, Wait, World, MAX_PROCS};
use crate::db::TxStatus;
use crate::db::{Cursor, U32Pairs};
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
    /// [`Db::hash_state`]). Counters are part of the state, but those that follow from
    /// what is fed are left out (the auditor's tallies follow from its events' lives, the
    /// database's committed counts from its rows, see `Auditor::hash_state`), so two merged
    /// states always show the same counters (but for `tick`, `stuck` and
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
        let mut place = [0usize; MAX_PROCS];
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
        // The number of processes is left out: it is the scenario's, the same in every state.
        for &i in order {
            self.hash_proc(h, &self.procs[i], &tx_name);
        }
        // The transactions the processes hold, named as `tx_name` names them.
        let open = (order.iter().enumerate())
            .filter_map(|(k, &i)| self.procs[i].tx.map(|t| (t, 2 + k as u64)));
        self.db.hash_state(h, &tx_name, open, ages);
        if self.cfg.api == crate::scenario::ApiMode::OutboxPoolBegin {
            self.pool
                .hash_state(h, tick, &tx_name, &|i| place[i] as u64);
        }
        self.queue
            .hash_state(h, tick, &|p| place[p.0 as usize] as u16);
        self.auditor.hash_state(h);
        // The fault lists' and the schedule's lengths two to a word, before their items
        // (as the derived `Hash` of a list feeds its length first).
        h.write_u64(pair(self.armed.len(), self.api_errors.len()));
        h.write_u64(pair(self.publish_failures.len(), self.schedule.len()));
        Hash::hash_slice(&self.armed, h);
        Hash::hash_slice(&self.api_errors, h);
        Hash::hash_slice(&self.publish_failures, h);
        for (t, a) in &self.schedule {
            h.write_u64(rel(*t));
            a.hash(h);
        }
        // The next event's id is left out: events are minted densely from 1, so it
        // follows from the auditor's lives, which are fed.
        debug_assert_eq!(self.next_event as usize, self.auditor.events_len() + 1);
        h.write_u64(rel(self.next_stall_check));
        self.external_seen.hash(h);
        h.write_u64(self.high_water);
        h.write_u64(self.last_flush.map_or(u64::MAX, |t| tick - t.min(tick)));
        self.rng.hash(h);
    }

    /// One process, for [`World::hash_state_as`]: its timers relative to the tick, the
    /// transaction it waits for by `tx_name`, its memory by [`World::hash_mem`]. Small
    /// fields share a word (see [`World::hash_mem`] for why).
    fn hash_proc<H: std::hash::Hasher>(&self, h: &mut H, p: &Proc, tx_name: &impl Fn(TxId) -> u64) {
        let tick = self.tick;
        let rel = |t: u64| t.saturating_sub(tick);
        let blocked = match p.blocked {
            None => 0,
            Some(Wait::Queue) => 1,
            Some(Wait::Tx(_)) => 2,
        };
        // One word holds the flags, the step's code and the wake-up time when they fit
        // (a code below 2^24, as every step's but a long script's; a wake-up within 2^32
        // ticks, as every duration a scenario may set): else a flag says the code and the
        // time follow as words of their own. Another flag says a restart time follows.
        let (code, sleep) = (p.pc.code(), rel(p.sleep_until));
        let wide = code >= 1 << 24 || sleep >= 1 << 32;
        let flags = p.alive as u64
            | (p.arrived as u64) << 1
            | (p.tx.is_some() as u64) << 2
            | blocked << 3
            | (p.restart_at.is_some() as u64) << 5
            | (wide as u64) << 6;
        if wide {
            h.write_u64(flags);
            h.write_u64(code);
            h.write_u64(sleep);
        } else {
            h.write_u64(flags | code << 8 | sleep << 32);
        }
        if let Some(Wait::Tx(t)) = p.blocked {
            h.write_u64(tx_name(t));
        }
        if let Some(t) = p.restart_at {
            h.write_u64(rel(t));
        }
        self.hash_mem(h, &p.mem);
    }

    /// A process's memory, for [`World::hash_proc`]. The explorer's key is most of its
    /// time, and a key's cost is its number of words (each a chained round of the hash):
    /// the memories of the client, the API and the relays put their small fields two or
    /// more to a word (a tag first, so the word streams of the kinds differ, and every
    /// list's length before its items), where the derived `Hash` spent a word on each
    /// field, each `Option` and each list twice (its length, then its bytes and their
    /// length). Lengths and places in lists are fed as 32 bits: a list of 2^32 row
    /// indexes (16 GiB) is out of reach. The other kinds keep the derived `Hash` (its
    /// first word is a small discriminant, never one of these tags).
    fn hash_mem<H: std::hash::Hasher>(&self, h: &mut H, mem: &Mem) {
        use std::hash::Hash;
        let opt_u32 = |v: &Option<u32>| v.map_or(0, |v| 1 | (v as u64) << 1);
        match mem {
            Mem::Worker { job } => {
                let Some(j) = job else {
                    h.write_u64(0xA0);
                    return;
                };
                let mine = self.queue.job(j.key).is_some_and(|q| {
                    q.state == crate::queue::JobState::Active && q.token == j.token
                });
                let fresh = j.fresh.map_or(0, |f| 1 | (f as u64) << 1);
                let key = self.queue.canonical_key(j.key);
                h.write_u64(
                    0xA0 | 1 << 8 | (mine as u64) << 9 | fresh << 10 | (key.is_some() as u64) << 12,
                );
                let (e, r) = key.unwrap_or((0, 0));
                h.write_u64(e as u64 | (r as u64) << 32);
                h.write_u64(j.event.0 as u64 | (j.amount as u64) << 32);
            }
            Mem::Client {
                next,
                waiting,
                reply,
                tries,
            } => {
                let reply = reply.map_or(0, |r| 1 | (r as u64) << 1);
                h.write_u64(0xB0 | reply << 8 | opt_u32(waiting) << 10);
                h.write_u64(*next as u64 | (*tries as u64) << 32);
            }
            Mem::Api { req: None } => h.write_u64(0xC0),
            Mem::Api { req: Some(r) } => {
                h.write_u64(0xC0 | 1 << 8 | (r.added as u64) << 9 | r.pool.code() << 10);
                h.write_u64(r.intent as u64 | (r.event.0 as u64) << 32);
            }
            Mem::Relay(m) => hash_relay(h, m),
            other => other.hash(h),
        }
    }
}

/// Two lengths or places in one word (see [`World::hash_mem`]).
fn pair(lo: usize, hi: usize) -> u64 {
    debug_assert!(lo <= u32::MAX as usize && hi <= u32::MAX as usize);
    lo as u64 | (hi as u64) << 32
}

/// A relay's memory, for [`World::hash_mem`]: a tag and the lengths and places, then the
/// five lists' row indexes two to a word. Destructured, so a field added to `RelayMem`
/// or `Cursor` is a compile error here rather than left out of the state.
fn hash_relay<H: std::hash::Hasher>(h: &mut H, m: &RelayMem) {
    let RelayMem {
        batch,
        pos,
        ok,
        bad,
        cursor,
    } = m;
    let Cursor {
        started,
        candidates,
        pos: cursor_pos,
        got,
    } = cursor;
    h.write_u64(0xD0 | (*started as u64) << 8 | pair(0, got.len()));
    h.write_u64(pair(*pos, *cursor_pos));
    h.write_u64(pair(batch.len(), ok.len()));
    h.write_u64(pair(bad.len(), candidates.len()));
    let mut pairs = U32Pairs::new();
    for list in [batch, ok, bad, candidates, got] {
        for &r in list.iter() {
            pairs.push(h, r);
        }
    }
    pairs.finish(h);
}
