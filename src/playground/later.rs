//! `Later`: draws its children one browser task after the rest of the page.
//!
//! Why: the page's first task built every component at once (~95 ms of main thread on
//! this machine, 325 ms at Lighthouse's 4× CPU), which is most of the start-up's total
//! blocking time. What is below the first screen (the details tabs, the help dialog) can
//! come a task later: the browser paints the stage and can answer input in between.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;

#[component]
pub fn Later(children: ChildrenFn) -> impl IntoView {
    let shown = RwSignal::new(false);
    let alive = Arc::new(AtomicBool::new(true));
    let running = alive.clone();
    // The timer's future cannot be cancelled: it checks that the owner is still there.
    on_cleanup(move || alive.store(false, Ordering::Relaxed));
    wasm_bindgen_futures::spawn_local(async move {
        TimeoutFuture::new(0).await;
        if running.load(Ordering::Relaxed) {
            shown.set(true);
        }
    });
    move || shown.get().then(|| children())
}
