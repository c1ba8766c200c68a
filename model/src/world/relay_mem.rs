//! What a relay keeps: its polls (what the lesson's `relay()` returns) and its memory
//! between steps.

use crate::db::Cursor;
use serde::{Deserialize, Serialize};

/// One poll of a relay: what the lesson's `relay()` returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Poll {
    /// Rows published (the lesson's `tarqatildi`, the JSON's name for it).
    #[serde(rename = "tarqatildi")]
    pub published: u32,
    /// Rows whose publish failed (the lesson's `xato`).
    #[serde(rename = "xato")]
    pub failed: u32,
}

pub(super) const POLL_HISTORY: usize = 64;

/// A relay's memory between steps: the rows of the poll in hand and what became of them.
/// It is lost when the relay dies (the rows it held are judged again).
#[derive(Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct RelayMem {
    /// The rows (outbox indexes) the poll's SELECT returned, in its order.
    pub batch: Vec<u32>,
    /// The next row of `batch` to publish.
    pub pos: usize,
    /// Rows of this poll whose `queue.add` returned.
    pub ok: Vec<u32>,
    /// Rows of this poll whose `queue.add` failed.
    pub bad: Vec<u32>,
    /// Where a blocked statement stopped, so it goes on from there when the lock goes.
    pub cursor: Cursor,
}

clone_reusing!(RelayMem { pos, cursor } refill { batch, ok, bad });

impl RelayMem {
    /// Back to `RelayMem::default()`, keeping the lists' memory (a relay killed and
    /// restarted fills them again).
    pub(super) fn reset(&mut self) {
        self.batch.clear();
        self.pos = 0;
        self.ok.clear();
        self.bad.clear();
        self.cursor.reset();
    }
}
