//! A small, stable hash (FNV-1a) of what a part of the pipeline is built from, so a memo
//! rebuilds it only when that changed.

/// A 64-bit FNV-1a hash of `value`: what a memo keeps instead of the value itself (a
/// memo of a `Vec<String>` or a `Vec<Step>` costs ~1 KB of the size cap each).
pub fn fnv_hash<T: std::hash::Hash + ?Sized>(value: &T) -> u64 {
    struct Fnv(u64);
    impl std::hash::Hasher for Fnv {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for b in bytes {
                self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    value.hash(&mut h);
    std::hash::Hasher::finish(&h)
}
