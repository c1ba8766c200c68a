//! The database's state in canonical form, fed to a hasher: what the explorer merges
//! states by. Kept apart from the statements because it must list every field of the
//! state (a field left out here merges states that differ).

use super::grants::Role;
use super::rows::OutboxData;
use super::store::Db;
use super::tx_state::{TxStatus, TxWork};
use crate::ids::TxId;
use std::hash::Hasher;

impl Db {
    /// Feeds the database's state, in a canonical form, to `h`: what the explorer
    /// (`crate::explore`) merges states by. History and names that only depend on how a
    /// state was reached are left out or renamed:
    /// - a transaction is named by `tx_name` (the world names a committed one 0, a
    ///   rolled-back one 1 and an open one by the process holding it), never by its id;
    /// - the log sequence numbers, the committed counters' memory pool and the indexes
    ///   kept for lookups (`unpublished`, `by_event`, `wal_events`) are derived or history;
    /// - rolled-back rows of `amallar` are left out (nothing reads them or refers to their
    ///   places; rolled-back task and outbox rows stay, as their ids are taken);
    /// - the times stored in rows (`yaratilgan_vaqt`, `tarqatilgan_vaqt`,
    ///   `ishlangan`, a key's time, a transaction's `now()`) are fed as ages
    ///   (`tick - t`) only when `ages` is set: only the cleaner, the operator's un-mark and
    ///   the stuck/age counters read them, and without those a timestamp's value changes
    ///   nothing a statement does (whether `tarqatilgan_vaqt` is NULL is always fed).
    ///
    /// `open` lists open transactions with their names, in the order of the names (the
    /// world passes those its processes hold, in process order: their names are known
    /// without asking `tx_name`); any other open one is fed after them.
    ///
    /// Generic over the namer and the list (they were `dyn`: a virtual call for every
    /// row's transaction, where inlined most names are one status lookup).
    pub fn hash_state<H: Hasher, F: Fn(TxId) -> u64>(
        &self,
        h: &mut H,
        tx_name: &F,
        open: impl Iterator<Item = (TxId, u64)>,
        ages: Option<u64>,
    ) {
        let mut c = Canon { h, tx_name, ages };
        self.hash_open_txs(&mut c, open);
        self.hash_tables(&mut c);
        self.hash_slots_and_log(&mut c);
    }

    /// Open transactions, in the order of the names the world gives them.
    fn hash_open_txs<H: Hasher, F: Fn(TxId) -> u64>(
        &self,
        c: &mut Canon<'_, H, F>,
        open: impl Iterator<Item = (TxId, u64)>,
    ) {
        let tx_name = c.tx_name;
        let mut fed = 0;
        for (t, name) in open {
            let Some(w) = self.w(t) else { continue };
            debug_assert_eq!(name, tx_name(t));
            fed += 1;
            self.hash_tx(c, w, name);
        }
        // Any other (an orphan, which the invariants forbid) after them: looked for only
        // when the listed ones are not all.
        if fed < self.work.len() {
            for w in &self.work {
                let name = tx_name(w.tx);
                if name > u32::MAX as u64 {
                    fed += 1;
                    self.hash_tx(c, w, name);
                }
            }
        }
        c.h.write_u64(fed as u64);
    }

    /// One open transaction: its status, roles, GRANT and name in one word; its `now()`
    /// as an age (when ages are fed); its seven lists' lengths, a byte each in one word
    /// when all are below 256 (a flag in the first word says so; else two to a word); then
    /// the row indexes and event ids of its lists two to a word, and its action rows by
    /// content, one word each (their places are not referenced by anything). The derived
    /// `Hash` of the roles and a word per length and per item made ~16 words of a typical
    /// transaction; these make ~3. Destructured, so a field added to `TxWork` is a compile
    /// error here rather than left out of the state.
    fn hash_tx<H: Hasher, F: Fn(TxId) -> u64>(
        &self,
        c: &mut Canon<'_, H, F>,
        w: &TxWork,
        name: u64,
    ) {
        let TxWork {
            tx,
            role,
            session_role,
            start_tick,
            tasks,
            outbox_inserted,
            outbox_locked,
            inbox,
            inbox_deleted,
            keys,
            actions,
            grant_returning,
        } = w;
        let role_code = |r: &Option<Role>| r.map_or(0, |r| 1 + r as u64);
        let lens = [
            tasks.len(),
            outbox_inserted.len(),
            outbox_locked.len(),
            keys.len(),
            inbox.len(),
            inbox_deleted.len(),
            actions.len(),
        ];
        let narrow = lens.iter().all(|&n| n < 256);
        // A name is below 2^34 (see `World::hash_state_as`), above the other fields' 8 bits.
        c.h.write_u64(
            self.status(*tx) as u64
                | role_code(role) << 2
                | role_code(session_role) << 4
                | (*grant_returning as u64) << 6
                | (narrow as u64) << 7
                | name << 8,
        );
        c.age(*start_tick);
        if narrow {
            c.h.write_u64(lens.iter().rev().fold(0, |w, &n| w << 8 | n as u64));
        } else {
            for p in lens.chunks(2) {
                c.h.write_u64(pair(p[0], p.get(1).copied().unwrap_or(0)));
            }
        }
        let mut pairs = U32Pairs::new();
        for list in [tasks, outbox_inserted, outbox_locked, keys] {
            for &r in list.iter() {
                pairs.push(c.h, r);
            }
        }
        for list in [inbox, inbox_deleted] {
            for e in list.iter() {
                pairs.push(c.h, e.0);
            }
        }
        pairs.finish(c.h);
        for &i in actions {
            let a = &self.actions[i as usize];
            c.h.write_u64(a.hodisa.0 as u64 | (a.summa as u64) << 32);
        }
    }

