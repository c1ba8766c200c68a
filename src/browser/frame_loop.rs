//! The one animation-frame loop every frame-driven part of the page uses (the play loop,
//! lockstep's beat, the warm-up), in the style of leptos-use's `use_raf_fn`.
//!
//! Why not one closure that asks for the next frame with itself: such a closure holds a
//! reference to itself, so it (and everything it captured: explorers, worlds, the sim)
//! lived on after its job was done unless each caller remembered to break the cycle (one
//! did not, and leaked every finished job). Here each frame is booked with a fresh
//! one-shot closure that holds only the loop; the loop holds the callback, and drops it
//! the moment the callback says it is done or the loop is stopped. Nothing refers to
//! itself, so nothing has to be broken by hand.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

/// A frame callback: gets the frame's timestamp (ms, `requestAnimationFrame`'s clock) and
/// returns whether it wants another frame.
type Callback = Box<dyn FnMut(f64) -> bool>;

struct Loop {
    /// None once done or stopped (and while the callback runs: see [`on_frame`]).
    callback: RefCell<Option<Callback>>,
    stopped: Cell<bool>,
}

/// A running frame loop. Cloning it gives another handle to the same loop.
#[derive(Clone)]
pub struct FrameLoop(Rc<Loop>);

impl FrameLoop {
    /// Ends the loop and drops its callback now. The frame already booked still fires once,
    /// finds nothing to call and books no other, which frees its one-shot closure (a
    /// cancelled one-shot closure would never be freed).
    pub fn stop(&self) {
        self.0.stopped.set(true);
        self.0.callback.borrow_mut().take();
    }
}

/// Calls `callback(timestamp_ms)` once per animation frame until it returns false or the
/// returned [`FrameLoop`] is stopped. Not tied to a component: for work started from an
/// event handler (use [`use_raf_fn`] in a component's set-up).
pub fn request_frames(callback: impl FnMut(f64) -> bool + 'static) -> FrameLoop {
    let looped = Rc::new(Loop {
        callback: RefCell::new(Some(Box::new(callback))),
        stopped: Cell::new(false),
    });
    book(looped.clone());
    FrameLoop(looped)
}

/// [`request_frames`], stopped when the calling component is cleaned up.
pub fn use_raf_fn(callback: impl FnMut(f64) -> bool + 'static) -> FrameLoop {
    let frames = request_frames(callback);
    // The loop holds Rc state (not Send): keep it in a local store for the cleanup.
    let stored = StoredValue::new_local(frames.clone());
    on_cleanup(move || stored.with_value(FrameLoop::stop));
    frames
}

/// Books the next frame with a one-shot closure that holds the loop.
fn book(looped: Rc<Loop>) {
    let Some(w) = web_sys::window() else { return };
    let once = Closure::once_into_js(move |ts: f64| on_frame(looped, ts));
    let _ = w.request_animation_frame(once.unchecked_ref());
}

fn on_frame(looped: Rc<Loop>, ts: f64) {
    // Taken out while it runs, so a callback that stops its own loop (or whose work
    // disposes the component that owns it) does not find the cell borrowed.
    let Some(mut callback) = looped.callback.borrow_mut().take() else {
        return;
    };
    let more = callback(ts);
    if more && !looped.stopped.get() {
        *looped.callback.borrow_mut() = Some(callback);
        book(looped);
    }
}

/// Resolves once the browser has drawn a frame since the call, or after `limit_ms` if no
/// frame comes first (a hidden tab draws none). A frame's callback runs before its
/// drawing, so the wait goes on to a task after it.
///
/// Why: the page mounts after the boot shell has been drawn. When the wasm came before
/// the first frame (a fast or cached load), the page's first screen was the first paint,
/// so the largest paint waited for the whole download; on the mobile preset Lighthouse
/// then put it at 3.0 s instead of 0.9 (#18; 1 run in 3 on loopback).
pub async fn after_next_paint(limit_ms: u32) {
    let drawn = web_sys::js_sys::Promise::new(&mut |resolve, _reject| {
        request_frames(move |_| {
            let _ = resolve.call0(&JsValue::NULL);
            false
        });
    });
    let frame = wasm_bindgen_futures::JsFuture::from(drawn);
    // The timer is cleared (and its closure freed) when the frame comes first; the frame
    // left waiting in a hidden tab fires once when the tab is shown and books no other.
    let limit = gloo_timers::future::TimeoutFuture::new(limit_ms);
    let _ = futures::future::select(frame, limit).await;
    gloo_timers::future::TimeoutFuture::new(0).await;
}
