// The BullMQ side of the queue truth suite: real BullMQ on a real Redis, driven by the
// Rust tests over stdin/stdout, one JSON object per line.
//
// Request:  {"id": 7, "op": "add", ...}      Answer: {"id": 7, "ok": true, ...}
//                                             or      {"id": 7, "ok": false, "error": "..."}
// Requests run as they arrive and answer when done, so an `add` that waits for Redis can
// stay open while the test restarts Redis. The process exits when stdin closes (its
// parent is gone) or on SIGTERM/SIGINT.
//
// A "worker" here is a BullMQ Worker in manual mode (no processor, `autorun: false`): the
// test decides when it fetches (`getNextJob`), completes (`moveToCompleted`) or fails
// (`moveToFailed`) a job, and it never renews a lock, so a held job behaves like one held
// by a killed worker. The stalled check is the Worker's own `moveStalledJobsToWait`, the
// function its timer runs every `stalledInterval`, called when the test says so.

'use strict';

const readline = require('readline');
const { Queue, Worker, Job } = require('bullmq');
const IORedis = require('ioredis');

const STATES = ['waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized'];

/** Open queues by name: { queue, worker, raw, held: Map<token, Job> }. */
const open = new Map();

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

function connection(url, offlineQueue) {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port),
    enableOfflineQueue: offlineQueue,
  };
}

function get(name) {
  const q = open.get(name);
  if (!q) throw new Error(`no open queue ${name}`);
  return q;
}

async function openQueue(req) {
  const o = req.opts || {};
  // The producer's client, as the relay would set it: the default waits for Redis
  // (ioredis' offline queue), `offlineQueue: false` fails fast.
  const offline = o.offlineQueue !== false;
  const queue = new Queue(req.q, {
    connection: connection(req.url, offline),
    defaultJobOptions: {
      removeOnComplete: o.removeOnComplete ?? false,
      removeOnFail: o.removeOnFail ?? false,
    },
  });
  const worker = new Worker(req.q, null, {
    connection: connection(req.url, true),
    autorun: false,
    lockDuration: o.lockDuration ?? 30000,
    stalledInterval: o.stalledInterval ?? 30000,
    maxStalledCount: o.maxStalledCount ?? 1,
  });
  // A plain client for reading the wait list's order (the key names are BullMQ's own).
  const raw = new IORedis(connection(req.url, true));
  const quiet = (who) => (err) => process.stderr.write(`${req.q} ${who}: ${err.message}\n`);
  queue.on('error', quiet('queue'));
  worker.on('error', quiet('worker'));
  raw.on('error', quiet('raw'));
  await queue.waitUntilReady();
  await worker.waitUntilReady();
  // A queue of this name may be left from an earlier run on the same Redis: start empty.
  await queue.obliterate({ force: true });
  open.set(req.q, { queue, worker, raw, held: new Map() });
  return {};
}

let nonce = 0;

async function add(req) {
  const { queue } = get(req.q);
  // A nonce in the data tells whether the job BullMQ hands back is ours (created now)
  // or one that was already there (the jobId existed: nothing was added).
  const mine = `n${process.pid}-${++nonce}`;
  const opts = {};
  if (req.jobId !== undefined) opts.jobId = String(req.jobId);
  if (req.priority !== undefined) opts.priority = req.priority;
  if (req.delay !== undefined) opts.delay = req.delay;
  const started = Date.now();
  let job;
  try {
    job = await queue.add('event', { event: req.event ?? null, nonce: mine }, opts);
  } catch (err) {
    return { refused: err.message, ms: Date.now() - started };
  }
  const stored = await queue.getJob(job.id);
  const created = !!stored && stored.data.nonce === mine;
  return { job: job.id, created, ms: Date.now() - started };
}

async function take(req) {
  const { worker, held } = get(req.q);
  const failedOnPickup = [];
  for (;;) {
    const job = await worker.getNextJob(req.token, { block: false });
    if (!job) return { job: null, failedOnPickup };
    if (!job.deferredFailure) {
      held.set(req.token, job);
      return { job: job.id, failedOnPickup };
    }
    // A job that stalled more than maxStalledCount times comes back with a deferred
    // failure; a running Worker fails it without calling the processor (this is its own
    // code path: processJob -> getUnrecoverableErrorMessage -> moveToFailed), then
    // fetches the next job, as this loop does.
    await worker.processJob(job, req.token, () => false);
    failedOnPickup.push({ id: job.id, reason: job.deferredFailure });
  }
}

