//! The browser's services the page uses, each behind a small Rust API so components do
//! not touch `web_sys` for them: the address, the keyboard, localStorage, a chosen file's
//! text, animation frames (`frame_loop`) and slicing long work into frames or tasks
//! (`slices`), building a page's parts one per frame (`build_in_turns`), telling the boot
//! script the page is built (`page_built`), BroadcastChannel, the preferred languages,
//! and Web Workers (with their wasm on the page's thread when there are none).

pub mod broadcast;
pub mod build_in_turns;
pub mod file;
pub mod frame_loop;
pub mod keys;
pub mod languages;
pub mod page_built;
pub mod peak_bytes;
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
