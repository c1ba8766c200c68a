// The "Prove it" Web Worker's entry (issue #22; src/proof/pool.rs starts it): the glue that
// wasm-bindgen writes for the worker crate (prove/, its "no-modules" target, which defines
// `wasm_bindgen`), then its wasm; both names are Trunk's for a worker (its binary's name).
// A wasm that fails to load is said to the page (FromWorker::Broken, "broken\t" and why:
// model/src/explore/wire.rs), which then offers the search on its own thread.
importScripts("./prove-worker.js");
wasm_bindgen({ module_or_path: "./prove-worker_bg.wasm" }).catch((e) => {
  postMessage("broken\t" + String(e));
});
