//! Queue truth: the model's BullMQ (`outbox_model::queue::Queue`) against real BullMQ on a
//! real Redis, operation by operation.
//!
//! Each scenario is a schedule of queue operations (add with a jobId, a worker's fetch,
//! complete, fail, the stalled-jobs check, time passing, Redis going away or restarting),
//! applied to BullMQ through `harness.js` (a node process) and to the model's queue. After
//! each operation its answers — the result of `add`, what a worker got, the stalled
//! check's ids, complete/fail — are printed side by side and must agree, and so must the
//! queue's state (job ids and states, counts, the wait order, attempts started, times
//! stalled), which is printed at the scenario's marked points.
//!
//! `cargo xtask test` starts a redis-server (`OUTBOX_REDIS_URL`), names its binary for the
//! scenarios that restart Redis (`OUTBOX_REDIS_SERVER`) and the node_modules folder with
//! bullmq and ioredis (`OUTBOX_BULLMQ_MODULES`). Locks are 1 s here, not 30 s.
//!
//! Modules: `dedup` (case 1: jobId in every state, removeOnComplete / removeOnFail),
//! `stalled` (cases 2 and 3: a worker that stops renewing its lock, a late completion),
//! `down` (case 4: Redis refusing connections), `restart` (case 5: Redis restarted with
//! and without persistence), `order` (case 6: FIFO, priority and delay), `retry` (case 7:
//! `job.retry()` on a job failed by stalling, and after `removeOnFail`).
#![cfg(not(target_arch = "wasm32"))]

mod harness;

mod dedup;
mod down;
mod order;
mod restart;
mod retry;
mod stalled;
