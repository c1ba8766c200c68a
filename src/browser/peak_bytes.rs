//! The page's allocator, counting: the bytes its Rust code holds and their peak since the
//! last look. The page bench's soak reads the peak of every 10 s window: the wasm
//! memory's own size (`buffer.byteLength`) only ever grows, and at 200 000 tasks it
//! grows in ~4 MB steps whenever a world copy finds no free block big enough, which says
//! where the allocator's high-water mark is, not whether the page keeps what it no longer
//! needs. A leak raises the windows' peaks run after run; a late step of the high-water
//! mark does not.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator with two counters (the page is single-threaded; relaxed is enough).
pub struct Counting;

static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);
static PEAK_BYTES: AtomicUsize = AtomicUsize::new(0);

fn grew(by_bytes: usize) {
    let live = LIVE_BYTES.fetch_add(by_bytes, Relaxed) + by_bytes;
    PEAK_BYTES.fetch_max(live, Relaxed);
}

// SAFETY: every call is passed to `System` unchanged; the counters only observe sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE_BYTES.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE_BYTES.fetch_sub(layout.size(), Relaxed);
            grew(new_size);
        }
        p
    }
}

/// The most bytes held at once since the last call; starts the next window at what is
/// held now.
pub fn take_peak_bytes() -> usize {
    PEAK_BYTES.swap(LIVE_BYTES.load(Relaxed), Relaxed)
}

/// The bytes held now (tests/memory.rs: what a reset leaves behind).
pub fn live_bytes() -> usize {
    LIVE_BYTES.load(Relaxed)
}
