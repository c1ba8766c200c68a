//! Long model work (the explorer) run in slices on animation frames, so the page keeps
//! drawing while it works: each frame gives a job a few milliseconds, and the job says
//! whether it has more to do. A job stops when its owner goes (`on_cleanup`).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Milliseconds of model work per frame (a 60 Hz frame is 16.7 ms: the rest draws).
pub const SLICE_MS: f64 = 10.0;

pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// A flag that turns false when the component that made it is cleaned up: jobs it
/// started stop at their next frame.
pub fn owner_alive() -> Rc<Cell<bool>> {
    let alive = Rc::new(Cell::new(true));
    let flag = StoredValue::new_local(alive.clone());
    on_cleanup(move || flag.with_value(|a| a.set(false)));
    alive
}

/// Calls `work(deadline_ms)` once per animation frame until it returns false or `owner`
/// turns false.
pub fn run_in_frames(owner: Rc<Cell<bool>>, mut work: impl FnMut(f64) -> bool + 'static) {
    type Frame = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;
    let alive = Rc::new(Cell::new(true));
    let frame: Frame = Rc::new(RefCell::new(None));
    {
        let (alive, frame2) = (alive.clone(), frame.clone());
        *frame.borrow_mut() = Some(Closure::new(move |_ts: f64| {
            if !alive.get() || !owner.get() {
                return;
            }
            let more = work(now_ms() + SLICE_MS);
            if more {
                if let (Some(w), Some(cb)) = (web_sys::window(), frame2.borrow().as_ref()) {
                    let _ = w.request_animation_frame(cb.as_ref().unchecked_ref());
                }
            } else {
                // Break the closure's reference to itself once done.
                alive.set(false);
            }
        }));
    }
    let first = frame.borrow();
    if let (Some(w), Some(cb)) = (web_sys::window(), first.as_ref()) {
        let _ = w.request_animation_frame(cb.as_ref().unchecked_ref());
    }
}
