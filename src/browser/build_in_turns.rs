//! Building in turns (`use_turns`): a count that grows by one per drawn frame, from 0 to `count`, in the style of
//! leptos-use's hooks. A component builds its parts one per turn instead of all in the
//! task that mounts it, so no single task blocks the page for long (Lighthouse's total
//! blocking time counts every task past 50 ms, at 4× the CPU time on its mobile preset).
//!
//! Why a frame between turns, not just a task: the browser lays out what a task built in
//! the next frame. Turns in back-to-back tasks left one frame to lay out and style all of
//! them at once, the second-longest task of the first load (#18: 55–100 ms on the 2-core
//! VM); a frame per turn lays out one part at a time. Each turn's build runs in a task of
//! its own after the frame (see [`after_next_paint`]), not inside the frame's task.
//!
//! A signal set here runs its effects in the same task (they are microtasks), so each
//! turn's rendering is done before the browser may paint or take a click.

use leptos::prelude::*;

use crate::browser::frame_loop::after_next_paint;
use crate::browser::slices::owner_alive;

/// How long a turn waits for a frame before it goes on without one: a hidden tab draws
/// no frames, and the page must still be built when it is shown.
const TURN_FRAME_LIMIT_MS: u32 = 100;

/// The number of turns taken so far, growing one per drawn frame until it reaches
/// `count`; the turns stop when the calling component is cleaned up.
pub fn use_turns(count: usize) -> ReadSignal<usize> {
    let (taken, set_taken) = signal(0usize);
    if count == 0 {
        return taken;
    }
    let alive = owner_alive();
    leptos::task::spawn_local(async move {
        for turn in 1..=count {
            after_next_paint(TURN_FRAME_LIMIT_MS).await;
            if !alive.get() {
                return;
            }
            set_taken.set(turn);
        }
    });
    taken
}
