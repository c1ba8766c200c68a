//! The page tells its boot script (web/boot.js) that it has built all its parts: the
//! window event `outbox-built`. The boot script registers the service worker only then.
//!
//! Why: the worker's install downloads and stores every file of the build (the chunks and
//! the "Prove it" worker included). Run beside the page's own build, on the 2-core VM it
//! made the page's tasks about twice as long (#18, Lighthouse's mobile preset, 5 runs
//! each: total blocking time median 508 ms with the worker registered at once, 150 ms
//! with it registered after the build).

/// The event's name; web/boot.js listens for it.
pub const BUILT_EVENT: &str = "outbox-built";

/// Dispatches [`BUILT_EVENT`] on the window. More than once is harmless: the boot script
/// acts on the first.
pub fn announce_built() {
    let Some(w) = web_sys::window() else { return };
    if let Ok(event) = web_sys::Event::new(BUILT_EVENT) {
        let _ = w.dispatch_event(&event);
    }
}
