//! PostgreSQL, as much of it as the lesson touches: READ COMMITTED transactions whose
//! writes stay private until COMMIT, row locks, `FOR UPDATE` with `SKIP LOCKED`, `NOWAIT`
//! or plain waiting (the waiter re-checks its WHERE clause on the row's newest version, as
//! PostgreSQL's EvalPlanQual does), identity ids handed out at INSERT and visible at
//! COMMIT, roles with grants, and a commit-ordered log for CDC.
//!
//! Each statement runs in one call. A statement that must wait for another transaction's
//! row lock returns [`Exec::Blocked`] and keeps its progress in a cursor the caller owns;
//! the caller calls again once that transaction has ended.
//!
//! Files: `error` (answers and SQLSTATEs), `rows` (rows and how they are stored),
//! `store` (the `Db` struct and its core), `tx_state` and `tx` (transactions' records;
//! BEGIN, COMMIT, ROLLBACK), `grants` and `roles` (who may do what; the checks),
//! `writes` (inserts and deletes), `lock_kinds` and `locks` (the poll's lock clause and
//! cursor; row locks, the relay's poll, UPDATEs of outbox rows), `read` (lookups),
//! `canon` (the canonical state hash). This file only declares and re-exports: a file
//! imports the file that defines what it uses, so no two files import each other.

mod canon;
mod error;
mod grants;
mod lock_kinds;
mod locks;
mod read;
mod roles;
mod rows;
mod store;
#[cfg(test)]
mod tests;
mod tx;
mod tx_state;
mod writes;

pub(crate) use canon::U32Pairs;
pub use error::{sqlstate, Exec, SqlError};
pub use grants::{Privilege, Role, Table};
pub use lock_kinds::{Cursor, LockMode, OutboxChange};
pub use rows::{ActionRow, OutboxData, OutboxRow, TaskRow, WalRecord};
pub use store::Db;
pub use tx_state::{CommitOutcome, TxStatus};
