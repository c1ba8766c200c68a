//! What a scripted statement printed, and how long `pg_sleep` keeps a session busy.

use crate::db::SqlError;
use crate::scenario::ScriptStmt;
use serde::Serialize;

/// A scripted statement's outcome, as psql would print it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ScriptResult {
    pub stmt: ScriptStmt,
    pub sql: &'static str,
    pub result: Result<u64, SqlError>,
    /// Run by a step asked for by hand (`Action::Step`), not by the scheduler.
    pub by_hand: bool,
}

/// How long `SELECT pg_sleep(…)` keeps a scripted session busy.
pub const PG_SLEEP_TICKS: u64 = 100;
