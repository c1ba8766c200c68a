//! Which processes may take a step now. A process's own state decides its gate; the
//! world facts (the tick, the API's readiness, Redis, open transactions) are read once per
//! tick. The gates are kept as bitmasks, one bit per process, and made again only for the
//! processes whose state changed, so a tick does not look at every process.

use super::gate_state::{
    bit_place, bits, Runnable, FLAG_HOLDS, FLAG_ORPHAN, FLAG_QUEUE, FLAG_TX, GATE_ALWAYS, GATE_API,
    GATE_AT, GATE_NEVER, GATE_UP, GATE_WAITING,
};
use super::CheckLevel;
use super::{Hold, Mem, Proc, RelayMem, Wait, World};
use crate::action::Step;
use crate::ids::TxId;
use crate::queue::Health;
use crate::scenario::RelayMode;

/// What every process's runnable check reads from the world, read once per tick.
pub(super) struct Facts {
    /// The clients whose API is ready (bit `i`: the client at `i`).
    pub(super) api_ready: u64,
    pub(super) has_waiting: bool,
    pub(super) up: bool,
    pub(super) hang: bool,
}

impl Facts {
    #[inline(always)]
    pub(super) fn of(w: &World) -> Facts {
        Facts {
            api_ready: w.api_ready_clients(),
            has_waiting: w.queue.has_waiting(),
            up: w.queue.health == Health::Up,
            hang: w.queue.health == Health::DownHang,
        }
    }
}

impl World {
    /// The places of the API processes: each follows its client (see `processes`).
    pub(super) fn api_indices(&self) -> impl Iterator<Item = usize> {
        (0..self.cfg.apis.max(1) as usize).map(|k| 2 * k + 1)
    }

    /// Whether the API at `a` can take a request.
    pub(super) fn api_ready(&self, a: usize) -> bool {
        let a = &self.procs[a];
        a.alive && matches!(&a.mem, Mem::Api { req: None })
    }

    /// The clients whose API can take a request, as a mask (bit `i`: the client at `i`).
    pub(super) fn api_ready_clients(&self) -> u64 {
        self.api_indices()
            .filter(|&a| self.api_ready(a))
            .fold(0, |m, a| m | 1 << (a - 1))
    }

    pub fn runnable(&self, i: usize) -> bool {
        self.runnable_in(i, &Facts::of(self))
    }

    /// Whether `p` can take a step, given the world facts every process reads.
    #[inline(always)]
    pub(super) fn runnable_in(&self, i: usize, f: &Facts) -> bool {
        let p = &self.procs[i];
        if !p.alive {
            return false;
        }
        if p.sleep_until > self.tick && self.gate_of(p).0 == GATE_AT {
            return false;
        }
        match p.blocked {
            Some(Wait::Tx(t)) if self.db.is_open(t) => return false,
            Some(Wait::Queue) if f.hang => return false,
            _ => {}
        }
        match (&p.mem, p.pc) {
            (Mem::Client { next, .. }, Step::Send) => {
                *next < self.tasks_total && f.api_ready >> i & 1 != 0
            }
            (Mem::Client { reply, .. }, _) => reply.is_some(),
            (Mem::Api { req }, _) => req.as_ref().is_some_and(|r| r.pool != Hold::Waits),
            (Mem::Relay(_), Step::Begin) => self.tick >= p.sleep_until,
            (Mem::Relay(_), _) => true,
            (Mem::Worker { job: None }, _) => f.has_waiting,
            (Mem::Worker { .. }, Step::Complete) => f.up,
            (Mem::Worker { .. }, _) => true,
            (Mem::Session { pos }, _) => *pos < self.script.len() && self.tick >= p.sleep_until,
            (Mem::Cdc { .. }, _) => self.tick >= p.sleep_until,
            (Mem::Cleaner { .. }, Step::Begin) => self.tick >= p.sleep_until,
            (Mem::Cleaner { .. }, _) => true,
        }
    }

