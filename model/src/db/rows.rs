//! The tables' rows (tasks, outbox, inbox and key slots, actions, the commit log) and the
//! compact structures the database keeps them in: the private versions of locked rows and
//! the partial index of unpublished rows as a bitmap.

use crate::ids::{EventId, EventKind, TxId};
use serde::Serialize;

/// A task row (`vazifalar`); its id is its index + 1.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TaskRow {
    pub egasi_id: u32,
    /// Which client request made it (the lesson's loop index `i`).
    pub intent: u32,
    pub xmin: TxId,
}

/// The mutable part of an outbox row: what an UPDATE or DELETE changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct OutboxData {
    pub tarqatilgan_vaqt: Option<u64>,
    pub urinishlar: u32,
    pub deleted: bool,
    /// Deleted by the dead-letter move: the row now lives in `outbox_olik`.
    pub dead_letter: bool,
}

/// An outbox row. `data` is the newest committed version; the lock holder's private
/// version lives in `Db::pending` until it commits.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct OutboxRow {
    pub hodisa: EventId,
    pub kind: EventKind,
    pub foydalanuvchi_id: u32,
    /// `malumot`: the task's index and an amount, the payload the worker acts on.
    pub task_intent: u32,
    pub summa: u32,
    pub yaratilgan_vaqt: u64,
    pub xmin: TxId,
    pub data: OutboxData,
    /// The transaction holding the row lock (0: none).
    pub(super) lock: TxId,
}

impl OutboxRow {
    /// The identity value (rows are stored by id).
    pub fn id(&self, idx: u32) -> u64 {
        idx as u64 + 1
    }
    pub fn lock(&self) -> Option<TxId> {
        (self.lock != 0).then_some(self.lock)
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub(super) struct InboxSlot {
    /// 0 when the slot is empty.
    pub(super) xmin: TxId,
    /// A transaction that deleted the row and has not ended yet (0: none).
    pub(super) xmax: TxId,
    pub(super) ishlangan: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ActionRow {
    pub hodisa: EventId,
    pub summa: u32,
    pub xmin: TxId,
}

/// One committed transaction's outbox inserts, in commit order (what logical decoding
/// hands a CDC connector).
#[derive(Debug, PartialEq, Eq, Hash, Serialize)]
pub struct WalRecord {
    pub lsn: u64,
    pub tx: TxId,
    pub events: Vec<EventId>,
}

clone_reusing!(WalRecord { lsn, tx } refill { events });

/// Private versions of locked rows: (outbox index, data), sorted by index. Only rows a
/// transaction holds locked and has changed are here (a handful: one poll's rows).
#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct PendingRows(pub(super) Vec<(u32, OutboxData)>);

/// By hand for `clone_from`, which refills the list (see `clone_reusing!`).
impl Clone for PendingRows {
    fn clone(&self) -> Self {
        PendingRows(self.0.clone())
    }
    fn clone_from(&mut self, source: &Self) {
        crate::Refill::refill(&mut self.0, &source.0);
    }
}

impl PendingRows {
    pub(super) fn get(&self, i: &u32) -> Option<&OutboxData> {
        let v = &self.0;
        v.binary_search_by_key(i, |e| e.0).ok().map(|k| &v[k].1)
    }
    pub(super) fn insert(&mut self, i: u32, d: OutboxData) {
        match self.0.binary_search_by_key(&i, |e| e.0) {
            Ok(k) => self.0[k].1 = d,
            Err(k) => self.0.insert(k, (i, d)),
        }
    }
    pub(super) fn keys(&self) -> impl Iterator<Item = &u32> {
        self.0.iter().map(|e| &e.0)
    }
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A set of outbox indexes as a bitmap (bit `i` of word `i / 64`), with a summary word
/// per 64 words so that iterating a sparse set skips empty words: the partial index's
/// inserts and deletes are a few instructions, and it iterates in id order.
#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct RowSet {
    words: Vec<u64>,
    /// Bit `k` of `summary[j]`: word `64 j + k` is not empty.
    summary: Vec<u64>,
    len: usize,
}

clone_reusing!(RowSet { len } refill { words, summary });

/// The set bits of a word, lowest first.
struct Bits(u64);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(b)
    }
}

impl RowSet {
    /// Asks for the set's words (see `World::prefetch_parts`).
    pub(super) fn prefetch_parts(&self) {
        crate::prefetch::slice(&self.words);
        crate::prefetch::slice(&self.summary);
    }

    pub(super) fn insert(&mut self, i: u32) -> bool {
        let (w, b) = (i as usize / 64, 1u64 << (i % 64));
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
            self.summary.resize(w / 64 + 1, 0);
        }
        if self.words[w] & b != 0 {
            return false;
        }
        self.words[w] |= b;
        self.summary[w / 64] |= 1 << (w % 64);
        self.len += 1;
        true
    }
    pub(super) fn remove(&mut self, i: &u32) -> bool {
        let (w, b) = (*i as usize / 64, 1u64 << (i % 64));
        match self.words.get_mut(w) {
            Some(x) if *x & b != 0 => {
                *x &= !b;
                if *x == 0 {
                    self.summary[w / 64] &= !(1 << (w % 64));
                }
                self.len -= 1;
                true
            }
            _ => false,
        }
    }
    pub(super) fn contains(&self, i: &u32) -> bool {
        self.words
            .get(*i as usize / 64)
            .is_some_and(|x| x & (1 << (i % 64)) != 0)
    }
    pub(super) fn len(&self) -> usize {
        self.len
    }
    /// Whether `f` holds for a member, asked in increasing order: `iter().any(f)` in
    /// plain loops (the explorer asks it of every relay poll it might offer, and the
    /// iterator's nested flat_maps cost several times the loops).
    pub(super) fn any(&self, mut f: impl FnMut(u32) -> bool) -> bool {
        for (j, &s) in self.summary.iter().enumerate() {
            let mut s = s;
            while s != 0 {
                let w = j * 64 + s.trailing_zeros() as usize;
                s &= s - 1;
                let mut bits = self.words[w];
                while bits != 0 {
                    if f((w * 64 + bits.trailing_zeros() as usize) as u32) {
                        return true;
                    }
                    bits &= bits - 1;
                }
            }
        }
        false
    }
    /// In increasing order.
    pub(super) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        let words = &self.words;
        self.summary.iter().enumerate().flat_map(move |(j, &s)| {
            Bits(s).flat_map(move |k| {
                let w = j * 64 + k;
                Bits(words[w]).map(move |b| (w * 64 + b) as u32)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::RowSet;
    use crate::rng::Rng;

    /// `any` answers as `iter().any` does, and asks in the same (increasing) order, on
    /// sparse and dense sets across many words.
    #[test]
    fn any_asks_as_iter_any_does() {
        let mut rng = Rng::new(7);
        for _ in 0..200 {
            let mut s = RowSet::default();
            let span = 1 + rng.below(9000) as u32;
            for _ in 0..rng.below(40) {
                s.insert(rng.below(span as u64) as u32);
            }
            if rng.below(2) == 0 {
                let nth = s.iter().nth(rng.below(3) as usize);
                if let Some(i) = nth {
                    s.remove(&i);
                }
            }
            let cut = rng.below(span as u64) as u32;
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let want = s.iter().any(|i| {
                a.push(i);
                i >= cut
            });
            let got = s.any(|i| {
                b.push(i);
                i >= cut
            });
            assert_eq!((got, b), (want, a));
        }
    }
}
