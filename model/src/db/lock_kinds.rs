//! The kinds the locking statements speak in: the poll's lock clause, the change a locked
//! UPDATE or DELETE makes to an outbox row, and the cursor a waiting statement keeps.

use serde::{Deserialize, Serialize};

/// How the relay's poll locks its rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LockMode {
    /// `FOR UPDATE SKIP LOCKED` (the lesson's choice).
    SkipLocked,
    /// `FOR UPDATE NOWAIT`: error 55P03 on the first locked row.
    Nowait,
    /// `FOR UPDATE`: wait for the holder, then re-check the row.
    Wait,
    /// A plain `SELECT`: no row locks at all.
    None,
}

impl LockMode {
    /// The relay's poll with this lock clause, from the one SQL source.
    pub fn poll_sql(self) -> &'static str {
        match self {
            LockMode::SkipLocked => crate::sql::SELECT_BATCH_SKIP_LOCKED,
            LockMode::Nowait => crate::sql::SELECT_BATCH_NOWAIT,
            LockMode::Wait => crate::sql::SELECT_BATCH_WAIT,
            LockMode::None => crate::sql::SELECT_BATCH_HEAD,
        }
    }
}

/// What an UPDATE or DELETE on the outbox does to each row it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutboxChange {
    /// The relay's mark: `tarqatilgan_vaqt = now(), urinishlar = urinishlar + 1`.
    Published,
    /// A failed publish: `urinishlar = urinishlar + 1`.
    Attempt,
    /// `tarqatilgan_vaqt = now()` alone (the app-role probe).
    SetPublished,
    /// `tarqatilgan_vaqt = NULL`: send it again.
    Unpublish,
    /// `DELETE`.
    Delete,
    /// Moved to the dead-letter table `outbox_olik` (a DELETE … RETURNING into an INSERT).
    DeadLetter,
}

/// Progress of a row-locking or row-updating statement across waits.
#[derive(Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cursor {
    pub started: bool,
    /// Rows (outbox indexes) the statement's snapshot saw, in id order.
    pub candidates: Vec<u32>,
    pub pos: usize,
    /// Rows returned or changed so far.
    pub got: Vec<u32>,
}

clone_reusing!(Cursor { started, pos } refill { candidates, got });

impl Cursor {
    /// Back to the default, keeping the lists' memory for the next statement.
    pub fn reset(&mut self) {
        self.started = false;
        self.candidates.clear();
        self.pos = 0;
        self.got.clear();
    }
}
