//! Turns: a count that grows by one per browser task, from 0 to `count`, in the style of
//! leptos-use's hooks. A component builds its parts one per turn instead of all in the
//! task that mounts it, so no single task blocks the page for long (Lighthouse's total
//! blocking time counts every task past 50 ms, at 4× the CPU time on its mobile preset).
//!
//! A signal set here runs its effects in the same task (they are microtasks), so each
//! turn's rendering is done before the browser may paint or take a click.

use leptos::prelude::*;

use crate::browser::frames::{owner_alive, run_in_tasks};

/// The number of turns taken so far, growing one per task until it reaches `count`; the
/// tasks stop when the calling component is cleaned up.
pub fn use_turns(count: usize) -> ReadSignal<usize> {
    let (taken, set_taken) = signal(0usize);
    if count == 0 {
        return taken;
    }
    run_in_tasks(owner_alive(), move |_deadline_ms| {
        let next = taken.get_untracked() + 1;
        set_taken.set(next);
        next < count
    });
    taken
}
