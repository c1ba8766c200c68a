//! The set of reached states: 128-bit keys to state indexes, in an open-addressing table
//! (linear probing, power-of-two size, at most half full). The keys are already uniform
//! hashes, so their low bits pick the slot: a lookup is one cache line, where the
//! `BTreeMap` it replaces walked ~16 nodes per lookup. Nothing iterates it, so its order
//! (and the house rule of ordered maps for deterministic iteration) does not come into it.

/// Keys to state indexes. A slot keeps 96 bits of its key and the index (16 bytes, four
/// to a cache line): a lookup of a key not seen recently misses the cache, so the table's
/// size is most of its cost (a 128-bit key made 32-byte slots, the pinned search's table
/// 4 MB instead of 2). Two of n states merge wrongly only if their keys agree in all 96
/// bits: odds of about n²/2⁹⁷, 10⁻¹⁵ for ten million states. A key whose 96 bits are 0 is
/// kept apart, as 0 marks an empty slot.
pub(super) struct Seen {
    slots: Vec<Slot>,
    len: usize,
    zero: Option<u32>,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    lo: u64,
    hi: u32,
    value: u32,
}

/// The 96 bits of `key` a slot keeps.
fn split(key: u128) -> (u64, u32) {
    (key as u64, (key >> 64) as u32)
}

impl Seen {
    pub(super) fn new() -> Seen {
        Seen {
            slots: vec![Slot::default(); 1024],
            len: 0,
            zero: None,
        }
    }

    /// The index stored for `key`, after storing `value` for it if it had none.
    pub(super) fn get_or_insert(&mut self, key: u128, value: u32) -> u32 {
        let (lo, hi) = split(key);
        self.put(lo, hi, value)
    }

    /// Asks for the slot where a lookup of `key` starts (`crate::prefetch`): the explorer
    /// looks a key up one successor later, so the miss overlaps with that successor's
    /// work.
    pub(super) fn prefetch(&self, key: u128) {
        crate::prefetch::value(&self.slots[self.first_slot(split(key).0)]);
    }

    /// The slot where a lookup of a key with these low 64 bits starts.
    fn first_slot(&self, lo: u64) -> usize {
        lo as usize & (self.slots.len() - 1)
    }

    fn put(&mut self, lo: u64, hi: u32, value: u32) -> u32 {
        if lo == 0 && hi == 0 {
            return *self.zero.get_or_insert(value);
        }
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.first_slot(lo);
        loop {
            let s = &mut self.slots[i];
            if s.lo == lo && s.hi == hi {
                return s.value;
            }
            if s.lo == 0 && s.hi == 0 {
                *s = Slot { lo, hi, value };
                self.len += 1;
                return value;
            }
            i = (i + 1) & mask;
        }
    }

    /// Twice the slots, every key placed again.
    fn grow(&mut self) {
        let n = 2 * self.slots.len();
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); n]);
        self.len = 0;
        for s in old {
            if s.lo != 0 || s.hi != 0 {
                self.put(s.lo, s.hi, s.value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Seen;
    use crate::rng::Rng;

    /// Every key keeps the first value stored for it, through growth, 0 included; keys
    /// are told apart by their low 96 bits (what a slot keeps).
    #[test]
    fn keeps_the_first_value_of_every_key() {
        let mut rng = Rng::new(11);
        let mut s = Seen::new();
        let mut model = std::collections::BTreeMap::new();
        for v in 0..20_000u32 {
            // Few distinct keys in the low bits, so probes collide and wrap.
            let key = match rng.below(10) {
                0 => 0,
                1 => (rng.below(64) as u128) << 64,
                _ => (rng.next_u64() as u128) << 64 | rng.below(3000) as u128,
            };
            let want = *model.entry(key & ((1 << 96) - 1)).or_insert(v);
            assert_eq!(s.get_or_insert(key, v), want, "key {key:x}");
        }
        assert!(s.len + s.zero.is_some() as usize == model.len());
        // The top 32 bits are not kept: such keys are one.
        assert_eq!(s.get_or_insert(5 | 1 << 100, 7), s.get_or_insert(5, 8));
    }
}
