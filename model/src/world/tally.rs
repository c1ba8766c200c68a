//! What a whole run did, counted as it happens: SQL errors by SQLSTATE, inbox conflicts,
//! and every relay poll's result. The log and the poll history are capped (the page shows
//! their newest part); these totals are not, so `outbox-sim run` can print them and a
//! scenario file can check an exercise without stepping (#20).

use super::notes::Note;
use crate::action::Step;
use crate::db::sqlstate;
use serde::Serialize;

/// The SQLSTATEs the lesson names, in the order of [`Tally::sql_errors`]; the last slot
/// counts any other code.
pub const SQL_ERROR_CODES: [&str; 5] = [
    sqlstate::LOCK_NOT_AVAILABLE,
    sqlstate::DEADLOCK_DETECTED,
    sqlstate::INSUFFICIENT_PRIVILEGE,
    sqlstate::UNIQUE_VIOLATION,
    sqlstate::IN_FAILED_TRANSACTION,
];

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Tally {
    /// Statements that failed, by [`SQL_ERROR_CODES`]; index 5: any other code.
    pub sql_errors: [u64; 6],
    /// `INSERT INTO inbox … ON CONFLICT DO NOTHING` that inserted nothing: a repeat
    /// delivery the inbox absorbed.
    pub inbox_conflicts: u64,
    /// Relay polls finished (their transaction committed), all relays together.
    pub polls: u64,
    /// Rows those polls published (the lesson's `tarqatildi`) and failed (`xato`).
    pub polls_published: u64,
    pub polls_failed: u64,
    /// Each relay's own part, in the order relays first counted (a few at most: a list,
    /// not a map), for the SKIP LOCKED comparison (#43): only counted, never read by a
    /// rule.
    pub relays: Vec<RelayTally>,
}

/// One relay's lock waits and output.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct RelayTally {
    /// The relay's process index.
    pub relay: u8,
    /// Ticks it spent blocked on a row lock another transaction held (plain `FOR UPDATE`
    /// waits; SKIP LOCKED and NOWAIT never do): from the blocked statement to the relay's
    /// next step.
    pub lock_wait_ticks: u64,
    /// Rows its committed polls published.
    pub published: u64,
    /// The tick its current wait began, while it waits.
    #[serde(skip)]
    pub(super) waiting_since: Option<u64>,
}

impl Tally {
    pub(super) fn note(&mut self, step: Option<Step>, note: &Note) {
        match note {
            Note::Error { code } => {
                let slot = SQL_ERROR_CODES.iter().position(|c| c == code);
                self.sql_errors[slot.unwrap_or(SQL_ERROR_CODES.len())] += 1;
            }
            Note::Inserted { inserted: false } if step == Some(Step::InboxInsert) => {
                self.inbox_conflicts += 1;
            }
            _ => {}
        }
    }

    pub(super) fn poll(&mut self, relay: u8, published: u32, failed: u32) {
        self.entry(relay).published += published as u64;
        self.polls += 1;
        self.polls_published += published as u64;
        self.polls_failed += failed as u64;
    }

    /// A relay blocked on a row lock at `tick`.
    pub(super) fn lock_wait_began(&mut self, relay: u8, tick: u64) {
        self.entry(relay).waiting_since.get_or_insert(tick);
    }

    /// A relay's wait ended at `tick` (it ran again, or it was killed).
    pub(super) fn lock_wait_ended(&mut self, relay: u8, tick: u64) {
        if let Some(r) = self.relays.iter_mut().find(|r| r.relay == relay) {
            if let Some(since) = r.waiting_since.take() {
                r.lock_wait_ticks += tick.saturating_sub(since);
            }
        }
    }

    /// Relay `relay`'s part, made on its first count.
    fn entry(&mut self, relay: u8) -> &mut RelayTally {
        let at = match self.relays.iter().position(|r| r.relay == relay) {
            Some(at) => at,
            None => {
                self.relays.push(RelayTally {
                    relay,
                    ..RelayTally::default()
                });
                self.relays.len() - 1
            }
        };
        &mut self.relays[at]
    }

    /// Relay `relay`'s part (its process index), if it has counted anything.
    pub fn relay(&self, relay: u8) -> Option<&RelayTally> {
        self.relays.iter().find(|r| r.relay == relay)
    }

    /// Ticks every relay waited on row locks, together.
    pub fn lock_wait_ticks(&self) -> u64 {
        self.relays.iter().map(|r| r.lock_wait_ticks).sum()
    }

    /// Events the relays published per 100 ticks of a run `ticks` long (0 before the
    /// first tick).
    pub fn published_per_100_ticks(&self, ticks: u64) -> u64 {
        (self.polls_published * 100).checked_div(ticks).unwrap_or(0)
    }

    /// `(code, count)` for every code that occurred, "other" for codes not listed.
    pub fn sql_errors_by_code(&self) -> Vec<(&'static str, u64)> {
        let names = SQL_ERROR_CODES.iter().copied().chain(["other"]);
        names.zip(self.sql_errors).filter(|&(_, n)| n > 0).collect()
    }
}