    /// The gate of a process (class, blocking transaction, blocked on Redis, holds a
    /// transaction, holds one while dead): [`World::runnable_in`] with the facts left open.
    #[inline(always)]
    pub(super) fn gate_of(&self, p: &Proc) -> (u8, Option<TxId>, bool, bool, bool) {
        let holds = p.tx.is_some();
        let (tx, queue) = match p.blocked {
            Some(Wait::Tx(t)) => (Some(t), false),
            Some(Wait::Queue) => (None, true),
            None => (None, false),
        };
        let class = if !p.alive {
            GATE_NEVER
        } else {
            match (&p.mem, p.pc) {
                (Mem::Client { next, .. }, Step::Send) => {
                    [GATE_NEVER, GATE_API][(*next < self.tasks_total) as usize]
                }
                (Mem::Client { reply, .. }, _) => {
                    [GATE_NEVER, GATE_ALWAYS][reply.is_some() as usize]
                }
                (Mem::Api { req }, _) => {
                    let go = req.as_ref().is_some_and(|r| r.pool != Hold::Waits);
                    [GATE_NEVER, GATE_ALWAYS][go as usize]
                }
                (Mem::Relay(_), Step::Begin) => GATE_AT,
                (Mem::Relay(_), _) => GATE_ALWAYS,
                (Mem::Worker { job: None }, _) => GATE_WAITING,
                (Mem::Worker { .. }, Step::Complete) => GATE_UP,
                (Mem::Worker { .. }, _) => GATE_ALWAYS,
                (Mem::Session { pos }, _) => {
                    [GATE_NEVER, GATE_AT][(*pos < self.script.len()) as usize]
                }
                (Mem::Cdc { .. }, _) => GATE_AT,
                (Mem::Cleaner { .. }, Step::Begin) => GATE_AT,
                (Mem::Cleaner { .. }, _) => GATE_ALWAYS,
            }
        };
        // A process stalled by a delay rule (it has arrived at its step, is not blocked,
        // and has not run it: `run_proc` clears `arrived` after a step) waits for its
        // wake-up tick like a sleeper. Read from its state, not the clock, so the kept gate
        // stays true as time passes.
        let class = if class == GATE_ALWAYS && p.arrived && p.blocked.is_none() {
            GATE_AT
        } else {
            class
        };
        (class, tx, queue, holds, holds && !p.alive)
    }

    /// Process `i`'s state changed: its gate is made again before it is next read.
    #[inline(always)]
    pub(super) fn touch_proc(&mut self, i: usize) {
        self.gates.dirty |= 1 << i;
    }

    /// Makes the gates of the dirty processes again.
    #[inline(always)]
    pub(super) fn refresh_gates(&mut self) {
        while self.gates.dirty != 0 {
            let i = bit_place(self.gates.dirty);
            self.gates.dirty &= self.gates.dirty - 1;
            let p = &self.procs[i];
            let (class, tx, queue, holds, orphan) = self.gate_of(p);
            let at = p.sleep_until;
            let g = &mut self.gates;
            let b = 1u64 << i;
            let k = !b;
            let old = g.class[i];
            if old != class {
                g.by_class[old as usize] &= k;
                g.by_class[class as usize] |= b;
                g.class[i] = class;
            }
            g.at[i] = at;
            g.tx[i] = tx;
            let flags = (tx.is_some() as u8 * FLAG_TX)
                | (queue as u8 * FLAG_QUEUE)
                | (holds as u8 * FLAG_HOLDS)
                | (orphan as u8 * FLAG_ORPHAN);
            if g.flags[i] != flags {
                g.flags[i] = flags;
                let bit = |f: u8| b * (flags & f != 0) as u64;
                g.tx_mask = g.tx_mask & k | bit(FLAG_TX);
                g.queue = g.queue & k | bit(FLAG_QUEUE);
                g.holds = g.holds & k | bit(FLAG_HOLDS);
                g.orphan = g.orphan & k | bit(FLAG_ORPHAN);
            }
        }
    }

    pub(super) fn runnable_list(&mut self, out: &mut Runnable) {
        self.refresh_gates();
        let mask = self.gate_mask();
        if cfg!(debug_assertions) || self.check == CheckLevel::Full {
            self.check_gates(Some(mask));
        }
        out.mask = mask;
        out.len = bits(mask);
    }

    /// Every process's [`World::runnable`] at once (bit `i`: process `i`): from the kept
    /// gates when they are up to date (after every step but at `CheckLevel::Off`), else
    /// one process at a time. The explorer asks this at every state, and for every
    /// forced step; one `runnable` per process read the world facts again each time.
    pub(crate) fn runnable_mask(&self) -> u64 {
        if self.gates.dirty != 0 {
            let f = Facts::of(self);
            return (0..self.procs.len())
                .filter(|&i| self.runnable_in(i, &f))
                .fold(0, |m, i| m | 1 << i);
        }
        let mask = self.gate_mask();
        debug_assert!(
            (0..self.procs.len()).all(|i| self.runnable(i) == (mask >> i & 1 != 0)),
            "runnable-gate: the mask disagrees with runnable at tick {}",
            self.tick
        );
        mask
    }

    /// The runnable processes as the kept gates say, with this tick's world facts (the
    /// gates must be up to date: see [`World::refresh_gates`]).
    #[inline(always)]
    fn gate_mask(&self) -> u64 {
        let g = &self.gates;
        let mut mask = g.by_class[GATE_ALWAYS as usize];
        let mut t = g.by_class[GATE_AT as usize];
        while t != 0 {
            let i = bit_place(t);
            mask |= ((self.tick >= g.at[i]) as u64) << i;
            t &= t - 1;
        }
        let api = g.by_class[GATE_API as usize];
        if api != 0 {
            mask |= api & self.api_ready_clients();
        }
        let waiting = g.by_class[GATE_WAITING as usize];
        if waiting != 0 && self.queue.has_waiting() {
            mask |= waiting;
        }
        if self.queue.health == Health::Up {
            mask |= g.by_class[GATE_UP as usize];
        } else if self.queue.health == Health::DownHang {
            mask &= !g.queue;
        }
        let mut b = g.tx_mask & mask;
        while b != 0 {
            let i = bit_place(b);
            if g.tx[i].is_some_and(|t| self.db.is_open(t)) {
                mask &= !(1 << i);
            }
            b &= b - 1;
        }
        mask
    }

