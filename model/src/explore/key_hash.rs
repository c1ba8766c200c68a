//! The hash states are merged by: a streaming 128-bit hash with no buffer, the same on
//! every platform and cheap in wasm. Its design choices are measured (see the comments).

use std::hash::Hasher;

/// The state key, hashed as it is written, with no buffer: every integer write, whatever
/// its width, is one 64-bit word folded into two 64-bit lanes; a byte string (`write`) is
/// folded 8 bytes at a time, its last partial word padded with zeros, and then its length.
/// Every branch of a key is preceded by a tag (and every list by its length), so the word
/// streams of two different states differ, and neither is the start of the other; the
/// number of words is not counted (every word, a zero too, moves the lanes: a stream one
/// word longer is as different as one word changed; counting was a load, an add and a
/// store a word, 3 % of the explorer's instructions). `usize` is written as 64
/// bits, so keys are the same on every platform. Only 64-bit multiplications: wasm has
/// them natively, while a 64×64→128 product is a library call there (8 % of the
/// explorer's time in wasm). One word per write rather than packing the writes' bytes:
/// packing saved rounds but its shifting and branching cost more (measured natively, the
/// whole search ~10 % faster; the key's state count is the same, only the hash differs).
///
/// One pair of lanes takes every word; each word's premultiplied value feeds both lanes
/// (3 multiplications a word instead of 4). A lane's round is a chain of add, rotate
/// and multiply, ~5 cycles. Two pairs taking the words in turn let two words' rounds run
/// at once (measured once ~5.4 cycles a word with one pair, when the key was written to
/// a buffer and hashed in one loop); written as the key is walked, the rounds overlap
/// with the walk anyway, and swapping the pairs after every word cost 3 moves a word
/// (one pair: the pinned search 6 % fewer instructions, its CPU time no worse).
pub(super) struct KeyHash {
    a: u64,
    b: u64,
}

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P4: u64 = 0x85EB_CA77_C2B2_AE63;

/// One word into a pair of lanes: a round in the style of xxHash64's in each, with
/// different operations, constants and rotations, so the lanes are not copies of each
/// other.
#[inline(always)]
fn mix(a: u64, b: u64, w: u64) -> (u64, u64) {
    let m = w.wrapping_mul(P2);
    let a = a.wrapping_add(m).rotate_left(31);
    let b = (b ^ m).rotate_left(27);
    (a.wrapping_mul(P1), b.wrapping_mul(P4))
}

/// xxHash64's avalanche.
#[inline(always)]
fn avalanche(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(P2);
    h ^= h >> 29;
    h = h.wrapping_mul(P3);
    h ^ h >> 32
}

impl KeyHash {
    pub(super) fn new() -> Self {
        KeyHash {
            a: 0x243F_6A88_85A3_08D3,
            b: 0x1319_8A2E_0370_7344,
        }
    }

    #[inline(always)]
    fn word(&mut self, w: u64) {
        (self.a, self.b) = mix(self.a, self.b, w);
    }

    pub(super) fn finish128(&self) -> u128 {
        // Cross the lanes, then avalanche.
        let a2 = avalanche(self.a ^ self.b.rotate_left(17).wrapping_mul(P4));
        let b2 = avalanche(self.b.wrapping_mul(P3) ^ a2.rotate_left(41));
        (a2 as u128) << 64 | b2 as u128
    }
}

impl Hasher for KeyHash {
    fn finish(&self) -> u64 {
        self.finish128() as u64
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.word(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.word(u64::from_le_bytes(last));
        }
        // The length tells "ab" from "ab\0".
        self.word(bytes.len() as u64);
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.word(i as u64)
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.word(i as u64)
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.word(i as u64)
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.word(i)
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.word(i as u64)
    }
    #[inline]
    fn write_isize(&mut self, i: isize) {
        self.word(i as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 128-bit hash of a list of writes (width in bytes 1/2/4/8, or 0 for a byte
    /// string of the value's low bytes, as many as `len`).
    fn hash_of(writes: &[(u8, u64, usize)]) -> u128 {
        let mut h = KeyHash::new();
        for &(width, v, len) in writes {
            match width {
                1 => h.write_u8(v as u8),
                2 => h.write_u16(v as u16),
                4 => h.write_u32(v as u32),
                8 => h.write_u64(v),
                _ => h.write(&v.to_le_bytes().repeat(3)[..len]),
            }
        }
        h.finish128()
    }

    /// Write lists that differ in one bit of one write, or in the number of writes, or in
    /// a byte string's length (trailing zeros), hash apart.
    #[test]
    fn different_writes_hash_apart() {
        let mut seen = std::collections::BTreeSet::new();
        let mut kept = 0;
        for n in 0..24 {
            let base: Vec<(u8, u64, usize)> = vec![(8, 0, 0); n];
            kept += seen.insert(hash_of(&base)) as usize;
            for at in 0..n {
                for bit in 0..64 {
                    let mut w = base.clone();
                    w[at].1 = 1 << bit;
                    assert!(seen.insert(hash_of(&w)), "n {n}, write {at}, bit {bit}");
                }
            }
        }
        // Byte strings apart (a string is a word list of its own: only the key's tags keep
        // it apart from integer writes, as they keep apart any two branches).
        let mut strings = std::collections::BTreeSet::new();
        for len in 0..24 {
            assert!(strings.insert(hash_of(&[(0, 0, len)])), "zeros × {len}");
        }
        assert_eq!(kept, 24);
    }
}
