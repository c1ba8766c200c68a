//! The browser's services the page uses, each behind a small Rust API so components do
//! not touch `web_sys` for them: the address, the keyboard, localStorage, a chosen file's
//! text, animation frames (`frame_loop`) and slicing long work into frames or tasks
//! (`slices`), building a page's parts one per frame (`build_in_turns`), telling the boot
//! script the page is built (`page_built`), BroadcastChannel, the preferred languages,
//! and Web Workers (with their wasm on the page's thread when there are none).

pub mod broadcast;
pub mod build_in_turns;
pub mod file;
pub mod first_touch;
pub mod frame_loop;
pub mod keys;
pub mod languages;
pub mod page_built;
pub mod peak_bytes;
pub mod saved_reset;
pub mod slices;
pub mod storage;
pub mod url;
pub mod workers;

/// Puts the module's `WebAssembly.Memory` on `window.__outboxWasmMemory`, so the page
/// bench's soak can read the wasm heap's size (`buffer.byteLength`) beside the JS heap;
/// Trunk's loader keeps the instance to itself. Also `window.__outboxPeakBytes()`: the
/// most bytes the Rust code held since the last call ([`peak_bytes`]). Read-only use;
/// nothing in the page reads them.
pub fn expose_wasm_memory() {
    if let Some(w) = web_sys::window() {
        let _ = web_sys::js_sys::Reflect::set(
            &w,
            &wasm_bindgen::JsValue::from_str("__outboxWasmMemory"),
            &wasm_bindgen::memory(),
        );
        let peak = wasm_bindgen::closure::Closure::<dyn Fn() -> f64>::new(|| {
            peak_bytes::take_peak_bytes() as f64
        });
        let _ = web_sys::js_sys::Reflect::set(
            &w,
            &wasm_bindgen::JsValue::from_str("__outboxPeakBytes"),
            peak.as_ref(),
        );
        // The page's lifetime: the window keeps the function.
        peak.forget();
    }
}

/// Under WebDriver only (`navigator.webdriver`, which a person's browser does not set):
/// `window.__outboxPanic(message)` panics with `message`. No link or file of the
/// end-to-end tests panics the page any more, and the panic panel and its "reset saved
/// state" must still be seen to work (tests/hostile/links.rs). It opens no way in for a
/// link, a file or a message: only a script already running in the page can call it.
pub fn expose_test_panic() {
    use wasm_bindgen::JsValue;
    use web_sys::js_sys::Reflect;
    let Some(w) = web_sys::window() else {
        return;
    };
    let driven = Reflect::get(&w.navigator(), &JsValue::from_str("webdriver"))
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    if !driven {
        return;
    }
    let panic = wasm_bindgen::closure::Closure::<dyn Fn(String)>::new(|message: String| {
        panic!("{message}");
    });
    let _ = Reflect::set(&w, &JsValue::from_str("__outboxPanic"), panic.as_ref());
    // The page's lifetime: the window keeps the function.
    panic.forget();
}
