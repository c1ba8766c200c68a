//! The hash states are merged by: a streaming 128-bit hash with no buffer, the same on
//! every platform and cheap in wasm. Its inlining choices are measured (see the comments).

use std::hash::Hasher;

/// The state key, hashed as it is written, with no buffer: the byte stream of the writes
/// (little-endian, in write order) is folded 8 bytes at a time into two 64-bit lanes, and
/// [`KeyHash::finish128`] mixes in the length. Every branch of a key is preceded by a tag
/// of a fixed width, so the byte streams of two different states differ; `usize` is written
/// as 64 bits, so keys are the same on every platform. Only 64-bit multiplications: wasm
/// has them natively, while a 64×64→128 product is a library call there (8 % of the
/// explorer's time in wasm, with the byte buffer's writes another 7 %).
pub(super) struct KeyHash {
    a: u64,
    b: u64,
    /// Bytes written but not yet folded (the low `fill` bytes).
    pend: u64,
    fill: u32,
    len: u64,
}

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P4: u64 = 0x85EB_CA77_C2B2_AE63;

#[inline(always)]
fn mix(a: u64, b: u64, w: u64) -> (u64, u64) {
    let a = a.wrapping_add(w.wrapping_mul(P2)).rotate_left(31);
    let b = (b ^ w.wrapping_mul(P3)).rotate_left(27);
    (a.wrapping_mul(P1), b.wrapping_mul(P4))
}

impl KeyHash {
    pub(super) fn new() -> Self {
        KeyHash {
            a: 0x243F_6A88_85A3_08D3,
            b: 0x1319_8A2E_0370_7344,
            pend: 0,
            fill: 0,
            len: 0,
        }
    }

    /// One word into both lanes (a round in the style of xxHash64's in each, with different
    /// constants and rotations, so the lanes are not copies of each other).
    #[inline(always)]
    fn round(&mut self, w: u64) {
        (self.a, self.b) = mix(self.a, self.b, w);
    }

    /// The low `n` bytes of `v` (1 ≤ n ≤ 8; the higher ones are 0), in order. Out of line
    /// on purpose: inlined into every write of the key, it made the model's wasm 30 KB
    /// bigger (263 instead of 233 KB) for ~4 % more speed.
    #[inline(never)]
    fn push(&mut self, v: u64, n: u32) {
        self.len += n as u64;
        let room = 8 - self.fill;
        if n < room {
            self.pend |= v << (8 * self.fill);
            self.fill += n;
        } else {
            // `room` is 1..=8 and fills the word; what is left of `v` starts the next.
            let w = self.pend | v.checked_shl(8 * self.fill).unwrap_or(0);
            self.round(w);
            self.pend = v.checked_shr(8 * room).unwrap_or(0);
            self.fill = n - room;
        }
    }

    pub(super) fn finish128(&self) -> u128 {
        let mut a = self.a;
        let mut b = self.b;
        if self.fill > 0 {
            (a, b) = mix(a, b, self.pend);
        }
        // Cross the lanes, then xxHash64's avalanche on each.
        let avalanche = |mut h: u64| {
            h ^= h >> 33;
            h = h.wrapping_mul(P2);
            h ^= h >> 29;
            h = h.wrapping_mul(P3);
            h ^ h >> 32
        };
        let a2 = avalanche(a ^ self.len.wrapping_mul(P4) ^ b.rotate_left(17));
        let b2 = avalanche(b ^ self.len ^ a2.rotate_left(41));
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
            self.push(u64::from_le_bytes(c.try_into().expect("8 bytes")), 8);
        }
        for &x in chunks.remainder() {
            self.push(x as u64, 1);
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.push(i as u64, 1)
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.push(i as u64, 2)
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.push(i as u64, 4)
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.push(i, 8)
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.push(i as u64, 8)
    }
    #[inline]
    fn write_isize(&mut self, i: isize) {
        self.push(i as u64, 8)
    }
}

/// A 128-bit hash of a byte string: the same as hashing it as written by [`KeyHash`]
/// (the tests compare the two).
/// States are merged by this hash instead of by their whole key. A false merge needs
/// both lanes to collide; even one 64-bit lane alone collides with probability about
/// 2^-64 per pair, about 3·10^-8 over a million states.
#[cfg(test)]
fn hash128(bytes: &[u8]) -> u128 {
    let mut h = KeyHash::new();
    h.write(bytes);
    h.finish128()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Writes of mixed widths hash like the bytes they stand for: a state's key depends
    /// on its byte stream only, not on how the writes cut it.
    #[test]
    fn streaming_writes_hash_like_their_bytes() {
        let mut rng = Rng::new(7);
        for _ in 0..2000 {
            let mut h = KeyHash::new();
            let mut bytes = Vec::new();
            for _ in 0..rng.below(40) {
                let v = rng.next_u64();
                match rng.below(6) {
                    0 => {
                        h.write_u8(v as u8);
                        bytes.push(v as u8);
                    }
                    1 => {
                        h.write_u16(v as u16);
                        bytes.extend_from_slice(&(v as u16).to_le_bytes());
                    }
                    2 => {
                        h.write_u32(v as u32);
                        bytes.extend_from_slice(&(v as u32).to_le_bytes());
                    }
                    3 => {
                        h.write_u64(v);
                        bytes.extend_from_slice(&v.to_le_bytes());
                    }
                    4 => {
                        h.write_usize(v as usize);
                        bytes.extend_from_slice(&(v as usize as u64).to_le_bytes());
                    }
                    _ => {
                        let s: Vec<u8> = (0..rng.below(20)).map(|i| (v >> (i % 8)) as u8).collect();
                        h.write(&s);
                        bytes.extend_from_slice(&s);
                    }
                }
            }
            assert_eq!(h.finish128(), hash128(&bytes), "{bytes:?}");
        }
    }

    /// Streams that differ in one byte, or only in length (trailing zeros), hash apart.
    #[test]
    fn different_streams_hash_apart() {
        let mut seen = std::collections::BTreeSet::new();
        for len in 0..48 {
            let zeros = vec![0u8; len];
            assert!(seen.insert(hash128(&zeros)), "zeros × {len}");
            for at in 0..len {
                for bit in 0..8 {
                    let mut b = zeros.clone();
                    b[at] = 1 << bit;
                    assert!(seen.insert(hash128(&b)), "len {len}, byte {at}, bit {bit}");
                }
            }
        }
        assert_eq!(seen.len(), 48 + 8 * (47 * 48 / 2));
    }
}
