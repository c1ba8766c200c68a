// "Prove it" without Web Workers (issue #22): loaded after the worker's glue
// (prove-worker.js) on the page's own thread. The glue's `wasm_bindgen` is a top-level
// `let` of a classic script, which is not a property of `window`: this hands it to
// src/browser/workers.rs under a name it can read.
window.__outboxProve = wasm_bindgen;
