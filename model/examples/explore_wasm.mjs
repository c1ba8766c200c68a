// Times the explorer in wasm (node). Build the model as a wasm cdylib with the export:
//   cargo rustc -p outbox-model --lib --release --target wasm32-unknown-unknown \
//     --features wasm-bench --crate-type cdylib
//   node model/examples/explore_wasm.mjs target/wasm32-unknown-unknown/release/outbox_model.wasm
import { readFileSync } from "node:fs";
const bytes = readFileSync(process.argv[2]);
const { instance } = await WebAssembly.instantiate(bytes, {});
for (const slice of [1000000, 500]) {
  const t = performance.now();
  const n = instance.exports.explore_states(slice);
  console.log(`slice ${slice}: ${n} states in ${(performance.now() - t).toFixed(0)} ms`);
}