    /// The kept gates agree with the processes (Full checks and debug builds).
    #[cold]
    pub(super) fn check_gates(&self, mask: Option<u64>) {
        let f = Facts::of(self);
        for (i, p) in self.procs.iter().enumerate() {
            let (class, tx, queue, holds, orphan) = self.gate_of(p);
            let b = 1u64 << i;
            let g = &self.gates;
            assert!(
                g.class[i] == class
                    && g.by_class[class as usize] & b != 0
                    && g.tx[i] == tx
                    && (g.tx_mask & b != 0) == tx.is_some()
                    && (g.queue & b != 0) == queue
                    && (g.holds & b != 0) == holds
                    && (g.orphan & b != 0) == orphan
                    && (class != GATE_AT || g.at[i] == p.sleep_until),
                "runnable-gate: the kept gate of {} disagrees with its state",
                p.name
            );
            if let Some(mask) = mask {
                assert_eq!(
                    self.runnable_in(i, &f),
                    mask & b != 0,
                    "runnable-gate: {} at tick {}",
                    p.name,
                    self.tick
                );
            }
        }
        let all: u64 = self.gates.by_class.iter().fold(0, |a, m| a | m);
        let sum: u32 = self.gates.by_class.iter().map(|m| m.count_ones()).sum();
        assert!(sum == self.procs.len() as u32 && all.count_ones() == sum);
    }

    /// Nothing is left to do: the client is done, nobody is mid-program, no row waits to be
    /// published and (with workers) no job waits to be worked.
    pub fn settled(&self) -> bool {
        if !self.schedule.is_empty() || self.db.open_transactions() > 0 {
            return false;
        }
        if self.cfg.relays > 0 && self.relay_has_work() {
            return false;
        }
        if self.cfg.cdc && self.db.wal_retained_events() > 0 {
            return false;
        }
        if self.cfg.workers > 0
            && (self.queue.count(crate::queue::JobState::Waiting) > 0
                || self.queue.count(crate::queue::JobState::Active) > 0)
        {
            return false;
        }
        self.procs.iter().all(|p| match &p.mem {
            Mem::Client { next, waiting, .. } => *next >= self.tasks_total && waiting.is_none(),
            Mem::Api { req } => req.is_none(),
            Mem::Relay(RelayMem { batch, .. }) => {
                !p.alive || (p.pc == Step::Begin && batch.is_empty())
            }
            Mem::Worker { job } => job.is_none(),
            Mem::Session { pos } => *pos >= self.script.len() || !p.alive,
            Mem::Cdc { batch, .. } => !p.alive || batch.is_empty(),
            // The cleaner is a scheduled job: it never keeps the world busy.
            Mem::Cleaner { .. } => true,
        })
    }

    /// Rows the polling relays can still read: unpublished ones, or for the high-water
    /// relay, committed rows above its mark.
    pub(super) fn relay_has_work(&self) -> bool {
        if self.cfg.relay.mode == RelayMode::HighWater {
            (self.high_water as usize..self.db.outbox.len()).any(|i| {
                self.db.row_committed(&self.db.outbox[i]) && !self.db.outbox[i].data.deleted
            })
        } else {
            self.db.unpublished_len() > 0
        }
    }

    /// The next tick at which something sleeping wakes, if any (a relay between polls, a
    /// restart, a scheduled action, a dead worker's lock running out).
    #[inline(never)]
    pub fn next_wake(&self) -> Option<u64> {
        let mut t: Option<u64> = None;
        let mut consider = |v: u64| t = Some(t.map_or(v, |x: u64| x.min(v)));
        for p in &self.procs {
            // Relays between polls, a CDC backing off, the cleaner's schedule, pg_sleep.
            if p.alive && p.sleep_until > self.tick {
                consider(p.sleep_until);
            }
            if let (false, Some(r)) = (p.alive, p.restart_at) {
                consider(r.max(self.tick + 1));
            }
        }
        if let Some(at) = self.pool.next_close() {
            consider(at.max(self.tick + 1));
        }
        if let Some((at, _)) = self.schedule.front() {
            consider((*at).max(self.tick + 1));
        }
        // The stalled checker only changes something when a dead worker's lock can run out.
        if self.queue.health == Health::Up && self.queue.has_orphaned_active() {
            consider(self.next_stall_check.max(self.tick + 1));
        }
        t
    }
}
