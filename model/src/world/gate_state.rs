//! The gates' state: one bitmask per gate class, one bit per process, and the list of
//! processes that can run now.

use crate::ids::TxId;
use crate::scenario::MAX_PROCS;

/// When each process can take a step, as far as its own state says: what
/// [`World::runnable_in`] reads from the process, with the world facts (the tick, the
/// API's readiness, Redis, open transactions) left to read at each tick. A process's gate
/// changes only when its own state does, so it is made again only for the processes whose
/// state changed (`dirty`). Bit `i` of every mask is process `i`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Gates {
    /// Processes whose state changed since their gate was made.
    pub(super) dirty: u64,
    /// The processes by condition: `by_class[c]` for the `GATE_*` class `c`.
    pub(super) by_class: [u64; 6],
    /// Each process's class (arrays of `MAX_PROCS`, indexed by a mask's bit number taken
    /// modulo their length, see [`bit_place`]: no bounds checks).
    pub(super) class: [u8; MAX_PROCS],
    /// A sleeping (`GATE_AT`) process's wake-up tick.
    pub(super) at: [u64; MAX_PROCS],
    /// Blocked on a transaction's lock (not runnable while it is open).
    pub(super) tx: [Option<TxId>; MAX_PROCS],
    /// Each process's bits in `tx_mask`, `queue`, `holds` and `orphan` (`FLAG_*`), so the
    /// masks are written only when one of them changes.
    pub(super) flags: [u8; MAX_PROCS],
    pub(super) tx_mask: u64,
    /// Blocked on a Redis that may hang.
    pub(super) queue: u64,
    /// Holding a transaction; dead and holding one (the no-orphan-transaction check).
    pub(super) holds: u64,
    pub(super) orphan: u64,
}

impl Default for Gates {
    fn default() -> Self {
        Gates {
            dirty: 0,
            by_class: [0; 6],
            class: [GATE_NEVER; MAX_PROCS],
            at: [0; MAX_PROCS],
            tx: [None; MAX_PROCS],
            tx_mask: 0,
            queue: 0,
            holds: 0,
            orphan: 0,
            flags: [0; MAX_PROCS],
        }
    }
}

pub(super) const GATE_NEVER: u8 = 0;
pub(super) const GATE_ALWAYS: u8 = 1;
/// From the process's `sleep_until` on.
pub(super) const GATE_AT: u8 = 2;
/// While the API is ready for a request.
pub(super) const GATE_API: u8 = 3;
/// While a job waits in a healthy Redis.
pub(super) const GATE_WAITING: u8 = 4;
/// While Redis is up.
pub(super) const GATE_UP: u8 = 5;

pub(super) const FLAG_TX: u8 = 1;
pub(super) const FLAG_QUEUE: u8 = 2;
pub(super) const FLAG_HOLDS: u8 = 4;
pub(super) const FLAG_ORPHAN: u8 = 8;

/// The place of the lowest set bit of a mask of processes, as an index into the gates'
/// arrays: a mask holds only bits below `procs.len()`, at most `MAX_PROCS` (`World::new`
/// refuses more), a power of two: taking the place modulo `MAX_PROCS` changes nothing
/// and spares the bounds checks.
#[inline(always)]
pub(super) fn bit_place(m: u64) -> usize {
    m.trailing_zeros() as usize & (MAX_PROCS - 1)
}

/// The runnable processes of one tick, without an allocation: bit `i` is process `i`.
#[derive(Default)]
pub(super) struct Runnable {
    pub(super) mask: u64,
    pub(super) len: usize,
}

impl Runnable {
    /// The `k`-th runnable process in world order.
    pub(super) fn nth(&self, k: usize) -> usize {
        let mut m = self.mask;
        for _ in 0..k {
            m &= m - 1;
        }
        m.trailing_zeros() as usize
    }
}

/// The number of set bits of a mask with few of them (one per process): a loop over the
/// set bits is cheaper than the portable `count_ones` on a target without `popcnt`.
#[inline(always)]
pub(super) fn bits(mut m: u64) -> usize {
    let mut n = 0;
    while m != 0 {
        m &= m - 1;
        n += 1;
    }
    n
}
