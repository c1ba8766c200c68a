//! Cache hints for the explorer. A breadth-first search expands each state long after it
//! was made (the pinned search holds ~5 000 states in its frontier, ~35 MB), so the world
//! it expands is cold: its struct and the ~70 lists it points to were each a cache miss,
//! met one after another as the expansion read them. Asking for the next worlds' memory
//! while this one is expanded lets those misses overlap with work (see
//! `Explorer::run_slice`). A hint changes no result, only when memory arrives.
//!
//! On x86-64 a hint is `PREFETCHT0`; on other targets (wasm has no prefetch) it is nothing.

/// Asks for the `len_bytes` bytes at `p`, a cache line at a time.
#[inline(always)]
fn lines(p: *const u8, len_bytes: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let mut offset = 0;
        while offset < len_bytes {
            // SAFETY: a prefetch is a hint: it never faults and reads nothing into the
            // program, so any address will do (this one is inside a live value, computed
            // with `wrapping_add`, never dereferenced). SSE, which it needs, is part of
            // every x86-64 CPU.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(offset).cast::<i8>()) };
            offset += 64;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (p, len_bytes);
}

/// Asks for a value's own bytes (not what it points to).
#[inline(always)]
pub(crate) fn value<T>(v: &T) {
    lines((v as *const T).cast::<u8>(), std::mem::size_of::<T>());
}

/// Asks for a list's items (not what they point to).
#[inline(always)]
pub(crate) fn slice<T>(s: &[T]) {
    lines(s.as_ptr().cast::<u8>(), std::mem::size_of_val(s));
}