    /// The task and outbox tables, and the private versions of locked rows. A row's
    /// 32-bit and smaller fields share words: the explorer's key costs a chained hash
    /// round per word, and rows were a third of them.
    fn hash_tables<H: Hasher, F: Fn(TxId) -> u64>(&self, c: &mut Canon<'_, H, F>) {
        c.h.write_u64(self.tasks.len() as u64);
        for t in &self.tasks {
            c.h.write_u64(t.egasi_id as u64 | (t.intent as u64) << 32);
            c.h.write_u64((c.tx_name)(t.xmin));
        }
        c.h.write_u64(self.outbox.len() as u64);
        for r in &self.outbox {
            c.h.write_u64(r.hodisa.0 as u64 | (r.summa as u64) << 32);
            c.h.write_u64(r.foydalanuvchi_id as u64 | (r.task_intent as u64) << 32);
            c.age(r.yaratilgan_vaqt);
            // An event kind's discriminant is small (a few variants). The names of the
            // row's transaction and of its lock's holder share the data's word, a byte
            // each, when they fit (a flag says so; else they follow as words).
            let (x, l) = ((c.tx_name)(r.xmin), c.lock(r.lock));
            let kind = (r.kind as u64) << 8;
            if x < 256 && l < 256 {
                c.data(&r.data, 1 << 3 | kind | x << 16 | l << 24);
            } else {
                c.data(&r.data, kind);
                c.h.write_u64(x);
                c.h.write_u64(l);
            }
        }
        c.h.write_u64(self.pending.0.len() as u64);
        for (i, d) in &self.pending.0 {
            c.h.write_u32(*i);
            c.data(d, 0);
        }
    }

    /// The inbox and key slots, the live action rows, the grants and the retained log.
    fn hash_slots_and_log<H: Hasher, F: Fn(TxId) -> u64>(&self, c: &mut Canon<'_, H, F>) {
        // A live slot is one word, its place (below 2^32) with its transaction's and its
        // lock holder's names a byte each and a flag at bit 48, when they fit; else its
        // place alone, then the two names. u64::MAX ends the list.
        for slots in [&self.inbox, &self.keys] {
            for (i, s) in slots.iter().enumerate() {
                if s.xmin == 0 {
                    continue;
                }
                debug_assert!((i as u64) < 1 << 32);
                let (x, l) = ((c.tx_name)(s.xmin), c.lock(s.xmax));
                if x < 256 && l < 256 {
                    c.h.write_u64(i as u64 | x << 32 | l << 40 | 1 << 48);
                } else {
                    c.h.write_u64(i as u64);
                    c.h.write_u64(x);
                    c.h.write_u64(l);
                }
                c.age(s.ishlangan);
            }
            c.h.write_u64(u64::MAX);
        }
        // Rolled-back action rows are left out: nothing reads them, and nothing refers to
        // an action row by its place. Each row is two words, the first odd (its
        // transaction's name, below 2^33, shifted over a 1), and a 0 ends the list.
        for a in &self.actions {
            if self.status(a.xmin) == TxStatus::Aborted {
                continue;
            }
            c.h.write_u64(1 | (c.tx_name)(a.xmin) << 1);
            c.h.write_u64(a.hodisa.0 as u64 | (a.summa as u64) << 32);
        }
        c.h.write_u64(0);
        // The committed counters are left out: each is a function of the rows fed above
        // (`counters_from_tables`), so feeding them merged nothing more.
        debug_assert_eq!(self.kept_counters(), self.counters_from_tables());
        c.h.write_u8(self.app_can_read_hodisa_id as u8 | (self.wal_retain as u8) << 1);
        c.h.write_u64(self.wal.len() as u64);
        for r in &self.wal {
            c.h.write_u64((c.tx_name)(r.tx));
            c.h.write_u64(r.events.len() as u64);
            for e in &r.events {
                c.h.write_u32(e.0);
            }
        }
    }
}

