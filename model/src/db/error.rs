//! How a statement answers: done, blocked on another transaction, or a PostgreSQL error
//! (SQLSTATE and message). Kept apart so every statement file shares one vocabulary.

use crate::ids::TxId;
use serde::Serialize;

/// SQLSTATE codes the model can raise, as PostgreSQL names them.
pub mod sqlstate {
    pub const INSUFFICIENT_PRIVILEGE: &str = "42501";
    pub const LOCK_NOT_AVAILABLE: &str = "55P03";
    pub const DEADLOCK_DETECTED: &str = "40P01";
    pub const IN_FAILED_TRANSACTION: &str = "25P02";
    /// A primary-key or unique conflict without ON CONFLICT (the model's inserts all have
    /// one, so it is named for `outbox-sim run`'s report and never produced).
    pub const UNIQUE_VIOLATION: &str = "23505";
}

/// An error as PostgreSQL reports it: SQLSTATE and message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct SqlError {
    pub code: &'static str,
    pub message: &'static str,
}

impl SqlError {
    pub const fn new(code: &'static str, message: &'static str) -> Self {
        SqlError { code, message }
    }
}

/// The result of one statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exec<T> {
    Done(T),
    /// Waiting for this transaction to end; call again afterwards.
    Blocked(TxId),
    Err(SqlError),
}

impl<T> Exec<T> {
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Exec<U> {
        match self {
            Exec::Done(t) => Exec::Done(f(t)),
            Exec::Blocked(t) => Exec::Blocked(t),
            Exec::Err(e) => Exec::Err(e),
        }
    }
}
