// The node-postgres side of the pool truth (tests/truth/pool.rs, #43): requests that send
// BEGIN, INSERT task, INSERT outbox and COMMIT each with `pool.query`, as the
// `outbox_pool_begin` API of the model does, on a real `pg` Pool against a real PostgreSQL.
//
// Usage: node pool_harness.js '<case JSON>'   (NODE_PATH names the folder with `pg`)
//   { "url": "...", "pool": 1,
//     "requests": [ { "after": null }                      launched at once
//                 , { "after": [0, "begin"] }              launched once request 0's BEGIN
//                                                           has answered (a macrotask later:
//                                                           that request's next statement is
//                                                           sent first, as in the model)
//                 , { "after": null, "dies": true } ]      the server dies between this
//                                                           request's two INSERTs
//   }
// Request r writes the task (egasi_id 1, matn 'r<r>') and the event (malumot {"r": r}).
// Every statement is plain text (no parameters), so pg sends it as one simple query.
//
// The interleaving is the pool's, not the network's: with one connection every
// statement waits for the one before it, and a request launched after another's BEGIN
// queues behind that request's next statement, so the order of statements is fixed by
// pg-pool's queue alone. A death is the process's own SIGKILL (no catch, no ROLLBACK: the
// connections drop and PostgreSQL rolls back whatever they had open), sent once the
// requests that can still go on have gone as far as they can (no statement in flight, no
// checkout waiting): the state the model is in when its API is killed at that step.
//
// Prints one JSON line per answered statement, {"r": 0, "stmt": "begin", "pid": 4242} (the
// backend process that ran it), then {"done": true, "pg": "8.23.1"}, or {"dying": true}
// before the kill.

'use strict';

const { Pool } = require('pg');

const c = JSON.parse(process.argv[2]);
const pool = new Pool({ connectionString: c.url, max: c.pool });
let inFlight = 0;

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

const SQL = {
  begin: () => 'BEGIN',
  task: (r) => `INSERT INTO vazifalar (egasi_id, matn) VALUES (1, 'r${r}') RETURNING pg_backend_pid() AS pid`,
  event: (r) =>
    `INSERT INTO outbox (hodisa_id, tur, foydalanuvchi_id, malumot) VALUES ` +
    `('00000000-0000-4000-8000-${String(r).padStart(12, '0')}', 'vazifa.yaratildi', 1, ` +
    `'{"r": ${r}}') RETURNING pg_backend_pid() AS pid`,
  commit: () => 'COMMIT',
};

// Who waits for whose statement: "r:stmt" -> [launch functions].
const after = new Map();

async function q(r, stmt) {
  inFlight += 1;
  try {
    const res = await pool.query(SQL[stmt](r));
    const pid = res.rows && res.rows[0] ? res.rows[0].pid : null;
    send({ r, stmt, pid });
    for (const launch of after.get(`${r}:${stmt}`) || []) {
      setImmediate(launch);
    }
    return res;
  } finally {
    inFlight -= 1;
  }
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// Dies once nothing else can move: no statement in flight and no checkout waiting, twice
// in a row 50 ms apart.
async function dieWhenQuiet() {
  let quiet = 0;
  while (quiet < 2) {
    await sleep(50);
    quiet = inFlight === 0 && pool.waitingCount === 0 ? quiet + 1 : 0;
  }
  send({ dying: true });
  process.kill(process.pid, 'SIGKILL');
  await sleep(10_000);
}

async function request(r, spec) {
  await q(r, 'begin');
  await q(r, 'task');
  if (spec.dies) {
    await dieWhenQuiet();
  }
  await q(r, 'event');
  await q(r, 'commit');
}

async function main() {
  const runs = [];
  let pending = 0;
  let finishAll;
  const all = new Promise((ok) => (finishAll = ok));
  const launch = (r, spec) => () => {
    runs.push(request(r, spec));
    pending -= 1;
    if (pending === 0) finishAll();
  };
  c.requests.forEach((spec, r) => {
    pending += 1;
    if (spec.after) {
      const key = `${spec.after[0]}:${spec.after[1]}`;
      if (!after.has(key)) after.set(key, []);
      after.get(key).push(launch(r, spec));
    }
  });
  c.requests.forEach((spec, r) => {
    if (!spec.after) launch(r, spec)();
  });
  await all;
  await Promise.all(runs);
  await pool.end();
  send({ done: true, pg: require('pg/package.json').version });
}

main().catch((e) => {
  send({ error: String(e && e.stack ? e.stack : e) });
  process.exit(1);
});
