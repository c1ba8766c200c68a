//! Truth: the model's database against a real PostgreSQL, statement by statement.
//!
//! Each scenario is a schedule of statements from `outbox_model::sql`, each run by a named
//! session. On the PostgreSQL side every session is its own connection on its own thread;
//! a statement that does not answer within a moment is waiting, and the server is asked
//! (`pg_blocking_pids`) whom it waits for. On the model side the same schedule runs against
//! `outbox_model::db::Db`. Every answer — rows returned, rows changed, SQLSTATE, who waits
//! for whom — must agree. `cargo xtask test` starts the server and sets `OUTBOX_PG_URL`.
//!
//! `harness` holds the two sides and the `Twin` fixture; every other module is a group of
//! scenarios: `ids` (identity values, the high-water mark), `relay`, `locks`, `recovery`
//! (a killed relay, an operator's un-mark), `inbox`, `idempotency`, `roles`, `retention`, `schema` (the schema panel's facts), `pool` (the pooled BEGIN API against
//! real node-postgres, #43).
#![cfg(not(target_arch = "wasm32"))]

mod harness;

mod idempotency;
mod ids;
mod inbox;
mod locks;
mod pool;
mod recovery;
mod relay;
mod retention;
mod roles;
mod schema;
