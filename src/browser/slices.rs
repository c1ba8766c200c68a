//! Work in slices (this was `jobs.rs`, then `frames.rs`: "job" means a queue job in this
//! domain, and the frames themselves are `frame_loop.rs`'s). Long model
//! work run in slices, so the page keeps drawing while it works: the work gets a
//! few milliseconds at a time and says whether it has more to do. It stops when its
//! owner goes (`on_cleanup`).
//!
//! - [`run_in_frames`]: one slice per animation frame, for work that is also an animation
//!   (lockstep's beat) or that may take its time (the warm-up).
//! - [`run_in_tasks`]: back-to-back short tasks, for work the user waits for (the
//!   explorer). The browser draws between two tasks when a frame is due, so the work gets
//!   what drawing leaves, instead of a fixed share of each frame.

use std::cell::Cell;
use std::rc::Rc;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::browser::frame_loop::request_frames;

/// Milliseconds of model work per frame (a 60 Hz frame is 16.7 ms: the rest draws).
pub const SLICE_MS: f64 = 10.0;

pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// A flag that turns false when the component that made it is cleaned up: work it
/// started stop at their next frame.
pub fn owner_alive() -> Rc<Cell<bool>> {
    let alive = Rc::new(Cell::new(true));
    let flag = StoredValue::new_local(alive.clone());
    on_cleanup(move || flag.with_value(|a| a.set(false)));
    alive
}

/// Milliseconds per task of [`run_in_tasks`]: short enough that a frame that falls due
/// during one still draws in time (60 Hz: 16.7 ms).
pub const TASK_MS: f64 = 6.0;

/// Calls `work(deadline_ms)` in one task after another (posted through a
/// `MessageChannel`, which, unlike `setTimeout`, is not throttled to 4 ms when nested)
/// until it returns false or `owner` turns false.
///
/// Measured in the page (the explorer's bounded check, 2 cores, headless Chromium): one
/// 10 ms slice per frame left the frame with ~4 ms of drawing and overheads to spare;
/// when the machine was slower, frames took 33 ms and the work got 10 ms of each, so the
/// check took 1.8 s instead of 1.2.
pub fn run_in_tasks(owner: Rc<Cell<bool>>, work: impl FnMut(f64) -> bool + 'static) {
    let Ok(channel) = web_sys::MessageChannel::new() else {
        // No MessageChannel (not in any browser we support): fall back to frames.
        return run_in_frames(owner, work);
    };
    let (inbox, outbox) = (channel.port1(), channel.port2());
    let port = inbox.clone();
    // The work is dropped (with what it holds) as soon as it is done or its owner goes; the
    // small closure that called it stays behind, unregistered from the closed port.
    let mut job = Some(work);
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |_| {
        let more = owner.get() && job.as_mut().is_some_and(|work| work(now_ms() + TASK_MS));
        if more {
            let _ = outbox.post_message(&JsValue::NULL);
        } else {
            job = None;
            port.set_onmessage(None);
            port.close();
        }
    });
    inbox.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = channel.port2().post_message(&JsValue::NULL);
}

/// Calls `work(deadline_ms)` once per animation frame until it returns false or `owner`
/// turns false; the work is dropped then (see [`crate::browser::frame_loop`]).
pub fn run_in_frames(owner: Rc<Cell<bool>>, mut work: impl FnMut(f64) -> bool + 'static) {
    request_frames(move |_ts| owner.get() && work(now_ms() + SLICE_MS));
}
