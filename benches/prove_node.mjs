// The "Prove it" worker's own wasm under Node (issue #22's wasm/native ratio, run by
// benches/page.rs): the glue Trunk built for the worker (wasm-bindgen's no-modules
// target), its wasm, and the outbox + inbox claim run through the exported Runner as the
// worker runs it (2048 states a slice, each slice's reply encoded). Four runs: the first
// in V8's baseline code (the worker warms itself up before its first search), the other
// three as a learner's searches run. Prints one line a run: "<ms> ms <reply head>".
//   node benches/prove_node.mjs dist/prove-worker.js dist/prove-worker_bg.wasm
import { readFileSync } from "node:fs";
import vm from "node:vm";

const [glue, wasm] = process.argv.slice(2);
// The glue's `wasm_bindgen` is a script's top-level binding, not a global property.
vm.runInThisContext(readFileSync(glue, "utf8") + "\nglobalThis.__prove = wasm_bindgen;");
const prove = globalThis.__prove;
prove.initSync({ module: readFileSync(wasm) });
// A ToWorker message (model/src/explore/wire.rs): search 1, the outbox + inbox claim.
const message = "1\tclaim\toutbox_inbox";
for (let run = 0; run < 4; run++) {
  const t0 = performance.now();
  const runner = new prove.Runner(message);
  let reply = "";
  while (!runner.over()) reply = runner.step(2048);
  const ms = performance.now() - t0;
  runner.free();
  console.log(`${ms.toFixed(1)} ms ${reply.split("\t").slice(0, 3).join(" ")}`);
}
