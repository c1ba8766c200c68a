//! Fetching memory ahead, for the explorer. A breadth-first search expands each state long
//! after it was made (the pinned search holds ~5 000 worlds in its frontier, ~35 MB), so
//! the world it expands is cold: its struct and the ~70 lists it points to were each a
//! cache miss, met one after another as the expansion read them, each waited for in turn.
//! `Explorer::run_slice` asks for the next worlds' memory a few expansions ahead, and the
//! seen set for a key's slot one successor ahead; by the time they are read they are in
//! the cache. Nothing here changes a result, only when memory arrives.
//!
//! It is done with plain loads, one byte per 64-byte cache line, whose values are thrown
//! away: the loads of one call do not depend on each other, so the CPU has their misses in
//! flight together, and wasm (the page's worker) has no prefetch instruction to use
//! instead. Measured on the pinned search (issue #22): natively about as fast as x86-64's
//! `PREFETCHT0` hint (17 alternated runs: +16 % against +18 %, within their noise), and in
//! wasm under Node, where there is no hint, the warm search 244 ms against 277 ms without
//! them (7 runs each).

/// Reads one byte of each cache line of the `len_bytes` bytes at `p`.
#[inline(always)]
fn lines(p: *const u8, len_bytes: usize) {
    let mut offset = 0;
    while offset < len_bytes {
        // SAFETY: `p` points to a live value of `len_bytes` bytes that the caller lends
        // for the call, and `offset < len_bytes`; a `MaybeUninit<u8>` may hold any byte,
        // padding included. Volatile, so the unused load is not removed.
        let byte =
            unsafe { std::ptr::read_volatile(p.add(offset).cast::<std::mem::MaybeUninit<u8>>()) };
        std::hint::black_box(byte);
        offset += 64;
    }
}

/// Fetches a value's own bytes (not what it points to).
#[inline(always)]
pub(crate) fn value<T>(v: &T) {
    lines((v as *const T).cast::<u8>(), std::mem::size_of::<T>());
}

/// Fetches a list's items (not what they point to).
#[inline(always)]
pub(crate) fn slice<T>(s: &[T]) {
    lines(s.as_ptr().cast::<u8>(), std::mem::size_of_val(s));
}
