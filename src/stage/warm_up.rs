//! The warm-up after load: a small copy of the scenario runs in frame slices so the
//! browser compiles the model's hot code before the user presses play.

use leptos::prelude::*;
use outbox_model::view;

use crate::browser::slices::{now_ms, owner_alive, run_in_frames};
use crate::ctl::{Ctl, QUEUE_PER_STATE, TABLE_HEAD, TABLE_RECENT};
use crate::run::sim::Sim;

/// Tasks in the warm-up's copy of the scenario, and its model time in all.
const WARM_TASKS: u32 = 3_000;
const WARM_MS: f64 = 150.0;
/// Model time per frame for the warm-up (the page keeps drawing). With the frame's own
/// work, a frame of the first load stays under Lighthouse's 50 ms long task at its 4×
/// CPU slowdown (#18: 8 ms slices made the first frames long tasks).
const WARM_SLICE_MS: f64 = 4.0;
/// Frames left alone before the warm-up starts: the first one lays out the whole page.
const WARM_AFTER_FRAMES: u32 = 2;

/// Browsers compile wasm lazily and optimize a function only after it has run for a
/// while: the first run at full speed dropped frames for its first ~0.3 s while that
/// happened (measured: p95 frame time 17–20 ms with, 14 ms without). After load, a small
/// copy of the scenario runs in a few frame slices and is thrown away, so the model's hot
/// code is compiled before the user presses play. It stops as soon as the user plays.
pub fn warm_up(ctl: Ctl) {
    let mut s = ctl.scenario();
    s.workload.tasks = s.workload.tasks.min(WARM_TASKS);
    if Sim::check(&s).is_err() {
        return;
    }
    let mut sim = Sim::new(s);
    let mut spent = 0.0;
    let mut skipped = 0;
    run_in_frames(owner_alive(), move |deadline| {
        if ctl.playing.get_untracked() {
            return false;
        }
        if skipped < WARM_AFTER_FRAMES {
            skipped += 1;
            return true;
        }
        let start = now_ms();
        let end = deadline.min(start + WARM_SLICE_MS);
        let mut more = true;
        while more && now_ms() < end {
            more = sim.ticks(64) == 64 && !sim.finished();
            // What the panels read while playing, so that code is compiled too.
            let w = sim.world();
            std::hint::black_box((
                w.counters(),
                view::procs(w),
                view::tables(w, TABLE_HEAD, TABLE_RECENT),
            ));
            std::hint::black_box((view::queue(w, QUEUE_PER_STATE), w.enabled()));
        }
        spent += now_ms() - start;
        more && spent < WARM_MS
    });
}