impl Db {
    /// The committed counters as kept at COMMIT: tasks, events, inbox rows, action rows,
    /// balance, dead letters.
    fn kept_counters(&self) -> [u64; 6] {
        [
            self.committed_tasks,
            self.committed_events,
            self.committed_inbox,
            self.committed_actions,
            self.balance,
            self.dead_letters,
        ]
    }

    /// The same counters as the tables give them: committed task rows; committed outbox
    /// rows not deleted; committed inbox rows (a committed DELETE empties the slot);
    /// committed action rows and their sum; committed rows moved to `outbox_olik`.
    pub(crate) fn counters_from_tables(&self) -> [u64; 6] {
        let done = |xmin: TxId| self.committed(xmin);
        let rows = |f: fn(&OutboxData) -> bool| {
            let n = self.outbox.iter().filter(|r| done(r.xmin) && f(&r.data));
            n.count() as u64
        };
        let actions = self.actions.iter().filter(|a| done(a.xmin));
        let inbox = self.inbox.iter().filter(|s| s.xmin != 0 && done(s.xmin));
        [
            self.tasks.iter().filter(|t| done(t.xmin)).count() as u64,
            rows(|d| !d.deleted),
            inbox.count() as u64,
            actions.clone().count() as u64,
            actions.map(|a| a.summa as u64).sum(),
            rows(|d| d.dead_letter),
        ]
    }
}

/// 32-bit values fed two to a word, the last one alone when their number is odd: the
/// lists' lengths go first, so the stream stays a prefix code. Pushed one list after
/// another in plain loops (a chain of the lists' iterators cost more than its words).
pub(crate) struct U32Pairs(Option<u32>);

impl U32Pairs {
    pub(crate) fn new() -> Self {
        U32Pairs(None)
    }

    #[inline(always)]
    pub(crate) fn push<H: Hasher>(&mut self, h: &mut H, v: u32) {
        match self.0.take() {
            None => self.0 = Some(v),
            Some(lo) => h.write_u64(lo as u64 | (v as u64) << 32),
        }
    }

    pub(crate) fn finish<H: Hasher>(self, h: &mut H) {
        if let Some(lo) = self.0 {
            h.write_u64(lo as u64);
        }
    }
}

/// Two lengths in one word, 32 bits each: a list of 2^32 rows is out of reach.
fn pair(lo: usize, hi: usize) -> u64 {
    debug_assert!(lo <= u32::MAX as usize && hi <= u32::MAX as usize);
    lo as u64 | (hi as u64) << 32
}

/// What every part of the canonical hash needs: the hasher, the transactions' names and
/// whether times are fed (as ages from this tick).
struct Canon<'a, H, F> {
    h: &'a mut H,
    tx_name: &'a F,
    ages: Option<u64>,
}

impl<H: Hasher, F: Fn(TxId) -> u64> Canon<'_, H, F> {
    /// A stored time, as its age, only when ages are fed (see [`Db::hash_state`]).
    fn age(&mut self, t: u64) {
        if let Some(now) = self.ages {
            self.h.write_u64(now.saturating_sub(t));
        }
    }

    /// A row lock's holder: 0 for none, else 1 + its name.
    fn lock(&self, l: TxId) -> u64 {
        if l == 0 {
            0
        } else {
            1 + (self.tx_name)(l)
        }
    }

    /// An outbox row's mutable part, its flags and attempts in one word with `extra`
    /// (bits 3 to 31); whether `tarqatilgan_vaqt` is NULL is always fed, its age only when
    /// ages are.
    fn data(&mut self, d: &OutboxData, extra: u64) {
        let flags = d.tarqatilgan_vaqt.is_some() as u64
            | (d.deleted as u64) << 1
            | (d.dead_letter as u64) << 2;
        debug_assert!(extra & !0xFFFF_FFF8 == 0);
        self.h
            .write_u64(flags | extra | (d.urinishlar as u64) << 32);
        if let Some(t) = d.tarqatilgan_vaqt {
            self.age(t);
        }
    }
}
