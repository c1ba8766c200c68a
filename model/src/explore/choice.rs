//! What the search chooses at a state (a step, a kill, a restart, a tick of one
//! process), what it observes in a reached state, and the flags it keeps per state.

/// A choice at a state: kind in the high byte (0 step, 1 restart (unreduced only),
/// 2 kill (and, reduced, the restart after it), 3 tick), process low.
pub(super) type Choice = u16;
pub(super) const STEP: u16 = 0;
pub(super) const RESTART: u16 = 1 << 8;
pub(super) const KILL: u16 = 2 << 8;
pub(super) const TICK: u16 = 3 << 8;
pub(super) const NO_PARENT: u32 = u32::MAX;

/// What a reached state shows; the explorer keeps the first edge into each.
pub(super) const OBS_LOST: usize = 0;
pub(super) const OBS_DUP_EFFECT: usize = 1;
pub(super) const OBS_PHANTOM: usize = 2;
pub(super) const OBS_CONSERVATION: usize = 3;
pub(super) const OBS_INVARIANTS: usize = 4;
pub(super) const OBS_DUP_DELIVERY: usize = 5;
/// A terminal state (in crash-point mode: one after the kill).
pub(super) const OBS_TERMINAL: usize = 6;
/// A terminal state where retrying the failed set does not act once on each failed event.
pub(super) const OBS_RETRIED: usize = 7;
pub(super) const OBS: usize = 8;

pub(super) const FLAG_TERMINAL: u8 = 1;
pub(super) const FLAG_SETTLED: u8 = 2;
pub(super) const FLAG_CUT: u8 = 4;
