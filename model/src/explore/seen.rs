//! The set of reached states: 128-bit keys to state indexes, in an open-addressing table
//! (linear probing, power-of-two size, at most half full). The keys are already uniform
//! hashes, so their low bits pick the slot: a lookup is one or two cache lines, where the
//! `BTreeMap` it replaces walked ~16 nodes per lookup. Nothing iterates it, so its order
//! (and the house rule of ordered maps for deterministic iteration) does not come into it.

/// Keys to state indexes; key 0 is kept apart, as 0 marks an empty slot. A key and its
/// index share a slot (32 bytes, two to a cache line): a lookup of a key not seen
/// recently misses the cache, and with keys and indexes in two arrays a hit or an insert
/// missed it twice.
pub(super) struct Seen {
    slots: Vec<Slot>,
    len: usize,
    zero: Option<u32>,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u128,
    value: u32,
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
        if key == 0 {
            return *self.zero.get_or_insert(value);
        }
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let s = &mut self.slots[i];
            if s.key == key {
                return s.value;
            }
            if s.key == 0 {
                *s = Slot { key, value };
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
            if s.key != 0 {
                self.get_or_insert(s.key, s.value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Seen;
    use crate::rng::Rng;

    /// Every key keeps the first value stored for it, through growth, 0 included.
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
            let want = *model.entry(key).or_insert(v);
            assert_eq!(s.get_or_insert(key, v), want, "key {key:x}");
        }
        assert!(s.len + s.zero.is_some() as usize == model.len());
    }
}