async function finish(req, how) {
  const { held } = get(req.q);
  const job = held.get(req.token);
  if (!job) throw new Error(`token ${req.token} holds no job`);
  held.delete(req.token);
  try {
    if (how === 'complete') {
      await job.moveToCompleted('done', req.token, false);
    } else {
      await job.moveToFailed(new Error('processor threw'), req.token, false);
    }
    return { refused: null };
  } catch (err) {
    return { refused: err.message };
  }
}

// `job.retry()` (default options) on the job with this id, as an operator holding the
// Job object would call it: a job already deleted (removeOnFail) is a Job object whose
// key is gone, so BullMQ's own script answers (-1, "Missing key for job").
async function retry(req) {
  const { queue } = get(req.q);
  const id = String(req.jobId);
  const stored = await queue.getJob(id);
  const job = stored ?? new Job(queue, 'event', {}, {}, id);
  try {
    await job.retry('failed');
    return { refused: null, existed: !!stored };
  } catch (err) {
    return { refused: err.message, existed: !!stored };
  }
}

async function stalled(req) {
  const { worker } = get(req.q);
  const ids = [];
  const onStalled = (id) => ids.push(id);
  worker.on('stalled', onStalled);
  try {
    await worker.moveStalledJobsToWait();
  } finally {
    worker.off('stalled', onStalled);
  }
  return { stalled: ids };
}

async function state(req) {
  const { queue, raw } = get(req.q);
  const counts = await queue.getJobCounts(...STATES);
  const jobs = [];
  for (const job of await queue.getJobs(STATES, 0, -1, true)) {
    jobs.push({
      id: job.id,
      state: await job.getState(),
      attemptsStarted: job.attemptsStarted,
      attemptsMade: job.attemptsMade,
      stalledCounter: job.stalledCounter,
      failedReason: job.failedReason ?? null,
    });
  }
  jobs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // New jobs are pushed on the left, workers take from the right: reversed, the list
  // reads in the order workers will get the jobs.
  const wait = (await raw.lrange(`bull:${req.q}:wait`, 0, -1)).reverse();
  return { counts, jobs, wait };
}

// Whether BullMQ's key `bull:QUEUE:KEY` is still there: a job's lock (`ID:lock`) or the
// stalled check's interval marker (`stalled-check`), both set to expire on Redis' clock.
async function exists(req) {
  const { raw } = get(req.q);
  return { exists: (await raw.exists(`bull:${req.q}:${req.key}`)) === 1 };
}

// Redis that accepts connections but does not answer, for `ms` (CLIENT PAUSE: it ends
// by itself, so nothing is left frozen if the test dies).
async function pause(req) {
  const { raw } = get(req.q);
  await raw.call('CLIENT', 'PAUSE', String(req.ms), 'ALL');
  return {};
}

async function close(req) {
  const q = open.get(req.q);
  if (!q) return {};
  open.delete(req.q);
  await Promise.allSettled([q.worker.close(true), q.queue.close(), q.raw.quit()]);
  return {};
}

const ops = { open: openQueue, add, take, complete: (r) => finish(r, 'complete'),
  fail: (r) => finish(r, 'fail'), retry, stalled, state, exists, pause, close,
  version: async () => ({ bullmq: require('bullmq/package.json').version,
    ioredis: require('ioredis/package.json').version, node: process.version }) };

async function handle(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (err) {
    send({ id: null, ok: false, error: `bad request: ${err.message}` });
    return;
  }
  const op = ops[req.op];
  if (!op) {
    send({ id: req.id, ok: false, error: `unknown op ${req.op}` });
    return;
  }
  try {
    send({ ...(await op(req)), id: req.id, ok: true });
  } catch (err) {
    send({ id: req.id, ok: false, error: err.message });
  }
}

function quit() {
  // Connections may be waiting for a Redis that is gone: do not wait for them.
  process.exit(0);
}

readline.createInterface({ input: process.stdin }).on('line', handle).on('close', quit);
process.on('SIGTERM', quit);
process.on('SIGINT', quit);
send({ id: 0, ok: true, ready: true });
